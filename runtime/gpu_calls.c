/* The runtime side of the shim's calls (gpu_api.h): MLIR's mgpu* entry
 * points over the CUDA driver, and weight uploads, acting on the calling
 * thread's current model (gpu.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/gpu_state.h"
#include "runtime/status.h"

/* initial-exec: the general TLS model would make libkiln_runtime.so need
 * ld-linux's __tls_get_addr (a new NEEDED entry) for one pointer, which
 * fits the static TLS glibc reserves even when the runtime is dlopen'ed. */
__attribute__((
    tls_model("initial-exec"))) _Thread_local KilnGpuModel *kilnGpuCurrent;

//===----------------------------------------------------------------------===//
// Errors
//===----------------------------------------------------------------------===//

/* Records `result` of the driver call described by `what` as g's error
 * unless it succeeded or an error is already recorded; `detail`, if not
 * NULL, is appended (the JIT's log). Returns whether the call succeeded. */
static bool checkDetail(KilnGpuModel *g, CUresult result, const char *what,
                        const char *detail) {
  if (result == CUDA_SUCCESS)
    return true;
  if (!g->error) {
    char text[256];
    kilnCudaDriverDescribe(g->cu, result, text, sizeof(text));
    g->error = kilnStatusCreatef("CUDA error in %s: %s%s%s", what, text,
                                 detail ? ": " : "", detail ? detail : "");
  }
  return false;
}

bool kilnGpuCheck(KilnGpuModel *g, CUresult result, const char *what) {
  return checkDetail(g, result, what, NULL);
}

/* Records an error that is not a driver call's. */
static void fail(KilnGpuModel *g, KilnStatus *s) {
  if (g->error)
    kilnStatusDestroy(s);
  else
    g->error = s;
}

/* The kilnGpuCurrent model if the calls that produce results should run: none
 * outside a load, run or unload, or after an error. */
static KilnGpuModel *working(void) {
  return kilnGpuCurrent && !kilnGpuCurrent->error ? kilnGpuCurrent : NULL;
}

static CUstream streamOf(KilnGpuModel *g, void *stream) {
  return stream ? (CUstream)stream : g->stream;
}

/* Notes device work (a launch, copy, set, allocation or event) given
 * after the run waited for the device (gpu_run.c). */
static void noteWork(KilnGpuModel *g) { g->workAfterSync |= g->synced; }

/* A wait for the device; false if the driver is not to be called: a
 * captured run's waits are the replay's (the runtime waits after it). */
static bool noteSync(KilnGpuModel *g) {
  g->synced = true;
  return !g->capturing;
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

static void *moduleLoad(void *data, size_t size) {
  (void)size; /* a cubin or fatbin carries its own size */
  KilnGpuModel *g = working();
  CUmodule module = NULL;
  if (!g)
    return NULL;
  CUresult r = g->cu->cuModuleLoadData(&module, data);
  if (r == CUDA_ERROR_NO_BINARY_FOR_GPU)
    checkDetail(g, r, "cuModuleLoadData",
                "the model's GPU binary has no code "
                "for this device (recompile it for this device, or as PTX)");
  else
    kilnGpuCheck(g, r, "cuModuleLoadData");
  return module;
}

/* PTX, compiled by the driver's JIT; its error log goes into the error. */
static void *moduleLoadJit(void *ptx, int optLevel) {
  KilnGpuModel *g = working();
  CUmodule module = NULL;
  if (!g)
    return NULL;
  char log[4096] = {0};
  int options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                   CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {log, (void *)(uintptr_t)sizeof(log),
                    (void *)(uintptr_t)optLevel};
  CUresult r = g->cu->cuModuleLoadDataEx(&module, ptx, 3, options, values);
  log[sizeof(log) - 1] = '\0';
  size_t n = strlen(log);
  while (n && (log[n - 1] == '\n' || log[n - 1] == ' '))
    log[--n] = '\0';
  checkDetail(g, r, "cuModuleLoadDataEx (PTX JIT)", n ? log : NULL);
  return module;
}

/* Also after an error, so that a failed run or load leaks nothing. */
static void moduleUnload(void *module) {
  if (kilnGpuCurrent && module) {
    kilnGpuForgetKernels(kilnGpuCurrent);
    kilnGpuCheck(kilnGpuCurrent, kilnGpuCurrent->cu->cuModuleUnload(module),
                 "cuModuleUnload");
  }
}

static size_t hashPointer(const void *p, size_t cap);

/* The slot of (module, name), or the empty slot where it would go. */
static Kernel *findKernel(KilnGpuModel *g, void *module, const char *name) {
  size_t i = hashPointer(name, g->capKernels);
  while (g->kernels[i].module &&
         (g->kernels[i].module != module || g->kernels[i].name != name))
    i = (i + 1) & (g->capKernels - 1);
  return &g->kernels[i];
}

static void growKernels(KilnGpuModel *g) {
  Kernel *old = g->kernels;
  size_t oldCap = g->capKernels;
  g->capKernels = oldCap ? 2 * oldCap : 64;
  g->kernels = calloc(g->capKernels, sizeof(Kernel));
  if (!g->kernels)
    abort();
  for (size_t i = 0; i < oldCap; ++i)
    if (old[i].module)
      *findKernel(g, old[i].module, old[i].name) = old[i];
  free(old);
}

void kilnGpuForgetKernels(KilnGpuModel *g) {
  free(g->kernels);
  g->kernels = NULL;
  g->numKernels = g->capKernels = 0;
}

static void *moduleGetFunction(void *module, const char *name) {
  KilnGpuModel *g = working();
  CUfunction f = NULL;
  if (!g)
    return NULL;
  if (!module) {
    fail(g, kilnStatusCreatef("kernel '%s' requested from a module that did "
                              "not load",
                              name));
    return NULL;
  }
  if (2 * (g->numKernels + 1) > g->capKernels)
    growKernels(g);
  Kernel *k = findKernel(g, module, name);
  if (k->module) {
    f = k->function;
  } else {
    char what[160];
    snprintf(what, sizeof(what), "cuModuleGetFunction ('%s')", name);
    if (!kilnGpuCheck(g, g->cu->cuModuleGetFunction(&f, module, name), what))
      return NULL;
    *k = (Kernel){module, name, f};
    g->numKernels++;
  }
  g->lastFunction = f;
  g->lastFunctionName = name;
  return f;
}

static bool fitsDim(intptr_t v) { return v >= 1 && (uint64_t)v <= UINT32_MAX; }

static void launchKernel(void *function, intptr_t gridX, intptr_t gridY,
                         intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                         intptr_t blockZ, int32_t smem, void *stream,
                         void **params, void **extra, size_t paramsCount) {
  (void)paramsCount; /* the driver reads the kernel's own signature */
  KilnGpuModel *g = working();
  if (!g)
    return;
  noteWork(g);
  const char *name =
      function == (void *)g->lastFunction ? g->lastFunctionName : "?";
  if (!fitsDim(gridX) || !fitsDim(gridY) || !fitsDim(gridZ) ||
      !fitsDim(blockX) || !fitsDim(blockY) || !fitsDim(blockZ) || smem < 0) {
    fail(g, kilnStatusCreatef("kernel '%s': launch dimensions out of range "
                              "(grid %lld x %lld x %lld, block %lld x %lld x "
                              "%lld)",
                              name, (long long)gridX, (long long)gridY,
                              (long long)gridZ, (long long)blockX,
                              (long long)blockY, (long long)blockZ));
    return;
  }
  char what[160];
  snprintf(what, sizeof(what), "cuLaunchKernel (kernel '%s')", name);
  kilnGpuCheck(g,
               g->cu->cuLaunchKernel(
                   function, (unsigned)gridX, (unsigned)gridY, (unsigned)gridZ,
                   (unsigned)blockX, (unsigned)blockY, (unsigned)blockZ,
                   (unsigned)smem, streamOf(g, stream), params, extra),
               what);
}

/* Thread-block clusters need cuLaunchKernelEx, whose attribute structures
 * could not be tested without a device yet: a clear error until then. */
static void launchClusterKernel(void *function, intptr_t clusterX,
                                intptr_t clusterY, intptr_t clusterZ,
                                intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                                intptr_t blockX, intptr_t blockY,
                                intptr_t blockZ, int32_t smem, void *stream,
                                void **params, void **extra) {
  (void)clusterX, (void)clusterY, (void)clusterZ, (void)gridX, (void)gridY;
  (void)gridZ, (void)blockX, (void)blockY, (void)blockZ, (void)smem;
  (void)stream, (void)params, (void)extra;
  KilnGpuModel *g = working();
  if (g)
    fail(g, kilnStatusCreatef("kernel '%s': thread-block cluster launches "
                              "(mgpuLaunchClusterKernel) are not supported by "
                              "this runtime",
                              function == (void *)g->lastFunction
                                  ? g->lastFunctionName
                                  : "?"));
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

/* Every stream the code asks for is the model's own: creating one per
 * launch (what code without gpu-async-region does) would cost a driver
 * call each, and one in-order stream keeps every dependency. */
static void *streamCreate(void) {
  return kilnGpuCurrent ? kilnGpuCurrent->stream : NULL;
}

static void streamDestroy(void *stream) {
  if (kilnGpuCurrent && stream && stream != (void *)kilnGpuCurrent->stream)
    kilnGpuCheck(kilnGpuCurrent, kilnGpuCurrent->cu->cuStreamDestroy(stream),
                 "cuStreamDestroy");
}

static void streamSynchronize(void *stream) {
  KilnGpuModel *g = working();
  if (g && noteSync(g))
    kilnGpuCheck(g, g->cu->cuStreamSynchronize(streamOf(g, stream)),
                 "cuStreamSynchronize");
}

static void streamWaitEvent(void *stream, void *event) {
  KilnGpuModel *g = working();
  if (g)
    noteWork(g);
  if (g && event)
    kilnGpuCheck(g, g->cu->cuStreamWaitEvent(streamOf(g, stream), event, 0),
                 "cuStreamWaitEvent");
}

static void *eventCreate(void) {
  KilnGpuModel *g = working();
  CUevent event = NULL;
  if (g)
    kilnGpuCheck(g, g->cu->cuEventCreate(&event, CU_EVENT_DISABLE_TIMING),
                 "cuEventCreate");
  return event;
}

static void eventDestroy(void *event) {
  if (kilnGpuCurrent && event)
    kilnGpuCheck(kilnGpuCurrent, kilnGpuCurrent->cu->cuEventDestroy(event),
                 "cuEventDestroy");
}

static void eventSynchronize(void *event) {
  KilnGpuModel *g = working();
  if (g && event && noteSync(g))
    kilnGpuCheck(g, g->cu->cuEventSynchronize(event), "cuEventSynchronize");
}

static void eventRecord(void *event, void *stream) {
  KilnGpuModel *g = working();
  if (g)
    noteWork(g);
  if (g && event)
    kilnGpuCheck(g, g->cu->cuEventRecord(event, streamOf(g, stream)),
                 "cuEventRecord");
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

static void *memAlloc(uint64_t bytes, void *stream, int isHostShared) {
  KilnGpuModel *g = working();
  CUdeviceptr p = 0;
  if (!g || bytes == 0) /* the driver rejects empty allocations */
    return NULL;
  noteWork(g);
  if (isHostShared) {
    if (!kilnGpuCheck(g,
                      g->cu->cuMemAllocManaged(&p, bytes, CU_MEM_ATTACH_GLOBAL),
                      "cuMemAllocManaged"))
      return NULL;
    CUdeviceptr *grown =
        realloc(g->managed, (g->numManaged + 1) * sizeof(*grown));
    if (!grown)
      abort();
    g->managed = grown;
    g->managed[g->numManaged++] = p;
  } else if (g->asyncAlloc) {
    kilnGpuCheck(g, g->cu->cuMemAllocAsync(&p, bytes, streamOf(g, stream)),
                 "cuMemAllocAsync");
  } else {
    kilnGpuCheck(g, g->cu->cuMemAlloc(&p, bytes), "cuMemAlloc");
  }
  return (void *)(uintptr_t)p;
}

/* Removes `p` from the managed list; false if it is not there. */
static bool takeManaged(KilnGpuModel *g, CUdeviceptr p) {
  for (size_t i = 0; i < g->numManaged; ++i) {
    if (g->managed[i] == p) {
      g->managed[i] = g->managed[--g->numManaged];
      return true;
    }
  }
  return false;
}

/* Also after an error, so that a failed run leaks nothing. */
static void memFree(void *ptr, void *stream) {
  KilnGpuModel *g = kilnGpuCurrent;
  CUdeviceptr p = (CUdeviceptr)(uintptr_t)ptr;
  if (!g || !p)
    return;
  if (takeManaged(g, p) || !g->asyncAlloc)
    kilnGpuCheck(g, g->cu->cuMemFree(p), "cuMemFree");
  else
    kilnGpuCheck(g, g->cu->cuMemFreeAsync(p, streamOf(g, stream)),
                 "cuMemFreeAsync");
}

/* With unified addressing one call copies in every direction. */
static void memCopy(void *dst, void *src, size_t bytes, void *stream) {
  KilnGpuModel *g = working();
  if (g)
    noteWork(g);
  if (g && bytes)
    kilnGpuCheck(g,
                 g->cu->cuMemcpyAsync((CUdeviceptr)(uintptr_t)dst,
                                      (CUdeviceptr)(uintptr_t)src, bytes,
                                      streamOf(g, stream)),
                 "cuMemcpyAsync");
}

static void memset32(void *dst, uint32_t value, size_t count, void *stream) {
  KilnGpuModel *g = working();
  if (g)
    noteWork(g);
  if (g && count)
    kilnGpuCheck(g,
                 g->cu->cuMemsetD32Async((CUdeviceptr)(uintptr_t)dst, value,
                                         count, streamOf(g, stream)),
                 "cuMemsetD32Async");
}

static void memset16(void *dst, uint16_t value, size_t count, void *stream) {
  KilnGpuModel *g = working();
  if (g)
    noteWork(g);
  if (g && count)
    kilnGpuCheck(g,
                 g->cu->cuMemsetD16Async((CUdeviceptr)(uintptr_t)dst, value,
                                         count, streamOf(g, stream)),
                 "cuMemsetD16Async");
}

/* The first byte and byte size of a dense memref descriptor of `rank`
 * ({allocated, aligned, offset, sizes[rank], strides[rank]}). */
static char *memRefBytes(int64_t rank, void *descriptor, int64_t elemBytes,
                         size_t *bytes) {
  char *aligned;
  int64_t offset;
  memcpy(&aligned, (char *)descriptor + sizeof(void *), sizeof(aligned));
  memcpy(&offset, (char *)descriptor + 2 * sizeof(void *), sizeof(offset));
  const char *sizes = (char *)descriptor + 2 * sizeof(void *) + 8;
  uint64_t n = (uint64_t)elemBytes;
  for (int64_t i = 0; i < rank; ++i) {
    int64_t size;
    memcpy(&size, sizes + 8 * i, sizeof(size));
    n *= (uint64_t)size;
  }
  *bytes = (size_t)n;
  return aligned + offset * elemBytes;
}

static void memHostRegisterMemRef(int64_t rank, void *descriptor,
                                  int64_t elemBytes) {
  KilnGpuModel *g = working();
  size_t bytes;
  char *p = g ? memRefBytes(rank, descriptor, elemBytes, &bytes) : NULL;
  if (p && bytes)
    kilnGpuCheck(g, g->cu->cuMemHostRegister(p, bytes, 0), "cuMemHostRegister");
}

static void memHostUnregisterMemRef(int64_t rank, void *descriptor,
                                    int64_t elemBytes) {
  KilnGpuModel *g = kilnGpuCurrent;
  size_t bytes;
  char *p = g ? memRefBytes(rank, descriptor, elemBytes, &bytes) : NULL;
  if (p && bytes)
    kilnGpuCheck(g, g->cu->cuMemHostUnregister(p), "cuMemHostUnregister");
}

/* A model runs on the device it was loaded on. */
static void setDefaultDevice(int32_t device) {
  KilnGpuModel *g = working();
  if (g && device != g->ordinal)
    fail(g, kilnStatusCreatef("the model asks for CUDA device %d, but it was "
                              "loaded on device %d (set KILN_CUDA_DEVICE)",
                              (int)device, g->ordinal));
}

//===----------------------------------------------------------------------===//
// Weights
//===----------------------------------------------------------------------===//

static size_t hashPointer(const void *p, size_t cap) {
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 32) & (cap - 1);
}

/* The slot holding `host`, or the empty slot where it would go. */
static Weight *findWeight(KilnGpuModel *g, const void *host) {
  size_t i = hashPointer(host, g->capWeights);
  while (g->weights[i].host && g->weights[i].host != host)
    i = (i + 1) & (g->capWeights - 1);
  return &g->weights[i];
}

static void growWeights(KilnGpuModel *g) {
  Weight *old = g->weights;
  size_t oldCap = g->capWeights;
  g->capWeights = oldCap ? 2 * oldCap : 64;
  g->weights = calloc(g->capWeights, sizeof(Weight));
  if (!g->weights)
    abort();
  for (size_t i = 0; i < oldCap; ++i)
    if (old[i].host)
      *findWeight(g, old[i].host) = old[i];
  free(old);
}

/* The device copy of `bytes` bytes at `host`, uploaded at the first call
 * (ordered before the run's kernels on the model's stream). */
static CUdeviceptr weightOf(KilnGpuModel *g, const void *host, size_t bytes) {
  if (2 * (g->numWeights + 1) > g->capWeights)
    growWeights(g);
  Weight *w = findWeight(g, host);
  if (w->host) {
    if (w->bytes == bytes)
      return w->dev;
    fail(g, kilnStatusCreatef("weight at %p: asked for with %zu bytes, "
                              "uploaded with %zu",
                              host, bytes, w->bytes));
    return 0;
  }
  CUdeviceptr dev = 0;
  if (!kilnGpuCheck(g, g->cu->cuMemAlloc(&dev, bytes), "cuMemAlloc (weight)"))
    return 0;
  if (!kilnGpuCheck(g,
                    g->cu->cuMemcpyAsync(dev, (CUdeviceptr)(uintptr_t)host,
                                         bytes, g->stream),
                    "cuMemcpyAsync (weight upload)")) {
    g->cu->cuMemFree(dev);
    return 0;
  }
  *w = (Weight){host, bytes, dev};
  g->numWeights++;
  return dev;
}

static void constant(KilnGpuMemRef1D *result, KilnGpuMemRef1D *host,
                     size_t elemBytes) {
  *result = (KilnGpuMemRef1D){NULL, NULL, 0, 0, 1};
  KilnGpuModel *g = working();
  if (!g || host->size <= 0)
    return;
  if (host->stride != 1 && host->size > 1) {
    fail(g, kilnStatusCreatef("weight with stride %lld: weights must be "
                              "contiguous",
                              (long long)host->stride));
    return;
  }
  const char *data = (const char *)host->aligned + host->offset * elemBytes;
  CUdeviceptr dev = weightOf(g, data, (size_t)host->size * elemBytes);
  if (!dev)
    return;
  void *p = (void *)(uintptr_t)dev;
  *result = (KilnGpuMemRef1D){p, p, 0, host->size, 1};
}

void kilnGpuFreeWeights(KilnGpuModel *g) {
  for (size_t i = 0; i < g->capWeights; ++i)
    if (g->weights[i].host)
      kilnGpuCheck(g, g->cu->cuMemFree(g->weights[i].dev),
                   "cuMemFree (weight)");
  free(g->weights);
  g->weights = NULL;
  g->numWeights = g->capWeights = 0;
}

void kilnGpuFillApi(KilnGpuApi *api) {
  api->moduleLoad = moduleLoad;
  api->moduleLoadJit = moduleLoadJit;
  api->moduleUnload = moduleUnload;
  api->moduleGetFunction = moduleGetFunction;
  api->launchKernel = launchKernel;
  api->launchClusterKernel = launchClusterKernel;
  api->streamCreate = streamCreate;
  api->streamDestroy = streamDestroy;
  api->streamSynchronize = streamSynchronize;
  api->streamWaitEvent = streamWaitEvent;
  api->eventCreate = eventCreate;
  api->eventDestroy = eventDestroy;
  api->eventSynchronize = eventSynchronize;
  api->eventRecord = eventRecord;
  api->memAlloc = memAlloc;
  api->memFree = memFree;
  api->memCopy = memCopy;
  api->memset32 = memset32;
  api->memset16 = memset16;
  api->memHostRegisterMemRef = memHostRegisterMemRef;
  api->memHostUnregisterMemRef = memHostUnregisterMemRef;
  api->setDefaultDevice = setDefaultDevice;
  api->constant = constant;
  api->version = KILN_GPU_API_VERSION;
}

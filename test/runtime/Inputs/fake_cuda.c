/* A fake CUDA driver (built as libcuda.so.1 in build/lib/fake-cuda/), so the
 * runtime's GPU side is tested on machines without a GPU. Tests put its
 * directory first in LD_LIBRARY_PATH. Behaviour by environment:
 *
 *   FAKE_CUDA=ok        (default) one device "Fake GPU", compute capability
 *                       9.0, memory pools; device memory is host malloc,
 *                       copies are memcpy, any bytes load as a module
 *                       (but PTX starting with "BAD" fails to JIT, with a
 *                       log); the kernel "fake_add_f32" (params: float *a,
 *                       float *b, float *out, int64_t n) adds on the host,
 *                       other kernels are not found.
 *   FAKE_CUDA=old       as ok, capability 7.0
 *   FAKE_CUDA=nodevice  cuInit fails with CUDA_ERROR_NO_DEVICE
 *   FAKE_CUDA_FAIL=F[:N] the N-th call (default 1st) of function F fails
 *   FAKE_CUDA_GUARD=1   device memory is mapped inaccessible (PROT_NONE)
 *                       and opened only inside the driver's copies and
 *                       sets and fake_add_f32, so host code that reads
 *                       or writes device memory crashes here as on a
 *                       real GPU
 *   FAKE_CUDA_LOG=FILE  where the call summary goes at exit (appended;
 *                       default stderr): counts per function, and what is
 *                       still allocated, loaded, created or retained.
 *
 * Stream capture (thread-local mode) records copies, sets and launches
 * into a graph that cuGraphLaunch replays; allocations made while
 * capturing belong to the graph. Synchronizing, cuMemAlloc and cuMemFree
 * while capturing fail with CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED and
 * invalidate the capture, as the real driver's thread-local mode does. */
#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The driver's types (opaque handles), as the runtime declares them: the
 * sanitizer build checks that functions are called through pointers of
 * their own type. */
#include "runtime/cuda_driver.h"

#include <sys/mman.h>

/* Counted calls, in the order the summary prints them (clang-format
 * would reflow the list differently on every run). */
// clang-format off
#define FAKE_CALLS(X)                                                          \
  X(cuInit) X(cuDevicePrimaryCtxRetain) X(cuDevicePrimaryCtxRelease_v2)        \
  X(cuCtxPushCurrent_v2) X(cuCtxPopCurrent_v2) X(cuStreamCreate)               \
  X(cuStreamDestroy_v2) X(cuStreamSynchronize) X(cuStreamWaitEvent)            \
  X(cuEventCreate) X(cuEventDestroy_v2) X(cuEventRecord) X(cuEventSynchronize) \
  X(cuModuleLoadData) X(cuModuleLoadDataEx) X(cuModuleUnload)                  \
  X(cuModuleGetFunction) X(cuLaunchKernel) X(cuMemAlloc_v2) X(cuMemAllocAsync) \
  X(cuMemAllocManaged) X(cuMemFree_v2) X(cuMemFreeAsync) X(cuMemcpyAsync)      \
  X(cuMemsetD32Async) X(cuMemsetD16Async) X(cuMemPoolSetAttribute)          \
  X(cuStreamBeginCapture_v2) X(cuStreamEndCapture)                             \
  X(cuGraphInstantiateWithFlags) X(cuGraphLaunch) X(cuGraphExecDestroy)        \
  X(cuGraphDestroy) X(cuMemHostAlloc) X(cuMemFreeHost)
// clang-format on

#define FAKE_ENUM(name) CALL_##name,
enum { FAKE_CALLS(FAKE_ENUM) NUM_CALLS };
#define FAKE_NAME(name) #name,
static const char *callNames[] = {FAKE_CALLS(FAKE_NAME)};

static long calls[NUM_CALLS];
static long noopLaunches; /* launches of the no-op kernel */
static long liveMemory, liveModules, liveStreams, liveEvents, retained,
    ctxDepth, liveGraphs, livePinned;
static unsigned long long poolThreshold;

/* Counts a call; returns the error it must fail with (FAKE_CUDA_FAIL). */
static CUresult enter(int call, CUresult failure) {
  long n = ++calls[call];
  const char *spec = getenv("FAKE_CUDA_FAIL");
  size_t len = strlen(callNames[call]);
  if (!spec || strncmp(spec, callNames[call], len) ||
      (spec[len] && spec[len] != ':'))
    return 0;
  long which = spec[len] == ':' ? atol(spec + len + 1) : 1;
  return n == which ? failure : 0;
}

static const char *mode(void) {
  const char *m = getenv("FAKE_CUDA");
  return m && *m ? m : "ok";
}

static void summary(void) __attribute__((destructor));
static void summary(void) {
  const char *path = getenv("FAKE_CUDA_LOG");
  FILE *f = path ? fopen(path, "a") : stderr;
  if (!f)
    return;
  for (int i = 0; i < NUM_CALLS; ++i)
    if (calls[i])
      fprintf(f, "fake-cuda: %s %ld\n", callNames[i], calls[i]);
  if (noopLaunches)
    fprintf(f, "fake-cuda: no-op kernel launches %ld\n", noopLaunches);
  fprintf(f, "fake-cuda: pool release threshold %llu\n", poolThreshold);
  fprintf(f,
          "fake-cuda: live memory %ld modules %ld streams %ld events %ld "
          "contexts %ld pushed %ld\n",
          liveMemory, liveModules, liveStreams, liveEvents, retained, ctxDepth);
  fprintf(f, "fake-cuda: live graphs %ld pinned %ld\n", liveGraphs, livePinned);
  if (f != stderr)
    fclose(f);
}

//===----------------------------------------------------------------------===//
// Errors, devices, contexts
//===----------------------------------------------------------------------===//

static const struct {
  CUresult code;
  const char *name, *text;
} errors[] = {
    {0, "CUDA_SUCCESS", "no error"},
    {1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"},
    {2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"},
    {100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"},
    {218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"},
    {500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"},
    {900, "CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED",
     "operation not permitted when stream is capturing"},
    {901, "CUDA_ERROR_STREAM_CAPTURE_INVALIDATED",
     "operation failed due to a previous error during capture"},
    {719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"},
    {999, "CUDA_ERROR_UNKNOWN", "unknown error"},
};

CUresult cuGetErrorName(CUresult error, const char **name) {
  for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); ++i)
    if (errors[i].code == error)
      return *name = errors[i].name, 0;
  return 1;
}

CUresult cuGetErrorString(CUresult error, const char **text) {
  for (size_t i = 0; i < sizeof(errors) / sizeof(errors[0]); ++i)
    if (errors[i].code == error)
      return *text = errors[i].text, 0;
  return 1;
}

CUresult cuInit(unsigned flags) {
  (void)flags;
  CUresult r = enter(CALL_cuInit, 999);
  return r ? r : !strcmp(mode(), "nodevice") ? 100 : 0;
}

CUresult cuDeviceGetCount(int *count) { return *count = 1, 0; }

CUresult cuDeviceGet(CUdevice *device, int ordinal) {
  return ordinal == 0 ? (*device = 0, 0) : 101 /* INVALID_DEVICE */;
}

CUresult cuDeviceGetName(char *name, int len, CUdevice device) {
  (void)device;
  snprintf(name, (size_t)len, "Fake GPU");
  return 0;
}

CUresult cuDeviceGetAttribute(int *value, int attribute, CUdevice device) {
  (void)device;
  int old = !strcmp(mode(), "old");
  switch (attribute) {
  case 75: /* compute capability major */
    return *value = old ? 7 : 9, 0;
  case 76: /* minor */
    return *value = 0, 0;
  case 115: /* memory pools supported */
    return *value = 1, 0;
  }
  return 1;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext *ctx, CUdevice device) {
  (void)device;
  static int context;
  CUresult r = enter(CALL_cuDevicePrimaryCtxRetain, 2);
  if (r)
    return r;
  ++retained;
  *ctx = (CUcontext)&context;
  return 0;
}

CUresult cuDevicePrimaryCtxRelease_v2(CUdevice device) {
  (void)device;
  --retained;
  return enter(CALL_cuDevicePrimaryCtxRelease_v2, 999);
}

CUresult cuCtxPushCurrent_v2(CUcontext ctx) {
  (void)ctx;
  ++ctxDepth;
  return enter(CALL_cuCtxPushCurrent_v2, 999);
}

CUresult cuCtxPopCurrent_v2(CUcontext *ctx) {
  if (ctx)
    *ctx = NULL;
  --ctxDepth;
  return enter(CALL_cuCtxPopCurrent_v2, 999);
}

//===----------------------------------------------------------------------===//
// Streams and events
//===----------------------------------------------------------------------===//

static int handleStorage; /* streams and events need only be non-NULL */

/* Stream capture: the graph being recorded (below), and whether a call
 * refused while capturing invalidated it. */
typedef struct Graph Graph;
static Graph *capturing;
static bool captureInvalid;

/* A call a thread-local capture refuses: it fails and invalidates it. */
static CUresult refusedInCapture(void) {
  captureInvalid = true;
  return 900;
}

CUresult cuStreamCreate(CUstream *stream, unsigned flags) {
  (void)flags;
  CUresult r = enter(CALL_cuStreamCreate, 2);
  if (r)
    return r;
  ++liveStreams;
  *stream = (CUstream)&handleStorage;
  return 0;
}

CUresult cuStreamDestroy_v2(CUstream stream) {
  (void)stream;
  --liveStreams;
  return enter(CALL_cuStreamDestroy_v2, 999);
}

CUresult cuStreamSynchronize(CUstream stream) {
  (void)stream;
  CUresult r = enter(CALL_cuStreamSynchronize, 719);
  return r ? r : capturing ? refusedInCapture() : 0;
}

CUresult cuStreamWaitEvent(CUstream stream, CUevent event, unsigned flags) {
  (void)stream, (void)event, (void)flags;
  return enter(CALL_cuStreamWaitEvent, 999);
}

CUresult cuEventCreate(CUevent *event, unsigned flags) {
  (void)flags;
  CUresult r = enter(CALL_cuEventCreate, 2);
  if (r)
    return r;
  ++liveEvents;
  *event = (CUevent)&handleStorage;
  return 0;
}

CUresult cuEventDestroy_v2(CUevent event) {
  (void)event;
  --liveEvents;
  return enter(CALL_cuEventDestroy_v2, 999);
}

CUresult cuEventRecord(CUevent event, CUstream stream) {
  (void)event, (void)stream;
  return enter(CALL_cuEventRecord, 999);
}

CUresult cuEventSynchronize(CUevent event) {
  (void)event;
  CUresult r = enter(CALL_cuEventSynchronize, 999);
  return r ? r : capturing ? refusedInCapture() : 0;
}

//===----------------------------------------------------------------------===//
// Modules and launches
//===----------------------------------------------------------------------===//

static int moduleStorage;

static CUresult loadModule(CUmodule *module, const void *image, CUresult r) {
  if (r)
    return r;
  if (!strncmp(image, "BAD", 3))
    return 218;
  ++liveModules;
  *module = (CUmodule)&moduleStorage;
  return 0;
}

CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  return loadModule(module, image, enter(CALL_cuModuleLoadData, 218));
}

/* Writes a log into the CU_JIT_ERROR_LOG_BUFFER option (5) for bad PTX. */
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image,
                            unsigned numOptions, int *options, void **values) {
  CUresult r = loadModule(module, image, enter(CALL_cuModuleLoadDataEx, 218));
  for (unsigned i = 0; r && i < numOptions; ++i)
    if (options[i] == 5)
      snprintf(values[i], 4096,
               "ptxas application ptx input, line 1; fatal   : Parsing error "
               "near 'BAD': syntax error\n");
  return r;
}

CUresult cuModuleUnload(CUmodule module) {
  (void)module;
  --liveModules;
  return enter(CALL_cuModuleUnload, 999);
}

static int addKernel;
/* With FAKE_CUDA_ANY_KERNEL=1 every other kernel name resolves to a kernel
 * that does nothing, so a real compiled model's host code runs through
 * (its outputs are then meaningless). */
static int noopKernel;

CUresult cuModuleGetFunction(CUfunction *function, CUmodule module,
                             const char *name) {
  (void)module;
  CUresult r = enter(CALL_cuModuleGetFunction, 500);
  if (r)
    return r;
  if (!strcmp(name, "fake_add_f32"))
    *function = (CUfunction)&addKernel;
  else if (getenv("FAKE_CUDA_ANY_KERNEL"))
    *function = (CUfunction)&noopKernel;
  else
    return 500;
  return 0;
}

/* Opens (or closes) a guarded allocation (FAKE_CUDA_GUARD, below). */
static void setAccess(uintptr_t p, bool open);

/* One recorded or immediate piece of device work. */
typedef struct Work {
  enum { WORK_COPY, WORK_SET32, WORK_SET16, WORK_ADD, WORK_NOOP } kind;
  uintptr_t dst, src; /* copies and sets; src is the value of a set */
  size_t count;       /* bytes of a copy, elements of a set */
  float *a, *b, *out; /* fake_add_f32's parameters */
  int64_t n;
} Work;

static void recordWork(const Work *w);

/* Does `w` now, or records it into the graph being captured. */
static void perform(const Work *w) {
  if (capturing) {
    recordWork(w);
    return;
  }
  switch (w->kind) {
  case WORK_COPY:
    setAccess(w->dst, true);
    setAccess(w->src, true);
    memcpy((void *)w->dst, (const void *)w->src, w->count);
    setAccess(w->dst, false);
    setAccess(w->src, false);
    break;
  case WORK_SET32:
  case WORK_SET16: {
    size_t size = w->kind == WORK_SET32 ? 4 : 2;
    uint32_t v32 = (uint32_t)w->src;
    uint16_t v16 = (uint16_t)w->src;
    setAccess(w->dst, true);
    for (size_t i = 0; i < w->count; ++i)
      memcpy((char *)w->dst + size * i, size == 4 ? (void *)&v32 : &v16, size);
    setAccess(w->dst, false);
    break;
  }
  case WORK_ADD: {
    /* The kernel runs "on the device": its buffers open while it runs. */
    uintptr_t buffers[3] = {(uintptr_t)w->a, (uintptr_t)w->b,
                            (uintptr_t)w->out};
    for (int i = 0; i < 3; ++i)
      setAccess(buffers[i], true);
    for (int64_t i = 0; i < w->n; ++i)
      w->out[i] = w->a[i] + w->b[i];
    for (int i = 0; i < 3; ++i)
      setAccess(buffers[i], false);
    break;
  }
  case WORK_NOOP:
    ++noopLaunches;
    break;
  }
}

CUresult cuLaunchKernel(CUfunction f, unsigned gridX, unsigned gridY,
                        unsigned gridZ, unsigned blockX, unsigned blockY,
                        unsigned blockZ, unsigned smem, CUstream stream,
                        void **params, void **extra) {
  (void)gridX, (void)gridY, (void)gridZ, (void)blockX, (void)blockY;
  (void)blockZ, (void)smem, (void)stream, (void)extra;
  CUresult r = enter(CALL_cuLaunchKernel, 719);
  if (!r && f == (CUfunction)&noopKernel) {
    perform(&(Work){.kind = WORK_NOOP});
    return 0;
  }
  if (r || f != (CUfunction)&addKernel)
    return r ? r : 1;
  /* The parameters are read now, as the driver copies them at a launch. */
  perform(&(Work){.kind = WORK_ADD,
                  .a = *(float **)params[0],
                  .b = *(float **)params[1],
                  .out = *(float **)params[2],
                  .n = *(int64_t *)params[3]});
  return 0;
}

//===----------------------------------------------------------------------===//
// Memory
//===----------------------------------------------------------------------===//

/* FAKE_CUDA_GUARD: the guarded allocations (page-granular mappings). */
typedef struct Guarded {
  uintptr_t base;
  size_t size;
} Guarded;
static Guarded *guarded;
static size_t numGuarded, capGuarded;

static bool guardOn(void) {
  const char *e = getenv("FAKE_CUDA_GUARD");
  return e && !strcmp(e, "1");
}

static size_t pageRound(size_t n) { return (n + 4095) / 4096 * 4096; }

/* The guarded allocation holding address p, or NULL. */
static Guarded *findGuarded(uintptr_t p) {
  for (size_t i = 0; i < numGuarded; ++i)
    if (p >= guarded[i].base && p < guarded[i].base + guarded[i].size)
      return &guarded[i];
  return NULL;
}

/* Opens (or closes) the guarded allocation holding p, if any. */
static void setAccess(uintptr_t p, bool open) {
  Guarded *g = findGuarded(p);
  if (g)
    mprotect((void *)g->base, pageRound(g->size),
             open ? PROT_READ | PROT_WRITE : PROT_NONE);
}

static void *allocateGuarded(size_t bytes) {
  void *p = mmap(NULL, pageRound(bytes), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
                 -1, 0);
  if (p == MAP_FAILED)
    return NULL;
  if (numGuarded == capGuarded) {
    capGuarded = capGuarded ? 2 * capGuarded : 64;
    guarded = realloc(guarded, capGuarded * sizeof(*guarded));
    if (!guarded)
      abort();
  }
  guarded[numGuarded++] = (Guarded){(uintptr_t)p, bytes};
  return p;
}

static CUresult allocate(CUdeviceptr *ptr, size_t bytes, bool managed,
                         CUresult r) {
  if (r)
    return r;
  void *p = !bytes                  ? NULL
            : guardOn() && !managed ? allocateGuarded(bytes)
                                    : malloc(bytes);
  if (!p)
    return 1;
  ++liveMemory;
  *ptr = (CUdeviceptr)(uintptr_t)p;
  return 0;
}

CUresult cuMemAlloc_v2(CUdeviceptr *ptr, size_t bytes) {
  CUresult r = enter(CALL_cuMemAlloc_v2, 2);
  return allocate(ptr, bytes, false,
                  r           ? r
                  : capturing ? refusedInCapture()
                              : 0);
}

static void graphOwn(CUdeviceptr ptr);

/* Allocations while capturing are the graph's, freed with it. */
CUresult cuMemAllocAsync(CUdeviceptr *ptr, size_t bytes, CUstream stream) {
  (void)stream;
  CUresult r = allocate(ptr, bytes, false, enter(CALL_cuMemAllocAsync, 2));
  if (!r && capturing)
    graphOwn(*ptr);
  return r;
}

CUresult cuMemAllocManaged(CUdeviceptr *ptr, size_t bytes, unsigned flags) {
  (void)flags;
  return allocate(ptr, bytes, true, enter(CALL_cuMemAllocManaged, 2));
}

static CUresult release(CUdeviceptr ptr, CUresult r) {
  if (!ptr)
    return 1;
  Guarded *g = findGuarded((uintptr_t)ptr);
  if (g) {
    munmap((void *)g->base, pageRound(g->size));
    *g = guarded[--numGuarded];
  } else {
    free((void *)(uintptr_t)ptr);
  }
  --liveMemory;
  return r;
}

CUresult cuMemFree_v2(CUdeviceptr ptr) {
  CUresult r = enter(CALL_cuMemFree_v2, 999);
  return capturing && !r ? refusedInCapture() : release(ptr, r);
}

static bool graphOwns(CUdeviceptr ptr);

/* While capturing, a free of the graph's own allocation is its end in the
 * graph (the memory stays the graph's); of any other, refused here. */
CUresult cuMemFreeAsync(CUdeviceptr ptr, CUstream stream) {
  (void)stream;
  CUresult r = enter(CALL_cuMemFreeAsync, 999);
  if (capturing && !r)
    return graphOwns(ptr) ? 0 : refusedInCapture();
  return release(ptr, r);
}

CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                       CUstream stream) {
  (void)stream;
  CUresult r = enter(CALL_cuMemcpyAsync, 999);
  if (!r && bytes)
    perform(&(Work){.kind = WORK_COPY, .dst = dst, .src = src, .count = bytes});
  return r;
}

CUresult cuMemsetD32Async(CUdeviceptr dst, unsigned value, size_t count,
                          CUstream stream) {
  (void)stream;
  CUresult r = enter(CALL_cuMemsetD32Async, 999);
  if (!r)
    perform(
        &(Work){.kind = WORK_SET32, .dst = dst, .src = value, .count = count});
  return r;
}

CUresult cuMemsetD16Async(CUdeviceptr dst, unsigned short value, size_t count,
                          CUstream stream) {
  (void)stream;
  CUresult r = enter(CALL_cuMemsetD16Async, 999);
  if (!r)
    perform(
        &(Work){.kind = WORK_SET16, .dst = dst, .src = value, .count = count});
  return r;
}

CUresult cuMemHostRegister_v2(void *ptr, size_t bytes, unsigned flags) {
  (void)ptr, (void)bytes, (void)flags;
  return 0;
}

CUresult cuMemHostUnregister(void *ptr) {
  (void)ptr;
  return 0;
}

static int poolStorage;

CUresult cuDeviceGetDefaultMemPool(CUmemoryPool *pool, CUdevice device) {
  (void)device;
  *pool = (CUmemoryPool)&poolStorage;
  return 0;
}

CUresult cuMemPoolSetAttribute(CUmemoryPool pool, int attribute, void *value) {
  (void)pool;
  CUresult r = enter(CALL_cuMemPoolSetAttribute, 999);
  if (!r && attribute == 4 /* release threshold */)
    memcpy(&poolThreshold, value, sizeof(poolThreshold));
  return r;
}

CUresult cuMemHostAlloc(void **ptr, size_t bytes, unsigned flags) {
  (void)flags;
  CUresult r = enter(CALL_cuMemHostAlloc, 2);
  if (r)
    return r;
  if (!(*ptr = malloc(bytes ? bytes : 1)))
    return 2;
  ++livePinned;
  return 0;
}

CUresult cuMemFreeHost(void *ptr) {
  CUresult r = enter(CALL_cuMemFreeHost, 999);
  free(ptr);
  --livePinned;
  return r;
}

//===----------------------------------------------------------------------===//
// Graphs
//===----------------------------------------------------------------------===//

/* A captured graph, also its instantiation (one handle for both,
 * counted). */
struct Graph {
  Work *work;
  size_t numWork, capWork;
  CUdeviceptr *owned; /* allocations made while capturing */
  size_t numOwned, capOwned;
  int refs;
};

static void *grow(void *p, size_t *cap, size_t size) {
  *cap = *cap ? 2 * *cap : 16;
  p = realloc(p, *cap * size);
  if (!p)
    abort();
  return p;
}

static void recordWork(const Work *w) {
  Graph *g = capturing;
  if (g->numWork == g->capWork)
    g->work = grow(g->work, &g->capWork, sizeof(Work));
  g->work[g->numWork++] = *w;
}

static void graphOwn(CUdeviceptr ptr) {
  Graph *g = capturing;
  if (g->numOwned == g->capOwned)
    g->owned = grow(g->owned, &g->capOwned, sizeof(CUdeviceptr));
  g->owned[g->numOwned++] = ptr;
}

static bool graphOwns(CUdeviceptr ptr) {
  for (size_t i = 0; i < capturing->numOwned; ++i)
    if (capturing->owned[i] == ptr)
      return true;
  return false;
}

static void unref(Graph *g) {
  if (--g->refs)
    return;
  for (size_t i = 0; i < g->numOwned; ++i)
    release(g->owned[i], 0);
  free(g->work);
  free(g->owned);
  free(g);
  --liveGraphs;
}

CUresult cuStreamBeginCapture_v2(CUstream stream, int captureMode) {
  (void)stream;
  CUresult r = enter(CALL_cuStreamBeginCapture_v2, 999);
  if (r)
    return r;
  if (capturing || captureMode != 1 /* thread-local, all Kiln uses */)
    return 1;
  capturing = calloc(1, sizeof(Graph));
  if (!capturing)
    abort();
  capturing->refs = 1;
  captureInvalid = false;
  ++liveGraphs;
  return 0;
}

CUresult cuStreamEndCapture(CUstream stream, CUgraph *graph) {
  (void)stream;
  CUresult r = enter(CALL_cuStreamEndCapture, 999);
  Graph *g = capturing;
  capturing = NULL;
  *graph = NULL;
  if (!g)
    return 1;
  if (r || captureInvalid) {
    unref(g);
    return r ? r : 901;
  }
  *graph = (CUgraph)g;
  return 0;
}

CUresult cuGraphInstantiateWithFlags(CUgraphExec *exec, CUgraph graph,
                                     unsigned long long flags) {
  (void)flags;
  CUresult r = enter(CALL_cuGraphInstantiateWithFlags, 999);
  if (r)
    return r;
  ++((Graph *)graph)->refs;
  *exec = (CUgraphExec)graph;
  return 0;
}

CUresult cuGraphLaunch(CUgraphExec exec, CUstream stream) {
  (void)stream;
  CUresult r = enter(CALL_cuGraphLaunch, 719);
  Graph *g = (Graph *)exec;
  for (size_t i = 0; !r && i < g->numWork; ++i)
    perform(&g->work[i]);
  return r;
}

CUresult cuGraphExecDestroy(CUgraphExec exec) {
  unref((Graph *)exec);
  return enter(CALL_cuGraphExecDestroy, 999);
}

CUresult cuGraphDestroy(CUgraph graph) {
  unref((Graph *)graph);
  return enter(CALL_cuGraphDestroy, 999);
}

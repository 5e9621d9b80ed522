/* KilnGpuModel's lifecycle: the device, context and stream of a CUDA
 * model, its library's load and unload, and runs (gpu.h). */
#include "runtime/gpu.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "runtime/gpu_state.h"
#include "runtime/status.h"

//===----------------------------------------------------------------------===//
// Architecture
//===----------------------------------------------------------------------===//

KilnStatus *kilnGpuArchParse(const char *gpu, KilnGpuArch *out) {
  *out = (KilnGpuArch){0};
  size_t kind = strcspn(gpu, " ");
  if (kind != 4 || strncmp(gpu, "cuda", 4))
    return kilnStatusCreatef("unknown GPU kind '%.*s' (this runtime runs "
                             "cuda)",
                             (int)(kind > 32 ? 32 : kind), gpu);
  const char *arch = gpu + kind + (gpu[kind] == ' ');
  /* The prefix first: the digits after it are only there if it is. */
  bool prefixed = !strncmp(arch, "sm_", 3);
  const char *p = prefixed ? arch + 3 : arch;
  int digits = 0, n = 0;
  for (; prefixed && *p >= '0' && *p <= '9' && digits < 3; ++p, ++digits)
    n = 10 * n + (*p - '0');
  char suffix = (*p == 'a' || *p == 'f') ? *p++ : 0;
  if (!prefixed || digits < 2 || *p)
    return kilnStatusCreatef("bad CUDA architecture '%s' (expected sm_NN, "
                             "e.g. sm_90)",
                             arch);
  *out = (KilnGpuArch){n / 10, n % 10, suffix};
  return NULL;
}

/* Whether a device of compute capability major.minor runs code for `a`:
 * plain sm_NN (PTX, or a cubin the driver matches) needs at least that
 * version, sm_NNa exactly it, sm_NNf the same major version. */
static bool archRunsOn(const KilnGpuArch *a, int major, int minor) {
  if (a->suffix == 'a')
    return major == a->major && minor == a->minor;
  if (a->suffix == 'f')
    return major == a->major && minor >= a->minor;
  return major > a->major || (major == a->major && minor >= a->minor);
}

//===----------------------------------------------------------------------===//
// Loading
//===----------------------------------------------------------------------===//

/* KILN_CUDA_DEVICE, else 0. */
static KilnStatus *deviceOrdinal(int *out) {
  *out = 0;
  const char *env = getenv("KILN_CUDA_DEVICE");
  if (!env || !*env)
    return NULL;
  char *end;
  long v = strtol(env, &end, 10);
  if (*end || v < 0 || v > 1024 || *env < '0' || *env > '9')
    return kilnStatusCreatef("KILN_CUDA_DEVICE='%s': expected a device "
                             "number",
                             env);
  *out = (int)v;
  return NULL;
}

/* A status for the failed driver call `what` outside any model state. */
static KilnStatus *driverStatus(const KilnCudaDriver *cu, CUresult r,
                                const char *what) {
  char text[256];
  kilnCudaDriverDescribe(cu, r, text, sizeof(text));
  return kilnStatusCreatef("CUDA error in %s: %s", what, text);
}

/* Opens the driver, initializes it and picks and checks the device. */
static KilnStatus *openDevice(KilnGpuModel *g, const KilnGpuArch *arch) {
  KilnStatus *s = kilnCudaDriverGet(&g->cu);
  if (s) {
    KilnStatus *wrapped = kilnStatusCreatef(
        "this model runs on an NVIDIA GPU (%s), but the CUDA driver cannot be "
        "loaded (%s): is the NVIDIA driver installed?",
        g->gpu, kilnStatusGetMessage(s));
    kilnStatusDestroy(s);
    return wrapped;
  }
  const KilnCudaDriver *cu = g->cu;
  CUresult r = cu->cuInit(0);
  if (r == CUDA_ERROR_NO_DEVICE)
    return kilnStatusCreatef("no CUDA device (cuInit: CUDA_ERROR_NO_DEVICE)");
  if (r != CUDA_SUCCESS)
    return driverStatus(cu, r, "cuInit");
  int count = 0;
  if ((s = deviceOrdinal(&g->ordinal)))
    return s;
  if ((r = cu->cuDeviceGetCount(&count)) != CUDA_SUCCESS)
    return driverStatus(cu, r, "cuDeviceGetCount");
  if (g->ordinal >= count)
    return kilnStatusCreatef("KILN_CUDA_DEVICE=%d, but there %s %d CUDA "
                             "device%s",
                             g->ordinal, count == 1 ? "is" : "are", count,
                             count == 1 ? "" : "s");
  char name[256] = "?";
  int major = 0, minor = 0;
  if ((r = cu->cuDeviceGet(&g->device, g->ordinal)) ||
      (r = cu->cuDeviceGetName(name, sizeof(name), g->device)) ||
      (r = cu->cuDeviceGetAttribute(
           &major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, g->device)) ||
      (r = cu->cuDeviceGetAttribute(
           &minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, g->device)))
    return driverStatus(cu, r, "cuDeviceGet (device properties)");
  name[sizeof(name) - 1] = '\0';
  if (!archRunsOn(arch, major, minor))
    return kilnStatusCreatef("the model was compiled for %s, device %d (%s) "
                             "is sm_%d%d",
                             strchr(g->gpu, ' ') + 1, g->ordinal, name, major,
                             minor);
  return NULL;
}

/* Stream-ordered allocation from the device's default pool, if the driver
 * and device have it. The pool keeps freed memory (release threshold: all
 * of it) so that repeated runs reuse their allocations instead of going
 * back to the driver, as the CPU side keeps malloc's. */
static void setUpPool(KilnGpuModel *g) {
  const KilnCudaDriver *cu = g->cu;
  int pools = 0;
  if (!cu->cuMemAllocAsync ||
      cu->cuDeviceGetAttribute(&pools,
                               CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED,
                               g->device) != CUDA_SUCCESS ||
      !pools)
    return;
  g->asyncAlloc = true;
  CUmemoryPool pool;
  uint64_t keepAll = UINT64_MAX;
  if (cu->cuDeviceGetDefaultMemPool && cu->cuMemPoolSetAttribute &&
      cu->cuDeviceGetDefaultMemPool(&pool, g->device) == CUDA_SUCCESS)
    cu->cuMemPoolSetAttribute(pool, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD,
                              &keepAll);
}

/* A library loaded twice is one instance (dlopen counts references), and
 * its module handles are globals: one KilnModel per library at a time. */
static mtx_t claimLock;
static once_flag claimOnce = ONCE_FLAG_INIT;
static void initClaimLock(void) { mtx_init(&claimLock, mtx_plain); }

/* Finds the library's table and load/unload functions, and claims the
 * table for `g` (fills it). */
static KilnStatus *bindLibrary(KilnGpuModel *g, void *handle,
                               void (**load)(void)) {
  KilnGpuApi *api = dlsym(handle, "kiln_gpu_api");
  void *loadSym = dlsym(handle, "kiln_model_gpu_load");
  void *unloadSym = dlsym(handle, "kiln_model_gpu_unload");
  if (!api || !loadSym || !unloadSym)
    return kilnStatusCreatef("a GPU model library without %s (not linked "
                             "with Kiln's GPU shim?)",
                             !api       ? "kiln_gpu_api"
                             : !loadSym ? "kiln_model_gpu_load"
                                        : "kiln_model_gpu_unload");
  if (api->size != sizeof(KilnGpuApi))
    return kilnStatusCreatef("the model's GPU call table has %u bytes, this "
                             "runtime's %zu (recompile the model)",
                             (unsigned)api->size, sizeof(KilnGpuApi));
  memcpy(load, &loadSym, sizeof(loadSym));
  memcpy(&g->unload, &unloadSym, sizeof(unloadSym));
  call_once(&claimOnce, initClaimLock);
  mtx_lock(&claimLock);
  bool taken = api->version != 0;
  if (!taken)
    kilnGpuFillApi(api);
  mtx_unlock(&claimLock);
  if (taken)
    return kilnStatusCreatef("this GPU model library is already loaded (a "
                             "CUDA model can be loaded once per process at a "
                             "time)");
  g->api = api;
  return NULL;
}

/* Releases what openDevice and kilnGpuModelCreate acquired, in reverse. */
static void releaseDevice(KilnGpuModel *g) {
  const KilnCudaDriver *cu = g->cu;
  if (g->stream)
    cu->cuStreamDestroy(g->stream);
  if (g->context) {
    cu->cuCtxPopCurrent(NULL);
    cu->cuDevicePrimaryCtxRelease(g->device);
  }
}

KilnStatus *kilnGpuModelCreate(void *handle, const char *gpu,
                               KilnGpuModel **out) {
  *out = NULL;
  KilnGpuArch arch;
  KilnStatus *s = kilnGpuArchParse(gpu, &arch);
  if (s)
    return s;
  KilnGpuModel *g = calloc(1, sizeof(*g));
  if (!g)
    abort();
  snprintf(g->gpu, sizeof(g->gpu), "%s", gpu);
  void (*load)(void) = NULL;
  CUresult r;
  if ((s = openDevice(g, &arch)))
    goto freeModel;
  if ((r = g->cu->cuDevicePrimaryCtxRetain(&g->context, g->device))) {
    s = driverStatus(g->cu, r, "cuDevicePrimaryCtxRetain");
    goto freeModel;
  }
  if ((r = g->cu->cuCtxPushCurrent(g->context))) {
    s = driverStatus(g->cu, r, "cuCtxPushCurrent");
    g->cu->cuDevicePrimaryCtxRelease(g->device);
    goto freeModel;
  }
  setUpPool(g);
  kilnGpuGraphInit(g);
  if ((r = g->cu->cuStreamCreate(&g->stream, CU_STREAM_NON_BLOCKING))) {
    s = driverStatus(g->cu, r, "cuStreamCreate");
    goto release;
  }
  if ((s = bindLibrary(g, handle, &load)))
    goto release;
  kilnGpuCurrent = g;
  load();
  /* Weights to device memory now, not on the first run (libraries made
   * before kiln_model_gpu_upload existed upload them on first use). */
  void *uploadSym = dlsym(handle, "kiln_model_gpu_upload");
  if (uploadSym && !g->error) {
    void (*upload)(void);
    memcpy(&upload, &uploadSym, sizeof(upload));
    upload();
  }
  if (!g->error)
    kilnGpuCheck(g, g->cu->cuStreamSynchronize(g->stream),
                 "cuStreamSynchronize");
  if (g->error)
    g->unload(); /* modules that did load */
  kilnGpuCurrent = NULL;
  if ((s = g->error)) {
    g->error = NULL;
    kilnGpuFreeWeights(g);
    kilnGpuForgetKernels(g);
    g->api->version = 0;
    goto release;
  }
  g->cu->cuCtxPopCurrent(NULL);
  *out = g;
  return NULL;
release:
  releaseDevice(g);
freeModel:
  kilnStatusDestroy(g->error); /* from freeing weights */
  free(g->managed);
  free(g);
  return s;
}

void kilnGpuModelDestroy(KilnGpuModel *g) {
  if (!g)
    return;
  const KilnCudaDriver *cu = g->cu;
  cu->cuCtxPushCurrent(g->context);
  kilnGpuCurrent = g;
  /* The graph first: it holds the modules' kernels. */
  cu->cuStreamSynchronize(g->stream);
  kilnGpuGraphRelease(g);
  g->unload();
  cu->cuStreamSynchronize(g->stream);
  kilnGpuFreeWeights(g);
  kilnGpuForgetKernels(g);
  for (size_t i = 0; i < g->numManaged; ++i)
    cu->cuMemFree(g->managed[i]);
  kilnGpuCurrent = NULL;
  /* Nobody can be told of errors now; drop them. */
  kilnStatusDestroy(g->error);
  g->api->version = 0;
  releaseDevice(g);
  free(g->managed);
  free(g);
}

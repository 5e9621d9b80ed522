/* Loading the CUDA driver library once per process (cuda_driver.h). */
#include "runtime/cuda_driver.h"

#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <threads.h>

#include "runtime/status.h"

static once_flag driverOnce = ONCE_FLAG_INIT;
static KilnCudaDriver driver;
/* Empty when the driver loaded; else why it did not, for every caller. */
static char driverError[512];

/* Looks up `name` (the driver's exported, versioned name) into `*slot`;
 * POSIX allows converting dlsym's result to a function pointer. */
static bool bind(void *lib, const char *name, void *slot, bool required) {
  void *sym = dlsym(lib, name);
  memcpy(slot, &sym, sizeof(sym));
  if (!sym && required && !driverError[0])
    snprintf(driverError, sizeof(driverError),
             "the CUDA driver lacks %s (driver too old?)", name);
  return sym != NULL;
}

/* The driver exports several ABI versions of some functions; the _v2 names
 * are the ones with 64-bit sizes and the current semantics (cuda.h maps the
 * plain names to them). */
static void bindAll(void *lib) {
#define REQUIRED(field, name) bind(lib, name, &driver.field, true)
#define OPTIONAL(field, name) bind(lib, name, &driver.field, false)
  REQUIRED(cuInit, "cuInit");
  REQUIRED(cuGetErrorName, "cuGetErrorName");
  REQUIRED(cuGetErrorString, "cuGetErrorString");
  REQUIRED(cuDeviceGetCount, "cuDeviceGetCount");
  REQUIRED(cuDeviceGet, "cuDeviceGet");
  REQUIRED(cuDeviceGetName, "cuDeviceGetName");
  REQUIRED(cuDeviceGetAttribute, "cuDeviceGetAttribute");
  REQUIRED(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  REQUIRED(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2");
  REQUIRED(cuCtxPushCurrent, "cuCtxPushCurrent_v2");
  REQUIRED(cuCtxPopCurrent, "cuCtxPopCurrent_v2");
  REQUIRED(cuModuleLoadData, "cuModuleLoadData");
  REQUIRED(cuModuleLoadDataEx, "cuModuleLoadDataEx");
  REQUIRED(cuModuleUnload, "cuModuleUnload");
  REQUIRED(cuModuleGetFunction, "cuModuleGetFunction");
  REQUIRED(cuLaunchKernel, "cuLaunchKernel");
  REQUIRED(cuStreamCreate, "cuStreamCreate");
  REQUIRED(cuStreamDestroy, "cuStreamDestroy_v2");
  REQUIRED(cuStreamSynchronize, "cuStreamSynchronize");
  REQUIRED(cuStreamWaitEvent, "cuStreamWaitEvent");
  REQUIRED(cuEventCreate, "cuEventCreate");
  REQUIRED(cuEventDestroy, "cuEventDestroy_v2");
  REQUIRED(cuEventSynchronize, "cuEventSynchronize");
  REQUIRED(cuEventRecord, "cuEventRecord");
  REQUIRED(cuMemAlloc, "cuMemAlloc_v2");
  REQUIRED(cuMemAllocManaged, "cuMemAllocManaged");
  REQUIRED(cuMemFree, "cuMemFree_v2");
  REQUIRED(cuMemcpyAsync, "cuMemcpyAsync");
  REQUIRED(cuMemsetD32Async, "cuMemsetD32Async");
  REQUIRED(cuMemsetD16Async, "cuMemsetD16Async");
  REQUIRED(cuMemHostRegister, "cuMemHostRegister_v2");
  REQUIRED(cuMemHostUnregister, "cuMemHostUnregister");
  /* Stream-ordered allocation needs both; without one, neither is used. */
  if (!OPTIONAL(cuMemAllocAsync, "cuMemAllocAsync") ||
      !OPTIONAL(cuMemFreeAsync, "cuMemFreeAsync")) {
    driver.cuMemAllocAsync = NULL;
    driver.cuMemFreeAsync = NULL;
  }
  OPTIONAL(cuDeviceGetDefaultMemPool, "cuDeviceGetDefaultMemPool");
  OPTIONAL(cuMemPoolSetAttribute, "cuMemPoolSetAttribute");
  /* Graphs (CUDA 11.4: stream-ordered allocations in captures). */
  bool graphs = OPTIONAL(cuStreamBeginCapture, "cuStreamBeginCapture_v2");
  graphs &= OPTIONAL(cuStreamEndCapture, "cuStreamEndCapture");
  graphs &=
      OPTIONAL(cuGraphInstantiateWithFlags, "cuGraphInstantiateWithFlags");
  graphs &= OPTIONAL(cuGraphLaunch, "cuGraphLaunch");
  graphs &= OPTIONAL(cuGraphExecDestroy, "cuGraphExecDestroy");
  graphs &= OPTIONAL(cuGraphDestroy, "cuGraphDestroy");
  graphs &= OPTIONAL(cuMemHostAlloc, "cuMemHostAlloc");
  graphs &= OPTIONAL(cuMemFreeHost, "cuMemFreeHost");
  if (!graphs)
    driver.cuStreamBeginCapture = NULL; /* the group's marker */
#undef REQUIRED
#undef OPTIONAL
}

static void openDriver(void) {
  const char *path = getenv("KILN_CUDA_DRIVER");
  if (!path || !*path)
    path = "libcuda.so.1";
  dlerror();
  /* Never closed: the driver keeps threads and state for the process, and
   * unloading it while contexts exist is unsafe. */
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = dlerror();
    snprintf(driverError, sizeof(driverError), "%s", e ? e : path);
    return;
  }
  bindAll(lib);
}

KilnStatus *kilnCudaDriverGet(const KilnCudaDriver **out) {
  *out = NULL;
  call_once(&driverOnce, openDriver);
  if (driverError[0])
    return kilnStatusCreatef("%s", driverError);
  *out = &driver;
  return NULL;
}

void kilnCudaDriverDescribe(const KilnCudaDriver *d, CUresult result, char *buf,
                            size_t size) {
  const char *name = NULL, *text = NULL;
  if (d->cuGetErrorName(result, &name) != CUDA_SUCCESS || !name)
    name = NULL;
  if (d->cuGetErrorString(result, &text) != CUDA_SUCCESS || !text)
    text = NULL;
  if (name && text)
    snprintf(buf, size, "%s (%s)", name, text);
  else if (name)
    snprintf(buf, size, "%s", name);
  else
    snprintf(buf, size, "CUDA error %d", result);
}

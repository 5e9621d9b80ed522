/* The GPU shim (libkiln_gpu_shim.a) that kiln-compile links into every
 * CUDA model library: MLIR's `mgpu*` entry points and Kiln's weight
 * uploads as hidden trampolines through the library's exported
 * `kiln_gpu_api`, which libkiln_runtime fills at load (gpu_api.h says
 * why). Built with hidden visibility, so nothing here but `kiln_gpu_api`
 * leaves the model library.
 *
 * Until the runtime has filled the table (version 0; e.g. a program that
 * dlopens the library itself and calls its code), every trampoline does
 * nothing and returns NULL rather than jumping through a NULL pointer. */
#include <stdbool.h>

#include "runtime/gpu_api.h"

/* The storage is hidden so that the trampolines address it directly: a
 * default-visibility definition would be reached through the GOT, and an
 * executable that happened to define `kiln_gpu_api` would interpose it.
 * The exported name is an alias of it. */
__attribute__((visibility("hidden"))) KilnGpuApi kilnGpuShimApi = {
    .version = 0, .size = sizeof(KilnGpuApi)};
extern KilnGpuApi kiln_gpu_api
    __attribute__((alias("kilnGpuShimApi"), visibility("default")));

static bool ready(void) {
  return kilnGpuShimApi.version == KILN_GPU_API_VERSION;
}

#define API kilnGpuShimApi

void *mgpuModuleLoad(void *data, size_t size) {
  return ready() ? API.moduleLoad(data, size) : NULL;
}

void *mgpuModuleLoadJIT(void *ptx, int optLevel) {
  return ready() ? API.moduleLoadJit(ptx, optLevel) : NULL;
}

void mgpuModuleUnload(void *module) {
  if (ready())
    API.moduleUnload(module);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  return ready() ? API.moduleGetFunction(module, name) : NULL;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  if (ready())
    API.launchKernel(function, gridX, gridY, gridZ, blockX, blockY, blockZ,
                     smem, stream, params, extra, paramsCount);
}

void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra) {
  if (ready())
    API.launchClusterKernel(function, clusterX, clusterY, clusterZ, gridX,
                            gridY, gridZ, blockX, blockY, blockZ, smem, stream,
                            params, extra);
}

void *mgpuStreamCreate(void) { return ready() ? API.streamCreate() : NULL; }

void mgpuStreamDestroy(void *stream) {
  if (ready())
    API.streamDestroy(stream);
}

void mgpuStreamSynchronize(void *stream) {
  if (ready())
    API.streamSynchronize(stream);
}

void mgpuStreamWaitEvent(void *stream, void *event) {
  if (ready())
    API.streamWaitEvent(stream, event);
}

void *mgpuEventCreate(void) { return ready() ? API.eventCreate() : NULL; }

void mgpuEventDestroy(void *event) {
  if (ready())
    API.eventDestroy(event);
}

void mgpuEventSynchronize(void *event) {
  if (ready())
    API.eventSynchronize(event);
}

void mgpuEventRecord(void *event, void *stream) {
  if (ready())
    API.eventRecord(event, stream);
}

void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, uint32_t isHostShared) {
  return ready() ? API.memAlloc(sizeBytes, stream, (isHostShared & 0xff) != 0)
                 : NULL;
}

void mgpuMemFree(void *ptr, void *stream) {
  if (ready())
    API.memFree(ptr, stream);
}

void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream) {
  if (ready())
    API.memCopy(dst, src, sizeBytes, stream);
}

void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream) {
  if (ready())
    API.memset32(dst, value, count, stream);
}

void mgpuMemset16(void *dst, uint32_t value, size_t count, void *stream) {
  if (ready())
    API.memset16(dst, (uint16_t)(value & 0xffff), count, stream);
}

void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes) {
  if (ready())
    API.memHostRegisterMemRef(rank, descriptor, elementSizeBytes);
}

void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes) {
  if (ready())
    API.memHostUnregisterMemRef(rank, descriptor, elementSizeBytes);
}

void mgpuSetDefaultDevice(int32_t device) {
  if (ready())
    API.setDefaultDevice(device);
}

/* Without a runtime the result is an empty buffer, never uninitialized. */
#define KILN_GPU_DEFINE_CONSTANT(T, bytes)                                     \
  void _mlir_ciface_kiln_gpu_constant_##T(KilnGpuMemRef1D *result,             \
                                          KilnGpuMemRef1D *host) {             \
    if (ready())                                                               \
      API.constant(result, host, bytes);                                       \
    else                                                                       \
      *result = (KilnGpuMemRef1D){NULL, NULL, 0, 0, 1};                        \
  }
KILN_GPU_CONSTANT_TYPES(KILN_GPU_DEFINE_CONSTANT)
#undef KILN_GPU_DEFINE_CONSTANT

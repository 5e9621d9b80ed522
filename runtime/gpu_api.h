/* The call table between a CUDA model library and libkiln_runtime
 * (docs/runtime.md, "GPU models"). Internal to Kiln: shared by the shim
 * that kiln-compile links into every CUDA model library (gpu_shim.c) and
 * the runtime that fills the table (gpu.c).
 *
 * Why a table: the host code MLIR generates calls MLIR's CUDA runtime
 * wrappers (`mgpu*`) by name. If a model library resolved those names
 * against the process, it would depend on how the application linked the
 * runtime (static archive, shared library, RTLD_LOCAL plugin...). Instead
 * the shim defines them, hidden, inside the library, as trampolines through
 * the library's own exported `kiln_gpu_api`, which kilnModelLoad fills
 * (found with dlsym on the library's handle) before it runs any GPU code.
 *
 * Layout rules: `version` and `size` come first and never move; fields are
 * only ever appended, with KILN_GPU_API_VERSION raised. */
#ifndef KILN_RUNTIME_GPU_API_H
#define KILN_RUNTIME_GPU_API_H

#include <stddef.h>
#include <stdint.h>

/// The table layout this header describes.
#define KILN_GPU_API_VERSION 1

/// A 1-D strided memref descriptor (weights passed to `constant`).
typedef struct KilnGpuMemRef1D {
  void *allocated, *aligned;
  int64_t offset, size, stride;
} KilnGpuMemRef1D;

/// The runtime's implementations of the entry points. Stream, event,
/// module and function handles are the CUDA driver's, as `void *`.
typedef struct KilnGpuApi {
  /// 0 until the runtime has filled the table (the shim's trampolines then
  /// do nothing and return NULL), else KILN_GPU_API_VERSION.
  uint32_t version;
  /// sizeof(KilnGpuApi) as the shim was compiled: set statically by the
  /// shim, checked by the runtime before it writes the table.
  uint32_t size;
  void *(*moduleLoad)(void *data, size_t size);
  void *(*moduleLoadJit)(void *ptx, int optLevel);
  void (*moduleUnload)(void *module);
  void *(*moduleGetFunction)(void *module, const char *name);
  void (*launchKernel)(void *function, intptr_t gridX, intptr_t gridY,
                       intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                       intptr_t blockZ, int32_t smem, void *stream,
                       void **params, void **extra, size_t paramsCount);
  void (*launchClusterKernel)(void *function, intptr_t clusterX,
                              intptr_t clusterY, intptr_t clusterZ,
                              intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                              intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                              int32_t smem, void *stream, void **params,
                              void **extra);
  void *(*streamCreate)(void);
  void (*streamDestroy)(void *stream);
  void (*streamSynchronize)(void *stream);
  void (*streamWaitEvent)(void *stream, void *event);
  void *(*eventCreate)(void);
  void (*eventDestroy)(void *event);
  void (*eventSynchronize)(void *event);
  void (*eventRecord)(void *event, void *stream);
  void *(*memAlloc)(uint64_t sizeBytes, void *stream, int isHostShared);
  void (*memFree)(void *ptr, void *stream);
  void (*memCopy)(void *dst, void *src, size_t sizeBytes, void *stream);
  void (*memset32)(void *dst, uint32_t value, size_t count, void *stream);
  void (*memset16)(void *dst, uint16_t value, size_t count, void *stream);
  void (*memHostRegisterMemRef)(int64_t rank, void *descriptor,
                                int64_t elementSizeBytes);
  void (*memHostUnregisterMemRef)(int64_t rank, void *descriptor,
                                  int64_t elementSizeBytes);
  void (*setDefaultDevice)(int32_t device);
  /// Sets `*result` to the device copy {dev, dev, 0, size, 1} of the
  /// weight `host` (elements of `elemBytes` bytes, stride 1), uploading it
  /// at the first call for that host address only.
  void (*constant)(KilnGpuMemRef1D *result, KilnGpuMemRef1D *host,
                   size_t elemBytes);
} KilnGpuApi;

//===----------------------------------------------------------------------===//
// The symbols the shim defines in a model library
//===----------------------------------------------------------------------===//

/* MLIR 22's calls, as `gpu-to-llvm` and the `gpu.binary` translation
 * declare them (checked with mlir-opt-22/mlir-translate-22). Integer
 * arguments narrower than 32 bits are taken as uint32_t and masked: LLVM IR
 * declarations without zeroext leave the upper bits of the register
 * undefined. */
void *mgpuModuleLoad(void *data, size_t size);
void *mgpuModuleLoadJIT(void *ptx, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t smem, void *stream,
                      void **params, void **extra, size_t paramsCount);
void mgpuLaunchClusterKernel(void *function, intptr_t clusterX,
                             intptr_t clusterY, intptr_t clusterZ,
                             intptr_t gridX, intptr_t gridY, intptr_t gridZ,
                             intptr_t blockX, intptr_t blockY, intptr_t blockZ,
                             int32_t smem, void *stream, void **params,
                             void **extra);
void *mgpuStreamCreate(void);
void mgpuStreamDestroy(void *stream);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamWaitEvent(void *stream, void *event);
void *mgpuEventCreate(void);
void mgpuEventDestroy(void *event);
void mgpuEventSynchronize(void *event);
void mgpuEventRecord(void *event, void *stream);
void *mgpuMemAlloc(uint64_t sizeBytes, void *stream, uint32_t isHostShared);
void mgpuMemFree(void *ptr, void *stream);
void mgpuMemcpy(void *dst, void *src, size_t sizeBytes, void *stream);
void mgpuMemset32(void *dst, uint32_t value, size_t count, void *stream);
void mgpuMemset16(void *dst, uint32_t value, size_t count, void *stream);
void mgpuMemHostRegisterMemRef(int64_t rank, void *descriptor,
                               int64_t elementSizeBytes);
void mgpuMemHostUnregisterMemRef(int64_t rank, void *descriptor,
                                 int64_t elementSizeBytes);
void mgpuSetDefaultDevice(int32_t device);

/* Kiln's weight upload, one per element type (i1: one byte per element). */
/* clang-format reflows this list differently on every run. */
// clang-format off
#define KILN_GPU_CONSTANT_TYPES(X)                                             \
  X(f16, 2) X(bf16, 2) X(f32, 4) X(f64, 8) X(i1, 1) X(i8, 1) X(i16, 2)         \
  X(i32, 4) X(i64, 8)
// clang-format on
#define KILN_GPU_DECLARE_CONSTANT(T, bytes)                                    \
  void _mlir_ciface_kiln_gpu_constant_##T(KilnGpuMemRef1D *result,             \
                                          KilnGpuMemRef1D *host);
KILN_GPU_CONSTANT_TYPES(KILN_GPU_DECLARE_CONSTANT)
#undef KILN_GPU_DECLARE_CONSTANT

#endif

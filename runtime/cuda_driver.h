/* The CUDA driver API, loaded at run time with dlopen("libcuda.so.1") so
 * that libkiln_runtime builds without CUDA headers and loads on machines
 * without a GPU. Internal to libkiln_runtime.
 *
 * The types and constants below are the few Kiln needs, declared here
 * with the driver's values (cuda.h, CUDA 12): handles are opaque pointers,
 * CUresult is an int. */
#ifndef KILN_RUNTIME_CUDA_DRIVER_H
#define KILN_RUNTIME_CUDA_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_runtime.h"

typedef int CUresult;
typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef struct CUmemPoolHandle_st *CUmemoryPool;
typedef struct CUgraph_st *CUgraph;
typedef struct CUgraphExec_st *CUgraphExec;

enum {
  CUDA_SUCCESS = 0,
  CUDA_ERROR_INVALID_VALUE = 1,
  CUDA_ERROR_NO_DEVICE = 100,
  CUDA_ERROR_NO_BINARY_FOR_GPU = 209,
  CUDA_ERROR_INVALID_PTX = 218,
  CUDA_ERROR_UNSUPPORTED_PTX_VERSION = 222,
  CUDA_ERROR_NOT_SUPPORTED = 801,
  CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED = 900,
  CUDA_ERROR_STREAM_CAPTURE_INVALIDATED = 901,
};

/* CUdevice_attribute */
enum {
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75,
  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76,
  CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED = 115,
};

/* CUjit_option */
enum {
  CU_JIT_ERROR_LOG_BUFFER = 5,
  CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
  CU_JIT_OPTIMIZATION_LEVEL = 7,
};

enum {
  CU_STREAM_NON_BLOCKING = 1,
  CU_EVENT_DISABLE_TIMING = 2,
  CU_MEM_ATTACH_GLOBAL = 1,
  CU_MEMPOOL_ATTR_RELEASE_THRESHOLD = 4,
  CU_STREAM_CAPTURE_MODE_THREAD_LOCAL = 1,
};

/// The driver's entry points Kiln calls. The optional ones (stream-ordered
/// allocation, memory pools: CUDA 11.2; graphs with stream-ordered
/// allocations: CUDA 11.4) are NULL when the driver lacks them, a group at
/// a time; every other one is present once the driver is loaded.
typedef struct KilnCudaDriver {
  CUresult (*cuInit)(unsigned flags);
  CUresult (*cuGetErrorName)(CUresult error, const char **name);
  CUresult (*cuGetErrorString)(CUresult error, const char **text);
  CUresult (*cuDeviceGetCount)(int *count);
  CUresult (*cuDeviceGet)(CUdevice *device, int ordinal);
  CUresult (*cuDeviceGetName)(char *name, int len, CUdevice device);
  CUresult (*cuDeviceGetAttribute)(int *value, int attribute, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice device);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice device);
  CUresult (*cuCtxPushCurrent)(CUcontext ctx);
  CUresult (*cuCtxPopCurrent)(CUcontext *ctx);
  CUresult (*cuModuleLoadData)(CUmodule *module, const void *image);
  CUresult (*cuModuleLoadDataEx)(CUmodule *module, const void *image,
                                 unsigned numOptions, int *options,
                                 void **optionValues);
  CUresult (*cuModuleUnload)(CUmodule module);
  CUresult (*cuModuleGetFunction)(CUfunction *function, CUmodule module,
                                  const char *name);
  CUresult (*cuLaunchKernel)(CUfunction f, unsigned gridX, unsigned gridY,
                             unsigned gridZ, unsigned blockX, unsigned blockY,
                             unsigned blockZ, unsigned sharedMemBytes,
                             CUstream stream, void **params, void **extra);
  CUresult (*cuStreamCreate)(CUstream *stream, unsigned flags);
  CUresult (*cuStreamDestroy)(CUstream stream);
  CUresult (*cuStreamSynchronize)(CUstream stream);
  CUresult (*cuStreamWaitEvent)(CUstream stream, CUevent event, unsigned flags);
  CUresult (*cuEventCreate)(CUevent *event, unsigned flags);
  CUresult (*cuEventDestroy)(CUevent event);
  CUresult (*cuEventSynchronize)(CUevent event);
  CUresult (*cuEventRecord)(CUevent event, CUstream stream);
  CUresult (*cuMemAlloc)(CUdeviceptr *ptr, size_t bytes);
  CUresult (*cuMemAllocManaged)(CUdeviceptr *ptr, size_t bytes, unsigned flags);
  CUresult (*cuMemFree)(CUdeviceptr ptr);
  CUresult (*cuMemcpyAsync)(CUdeviceptr dst, CUdeviceptr src, size_t bytes,
                            CUstream stream);
  CUresult (*cuMemsetD32Async)(CUdeviceptr dst, unsigned value, size_t count,
                               CUstream stream);
  CUresult (*cuMemsetD16Async)(CUdeviceptr dst, unsigned short value,
                               size_t count, CUstream stream);
  CUresult (*cuMemHostRegister)(void *ptr, size_t bytes, unsigned flags);
  CUresult (*cuMemHostUnregister)(void *ptr);
  /* Optional. */
  CUresult (*cuMemAllocAsync)(CUdeviceptr *ptr, size_t bytes, CUstream stream);
  CUresult (*cuMemFreeAsync)(CUdeviceptr ptr, CUstream stream);
  CUresult (*cuDeviceGetDefaultMemPool)(CUmemoryPool *pool, CUdevice device);
  CUresult (*cuMemPoolSetAttribute)(CUmemoryPool pool, int attribute,
                                    void *value);
  /* Optional, all or none: stream capture into graphs, and the pinned host
   * memory graphs copy from and to. */
  CUresult (*cuStreamBeginCapture)(CUstream stream, int mode);
  CUresult (*cuStreamEndCapture)(CUstream stream, CUgraph *graph);
  CUresult (*cuGraphInstantiateWithFlags)(CUgraphExec *exec, CUgraph graph,
                                          unsigned long long flags);
  CUresult (*cuGraphLaunch)(CUgraphExec exec, CUstream stream);
  CUresult (*cuGraphExecDestroy)(CUgraphExec exec);
  CUresult (*cuGraphDestroy)(CUgraph graph);
  CUresult (*cuMemHostAlloc)(void **ptr, size_t bytes, unsigned flags);
  CUresult (*cuMemFreeHost)(void *ptr);
} KilnCudaDriver;

/// Loads the driver (once per process, thread-safe; it stays loaded) and
/// sets `*out` to its entry points (borrowed, process lifetime). Fails,
/// with dlopen's or dlsym's reason, when libcuda.so.1 (or the library named
/// by the environment variable KILN_CUDA_DRIVER) cannot be loaded or lacks
/// a required function; every later call fails the same way.
KilnStatus *kilnCudaDriverGet(const KilnCudaDriver **out /* OUT */);

/// Writes "NAME (description)" for `result` into `buf[0, size)`, e.g.
/// "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)".
void kilnCudaDriverDescribe(const KilnCudaDriver *driver, CUresult result,
                            char *buf, size_t size);

#endif

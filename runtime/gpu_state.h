/* The state behind KilnGpuModel, shared by its lifecycle (gpu.c) and the
 * calls generated code makes (gpu_calls.c). Internal to libkiln_runtime. */
#ifndef KILN_RUNTIME_GPU_STATE_H
#define KILN_RUNTIME_GPU_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runtime/cuda_driver.h"
#include "runtime/gpu.h"
#include "runtime/gpu_api.h"

/* One uploaded weight: the host bytes it copies and its device copy. */
typedef struct Weight {
  const void *host; /* NULL: empty slot */
  size_t bytes;
  CUdeviceptr dev;
} Weight;

/* One kernel looked up: generated code asks for each kernel by name before
 * every launch; the handle is looked up in the driver once. */
typedef struct Kernel {
  void *module;     /* NULL: empty slot */
  const char *name; /* the library's string (stable while it is loaded) */
  CUfunction function;
} Kernel;

/* A model's runs as a CUDA graph (gpu_run.c): the run captured once and
 * replayed, for the shapes of the staging tensors. */
typedef struct GraphRun {
  bool off; /* never again: disabled, no graph API, or a failure */
  /* The shapes (a hash) of the last run if it was eager and could have
   * been captured, else 0. */
  uint64_t capturableShapes;
  /* Pinned host copies of the last capturable run's inputs then outputs
   * (the addresses a graph copies from and to), or NULL. */
  KilnTensor **staging;
  void **pinned; /* their buffers (cuMemHostAlloc) */
  size_t numTensors, numInputs;
  CUgraphExec exec; /* the captured run, or NULL */
} GraphRun;

struct KilnGpuModel {
  const KilnCudaDriver *cu;
  KilnGpuApi *api; /* the library's table */
  void (*unload)(void);
  char gpu[32]; /* the metadata record, for messages */
  int ordinal;
  CUdevice device;
  CUcontext context; /* retained primary context */
  CUstream stream;   /* every call's work goes here, in order */
  bool asyncAlloc;   /* stream-ordered allocation from the default pool */
  /* Weights by host address: open addressing, capacity a power of 2 (or
   * 0), at most half full. */
  Weight *weights;
  size_t numWeights, capWeights;
  /* Kernels by (module, name pointer): open addressing, like weights. */
  Kernel *kernels;
  size_t numKernels, capKernels;
  /* Managed (host-shared) allocations, which cuMemFreeAsync cannot free;
   * usually none. */
  CUdeviceptr *managed;
  size_t numManaged;
  /* The last function looked up, to name the kernel of a failed launch
   * (generated code looks up each kernel right before launching it). */
  CUfunction lastFunction;
  const char *lastFunctionName; /* borrowed from the library */
  KilnStatus *error;            /* sticky: the first failure */
  /* What the calls of this run did (gpu_calls.c): whether it is being
   * captured into a graph, waited for the device, and gave it work after
   * such a wait (the host read something back: not capturable). */
  bool capturing, synced, workAfterSync;
  GraphRun graph;
};

/// The model whose load, run or unload this thread is in, or NULL.
extern __attribute__((
    tls_model("initial-exec"))) _Thread_local KilnGpuModel *kilnGpuCurrent;

/// Records the failure `result` of the driver call `what` as the model's
/// error unless an error is already recorded; returns whether it succeeded.
bool kilnGpuCheck(KilnGpuModel *gpu, CUresult result, const char *what);

/// Fills `api` with the runtime's implementations and marks it ready.
void kilnGpuFillApi(KilnGpuApi *api);

/// Frees the model's uploaded weights (the context must be current).
void kilnGpuFreeWeights(KilnGpuModel *gpu);

/// Forgets the kernel handles looked up so far (their modules unloaded).
void kilnGpuForgetKernels(KilnGpuModel *gpu);

/// Sets up graph replay for a new model: off for KILN_CUDA_GRAPHS=0, a
/// driver without graphs or without stream-ordered allocation.
void kilnGpuGraphInit(KilnGpuModel *gpu);

/// Destroys the captured graph and the staging tensors (the context must
/// be current).
void kilnGpuGraphRelease(KilnGpuModel *gpu);

#endif

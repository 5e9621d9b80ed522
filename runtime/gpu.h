/* The GPU side of a loaded CUDA model (docs/runtime.md, "GPU models"):
 * its device, primary context, stream and uploaded weights, and the
 * runtime's implementations of the calls its code makes through the shim
 * (gpu_api.h). Internal to libkiln_runtime.
 *
 * Generated code cannot receive errors, so the first failing driver call
 * of a load, run or unload is recorded in the model ("sticky") and later
 * calls that would use its results are skipped; kilnGpuModelRun
 * returns it. The calls act on the calling thread's current model, set
 * around the library's load function, each run and its unload function. */
#ifndef KILN_RUNTIME_GPU_H
#define KILN_RUNTIME_GPU_H

#include <stdbool.h>

#include "kiln/kiln_runtime.h"

/// The GPU state of one loaded model library.
typedef struct KilnGpuModel KilnGpuModel;

/// A parsed `gpu` metadata record ("cuda sm_90", "cuda sm_90a").
typedef struct KilnGpuArch {
  int major, minor; /* compute capability: sm_NN is N/10.N%10 */
  char suffix;      /* 0, 'a' (exactly this version) or 'f' (this family) */
} KilnGpuArch;

/// Parses the value of a `gpu` metadata record. Fails, with a message
/// that does not name the record, on a GPU kind other than "cuda" or an
/// architecture that is not sm_NN (sm_NNN), optionally suffixed a or f.
KilnStatus *kilnGpuArchParse(const char *gpu, KilnGpuArch *out /* OUT */);

/// Sets up the GPU side of the model library `handle` (dlopen'ed by the
/// caller) whose metadata has the `gpu` record `gpu`: loads the CUDA
/// driver, picks device 0 (or $KILN_CUDA_DEVICE), checks its compute
/// capability, retains its primary context, creates the model's stream,
/// fills the library's `kiln_gpu_api` and calls its `kiln_model_gpu_load`.
/// On failure nothing is left to release but the library, which the caller
/// still owns. Destroy with kilnGpuModelDestroy before closing the library.
KilnStatus *kilnGpuModelCreate(void *handle, const char *gpu,
                               KilnGpuModel **out /* OUT */);

/// Calls the library's `kiln_model_gpu_unload`, frees the uploaded
/// weights, destroys the stream and releases the context; NULL is a no-op.
void kilnGpuModelDestroy(KilnGpuModel *gpu);

/// The library's entry, called with tensors (inputs then outputs) as
/// model.c passes them; returns its status code.
typedef int (*KilnGpuEntryFn)(void *model, KilnTensor *const *tensors,
                              size_t n);

/// Runs `entry(model, tensors, n)`, the first `numInputs` of which are
/// inputs, and waits for the device. From the second consecutive run with
/// the same shapes, the run is a CUDA graph replayed with one launch
/// (docs/runtime.md, "CUDA graphs"), unless KILN_CUDA_GRAPHS=0. Sets
/// `*rc` to the entry's code and returns the run's first CUDA error (NULL
/// if none); the next run starts without error.
KilnStatus *kilnGpuModelRun(KilnGpuModel *gpu, KilnGpuEntryFn entry,
                            void *model, KilnTensor *const *tensors,
                            size_t numInputs, size_t n, int *rc /* OUT */);

#endif

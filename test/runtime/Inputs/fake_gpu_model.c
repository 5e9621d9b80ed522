/* A hand-written CUDA model library with the ABI kiln-compile gives CUDA
 * models (docs/runtime.md, "GPU models"): a `gpu` metadata record, host
 * code that calls MLIR's mgpu* entry points and Kiln's weight uploads
 * (resolved inside the library by the GPU shim, libkiln_gpu_shim.a), and
 * kiln_model_gpu_load/unload in place of MLIR's global constructors. Run
 * against the fake driver (fake_cuda.c), whose kernel fake_add_f32 adds.
 *
 *   input  f32[1x4] "x"
 *   output f32[1x4] "y" = x + {10, 20, 30, 40}   (a weight, kernel launch)
 *   output i8[4]    "z" = {1, 2, 3, 4}           (an i8 weight at offset 2)
 *
 * Variants (FAKE_GPU_*): GOOD; KIND, a `gpu rocm gfx90a` record; PTX, a
 * module the JIT rejects; NEW, compiled for sm_120; HOSTREAD, GOOD whose
 * host code reads a device buffer (caught by FAKE_CUDA_GUARD); READBACK,
 * GOOD whose host code waits for the device before its last copy (as code
 * reading a result back does: a run CUDA graphs cannot replay); DYNAMIC,
 * GOOD with x and y of 1 x n, n from 1 to 8 (weight {10, 20, ..., 80}). */
#include <stdint.h>

#include "kiln/version.h"
#include "runtime/gpu_api.h"

#if defined(__x86_64__)
#define HOST_TRIPLE "x86_64-unknown-linux-gnu"
#else
#define HOST_TRIPLE "aarch64-unknown-linux-gnu"
#endif

#if defined(FAKE_GPU_KIND)
#define GPU "rocm gfx90a"
#elif defined(FAKE_GPU_NEW)
#define GPU "cuda sm_120"
#else
#define GPU "cuda sm_90"
#endif

extern const char kiln_model_metadata[];
int kiln_model_run(void **args);
void kiln_model_gpu_load(void);
void kiln_model_gpu_unload(void);

#if defined(FAKE_GPU_DYNAMIC)
#define XY                                                                     \
  "input f32 2 1 ? x\n"                                                        \
  "dim-name input 0 1 n\n"                                                     \
  "output f32 2 1 ? y\n"                                                       \
  "dim-name output 0 1 n\n"
#else
#define XY                                                                     \
  "input f32 2 1 4 x\n"                                                        \
  "output f32 2 1 4 y\n"
#endif

const char kiln_model_metadata[] = "kiln-model 1\n"
                                   "kiln-version " KILN_VERSION_STRING "\n"
                                   "target " HOST_TRIPLE "\n"
                                   "gpu " GPU "\n" XY "output i8 1 4 z\n";

#if defined(FAKE_GPU_PTX)
static const char ptx[] = "BAD PTX";
#else
static const char ptx[] = "//\n.version 8.0\n.target sm_90\n";
#endif

/* What MLIR's module constructor would store. */
static void *module;

void kiln_model_gpu_load(void) { module = mgpuModuleLoadJIT((void *)ptx, 2); }

void kiln_model_gpu_unload(void) { mgpuModuleUnload(module); }

typedef struct MemRef2D {
  void *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2D;

static const float weight[8] = {10, 20, 30, 40, 50, 60, 70, 80};
static const int8_t bytes[6] = {9, 9, 1, 2, 3, 4};

/* y = x + weight[0, n) through the kernel, on one stream with an event,
 * as gpu-to-llvm lowers an async region. */
static void add(const MemRef2D *x, MemRef2D *y, void *stream) {
  KilnGpuMemRef1D host = {(void *)weight, (void *)weight, 0, 8, 1}, w;
  _mlir_ciface_kiln_gpu_constant_f32(&w, &host);
  int64_t n = x->sizes[1];
  void *dx = mgpuMemAlloc(4 * n, stream, 0);
  void *dy = mgpuMemAlloc(4 * n, stream, 0);
  mgpuMemcpy(dx, x->aligned, 4 * n, stream);
#if defined(FAKE_GPU_HOSTREAD)
  /* The bug FAKE_CUDA_GUARD catches: host code reading device memory. */
  volatile float first = *(const float *)dx;
  (void)first;
#endif
  mgpuMemset32(dy, 0, n, stream);
  void *event = mgpuEventCreate();
  mgpuEventRecord(event, stream);
  mgpuStreamWaitEvent(stream, event);
  void *f = mgpuModuleGetFunction(module, "fake_add_f32");
  void *params[] = {&dx, &w.aligned, &dy, &n};
  mgpuLaunchKernel(f, 1, 1, 1, n, 1, 1, 0, stream, params, NULL, 4);
  mgpuMemcpy(y->aligned, dy, 4 * n, stream);
  mgpuEventDestroy(event);
  mgpuMemFree(dx, stream);
  mgpuMemFree(dy, stream);
}

int kiln_model_run(void **args) {
  const MemRef2D *x = args[0];
  MemRef2D *y = args[1];
  int8_t **z = args[2]; /* {allocated, aligned, ...}: the aligned pointer */
  void *stream = mgpuStreamCreate();
  if (x->sizes[1] < 1 || x->sizes[1] > 8 || y->sizes[1] != x->sizes[1])
    return 99;
  add(x, y, stream);
#if defined(FAKE_GPU_READBACK)
  mgpuStreamSynchronize(stream);
#endif
  KilnGpuMemRef1D host = {(void *)bytes, (void *)bytes, 2, 4, 1}, w;
  _mlir_ciface_kiln_gpu_constant_i8(&w, &host);
  mgpuMemcpy(z[1], w.aligned, 4, stream);
  mgpuStreamSynchronize(stream);
  mgpuStreamDestroy(stream);
  return 0;
}

#if defined(FAKE_GPU_DYNAMIC)
int kiln_model_output_dims(void **inputs, int64_t **dims);
int kiln_model_output_dims(void **inputs, int64_t **dims) {
  const MemRef2D *x = inputs[0];
  dims[0][0] = 1;
  dims[0][1] = x->sizes[1];
  return 0;
}
#endif

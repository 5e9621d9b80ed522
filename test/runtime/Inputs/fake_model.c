/* A hand-written model library implementing the Kiln model ABI (version 1,
 * docs/runtime.md), so the runtime can be tested without kiln-compile.
 * One FAKE_* macro picks a variant (test/runtime/CMakeLists.txt):
 *
 *   FAKE_GOOD       input  f32[1x10] "image data%" (name escaped as %25)
 *                   output f32[1x10] "scores" = 2 * image + 1
 *                   output i32[]     "threads" = omp_get_max_threads()
 *                   plus an unknown record, which readers must skip,
 *                   and a memory plan of 1 MiB
 *   FAKE_ABI2       "kiln-model 2"
 *   FAKE_VERSION    built by Kiln 9.9.9
 *   FAKE_TARGET     compiled for another architecture
 *   FAKE_NO_RUN     no kiln_model_run symbol
 *   FAKE_NONE       neither symbol (an ordinary shared library)
 *   FAKE_MALFORMED  an output record with a missing dim
 *   FAKE_FAIL       as FAKE_GOOD, but kiln_model_run returns 7
 *   FAKE_DYNAMIC    inputs f32[batch x 4] "x" and f32[batch] "scale",
 *                   output f32[batch x 4] "y" = x * scale (per row), its
 *                   dims from kiln_model_output_dims; a batch of 0 fails
 *                   run-time check 1, one of 7 makes the shape function
 *                   fail otherwise, one of 9 makes it contradict y's
 *                   static dim
 *   FAKE_NO_DIMS    as FAKE_DYNAMIC without kiln_model_output_dims
 */
#include <omp.h>
#include <stdint.h>

#include "kiln/version.h"

#if defined(__x86_64__)
#define HOST_TRIPLE "x86_64-unknown-linux-gnu"
#define OTHER_TRIPLE "aarch64-unknown-linux-gnu"
#else
#define HOST_TRIPLE "aarch64-unknown-linux-gnu"
#define OTHER_TRIPLE "x86_64-unknown-linux-gnu"
#endif

#if defined(FAKE_ABI2)
#define ABI "2"
#else
#define ABI "1"
#endif

#if defined(FAKE_VERSION)
#define VERSION "9.9.9"
#else
#define VERSION KILN_VERSION_STRING
#endif

#if defined(FAKE_TARGET)
#define TRIPLE OTHER_TRIPLE
#else
#define TRIPLE HOST_TRIPLE
#endif

#if defined(FAKE_MALFORMED)
#define SCORES "output f32 2 1\n"
#else
#define SCORES "output f32 2 1 10 scores\n"
#endif

/* The ABI's exported symbols, declared here as a user of the ABI would. */
extern const char kiln_model_metadata[];
int kiln_model_run(void **args);

#if defined(FAKE_DYNAMIC) || defined(FAKE_NO_DIMS)
const char kiln_model_metadata[] = "kiln-model 1\n"
                                   "kiln-version " VERSION "\n"
                                   "target " TRIPLE "\n"
                                   "input f32 2 ? 4 x\n"
                                   "dim-name input 0 0 batch\n"
                                   "input f32 1 ? scale\n"
                                   "dim-name input 1 0 batch\n"
                                   "output f32 2 ? 4 y\n"
                                   "dim-name output 0 0 batch\n"
                                   "check 1 the batch is empty\n";

typedef struct MemRefF {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRefF;

int kiln_model_run(void **args) {
  const MemRefF *x = args[0], *scale = args[1];
  MemRefF *y = args[2];
  if (x->sizes[0] == 0)
    return 1;
  if (scale->sizes[0] != x->sizes[0] || y->sizes[0] != x->sizes[0] ||
      x->sizes[1] != 4 || y->sizes[1] != 4)
    return 99;
  for (int64_t r = 0; r < x->sizes[0]; ++r)
    for (int64_t c = 0; c < 4; ++c)
      y->aligned[r * 4 + c] = x->aligned[r * 4 + c] * scale->aligned[r];
  return 0;
}

#if defined(FAKE_DYNAMIC)
int kiln_model_output_dims(void **inputs, int64_t **dims);
int kiln_model_output_dims(void **inputs, int64_t **dims) {
  const MemRefF *x = inputs[0];
  if (x->sizes[0] == 7)
    return 42; /* a failure that is no run-time check */
  dims[0][0] = x->sizes[0];
  dims[0][1] = x->sizes[0] == 9 ? 5 : 4; /* 9: contradicts the static 4 */
  return 0;
}
#endif

#elif !defined(FAKE_NONE)
const char kiln_model_metadata[] =
    "kiln-model " ABI "\n"
    "kiln-version " VERSION "\n"
    "target " TRIPLE "\n"
    "cpu generic\n"
    "features -\n"
    "options -O3 --fake\n"
    "some-future-record 1 2 3\n"
    "entry main_graph\n"
    "input f32 2 1 10 image data%25\n" SCORES "output i32 0 threads\n"
    "memory 1048576\n";
#endif

#if !defined(FAKE_DYNAMIC) && !defined(FAKE_NO_DIMS)
typedef struct MemRef2D {
  float *allocated, *aligned;
  int64_t offset, sizes[2], strides[2];
} MemRef2D;

typedef struct MemRef0D {
  int32_t *allocated, *aligned;
  int64_t offset;
} MemRef0D;

#if !defined(FAKE_NONE) && !defined(FAKE_NO_RUN)
int kiln_model_run(void **args) {
  const MemRef2D *image = args[0];
  MemRef2D *scores = args[1];
  MemRef0D *threads = args[2];
  /* The runtime promises dense row-major descriptors; say when not. */
  if (image->offset || image->sizes[0] != 1 || image->sizes[1] != 10 ||
      image->strides[0] != 10 || image->strides[1] != 1 ||
      scores->strides[1] != 1 || threads->offset)
    return 99;
  for (int i = 0; i < 10; ++i)
    scores->aligned[i] = 2 * image->aligned[i] + 1;
  *threads->aligned = omp_get_max_threads();
#if defined(FAKE_FAIL)
  return 7;
#else
  return 0;
#endif
}
#endif
#endif

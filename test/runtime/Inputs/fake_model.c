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

#if !defined(FAKE_NONE)
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

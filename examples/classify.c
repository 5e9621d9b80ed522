/* classify: loads a model compiled by kiln-compile with the runtime API,
 * feeds it one input file and prints the top-5 scores of its first output.
 *
 *   kiln-classify MODEL.so INPUT.npy|INPUT.pb [--threads N]
 *
 * A minimal user of libkiln_runtime (include/kiln/kiln_runtime.h): it
 * needs nothing from MLIR or LLVM. Build your own the same way:
 *   cc classify.c -Iinclude -Lbuild/lib -lkiln_runtime -o classify */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_runtime.h"

enum { kTopK = 5 };

static int fail(KilnStatus *s) {
  fprintf(stderr, "classify: error: %s\n", kilnStatusGetMessage(s));
  kilnStatusDestroy(s);
  return 1;
}

static int hasSuffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* The `index`-th element of a float tensor as a double. */
static double scoreAt(const KilnTensor *t, int64_t index) {
  if (kilnTensorGetElementType(t) == KILN_ELEMENT_TYPE_F64)
    return ((const double *)kilnTensorGetConstData(t))[index];
  return ((const float *)kilnTensorGetConstData(t))[index];
}

/* Prints the kTopK largest scores of `t` (a selection, fine for the
 * thousand classes of ImageNet). */
static void printTop(const KilnTensor *t, const char *name) {
  int64_t n = kilnTensorGetElementCount(t);
  int64_t best[kTopK];
  int found = 0;
  for (; found < kTopK && found < n; ++found) {
    int64_t arg = -1;
    for (int64_t i = 0; i < n; ++i) {
      int taken = 0;
      for (int j = 0; j < found; ++j)
        taken |= best[j] == i;
      if (!taken && (arg < 0 || scoreAt(t, i) > scoreAt(t, arg)))
        arg = i;
    }
    best[found] = arg;
  }
  printf("top %d of '%s' (%lld scores):\n", found, name, (long long)n);
  for (int j = 0; j < found; ++j)
    printf("  %d. class %lld  score %.6g\n", j + 1, (long long)best[j],
           scoreAt(t, best[j]));
}

static int run(KilnModel *model, KilnTensor *input, int threads) {
  int64_t numOutputs = kilnModelGetNumOutputs(model);
  KilnTensor **outputs = calloc((size_t)numOutputs + 1, sizeof(*outputs));
  if (!outputs)
    return 1;
  int rc = 1;
  KilnStatus *s = NULL;
  for (int64_t k = 0; k < numOutputs && !s; ++k)
    s = kilnTensorCreate(kilnModelGetOutputElementType(model, k),
                         kilnModelGetOutputRank(model, k),
                         kilnModelGetOutputDims(model, k), &outputs[k]);
  if (!s && threads > 0)
    s = kilnModelSetThreadCount(model, threads);
  if (!s)
    s = kilnModelRun(model, &input, 1, outputs, (size_t)numOutputs);
  if (s) {
    fail(s);
  } else if (numOutputs < 1 ||
             (kilnTensorGetElementType(outputs[0]) != KILN_ELEMENT_TYPE_F32 &&
              kilnTensorGetElementType(outputs[0]) != KILN_ELEMENT_TYPE_F64)) {
    fprintf(stderr, "classify: error: the first output is not f32 or f64\n");
  } else {
    printTop(outputs[0], kilnModelGetOutputName(model, 0));
    rc = 0;
  }
  for (int64_t k = 0; k < numOutputs; ++k)
    kilnTensorDestroy(outputs[k]);
  free(outputs);
  return rc;
}

int main(int argc, char **argv) {
  int threads = 0;
  if (argc == 5 && !strcmp(argv[3], "--threads"))
    threads = atoi(argv[4]);
  if ((argc != 3 && argc != 5) || (argc == 5 && threads < 1)) {
    fprintf(stderr,
            "usage: kiln-classify MODEL.so INPUT.npy|INPUT.pb [--threads N]\n");
    return 2;
  }
  KilnModel *model = NULL;
  KilnStatus *s = kilnModelLoad(argv[1], &model);
  if (s)
    return fail(s);
  if (kilnModelGetNumInputs(model) != 1) {
    fprintf(stderr, "classify: error: the model has %lld inputs, not 1\n",
            (long long)kilnModelGetNumInputs(model));
    kilnModelDestroy(model);
    return 1;
  }
  KilnTensor *input = NULL;
  s = hasSuffix(argv[2], ".npy") ? kilnTensorReadNpyFile(argv[2], &input)
                                 : kilnTensorReadPbFile(argv[2], &input);
  int rc = s ? fail(s) : run(model, input, threads);
  kilnTensorDestroy(input);
  kilnModelDestroy(model);
  return rc;
}

/* Times a Kiln model library (model.so from kiln-compile) through
 * libkiln_runtime, in-process, and prints one JSON line per timed run.
 *
 *   kiln_bench MODEL.so --threads T [--budget S] [--min-iters N]
 *              [--max-iters N] [--max-seconds S] [--output OUT.npy]
 * INPUT.npy...
 *
 * After one warm-up run (more while they take under a tenth of the
 * budget), it times runs until at least --min-iters (default 3) ran and
 * --budget seconds (default 1) passed, or --max-iters (default 200) ran;
 * a run that would end past --max-seconds (default 4) after the first
 * timed one is not started (slow models get fewer than --min-iters).
 * Prints {"iter": i, "ms": t} per timed run, then a summary line, and
 * writes the first output to OUT.npy for bench.py to check against
 * PyTorch's. bench/run.sh builds it against build/lib/libkiln_runtime.so.
 * Exit: 0 ran, 2 usage or bad files, 4 a load or run error. */
#define _POSIX_C_SOURCE 200809L
#include "kiln/kiln_runtime.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { kMaxInputs = 16 };

static double nowSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Prints `s`'s message with `what`, releases it; the exit code `rc`. */
static int fail(KilnStatus *s, const char *what, int rc) {
  fprintf(stderr, "kiln_bench: %s: %s\n", what, kilnStatusGetMessage(s));
  kilnStatusDestroy(s);
  return rc;
}

static int usage(void) {
  fprintf(
      stderr,
      "usage: kiln_bench MODEL.so --threads T [--budget S] "
      "[--min-iters N] [--max-iters N] [--max-seconds S] [--output OUT.npy] "
      "INPUT.npy...\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *model = NULL, *output = NULL, *inputPaths[kMaxInputs];
  int threads = 0, minIters = 3, maxIters = 200, numInputs = 0;
  double budget = 1.0, maxSeconds = 4.0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    bool hasValue = i + 1 < argc;
    if (!strcmp(a, "--threads") && hasValue)
      threads = atoi(argv[++i]);
    else if (!strcmp(a, "--budget") && hasValue)
      budget = atof(argv[++i]);
    else if (!strcmp(a, "--min-iters") && hasValue)
      minIters = atoi(argv[++i]);
    else if (!strcmp(a, "--max-iters") && hasValue)
      maxIters = atoi(argv[++i]);
    else if (!strcmp(a, "--max-seconds") && hasValue)
      maxSeconds = atof(argv[++i]);
    else if (!strcmp(a, "--output") && hasValue)
      output = argv[++i];
    else if (a[0] == '-')
      return usage();
    else if (!model)
      model = a;
    else if (numInputs < kMaxInputs)
      inputPaths[numInputs++] = a;
    else
      return usage();
  }
  if (!model || threads < 1 || minIters < 1 || maxIters < minIters)
    return usage();

  int rc = 4;
  KilnModel *m = NULL;
  KilnTensor *inputs[kMaxInputs] = {0}, *outputs[kMaxInputs] = {0};
  int64_t numOutputs = 0;
  KilnStatus *s = kilnModelLoad(model, &m);
  if (s) {
    rc = fail(s, model, 4);
    goto done;
  }
  numOutputs = kilnModelGetNumOutputs(m);
  if (kilnModelGetNumInputs(m) != numInputs || numOutputs > kMaxInputs ||
      numOutputs < 1) {
    fprintf(stderr, "kiln_bench: %s takes %lld inputs (%d given)\n", model,
            (long long)kilnModelGetNumInputs(m), numInputs);
    rc = 2;
    goto done;
  }
  for (int i = 0; i < numInputs; ++i)
    if ((s = kilnTensorReadNpyFile(inputPaths[i], &inputs[i]))) {
      rc = fail(s, "input", 2);
      goto done;
    }
  for (int64_t k = 0; k < numOutputs; ++k)
    if ((s = kilnTensorCreate(kilnModelGetOutputElementType(m, k),
                              kilnModelGetOutputRank(m, k),
                              kilnModelGetOutputDims(m, k), &outputs[k]))) {
      rc = fail(s, "output", 4);
      goto done;
    }
  if ((s = kilnModelSetThreadCount(m, threads))) {
    rc = fail(s, "threads", 2);
    goto done;
  }

  /* Warm-up: at least one run, more while they fit a tenth of the budget. */
  double t0 = nowSeconds();
  int warmups = 0;
  do {
    if ((s = kilnModelRun(m, inputs, (size_t)numInputs, outputs,
                          (size_t)numOutputs))) {
      rc = fail(s, "run", 4);
      goto done;
    }
    ++warmups;
  } while (warmups < 20 && nowSeconds() - t0 < 0.1 * budget);

  double start = nowSeconds(), total = 0, last = 0;
  int iters = 0;
  while (iters < maxIters &&
         (iters < minIters || nowSeconds() - start < budget)) {
    /* A slow model stops short of --min-iters rather than overrun. */
    if (iters > 0 && nowSeconds() - start + last > maxSeconds)
      break;
    double t = nowSeconds();
    s = kilnModelRun(m, inputs, (size_t)numInputs, outputs, (size_t)numOutputs);
    t = nowSeconds() - t;
    last = t;
    if (s) {
      rc = fail(s, "run", 4);
      goto done;
    }
    total += t;
    printf("{\"iter\": %d, \"ms\": %.6f}\n", iters++, 1e3 * t);
  }
  printf("{\"runtime\": \"kiln\", \"threads\": %d, \"iters\": %d, "
         "\"warmup\": %d, \"total_s\": %.6f}\n",
         threads, iters, warmups, total);
  if (output && (s = kilnTensorWriteNpyFile(outputs[0], output))) {
    rc = fail(s, "output", 2);
    goto done;
  }
  rc = 0;

done:
  for (int64_t k = 0; k < numOutputs; ++k)
    kilnTensorDestroy(outputs[k]);
  for (int i = 0; i < numInputs; ++i)
    kilnTensorDestroy(inputs[i]);
  kilnModelDestroy(m);
  return rc;
}

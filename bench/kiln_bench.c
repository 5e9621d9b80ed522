/* Times a Kiln model library (model.so from kiln-compile) through
 * libkiln_runtime, in-process, and prints one JSON line per timed run.
 *
 *   kiln_bench MODEL.so --threads T [--budget S] [--min-iters N]
 *              [--max-iters N] [--max-seconds S] [--output OUT.npy]
 * INPUT.npy...
 *
 * Warm-up and timed runs as bench_util.h describes. Prints {"iter": i, "ms": t}
 * per timed run, then a summary line, and writes the first output to OUT.npy
 * for bench.py to check against PyTorch's. bench/run.sh builds it against
 * build/lib/libkiln_runtime.so. Exit: 0 ran, 2 usage or bad files, 4 a load or
 * run error. */
#define _POSIX_C_SOURCE 200809L
#include "kiln/kiln_runtime.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

enum { kMaxInputs = 16 };

/* One model run for benchMeasure; `status` is the failure, if any. */
typedef struct Run {
  KilnModel *model;
  KilnTensor **inputs, **outputs;
  size_t numInputs, numOutputs;
  KilnStatus *status;
} Run;

static bool runModel(void *ctx) {
  Run *r = ctx;
  r->status = kilnModelRun(r->model, r->inputs, r->numInputs, r->outputs,
                           r->numOutputs);
  return !r->status;
}

static void report(void *ctx, int iter, double seconds) {
  (void)ctx;
  printf("{\"iter\": %d, \"ms\": %.6f}\n", iter, 1e3 * seconds);
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
  int numInputs = 0;
  BenchOptions o = BENCH_OPTIONS_DEFAULT;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    bool hasValue = i + 1 < argc;
    if (benchParseOption(&o, argc, argv, &i))
      continue;
    if (!strcmp(a, "--output") && hasValue)
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
  if (!model || !benchOptionsValid(&o))
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
  if ((s = kilnModelSetThreadCount(m, o.threads))) {
    rc = fail(s, "threads", 2);
    goto done;
  }

  Run run = {m, inputs, outputs, (size_t)numInputs, (size_t)numOutputs, NULL};
  BenchStats stats;
  if (!benchMeasure(&o, runModel, report, &run, &stats)) {
    rc = fail(run.status, "run", 4);
    goto done;
  }
  printf("{\"runtime\": \"kiln\", \"threads\": %d, \"iters\": %d, "
         "\"warmup\": %d, \"total_s\": %.6f}\n",
         o.threads, stats.iters, stats.warmups, stats.total);
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

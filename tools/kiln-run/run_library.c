/* kiln-run's library path: a model.so made by kiln-compile, loaded and run
 * through libkiln_runtime alone (no MLIR), with the same flags as the JIT
 * path plus --benchmark. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "tools/kiln-run/compare.h"
#include "tools/kiln-run/options.h"
#include "tools/kiln-run/profile.h"

bool kilnRunIsLibrary(const char *path) {
  if (kilnRunHasSuffix(path, ".so"))
    return true;
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  char magic[4] = {0};
  size_t got = fread(magic, 1, sizeof(magic), f);
  fclose(f);
  return got == 4 && !memcmp(magic, "\177ELF", 4);
}

static double nowSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The model's slot names as the array kilnRunMatchSlots takes (borrowed
 * from the model; the cast only satisfies its signature). */
static char **slotNames(const KilnModel *m, bool outputs) {
  int64_t n = outputs ? kilnModelGetNumOutputs(m) : kilnModelGetNumInputs(m);
  char **names = calloc((size_t)n + 1, sizeof(char *));
  if (!names)
    abort();
  for (int64_t i = 0; i < n; ++i)
    names[i] = (char *)(outputs ? kilnModelGetOutputName(m, i)
                                : kilnModelGetInputName(m, i));
  return names;
}

/* "f32[2x?x4" into buf (the callers close the bracket); a dynamic dim is
 * "?". */
static void formatShape(char *buf, size_t size, KilnElementType type,
                        int64_t rank, const int64_t *dims) {
  int n = snprintf(buf, size, "%s[", kilnElementTypeGetName(type));
  for (int64_t d = 0; d < rank && n > 0 && (size_t)n < size; ++d)
    n += dims[d] == KILN_DIM_DYNAMIC
             ? snprintf(buf + n, size - (size_t)n, "%s?", d ? "x" : "")
             : snprintf(buf + n, size - (size_t)n, "%s%lld", d ? "x" : "",
                        (long long)dims[d]);
}

/* For an input file whose size differs at a dim the model names: how to
 * compile the library for it; "" otherwise. Static storage. */
static const char *namedDimHint(const KilnModel *m, int64_t i,
                                const KilnTensor *t) {
  static char hint[256];
  int64_t rank = kilnModelGetInputRank(m, i);
  if (kilnTensorGetRank(t) != rank)
    return "";
  for (int64_t d = 0; d < rank; ++d) {
    const char *name = kilnModelGetInputDimName(m, i, d);
    int64_t size = kilnTensorGetDims(t)[d];
    if (!name || size == kilnModelGetInputDims(m, i)[d])
      continue;
    char *printable = kilnPrintableTextCreate(name);
    snprintf(hint, sizeof(hint),
             " (dim %lld is '%s', which this library was compiled for "
             "%lld: compile one with --dim %s=%lld)",
             (long long)d, printable, (long long)kilnModelGetInputDims(m, i)[d],
             printable, (long long)size);
    free(printable);
    return hint;
  }
  return "";
}

/* Does `t` have the type and dims of `m`'s input `i` (a dynamic dim: any
 * size), or of output `i`, created for this run as `actual`? ONNX's test
 * data stores bf16 as u16 (numpy has no bfloat16): such a file is retyped
 * to bf16 bit for bit. On a mismatch prints an error. */
static bool fits(const KilnModel *m, bool output, int64_t i,
                 const KilnTensor *actual, KilnTensor **t) {
  KilnElementType type = output ? kilnModelGetOutputElementType(m, i)
                                : kilnModelGetInputElementType(m, i);
  int64_t rank =
      output ? kilnModelGetOutputRank(m, i) : kilnModelGetInputRank(m, i);
  const int64_t *dims =
      output ? kilnTensorGetDims(actual) : kilnModelGetInputDims(m, i);
  if (type == KILN_ELEMENT_TYPE_BF16 &&
      kilnTensorGetElementType(*t) == KILN_ELEMENT_TYPE_U16) {
    KilnTensor *bf16 = NULL;
    KilnStatus *s = kilnTensorCreate(type, kilnTensorGetRank(*t),
                                     kilnTensorGetDims(*t), &bf16);
    if (!s) {
      memcpy(kilnTensorGetData(bf16), kilnTensorGetConstData(*t),
             kilnTensorGetByteSize(*t));
      kilnTensorDestroy(*t);
      *t = bf16;
    }
    kilnStatusDestroy(s);
  }
  bool ok =
      kilnTensorGetElementType(*t) == type && kilnTensorGetRank(*t) == rank;
  for (int64_t d = 0; ok && d < rank; ++d)
    ok = dims[d] == KILN_DIM_DYNAMIC || kilnTensorGetDims(*t)[d] == dims[d];
  if (ok)
    return true;
  char want[256], got[256];
  formatShape(want, sizeof(want), type, rank, dims);
  formatShape(got, sizeof(got), kilnTensorGetElementType(*t),
              kilnTensorGetRank(*t), kilnTensorGetDims(*t));
  const char *name =
      output ? kilnModelGetOutputName(m, i) : kilnModelGetInputName(m, i);
  if (output)
    fprintf(stderr,
            "%s: output '%s' does not match: expected %s], the "
            "model gives %s]\n",
            kilnRunProgram, name, got, want);
  else
    kilnRunError("input '%s' has the wrong type or shape: the file holds "
                 "%s], the model wants %s]%s",
                 name, got, want, namedDimHint(m, i, *t));
  return false;
}

/* Orders the input files by slot and checks them; false after an error. */
static bool bindInputs(const Options *o, const KilnModel *m,
                       KilnTensor **args) {
  char **names = slotNames(m, false);
  int64_t n = kilnModelGetNumInputs(m);
  bool ok = kilnRunMatchSlots(o->inputs, o->numInputs, names, n, "input");
  for (int i = 0; ok && i < o->numInputs; ++i) {
    /* fits may retype the tensor; o->inputs keeps owning it. */
    ok = fits(m, false, o->inputs[i].slot, NULL, &o->inputs[i].tensor);
    args[o->inputs[i].slot] = o->inputs[i].tensor;
  }
  for (int64_t k = 0; ok && k < n; ++k) {
    if (!args[k]) {
      kilnRunError("no file given for input '%s' (--input %s=FILE)", names[k],
                   names[k]);
      ok = false;
    }
  }
  free(names);
  return ok;
}

/* The outputs of a run on `args` (kilnModelCreateOutputs: their dims
 * follow from the inputs'); NULL after an error. */
static KilnTensor **createOutputs(KilnModel *m, KilnTensor **args) {
  KilnTensor **outputs =
      calloc((size_t)kilnModelGetNumOutputs(m) + 1, sizeof(*outputs));
  if (!outputs)
    abort();
  KilnStatus *s = kilnModelCreateOutputs(
      m, args, (size_t)kilnModelGetNumInputs(m), outputs);
  if (!s)
    return outputs;
  kilnRunError("%s", kilnStatusGetMessage(s));
  kilnStatusDestroy(s);
  free(outputs);
  return NULL;
}

/* Compares each expected file with its output; the exit code. */
static int checkOutputs(const Options *o, const KilnModel *m,
                        KilnTensor **outputs) {
  int rc = kExitPass;
  for (int i = 0; i < o->numExpected; ++i) {
    TensorArg *e = &o->expected[i];
    if (!fits(m, true, e->slot, outputs[e->slot], &e->tensor))
      rc = kExitMismatch;
    else if (!kilnRunCompare(kilnModelGetOutputName(m, e->slot),
                             outputs[e->slot], e->tensor, o->rtol, o->atol))
      rc = kExitMismatch;
  }
  return rc;
}

static int compareDoubles(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* --benchmark N: warm-up runs (a tenth of N, at least one, at most 100),
 * then N timed runs; prints min / median / p90 latency and throughput. */
static int benchmark(const Options *o, KilnModel *m, KilnTensor **args,
                     size_t numArgs, KilnTensor **outputs, size_t numOutputs) {
  int n = o->benchmark, warmup = n / 10 < 1 ? 1 : n / 10 > 100 ? 100 : n / 10;
  double *times = malloc((size_t)n * sizeof(double));
  if (!times)
    abort();
  KilnStatus *s = NULL;
  for (int i = 0; i < warmup && !s; ++i)
    s = kilnModelRun(m, args, numArgs, outputs, numOutputs);
  double total = 0;
  for (int i = 0; i < n && !s; ++i) {
    double t0 = nowSeconds();
    s = kilnModelRun(m, args, numArgs, outputs, numOutputs);
    times[i] = nowSeconds() - t0;
    total += times[i];
  }
  if (s) {
    kilnRunError("benchmark run: %s", kilnStatusGetMessage(s));
    kilnStatusDestroy(s);
    free(times);
    return kExitCompile;
  }
  qsort(times, (size_t)n, sizeof(double), compareDoubles);
  double median =
      n % 2 ? times[n / 2] : 0.5 * (times[n / 2 - 1] + times[n / 2]);
  /* The nearest-rank percentile: the smallest time >= 90% of the runs. */
  int p90 = (9 * n + 9) / 10 - 1;
  char threads[32] = "default threads";
  if (o->threads)
    snprintf(threads, sizeof(threads), "%d thread%s", o->threads,
             o->threads == 1 ? "" : "s");
  printf("benchmark: %d runs after %d warm-up, %s: min %.4g ms, median "
         "%.4g ms, p90 %.4g ms, %.4g runs/s\n",
         n, warmup, threads, 1e3 * times[0], 1e3 * median, 1e3 * times[p90],
         total > 0 ? n / total : 0.0);
  free(times);
  return kExitPass;
}

/* Runs once (--repeat N: N times), then reports the last run; the exit
 * code. */
static int runAndCheck(const Options *o, KilnModel *m, KilnTensor **args,
                       KilnTensor **outputs) {
  size_t numArgs = (size_t)kilnModelGetNumInputs(m);
  size_t numOutputs = (size_t)kilnModelGetNumOutputs(m);
  double t0 = nowSeconds();
  KilnStatus *s = NULL;
  for (int i = 0; i < (o->repeat > 1 ? o->repeat : 1) && !s; ++i) {
    /* Stale outputs must not pass for the last run's. */
    for (size_t k = 0; i && k < numOutputs; ++k)
      memset(kilnTensorGetData(outputs[k]), 0xff,
             kilnTensorGetByteSize(outputs[k]));
    s = kilnModelRun(m, args, numArgs, outputs, numOutputs);
  }
  if (s) {
    kilnRunError("%s", kilnStatusGetMessage(s));
    kilnStatusDestroy(s);
    return kExitCompile;
  }
  if (o->verbose)
    fprintf(stderr, "%s: ran in %.3f ms\n", kilnRunProgram,
            1e3 * (nowSeconds() - t0));
  for (size_t k = 0; o->printOutput && k < numOutputs; ++k)
    kilnRunPrint(kilnModelGetOutputName(m, (int64_t)k), outputs[k], 64);
  if (o->outputDir) {
    char **names = slotNames(m, true);
    bool ok =
        kilnRunWriteOutputs(o->outputDir, names, (intptr_t)numOutputs, outputs);
    free(names);
    if (!ok)
      return kExitUsage;
  }
  int rc = checkOutputs(o, m, outputs);
  if (rc == kExitPass)
    kilnRunReportUnchecked(o, o->model, (int64_t)numOutputs);
  if (rc == kExitPass && o->benchmark)
    rc = benchmark(o, m, args, numArgs, outputs, numOutputs);
  return rc;
}

/* Prints slot `i`'s line of the summary: name, element type and dims,
 * each dim the model names as NAME=SIZE, a dynamic one's size as `?`. */
static void printSlot(const KilnModel *m, bool output, int64_t i) {
  const char *name =
      output ? kilnModelGetOutputName(m, i) : kilnModelGetInputName(m, i);
  KilnElementType type = output ? kilnModelGetOutputElementType(m, i)
                                : kilnModelGetInputElementType(m, i);
  int64_t rank =
      output ? kilnModelGetOutputRank(m, i) : kilnModelGetInputRank(m, i);
  const int64_t *dims =
      output ? kilnModelGetOutputDims(m, i) : kilnModelGetInputDims(m, i);
  char *printable = kilnPrintableTextCreate(name);
  printf("  %-6s %lld '%s': %s[", output ? "output" : "input", (long long)i,
         printable, kilnElementTypeGetName(type));
  free(printable);
  for (int64_t d = 0; d < rank; ++d) {
    const char *dimName = output ? kilnModelGetOutputDimName(m, i, d)
                                 : kilnModelGetInputDimName(m, i, d);
    char *dimText = dimName ? kilnPrintableTextCreate(dimName) : NULL;
    printf("%s%s%s", d ? ", " : "", dimText ? dimText : "", dimText ? "=" : "");
    if (dims[d] == KILN_DIM_DYNAMIC)
      printf("?");
    else
      printf("%lld", (long long)dims[d]);
    free(dimText);
  }
  printf("]\n");
}

/* --summary: what the library holds, on stdout. */
static void printSummary(const char *path, const KilnModel *m) {
  char *options = kilnPrintableTextCreate(kilnModelGetOptions(m));
  printf("%s: Kiln %s, %s, cpu %s%s%s\n", path, kilnModelGetKilnVersion(m),
         kilnModelGetTarget(m), kilnModelGetCpu(m),
         *options ? ", options " : "", options);
  free(options);
  for (int64_t i = 0; i < kilnModelGetNumInputs(m); ++i)
    printSlot(m, false, i);
  for (int64_t i = 0; i < kilnModelGetNumOutputs(m); ++i)
    printSlot(m, true, i);
  for (int64_t i = 0; i < kilnModelGetNumSpecializations(m); ++i) {
    char *dims = kilnPrintableTextCreate(kilnModelGetSpecialization(m, i));
    printf("  fast path %lld: %s\n", (long long)i, dims);
    free(dims);
  }
  printf("  memory plan: %lld bytes\n", (long long)kilnModelGetMemoryPlan(m));
  if (kilnModelGetShard(m))
    printf("  sharded: %s (run it with mpirun -np %s)\n", kilnModelGetShard(m),
           strchr(kilnModelGetShard(m), ':') + 1);
}

int kilnRunLibrary(const Options *o) {
  double t0 = nowSeconds();
  KilnModel *m = NULL;
  KilnStatus *s = kilnModelLoad(o->model, &m);
  if (s) {
    kilnRunError("%s", kilnStatusGetMessage(s));
    kilnStatusDestroy(s);
    return kExitUsage;
  }
  if (o->verbose)
    fprintf(stderr, "%s: loaded %s (Kiln %s, %s, cpu %s) in %.3f ms\n",
            kilnRunProgram, o->model, kilnModelGetKilnVersion(m),
            kilnModelGetTarget(m), kilnModelGetCpu(m),
            1e3 * (nowSeconds() - t0));
  if (o->summary) {
    printSummary(o->model, m);
    kilnModelDestroy(m);
    return kExitPass;
  }
  /* A sharded model runs as N processes with the same outputs: rank 0
   * prints and writes them (every rank still checks them: a mismatch
   * anywhere fails the mpirun). */
  Options quiet;
  if (kilnModelGetShardRank(m) > 0 && !o->allRanks) {
    if (!freopen("/dev/null", "w", stdout))
      fclose(stdout);
    quiet = *o;
    quiet.outputDir = NULL;
    o = &quiet;
  }
  int rc = kExitUsage;
  KilnRunTraceFile trace = {.fd = -1};
  KilnTensor **args =
      calloc((size_t)kilnModelGetNumInputs(m) + 1, sizeof(*args));
  KilnTensor **outputs = NULL;
  char **outNames = slotNames(m, true);
  if (!args)
    abort();
  if (!bindInputs(o, m, args) ||
      !kilnRunMatchSlots(o->expected, o->numExpected, outNames,
                         kilnModelGetNumOutputs(m), "output"))
    goto out;
  if (o->threads > 0 && (s = kilnModelSetThreadCount(m, o->threads))) {
    kilnRunError("%s", kilnStatusGetMessage(s));
    kilnStatusDestroy(s);
    goto out;
  }
  if (o->profile && !kilnRunProfilePrepare(o, m, &trace))
    goto out;
  /* The outputs' dims follow from the input files: a failure is theirs. */
  if (!(outputs = createOutputs(m, args)))
    goto out;
  rc = runAndCheck(o, m, args, outputs);
  if (rc == kExitPass && o->profile)
    rc = kilnRunProfile(o, m, args, outputs, &trace);
out:
  kilnRunTraceFileDestroy(&trace);
  for (int64_t k = 0; outputs && k < kilnModelGetNumOutputs(m); ++k)
    kilnTensorDestroy(outputs[k]);
  free(outputs);
  free(outNames);
  free(args);
  kilnModelDestroy(m);
  return rc;
}

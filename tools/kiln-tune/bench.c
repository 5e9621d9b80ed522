/* One candidate's compile and run (bench.h). */
#define _GNU_SOURCE /* strdup */
#include "tools/kiln-tune/bench.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kiln/compile.h"
#include "kiln/diagnostics.h"
#include "tools/kiln-tune/options.h"

const double kBenchCompileTimeout = 300, kBenchRunTimeout = 120;

const char kBenchSameAsInvalid[] = "the same code as an invalid candidate";

/* Every reason a candidate can be invalid, indexed by its code (0: none).
 * Append only: the codes travel between MPI ranks of one build. */
static const char *const kReasons[] = {
    NULL,
    "it does not compile",
    "its compile timed out",
    "cannot start kiln-run-module",
    "no benchmark in kiln-run-module's output",
    "its output differs from the default schedule's",
    "its run timed out",
    "its run crashed",
    "its run failed",
    kBenchSameAsInvalid,
};
enum { kNumReasons = sizeof(kReasons) / sizeof(kReasons[0]) };

int benchErrorCode(const char *why) {
  for (int i = 1; why && i < kNumReasons; ++i)
    if (!strcmp(kReasons[i], why))
      return i;
  return why ? 8 /* its run failed: no reason is left out of the table */
             : 0;
}

const char *benchErrorText(int code) {
  return code > 0 && code < kNumReasons ? kReasons[code] : NULL;
}

char **benchCompileArgv(const BenchSetup *s, const char *input,
                        const char *output, const char *const *extra) {
  int numExtra = 0;
  while (extra && extra[numExtra])
    ++numExtra;
  char **argv = calloc((size_t)numExtra + 8, sizeof(*argv));
  if (!argv)
    abort();
  int n = 0;
  argv[n++] = measurePath("%s/kiln-compile", s->toolDir);
  argv[n++] = strdup(input);
  argv[n++] = measurePath("-o%s", output);
  argv[n++] = strdup("-q");
  if (s->target)
    argv[n++] = measurePath("--target=%s", s->target);
  if (s->cpu)
    argv[n++] = measurePath("--cpu=%s", s->cpu);
  for (int i = 0; i < numExtra; ++i)
    argv[n++] = strdup(extra[i]);
  return argv;
}

void benchFreeArgv(char **argv) {
  for (char **a = argv; *a; ++a)
    free(*a);
  free(argv);
}

void benchStartBuild(const BenchSetup *s, const BenchKernel *k,
                     const char *record, const char *name, BenchBuild *b) {
  b->logPath = measurePath("%s/%s.tune", k->dir, name);
  b->libPath = measurePath("%s/%s.so", k->dir, name);
  b->outPath = measurePath("%s/%s.out", k->dir, name);
  FILE *f = fopen(b->logPath, "w");
  if (f) {
    fprintf(f, "%s\n", record);
    fclose(f);
  }
  char *kernel = measurePath("%s/kernel.mlir", k->dir);
  char *logFlag = measurePath("--tuning-log=%s", b->logPath);
  const char *extra[] = {"-j1", logFlag, NULL};
  char **argv = benchCompileArgv(s, kernel, b->libPath, extra);
  measureSpawn(argv, b->outPath, kBenchCompileTimeout, &b->compile);
  benchFreeArgv(argv);
  free(logFlag);
  free(kernel);
}

const char *benchBuildError(const BenchBuild *b) {
  if (b->compile.status == 0)
    return NULL;
  return b->compile.status == 124 ? kReasons[2] : kReasons[1];
}

void benchBuildFree(BenchBuild *b) {
  if (b->libPath)
    unlink(b->libPath);
  free(b->logPath);
  free(b->libPath);
  free(b->outPath);
  b->logPath = b->libPath = b->outPath = NULL;
}

/* argv of kiln-run-module for benchRun; free with benchFreeArgv. */
static char **runArgv(const BenchSetup *s, const BenchKernel *k,
                      const char *lib, bool reference, int runs) {
  /* The tool, the library, two words per input and per checked output,
   * the output directory or the tolerance, runs, threads, NULL. */
  char **argv =
      calloc((size_t)(2 * k->numInputs + 2 * k->numOutputs + 6), sizeof(*argv));
  if (!argv)
    abort();
  int n = 0;
  argv[n++] = measurePath("%s/kiln-run-module", s->toolDir);
  argv[n++] = strdup(lib);
  for (int i = 0; i < k->numInputs; ++i) {
    argv[n++] = strdup("--input");
    argv[n++] = measurePath("%s/in%d.npy", k->dir, i);
  }
  if (reference) {
    argv[n++] = measurePath("--output-dir=%s/ref", k->dir);
  } else {
    for (int i = 0; i < k->numOutputs; ++i) {
      argv[n++] = strdup("--expected");
      argv[n++] = measurePath("%s/ref/result%d.npy", k->dir, i);
    }
    argv[n++] = strdup("--atol=1e-3");
  }
  argv[n++] = measurePath("--benchmark=%d", runs);
  if (s->threads)
    argv[n++] = measurePath("--threads=%d", s->threads);
  return argv;
}

double benchRun(const BenchSetup *s, const BenchKernel *k, const char *lib,
                const char *outPath, bool reference, int runs,
                const char **why) {
  char **argv = runArgv(s, k, lib, reference, runs);
  MeasureJob job;
  double seconds = -1;
  if (!measureSpawn(argv, outPath, kBenchRunTimeout, &job)) {
    *why = kReasons[3];
  } else {
    measureWaitAll(&job, 1);
    if (job.status == 0 && (seconds = measureReadMedian(outPath)) <= 0)
      *why = kReasons[4];
    else if (job.status == 1)
      *why = kReasons[5];
    else if (job.status == 124)
      *why = kReasons[6];
    else if (job.status != 0)
      *why = job.status > 128 ? kReasons[7] : kReasons[8];
  }
  benchFreeArgv(argv);
  return seconds;
}

bool benchTuningTarget(const BenchSetup *s, KilnTuningTarget *out) {
  KilnTargetOptions options = {
      .target = s->target, .cpu = s->cpu, .optLevel = 3};
  KilnStrBuf err = {0};
  KilnTarget *target = kilnTargetCreate(&options, kilnStrBufCallback, &err);
  if (!target)
    tuneError("%s", kilnStrBufGet(&err));
  else
    kilnTuningTargetCreate(kilnTargetGetTriple(target),
                           kilnTargetGetCPU(target),
                           kilnTargetGetFeatures(target), out);
  kilnTargetDestroy(target);
  kilnStrBufDestroy(&err);
  return target != NULL;
}

bool benchSeenFind(const BenchSeen *s, uint64_t hash, double *seconds) {
  for (int i = 0; i < s->count; ++i)
    if (s->hashes[i] == hash) {
      *seconds = s->seconds[i];
      return true;
    }
  return false;
}

void benchSeenAdd(BenchSeen *s, uint64_t hash, double seconds) {
  uint64_t *hashes =
      realloc(s->hashes, (size_t)(s->count + 1) * sizeof(*hashes));
  if (hashes)
    s->hashes = hashes;
  double *times = realloc(s->seconds, (size_t)(s->count + 1) * sizeof(*times));
  if (times)
    s->seconds = times;
  if (!hashes || !times)
    abort();
  s->hashes[s->count] = hash;
  s->seconds[s->count++] = seconds;
}

void benchSeenFree(BenchSeen *s) {
  free(s->hashes);
  free(s->seconds);
  *s = (BenchSeen){0};
}

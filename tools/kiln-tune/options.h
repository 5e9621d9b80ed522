/* kiln-tune's command line: its options, their parsing and its messages. */
#ifndef KILN_TOOLS_KILN_TUNE_OPTIONS_H
#define KILN_TOOLS_KILN_TUNE_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "tools/kiln-tune/search.h"

extern const char kProg[];

/* Candidates compiled at once, at most (--jobs). */
enum { kMaxJobs = 16 };

/* Where candidates are measured (--workers). */
typedef enum TuneWorkers {
  kWorkersLocal, /* on this machine, in child processes */
  kWorkersMpi    /* on MPI worker ranks (pool.h, worker.h) */
} TuneWorkers;

typedef struct Options {
  const char *model;
  const char *output;
  const char *target;
  const char *cpu;
  int trials;    /* per task */
  double budget; /* seconds, whole run; 0: none */
  int threads;   /* the model's run threads; 0: the runtime's default */
  int jobs;      /* parallel compiles */
  TuneWorkers workers;
  bool resume;
  bool listTasks; /* --list-tasks: print the workloads, tune nothing */
  KilnSearchStrategy strategy;
  uint64_t seed;
  /* --input-shape NAME=DIMS and --dim NAME=N, each as a flag and its
   * value, passed to kiln-compile as given (the values owned by argv). */
  const char **shapeArgs;
  int numShapeArgs;
} Options;

/// Parses argv into *o (defaults already set); returns -1 to go on, else
/// the exit code (after printing the help, the version or an error).
int tuneParseArgs(int argc, char **argv, Options *o);
/// Frees what tuneParseArgs allocated.
void tuneOptionsDestroy(Options *o);

/// Prints "kiln-tune: error: MESSAGE" to stderr.
void tuneError(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

#endif

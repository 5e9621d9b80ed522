/* The timing loop shared by bench/kiln_bench.c and bench/sgemm.c: their
 * common options, the warm-up and the timed runs. Header-only (static
 * functions), so bench/run.sh builds each program from its one .c file.
 *
 * After one warm-up run (more while they take under a tenth of the
 * budget, at most 20), runs are timed until at least --min-iters
 * (default 3) ran and --budget seconds (default 1) passed, or --max-iters
 * (default 200) ran; a run that would end past --max-seconds (default 4)
 * after the first timed one is not started (slow runs get fewer than
 * --min-iters). */
#ifndef KILN_BENCH_BENCH_UTIL_H
#define KILN_BENCH_BENCH_UTIL_H

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct BenchOptions {
  int threads; /* --threads, required (>= 1) */
  int minIters, maxIters;
  double budget, maxSeconds;
} BenchOptions;

#define BENCH_OPTIONS_DEFAULT {0, 3, 200, 1.0, 4.0}

typedef struct BenchStats {
  int warmups, iters;
  double total; /* seconds over the timed runs */
} BenchStats;

static double benchNowSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Reads the option at argv[*i] with its value into `o` if it is one of
 * the timing options (--threads, --budget, --min-iters, --max-iters,
 * --max-seconds); advances *i past the value. False for anything else. */
static bool benchParseOption(BenchOptions *o, int argc, char **argv, int *i) {
  const char *a = argv[*i];
  if (*i + 1 >= argc)
    return false;
  if (!strcmp(a, "--threads"))
    o->threads = atoi(argv[++*i]);
  else if (!strcmp(a, "--budget"))
    o->budget = atof(argv[++*i]);
  else if (!strcmp(a, "--min-iters"))
    o->minIters = atoi(argv[++*i]);
  else if (!strcmp(a, "--max-iters"))
    o->maxIters = atoi(argv[++*i]);
  else if (!strcmp(a, "--max-seconds"))
    o->maxSeconds = atof(argv[++*i]);
  else
    return false;
  return true;
}

static bool benchOptionsValid(const BenchOptions *o) {
  return o->threads >= 1 && o->minIters >= 1 && o->maxIters >= o->minIters;
}

/* One run of the measured work; false on failure (which stops the
 * measurement). */
typedef bool (*BenchRunFn)(void *ctx);
/* Called after timed run `iter` took `seconds`, to print it. */
typedef void (*BenchReportFn)(void *ctx, int iter, double seconds);

/* Warms up, then times runs as described above, into `stats`. Returns
 * false as soon as a run fails. */
static bool benchMeasure(const BenchOptions *o, BenchRunFn run,
                         BenchReportFn report, void *ctx, BenchStats *stats) {
  *stats = (BenchStats){0, 0, 0};
  double t0 = benchNowSeconds();
  do {
    if (!run(ctx))
      return false;
    ++stats->warmups;
  } while (stats->warmups < 20 && benchNowSeconds() - t0 < 0.1 * o->budget);

  double start = benchNowSeconds(), last = 0;
  while (
      stats->iters < o->maxIters &&
      (stats->iters < o->minIters || benchNowSeconds() - start < o->budget)) {
    /* A slow model stops short of --min-iters rather than overrun. */
    if (stats->iters > 0 && benchNowSeconds() - start + last > o->maxSeconds)
      break;
    double t = benchNowSeconds();
    bool ok = run(ctx);
    t = benchNowSeconds() - t;
    last = t;
    if (!ok)
      return false;
    stats->total += t;
    report(ctx, stats->iters++, t);
  }
  return true;
}

#endif

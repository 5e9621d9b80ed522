/* Rank 0's side of kiln-tune --workers mpi: the worker ranks as a pool
 * that measures candidates. Rank 0 hands a batch's candidates to idle
 * workers, one at a time each, and hands each measurement back as it
 * comes, so N-1 candidates are timed at once. A worker gets a workload's
 * files (its kernel, inputs and reference outputs) before its first
 * candidate of that workload; then each candidate is a tuning log line. */
#ifndef KILN_TOOLS_KILN_TUNE_POOL_H
#define KILN_TOOLS_KILN_TUNE_POOL_H

#include <stdbool.h>

#include "kiln/tuning.h"
#include "tools/kiln-tune/bench.h"
#include "tools/kiln-tune/mpi_link.h"

typedef struct Pool Pool;

/// One workload: its index (the workers' name for it), its files and the
/// timed runs per measurement.
typedef struct PoolTask {
  int index;
  BenchKernel kernel;
  int runs;
} PoolTask;

/// One candidate: the one-record tuning log that makes kiln-compile build
/// it; timed `repeat` times (compiled once); with `dedup`, a library the
/// same as one measured already (in `seen`) takes that measurement.
typedef struct PoolJob {
  const char *record;
  int repeat;
  bool dedup;
  void *user;
} PoolJob;

/// Called for each measurement of a job as it comes: `seconds`, or
/// negative and `error` (bench.h) when invalid; `rank`, the worker that
/// compiled it.
typedef void (*PoolDoneFn)(void *ctx, const PoolJob *job, int rank,
                           double seconds, const char *error);

/// Rank 0 of `size` processes: waits for every worker's hello. Never NULL.
Pool *poolCreate(KilnTuneMpi *m, int size);

/// Prints the workers and their hosts to stderr; false (after saying
/// which) if a worker compiles for another target than `target`, rank
/// 0's: its times would be logged for the wrong machine.
bool poolCheckTargets(const Pool *p, const KilnTuningTarget *target);

int poolNumWorkers(const Pool *p);

/// Measures `jobs` on the workers; returns when all are measured.
void poolMeasure(Pool *p, const PoolTask *task, PoolJob *jobs, int n,
                 BenchSeen *seen, PoolDoneFn done, void *ctx);

/// Prints to stderr how many candidates each worker compiled and timed.
void poolPrintCounts(const Pool *p);

/// Tells every worker to stop, stops MPI and frees the pool; NULL is a
/// no-op.
void poolDestroy(Pool *p);

#endif

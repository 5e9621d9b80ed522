/* How kiln-tune compiles and times candidates: each in its own process
 * (kiln-compile, then kiln-run-module), so a candidate that crashes or
 * hangs is recorded as invalid and the tuner goes on. Candidates compile
 * in parallel; timing runs one at a time. */
#ifndef KILN_TOOLS_KILN_TUNE_MEASURE_H
#define KILN_TOOLS_KILN_TUNE_MEASURE_H

#include <stdbool.h>
#include <stdint.h>

/// A child process started by measureSpawn.
typedef struct MeasureJob {
  int pid;
  double started;
  double timeout; /* seconds; negative: none */
  bool killed;    /* for running past the timeout */
  int status;     /* after measureWait: exit code, 128+signal, 124 timeout */
} MeasureJob;

/// The directory this executable lives in (the other tools sit beside
/// it); malloc'd.
char *measureToolDir(void);

/// Starts `argv` (argv[0] a path) with stdout and stderr to `outPath`
/// (NULL: /dev/null); false when it cannot start.
bool measureSpawn(char *const *argv, const char *outPath, double timeout,
                  MeasureJob *job /* OUT */);

/// Waits for all `n` jobs, killing those past their timeout.
void measureWaitAll(MeasureJob *jobs, int n);

/// A formatted path (or any string), malloc'd.
char *measurePath(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/// Seconds on a monotonic clock.
double measureNow(void);

/// The median latency, in seconds, in kiln-run-module --benchmark output
/// at `path`; negative if there is none.
double measureReadMedian(const char *path);

/// The integrity digest of the library at `path` (0 if it cannot be read
/// or checked): two candidates that compile to the same library need one
/// measurement.
uint64_t measureLibraryDigest(const char *path);

/// Creates a work directory PREFIX.XXXXXX under $TMPDIR (else /tmp):
/// its path, malloc'd, or NULL with errno set.
char *measureMakeWorkDir(const char *prefix);

/// Removes `dir` and everything in it (rm -rf); NULL is a no-op.
void measureRemoveDir(const char *dir);

#endif

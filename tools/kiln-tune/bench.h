/* Compiling and timing one candidate of a workload: the same code on the
 * tuner (--workers local) and on an MPI worker rank (--workers mpi), so a
 * measurement means the same wherever it was taken.
 *
 * A workload's files sit in one directory: kernel.mlir (the kernel
 * module), inK.npy (its inputs) and ref/resultK.npy (the default
 * schedule's outputs, the reference). */
#ifndef KILN_TOOLS_KILN_TUNE_BENCH_H
#define KILN_TOOLS_KILN_TUNE_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/tuning.h"
#include "tools/kiln-tune/measure.h"

/// Timeouts of one candidate's compile and run, in seconds.
extern const double kBenchCompileTimeout, kBenchRunTimeout;

/// What every compile and run of a tuning job shares: the directory of
/// kiln-compile and kiln-run-module, kiln-compile's --target and --cpu
/// (NULL: its default) and the runs' --threads (0: the runtime's).
typedef struct BenchSetup {
  const char *toolDir;
  const char *target, *cpu;
  int threads;
} BenchSetup;

/// One workload's files (above): `dir` and how many inputs and outputs.
typedef struct BenchKernel {
  const char *dir;
  int numInputs, numOutputs;
} BenchKernel;

/// One candidate's files in the kernel's directory (NAME.tune, its
/// one-record log; NAME.so; NAME.out, the children's output) and compile.
typedef struct BenchBuild {
  char *logPath, *libPath, *outPath;
  MeasureJob compile;
} BenchBuild;

/// argv of kiln-compile for `input` -> `output`; `extra` (NULL-terminated)
/// appended. Free with benchFreeArgv.
char **benchCompileArgv(const BenchSetup *s, const char *input,
                        const char *output, const char *const *extra);
void benchFreeArgv(char **argv);

/// Starts compiling the kernel with the schedule of `record` (a tuning
/// log line) as files NAME.*; wait for b->compile with measureWaitAll.
void benchStartBuild(const BenchSetup *s, const BenchKernel *k,
                     const char *record, const char *name,
                     BenchBuild *b /* OUT */);

/// After the compile: NULL when it made the library, else why not.
const char *benchBuildError(const BenchBuild *b);

/// Removes the library and frees the paths.
void benchBuildFree(BenchBuild *b);

/// Runs `lib` on the kernel's inputs `runs` times: writing the reference
/// outputs (`reference`), or checking against them. Returns the median
/// seconds, or negative with *why set.
double benchRun(const BenchSetup *s, const BenchKernel *k, const char *lib,
                const char *outPath, bool reference, int runs,
                const char **why);

/// The libraries of one workload measured so far, by integrity digest
/// (measureLibraryDigest): knobs that do not matter to a workload give
/// the same library, which needs one measurement (negative: invalid).
typedef struct BenchSeen {
  uint64_t *hashes;
  double *seconds;
  int count;
} BenchSeen;

bool benchSeenFind(const BenchSeen *s, uint64_t hash, double *seconds);
void benchSeenAdd(BenchSeen *s, uint64_t hash, double seconds);
void benchSeenFree(BenchSeen *s);

/// The target the candidates are compiled for (kiln-compile's --target
/// and --cpu: this machine by default), as the log records it; false
/// after printing why. Free with kilnTuningTargetDestroy.
bool benchTuningTarget(const BenchSetup *s, KilnTuningTarget *out);

/// Why a candidate is invalid, as a small number for the MPI workers'
/// messages: every reason above has one (0: none); benchErrorText gives
/// the same static string back (NULL for 0 or an unknown code).
int benchErrorCode(const char *why);
const char *benchErrorText(int code);

/// The reason for a candidate whose library is the same as an invalid
/// one's.
extern const char kBenchSameAsInvalid[];

#endif

/* kiln-run's --profile: runs a model library built with kiln-compile
 * --profile several times and reports each record's (fused group's or
 * op's) median time, sorted, and optionally one run as a Chrome trace
 * (--profile-json). libc and libkiln_runtime only, like the rest of the
 * library path. Internal to kiln-run and kiln-run-module. */
#ifndef KILN_TOOLS_KILN_RUN_PROFILE_H
#define KILN_TOOLS_KILN_RUN_PROFILE_H

#include <stdbool.h>

#include "tools/kiln-run/options.h"

/// The JSON trace file while the runs go: a temporary file beside the
/// requested path, created before the first run (so an unwritable path is
/// an error before anything runs) and renamed over it at the end.
typedef struct KilnRunTraceFile {
  char *path, *tmpPath;
  int fd; /* -1 when none */
} KilnRunTraceFile;

/// Checks that the profile can be made before running: the model must be
/// profiled, and o->profileJson (if any) writable (its temporary file is
/// opened into *trace). Returns false after printing an error.
bool kilnRunProfilePrepare(const Options *o, const KilnModel *m,
                           KilnRunTraceFile *trace /* OUT */);

/// Runs the model o->benchmark times (default 20) after a warm-up run,
/// prints the per-record table and the coverage line, and writes the
/// trace. Returns the exit code.
int kilnRunProfile(const Options *o, KilnModel *m, KilnTensor **args,
                   KilnTensor **outputs, KilnRunTraceFile *trace);

/// Removes the trace's temporary file if it is still there and frees it.
void kilnRunTraceFileDestroy(KilnRunTraceFile *trace);

#endif

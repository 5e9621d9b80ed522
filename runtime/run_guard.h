/* Runs of one model library never overlap: its code keeps per-library
 * state between the start and the end of a run (the run-time checks'
 * status word, a profiled library's counters, a GPU model's stream), and
 * two KilnModels loaded from one file share one dlopen handle, hence that
 * state. kilnModelRun enters the guard of the handle and refuses a second,
 * concurrent run with a clear error instead of racing. */
#ifndef KILN_RUNTIME_RUN_GUARD_H
#define KILN_RUNTIME_RUN_GUARD_H

#include "kiln/kiln_runtime.h"

/// Marks the library `handle` as running; an error (nothing marked) when
/// a run of it is already in progress on another thread. `path` names the
/// library in the message.
KilnStatus *kilnRunGuardEnter(void *handle, const char *path);

/// Marks the library `handle` as no longer running.
void kilnRunGuardExit(void *handle);

#endif

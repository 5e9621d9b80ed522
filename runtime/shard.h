/* The MPI side of a sharded model library (docs/scale-out.md, "Running").
 * Internal to libkiln_runtime. */
#ifndef KILN_RUNTIME_SHARD_H
#define KILN_RUNTIME_SHARD_H

#include "kiln/kiln_runtime.h"

/// Sets up the process for the model library `handle` whose `shard`
/// record is `plan` ("tp:2"): MPI initialized if it is not yet (through
/// the library's own libmpi, found with dlsym on `handle`; finalized at
/// exit then). Sets `*rank` to this process's rank and `*processes` to the
/// number of processes. Fails when MPI cannot start or the library's MPI
/// is not Open MPI's.
KilnStatus *kilnShardSetUp(void *handle, const char *plan, int *rank /* OUT */,
                           int *processes /* OUT */);

/// A sharded run's time limit (docs/scale-out.md, "Running"): between
/// Arm and Disarm, a run that has not finished after KILN_SHARD_TIMEOUT
/// seconds (300 unless set; 0: none) ends this process with exit status
/// 124 and a message on stderr, so that mpirun ends the job instead of
/// every rank waiting for one that hangs. kilnShardSetUp reads the limit
/// (an error for a value that is not a number of seconds).
void kilnShardWatchArm(void);
void kilnShardWatchDisarm(void);

/// NULL when `processes` is the number `plan` runs as; otherwise an error
/// saying how to start the model (mpirun -np N).
KilnStatus *kilnShardCheckProcesses(const char *plan, int processes);

#endif

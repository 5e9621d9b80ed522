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

/// NULL when `processes` is the number `plan` runs as; otherwise an error
/// saying how to start the model (mpirun -np N).
KilnStatus *kilnShardCheckProcesses(const char *plan, int processes);

#endif

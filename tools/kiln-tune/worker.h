/* A worker rank of kiln-tune --workers mpi (ranks 1..N-1): it compiles
 * and times the candidates rank 0 sends it, on its own machine, in a work
 * directory of its own (the ranks share no file system), with the same
 * code as a local run (bench.h). It prints nothing on stdout. */
#ifndef KILN_TOOLS_KILN_TUNE_WORKER_H
#define KILN_TOOLS_KILN_TUNE_WORKER_H

#include "tools/kiln-tune/bench.h"
#include "tools/kiln-tune/mpi_link.h"

/// Says hello to rank 0, then serves it (mpi_protocol.h) until it says
/// STOP; removes its work directory. Returns the exit code (0); errors
/// that leave it nothing to do end the whole job instead.
int workerServe(KilnTuneMpi *m, int rank, const BenchSetup *s);

#endif

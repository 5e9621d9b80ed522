/* What kiln-tune's MPI ranks say to each other (--workers mpi): rank 0,
 * the tuner (pool.h), and ranks 1..N-1, the workers (worker.h).
 *
 *   worker -> 0  HELLO      its host name and the target it compiles for
 *   0 -> worker  TASK       a workload's files: task index, inputs,
 *                           outputs, then (name, bytes) per file
 *   0 -> worker  CANDIDATE  job id, task index, runs, repeats, whether to
 *                           ask before timing, the one-record log line
 *   worker -> 0  COMPILED   job id, library digest (when asked)
 *   0 -> worker  VERDICT    1: time it; 0: skip (measured already)
 *   worker -> 0  RESULT     job id, error code (bench.h), the times
 *   0 -> worker  STOP       remove your files and exit
 *
 * A worker does one thing at a time, and rank 0 sends it a CANDIDATE
 * only when it is idle, so no message waits long for its reader. */
#ifndef KILN_TOOLS_KILN_TUNE_MPI_PROTOCOL_H
#define KILN_TOOLS_KILN_TUNE_MPI_PROTOCOL_H

#include "tools/kiln-tune/mpi_link.h"
#include "tools/kiln-tune/wire.h"

/// Times of one candidate, at most (CANDIDATE's repeats).
enum { kProtoMaxRepeat = 16 };

enum {
  kTagHello = 1,
  kTagTask,
  kTagCandidate,
  kTagCompiled,
  kTagVerdict,
  kTagResult,
  kTagStop
};

/// Sends `w`'s bytes to `dest`. MPI errors end the job (after saying
/// why): a rank that cannot talk to the others cannot go on alone.
void protoSend(KilnTuneMpi *m, int dest, int tag, const Wire *w);

/// Waits for the next message from any rank and receives it into `w`
/// (read from its start); returns its tag and sets *source. It polls
/// rather than blocks in MPI, which would spin a core that another rank
/// on this host may be timing on.
int protoReceive(KilnTuneMpi *m, Wire *w, int *source);

/// Ends the whole job after an error on this rank (MPI_Abort).
void protoAbort(KilnTuneMpi *m, const char *why) __attribute__((noreturn));

#endif

/* Sending and receiving kiln-tune's MPI messages (mpi_protocol.h). */
#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "tools/kiln-tune/mpi_protocol.h"

#include <stdlib.h>
#include <time.h>

#include "tools/common/tool_cli.h"
#include "tools/kiln-tune/options.h"

void protoAbort(KilnTuneMpi *m, const char *why) {
  tuneError("--workers mpi: %s; ending the job", why);
  m->abortJob(m, kExitCompile);
  abort(); /* MPI_Abort does not return */
}

void protoSend(KilnTuneMpi *m, int dest, int tag, const Wire *w) {
  if (m->send(m, dest, tag, w->data, w->size))
    protoAbort(m, m->error);
}

int protoReceive(KilnTuneMpi *m, Wire *w, int *source) {
  bool found = false;
  int tag = -1;
  size_t size = 0;
  for (;;) {
    if (m->probe(m, &found, source, &tag, &size))
      protoAbort(m, m->error);
    if (found)
      break;
    struct timespec ts = {0, 1000 * 1000}; /* 1 ms */
    nanosleep(&ts, NULL);
  }
  wireReserve(w, size);
  if (m->receive(m, *source, tag, w->data, size))
    protoAbort(m, m->error);
  return tag;
}

/* libkiln_tune_mpi.so: the MPI calls of kiln-tune --workers mpi, behind
 * the table of mpi_link.h. Built only where CMake finds MPI; the one file
 * of kiln-tune that includes <mpi.h> and links libmpi. */
#include <limits.h>
#include <mpi.h>
#include <stdio.h>

#include "tools/kiln-tune/mpi_link.h"

/* Keeps MPI's text for `rc` in the table; returns rc. */
static int check(KilnTuneMpi *m, int rc, const char *call) {
  if (rc == MPI_SUCCESS)
    return 0;
  char text[MPI_MAX_ERROR_STRING];
  int len = 0;
  if (MPI_Error_string(rc, text, &len) != MPI_SUCCESS)
    len = 0;
  snprintf(m->error, sizeof(m->error), "%s failed: %.*s", call, len, text);
  return rc;
}

static int start(KilnTuneMpi *m, int *rank, int *size) {
  int rc = check(m, MPI_Init(NULL, NULL), "MPI_Init");
  if (!rc)
    rc = check(m, MPI_Comm_rank(MPI_COMM_WORLD, rank), "MPI_Comm_rank");
  if (!rc)
    rc = check(m, MPI_Comm_size(MPI_COMM_WORLD, size), "MPI_Comm_size");
  return rc;
}

static int stop(KilnTuneMpi *m) {
  return check(m, MPI_Finalize(), "MPI_Finalize");
}

static void abortJob(KilnTuneMpi *m, int code) {
  (void)m;
  MPI_Abort(MPI_COMM_WORLD, code);
}

static int probe(KilnTuneMpi *m, bool *found, int *source, int *tag,
                 size_t *size) {
  MPI_Status status;
  int flag = 0, count = 0;
  int rc = check(
      m,
      MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status),
      "MPI_Iprobe");
  if (!rc && flag)
    rc = check(m, MPI_Get_count(&status, MPI_BYTE, &count), "MPI_Get_count");
  *found = !rc && flag;
  *source = flag ? status.MPI_SOURCE : -1;
  *tag = flag ? status.MPI_TAG : -1;
  *size = (size_t)count;
  return rc;
}

/* MPI counts are ints: a message is at most INT_MAX bytes. */
static int tooBig(KilnTuneMpi *m, size_t size) {
  if (size <= INT_MAX)
    return 0;
  snprintf(m->error, sizeof(m->error),
           "a message of %zu bytes is larger than MPI's limit of %d", size,
           INT_MAX);
  return 1;
}

static int send(KilnTuneMpi *m, int dest, int tag, const void *data,
                size_t size) {
  if (tooBig(m, size))
    return 1;
  return check(m,
               MPI_Send(data, (int)size, MPI_BYTE, dest, tag, MPI_COMM_WORLD),
               "MPI_Send");
}

static int receive(KilnTuneMpi *m, int source, int tag, void *data,
                   size_t size) {
  if (tooBig(m, size))
    return 1;
  return check(m,
               MPI_Recv(data, (int)size, MPI_BYTE, source, tag, MPI_COMM_WORLD,
                        MPI_STATUS_IGNORE),
               "MPI_Recv");
}

static int hostName(KilnTuneMpi *m, char *out, size_t size) {
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  int rc =
      check(m, MPI_Get_processor_name(name, &len), "MPI_Get_processor_name");
  snprintf(out, size, "%.*s", rc ? 0 : len, name);
  return rc;
}

/* The table kiln-tune finds with dlsym (mpi_link.c). */
__attribute__((visibility("default"))) KilnTuneMpi kilnTuneMpiTable = {
    .version = KILN_TUNE_MPI_VERSION,
    .start = start,
    .stop = stop,
    .abortJob = abortJob,
    .probe = probe,
    .send = send,
    .receive = receive,
    .hostName = hostName,
};

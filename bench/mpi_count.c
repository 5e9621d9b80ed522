/* Counts what a process's MPI collectives move, for bench/scale-out.sh:
 * built with mpicc as a shared library and LD_PRELOADed, it intercepts
 * MPI_Allreduce (the only collective Kiln's sharded libraries call) through
 * MPI's profiling interface and, at exit, appends "calls BYTES" to the file
 * $KILN_MPI_COUNT. (At exit, not in MPI_Finalize: the runtime calls that
 * through the model library's own libmpi, which a preload does not see.) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static long long calls, bytes;

int MPI_Allreduce(const void *send, void *recv, int count, MPI_Datatype type,
                  MPI_Op op, MPI_Comm comm) {
  int size = 0;
  MPI_Type_size(type, &size);
  ++calls;
  bytes += (long long)count * size;
  return PMPI_Allreduce(send, recv, count, type, op, comm);
}

__attribute__((destructor)) static void report(void) {
  const char *path = getenv("KILN_MPI_COUNT");
  FILE *f = path && calls ? fopen(path, "a") : NULL;
  if (f) {
    fprintf(f, "%lld %lld\n", calls, bytes);
    fclose(f);
  }
}

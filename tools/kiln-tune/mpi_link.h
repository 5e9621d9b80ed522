/* kiln-tune's link to MPI. kiln-tune itself never links libmpi (it must
 * build, load and tune --workers local where Open MPI is not installed,
 * and under the sanitizers): the MPI calls sit in a small module,
 * libkiln_tune_mpi.so (mpi_module.c, built where CMake finds MPI), that
 * kiln-tune loads with dlopen for --workers mpi alone. This header is the
 * interface between the two: one table of functions, found by the name
 * kKilnTuneMpiSymbol. */
#ifndef KILN_TOOLS_KILN_TUNE_MPI_LINK_H
#define KILN_TOOLS_KILN_TUNE_MPI_LINK_H

#include <stdbool.h>
#include <stddef.h>

/// Bumped with every change of the table, so that a module of another
/// build is refused rather than called wrongly.
enum { KILN_TUNE_MPI_VERSION = 1 };

/// Every function returns 0 on success; on failure, MPI's error text is
/// in the table's `error` (and MPI's default error handler would have
/// ended the job before most of them return).
typedef struct KilnTuneMpi {
  int version;
  char error[256];
  /// MPI_Init, then this process's rank and the number of processes.
  int (*start)(struct KilnTuneMpi *m, int *rank, int *size);
  /// MPI_Finalize.
  int (*stop)(struct KilnTuneMpi *m);
  /// MPI_Abort of the whole job with `code` (does not return).
  void (*abortJob)(struct KilnTuneMpi *m, int code);
  /// Whether a message is waiting (from any rank, with any tag): its
  /// source, tag and size in bytes. Never blocks.
  int (*probe)(struct KilnTuneMpi *m, bool *found, int *source, int *tag,
               size_t *size);
  /// Blocking send and receive of `size` bytes with `tag`.
  int (*send)(struct KilnTuneMpi *m, int dest, int tag, const void *data,
              size_t size);
  int (*receive)(struct KilnTuneMpi *m, int source, int tag, void *data,
                 size_t size);
  /// This process's host name (MPI_Get_processor_name).
  int (*hostName)(struct KilnTuneMpi *m, char *out, size_t size);
} KilnTuneMpi;

/// The module's exported table.
#define KILN_TUNE_MPI_SYMBOL "kilnTuneMpiTable"
/// The module's file name, beside kiln-tune.
#define KILN_TUNE_MPI_MODULE "libkiln_tune_mpi.so"

/// Loads the module from `toolDir` (or ../LIBDIR/kiln, where it is
/// installed): its table, or NULL after printing why (no module: this
/// kiln-tune was built without MPI; no libmpi; another build's module).
KilnTuneMpi *mpiLinkLoad(const char *toolDir);

#endif

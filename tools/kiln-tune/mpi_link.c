/* Loading libkiln_tune_mpi.so (mpi_link.h). */
#define _GNU_SOURCE /* RTLD_NODELETE */
#include "tools/kiln-tune/mpi_link.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tools/kiln-tune/measure.h"
#include "tools/kiln-tune/options.h"

#ifndef KILN_TUNE_MPI_LIBDIR
#define KILN_TUNE_MPI_LIBDIR "lib/kiln"
#endif

/* The module beside kiln-tune (the build tree), else where `cmake
 * --install` puts it (LIBDIR/kiln beside bin/); NULL if neither exists. */
static char *findModule(const char *toolDir) {
  char *beside = measurePath("%s/%s", toolDir, KILN_TUNE_MPI_MODULE);
  if (access(beside, F_OK) == 0)
    return beside;
  free(beside);
  char *installed = measurePath("%s/../%s/%s", toolDir, KILN_TUNE_MPI_LIBDIR,
                                KILN_TUNE_MPI_MODULE);
  if (access(installed, F_OK) == 0)
    return installed;
  free(installed);
  return NULL;
}

KilnTuneMpi *mpiLinkLoad(const char *toolDir) {
  char *path = findModule(toolDir);
  if (!path) {
    tuneError("--workers mpi: this kiln-tune was built without MPI (no %s "
              "beside it in '%s'): build Kiln where Open MPI is installed "
              "(libopenmpi-dev)",
              KILN_TUNE_MPI_MODULE, toolDir);
    return NULL;
  }
  /* RTLD_GLOBAL: Open MPI's own plug-ins look up libmpi's symbols.
   * RTLD_NODELETE: MPI finalizes at exit, after any dlclose. */
  void *handle = dlopen(path, RTLD_NOW | RTLD_GLOBAL | RTLD_NODELETE);
  KilnTuneMpi *table = NULL;
  if (!handle) {
    const char *why = dlerror();
    tuneError("--workers mpi: cannot load '%s': %s (is Open MPI's libmpi "
              "installed?)",
              path, why ? why : "unknown error");
  } else if (!(table = dlsym(handle, KILN_TUNE_MPI_SYMBOL)) ||
             table->version != KILN_TUNE_MPI_VERSION) {
    tuneError("--workers mpi: '%s' is not this kiln-tune's MPI module "
              "(another build's?)",
              path);
    table = NULL;
  }
  free(path);
  return table;
}

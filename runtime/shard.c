/* MPI for sharded model libraries (shard.h). A sharded library calls Open
 * MPI (it links libmpi) but never starts it: the runtime does, once per
 * process, through that same libmpi, so libkiln_runtime itself needs no
 * MPI to build or to load CPU and GPU models. */
#define _GNU_SOURCE /* dladdr, RTLD_NODELETE */
#include "runtime/shard.h"

#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/shard_plan.h"
#include "runtime/status.h"

typedef int (*MpiFlagFn)(int *);
typedef int (*MpiInitFn)(int *, char ***);
typedef int (*MpiFinalizeFn)(void);
typedef int (*MpiCommIntFn)(void *, int *);

static MpiFinalizeFn finalizeMpi; /* set when this runtime started MPI */

static void finalizeAtExit(void) {
  if (finalizeMpi)
    finalizeMpi();
}

/* dlsym into a function pointer (POSIX allows the conversion). */
static void *symbol(void *handle, const char *name) {
  return dlsym(handle, name);
}

KilnStatus *kilnShardSetUp(void *handle, const char *plan, int *rank,
                           int *processes) {
  *rank = 0;
  *processes = 1;
  KilnShardPlan parsed;
  if (!kilnShardPlanParse(plan, &parsed))
    return kilnStatusCreatef("unknown sharding plan '%s' (expected tp:N or "
                             "dp:N)",
                             plan);
  void *syms[6] = {
      symbol(handle, "MPI_Initialized"), symbol(handle, "MPI_Init"),
      symbol(handle, "MPI_Finalize"),    symbol(handle, "MPI_Comm_size"),
      symbol(handle, "MPI_Comm_rank"),   symbol(handle, "ompi_mpi_comm_world"),
  };
  for (int i = 0; i < 6; ++i)
    if (!syms[i])
      return kilnStatusCreatef("the model is sharded (%s) but its MPI library "
                               "is not Open MPI's (no %s)",
                               plan,
                               (const char *[]){"MPI_Initialized", "MPI_Init",
                                                "MPI_Finalize", "MPI_Comm_size",
                                                "MPI_Comm_rank",
                                                "ompi_mpi_comm_world"}[i]);
  MpiFlagFn initialized;
  MpiInitFn init;
  MpiFinalizeFn finalize;
  MpiCommIntFn size, rankOf;
  memcpy(&initialized, &syms[0], sizeof(initialized));
  memcpy(&init, &syms[1], sizeof(init));
  memcpy(&finalize, &syms[2], sizeof(finalize));
  memcpy(&size, &syms[3], sizeof(size));
  memcpy(&rankOf, &syms[4], sizeof(rankOf));
  void *world = syms[5];
  int started = 0;
  if (initialized(&started) != 0)
    return kilnStatusCreatef("MPI_Initialized failed");
  if (!started) {
    /* Keep libmpi loaded past the model's dlclose: MPI is finalized at
     * exit, and can be started once per process only. */
    Dl_info info;
    if (dladdr(syms[1], &info) && info.dli_fname)
      dlopen(info.dli_fname, RTLD_NOW | RTLD_NOLOAD | RTLD_NODELETE);
    if (init(NULL, NULL) != 0)
      return kilnStatusCreatef("the model is sharded (%s) and MPI could not "
                               "start (MPI_Init failed)",
                               plan);
    finalizeMpi = finalize;
    atexit(finalizeAtExit);
  }
  if (size(world, processes) != 0 || rankOf(world, rank) != 0)
    return kilnStatusCreatef("MPI_Comm_size/MPI_Comm_rank failed");
  return NULL;
}

KilnStatus *kilnShardCheckProcesses(const char *plan, int processes) {
  KilnShardPlan parsed;
  if (!kilnShardPlanParse(plan, &parsed) || processes == parsed.ranks)
    return NULL;
  return kilnStatusCreatef("the model runs as %d MPI processes (sharded %s); "
                           "this run has %d (start it with mpirun -np %d)",
                           parsed.ranks, plan, processes, parsed.ranks);
}

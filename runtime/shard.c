/* MPI for sharded model libraries (shard.h). A sharded library calls Open
 * MPI (it links libmpi) but never starts it: the runtime does, once per
 * process, through that same libmpi, so libkiln_runtime itself needs no
 * MPI to build or to load CPU and GPU models. */
#define _GNU_SOURCE /* dladdr, RTLD_NODELETE */
#include "runtime/shard.h"

#include <dlfcn.h>
#include <math.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "runtime/model_abi.h"
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

/* ---- time limits --------------------------------------------------------- */

/* One POSIX timer per process, made on the first sharded model's set-up:
 * its thread runs only when a run outlives the limit. */
static timer_t gWatch;
static bool gWatchMade;
static double gLimit; /* seconds; 0: none */
static char gExpiredMessage[192];

static void watchExpired(union sigval v) {
  (void)v;
  ssize_t n = write(2, gExpiredMessage, strlen(gExpiredMessage));
  (void)n;
  _exit(124);
}

/* KILN_SHARD_TIMEOUT, and the timer. */
static KilnStatus *setUpWatch(void) {
  const char *text = getenv("KILN_SHARD_TIMEOUT");
  double limit = 300;
  if (text && *text) {
    char *end = NULL;
    limit = strtod(text, &end);
    if (*end || !isfinite(limit) || limit < 0 || limit > 1e9)
      return kilnStatusCreatef("KILN_SHARD_TIMEOUT='%s': expected a number "
                               "of seconds (0: no time limit)",
                               text);
  }
  gLimit = limit;
  snprintf(gExpiredMessage, sizeof(gExpiredMessage),
           "kiln: a sharded run did not finish within %g s "
           "(KILN_SHARD_TIMEOUT): another rank is hung or gone; ending "
           "this process so that mpirun ends the job\n",
           limit);
  if (gWatchMade || limit == 0)
    return NULL;
  struct sigevent ev;
  memset(&ev, 0, sizeof(ev));
  ev.sigev_notify = SIGEV_THREAD;
  ev.sigev_notify_function = watchExpired;
  if (timer_create(CLOCK_MONOTONIC, &ev, &gWatch) != 0)
    return kilnStatusCreatef("cannot create the sharded runs' time limit "
                             "timer (timer_create failed)");
  gWatchMade = true;
  return NULL;
}

static void setWatch(double seconds) {
  if (!gWatchMade)
    return;
  struct itimerspec t;
  memset(&t, 0, sizeof(t));
  t.it_value.tv_sec = (time_t)seconds;
  t.it_value.tv_nsec = (long)((seconds - (double)t.it_value.tv_sec) * 1e9);
  timer_settime(gWatch, 0, &t, NULL);
}

void kilnShardWatchArm(void) {
  if (gLimit > 0)
    setWatch(gLimit);
}

void kilnShardWatchDisarm(void) { setWatch(0); }

/* ---- weight pages ---------------------------------------------------------
 *
 * A sharded library holds every rank's slice of the weights, rank r's in
 * row r of each rank-major global (kiln_model_weight_rows, model_abi.h),
 * and a rank reads only its row. Linux maps a page-cache folio (up to 2
 * MiB) whole when one of its pages is touched, so a rank also held the
 * pages of its row's padding and of the rows sharing a folio with it: 2048
 * KB for the 1.5 MB of a small decoder's weights at tp:4. At set-up each
 * rank touches its row's pages (mapping them), then drops its mappings of
 * the rest of the weights (MADV_DONTNEED: a read-only file mapping's pages
 * stay in the page cache for the ranks that read them). Its runs touch
 * only pages it has mapped, so it holds its row's bytes, rounded to pages.
 * Advice only: where it is not taken, the run is the same. */
static void keepOwnWeightRows(void *handle, int rank, int ranks) {
  const KilnModelWeightRows *rows =
      symbol(handle, KILN_MODEL_WEIGHT_ROWS_SYMBOL);
  uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE);
  for (; rows && rows->base; ++rows) {
    uintptr_t base = (uintptr_t)rows->base;
    uintptr_t own = base + (uintptr_t)rank * rows->rowBytes;
    uintptr_t ownEnd = own + rows->usedBytes;
    uintptr_t end = base + (uintptr_t)ranks * rows->rowBytes;
    for (uintptr_t p = own; p < ownEnd; p += page)
      (void)*(volatile const char *)p;
    uintptr_t before = own / page * page;
    uintptr_t after = (ownEnd + page - 1) / page * page;
    base = (base + page - 1) / page * page;
    end = end / page * page;
    if (base < before)
      (void)madvise((void *)base, before - base, MADV_DONTNEED);
    if (after < end)
      (void)madvise((void *)after, end - after, MADV_DONTNEED);
  }
}

/* ---- set-up ---------------------------------------------------------------
 */

KilnStatus *kilnShardSetUp(void *handle, const char *plan, int *rank,
                           int *processes) {
  *rank = 0;
  *processes = 1;
  KilnStatus *watch = setUpWatch();
  if (watch)
    return watch;
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
  if (*processes == parsed.ranks && *rank >= 0 && *rank < parsed.ranks)
    keepOwnWeightRows(handle, *rank, parsed.ranks);
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

/* Rank 0's pool of MPI workers (pool.h). */
#define _GNU_SOURCE /* strdup */
#include "tools/kiln-tune/pool.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tools/kiln-tune/mpi_protocol.h"
#include "tools/kiln-tune/options.h"

typedef struct PoolWorker {
  char *host, *triple, *cpu, *features; /* from its hello */
  int task;                             /* whose files it has; -1: none */
  int job;                              /* in the current batch; -1: idle */
  int compiled, timed;                  /* candidates, in all */
} PoolWorker;

struct Pool {
  KilnTuneMpi *m;
  int size;            /* processes; the workers are ranks 1..size-1 */
  PoolWorker *workers; /* by rank; [0] unused */
  Wire msg;
};

/* A job of the batch in flight. */
enum { kQueued, kSent, kTiming, kWaiting, kDone };
typedef struct JobState {
  int state;
  int rank;        /* the worker it went to */
  uint64_t digest; /* kTiming: its library's */
  int sameAs;      /* kWaiting: the job timing the same library */
} JobState;

typedef struct Batch {
  Pool *p;
  const PoolTask *task;
  PoolJob *jobs;
  JobState *state;
  int n, numDone;
  BenchSeen *seen;
  PoolDoneFn done;
  void *ctx;
} Batch;

Pool *poolCreate(KilnTuneMpi *m, int size) {
  Pool *p = calloc(1, sizeof(*p));
  if (!p || !(p->workers = calloc((size_t)size, sizeof(*p->workers))))
    abort();
  p->m = m;
  p->size = size;
  for (int i = 1; i < size; ++i) {
    int source;
    int tag = protoReceive(m, &p->msg, &source);
    if (tag != kTagHello || source < 1 || source >= size ||
        p->workers[source].host)
      protoAbort(m, "rank 0 expected each worker's hello");
    PoolWorker *w = &p->workers[source];
    w->host = strdup(wireGetString(&p->msg));
    w->triple = strdup(wireGetString(&p->msg));
    w->cpu = strdup(wireGetString(&p->msg));
    w->features = strdup(wireGetString(&p->msg));
    w->task = w->job = -1;
  }
  return p;
}

int poolNumWorkers(const Pool *p) { return p->size - 1; }

bool poolCheckTargets(const Pool *p, const KilnTuningTarget *target) {
  fprintf(stderr, "%s: %d worker ranks:", kProg, p->size - 1);
  for (int r = 1; r < p->size; ++r)
    fprintf(stderr, "%s %d on %s", r > 1 ? "," : "", r, p->workers[r].host);
  fputc('\n', stderr);
  for (int r = 1; r < p->size; ++r) {
    const PoolWorker *w = &p->workers[r];
    if (!strcmp(w->triple, target->triple) && !strcmp(w->cpu, target->cpu) &&
        !strcmp(w->features, target->features))
      continue;
    tuneError("--workers mpi: rank %d on %s compiles for %s, CPU %s, "
              "features %s; rank 0 for %s, CPU %s, features %s: run the "
              "workers on machines like rank 0's (or give --cpu)",
              r, w->host, *w->triple ? w->triple : "(none)", w->cpu,
              w->features, target->triple, target->cpu, target->features);
    return false;
  }
  return true;
}

/* TASK: the workload's files, for worker `rank`'s first candidate of it. */
static void sendTask(Batch *b, int rank) {
  const BenchKernel *k = &b->task->kernel;
  Wire w = {0};
  wirePutInt(&w, b->task->index);
  wirePutInt(&w, k->numInputs);
  wirePutInt(&w, k->numOutputs);
  wirePutInt(&w, 1 + k->numInputs + k->numOutputs);
  bool ok = true;
  for (int i = -1; i < k->numInputs + k->numOutputs && ok; ++i) {
    char *name = i < 0 ? strdup("kernel.mlir")
                 : i < k->numInputs
                     ? measurePath("in%d.npy", i)
                     : measurePath("ref/result%d.npy", i - k->numInputs);
    char *path = measurePath("%s/%s", k->dir, name);
    wirePutString(&w, name);
    ok = wirePutFile(&w, path);
    free(name);
    free(path);
  }
  if (!ok)
    protoAbort(b->p->m, "rank 0 cannot read a workload's files");
  protoSend(b->p->m, rank, kTagTask, &w);
  wireFree(&w);
  b->p->workers[rank].task = b->task->index;
}

/* CANDIDATE: job `j` to the idle worker `rank`. */
static void sendJob(Batch *b, int j, int rank) {
  PoolWorker *w = &b->p->workers[rank];
  if (w->task != b->task->index)
    sendTask(b, rank);
  const PoolJob *job = &b->jobs[j];
  Wire msg = {0};
  wirePutInt(&msg, j);
  wirePutInt(&msg, b->task->index);
  wirePutInt(&msg, b->task->runs);
  wirePutInt(&msg, job->repeat);
  wirePutInt(&msg, job->dedup);
  wirePutString(&msg, job->record);
  protoSend(b->p->m, rank, kTagCandidate, &msg);
  wireFree(&msg);
  w->job = j;
  ++w->compiled;
  b->state[j] = (JobState){.state = kSent, .rank = rank, .sameAs = -1};
}

/* The job a worker's message names; it must be that worker's. */
static int jobOf(Batch *b, int64_t id, int rank) {
  if (id < 0 || id >= b->n || b->p->workers[rank].job != (int)id)
    protoAbort(b->p->m, "rank 0 got a result for a candidate it did not send");
  return (int)id;
}

/* A job whose library was measured already (or is being timed) takes that
 * measurement, as a local run's does. */
static void finishSame(Batch *b, int j, double seconds) {
  b->done(b->ctx, &b->jobs[j], b->state[j].rank, seconds,
          seconds < 0 ? kBenchSameAsInvalid : NULL);
  b->state[j].state = kDone;
  ++b->numDone;
}

/* COMPILED: time the library unless one the same was measured or is being
 * timed on another worker (then this job waits for that one's time). */
static void onCompiled(Batch *b, int rank) {
  int j = jobOf(b, wireGetInt(&b->p->msg), rank);
  uint64_t digest = (uint64_t)wireGetInt(&b->p->msg);
  double seconds = 0;
  bool seen = benchSeenFind(b->seen, digest, &seconds);
  int same = -1;
  for (int k = 0; k < b->n && !seen && same < 0; ++k)
    if (b->state[k].state == kTiming && b->state[k].digest == digest)
      same = k;
  bool run = !seen && same < 0;
  Wire verdict = {0};
  wirePutInt(&verdict, run);
  protoSend(b->p->m, rank, kTagVerdict, &verdict);
  wireFree(&verdict);
  if (run) {
    b->state[j].state = kTiming;
    b->state[j].digest = digest;
    return;
  }
  b->p->workers[rank].job = -1;
  if (seen) {
    finishSame(b, j, seconds);
  } else {
    b->state[j].state = kWaiting;
    b->state[j].sameAs = same;
  }
}

/* RESULT: the job's times (and why it stopped short). */
static void onResult(Batch *b, int rank) {
  Wire *msg = &b->p->msg;
  int j = jobOf(b, wireGetInt(msg), rank);
  const char *error = benchErrorText((int)wireGetInt(msg));
  int64_t count = wireGetInt(msg);
  if (count < 0 || count > b->jobs[j].repeat)
    protoAbort(b->p->m, "rank 0 got a malformed result");
  double times[kProtoMaxRepeat];
  for (int64_t i = 0; i < count && i < kProtoMaxRepeat; ++i)
    times[i] = wireGetDouble(msg);
  if (msg->bad || (count < b->jobs[j].repeat && !error))
    protoAbort(b->p->m, "rank 0 got a malformed result");
  b->p->workers[rank].job = -1;
  b->p->workers[rank].timed += count > 0;
  bool timing = b->state[j].state == kTiming;
  for (int64_t i = 0; i < count; ++i)
    b->done(b->ctx, &b->jobs[j], rank, times[i], NULL);
  if (error)
    b->done(b->ctx, &b->jobs[j], rank, -1, error);
  b->state[j].state = kDone;
  ++b->numDone;
  double seconds = count ? times[0] : -1;
  if (!timing)
    return;
  benchSeenAdd(b->seen, b->state[j].digest, seconds);
  for (int k = 0; k < b->n; ++k)
    if (b->state[k].state == kWaiting && b->state[k].sameAs == j)
      finishSame(b, k, seconds);
}

void poolMeasure(Pool *p, const PoolTask *task, PoolJob *jobs, int n,
                 BenchSeen *seen, PoolDoneFn done, void *ctx) {
  Batch b = {.p = p,
             .task = task,
             .jobs = jobs,
             .state = calloc((size_t)n + 1, sizeof(JobState)),
             .n = n,
             .seen = seen,
             .done = done,
             .ctx = ctx};
  if (!b.state)
    abort();
  for (int next = 0; b.numDone < n;) {
    for (int r = 1; r < p->size && next < n; ++r)
      if (p->workers[r].job < 0)
        sendJob(&b, next++, r);
    int rank;
    int tag = protoReceive(p->m, &p->msg, &rank);
    if (rank < 1 || rank >= p->size)
      protoAbort(p->m, "rank 0 got a message from itself");
    if (tag == kTagCompiled)
      onCompiled(&b, rank);
    else if (tag == kTagResult)
      onResult(&b, rank);
    else
      protoAbort(p->m, "rank 0 got a message it does not know");
  }
  free(b.state);
}

void poolPrintCounts(const Pool *p) {
  for (int r = 1; r < p->size; ++r)
    fprintf(stderr,
            "%s: worker rank %d on %s compiled %d candidates, timed %d\n",
            kProg, r, p->workers[r].host, p->workers[r].compiled,
            p->workers[r].timed);
}

void poolDestroy(Pool *p) {
  if (!p)
    return;
  Wire none = {0};
  for (int r = 1; r < p->size; ++r) {
    protoSend(p->m, r, kTagStop, &none);
    PoolWorker *w = &p->workers[r];
    free(w->host);
    free(w->triple);
    free(w->cpu);
    free(w->features);
  }
  if (p->m->stop(p->m))
    tuneError("--workers mpi: %s", p->m->error);
  wireFree(&p->msg);
  free(p->workers);
  free(p);
}

/* A worker rank of kiln-tune --workers mpi (worker.h). */
#define _GNU_SOURCE /* strdup */
#include "tools/kiln-tune/worker.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/kiln-tune/mpi_protocol.h"

typedef struct Worker {
  KilnTuneMpi *m;
  int rank;
  const BenchSetup *s;
  char *workDir;
  int task; /* the task whose files it holds; -1: none */
  BenchKernel kernel;
  Wire msg, reply;
} Worker;

static void sayHello(Worker *w) {
  KilnTuningTarget target = {0};
  bool ok = benchTuningTarget(w->s, &target);
  char host[256];
  w->m->hostName(w->m, host, sizeof(host));
  wirePutString(&w->reply, host);
  wirePutString(&w->reply, ok ? target.triple : "");
  wirePutString(&w->reply, ok ? target.cpu : "");
  wirePutString(&w->reply, ok ? target.features : "");
  protoSend(w->m, 0, kTagHello, &w->reply);
  if (ok)
    kilnTuningTargetDestroy(&target);
}

/* A file name rank 0 may send: relative, inside the task's directory. */
static bool safeName(const char *name) {
  return *name && *name != '/' && !strstr(name, "..");
}

static bool writeFile(const char *path, const void *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(data, 1, size, f) == size;
  return fclose(f) == 0 && ok;
}

/* TASK: the files of a workload, replacing the last one's. A worker
 * that cannot write them ends the job: its candidates would all be
 * logged as invalid, and --resume would not measure them again. */
static void receiveTask(Worker *w) {
  Wire *msg = &w->msg;
  measureRemoveDir(w->kernel.dir);
  free((char *)w->kernel.dir);
  w->task = (int)wireGetInt(msg);
  w->kernel.numInputs = (int)wireGetInt(msg);
  w->kernel.numOutputs = (int)wireGetInt(msg);
  int numFiles = (int)wireGetInt(msg);
  char *dir = measurePath("%s/t%d", w->workDir, w->task);
  char *ref = measurePath("%s/ref", dir);
  w->kernel.dir = dir;
  bool ok = mkdir(dir, 0755) == 0 && mkdir(ref, 0755) == 0;
  free(ref);
  for (int i = 0; i < numFiles && ok && !msg->bad; ++i) {
    const char *name = wireGetString(msg);
    size_t size;
    const void *data = wireGetBytes(msg, &size);
    char *path = measurePath("%s/%s", dir, name);
    ok = !msg->bad && safeName(name) && writeFile(path, data, size);
    free(path);
  }
  if (ok && !msg->bad)
    return;
  char why[512];
  snprintf(why, sizeof(why),
           "rank %d cannot write a workload's files in '%s': %s", w->rank, dir,
           msg->bad ? "a malformed message" : strerror(errno));
  protoAbort(w->m, why);
}

/* Asks rank 0 whether to time a library with digest `hash` (one measured
 * already is not timed again). */
static bool verdictRun(Worker *w, int64_t id, uint64_t hash) {
  wireFree(&w->reply);
  wirePutInt(&w->reply, id);
  wirePutInt(&w->reply, (int64_t)hash);
  protoSend(w->m, 0, kTagCompiled, &w->reply);
  int source;
  int tag = protoReceive(w->m, &w->msg, &source);
  int64_t run = wireGetInt(&w->msg);
  if (tag != kTagVerdict || source != 0 || w->msg.bad)
    protoAbort(w->m, "a worker expected a verdict from rank 0");
  return run != 0;
}

/* Compiles and times a CANDIDATE `repeat` times (up to the first
 * failure, *why), its times in `times`; returns false when rank 0 said to
 * skip it (it has a measurement of the same library; no RESULT then). */
static bool measure(Worker *w, int64_t id, int runs, int repeat, bool ask,
                    const char *record, const char **why, int *count,
                    double *times) {
  BenchBuild b;
  benchStartBuild(w->s, &w->kernel, record, "c", &b);
  measureWaitAll(&b.compile, 1);
  *why = benchBuildError(&b);
  bool run = *why || !ask || verdictRun(w, id, measureLibraryDigest(b.libPath));
  while (run && !*why && *count < repeat) {
    double seconds =
        benchRun(w->s, &w->kernel, b.libPath, b.outPath, false, runs, why);
    if (seconds <= 0)
      break; /* *why says why */
    times[(*count)++] = seconds;
  }
  benchBuildFree(&b);
  return run;
}

static void candidate(Worker *w) {
  Wire *msg = &w->msg;
  int64_t id = wireGetInt(msg);
  int task = (int)wireGetInt(msg);
  int runs = (int)wireGetInt(msg);
  int repeat = (int)wireGetInt(msg);
  bool ask = wireGetInt(msg) != 0;
  const char *record = wireGetString(msg);
  if (msg->bad || task != w->task || repeat < 1 || repeat > kProtoMaxRepeat ||
      runs < 1)
    protoAbort(w->m, "a worker got a candidate it cannot read");
  char *line = strdup(record); /* msg is reused for the verdict */
  if (!line)
    abort();
  const char *why = NULL;
  int count = 0;
  double times[kProtoMaxRepeat];
  bool answered = measure(w, id, runs, repeat, ask, line, &why, &count, times);
  free(line);
  if (!answered)
    return;
  wireFree(&w->reply);
  wirePutInt(&w->reply, id);
  wirePutInt(&w->reply, benchErrorCode(why));
  wirePutInt(&w->reply, count);
  for (int i = 0; i < count; ++i)
    wirePutDouble(&w->reply, times[i]);
  protoSend(w->m, 0, kTagResult, &w->reply);
}

int workerServe(KilnTuneMpi *m, int rank, const BenchSetup *s) {
  Worker w = {.m = m, .rank = rank, .s = s, .task = -1};
  char prefix[64];
  snprintf(prefix, sizeof(prefix), "kiln-tune-rank%d", rank);
  if (!(w.workDir = measureMakeWorkDir(prefix))) {
    char why[256];
    snprintf(why, sizeof(why), "rank %d cannot create a work directory: %s",
             rank, strerror(errno));
    protoAbort(m, why);
  }
  sayHello(&w);
  for (bool stop = false; !stop;) {
    int source;
    int tag = protoReceive(m, &w.msg, &source);
    if (source != 0)
      protoAbort(m, "a worker got a message from another worker");
    if (tag == kTagTask)
      receiveTask(&w);
    else if (tag == kTagCandidate)
      candidate(&w);
    else if (tag == kTagStop)
      stop = true;
    else
      protoAbort(m, "a worker got a message it does not know");
  }
  measureRemoveDir(w.workDir);
  free(w.workDir);
  free((char *)w.kernel.dir);
  wireFree(&w.msg);
  wireFree(&w.reply);
  return 0;
}

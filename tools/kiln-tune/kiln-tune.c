/* kiln-tune: searches each workload's schedule knobs by measuring
 * candidates on this machine, and logs every measurement for
 * kiln-compile --tuning-log (docs/kiln-tune.md).
 *
 *   kiln-tune MODEL.onnx -o model.tune [--trials N] [--time-budget T]
 *             [--target T] [--cpu C] [--threads N] [--jobs J] [--resume]
 *             [--workers local|mpi]
 *
 * 1. kiln-compile --emit=graph gives the optimized graph; its workloads
 *    (include/kiln/tuning.h) become tasks, one per distinct key.
 * 2. Each task's workload becomes a kernel module of its own; the default
 *    schedule is compiled and run first, on fixed pseudo-random inputs,
 *    and its outputs are the reference.
 * 3. The search (search.h) proposes schedules in batches: they compile in
 *    parallel (--jobs), then run one at a time with kiln-run-module
 *    --benchmark (the median of many runs), checked against the reference.
 *    A candidate that fails to compile, crashes, times out or differs is
 *    logged as invalid. Candidates that compile to the same library share
 *    one measurement.
 * 4. Every measurement is appended to the log at once, so an interrupted
 *    run loses nothing and --resume replays the log into the searches.
 *
 * With --workers mpi (under mpirun), this is rank 0 and does all of the
 * above but 3's compiles and runs, which worker ranks do, one candidate
 * each at a time, on their own machines (pool.h, worker.h). */
#define _GNU_SOURCE /* strdup */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kiln/compile.h"
#include "kiln/diagnostics.h"
#include "kiln/kiln.h"
#include "kiln/tuning.h"
#include "mlir-c/IR.h"
#include "tools/common/tool_cli.h"
#include "tools/kiln-tune/bench.h"
#include "tools/kiln-tune/kernel_files.h"
#include "tools/kiln-tune/measure.h"
#include "tools/kiln-tune/mpi_link.h"
#include "tools/kiln-tune/options.h"
#include "tools/kiln-tune/pool.h"
#include "tools/kiln-tune/search.h"
#include "tools/kiln-tune/worker.h"

/* The fastest candidates of a workload are timed kConfirmRounds more
 * times each, beside the default schedule (confirmBest). */
enum { kConfirmTop = 3, kConfirmRounds = 2 };

typedef struct Task {
  char key[17];
  char *description;
  KilnWorkloadKind kind;
  int count; /* occurrences in the model */
  char *dir; /* its kernel's files (bench.h) */
  /* The knobs that apply to the task, as indices into the knob table. */
  int numKnobs;
  int knob[KILN_SEARCH_MAX_KNOBS];
  KilnSearch *search;
  int numInputs, numOutputs; /* of its kernel: files in%d.npy, results */
  int runs;                  /* timed runs per measurement (--benchmark) */
  double defaultSeconds, bestSeconds;
  int trialsDone;
  /* The fastest distinct schedules measured, fastest first, for
   * confirmBest. */
  KilnTuningSchedule top[kConfirmTop];
  double topSeconds[kConfirmTop];
  int numTop;
  /* After confirmBest: the winner, when it is not the default schedule. */
  bool hasWinner;
  KilnTuningSchedule winner;
} Task;

typedef struct Tuner {
  Options o;
  char *toolDir, *workDir;
  BenchSetup setup;
  Pool *pool; /* --workers mpi: the worker ranks; NULL: local */
  KilnTuningTarget target;
  Task *tasks;
  int numTasks;
  FILE *log;
  double started;
} Tuner;

/* ---- files and child processes ------------------------------------------ */

/* Prints a child's output file to stderr (after it failed). */
static void showOutput(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f)
    return;
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
    fwrite(buf, 1, n, stderr);
  fclose(f);
}

/* ---- tasks ------------------------------------------------------------------
 */

typedef struct CollectState {
  Tuner *t;
  bool failed;
} CollectState;

static void addTask(const KilnWorkload *w, void *userData) {
  CollectState *s = userData;
  Tuner *t = s->t;
  for (int i = 0; i < t->numTasks; ++i)
    if (!strcmp(t->tasks[i].key, w->key)) {
      ++t->tasks[i].count;
      return;
    }
  Task *tasks = realloc(t->tasks, (t->numTasks + 1) * sizeof(*tasks));
  if (!tasks)
    abort();
  t->tasks = tasks;
  Task *task = &tasks[t->numTasks];
  memset(task, 0, sizeof(*task));
  memcpy(task->key, w->key, 17);
  task->description = strdup(w->description);
  task->kind = w->kind;
  task->count = 1;
  task->numOutputs = (int)mlirOperationGetNumResults(w->op);
  task->defaultSeconds = task->bestSeconds = -1;
  KilnSearchSpace space = {0};
  for (intptr_t k = 0; k < kilnTuningKnobGetCount(); ++k) {
    const KilnTuningKnob *knob = kilnTuningKnobGetAt(k);
    if (!(knob->kinds & (unsigned)w->kind) ||
        task->numKnobs == KILN_SEARCH_MAX_KNOBS)
      continue;
    task->knob[task->numKnobs] = (int)k;
    space.numValues[task->numKnobs++] = knob->numValues + 1;
  }
  space.numKnobs = task->numKnobs;
  task->search = kilnSearchCreate(&space, t->o.strategy,
                                  t->o.seed + (uint64_t)t->numTasks);
  char *dir = task->dir = measurePath("%s/t%d", t->workDir, t->numTasks);
  char *kernelPath = measurePath("%s/kernel.mlir", dir);
  MlirModule kernel = kilnWorkloadCreateKernelModule(w);
  char *ref = measurePath("%s/ref", dir);
  bool ok = mkdir(dir, 0755) == 0 && mkdir(ref, 0755) == 0 &&
            kernelWriteModule(kernel, kernelPath) &&
            (task->numInputs = kernelWriteInputs(kernel, dir)) >= 0;
  free(ref);
  free(kernelPath);
  mlirModuleDestroy(kernel);
  if (!ok) {
    tuneError("cannot write the kernel of workload %s (%s)", w->key,
              w->description);
    s->failed = true;
  }
  ++t->numTasks;
}

/* The optimized graph of the model (kiln-compile --emit=graph) and its
 * tasks; false after reporting. */
static bool collectTasks(Tuner *t, MlirContext ctx, int *exitCode) {
  char *graph = measurePath("%s/model.mlir", t->workDir);
  char *out = measurePath("%s/model.out", t->workDir);
  /* The graph with the model's input shapes; the kernels are static. */
  const char **extra = calloc((size_t)t->o.numShapeArgs + 2, sizeof(*extra));
  if (!extra)
    abort();
  int numExtra = 0;
  extra[numExtra++] = "--emit=graph";
  for (int i = 0; i < t->o.numShapeArgs; ++i)
    extra[numExtra++] = t->o.shapeArgs[i];
  char **argv = benchCompileArgv(&t->setup, t->o.model, graph, extra);
  free(extra);
  MeasureJob job;
  bool ok = measureSpawn(argv, out, -1, &job);
  if (ok)
    measureWaitAll(&job, 1);
  if (!ok || job.status != 0) {
    showOutput(out);
    tuneError("kiln-compile could not import and optimize '%s'", t->o.model);
    /* Its exit code says why (a bad file, an unsupported op, ...). */
    *exitCode = ok && job.status >= kExitUsage && job.status <= kExitCompile
                    ? job.status
                    : kExitCompile;
    ok = false;
  }
  benchFreeArgv(argv);
  MlirModule module = {NULL};
  if (ok) {
    module = mlirModuleCreateParseFromFile(
        ctx, mlirStringRefCreateFromCString(graph));
    ok = !mlirModuleIsNull(module);
  }
  if (ok) {
    /* --target and --cpu: kiln-compile checked them already. */
    ok = benchTuningTarget(&t->setup, &t->target);
    CollectState s = {t, false};
    if (ok)
      kilnWorkloadsWalk(mlirModuleGetOperation(module), addTask, &s);
    ok = ok && !s.failed;
    mlirModuleDestroy(module);
  }
  free(graph);
  free(out);
  return ok;
}

/* The schedule a configuration of `task`'s search stands for. */
static KilnTuningSchedule scheduleOf(const Task *task, const int *config) {
  KilnTuningSchedule s;
  memset(&s, 0, sizeof(s));
  for (int k = 0; k < task->numKnobs; ++k)
    s.choice[task->knob[k]] = (uint8_t)config[k];
  return s;
}

/* The configuration of `s` in `task`'s space; false if `s` sets a knob
 * the task does not have. */
static bool configOf(const Task *task, const KilnTuningSchedule *s,
                     int *config) {
  for (int k = 0; k < task->numKnobs; ++k)
    config[k] = s->choice[task->knob[k]];
  for (intptr_t i = 0; i < kilnTuningKnobGetCount(); ++i) {
    bool own = false;
    for (int k = 0; k < task->numKnobs && !own; ++k)
      own = task->knob[k] == i;
    if (s->choice[i] && !own)
      return false;
  }
  return true;
}

/* ---- measuring ---------------------------------------------------------- */

/* One candidate of a batch. */
typedef struct Candidate {
  int config[KILN_SEARCH_MAX_KNOBS];
  KilnTuningSchedule schedule;
  BenchBuild build; /* local runs */
  double seconds;   /* < 0: invalid */
  const char *error;
} Candidate;

static void appendRecord(Tuner *t, const Task *task, const Candidate *c) {
  char *line = kilnTuningRecordCreateLine(task->key, task->description,
                                          &t->target, t->o.threads,
                                          &c->schedule, c->seconds, c->error);
  fprintf(t->log, "%s\n", line);
  fflush(t->log);
  kilnTuningRecordLineDestroy(line);
}

/* The one-record log that makes kiln-compile build `s` for `task`. */
static char *scheduleRecord(const Tuner *t, const Task *task,
                            const KilnTuningSchedule *s) {
  return kilnTuningRecordCreateLine(task->key, task->description, &t->target,
                                    t->o.threads, s, 0, NULL);
}

static BenchKernel kernelOf(const Task *task) {
  return (BenchKernel){task->dir, task->numInputs, task->numOutputs};
}

/* Runs `lib` on the task's inputs (bench.h's benchRun). */
static double runLibrary(const Tuner *t, int taskIndex, const char *lib,
                         const char *outPath, bool reference, int runs,
                         const char **why) {
  BenchKernel k = kernelOf(&t->tasks[taskIndex]);
  return benchRun(&t->setup, &k, lib, outPath, reference, runs, why);
}

/* Enough timed runs for about a quarter second per measurement (the
 * median of many runs rides out a noisy machine), 10 to 2000. */
static int runsFor(double seconds) {
  double runs = 0.25 / (seconds > 1e-7 ? seconds : 1e-7);
  return runs < 10 ? 10 : runs > 2000 ? 2000 : (int)runs;
}

/* Compiles and runs the default schedule: the reference outputs and the
 * time to beat. False when the kernel does not compile or run. Always on
 * this machine: with --workers mpi, the workers get its outputs. */
static bool measureDefault(Tuner *t, int index) {
  Task *task = &t->tasks[index];
  char *kernel = measurePath("%s/kernel.mlir", task->dir);
  char *lib = measurePath("%s/default.so", task->dir);
  char *out = measurePath("%s/default.out", task->dir);
  const char *extra[] = {"-j1", NULL};
  char **argv = benchCompileArgv(&t->setup, kernel, lib, extra);
  MeasureJob job;
  bool ok = measureSpawn(argv, out, kBenchCompileTimeout, &job);
  if (ok)
    measureWaitAll(&job, 1);
  benchFreeArgv(argv);
  const char *why = "its kernel does not compile";
  double seconds = -1;
  if (ok && job.status == 0) {
    /* A first run calibrates the number of timed runs. */
    seconds = runLibrary(t, index, lib, out, true, 10, &why);
    if (seconds > 0) {
      task->runs = runsFor(seconds);
      seconds = runLibrary(t, index, lib, out, true, task->runs, &why);
    }
  }
  if (seconds <= 0) {
    showOutput(out);
    fprintf(stderr, "%s: warning: workload %s (%s) not tuned: %s\n", kProg,
            task->key, task->description, why);
  }
  free(kernel);
  free(lib);
  free(out);
  return seconds > 0;
}

/* One line per measurement; `rank`: the MPI worker that took it (0:
 * this process). */
static void printProgress(const Tuner *t, int index, const Task *task,
                          double seconds, int rank) {
  fprintf(stderr, "[%d/%d] %s  trial %d/%d: ", index + 1, t->numTasks,
          task->description, task->trialsDone, t->o.trials);
  if (seconds > 0)
    fprintf(stderr, "%.4g ms", seconds * 1e3);
  else
    fprintf(stderr, "invalid");
  fprintf(stderr, "  (default %.4g ms, best %.4g ms, %.2fx)",
          task->defaultSeconds * 1e3, task->bestSeconds * 1e3,
          task->defaultSeconds / task->bestSeconds);
  if (t->o.budget > 0) {
    double left = t->o.budget - (measureNow() - t->started);
    fprintf(stderr, "  %.0f s left", left > 0 ? left : 0);
  }
  if (rank > 0)
    fprintf(stderr, "  [rank %d]", rank);
  fputc('\n', stderr);
}

/* Starts compiling candidate `c` of task `index` here, as files NAME.*;
 * its schedule goes in as a one-record log. */
static void startCompile(Tuner *t, int index, Candidate *c, const char *name) {
  Task *task = &t->tasks[index];
  char *record = scheduleRecord(t, task, &c->schedule);
  BenchKernel k = kernelOf(task);
  benchStartBuild(&t->setup, &k, record, name, &c->build);
  kilnTuningRecordLineDestroy(record);
}

static void swapTop(Task *task, int i, int j) {
  KilnTuningSchedule s = task->top[i];
  double seconds = task->topSeconds[i];
  task->top[i] = task->top[j];
  task->topSeconds[i] = task->topSeconds[j];
  task->top[j] = s;
  task->topSeconds[j] = seconds;
}

/* Keeps the kConfirmTop fastest distinct schedules measured so far (the
 * default schedule aside: confirmBest times it anyway). */
static void noteTop(Task *task, const KilnTuningSchedule *s, double seconds) {
  static const KilnTuningSchedule kDefault;
  if (seconds <= 0 || !memcmp(s, &kDefault, sizeof(*s)))
    return;
  int i = 0;
  while (i < task->numTop && memcmp(&task->top[i], s, sizeof(*s)))
    ++i;
  if (i < task->numTop) { /* measured before: keep its best time */
    if (seconds >= task->topSeconds[i])
      return;
  } else if (task->numTop < kConfirmTop) {
    i = task->numTop++;
  } else if (seconds < task->topSeconds[kConfirmTop - 1]) {
    i = kConfirmTop - 1; /* replaces the slowest */
  } else {
    return;
  }
  task->top[i] = *s;
  task->topSeconds[i] = seconds;
  for (; i > 0 && task->topSeconds[i] < task->topSeconds[i - 1]; --i)
    swapTop(task, i, i - 1);
}

/* A candidate's measurement (c->seconds, c->error) is in: the search, the
 * task's best, the log and the progress line take it. */
static void finishCandidate(Tuner *t, int index, Candidate *c, int rank) {
  Task *task = &t->tasks[index];
  kilnSearchRecord(task->search, c->config, c->seconds, c->seconds > 0);
  ++task->trialsDone;
  if (c->seconds > 0 && c->seconds < task->bestSeconds)
    task->bestSeconds = c->seconds;
  noteTop(task, &c->schedule, c->seconds);
  appendRecord(t, task, c);
  printProgress(t, index, task, c->seconds, rank);
}

/* Times compiled candidate `c`, unless its library is one measured
 * already: it takes that one's time. */
static void timeCandidate(Tuner *t, int index, Candidate *c, BenchSeen *seen) {
  uint64_t hash = measureLibraryDigest(c->build.libPath);
  if (benchSeenFind(seen, hash, &c->seconds)) {
    if (c->seconds < 0)
      c->error = kBenchSameAsInvalid;
    return;
  }
  c->seconds = runLibrary(t, index, c->build.libPath, c->build.outPath, false,
                          t->tasks[index].runs, &c->error);
  benchSeenAdd(seen, hash, c->seconds);
}

/* Compiles the batch in parallel, then times each candidate in turn. */
static void measureBatchHere(Tuner *t, int index, Candidate *batch, int n,
                             BenchSeen *seen) {
  for (int i = 0; i < n; ++i) {
    char name[16];
    snprintf(name, sizeof(name), "c%d", i);
    startCompile(t, index, &batch[i], name);
  }
  for (int i = 0; i < n; ++i)
    measureWaitAll(&batch[i].build.compile, 1);
  for (int i = 0; i < n; ++i) {
    Candidate *c = &batch[i];
    c->seconds = -1;
    c->error = benchBuildError(&c->build);
    if (!c->error)
      timeCandidate(t, index, c, seen);
    finishCandidate(t, index, c, 0);
    benchBuildFree(&c->build);
  }
}

typedef struct BatchState {
  Tuner *t;
  int index;
} BatchState;

static void candidateMeasured(void *ctx, const PoolJob *job, int rank,
                              double seconds, const char *error) {
  BatchState *b = ctx;
  Candidate *c = job->user;
  c->seconds = seconds;
  c->error = error;
  finishCandidate(b->t, b->index, c, rank);
}

static PoolTask poolTaskOf(const Tuner *t, int index) {
  const Task *task = &t->tasks[index];
  return (PoolTask){index, kernelOf(task), task->runs};
}

/* --workers mpi: the batch on the workers, one candidate each at a time,
 * each logged as its time comes in. */
static void measureBatchOnWorkers(Tuner *t, int index, Candidate *batch, int n,
                                  BenchSeen *seen) {
  PoolJob *jobs = calloc((size_t)n, sizeof(*jobs));
  if (!jobs)
    abort();
  for (int i = 0; i < n; ++i)
    jobs[i] = (PoolJob){scheduleRecord(t, &t->tasks[index], &batch[i].schedule),
                        1, true, &batch[i]};
  PoolTask task = poolTaskOf(t, index);
  BatchState state = {t, index};
  poolMeasure(t->pool, &task, jobs, n, seen, candidateMeasured, &state);
  for (int i = 0; i < n; ++i)
    kilnTuningRecordLineDestroy((char *)jobs[i].record);
  free(jobs);
}

static double median(double *v, int n) {
  for (int i = 1; i < n; ++i)
    for (int j = i; j > 0 && v[j] < v[j - 1]; --j) {
      double x = v[j];
      v[j] = v[j - 1];
      v[j - 1] = x;
    }
  return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* confirmBest's measurements: [0] the default, [i] the i-th fastest. */
typedef struct Confirm {
  Tuner *t;
  Task *task;
  int n; /* candidates besides the default */
  KilnTuningSchedule schedule[kConfirmTop + 1];
  double times[kConfirmTop + 1][kConfirmRounds + 1];
  int count[kConfirmTop + 1];
  bool failed[kConfirmTop + 1];
} Confirm;

/* Logs one more measurement of schedule `i`. */
static void confirmNote(Confirm *s, int i, double seconds, const char *error) {
  Candidate c = {
      .schedule = s->schedule[i], .seconds = seconds, .error = error};
  appendRecord(s->t, s->task, &c);
  if (seconds > 0)
    s->times[i][s->count[i]++] = seconds;
  else
    s->failed[i] = true;
}

/* Here: the candidates compiled once, then timed in turn. A candidate
 * that does not compile again is left out, as one that failed once. */
static void confirmHere(Confirm *s, int index) {
  Candidate top[kConfirmTop];
  memset(top, 0, sizeof(top));
  for (int i = 0; i < s->n; ++i) {
    char name[16];
    snprintf(name, sizeof(name), "v%d", i);
    top[i].schedule = s->schedule[i + 1];
    startCompile(s->t, index, &top[i], name);
  }
  for (int i = 0; i < s->n; ++i) {
    measureWaitAll(&top[i].build.compile, 1);
    s->failed[i + 1] = top[i].build.compile.status != 0;
  }
  char *defaultLib = measurePath("%s/default.so", s->task->dir);
  char *out = measurePath("%s/confirm.out", s->task->dir);
  for (int r = 0; r < kConfirmRounds; ++r)
    for (int i = 0; i <= s->n; ++i) {
      if (i > 0 && s->failed[i])
        continue;
      const char *error = NULL;
      double seconds =
          runLibrary(s->t, index, i ? top[i - 1].build.libPath : defaultLib,
                     out, false, s->task->runs, &error);
      confirmNote(s, i, seconds, error);
    }
  for (int i = 0; i < s->n; ++i)
    benchBuildFree(&top[i].build);
  free(defaultLib);
  free(out);
}

static void confirmMeasured(void *ctx, const PoolJob *job, int rank,
                            double seconds, const char *error) {
  (void)rank;
  confirmNote(ctx, (int)(intptr_t)job->user, seconds, error);
}

/* On the workers: each schedule compiled once and timed kConfirmRounds
 * times on one worker, the schedules on several at once. */
static void confirmOnWorkers(Confirm *s, int index) {
  PoolJob jobs[kConfirmTop + 1];
  for (int i = 0; i <= s->n; ++i)
    jobs[i] = (PoolJob){scheduleRecord(s->t, s->task, &s->schedule[i]),
                        kConfirmRounds, false, (void *)(intptr_t)i};
  PoolTask task = poolTaskOf(s->t, index);
  BenchSeen none = {0};
  poolMeasure(s->t->pool, &task, jobs, s->n + 1, &none, confirmMeasured, s);
  for (int i = 0; i <= s->n; ++i)
    kilnTuningRecordLineDestroy((char *)jobs[i].record);
}

/* Times the default schedule and the fastest candidates again,
 * kConfirmRounds times, and logs each time: a candidate that won on one
 * lucky measurement of a noisy machine is pulled back to its median (the
 * log's readers rank schedules by their median), and the default is
 * measured beside the winners. */
static void confirmBest(Tuner *t, int index) {
  Task *task = &t->tasks[index];
  if (!task->numTop)
    return;
  Confirm s = {.t = t, .task = task, .n = task->numTop};
  s.times[0][s.count[0]++] = task->defaultSeconds;
  for (int i = 0; i < s.n; ++i) {
    s.schedule[i + 1] = task->top[i];
    s.times[i + 1][s.count[i + 1]++] = task->topSeconds[i];
  }
  if (t->pool)
    confirmOnWorkers(&s, index);
  else
    confirmHere(&s, index);
  task->defaultSeconds = median(s.times[0], s.count[0]);
  task->bestSeconds = task->defaultSeconds;
  for (int i = 1; i <= s.n; ++i) {
    double m = median(s.times[i], s.count[i]);
    if (!s.failed[i] && m < task->bestSeconds) {
      task->bestSeconds = m;
      task->hasWinner = true;
      task->winner = s.schedule[i];
    }
  }
  fprintf(stderr,
          "[%d/%d] %s  confirmed: default %.4g ms, tuned %.4g ms (%.2fx)\n",
          index + 1, t->numTasks, task->description, task->defaultSeconds * 1e3,
          task->bestSeconds * 1e3, task->defaultSeconds / task->bestSeconds);
}

/* Measures task `index`'s default schedule and logs it; false when its
 * kernel does not compile or run (it is then not tuned). */
static bool prepareTask(Tuner *t, int index) {
  Task *task = &t->tasks[index];
  if (!measureDefault(t, index))
    return false;
  char *out = measurePath("%s/default.out", task->dir);
  Candidate def = {.seconds = measureReadMedian(out)};
  free(out);
  task->defaultSeconds = def.seconds;
  if (task->bestSeconds < 0 || def.seconds < task->bestSeconds)
    task->bestSeconds = def.seconds;
  kilnSearchRecord(task->search, def.config, def.seconds, true);
  appendRecord(t, task, &def);
  if (!task->trialsDone)
    ++task->trialsDone;
  return true;
}

/* What a task costs the model per run: its default time times its count. */
static double taskWeight(const Task *task) {
  return task->defaultSeconds > 0 ? task->count * task->defaultSeconds : 0;
}

static const Tuner *gSortTuner; /* for byWeight (qsort has no user data) */

static int byWeight(const void *a, const void *b) {
  double x = taskWeight(&gSortTuner->tasks[*(const int *)a]);
  double y = taskWeight(&gSortTuner->tasks[*(const int *)b]);
  return (x < y) - (x > y);
}

/* Transfer between workloads: the first candidates of a workload are the
 * winners of the workloads of its kind tuned before it in this run (the
 * most recent first, at most kMaxSeeds): layers of one model often want
 * the same tiles, so the search starts from there, not from random
 * points. Returns how many configurations it wrote to `configs`. */
enum { kMaxSeeds = 4 };
static int seedConfigs(const Tuner *t, int index, const int *tunedOrder,
                       int numTuned, int *configs) {
  const Task *task = &t->tasks[index];
  int n = 0;
  for (int k = numTuned - 1; k >= 0 && n < kMaxSeeds; --k) {
    const Task *other = &t->tasks[tunedOrder[k]];
    int *config = configs + n * task->numKnobs;
    if (other->kind != task->kind || !other->hasWinner ||
        !configOf(task, &other->winner, config))
      continue;
    bool again = false;
    for (int j = 0; j < n && !again; ++j)
      again = !memcmp(configs + j * task->numKnobs, config,
                      (size_t)task->numKnobs * sizeof(int));
    n += !again;
  }
  return n;
}

/* The next batch's configurations: the seeds first, then the search's.
 * Returns how many (0: every schedule measured). */
static int nextBatch(Task *task, int want, int *seeds, int *numSeeds,
                     int *configs) {
  if (!*numSeeds)
    return kilnSearchPropose(task->search, want, configs);
  int n = *numSeeds < want ? *numSeeds : want;
  memcpy(configs, seeds, (size_t)(n * task->numKnobs) * sizeof(int));
  *numSeeds -= n;
  memmove(seeds, seeds + n * task->numKnobs,
          (size_t)(*numSeeds * task->numKnobs) * sizeof(int));
  return n;
}

/* Searches task `index` (prepared) until its trials are done, its space
 * is exhausted or `deadline` (measureNow's clock; 0: none), then confirms
 * its best candidates. A batch is --jobs candidates here, or one per
 * worker with --workers mpi. */
static void tuneTask(Tuner *t, int index, double deadline,
                     const int *tunedOrder, int numTuned) {
  Task *task = &t->tasks[index];
  BenchSeen seen = {0};
  int seeds[kMaxSeeds * KILN_SEARCH_MAX_KNOBS];
  int numSeeds = task->trialsDone > 1
                     ? 0 /* resumed: its search has its own measurements */
                     : seedConfigs(t, index, tunedOrder, numTuned, seeds);
  int batchSize = t->pool ? poolNumWorkers(t->pool) : t->o.jobs;
  int *configs =
      malloc((size_t)batchSize * KILN_SEARCH_MAX_KNOBS * sizeof(*configs));
  Candidate *batch = malloc((size_t)batchSize * sizeof(*batch));
  if (!configs || !batch)
    abort();
  while (task->trialsDone < t->o.trials &&
         (deadline <= 0 || measureNow() < deadline)) {
    int want = t->o.trials - task->trialsDone;
    int n = nextBatch(task, want < batchSize ? want : batchSize, seeds,
                      &numSeeds, configs);
    if (!n)
      break; /* every schedule measured */
    memset(batch, 0, (size_t)n * sizeof(*batch));
    for (int i = 0; i < n; ++i) {
      memcpy(batch[i].config, configs + i * task->numKnobs,
             (size_t)task->numKnobs * sizeof(int));
      batch[i].schedule = scheduleOf(task, batch[i].config);
    }
    if (t->pool)
      measureBatchOnWorkers(t, index, batch, n, &seen);
    else
      measureBatchHere(t, index, batch, n, &seen);
  }
  benchSeenFree(&seen);
  free(configs);
  free(batch);
  confirmBest(t, index);
}

/* --resume: replays the log's measurements into the searches. */
static bool replayLog(Tuner *t) {
  KilnStrBuf err = {0};
  KilnTuningLog *log = kilnTuningLogLoad(t->o.output, &t->target, NULL, NULL,
                                         kilnStrBufCallback, &err);
  if (!log) {
    tuneError("%s", kilnStrBufGet(&err));
    kilnStrBufDestroy(&err);
    return false;
  }
  kilnStrBufDestroy(&err);
  int replayed = 0;
  const char *prevKey = "";
  KilnTuningSchedule prev;
  for (intptr_t i = 0; i < kilnTuningLogGetNumRecords(log); ++i) {
    const char *key;
    KilnTuningSchedule schedule;
    double seconds;
    kilnTuningLogGetRecord(log, i, &key, &schedule, &seconds);
    /* A trial is a distinct schedule; the records come sorted by key and
     * schedule (a schedule's repeated measurements are adjacent). */
    bool newTrial = i == 0 || strcmp(key, prevKey) ||
                    memcmp(&schedule, &prev, sizeof(prev));
    prevKey = key;
    prev = schedule;
    for (int k = 0; k < t->numTasks; ++k) {
      Task *task = &t->tasks[k];
      int config[KILN_SEARCH_MAX_KNOBS];
      if (strcmp(task->key, key) || !configOf(task, &schedule, config))
        continue;
      kilnSearchRecord(task->search, config, seconds, seconds > 0);
      noteTop(task, &schedule, seconds);
      task->trialsDone += newTrial;
      ++replayed;
      if (seconds > 0 && (task->bestSeconds < 0 || seconds < task->bestSeconds))
        task->bestSeconds = seconds;
    }
  }
  fprintf(stderr,
          "%s: resuming %s: %d measurements of this model's "
          "workloads replayed\n",
          kProg, t->o.output, replayed);
  kilnTuningLogDestroy(log);
  return true;
}

/* --list-tasks: "KEY COUNT KNOBS DESCRIPTION", one line per workload. */
static void listTasks(const Tuner *t) {
  printf("%-16s %5s %5s  %s\n", "key", "count", "knobs", "workload");
  for (int i = 0; i < t->numTasks; ++i) {
    const Task *task = &t->tasks[i];
    printf("%-16s %5d %5d  %s\n", task->key, task->count, task->numKnobs,
           task->description);
  }
}

static void printSummary(const Tuner *t) {
  double before = 0, after = 0;
  printf("%-4s %-64s %5s %11s %11s %8s\n", "", "workload", "count",
         "default ms", "tuned ms", "speedup");
  for (int i = 0; i < t->numTasks; ++i) {
    const Task *task = &t->tasks[i];
    if (task->defaultSeconds <= 0) {
      printf("%-4d %-64.64s %5d %11s %11s %8s\n", i + 1, task->description,
             task->count, "-", "-", "-");
      continue;
    }
    before += task->count * task->defaultSeconds;
    after += task->count * task->bestSeconds;
    printf("%-4d %-64.64s %5d %11.4f %11.4f %7.2fx\n", i + 1, task->description,
           task->count, task->defaultSeconds * 1e3, task->bestSeconds * 1e3,
           task->defaultSeconds / task->bestSeconds);
  }
  if (after > 0)
    printf("workloads in all (each times its count): default %.3f ms, tuned "
           "%.3f ms, %.2fx\n",
           before * 1e3, after * 1e3, before / after);
}

/* --workers mpi: starts MPI through libkiln_tune_mpi.so (mpi_link.h). A
 * worker rank serves rank 0 and returns its exit code; rank 0, the tuner,
 * returns -1 to go on, with t->pool made, or an exit code after saying
 * what is wrong. */
static int startWorkers(Tuner *t) {
  KilnTuneMpi *m = mpiLinkLoad(t->toolDir);
  if (!m)
    return kExitUnsupported;
  int rank = 0, size = 0;
  if (m->start(m, &rank, &size)) {
    tuneError("--workers mpi: %s", m->error);
    return kExitCompile;
  }
  if (rank > 0) {
    int rc = workerServe(m, rank, &t->setup);
    m->stop(m);
    return rc;
  }
  if (size < 2) {
    tuneError("--workers mpi needs at least 2 MPI processes (the tuner and "
              "a worker); this is 1: run it as mpirun -np N %s MODEL -o LOG "
              "--workers mpi ...",
              kProg);
    m->stop(m);
    return kExitUsage;
  }
  t->pool = poolCreate(m, size);
  return -1;
}

/* The model, the log and the work directory (under $TMPDIR, else /tmp,
 * removed at the end); returns -1 to go on, else the exit code. */
static int setUp(Tuner *t, bool *exists) {
  *exists = t->o.output && access(t->o.output, F_OK) == 0;
  if (!kilnToolCheckModelFile(kProg, t->o.model, false))
    return kExitUsage;
  if (*exists && !t->o.resume) {
    tuneError("'%s' exists: --resume continues it (or give another -o)",
              t->o.output);
    return kExitUsage;
  }
  if (!(t->workDir = measureMakeWorkDir("kiln-tune"))) {
    const char *tmp = getenv("TMPDIR");
    tuneError("cannot create a work directory in '%s': %s",
              tmp && *tmp ? tmp : "/tmp", strerror(errno));
    return kExitCompile;
  }
  return -1;
}

/* Tunes the collected tasks, appending to the log, and prints the
 * summary; returns the exit code. */
static int tuneAll(Tuner *t, bool exists) {
  if (exists && !replayLog(t))
    return kExitUsage;
  if (t->pool && !poolCheckTargets(t->pool, &t->target))
    return kExitUsage;
  if (!(t->log = fopen(t->o.output, "a"))) {
    tuneError("cannot write '%s': %s", t->o.output, strerror(errno));
    return kExitUsage;
  }
  fprintf(stderr, "%s: %d workloads to tune in %s (%s, %s)\n", kProg,
          t->numTasks, t->o.model, t->target.triple, t->target.cpu);
  /* Every default first: the time budget is then shared out by what each
   * workload costs the model, and the costliest are tuned first. */
  int *order = malloc((size_t)t->numTasks * sizeof(*order));
  if (!order)
    abort();
  int numReady = 0;
  double weight = 0;
  for (int i = 0; i < t->numTasks; ++i)
    if (prepareTask(t, i)) {
      order[numReady++] = i;
      weight += taskWeight(&t->tasks[i]);
    }
  gSortTuner = t;
  qsort(order, (size_t)numReady, sizeof(*order), byWeight);
  for (int k = 0; k < numReady; ++k) {
    Task *task = &t->tasks[order[k]];
    double deadline = 0;
    if (t->o.budget > 0) {
      double left = t->o.budget - (measureNow() - t->started);
      if (left <= 0)
        break;
      deadline = measureNow() + left * taskWeight(task) / weight;
    }
    weight -= taskWeight(task);
    tuneTask(t, order[k], deadline, order, k);
  }
  free(order);
  fclose(t->log);
  printSummary(t);
  if (t->pool)
    poolPrintCounts(t->pool);
  return kExitPass;
}

int main(int argc, char **argv) {
  Tuner t = {.o = {.trials = 32,
                   .jobs = 2,
                   .seed = 1,
                   .strategy = KILN_SEARCH_ANNEALING}};
  int rc = tuneParseArgs(argc, argv, &t.o);
  t.toolDir = measureToolDir();
  t.setup = (BenchSetup){t.toolDir, t.o.target, t.o.cpu, t.o.threads};
  /* A worker rank ends here; it needs no model nor log (its machine may
   * have neither). */
  if (rc < 0 && t.o.workers == kWorkersMpi)
    rc = startWorkers(&t);
  bool exists = false;
  if (rc < 0)
    rc = setUp(&t, &exists);
  if (rc >= 0) {
    poolDestroy(t.pool);
    free(t.toolDir);
    tuneOptionsDestroy(&t.o);
    return rc;
  }
  t.started = measureNow();
  MlirContext ctx = kilnContextCreate();
  rc = kExitPass;
  if (!collectTasks(&t, ctx, &rc)) {
    if (rc == kExitPass)
      rc = kExitCompile;
  } else if (!t.numTasks) {
    printf("%s: %s has nothing to tune (no conv, matmul, gemm or reduction)\n",
           kProg, t.o.model);
  } else if (t.o.listTasks) {
    listTasks(&t);
  } else {
    rc = tuneAll(&t, exists);
  }
  for (int i = 0; i < t.numTasks; ++i) {
    free(t.tasks[i].description);
    free(t.tasks[i].dir);
    kilnSearchDestroy(t.tasks[i].search);
  }
  free(t.tasks);
  if (t.target.triple)
    kilnTuningTargetDestroy(&t.target);
  kilnContextDestroy(ctx);
  poolDestroy(t.pool); /* every worker stops and exits */
  measureRemoveDir(t.workDir);
  free(t.workDir);
  free(t.toolDir);
  tuneOptionsDestroy(&t.o);
  return rc;
}

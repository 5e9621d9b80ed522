/* kiln-tune: searches each workload's schedule knobs by measuring
 * candidates on this machine, and logs every measurement for
 * kiln-compile --tuning-log (docs/kiln-tune.md).
 *
 *   kiln-tune MODEL.onnx -o model.tune [--trials N] [--time-budget T]
 *             [--target T] [--cpu C] [--threads N] [--jobs J] [--resume]
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
 *    run loses nothing and --resume replays the log into the searches. */
#define _GNU_SOURCE /* mkdtemp, strdup */
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
#include "tools/kiln-tune/kernel_files.h"
#include "tools/kiln-tune/measure.h"
#include "tools/kiln-tune/options.h"
#include "tools/kiln-tune/search.h"

/* The fastest candidates of a workload are timed kConfirmRounds more
 * times each, beside the default schedule (confirmBest). */
enum { kConfirmTop = 3, kConfirmRounds = 2 };

/* Timeouts of one candidate's compile and run, in seconds. */
static const double kCompileTimeout = 300, kRunTimeout = 120;

typedef struct Task {
  char key[17];
  char *description;
  KilnWorkloadKind kind;
  int count; /* occurrences in the model */
  char *kernelPath;
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
  KilnTuningTarget target;
  Task *tasks;
  int numTasks;
  FILE *log;
  double started;
} Tuner;

/* ---- files and child processes ------------------------------------------ */

/* argv of kiln-compile for `input` -> `output` for the tuner's target;
 * `extra` (NULL-terminated) appended. Free with freeArgv. */
static char **compileArgv(const Tuner *t, const char *input, const char *output,
                          const char *const *extra) {
  int numExtra = 0;
  while (extra && extra[numExtra])
    ++numExtra;
  char **argv = calloc((size_t)numExtra + 8, sizeof(*argv));
  if (!argv)
    abort();
  int n = 0;
  argv[n++] = measurePath("%s/kiln-compile", t->toolDir);
  argv[n++] = strdup(input);
  argv[n++] = measurePath("-o%s", output);
  argv[n++] = strdup("-q");
  if (t->o.target)
    argv[n++] = measurePath("--target=%s", t->o.target);
  if (t->o.cpu)
    argv[n++] = measurePath("--cpu=%s", t->o.cpu);
  for (int i = 0; i < numExtra; ++i)
    argv[n++] = strdup(extra[i]);
  return argv;
}

static void freeArgv(char **argv) {
  for (char **a = argv; *a; ++a)
    free(*a);
  free(argv);
}

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
  char *dir = measurePath("%s/t%d", t->workDir, t->numTasks);
  task->kernelPath = measurePath("%s/kernel.mlir", dir);
  MlirModule kernel = kilnWorkloadCreateKernelModule(w);
  char *ref = measurePath("%s/ref", dir);
  bool ok = mkdir(dir, 0755) == 0 && mkdir(ref, 0755) == 0 &&
            kernelWriteModule(kernel, task->kernelPath) &&
            (task->numInputs = kernelWriteInputs(kernel, dir)) >= 0;
  free(ref);
  mlirModuleDestroy(kernel);
  free(dir);
  if (!ok) {
    tuneError("cannot write the kernel of workload %s (%s)", w->key,
              w->description);
    s->failed = true;
  }
  ++t->numTasks;
}

/* The target the candidates are compiled for (--target, --cpu; kiln-compile
 * checked them already), as the log records it. */
static bool tuningTarget(Tuner *t) {
  KilnTargetOptions options = {
      .target = t->o.target, .cpu = t->o.cpu, .optLevel = 3};
  KilnStrBuf err = {0};
  KilnTarget *target = kilnTargetCreate(&options, kilnStrBufCallback, &err);
  if (!target)
    tuneError("%s", kilnStrBufGet(&err));
  else
    kilnTuningTargetCreate(kilnTargetGetTriple(target),
                           kilnTargetGetCPU(target),
                           kilnTargetGetFeatures(target), &t->target);
  kilnTargetDestroy(target);
  kilnStrBufDestroy(&err);
  return target != NULL;
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
  char **argv = compileArgv(t, t->o.model, graph, extra);
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
  freeArgv(argv);
  MlirModule module = {NULL};
  if (ok) {
    module = mlirModuleCreateParseFromFile(
        ctx, mlirStringRefCreateFromCString(graph));
    ok = !mlirModuleIsNull(module);
  }
  if (ok) {
    ok = tuningTarget(t);
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
  char *logPath, *libPath, *outPath;
  MeasureJob compile;
  double seconds; /* < 0: invalid */
  const char *error;
  uint64_t hash;
} Candidate;

/* Seen libraries: a candidate that compiles to the same code as an earlier
 * one gets that one's measurement. */
typedef struct Seen {
  uint64_t hash;
  double seconds;
} Seen;

static void appendRecord(Tuner *t, const Task *task, const Candidate *c) {
  char *line = kilnTuningRecordCreateLine(task->key, task->description,
                                          &t->target, t->o.threads,
                                          &c->schedule, c->seconds, c->error);
  fprintf(t->log, "%s\n", line);
  fflush(t->log);
  kilnTuningRecordLineDestroy(line);
}

/* Runs `lib` on the task's inputs: writing the reference outputs (`ref`),
 * or checking against them; `runs` timed runs. Returns the median seconds,
 * or negative with *why set. */
static double runLibrary(const Tuner *t, int taskIndex, const char *lib,
                         const char *outPath, bool reference, int runs,
                         const char **why) {
  char *dir = measurePath("%s/t%d", t->workDir, taskIndex);
  int numInputs = t->tasks[taskIndex].numInputs;
  int numOutputs = t->tasks[taskIndex].numOutputs;
  /* The tool, the library, two words per input and per checked output,
   * the output directory or the tolerance, runs, threads, NULL. */
  char **argv =
      calloc((size_t)(2 * numInputs + 2 * numOutputs + 6), sizeof(*argv));
  if (!argv)
    abort();
  int n = 0;
  argv[n++] = measurePath("%s/kiln-run-module", t->toolDir);
  argv[n++] = strdup(lib);
  for (int i = 0; i < numInputs; ++i) {
    argv[n++] = strdup("--input");
    argv[n++] = measurePath("%s/in%d.npy", dir, i);
  }
  if (reference) {
    argv[n++] = measurePath("--output-dir=%s/ref", dir);
  } else {
    for (int i = 0; i < numOutputs; ++i) {
      argv[n++] = strdup("--expected");
      argv[n++] = measurePath("%s/ref/result%d.npy", dir, i);
    }
    argv[n++] = strdup("--atol=1e-3");
  }
  argv[n++] = measurePath("--benchmark=%d", runs);
  if (t->o.threads)
    argv[n++] = measurePath("--threads=%d", t->o.threads);
  argv[n] = NULL;
  MeasureJob job;
  double seconds = -1;
  if (!measureSpawn(argv, outPath, kRunTimeout, &job)) {
    *why = "cannot start kiln-run-module";
  } else {
    measureWaitAll(&job, 1);
    if (job.status == 0 && (seconds = measureReadMedian(outPath)) <= 0)
      *why = "no benchmark in kiln-run-module's output";
    else if (job.status == 1)
      *why = "its output differs from the default schedule's";
    else if (job.status == 124)
      *why = "its run timed out";
    else if (job.status != 0)
      *why = job.status > 128 ? "its run crashed" : "its run failed";
  }
  for (int i = 0; i < n; ++i)
    free(argv[i]);
  free(argv);
  free(dir);
  return seconds;
}

/* Enough timed runs for about a quarter second per measurement (the
 * median of many runs rides out a noisy machine), 10 to 2000. */
static int runsFor(double seconds) {
  double runs = 0.25 / (seconds > 1e-7 ? seconds : 1e-7);
  return runs < 10 ? 10 : runs > 2000 ? 2000 : (int)runs;
}

/* Compiles and runs the default schedule: the reference outputs and the
 * time to beat. False when the kernel does not compile or run. */
static bool measureDefault(Tuner *t, int index) {
  Task *task = &t->tasks[index];
  char *dir = measurePath("%s/t%d", t->workDir, index);
  char *lib = measurePath("%s/default.so", dir);
  char *out = measurePath("%s/default.out", dir);
  const char *extra[] = {"-j1", NULL};
  char **argv = compileArgv(t, task->kernelPath, lib, extra);
  MeasureJob job;
  bool ok = measureSpawn(argv, out, kCompileTimeout, &job);
  if (ok)
    measureWaitAll(&job, 1);
  freeArgv(argv);
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
  free(dir);
  free(lib);
  free(out);
  return seconds > 0;
}

static void printProgress(const Tuner *t, int index, const Task *task,
                          double seconds) {
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
  fputc('\n', stderr);
}

/* Starts compiling candidate `c` of task `index` as files NAME.*; its
 * schedule goes in as a one-record log. */
static void startCompile(Tuner *t, int index, Candidate *c, const char *name) {
  Task *task = &t->tasks[index];
  char *dir = measurePath("%s/t%d", t->workDir, index);
  c->logPath = measurePath("%s/%s.tune", dir, name);
  c->libPath = measurePath("%s/%s.so", dir, name);
  c->outPath = measurePath("%s/%s.out", dir, name);
  free(dir);
  FILE *f = fopen(c->logPath, "w");
  char *line =
      kilnTuningRecordCreateLine(task->key, task->description, &t->target,
                                 t->o.threads, &c->schedule, 0, NULL);
  if (f) {
    fprintf(f, "%s\n", line);
    fclose(f);
  }
  kilnTuningRecordLineDestroy(line);
  char *logFlag = measurePath("--tuning-log=%s", c->logPath);
  const char *extra[] = {"-j1", logFlag, NULL};
  char **argv = compileArgv(t, task->kernelPath, c->libPath, extra);
  measureSpawn(argv, c->outPath, kCompileTimeout, &c->compile);
  freeArgv(argv);
  free(logFlag);
}

static void freeCandidateFiles(Candidate *c) {
  unlink(c->libPath);
  free(c->logPath);
  free(c->libPath);
  free(c->outPath);
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

/* Compiles the batch in parallel, then times each candidate in turn. */
static void measureBatch(Tuner *t, int index, Candidate *batch, int n,
                         Seen **seen, int *numSeen) {
  Task *task = &t->tasks[index];
  for (int i = 0; i < n; ++i) {
    char name[16];
    snprintf(name, sizeof(name), "c%d", i);
    startCompile(t, index, &batch[i], name);
  }
  for (int i = 0; i < n; ++i)
    measureWaitAll(&batch[i].compile, 1);
  for (int i = 0; i < n; ++i) {
    Candidate *c = &batch[i];
    c->seconds = -1;
    if (c->compile.status != 0) {
      c->error = c->compile.status == 124 ? "its compile timed out"
                                          : "it does not compile";
    } else {
      c->hash = measureLibraryDigest(c->libPath);
      int s = 0;
      while (s < *numSeen && (*seen)[s].hash != c->hash)
        ++s;
      if (s < *numSeen) {
        c->seconds = (*seen)[s].seconds;
        if (c->seconds < 0)
          c->error = "the same code as an invalid candidate";
      } else {
        c->seconds = runLibrary(t, index, c->libPath, c->outPath, false,
                                task->runs, &c->error);
        Seen *grown = realloc(*seen, (*numSeen + 1) * sizeof(Seen));
        if (!grown)
          abort();
        *seen = grown;
        grown[(*numSeen)++] = (Seen){c->hash, c->seconds};
      }
    }
    kilnSearchRecord(task->search, c->config, c->seconds, c->seconds > 0);
    ++task->trialsDone;
    if (c->seconds > 0 && c->seconds < task->bestSeconds)
      task->bestSeconds = c->seconds;
    noteTop(task, &c->schedule, c->seconds);
    appendRecord(t, task, c);
    printProgress(t, index, task, c->seconds);
    freeCandidateFiles(c);
  }
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

/* Times the default schedule and the fastest candidates again, in turn,
 * kConfirmRounds times, and logs each time: a candidate that won on one
 * lucky measurement of a noisy machine is pulled back to its median (the
 * log's readers rank schedules by their median), and the default is
 * measured beside the winners. */
static void confirmBest(Tuner *t, int index) {
  Task *task = &t->tasks[index];
  int n = task->numTop;
  if (!n)
    return;
  Candidate top[kConfirmTop];
  memset(top, 0, sizeof(top));
  for (int i = 0; i < n; ++i) {
    char name[16];
    snprintf(name, sizeof(name), "v%d", i);
    top[i].schedule = task->top[i];
    startCompile(t, index, &top[i], name);
  }
  for (int i = 0; i < n; ++i)
    measureWaitAll(&top[i].compile, 1);
  char *dir = measurePath("%s/t%d", t->workDir, index);
  char *defaultLib = measurePath("%s/default.so", dir);
  char *out = measurePath("%s/confirm.out", dir);
  double times[kConfirmTop + 1][kConfirmRounds + 1];
  int count[kConfirmTop + 1] = {0};
  times[0][count[0]++] = task->defaultSeconds;
  for (int i = 0; i < n; ++i)
    times[i + 1][count[i + 1]++] = task->topSeconds[i];
  bool failed[kConfirmTop + 1] = {false};
  for (int r = 0; r < kConfirmRounds; ++r) {
    for (int i = 0; i <= n; ++i) {
      if (i > 0 && (top[i - 1].compile.status != 0 || failed[i]))
        continue;
      Candidate c = {.schedule =
                         i ? top[i - 1].schedule : (KilnTuningSchedule){{0}}};
      c.seconds = runLibrary(t, index, i ? top[i - 1].libPath : defaultLib, out,
                             false, task->runs, &c.error);
      appendRecord(t, task, &c);
      if (c.seconds > 0)
        times[i][count[i]++] = c.seconds;
      else
        failed[i] = true;
    }
  }
  task->defaultSeconds = median(times[0], count[0]);
  task->bestSeconds = task->defaultSeconds;
  for (int i = 1; i <= n; ++i) {
    double m = median(times[i], count[i]);
    if (!failed[i] && m < task->bestSeconds) {
      task->bestSeconds = m;
      task->hasWinner = true;
      task->winner = top[i - 1].schedule;
    }
  }
  fprintf(stderr,
          "[%d/%d] %s  confirmed: default %.4g ms, tuned %.4g ms (%.2fx)\n",
          index + 1, t->numTasks, task->description, task->defaultSeconds * 1e3,
          task->bestSeconds * 1e3, task->defaultSeconds / task->bestSeconds);
  for (int i = 0; i < n; ++i)
    freeCandidateFiles(&top[i]);
  free(dir);
  free(defaultLib);
  free(out);
}

/* Measures task `index`'s default schedule and logs it; false when its
 * kernel does not compile or run (it is then not tuned). */
static bool prepareTask(Tuner *t, int index) {
  Task *task = &t->tasks[index];
  if (!measureDefault(t, index))
    return false;
  char *dir = measurePath("%s/t%d", t->workDir, index);
  char *out = measurePath("%s/default.out", dir);
  free(dir);
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

/* Searches task `index` (prepared) until its trials are done, its space
 * is exhausted or `deadline` (measureNow's clock; 0: none), then confirms
 * its best candidates. */
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

static void tuneTask(Tuner *t, int index, double deadline,
                     const int *tunedOrder, int numTuned) {
  Task *task = &t->tasks[index];
  Seen *seen = NULL;
  int numSeen = 0;
  int seeds[kMaxSeeds * KILN_SEARCH_MAX_KNOBS];
  int numSeeds = task->trialsDone > 1
                     ? 0 /* resumed: its search has its own measurements */
                     : seedConfigs(t, index, tunedOrder, numTuned, seeds);
  while (task->trialsDone < t->o.trials &&
         (deadline <= 0 || measureNow() < deadline)) {
    int want = t->o.trials - task->trialsDone;
    if (want > t->o.jobs)
      want = t->o.jobs;
    int configs[kMaxJobs * KILN_SEARCH_MAX_KNOBS];
    int n = 0;
    if (numSeeds) {
      n = numSeeds < want ? numSeeds : want;
      memcpy(configs, seeds, (size_t)(n * task->numKnobs) * sizeof(int));
      numSeeds -= n;
      memmove(seeds, seeds + n * task->numKnobs,
              (size_t)(numSeeds * task->numKnobs) * sizeof(int));
    } else if ((n = kilnSearchPropose(task->search, want, configs)) == 0) {
      break; /* every schedule measured */
    }
    Candidate batch[kMaxJobs];
    memset(batch, 0, sizeof(batch));
    for (int i = 0; i < n; ++i) {
      memcpy(batch[i].config, configs + i * task->numKnobs,
             (size_t)task->numKnobs * sizeof(int));
      batch[i].schedule = scheduleOf(task, batch[i].config);
    }
    measureBatch(t, index, batch, n, &seen, &numSeen);
  }
  free(seen);
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

/* Removes the work directory (rm -r: it holds one directory per task). */
static void removeWorkDir(const char *dir) {
  char *argv[] = {"/bin/rm", "-rf", (char *)dir, NULL};
  MeasureJob job;
  if (measureSpawn(argv, NULL, 60, &job))
    measureWaitAll(&job, 1);
}

int main(int argc, char **argv) {
  Tuner t = {.o = {.trials = 32,
                   .jobs = 2,
                   .seed = 1,
                   .strategy = KILN_SEARCH_ANNEALING}};
  int rc = tuneParseArgs(argc, argv, &t.o);
  bool exists = t.o.output && access(t.o.output, F_OK) == 0;
  if (rc < 0 && !kilnToolCheckModelFile(kProg, t.o.model, false))
    rc = kExitUsage;
  if (rc < 0 && exists && !t.o.resume) {
    tuneError("'%s' exists: --resume continues it (or give another -o)",
              t.o.output);
    rc = kExitUsage;
  }
  /* The kernels and candidates live in a work directory under $TMPDIR
   * (else /tmp), removed at the end. */
  const char *tmp = getenv("TMPDIR");
  char *tmpl = measurePath("%s/kiln-tune.XXXXXX", tmp && *tmp ? tmp : "/tmp");
  if (rc < 0 && !(t.workDir = mkdtemp(tmpl))) {
    tuneError("cannot create a work directory in '%s': %s",
              tmp && *tmp ? tmp : "/tmp", strerror(errno));
    rc = kExitCompile;
  }
  if (rc >= 0) {
    free(tmpl);
    tuneOptionsDestroy(&t.o);
    return rc;
  }
  t.started = measureNow();
  t.toolDir = measureToolDir();
  MlirContext ctx = kilnContextCreate();
  rc = kExitPass;
  if (!collectTasks(&t, ctx, &rc)) {
    if (rc == kExitPass)
      rc = kExitCompile;
    goto out;
  }
  if (!t.numTasks) {
    printf("%s: %s has nothing to tune (no conv, matmul, gemm or reduction)\n",
           kProg, t.o.model);
    goto out;
  }
  if (t.o.listTasks) {
    listTasks(&t);
    goto out;
  }
  if (exists && !replayLog(&t)) {
    rc = kExitUsage;
    goto out;
  }
  if (!(t.log = fopen(t.o.output, "a"))) {
    tuneError("cannot write '%s': %s", t.o.output, strerror(errno));
    rc = kExitUsage;
    goto out;
  }
  fprintf(stderr, "%s: %d workloads to tune in %s (%s, %s)\n", kProg,
          t.numTasks, t.o.model, t.target.triple, t.target.cpu);
  /* Every default first: the time budget is then shared out by what each
   * workload costs the model, and the costliest are tuned first. */
  int *order = malloc((size_t)t.numTasks * sizeof(*order));
  if (!order)
    abort();
  int numReady = 0;
  double weight = 0;
  for (int i = 0; i < t.numTasks; ++i)
    if (prepareTask(&t, i)) {
      order[numReady++] = i;
      weight += taskWeight(&t.tasks[i]);
    }
  gSortTuner = &t;
  qsort(order, (size_t)numReady, sizeof(*order), byWeight);
  for (int k = 0; k < numReady; ++k) {
    Task *task = &t.tasks[order[k]];
    double deadline = 0;
    if (t.o.budget > 0) {
      double left = t.o.budget - (measureNow() - t.started);
      if (left <= 0)
        break;
      deadline = measureNow() + left * taskWeight(task) / weight;
    }
    weight -= taskWeight(task);
    tuneTask(&t, order[k], deadline, order, k);
  }
  free(order);
  fclose(t.log);
  printSummary(&t);
out:
  for (int i = 0; i < t.numTasks; ++i) {
    free(t.tasks[i].description);
    free(t.tasks[i].kernelPath);
    kilnSearchDestroy(t.tasks[i].search);
  }
  free(t.tasks);
  if (t.target.triple)
    kilnTuningTargetDestroy(&t.target);
  kilnContextDestroy(ctx);
  removeWorkDir(t.workDir);
  free(tmpl);
  free(t.toolDir);
  tuneOptionsDestroy(&t.o);
  return rc;
}

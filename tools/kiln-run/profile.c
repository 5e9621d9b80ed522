/* kiln-run --profile (docs/kiln-run.md, "Profiling"): per-record medians
 * over repeated runs of a library built with kiln-compile --profile, a
 * table sorted by time, the records' sum against the run's time, and one
 * representative run (the one of median time) as a Chrome trace. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, mkstemp, fdopen */

#include "tools/kiln-run/profile.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { kDefaultProfileRuns = 20 };

static int64_t nowNs(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

bool kilnRunProfilePrepare(const Options *o, const KilnModel *m,
                           KilnRunTraceFile *trace) {
  *trace = (KilnRunTraceFile){.fd = -1};
  if (!kilnModelIsProfiled(m)) {
    kilnRunError("'%s' was built without profiling: rebuild it with "
                 "kiln-compile --profile to time its ops",
                 o->model);
    return false;
  }
  if (!o->profileJson)
    return true;
  struct stat st;
  if (stat(o->profileJson, &st) == 0 && S_ISDIR(st.st_mode)) {
    kilnRunError("cannot write the profile trace '%s': it is a directory",
                 o->profileJson);
    return false;
  }
  size_t n = strlen(o->profileJson) + sizeof(".tmp-XXXXXX");
  trace->path = strdup(o->profileJson);
  trace->tmpPath = malloc(n);
  if (!trace->path || !trace->tmpPath)
    abort();
  snprintf(trace->tmpPath, n, "%s.tmp-XXXXXX", o->profileJson);
  trace->fd = mkstemp(trace->tmpPath);
  if (trace->fd < 0) {
    kilnRunError("cannot write the profile trace '%s': %s", o->profileJson,
                 strerror(errno));
    kilnRunTraceFileDestroy(trace);
    return false;
  }
  return true;
}

void kilnRunTraceFileDestroy(KilnRunTraceFile *trace) {
  if (trace->fd >= 0) {
    close(trace->fd);
    unlink(trace->tmpPath);
  }
  free(trace->path);
  free(trace->tmpPath);
  *trace = (KilnRunTraceFile){.fd = -1};
}

/* ---- measuring ------------------------------------------------------------
 */

/* Times of `runs` runs: per record k (the whole run at k = numRecords),
 * dur[k * runs + r] and start[k * runs + r]; wall[r] is kilnModelRun's. */
typedef struct Samples {
  int64_t numRecords, runs;
  int64_t *dur, *start, *wall;
} Samples;

static void samplesDestroy(Samples *s) {
  free(s->dur);
  free(s->start);
  free(s->wall);
}

static KilnStatus *measure(KilnModel *m, KilnTensor **args,
                           KilnTensor **outputs, Samples *s) {
  size_t numArgs = (size_t)kilnModelGetNumInputs(m);
  size_t numOutputs = (size_t)kilnModelGetNumOutputs(m);
  size_t cells = (size_t)(s->numRecords + 1) * (size_t)s->runs;
  s->dur = calloc(cells, sizeof(int64_t));
  s->start = calloc(cells, sizeof(int64_t));
  s->wall = calloc((size_t)s->runs, sizeof(int64_t));
  if (!s->dur || !s->start || !s->wall)
    abort();
  /* One warm-up run, then counters from zero. */
  KilnStatus *st = kilnModelRun(m, args, numArgs, outputs, numOutputs);
  if (!st)
    st = kilnModelResetProfile(m);
  for (int64_t r = 0; r < s->runs && !st; ++r) {
    int64_t t0 = nowNs();
    st = kilnModelRun(m, args, numArgs, outputs, numOutputs);
    s->wall[r] = nowNs() - t0;
    for (int64_t k = 0; k <= s->numRecords && !st; ++k) {
      KilnProfileTimes t;
      st = kilnModelGetProfileTimes(m, k, &t);
      s->dur[k * s->runs + r] = t.lastNs;
      s->start[k * s->runs + r] = t.lastStartNs;
    }
  }
  return st;
}

static int compareInt64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static double median(const int64_t *v, int64_t n) {
  int64_t *sorted = malloc((size_t)n * sizeof(int64_t));
  if (!sorted)
    abort();
  memcpy(sorted, v, (size_t)n * sizeof(int64_t));
  qsort(sorted, (size_t)n, sizeof(int64_t), compareInt64);
  double mid = n % 2
                   ? (double)sorted[n / 2]
                   : 0.5 * ((double)sorted[n / 2 - 1] + (double)sorted[n / 2]);
  free(sorted);
  return mid;
}

/* ---- the table ------------------------------------------------------------
 */

/* The median over the runs of the records' time in a run over that run's
 * time through kilnModelRun. Unlike the sum of the records' medians, it
 * does not drift when other processes delay some runs' records: each run
 * is compared with itself. */
static double runCoverage(const Samples *s) {
  /* Parts per million, so median() applies. */
  int64_t *ppm = calloc((size_t)s->runs + 1, sizeof(int64_t));
  if (!ppm)
    abort();
  for (int64_t r = 0; r < s->runs; ++r) {
    double sum = 0;
    for (int64_t k = 0; k < s->numRecords; ++k)
      sum += (double)s->dur[k * s->runs + r];
    ppm[r] = s->wall[r] > 0 ? (int64_t)(1e6 * sum / (double)s->wall[r]) : 0;
  }
  double m = s->runs ? 1e-6 * median(ppm, s->runs) : 0.0;
  free(ppm);
  return m;
}

/* "a, b" of the record's node names (sep ", ") or op types (sep ","). */
static void joinNodes(const KilnModel *m, int64_t k, bool types,
                      const char *sep, FILE *out) {
  for (int64_t j = 0; j < kilnModelGetProfileRecordNumNodes(m, k); ++j)
    fprintf(out, "%s%s", j ? sep : "",
            types ? kilnModelGetProfileRecordNodeOpType(m, k, j)
                  : kilnModelGetProfileRecordNodeName(m, k, j));
}

static void formatShape(const KilnModel *m, int64_t k, char *buf, size_t n) {
  int64_t rank = kilnModelGetProfileRecordRank(m, k);
  const int64_t *dims = kilnModelGetProfileRecordDims(m, k);
  if (rank < 0) {
    snprintf(buf, n, "?");
    return;
  }
  int used = snprintf(buf, n, "%s", rank ? "" : "scalar");
  for (int64_t d = 0; d < rank && used >= 0 && (size_t)used < n; ++d)
    used += snprintf(buf + used, n - (size_t)used, "%s%lld", d ? "x" : "",
                     (long long)dims[d]);
}

typedef struct Row {
  int64_t record;
  double ns;
} Row;

static int compareRows(const void *a, const void *b) {
  const Row *x = a, *y = b;
  return (x->ns < y->ns) - (x->ns > y->ns);
}

static void printTable(const Options *o, const KilnModel *m, const Samples *s,
                       const Row *rows, double runNs) {
  (void)o;
  printf("profile: %lld records, median of %lld runs; times in ms\n",
         (long long)s->numRecords, (long long)s->runs);
  printf("%10s %7s %8s  %-16s %-20s %s\n", "time", "share", "GFLOP/s", "output",
         "op types", "ONNX nodes");
  double sum = 0;
  for (int64_t i = 0; i < s->numRecords; ++i) {
    int64_t k = rows[i].record;
    double ns = rows[i].ns;
    sum += ns;
    int64_t flops = kilnModelGetProfileRecordFlops(m, k);
    char gflops[32] = "-", shape[128];
    if (flops > 0 && ns > 0)
      snprintf(gflops, sizeof(gflops), "%.1f", (double)flops / ns);
    formatShape(m, k, shape, sizeof(shape));
    printf("%10.4f %6.1f%% %8s  %-16s ", 1e-6 * ns,
           runNs > 0 ? 100 * ns / runNs : 0.0, gflops, shape);
    /* Op types padded to their column, however many there are. */
    char types[4096];
    FILE *t = fmemopen(types, sizeof(types), "w");
    if (t) {
      joinNodes(m, k, true, ",", t);
      fclose(t);
    } else {
      types[0] = '\0';
    }
    printf("%-20s ", types);
    joinNodes(m, k, false, ", ", stdout);
    printf("\n");
  }
  double whole = median(s->dur + s->numRecords * s->runs, s->runs);
  printf("profile: the records sum to %.4f ms, %.1f%% of the median run "
         "(%.4f ms in kilnModelRun; %.4f ms from the first timer to the "
         "last); within each run they cover %.1f%% of it (median over the "
         "runs)\n",
         1e-6 * sum, runNs > 0 ? 100 * sum / runNs : 0.0, 1e-6 * runNs,
         1e-6 * whole, 100 * runCoverage(s));
}

/* ---- the trace ------------------------------------------------------------
 */

static void writeJsonString(FILE *f, const char *s) {
  fputc('"', f);
  for (const unsigned char *p = (const unsigned char *)s; *p; ++p) {
    if (*p == '"' || *p == '\\')
      fprintf(f, "\\%c", *p);
    else if (*p < 0x20)
      fprintf(f, "\\u%04x", *p);
    else
      fputc(*p, f);
  }
  fputc('"', f);
}

/* Writes the JSON of the run `r` (Chrome's trace event format: one
 * complete event per record, times in microseconds) to `f`. */
static void writeTrace(FILE *f, const KilnModel *m, const Samples *s, int64_t r,
                       const char *model) {
  fprintf(f, "{\"traceEvents\":[");
  for (int64_t k = 0; k < s->numRecords; ++k) {
    char *name = NULL, *types = NULL;
    size_t nameLen, typesLen;
    FILE *nf = open_memstream(&name, &nameLen);
    FILE *tf = open_memstream(&types, &typesLen);
    if (!nf || !tf)
      abort();
    joinNodes(m, k, false, ", ", nf);
    joinNodes(m, k, true, ",", tf);
    fclose(nf);
    fclose(tf);
    char shape[128];
    formatShape(m, k, shape, sizeof(shape));
    fprintf(f, "%s\n{\"name\":", k ? "," : "");
    writeJsonString(f, name);
    fprintf(f, ",\"cat\":");
    writeJsonString(f, types);
    fprintf(f,
            ",\"ph\":\"X\",\"ts\":%.3f,\"dur\":%.3f,\"pid\":1,\"tid\":1,"
            "\"args\":{\"record\":%lld,\"op_types\":",
            1e-3 * (double)s->start[k * s->runs + r],
            1e-3 * (double)s->dur[k * s->runs + r], (long long)k);
    writeJsonString(f, types);
    fprintf(f, ",\"output\":");
    writeJsonString(f, shape);
    fprintf(f, ",\"flops\":%lld}}",
            (long long)kilnModelGetProfileRecordFlops(m, k));
    free(name);
    free(types);
  }
  fprintf(f, "\n],\"displayTimeUnit\":\"ms\",\"otherData\":{\"model\":");
  writeJsonString(f, model);
  fprintf(f, ",\"run_us\":%.3f,\"records\":%lld}}\n", 1e-3 * (double)s->wall[r],
          (long long)s->numRecords);
}

/* The run whose kilnModelRun time is nearest the median. */
static int64_t representativeRun(const Samples *s, double runNs) {
  int64_t best = 0;
  for (int64_t r = 1; r < s->runs; ++r)
    if (llabs(s->wall[r] - (int64_t)runNs) <
        llabs(s->wall[best] - (int64_t)runNs))
      best = r;
  return best;
}

static bool publishTrace(KilnRunTraceFile *trace, const KilnModel *m,
                         const Samples *s, double runNs, const char *model) {
  FILE *f = fdopen(trace->fd, "w");
  if (!f) {
    kilnRunError("cannot write the profile trace '%s': %s", trace->path,
                 strerror(errno));
    return false;
  }
  trace->fd = -1; /* the stream owns it now */
  writeTrace(f, m, s, representativeRun(s, runNs), model);
  bool ok = !ferror(f);
  ok = fclose(f) == 0 && ok;
  if (ok && rename(trace->tmpPath, trace->path) == 0)
    return true;
  kilnRunError("cannot write the profile trace '%s': %s", trace->path,
               strerror(errno));
  unlink(trace->tmpPath);
  return false;
}

int kilnRunProfile(const Options *o, KilnModel *m, KilnTensor **args,
                   KilnTensor **outputs, KilnRunTraceFile *trace) {
  Samples s = {.numRecords = kilnModelGetNumProfileRecords(m),
               .runs = o->benchmark ? o->benchmark : kDefaultProfileRuns};
  KilnStatus *st = measure(m, args, outputs, &s);
  if (st) {
    kilnRunError("profile run: %s", kilnStatusGetMessage(st));
    kilnStatusDestroy(st);
    samplesDestroy(&s);
    return kExitCompile;
  }
  Row *rows = calloc((size_t)s.numRecords + 1, sizeof(Row));
  if (!rows)
    abort();
  for (int64_t k = 0; k < s.numRecords; ++k)
    rows[k] = (Row){k, median(s.dur + k * s.runs, s.runs)};
  qsort(rows, (size_t)s.numRecords, sizeof(Row), compareRows);
  double runNs = median(s.wall, s.runs);
  printTable(o, m, &s, rows, runNs);
  int rc = kExitPass;
  if (trace->fd >= 0 && !publishTrace(trace, m, &s, runNs, o->model))
    rc = kExitUsage;
  free(rows);
  samplesDestroy(&s);
  return rc;
}

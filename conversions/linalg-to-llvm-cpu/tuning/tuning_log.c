/* The tuning log: one JSON object per line, appended by kiln-tune after
 * each measurement (docs/kiln-tune.md), read with Jansson:
 *
 *   {"kiln": "0.1.0", "defaults": 2, "key": "3f0c9a1e5b7d2c44",
 *    "workload": "conv_epilogue: conv 1x64x56x56 * 64x64x3x3 + relu",
 *    "target": "x86_64-pc-linux-gnu", "cpu": "znver4",
 *    "features": "+avx2,...", "threads": 2,
 *    "schedule": {"kiln-tile-and-vectorize": {"rows": 4}},
 *    "seconds": 0.000153}
 *
 * `seconds` is null for a candidate that failed (it crashed, timed out or
 * computed something else), with the reason in "error". Lines are
 * independent, so a log survives being cut short, and two logs merge by
 * concatenation. A schedule measured several times counts with the median
 * of its times; the fastest schedule of each key wins, one that ever
 * failed never does. */
#define _GNU_SOURCE /* getline, strdup */
#include "kiln/tuning.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "kiln/diagnostics.h"
#include "kiln/kiln.h"
#include "mlir-c/BuiltinAttributes.h"
#include "support/schedule_record.h"
#include "llvm-c/Core.h"
#include "llvm-c/TargetMachine.h"

typedef struct Record {
  char key[17];
  KilnTuningSchedule schedule;
  double seconds; /* < 0: invalid */
} Record;

struct KilnTuningLog {
  Record *records;
  size_t len, cap;
  size_t *best; /* per distinct key with a valid record: index of the best */
  size_t numBest;
};

/* Warnings about records for another target, grouped by reason. */
typedef struct Skipped {
  char *reason;
  long firstLine;
  long count;
} Skipped;

typedef struct Loader {
  const char *path;
  const KilnTuningTarget *target;
  MlirStringCallback warn, error;
  void *warnData, *errorData;
  Skipped *skipped;
  size_t numSkipped;
  int corruptLines;
} Loader;

enum { kMaxCorruptWarnings = 10 };

static void message(MlirStringCallback cb, void *data, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void message(MlirStringCallback cb, void *data, const char *fmt, ...) {
  KilnStrBuf buf = {0};
  va_list ap;
  va_start(ap, fmt);
  kilnStrBufAppendv(&buf, fmt, ap);
  va_end(ap);
  if (cb)
    cb(mlirStringRefCreateFromCString(kilnStrBufGet(&buf)), data);
  kilnStrBufDestroy(&buf);
}

static void skip(Loader *l, long line, const char *reason) {
  for (size_t i = 0; i < l->numSkipped; ++i)
    if (!strcmp(l->skipped[i].reason, reason)) {
      ++l->skipped[i].count;
      return;
    }
  Skipped *s = realloc(l->skipped, (l->numSkipped + 1) * sizeof(*s));
  if (!s)
    abort();
  l->skipped = s;
  s[l->numSkipped++] = (Skipped){strdup(reason), line, 1};
}

static void corrupt(Loader *l, long line, const char *why) {
  if (++l->corruptLines <= kMaxCorruptWarnings)
    message(l->warn, l->warnData, "%s:%ld: skipped: %s", l->path, line, why);
}

static bool isKey(const char *s) {
  if (strlen(s) != 16)
    return false;
  for (; *s; ++s)
    if (!((*s >= '0' && *s <= '9') || (*s >= 'a' && *s <= 'f')))
      return false;
  return true;
}

/* Reads "schedule" into `out`; false after an error naming the record. */
static bool readSchedule(Loader *l, long line, const char *key, json_t *sched,
                         KilnTuningSchedule *out) {
  memset(out, 0, sizeof(*out));
  const char *pass;
  json_t *options;
  json_object_foreach(sched, pass, options) {
    if (!json_is_object(options)) {
      message(l->error, l->errorData,
              "%s:%ld: record for workload %s: the options of '%s' are not "
              "an object",
              l->path, line, key, pass);
      return false;
    }
    const char *option;
    json_t *value;
    json_object_foreach(options, option, value) {
      intptr_t k = kilnTuningKnobLookup(mlirStringRefCreateFromCString(pass),
                                        mlirStringRefCreateFromCString(option));
      if (k < 0) {
        message(l->error, l->errorData,
                "%s:%ld: record for workload %s: '%s' '%s' is not a knob "
                "kiln-tune sets (docs/kiln-tune.md lists them)",
                l->path, line, key, pass, option);
        return false;
      }
      const KilnTuningKnob *knob = kilnTuningKnobGetAt(k);
      int64_t v = 0;
      bool typed = knob->kind == KILN_PASS_OPTION_BOOL ? json_is_boolean(value)
                                                       : json_is_integer(value);
      if (typed)
        v = knob->kind == KILN_PASS_OPTION_BOOL ? json_is_true(value)
                                                : json_integer_value(value);
      int choice = 0;
      for (int i = 0; typed && i < knob->numValues && !choice; ++i)
        if (knob->values[i] == v)
          choice = i + 1;
      if (!choice) {
        KilnStrBuf allowed = {0};
        for (int i = 0; i < knob->numValues; ++i)
          kilnStrBufAppendf(&allowed, i ? ", %ld" : "%ld",
                            (long)knob->values[i]);
        char *text = json_dumps(value, JSON_ENCODE_ANY);
        message(l->error, l->errorData,
                "%s:%ld: record for workload %s: %s %s=%s is out of range "
                "(kiln-tune tries %s%s)",
                l->path, line, key, pass, option, text ? text : "?",
                knob->kind == KILN_PASS_OPTION_BOOL ? "true, false"
                                                    : kilnStrBufGet(&allowed),
                knob->kind == KILN_PASS_OPTION_BOOL ? "" : " or the default");
        free(text);
        kilnStrBufDestroy(&allowed);
        return false;
      }
      out->choice[k] = (uint8_t)choice;
    }
  }
  return true;
}

static const char *stringField(json_t *obj, const char *name) {
  json_t *v = json_object_get(obj, name);
  return json_is_string(v) ? json_string_value(v) : NULL;
}

/* Why a record for (version, defaults revision, triple, cpu, features)
 * does not apply to this compile, in `why`; false when it applies. */
static bool foreignReason(const Loader *l, const char *version,
                          long long defaults, const char *triple,
                          const char *cpu, const char *features,
                          KilnStrBuf *why) {
  const KilnTuningTarget *t = l->target;
  if (strcmp(version, KILN_VERSION_STRING))
    kilnStrBufAppendf(why, "tuned by Kiln %s, this is Kiln %s", version,
                      KILN_VERSION_STRING);
  else if (defaults != KILN_TUNING_DEFAULTS_REVISION)
    kilnStrBufAppendf(why,
                      "tuned against revision %lld of the default "
                      "schedules, this Kiln has revision %d",
                      defaults, KILN_TUNING_DEFAULTS_REVISION);
  else if (strcmp(triple, t->triple))
    kilnStrBufAppendf(why, "tuned for target %s, this compile is for %s",
                      triple, t->triple);
  else if (strcmp(cpu, t->cpu))
    kilnStrBufAppendf(why, "tuned for CPU %s, this compile is for %s", cpu,
                      t->cpu);
  else if (strcmp(features, t->features))
    kilnStrBufAppendf(why, "tuned for CPU %s with other features", cpu);
  else
    return false;
  return true;
}

/* One line; false after a hard error (reported). */
static bool loadLine(Loader *l, KilnTuningLog *log, const char *text,
                     long line) {
  json_error_t err;
  json_t *obj = json_loads(text, JSON_REJECT_DUPLICATES, &err);
  if (!obj) {
    KilnStrBuf why = {0};
    kilnStrBufAppendf(&why, "column %d: not JSON (%s)", err.column, err.text);
    corrupt(l, line, kilnStrBufGet(&why));
    kilnStrBufDestroy(&why);
    return true;
  }
  bool ok = true;
  const char *key = stringField(obj, "key");
  const char *version = stringField(obj, "kiln");
  const char *triple = stringField(obj, "target");
  const char *cpu = stringField(obj, "cpu");
  const char *features = stringField(obj, "features");
  json_t *sched = json_object_get(obj, "schedule");
  json_t *seconds = json_object_get(obj, "seconds");
  if (!json_is_object(obj) || !key || !isKey(key) || !version || !triple ||
      !cpu || !features || !json_is_object(sched) ||
      !(json_is_number(seconds) || json_is_null(seconds))) {
    corrupt(l, line,
            "not a tuning record (it needs \"kiln\", \"key\" (16 hex "
            "digits), \"target\", \"cpu\", \"features\", \"schedule\" and "
            "\"seconds\")");
    goto out;
  }
  Record r = {.seconds =
                  json_is_null(seconds) ? -1.0 : json_number_value(seconds)};
  memcpy(r.key, key, 17);
  if (!(ok = readSchedule(l, line, key, sched, &r.schedule)))
    goto out;
  KilnStrBuf why = {0};
  /* Records without "defaults" predate the revisions: revision 1. */
  json_t *defaults = json_object_get(obj, "defaults");
  long long revision =
      json_is_integer(defaults) ? json_integer_value(defaults) : 1;
  if (foreignReason(l, version, revision, triple, cpu, features, &why)) {
    skip(l, line, kilnStrBufGet(&why));
    kilnStrBufDestroy(&why);
    goto out;
  }
  kilnStrBufDestroy(&why);
  if (log->len == log->cap) {
    log->cap = log->cap ? 2 * log->cap : 64;
    log->records = realloc(log->records, log->cap * sizeof(Record));
    if (!log->records)
      abort();
  }
  log->records[log->len++] = r;
out:
  json_decref(obj);
  return ok;
}

static int compareSeconds(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* qsort's comparison of records by key, then schedule. */
static int compareRecords(const void *a, const void *b) {
  const Record *x = a, *y = b;
  int c = strcmp(x->key, y->key);
  return c ? c : memcmp(&x->schedule, &y->schedule, sizeof(x->schedule));
}

/* The best schedule of each key. A schedule measured several times counts
 * with the median of its times, and one that failed once is never chosen:
 * kiln-tune measures its best candidates again at the end, so a candidate
 * timed once in a quiet moment of a noisy machine does not win on that
 * one time. Sorts the records by key and schedule. */
static void indexBest(KilnTuningLog *log) {
  if (log->len) /* records is NULL when empty */
    qsort(log->records, log->len, sizeof(Record), compareRecords);
  log->best = malloc((log->len + 1) * sizeof(*log->best));
  double *times = malloc((log->len + 1) * sizeof(*times));
  if (!log->best || !times)
    abort();
  double bestSeconds = 0;
  for (size_t i = 0, next; i < log->len; i = next) {
    /* [i, next): one key's measurements of one schedule. */
    bool failed = false;
    size_t n = 0;
    for (next = i; next < log->len &&
                   !compareRecords(&log->records[i], &log->records[next]);
         ++next) {
      failed = failed || log->records[next].seconds < 0;
      times[n++] = log->records[next].seconds;
    }
    if (failed)
      continue;
    qsort(times, n, sizeof(*times), compareSeconds);
    double median =
        n % 2 ? times[n / 2] : (times[n / 2 - 1] + times[n / 2]) / 2;
    bool newKey =
        !log->numBest || strcmp(log->records[log->best[log->numBest - 1]].key,
                                log->records[i].key);
    if (newKey) {
      log->best[log->numBest++] = i;
      bestSeconds = median;
    } else if (median < bestSeconds) {
      log->best[log->numBest - 1] = i;
      bestSeconds = median;
    }
  }
  free(times);
}

KilnTuningLog *
kilnTuningLogLoad(const char *path, const KilnTuningTarget *target,
                  MlirStringCallback warningCallback, void *warningUserData,
                  MlirStringCallback errorCallback, void *errorUserData) {
  FILE *f = fopen(path, "r");
  if (!f) {
    message(errorCallback, errorUserData, "cannot read tuning log '%s': %s",
            path, strerror(errno));
    return NULL;
  }
  KilnTuningLog *log = calloc(1, sizeof(*log));
  if (!log)
    abort();
  Loader l = {path,
              target,
              warningCallback,
              errorCallback,
              warningUserData,
              errorUserData,
              NULL,
              0,
              0};
  char *text = NULL;
  size_t cap = 0;
  ssize_t n;
  bool ok = true;
  for (long line = 1; ok && (n = getline(&text, &cap, f)) >= 0; ++line) {
    while (n > 0 && (text[n - 1] == '\n' || text[n - 1] == '\r'))
      text[--n] = 0;
    if (n > 0 && (size_t)n != strlen(text))
      corrupt(&l, line, "a NUL byte in the line");
    else if (n > 0)
      ok = loadLine(&l, log, text, line);
  }
  if (ok && ferror(f)) {
    message(errorCallback, errorUserData, "cannot read tuning log '%s': %s",
            path, strerror(errno));
    ok = false;
  }
  free(text);
  fclose(f);
  if (ok && l.corruptLines > kMaxCorruptWarnings)
    message(warningCallback, warningUserData,
            "%s: %d more corrupt lines skipped", path,
            l.corruptLines - kMaxCorruptWarnings);
  for (size_t i = 0; i < l.numSkipped; ++i) {
    if (ok)
      message(warningCallback, warningUserData,
              "%s:%ld: %ld record%s skipped: %s", path, l.skipped[i].firstLine,
              l.skipped[i].count, l.skipped[i].count == 1 ? "" : "s",
              l.skipped[i].reason);
    free(l.skipped[i].reason);
  }
  free(l.skipped);
  if (!ok) {
    kilnTuningLogDestroy(log);
    return NULL;
  }
  indexBest(log);
  return log;
}

void kilnTuningLogDestroy(KilnTuningLog *log) {
  if (!log)
    return;
  free(log->records);
  free(log->best);
  free(log);
}

intptr_t kilnTuningLogGetNumWorkloads(const KilnTuningLog *log) {
  return (intptr_t)log->numBest;
}

bool kilnTuningLogLookup(const KilnTuningLog *log, const char *key,
                         KilnTuningSchedule *schedule) {
  for (size_t b = 0; b < log->numBest; ++b) {
    const Record *r = &log->records[log->best[b]];
    if (!strcmp(r->key, key)) {
      *schedule = r->schedule;
      return true;
    }
  }
  return false;
}

intptr_t kilnTuningLogGetNumRecords(const KilnTuningLog *log) {
  return (intptr_t)log->len;
}

void kilnTuningLogGetRecord(const KilnTuningLog *log, intptr_t i,
                            const char **key, KilnTuningSchedule *schedule,
                            double *seconds) {
  const Record *r = &log->records[i];
  *key = r->key;
  *schedule = r->schedule;
  *seconds = r->seconds;
}

char *kilnTuningRecordCreateLine(const char *key, const char *workload,
                                 const KilnTuningTarget *target, int threads,
                                 const KilnTuningSchedule *schedule,
                                 double seconds, const char *error) {
  json_t *sched = json_object();
  for (intptr_t i = 0; i < kilnTuningKnobGetCount(); ++i) {
    if (!schedule->choice[i])
      continue;
    const KilnTuningKnob *k = kilnTuningKnobGetAt(i);
    json_t *opts = json_object_get(sched, k->pass);
    if (!opts) {
      opts = json_object();
      json_object_set_new(sched, k->pass, opts);
    }
    int64_t v = k->values[schedule->choice[i] - 1];
    json_object_set_new(opts, k->option,
                        k->kind == KILN_PASS_OPTION_BOOL ? json_boolean(v)
                                                         : json_integer(v));
  }
  json_t *obj = json_object();
  json_object_set_new(obj, "kiln", json_string(KILN_VERSION_STRING));
  json_object_set_new(obj, "defaults",
                      json_integer(KILN_TUNING_DEFAULTS_REVISION));
  json_object_set_new(obj, "key", json_string(key));
  json_object_set_new(obj, "workload", json_string(workload));
  json_object_set_new(obj, "target", json_string(target->triple));
  json_object_set_new(obj, "cpu", json_string(target->cpu));
  json_object_set_new(obj, "features", json_string(target->features));
  json_object_set_new(obj, "threads", json_integer(threads));
  json_object_set_new(obj, "schedule", sched);
  json_object_set_new(obj, "seconds",
                      seconds >= 0 ? json_real(seconds) : json_null());
  if (error)
    json_object_set_new(obj, "error", json_string(error));
  char *line = json_dumps(obj, JSON_COMPACT | JSON_PRESERVE_ORDER);
  json_decref(obj);
  if (!line)
    abort();
  return line;
}

void kilnTuningRecordLineDestroy(char *line) { free(line); }

/* ---- targets ------------------------------------------------------------- */

static char *ownLLVMString(char *s) {
  char *copy = strdup(s ? s : "");
  if (!copy)
    abort();
  LLVMDisposeMessage(s);
  return copy;
}

void kilnTuningTargetCreate(const char *triple, const char *cpu,
                            const char *features, KilnTuningTarget *target) {
  if (!triple || !*triple) {
    target->triple = ownLLVMString(LLVMGetDefaultTargetTriple());
    target->cpu = ownLLVMString(LLVMGetHostCPUName());
    target->features = ownLLVMString(LLVMGetHostCPUFeatures());
    return;
  }
  target->triple = kilnStrDup(triple);
  target->cpu = kilnStrDup(cpu ? cpu : "generic");
  target->features = kilnStrDup(features ? features : "");
}

void kilnTuningTargetDestroy(KilnTuningTarget *target) {
  free((char *)target->triple);
  free((char *)target->cpu);
  free((char *)target->features);
  memset(target, 0, sizeof(*target));
}

/* ---- applying ------------------------------------------------------------ */

typedef struct ApplyState {
  const KilnTuningLog *log;
  intptr_t applied;
} ApplyState;

static void attach(MlirOperation op, MlirAttribute record) {
  mlirOperationSetLocation(
      op, kilnScheduleRecordAttach(mlirOperationGetLocation(op), record));
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
        attach(o, record);
}

static void applyOne(const KilnWorkload *w, void *userData) {
  ApplyState *s = userData;
  KilnTuningSchedule schedule;
  if (!kilnTuningLogLookup(s->log, w->key, &schedule))
    return;
  bool any = false;
  for (size_t i = 0; i < sizeof(schedule.choice) && !any; ++i)
    any = schedule.choice[i] != 0;
  if (!any)
    return; /* the default schedule won */
  MlirAttribute record =
      kilnTuningScheduleGetAttribute(mlirOperationGetContext(w->op), &schedule);
  attach(w->op, record);
  ++s->applied;
}

intptr_t kilnTuningLogApply(const KilnTuningLog *log, MlirOperation root,
                            intptr_t *numWorkloads) {
  ApplyState s = {log, 0};
  intptr_t n = kilnWorkloadsWalk(root, applyOne, &s);
  if (numWorkloads)
    *numWorkloads = n;
  return s.applied;
}

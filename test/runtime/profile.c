/* Unit tests of the runtime's profile API (kilnModel*Profile*). Prints to
 * stderr for FileCheck (model-profile.test):
 *
 *   kiln-test-profile metadata          crafted profile records through
 *                                       the metadata parser
 *   kiln-test-profile run LIB X.npy     the records of a profiled library,
 *                                       its timings after runs and a
 *                                       reset, and bad calls
 *   kiln-test-profile plain LIB         a library built without --profile */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_runtime.h"
#include "runtime/model.h"

/* Prints "LABEL: error: MSG" or "LABEL: ok" and releases `s`. */
static void report(const char *label, KilnStatus *s) {
  if (s)
    fprintf(stderr, "%s: error: %s\n", label, kilnStatusGetMessage(s));
  else
    fprintf(stderr, "%s: ok\n", label);
  kilnStatusDestroy(s);
}

static void parseOne(const char *label, const char *text) {
  KilnModelMetadata m;
  KilnStatus *s = kilnModelMetadataParse(text, strlen(text), &m);
  if (s) {
    report(label, s);
    return;
  }
  fprintf(stderr, "%s: ok, profiled %d, %lld records", label, m.profiled,
          (long long)m.numProfileOps);
  for (int64_t i = 0; i < m.numProfileOps; ++i) {
    const KilnModelProfileOp *op = &m.profileOps[i];
    fprintf(stderr, "; flops %lld rank %lld", (long long)op->flops,
            (long long)op->rank);
    for (int64_t j = 0; j < op->numNodes; ++j)
      fprintf(stderr, " %s '%s'", op->opTypes[j], op->names[j]);
  }
  fprintf(stderr, "\n");
  kilnModelMetadataDestroy(&m);
}

#define HEAD "kiln-model 1\nkiln-version 0.1.0\ntarget x86_64-pc-linux-gnu\n"

static int testMetadata(void) {
  fprintf(stderr, "TEST: metadata\n");
  parseOne("none", HEAD);
  parseOne("empty", HEAD "profile 0\n");
  parseOne("two", HEAD "profile 2\nprofile-op 0 96 2 2 4 2 Conv a%20b Relu "
                       "c%25\nprofile-op 1 0 - 1 MaxPool p\n");
  parseOne("negative_count", HEAD "profile 1\n");
  parseOne("negative_extra", HEAD "profile 0\nprofile-op 0 0 - 1 Relu r\n");
  parseOne("negative_before", HEAD "profile-op 0 0 - 1 Relu r\nprofile 1\n");
  parseOne("negative_order", HEAD "profile 2\nprofile-op 1 0 - 1 Relu r\n"
                                  "profile-op 0 0 - 1 Relu r\n");
  parseOne("negative_no name", HEAD "profile 1\nprofile-op 0 0 - 1 Relu\n");
  parseOne("negative_nodes", HEAD "profile 1\nprofile-op 0 0 - 2 Relu r\n");
  parseOne("negative_trailing", HEAD "profile 1\nprofile-op 0 0 - 0 x\n");
  parseOne("negative_rank", HEAD "profile 1\nprofile-op 0 0 65 1 Relu r\n");
  parseOne("negative_dims", HEAD "profile 1\nprofile-op 0 0 2 3 1 Relu r\n");
  parseOne("negative_two", HEAD "profile 0\nprofile 0\n");
  parseOne("negative_huge", HEAD "profile 99999999999\n");
  return 0;
}

static void printRecords(const KilnModel *m) {
  int64_t n = kilnModelGetNumProfileRecords(m);
  fprintf(stderr, "profiled %d, %lld records\n", kilnModelIsProfiled(m),
          (long long)n);
  for (int64_t i = 0; i < n; ++i) {
    fprintf(stderr, "record %lld: flops %lld shape", (long long)i,
            (long long)kilnModelGetProfileRecordFlops(m, i));
    for (int64_t d = 0; d < kilnModelGetProfileRecordRank(m, i); ++d)
      fprintf(stderr, "%s%lld", d ? "x" : " ",
              (long long)kilnModelGetProfileRecordDims(m, i)[d]);
    for (int64_t j = 0; j < kilnModelGetProfileRecordNumNodes(m, i); ++j)
      fprintf(stderr, " %s '%s'", kilnModelGetProfileRecordNodeOpType(m, i, j),
              kilnModelGetProfileRecordNodeName(m, i, j));
    fprintf(stderr, "\n");
  }
}

/* Checks the timings after `runs` runs: every record ran that often, its
 * last time is at most its total and starts within the run; the records'
 * last times add up to at most the whole run's. */
static void checkTimes(const KilnModel *m, int64_t runs) {
  int64_t n = kilnModelGetNumProfileRecords(m), sum = 0;
  KilnProfileTimes whole;
  report("whole run", kilnModelGetProfileTimes(m, n, &whole));
  bool ok = whole.runs == runs && whole.lastStartNs == 0;
  for (int64_t i = 0; i < n; ++i) {
    KilnProfileTimes t;
    KilnStatus *s = kilnModelGetProfileTimes(m, i, &t);
    ok = ok && !s && t.runs == runs && t.lastNs <= t.totalNs &&
         (runs == 0 || t.lastNs > 0) && t.lastStartNs >= 0 &&
         t.lastStartNs + t.lastNs <= whole.lastNs;
    sum += t.lastNs;
    kilnStatusDestroy(s);
  }
  ok = ok && sum <= whole.lastNs;
  fprintf(stderr, "times after %lld runs: %s\n", (long long)runs,
          ok ? "consistent" : "INCONSISTENT");
}

static int testRun(const char *path, const char *input) {
  fprintf(stderr, "TEST: run\n");
  KilnModel *m = NULL;
  KilnTensor *x = NULL, *y = NULL;
  report("load", kilnModelLoad(path, &m));
  report("input", kilnTensorReadNpyFile(input, &x));
  if (!m || !x)
    return 1;
  report("output", kilnTensorCreate(kilnModelGetOutputElementType(m, 0),
                                    kilnModelGetOutputRank(m, 0),
                                    kilnModelGetOutputDims(m, 0), &y));
  printRecords(m);
  checkTimes(m, 0);
  for (int i = 0; i < 3; ++i)
    report("run", kilnModelRun(m, &x, 1, &y, 1));
  checkTimes(m, 3);
  report("reset", kilnModelResetProfile(m));
  checkTimes(m, 0);
  report("run", kilnModelRun(m, &x, 1, &y, 1));
  checkTimes(m, 1);

  fprintf(stderr, "TEST: negative_run\n");
  KilnProfileTimes t;
  int64_t n = kilnModelGetNumProfileRecords(m);
  report("index -1", kilnModelGetProfileTimes(m, -1, &t));
  report("index past", kilnModelGetProfileTimes(m, n + 1, &t));
  report("null out", kilnModelGetProfileTimes(m, 0, NULL));
  report("null model", kilnModelGetProfileTimes(NULL, 0, &t));
  report("reset null", kilnModelResetProfile(NULL));
  fprintf(stderr, "out of range: flops %lld rank %lld nodes %lld name %s\n",
          (long long)kilnModelGetProfileRecordFlops(m, n),
          (long long)kilnModelGetProfileRecordRank(m, -1),
          (long long)kilnModelGetProfileRecordNumNodes(m, n),
          kilnModelGetProfileRecordNodeName(m, 0, 99) ? "set" : "NULL");
  fprintf(stderr, "null model: profiled %d records %lld\n",
          kilnModelIsProfiled(NULL),
          (long long)kilnModelGetNumProfileRecords(NULL));
  kilnTensorDestroy(x);
  kilnTensorDestroy(y);
  kilnModelDestroy(m);
  return 0;
}

static int testPlain(const char *path) {
  fprintf(stderr, "TEST: plain\n");
  KilnModel *m = NULL;
  report("load", kilnModelLoad(path, &m));
  if (!m)
    return 1;
  printRecords(m);
  KilnProfileTimes t;
  report("times", kilnModelGetProfileTimes(m, 0, &t));
  report("reset", kilnModelResetProfile(m));
  kilnModelDestroy(m);
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 2 && !strcmp(argv[1], "metadata"))
    return testMetadata();
  if (argc == 4 && !strcmp(argv[1], "run"))
    return testRun(argv[2], argv[3]);
  if (argc == 3 && !strcmp(argv[1], "plain"))
    return testPlain(argv[2]);
  fprintf(stderr, "usage: kiln-test-profile metadata | run LIB X.npy | "
                  "plain LIB\n");
  return 2;
}

/* kiln-test-concurrent LIB INPUT.npy EXPECTED.npy: four threads run one
 * model library at once, two through one KilnModel and two through a
 * second KilnModel loaded from the same file (one dlopen handle). Every
 * kilnModelRun must either compute the expected output or be refused as
 * "already running" (runtime/run_guard.h); nothing else. Built with
 * ThreadSanitizer by concurrent-runs.test. Prints the counts. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "kiln/kiln_runtime.h"
#include "runtime/run_guard.h"

enum { kThreads = 4, kRuns = 40 };

typedef struct Worker {
  KilnModel *model;
  const KilnTensor *input, *expected;
  int ok, refused, failed, wrong;
} Worker;

static bool matches(const KilnTensor *got, const KilnTensor *want) {
  const float *g = kilnTensorGetConstData(got);
  const float *w = kilnTensorGetConstData(want);
  for (int64_t i = 0; i < kilnTensorGetElementCount(want); ++i)
    if (!(fabsf(g[i] - w[i]) <= 1e-4f + 1e-3f * fabsf(w[i])))
      return false;
  return true;
}

static void *work(void *arg) {
  Worker *w = arg;
  KilnTensor *out = NULL;
  KilnStatus *s = kilnTensorCreate(kilnTensorGetElementType(w->expected),
                                   kilnTensorGetRank(w->expected),
                                   kilnTensorGetDims(w->expected), &out);
  if (s) {
    kilnStatusDestroy(s);
    w->failed = kRuns;
    return NULL;
  }
  KilnTensor *in = (KilnTensor *)w->input; /* only read by the run */
  for (int r = 0; r < kRuns; ++r) {
    memset(kilnTensorGetData(out), 0, kilnTensorGetByteSize(out));
    s = kilnModelRun(w->model, &in, 1, &out, 1);
    if (!s)
      matches(out, w->expected) ? ++w->ok : ++w->wrong;
    else if (strstr(kilnStatusGetMessage(s), "is already running on another "
                                             "thread"))
      ++w->refused;
    else {
      fprintf(stderr, "run failed: %s\n", kilnStatusGetMessage(s));
      ++w->failed;
    }
    kilnStatusDestroy(s);
  }
  kilnTensorDestroy(out);
  return NULL;
}

/* The guard alone, deterministically: a second entry of one handle is
 * refused until the first exits; other handles are independent. */
static void testGuard(void) {
  int a, b;
  KilnStatus *first = kilnRunGuardEnter(&a, "a.so");
  KilnStatus *again = kilnRunGuardEnter(&a, "a.so");
  KilnStatus *other = kilnRunGuardEnter(&b, "b.so");
  printf("guard: first %s, again %s, other %s\n", first ? "refused" : "ok",
         again ? kilnStatusGetMessage(again) : "ok", other ? "refused" : "ok");
  kilnRunGuardExit(&a);
  KilnStatus *after = kilnRunGuardEnter(&a, "a.so");
  printf("guard: after exit %s\n", after ? "refused" : "ok");
  kilnRunGuardExit(&a);
  kilnRunGuardExit(&b);
  kilnStatusDestroy(first);
  kilnStatusDestroy(again);
  kilnStatusDestroy(other);
  kilnStatusDestroy(after);
}

int main(int argc, char **argv) {
  testGuard();
  if (argc != 4) {
    fprintf(stderr, "usage: kiln-test-concurrent LIB INPUT.npy EXPECTED.npy\n");
    return 2;
  }
  KilnModel *models[2] = {NULL, NULL};
  KilnTensor *input = NULL, *expected = NULL;
  KilnStatus *s = kilnModelLoad(argv[1], &models[0]);
  if (!s)
    s = kilnModelLoad(argv[1], &models[1]);
  if (!s)
    s = kilnTensorReadNpyFile(argv[2], &input);
  if (!s)
    s = kilnTensorReadNpyFile(argv[3], &expected);
  if (s) {
    fprintf(stderr, "error: %s\n", kilnStatusGetMessage(s));
    return 1;
  }
  Worker w[kThreads];
  pthread_t t[kThreads];
  for (int i = 0; i < kThreads; ++i) {
    w[i] = (Worker){models[i % 2], input, expected, 0, 0, 0, 0};
    pthread_create(&t[i], NULL, work, &w[i]);
  }
  int ok = 0, refused = 0, failed = 0, wrong = 0;
  for (int i = 0; i < kThreads; ++i) {
    pthread_join(t[i], NULL);
    ok += w[i].ok;
    refused += w[i].refused;
    failed += w[i].failed;
    wrong += w[i].wrong;
  }
  fprintf(stderr, "%d computed, %d refused\n", ok, refused);
  printf("runs: %d (%s), %d failed otherwise, %d wrong\n", ok + refused,
         ok ? "some computed" : "none computed", failed, wrong);
  kilnTensorDestroy(input);
  kilnTensorDestroy(expected);
  kilnModelDestroy(models[0]);
  kilnModelDestroy(models[1]);
  return failed || wrong || !ok;
}

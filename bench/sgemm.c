/* OpenBLAS single-precision GEMM throughput: C = A x B for square n x n
 * row-major matrices (cblas_sgemm), in-process, one JSON line per call.
 *
 *   sgemm N --threads T [--budget S] [--min-iters N] [--max-iters N]
 * [--max-seconds S]
 *
 * Warm-up and timed calls as bench_util.h describes. Prints {"iter": i, "ms":
 * t, "gflops": g} per timed call (2 n^3 FLOPs), then a summary line. One
 * element of C is checked against a double-precision dot product so a
 * broken library cannot report a time. bench/run.sh builds it with the
 * system cc and -lopenblas (Debian's libopenblas-dev). Exit: 0 ran, 1 wrong
 * result, 2 usage. */
#define _POSIX_C_SOURCE 200809L
#include <cblas.h>

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_util.h"

/* C = A x B for benchMeasure. */
typedef struct Gemm {
  int n;
  const float *a, *b;
  float *c;
} Gemm;

static bool runGemm(void *ctx) {
  Gemm *g = ctx;
  cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, g->n, g->n, g->n, 1.0f,
              g->a, g->n, g->b, g->n, 0.0f, g->c, g->n);
  return true;
}

static void report(void *ctx, int iter, double seconds) {
  const Gemm *g = ctx;
  double flops = 2.0 * g->n * g->n * g->n;
  printf("{\"iter\": %d, \"ms\": %.6f, \"gflops\": %.3f}\n", iter,
         1e3 * seconds, flops / seconds * 1e-9);
}

static int usage(void) {
  fprintf(stderr, "usage: sgemm N --threads T [--budget S] [--min-iters N] "
                  "[--max-iters N] [--max-seconds S]\n");
  return 2;
}

int main(int argc, char **argv) {
  int n = 0;
  BenchOptions o = BENCH_OPTIONS_DEFAULT;
  for (int i = 1; i < argc; ++i) {
    if (benchParseOption(&o, argc, argv, &i))
      continue;
    if (argv[i][0] != '-' && !n)
      n = atoi(argv[i]);
    else
      return usage();
  }
  if (n < 1 || n > 16384 || !benchOptionsValid(&o))
    return usage();
  openblas_set_num_threads(o.threads);

  size_t count = (size_t)n * (size_t)n;
  float *a = malloc(count * sizeof(float)), *b = malloc(count * sizeof(float)),
        *c = malloc(count * sizeof(float));
  if (!a || !b || !c) {
    fprintf(stderr, "sgemm: out of memory\n");
    return 2;
  }
  srand(0);
  for (size_t i = 0; i < count; ++i) {
    a[i] = (float)rand() / (float)RAND_MAX - 0.5f;
    b[i] = (float)rand() / (float)RAND_MAX - 0.5f;
  }

  Gemm gemm = {n, a, b, c};
  BenchStats stats;
  benchMeasure(&o, runGemm, report, &gemm, &stats);

  /* One element, C[n-1][n/2], against a double-precision dot product. */
  int row = n - 1, col = n / 2;
  double want = 0;
  for (int k = 0; k < n; ++k)
    want += (double)a[(size_t)row * n + k] * b[(size_t)k * n + col];
  double got = c[(size_t)row * n + col];
  bool ok = fabs(got - want) <= 1e-3 + 1e-3 * fabs(want);
  printf("{\"runtime\": \"openblas\", \"n\": %d, \"threads\": %d, "
         "\"iters\": %d, \"warmup\": %d, \"total_s\": %.6f, \"check\": "
         "\"%s\"}\n",
         n, o.threads, stats.iters, stats.warmups, stats.total,
         ok ? "ok" : "wrong");
  if (!ok)
    fprintf(stderr, "sgemm: C[%d][%d] = %.9g, expected %.9g\n", row, col, got,
            want);
  free(c);
  free(b);
  free(a);
  return ok ? 0 : 1;
}

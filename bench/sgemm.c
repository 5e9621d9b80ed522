/* OpenBLAS single-precision GEMM throughput: C = A x B for square n x n
 * row-major matrices (cblas_sgemm), in-process, one JSON line per call.
 *
 *   sgemm N --threads T [--budget S] [--min-iters N] [--max-iters N]
 * [--max-seconds S]
 *
 * Warm-up and iteration counts as kiln_bench.c. Prints {"iter": i, "ms": t,
 * "gflops": g} per timed call (2 n^3 FLOPs), then a summary line. One
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
#include <time.h>

static double nowSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int usage(void) {
  fprintf(stderr, "usage: sgemm N --threads T [--budget S] [--min-iters N] "
                  "[--max-iters N] [--max-seconds S]\n");
  return 2;
}

int main(int argc, char **argv) {
  int n = 0, threads = 0, minIters = 3, maxIters = 200;
  double budget = 1.0, maxSeconds = 4.0;
  for (int i = 1; i < argc; ++i) {
    const char *a = argv[i];
    bool hasValue = i + 1 < argc;
    if (!strcmp(a, "--threads") && hasValue)
      threads = atoi(argv[++i]);
    else if (!strcmp(a, "--budget") && hasValue)
      budget = atof(argv[++i]);
    else if (!strcmp(a, "--min-iters") && hasValue)
      minIters = atoi(argv[++i]);
    else if (!strcmp(a, "--max-iters") && hasValue)
      maxIters = atoi(argv[++i]);
    else if (!strcmp(a, "--max-seconds") && hasValue)
      maxSeconds = atof(argv[++i]);
    else if (a[0] != '-' && !n)
      n = atoi(a);
    else
      return usage();
  }
  if (n < 1 || n > 16384 || threads < 1 || minIters < 1 || maxIters < minIters)
    return usage();
  openblas_set_num_threads(threads);

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

  double flops = 2.0 * n * n * n, t0 = nowSeconds();
  int warmups = 0;
  do {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n,
                b, n, 0.0f, c, n);
    ++warmups;
  } while (warmups < 20 && nowSeconds() - t0 < 0.1 * budget);

  double start = nowSeconds(), total = 0, last = 0;
  int iters = 0;
  while (iters < maxIters &&
         (iters < minIters || nowSeconds() - start < budget)) {
    /* A slow model stops short of --min-iters rather than overrun. */
    if (iters > 0 && nowSeconds() - start + last > maxSeconds)
      break;
    double t = nowSeconds();
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0f, a, n,
                b, n, 0.0f, c, n);
    t = nowSeconds() - t;
    last = t;
    total += t;
    printf("{\"iter\": %d, \"ms\": %.6f, \"gflops\": %.3f}\n", iters++, 1e3 * t,
           flops / t * 1e-9);
  }

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
         n, threads, iters, warmups, total, ok ? "ok" : "wrong");
  if (!ok)
    fprintf(stderr, "sgemm: C[%d][%d] = %.9g, expected %.9g\n", row, col, got,
            want);
  free(c);
  free(b);
  free(a);
  return ok ? 0 : 1;
}

/* Comparing, printing and saving kiln-run's outputs. */
#include "tools/kiln-run/compare.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tools/kiln-run/options.h"

static bool isFloat(KilnElementType t) {
  return t == KILN_ELEMENT_TYPE_F16 || t == KILN_ELEMENT_TYPE_BF16 ||
         t == KILN_ELEMENT_TYPE_F32 || t == KILN_ELEMENT_TYPE_F64;
}

/* How far element `i` is out of tolerance: 0 when it matches, larger is
 * worse, INFINITY for a NaN mismatch. Integers compare their bytes. */
static double excess(const KilnTensor *got, const KilnTensor *exp, int64_t i,
                     double rtol, double atol) {
  KilnElementType type = kilnTensorGetElementType(got);
  if (!isFloat(type)) {
    size_t size = kilnElementTypeGetSize(type);
    const char *g =
        (const char *)kilnTensorGetConstData(got) + (size_t)i * size;
    const char *e =
        (const char *)kilnTensorGetConstData(exp) + (size_t)i * size;
    if (!memcmp(g, e, size))
      return 0;
    double d = fabs(kilnTensorGetElementAsDouble(got, i) -
                    kilnTensorGetElementAsDouble(exp, i));
    return d > 0 ? d : 1; /* beyond 2^53 the doubles may tie */
  }
  double g = kilnTensorGetElementAsDouble(got, i),
         e = kilnTensorGetElementAsDouble(exp, i);
  if (isnan(g) || isnan(e))
    return isnan(g) && isnan(e) ? 0 : INFINITY;
  if (g == e) /* also equal infinities */
    return 0;
  double d = fabs(g - e), tol = atol + rtol * fabs(e);
  if (d <= tol)
    return 0;
  return tol > 0 ? d / tol : INFINITY;
}

static void printIndex(const KilnTensor *t, int64_t flat) {
  int64_t rank = kilnTensorGetRank(t);
  const int64_t *dims = kilnTensorGetDims(t);
  int64_t idx[KILN_TENSOR_MAX_RANK];
  for (int64_t d = rank - 1; d >= 0; --d) {
    idx[d] = dims[d] ? flat % dims[d] : 0;
    flat = dims[d] ? flat / dims[d] : 0;
  }
  fputc('[', stderr);
  for (int64_t d = 0; d < rank; ++d)
    fprintf(stderr, "%s%" PRId64, d ? ", " : "", idx[d]);
  fputc(']', stderr);
}

void kilnRunDefaultTolerance(KilnElementType type, double *rtol, double *atol) {
  bool half = type == KILN_ELEMENT_TYPE_F16 || type == KILN_ELEMENT_TYPE_BF16;
  *rtol = half ? 1e-2 : 1e-3;
  *atol = half ? 1e-3 : 1e-5;
}

bool kilnRunCompare(const char *name, const KilnTensor *got,
                    const KilnTensor *expected, double rtol, double atol) {
  KilnElementType type = kilnTensorGetElementType(got);
  double defaultRtol, defaultAtol;
  kilnRunDefaultTolerance(type, &defaultRtol, &defaultAtol);
  if (rtol < 0)
    rtol = defaultRtol;
  if (atol < 0)
    atol = defaultAtol;
  int64_t n = kilnTensorGetElementCount(got), bad = 0, worst = -1;
  double worstExcess = 0, largestDiff = 0;
  for (int64_t i = 0; i < n; ++i) {
    double x = excess(got, expected, i, rtol, atol);
    if (x == 0) {
      double d = fabs(kilnTensorGetElementAsDouble(got, i) -
                      kilnTensorGetElementAsDouble(expected, i));
      if (d > largestDiff) /* NaN == NaN and equal infinities: not > */
        largestDiff = d;
      continue;
    }
    ++bad;
    if (worst < 0 || x > worstExcess) {
      worst = i;
      worstExcess = x;
    }
  }
  if (bad == 0) {
    const char *plural = n == 1 ? "" : "s";
    if (isFloat(type))
      printf("%s: output '%s' matches: %" PRId64
             " element%s within rtol %g, atol %g (largest |diff| %.3g)\n",
             kilnRunProgram, name, n, plural, rtol, atol, largestDiff);
    else
      printf("%s: output '%s' matches: %" PRId64 " element%s, exactly\n",
             kilnRunProgram, name, n, plural);
    return true;
  }
  double g = kilnTensorGetElementAsDouble(got, worst),
         e = kilnTensorGetElementAsDouble(expected, worst);
  fprintf(stderr,
          "%s: output '%s' does not match: %" PRId64 " of %" PRId64
          " elements differ (rtol %g, atol %g)\n  worst at flat index %" PRId64
          " ",
          kilnRunProgram, name, bad, n, rtol, atol, worst);
  printIndex(got, worst);
  fprintf(stderr, ": got %.9g, expected %.9g (|diff| %.3g)\n", g, e,
          fabs(g - e));
  return false;
}

void kilnRunReportUnchecked(const Options *o, const char *model,
                            int64_t numOutputs) {
  if (o->numExpected || o->printOutput || o->outputDir || o->benchmark ||
      o->profile)
    return;
  printf("%s: ran '%s': %" PRId64 " output%s, none checked (--expected "
         "NAME=FILE compares one, --print-output shows them)\n",
         kilnRunProgram, model, numOutputs, numOutputs == 1 ? "" : "s");
}

void kilnRunPrint(const char *name, const KilnTensor *t, int64_t limit) {
  KilnElementType type = kilnTensorGetElementType(t);
  printf("%s: %s[", name, kilnElementTypeGetName(type));
  for (int64_t d = 0; d < kilnTensorGetRank(t); ++d)
    printf("%s%" PRId64, d ? "x" : "", kilnTensorGetDims(t)[d]);
  printf("] = [");
  int64_t n = kilnTensorGetElementCount(t);
  for (int64_t i = 0; i < n && i < limit; ++i) {
    double v = kilnTensorGetElementAsDouble(t, i);
    if (isFloat(type))
      printf("%s%.7g", i ? ", " : "", v);
    else
      printf("%s%.0f", i ? ", " : "", v);
  }
  if (n > limit)
    printf(", ... (%" PRId64 " elements)", n);
  printf("]\n");
}

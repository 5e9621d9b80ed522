/* A strided conv_transpose as one stride-1 conv per output phase (the
 * sub-pixel decomposition), instead of one conv over x spread out by the
 * strides, whose window multiplies the inserted zeros too (s^D times the
 * work).
 *
 * With the flipped kernel wt (M x C/G x K..) and the conv-style begin
 * padding pb of the spread input, output position o of a spatial dim reads
 * x[i] through tap k where o + k = K - 1 - pb + i s. Output phase ph
 * (o = j s + ph) therefore only meets the taps k = k0 + t s with
 * (ph + k0 + pb - K + 1) divisible by s, and reads x[j + t + off]: a
 * stride-1 conv of x with those T taps, whose result goes to the output's
 * positions ph, ph + s, ... (an insert_slice with strides). Phases with no
 * tap (kernel smaller than the stride) are the bias alone. */
#include "conversions/graph-to-linalg/lower_conv_window.h"

/* The most phases (product of the strides) lowered this way: each is its
 * own contraction, so a stride-32 FCN upsampler (1024 phases of tiny
 * convs) keeps the single spread conv. */
#define MAX_PHASES 64

/* Phase ph's first tap, tap count, first input offset and output count in
 * one spatial dim. */
typedef struct Phase {
  int64_t k0, taps, off, count;
} Phase;

static int64_t modPositive(int64_t a, int64_t m) { return ((a % m) + m) % m; }

static int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

static Phase phaseOf(const KilnWindow *win, intptr_t i, int64_t pb,
                     int64_t ph) {
  int64_t s = win->strides[i], k = win->kernel[i];
  int64_t c0 = pb - (k - 1);
  Phase p = {.k0 = modPositive(-(ph + c0), s)};
  p.taps = k > p.k0 ? ceilDiv(k - p.k0, s) : 0;
  p.off = (ph + p.k0 + c0) / s; /* exact: divisible by construction */
  p.count = win->out[i] > ph ? ceilDiv(win->out[i] - ph, s) : 0;
  return p;
}

/* The padding of x that every phase's window fits in: lo before, hi after
 * each spatial dim. */
static void inputPadding(const KilnWindow *win, const int64_t *pb, int64_t *lo,
                         int64_t *hi) {
  for (intptr_t i = 0; i < win->n; ++i) {
    lo[i] = hi[i] = 0;
    for (int64_t ph = 0; ph < win->strides[i]; ++ph) {
      Phase p = phaseOf(win, i, pb[i], ph);
      if (p.taps == 0 || p.count == 0)
        continue;
      int64_t first = p.off, last = p.off + p.count + p.taps - 2;
      if (-first > lo[i])
        lo[i] = -first;
      if (last - (win->in[i] - 1) > hi[i])
        hi[i] = last - (win->in[i] - 1);
    }
  }
}

/* One phase (its per-dim Phase in `p`) computed into `y`. */
static MlirValue addPhase(KilnBuilder *b, MlirValue xp, MlirValue wt,
                          MlirValue bias, int64_t group, const KilnWindow *win,
                          const Phase *p, const int64_t *ph, const int64_t *lo,
                          MlirValue y) {
  intptr_t n = win->n, r = n + 2;
  MlirType e = kilnElementType(xp);
  int64_t ys[KILN_MAX_RANK] = {kilnDim(y, 0), kilnDim(y, 1)};
  int64_t yOff[KILN_MAX_RANK] = {0, 0}, yStride[KILN_MAX_RANK] = {1, 1};
  bool empty = false;
  for (intptr_t i = 0; i < n; ++i) {
    ys[2 + i] = p[i].count;
    yOff[2 + i] = ph[i];
    yStride[2 + i] = win->strides[i];
    empty |= p[i].taps == 0;
  }
  MlirType phaseType = kilnTensorType(r, ys, e);
  MlirValue part;
  if (empty) {
    int64_t channelDim = 1;
    part = kilnConvInit(b, bias, phaseType, 1, &channelDim);
  } else {
    KilnWindow pw = {.n = n};
    int64_t xOff[KILN_MAX_RANK] = {0, 0},
            xSize[KILN_MAX_RANK] = {kilnDim(xp, 0), kilnDim(xp, 1)};
    int64_t wOff[KILN_MAX_RANK] = {0, 0},
            wSize[KILN_MAX_RANK] = {kilnDim(wt, 0), kilnDim(wt, 1)};
    int64_t ones[KILN_MAX_RANK], wStride[KILN_MAX_RANK] = {1, 1};
    for (intptr_t i = 0; i < r; ++i)
      ones[i] = 1;
    for (intptr_t i = 0; i < n; ++i) {
      pw.kernel[i] = p[i].taps;
      pw.strides[i] = pw.dilations[i] = 1;
      pw.in[i] = p[i].count + p[i].taps - 1;
      pw.out[i] = p[i].count;
      xOff[2 + i] = lo[i] + p[i].off;
      xSize[2 + i] = pw.in[i];
      wOff[2 + i] = p[i].k0;
      wSize[2 + i] = p[i].taps;
      wStride[2 + i] = win->strides[i];
    }
    MlirValue xs = kilnExtractSlice(b, xp, xOff, xSize, ones);
    MlirValue ws = kilnExtractSlice(b, wt, wOff, wSize, wStride);
    part = kilnConvCore(b, xs, ws, bias, group, &pw, phaseType, 1);
  }
  return kilnInsertSlice(b, part, y, yOff, yStride);
}

MlirValue kilnConvTransposePhases(KilnBuilder *b, MlirValue x, MlirValue wt,
                                  MlirValue bias, int64_t group,
                                  const KilnWindow *win, const int64_t *pb,
                                  MlirType resultType) {
  intptr_t n = win->n, r = n + 2;
  int64_t phases = 1;
  bool strided = false;
  for (intptr_t i = 0; i < n; ++i) {
    if (win->dilations[i] != 1)
      return (MlirValue){NULL};
    strided |= win->strides[i] > 1;
    phases *= win->strides[i];
  }
  if (!strided || phases > MAX_PHASES)
    return (MlirValue){NULL};
  MlirType e = kilnElementType(x);
  int64_t lo[KILN_MAX_RANK], hi[KILN_MAX_RANK];
  inputPadding(win, pb, lo, hi);
  int64_t padShape[KILN_MAX_RANK] = {kilnDim(x, 0), kilnDim(x, 1)};
  int64_t padOff[KILN_MAX_RANK] = {0, 0}, ones[KILN_MAX_RANK];
  bool padded = false;
  for (intptr_t i = 0; i < r; ++i)
    ones[i] = 1;
  for (intptr_t i = 0; i < n; ++i) {
    padShape[2 + i] = lo[i] + win->in[i] + hi[i];
    padOff[2 + i] = lo[i];
    padded |= lo[i] || hi[i];
  }
  MlirValue xp = x;
  if (padded)
    xp = kilnInsertSlice(
        b, x,
        kilnFilled(b, kilnTensorType(r, padShape, e), kilnConstFloat(b, e, 0)),
        padOff, ones);
  MlirValue y = kilnEmpty(b, resultType);
  for (int64_t q = 0; q < phases; ++q) {
    int64_t ph[KILN_MAX_RANK], rest = q;
    Phase p[KILN_MAX_RANK];
    bool none = false;
    for (intptr_t i = n - 1; i >= 0; --i) {
      ph[i] = rest % win->strides[i];
      rest /= win->strides[i];
      p[i] = phaseOf(win, i, pb[i], ph[i]);
      none |= p[i].count == 0;
    }
    if (!none)
      y = addPhase(b, xp, wt, bias, group, win, p, ph, lo, y);
  }
  return y;
}

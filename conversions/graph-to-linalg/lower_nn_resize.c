/* resize → one linalg.generic over the output whose body computes, per
 * resized axis, the input coordinate and the interpolation taps (indices
 * and weights), then gathers x with tensor.extract and sums the weighted
 * taps.
 *
 * Coordinates and weights are computed in f64, as ONNX's reference
 * implementation does: nearest-mode rounding at exact .5 boundaries depends
 * on it. The per-axis sizes and scales the body reads are values built
 * before the generic: constants for a static resize (folded into the
 * body), read at run time for a dynamic one (dynamic input dims, scales
 * or sizes not known at compile time: the output dims then follow ONNX's
 * rules at run time, and the shape function computes them from the
 * inputs). roi (tf_crop_and_resize) is read at run time. */
#include <math.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower_nn.h"
#include "kiln/diagnostics.h"

enum { MODE_NEAREST, MODE_LINEAR, MODE_CUBIC };
enum {
  COORD_HALF_PIXEL,
  COORD_HALF_PIXEL_SYMMETRIC,
  COORD_PYTORCH_HALF_PIXEL,
  COORD_ALIGN_CORNERS,
  COORD_ASYMMETRIC,
  COORD_TF_CROP_AND_RESIZE,
  COORD_TF_HALF_PIXEL_FOR_NN
};
enum { NEAREST_ROUND_FLOOR, NEAREST_ROUND_CEIL, NEAREST_FLOOR, NEAREST_CEIL };

static const char *const kModes[] = {"nearest", "linear", "cubic", NULL};
static const char *const kCoords[] = {
    "half_pixel",           "half_pixel_symmetric",
    "pytorch_half_pixel",   "align_corners",
    "asymmetric",           "tf_crop_and_resize",
    "tf_half_pixel_for_nn", NULL};
static const char *const kNearest[] = {
    "round_prefer_floor", "round_prefer_ceil", "floor", "ceil", NULL};
static const char *const kPolicies[] = {"stretch", "not_larger", "not_smaller",
                                        NULL};

#define MAX_TAPS 4

typedef struct Axis {
  bool resized;    /* false: the output index is the input index */
  int64_t in, out; /* static sizes (phases); dynamic in a dynamic resize */
  double scale;
  double length; /* ONNX's length_resized: in * scale, or sizes' value */
  intptr_t roiStart, roiEnd; /* positions in roi (tf_crop_and_resize) */
  /* What the body reads, built before the generic (f64; inLast i64). */
  MlirValue inF, outF, scaleF, lengthF, inLast;
} Axis;

typedef struct Resize {
  int mode, coord, nearest;
  bool excludeOutside;
  double cubicA, extrapolation;
  MlirValue x, roi;
  intptr_t rank;
  Axis axes[KILN_MAX_RANK];
  MlirType f64, outElt;
} Resize;

/* Per-axis taps built in the body. */
typedef struct Taps {
  int n;
  MlirValue index[MAX_TAPS];  /* index type */
  MlirValue weight[MAX_TAPS]; /* f64; null for nearest */
} Taps;

/* ---- Body -------------------------------------------------------------- */

static MlirValue f64c(KilnBuilder *b, const Resize *r, double v) {
  return kilnConstFloat(b, r->f64, v);
}

static MlirValue roiAt(KilnBuilder *b, const Resize *r, intptr_t pos) {
  MlirValue idx = kilnConstIndex(b, pos);
  MlirValue ops[2] = {r->roi, idx};
  MlirValue v = kilnBuildOp1(b, "tensor.extract", kilnElementType(r->roi), 2,
                             ops, 0, NULL);
  return kilnConvertScalar(b, v, r->f64, false);
}

/* `when1` if ONNX's length_resized is 1, else `other` (align_corners and
 * the like would divide by zero there). */
static MlirValue unlessLengthOne(KilnBuilder *b, const Resize *r, const Axis *a,
                                 MlirValue when1, MlirValue other) {
  return kilnSelect(b, kilnCmpF(b, "oeq", a->lengthF, f64c(b, r, 1)), when1,
                    other);
}

/* The input coordinate of output index `xo` (f64) on axis `a`; sets
 * *outside (i1) for tf_crop_and_resize coordinates outside the input.
 * ONNX's length_resized is in * scale, not rounded: with scales that do not
 * divide the length evenly, align_corners and tf_crop_and_resize use the
 * fractional length (as ONNX's reference and ONNX Runtime). */
static MlirValue coordinate(KilnBuilder *b, const Resize *r, const Axis *a,
                            MlirValue xo, MlirValue *outside) {
  MlirValue s = a->scaleF, half = f64c(b, r, 0.5), one = f64c(b, r, 1);
  MlirValue halfPixel =
      kilnSubF(b, kilnDivF(b, kilnAddF(b, xo, half), s), half);
  MlirValue inLastF = kilnSubF(b, a->inF, one);
  MlirValue lengthLastF = kilnSubF(b, a->lengthF, one);
  switch (r->coord) {
  case COORD_HALF_PIXEL_SYMMETRIC: {
    MlirValue adjust = kilnDivF(b, a->outF, kilnMulF(b, s, a->inF));
    MlirValue offset = kilnMulF(b, kilnDivF(b, a->inF, f64c(b, r, 2)),
                                kilnSubF(b, one, adjust));
    return kilnAddF(b, offset, halfPixel);
  }
  case COORD_PYTORCH_HALF_PIXEL:
    return unlessLengthOne(b, r, a, f64c(b, r, 0), halfPixel);
  case COORD_ALIGN_CORNERS:
    return unlessLengthOne(b, r, a, f64c(b, r, 0),
                           kilnDivF(b, kilnMulF(b, xo, inLastF), lengthLastF));
  case COORD_ASYMMETRIC:
    return kilnDivF(b, xo, s);
  case COORD_TF_HALF_PIXEL_FOR_NN:
    return kilnDivF(b, kilnAddF(b, xo, half), s);
  case COORD_TF_CROP_AND_RESIZE: {
    MlirValue start = roiAt(b, r, a->roiStart), end = roiAt(b, r, a->roiEnd);
    MlirValue c = unlessLengthOne(
        b, r, a,
        kilnMulF(b, kilnMulF(b, kilnAddF(b, start, end), half), inLastF),
        kilnAddF(b, kilnMulF(b, start, inLastF),
                 kilnDivF(b,
                          kilnMulF(b, kilnMulF(b, xo, kilnSubF(b, end, start)),
                                   inLastF),
                          lengthLastF)));
    MlirValue bad =
        kilnArith2(b, "arith.ori", kilnCmpF(b, "olt", c, f64c(b, r, 0)),
                   kilnCmpF(b, "ogt", c, inLastF));
    *outside = kilnArith2(b, "arith.ori", *outside, bad);
    return c;
  }
  default: /* half_pixel */
    return halfPixel;
  }
}

/* floor(c) + k clamped to [0, in-1], as index; *inRange (i1) when
 * unclamped. */
static MlirValue tapIndex(KilnBuilder *b, const Axis *a, MlirValue floorI,
                          int64_t k, MlirValue *inRange) {
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue i = kilnArith2(b, "arith.addi", floorI, kilnConstInt(b, i64, k));
  MlirValue lo = kilnConstInt(b, i64, 0), hi = a->inLast;
  if (inRange)
    *inRange = kilnArith2(b, "arith.andi", kilnCmpI(b, "sge", i, lo),
                          kilnCmpI(b, "sle", i, hi));
  MlirValue c =
      kilnArith2(b, "arith.minsi", kilnArith2(b, "arith.maxsi", i, lo), hi);
  return kilnConvertScalar(b, c, mlirIndexTypeGet(b->ctx), false);
}

/* Cubic weights of `t` = c - floor(c) for taps floor-1 .. floor+2. */
static void cubicWeights(KilnBuilder *b, const Resize *r, MlirValue t,
                         MlirValue *w) {
  double A = r->cubicA;
  MlirValue one = f64c(b, r, 1);
  MlirValue d[4] = {kilnAddF(b, t, one), t, kilnSubF(b, one, t),
                    kilnSubF(b, f64c(b, r, 2), t)};
  for (int k = 0; k < 4; ++k) {
    MlirValue x = d[k];
    if (k == 1 || k == 2) /* |x| <= 1: ((A+2)x - (A+3)) x² + 1 */
      w[k] = kilnAddF(b,
                      kilnMulF(b,
                               kilnSubF(b, kilnMulF(b, f64c(b, r, A + 2), x),
                                        f64c(b, r, A + 3)),
                               kilnMulF(b, x, x)),
                      one);
    else /* 1 < |x| < 2: ((A x - 5A) x + 8A) x - 4A */
      w[k] = kilnSubF(
          b,
          kilnMulF(b,
                   kilnAddF(b,
                            kilnMulF(b,
                                     kilnSubF(b, kilnMulF(b, f64c(b, r, A), x),
                                              f64c(b, r, 5 * A)),
                                     x),
                            f64c(b, r, 8 * A)),
                   x),
          f64c(b, r, 4 * A));
  }
}

static void axisTaps(KilnBuilder *b, const Resize *r, intptr_t d,
                     MlirValue *outside, Taps *t) {
  const Axis *a = &r->axes[d];
  MlirValue xo = kilnLinalgIndex(b, d);
  if (!a->resized) {
    t->n = 1;
    t->index[0] = xo;
    t->weight[0] = (MlirValue){NULL};
    return;
  }
  MlirValue c =
      coordinate(b, r, a, kilnConvertScalar(b, xo, r->f64, false), outside);
  MlirValue fl = kilnArith1(b, "math.floor", c);
  MlirValue frac = kilnSubF(b, c, fl);
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue flI = kilnConvertScalar(b, fl, i64, false);
  if (r->mode == MODE_NEAREST) {
    MlirValue up; /* i1: take floor + 1 */
    switch (r->nearest) {
    case NEAREST_ROUND_CEIL:
      up = kilnCmpF(b, "oge", frac, f64c(b, r, 0.5));
      break;
    case NEAREST_FLOOR:
      up = kilnConstInt(b, mlirIntegerTypeGet(b->ctx, 1), 0);
      break;
    case NEAREST_CEIL:
      up = kilnCmpF(b, "ogt", frac, f64c(b, r, 0));
      break;
    default:
      up = kilnCmpF(b, "ogt", frac, f64c(b, r, 0.5));
    }
    flI =
        kilnArith2(b, "arith.addi", flI, kilnConvertScalar(b, up, i64, false));
    t->n = 1;
    t->index[0] = tapIndex(b, a, flI, 0, NULL);
    t->weight[0] = (MlirValue){NULL};
    return;
  }
  MlirValue inRange[MAX_TAPS];
  if (r->mode == MODE_LINEAR) {
    t->n = 2;
    t->weight[0] = kilnSubF(b, f64c(b, r, 1), frac);
    t->weight[1] = frac;
  } else {
    t->n = 4;
    cubicWeights(b, r, frac, t->weight);
  }
  int64_t first = r->mode == MODE_CUBIC ? -1 : 0;
  for (int k = 0; k < t->n; ++k)
    t->index[k] = tapIndex(b, a, flI, first + k, &inRange[k]);
  if (!r->excludeOutside)
    return;
  /* Taps outside the input get weight 0; the rest are renormalized. */
  MlirValue zero = f64c(b, r, 0), sum = zero;
  for (int k = 0; k < t->n; ++k) {
    t->weight[k] = kilnSelect(b, inRange[k], t->weight[k], zero);
    sum = kilnAddF(b, sum, t->weight[k]);
  }
  for (int k = 0; k < t->n; ++k)
    t->weight[k] = kilnDivF(b, t->weight[k], sum);
}

static void resizeBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  (void)args;
  const Resize *r = userData;
  Taps taps[KILN_MAX_RANK];
  MlirValue outside = kilnConstInt(b, mlirIntegerTypeGet(b->ctx, 1), 0);
  int64_t total = 1;
  for (intptr_t d = 0; d < r->rank; ++d) {
    axisTaps(b, r, d, &outside, &taps[d]);
    total *= taps[d].n;
  }
  MlirValue acc = r->mode == MODE_NEAREST ? (MlirValue){NULL} : f64c(b, r, 0);
  MlirValue ops[1 + KILN_MAX_RANK];
  ops[0] = r->x;
  for (int64_t combo = 0; combo < total; ++combo) {
    int64_t rest = combo;
    MlirValue w = {NULL};
    for (intptr_t d = r->rank - 1; d >= 0; --d) {
      int k = (int)(rest % taps[d].n);
      rest /= taps[d].n;
      ops[1 + d] = taps[d].index[k];
      if (!mlirValueIsNull(taps[d].weight[k]))
        w = mlirValueIsNull(w) ? taps[d].weight[k]
                               : kilnMulF(b, w, taps[d].weight[k]);
    }
    MlirValue v = kilnBuildOp1(b, "tensor.extract", kilnElementType(r->x),
                               1 + r->rank, ops, 0, NULL);
    if (r->mode == MODE_NEAREST) {
      acc = v;
      break;
    }
    v = kilnConvertScalar(b, v, r->f64, false);
    acc = kilnAddF(b, acc, mlirValueIsNull(w) ? v : kilnMulF(b, w, v));
  }
  MlirValue y = kilnConvertScalar(b, acc, r->outElt, false);
  if (r->coord == COORD_TF_CROP_AND_RESIZE)
    y = kilnSelect(b, outside, kilnConstFloat(b, r->outElt, r->extrapolation),
                   y);
  yields[0] = y;
}

/* ---- Phases: integer upscaling without gathers -------------------------- */

/* With an integer factor s on an axis, output o = k s + p (phase p) reads
 * input k + off[p] (nearest) or k + off[p] and k + off[p] + 1 with weights
 * 1 - w1[p], w1[p] (linear) in every coordinate mode whose coordinate is
 * k + a constant. Each resized axis is then one pass whose phases are
 * weighted sums of shifted views of the input (padded by edge copies,
 * which clamp the taps at the borders): elementwise generics with
 * constant weights, inserted into the pass's result with stride s;
 * nearest's phases are views inserted as they are. Contiguous reads along
 * the rows and no index arithmetic, so the elementwise strategy
 * vectorizes them. The taps are computed here per output index with the
 * body's f64 formulas and checked to follow the phase pattern; anything
 * else keeps the gather lowering. */

#define MAX_PHASE_FACTOR 16

typedef struct AxisPhases {
  int64_t s; /* the factor: out = s * in */
  int64_t off[MAX_PHASE_FACTOR];
  double w1[MAX_PHASE_FACTOR]; /* linear: the weight of tap off + 1 */
  int64_t minOff, maxOff;      /* over phases (linear: the taps) */
} AxisPhases;

/* The input coordinate of output index `xo` as coordinate() computes it
 * (one operation per statement: no contraction into fma). */
static double coordinateValue(const Resize *r, const Axis *a, double xo) {
  double in = (double)a->in, out = a->length, s = a->scale, c;
  switch (r->coord) {
  case COORD_HALF_PIXEL_SYMMETRIC: {
    double adjust = (double)a->out / (a->scale * in);
    double offset = in / 2 * (1 - adjust);
    c = (xo + 0.5) / s;
    c = c - 0.5;
    return offset + c;
  }
  case COORD_PYTORCH_HALF_PIXEL:
    if (out == 1.0)
      return 0;
    c = (xo + 0.5) / s;
    return c - 0.5;
  case COORD_ALIGN_CORNERS:
    if (out == 1.0)
      return 0;
    c = xo * (in - 1);
    return c / (out - 1);
  case COORD_ASYMMETRIC:
    return xo / s;
  case COORD_TF_HALF_PIXEL_FOR_NN:
    return (xo + 0.5) / s;
  default:
    c = (xo + 0.5) / s;
    return c - 0.5;
  }
}

/* The first tap of output `o` (unclamped) and the second tap's weight. */
static int64_t firstTap(const Resize *r, const Axis *a, int64_t o, double *w1) {
  double c = coordinateValue(r, a, (double)o);
  double fl = floor(c), frac = c - fl;
  int64_t i = (int64_t)fl;
  *w1 = frac;
  if (r->mode != MODE_NEAREST)
    return i;
  switch (r->nearest) {
  case NEAREST_ROUND_CEIL:
    return i + (frac >= 0.5);
  case NEAREST_FLOOR:
    return i;
  case NEAREST_CEIL:
    return i + (frac > 0);
  default:
    return i + (frac > 0.5);
  }
}

/* How far a linear weight may be from its phase's (the weight of k = 0):
 * (k s + p + 0.5) / s rounds differently per k when s is not a power of
 * two; 1e-9 of an input value is far below an f32 output's rounding. */
static const double kWeightSlack = 1e-9;

/* Fills `ph` when axis `a`'s taps follow the phase pattern. */
static bool readPhases(const Resize *r, const Axis *a, AxisPhases *ph) {
  if (a->in < 1 || a->out < a->in || a->out % a->in)
    return false;
  ph->s = a->out / a->in;
  if (ph->s > MAX_PHASE_FACTOR)
    return false;
  for (int64_t o = 0; o < a->out; ++o) {
    int64_t k = o / ph->s, p = o % ph->s;
    double w1;
    int64_t off = firstTap(r, a, o, &w1) - k;
    if (r->mode == MODE_NEAREST)
      w1 = 0;
    if (k == 0) {
      ph->off[p] = off;
      ph->w1[p] = w1;
    } else if (ph->off[p] != off || fabs(ph->w1[p] - w1) > kWeightSlack) {
      return false;
    }
  }
  int64_t last = r->mode == MODE_NEAREST ? 0 : 1;
  ph->minOff = ph->off[0];
  ph->maxOff = ph->off[0] + last;
  for (int64_t p = 1; p < ph->s; ++p) {
    if (ph->off[p] < ph->minOff)
      ph->minOff = ph->off[p];
    if (ph->off[p] + last > ph->maxOff)
      ph->maxOff = ph->off[p] + last;
  }
  return ph->minOff >= -2 && ph->maxOff <= 2;
}

/* x with `lo` copies of its first and `hi` of its last slice along axis
 * d. */
static MlirValue padEdges(KilnBuilder *b, MlirValue x, intptr_t d, int64_t lo,
                          int64_t hi) {
  if (!lo && !hi)
    return x;
  intptr_t r = kilnRank(x);
  int64_t shape[KILN_MAX_RANK], off[KILN_MAX_RANK], ones[KILN_MAX_RANK];
  int64_t edge[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    shape[i] = edge[i] = kilnDim(x, i);
    off[i] = 0;
    ones[i] = 1;
  }
  int64_t in = shape[d];
  shape[d] = lo + in + hi;
  edge[d] = 1;
  MlirValue y = kilnEmpty(b, kilnTensorType(r, shape, kilnElementType(x)));
  off[d] = lo;
  y = kilnInsertSlice(b, x, y, off, ones);
  off[d] = 0;
  MlirValue first = kilnExtractSlice(b, x, off, edge, ones);
  off[d] = in - 1;
  MlirValue lastSlice = kilnExtractSlice(b, x, off, edge, ones);
  for (int64_t i = 0; i < lo; ++i) {
    off[d] = i;
    y = kilnInsertSlice(b, first, y, off, ones);
  }
  for (int64_t i = 0; i < hi; ++i) {
    off[d] = lo + in + i;
    y = kilnInsertSlice(b, lastSlice, y, off, ones);
  }
  return y;
}

/* One output phase: its views of the padded input and their weights. */
typedef struct PhaseSum {
  int n;
  double weight[2];
} PhaseSum;

static void phaseSumBody(KilnBuilder *b, const MlirValue *args,
                         MlirValue *yields, void *userData) {
  const PhaseSum *ps = userData;
  MlirType e = mlirValueGetType(args[0]);
  MlirValue acc = {NULL};
  for (int j = 0; j < ps->n; ++j) {
    MlirValue t = kilnMulF(b, kilnConstFloat(b, e, ps->weight[j]), args[j]);
    acc = j ? kilnAddF(b, acc, t) : t;
  }
  yields[0] = acc;
}

/* `x` upscaled along axis d by its phases: per phase, the weighted sum of
 * its one or two views of x padded by edge copies (nearest: the view
 * itself), inserted with stride s along d. */
static MlirValue resizeAxis(KilnBuilder *b, const Resize *r, MlirValue x,
                            intptr_t d, const AxisPhases *ph) {
  intptr_t rank = kilnRank(x);
  int64_t lo = ph->minOff < 0 ? -ph->minOff : 0;
  MlirValue xe = padEdges(b, x, d, lo, ph->maxOff > 0 ? ph->maxOff : 0);
  int64_t off[KILN_MAX_RANK], sizes[KILN_MAX_RANK], ones[KILN_MAX_RANK];
  int64_t yShape[KILN_MAX_RANK], yOff[KILN_MAX_RANK], yStride[KILN_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i) {
    off[i] = yOff[i] = 0;
    sizes[i] = yShape[i] = kilnDim(x, i);
    ones[i] = yStride[i] = 1;
  }
  yShape[d] *= ph->s;
  yStride[d] = ph->s;
  MlirType e = kilnElementType(x);
  MlirValue y = kilnEmpty(b, kilnTensorType(rank, yShape, e));
  for (int64_t p = 0; p < ph->s; ++p) {
    double w1 = ph->w1[p];
    /* A linear tap of weight 0 (an exact phase) is not read. */
    PhaseSum sum = {.n = r->mode == MODE_LINEAR && w1 != 0 ? 2 : 1,
                    .weight = {1 - w1, w1}};
    MlirValue views[2];
    for (int t = 0; t < sum.n; ++t) {
      off[d] = lo + ph->off[p] + t;
      views[t] = kilnExtractSlice(b, xe, off, sizes, ones);
    }
    MlirValue part =
        r->mode == MODE_NEAREST
            ? views[0]
            : kilnElementwise(b, sum.n, views, kilnTensorType(rank, sizes, e),
                              phaseSumBody, &sum);
    yOff[d] = p;
    y = kilnInsertSlice(b, part, y, yOff, yStride);
  }
  return y;
}

/* The resize as one pass per resized axis, innermost first: the pass
 * along the innermost axis writes every output element with a scalar
 * store (stride s), so it runs on the smaller tensor, and the outer axes'
 * passes write whole rows. Null when an axis does not follow the phase
 * pattern. */
static MlirValue resizeByPhases(KilnBuilder *b, const Resize *r,
                                MlirType resultType) {
  if ((r->mode != MODE_NEAREST && r->mode != MODE_LINEAR) ||
      r->coord == COORD_TF_CROP_AND_RESIZE || r->excludeOutside ||
      !mlirShapedTypeHasStaticShape(mlirValueGetType(r->x)) ||
      !mlirShapedTypeHasStaticShape(resultType) ||
      !(mlirTypeIsAF32(r->outElt) || mlirTypeIsAF64(r->outElt)) ||
      !mlirTypeEqual(kilnElementType(r->x), r->outElt))
    return (MlirValue){NULL};
  AxisPhases phases[KILN_MAX_RANK];
  for (intptr_t d = 0; d < r->rank; ++d)
    if (r->axes[d].resized && !readPhases(r, &r->axes[d], &phases[d]))
      return (MlirValue){NULL};
  MlirValue y = r->x;
  for (intptr_t d = r->rank - 1; d >= 0; --d)
    if (r->axes[d].resized)
      y = resizeAxis(b, r, y, d, &phases[d]);
  return mlirValueEqual(y, r->x) ? (MlirValue){NULL} : y;
}

/* ---- Setup ------------------------------------------------------------- */

/* Where each resized axis's scale and output size come from. */
typedef struct Scaling {
  bool fromSizes;
  int policy;                   /* keep_aspect_ratio_policy (sizes) */
  bool constant;                /* scales or sizes known at compile time */
  double scales[KILN_MAX_RANK]; /* constant scales (f32 values) */
  int64_t sizes[KILN_MAX_RANK]; /* constant sizes */
  MlirValue operand;            /* scales or sizes, read at run time */
} Scaling;

static KilnLowerStatus readScaling(KilnLowerOp *l, intptr_t n, Scaling *sc) {
  MlirValue scales = kilnLowerOperand(l, 2);
  sc->fromSizes =
      mlirValueIsNull(scales) || kilnNumElements(mlirValueGetType(scales)) == 0;
  sc->policy = kilnInferAttrChoice(&l->infer, "keep_aspect_ratio_policy",
                                   "stretch", kPolicies);
  sc->operand = kilnLowerOperand(l, sc->fromSizes ? 3 : 2);
  sc->constant =
      sc->fromSizes
          ? kilnInferConstantInts(&l->infer, 3, sc->sizes, KILN_MAX_RANK) == n
          : kilnInferConstantFloats(&l->infer, 2, sc->scales, KILN_MAX_RANK) ==
                n;
  if (sc->constant)
    return KILN_LOWER_OK;
  /* Inference checked a static length; a dynamic one is checked here. */
  if (mlirValueIsNull(sc->operand) || kilnRank(sc->operand) != 1)
    return kilnLowerError(l, "needs operand '%s' of rank 1",
                          sc->fromSizes ? "sizes" : "scales");
  kilnAssertEqual(&l->b, kilnDimValue(&l->b, sc->operand, 0),
                  kilnConstIndex(&l->b, n),
                  sc->fromSizes ? "operand 'sizes' must hold one value per "
                                  "resized axis"
                                : "operand 'scales' must hold one value per "
                                  "resized axis");
  return KILN_LOWER_OK;
}

/* Element i of the scales or sizes operand, read at run time, as `to`. */
static MlirValue scalingAt(KilnBuilder *b, const Scaling *sc, intptr_t i,
                           MlirType to) {
  MlirValue at = kilnConstIndex(b, i);
  MlirValue v = kilnBuildOp1(b, "tensor.extract", kilnElementType(sc->operand),
                             1 + 1, (MlirValue[]){sc->operand, at}, 0, NULL);
  return kilnConvertScalar(b, v, to, false);
}

/* The f64 scale of listed axis i, and its output size (index) where the
 * result's dim is dynamic (ONNX: floor(in * scale) in f32 from scales;
 * sizes as given, or under keep_aspect_ratio_policy one common scale and
 * round(in * scale)). Asserts what ONNX requires of run-time values. */
static void axisScale(KilnLowerOp *l, const Resize *r, const Scaling *sc,
                      const int64_t *axes, intptr_t n, intptr_t i,
                      MlirValue *scale, MlirValue *outSize) {
  KilnBuilder *b = &l->b;
  MlirType f32 = mlirF32TypeGet(b->ctx), index = mlirIndexTypeGet(b->ctx);
  MlirValue in = kilnDimValue(b, r->x, axes[i]);
  if (!sc->fromSizes) {
    MlirValue s32 = sc->constant ? kilnConstFloat(b, f32, sc->scales[i])
                                 : scalingAt(b, sc, i, f32);
    if (!sc->constant)
      kilnAssert(b, kilnCmpF(b, "ogt", s32, kilnConstFloat(b, f32, 0)),
                 "operand 'scales' must hold positive values");
    *scale = kilnConvertScalar(b, s32, r->f64, false);
    MlirValue scaled =
        kilnArith1(b, "math.floor",
                   kilnMulF(b, kilnConvertScalar(b, in, f32, false), s32));
    kilnAssert(b, kilnCmpF(b, "olt", scaled, kilnConstFloat(b, f32, 0x1p62)),
               "an output size overflows");
    *outSize = kilnConvertScalar(b, scaled, index, false);
    return;
  }
  /* sizes[j] / in[j] for each listed axis, the policy's min or max. */
  MlirValue common = {NULL}, own = {NULL};
  for (intptr_t j = 0; j < n; ++j) {
    if (sc->policy == 0 && j != i)
      continue;
    MlirValue size = sc->constant ? kilnConstIndex(b, sc->sizes[j])
                                  : scalingAt(b, sc, j, index);
    if (!sc->constant)
      kilnAssert(b, kilnCmpI(b, "sge", size, kilnConstIndex(b, 0)),
                 "operand 'sizes' must hold non-negative values");
    if (j == i)
      own = size;
    MlirValue ratio = kilnDivF(
        b, kilnConvertScalar(b, size, r->f64, false),
        kilnConvertScalar(b, kilnDimValue(b, r->x, axes[j]), r->f64, false));
    common = mlirValueIsNull(common)
                 ? ratio
                 : kilnArith2(
                       b, sc->policy == 1 ? "arith.minimumf" : "arith.maximumf",
                       common, ratio);
  }
  *scale = common;
  if (sc->policy == 0) {
    *outSize = own;
    return;
  }
  MlirValue rounded = kilnArith1(
      b, "math.floor",
      kilnAddF(b, kilnMulF(b, common, kilnConvertScalar(b, in, r->f64, false)),
               f64c(b, r, 0.5)));
  kilnAssert(b, kilnCmpF(b, "olt", rounded, f64c(b, r, 0x1p62)),
             "an output size overflows");
  *outSize = kilnConvertScalar(b, rounded, index, false);
}

/* The scale of listed axis i as a compile-time double, as axisScale
 * computes it at run time; false when it depends on a dynamic dim or on a
 * run-time operand. */
static bool knownScale(const Resize *r, const Scaling *sc, const int64_t *axes,
                       intptr_t n, intptr_t i, double *scale) {
  *scale = 0.0;
  if (!sc->constant)
    return false;
  if (!sc->fromSizes) {
    *scale = sc->scales[i];
    return true;
  }
  double common = 0.0;
  for (intptr_t j = 0; j < n; ++j) {
    if (sc->policy == 0 && j != i)
      continue;
    int64_t in = r->axes[axes[j]].in;
    if (mlirShapedTypeIsDynamicSize(in))
      return false;
    double ratio = (double)sc->sizes[j] / (double)in;
    common = j == i && sc->policy == 0    ? ratio
             : (sc->policy == 1 && j > 0) ? fmin(common, ratio)
             : j > 0                      ? fmax(common, ratio)
                                          : ratio;
  }
  *scale = common;
  return true;
}

static KilnLowerStatus readAxes(KilnLowerOp *l, intptr_t rank, int64_t *axes,
                                intptr_t *n) {
  int64_t raw[KILN_MAX_RANK + 1];
  intptr_t len = kilnInferAttrInts(&l->infer, "axes", raw, KILN_MAX_RANK + 1);
  if (len < 0) {
    for (intptr_t i = 0; i < rank; ++i)
      axes[i] = i;
    *n = rank;
    return KILN_LOWER_OK;
  }
  for (intptr_t i = 0; i < len; ++i)
    if (!kilnLowerAxis(l, raw[i], rank, &axes[i]))
      return KILN_LOWER_ERROR;
  *n = len;
  return KILN_LOWER_OK;
}

/* Fills every axis of `r` and the output's sizes: a listed axis is resized
 * unless it is statically the identity; the values the body reads are
 * constants where the sizes and scales are. */
static KilnLowerStatus setupAxes(KilnLowerOp *l, Resize *r, MlirType rt,
                                 MlirValue *outSizes) {
  KilnBuilder *b = &l->b;
  int64_t axes[KILN_MAX_RANK];
  intptr_t n;
  Scaling sc;
  KilnLowerStatus st = readAxes(l, r->rank, axes, &n);
  if (st == KILN_LOWER_OK)
    st = readScaling(l, n, &sc);
  if (st != KILN_LOWER_OK)
    return st;
  if (r->coord == COORD_TF_CROP_AND_RESIZE) {
    if (mlirValueIsNull(r->roi) || kilnRank(r->roi) != 1 ||
        (kilnDim(r->roi, 0) != 2 * n &&
         !mlirShapedTypeIsDynamicSize(kilnDim(r->roi, 0))))
      return kilnLowerError(l, "tf_crop_and_resize needs 'roi' with %ld values",
                            (long)(2 * n));
    kilnAssertEqual(b, kilnDimValue(b, r->roi, 0), kilnConstIndex(b, 2 * n),
                    "tf_crop_and_resize needs 'roi' with two values per "
                    "resized axis");
  }
  bool antialias = kilnInferAttrInt(&l->infer, "antialias", 0) != 0;
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  for (intptr_t d = 0; d < r->rank; ++d) {
    Axis *a = &r->axes[d];
    *a = (Axis){.in = kilnDim(r->x, d),
                .out = mlirShapedTypeGetDimSize(rt, d),
                .scale = 1.0};
    outSizes[d] = kilnDimValue(b, r->x, d);
  }
  for (intptr_t i = 0; i < n; ++i) {
    Axis *a = &r->axes[axes[i]];
    MlirValue outSize;
    axisScale(l, r, &sc, axes, n, i, &a->scaleF, &outSize);
    if (mlirShapedTypeIsDynamicSize(a->out))
      outSizes[axes[i]] = outSize;
    else
      outSizes[axes[i]] = kilnConstIndex(b, a->out);
    bool known = knownScale(r, &sc, axes, n, i, &a->scale) &&
                 !mlirShapedTypeIsDynamicSize(a->out);
    a->length = sc.fromSizes ? (double)a->out : (double)a->in * a->scale;
    a->roiStart = i;
    a->roiEnd = n + i;
    bool identity = known && a->in == a->out && a->scale == 1.0 &&
                    r->coord != COORD_TF_CROP_AND_RESIZE &&
                    r->coord != COORD_TF_HALF_PIXEL_FOR_NN;
    a->resized = !identity;
    if (antialias && r->mode != MODE_NEAREST && (!known || a->scale < 1.0))
      return kilnLowerUnsupported(
          l, known ? "with antialias = 1 when downscaling"
                   : "with antialias = 1 and sizes or scales known only at "
                     "run time");
  }
  for (intptr_t d = 0; d < r->rank; ++d) {
    Axis *a = &r->axes[d];
    a->inF = kilnConvertScalar(b, kilnDimValue(b, r->x, d), r->f64, false);
    a->outF = kilnConvertScalar(b, outSizes[d], r->f64, false);
    a->inLast =
        kilnArith2(b, "arith.subi",
                   kilnConvertScalar(b, kilnDimValue(b, r->x, d), i64, false),
                   kilnConstInt(b, i64, 1));
    if (!a->resized)
      continue;
    /* ONNX's length_resized: sizes' value, or in * scale unrounded. */
    a->lengthF = sc.fromSizes ? a->outF : kilnMulF(b, a->inF, a->scaleF);
  }
  return KILN_LOWER_OK;
}

KilnLowerStatus kilnLowerNNResize(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType rt = kilnLowerResultType(l, 0);
  Resize r = {
      .mode = kilnInferAttrChoice(&l->infer, "mode", "nearest", kModes),
      .coord = kilnInferAttrChoice(&l->infer, "coordinate_transformation_mode",
                                   "half_pixel", kCoords),
      .nearest = kilnInferAttrChoice(&l->infer, "nearest_mode",
                                     "round_prefer_floor", kNearest),
      .excludeOutside = kilnInferAttrInt(&l->infer, "exclude_outside", 0) != 0,
      .cubicA = kilnInferAttrFloat(&l->infer, "cubic_coeff_a", -0.75f),
      .extrapolation =
          kilnInferAttrFloat(&l->infer, "extrapolation_value", 0.0f),
      .x = x,
      .roi = kilnLowerOperand(l, 1),
      .rank = kilnRank(x),
      .f64 = mlirF64TypeGet(l->b.ctx),
      .outElt = mlirShapedTypeGetElementType(rt),
  };
  if (r.mode < 0 || r.coord < 0 || r.nearest < 0 ||
      kilnInferAttrChoice(&l->infer, "keep_aspect_ratio_policy", "stretch",
                          kPolicies) < 0)
    return kilnLowerError(l, "has an unknown mode attribute value");
  MlirValue outSizes[KILN_MAX_RANK];
  KilnLowerStatus st = setupAxes(l, &r, rt, outSizes);
  if (st != KILN_LOWER_OK)
    return st;
  MlirValue y = resizeByPhases(&l->b, &r, rt);
  if (mlirValueIsNull(y))
    y = kilnGenerate(&l->b, rt, outSizes, resizeBody, &r);
  l->results[0] = y;
  return KILN_LOWER_OK;
}

/* grid_sample and roi_align → one linalg.generic over the output each,
 * whose body computes sample coordinates from run-time data (the grid, the
 * rois) and gathers x with tensor.extract.
 *
 * Every index computed from data is clamped into x's bounds before the
 * read (NaN and infinities included: floats are clamped with
 * maxnumf/minnumf before fptosi), so no input value can make the code read
 * out of bounds; taps that ONNX treats as outside (zeros padding, roi
 * samples off the image) are masked with a select instead.
 *
 * Semantics follow ONNX's reference implementations (GridSample-16/20,
 * RoiAlign-16, a port of ONNX Runtime's kernels). roi_align's adaptive
 * sampling grid (sampling_ratio = 0) has a data-dependent size, so its
 * samples are summed by scf.for loops inside the body. */
#include "conversions/graph-to-linalg/lower_nn.h"
#include "kiln/diagnostics.h"
#include "support/ir_build.h"

/* ---- Scalar helpers ------------------------------------------------------ */

static MlirValue fc(KilnBuilder *b, MlirType t, double v) {
  return kilnConstFloat(b, t, v);
}
static MlirValue andi(KilnBuilder *b, MlirValue x, MlirValue y) {
  return kilnArith2(b, "arith.andi", x, y);
}
static MlirValue ori(KilnBuilder *b, MlirValue x, MlirValue y) {
  return kilnArith2(b, "arith.ori", x, y);
}

/* Float `v` clamped to [0, last] (NaN → 0), then truncated to index:
 * always a valid index into a dim whose last index is `last` (a float). */
static MlirValue clampIndexTo(KilnBuilder *b, MlirValue v, MlirValue last) {
  MlirType t = mlirValueGetType(v);
  v = kilnArith2(b, "arith.maxnumf", v, fc(b, t, 0));
  v = kilnArith2(b, "arith.minnumf", v, last);
  return kilnConvertScalar(
      b, kilnConvertScalar(b, v, mlirIntegerTypeGet(b->ctx, 64), false),
      mlirIndexTypeGet(b->ctx), false);
}

/* clampIndexTo for a dim of static `size`. */
static MlirValue clampIndex(KilnBuilder *b, MlirValue v, int64_t size) {
  MlirType t = mlirValueGetType(v);
  v = kilnArith2(b, "arith.maxnumf", v, fc(b, t, 0));
  v = kilnArith2(b, "arith.minnumf", v, fc(b, t, (double)(size - 1)));
  return kilnConvertScalar(
      b, kilnConvertScalar(b, v, mlirIntegerTypeGet(b->ctx, 64), false),
      mlirIndexTypeGet(b->ctx), false);
}

/* Element `idx` of `t` as a scalar of `to` (signless conversions for uiN). */
static MlirValue extractAs(KilnBuilder *b, MlirValue t, intptr_t n,
                           const MlirValue *idx, MlirType to) {
  MlirValue ops[1 + KILN_MAX_RANK];
  ops[0] = t;
  for (intptr_t i = 0; i < n; ++i)
    ops[1 + i] = idx[i];
  MlirType elt = kilnElementType(t);
  MlirValue v = kilnBuildOp1(b, "tensor.extract", elt, 1 + n, ops, 0, NULL);
  return kilnConvertScalar(b, kilnToSignless(b, v), to,
                           kilnTypeIsUnsignedInt(elt));
}

/* The signless type computations on elements of `elt` use. */
static MlirType signlessOf(MlirContext ctx, MlirType elt) {
  if (kilnTypeIsUnsignedInt(elt))
    return mlirIntegerTypeGet(ctx, mlirIntegerTypeGetWidth(elt));
  return elt;
}

/* ---- grid_sample -------------------------------------------------------- */

enum { GRID_LINEAR, GRID_NEAREST, GRID_CUBIC };
enum { PAD_ZEROS, PAD_BORDER, PAD_REFLECTION };

/* GridSample-20 names, then GridSample-16's aliases (kGridModeOf maps
 * them to the enum). */
static const char *const kGridModes[] = {"linear",   "nearest", "cubic",
                                         "bilinear", "bicubic", NULL};
static const int kGridModeOf[] = {GRID_LINEAR, GRID_NEAREST, GRID_CUBIC,
                                  GRID_LINEAR, GRID_CUBIC};
static const char *const kGridPads[] = {"zeros", "border", "reflection", NULL};

#define GRID_MAX_TAPS 256

typedef struct GridSample {
  int mode, pad;
  bool alignCorners;
  MlirValue x, grid;
  intptr_t rank, spatial;
  MlirType ct;      /* compute type */
  MlirType outElt;  /* result element type */
  MlirType outCalc; /* its signless form */
  /* Per spatial axis, in the compute type (built before the generic):
   * the size, and the reflection borders. */
  MlirValue size[KILN_MAX_RANK], lo[KILN_MAX_RANK], hi[KILN_MAX_RANK];
} GridSample;

/* ONNX's _gs_reflect: folds `v` into [lo, hi] by reflecting at the
 * borders; one fold per range length. A one-pixel axis with
 * align_corners (hi = lo) maps everything outside to lo. */
static MlirValue reflect(KilnBuilder *b, MlirType t, MlirValue v, MlirValue loV,
                         MlirValue hiV) {
  MlirValue below = kilnCmpF(b, "olt", v, loV);
  MlirValue above = kilnCmpF(b, "ogt", v, hiV);
  MlirValue range = kilnSubF(b, hiV, loV);
  MlirValue dx = kilnSelect(b, below, kilnSubF(b, loV, v), kilnSubF(b, v, hiV));
  MlirValue n = kilnArith1(b, "math.floor", kilnDivF(b, dx, range));
  MlirValue r = kilnSubF(b, dx, kilnMulF(b, n, range));
  MlirValue half = kilnArith1(
      b, "math.floor", kilnMulF(b, n, fc(b, t, 0.5))); /* n even: n == 2*half */
  MlirValue even = kilnCmpF(b, "oeq", n, kilnMulF(b, half, fc(b, t, 2)));
  MlirValue fromLo = kilnAddF(b, loV, r), fromHi = kilnSubF(b, hiV, r);
  MlirValue low = kilnSelect(b, even, fromLo, fromHi);
  MlirValue high = kilnSelect(b, even, fromHi, fromLo);
  MlirValue folded = kilnSelect(b, below, low, kilnSelect(b, above, high, v));
  MlirValue flat = kilnSelect(b, ori(b, below, above), loV, v);
  return kilnSelect(b, kilnCmpF(b, "ole", hiV, loV), flat, folded);
}

/* The reflection borders of spatial axis i (its size a compute-type
 * value). */
static void gridBorders(KilnBuilder *b, GridSample *g, intptr_t i) {
  MlirType t = g->ct;
  g->lo[i] = fc(b, t, g->alignCorners ? 0.0 : -0.5);
  g->hi[i] = kilnSubF(b, g->size[i], fc(b, t, g->alignCorners ? 1.0 : 0.5));
}

/* The unnormalized, padding-adjusted input coordinate on spatial axis `i`
 * (x's dim 2 + i), from grid component spatial-1-i. */
static MlirValue gridCoordinate(KilnBuilder *b, const GridSample *g,
                                const MlirValue *outIdx, intptr_t i) {
  MlirType t = g->ct;
  MlirValue idx[KILN_MAX_RANK];
  idx[0] = outIdx[0];
  for (intptr_t k = 0; k < g->spatial; ++k)
    idx[1 + k] = outIdx[2 + k];
  idx[1 + g->spatial] = kilnConstIndex(b, g->spatial - 1 - i);
  MlirValue n = extractAs(b, g->grid, g->spatial + 2, idx, t);
  MlirValue one = fc(b, t, 1), c;
  MlirValue last = kilnSubF(b, g->size[i], one);
  if (g->alignCorners) /* (n + 1) / 2 * (size - 1) */
    c = kilnMulF(b, kilnDivF(b, kilnAddF(b, n, one), fc(b, t, 2)), last);
  else /* ((n + 1) * size - 1) / 2 */
    c = kilnDivF(b,
                 kilnSubF(b, kilnMulF(b, kilnAddF(b, n, one), g->size[i]), one),
                 fc(b, t, 2));
  if (g->mode == GRID_NEAREST)
    c = kilnArith1(b, "math.roundeven", c);
  if (g->pad == PAD_BORDER) {
    MlirValue outside = ori(b, kilnCmpF(b, "olt", c, g->lo[i]),
                            kilnCmpF(b, "ogt", c, g->hi[i]));
    MlirValue cl = kilnArith2(b, "arith.maxnumf", c, fc(b, t, 0));
    cl = kilnArith2(b, "arith.minnumf", cl, last);
    c = kilnSelect(b, outside, cl, c);
  } else if (g->pad == PAD_REFLECTION) {
    c = reflect(b, t, c, g->lo[i], g->hi[i]);
  }
  return c;
}

typedef struct GridTaps {
  int n;
  MlirValue pos[4];    /* float, an integral value */
  MlirValue weight[4]; /* null for nearest */
  MlirValue index[4];  /* index to read, clamped */
  MlirValue valid[4];  /* i1: zeros padding keeps the tap */
} GridTaps;

/* Cubic convolution weights (A = -0.75) of `t` = c - floor(c) for the
 * taps floor-1 .. floor+2. */
static void cubicWeights(KilnBuilder *b, MlirType ty, MlirValue t,
                         MlirValue *w) {
  const double A = -0.75;
  MlirValue one = fc(b, ty, 1);
  MlirValue d[4] = {kilnAddF(b, t, one), t, kilnSubF(b, one, t),
                    kilnSubF(b, fc(b, ty, 2), t)};
  for (int k = 0; k < 4; ++k) {
    MlirValue x = d[k];
    if (k == 1 || k == 2) /* ((A+2)x - (A+3)) x² + 1 */
      w[k] = kilnAddF(b,
                      kilnMulF(b,
                               kilnSubF(b, kilnMulF(b, fc(b, ty, A + 2), x),
                                        fc(b, ty, A + 3)),
                               kilnMulF(b, x, x)),
                      one);
    else /* ((A x - 5A) x + 8A) x - 4A */
      w[k] = kilnSubF(
          b,
          kilnMulF(b,
                   kilnAddF(b,
                            kilnMulF(b,
                                     kilnSubF(b, kilnMulF(b, fc(b, ty, A), x),
                                              fc(b, ty, 5 * A)),
                                     x),
                            fc(b, ty, 8 * A)),
                   x),
          fc(b, ty, 4 * A));
  }
}

static void gridTaps(KilnBuilder *b, const GridSample *g, MlirValue c,
                     GridTaps *taps) {
  MlirType t = g->ct;
  if (g->mode == GRID_NEAREST) {
    taps->n = 1;
    taps->pos[0] = kilnArith1(b, "math.trunc", c); /* astype(int) */
    taps->weight[0] = (MlirValue){NULL};
    return;
  }
  MlirValue fl = kilnArith1(b, "math.floor", c);
  MlirValue frac = kilnSubF(b, c, fl);
  if (g->mode == GRID_LINEAR) {
    taps->n = 2;
    taps->weight[0] = kilnSubF(b, fc(b, t, 1), frac);
    taps->weight[1] = frac;
  } else {
    taps->n = 4;
    cubicWeights(b, t, frac, taps->weight);
  }
  int first = g->mode == GRID_CUBIC ? -1 : 0;
  for (int k = 0; k < taps->n; ++k)
    taps->pos[k] = kilnAddF(b, fl, fc(b, t, first + k));
}

/* The index to read for tap position `p` on spatial axis `i`; ANDs into
 * *valid whether zeros padding keeps the tap. */
static MlirValue gridTapIndex(KilnBuilder *b, const GridSample *g, intptr_t i,
                              MlirValue p, MlirValue *valid) {
  MlirType t = g->ct;
  MlirValue last = kilnSubF(b, g->size[i], fc(b, t, 1));
  if (g->pad == PAD_ZEROS) {
    MlirValue in = andi(b, kilnCmpF(b, "oge", p, fc(b, t, 0)),
                        kilnCmpF(b, "ole", p, last));
    *valid = andi(b, *valid, in);
  } else if (g->pad == PAD_REFLECTION) {
    p = reflect(b, t, p, g->lo[i], g->hi[i]);
  }
  return clampIndexTo(b, p, last);
}

static void gridSampleBody(KilnBuilder *b, const MlirValue *args,
                           MlirValue *yields, void *userData) {
  (void)args;
  const GridSample *g = userData;
  MlirValue outIdx[KILN_MAX_RANK];
  for (intptr_t d = 0; d < g->rank; ++d)
    outIdx[d] = kilnLinalgIndex(b, d);
  GridTaps taps[KILN_MAX_RANK];
  int64_t total = 1;
  MlirType i1 = mlirIntegerTypeGet(b->ctx, 1);
  for (intptr_t i = 0; i < g->spatial; ++i) {
    GridTaps *t = &taps[i];
    gridTaps(b, g, gridCoordinate(b, g, outIdx, i), t);
    for (int k = 0; k < t->n; ++k) {
      t->valid[k] = kilnConstInt(b, i1, 1);
      t->index[k] = gridTapIndex(b, g, i, t->pos[k], &t->valid[k]);
    }
    total *= t->n;
  }
  bool nearest = g->mode == GRID_NEAREST;
  MlirValue acc = nearest ? (MlirValue){NULL} : fc(b, g->ct, 0);
  for (int64_t combo = 0; combo < total; ++combo) {
    MlirValue idx[KILN_MAX_RANK], w = {NULL};
    MlirValue valid = kilnConstInt(b, i1, 1);
    idx[0] = outIdx[0];
    idx[1] = outIdx[1];
    int64_t rest = combo;
    for (intptr_t i = g->spatial - 1; i >= 0; --i) {
      int k = (int)(rest % taps[i].n);
      rest /= taps[i].n;
      idx[2 + i] = taps[i].index[k];
      valid = andi(b, valid, taps[i].valid[k]);
      if (!mlirValueIsNull(taps[i].weight[k]))
        w = mlirValueIsNull(w) ? taps[i].weight[k]
                               : kilnMulF(b, w, taps[i].weight[k]);
    }
    MlirType calc = nearest ? g->outCalc : g->ct;
    MlirValue v = extractAs(b, g->x, g->rank, idx, calc);
    MlirValue zero =
        kilnTypeIsFloat(calc) ? fc(b, calc, 0) : kilnConstInt(b, calc, 0);
    if (g->pad == PAD_ZEROS)
      v = kilnSelect(b, valid, v, zero);
    if (nearest) {
      acc = v;
      break;
    }
    acc = kilnAddF(b, acc, kilnMulF(b, w, v));
  }
  if (!nearest)
    acc =
        kilnConvertScalar(b, acc, g->outCalc, kilnTypeIsUnsignedInt(g->outElt));
  yields[0] = kilnFromSignless(b, acc, g->outElt);
}

/* The result N x C x O.. (O: the grid's dims 1..spatial), every element
 * computed by gridSampleBody. With dynamic dims, the grid's batch must be
 * x's and its last dim the spatial rank, and x's spatial dims must not be
 * empty where the result is not (a tap reads them): checked at run time. */
static MlirValue gridSampleOutput(KilnLowerOp *l, GridSample *g, MlirType rt) {
  KilnBuilder *b = &l->b;
  MlirValue sizes[KILN_MAX_RANK] = {kilnDimValue(b, g->x, 0),
                                    kilnDimValue(b, g->x, 1)};
  MlirValue count = kilnArith2(b, "arith.muli", sizes[0], sizes[1]);
  for (intptr_t i = 0; i < g->spatial; ++i) {
    sizes[2 + i] = kilnDimValue(b, g->grid, 1 + i);
    count = kilnArith2(b, "arith.muli", count, sizes[2 + i]);
  }
  kilnAssertEqual(b, kilnDimValue(b, g->grid, 0), sizes[0],
                  "the grid's batch is not x's at run time");
  kilnAssertEqual(b, kilnDimValue(b, g->grid, 1 + g->spatial),
                  kilnConstIndex(b, g->spatial),
                  "the grid's last dim is not the number of spatial dims");
  MlirValue zero = kilnConstIndex(b, 0);
  for (intptr_t i = 0; i < g->spatial; ++i) {
    MlirValue in = kilnDimValue(b, g->x, 2 + i);
    if (mlirShapedTypeIsDynamicSize(kilnDim(g->x, 2 + i)))
      kilnAssert(
          b,
          ori(b, kilnCmpI(b, "sgt", in, zero), kilnCmpI(b, "eq", count, zero)),
          "x has an empty spatial dim at run time while the result "
          "is not empty");
    g->size[i] = kilnConvertScalar(b, in, g->ct, false);
    gridBorders(b, g, i);
  }
  return kilnGenerate(b, rt, sizes, gridSampleBody, g);
}

KilnLowerStatus kilnLowerNNGridSample(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0), grid = kilnLowerOperand(l, 1);
  MlirType rt = kilnLowerResultType(l, 0);
  int mode = kilnInferAttrChoice(&l->infer, "mode", "linear", kGridModes);
  int pad = kilnInferAttrChoice(&l->infer, "padding_mode", "zeros", kGridPads);
  if (mode < 0 || pad < 0)
    return kilnLowerError(l, "has an unknown mode or padding_mode");
  MlirType gridElt = kilnElementType(grid), xElt = kilnElementType(x);
  MlirContext ctx = l->b.ctx;
  GridSample g = {
      .mode = kGridModeOf[mode],
      .pad = pad,
      .alignCorners = kilnInferAttrInt(&l->infer, "align_corners", 0) != 0,
      .x = x,
      .grid = grid,
      .rank = kilnRank(x),
      .spatial = kilnRank(x) - 2,
      .ct = mlirTypeIsAF64(xElt) ? xElt : kilnNNComputeType(ctx, gridElt),
      .outElt = mlirShapedTypeGetElementType(rt),
  };
  g.outCalc = signlessOf(ctx, g.outElt);
  if (!kilnTypeIsFloat(xElt) && !kilnTypeIsInteger(xElt))
    return kilnLowerUnsupported(l, "with a non-numeric element type");
  bool isStatic =
      kilnTypeIsStaticTensor(rt) && kilnTypeIsStaticTensor(mlirValueGetType(x));
  if (isStatic && kilnNumElements(rt) == 0) {
    l->results[0] = kilnEmpty(&l->b, rt);
    return KILN_LOWER_OK;
  }
  if (isStatic && kilnNumElements(mlirValueGetType(x)) == 0)
    return kilnLowerUnsupported(l, "with an empty 'x' and a non-empty result");
  int64_t taps = 1;
  for (intptr_t i = 0; i < g.spatial; ++i)
    taps *= g.mode == GRID_CUBIC ? 4 : g.mode == GRID_LINEAR ? 2 : 1;
  if (taps > GRID_MAX_TAPS)
    return kilnLowerUnsupported(
        l, "with %ld spatial dims in this mode (more than %d taps)",
        (long)g.spatial, GRID_MAX_TAPS);
  l->results[0] = gridSampleOutput(l, &g, rt);
  return KILN_LOWER_OK;
}

/* ---- roi_align ----------------------------------------------------------- */

static const char *const kRoiModes[] = {"avg", "max", NULL};
static const char *const kRoiCoords[] = {"half_pixel", "output_half_pixel",
                                         NULL};

/* Bounds the adaptive grid per axis (ceil(roi size / output size)) so that
 * the sample count stays a finite i64; only absurd rois reach it. */
#define ROI_MAX_GRID 1073741824.0

typedef struct RoiAlign {
  bool max, halfPixel;
  int64_t ratio, outH, outW;
  double scale;
  MlirValue x, rois, batch;
  MlirType ct, outElt;
} RoiAlign;

/* Per-output-element values the sample loops read. */
typedef struct RoiBin {
  const RoiAlign *r;
  MlirValue batchIdx, chanIdx;
  MlirValue startH, startW, binH, binW; /* ct */
  MlirValue gridH, gridW;               /* ct, integral */
  MlirValue ph, pw;                     /* output cell (index) */
  MlirValue iy;                         /* index, in the inner loop */
} RoiBin;

/* The bilinear sample of x at (y, x) as ONNX's RoiAlign takes it (avg: the
 * weighted sum, max: the largest weighted tap); 0 outside [-1, H] x [-1, W].
 */
static MlirValue roiSample(KilnBuilder *b, const RoiBin *bin, MlirValue y,
                           MlirValue xx) {
  const RoiAlign *r = bin->r;
  MlirType t = r->ct;
  int64_t h = kilnDim(r->x, 2), w = kilnDim(r->x, 3);
  MlirValue zero = fc(b, t, 0), one = fc(b, t, 1);
  MlirValue outside = ori(b,
                          ori(b, kilnCmpF(b, "olt", y, fc(b, t, -1)),
                              kilnCmpF(b, "ogt", y, fc(b, t, (double)h))),
                          ori(b, kilnCmpF(b, "olt", xx, fc(b, t, -1)),
                              kilnCmpF(b, "ogt", xx, fc(b, t, (double)w))));
  MlirValue pos[2] = {y, xx}, lowI[2], highI[2], frac[2];
  int64_t sizes[2] = {h, w};
  for (int a = 0; a < 2; ++a) {
    MlirValue p = kilnSelect(b, kilnCmpF(b, "ole", pos[a], zero), zero, pos[a]);
    MlirValue lo = kilnArith1(b, "math.floor", p);
    MlirValue last = fc(b, t, (double)(sizes[a] - 1));
    MlirValue atEnd = kilnCmpF(b, "oge", lo, last);
    lo = kilnSelect(b, atEnd, last, lo);
    p = kilnSelect(b, atEnd, last, p);
    MlirValue hi = kilnSelect(b, atEnd, last, kilnAddF(b, lo, one));
    frac[a] = kilnSubF(b, p, lo);
    lowI[a] = clampIndex(b, lo, sizes[a]);
    highI[a] = clampIndex(b, hi, sizes[a]);
  }
  MlirValue ly = frac[0], lx = frac[1];
  MlirValue hy = kilnSubF(b, one, ly), hx = kilnSubF(b, one, lx);
  MlirValue wts[4] = {kilnMulF(b, hy, hx), kilnMulF(b, hy, lx),
                      kilnMulF(b, ly, hx), kilnMulF(b, ly, lx)};
  MlirValue val = {NULL};
  for (int k = 0; k < 4; ++k) {
    MlirValue idx[4] = {bin->batchIdx, bin->chanIdx, k < 2 ? lowI[0] : highI[0],
                        k % 2 ? highI[1] : lowI[1]};
    MlirValue v = kilnMulF(b, wts[k], extractAs(b, r->x, 4, idx, t));
    if (mlirValueIsNull(val))
      val = v;
    else
      val = r->max ? kilnArith2(b, "arith.maximumf", val, v)
                   : kilnAddF(b, val, v);
  }
  return kilnSelect(b, outside, zero, val);
}

/* The coordinate of sample `i` of output cell `p` on one axis:
 * start + p * bin + (i + 0.5) * bin / grid. */
static MlirValue roiSampleCoord(KilnBuilder *b, MlirType t, MlirValue start,
                                MlirValue binSize, MlirValue grid, MlirValue p,
                                MlirValue i) {
  MlirValue pf = kilnConvertScalar(b, p, t, false);
  MlirValue f = kilnAddF(b, kilnConvertScalar(b, i, t, false), fc(b, t, 0.5));
  return kilnAddF(b, kilnAddF(b, start, kilnMulF(b, pf, binSize)),
                  kilnDivF(b, kilnMulF(b, f, binSize), grid));
}

typedef MlirValue (*LoopBodyFn)(KilnBuilder *b, MlirValue iv, MlirValue acc,
                                void *userData);

/* scf.for %iv = 0 to `ub` iter_args(%acc = init) { body }; returns the
 * final accumulator. */
static MlirValue buildFor(KilnBuilder *b, MlirValue ub, MlirValue init,
                          LoopBodyFn fn, void *userData) {
  MlirType idxT = mlirIndexTypeGet(b->ctx), accT = mlirValueGetType(init);
  MlirType argTypes[2] = {idxT, accT};
  MlirLocation locs[2] = {b->loc, b->loc};
  MlirBlock body = mlirBlockCreate(2, argTypes, locs);
  KilnBuilder inner = {b->ctx, b->loc, body, {NULL}};
  MlirValue next = fn(&inner, mlirBlockGetArgument(body, 0),
                      mlirBlockGetArgument(body, 1), userData);
  kilnBuildOp(&inner, "scf.yield", 0, NULL, 1, &next, 0, NULL);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirValue operands[4] = {kilnConstIndex(b, 0), ub, kilnConstIndex(b, 1),
                           init};
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.for"), b->loc);
  mlirOperationStateAddOperands(&st, 4, operands);
  mlirOperationStateAddResults(&st, 1, &accT);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  return mlirOperationGetResult(kilnBuildInsert(b, &st), 0);
}

static MlirValue roiInner(KilnBuilder *b, MlirValue ix, MlirValue acc,
                          void *userData) {
  const RoiBin *bin = userData;
  MlirType t = bin->r->ct;
  MlirValue y = roiSampleCoord(b, t, bin->startH, bin->binH, bin->gridH,
                               bin->ph, bin->iy);
  MlirValue x =
      roiSampleCoord(b, t, bin->startW, bin->binW, bin->gridW, bin->pw, ix);
  MlirValue v = roiSample(b, bin, y, x);
  return bin->r->max ? kilnArith2(b, "arith.maximumf", acc, v)
                     : kilnAddF(b, acc, v);
}

static MlirValue roiOuter(KilnBuilder *b, MlirValue iy, MlirValue acc,
                          void *userData) {
  RoiBin inner = *(const RoiBin *)userData;
  inner.iy = iy;
  MlirValue ub =
      kilnConvertScalar(b, inner.gridW, mlirIndexTypeGet(b->ctx), false);
  return buildFor(b, ub, acc, roiInner, &inner);
}

/* The sampling grid size on one axis: sampling_ratio, or ceil(bin size)
 * clamped to [0, ROI_MAX_GRID] (NaN → 0). */
static MlirValue roiGrid(KilnBuilder *b, const RoiAlign *r, MlirValue binSize) {
  MlirType t = r->ct;
  if (r->ratio > 0)
    return fc(b, t, (double)r->ratio);
  MlirValue g = kilnArith1(b, "math.ceil", binSize);
  g = kilnArith2(b, "arith.maxnumf", g, fc(b, t, 0));
  return kilnArith2(b, "arith.minnumf", g, fc(b, t, ROI_MAX_GRID));
}

static void roiAlignBody(KilnBuilder *b, const MlirValue *args,
                         MlirValue *yields, void *userData) {
  (void)args;
  const RoiAlign *r = userData;
  MlirType t = r->ct, i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue n = kilnLinalgIndex(b, 0);
  MlirValue coords[4];
  for (int k = 0; k < 4; ++k) {
    MlirValue idx[2] = {n, kilnConstIndex(b, k)};
    MlirValue c =
        kilnMulF(b, extractAs(b, r->rois, 2, idx, t), fc(b, t, r->scale));
    coords[k] = r->halfPixel ? kilnSubF(b, c, fc(b, t, 0.5)) : c;
  }
  MlirValue batch = extractAs(b, r->batch, 1, &n, i64);
  batch = kilnArith2(b, "arith.maxsi", batch, kilnConstInt(b, i64, 0));
  batch = kilnArith2(b, "arith.minsi", batch,
                     kilnConstInt(b, i64, kilnDim(r->x, 0) - 1));
  MlirValue roiW = kilnSubF(b, coords[2], coords[0]);
  MlirValue roiH = kilnSubF(b, coords[3], coords[1]);
  if (!r->halfPixel) { /* legacy: rois at least one pixel */
    roiW = kilnArith2(b, "arith.maxnumf", roiW, fc(b, t, 1));
    roiH = kilnArith2(b, "arith.maxnumf", roiH, fc(b, t, 1));
  }
  RoiBin bin = {
      .r = r,
      .batchIdx = kilnConvertScalar(b, batch, mlirIndexTypeGet(b->ctx), false),
      .chanIdx = kilnLinalgIndex(b, 1),
      .ph = kilnLinalgIndex(b, 2),
      .pw = kilnLinalgIndex(b, 3),
      .startH = coords[1],
      .startW = coords[0],
      .binH = kilnDivF(b, roiH, fc(b, t, (double)r->outH)),
      .binW = kilnDivF(b, roiW, fc(b, t, (double)r->outW)),
  };
  bin.gridH = roiGrid(b, r, bin.binH);
  bin.gridW = roiGrid(b, r, bin.binW);
  MlirValue init = r->max ? kilnConstLowest(b, t) : fc(b, t, 0);
  MlirValue ub =
      kilnConvertScalar(b, bin.gridH, mlirIndexTypeGet(b->ctx), false);
  MlirValue acc = buildFor(b, ub, init, roiOuter, &bin);
  MlirValue count = kilnMulF(b, bin.gridH, bin.gridW);
  MlirValue zero = fc(b, t, 0);
  if (r->max) /* no samples: 0, as ONNX's reference */
    acc = kilnSelect(b, kilnCmpF(b, "ogt", count, zero), acc, zero);
  else
    acc = kilnDivF(b, acc, kilnArith2(b, "arith.maxnumf", count, fc(b, t, 1)));
  yields[0] = kilnConvertScalar(b, acc, r->outElt, false);
}

KilnLowerStatus kilnLowerNNRoiAlign(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType rt = kilnLowerResultType(l, 0);
  int mode = kilnInferAttrChoice(&l->infer, "mode", "avg", kRoiModes);
  int coord = kilnInferAttrChoice(&l->infer, "coordinate_transformation_mode",
                                  "half_pixel", kRoiCoords);
  if (mode < 0 || coord < 0)
    return kilnLowerError(l, "has an unknown mode or "
                             "coordinate_transformation_mode");
  RoiAlign r = {
      .max = mode == 1,
      .halfPixel = coord == 0,
      .ratio = kilnInferAttrInt(&l->infer, "sampling_ratio", 0),
      .scale = kilnInferAttrFloat(&l->infer, "spatial_scale", 1.0f),
      .outH = mlirShapedTypeGetDimSize(rt, 2),
      .outW = mlirShapedTypeGetDimSize(rt, 3),
      .x = x,
      .rois = kilnLowerOperand(l, 1),
      .batch = kilnLowerOperand(l, 2),
      .ct = kilnNNComputeType(l->b.ctx, kilnElementType(x)),
      .outElt = mlirShapedTypeGetElementType(rt),
  };
  if (kilnNumElements(rt) == 0) {
    l->results[0] = kilnEmpty(&l->b, rt);
    return KILN_LOWER_OK;
  }
  if (kilnNumElements(mlirValueGetType(x)) == 0)
    return kilnLowerUnsupported(l, "with an empty 'x' and a non-empty result");
  l->results[0] = kilnElementwise(&l->b, 0, NULL, rt, roiAlignBody, &r);
  return KILN_LOWER_OK;
}

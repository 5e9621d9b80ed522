/* Convolutions and pools of dynamic shape (lower_conv.c and lower_pool.c
 * call these when an operand or the result has a dynamic dim): one
 * linalg.generic each, every size from the operands' dims at run time.
 *
 *   conv:     loops (n, m, o1..on | c, k1..kn)
 *             x[n, (m floordiv M/G) * C/G + c, o_i * s_i + k_i * d_i]
 *             w[m, c, k..]   out[n, m, o..] += x * w  (init: bias or 0)
 *   max_pool: loops (n, c, o.. | k..), out = max(out, x[n, c, o*s + k*d])
 *   average:  the same sum over x and over a tensor of ones padded like
 *             it, divided: the count of a window is what it covers
 *             (count_include_pad: the pads count as covered).
 *
 * The input is first padded to (padBegin + in + padEnd) per spatial dim
 * with the pad value (0, or the lowest value for max) by insert_slice into
 * a filled tensor. Output sizes are (padded - dilated kernel) / stride + 1.
 * With a dynamic spatial dim, auto_pad SAME's pads are computed at run
 * time too. What this file does not take (ceil_mode with explicit pads on
 * a dynamic spatial dim, a grouped conv whose channels are dynamic,
 * MaxPool's indices) is reported as unsupported. The static lowerings keep
 * their schedules (im2col, named ops, taps); these are the generic fallbacks.
 */
#include <string.h>

#include "conversions/graph-to-linalg/lower_conv_window.h"
#include "conversions/graph-to-linalg/lower_window_dynamic.h"
#include "support/ir_build.h"

/* A window's sizes as values: static ones as constants. */
typedef struct DynWindow {
  intptr_t n;
  int64_t strides[KILN_MAX_RANK], dilations[KILN_MAX_RANK];
  MlirValue padBegin[KILN_MAX_RANK], padEnd[KILN_MAX_RANK];
  MlirValue reach[KILN_MAX_RANK];  /* of padEnd, what ceil_mode adds */
  MlirValue kernel[KILN_MAX_RANK]; /* sizes of the kernel dims */
  MlirValue in[KILN_MAX_RANK];     /* spatial input sizes */
  MlirValue out[KILN_MAX_RANK];    /* spatial output sizes */
} DynWindow;

static bool spatialStatic(MlirValue x) {
  for (intptr_t i = 2; i < kilnRank(x); ++i)
    if (mlirShapedTypeIsDynamicSize(kilnDim(x, i)))
      return false;
  return true;
}

static MlirValue arith(KilnBuilder *b, const char *op, MlirValue x,
                       MlirValue y) {
  return kilnArith2(b, op, x, y);
}

/* Reads the window of `l` over x (N x C x D..) with kernel sizes
 * `kernel`. With static spatial dims, kilnWindowRead resolves every
 * attribute (auto_pad, ceil_mode) statically; otherwise pads must be
 * explicit (or VALID) and ceil_mode off. */
static KilnLowerStatus readWindow(KilnLowerOp *l, MlirValue x,
                                  const MlirValue *kernel, DynWindow *w) {
  KilnBuilder *b = &l->b;
  intptr_t n = kilnRank(x) - 2;
  w->n = n;
  memcpy(w->kernel, kernel, (size_t)n * sizeof(MlirValue));
  int64_t staticKernel[KILN_MAX_RANK];
  bool kernelStatic = true;
  for (intptr_t i = 0; i < n; ++i)
    kernelStatic &= kilnConstantIndexValue(kernel[i], &staticKernel[i]);
  MlirType result = kilnLowerResultType(l, 0);
  if (spatialStatic(x) && kernelStatic) {
    bool resultStatic = true;
    for (intptr_t i = 0; i < n; ++i)
      resultStatic &= !mlirShapedTypeIsDynamicDim(result, 2 + i);
    if (resultStatic) {
      KilnWindow sw;
      kilnWindowRead(l, x, result, staticKernel, &sw);
      for (intptr_t i = 0; i < n; ++i) {
        w->strides[i] = sw.strides[i];
        w->dilations[i] = sw.dilations[i];
        w->padBegin[i] = kilnConstIndex(b, sw.padBegin[i]);
        /* ceil_mode windows may reach past the end pad: pad to reach. */
        int64_t reach =
            (sw.out[i] - 1) * sw.strides[i] + kilnWindowDilatedKernel(&sw, i);
        int64_t end = sw.padBegin[i] + sw.in[i] + sw.padEnd[i];
        int64_t extra = reach > end ? reach - end : 0;
        w->reach[i] = kilnConstIndex(b, extra);
        w->padEnd[i] = kilnConstIndex(b, sw.padEnd[i] + extra);
        w->in[i] = kilnConstIndex(b, sw.in[i]);
        w->out[i] = kilnConstIndex(b, sw.out[i]);
      }
      return KILN_LOWER_OK;
    }
  }
  int autoPad = kilnWindowAutoPad(l);
  bool same = autoPad == KILN_PAD_SAME_UPPER || autoPad == KILN_PAD_SAME_LOWER;
  if (kilnInferAttrInt(&l->infer, "ceil_mode", 0) && !same)
    return kilnLowerUnsupported(l, "with ceil_mode and a dynamic spatial dim");
  int64_t v[2 * KILN_MAX_RANK];
  intptr_t len;
  len = kilnInferAttrInts(&l->infer, "strides", v, KILN_MAX_RANK);
  for (intptr_t i = 0; i < n; ++i)
    w->strides[i] = len == n ? v[i] : 1;
  len = kilnInferAttrInts(&l->infer, "dilations", v, KILN_MAX_RANK);
  for (intptr_t i = 0; i < n; ++i)
    w->dilations[i] = len == n ? v[i] : 1;
  len = kilnInferAttrInts(&l->infer, "pads", v, 2 * KILN_MAX_RANK);
  for (intptr_t i = 0; i < n; ++i) {
    bool explicitPads = autoPad == KILN_PAD_NOTSET && len == 2 * n;
    MlirValue zero = kilnConstIndex(b, 0), one = kilnConstIndex(b, 1);
    MlirValue stride = kilnConstIndex(b, w->strides[i]);
    w->padBegin[i] = kilnConstIndex(b, explicitPads ? v[i] : 0);
    w->padEnd[i] = kilnConstIndex(b, explicitPads ? v[n + i] : 0);
    w->reach[i] = zero;
    w->in[i] = kilnDimValue(b, x, 2 + i);
    MlirValue dk =
        arith(b, "arith.addi",
              arith(b, "arith.muli", arith(b, "arith.subi", kernel[i], one),
                    kilnConstIndex(b, w->dilations[i])),
              one);
    if (same) {
      /* ONNX: out = ceil(in / s), total = max((out - 1) * s + dk - in, 0),
       * the odd element at the end (SAME_UPPER) or the beginning. */
      w->out[i] = arith(b, "arith.ceildivsi", w->in[i], stride);
      MlirValue total =
          arith(b, "arith.subi",
                arith(b, "arith.addi",
                      arith(b, "arith.muli",
                            arith(b, "arith.subi", w->out[i], one), stride),
                      dk),
                w->in[i]);
      total = arith(b, "arith.maxsi", total, zero);
      MlirValue half = arith(b, "arith.divsi", total, kilnConstIndex(b, 2));
      w->padBegin[i] = autoPad == KILN_PAD_SAME_UPPER
                           ? half
                           : arith(b, "arith.subi", total, half);
      w->padEnd[i] = arith(b, "arith.subi", total, w->padBegin[i]);
      continue;
    }
    /* out = (padded - ((k - 1) * d + 1)) / s + 1 */
    MlirValue padded =
        arith(b, "arith.addi", w->in[i],
              arith(b, "arith.addi", w->padBegin[i], w->padEnd[i]));
    w->out[i] = arith(b, "arith.addi",
                      arith(b, "arith.floordivsi",
                            arith(b, "arith.subi", padded, dk), stride),
                      one);
  }
  return KILN_LOWER_OK;
}

/* x (N x C x D..) padded with `value`: padBegin before and padEnd after
 * each spatial dim; x itself without padding. */
static MlirValue pad(KilnBuilder *b, MlirValue x, const DynWindow *w,
                     MlirValue value) {
  bool needed = false;
  for (intptr_t i = 0; i < w->n; ++i) {
    int64_t begin, end;
    needed |= !kilnConstantIndexValue(w->padBegin[i], &begin) ||
              !kilnConstantIndexValue(w->padEnd[i], &end) || begin || end;
  }
  if (!needed)
    return x;
  intptr_t r = kilnRank(x);
  int64_t shape[KILN_MAX_RANK];
  MlirValue sizes[KILN_MAX_RANK], offsets[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    MlirValue grow =
        i >= 2 ? arith(b, "arith.addi", w->padBegin[i - 2], w->padEnd[i - 2])
               : kilnConstIndex(b, 0);
    sizes[i] = arith(b, "arith.addi", kilnDimValue(b, x, i), grow);
    offsets[i] = i >= 2 ? w->padBegin[i - 2] : kilnConstIndex(b, 0);
    int64_t dim = kilnDim(x, i), g;
    shape[i] =
        !mlirShapedTypeIsDynamicSize(dim) && kilnConstantIndexValue(grow, &g)
            ? dim + g
            : mlirShapedTypeGetDynamicSize();
  }
  MlirType type = kilnTensorType(r, shape, kilnElementType(x));
  MlirValue filled = kilnFill(b, value, kilnEmptySized(b, type, sizes));
  return kilnInsertSliceAt(b, x, filled, offsets);
}

/* The result tensor N x F x O.. (F: `features`, a dim value), filled with
 * `init`. */
static MlirValue outputFilled(KilnBuilder *b, MlirValue x, MlirValue features,
                              const DynWindow *w, MlirValue init) {
  intptr_t r = w->n + 2;
  int64_t shape[KILN_MAX_RANK];
  MlirValue sizes[KILN_MAX_RANK] = {kilnDimValue(b, x, 0), features};
  for (intptr_t i = 0; i < r; ++i) {
    if (i >= 2)
      sizes[i] = w->out[i - 2];
    int64_t c;
    shape[i] = kilnConstantIndexValue(sizes[i], &c)
                   ? c
                   : mlirShapedTypeGetDynamicSize();
  }
  MlirType type = kilnTensorType(r, shape, kilnElementType(x));
  return kilnFill(b, init, kilnEmptySized(b, type, sizes));
}

/* The conv's accumulator N x F x O..: the bias (F) broadcast, or zeros. */
static MlirValue outputWithBias(KilnBuilder *b, MlirValue x, MlirValue features,
                                const DynWindow *w, MlirValue bias) {
  intptr_t r = w->n + 2;
  MlirValue out =
      outputFilled(b, x, features, w, kilnConstFloat(b, kilnElementType(x), 0));
  if (mlirValueIsNull(bias))
    return out;
  int64_t one = 1;
  MlirAttribute maps[2] = {kilnMapDims(b->ctx, r, 1, &one),
                           kilnMapIdentity(b->ctx, r)};
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', (size_t)r);
  iters[r] = '\0';
  return mlirOperationGetResult(
      kilnGeneric(b, 1, &bias, 1, &out, maps, r, iters, kilnCopyBody, NULL), 0);
}

/* x's map: (n, f, o.., [c,] k..) -> (n, channel, o_i * s_i + k_i * d_i),
 * with the window loops after `first` (the o loops at 2..). */
static MlirAttribute windowInputMap(MlirContext ctx, const DynWindow *w,
                                    intptr_t nLoops, MlirAffineExpr channel,
                                    intptr_t firstKernelLoop) {
  MlirAffineExpr e[KILN_MAX_RANK];
  e[0] = mlirAffineDimExprGet(ctx, 0);
  e[1] = channel;
  for (intptr_t i = 0; i < w->n; ++i)
    e[2 + i] = mlirAffineAddExprGet(
        mlirAffineMulExprGet(mlirAffineDimExprGet(ctx, 2 + i),
                             mlirAffineConstantExprGet(ctx, w->strides[i])),
        mlirAffineMulExprGet(mlirAffineDimExprGet(ctx, firstKernelLoop + i),
                             mlirAffineConstantExprGet(ctx, w->dilations[i])));
  return kilnMapExprs(ctx, nLoops, w->n + 2, e);
}

static void macBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArithNumeric(b, "add", args[2],
                               kilnArithNumeric(b, "mul", args[0], args[1]));
}

/* ---- 1-D convs as products ------------------------------------------------
 *
 * A 1-D conv of dynamic length (an audio model's front end over any number
 * of frames) as the generic above runs scalar loops: its vectorized dim,
 * the output positions, is dynamic. With its weight static it is instead
 * the product of the window columns and the weight, in the static tiles of
 * the dynamic products (kilnTiledProduct):
 *
 *   cols[n, o, c, k] = padded[n, c, o * s + k * d]      (N x O x C x K)
 *   y    = collapse(cols) [N*O, C*K] x transpose(w) [C*K, M]
 *   out[n, m, o] = expand(y)[n, o, m] (+ bias[m])
 *
 * The columns are C*K times the input (one frame's window per row), which
 * for one spatial dim stays a few times the model's activations; 2-D and
 * 3-D convs keep the generic. */

/* Whether the conv goes through convAsProduct: the CPU's im2col path, one
 * spatial dim, no groups, float, a static weight (x's channels are checked
 * equal to the weight's at run time before). */
static bool convFitsProduct(KilnLowerOp *l, MlirValue x, MlirValue wt,
                            intptr_t n, int64_t group) {
  return l->convIm2col == 1 && n == 1 && group == 1 &&
         kilnTypeIsFloat(kilnElementType(x)) &&
         kilnTypeIsStaticTensor(mlirValueGetType(wt)) &&
         mlirShapedTypeGetDimSize(kilnLowerResultType(l, 0), 1) ==
             kilnDim(wt, 0);
}

/* Static sizes multiplied, dynamic when either is. */
static int64_t productSize(int64_t a, int64_t b) {
  return mlirShapedTypeIsDynamicSize(a) || mlirShapedTypeIsDynamicSize(b)
             ? mlirShapedTypeGetDynamicSize()
             : a * b;
}

/* The conv into `resultType` (N x M x O) as the product above. */
static MlirValue convAsProduct(KilnBuilder *b, MlirValue padded, MlirValue wt,
                               MlirValue bias, const DynWindow *w,
                               MlirType resultType) {
  MlirContext ctx = b->ctx;
  MlirType e = kilnElementType(padded);
  int64_t c = kilnDim(wt, 1), k = kilnDim(wt, 2), m = kilnDim(wt, 0);
  int64_t batch = mlirShapedTypeGetDimSize(resultType, 0),
          o = mlirShapedTypeGetDimSize(resultType, 2);
  MlirValue nSize = kilnDimValue(b, padded, 0), oSize = w->out[0];
  /* cols: loops (n, o, c, k), all parallel. */
  MlirAffineExpr d[4];
  for (intptr_t i = 0; i < 4; ++i)
    d[i] = mlirAffineDimExprGet(ctx, i);
  MlirAffineExpr in[3] = {
      d[0], d[2],
      mlirAffineAddExprGet(
          mlirAffineMulExprGet(d[1],
                               mlirAffineConstantExprGet(ctx, w->strides[0])),
          mlirAffineMulExprGet(
              d[3], mlirAffineConstantExprGet(ctx, w->dilations[0])))};
  int64_t colsShape[4] = {batch, o, c, k};
  MlirValue colsSizes[4] = {nSize, oSize};
  MlirAttribute colsMaps[2] = {kilnMapExprs(ctx, 4, 3, in),
                               kilnMapIdentity(ctx, 4)};
  MlirValue colsInit =
      kilnEmptySized(b, kilnTensorType(4, colsShape, e), colsSizes);
  MlirValue cols =
      mlirOperationGetResult(kilnGeneric(b, 1, &padded, 1, &colsInit, colsMaps,
                                         4, "pppp", kilnCopyBody, NULL),
                             0);
  int64_t rowsShape[2] = {productSize(batch, o), c * k};
  intptr_t halves[2] = {2, 2};
  MlirValue a =
      kilnReshapeGroups(b, cols, kilnTensorType(2, rowsShape, e), 2, halves);
  /* w as C*K x M. */
  int64_t flatW[2] = {m, c * k}, wT[2] = {c * k, m}, swap[2] = {1, 0};
  MlirValue wFlat = kilnReshape(b, wt, kilnTensorType(2, flatW, e));
  MlirValue bm = kilnCopyThroughMap(b, wFlat, kilnMapDims(ctx, 2, 2, swap),
                                    kilnTensorType(2, wT, e));
  int64_t yShape[2] = {rowsShape[0], m};
  MlirValue y = kilnTiledProduct(b, a, bm, kilnTensorType(2, yShape, e));
  int64_t nomShape[3] = {batch, o, m};
  MlirValue nomSizes[3] = {nSize, oSize};
  intptr_t groups[2] = {2, 1};
  MlirValue nom = kilnReshapeGroupsSized(b, y, kilnTensorType(3, nomShape, e),
                                         2, groups, nomSizes);
  /* out[n, m, o] = nom[n, o, m] (+ bias[m]). */
  int64_t perm[3] = {0, 2, 1}, biasDim = 1;
  MlirValue outSizes[3] = {nSize, {NULL}, oSize};
  MlirValue init = kilnEmptySized(b, resultType, outSizes);
  bool hasBias = !mlirValueIsNull(bias);
  MlirValue ins[2] = {nom, bias};
  MlirAttribute maps[3] = {kilnMapDims(ctx, 3, 3, perm),
                           kilnMapDims(ctx, 3, 1, &biasDim),
                           kilnMapIdentity(ctx, 3)};
  if (!hasBias)
    maps[1] = maps[2];
  return mlirOperationGetResult(
      kilnGeneric(b, hasBias ? 2 : 1, ins, 1, &init, maps, 3, "ppp",
                  hasBias ? kilnAddBody : kilnCopyBody, NULL),
      0);
}

KilnLowerStatus kilnLowerConvDynamic(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirContext ctx = b->ctx;
  MlirValue x = kilnLowerOperand(l, 0), wt = kilnLowerOperand(l, 1),
            bias = kilnLowerOperand(l, 2);
  intptr_t n = kilnRank(x) - 2;
  int64_t group = kilnInferAttrInt(&l->infer, "group", 1);
  /* The group's channels and filters from the weight (M x C/G x k..),
   * static where it is a constant even when x's channels are not. */
  int64_t cg = kilnDim(wt, 1), m = kilnDim(wt, 0);
  if (group != 1 &&
      (mlirShapedTypeIsDynamicSize(cg) || mlirShapedTypeIsDynamicSize(m)))
    return kilnLowerUnsupported(l, "grouped, with a dynamic channel count");
  MlirValue kernel[KILN_MAX_RANK];
  for (intptr_t i = 0; i < n; ++i)
    kernel[i] = kilnDimValue(b, wt, 2 + i);
  DynWindow w;
  KilnLowerStatus st = readWindow(l, x, kernel, &w);
  if (st != KILN_LOWER_OK)
    return st;
  /* x's channels are the filters' (per group). */
  kilnAssertEqual(
      b, kilnDimValue(b, x, 1),
      arith(b, "arith.muli", kilnDimValue(b, wt, 1), kilnConstIndex(b, group)),
      "the input's channels are not the filters' channels "
      "times the group count at run time");
  MlirType e = kilnElementType(x);
  MlirValue padded = pad(b, x, &w, kilnConstFloat(b, e, 0));
  if (convFitsProduct(l, x, wt, n, group)) {
    l->results[0] =
        convAsProduct(b, padded, wt, bias, &w, kilnLowerResultType(l, 0));
    return KILN_LOWER_OK;
  }
  MlirValue out = outputWithBias(b, x, kilnDimValue(b, wt, 0), &w, bias);
  /* loops: n, m, o.., c, k.. */
  intptr_t nLoops = 3 + 2 * n, cLoop = 2 + n;
  MlirAffineExpr channel = mlirAffineDimExprGet(ctx, cLoop);
  if (group != 1) {
    MlirAffineExpr g =
        mlirAffineFloorDivExprGet(mlirAffineDimExprGet(ctx, 1),
                                  mlirAffineConstantExprGet(ctx, m / group));
    channel = mlirAffineAddExprGet(
        mlirAffineMulExprGet(g, mlirAffineConstantExprGet(ctx, cg)), channel);
  }
  int64_t wDims[KILN_MAX_RANK + 2] = {1, cLoop}, oDims[KILN_MAX_RANK + 2];
  for (intptr_t i = 0; i < n; ++i)
    wDims[2 + i] = cLoop + 1 + i;
  for (intptr_t i = 0; i < n + 2; ++i)
    oDims[i] = i;
  MlirAttribute maps[3] = {windowInputMap(ctx, &w, nLoops, channel, cLoop + 1),
                           kilnMapDims(ctx, nLoops, n + 2, wDims),
                           kilnMapDims(ctx, nLoops, n + 2, oDims)};
  char iters[2 * KILN_MAX_RANK + 4];
  memset(iters, 'p', (size_t)cLoop);
  memset(iters + cLoop, 'r', (size_t)n + 1);
  iters[nLoops] = '\0';
  MlirValue in[2] = {padded, wt};
  l->results[0] = mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &out, maps, nLoops, iters, macBody, NULL), 0);
  return KILN_LOWER_OK;
}

/* ---- conv_transpose ------------------------------------------------------
 *
 *   loops (n, m, o1..on | c, k1..kn), w[c', m', k..] through the map,
 *   out[n, m, o..] += x[n, c', i..] * w   where o_j = i_j s_j - pb_j + k_j d_j
 *
 * x is read in the body (tensor.extract): tap k of output o reads input
 * i = (o + pb - k d) / s when that divides and lies in [0, in), and adds
 * nothing otherwise. With groups (static channels), c' = g C/G + c and
 * m' = m mod M/G for g = m floordiv M/G. */

typedef struct TransposeBody {
  MlirValue x;
  intptr_t n;
  int64_t group, cg, mg; /* cg, mg: channels and filters per group */
  int64_t strides[KILN_MAX_RANK], dilations[KILN_MAX_RANK];
  MlirValue padBegin[KILN_MAX_RANK], in[KILN_MAX_RANK];
} TransposeBody;

static void transposeBody(KilnBuilder *b, const MlirValue *args,
                          MlirValue *yields, void *userData) {
  const TransposeBody *t = userData;
  intptr_t n = t->n, cLoop = 2 + n;
  MlirValue zero = kilnConstIndex(b, 0), at[KILN_MAX_RANK + 1];
  MlirValue ok = kilnConstInt(b, mlirIntegerTypeGet(b->ctx, 1), 1);
  at[0] = t->x;
  at[1] = kilnLinalgIndex(b, 0);
  at[2] = kilnLinalgIndex(b, cLoop);
  if (t->group != 1) /* g C/G + c */
    at[2] = arith(b, "arith.addi",
                  arith(b, "arith.muli",
                        arith(b, "arith.divsi", kilnLinalgIndex(b, 1),
                              kilnConstIndex(b, t->mg)),
                        kilnConstIndex(b, t->cg)),
                  at[2]);
  for (intptr_t j = 0; j < n; ++j) {
    MlirValue s = kilnConstIndex(b, t->strides[j]);
    MlirValue tap =
        arith(b, "arith.subi",
              arith(b, "arith.addi", kilnLinalgIndex(b, 2 + j), t->padBegin[j]),
              arith(b, "arith.muli", kilnLinalgIndex(b, cLoop + 1 + j),
                    kilnConstIndex(b, t->dilations[j])));
    MlirValue i = arith(b, "arith.floordivsi", tap, s);
    MlirValue hit = kilnArith2(
        b, "arith.andi", kilnCmpI(b, "eq", arith(b, "arith.muli", i, s), tap),
        kilnArith2(b, "arith.andi", kilnCmpI(b, "sge", i, zero),
                   kilnCmpI(b, "slt", i, t->in[j])));
    ok = kilnArith2(b, "arith.andi", ok, hit);
    at[3 + j] = kilnSelect(b, hit, i, zero);
  }
  MlirValue v = kilnBuildOp1(b, "tensor.extract", kilnElementType(t->x), n + 3,
                             at, 0, NULL);
  MlirValue sum = kilnArithNumeric(b, "add", args[1],
                                   kilnArithNumeric(b, "mul", v, args[0]));
  yields[0] = kilnSelect(b, ok, sum, args[1]);
}

/* ONNX's output size and begin pad of spatial dim i: from output_shape or
 * SAME (out = in s), the pads derived from total = natural - out (the odd
 * one at the end for SAME_UPPER, else at the beginning); else from the
 * pads (VALID: none): out = natural - pb - pe, where natural =
 * s (in - 1) + output_padding + (k - 1) d + 1. */
static void transposeWindow(KilnLowerOp *l, MlirValue x, MlirValue wt,
                            intptr_t i, TransposeBody *t, MlirValue *out) {
  KilnBuilder *b = &l->b;
  intptr_t n = t->n;
  int64_t v[2 * KILN_MAX_RANK], outShape[KILN_MAX_RANK];
  int autoPad = kilnWindowAutoPad(l);
  bool same = autoPad == KILN_PAD_SAME_UPPER || autoPad == KILN_PAD_SAME_LOWER;
  bool given = kilnInferAttrInts(&l->infer, "output_shape", outShape,
                                 KILN_MAX_RANK) == n;
  intptr_t len =
      kilnInferAttrInts(&l->infer, "output_padding", v, KILN_MAX_RANK);
  MlirValue one = kilnConstIndex(b, 1), s = kilnConstIndex(b, t->strides[i]);
  MlirValue in = kilnDimValue(b, x, 2 + i);
  MlirValue dk =
      arith(b, "arith.addi",
            arith(b, "arith.muli",
                  arith(b, "arith.subi", kilnDimValue(b, wt, 2 + i), one),
                  kilnConstIndex(b, t->dilations[i])),
            one);
  MlirValue natural =
      arith(b, "arith.addi",
            arith(b, "arith.muli", arith(b, "arith.subi", in, one), s),
            arith(b, "arith.addi", kilnConstIndex(b, len == n ? v[i] : 0), dk));
  t->in[i] = in;
  if (given || same) {
    *out =
        given ? kilnConstIndex(b, outShape[i]) : arith(b, "arith.muli", in, s);
    MlirValue total = arith(b, "arith.subi", natural, *out);
    MlirValue half = arith(b, "arith.floordivsi", total, kilnConstIndex(b, 2));
    t->padBegin[i] = autoPad == KILN_PAD_SAME_UPPER
                         ? half
                         : arith(b, "arith.subi", total, half);
    return;
  }
  len = kilnInferAttrInts(&l->infer, "pads", v, 2 * KILN_MAX_RANK);
  bool explicitPads = autoPad == KILN_PAD_NOTSET && len == 2 * n;
  t->padBegin[i] = kilnConstIndex(b, explicitPads ? v[i] : 0);
  *out = arith(b, "arith.subi", natural,
               kilnConstIndex(b, explicitPads ? v[i] + v[n + i] : 0));
}

KilnLowerStatus kilnLowerConvTransposeDynamic(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirContext ctx = b->ctx;
  MlirValue x = kilnLowerOperand(l, 0), wt = kilnLowerOperand(l, 1),
            bias = kilnLowerOperand(l, 2);
  TransposeBody t = {.x = x, .n = kilnRank(x) - 2};
  intptr_t n = t.n;
  t.group = kilnInferAttrInt(&l->infer, "group", 1);
  /* The group's channels and filters from the weight (C x M/G x k..). */
  int64_t c = kilnDim(wt, 0), mg = kilnDim(wt, 1);
  if (t.group != 1 &&
      (mlirShapedTypeIsDynamicSize(c) || mlirShapedTypeIsDynamicSize(mg)))
    return kilnLowerUnsupported(l, "grouped, with a dynamic channel count");
  t.cg = c / t.group;
  t.mg = mg;
  int64_t v[KILN_MAX_RANK];
  intptr_t len = kilnInferAttrInts(&l->infer, "strides", v, KILN_MAX_RANK);
  for (intptr_t i = 0; i < n; ++i)
    t.strides[i] = len == n ? v[i] : 1;
  len = kilnInferAttrInts(&l->infer, "dilations", v, KILN_MAX_RANK);
  for (intptr_t i = 0; i < n; ++i)
    t.dilations[i] = len == n ? v[i] : 1;
  DynWindow w = {.n = n};
  for (intptr_t i = 0; i < n; ++i) {
    transposeWindow(l, x, wt, i, &t, &w.out[i]);
    kilnAssert(b, kilnCmpI(b, "sge", w.out[i], kilnConstIndex(b, 0)),
               "the output size is negative at run time (pads larger than "
               "the output)");
  }
  /* x's channels are w's first dim. */
  kilnAssertEqual(b, kilnDimValue(b, x, 1), kilnDimValue(b, wt, 0),
                  "the input's channels are not the weight's first dim at "
                  "run time");
  MlirValue filters = arith(b, "arith.muli", kilnDimValue(b, wt, 1),
                            kilnConstIndex(b, t.group));
  MlirValue out = outputWithBias(b, x, filters, &w, bias);
  /* loops: n, m, o.., c, k..; w read at (c, m, k..), or with groups first
   * copied to M x C/G x k.. (m, c, k) -> w[g C/G + c, m mod M/G, k] (a map
   * the loop sizes cannot be read through). */
  intptr_t nLoops = 3 + 2 * n, cLoop = 2 + n;
  MlirAffineExpr we[KILN_MAX_RANK + 2];
  we[0] = mlirAffineDimExprGet(ctx, cLoop);
  we[1] = mlirAffineDimExprGet(ctx, 1);
  if (t.group != 1) {
    MlirAffineExpr m = mlirAffineDimExprGet(ctx, 0);
    MlirAffineExpr mgE = mlirAffineConstantExprGet(ctx, t.mg);
    MlirAffineExpr copy[KILN_MAX_RANK + 2] = {
        mlirAffineAddExprGet(
            mlirAffineMulExprGet(mlirAffineFloorDivExprGet(m, mgE),
                                 mlirAffineConstantExprGet(ctx, t.cg)),
            mlirAffineDimExprGet(ctx, 1)),
        mlirAffineModExprGet(m, mgE)};
    int64_t shape[KILN_MAX_RANK + 2] = {t.group * t.mg, t.cg};
    for (intptr_t i = 0; i < n; ++i) {
      copy[2 + i] = mlirAffineDimExprGet(ctx, 2 + i);
      shape[2 + i] = kilnDim(wt, 2 + i);
    }
    wt = kilnCopyThroughMap(b, wt, kilnMapExprs(ctx, n + 2, n + 2, copy),
                            kilnTensorType(n + 2, shape, kilnElementType(wt)));
    we[0] = mlirAffineDimExprGet(ctx, 1);
    we[1] = mlirAffineDimExprGet(ctx, cLoop);
  }
  for (intptr_t i = 0; i < n; ++i)
    we[2 + i] = mlirAffineDimExprGet(ctx, cLoop + 1 + i);
  int64_t oDims[KILN_MAX_RANK + 2];
  for (intptr_t i = 0; i < n + 2; ++i)
    oDims[i] = i;
  MlirAttribute maps[2] = {kilnMapExprs(ctx, nLoops, n + 2, we),
                           kilnMapDims(ctx, nLoops, n + 2, oDims)};
  char iters[2 * KILN_MAX_RANK + 4];
  memset(iters, 'p', (size_t)cLoop);
  memset(iters + cLoop, 'r', (size_t)n + 1);
  iters[nLoops] = '\0';
  l->results[0] = mlirOperationGetResult(
      kilnGeneric(b, 1, &wt, 1, &out, maps, nLoops, iters, transposeBody, &t),
      0);
  return KILN_LOWER_OK;
}

/* A window reduction over x (loops n, c, o.., k..; the kernel's extent
 * from a kernel-shaped tensor) with `body` (args: x, kernel, acc). */
static MlirValue windowReduce(KilnBuilder *b, MlirValue x, const DynWindow *w,
                              const int64_t *kernel, MlirValue init,
                              KilnBodyFn body, void *userData) {
  MlirContext ctx = b->ctx;
  intptr_t n = w->n, nLoops = 2 + 2 * n;
  MlirValue in[2] = {
      x, kilnEmpty(b, kilnTensorType(n, kernel, kilnElementType(x)))};
  int64_t kDims[KILN_MAX_RANK], oDims[KILN_MAX_RANK + 2];
  for (intptr_t i = 0; i < n; ++i)
    kDims[i] = 2 + n + i;
  for (intptr_t i = 0; i < n + 2; ++i)
    oDims[i] = i;
  MlirAttribute maps[3] = {
      windowInputMap(ctx, w, nLoops, mlirAffineDimExprGet(ctx, 1), 2 + n),
      kilnMapDims(ctx, nLoops, n, kDims),
      kilnMapDims(ctx, nLoops, n + 2, oDims)};
  char iters[2 * KILN_MAX_RANK + 3];
  memset(iters, 'p', (size_t)n + 2);
  memset(iters + n + 2, 'r', (size_t)n);
  iters[nLoops] = '\0';
  return mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &init, maps, nLoops, iters, body, userData), 0);
}

static void maxBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArithNumeric(b, "max", args[2], args[0]);
}

static void sumBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArithNumeric(b, "add", args[2], args[0]);
}

static void divBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArith2(b, "arith.divf", args[0], args[1]);
}

/* The pool's window with its kernel_shape (static, required by ONNX). */
static KilnLowerStatus readPoolWindow(KilnLowerOp *l, MlirValue x,
                                      int64_t *kernel, DynWindow *w) {
  intptr_t n = kilnRank(x) - 2;
  if (kilnInferAttrInts(&l->infer, "kernel_shape", kernel, KILN_MAX_RANK) != n)
    return kilnLowerError(l, "kernel_shape must have %ld entries", (long)n);
  MlirValue k[KILN_MAX_RANK];
  for (intptr_t i = 0; i < n; ++i)
    k[i] = kilnConstIndex(&l->b, kernel[i]);
  return readWindow(l, x, k, w);
}

KilnLowerStatus kilnLowerMaxPoolDynamic(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType e = kilnElementType(x);
  if (l->numResults > 1)
    return kilnLowerUnsupported(l, "with indices and a dynamic shape");
  if (!kilnTypeIsFloat(e))
    return kilnLowerUnsupported(l, "on integers with a dynamic shape");
  int64_t kernel[KILN_MAX_RANK];
  DynWindow w;
  KilnLowerStatus st = readPoolWindow(l, x, kernel, &w);
  if (st != KILN_LOWER_OK)
    return st;
  MlirValue lowest = kilnConstLowest(b, e);
  MlirValue padded = pad(b, x, &w, lowest);
  MlirValue init = outputFilled(b, x, kilnDimValue(b, x, 1), &w, lowest);
  l->results[0] = windowReduce(b, padded, &w, kernel, init, maxBody, NULL);
  return KILN_LOWER_OK;
}

/* A tensor 1 x 1 x S.. filled with `value`. */
static MlirValue unitBatchFilled(KilnBuilder *b, MlirType e, intptr_t n,
                                 const MlirValue *spatial, MlirValue value) {
  MlirValue one = kilnConstIndex(b, 1);
  MlirValue sizes[KILN_MAX_RANK] = {one, one};
  int64_t shape[KILN_MAX_RANK] = {1, 1};
  for (intptr_t i = 0; i < n; ++i) {
    sizes[2 + i] = spatial[i];
    int64_t c;
    shape[2 + i] = kilnConstantIndexValue(spatial[i], &c)
                       ? c
                       : mlirShapedTypeGetDynamicSize();
  }
  return kilnFill(b, value,
                  kilnEmptySized(b, kilnTensorType(n + 2, shape, e), sizes));
}

KilnLowerStatus kilnLowerAveragePoolDynamic(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType e = kilnElementType(x);
  if (!kilnTypeIsFloat(e))
    return kilnLowerUnsupported(l, "on integers with a dynamic shape");
  int64_t kernel[KILN_MAX_RANK];
  DynWindow w;
  KilnLowerStatus st = readPoolWindow(l, x, kernel, &w);
  if (st != KILN_LOWER_OK)
    return st;
  MlirValue zero = kilnConstFloat(b, e, 0), one = kilnConstFloat(b, e, 1);
  MlirValue sum = windowReduce(
      b, pad(b, x, &w, zero), &w, kernel,
      outputFilled(b, x, kilnDimValue(b, x, 1), &w, zero), sumBody, NULL);
  /* Each window's count: the same sum over ones where x is (and, with
   * count_include_pad, where its explicit pads are), zeros elsewhere
   * (ceil_mode's reach past the pads never counts), for one batch and
   * channel: 1 x 1 x O.. */
  bool includePad = kilnInferAttrInt(&l->infer, "count_include_pad", 0) == 1;
  intptr_t n = w.n;
  MlirValue covered[KILN_MAX_RANK];
  DynWindow around = w;
  for (intptr_t i = 0; i < n; ++i) {
    covered[i] = w.in[i];
    if (includePad) {
      MlirValue explicitPads =
          arith(b, "arith.subi",
                arith(b, "arith.addi", w.padBegin[i], w.padEnd[i]), w.reach[i]);
      covered[i] = arith(b, "arith.addi", w.in[i], explicitPads);
      around.padBegin[i] = kilnConstIndex(b, 0);
      around.padEnd[i] = w.reach[i];
    }
  }
  MlirValue ones =
      pad(b, unitBatchFilled(b, e, n, covered, one), &around, zero);
  MlirValue counts =
      windowReduce(b, ones, &w, kernel, unitBatchFilled(b, e, n, w.out, zero),
                   sumBody, NULL);
  MlirValue in[2] = {sum, counts};
  l->results[0] =
      kilnElementwise(b, 2, in, mlirValueGetType(sum), divBody, NULL);
  return KILN_LOWER_OK;
}

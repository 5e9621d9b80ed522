/* Tensor graph ops that compute their elements from indices (ops_tensor.c,
 * ops_tensor_index.c, ops_tensor_data.c) → linalg: range, pad,
 * trilu, constant_of_shape, eye_like, reverse_sequence. Registered in
 * lower_tensor.c's table.
 *
 * Bodies do index arithmetic on `index` values from linalg.index and read
 * the input with tensor.extract where the source position is not an affine
 * function of the loop indices (reflect padding, reversed sequences). */
#include <string.h>

#include "conversions/graph-to-linalg/lower_tensor.h"
#include "support/ir_build.h"

/* A result with no elements needs no computation (and generics with
 * offset maps over empty loops fail linalg's static bounds check). */
static bool emptyResult(KilnLowerOp *l) {
  MlirType type = kilnLowerResultType(l, 0);
  if (!kilnTypeIsStaticTensor(type) || kilnNumElements(type) != 0)
    return false;
  l->results[0] = kilnEmpty(&l->b, type);
  return true;
}

/* A generic with no inputs over the result's shape (identity map): the body
 * computes each element from linalg.index values. */
static MlirValue indexGeneric(KilnBuilder *b, MlirType type, intptr_t nInputs,
                              const MlirValue *inputs,
                              const MlirAttribute *inputMaps, KilnBodyFn body,
                              void *userData) {
  intptr_t r = mlirShapedTypeGetRank(type);
  MlirAttribute maps[4];
  for (intptr_t i = 0; i < nInputs; ++i)
    maps[i] = inputMaps[i];
  maps[nInputs] = kilnMapIdentity(b->ctx, r);
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', (size_t)r);
  iters[r] = '\0';
  MlirValue init = kilnEmpty(b, type);
  return mlirOperationGetResult(
      kilnGeneric(b, nInputs, inputs, 1, &init, maps, r, iters, body, userData),
      0);
}

/* indexGeneric over the shape of `like` (a tensor of type's rank, whose
 * dims size the dynamic ones). */
static MlirValue indexGenericLike(KilnBuilder *b, MlirType type, MlirValue like,
                                  KilnBodyFn body, void *userData) {
  MlirValue sizes[KILN_MAX_RANK];
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(type); ++i)
    sizes[i] = kilnDimValue(b, like, i);
  return kilnGenerate(b, type, sizes, body, userData);
}

static MlirValue subIndex(KilnBuilder *b, MlirValue x, MlirValue y) {
  return kilnArith2(b, "arith.subi", x, y);
}

/* ---- range --------------------------------------------------------------- */

/* args: start, delta, out. start + i * delta, as ONNX's reference does. */
static void rangeBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                      void *userData) {
  (void)userData;
  MlirType elt = mlirValueGetType(args[0]);
  MlirValue i = kilnConvertScalar(b, kilnLinalgIndex(b, 0), elt, false);
  yields[0] = kilnArithNumeric(b, "add", args[0],
                               kilnArithNumeric(b, "mul", i, args[1]));
}

/* A range of run-time length: start and delta read before the generic. */
typedef struct RangeScalars {
  MlirValue start, delta;
} RangeScalars;

static void rangeScalarsBody(KilnBuilder *b, const MlirValue *args,
                             MlirValue *yields, void *userData) {
  (void)args;
  RangeScalars *r = userData;
  MlirValue in[2] = {r->start, r->delta};
  rangeBody(b, in, yields, NULL);
}

/* The integer count max(ceil((limit - start) / delta), 0), as inference
 * computes it for constants (rangeIntLength in ops_tensor_index.c), in i64
 * (narrower types sign-extended first): a zero delta and a difference
 * that overflows are run-time errors. */
static MlirValue rangeIntCount(KilnBuilder *b, MlirValue start, MlirValue limit,
                               MlirValue delta) {
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  start = kilnConvertScalar(b, start, i64, false);
  limit = kilnConvertScalar(b, limit, i64, false);
  delta = kilnConvertScalar(b, delta, i64, false);
  MlirValue zero = kilnConstInt(b, i64, 0), one = kilnConstInt(b, i64, 1);
  kilnAssert(b, kilnCmpI(b, "ne", delta, zero),
             "operand 'delta' must not be zero");
  MlirValue diff = kilnArith2(b, "arith.subi", limit, start);
  /* Signed overflow: limit and start differ in sign and so do limit and
   * the difference. */
  MlirValue overflow =
      kilnArith2(b, "arith.andi", kilnArith2(b, "arith.xori", limit, start),
                 kilnArith2(b, "arith.xori", limit, diff));
  kilnAssert(b, kilnCmpI(b, "sge", overflow, zero),
             "the range's limit - start overflows int64");
  MlirValue up = kilnCmpI(b, "sgt", diff, zero);
  MlirValue empty =
      kilnArith2(b, "arith.ori", kilnCmpI(b, "eq", diff, zero),
                 kilnCmpI(b, "ne", up, kilnCmpI(b, "sgt", delta, zero)));
  MlirValue span =
      kilnSelect(b, up, diff, kilnArith2(b, "arith.subi", zero, diff));
  /* A failed check does not stop the computation: a zero delta divides
   * by 1. */
  MlirValue step =
      kilnSelect(b, kilnCmpI(b, "sgt", delta, zero), delta,
                 kilnSelect(b, kilnCmpI(b, "eq", delta, zero), one,
                            kilnArith2(b, "arith.subi", zero, delta)));
  /* (span - 1) / step + 1, unsigned: span and step may be 2^63. */
  MlirValue n =
      kilnArith2(b, "arith.addi",
                 kilnArith2(b, "arith.divui",
                            kilnArith2(b, "arith.subi", span, one), step),
                 one);
  kilnAssert(b, kilnArith2(b, "arith.ori", empty, kilnCmpI(b, "sge", n, zero)),
             "the range's length overflows int64");
  return kilnSelect(b, empty, zero, n);
}

/* The float count max(ceil((limit - start) / delta), 0), in f64 as
 * inference computes it for constants; a count that is not below 2^62
 * (NaN, infinities) is a run-time error. */
static MlirValue rangeFloatCount(KilnBuilder *b, MlirValue start,
                                 MlirValue limit, MlirValue delta) {
  MlirType f64 = mlirF64TypeGet(b->ctx), i64 = mlirIntegerTypeGet(b->ctx, 64);
  start = kilnConvertScalar(b, start, f64, false);
  limit = kilnConvertScalar(b, limit, f64, false);
  delta = kilnConvertScalar(b, delta, f64, false);
  MlirValue n =
      kilnArith1(b, "math.ceil", kilnDivF(b, kilnSubF(b, limit, start), delta));
  kilnAssert(b, kilnCmpF(b, "olt", n, kilnConstFloat(b, f64, 0x1p62)),
             "the range has no representable length");
  MlirValue positive = kilnCmpF(b, "ogt", n, kilnConstFloat(b, f64, 0));
  return kilnSelect(b, positive, kilnConvertScalar(b, n, i64, false),
                    kilnConstInt(b, i64, 0));
}

KilnLowerStatus kilnLowerTensorRange(KilnLowerOp *l) {
  if (emptyResult(l))
    return KILN_LOWER_OK;
  MlirType type = kilnLowerResultType(l, 0);
  if (kilnTypeIsStaticTensor(type)) {
    MlirValue in[2] = {kilnLowerOperand(l, 0), kilnLowerOperand(l, 2)};
    l->results[0] = kilnElementwise(&l->b, 2, in, type, rangeBody, NULL);
    return KILN_LOWER_OK;
  }
  /* A length known only at run time (position ids: Range(0, seq, 1)). */
  KilnBuilder *b = &l->b;
  RangeScalars r = {kilnTensorExtractFirst(b, kilnLowerOperand(l, 0)),
                    kilnTensorExtractFirst(b, kilnLowerOperand(l, 2))};
  MlirValue limit = kilnTensorExtractFirst(b, kilnLowerOperand(l, 1));
  MlirValue n = kilnTypeIsFloat(mlirValueGetType(r.start))
                    ? rangeFloatCount(b, r.start, limit, r.delta)
                    : rangeIntCount(b, r.start, limit, r.delta);
  n = kilnConvertScalar(b, n, mlirIndexTypeGet(b->ctx), false);
  l->results[0] = kilnGenerate(b, type, &n, rangeScalarsBody, &r);
  return KILN_LOWER_OK;
}

/* ---- pad ----------------------------------------------------------------- */

typedef enum PadMode { PAD_CONSTANT, PAD_REFLECT, PAD_EDGE, PAD_WRAP } PadMode;

typedef struct PadInfo {
  MlirValue x;
  PadMode mode;
  int64_t before[KILN_MAX_RANK], after[KILN_MAX_RANK];
  MlirValue dims[KILN_MAX_RANK]; /* x's dims (non-constant modes) */
} PadInfo;

/* Reads pads (and axes) into per-dim before/after amounts. */
static KilnLowerStatus readPads(KilnLowerOp *l, intptr_t r, PadInfo *p) {
  int64_t pads[2 * KILN_MAX_RANK], axes[KILN_MAX_RANK];
  intptr_t n = kilnInferConstantInts(&l->infer, 1, pads, 2 * KILN_MAX_RANK),
           na = r;
  if (n < 0)
    return kilnLowerUnsupported(l, "with operand 'pads' unknown at compile "
                                   "time");
  if (!mlirValueIsNull(kilnLowerOperand(l, 3))) {
    na = kilnInferConstantInts(&l->infer, 3, axes, KILN_MAX_RANK);
    if (na < 0)
      return kilnLowerUnsupported(l, "with operand 'axes' unknown at compile "
                                     "time");
  } else {
    for (intptr_t k = 0; k < r; ++k)
      axes[k] = k;
  }
  if (na > r || n != 2 * na)
    return kilnLowerError(l, "operand 'pads' has %ld entries for %ld axes",
                          (long)n, (long)na);
  memset(p->before, 0, sizeof(p->before));
  memset(p->after, 0, sizeof(p->after));
  for (intptr_t k = 0; k < na; ++k) {
    int64_t a;
    if (!kilnLowerAxis(l, axes[k], r, &a))
      return KILN_LOWER_ERROR;
    p->before[a] = pads[k];
    p->after[a] = pads[k + na];
  }
  return KILN_LOWER_OK;
}

/* Constant mode: a filled tensor with the (cropped) input inserted. */
static MlirValue padConstant(KilnLowerOp *l, const PadInfo *p, MlirType type) {
  KilnBuilder *b = &l->b;
  MlirValue x = p->x;
  intptr_t r = kilnRank(x);
  MlirValue cv = kilnLowerOperand(l, 2);
  MlirValue value = mlirValueIsNull(cv)
                        ? kilnConstFloat(b, kilnElementType(x), 0)
                        : kilnTensorExtractFirst(b, cv);
  MlirValue out = kilnFilled(b, type, value);
  int64_t cropAt[KILN_MAX_RANK], sizes[KILN_MAX_RANK], at[KILN_MAX_RANK],
      ones[KILN_MAX_RANK];
  bool crop = false;
  int64_t count = 1;
  for (intptr_t i = 0; i < r; ++i) {
    int64_t lo = p->before[i] < 0 ? -p->before[i] : 0;
    int64_t hi = p->after[i] < 0 ? -p->after[i] : 0;
    cropAt[i] = lo;
    sizes[i] = kilnDim(x, i) - lo - hi;
    at[i] = p->before[i] > 0 ? p->before[i] : 0;
    ones[i] = 1;
    crop |= lo || hi;
    count *= sizes[i] > 0 ? sizes[i] : 0;
  }
  if (count == 0)
    return out;
  if (crop)
    x = kilnExtractSlice(b, x, cropAt, sizes, ones);
  return kilnInsertSlice(b, x, out, at, ones);
}

/* Constant mode on a dynamic shape (pads not negative): a filled tensor
 * of x's dims plus the pads with x inserted at the leading pads. */
static MlirValue padConstantDynamic(KilnLowerOp *l, const PadInfo *p,
                                    MlirType type) {
  KilnBuilder *b = &l->b;
  intptr_t r = kilnRank(p->x);
  MlirValue cv = kilnLowerOperand(l, 2);
  MlirValue value = mlirValueIsNull(cv)
                        ? kilnConstFloat(b, kilnElementType(p->x), 0)
                        : kilnTensorExtractFirst(b, cv);
  MlirValue sizes[KILN_MAX_RANK], at[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    sizes[i] = kilnArith2(b, "arith.addi", kilnDimValue(b, p->x, i),
                          kilnConstIndex(b, p->before[i] + p->after[i]));
    at[i] = kilnConstIndex(b, p->before[i]);
  }
  MlirValue out = kilnFill(b, value, kilnEmptySized(b, type, sizes));
  return kilnInsertSliceAt(b, p->x, out, at);
}

/* Non-constant modes crop first (negative pads), then pad what is left:
 * reflection and wrapping see the cropped tensor. */
static void cropNegativePads(KilnBuilder *b, PadInfo *p) {
  intptr_t r = kilnRank(p->x);
  int64_t at[KILN_MAX_RANK], sizes[KILN_MAX_RANK], ones[KILN_MAX_RANK];
  bool crop = false;
  for (intptr_t i = 0; i < r; ++i) {
    int64_t lo = p->before[i] < 0 ? -p->before[i] : 0;
    int64_t hi = p->after[i] < 0 ? -p->after[i] : 0;
    at[i] = lo;
    sizes[i] = kilnDim(p->x, i) - lo - hi;
    ones[i] = 1;
    crop |= lo || hi;
    p->before[i] -= p->before[i] < 0 ? p->before[i] : 0;
    p->after[i] -= p->after[i] < 0 ? p->after[i] : 0;
  }
  if (crop)
    p->x = kilnExtractSlice(b, p->x, at, sizes, ones);
}

/* The source index of output index `i` along a dim of size `d` padded by
 * `before`: clamped (edge), mirrored without repeating the border
 * (reflect, periodically as numpy does for large pads) or wrapped. */
static MlirValue padSourceIndex(KilnBuilder *b, PadMode mode, MlirValue i,
                                int64_t before, MlirValue d) {
  MlirValue j = subIndex(b, i, kilnConstIndex(b, before));
  MlirValue one = kilnConstIndex(b, 1);
  if (mode == PAD_EDGE) {
    MlirValue lo = kilnArith2(b, "arith.maxsi", j, kilnConstIndex(b, 0));
    return kilnArith2(b, "arith.minsi", lo, subIndex(b, d, one));
  }
  /* The period: d (wrap) or 2 (d - 1) (reflect; at least 1, for d = 1,
   * whose every index is 0). d > 0: the lowering checks it. */
  MlirValue per =
      mode == PAD_WRAP
          ? d
          : kilnArith2(b, "arith.maxsi",
                       kilnArith2(b, "arith.muli", subIndex(b, d, one),
                                  kilnConstIndex(b, 2)),
                       one);
  /* ((j % period) + period) % period: a non-negative remainder. */
  MlirValue m = kilnArith2(b, "arith.remsi", j, per);
  m = kilnArith2(b, "arith.remsi", kilnArith2(b, "arith.addi", m, per), per);
  if (mode == PAD_WRAP)
    return m;
  MlirValue past = kilnCmpI(b, "sge", m, d);
  return kilnSelect(b, past, subIndex(b, per, m), m);
}

static void padBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)args;
  const PadInfo *p = userData;
  intptr_t r = kilnRank(p->x);
  MlirValue idx[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    idx[i] = kilnLinalgIndex(b, i);
    if (p->before[i] || p->after[i])
      idx[i] = padSourceIndex(b, p->mode, idx[i], p->before[i], p->dims[i]);
  }
  yields[0] = kilnTensorExtractAt(b, p->x, idx);
}

/* Edge, reflect and wrap on a dynamic shape (pads not negative): the
 * output (x's dims plus the pads) read from x at padSourceIndex, after a
 * check that each padded dim has an element to repeat. */
static MlirValue padRepeatDynamic(KilnLowerOp *l, PadInfo *p, MlirType type) {
  KilnBuilder *b = &l->b;
  intptr_t r = kilnRank(p->x);
  MlirValue sizes[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    p->dims[i] = kilnDimValue(b, p->x, i);
    sizes[i] = kilnArith2(b, "arith.addi", p->dims[i],
                          kilnConstIndex(b, p->before[i] + p->after[i]));
    if (p->before[i] || p->after[i])
      kilnAssert(b, kilnCmpI(b, "sgt", p->dims[i], kilnConstIndex(b, 0)),
                 "an axis to pad by repeating has no elements at run time");
  }
  return kilnGenerate(b, type, sizes, padBody, p);
}

KilnLowerStatus kilnLowerTensorPad(KilnLowerOp *l) {
  static const char *const kModes[] = {"constant", "reflect", "edge", "wrap"};
  PadInfo p = {.x = kilnLowerOperand(l, 0)};
  MlirType type = kilnLowerResultType(l, 0);
  intptr_t r = kilnRank(p.x);
  KilnLowerStatus status = readPads(l, r, &p);
  if (status != KILN_LOWER_OK)
    return status;
  MlirStringRef mode = kilnInferAttrString(&l->infer, "mode", "constant");
  int m = 0;
  while (m < 4 && !(mode.length == strlen(kModes[m]) &&
                    !memcmp(mode.data, kModes[m], mode.length)))
    ++m;
  if (m == 4)
    return kilnLowerUnsupported(l, "with mode '%.*s'", (int)mode.length,
                                mode.data);
  p.mode = (PadMode)m;
  if (kilnLowerIsDynamic(l)) {
    for (intptr_t i = 0; i < r; ++i)
      if (p.before[i] < 0 || p.after[i] < 0)
        return kilnLowerUnsupported(l, "with negative pads on a dynamic "
                                       "shape");
    if (p.mode == PAD_CONSTANT) {
      l->results[0] = padConstantDynamic(l, &p, type);
      return KILN_LOWER_OK;
    }
    l->results[0] = padRepeatDynamic(l, &p, type);
    return KILN_LOWER_OK;
  }
  if (emptyResult(l))
    return KILN_LOWER_OK;
  if (p.mode == PAD_CONSTANT) {
    l->results[0] = padConstant(l, &p, type);
    return KILN_LOWER_OK;
  }
  for (intptr_t i = 0; i < r; ++i)
    if (kilnDim(p.x, i) + (p.before[i] < 0 ? p.before[i] : 0) +
            (p.after[i] < 0 ? p.after[i] : 0) <=
        0)
      return kilnLowerUnsupported(l,
                                  "in mode '%s' of an axis (%ld) with no "
                                  "elements left to repeat",
                                  kModes[m], (long)i);
  cropNegativePads(&l->b, &p);
  for (intptr_t i = 0; i < r; ++i)
    p.dims[i] = kilnConstIndex(&l->b, kilnDim(p.x, i));
  l->results[0] = indexGeneric(&l->b, type, 0, NULL, NULL, padBody, &p);
  return KILN_LOWER_OK;
}

/* ---- trilu, eye_like ----------------------------------------------------- */

typedef struct DiagInfo {
  MlirValue k; /* index: the diagonal */
  intptr_t rowDim;
  bool upper;
} DiagInfo;

/* args: x, out. Keeps x where col - row >= k (upper) or <= k (lower). */
static void triluBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                      void *userData) {
  const DiagInfo *d = userData;
  MlirValue diff = subIndex(b, kilnLinalgIndex(b, d->rowDim + 1),
                            kilnLinalgIndex(b, d->rowDim));
  MlirValue keep = kilnCmpI(b, d->upper ? "sge" : "sle", diff, d->k);
  MlirValue zero = kilnConstFloat(b, mlirValueGetType(args[0]), 0);
  yields[0] = kilnSelect(b, keep, args[0], zero);
}

/* k as an index value: operand `i` (an i64 scalar, constant or not) or 0. */
static MlirValue diagonalOperand(KilnLowerOp *l, intptr_t i) {
  MlirValue k = kilnLowerOperand(l, i);
  int64_t v = 0;
  if (mlirValueIsNull(k) || kilnInferConstantInts(&l->infer, i, &v, 1) == 1)
    return kilnConstIndex(&l->b, v);
  return kilnConvertScalar(&l->b, kilnTensorExtractFirst(&l->b, k),
                           mlirIndexTypeGet(l->b.ctx), false);
}

KilnLowerStatus kilnLowerTensorTrilu(KilnLowerOp *l) {
  if (emptyResult(l))
    return KILN_LOWER_OK;
  MlirValue x = kilnLowerOperand(l, 0);
  DiagInfo d = {diagonalOperand(l, 1), kilnRank(x) - 2,
                kilnInferAttrInt(&l->infer, "upper", 1) != 0};
  l->results[0] =
      kilnElementwise(&l->b, 1, &x, kilnLowerResultType(l, 0), triluBody, &d);
  return KILN_LOWER_OK;
}

/* args: out. 1 where col - row == k, else 0. */
static void eyeBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  const DiagInfo *d = userData;
  MlirType elt = mlirValueGetType(args[0]);
  MlirValue diff = subIndex(b, kilnLinalgIndex(b, 1), kilnLinalgIndex(b, 0));
  MlirValue on = kilnCmpI(b, "eq", diff, d->k);
  yields[0] =
      kilnSelect(b, on, kilnConstInt(b, elt, 1), kilnConstInt(b, elt, 0));
}

KilnLowerStatus kilnLowerTensorEyeLike(KilnLowerOp *l) {
  if (emptyResult(l))
    return KILN_LOWER_OK;
  DiagInfo d = {kilnConstIndex(&l->b, kilnInferAttrInt(&l->infer, "k", 0)), 0,
                false};
  l->results[0] = indexGenericLike(&l->b, kilnLowerResultType(l, 0),
                                   kilnLowerOperand(l, 0), eyeBody, &d);
  return KILN_LOWER_OK;
}

/* ---- constant_of_shape --------------------------------------------------- */

KilnLowerStatus kilnLowerTensorConstantOfShape(KilnLowerOp *l) {
  if (emptyResult(l))
    return KILN_LOWER_OK;
  MlirType type = kilnLowerResultType(l, 0);
  MlirType elt = mlirShapedTypeGetElementType(type);
  MlirAttribute v = kilnInferAttr(&l->infer, "value");
  MlirValue value;
  if (mlirAttributeIsNull(v)) {
    value = kilnConstFloat(&l->b, elt, 0);
  } else if (mlirAttributeIsADenseElements(v) &&
             mlirElementsAttrGetNumElements(v) == 1 &&
             mlirDenseElementsAttrIsSplat(v) &&
             mlirTypeEqual(
                 mlirShapedTypeGetElementType(mlirAttributeGetType(v)), elt)) {
    MlirNamedAttribute attr =
        kilnNamedAttr(l->b.ctx, "value", mlirDenseElementsAttrGetSplatValue(v));
    value = kilnBuildOp1(&l->b, "arith.constant", elt, 0, NULL, 1, &attr);
  } else {
    return kilnLowerUnsupported(l, "with a 'value' that is not a one-element "
                                   "dense tensor of the result's type");
  }
  if (kilnTypeIsStaticTensor(type)) {
    l->results[0] = kilnFilled(&l->b, type, value);
    return KILN_LOWER_OK;
  }
  /* Dims read from the shape operand at run time (ConstantOfShape of a
   * Shape: a mask of ones over [batch, seq]). */
  KilnBuilder *b = &l->b;
  MlirValue shape = kilnLowerOperand(l, 0), sizes[KILN_MAX_RANK];
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(type); ++i) {
    sizes[i] = kilnTensorIndexAt(b, shape, i);
    if (mlirShapedTypeIsDynamicDim(type, i))
      kilnAssert(b, kilnCmpI(b, "sge", sizes[i], kilnConstIndex(b, 0)),
                 "operand 'input' must hold non-negative values");
  }
  l->results[0] = kilnFill(b, value, kilnEmptySized(b, type, sizes));
  return KILN_LOWER_OK;
}

/* ---- reverse_sequence ---------------------------------------------------- */

typedef struct ReverseInfo {
  MlirValue x;
  intptr_t timeAxis;
} ReverseInfo;

/* args: len (of this batch entry), out. Time step t < len reads
 * len - 1 - t; the rest is copied. */
static void reverseBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  const ReverseInfo *p = userData;
  intptr_t r = kilnRank(p->x);
  MlirValue idx[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    idx[i] = kilnLinalgIndex(b, i);
  /* ONNX requires len <= the time dim; clamp so a bad length cannot read
   * out of bounds. */
  MlirValue len =
      kilnArith2(b, "arith.minsi",
                 kilnConvertScalar(b, args[0], mlirIndexTypeGet(b->ctx), false),
                 kilnConstIndex(b, kilnDim(p->x, p->timeAxis)));
  MlirValue t = idx[p->timeAxis];
  MlirValue rev = subIndex(b, subIndex(b, len, kilnConstIndex(b, 1)), t);
  idx[p->timeAxis] = kilnSelect(b, kilnCmpI(b, "slt", t, len), rev, t);
  yields[0] = kilnTensorExtractAt(b, p->x, idx);
}

KilnLowerStatus kilnLowerTensorReverseSequence(KilnLowerOp *l) {
  if (emptyResult(l))
    return KILN_LOWER_OK;
  ReverseInfo p = {kilnLowerOperand(l, 0),
                   kilnInferAttrInt(&l->infer, "time_axis", 0)};
  int64_t batch = kilnInferAttrInt(&l->infer, "batch_axis", 1);
  MlirValue lens = kilnLowerOperand(l, 1);
  MlirAttribute map = kilnMapDims(l->b.ctx, kilnRank(p.x), 1, &batch);
  l->results[0] = indexGeneric(&l->b, kilnLowerResultType(l, 0), 1, &lens, &map,
                               reverseBody, &p);
  return KILN_LOWER_OK;
}

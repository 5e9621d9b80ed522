/* Shape-moving tensor graph ops (ops_tensor.c) → tensor and linalg: ops
 * that only reshape, permute, join, cut or repeat their input. The ops that
 * compute values or indices are in lower_tensor_gen.c; this file holds the
 * family's table.
 *
 * Index operands (slice's starts, tile's repeats, ...) must be compile-time
 * values; the pass has already made every type static, so the values are
 * read again here only where the result type does not say everything (slice
 * offsets and steps). */
#include <string.h>

#include "conversions/graph-to-linalg/lower_tensor.h"
#include "support/ir_build.h"

/* ---- Helpers shared with lower_tensor_gen.c ------------------------------ */

MlirValue kilnTensorTranspose(KilnBuilder *b, MlirValue x,
                              const int64_t *perm) {
  intptr_t r = kilnRank(x);
  int64_t shape[KILN_MAX_RANK];
  bool identity = true;
  for (intptr_t i = 0; i < r; ++i) {
    shape[i] = kilnDim(x, perm[i]);
    identity &= perm[i] == i;
  }
  if (identity)
    return x;
  MlirType elt = kilnElementType(x);
  MlirType type = kilnTensorType(r, shape, elt);
  /* A generic reading x through the permutation (output dim i is input
   * dim perm[i]), not linalg.transpose: Kiln's CPU schedules tile and
   * vectorize generics (rows of the output, 16 lanes along its innermost
   * dim), while a named transpose fell to scalar loops. */
  int64_t inDims[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    inDims[perm[i]] = i;
  return kilnCopyThroughMap(b, x, kilnMapDims(b->ctx, r, r, inDims), type);
}

MlirValue kilnTensorExtractAt(KilnBuilder *b, MlirValue t,
                              const MlirValue *indices) {
  intptr_t r = kilnRank(t);
  MlirValue ops[1 + KILN_MAX_RANK];
  ops[0] = t;
  memcpy(ops + 1, indices, (size_t)r * sizeof(MlirValue));
  return kilnBuildOp1(b, "tensor.extract", kilnElementType(t), 1 + r, ops, 0,
                      NULL);
}

MlirValue kilnTensorIndexAt(KilnBuilder *b, MlirValue v, intptr_t k) {
  MlirValue at = kilnConstIndex(b, k);
  return kilnConvertScalar(b, kilnTensorExtractAt(b, v, &at),
                           mlirIndexTypeGet(b->ctx), false);
}

MlirValue kilnTensorExtractFirst(KilnBuilder *b, MlirValue t) {
  MlirValue idx[KILN_MAX_RANK];
  for (intptr_t i = 0; i < kilnRank(t); ++i)
    idx[i] = i ? idx[0] : kilnConstIndex(b, 0);
  return kilnTensorExtractAt(b, t, idx);
}

/* Reads index operand `i` (a compile-time i32/i64 vector) into `out`
 * (capacity KILN_MAX_RANK). `*n` is in: the length it must have (-1: any),
 * and out: its length. */
static KilnLowerStatus constantIndices(KilnLowerOp *l, intptr_t i,
                                       const char *name, int64_t *out,
                                       intptr_t *n) {
  intptr_t len = kilnInferConstantInts(&l->infer, i, out, KILN_MAX_RANK);
  if (len < 0)
    return kilnLowerUnsupported(l, "with operand '%s' unknown at compile time",
                                name);
  if (len > KILN_MAX_RANK || (*n >= 0 && len != *n))
    return kilnLowerError(l, "operand '%s' has %ld entries, expected %ld", name,
                          (long)len, (long)(*n >= 0 ? *n : KILN_MAX_RANK));
  *n = len;
  return KILN_LOWER_OK;
}

/* ---- identity, reshape-likes, transpose ---------------------------------- */

static KilnLowerStatus lowerIdentity(KilnLowerOp *l) {
  l->results[0] = kilnLowerOperand(l, 0);
  return KILN_LOWER_OK;
}

/* The product of x's dims [from, to) as an index value. */
static MlirValue dimProduct(KilnBuilder *b, MlirValue x, intptr_t from,
                            intptr_t to) {
  MlirValue p = kilnConstIndex(b, 1);
  for (intptr_t i = from; i < to; ++i)
    p = kilnArith2(b, "arith.muli", p, kilnDimValue(b, x, i));
  return p;
}

/* Reshape's sizes from a shape known only at run time (computed from
 * dims: Shape, Gather, Concat...): entry i is v_i, x's dim i where v_i is
 * 0 (without allowzero), and what the element count leaves where it is
 * -1:
 *   known_i = v_i == -1 ? 1 : v_i == 0 ? dim_i : v_i
 *   size_i  = v_i == -1 ? numel(x) / prod(known) : known_i
 * (the tensor.reshape that follows asserts the count). */
static KilnLowerStatus runtimeReshapeSizes(KilnLowerOp *l, MlirValue x,
                                           intptr_t rt, MlirValue *sizes) {
  KilnBuilder *b = &l->b;
  MlirValue shape = kilnLowerOperand(l, 1);
  MlirType st = mlirValueGetType(shape);
  if (kilnRank(shape) != 1 || mlirShapedTypeGetDimSize(st, 0) != rt)
    return kilnLowerUnsupported(l, "with a shape of unknown length");
  bool allowZero = kilnInferAttrInt(&l->infer, "allowzero", 0) != 0;
  MlirValue one = kilnConstIndex(b, 1), minusOne = kilnConstIndex(b, -1);
  MlirValue zero = kilnConstIndex(b, 0), prod = one;
  MlirValue v[KILN_MAX_RANK], isInferred[KILN_MAX_RANK];
  for (intptr_t i = 0; i < rt; ++i) {
    v[i] = kilnTensorIndexAt(b, shape, i);
    isInferred[i] = kilnCmpI(b, "eq", v[i], minusOne);
    MlirValue known = v[i];
    if (!allowZero && i < kilnRank(x))
      known = kilnSelect(b, kilnCmpI(b, "eq", v[i], zero),
                         kilnDimValue(b, x, i), known);
    sizes[i] = kilnSelect(b, isInferred[i], one, known);
    prod = kilnArith2(b, "arith.muli", prod, sizes[i]);
  }
  MlirValue numel = dimProduct(b, x, 0, kilnRank(x));
  /* A zero product leaves nothing to infer (and must not divide). */
  MlirValue safe = kilnSelect(b, kilnCmpI(b, "eq", prod, zero), one, prod);
  MlirValue left = kilnArith2(b, "arith.divui", numel, safe);
  for (intptr_t i = 0; i < rt; ++i)
    sizes[i] = kilnSelect(b, isInferred[i], left, sizes[i]);
  return KILN_LOWER_OK;
}

/* The sizes of a reshape-like op's result dims (`rt` of them) from its
 * input's dims and its operands: flatten's two products, the input dims
 * squeeze keeps, unsqueeze's with 1s between, reshape's shape (0: the
 * input's dim, -1: what the element count leaves). */
static KilnLowerStatus reshapeSizes(KilnLowerOp *l, MlirValue x, intptr_t rt,
                                    MlirValue *sizes) {
  KilnBuilder *b = &l->b;
  const char *op = l->info->name;
  intptr_t rx = kilnRank(x);
  int64_t v[KILN_MAX_RANK];
  intptr_t n = -1;
  if (!strcmp(op, "flatten")) {
    int64_t axis = kilnInferAttrInt(&l->infer, "axis", 1);
    if (axis < 0)
      axis += rx;
    if (axis < 0 || axis > rx)
      return kilnLowerError(l, "axis %lld is out of range", (long long)axis);
    sizes[0] = dimProduct(b, x, 0, axis);
    sizes[1] = dimProduct(b, x, axis, rx);
    return KILN_LOWER_OK;
  }
  if (!strcmp(op, "reshape") &&
      kilnInferConstantInts(&l->infer, 1, v, KILN_MAX_RANK) < 0)
    return runtimeReshapeSizes(l, x, rt, sizes);
  if (!mlirValueIsNull(kilnLowerOperand(l, 1))) {
    n = -1;
    KilnLowerStatus st =
        constantIndices(l, 1, !strcmp(op, "reshape") ? "shape" : "axes", v, &n);
    if (st != KILN_LOWER_OK)
      return st;
  }
  bool marked[KILN_MAX_RANK] = {false};
  if (!strcmp(op, "squeeze") || !strcmp(op, "unsqueeze")) {
    intptr_t r = !strcmp(op, "squeeze") ? rx : rt;
    for (intptr_t i = 0; i < n; ++i) {
      int64_t a = v[i] < 0 ? v[i] + r : v[i];
      if (a < 0 || a >= r)
        return kilnLowerError(l, "axis %lld is out of range", (long long)v[i]);
      marked[a] = true;
    }
    for (intptr_t i = 0; n < 0 && i < rx; ++i) /* squeeze every static 1 */
      marked[i] = kilnDim(x, i) == 1;
    for (intptr_t i = 0, j = 0; i < (r == rx ? rx : rt); ++i) {
      if (r == rx) { /* squeeze: the dims it keeps */
        if (!marked[i])
          sizes[j++] = kilnDimValue(b, x, i);
      } else { /* unsqueeze: 1s at the axes, x's dims between */
        sizes[i] = marked[i] ? kilnConstIndex(b, 1) : kilnDimValue(b, x, j++);
      }
    }
    return KILN_LOWER_OK;
  }
  /* reshape */
  if (n != rt)
    return kilnLowerUnsupported(l, "with a shape unknown at compile time");
  bool allowZero = kilnInferAttrInt(&l->infer, "allowzero", 0) != 0;
  intptr_t inferred = -1;
  MlirValue known = kilnConstIndex(b, 1);
  for (intptr_t i = 0; i < rt; ++i) {
    if (v[i] == -1) {
      inferred = i;
      continue;
    }
    sizes[i] = v[i] == 0 && !allowZero && i < rx ? kilnDimValue(b, x, i)
                                                 : kilnConstIndex(b, v[i]);
    known = kilnArith2(b, "arith.muli", known, sizes[i]);
  }
  if (inferred >= 0)
    sizes[inferred] =
        kilnArith2(b, "arith.divui", dimProduct(b, x, 0, rx), known);
  return KILN_LOWER_OK;
}

/* The elements of shape vectors `xs` in order, as the shape vector `to`
 * (lower.h): a reshape-like op or a concat of shape computations. */
static MlirValue shapeVectorCopy(KilnBuilder *b, intptr_t n,
                                 const MlirValue *xs, MlirType to) {
  MlirValue elements[KILN_MAX_RANK];
  intptr_t at = 0;
  for (intptr_t i = 0; i < n; ++i)
    for (intptr_t k = 0; k < kilnNumElements(mlirValueGetType(xs[i])); ++k)
      elements[at++] = kilnShapeVectorElement(b, xs[i], k);
  return kilnShapeVectorFrom(b, to, elements);
}

/* reshape, flatten, squeeze, unsqueeze: a static result type says it all;
 * with dynamic dims, reshapeSizes. */
static KilnLowerStatus lowerReshapeLike(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType to = kilnLowerResultType(l, 0);
  if (kilnIsShapeVector(mlirValueGetType(x)) && kilnIsShapeVector(to)) {
    l->results[0] = shapeVectorCopy(&l->b, 1, &x, to);
    return KILN_LOWER_OK;
  }
  if (kilnTypeIsStaticTensor(mlirValueGetType(x)) &&
      kilnTypeIsStaticTensor(to)) {
    l->results[0] = kilnReshape(&l->b, x, to);
    return KILN_LOWER_OK;
  }
  MlirValue sizes[KILN_MAX_RANK];
  KilnLowerStatus st = reshapeSizes(l, x, mlirShapedTypeGetRank(to), sizes);
  if (st == KILN_LOWER_OK)
    l->results[0] = kilnReshapeSized(&l->b, x, to, sizes);
  return st;
}

static KilnLowerStatus lowerTranspose(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x);
  int64_t perm[KILN_MAX_RANK];
  if (kilnInferAttrInts(&l->infer, "perm", perm, KILN_MAX_RANK) < 0)
    for (intptr_t i = 0; i < r; ++i) /* ONNX default: reverse the dims */
      perm[i] = r - 1 - i;
  l->results[0] = kilnTensorTranspose(&l->b, x, perm);
  return KILN_LOWER_OK;
}

/* ---- concat, split, slice ------------------------------------------------ */

/* Concat of dynamic shape: the other dims a's (c's must equal them), the
 * axis the sum; c inserted at a's extent. */
static MlirValue concatDynamic(KilnBuilder *b, MlirValue a, MlirValue c,
                               int64_t axis, MlirType type) {
  intptr_t r = kilnRank(a);
  MlirValue sizes[KILN_MAX_RANK], offsets[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    sizes[i] = kilnDimValue(b, a, i);
    offsets[i] = kilnConstIndex(b, 0);
    if (i == axis)
      sizes[i] = kilnArith2(b, "arith.addi", sizes[i], kilnDimValue(b, c, i));
    else if (mlirShapedTypeIsDynamicSize(kilnDim(a, i)) ||
             mlirShapedTypeIsDynamicSize(kilnDim(c, i)))
      kilnAssertEqual(b, sizes[i], kilnDimValue(b, c, i),
                      "inputs of a concatenation differ at run time in a "
                      "dim other than the axis");
  }
  MlirValue out =
      kilnInsertSliceAt(b, a, kilnEmptySized(b, type, sizes), offsets);
  offsets[axis] = kilnDimValue(b, a, axis);
  return kilnInsertSliceAt(b, c, out, offsets);
}

static KilnLowerStatus lowerConcat(KilnLowerOp *l) {
  MlirValue a = kilnLowerOperand(l, 0), c = kilnLowerOperand(l, 1);
  intptr_t r = kilnRank(a);
  int64_t axis;
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", 0), r, &axis))
    return KILN_LOWER_ERROR;
  MlirType type = kilnLowerResultType(l, 0);
  if (kilnIsShapeVector(type) && kilnIsShapeVector(mlirValueGetType(a)) &&
      kilnIsShapeVector(mlirValueGetType(c))) {
    MlirValue pieces[2] = {a, c};
    l->results[0] = shapeVectorCopy(&l->b, 2, pieces, type);
    return KILN_LOWER_OK;
  }
  if (kilnLowerIsDynamic(l)) {
    l->results[0] = concatDynamic(&l->b, a, c, axis, type);
    return KILN_LOWER_OK;
  }
  int64_t offsets[KILN_MAX_RANK] = {0}, strides[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    strides[i] = 1;
  /* Empty pieces are skipped: insert_slice rejects their offsets. */
  MlirValue out = kilnEmpty(&l->b, kilnLowerResultType(l, 0));
  if (kilnNumElements(mlirValueGetType(a)) != 0)
    out = kilnInsertSlice(&l->b, a, out, offsets, strides);
  offsets[axis] = kilnDim(a, axis);
  if (kilnNumElements(mlirValueGetType(c)) != 0)
    out = kilnInsertSlice(&l->b, c, out, offsets, strides);
  l->results[0] = out;
  return KILN_LOWER_OK;
}

/* The graph dialect's split has equal pieces (the importer turns unequal
 * ONNX splits into slices), so each result is one strided window. */
static KilnLowerStatus lowerSplit(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x);
  int64_t axis;
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", 0), r, &axis))
    return KILN_LOWER_ERROR;
  int64_t offsets[KILN_MAX_RANK] = {0}, sizes[KILN_MAX_RANK],
          strides[KILN_MAX_RANK];
  MlirType piece = kilnLowerResultType(l, 0);
  if (kilnLowerIsDynamic(l)) { /* equal pieces of the axis, at run time */
    KilnBuilder *b = &l->b;
    MlirValue at[KILN_MAX_RANK], size[KILN_MAX_RANK];
    MlirValue count = kilnConstIndex(b, l->numResults);
    for (intptr_t i = 0; i < r; ++i) {
      at[i] = kilnConstIndex(b, 0);
      size[i] = kilnDimValue(b, x, i);
      strides[i] = 1;
    }
    MlirValue whole = size[axis];
    size[axis] = kilnArith2(b, "arith.divui", whole, count);
    kilnAssertEqual(b, kilnArith2(b, "arith.muli", size[axis], count), whole,
                    "a split's axis does not divide into equal pieces at "
                    "run time");
    for (intptr_t k = 0; k < l->numResults; ++k) {
      at[axis] = kilnArith2(b, "arith.muli", size[axis], kilnConstIndex(b, k));
      l->results[k] = kilnExtractSliceAt(b, x, at, size, strides);
    }
    return KILN_LOWER_OK;
  }
  for (intptr_t i = 0; i < r; ++i) {
    sizes[i] = mlirShapedTypeGetDimSize(piece, i);
    strides[i] = 1;
  }
  for (intptr_t k = 0; k < l->numResults; ++k) {
    offsets[axis] = k * sizes[axis];
    l->results[k] = kilnNumElements(piece) == 0
                        ? kilnEmpty(&l->b, piece)
                        : kilnExtractSlice(&l->b, x, offsets, sizes, strides);
  }
  return KILN_LOWER_OK;
}

static int64_t clampI64(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* ONNX Slice on one axis of size `dim`: the first index and the count. */
static void sliceAxis(int64_t dim, int64_t start, int64_t end, int64_t step,
                      int64_t *first, int64_t *count) {
  start = start < 0 ? start + dim : start;
  end = end < 0 ? end + dim : end;
  int64_t span;
  if (step > 0) {
    start = clampI64(start, 0, dim);
    span = clampI64(end, 0, dim) - start;
  } else {
    start = clampI64(start, 0, dim - 1);
    span = start - clampI64(end, -1, dim - 1);
  }
  uint64_t stride = step > 0 ? (uint64_t)step : 0 - (uint64_t)step;
  *first = start;
  *count = span <= 0 ? 0 : (int64_t)(((uint64_t)span - 1) / stride + 1);
}

/* A slice with some negative step: a generic reading x[first + step * i]
 * per axis (an affine map). */
static MlirValue reversedSlice(KilnBuilder *b, MlirValue x, MlirType type,
                               const int64_t *first, const int64_t *steps) {
  intptr_t r = kilnRank(x);
  MlirAffineExpr exprs[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    exprs[i] = mlirAffineAddExprGet(
        mlirAffineMulExprGet(mlirAffineDimExprGet(b->ctx, i),
                             mlirAffineConstantExprGet(b->ctx, steps[i])),
        mlirAffineConstantExprGet(b->ctx, first[i]));
  return kilnCopyThroughMap(b, x, kilnMapExprs(b->ctx, r, r, exprs), type);
}

static MlirValue clampIndex(KilnBuilder *b, MlirValue v, MlirValue lo,
                            MlirValue hi) {
  MlirValue low = kilnSelect(b, kilnCmpI(b, "slt", v, lo), lo, v);
  return kilnSelect(b, kilnCmpI(b, "sgt", low, hi), hi, low);
}

/* sliceAxis at run time, for a positive step: first = clamp(start (+ dim
 * if negative), 0, dim), count = ceil((clamp(end (+ dim if negative), 0,
 * dim) - first) / step), 0 if negative. `start`, `end` and `dim` are index
 * values (constants fold). */
static void sliceAxisDynamic(KilnBuilder *b, MlirValue dim, MlirValue start,
                             MlirValue end, int64_t step, MlirValue *first,
                             MlirValue *count) {
  MlirValue zero = kilnConstIndex(b, 0);
  MlirValue s = kilnSelect(b, kilnCmpI(b, "slt", start, zero),
                           kilnArith2(b, "arith.addi", start, dim), start);
  MlirValue e = kilnSelect(b, kilnCmpI(b, "slt", end, zero),
                           kilnArith2(b, "arith.addi", end, dim), end);
  *first = clampIndex(b, s, zero, dim);
  MlirValue span =
      kilnArith2(b, "arith.subi", clampIndex(b, e, zero, dim), *first);
  MlirValue steps =
      kilnArith2(b, "arith.ceildivsi", span, kilnConstIndex(b, step));
  *count = kilnSelect(b, kilnCmpI(b, "sgt", steps, zero), steps, zero);
}

/* Entry k of starts or ends: the constant, or read from operand `i` at run
 * time (clamped to the index range by the i64 -> index cast). */
static MlirValue sliceBound(KilnLowerOp *l, intptr_t i, const int64_t *consts,
                            intptr_t k) {
  KilnBuilder *b = &l->b;
  if (consts)
    return kilnConstIndex(b, consts[k]);
  return kilnTensorIndexAt(b, kilnLowerOperand(l, i), k);
}

/* Slice of dynamic shape, or with starts or ends known only at run time
 * (null `starts`/`ends`: read from the operands): positive steps; the
 * offsets and sizes of such axes at run time. */
static KilnLowerStatus sliceDynamic(KilnLowerOp *l, MlirValue x, intptr_t n,
                                    const int64_t *starts, const int64_t *ends,
                                    const int64_t *axes, const int64_t *steps) {
  KilnBuilder *b = &l->b;
  intptr_t r = kilnRank(x);
  MlirValue first[KILN_MAX_RANK], sizes[KILN_MAX_RANK];
  int64_t strides[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    first[i] = kilnConstIndex(b, 0);
    sizes[i] = kilnDimValue(b, x, i);
    strides[i] = 1;
  }
  for (intptr_t k = 0; k < n; ++k) {
    int64_t a;
    if (!kilnLowerAxis(l, axes ? axes[k] : k, r, &a))
      return KILN_LOWER_ERROR;
    int64_t step = steps ? steps[k] : 1;
    if (step <= 0)
      return step ? kilnLowerUnsupported(
                        l, "with a negative step on a dynamic shape")
                  : kilnLowerError(l, "operand 'steps' must not contain 0");
    int64_t dim = kilnDim(x, a);
    if (mlirShapedTypeIsDynamicSize(dim) || !starts || !ends) {
      sliceAxisDynamic(b, sizes[a], sliceBound(l, 1, starts, k),
                       sliceBound(l, 2, ends, k), step, &first[a], &sizes[a]);
    } else {
      int64_t f, c;
      sliceAxis(dim, starts[k], ends[k], step, &f, &c);
      first[a] = kilnConstIndex(b, f);
      sizes[a] = kilnConstIndex(b, c);
    }
    strides[a] = step;
  }
  /* Bounds read at run time must give the sizes the result's type fixes. */
  MlirType type = kilnLowerResultType(l, 0);
  for (intptr_t i = 0; i < r; ++i)
    if (!mlirShapedTypeIsDynamicDim(type, i))
      kilnAssertEqual(
          b, sizes[i], kilnConstIndex(b, mlirShapedTypeGetDimSize(type, i)),
          "the slice's size at run time is not the one its type declares");
  l->results[0] = kilnExtractSliceAt(b, x, first, sizes, strides);
  return KILN_LOWER_OK;
}

static KilnLowerStatus lowerSlice(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType type = kilnLowerResultType(l, 0);
  intptr_t r = kilnRank(x), n = -1;
  int64_t starts[KILN_MAX_RANK], ends[KILN_MAX_RANK], axes[KILN_MAX_RANK],
      steps[KILN_MAX_RANK];
  bool hasAxes = !mlirValueIsNull(kilnLowerOperand(l, 3));
  bool hasSteps = !mlirValueIsNull(kilnLowerOperand(l, 4));
  /* Starts or ends computed at run time (a position-id slice of the
   * sequence length) are read then (sliceDynamic); their length must be
   * static, axes and steps constants. */
  bool runtimeStarts =
      kilnInferConstantInts(&l->infer, 1, starts, KILN_MAX_RANK) < 0;
  bool runtimeEnds =
      kilnInferConstantInts(&l->infer, 2, ends, KILN_MAX_RANK) < 0;
  if (runtimeStarts || runtimeEnds) {
    MlirValue bounds = kilnLowerOperand(l, runtimeStarts ? 1 : 2);
    if (kilnRank(bounds) != 1 ||
        mlirShapedTypeIsDynamicSize(kilnDim(bounds, 0)) ||
        kilnDim(bounds, 0) > KILN_MAX_RANK)
      return kilnLowerUnsupported(l, "with run-time %s of unknown length",
                                  runtimeStarts ? "starts" : "ends");
    n = kilnDim(bounds, 0);
  }
  KilnLowerStatus status = KILN_LOWER_OK;
  if (!runtimeStarts)
    status = constantIndices(l, 1, "starts", starts, &n);
  if (status == KILN_LOWER_OK && !runtimeEnds)
    status = constantIndices(l, 2, "ends", ends, &n);
  if (status == KILN_LOWER_OK && hasAxes)
    status = constantIndices(l, 3, "axes", axes, &n);
  if (status == KILN_LOWER_OK && hasSteps)
    status = constantIndices(l, 4, "steps", steps, &n);
  if (status != KILN_LOWER_OK)
    return status;
  if (runtimeStarts || runtimeEnds || kilnLowerIsDynamic(l))
    return sliceDynamic(l, x, n, runtimeStarts ? NULL : starts,
                        runtimeEnds ? NULL : ends, hasAxes ? axes : NULL,
                        hasSteps ? steps : NULL);
  int64_t first[KILN_MAX_RANK] = {0}, sizes[KILN_MAX_RANK],
          strides[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    sizes[i] = kilnDim(x, i);
    strides[i] = 1;
  }
  bool reversed = false;
  for (intptr_t k = 0; k < n; ++k) {
    int64_t a;
    if (!kilnLowerAxis(l, hasAxes ? axes[k] : k, r, &a))
      return KILN_LOWER_ERROR;
    int64_t step = hasSteps ? steps[k] : 1;
    if (step == 0)
      return kilnLowerError(l, "operand 'steps' must not contain 0");
    sliceAxis(kilnDim(x, a), starts[k], ends[k], step, &first[a], &sizes[a]);
    strides[a] = step;
    reversed |= step < 0;
  }
  if (kilnNumElements(type) == 0) {
    l->results[0] = kilnEmpty(&l->b, type);
  } else if (reversed) {
    l->results[0] = reversedSlice(&l->b, x, type, first, strides);
  } else {
    l->results[0] = kilnExtractSlice(&l->b, x, first, sizes, strides);
  }
  return KILN_LOWER_OK;
}

/* ---- expand, tile -------------------------------------------------------- */

static KilnLowerStatus lowerExpand(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType type = kilnLowerResultType(l, 0);
  if (!kilnTypeIsStaticTensor(type)) {
    /* The result's dims from the shape operand (at run time when it is
     * not a constant): numpy broadcasting of x and the shape, a dynamic
     * dim of x that is 1 at run time stretched (kilnBroadcastDynamicOnes). */
    KilnBuilder *b = &l->b;
    MlirValue shape = kilnLowerOperand(l, 1);
    intptr_t r = mlirShapedTypeGetRank(type), rx = kilnRank(x);
    intptr_t rs = kilnRank(shape) == 1 ? kilnDim(shape, 0) : -1;
    if (rs < 0 || rs > r)
      return kilnLowerUnsupported(l, "with a shape of unknown length");
    MlirValue one = kilnConstIndex(b, 1), sizes[KILN_MAX_RANK];
    for (intptr_t d = 0; d < r; ++d) {
      intptr_t j = d - (r - rs), i = d - (r - rx);
      MlirValue s = j >= 0 ? kilnTensorIndexAt(b, shape, j) : one;
      MlirValue xd = i >= 0 ? kilnDimValue(b, x, i) : one;
      sizes[d] = kilnSelect(b, kilnCmpI(b, "eq", xd, one), s, xd);
      kilnAssert(b,
                 kilnArith2(b, "arith.ori", kilnCmpI(b, "eq", s, one),
                            kilnCmpI(b, "eq", s, sizes[d])),
                 "the shape asks for a dim that is neither 1 nor the "
                 "input's");
    }
    x = kilnBroadcastDynamicOnes(b, x, r, sizes,
                                 "the input's dim is neither 1 nor the "
                                 "shape's");
    MlirValue out = kilnEmptySized(b, type, sizes);
    int64_t rShape[KILN_MAX_RANK];
    for (intptr_t d = 0; d < r; ++d)
      rShape[d] = mlirShapedTypeGetDimSize(type, d);
    MlirAttribute maps[2] = {
        kilnMapBroadcast(b->ctx, mlirValueGetType(x), r, rShape),
        kilnMapIdentity(b->ctx, r)};
    char iters[KILN_MAX_RANK + 1];
    memset(iters, 'p', (size_t)r);
    iters[r] = '\0';
    l->results[0] = mlirOperationGetResult(
        kilnGeneric(b, 1, &x, 1, &out, maps, r, iters, kilnCopyBody, NULL), 0);
    return KILN_LOWER_OK;
  }
  l->results[0] = kilnElementwise(&l->b, 1, &x, type, kilnCopyBody, NULL);
  return KILN_LOWER_OK;
}

/* tile: broadcast x (d0 x d1 ...) into (r0 x d0 x r1 x d1 ...) with a
 * projection map, then collapse each (ri, di) pair; no modulo indexing. */
/* tile of dynamic shape (constant repeats): the same broadcast into
 * (r0 x d0 x r1 x d1 ...), each d sized at run time, then each pair
 * collapsed. */
static KilnLowerStatus tileDynamic(KilnLowerOp *l, MlirValue x, MlirType type) {
  KilnBuilder *b = &l->b;
  intptr_t r = kilnRank(x), n = r;
  int64_t repeats[KILN_MAX_RANK];
  KilnLowerStatus st = constantIndices(l, 1, "repeats", repeats, &n);
  if (st != KILN_LOWER_OK)
    return st;
  int64_t shape[2 * KILN_MAX_RANK], dims[KILN_MAX_RANK];
  MlirValue sizes[2 * KILN_MAX_RANK];
  intptr_t groups[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    dims[i] = 2 * i + 1;
    shape[2 * i] = repeats[i];
    shape[2 * i + 1] = kilnDim(x, i);
    sizes[2 * i] = kilnConstIndex(b, repeats[i]);
    sizes[2 * i + 1] = kilnDimValue(b, x, i);
    groups[i] = 2;
  }
  MlirType wide = kilnTensorType(2 * r, shape, kilnElementType(x));
  MlirAttribute maps[2] = {kilnMapDims(b->ctx, 2 * r, r, dims),
                           kilnMapIdentity(b->ctx, 2 * r)};
  char iters[2 * KILN_MAX_RANK + 1];
  memset(iters, 'p', (size_t)(2 * r));
  iters[2 * r] = '\0';
  MlirValue init = kilnEmptySized(b, wide, sizes);
  MlirValue tiled = mlirOperationGetResult(
      kilnGeneric(b, 1, &x, 1, &init, maps, 2 * r, iters, kilnCopyBody, NULL),
      0);
  l->results[0] = kilnReshapeGroups(b, tiled, type, r, groups);
  return KILN_LOWER_OK;
}

static KilnLowerStatus lowerTile(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType type = kilnLowerResultType(l, 0);
  intptr_t r = kilnRank(x);
  if (kilnLowerIsDynamic(l) && r > 0)
    return tileDynamic(l, x, type);
  if (kilnNumElements(type) == 0 || r == 0) {
    l->results[0] = kilnNumElements(type) == 0 ? kilnEmpty(&l->b, type) : x;
    return KILN_LOWER_OK;
  }
  int64_t shape[2 * KILN_MAX_RANK], dims[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    dims[i] = 2 * i + 1;
    shape[2 * i] = mlirShapedTypeGetDimSize(type, i) / kilnDim(x, i);
    shape[2 * i + 1] = kilnDim(x, i);
  }
  MlirType wide = kilnTensorType(2 * r, shape, kilnElementType(x));
  MlirAttribute maps[2] = {kilnMapDims(l->b.ctx, 2 * r, r, dims),
                           kilnMapIdentity(l->b.ctx, 2 * r)};
  char iters[2 * KILN_MAX_RANK + 1];
  memset(iters, 'p', (size_t)(2 * r));
  iters[2 * r] = '\0';
  MlirValue init = kilnEmpty(&l->b, wide);
  MlirValue tiled =
      mlirOperationGetResult(kilnGeneric(&l->b, 1, &x, 1, &init, maps, 2 * r,
                                         iters, kilnCopyBody, NULL),
                             0);
  l->results[0] = kilnReshape(&l->b, tiled, type);
  return KILN_LOWER_OK;
}

/* ---- shape, size --------------------------------------------------------- */

/* Usually folded to constants by the pass already; kept for completeness. */
static KilnLowerStatus lowerShape(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  int64_t r = kilnRank(x);
  int64_t start = kilnInferAttrInt(&l->infer, "start", 0);
  int64_t end = kilnInferAttrInt(&l->infer, "end", r);
  start = clampI64(start < 0 ? start + r : start, 0, r);
  end = clampI64(end < 0 ? end + r : end, 0, r);
  int64_t dims[KILN_MAX_RANK], n = end > start ? end - start : 0;
  bool dynamic = false;
  for (int64_t i = 0; i < n; ++i) {
    dims[i] = kilnDim(x, start + i);
    dynamic |= mlirShapedTypeIsDynamicSize(dims[i]);
  }
  MlirType i64 = mlirIntegerTypeGet(l->b.ctx, 64);
  if (!dynamic) {
    l->results[0] = kilnConstantI64s(&l->b, 1, &n, dims, i64);
    return KILN_LOWER_OK;
  }
  MlirValue values[KILN_MAX_RANK];
  for (int64_t i = 0; i < n; ++i)
    values[i] =
        kilnConvertScalar(&l->b, kilnDimValue(&l->b, x, start + i), i64, false);
  l->results[0] =
      kilnBuildOp1(&l->b, "tensor.from_elements", kilnTensorType(1, &n, i64),
                   (intptr_t)n, values, 0, NULL);
  return KILN_LOWER_OK;
}

static KilnLowerStatus lowerSize(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  if (!kilnTypeIsStaticTensor(mlirValueGetType(x))) {
    MlirValue n = dimProduct(&l->b, x, 0, kilnRank(x));
    MlirType i64 = mlirIntegerTypeGet(l->b.ctx, 64);
    n = kilnConvertScalar(&l->b, n, i64, false);
    l->results[0] = kilnBuildOp1(&l->b, "tensor.from_elements",
                                 kilnTensorType(0, NULL, i64), 1, &n, 0, NULL);
    return KILN_LOWER_OK;
  }
  int64_t n = kilnNumElements(mlirValueGetType(x));
  l->results[0] =
      kilnConstantI64s(&l->b, 0, NULL, &n, mlirIntegerTypeGet(l->b.ctx, 64));
  return KILN_LOWER_OK;
}

/* ---- depth_to_space, space_to_depth -------------------------------------- */

/* Both are a reshape to 6-D, a transpose and a reshape back to 4-D. */
static MlirValue reshapeTransposeReshape(KilnBuilder *b, MlirValue x,
                                         const int64_t *shape6,
                                         const int64_t *perm, MlirType type) {
  MlirType t6 = kilnTensorType(6, shape6, kilnElementType(x));
  MlirValue y = kilnTensorTranspose(b, kilnReshape(b, x, t6), perm);
  return kilnReshape(b, y, type);
}

/* reshapeTransposeReshape with dynamic dims: the 6-D sizes and the
 * result's as values. */
static MlirValue reshapeTransposeReshapeSized(KilnBuilder *b, MlirValue x,
                                              const MlirValue *sizes6,
                                              const int64_t *perm,
                                              MlirType type,
                                              const MlirValue *sizes) {
  int64_t shape6[6];
  for (int i = 0; i < 6; ++i) {
    int64_t c;
    shape6[i] = kilnConstantIndexValue(sizes6[i], &c)
                    ? c
                    : mlirShapedTypeGetDynamicSize();
  }
  MlirType t6 = kilnTensorType(6, shape6, kilnElementType(x));
  MlirValue y =
      kilnTensorTranspose(b, kilnReshapeSized(b, x, t6, sizes6), perm);
  return kilnReshapeSized(b, y, type, sizes);
}

static MlirValue divIndex(KilnBuilder *b, MlirValue x, int64_t d) {
  return kilnArith2(b, "arith.divui", x, kilnConstIndex(b, d));
}

static MlirValue mulIndex(KilnBuilder *b, MlirValue x, int64_t m) {
  return kilnArith2(b, "arith.muli", x, kilnConstIndex(b, m));
}

static KilnLowerStatus lowerDepthToSpace(KilnLowerOp *l) {
  if (kilnLowerIsDynamic(l)) {
    KilnBuilder *b = &l->b;
    MlirValue x = kilnLowerOperand(l, 0);
    int64_t bs = kilnInferAttrInt(&l->infer, "blocksize", 1);
    MlirStringRef mode = kilnInferAttrString(&l->infer, "mode", "DCR");
    bool crd = mode.length == 3 && !memcmp(mode.data, "CRD", 3);
    MlirValue n = kilnDimValue(b, x, 0),
              c = divIndex(b, kilnDimValue(b, x, 1), bs * bs),
              h = kilnDimValue(b, x, 2), w = kilnDimValue(b, x, 3),
              s = kilnConstIndex(b, bs);
    MlirValue dcr[6] = {n, s, s, c, h, w}, crdShape[6] = {n, c, s, s, h, w};
    int64_t dcrPerm[6] = {0, 3, 4, 1, 5, 2}, crdPerm[6] = {0, 1, 4, 2, 5, 3};
    MlirValue sizes[4] = {n, c, mulIndex(b, h, bs), mulIndex(b, w, bs)};
    l->results[0] = reshapeTransposeReshapeSized(
        b, x, crd ? crdShape : dcr, crd ? crdPerm : dcrPerm,
        kilnLowerResultType(l, 0), sizes);
    return KILN_LOWER_OK;
  }
  MlirValue x = kilnLowerOperand(l, 0);
  int64_t bs = kilnInferAttrInt(&l->infer, "blocksize", 1);
  MlirStringRef mode = kilnInferAttrString(&l->infer, "mode", "DCR");
  int64_t n = kilnDim(x, 0), c = kilnDim(x, 1) / (bs * bs), h = kilnDim(x, 2),
          w = kilnDim(x, 3);
  bool crd = mode.length == 3 && !memcmp(mode.data, "CRD", 3);
  /* DCR: channel = (bh * bs + bw) * c + ci; CRD: ci * bs * bs + ... */
  int64_t dcrShape[6] = {n, bs, bs, c, h, w}, dcrPerm[6] = {0, 3, 4, 1, 5, 2};
  int64_t crdShape[6] = {n, c, bs, bs, h, w}, crdPerm[6] = {0, 1, 4, 2, 5, 3};
  l->results[0] = reshapeTransposeReshape(&l->b, x, crd ? crdShape : dcrShape,
                                          crd ? crdPerm : dcrPerm,
                                          kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

static KilnLowerStatus lowerSpaceToDepth(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  int64_t bs = kilnInferAttrInt(&l->infer, "blocksize", 1);
  if (kilnLowerIsDynamic(l)) {
    KilnBuilder *b = &l->b;
    MlirValue s = kilnConstIndex(b, bs), n = kilnDimValue(b, x, 0),
              c = kilnDimValue(b, x, 1),
              h = divIndex(b, kilnDimValue(b, x, 2), bs),
              w = divIndex(b, kilnDimValue(b, x, 3), bs);
    MlirValue shape6[6] = {n, c, h, s, w, s};
    int64_t perm[6] = {0, 3, 5, 1, 2, 4};
    MlirValue sizes[4] = {n, mulIndex(b, c, bs * bs), h, w};
    l->results[0] = reshapeTransposeReshapeSized(
        b, x, shape6, perm, kilnLowerResultType(l, 0), sizes);
    return KILN_LOWER_OK;
  }
  int64_t shape[6] = {kilnDim(x, 0),      kilnDim(x, 1),
                      kilnDim(x, 2) / bs, bs,
                      kilnDim(x, 3) / bs, bs};
  int64_t perm[6] = {0, 3, 5, 1, 2, 4};
  l->results[0] =
      reshapeTransposeReshape(&l->b, x, shape, perm, kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

const KilnLowering kilnLowerTensor[] = {
    {"identity", lowerIdentity, KILN_LOWER_DYNAMIC},
    {"reshape", lowerReshapeLike, KILN_LOWER_DYNAMIC},
    {"flatten", lowerReshapeLike, KILN_LOWER_DYNAMIC},
    {"squeeze", lowerReshapeLike, KILN_LOWER_DYNAMIC},
    {"unsqueeze", lowerReshapeLike, KILN_LOWER_DYNAMIC},
    {"transpose", lowerTranspose, KILN_LOWER_DYNAMIC},
    {"concat", lowerConcat, KILN_LOWER_DYNAMIC},
    {"split", lowerSplit, KILN_LOWER_DYNAMIC},
    {"slice", lowerSlice, KILN_LOWER_DYNAMIC},
    {"expand", lowerExpand, KILN_LOWER_DYNAMIC},
    {"tile", lowerTile, KILN_LOWER_DYNAMIC},
    {"shape", lowerShape, KILN_LOWER_DYNAMIC},
    {"size", lowerSize, KILN_LOWER_DYNAMIC},
    {"depth_to_space", lowerDepthToSpace, KILN_LOWER_DYNAMIC},
    {"space_to_depth", lowerSpaceToDepth, KILN_LOWER_DYNAMIC},
    {"range", kilnLowerTensorRange, KILN_LOWER_DYNAMIC},
    {"pad", kilnLowerTensorPad, KILN_LOWER_DYNAMIC},
    {"trilu", kilnLowerTensorTrilu, KILN_LOWER_DYNAMIC},
    {"constant_of_shape", kilnLowerTensorConstantOfShape, KILN_LOWER_DYNAMIC},
    {"eye_like", kilnLowerTensorEyeLike, KILN_LOWER_DYNAMIC},
    {"reverse_sequence", kilnLowerTensorReverseSequence, 0},
};
const int kilnLowerTensorCount =
    sizeof(kilnLowerTensor) / sizeof(kilnLowerTensor[0]);

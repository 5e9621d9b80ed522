/* Graph ops of the Tensor family that select, join or generate index ranges
 * along axes: concat, split, slice, gather, range, pad. The table and the
 * shared helpers are in ops_tensor.c (see ops_tensor_index.h); the rules on
 * index operands stated there hold here too. */
#include <math.h>
#include <stdlib.h>

#include "dialects/graph/infer.h"
#include "dialects/graph/ops_tensor_index.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/*===--------------------------------------------------------------------===*
 * concat, split
 *===--------------------------------------------------------------------===*/

/* concat is binary because IRDL binds every value of a variadic operand to
 * one type, so a variadic concat could not join inputs that differ along the
 * axis. ONNX's N-ary Concat imports as a left-leaning chain, which is
 * exact. */
MlirLogicalResult kilnTensorInferConcat(KilnInferContext *c) {
  MlirType a = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(a))
    return mlirLogicalResultFailure();
  MlirType b = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(b))
    return mlirLogicalResultFailure();
  int64_t out[KILN_MAX_RANK], axis;
  intptr_t r = shapeOf(a, out);
  if (mlirShapedTypeGetRank(b) != r)
    return kilnInferError(c, "operands 'a' (%s) and 'b' (%s) differ in rank",
                          kilnTensorTypeText(a).s, kilnTensorTypeText(b).s);
  if (!mlirTypeEqual(elementOf(a), elementOf(b)))
    return kilnInferError(c,
                          "operands 'a' (%s) and 'b' (%s) differ in element "
                          "type",
                          kilnTensorTypeText(a).s, kilnTensorTypeText(b).s);
  if (mlirLogicalResultIsFailure(kilnInferNormalizeAxis(
          c, "attribute 'axis'", kilnInferAttrInt(c, "axis", 0), r, &axis)))
    return mlirLogicalResultFailure();
  for (intptr_t k = 0; k < r; ++k) {
    int64_t d = mlirShapedTypeGetDimSize(b, k);
    if (k == axis) {
      if (isDynamic(d) || isDynamic(out[k]))
        out[k] = dynamicDim();
      else if (__builtin_add_overflow(out[k], d, &out[k]))
        return kilnInferError(c, "dimension %ld of the result overflows int64",
                              (long)k);
    } else if (isDynamic(out[k])) {
      out[k] = d;
    } else if (!isDynamic(d) && d != out[k]) {
      return kilnInferError(c,
                            "operands 'a' (%s) and 'b' (%s) differ in "
                            "dimension %ld (only axis %ld may differ)",
                            kilnTensorTypeText(a).s, kilnTensorTypeText(b).s,
                            (long)k, (long)axis);
    }
  }
  setResult(c, 0, r, out, elementOf(a));
  return mlirLogicalResultSuccess();
}

/* Sizes along the split axis from num_outputs: ceil(d / n) each, the last
 * one smaller (ONNX Split-18). */
static MlirLogicalResult splitEvenly(const KilnInferContext *c, int64_t d,
                                     intptr_t n, int64_t *sizes) {
  for (intptr_t i = 0; i < n; ++i)
    sizes[i] = d;
  if (isDynamic(d))
    return mlirLogicalResultSuccess();
  int64_t chunk = d / n + (d % n != 0), before;
  if (__builtin_mul_overflow(chunk, (int64_t)(n - 1), &before) || before > d)
    return kilnInferError(c,
                          "cannot split a dimension of size %ld into %ld "
                          "outputs of size ceil(%ld / %ld)",
                          (long)d, (long)n, (long)d, (long)n);
  for (intptr_t i = 0; i < n; ++i)
    sizes[i] = i + 1 < n ? chunk : d - before;
  return mlirLogicalResultSuccess();
}

/* Sizes along the split axis from the 'split' operand. */
static MlirLogicalResult splitExplicitly(const KilnInferContext *c, int64_t d,
                                         intptr_t n, int64_t *sizes) {
  intptr_t len;
  if (mlirLogicalResultIsFailure(
          kilnTensorIndexVector(c, 1, KILN_TENSOR_INDEX_I64, &len)))
    return mlirLogicalResultFailure();
  if (len >= 0 && len != n)
    return kilnInferError(c,
                          "operand 'split' has %ld entries, but the op "
                          "has %ld results",
                          (long)len, (long)n);
  if (!constantInts(c, 1, sizes, n)) {
    for (intptr_t i = 0; i < n; ++i)
      sizes[i] = dynamicDim();
    return mlirLogicalResultSuccess();
  }
  int64_t sum = 0;
  for (intptr_t i = 0; i < n; ++i)
    if (sizes[i] < 0 || __builtin_add_overflow(sum, sizes[i], &sum))
      return kilnInferError(c,
                            "operand 'split' %s must hold non-negative "
                            "sizes",
                            kilnTensorIntsText(sizes, n).s);
  if (!isDynamic(d) && sum != d)
    return kilnInferError(c,
                          "operand 'split' %s sums to %ld, but the split "
                          "dimension has size %ld",
                          kilnTensorIntsText(sizes, n).s, (long)sum, (long)d);
  return mlirLogicalResultSuccess();
}

/* IRDL gives every result of a variadic one type, so split can only
 * represent equal pieces; the importer turns an unequal ONNX Split into one
 * graph.slice per piece. */
static MlirLogicalResult checkEqualPieces(const KilnInferContext *c,
                                          const int64_t *sizes, intptr_t n,
                                          int64_t axis) {
  for (intptr_t i = 1; i < n; ++i)
    if (sizes[i] != sizes[0])
      return kilnInferError(
          c,
          "pieces of sizes %s along axis %ld differ; the graph dialect "
          "represents only equal pieces (IRDL gives all results of a "
          "variadic one type): use graph.slice for each piece",
          kilnTensorIntsText(sizes, n).s, (long)axis);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnTensorInferSplit(KilnInferContext *c) {
  MlirType input = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(input))
    return mlirLogicalResultFailure();
  int64_t dims[KILN_MAX_RANK], axis;
  intptr_t r = shapeOf(input, dims), n = c->numResults;
  if (mlirLogicalResultIsFailure(kilnInferNormalizeAxis(
          c, "attribute 'axis'", kilnInferAttrInt(c, "axis", 0), r, &axis)))
    return mlirLogicalResultFailure();
  bool hasSplit = !mlirValueIsNull(kilnInferOperand(c, 1));
  bool hasNum = !mlirAttributeIsNull(kilnInferAttr(c, "num_outputs"));
  /* Neither is ONNX Split-13's "as many equal parts as there are outputs";
   * the result count says how many, as num_outputs would. */
  if (hasSplit && hasNum)
    return kilnInferError(c, "takes operand 'split' or attribute "
                             "'num_outputs', not both");
  if (n < 1)
    return kilnInferError(c, "requires at least one result");
  if (hasNum && kilnInferAttrInt(c, "num_outputs", 0) != n)
    return kilnInferError(c,
                          "attribute 'num_outputs' is %ld, but the op "
                          "has %ld results",
                          (long)kilnInferAttrInt(c, "num_outputs", 0), (long)n);
  int64_t *sizes = calloc((size_t)n, sizeof(int64_t));
  if (!sizes)
    abort();
  MlirLogicalResult ok = hasSplit ? splitExplicitly(c, dims[axis], n, sizes)
                                  : splitEvenly(c, dims[axis], n, sizes);
  if (mlirLogicalResultIsSuccess(ok))
    ok = checkEqualPieces(c, sizes, n, axis);
  if (mlirLogicalResultIsSuccess(ok)) {
    dims[axis] = sizes[0];
    for (intptr_t i = 0; i < n; ++i)
      setResult(c, i, r, dims, elementOf(input));
  }
  free(sizes);
  return ok;
}

/*===--------------------------------------------------------------------===*
 * slice, gather
 *===--------------------------------------------------------------------===*/

static int64_t clampI64(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* ONNX Slice on one axis of static size `dim` (step != 0). */
static int64_t sliceLength(int64_t dim, int64_t start, int64_t end,
                           int64_t step) {
  if (dim == 0)
    return 0;
  if (start < 0)
    start += dim;
  if (end < 0)
    end += dim;
  uint64_t span, stride;
  if (step > 0) {
    start = clampI64(start, 0, dim);
    end = clampI64(end, 0, dim);
    if (end <= start)
      return 0;
    span = (uint64_t)(end - start);
    stride = (uint64_t)step;
  } else {
    start = clampI64(start, 0, dim - 1);
    end = clampI64(end, -1, dim - 1);
    if (start <= end)
      return 0;
    span = (uint64_t)(start - end);
    stride = 0 - (uint64_t)step; /* well defined for INT64_MIN too */
  }
  return (int64_t)((span - 1) / stride + 1);
}

/* The common static length of slice's index operands (-1 if unknown);
 * they must agree in length and element type. */
static MlirLogicalResult sliceOperands(const KilnInferContext *c, intptr_t *n) {
  MlirType elt = {NULL};
  intptr_t first = -1;
  *n = -1;
  for (intptr_t i = 1; i <= 4; ++i) {
    intptr_t len;
    if (i >= 3 && mlirValueIsNull(kilnInferOperand(c, i)))
      continue;
    if (mlirLogicalResultIsFailure(
            kilnTensorIndexVector(c, i, KILN_TENSOR_INDEX_I32_OR_I64, &len)))
      return mlirLogicalResultFailure();
    MlirType t = mlirValueGetType(kilnInferOperand(c, i));
    if (mlirTypeIsNull(elt))
      elt = elementOf(t);
    else if (!mlirTypeEqual(elt, elementOf(t)))
      return kilnInferError(c,
                            "operand '%s' has type %s, but 'starts' has "
                            "element type %s",
                            kilnTensorOperandName(c, i),
                            kilnTensorTypeText(t).s, kilnTensorTypeText(elt).s);
    if (len < 0)
      continue;
    if (*n >= 0 && len != *n)
      return kilnInferError(c,
                            "operand '%s' has %ld entries, but '%s' has "
                            "%ld",
                            kilnTensorOperandName(c, i), (long)len,
                            kilnTensorOperandName(c, first), (long)*n);
    *n = len;
    first = i;
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnTensorInferSlice(KilnInferContext *c) {
  MlirType data = kilnInferRankedOperand(c, 0);
  intptr_t n;
  if (mlirTypeIsNull(data) || mlirLogicalResultIsFailure(sliceOperands(c, &n)))
    return mlirLogicalResultFailure();
  int64_t dims[KILN_MAX_RANK];
  intptr_t r = shapeOf(data, dims);
  MlirType elt = elementOf(data);
  if (n > r)
    return kilnInferError(c,
                          "operand 'starts' has %ld entries, but the "
                          "input has rank %ld",
                          (long)n, (long)r);
  int64_t axes[KILN_MAX_RANK], starts[KILN_MAX_RANK], ends[KILN_MAX_RANK],
      steps[KILN_MAX_RANK];
  bool axesKnown = n >= 0;
  if (axesKnown && mlirValueIsNull(kilnInferOperand(c, 3))) {
    for (intptr_t k = 0; k < n; ++k)
      axes[k] = k;
  } else if (axesKnown && mlirLogicalResultIsFailure(kilnTensorReadAxes(
                              c, 3, n, r, axes, &axesKnown))) {
    return mlirLogicalResultFailure();
  }
  if (!axesKnown) { /* any dim may be sliced */
    kilnTensorSetAllDynamic(c, r, elt);
    return mlirLogicalResultSuccess();
  }
  bool valuesKnown =
      constantInts(c, 1, starts, n) && constantInts(c, 2, ends, n);
  if (mlirValueIsNull(kilnInferOperand(c, 4)))
    for (intptr_t k = 0; k < n; ++k)
      steps[k] = 1;
  else
    valuesKnown &= constantInts(c, 4, steps, n);
  for (intptr_t k = 0; valuesKnown && k < n; ++k)
    if (steps[k] == 0)
      return kilnInferError(c, "operand 'steps' %s must not contain 0",
                            kilnTensorIntsText(steps, n).s);
  for (intptr_t k = 0; k < n; ++k) {
    int64_t a = axes[k];
    if (!valuesKnown || isDynamic(dims[a]))
      dims[a] = dynamicDim();
    else
      dims[a] = sliceLength(dims[a], starts[k], ends[k], steps[k]);
  }
  setResult(c, 0, r, dims, elt);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnTensorCheckConstantIndices(const KilnInferContext *c,
                                                 int64_t s) {
  intptr_t n = kilnInferConstantInts(c, 1, NULL, 0);
  if (n <= 0 || isDynamic(s))
    return mlirLogicalResultSuccess();
  int64_t *v = malloc((size_t)n * sizeof(int64_t));
  if (!v)
    abort();
  kilnInferConstantInts(c, 1, v, n);
  MlirLogicalResult ok = mlirLogicalResultSuccess();
  for (intptr_t i = 0; i < n && mlirLogicalResultIsSuccess(ok); ++i)
    if (v[i] < -s || v[i] >= s)
      ok = kilnInferError(c,
                          "index %ld in operand 'indices' is out of range "
                          "for a dimension of size %ld",
                          (long)v[i], (long)s);
  free(v);
  return ok;
}

MlirLogicalResult kilnTensorInferGather(KilnInferContext *c) {
  MlirType data = kilnInferRankedOperand(c, 0);
  MlirType indices = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(data) || mlirTypeIsNull(indices))
    return mlirLogicalResultFailure();
  MlirType ielt = elementOf(indices);
  if (!isSignlessInt(ielt, 32) && !isSignlessInt(ielt, 64))
    return kilnInferError(c,
                          "operand 'indices' must have i32 or i64 "
                          "elements, got %s",
                          kilnTensorTypeText(indices).s);
  int64_t in[KILN_MAX_RANK], idx[KILN_MAX_RANK], out[KILN_MAX_RANK], axis;
  intptr_t r = shapeOf(data, in), q = shapeOf(indices, idx);
  if (mlirLogicalResultIsFailure(kilnInferNormalizeAxis(
          c, "attribute 'axis'", kilnInferAttrInt(c, "axis", 0), r, &axis)))
    return mlirLogicalResultFailure();
  if (q + r - 1 > KILN_MAX_RANK)
    return kilnInferError(c, "result rank %ld is above Kiln's limit of %d",
                          (long)(q + r - 1), KILN_MAX_RANK);
  if (mlirLogicalResultIsFailure(kilnTensorCheckConstantIndices(c, in[axis])))
    return mlirLogicalResultFailure();
  intptr_t k = 0;
  for (intptr_t i = 0; i < axis; ++i)
    out[k++] = in[i];
  for (intptr_t i = 0; i < q; ++i)
    out[k++] = idx[i];
  for (intptr_t i = axis + 1; i < r; ++i)
    out[k++] = in[i];
  setResult(c, 0, k, out, elementOf(data));
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * range
 *===--------------------------------------------------------------------===*/

bool kilnTensorConstantScalar(const KilnInferContext *c, intptr_t i,
                              double *out) {
  int64_t v;
  if (kilnInferConstantInts(c, i, &v, 1) == 1) {
    *out = (double)v;
    return true;
  }
  MlirValue value = kilnInferOperand(c, i);
  if (!mlirValueIsAOpResult(value))
    return false;
  MlirOperation def = mlirOpResultGetOwner(value);
  if (!kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(def)),
                           "graph.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a) ||
      mlirElementsAttrGetNumElements(a) != 1)
    return false;
  MlirType elt = elementOf(mlirAttributeGetType(a));
  if (mlirTypeIsAF32(elt))
    *out = mlirDenseElementsAttrGetFloatValue(a, 0);
  else if (mlirTypeIsAF64(elt))
    *out = mlirDenseElementsAttrGetDoubleValue(a, 0);
  else
    return false;
  return true;
}

/* The integer length max(ceil((limit - start) / delta), 0), exactly. */
static MlirLogicalResult rangeIntLength(const KilnInferContext *c,
                                        int64_t start, int64_t limit,
                                        int64_t delta, int64_t *len) {
  int64_t diff;
  if (__builtin_sub_overflow(limit, start, &diff))
    return kilnInferError(c, "range from %ld to %ld overflows int64",
                          (long)start, (long)limit);
  if (diff == 0 || (diff > 0) != (delta > 0)) {
    *len = 0;
    return mlirLogicalResultSuccess();
  }
  uint64_t span = diff > 0 ? (uint64_t)diff : 0 - (uint64_t)diff;
  uint64_t step = delta > 0 ? (uint64_t)delta : 0 - (uint64_t)delta;
  uint64_t n = (span - 1) / step + 1;
  if (n > (uint64_t)INT64_MAX)
    return kilnInferError(c, "range length overflows int64");
  *len = (int64_t)n;
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnTensorInferRange(KilnInferContext *c) {
  MlirType types[3];
  for (intptr_t i = 0; i < 3; ++i) {
    types[i] = kilnInferRankedOperand(c, i);
    if (mlirTypeIsNull(types[i]))
      return mlirLogicalResultFailure();
    if (mlirShapedTypeGetRank(types[i]) != 0)
      return kilnInferError(c,
                            "operand '%s' must be a scalar (rank 0), got "
                            "%s",
                            kilnTensorOperandName(c, i),
                            kilnTensorTypeText(types[i]).s);
  }
  MlirType elt = elementOf(types[0]);
  if (!mlirTypeIsAF32(elt) && !mlirTypeIsAF64(elt) && !isSignlessInt(elt, 16) &&
      !isSignlessInt(elt, 32) && !isSignlessInt(elt, 64))
    return kilnInferError(c,
                          "operand 'start' must be f32, f64, i16, i32 or "
                          "i64, got %s",
                          kilnTensorTypeText(types[0]).s);
  for (intptr_t i = 1; i < 3; ++i)
    if (!mlirTypeEqual(elementOf(types[i]), elt))
      return kilnInferError(c,
                            "operand '%s' has type %s, but 'start' has "
                            "type %s",
                            kilnTensorOperandName(c, i),
                            kilnTensorTypeText(types[i]).s,
                            kilnTensorTypeText(types[0]).s);
  int64_t len = dynamicDim();
  int64_t iv[3];
  double fv[3];
  bool isInt = mlirTypeIsAInteger(elt);
  bool known = true;
  for (intptr_t i = 0; i < 3; ++i)
    known &= isInt ? kilnInferConstantInts(c, i, &iv[i], 1) == 1
                   : kilnTensorConstantScalar(c, i, &fv[i]);
  if (known && (isInt ? iv[2] == 0 : fv[2] == 0.0))
    return kilnInferError(c, "operand 'delta' must not be zero");
  if (known && isInt) {
    if (mlirLogicalResultIsFailure(
            rangeIntLength(c, iv[0], iv[1], iv[2], &len)))
      return mlirLogicalResultFailure();
  } else if (known) {
    double n = ceil((fv[1] - fv[0]) / fv[2]);
    if (!(n < 0x1p62)) /* also catches NaN and infinities */
      return kilnInferError(c,
                            "range from %g to %g by %g has no "
                            "representable length",
                            fv[0], fv[1], fv[2]);
    len = n > 0 ? (int64_t)n : 0;
  }
  setResult(c, 0, 1, &len, elt);
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * pad
 *===--------------------------------------------------------------------===*/

static MlirLogicalResult checkPadConstant(const KilnInferContext *c,
                                          MlirType data) {
  if (mlirValueIsNull(kilnInferOperand(c, 2)))
    return mlirLogicalResultSuccess();
  MlirType t = kilnInferRankedOperand(c, 2);
  if (mlirTypeIsNull(t))
    return mlirLogicalResultFailure();
  /* ONNX wants a scalar; exporters also write a one-element 1-D tensor. */
  bool scalar =
      mlirShapedTypeGetRank(t) == 0 ||
      (mlirShapedTypeGetRank(t) == 1 && mlirShapedTypeGetDimSize(t, 0) == 1);
  if (!scalar || !mlirTypeEqual(elementOf(t), elementOf(data)))
    return kilnInferError(c,
                          "operand 'constant_value' must be a scalar of "
                          "the input's element type, got %s for input %s",
                          kilnTensorTypeText(t).s, kilnTensorTypeText(data).s);
  return mlirLogicalResultSuccess();
}

/* Pads axes[k] of `dims` by pads[k] before and pads[k + n] after. */
static MlirLogicalResult padDims(const KilnInferContext *c, int64_t *dims,
                                 const int64_t *axes, const int64_t *pads,
                                 intptr_t n) {
  for (intptr_t k = 0; k < n; ++k) {
    int64_t d = dims[axes[k]];
    if (isDynamic(d))
      continue;
    int64_t out;
    if (__builtin_add_overflow(d, pads[k], &out) ||
        __builtin_add_overflow(out, pads[k + n], &out) || out < 0)
      return kilnInferError(c,
                            "padding axis %ld of size %ld by %ld before "
                            "and %ld after gives an invalid size",
                            (long)axes[k], (long)d, (long)pads[k],
                            (long)pads[k + n]);
    dims[axes[k]] = out;
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnTensorInferPad(KilnInferContext *c) {
  static const char *const kModes[] = {"constant", "reflect", "edge", "wrap",
                                       NULL};
  MlirType data = kilnInferRankedOperand(c, 0);
  intptr_t numPads, n = -1;
  if (mlirTypeIsNull(data) ||
      mlirLogicalResultIsFailure(
          kilnTensorIndexVector(c, 1, KILN_TENSOR_INDEX_I64, &numPads)) ||
      mlirLogicalResultIsFailure(checkPadConstant(c, data)) ||
      mlirLogicalResultIsFailure(kilnTensorCheckEnum(
          c, "mode", kilnInferAttrString(c, "mode", "constant"), kModes)))
    return mlirLogicalResultFailure();
  int64_t dims[KILN_MAX_RANK], axes[KILN_MAX_RANK], pads[2 * KILN_MAX_RANK];
  intptr_t r = shapeOf(data, dims);
  MlirType elt = elementOf(data);
  bool hasAxes = !mlirValueIsNull(kilnInferOperand(c, 3)), known = true;
  if (hasAxes) {
    if (mlirLogicalResultIsFailure(
            kilnTensorIndexVector(c, 3, KILN_TENSOR_INDEX_I32_OR_I64, &n)))
      return mlirLogicalResultFailure();
    if (n > r)
      return kilnInferError(c,
                            "operand 'axes' has %ld entries, but the "
                            "input has rank %ld",
                            (long)n, (long)r);
    if (n >= 0 && mlirLogicalResultIsFailure(
                      kilnTensorReadAxes(c, 3, n, r, axes, &known)))
      return mlirLogicalResultFailure();
  } else {
    n = r;
    for (intptr_t k = 0; k < r; ++k)
      axes[k] = k;
  }
  if (n >= 0 && numPads >= 0 && numPads != 2 * n)
    return kilnInferError(c,
                          "operand 'pads' has %ld entries, expected %ld "
                          "(2 per padded axis)",
                          (long)numPads, (long)(2 * n));
  if (n < 0 || !known) { /* which axes are padded is unknown */
    kilnTensorSetAllDynamic(c, r, elt);
    return mlirLogicalResultSuccess();
  }
  if (!constantInts(c, 1, pads, 2 * n)) {
    for (intptr_t k = 0; k < n; ++k)
      dims[axes[k]] = dynamicDim();
  } else if (mlirLogicalResultIsFailure(padDims(c, dims, axes, pads, n))) {
    return mlirLogicalResultFailure();
  }
  setResult(c, 0, r, dims, elt);
  return mlirLogicalResultSuccess();
}

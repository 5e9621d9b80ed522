/* Graph ops of the Tensor family that index single elements or mask them:
 * gather_elements, gather_nd, scatter_elements, scatter_nd, trilu,
 * eye_like, one_hot, reverse_sequence. The table and the shared helpers are
 * in ops_tensor.c (see ops_tensor_index.h). Each follows the latest ONNX
 * opset of its op. */
#include "dialects/graph/infer.h"
#include "dialects/graph/ops_tensor_index.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/*===--------------------------------------------------------------------===*
 * Element-type helpers
 *===--------------------------------------------------------------------===*/

static bool isIntOfWidth(MlirType t, unsigned lo, unsigned hi) {
  if (!mlirTypeIsAInteger(t) || mlirIntegerTypeIsSigned(t))
    return false;
  unsigned w = mlirIntegerTypeGetWidth(t);
  return w >= lo && w <= hi && (w & (w - 1)) == 0;
}

/* ONNX's numeric tensor types: f16, bf16, f32, f64 and 8- to 64-bit
 * integers (signless stands for signed; unsigned is uiN). */
static bool isNumeric(MlirType t) {
  return mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) ||
         mlirTypeIsAF64(t) || isIntOfWidth(t, 8, 64);
}

/* Checks that operand `i` is a ranked tensor with integer elements of the
 * allowed widths (i64, or i32/i64); stores its type. */
static MlirLogicalResult indexOperand(const KilnInferContext *c, intptr_t i,
                                      bool allowI32, MlirType *type) {
  *type = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(*type))
    return mlirLogicalResultFailure();
  MlirType elt = elementOf(*type);
  if (!isSignlessInt(elt, 64) && !(allowI32 && isSignlessInt(elt, 32)))
    return kilnInferError(c, "operand '%s' must have %s elements, got %s",
                          kilnTensorOperandName(c, i),
                          allowI32 ? "i32 or i64" : "i64",
                          kilnTensorTypeText(*type).s);
  return mlirLogicalResultSuccess();
}

/* Fails unless operand `i` has `data`'s element type. */
static MlirLogicalResult sameElementType(const KilnInferContext *c, intptr_t i,
                                         MlirType t, MlirType data) {
  if (mlirTypeEqual(elementOf(t), elementOf(data)))
    return mlirLogicalResultSuccess();
  return kilnInferError(c,
                        "operand '%s' (%s) must have the element type of "
                        "'data' (%s)",
                        kilnTensorOperandName(c, i), kilnTensorTypeText(t).s,
                        kilnTensorTypeText(data).s);
}

/* Fails unless the two shapes agree (same rank; static dims equal). */
static MlirLogicalResult sameShape(const KilnInferContext *c, const char *what,
                                   const int64_t *want, intptr_t wantRank,
                                   MlirType got, const char *gotName) {
  int64_t dims[KILN_MAX_RANK];
  intptr_t r = shapeOf(got, dims);
  bool ok = r == wantRank;
  for (intptr_t i = 0; ok && i < r; ++i)
    ok = isDynamic(dims[i]) || isDynamic(want[i]) || dims[i] == want[i];
  if (ok)
    return mlirLogicalResultSuccess();
  return kilnInferError(c, "operand '%s' (%s) must have shape %s (%s)", gotName,
                        kilnTensorTypeText(got).s,
                        kilnTensorIntsText(want, wantRank).s, what);
}

static MlirLogicalResult checkReduction(const KilnInferContext *c) {
  static const char *const kReductions[] = {"none", "add", "mul",
                                            "max",  "min", NULL};
  return kilnTensorCheckEnum(
      c, "reduction", kilnInferAttrString(c, "reduction", "none"), kReductions);
}

/*===--------------------------------------------------------------------===*
 * gather_elements, scatter_elements
 *===--------------------------------------------------------------------===*/

/* data (rank r >= 1) and i32/i64 indices of the same rank; a valid axis. */
static MlirLogicalResult elementsOperands(const KilnInferContext *c,
                                          MlirType *data, MlirType *indices,
                                          int64_t *axis) {
  *data = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(*data) ||
      mlirLogicalResultIsFailure(indexOperand(c, 1, true, indices)))
    return mlirLogicalResultFailure();
  intptr_t r = mlirShapedTypeGetRank(*data);
  if (r < 1)
    return kilnInferError(c, "operand 'data' must have rank >= 1, got %s",
                          kilnTensorTypeText(*data).s);
  if (mlirShapedTypeGetRank(*indices) != r)
    return kilnInferError(c,
                          "operand 'indices' (%s) must have the rank of "
                          "'data' (%s)",
                          kilnTensorTypeText(*indices).s,
                          kilnTensorTypeText(*data).s);
  return kilnInferNormalizeAxis(c, "attribute 'axis'",
                                kilnInferAttrInt(c, "axis", 0), r, axis);
}

/* ONNX GatherElements-13: the result has the shape of indices. */
MlirLogicalResult kilnTensorInferGatherElements(KilnInferContext *c) {
  MlirType data, indices;
  int64_t axis, dims[KILN_MAX_RANK];
  if (mlirLogicalResultIsFailure(elementsOperands(c, &data, &indices, &axis)) ||
      mlirLogicalResultIsFailure(kilnTensorCheckConstantIndices(
          c, mlirShapedTypeGetDimSize(data, axis))))
    return mlirLogicalResultFailure();
  intptr_t r = shapeOf(indices, dims);
  setResult(c, 0, r, dims, elementOf(data));
  return mlirLogicalResultSuccess();
}

/* ONNX ScatterElements-18 (and the deprecated Scatter, which is it without
 * reduction): updates has the shape of indices; the result is data's
 * type. */
MlirLogicalResult kilnTensorInferScatterElements(KilnInferContext *c) {
  MlirType data, indices, updates;
  int64_t axis, dims[KILN_MAX_RANK];
  if (mlirLogicalResultIsFailure(elementsOperands(c, &data, &indices, &axis)) ||
      mlirTypeIsNull(updates = kilnInferRankedOperand(c, 2)) ||
      mlirLogicalResultIsFailure(checkReduction(c)) ||
      mlirLogicalResultIsFailure(sameElementType(c, 2, updates, data)) ||
      mlirLogicalResultIsFailure(kilnTensorCheckConstantIndices(
          c, mlirShapedTypeGetDimSize(data, axis))))
    return mlirLogicalResultFailure();
  intptr_t q = shapeOf(indices, dims);
  if (mlirLogicalResultIsFailure(
          sameShape(c, "the shape of 'indices'", dims, q, updates, "updates")))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = data;
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * gather_nd, scatter_nd
 *===--------------------------------------------------------------------===*/

/* data (rank r >= 1) and i64 indices (rank q >= 1), batch < min(r, q).
 * Reads k, the last dim of indices (dynamic when unknown), and checks it
 * against r - batch. */
static MlirLogicalResult ndOperands(const KilnInferContext *c, int64_t batch,
                                    MlirType *data, MlirType *indices,
                                    int64_t *k) {
  *data = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(*data) ||
      mlirLogicalResultIsFailure(indexOperand(c, 1, false, indices)))
    return mlirLogicalResultFailure();
  intptr_t r = mlirShapedTypeGetRank(*data);
  intptr_t q = mlirShapedTypeGetRank(*indices);
  if (r < 1 || q < 1)
    return kilnInferError(c,
                          "operands 'data' (%s) and 'indices' (%s) must "
                          "have rank >= 1",
                          kilnTensorTypeText(*data).s,
                          kilnTensorTypeText(*indices).s);
  if (batch >= (r < q ? r : q))
    return kilnInferError(c,
                          "attribute 'batch_dims' (%ld) must be less than "
                          "the ranks of 'data' (%ld) and 'indices' (%ld)",
                          (long)batch, (long)r, (long)q);
  *k = mlirShapedTypeGetDimSize(*indices, q - 1);
  if (!isDynamic(*k) && (*k < 1 || *k > r - batch))
    return kilnInferError(c,
                          "the last dimension of operand 'indices' (%s) "
                          "must be in [1, %ld] (rank of 'data' minus "
                          "batch_dims), got %ld",
                          kilnTensorTypeText(*indices).s, (long)(r - batch),
                          (long)*k);
  return mlirLogicalResultSuccess();
}

/* The batch dims of data and indices must agree. */
static MlirLogicalResult checkBatchDims(const KilnInferContext *c,
                                        MlirType data, MlirType indices,
                                        int64_t batch) {
  for (intptr_t i = 0; i < batch; ++i) {
    int64_t a = mlirShapedTypeGetDimSize(data, i);
    int64_t b = mlirShapedTypeGetDimSize(indices, i);
    if (!isDynamic(a) && !isDynamic(b) && a != b)
      return kilnInferError(c,
                            "batch dimension %ld differs between 'data' "
                            "(%s) and 'indices' (%s)",
                            (long)i, kilnTensorTypeText(data).s,
                            kilnTensorTypeText(indices).s);
  }
  return mlirLogicalResultSuccess();
}

/* indices.shape[:-1] ++ data.shape[from:] into out; fails above the rank
 * limit. */
static MlirLogicalResult ndShape(const KilnInferContext *c, MlirType data,
                                 MlirType indices, int64_t from, int64_t *out,
                                 intptr_t *rank) {
  intptr_t q = mlirShapedTypeGetRank(indices);
  intptr_t r = mlirShapedTypeGetRank(data);
  *rank = q - 1 + r - from;
  if (*rank > KILN_MAX_RANK)
    return kilnInferError(c, "result rank %ld is above Kiln's limit of %d",
                          (long)*rank, KILN_MAX_RANK);
  intptr_t n = 0;
  for (intptr_t i = 0; i + 1 < q; ++i)
    out[n++] = mlirShapedTypeGetDimSize(indices, i);
  for (intptr_t i = from; i < r; ++i)
    out[n++] = mlirShapedTypeGetDimSize(data, i);
  return mlirLogicalResultSuccess();
}

/* ONNX GatherND-13. */
MlirLogicalResult kilnTensorInferGatherND(KilnInferContext *c) {
  int64_t batch = kilnInferAttrInt(c, "batch_dims", 0);
  MlirType data, indices;
  int64_t k;
  if (batch < 0)
    return kilnInferError(c, "attribute 'batch_dims' must be >= 0, got %ld",
                          (long)batch);
  if (mlirLogicalResultIsFailure(ndOperands(c, batch, &data, &indices, &k)) ||
      mlirLogicalResultIsFailure(checkBatchDims(c, data, indices, batch)))
    return mlirLogicalResultFailure();
  if (isDynamic(k)) { /* the result rank depends on k */
    c->resultTypes[0] = mlirUnrankedTensorTypeGet(elementOf(data));
    return mlirLogicalResultSuccess();
  }
  int64_t out[2 * KILN_MAX_RANK];
  intptr_t rank;
  if (mlirLogicalResultIsFailure(
          ndShape(c, data, indices, batch + k, out, &rank)))
    return mlirLogicalResultFailure();
  setResult(c, 0, rank, out, elementOf(data));
  return mlirLogicalResultSuccess();
}

/* ONNX ScatterND-18: updates is indices.shape[:-1] ++ data.shape[k:]. */
MlirLogicalResult kilnTensorInferScatterND(KilnInferContext *c) {
  MlirType data, indices, updates;
  int64_t k;
  if (mlirLogicalResultIsFailure(ndOperands(c, 0, &data, &indices, &k)) ||
      mlirTypeIsNull(updates = kilnInferRankedOperand(c, 2)) ||
      mlirLogicalResultIsFailure(checkReduction(c)) ||
      mlirLogicalResultIsFailure(sameElementType(c, 2, updates, data)))
    return mlirLogicalResultFailure();
  int64_t want[2 * KILN_MAX_RANK];
  intptr_t rank;
  if (!isDynamic(k) &&
      (mlirLogicalResultIsFailure(ndShape(c, data, indices, k, want, &rank)) ||
       mlirLogicalResultIsFailure(
           sameShape(c, "indices.shape[:-1] ++ data.shape[k:]", want, rank,
                     updates, "updates"))))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = data;
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * trilu, eye_like
 *===--------------------------------------------------------------------===*/

/* ONNX Trilu-14: keeps the upper or lower triangle of the last two dims. */
MlirLogicalResult kilnTensorInferTrilu(KilnInferContext *c) {
  MlirType input = kilnInferRankedOperand(c, 0), k;
  int64_t upper;
  if (mlirTypeIsNull(input) ||
      mlirLogicalResultIsFailure(kilnTensorFlagAttr(c, "upper", 1, &upper)))
    return mlirLogicalResultFailure();
  if (mlirShapedTypeGetRank(input) < 2)
    return kilnInferError(c, "operand 'input' must have rank >= 2, got %s",
                          kilnTensorTypeText(input).s);
  if (!mlirValueIsNull(kilnInferOperand(c, 1))) {
    if (mlirLogicalResultIsFailure(kilnTensorScalarOperand(c, 1, &k)))
      return mlirLogicalResultFailure();
    if (!isSignlessInt(elementOf(k), 64))
      return kilnInferError(c, "operand 'k' must be an i64 scalar, got %s",
                            kilnTensorTypeText(k).s);
  }
  c->resultTypes[0] = input;
  return mlirLogicalResultSuccess();
}

/* EyeLike's T1/T2: numeric or bool. */
static bool isEyeLikeType(MlirType t) {
  return isNumeric(t) || isSignlessInt(t, 1);
}

/* ONNX EyeLike-22: ones on diagonal k of a 2-D tensor shaped like input. */
MlirLogicalResult kilnTensorInferEyeLike(KilnInferContext *c) {
  MlirType input = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(input))
    return mlirLogicalResultFailure();
  if (mlirShapedTypeGetRank(input) != 2 || !isEyeLikeType(elementOf(input)))
    return kilnInferError(c,
                          "operand 'input' must be a 2-D tensor of numbers "
                          "or booleans, got %s",
                          kilnTensorTypeText(input).s);
  MlirType elt = elementOf(input);
  MlirAttribute dtype = kilnInferAttr(c, "dtype");
  if (!mlirAttributeIsNull(dtype)) {
    elt = mlirTypeAttrGetValue(dtype);
    if (!isEyeLikeType(elt))
      return kilnInferError(c,
                            "attribute 'dtype' must be a numeric or boolean "
                            "element type, got %s",
                            kilnTensorTypeText(elt).s);
  }
  int64_t dims[2];
  shapeOf(input, dims);
  setResult(c, 0, 2, dims, elt);
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * one_hot, reverse_sequence
 *===--------------------------------------------------------------------===*/

/* OneHot's depth: a numeric scalar; its value (> 0, truncated to an integer
 * as ONNX Runtime does) when constant, else a dynamic dim. */
static MlirLogicalResult oneHotDepth(const KilnInferContext *c,
                                     int64_t *depth) {
  MlirType t;
  if (mlirLogicalResultIsFailure(kilnTensorScalarOperand(c, 1, &t)))
    return mlirLogicalResultFailure();
  if (!isNumeric(elementOf(t)))
    return kilnInferError(c, "operand 'depth' must be numeric, got %s",
                          kilnTensorTypeText(t).s);
  double v;
  *depth = dynamicDim();
  if (!kilnTensorConstantScalar(c, 1, &v))
    return mlirLogicalResultSuccess();
  if (!(v >= 1.0 && v < 0x1p62)) /* also rejects NaN */
    return kilnInferError(c, "operand 'depth' must be at least 1, got %g", v);
  *depth = (int64_t)v;
  return mlirLogicalResultSuccess();
}

/* ONNX OneHot-11: indices' shape with the depth inserted at axis, in
 * [-r-1, r]; the element type is that of values ([off, on]). */
MlirLogicalResult kilnTensorInferOneHot(KilnInferContext *c) {
  MlirType indices = kilnInferRankedOperand(c, 0);
  MlirType values = kilnInferRankedOperand(c, 2);
  int64_t depth;
  if (mlirTypeIsNull(indices) || mlirTypeIsNull(values) ||
      mlirLogicalResultIsFailure(oneHotDepth(c, &depth)))
    return mlirLogicalResultFailure();
  if (!isNumeric(elementOf(indices)))
    return kilnInferError(c, "operand 'indices' must be numeric, got %s",
                          kilnTensorTypeText(indices).s);
  int64_t nv = mlirShapedTypeGetRank(values) == 1
                   ? mlirShapedTypeGetDimSize(values, 0)
                   : -1;
  if (nv != 2 && !isDynamic(nv))
    return kilnInferError(c,
                          "operand 'values' must be a 1-D tensor of two "
                          "elements [off, on], got %s",
                          kilnTensorTypeText(values).s);
  int64_t in[KILN_MAX_RANK], out[KILN_MAX_RANK];
  intptr_t r = shapeOf(indices, in);
  if (r + 1 > KILN_MAX_RANK)
    return kilnInferError(c, "result rank %ld is above Kiln's limit of %d",
                          (long)(r + 1), KILN_MAX_RANK);
  int64_t axis;
  if (mlirLogicalResultIsFailure(kilnInferNormalizeAxis(
          c, "attribute 'axis'", kilnInferAttrInt(c, "axis", -1), r + 1,
          &axis)))
    return mlirLogicalResultFailure();
  for (intptr_t i = 0, j = 0; i <= r; ++i)
    out[i] = i == axis ? depth : in[j++];
  setResult(c, 0, r + 1, out, elementOf(values));
  return mlirLogicalResultSuccess();
}

/* ONNX ReverseSequence-10: batch_axis and time_axis are 0 and 1 in either
 * order; sequence_lens has one i64 length per batch entry. */
MlirLogicalResult kilnTensorInferReverseSequence(KilnInferContext *c) {
  MlirType input = kilnInferRankedOperand(c, 0);
  intptr_t len;
  if (mlirTypeIsNull(input) || mlirLogicalResultIsFailure(kilnTensorIndexVector(
                                   c, 1, KILN_TENSOR_INDEX_I64, &len)))
    return mlirLogicalResultFailure();
  if (mlirShapedTypeGetRank(input) < 2)
    return kilnInferError(c, "operand 'input' must have rank >= 2, got %s",
                          kilnTensorTypeText(input).s);
  int64_t batch = kilnInferAttrInt(c, "batch_axis", 1);
  int64_t time = kilnInferAttrInt(c, "time_axis", 0);
  if ((batch != 0 && batch != 1) || (time != 0 && time != 1) || batch == time)
    return kilnInferError(c,
                          "attributes 'batch_axis' (%ld) and 'time_axis' "
                          "(%ld) must be 0 and 1 in either order",
                          (long)batch, (long)time);
  int64_t b = mlirShapedTypeGetDimSize(input, batch);
  if (len >= 0 && !isDynamic(b) && len != b)
    return kilnInferError(c,
                          "operand 'sequence_lens' has %ld entries, but "
                          "the batch dimension of %s is %ld",
                          (long)len, kilnTensorTypeText(input).s, (long)b);
  c->resultTypes[0] = input;
  return mlirLogicalResultSuccess();
}

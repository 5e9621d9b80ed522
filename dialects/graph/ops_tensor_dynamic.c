/* Graph ops of the Tensor family whose result shape is generated or depends
 * on the data: constant_of_shape, size, non_zero, compress, unique,
 * non_max_suppression. The table and the shared helpers are in ops_tensor.c
 * (see ops_tensor_index.h). Each follows the latest ONNX opset of its op.
 *
 * A count that only the data decides (how many elements are non-zero,
 * unique, selected) is a dynamic dim; the result rank is always known. */
#include "dialects/graph/infer.h"
#include "dialects/graph/ops_tensor_index.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

static MlirType i64Type(const KilnInferContext *c) {
  return mlirIntegerTypeGet(c->ctx, 64);
}

/*===--------------------------------------------------------------------===*
 * constant_of_shape, size
 *===--------------------------------------------------------------------===*/

/* The element type of ConstantOfShape's `value`: one element of an integer
 * or float type; f32 when absent (ONNX's default is a float 0). */
static MlirLogicalResult constantOfShapeElement(const KilnInferContext *c,
                                                MlirType *elt) {
  MlirAttribute value = kilnInferAttr(c, "value");
  if (mlirAttributeIsNull(value)) {
    *elt = mlirF32TypeGet(c->ctx);
    return mlirLogicalResultSuccess();
  }
  MlirType t = mlirAttributeGetType(value);
  bool one = mlirTypeIsARankedTensor(t);
  for (intptr_t i = 0; one && i < mlirShapedTypeGetRank(t); ++i)
    one = mlirShapedTypeGetDimSize(t, i) == 1;
  if (one) {
    *elt = elementOf(t);
    one = mlirTypeIsAInteger(*elt) || mlirTypeIsAFloat(*elt);
  }
  if (!one)
    return kilnInferError(c,
                          "attribute 'value' must be a one-element tensor "
                          "of numbers or booleans, got %s",
                          kilnTensorTypeText(t).s);
  return mlirLogicalResultSuccess();
}

/* ONNX ConstantOfShape-21: the shape is the value of the 1-D i64 input (an
 * empty one gives a scalar). */
MlirLogicalResult kilnTensorInferConstantOfShape(KilnInferContext *c) {
  intptr_t n;
  MlirType elt;
  if (mlirLogicalResultIsFailure(
          kilnTensorIndexVector(c, 0, KILN_TENSOR_INDEX_I64, &n)) ||
      mlirLogicalResultIsFailure(constantOfShapeElement(c, &elt)))
    return mlirLogicalResultFailure();
  if (n < 0) {
    c->resultTypes[0] = mlirUnrankedTensorTypeGet(elt);
    return mlirLogicalResultSuccess();
  }
  if (n > KILN_MAX_RANK)
    return kilnInferError(c,
                          "operand 'input' has %ld entries, above Kiln's "
                          "rank limit of %d",
                          (long)n, KILN_MAX_RANK);
  int64_t dims[KILN_MAX_RANK];
  if (!constantInts(c, 0, dims, n)) {
    kilnTensorSetAllDynamic(c, n, elt);
    return mlirLogicalResultSuccess();
  }
  for (intptr_t i = 0; i < n; ++i)
    if (dims[i] < 0)
      return kilnInferError(c, "operand 'input' %s has a negative dimension",
                            kilnTensorIntsText(dims, n).s);
  setResult(c, 0, n, dims, elt);
  return mlirLogicalResultSuccess();
}

/* ONNX Size-21: the element count as a scalar i64. */
MlirLogicalResult kilnTensorInferSize(KilnInferContext *c) {
  if (mlirTypeIsNull(kilnInferRankedOperand(c, 0)))
    return mlirLogicalResultFailure();
  setResult(c, 0, 0, NULL, i64Type(c));
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * non_zero, compress
 *===--------------------------------------------------------------------===*/

/* ONNX NonZero-13: one column of coordinates per non-zero element. */
MlirLogicalResult kilnTensorInferNonZero(KilnInferContext *c) {
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x))
    return mlirLogicalResultFailure();
  int64_t dims[2] = {mlirShapedTypeGetRank(x), dynamicDim()};
  setResult(c, 0, 2, dims, i64Type(c));
  return mlirLogicalResultSuccess();
}

/* ONNX Compress-11: the slices along `axis` (without it, the elements of
 * the flattened input) whose condition entry is true. */
MlirLogicalResult kilnTensorInferCompress(KilnInferContext *c) {
  MlirType input = kilnInferRankedOperand(c, 0);
  MlirType cond = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(input) || mlirTypeIsNull(cond))
    return mlirLogicalResultFailure();
  if (mlirShapedTypeGetRank(cond) != 1 || !isSignlessInt(elementOf(cond), 1))
    return kilnInferError(c,
                          "operand 'condition' must be a 1-D tensor of i1, "
                          "got %s",
                          kilnTensorTypeText(cond).s);
  MlirType elt = elementOf(input);
  if (mlirAttributeIsNull(kilnInferAttr(c, "axis"))) {
    kilnTensorSetAllDynamic(c, 1, elt);
    return mlirLogicalResultSuccess();
  }
  int64_t dims[KILN_MAX_RANK], axis;
  intptr_t r = shapeOf(input, dims);
  if (mlirLogicalResultIsFailure(kilnInferNormalizeAxis(
          c, "attribute 'axis'", kilnInferAttrInt(c, "axis", 0), r, &axis)))
    return mlirLogicalResultFailure();
  dims[axis] = dynamicDim();
  setResult(c, 0, r, dims, elt);
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * unique
 *===--------------------------------------------------------------------===*/

/* ONNX Unique-11. y: the unique elements (1-D without axis) or slices along
 * axis; indices and counts: one i64 per unique entry; inverse_indices: one
 * per input element (without axis) or slice along axis. The optional
 * results are present in order, so result i is declared result i. */
MlirLogicalResult kilnTensorInferUnique(KilnInferContext *c) {
  MlirType x = kilnInferRankedOperand(c, 0);
  int64_t sorted;
  if (mlirTypeIsNull(x) ||
      mlirLogicalResultIsFailure(kilnTensorFlagAttr(c, "sorted", 1, &sorted)))
    return mlirLogicalResultFailure();
  if (c->numResults < 1 || c->numResults > 4)
    return kilnInferError(c, "has 1 to 4 results, got %ld",
                          (long)c->numResults);
  int64_t dims[KILN_MAX_RANK], axis, unique = dynamicDim(), slices = 1;
  intptr_t r = shapeOf(x, dims);
  if (mlirAttributeIsNull(kilnInferAttr(c, "axis"))) {
    for (intptr_t i = 0; i < r && !isDynamic(slices); ++i)
      if (isDynamic(dims[i]) ||
          __builtin_mul_overflow(slices, dims[i], &slices))
        slices = dynamicDim();
    setResult(c, 0, 1, &unique, elementOf(x));
  } else {
    if (mlirLogicalResultIsFailure(kilnInferNormalizeAxis(
            c, "attribute 'axis'", kilnInferAttrInt(c, "axis", 0), r, &axis)))
      return mlirLogicalResultFailure();
    slices = dims[axis];
    dims[axis] = unique;
    setResult(c, 0, r, dims, elementOf(x));
  }
  for (intptr_t i = 1; i < c->numResults; ++i)
    setResult(c, i, 1, i == 2 ? &slices : &unique, i64Type(c));
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * non_max_suppression
 *===--------------------------------------------------------------------===*/

/* An f32 tensor of rank 3; stores its dims. */
static MlirLogicalResult boxesOperand(const KilnInferContext *c, intptr_t i,
                                      const char *layout, int64_t *dims) {
  MlirType t = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(t))
    return mlirLogicalResultFailure();
  if (mlirShapedTypeGetRank(t) != 3 || !mlirTypeIsAF32(elementOf(t)))
    return kilnInferError(
        c, "operand '%s' must be a 3-D f32 tensor (%s), got %s",
        kilnTensorOperandName(c, i), layout, kilnTensorTypeText(t).s);
  shapeOf(t, dims);
  return mlirLogicalResultSuccess();
}

static bool dimsDiffer(int64_t a, int64_t b) {
  return !isDynamic(a) && !isDynamic(b) && a != b;
}

/* The optional scalar operands: max_output_boxes_per_class (i64),
 * iou_threshold and score_threshold (f32). */
static MlirLogicalResult checkNmsScalars(const KilnInferContext *c) {
  for (intptr_t i = 2; i <= 4; ++i) {
    MlirType t;
    if (mlirValueIsNull(kilnInferOperand(c, i)))
      continue;
    if (mlirLogicalResultIsFailure(kilnTensorScalarOperand(c, i, &t)))
      return mlirLogicalResultFailure();
    bool ok =
        i == 2 ? isSignlessInt(elementOf(t), 64) : mlirTypeIsAF32(elementOf(t));
    if (!ok)
      return kilnInferError(c, "operand '%s' must have %s elements, got %s",
                            kilnTensorOperandName(c, i), i == 2 ? "i64" : "f32",
                            kilnTensorTypeText(t).s);
  }
  return mlirLogicalResultSuccess();
}

/* ONNX NonMaxSuppression-11: boxes [batches, boxes, 4], scores [batches,
 * classes, boxes]; one [batch, class, box] row per selected box. */
MlirLogicalResult kilnTensorInferNonMaxSuppression(KilnInferContext *c) {
  int64_t boxes[3], scores[3], cpb;
  if (mlirLogicalResultIsFailure(
          boxesOperand(c, 0, "batches x boxes x 4", boxes)) ||
      mlirLogicalResultIsFailure(
          boxesOperand(c, 1, "batches x classes x boxes", scores)) ||
      mlirLogicalResultIsFailure(checkNmsScalars(c)) ||
      mlirLogicalResultIsFailure(
          kilnTensorFlagAttr(c, "center_point_box", 0, &cpb)))
    return mlirLogicalResultFailure();
  if (dimsDiffer(boxes[2], 4))
    return kilnInferError(c,
                          "operand 'boxes' must have 4 coordinates per box "
                          "(last dimension), got %ld",
                          (long)boxes[2]);
  if (dimsDiffer(boxes[0], scores[0]) || dimsDiffer(boxes[1], scores[2]))
    return kilnInferError(c,
                          "operands 'boxes' %s and 'scores' %s disagree in "
                          "the batch count or the box count",
                          kilnTensorIntsText(boxes, 3).s,
                          kilnTensorIntsText(scores, 3).s);
  int64_t dims[2] = {dynamicDim(), 3};
  setResult(c, 0, 2, dims, i64Type(c));
  return mlirLogicalResultSuccess();
}

/* Typed builders for the graph ops of the tensor family: thin wrappers over
 * kilnGraphBuilderCreateOp that turn C values into attributes, leaving ONNX
 * defaults off the op. */
#include "kiln/graph_tensor.h"

#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* Room for the largest attribute list here. */
#define MAX_ATTRS 2

/* Inference leaves a result unranked when not even its rank follows from
 * the operands (e.g. reshape to a shape of dynamic length); graph-verify
 * accepts that, but IRDL requires ranked results, so a builder must not
 * insert such an op. Returns `op`, or a null op after erasing it. */
static MlirOperation requireRanked(KilnGraphBuilder *b, MlirOperation op) {
  if (mlirOperationIsNull(op))
    return op;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
    if (mlirTypeIsARankedTensor(t))
      continue;
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    kilnEmitErrorf(kilnGraphBuilderGetLocation(b),
                   "'%.*s' op: the rank of result #%ld cannot be inferred "
                   "from its operands",
                   (int)name.length, name.data, (long)i);
    mlirOperationRemoveFromParent(op);
    mlirOperationDestroy(op);
    return (MlirOperation){NULL};
  }
  return op;
}

/* Builds a single-result op; returns its result or a null value. */
static MlirValue build(KilnGraphBuilder *b, const char *opName,
                       const MlirValue *operands, intptr_t numOperands,
                       const MlirNamedAttribute *attrs, intptr_t numAttrs) {
  MlirOperation op = requireRanked(
      b, kilnGraphBuilderCreateOp(b, opName, operands, numOperands, attrs,
                                  numAttrs, -1));
  if (mlirOperationIsNull(op))
    return (MlirValue){NULL};
  return mlirOperationGetResult(op, 0);
}

MlirValue kilnGraphBuildConstant(KilnGraphBuilder *b, MlirAttribute value) {
  if (mlirAttributeIsNull(value)) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(b),
                   "'graph.constant' op requires a non-null 'value'");
    return (MlirValue){NULL};
  }
  MlirNamedAttribute attr = mlirNamedAttributeGet(
      mlirIdentifierGet(kilnGraphBuilderGetContext(b),
                        mlirStringRefCreateFromCString("value")),
      value);
  return build(b, "constant", NULL, 0, &attr, 1);
}

MlirValue kilnGraphBuildConstantInts(KilnGraphBuilder *b, const int64_t *values,
                                     intptr_t n) {
  if (n < 0) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(b),
                   "'graph.constant' op cannot hold %ld values", (long)n);
    return (MlirValue){NULL};
  }
  MlirContext ctx = kilnGraphBuilderGetContext(b);
  int64_t shape[1] = {n};
  MlirType type = mlirRankedTensorTypeGet(1, shape, mlirIntegerTypeGet(ctx, 64),
                                          mlirAttributeGetNull());
  return kilnGraphBuildConstant(b,
                                mlirDenseElementsAttrInt64Get(type, n, values));
}

MlirValue kilnGraphBuildIdentity(KilnGraphBuilder *b, MlirValue input) {
  return build(b, "identity", &input, 1, NULL, 0);
}

MlirValue kilnGraphBuildReshape(KilnGraphBuilder *b, MlirValue data,
                                MlirValue shape, bool allowzero) {
  const MlirValue operands[] = {data, shape};
  MlirNamedAttribute attr = kilnGraphAttrInt(b, "allowzero", 1);
  return build(b, "reshape", operands, 2, &attr, allowzero);
}

/* An op with one operand and an i64 attribute left off at its default. */
static MlirValue buildWithInt(KilnGraphBuilder *b, const char *opName,
                              const MlirValue *operands, intptr_t numOperands,
                              const char *attrName, int64_t value,
                              int64_t dflt) {
  MlirNamedAttribute attr = kilnGraphAttrInt(b, attrName, value);
  return build(b, opName, operands, numOperands, &attr, value != dflt);
}

MlirValue kilnGraphBuildFlatten(KilnGraphBuilder *b, MlirValue input,
                                int64_t axis) {
  return buildWithInt(b, "flatten", &input, 1, "axis", axis, 1);
}

MlirValue kilnGraphBuildTranspose(KilnGraphBuilder *b, MlirValue data,
                                  const int64_t *perm, intptr_t numPerm) {
  if (perm && numPerm < 0) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(b),
                   "'graph.transpose' op: attribute 'perm' cannot have %ld "
                   "entries",
                   (long)numPerm);
    return (MlirValue){NULL};
  }
  if (!perm)
    return build(b, "transpose", &data, 1, NULL, 0);
  MlirNamedAttribute attr = kilnGraphAttrInts(b, "perm", perm, numPerm);
  return build(b, "transpose", &data, 1, &attr, 1);
}

MlirValue kilnGraphBuildConcat(KilnGraphBuilder *b, MlirValue a, MlirValue b2,
                               int64_t axis) {
  const MlirValue operands[] = {a, b2};
  MlirNamedAttribute attr = kilnGraphAttrInt(b, "axis", axis);
  return build(b, "concat", operands, 2, &attr, 1);
}

/* Erases the last `links` ops of a concat chain ending in `last`, newest
 * first: each link's result is used only by the next, already erased. */
static void eraseChain(MlirValue last, intptr_t links) {
  for (; links > 0; --links) {
    MlirOperation op = mlirOpResultGetOwner(last);
    last = mlirOperationGetOperand(op, 0);
    mlirOperationRemoveFromParent(op);
    mlirOperationDestroy(op);
  }
}

MlirValue kilnGraphBuildConcatN(KilnGraphBuilder *b, const MlirValue *inputs,
                                intptr_t n, int64_t axis) {
  MlirLocation loc = kilnGraphBuilderGetLocation(b);
  if (n < 1) {
    kilnEmitErrorf(
        loc, "'graph.concat' op requires at least one input, got %ld", (long)n);
    return (MlirValue){NULL};
  }
  for (intptr_t i = 0; i < n; ++i)
    if (!inputs || mlirValueIsNull(inputs[i])) {
      kilnEmitErrorf(loc, "'graph.concat' op input #%ld is null", (long)i);
      return (MlirValue){NULL};
    }
  MlirValue acc = inputs[0];
  for (intptr_t i = 1; i < n; ++i) {
    MlirValue next = kilnGraphBuildConcat(b, acc, inputs[i], axis);
    if (mlirValueIsNull(next)) {
      eraseChain(acc, i - 1);
      return next;
    }
    acc = next;
  }
  return acc;
}

MlirOperation kilnGraphBuildSplit(KilnGraphBuilder *b, MlirValue input,
                                  MlirValue split, int64_t axis,
                                  intptr_t numOutputs) {
  if (numOutputs < 1) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(b),
                   "'graph.split' op requires at least one output, got %ld",
                   (long)numOutputs);
    return (MlirOperation){NULL};
  }
  const MlirValue operands[] = {input, split};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (axis != 0)
    attrs[n++] = kilnGraphAttrInt(b, "axis", axis);
  if (mlirValueIsNull(split))
    attrs[n++] = kilnGraphAttrInt(b, "num_outputs", numOutputs);
  return requireRanked(b, kilnGraphBuilderCreateOp(b, "split", operands, 2,
                                                   attrs, n, numOutputs));
}

MlirValue kilnGraphBuildSlice(KilnGraphBuilder *b, MlirValue data,
                              MlirValue starts, MlirValue ends, MlirValue axes,
                              MlirValue steps) {
  const MlirValue operands[] = {data, starts, ends, axes, steps};
  return build(b, "slice", operands, 5, NULL, 0);
}

MlirValue kilnGraphBuildGather(KilnGraphBuilder *b, MlirValue data,
                               MlirValue indices, int64_t axis) {
  const MlirValue operands[] = {data, indices};
  return buildWithInt(b, "gather", operands, 2, "axis", axis, 0);
}

MlirValue kilnGraphBuildSqueeze(KilnGraphBuilder *b, MlirValue data,
                                MlirValue axes) {
  const MlirValue operands[] = {data, axes};
  return build(b, "squeeze", operands, 2, NULL, 0);
}

MlirValue kilnGraphBuildUnsqueeze(KilnGraphBuilder *b, MlirValue data,
                                  MlirValue axes) {
  const MlirValue operands[] = {data, axes};
  return build(b, "unsqueeze", operands, 2, NULL, 0);
}

MlirValue kilnGraphBuildExpand(KilnGraphBuilder *b, MlirValue input,
                               MlirValue shape) {
  const MlirValue operands[] = {input, shape};
  return build(b, "expand", operands, 2, NULL, 0);
}

MlirValue kilnGraphBuildTile(KilnGraphBuilder *b, MlirValue input,
                             MlirValue repeats) {
  const MlirValue operands[] = {input, repeats};
  return build(b, "tile", operands, 2, NULL, 0);
}

MlirValue kilnGraphBuildShape(KilnGraphBuilder *b, MlirValue data,
                              int64_t start, const int64_t *end) {
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (start != 0)
    attrs[n++] = kilnGraphAttrInt(b, "start", start);
  if (end)
    attrs[n++] = kilnGraphAttrInt(b, "end", *end);
  return build(b, "shape", &data, 1, attrs, n);
}

MlirValue kilnGraphBuildRange(KilnGraphBuilder *b, MlirValue start,
                              MlirValue limit, MlirValue delta) {
  const MlirValue operands[] = {start, limit, delta};
  return build(b, "range", operands, 3, NULL, 0);
}

/* A string attribute unless NULL or equal to the ONNX default. */
static intptr_t addString(KilnGraphBuilder *b, MlirNamedAttribute *attrs,
                          intptr_t n, const char *name, const char *value,
                          const char *dflt) {
  if (value && strcmp(value, dflt) != 0)
    attrs[n++] = kilnGraphAttrString(b, name, value);
  return n;
}

MlirValue kilnGraphBuildPad(KilnGraphBuilder *b, MlirValue data, MlirValue pads,
                            MlirValue constantValue, MlirValue axes,
                            const char *mode) {
  const MlirValue operands[] = {data, pads, constantValue, axes};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = addString(b, attrs, 0, "mode", mode, "constant");
  return build(b, "pad", operands, 4, attrs, n);
}

MlirValue kilnGraphBuildDepthToSpace(KilnGraphBuilder *b, MlirValue input,
                                     int64_t blocksize, const char *mode) {
  MlirNamedAttribute attrs[MAX_ATTRS];
  attrs[0] = kilnGraphAttrInt(b, "blocksize", blocksize);
  intptr_t n = addString(b, attrs, 1, "mode", mode, "DCR");
  return build(b, "depth_to_space", &input, 1, attrs, n);
}

MlirValue kilnGraphBuildSpaceToDepth(KilnGraphBuilder *b, MlirValue input,
                                     int64_t blocksize) {
  MlirNamedAttribute attr = kilnGraphAttrInt(b, "blocksize", blocksize);
  return build(b, "space_to_depth", &input, 1, &attr, 1);
}

MlirValue kilnGraphBuildGatherElements(KilnGraphBuilder *b, MlirValue data,
                                       MlirValue indices, int64_t axis) {
  const MlirValue operands[] = {data, indices};
  return buildWithInt(b, "gather_elements", operands, 2, "axis", axis, 0);
}

MlirValue kilnGraphBuildGatherND(KilnGraphBuilder *b, MlirValue data,
                                 MlirValue indices, int64_t batchDims) {
  const MlirValue operands[] = {data, indices};
  return buildWithInt(b, "gather_nd", operands, 2, "batch_dims", batchDims, 0);
}

MlirValue kilnGraphBuildScatterElements(KilnGraphBuilder *b, MlirValue data,
                                        MlirValue indices, MlirValue updates,
                                        int64_t axis, const char *reduction) {
  const MlirValue operands[] = {data, indices, updates};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (axis != 0)
    attrs[n++] = kilnGraphAttrInt(b, "axis", axis);
  n = addString(b, attrs, n, "reduction", reduction, "none");
  return build(b, "scatter_elements", operands, 3, attrs, n);
}

MlirValue kilnGraphBuildScatterND(KilnGraphBuilder *b, MlirValue data,
                                  MlirValue indices, MlirValue updates,
                                  const char *reduction) {
  const MlirValue operands[] = {data, indices, updates};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = addString(b, attrs, 0, "reduction", reduction, "none");
  return build(b, "scatter_nd", operands, 3, attrs, n);
}

MlirValue kilnGraphBuildTrilu(KilnGraphBuilder *b, MlirValue input, MlirValue k,
                              bool upper) {
  const MlirValue operands[] = {input, k};
  return buildWithInt(b, "trilu", operands, 2, "upper", upper, 1);
}

MlirValue kilnGraphBuildConstantOfShape(KilnGraphBuilder *b, MlirValue input,
                                        MlirAttribute value) {
  MlirNamedAttribute attr = mlirNamedAttributeGet(
      mlirIdentifierGet(kilnGraphBuilderGetContext(b),
                        mlirStringRefCreateFromCString("value")),
      value);
  return build(b, "constant_of_shape", &input, 1, &attr,
               !mlirAttributeIsNull(value));
}

MlirValue kilnGraphBuildSize(KilnGraphBuilder *b, MlirValue data) {
  return build(b, "size", &data, 1, NULL, 0);
}

MlirValue kilnGraphBuildEyeLike(KilnGraphBuilder *b, MlirValue input, int64_t k,
                                MlirType dtype) {
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (!mlirTypeIsNull(dtype))
    attrs[n++] = kilnGraphAttrType(b, "dtype", dtype);
  if (k != 0)
    attrs[n++] = kilnGraphAttrInt(b, "k", k);
  return build(b, "eye_like", &input, 1, attrs, n);
}

MlirValue kilnGraphBuildOneHot(KilnGraphBuilder *b, MlirValue indices,
                               MlirValue depth, MlirValue values,
                               int64_t axis) {
  const MlirValue operands[] = {indices, depth, values};
  return buildWithInt(b, "one_hot", operands, 3, "axis", axis, -1);
}

MlirValue kilnGraphBuildReverseSequence(KilnGraphBuilder *b, MlirValue input,
                                        MlirValue sequenceLens,
                                        int64_t batchAxis, int64_t timeAxis) {
  const MlirValue operands[] = {input, sequenceLens};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (batchAxis != 1)
    attrs[n++] = kilnGraphAttrInt(b, "batch_axis", batchAxis);
  if (timeAxis != 0)
    attrs[n++] = kilnGraphAttrInt(b, "time_axis", timeAxis);
  return build(b, "reverse_sequence", operands, 2, attrs, n);
}

MlirValue kilnGraphBuildNonZero(KilnGraphBuilder *b, MlirValue x) {
  return build(b, "non_zero", &x, 1, NULL, 0);
}

MlirValue kilnGraphBuildCompress(KilnGraphBuilder *b, MlirValue input,
                                 MlirValue condition, const int64_t *axis) {
  const MlirValue operands[] = {input, condition};
  MlirNamedAttribute attr = kilnGraphAttrInt(b, "axis", axis ? *axis : 0);
  return build(b, "compress", operands, 2, &attr, axis != NULL);
}

MlirOperation kilnGraphBuildUnique(KilnGraphBuilder *b, MlirValue x,
                                   const int64_t *axis, bool sorted,
                                   intptr_t numResults) {
  if (numResults < 1 || numResults > 4) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(b),
                   "'graph.unique' op has 1 to 4 results, got %ld",
                   (long)numResults);
    return (MlirOperation){NULL};
  }
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (axis)
    attrs[n++] = kilnGraphAttrInt(b, "axis", *axis);
  if (!sorted)
    attrs[n++] = kilnGraphAttrInt(b, "sorted", 0);
  return requireRanked(
      b, kilnGraphBuilderCreateOp(b, "unique", &x, 1, attrs, n, numResults));
}

MlirValue kilnGraphBuildNonMaxSuppression(KilnGraphBuilder *b, MlirValue boxes,
                                          MlirValue scores,
                                          MlirValue maxOutputBoxesPerClass,
                                          MlirValue iouThreshold,
                                          MlirValue scoreThreshold,
                                          int64_t centerPointBox) {
  const MlirValue operands[] = {boxes, scores, maxOutputBoxesPerClass,
                                iouThreshold, scoreThreshold};
  return buildWithInt(b, "non_max_suppression", operands, 5, "center_point_box",
                      centerPointBox, 0);
}

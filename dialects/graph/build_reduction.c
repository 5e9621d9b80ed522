/* Typed builders for the graph ops of the reduction family: thin wrappers
 * over kilnGraphBuilderCreateValue that turn C values into attributes,
 * leaving ONNX defaults off the op. */
#include "kiln/graph_reduction.h"

/* Room for the largest attribute list here (gemm's four). */
#define MAX_ATTRS 4

MlirValue kilnGraphBuildMatMul(KilnGraphBuilder *builder, MlirValue a,
                               MlirValue b) {
  const MlirValue operands[] = {a, b};
  return kilnGraphBuilderCreateValue(builder, "matmul", operands, 2, NULL, 0);
}

MlirValue kilnGraphBuildGemm(KilnGraphBuilder *builder, MlirValue a,
                             MlirValue b, MlirValue c, float alpha, float beta,
                             bool transA, bool transB) {
  const MlirValue operands[] = {a, b, c};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (alpha != 1.0f)
    attrs[n++] = kilnGraphAttrFloat(builder, "alpha", alpha);
  if (beta != 1.0f)
    attrs[n++] = kilnGraphAttrFloat(builder, "beta", beta);
  if (transA)
    attrs[n++] = kilnGraphAttrInt(builder, "transA", 1);
  if (transB)
    attrs[n++] = kilnGraphAttrInt(builder, "transB", 1);
  return kilnGraphBuilderCreateValue(builder, "gemm", operands, 3, attrs, n);
}

static MlirValue buildSoftmaxLike(KilnGraphBuilder *builder, const char *opName,
                                  MlirValue input, int64_t axis) {
  MlirNamedAttribute attr = kilnGraphAttrInt(builder, "axis", axis);
  return kilnGraphBuilderCreateValue(builder, opName, &input, 1, &attr,
                                     axis != -1);
}

MlirValue kilnGraphBuildSoftmax(KilnGraphBuilder *builder, MlirValue input,
                                int64_t axis) {
  return buildSoftmaxLike(builder, "softmax", input, axis);
}

MlirValue kilnGraphBuildLogSoftmax(KilnGraphBuilder *builder, MlirValue input,
                                   int64_t axis) {
  return buildSoftmaxLike(builder, "log_softmax", input, axis);
}

static MlirValue buildReduce(KilnGraphBuilder *builder, const char *opName,
                             MlirValue data, MlirValue axes, bool keepdims,
                             bool noopWithEmptyAxes) {
  const MlirValue operands[] = {data, axes};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (!keepdims)
    attrs[n++] = kilnGraphAttrInt(builder, "keepdims", 0);
  if (noopWithEmptyAxes)
    attrs[n++] = kilnGraphAttrInt(builder, "noop_with_empty_axes", 1);
  return kilnGraphBuilderCreateValue(builder, opName, operands, 2, attrs, n);
}

MlirValue kilnGraphBuildReduceSum(KilnGraphBuilder *builder, MlirValue data,
                                  MlirValue axes, bool keepdims,
                                  bool noopWithEmptyAxes) {
  return buildReduce(builder, "reduce_sum", data, axes, keepdims,
                     noopWithEmptyAxes);
}

MlirValue kilnGraphBuildReduceMean(KilnGraphBuilder *builder, MlirValue data,
                                   MlirValue axes, bool keepdims,
                                   bool noopWithEmptyAxes) {
  return buildReduce(builder, "reduce_mean", data, axes, keepdims,
                     noopWithEmptyAxes);
}

MlirValue kilnGraphBuildReduceMax(KilnGraphBuilder *builder, MlirValue data,
                                  MlirValue axes, bool keepdims,
                                  bool noopWithEmptyAxes) {
  return buildReduce(builder, "reduce_max", data, axes, keepdims,
                     noopWithEmptyAxes);
}

MlirValue kilnGraphBuildReduceMin(KilnGraphBuilder *builder, MlirValue data,
                                  MlirValue axes, bool keepdims,
                                  bool noopWithEmptyAxes) {
  return buildReduce(builder, "reduce_min", data, axes, keepdims,
                     noopWithEmptyAxes);
}

MlirValue kilnGraphBuildReduceProd(KilnGraphBuilder *builder, MlirValue data,
                                   MlirValue axes, bool keepdims,
                                   bool noopWithEmptyAxes) {
  return buildReduce(builder, "reduce_prod", data, axes, keepdims,
                     noopWithEmptyAxes);
}

MlirValue kilnGraphBuildReduceL2(KilnGraphBuilder *builder, MlirValue data,
                                 MlirValue axes, bool keepdims,
                                 bool noopWithEmptyAxes) {
  return buildReduce(builder, "reduce_l2", data, axes, keepdims,
                     noopWithEmptyAxes);
}

static MlirValue buildArgReduce(KilnGraphBuilder *builder, const char *opName,
                                MlirValue data, int64_t axis, bool keepdims,
                                bool selectLastIndex) {
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (axis != 0)
    attrs[n++] = kilnGraphAttrInt(builder, "axis", axis);
  if (!keepdims)
    attrs[n++] = kilnGraphAttrInt(builder, "keepdims", 0);
  if (selectLastIndex)
    attrs[n++] = kilnGraphAttrInt(builder, "select_last_index", 1);
  return kilnGraphBuilderCreateValue(builder, opName, &data, 1, attrs, n);
}

MlirValue kilnGraphBuildArgMax(KilnGraphBuilder *builder, MlirValue data,
                               int64_t axis, bool keepdims,
                               bool selectLastIndex) {
  return buildArgReduce(builder, "argmax", data, axis, keepdims,
                        selectLastIndex);
}

MlirValue kilnGraphBuildArgMin(KilnGraphBuilder *builder, MlirValue data,
                               int64_t axis, bool keepdims,
                               bool selectLastIndex) {
  return buildArgReduce(builder, "argmin", data, axis, keepdims,
                        selectLastIndex);
}

/* Typed builders for the graph ops of the reduction family: thin wrappers
 * over kilnGraphBuilderCreateValue that turn C values into attributes,
 * leaving ONNX defaults off the op. */
#include "kiln/graph_reduction.h"

#include "kiln/diagnostics.h"

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

MlirValue kilnGraphBuildReduceL1(KilnGraphBuilder *builder, MlirValue data,
                                 MlirValue axes, bool keepdims,
                                 bool noopWithEmptyAxes) {
  return buildReduce(builder, "reduce_l1", data, axes, keepdims,
                     noopWithEmptyAxes);
}

MlirValue kilnGraphBuildReduceLogSum(KilnGraphBuilder *builder, MlirValue data,
                                     MlirValue axes, bool keepdims,
                                     bool noopWithEmptyAxes) {
  return buildReduce(builder, "reduce_log_sum", data, axes, keepdims,
                     noopWithEmptyAxes);
}

MlirValue kilnGraphBuildReduceLogSumExp(KilnGraphBuilder *builder,
                                        MlirValue data, MlirValue axes,
                                        bool keepdims, bool noopWithEmptyAxes) {
  return buildReduce(builder, "reduce_log_sum_exp", data, axes, keepdims,
                     noopWithEmptyAxes);
}

MlirValue kilnGraphBuildReduceSumSquare(KilnGraphBuilder *builder,
                                        MlirValue data, MlirValue axes,
                                        bool keepdims, bool noopWithEmptyAxes) {
  return buildReduce(builder, "reduce_sum_square", data, axes, keepdims,
                     noopWithEmptyAxes);
}

MlirValue kilnGraphBuildHardmax(KilnGraphBuilder *builder, MlirValue input,
                                int64_t axis) {
  return buildSoftmaxLike(builder, "hardmax", input, axis);
}

MlirValue kilnGraphBuildCumSum(KilnGraphBuilder *builder, MlirValue x,
                               MlirValue axis, bool exclusive, bool reverse) {
  const MlirValue operands[] = {x, axis};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (exclusive)
    attrs[n++] = kilnGraphAttrInt(builder, "exclusive", 1);
  if (reverse)
    attrs[n++] = kilnGraphAttrInt(builder, "reverse", 1);
  return kilnGraphBuilderCreateValue(builder, "cum_sum", operands, 2, attrs, n);
}

MlirValue kilnGraphBuildTopK(KilnGraphBuilder *builder, MlirValue x,
                             MlirValue k, int64_t axis, bool largest,
                             bool sorted, MlirValue *indices) {
  const MlirValue operands[] = {x, k};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = 0;
  if (axis != -1)
    attrs[n++] = kilnGraphAttrInt(builder, "axis", axis);
  if (!largest)
    attrs[n++] = kilnGraphAttrInt(builder, "largest", 0);
  if (!sorted)
    attrs[n++] = kilnGraphAttrInt(builder, "sorted", 0);
  MlirOperation op =
      kilnGraphBuilderCreateOp(builder, "top_k", operands, 2, attrs, n, 2);
  bool ok = !mlirOperationIsNull(op);
  if (indices)
    *indices = ok ? mlirOperationGetResult(op, 1) : (MlirValue){NULL};
  return ok ? mlirOperationGetResult(op, 0) : (MlirValue){NULL};
}

/* The loss attributes: reduction unless "mean" (an unknown enum value is
 * passed on as text that inference rejects), ignore_index when given. */
static intptr_t lossAttrs(KilnGraphBuilder *builder,
                          KilnGraphLossReduction reduction,
                          const int64_t *ignoreIndex,
                          MlirNamedAttribute *attrs) {
  intptr_t n = 0;
  if (reduction != KILN_GRAPH_LOSS_MEAN)
    attrs[n++] = kilnGraphAttrString(builder, "reduction",
                                     reduction == KILN_GRAPH_LOSS_SUM ? "sum"
                                     : reduction == KILN_GRAPH_LOSS_NONE
                                         ? "none"
                                         : "(invalid enum value)");
  if (ignoreIndex)
    attrs[n++] = kilnGraphAttrInt(builder, "ignore_index", *ignoreIndex);
  return n;
}

MlirValue kilnGraphBuildNegativeLogLikelihoodLoss(
    KilnGraphBuilder *builder, MlirValue input, MlirValue target,
    MlirValue weight, KilnGraphLossReduction reduction,
    const int64_t *ignoreIndex) {
  const MlirValue operands[] = {input, target, weight};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = lossAttrs(builder, reduction, ignoreIndex, attrs);
  return kilnGraphBuilderCreateValue(builder, "negative_log_likelihood_loss",
                                     operands, 3, attrs, n);
}

MlirValue kilnGraphBuildSoftmaxCrossEntropyLoss(
    KilnGraphBuilder *builder, MlirValue scores, MlirValue labels,
    MlirValue weights, KilnGraphLossReduction reduction,
    const int64_t *ignoreIndex, MlirValue *logProb) {
  const MlirValue operands[] = {scores, labels, weights};
  MlirNamedAttribute attrs[MAX_ATTRS];
  intptr_t n = lossAttrs(builder, reduction, ignoreIndex, attrs);
  MlirOperation op =
      kilnGraphBuilderCreateOp(builder, "softmax_cross_entropy_loss", operands,
                               3, attrs, n, logProb ? 2 : 1);
  bool ok = !mlirOperationIsNull(op);
  if (logProb)
    *logProb = ok ? mlirOperationGetResult(op, 1) : (MlirValue){NULL};
  return ok ? mlirOperationGetResult(op, 0) : (MlirValue){NULL};
}

MlirValue kilnGraphBuildEinsum(KilnGraphBuilder *builder, const char *equation,
                               MlirValue a, MlirValue b) {
  if (!equation) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(builder),
                   "'graph.einsum' op requires an equation (got NULL)");
    return (MlirValue){NULL};
  }
  const MlirValue operands[] = {a, b};
  MlirNamedAttribute attr = kilnGraphAttrString(builder, "equation", equation);
  return kilnGraphBuilderCreateValue(builder, "einsum", operands, 2, &attr, 1);
}

MlirValue kilnGraphBuildDet(KilnGraphBuilder *builder, MlirValue x) {
  return kilnGraphBuilderCreateValue(builder, "det", &x, 1, NULL, 0);
}

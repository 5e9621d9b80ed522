/* Typed builders for graph ops of the reduction family (see graph_builder.h):
 * matmul, gemm, softmax, log_softmax, hardmax,
 * reduce_{sum,mean,max,min,prod,l1,l2,log_sum,log_sum_exp,sum_square},
 * argmax, argmin, cum_sum, top_k, negative_log_likelihood_loss,
 * softmax_cross_entropy_loss, einsum and det.
 *
 * Conventions shared by every function here:
 * - Operands are values of ranked tensor type; an optional ONNX input is
 *   passed as a null MlirValue when absent.
 * - Attributes are plain C values. An attribute equal to its ONNX default is
 *   left off the op (the op then means the same thing), so built IR matches
 *   what the ONNX importer produces.
 * - The result type is inferred with ONNX's shape rules. The new op is
 *   inserted at the builder's insertion point and owned by its block; the
 *   returned value is borrowed from it.
 * - On a violated rule (shape, element type, axis range, ...) an error
 *   diagnostic is emitted at the builder's location, nothing is inserted,
 *   and a null value is returned. */
#ifndef KILN_GRAPH_REDUCTION_H
#define KILN_GRAPH_REDUCTION_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/graph_builder.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Builds graph.matmul (ONNX MatMul): numpy.matmul of `a` and `b`, with 1-D
/// operands promoted and batch dims broadcast. Returns the borrowed result,
/// or a null value after emitting an error.
MlirValue kilnGraphBuildMatMul(KilnGraphBuilder *builder, MlirValue a,
                               MlirValue b);

/// Builds graph.gemm (ONNX Gemm): alpha * A' * B' + beta * C for 2-D `a`
/// and `b` (A' = transpose(a) if transA, likewise B'); `c` (null: absent)
/// must broadcast unidirectionally to [M, N]. Returns the borrowed result,
/// or a null value after emitting an error.
MlirValue kilnGraphBuildGemm(KilnGraphBuilder *builder, MlirValue a,
                             MlirValue b, MlirValue c, float alpha, float beta,
                             bool transA, bool transB);

/// Builds graph.softmax (ONNX Softmax) along `axis` (ONNX default -1).
/// Returns the borrowed result, or a null value after emitting an error.
MlirValue kilnGraphBuildSoftmax(KilnGraphBuilder *builder, MlirValue input,
                                int64_t axis);
/// Builds graph.log_softmax (ONNX LogSoftmax) along `axis` (default -1).
/// Returns the borrowed result, or a null value after emitting an error.
MlirValue kilnGraphBuildLogSoftmax(KilnGraphBuilder *builder, MlirValue input,
                                   int64_t axis);

/// Builds graph.hardmax (ONNX Hardmax): 1 at the first maximum along `axis`
/// (ONNX default -1), 0 elsewhere. Returns the borrowed result, or a null
/// value after emitting an error.
MlirValue kilnGraphBuildHardmax(KilnGraphBuilder *builder, MlirValue input,
                                int64_t axis);

/// Reduction builders (ONNX ReduceSum, ReduceMean, ReduceMax, ReduceMin,
/// ReduceProd, ReduceL1, ReduceL2, ReduceLogSum, ReduceLogSumExp,
/// ReduceSumSquare). `axes` is an optional 1-D i64 tensor (null:
/// absent); a graph.constant gives a static result shape, any other value a
/// result with dynamic dims. Absent or empty axes reduce every dim unless
/// `noopWithEmptyAxes` (then the op is the identity). ONNX defaults:
/// keepdims = true, noopWithEmptyAxes = false. Each returns the borrowed
/// result, or a null value after emitting an error.
MlirValue kilnGraphBuildReduceSum(KilnGraphBuilder *builder, MlirValue data,
                                  MlirValue axes, bool keepdims,
                                  bool noopWithEmptyAxes);
MlirValue kilnGraphBuildReduceMean(KilnGraphBuilder *builder, MlirValue data,
                                   MlirValue axes, bool keepdims,
                                   bool noopWithEmptyAxes);
MlirValue kilnGraphBuildReduceMax(KilnGraphBuilder *builder, MlirValue data,
                                  MlirValue axes, bool keepdims,
                                  bool noopWithEmptyAxes);
MlirValue kilnGraphBuildReduceMin(KilnGraphBuilder *builder, MlirValue data,
                                  MlirValue axes, bool keepdims,
                                  bool noopWithEmptyAxes);
MlirValue kilnGraphBuildReduceProd(KilnGraphBuilder *builder, MlirValue data,
                                   MlirValue axes, bool keepdims,
                                   bool noopWithEmptyAxes);
MlirValue kilnGraphBuildReduceL2(KilnGraphBuilder *builder, MlirValue data,
                                 MlirValue axes, bool keepdims,
                                 bool noopWithEmptyAxes);
MlirValue kilnGraphBuildReduceL1(KilnGraphBuilder *builder, MlirValue data,
                                 MlirValue axes, bool keepdims,
                                 bool noopWithEmptyAxes);
MlirValue kilnGraphBuildReduceLogSum(KilnGraphBuilder *builder, MlirValue data,
                                     MlirValue axes, bool keepdims,
                                     bool noopWithEmptyAxes);
MlirValue kilnGraphBuildReduceLogSumExp(KilnGraphBuilder *builder,
                                        MlirValue data, MlirValue axes,
                                        bool keepdims, bool noopWithEmptyAxes);
MlirValue kilnGraphBuildReduceSumSquare(KilnGraphBuilder *builder,
                                        MlirValue data, MlirValue axes,
                                        bool keepdims, bool noopWithEmptyAxes);

/// Builds graph.argmax (ONNX ArgMax): i64 indices of the maxima along
/// `axis`. ONNX defaults: axis = 0, keepdims = true, selectLastIndex =
/// false. Returns the borrowed result, or a null value after emitting an
/// error.
MlirValue kilnGraphBuildArgMax(KilnGraphBuilder *builder, MlirValue data,
                               int64_t axis, bool keepdims,
                               bool selectLastIndex);
/// Builds graph.argmin (ONNX ArgMin); as kilnGraphBuildArgMax.
MlirValue kilnGraphBuildArgMin(KilnGraphBuilder *builder, MlirValue data,
                               int64_t axis, bool keepdims,
                               bool selectLastIndex);

/// Builds graph.cum_sum (ONNX CumSum): running sums of `x` along `axis`, a
/// scalar (or 1-element 1-D) i32/i64 tensor; a graph.constant axis is
/// checked against x's rank. ONNX defaults: exclusive = reverse = false.
/// Returns the borrowed result, or a null value after emitting an error.
MlirValue kilnGraphBuildCumSum(KilnGraphBuilder *builder, MlirValue x,
                               MlirValue axis, bool exclusive, bool reverse);

/// Builds graph.top_k (ONNX TopK): the `k` largest (or smallest) elements
/// of `x` along `axis` and their i64 indices. `k` is a 1-element 1-D i64
/// tensor; a graph.constant gives the selected dim its size, any other value
/// makes it dynamic. ONNX defaults: axis = -1, largest = sorted = true.
/// Returns the borrowed values result and stores the borrowed indices result
/// in *indices when `indices` is non-NULL; on error both are null values and
/// an error has been emitted.
MlirValue kilnGraphBuildTopK(KilnGraphBuilder *builder, MlirValue x,
                             MlirValue k, int64_t axis, bool largest,
                             bool sorted, MlirValue *indices /* OUT */);

/// How a loss op combines the per-element losses (ONNX `reduction`).
typedef enum KilnGraphLossReduction {
  KILN_GRAPH_LOSS_MEAN, /* weighted mean: the ONNX default */
  KILN_GRAPH_LOSS_SUM,
  KILN_GRAPH_LOSS_NONE /* one loss per target element */
} KilnGraphLossReduction;

/// Builds graph.negative_log_likelihood_loss (ONNX
/// NegativeLogLikelihoodLoss) of `input` [N, C, d1...] (float) and `target`
/// [N, d1...] (i32/i64), with optional per-class `weight` [C] (null:
/// absent). `ignoreIndex` points at the target value to ignore, or is NULL
/// for none. The loss is a scalar, or target's shape for
/// KILN_GRAPH_LOSS_NONE. Returns the borrowed result, or a null value after
/// emitting an error.
MlirValue kilnGraphBuildNegativeLogLikelihoodLoss(
    KilnGraphBuilder *builder, MlirValue input, MlirValue target,
    MlirValue weight, KilnGraphLossReduction reduction,
    const int64_t *ignoreIndex);

/// Builds graph.softmax_cross_entropy_loss (ONNX SoftmaxCrossEntropyLoss):
/// operands and loss as kilnGraphBuildNegativeLogLikelihoodLoss, on the
/// log-softmax of `scores`. If `logProb` is non-NULL the op also has the
/// log_prob result (scores' type), stored there (null on failure). Returns
/// the borrowed loss, or a null value after emitting an error.
MlirValue kilnGraphBuildSoftmaxCrossEntropyLoss(
    KilnGraphBuilder *builder, MlirValue scores, MlirValue labels,
    MlirValue weights, KilnGraphLossReduction reduction,
    const int64_t *ignoreIndex, MlirValue *logProb /* OUT */);

/// Builds graph.einsum (ONNX Einsum) of `a` and, unless it is a null value,
/// `b` with `equation` (copied; e.g. "bij,bjk->bik", "...ii->...i", "ij").
/// Kiln's einsum takes one or two operands. Returns the borrowed result, or
/// a null value after emitting an error (also for a NULL equation).
MlirValue kilnGraphBuildEinsum(KilnGraphBuilder *builder, const char *equation,
                               MlirValue a, MlirValue b);

/// Builds graph.det (ONNX Det): the determinants of the square matrices in
/// the last two dims of `x`; the result has x's leading (batch) dims.
/// Returns the borrowed result, or a null value after emitting an error.
MlirValue kilnGraphBuildDet(KilnGraphBuilder *builder, MlirValue x);

#ifdef __cplusplus
}
#endif

#endif

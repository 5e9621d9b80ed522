/* Typed builders for graph ops of the reduction family (see graph_builder.h):
 * matmul, gemm, softmax, log_softmax, reduce_{sum,mean,max,min,prod,l2},
 * argmax and argmin.
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

/// Reduction builders (ONNX ReduceSum, ReduceMean, ReduceMax, ReduceMin,
/// ReduceProd, ReduceL2). `axes` is an optional 1-D i64 tensor (null:
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

#ifdef __cplusplus
}
#endif

#endif

/* Kiln's one compile-time evaluator of graph ops over constant host
 * tensors: graph-fold-constants folds with it, and const_eval.h evaluates
 * shape computations with it while types are inferred.
 *
 * It covers elementwise arithmetic with numpy broadcasting (mod too),
 * comparisons, logical ops, casts, a few math functions, range, integer
 * sums and products of whole tensors, and the data-movement ops
 * (reshape-likes, transpose, concat, gather, slice, expand, tile,
 * scatter_nd without reduction, constant_of_shape). Each
 * float result is computed the way the graph-to-linalg lowering computes
 * it: f32 (and f16/bf16, extended to f32) in single precision, f64 in
 * double, rounded to the element type; integers wrap to their width.
 * Cases whose value the lowering leaves undefined (integer division by
 * or remainder by zero, out-of-range float-to-integer casts, out-of-range
 * gather and scatter indices) are not evaluated. */
#ifndef KILN_DIALECTS_GRAPH_FOLD_EVAL_H
#define KILN_DIALECTS_GRAPH_FOLD_EVAL_H

#include "dialects/graph/fold_tensor.h"

/// Whether kilnFoldEvaluate knows graph op `op` (by name).
bool kilnFoldCanEvaluate(MlirOperation op);

/// The operands of `op` by ONNX position (absent optional ones as null
/// values, laid out by operandSegmentSizes) into `out` (capacity `cap`).
/// Returns the positional count, or -1 when it exceeds `cap` or the
/// segments are inconsistent.
intptr_t kilnFoldPositionalOperands(MlirOperation op, MlirValue *out,
                                    intptr_t cap);

/// Evaluates `op`'s result 0 into `out` (created from that result's static
/// type). `inputs[k]` holds the constant operand at ONNX position k; an
/// absent optional operand is an empty tensor (data == NULL). Returns false
/// when this op or case is not evaluated; `out`'s contents are then
/// unspecified but it stays owned by the caller.
bool kilnFoldEvaluate(MlirOperation op, const KilnFoldTensor *inputs,
                      intptr_t numInputs, KilnFoldTensor *out);

#endif

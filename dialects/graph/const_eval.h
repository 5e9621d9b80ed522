/* Compile-time evaluation of small integer tensors (shape computations).
 *
 * ONNX models often compute shapes at run time from graph.shape, e.g.
 * Reshape(x, Concat(Slice(Shape(y)), ...)). When the input shapes are
 * static, such chains are compile-time constants; this evaluator folds them
 * on the fly so type inference can see the values. Nothing is rewritten.
 *
 * The value asked for must be an integer or bool tensor; the ops computing
 * it may be any the graph-op evaluator knows (fold_eval.h: floats too, as
 * in a size scaled by a float factor), plus graph.shape and graph.size,
 * which need only their operand's static dims. Every value on the way
 * needs a static type. Work is bounded: a chain deeper than
 * KILN_GRAPH_EVAL_MAX_DEPTH ops, or an intermediate tensor above
 * KILN_GRAPH_EVAL_MAX_ELEMENTS elements, is simply not a compile-time value.
 * Integer arithmetic is signed and wraps to the element type's width, as
 * ONNX's two's-complement integer types do. */
#ifndef KILN_DIALECTS_GRAPH_CONST_EVAL_H
#define KILN_DIALECTS_GRAPH_CONST_EVAL_H

#include <stdint.h>

#include "mlir-c/IR.h"

#define KILN_GRAPH_EVAL_MAX_DEPTH 64
#define KILN_GRAPH_EVAL_MAX_ELEMENTS 1024

/// Evaluates the integer (or i1) tensor `v` at compile time. Copies up to
/// `cap` elements, row-major and sign-extended to int64 (i1 as 0 or 1), into
/// `out` (which may be NULL when `cap` is 0) and returns the element count.
/// Returns -1 when `v` is null or not a compile-time value. A graph.constant
/// is read whatever its size; computed values are bounded as above. Emits no
/// diagnostics.
intptr_t kilnGraphEvalConstantInts(MlirValue v, int64_t *out, intptr_t cap);

/// An entry of kilnGraphEvalPartialInts that is not known at compile time.
#define KILN_GRAPH_EVAL_UNKNOWN INT64_MIN

/// Evaluates the 1-D integer tensor `v` of static length entry by entry: a
/// shape computed from dims only some of which are static (Concat of
/// Gather(Shape(x), 0), a dynamic dim, and constants 12, 64) is known where
/// its pieces are. Entries not known at compile time are
/// KILN_GRAPH_EVAL_UNKNOWN. Follows graph.constant, graph.shape,
/// graph.concat, graph.gather (constant indices), graph.unsqueeze,
/// graph.squeeze, graph.cast and graph.identity, and anything
/// kilnGraphEvalConstantInts folds; another op makes every entry unknown.
/// Returns the length (up to `cap` entries copied) or -1 when `v` is not a
/// 1-D or 0-D integer tensor of static length.
intptr_t kilnGraphEvalPartialInts(MlirValue v, int64_t *out, intptr_t cap);

#endif

/* Typed builders for graph ops of the elementwise family (see graph_builder.h).
 *
 * Each function builds one op at the builder's insertion point and location,
 * with its result type inferred by ONNX's rules (docs/graph-dialect.md,
 * "Elementwise ops"). Operands are borrowed; the new op is owned by the
 * builder's block. On a violated rule (element type, broadcasting, attribute
 * value) an error diagnostic is emitted at the builder's location, nothing
 * is inserted, and a null value is returned. A null operand where one is
 * required is reported the same way. */
#ifndef KILN_GRAPH_ELEMENTWISE_H
#define KILN_GRAPH_ELEMENTWISE_H

#include <stdint.h>

#include "kiln/graph_builder.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ONNX's defaults for the float attributes below. */
#define KILN_GRAPH_LEAKY_RELU_DEFAULT_ALPHA 0.01f
#define KILN_GRAPH_ELU_DEFAULT_ALPHA 1.0f
#define KILN_GRAPH_HARD_SIGMOID_DEFAULT_ALPHA 0.2f
#define KILN_GRAPH_HARD_SIGMOID_DEFAULT_BETA 0.5f

/* Binary ops: `a` and `b` share an element type and are broadcast
 * numpy-style. */

/// Builds graph.add (ONNX Add): a + b. Null value on error.
MlirValue kilnGraphBuildAdd(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b);
/// Builds graph.sub (ONNX Sub): a - b. Null value on error.
MlirValue kilnGraphBuildSub(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b);
/// Builds graph.mul (ONNX Mul): a * b. Null value on error.
MlirValue kilnGraphBuildMul(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b);
/// Builds graph.div (ONNX Div): a / b. Null value on error.
MlirValue kilnGraphBuildDiv(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b);
/// Builds graph.pow (ONNX Pow): x ^ y, broadcast; `y` may have another
/// numeric element type, the result has x's. Null value on error.
MlirValue kilnGraphBuildPow(KilnGraphBuilder *builder, MlirValue x,
                            MlirValue y);
/// Builds graph.equal (ONNX Equal): a == b as i1. Null value on error.
MlirValue kilnGraphBuildEqual(KilnGraphBuilder *builder, MlirValue a,
                              MlirValue b);
/// Builds graph.less (ONNX Less): a < b as i1. Null value on error.
MlirValue kilnGraphBuildLess(KilnGraphBuilder *builder, MlirValue a,
                             MlirValue b);
/// Builds graph.greater (ONNX Greater): a > b as i1. Null value on error.
MlirValue kilnGraphBuildGreater(KilnGraphBuilder *builder, MlirValue a,
                                MlirValue b);
/// Builds graph.and (ONNX And) of two i1 tensors. Null value on error.
MlirValue kilnGraphBuildAnd(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b);
/// Builds graph.or (ONNX Or) of two i1 tensors. Null value on error.
MlirValue kilnGraphBuildOr(KilnGraphBuilder *builder, MlirValue a, MlirValue b);
/// Builds graph.min (ONNX Min of two inputs): elementwise minimum of numeric
/// `a` and `b`. ONNX's N-ary Min is a chain of these (min is associative).
/// Null value on error.
MlirValue kilnGraphBuildMin(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b);
/// Builds graph.max (ONNX Max of two inputs): elementwise maximum of numeric
/// `a` and `b`; chain for more inputs, as for min. Null value on error.
MlirValue kilnGraphBuildMax(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b);

/* Unary ops: the result has the operand's type. */

/// Builds graph.neg (ONNX Neg): -x (signed ints, floats). Null on error.
MlirValue kilnGraphBuildNeg(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.abs (ONNX Abs): |x| (any numeric). Null on error.
MlirValue kilnGraphBuildAbs(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.sqrt (ONNX Sqrt) of a float tensor. Null on error.
MlirValue kilnGraphBuildSqrt(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.reciprocal (ONNX Reciprocal): 1 / x (floats). Null on error.
MlirValue kilnGraphBuildReciprocal(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.exp (ONNX Exp) of a float tensor. Null on error.
MlirValue kilnGraphBuildExp(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.log (ONNX Log) of a float tensor. Null on error.
MlirValue kilnGraphBuildLog(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.tanh (ONNX Tanh) of a float tensor. Null on error.
MlirValue kilnGraphBuildTanh(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.sigmoid (ONNX Sigmoid) of a float tensor. Null on error.
MlirValue kilnGraphBuildSigmoid(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.relu (ONNX Relu) (signed ints, floats). Null on error.
MlirValue kilnGraphBuildRelu(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.leaky_relu (ONNX LeakyRelu) with attribute `alpha` (ONNX
/// default KILN_GRAPH_LEAKY_RELU_DEFAULT_ALPHA). Null on error.
MlirValue kilnGraphBuildLeakyRelu(KilnGraphBuilder *builder, MlirValue x,
                                  float alpha);
/// Builds graph.elu (ONNX Elu) with attribute `alpha` (ONNX default
/// KILN_GRAPH_ELU_DEFAULT_ALPHA). Null on error.
MlirValue kilnGraphBuildElu(KilnGraphBuilder *builder, MlirValue x,
                            float alpha);
/// Builds graph.hard_sigmoid (ONNX HardSigmoid) with attributes `alpha` and
/// `beta` (ONNX defaults KILN_GRAPH_HARD_SIGMOID_DEFAULT_*). Null on error.
MlirValue kilnGraphBuildHardSigmoid(KilnGraphBuilder *builder, MlirValue x,
                                    float alpha, float beta);
/// Builds graph.erf (ONNX Erf) (any numeric). Null on error.
MlirValue kilnGraphBuildErf(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.floor (ONNX Floor) of a float tensor. Null on error.
MlirValue kilnGraphBuildFloor(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.ceil (ONNX Ceil) of a float tensor. Null on error.
MlirValue kilnGraphBuildCeil(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.round (ONNX Round, half to even) of a float tensor. Null on
/// error.
MlirValue kilnGraphBuildRound(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.not (ONNX Not) of an i1 tensor. Null on error.
MlirValue kilnGraphBuildNot(KilnGraphBuilder *builder, MlirValue x);

/* Other shapes of operands. */

/// Builds graph.clip (ONNX Clip). `min` and `max` are optional scalars of
/// the input's element type: pass a null value for an absent bound. Null
/// value on error.
MlirValue kilnGraphBuildClip(KilnGraphBuilder *builder, MlirValue input,
                             MlirValue min, MlirValue max);
/// Builds graph.where (ONNX Where): condition (i1) ? x : y, all three
/// broadcast. Null value on error.
MlirValue kilnGraphBuildWhere(KilnGraphBuilder *builder, MlirValue condition,
                              MlirValue x, MlirValue y);

/// Cast's optional attributes; both only matter when casting to float8.
typedef struct KilnGraphCastOptions {
  int64_t saturate;      /* 0 or 1 (ONNX default 1) */
  const char *roundMode; /* "up", "down", "nearest"; NULL: absent ("up") */
} KilnGraphCastOptions;

/// Builds graph.cast (ONNX Cast) converting `input` to element type `to`
/// (borrowed). `options` may be NULL: the optional attributes are then left
/// out (ONNX defaults apply). Null value on error.
MlirValue kilnGraphBuildCast(KilnGraphBuilder *builder, MlirValue input,
                             MlirType to, const KilnGraphCastOptions *options);

#ifdef __cplusplus
}
#endif

#endif

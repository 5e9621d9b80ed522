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
#define KILN_GRAPH_SELU_DEFAULT_ALPHA 1.67326319217681884765625f
#define KILN_GRAPH_SELU_DEFAULT_GAMMA 1.05070102214813232421875f
#define KILN_GRAPH_THRESHOLDED_RELU_DEFAULT_ALPHA 1.0f
#define KILN_GRAPH_SHRINK_DEFAULT_BIAS 0.0f
#define KILN_GRAPH_SHRINK_DEFAULT_LAMBD 0.5f
#define KILN_GRAPH_CELU_DEFAULT_ALPHA 1.0f

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

/// Builds graph.mod (ONNX Mod): a mod b, numeric. `fmod` 0 (the ONNX
/// default) takes the sign of the divisor and is for integers only; 1 takes
/// the sign of the dividend (C's fmod) and is required for floats. Null
/// value on error.
MlirValue kilnGraphBuildMod(KilnGraphBuilder *builder, MlirValue a, MlirValue b,
                            int64_t fmod);
/// Builds graph.xor (ONNX Xor) of two i1 tensors. Null value on error.
MlirValue kilnGraphBuildXor(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b);
/// Builds graph.bit_shift (ONNX BitShift) of unsigned tensors: x shifted by
/// y bits; `direction` (borrowed) is "LEFT" or "RIGHT". Null value on
/// error.
MlirValue kilnGraphBuildBitShift(KilnGraphBuilder *builder, MlirValue x,
                                 MlirValue y, const char *direction);
/// Builds graph.bitwise_and (ONNX BitwiseAnd) of integer tensors. Null value
/// on error.
MlirValue kilnGraphBuildBitwiseAnd(KilnGraphBuilder *builder, MlirValue a,
                                   MlirValue b);
/// Builds graph.bitwise_or (ONNX BitwiseOr) of integer tensors. Null value
/// on error.
MlirValue kilnGraphBuildBitwiseOr(KilnGraphBuilder *builder, MlirValue a,
                                  MlirValue b);
/// Builds graph.bitwise_xor (ONNX BitwiseXor) of integer tensors. Null value
/// on error.
MlirValue kilnGraphBuildBitwiseXor(KilnGraphBuilder *builder, MlirValue a,
                                   MlirValue b);
/// Builds graph.less_or_equal (ONNX LessOrEqual): a <= b as i1. Null value
/// on error.
MlirValue kilnGraphBuildLessOrEqual(KilnGraphBuilder *builder, MlirValue a,
                                    MlirValue b);
/// Builds graph.greater_or_equal (ONNX GreaterOrEqual): a >= b as i1. Null
/// value on error.
MlirValue kilnGraphBuildGreaterOrEqual(KilnGraphBuilder *builder, MlirValue a,
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
/// Builds graph.bitwise_not (ONNX BitwiseNot) of an integer tensor. Null on
/// error.
MlirValue kilnGraphBuildBitwiseNot(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.sign (ONNX Sign): -1, 0 or 1 (any numeric). Null on error.
MlirValue kilnGraphBuildSign(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.sin (ONNX Sin) of a float tensor. Null on error.
MlirValue kilnGraphBuildSin(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.cos (ONNX Cos) of a float tensor. Null on error.
MlirValue kilnGraphBuildCos(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.tan (ONNX Tan) of a float tensor. Null on error.
MlirValue kilnGraphBuildTan(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.asin (ONNX Asin) of a float tensor. Null on error.
MlirValue kilnGraphBuildAsin(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.acos (ONNX Acos) of a float tensor. Null on error.
MlirValue kilnGraphBuildAcos(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.atan (ONNX Atan) of a float tensor. Null on error.
MlirValue kilnGraphBuildAtan(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.sinh (ONNX Sinh) of a float tensor. Null on error.
MlirValue kilnGraphBuildSinh(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.cosh (ONNX Cosh) of a float tensor. Null on error.
MlirValue kilnGraphBuildCosh(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.asinh (ONNX Asinh) of a float tensor. Null on error.
MlirValue kilnGraphBuildAsinh(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.acosh (ONNX Acosh) of a float tensor. Null on error.
MlirValue kilnGraphBuildAcosh(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.atanh (ONNX Atanh) of a float tensor. Null on error.
MlirValue kilnGraphBuildAtanh(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.selu (ONNX Selu) of a float tensor with attributes `alpha`
/// and `gamma` (ONNX defaults KILN_GRAPH_SELU_DEFAULT_*). Null on error.
MlirValue kilnGraphBuildSelu(KilnGraphBuilder *builder, MlirValue x,
                             float alpha, float gamma);
/// Builds graph.softplus (ONNX Softplus) of a float tensor. Null on error.
MlirValue kilnGraphBuildSoftplus(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.softsign (ONNX Softsign) of a float tensor. Null on error.
MlirValue kilnGraphBuildSoftsign(KilnGraphBuilder *builder, MlirValue input);
/// Builds graph.thresholded_relu (ONNX ThresholdedRelu) of a float tensor
/// with attribute `alpha` (ONNX default
/// KILN_GRAPH_THRESHOLDED_RELU_DEFAULT_ALPHA). Null on error.
MlirValue kilnGraphBuildThresholdedRelu(KilnGraphBuilder *builder, MlirValue x,
                                        float alpha);
/// Builds graph.shrink (ONNX Shrink) with attributes `bias` and `lambd`
/// (ONNX defaults KILN_GRAPH_SHRINK_DEFAULT_*); numeric types but bf16. Null
/// on error.
MlirValue kilnGraphBuildShrink(KilnGraphBuilder *builder, MlirValue input,
                               float bias, float lambd);
/// Builds graph.celu (ONNX Celu) of an f32 tensor with attribute `alpha`
/// (ONNX default KILN_GRAPH_CELU_DEFAULT_ALPHA). Null on error.
MlirValue kilnGraphBuildCelu(KilnGraphBuilder *builder, MlirValue x,
                             float alpha);
/// Builds graph.hard_swish (ONNX HardSwish) of a float tensor. Null on
/// error.
MlirValue kilnGraphBuildHardSwish(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.mish (ONNX Mish) of a float tensor. Null on error.
MlirValue kilnGraphBuildMish(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.gelu (ONNX Gelu) of a float tensor. `approximate`
/// (borrowed) is "none" or "tanh", or NULL to leave the attribute out (ONNX
/// default "none"). Null on error.
MlirValue kilnGraphBuildGelu(KilnGraphBuilder *builder, MlirValue x,
                             const char *approximate);

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

/// Builds graph.prelu (ONNX PRelu): x < 0 ? slope * x : x. `slope` has x's
/// element type (i32, i64, ui32, ui64 or float) and must broadcast to x's
/// shape; the result has x's type. Null value on error.
MlirValue kilnGraphBuildPRelu(KilnGraphBuilder *builder, MlirValue x,
                              MlirValue slope);
/// Builds graph.is_nan (ONNX IsNaN): an i1 tensor of x's shape (x: float or
/// float8). Null value on error.
MlirValue kilnGraphBuildIsNaN(KilnGraphBuilder *builder, MlirValue x);
/// Builds graph.is_inf (ONNX IsInf): an i1 tensor of x's shape (x: float or
/// float8). `detectNegative` and `detectPositive` are 0 or 1 (ONNX defaults
/// 1). Null value on error.
MlirValue kilnGraphBuildIsInf(KilnGraphBuilder *builder, MlirValue x,
                              int64_t detectNegative, int64_t detectPositive);

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
/// Builds graph.cast_like (ONNX CastLike) converting `input` to the element
/// type of `targetType`, whose values are not read. `options` as for
/// kilnGraphBuildCast. Null value on error.
MlirValue kilnGraphBuildCastLike(KilnGraphBuilder *builder, MlirValue input,
                                 MlirValue targetType,
                                 const KilnGraphCastOptions *options);

/// Builds graph.dropout (ONNX Dropout) for inference: the result is `data`'s
/// type (float or float8). `ratio` (a rank-0 float) and `trainingMode` (a
/// rank-0 i1, which must be a constant false) may be null values for absent
/// inputs. `seed` points to the seed attribute, or is NULL to leave it out.
/// If `mask` is non-NULL the op gets its optional i1 mask result, stored
/// there (a null value on error). Null value on error.
MlirValue kilnGraphBuildDropout(KilnGraphBuilder *builder, MlirValue data,
                                MlirValue ratio, MlirValue trainingMode,
                                const int64_t *seed, MlirValue *mask);

#ifdef __cplusplus
}
#endif

#endif

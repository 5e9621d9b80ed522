/* Typed builders for the graph ops of the elementwise family: thin wrappers
 * over kilnGraphBuilderCreateValue, which checks operands and attributes and
 * infers the result type (ops_elementwise.c). */
#include "kiln/graph_elementwise.h"

#include "kiln/diagnostics.h"

static MlirValue build1(KilnGraphBuilder *b, const char *op, MlirValue x) {
  return kilnGraphBuilderCreateValue(b, op, &x, 1, NULL, 0);
}

static MlirValue build2(KilnGraphBuilder *b, const char *op, MlirValue x,
                        MlirValue y) {
  MlirValue operands[] = {x, y};
  return kilnGraphBuilderCreateValue(b, op, operands, 2, NULL, 0);
}

/* Cast's and CastLike's optional attributes into `attrs` (2 slots). */
static intptr_t castOptionAttrs(KilnGraphBuilder *builder,
                                const KilnGraphCastOptions *options,
                                MlirNamedAttribute *attrs) {
  intptr_t n = 0;
  if (options) {
    attrs[n++] = kilnGraphAttrInt(builder, "saturate", options->saturate);
    if (options->roundMode)
      attrs[n++] =
          kilnGraphAttrString(builder, "round_mode", options->roundMode);
  }
  return n;
}

MlirValue kilnGraphBuildAdd(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b) {
  return build2(builder, "add", a, b);
}

MlirValue kilnGraphBuildSub(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b) {
  return build2(builder, "sub", a, b);
}

MlirValue kilnGraphBuildMul(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b) {
  return build2(builder, "mul", a, b);
}

MlirValue kilnGraphBuildDiv(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b) {
  return build2(builder, "div", a, b);
}

MlirValue kilnGraphBuildPow(KilnGraphBuilder *builder, MlirValue x,
                            MlirValue y) {
  return build2(builder, "pow", x, y);
}

MlirValue kilnGraphBuildEqual(KilnGraphBuilder *builder, MlirValue a,
                              MlirValue b) {
  return build2(builder, "equal", a, b);
}

MlirValue kilnGraphBuildLess(KilnGraphBuilder *builder, MlirValue a,
                             MlirValue b) {
  return build2(builder, "less", a, b);
}

MlirValue kilnGraphBuildGreater(KilnGraphBuilder *builder, MlirValue a,
                                MlirValue b) {
  return build2(builder, "greater", a, b);
}

MlirValue kilnGraphBuildAnd(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b) {
  return build2(builder, "and", a, b);
}

MlirValue kilnGraphBuildOr(KilnGraphBuilder *builder, MlirValue a,
                           MlirValue b) {
  return build2(builder, "or", a, b);
}

MlirValue kilnGraphBuildMin(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b) {
  return build2(builder, "min", a, b);
}

MlirValue kilnGraphBuildMax(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b) {
  return build2(builder, "max", a, b);
}

MlirValue kilnGraphBuildMod(KilnGraphBuilder *builder, MlirValue a, MlirValue b,
                            int64_t fmod) {
  MlirValue operands[] = {a, b};
  MlirNamedAttribute attr = kilnGraphAttrInt(builder, "fmod", fmod);
  return kilnGraphBuilderCreateValue(builder, "mod", operands, 2, &attr, 1);
}

MlirValue kilnGraphBuildXor(KilnGraphBuilder *builder, MlirValue a,
                            MlirValue b) {
  return build2(builder, "xor", a, b);
}

MlirValue kilnGraphBuildBitShift(KilnGraphBuilder *builder, MlirValue x,
                                 MlirValue y, const char *direction) {
  /* A NULL string would crash the attribute getter. */
  if (!direction) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(builder),
                   "'graph.bit_shift' op requires attribute 'direction'");
    return (MlirValue){NULL};
  }
  MlirValue operands[] = {x, y};
  MlirNamedAttribute attr =
      kilnGraphAttrString(builder, "direction", direction);
  return kilnGraphBuilderCreateValue(builder, "bit_shift", operands, 2, &attr,
                                     1);
}

MlirValue kilnGraphBuildBitwiseAnd(KilnGraphBuilder *builder, MlirValue a,
                                   MlirValue b) {
  return build2(builder, "bitwise_and", a, b);
}

MlirValue kilnGraphBuildBitwiseOr(KilnGraphBuilder *builder, MlirValue a,
                                  MlirValue b) {
  return build2(builder, "bitwise_or", a, b);
}

MlirValue kilnGraphBuildBitwiseXor(KilnGraphBuilder *builder, MlirValue a,
                                   MlirValue b) {
  return build2(builder, "bitwise_xor", a, b);
}

MlirValue kilnGraphBuildLessOrEqual(KilnGraphBuilder *builder, MlirValue a,
                                    MlirValue b) {
  return build2(builder, "less_or_equal", a, b);
}

MlirValue kilnGraphBuildGreaterOrEqual(KilnGraphBuilder *builder, MlirValue a,
                                       MlirValue b) {
  return build2(builder, "greater_or_equal", a, b);
}

MlirValue kilnGraphBuildNeg(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "neg", x);
}

MlirValue kilnGraphBuildAbs(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "abs", x);
}

MlirValue kilnGraphBuildSqrt(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "sqrt", x);
}

MlirValue kilnGraphBuildReciprocal(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "reciprocal", x);
}

MlirValue kilnGraphBuildExp(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "exp", input);
}

MlirValue kilnGraphBuildLog(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "log", input);
}

MlirValue kilnGraphBuildTanh(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "tanh", input);
}

MlirValue kilnGraphBuildSigmoid(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "sigmoid", x);
}

MlirValue kilnGraphBuildRelu(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "relu", x);
}

MlirValue kilnGraphBuildLeakyRelu(KilnGraphBuilder *builder, MlirValue x,
                                  float alpha) {
  MlirNamedAttribute attr = kilnGraphAttrFloat(builder, "alpha", alpha);
  return kilnGraphBuilderCreateValue(builder, "leaky_relu", &x, 1, &attr, 1);
}

MlirValue kilnGraphBuildElu(KilnGraphBuilder *builder, MlirValue x,
                            float alpha) {
  MlirNamedAttribute attr = kilnGraphAttrFloat(builder, "alpha", alpha);
  return kilnGraphBuilderCreateValue(builder, "elu", &x, 1, &attr, 1);
}

MlirValue kilnGraphBuildHardSigmoid(KilnGraphBuilder *builder, MlirValue x,
                                    float alpha, float beta) {
  MlirNamedAttribute attrs[] = {kilnGraphAttrFloat(builder, "alpha", alpha),
                                kilnGraphAttrFloat(builder, "beta", beta)};
  return kilnGraphBuilderCreateValue(builder, "hard_sigmoid", &x, 1, attrs, 2);
}

MlirValue kilnGraphBuildErf(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "erf", input);
}

MlirValue kilnGraphBuildFloor(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "floor", x);
}

MlirValue kilnGraphBuildCeil(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "ceil", x);
}

MlirValue kilnGraphBuildRound(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "round", x);
}

MlirValue kilnGraphBuildNot(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "not", x);
}

MlirValue kilnGraphBuildClip(KilnGraphBuilder *builder, MlirValue input,
                             MlirValue min, MlirValue max) {
  MlirValue operands[] = {input, min, max};
  return kilnGraphBuilderCreateValue(builder, "clip", operands, 3, NULL, 0);
}

MlirValue kilnGraphBuildWhere(KilnGraphBuilder *builder, MlirValue condition,
                              MlirValue x, MlirValue y) {
  MlirValue operands[] = {condition, x, y};
  return kilnGraphBuilderCreateValue(builder, "where", operands, 3, NULL, 0);
}

MlirValue kilnGraphBuildCast(KilnGraphBuilder *builder, MlirValue input,
                             MlirType to, const KilnGraphCastOptions *options) {
  /* A null type would crash mlirTypeAttrGet. */
  if (mlirTypeIsNull(to)) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(builder),
                   "'graph.cast' op requires a target type 'to'");
    return (MlirValue){NULL};
  }
  MlirNamedAttribute attrs[3];
  attrs[0] = kilnGraphAttrType(builder, "to", to);
  intptr_t n = 1 + castOptionAttrs(builder, options, attrs + 1);
  return kilnGraphBuilderCreateValue(builder, "cast", &input, 1, attrs, n);
}

MlirValue kilnGraphBuildBitwiseNot(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "bitwise_not", x);
}

MlirValue kilnGraphBuildSign(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "sign", input);
}

MlirValue kilnGraphBuildSin(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "sin", input);
}

MlirValue kilnGraphBuildCos(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "cos", input);
}

MlirValue kilnGraphBuildTan(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "tan", input);
}

MlirValue kilnGraphBuildAsin(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "asin", input);
}

MlirValue kilnGraphBuildAcos(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "acos", input);
}

MlirValue kilnGraphBuildAtan(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "atan", input);
}

MlirValue kilnGraphBuildSinh(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "sinh", input);
}

MlirValue kilnGraphBuildCosh(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "cosh", input);
}

MlirValue kilnGraphBuildAsinh(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "asinh", input);
}

MlirValue kilnGraphBuildAcosh(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "acosh", input);
}

MlirValue kilnGraphBuildAtanh(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "atanh", input);
}

MlirValue kilnGraphBuildSelu(KilnGraphBuilder *builder, MlirValue x,
                             float alpha, float gamma) {
  MlirNamedAttribute attrs[] = {kilnGraphAttrFloat(builder, "alpha", alpha),
                                kilnGraphAttrFloat(builder, "gamma", gamma)};
  return kilnGraphBuilderCreateValue(builder, "selu", &x, 1, attrs, 2);
}

MlirValue kilnGraphBuildSoftplus(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "softplus", x);
}

MlirValue kilnGraphBuildSoftsign(KilnGraphBuilder *builder, MlirValue input) {
  return build1(builder, "softsign", input);
}

MlirValue kilnGraphBuildThresholdedRelu(KilnGraphBuilder *builder, MlirValue x,
                                        float alpha) {
  MlirNamedAttribute attr = kilnGraphAttrFloat(builder, "alpha", alpha);
  return kilnGraphBuilderCreateValue(builder, "thresholded_relu", &x, 1, &attr,
                                     1);
}

MlirValue kilnGraphBuildShrink(KilnGraphBuilder *builder, MlirValue input,
                               float bias, float lambd) {
  MlirNamedAttribute attrs[] = {kilnGraphAttrFloat(builder, "bias", bias),
                                kilnGraphAttrFloat(builder, "lambd", lambd)};
  return kilnGraphBuilderCreateValue(builder, "shrink", &input, 1, attrs, 2);
}

MlirValue kilnGraphBuildCelu(KilnGraphBuilder *builder, MlirValue x,
                             float alpha) {
  MlirNamedAttribute attr = kilnGraphAttrFloat(builder, "alpha", alpha);
  return kilnGraphBuilderCreateValue(builder, "celu", &x, 1, &attr, 1);
}

MlirValue kilnGraphBuildHardSwish(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "hard_swish", x);
}

MlirValue kilnGraphBuildMish(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "mish", x);
}

MlirValue kilnGraphBuildGelu(KilnGraphBuilder *builder, MlirValue x,
                             const char *approximate) {
  if (!approximate)
    return build1(builder, "gelu", x);
  MlirNamedAttribute attr =
      kilnGraphAttrString(builder, "approximate", approximate);
  return kilnGraphBuilderCreateValue(builder, "gelu", &x, 1, &attr, 1);
}

MlirValue kilnGraphBuildPRelu(KilnGraphBuilder *builder, MlirValue x,
                              MlirValue slope) {
  return build2(builder, "prelu", x, slope);
}

MlirValue kilnGraphBuildIsNaN(KilnGraphBuilder *builder, MlirValue x) {
  return build1(builder, "is_nan", x);
}

MlirValue kilnGraphBuildIsInf(KilnGraphBuilder *builder, MlirValue x,
                              int64_t detectNegative, int64_t detectPositive) {
  MlirNamedAttribute attrs[] = {
      kilnGraphAttrInt(builder, "detect_negative", detectNegative),
      kilnGraphAttrInt(builder, "detect_positive", detectPositive)};
  return kilnGraphBuilderCreateValue(builder, "is_inf", &x, 1, attrs, 2);
}

MlirValue kilnGraphBuildCastLike(KilnGraphBuilder *builder, MlirValue input,
                                 MlirValue targetType,
                                 const KilnGraphCastOptions *options) {
  MlirValue operands[] = {input, targetType};
  MlirNamedAttribute attrs[2];
  intptr_t n = castOptionAttrs(builder, options, attrs);
  return kilnGraphBuilderCreateValue(builder, "cast_like", operands, 2, attrs,
                                     n);
}

MlirValue kilnGraphBuildDropout(KilnGraphBuilder *builder, MlirValue data,
                                MlirValue ratio, MlirValue trainingMode,
                                const int64_t *seed, MlirValue *mask) {
  MlirValue operands[] = {data, ratio, trainingMode};
  MlirNamedAttribute attr = {0};
  if (seed)
    attr = kilnGraphAttrInt(builder, "seed", *seed);
  MlirOperation op =
      kilnGraphBuilderCreateOp(builder, "dropout", operands, 3,
                               seed ? &attr : NULL, seed ? 1 : 0, mask ? 2 : 1);
  if (mlirOperationIsNull(op)) {
    if (mask)
      *mask = (MlirValue){NULL};
    return (MlirValue){NULL};
  }
  if (mask)
    *mask = mlirOperationGetResult(op, 1);
  return mlirOperationGetResult(op, 0);
}

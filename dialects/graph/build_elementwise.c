/* Typed builders for the graph ops of the elementwise family: thin wrappers
 * over kilnGraphBuilderCreateValue, which checks operands and attributes and
 * infers the result type (ops_elementwise.c). */
#include "kiln/graph_elementwise.h"

#include "dialects/common/diag.h"

static MlirValue build1(KilnGraphBuilder *b, const char *op, MlirValue x) {
  return kilnGraphBuilderCreateValue(b, op, &x, 1, NULL, 0);
}

static MlirValue build2(KilnGraphBuilder *b, const char *op, MlirValue x,
                        MlirValue y) {
  MlirValue operands[] = {x, y};
  return kilnGraphBuilderCreateValue(b, op, operands, 2, NULL, 0);
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
  intptr_t n = 0;
  attrs[n++] = kilnGraphAttrType(builder, "to", to);
  if (options) {
    attrs[n++] = kilnGraphAttrInt(builder, "saturate", options->saturate);
    if (options->roundMode)
      attrs[n++] =
          kilnGraphAttrString(builder, "round_mode", options->roundMode);
  }
  return kilnGraphBuilderCreateValue(builder, "cast", &input, 1, attrs, n);
}

/* Unit tests for the elementwise family's typed builders (checked by FileCheck
 * through builders-elementwise.test).
 *
 * Each test parses a function whose arguments are the operands, builds ops
 * into it with the typed builders, prints each result type ("null" for a
 * failed build), verifies the module and prints it (builder_test_support.h).
 * A diagnostic handler prints every diagnostic with its location, so error
 * cases show their message; the op count shows that a failed build inserts
 * nothing. */
#include "builder_test_support.h"
#include "kiln/graph_elementwise.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

static void testBinary(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "binary",
                                    "%a: tensor<2x3xf32>, %b: tensor<3xf32>, "
                                    "%i: tensor<?x1xi64>, %j: tensor<1x4xi64>, "
                                    "%e: tensor<ui8>",
                                    NULL);
  kilnTestShow("add",
               kilnGraphBuildAdd(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1)));
  kilnTestShow("sub",
               kilnGraphBuildSub(f.b, kilnTestArg(&f, 1), kilnTestArg(&f, 0)));
  kilnTestShow("mul_dynamic",
               kilnGraphBuildMul(f.b, kilnTestArg(&f, 2), kilnTestArg(&f, 3)));
  kilnTestShow("div_dynamic",
               kilnGraphBuildDiv(f.b, kilnTestArg(&f, 3), kilnTestArg(&f, 2)));
  kilnTestShow("pow",
               kilnGraphBuildPow(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 4)));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testCompareLogical(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "compare_logical",
                                    "%a: tensor<2x3xf32>, %b: tensor<3xf32>, "
                                    "%p: tensor<?xi1>, %q: tensor<4x1xi1>",
                                    NULL);
  kilnTestShow("equal", kilnGraphBuildEqual(f.b, kilnTestArg(&f, 0),
                                            kilnTestArg(&f, 1)));
  kilnTestShow("less",
               kilnGraphBuildLess(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1)));
  kilnTestShow("greater", kilnGraphBuildGreater(f.b, kilnTestArg(&f, 1),
                                                kilnTestArg(&f, 0)));
  kilnTestShow("equal_bool", kilnGraphBuildEqual(f.b, kilnTestArg(&f, 2),
                                                 kilnTestArg(&f, 3)));
  kilnTestShow("and",
               kilnGraphBuildAnd(f.b, kilnTestArg(&f, 2), kilnTestArg(&f, 3)));
  kilnTestShow("or",
               kilnGraphBuildOr(f.b, kilnTestArg(&f, 3), kilnTestArg(&f, 2)));
  kilnTestShow("not", kilnGraphBuildNot(f.b, kilnTestArg(&f, 2)));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS);
}

static void testUnary(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "unary", "%x: tensor<2x?xf32>, %i: tensor<5xi32>", NULL);
  MlirValue x = kilnTestArg(&f, 0), i = kilnTestArg(&f, 1);
  kilnTestShow("neg", kilnGraphBuildNeg(f.b, i));
  kilnTestShow("abs", kilnGraphBuildAbs(f.b, i));
  kilnTestShow("sqrt", kilnGraphBuildSqrt(f.b, x));
  kilnTestShow("reciprocal", kilnGraphBuildReciprocal(f.b, x));
  kilnTestShow("exp", kilnGraphBuildExp(f.b, x));
  kilnTestShow("log", kilnGraphBuildLog(f.b, x));
  kilnTestShow("tanh", kilnGraphBuildTanh(f.b, x));
  kilnTestShow("sigmoid", kilnGraphBuildSigmoid(f.b, x));
  kilnTestShow("relu", kilnGraphBuildRelu(f.b, i));
  kilnTestShow("erf", kilnGraphBuildErf(f.b, i));
  kilnTestShow("floor", kilnGraphBuildFloor(f.b, x));
  kilnTestShow("ceil", kilnGraphBuildCeil(f.b, x));
  kilnTestShow("round", kilnGraphBuildRound(f.b, x));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS);
}

static void testActivations(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "activations", "%x: tensor<1x8xf16>", NULL);
  kilnTestShow("leaky_relu",
               kilnGraphBuildLeakyRelu(f.b, kilnTestArg(&f, 0),
                                       KILN_GRAPH_LEAKY_RELU_DEFAULT_ALPHA));
  kilnTestShow("elu", kilnGraphBuildElu(f.b, kilnTestArg(&f, 0), 0.5f));
  kilnTestShow("hard_sigmoid",
               kilnGraphBuildHardSigmoid(f.b, kilnTestArg(&f, 0),
                                         KILN_GRAPH_HARD_SIGMOID_DEFAULT_ALPHA,
                                         KILN_GRAPH_HARD_SIGMOID_DEFAULT_BETA));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testClip(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "clip", "%x: tensor<4x?xf32>, %lo: tensor<f32>, %hi: tensor<1xf32>",
      NULL);
  MlirValue none = {NULL};
  kilnTestShow("no_bounds",
               kilnGraphBuildClip(f.b, kilnTestArg(&f, 0), none, none));
  kilnTestShow("max_only", kilnGraphBuildClip(f.b, kilnTestArg(&f, 0), none,
                                              kilnTestArg(&f, 2)));
  kilnTestShow("both",
               kilnGraphBuildClip(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                  kilnTestArg(&f, 2)));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testMinMaxWhere(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "min_max_where",
                    "%a: tensor<?x4xf32>, %c: tensor<2x1xi1>, "
                    "%x: tensor<3xf32>, %y: tensor<f32>, %r: tensor<3x1xf32>",
                    NULL);
  MlirValue a = kilnTestArg(&f, 0);
  kilnTestShow("min_same", kilnGraphBuildMin(f.b, a, a));
  kilnTestShow("max_scalar", kilnGraphBuildMax(f.b, a, kilnTestArg(&f, 3)));
  kilnTestShow("min_broadcast",
               kilnGraphBuildMin(f.b, kilnTestArg(&f, 4), kilnTestArg(&f, 2)));
  kilnTestShow("where",
               kilnGraphBuildWhere(f.b, kilnTestArg(&f, 1), kilnTestArg(&f, 2),
                                   kilnTestArg(&f, 3)));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testCast(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "cast", "%x: tensor<2x?xf32>, %b: tensor<3xi1>", NULL);
  kilnTestShow("to_f16", kilnGraphBuildCast(f.b, kilnTestArg(&f, 0),
                                            mlirF16TypeGet(ctx), NULL));
  kilnTestShow("bool_to_i64",
               kilnGraphBuildCast(f.b, kilnTestArg(&f, 1),
                                  mlirIntegerTypeGet(ctx, 64), NULL));
  KilnGraphCastOptions opts = {0, "nearest"};
  kilnTestShow("to_f8",
               kilnGraphBuildCast(f.b, kilnTestArg(&f, 0),
                                  mlirFloat8E4M3FNTypeGet(ctx), &opts));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

/* Every rejected build prints one diagnostic at model.onnx:3:1, returns
 * null and inserts nothing (ops stays 1: the return). */
static void testErrors(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "negative_errors",
                    "%a: tensor<2x3xf32>, %b: tensor<4xf32>, "
                    "%h: tensor<3xf16>, %i: tensor<3xi32>, %m: tensor<3xf32>, "
                    "%u: tensor<3xui8>",
                    NULL);
  MlirValue a = kilnTestArg(&f, 0), b = kilnTestArg(&f, 1),
            h = kilnTestArg(&f, 2), i = kilnTestArg(&f, 3);
  MlirValue none = {NULL};
  kilnTestShow("broadcast", kilnGraphBuildAdd(f.b, a, b));
  kilnTestShow("element_types", kilnGraphBuildMul(f.b, h, a));
  kilnTestShow("sqrt_int", kilnGraphBuildSqrt(f.b, i));
  kilnTestShow("neg_unsigned", kilnGraphBuildNeg(f.b, kilnTestArg(&f, 5)));
  kilnTestShow("missing_operand", kilnGraphBuildSub(f.b, a, none));
  kilnTestShow("not_float", kilnGraphBuildNot(f.b, a));
  kilnTestShow("clip_bound",
               kilnGraphBuildClip(f.b, a, kilnTestArg(&f, 4), none));
  kilnTestShow("min_missing_operand", kilnGraphBuildMin(f.b, a, none));
  kilnTestShow("max_broadcast", kilnGraphBuildMax(f.b, a, b));
  kilnTestShow("max_element_types",
               kilnGraphBuildMax(f.b, i, kilnTestArg(&f, 4)));
  kilnTestShow("where_condition", kilnGraphBuildWhere(f.b, a, a, a));
  kilnTestShow("cast_null_type",
               kilnGraphBuildCast(f.b, a, (MlirType){NULL}, NULL));
  kilnTestShow("cast_index",
               kilnGraphBuildCast(f.b, a, mlirIndexTypeGet(ctx), NULL));
  KilnGraphCastOptions badSaturate = {2, NULL};
  kilnTestShow("cast_saturate",
               kilnGraphBuildCast(f.b, a, mlirF16TypeGet(ctx), &badSaturate));
  KilnGraphCastOptions badMode = {1, "zero"};
  kilnTestShow("cast_round_mode",
               kilnGraphBuildCast(f.b, a, mlirF16TypeGet(ctx), &badMode));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS);
}

static void testModBitwise(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "mod_bitwise",
                                    "%i: tensor<2x3xi32>, %j: tensor<3xi32>, "
                                    "%x: tensor<?x4xf16>, %u: tensor<4xui16>, "
                                    "%p: tensor<2x1xi1>, %q: tensor<3xi1>",
                                    NULL);
  MlirValue i = kilnTestArg(&f, 0), j = kilnTestArg(&f, 1),
            x = kilnTestArg(&f, 2), u = kilnTestArg(&f, 3);
  kilnTestShow("mod", kilnGraphBuildMod(f.b, i, j, 0));
  kilnTestShow("fmod", kilnGraphBuildMod(f.b, x, x, 1));
  kilnTestShow("xor",
               kilnGraphBuildXor(f.b, kilnTestArg(&f, 4), kilnTestArg(&f, 5)));
  kilnTestShow("bit_shift", kilnGraphBuildBitShift(f.b, u, u, "RIGHT"));
  kilnTestShow("bitwise_and", kilnGraphBuildBitwiseAnd(f.b, i, j));
  kilnTestShow("bitwise_or", kilnGraphBuildBitwiseOr(f.b, j, i));
  kilnTestShow("bitwise_xor", kilnGraphBuildBitwiseXor(f.b, u, u));
  kilnTestShow("bitwise_not", kilnGraphBuildBitwiseNot(f.b, u));
  kilnTestShow("less_or_equal", kilnGraphBuildLessOrEqual(f.b, i, j));
  kilnTestShow("greater_or_equal", kilnGraphBuildGreaterOrEqual(f.b, x, x));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testMathUnary(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "math_unary",
      "%x: tensor<2x?xf32>, %i: tensor<5xi8>, %e: tensor<3xf8E5M2>", NULL);
  MlirValue x = kilnTestArg(&f, 0);
  kilnTestShow("sign", kilnGraphBuildSign(f.b, kilnTestArg(&f, 1)));
  kilnTestShow("sin", kilnGraphBuildSin(f.b, x));
  kilnTestShow("cos", kilnGraphBuildCos(f.b, x));
  kilnTestShow("tan", kilnGraphBuildTan(f.b, x));
  kilnTestShow("asin", kilnGraphBuildAsin(f.b, x));
  kilnTestShow("acos", kilnGraphBuildAcos(f.b, x));
  kilnTestShow("atan", kilnGraphBuildAtan(f.b, x));
  kilnTestShow("sinh", kilnGraphBuildSinh(f.b, x));
  kilnTestShow("cosh", kilnGraphBuildCosh(f.b, x));
  kilnTestShow("asinh", kilnGraphBuildAsinh(f.b, x));
  kilnTestShow("acosh", kilnGraphBuildAcosh(f.b, x));
  kilnTestShow("atanh", kilnGraphBuildAtanh(f.b, x));
  kilnTestShow("is_nan", kilnGraphBuildIsNaN(f.b, kilnTestArg(&f, 2)));
  kilnTestShow("is_inf", kilnGraphBuildIsInf(f.b, x, 0, 1));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testActivationsMore(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "activations_more",
      "%x: tensor<1x8xf32>, %i: tensor<3xi64>, %s: tensor<8xf32>", NULL);
  MlirValue x = kilnTestArg(&f, 0);
  kilnTestShow("selu", kilnGraphBuildSelu(f.b, x, KILN_GRAPH_SELU_DEFAULT_ALPHA,
                                          KILN_GRAPH_SELU_DEFAULT_GAMMA));
  kilnTestShow("softplus", kilnGraphBuildSoftplus(f.b, x));
  kilnTestShow("softsign", kilnGraphBuildSoftsign(f.b, x));
  kilnTestShow("thresholded_relu",
               kilnGraphBuildThresholdedRelu(
                   f.b, x, KILN_GRAPH_THRESHOLDED_RELU_DEFAULT_ALPHA));
  kilnTestShow("shrink", kilnGraphBuildShrink(f.b, kilnTestArg(&f, 1), 1.0f,
                                              KILN_GRAPH_SHRINK_DEFAULT_LAMBD));
  kilnTestShow("celu",
               kilnGraphBuildCelu(f.b, x, KILN_GRAPH_CELU_DEFAULT_ALPHA));
  kilnTestShow("hard_swish", kilnGraphBuildHardSwish(f.b, x));
  kilnTestShow("mish", kilnGraphBuildMish(f.b, x));
  kilnTestShow("gelu", kilnGraphBuildGelu(f.b, x, NULL));
  kilnTestShow("gelu_tanh", kilnGraphBuildGelu(f.b, x, "tanh"));
  kilnTestShow("prelu", kilnGraphBuildPRelu(f.b, x, kilnTestArg(&f, 2)));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testCastLikeDropout(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "cast_like_dropout",
      "%x: tensor<2x?xf32>, %l: tensor<7xf16>, %r: tensor<f32>", NULL);
  MlirValue x = kilnTestArg(&f, 0), none = {NULL};
  kilnTestShow("cast_like",
               kilnGraphBuildCastLike(f.b, x, kilnTestArg(&f, 1), NULL));
  KilnGraphCastOptions opts = {0, "down"};
  kilnTestShow("cast_like_options",
               kilnGraphBuildCastLike(f.b, x, kilnTestArg(&f, 1), &opts));
  kilnTestShow("dropout",
               kilnGraphBuildDropout(f.b, x, none, none, NULL, NULL));
  MlirValue mask;
  int64_t seed = 7;
  kilnTestShow(
      "dropout_ratio",
      kilnGraphBuildDropout(f.b, x, kilnTestArg(&f, 2), none, &seed, &mask));
  kilnTestShow("dropout_mask", mask);
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

/* The added ops' rejected builds, as in testErrors. */
static void testErrorsMore(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "negative_errors_more",
      "%x: tensor<2x3xf32>, %s: tensor<2xf32>, %i: tensor<3xi32>, "
      "%t: tensor<i1>, %d: tensor<2x3xf64>",
      NULL);
  MlirValue x = kilnTestArg(&f, 0), i = kilnTestArg(&f, 2), none = {NULL};
  kilnTestShow("mod_float", kilnGraphBuildMod(f.b, x, x, 0));
  kilnTestShow("bit_shift_null", kilnGraphBuildBitShift(f.b, i, i, NULL));
  kilnTestShow("bit_shift_signed", kilnGraphBuildBitShift(f.b, i, i, "LEFT"));
  kilnTestShow("gelu_mode", kilnGraphBuildGelu(f.b, x, "fast"));
  kilnTestShow("celu_f64", kilnGraphBuildCelu(f.b, kilnTestArg(&f, 4), 1.0f));
  kilnTestShow("prelu_slope", kilnGraphBuildPRelu(f.b, x, kilnTestArg(&f, 1)));
  kilnTestShow("is_inf_flag", kilnGraphBuildIsInf(f.b, x, 2, 1));
  MlirValue mask;
  kilnTestShow(
      "dropout_training",
      kilnGraphBuildDropout(f.b, x, none, kilnTestArg(&f, 3), NULL, &mask));
  kilnTestShow("dropout_training_mask", mask);
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS);
}

int main(void) {
  MlirContext ctx = kilnTestContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  testBinary(ctx);
  testCompareLogical(ctx);
  testUnary(ctx);
  testActivations(ctx);
  testClip(ctx);
  testMinMaxWhere(ctx);
  testCast(ctx);
  testErrors(ctx);
  testModBitwise(ctx);
  testMathUnary(ctx);
  testActivationsMore(ctx);
  testCastLikeDropout(ctx);
  testErrorsMore(ctx);
  kilnTestContextDestroy(ctx);
  return 0;
}

/* Checks kilnGraphEvalConstantInts (dialects/graph/const_eval.c, over the
 * evaluator of fold_eval.h) value by
 * value: each case parses a function and evaluates the result of its last
 * op before the return, printing "<case>: n=<count> [values]" or
 * "<case>: unknown"; const-eval.test reads the output with FileCheck. */
#include <stdio.h>
#include <stdlib.h>

#include "builder_test_support.h"
#include "dialects/graph/const_eval.h"
#include "kiln/graph_elementwise.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* Prints what the evaluator makes of `v`, copying at most `cap` values. */
static void showValue(const char *label, MlirValue v, intptr_t cap) {
  int64_t vals[64];
  cap = cap > 64 ? 64 : cap;
  intptr_t n = kilnGraphEvalConstantInts(v, vals, cap);
  if (n < 0) {
    fprintf(stderr, "%s: unknown\n", label);
    return;
  }
  fprintf(stderr, "%s: n=%ld [", label, (long)n);
  for (intptr_t i = 0; i < n && i < cap; ++i)
    fprintf(stderr, "%s%ld", i ? ", " : "", (long)vals[i]);
  fprintf(stderr, "]\n");
}

/* The first result of the last op before the function's return. */
static MlirValue lastResult(const KilnTestFixture *f) {
  MlirOperation last = {NULL};
  MlirOperation term = mlirBlockGetTerminator(f->body);
  for (MlirOperation op = mlirBlockGetFirstOperation(f->body);
       !mlirOperationEqual(op, term); op = mlirOperationGetNextInBlock(op))
    last = op;
  if (mlirOperationIsNull(last)) {
    fprintf(stderr, "test has no body op\n");
    abort();
  }
  return mlirOperationGetResult(last, 0);
}

/* One case: a function with arguments `args` and body `body`. */
static void check(MlirContext ctx, const char *name, const char *args,
                  const char *body) {
  KilnTestFixture f = kilnTestBegin(ctx, name, args, body);
  showValue(name, lastResult(&f), 64);
  kilnTestEnd(&f, 0);
}

#define X235 "%x: tensor<2x3x5xf32>"
#define SHAPE235                                                               \
  "%s = \"graph.shape\"(%x) : (tensor<2x3x5xf32>) -> tensor<3xi64>\n"
#define I64(name, dense, type)                                                 \
  "%" name " = \"graph.constant\"() {value = dense<" dense "> : " type         \
  "} : () -> " type "\n"

static void testSources(MlirContext ctx) {
  check(
      ctx, "shape_slice_concat", X235,
      SHAPE235 I64("b", "0", "tensor<1xi64>") I64("e", "2", "tensor<1xi64>")
          I64("m", "-1", "tensor<1xi64>") "%p = \"graph.slice\"(%s, %b, %e) "
                                          "{operandSegmentSizes = "
                                          "array<i32: 1, 1, 1, 0, 0>} : "
                                          "(tensor<3xi64>, tensor<1xi64>, "
                                          "tensor<1xi64>) -> tensor<2xi64>\n"
                                          "%c = \"graph.concat\"(%p, %m) {axis "
                                          "= 0 : i64} : (tensor<2xi64>, "
                                          "tensor<1xi64>) -> tensor<3xi64>");
  check(ctx, "shape_start_end", X235,
        "%s = \"graph.shape\"(%x) {start = -2 : i64, end = 100 : i64} : "
        "(tensor<2x3x5xf32>) -> tensor<2xi64>");
  check(ctx, "shape_static_part", "%x: tensor<?x3x5xf32>",
        "%s = \"graph.shape\"(%x) {start = 1 : i64} : (tensor<?x3x5xf32>) -> "
        "tensor<2xi64>");
  check(ctx, "negative_shape_dynamic", "%x: tensor<?x3x5xf32>",
        "%s = \"graph.shape\"(%x) : (tensor<?x3x5xf32>) -> tensor<3xi64>");
  check(ctx, "size", X235,
        "%s = \"graph.size\"(%x) : (tensor<2x3x5xf32>) -> tensor<i64>");
  check(ctx, "constant_of_shape", "",
        I64("d", "[2, 3]",
            "tensor<2xi64>") "%c = \"graph.constant_of_shape\"(%d) {value = "
                             "dense<7> : "
                             "tensor<1xi32>} : (tensor<2xi64>) -> "
                             "tensor<2x3xi32>");
  check(ctx, "range_from_shape", X235,
        SHAPE235 I64("z", "0", "tensor<i64>") I64("one", "1", "tensor<i64>")
            I64("two", "2", "tensor<i64>") "%l = \"graph.gather\"(%s, %two) : "
                                           "(tensor<3xi64>, tensor<i64>) -> "
                                           "tensor<i64>\n"
                                           "%r = \"graph.range\"(%z, %l, %one) "
                                           ": (tensor<i64>, tensor<i64>, "
                                           "tensor<i64>) -> tensor<5xi64>");
  check(ctx, "range_down", "",
        I64("a", "10", "tensor<i32>") I64("b", "0", "tensor<i32>")
            I64("d", "-3", "tensor<i32>") "%r = \"graph.range\"(%a, %b, %d) : "
                                          "(tensor<i32>, tensor<i32>, "
                                          "tensor<i32>) -> tensor<4xi32>");
  check(ctx, "negative_range_too_long", "",
        I64("a", "0", "tensor<i64>") I64("b", "2000", "tensor<i64>")
            I64("d", "1", "tensor<i64>") "%r = \"graph.range\"(%a, %b, %d) : "
                                         "(tensor<i64>, tensor<i64>, "
                                         "tensor<i64>) -> tensor<2000xi64>");
}

static void testIndexing(MlirContext ctx) {
  check(ctx, "gather_negative", X235,
        SHAPE235 I64("i", "[-1, 0]",
                     "tensor<2xi64>") "%g = \"graph.gather\"(%s, %i) : "
                                      "(tensor<3xi64>, tensor<2xi64>) -> "
                                      "tensor<2xi64>");
  check(ctx, "negative_gather_out_of_range", X235,
        SHAPE235 I64("i", "3", "tensor<i64>") "%g = \"graph.gather\"(%s, %i) : "
                                              "(tensor<3xi64>, tensor<i64>) -> "
                                              "tensor<i64>");
  check(ctx, "slice_backward", X235,
        SHAPE235 I64("b", "-1", "tensor<1xi64>")
            I64("e", "-9223372036854775808", "tensor<1xi64>") I64(
                "st", "-2", "tensor<1xi64>") "%p = \"graph.slice\"(%s, %b, %e, "
                                             "%st) {operandSegmentSizes = "
                                             "array<i32: 1, 1, 1, 0, 1>} : "
                                             "(tensor<3xi64>, tensor<1xi64>, "
                                             "tensor<1xi64>, tensor<1xi64>) -> "
                                             "tensor<2xi64>");
  check(ctx, "slice_huge_step", X235,
        SHAPE235 I64("b", "1", "tensor<1xi64>") I64("e", "9223372036854775807",
                                                    "tensor<1xi64>")
            I64("a", "-1", "tensor<1xi64>") "%p = \"graph.slice\"(%s, %b, %e, "
                                            "%a, %e) {operandSegmentSizes = "
                                            "array<i32: 1, 1, 1, 1, 1>} : "
                                            "(tensor<3xi64>, tensor<1xi64>, "
                                            "tensor<1xi64>, tensor<1xi64>, "
                                            "tensor<1xi64>) -> tensor<1xi64>");
  check(ctx, "expand", "",
        I64("x", "[[1], [2]]", "tensor<2x1xi64>")
            I64("d", "[2, 3]",
                "tensor<2xi64>") "%y = \"graph.expand\"(%x, %d) : "
                                 "(tensor<2x1xi64>, tensor<2xi64>) -> "
                                 "tensor<2x3xi64>");
  check(ctx, "tile", "",
        I64("x", "[[1, 2]]", "tensor<1x2xi64>")
            I64("r", "[2, 2]",
                "tensor<2xi64>") "%y = \"graph.tile\"(%x, %r) : "
                                 "(tensor<1x2xi64>, tensor<2xi64>) -> "
                                 "tensor<2x4xi64>");
  check(ctx, "unsqueeze_reshape", X235,
        SHAPE235 I64("a", "[0]", "tensor<1xi64>")
            I64("t", "[3, 1]",
                "tensor<2xi64>") "%u = \"graph.unsqueeze\"(%s, %a) : "
                                 "(tensor<3xi64>, tensor<1xi64>) "
                                 "-> tensor<1x3xi64>\n"
                                 "%r = \"graph.reshape\"(%u, %t) : "
                                 "(tensor<1x3xi64>, tensor<2xi64>) "
                                 "-> tensor<3x1xi64>\n"
                                 "%f = \"graph.flatten\"(%r) {axis = 0 : i64} "
                                 ": (tensor<3x1xi64>) -> "
                                 "tensor<1x3xi64>\n"
                                 "%q = \"graph.squeeze\"(%f) : "
                                 "(tensor<1x3xi64>) -> tensor<3xi64>\n"
                                 "%i = \"graph.identity\"(%q) : "
                                 "(tensor<3xi64>) -> tensor<3xi64>");
  /* Declared types that contradict the values are not trusted. */
  check(ctx, "negative_declared_type_contradicts", X235,
        SHAPE235
        "%c = \"graph.concat\"(%s, %s) {axis = 0 : i64} : (tensor<3xi64>, "
        "tensor<3xi64>) -> tensor<5xi64>");
}

static void testArithmetic(MlirContext ctx) {
  check(ctx, "div_truncates", "",
        I64("a", "[-7, 7, 7, -7]", "tensor<4xi64>")
            I64("b", "[2, -2, 3, -2]",
                "tensor<4xi64>") "%c = \"graph.div\"(%a, %b) : (tensor<4xi64>, "
                                 "tensor<4xi64>) -> "
                                 "tensor<4xi64>");
  check(ctx, "negative_div_by_zero", "",
        I64("a", "[4, 5]", "tensor<2xi64>") I64(
            "b", "[1, 0]", "tensor<2xi64>") "%c = \"graph.div\"(%a, %b) : "
                                            "(tensor<2xi64>, tensor<2xi64>) -> "
                                            "tensor<2xi64>");
  check(
      ctx, "sub_broadcast", X235,
      SHAPE235 I64("t", "10", "tensor<i64>") "%c = \"graph.sub\"(%t, %s) : "
                                             "(tensor<i64>, tensor<3xi64>) -> "
                                             "tensor<3xi64>");
  check(ctx, "add_mul_i32_wraps", "",
        I64("a", "65536", "tensor<i32>") I64(
            "b", "[1, 2]", "tensor<2xi32>") "%m = \"graph.mul\"(%a, %a) : "
                                            "(tensor<i32>, tensor<i32>) -> "
                                            "tensor<i32>\n"
                                            "%c = \"graph.add\"(%m, %b) : "
                                            "(tensor<i32>, tensor<2xi32>) -> "
                                            "tensor<2xi32>");
  check(ctx, "min_max_neg_abs", "",
        I64("a", "[-4, 9]", "tensor<2xi64>")
            I64("b", "[3, 1]",
                "tensor<2xi64>") "%mn = \"graph.min\"(%a, %b) : "
                                 "(tensor<2xi64>, tensor<2xi64>) -> "
                                 "tensor<2xi64>\n"
                                 "%mx = \"graph.max\"(%a, %b) : "
                                 "(tensor<2xi64>, tensor<2xi64>) -> "
                                 "tensor<2xi64>\n"
                                 "%n = \"graph.neg\"(%mn) : (tensor<2xi64>) -> "
                                 "tensor<2xi64>\n"
                                 "%ab = \"graph.abs\"(%mn) : (tensor<2xi64>) "
                                 "-> tensor<2xi64>\n"
                                 "%c = \"graph.concat\"(%mx, %n) {axis = 0 : "
                                 "i64} : (tensor<2xi64>, "
                                 "tensor<2xi64>) -> tensor<4xi64>\n"
                                 "%d = \"graph.concat\"(%c, %ab) {axis = 0 : "
                                 "i64} : (tensor<4xi64>, "
                                 "tensor<2xi64>) -> tensor<6xi64>");
  check(ctx, "cast_wraps_and_bools", "",
        I64("a", "[4294967297, -1, 0]",
            "tensor<3xi64>") "%n = \"graph.cast\"(%a) {to = i32} : "
                             "(tensor<3xi64>) -> "
                             "tensor<3xi32>\n"
                             "%b = \"graph.cast\"(%a) {to = i1} : "
                             "(tensor<3xi64>) -> "
                             "tensor<3xi1>\n"
                             "%bi = \"graph.cast\"(%b) {to = i32} : "
                             "(tensor<3xi1>) -> "
                             "tensor<3xi32>\n"
                             "%c = \"graph.concat\"(%n, %bi) {axis = 0 : i64} "
                             ": (tensor<3xi32>, "
                             "tensor<3xi32>) -> tensor<6xi32>");
  check(ctx, "negative_cast_to_float", X235,
        SHAPE235 "%f = \"graph.cast\"(%s) {to = f32} : (tensor<3xi64>) -> "
                 "tensor<3xf32>");
  /* The value asked for is an integer, the way to it may pass floats:
   * floor(shape * 0.5), as an exported Upsample's output size. */
  check(ctx, "float_scale_roundtrip", X235,
        SHAPE235 "%f = \"graph.cast\"(%s) {to = f32} : (tensor<3xi64>) -> "
                 "tensor<3xf32>\n"
                 "%h = \"graph.constant\"() {value = dense<0.5> : "
                 "tensor<f32>} : () -> tensor<f32>\n"
                 "%m = \"graph.mul\"(%f, %h) : (tensor<3xf32>, tensor<f32>) "
                 "-> tensor<3xf32>\n"
                 "%r = \"graph.floor\"(%m) : (tensor<3xf32>) -> "
                 "tensor<3xf32>\n"
                 "%i = \"graph.cast\"(%r) {to = i64} : (tensor<3xf32>) -> "
                 "tensor<3xi64>");
  check(ctx, "reduce_prod_all", X235,
        SHAPE235 "%p = \"graph.reduce_prod\"(%s) {keepdims = 0 : i64} : "
                 "(tensor<3xi64>) -> tensor<i64>");
  check(ctx, "reduce_sum_axes", X235,
        SHAPE235 I64("a", "[0]",
                     "tensor<1xi64>") "%p = \"graph.reduce_sum\"(%s, %a) : "
                                      "(tensor<3xi64>, tensor<1xi64>) "
                                      "-> tensor<1xi64>");
  check(ctx, "negative_reduce_sum_partial", "",
        I64("x", "[[1, 2], [3, 4]]", "tensor<2x2xi64>") I64(
            "a", "[1]", "tensor<1xi64>") "%p = \"graph.reduce_sum\"(%x, %a) : "
                                         "(tensor<2x2xi64>, tensor<1xi64>) "
                                         "-> tensor<2x1xi64>");
}

static void testLogic(MlirContext ctx) {
  check(ctx, "equal_where", X235,
        SHAPE235 I64("k", "[2, 4, 5]", "tensor<3xi64>")
            I64("z", "0", "tensor<i64>") "%e = \"graph.equal\"(%s, %k) : "
                                         "(tensor<3xi64>, tensor<3xi64>) -> "
                                         "tensor<3xi1>\n"
                                         "%w = \"graph.where\"(%e, %s, %z) : "
                                         "(tensor<3xi1>, tensor<3xi64>, "
                                         "tensor<i64>) -> tensor<3xi64>");
  check(
      ctx, "less_greater_not", X235,
      SHAPE235 I64("k", "3", "tensor<i64>") "%l = \"graph.less\"(%s, %k) : "
                                            "(tensor<3xi64>, tensor<i64>) -> "
                                            "tensor<3xi1>\n"
                                            "%g = \"graph.greater\"(%s, %k) : "
                                            "(tensor<3xi64>, tensor<i64>) -> "
                                            "tensor<3xi1>\n"
                                            "%n = \"graph.not\"(%l) : "
                                            "(tensor<3xi1>) -> tensor<3xi1>\n"
                                            "%c = \"graph.concat\"(%g, %n) "
                                            "{axis = 0 : i64} : (tensor<3xi1>, "
                                            "tensor<3xi1>) -> tensor<6xi1>");
}

/* A chain of `n` negations of the scalar 5, built with the builder. */
static void negChain(MlirContext ctx, const char *name, int n) {
  KilnTestFixture f =
      kilnTestBegin(ctx, name, "", I64("c", "5", "tensor<i64>"));
  MlirValue v = lastResult(&f);
  for (int i = 0; i < n; ++i)
    v = kilnGraphBuildNeg(f.b, v);
  showValue(name, v, 1);
  kilnTestEnd(&f, 0);
}

static void testLimits(MlirContext ctx) {
  negChain(ctx, "depth_63", KILN_GRAPH_EVAL_MAX_DEPTH - 1);
  negChain(ctx, "negative_depth_64", KILN_GRAPH_EVAL_MAX_DEPTH);
  /* A constant is read whatever its size; computing on it is bounded. The
   * caller gets the full count even when it asks for fewer values. */
  KilnTestFixture f = kilnTestBegin(
      ctx, "large_constant", "",
      I64("c", "3",
          "tensor<2000xi64>") "%n = \"graph.neg\"(%c) : (tensor<2000xi64>) -> "
                              "tensor<2000xi64>");
  MlirOperation c = mlirBlockGetFirstOperation(f.body);
  showValue("large_constant", mlirOperationGetResult(c, 0), 2);
  showValue("negative_large_computed", lastResult(&f), 2);
  kilnTestEnd(&f, 0);
}

int main(void) {
  MlirContext ctx = kilnTestContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  testSources(ctx);
  testIndexing(ctx);
  testArithmetic(ctx);
  testLogic(ctx);
  testLimits(ctx);
  kilnTestContextDestroy(ctx);
  return 0;
}

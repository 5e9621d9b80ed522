/* Unit tests for the reduction family's typed builders (checked by FileCheck
 * through builders-reduction.test).
 *
 * Each test parses a function whose arguments are the operands, builds ops
 * into it with the typed builders, prints each result type ("null" for a
 * failed build), verifies the module and prints it (builder_test_support.h).
 * Diagnostics are printed by a handler, so error cases show their message
 * and location. */
#include <stdbool.h>
#include <stdio.h>

#include "builder_test_support.h"
#include "kiln/graph_reduction.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

/* Builds a graph.constant holding `n` i64 values `vals`: a vector, or a
 * scalar when `rank` is 0 (then n is 1). */
static MlirValue constantI64Ranked(const KilnTestFixture *f,
                                   const int64_t *vals, intptr_t n,
                                   intptr_t rank) {
  int64_t shape[1] = {n};
  MlirType t = mlirRankedTensorTypeGet(
      rank, shape, mlirIntegerTypeGet(f->ctx, 64), mlirAttributeGetNull());
  MlirNamedAttribute value = mlirNamedAttributeGet(
      mlirIdentifierGet(f->ctx, mlirStringRefCreateFromCString("value")),
      mlirDenseElementsAttrInt64Get(t, n, vals));
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("graph.constant"),
                            kilnGraphBuilderGetLocation(f->b));
  mlirOperationStateAddResults(&st, 1, &t);
  mlirOperationStateAddAttributes(&st, 1, &value);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(f->body, mlirBlockGetTerminator(f->body),
                                      op);
  return mlirOperationGetResult(op, 0);
}

/* Builds a graph.constant holding the i64 vector `vals`. */
static MlirValue constantI64(const KilnTestFixture *f, const int64_t *vals,
                             intptr_t n) {
  return constantI64Ranked(f, vals, n, 1);
}

static const MlirValue kNone = {NULL};

static void testMatMul(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "matmul",
                    "%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, "
                    "%v: tensor<3xf32>, %c: tensor<5x1x2x3xf32>, "
                    "%d: tensor<4x3x7xf32>, %e: tensor<?x2x3xi64>, "
                    "%g: tensor<3x?xi64>",
                    NULL);
  kilnTestShow(
      "2d", kilnGraphBuildMatMul(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1)));
  kilnTestShow("vec_mat", kilnGraphBuildMatMul(f.b, kilnTestArg(&f, 2),
                                               kilnTestArg(&f, 1)));
  kilnTestShow("mat_vec", kilnGraphBuildMatMul(f.b, kilnTestArg(&f, 0),
                                               kilnTestArg(&f, 2)));
  kilnTestShow("vec_vec", kilnGraphBuildMatMul(f.b, kilnTestArg(&f, 2),
                                               kilnTestArg(&f, 2)));
  kilnTestShow("batch", kilnGraphBuildMatMul(f.b, kilnTestArg(&f, 3),
                                             kilnTestArg(&f, 4)));
  kilnTestShow("dynamic", kilnGraphBuildMatMul(f.b, kilnTestArg(&f, 5),
                                               kilnTestArg(&f, 6)));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testGemm(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "gemm",
                                    "%a: tensor<3x2xf32>, %b: tensor<5x3xf32>, "
                                    "%c: tensor<5xf32>, %d: tensor<2x3xf32>, "
                                    "%e: tensor<3x5xf32>, %s: tensor<f32>",
                                    NULL);
  kilnTestShow("trans",
               kilnGraphBuildGemm(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                  kilnTestArg(&f, 2), 0.5f, 2.0f, true, true));
  kilnTestShow("defaults_no_c",
               kilnGraphBuildGemm(f.b, kilnTestArg(&f, 3), kilnTestArg(&f, 4),
                                  kNone, 1.0f, 1.0f, false, false));
  kilnTestShow("scalar_c", kilnGraphBuildGemm(
                               f.b, kilnTestArg(&f, 3), kilnTestArg(&f, 4),
                               kilnTestArg(&f, 5), 1.0f, 1.0f, false, false));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testSoftmax(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "softmax", "%x: tensor<2x?x4xf16>", NULL);
  kilnTestShow("softmax", kilnGraphBuildSoftmax(f.b, kilnTestArg(&f, 0), 1));
  kilnTestShow("log_softmax",
               kilnGraphBuildLogSoftmax(f.b, kilnTestArg(&f, 0), -1));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testReduceConstantAxes(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "reduce_constant_axes", "%x: tensor<2x3x4xf32>", NULL);
  const int64_t axes[] = {-1, 0};
  MlirValue ax = constantI64(&f, axes, 2);
  kilnTestShow("sum_keep", kilnGraphBuildReduceSum(f.b, kilnTestArg(&f, 0), ax,
                                                   true, false));
  kilnTestShow("mean_drop", kilnGraphBuildReduceMean(f.b, kilnTestArg(&f, 0),
                                                     ax, false, false));
  MlirValue empty = constantI64(&f, NULL, 0);
  kilnTestShow(
      "prod_empty_noop",
      kilnGraphBuildReduceProd(f.b, kilnTestArg(&f, 0), empty, true, true));
  kilnTestShow("l2_empty", kilnGraphBuildReduceL2(f.b, kilnTestArg(&f, 0),
                                                  empty, true, false));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testReduceNoAxes(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "reduce_no_axes", "%x: tensor<2x?xf32>, %p: tensor<3x2xi1>", NULL);
  kilnTestShow("sum_all", kilnGraphBuildReduceSum(f.b, kilnTestArg(&f, 0),
                                                  kNone, true, false));
  kilnTestShow("max_all_drop", kilnGraphBuildReduceMax(f.b, kilnTestArg(&f, 0),
                                                       kNone, false, false));
  kilnTestShow("min_noop", kilnGraphBuildReduceMin(f.b, kilnTestArg(&f, 0),
                                                   kNone, true, true));
  kilnTestShow("max_bool", kilnGraphBuildReduceMax(f.b, kilnTestArg(&f, 1),
                                                   kNone, false, false));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testReduceDynamicAxes(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "reduce_dynamic_axes",
                                    "%x: tensor<2x1x4xf32>, %a: tensor<2xi64>, "
                                    "%u: tensor<?xi64>",
                                    NULL);
  kilnTestShow("count_keep",
               kilnGraphBuildReduceSum(f.b, kilnTestArg(&f, 0),
                                       kilnTestArg(&f, 1), true, false));
  kilnTestShow("count_drop",
               kilnGraphBuildReduceSum(f.b, kilnTestArg(&f, 0),
                                       kilnTestArg(&f, 1), false, false));
  kilnTestShow("unknown_keep",
               kilnGraphBuildReduceSum(f.b, kilnTestArg(&f, 0),
                                       kilnTestArg(&f, 2), true, false));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testArgReduce(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "arg_reduce", "%x: tensor<2x3x?xi32>", NULL);
  kilnTestShow("argmax_default",
               kilnGraphBuildArgMax(f.b, kilnTestArg(&f, 0), 0, true, false));
  kilnTestShow("argmax_last_drop",
               kilnGraphBuildArgMax(f.b, kilnTestArg(&f, 0), -1, false, true));
  kilnTestShow("argmin",
               kilnGraphBuildArgMin(f.b, kilnTestArg(&f, 0), 1, false, false));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

/* Every failed build emits one diagnostic at the builder's location and
 * inserts nothing (only the axes constants appear in the printed function). */
static void testNegative(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "negative",
                                    "%a: tensor<2x3xf32>, %b: tensor<4x5xf32>, "
                                    "%i: tensor<2x3xi32>, %p: tensor<2x3xi1>, "
                                    "%s: tensor<f32>, %c: tensor<3x5xf32>, "
                                    "%u: tensor<?xi64>",
                                    NULL);
  kilnTestShow("matmul_k", kilnGraphBuildMatMul(f.b, kilnTestArg(&f, 0),
                                                kilnTestArg(&f, 1)));
  kilnTestShow("matmul_types", kilnGraphBuildMatMul(f.b, kilnTestArg(&f, 0),
                                                    kilnTestArg(&f, 2)));
  kilnTestShow("matmul_scalar", kilnGraphBuildMatMul(f.b, kilnTestArg(&f, 4),
                                                     kilnTestArg(&f, 0)));
  kilnTestShow("matmul_missing",
               kilnGraphBuildMatMul(f.b, kNone, kilnTestArg(&f, 0)));
  kilnTestShow("gemm_bias",
               kilnGraphBuildGemm(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 0),
                                  kilnTestArg(&f, 5), 1.0f, 1.0f, false, true));
  kilnTestShow("softmax_int",
               kilnGraphBuildSoftmax(f.b, kilnTestArg(&f, 2), -1));
  kilnTestShow("softmax_axis",
               kilnGraphBuildLogSoftmax(f.b, kilnTestArg(&f, 0), 2));
  kilnTestShow("sum_bool", kilnGraphBuildReduceSum(f.b, kilnTestArg(&f, 3),
                                                   kNone, true, false));
  const int64_t dup[] = {1, -1};
  kilnTestShow("sum_dup_axes",
               kilnGraphBuildReduceSum(f.b, kilnTestArg(&f, 0),
                                       constantI64(&f, dup, 2), true, false));
  const int64_t far[] = {2};
  kilnTestShow("max_axis_range",
               kilnGraphBuildReduceMax(f.b, kilnTestArg(&f, 0),
                                       constantI64(&f, far, 1), true, false));
  kilnTestShow("argmin_axis",
               kilnGraphBuildArgMin(f.b, kilnTestArg(&f, 0), -3, true, false));
  kilnTestShow("argmax_bool",
               kilnGraphBuildArgMax(f.b, kilnTestArg(&f, 3), 0, true, false));
  kilnTestShow("sum_unknown_rank",
               kilnGraphBuildReduceSum(f.b, kilnTestArg(&f, 0),
                                       kilnTestArg(&f, 6), false, false));
  /* Through the generic entry point: asking for two results. */
  const MlirValue ab[] = {kilnTestArg(&f, 0), kilnTestArg(&f, 5)};
  MlirOperation two =
      kilnGraphBuilderCreateOp(f.b, "matmul", ab, 2, NULL, 0, 2);
  fprintf(stderr, "matmul_two_results: %s\n",
          mlirOperationIsNull(two) ? "null" : "built");
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testReduceMore(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "reduce_more", "%x: tensor<3x2x2xf32>, %a: tensor<1xi64>", NULL);
  const int64_t axes[] = {-2};
  MlirValue ax = constantI64(&f, axes, 1);
  kilnTestShow("l1_keep", kilnGraphBuildReduceL1(f.b, kilnTestArg(&f, 0), ax,
                                                 true, false));
  kilnTestShow(
      "log_sum_all_drop",
      kilnGraphBuildReduceLogSum(f.b, kilnTestArg(&f, 0), kNone, false, false));
  kilnTestShow("log_sum_exp_noop",
               kilnGraphBuildReduceLogSumExp(f.b, kilnTestArg(&f, 0), kNone,
                                             true, true));
  kilnTestShow("sum_square_dynamic",
               kilnGraphBuildReduceSumSquare(f.b, kilnTestArg(&f, 0),
                                             kilnTestArg(&f, 1), false, false));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testHardmaxCumSum(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "hardmax_cum_sum", "%x: tensor<4x?xf32>, %ax: tensor<1xi32>", NULL);
  kilnTestShow("hardmax_default",
               kilnGraphBuildHardmax(f.b, kilnTestArg(&f, 0), -1));
  kilnTestShow("hardmax_axis0",
               kilnGraphBuildHardmax(f.b, kilnTestArg(&f, 0), 0));
  const int64_t one = 1;
  kilnTestShow("cum_sum_const",
               kilnGraphBuildCumSum(f.b, kilnTestArg(&f, 0),
                                    constantI64Ranked(&f, &one, 1, 0), true,
                                    false));
  kilnTestShow("cum_sum_input",
               kilnGraphBuildCumSum(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                    false, true));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testTopK(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "top_k", "%x: tensor<3x4xf16>, %k: tensor<1xi64>", NULL);
  const int64_t two = 2;
  MlirValue indices;
  kilnTestShow("values_const", kilnGraphBuildTopK(f.b, kilnTestArg(&f, 0),
                                                  constantI64(&f, &two, 1), 1,
                                                  true, true, &indices));
  kilnTestShow("indices_const", indices);
  kilnTestShow("values_input_axis0",
               kilnGraphBuildTopK(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                  0, false, false, NULL));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testLosses(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "losses",
                                    "%in: tensor<3x5x2xf32>, "
                                    "%t: tensor<3x2xi64>, %w: tensor<5xf32>",
                                    NULL);
  const int64_t ignore = -1;
  kilnTestShow("nll_mean", kilnGraphBuildNegativeLogLikelihoodLoss(
                               f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                               kNone, KILN_GRAPH_LOSS_MEAN, NULL));
  kilnTestShow("nll_none_weight_ii",
               kilnGraphBuildNegativeLogLikelihoodLoss(
                   f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                   kilnTestArg(&f, 2), KILN_GRAPH_LOSS_NONE, &ignore));
  MlirValue logProb;
  kilnTestShow("sce_sum",
               kilnGraphBuildSoftmaxCrossEntropyLoss(
                   f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                   kilnTestArg(&f, 2), KILN_GRAPH_LOSS_SUM, NULL, &logProb));
  kilnTestShow("sce_log_prob", logProb);
  kilnTestShow("sce_none", kilnGraphBuildSoftmaxCrossEntropyLoss(
                               f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                               kNone, KILN_GRAPH_LOSS_NONE, NULL, NULL));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testEinsumDet(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "einsum_det",
                                    "%a: tensor<5x2x3xf32>, "
                                    "%b: tensor<5x3x4xf32>, "
                                    "%d: tensor<3x?x?xf32>",
                                    NULL);
  kilnTestShow("batch_matmul",
               kilnGraphBuildEinsum(f.b, "bij,bjk->bik", kilnTestArg(&f, 0),
                                    kilnTestArg(&f, 1)));
  kilnTestShow("implicit",
               kilnGraphBuildEinsum(f.b, "bij,bjk", kilnTestArg(&f, 0),
                                    kilnTestArg(&f, 1)));
  kilnTestShow(
      "batch_diagonal",
      kilnGraphBuildEinsum(f.b, "...ii->...i", kilnTestArg(&f, 2), kNone));
  kilnTestShow("det", kilnGraphBuildDet(f.b, kilnTestArg(&f, 2)));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

/* Failed builds of the ops above: one diagnostic each, nothing inserted. */
static void testNegativeMore(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "negative_more",
                                    "%a: tensor<2x3xf32>, %t: tensor<2xi64>, "
                                    "%v: tensor<4xf32>",
                                    NULL);
  const int64_t four = 4, three = 3;
  kilnTestShow("top_k_large", kilnGraphBuildTopK(f.b, kilnTestArg(&f, 0),
                                                 constantI64(&f, &four, 1), -1,
                                                 true, true, NULL));
  kilnTestShow("cum_sum_axis",
               kilnGraphBuildCumSum(f.b, kilnTestArg(&f, 0),
                                    constantI64Ranked(&f, &three, 1, 0), false,
                                    false));
  kilnTestShow("nll_enum", kilnGraphBuildNegativeLogLikelihoodLoss(
                               f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                               kNone, (KilnGraphLossReduction)7, NULL));
  kilnTestShow("sce_weights",
               kilnGraphBuildSoftmaxCrossEntropyLoss(
                   f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                   kilnTestArg(&f, 2), KILN_GRAPH_LOSS_MEAN, NULL, NULL));
  kilnTestShow("einsum_null",
               kilnGraphBuildEinsum(f.b, NULL, kilnTestArg(&f, 0), kNone));
  kilnTestShow("einsum_terms", kilnGraphBuildEinsum(f.b, "ij,jk->ik",
                                                    kilnTestArg(&f, 0), kNone));
  kilnTestShow("det_square", kilnGraphBuildDet(f.b, kilnTestArg(&f, 0)));
  /* Through the generic entry point: einsum has at most two operands. */
  const MlirValue threeOps[] = {kilnTestArg(&f, 1), kilnTestArg(&f, 1),
                                kilnTestArg(&f, 1)};
  MlirNamedAttribute eq = kilnGraphAttrString(f.b, "equation", "i,i,i");
  MlirOperation op =
      kilnGraphBuilderCreateOp(f.b, "einsum", threeOps, 3, &eq, 1, 1);
  fprintf(stderr, "einsum_three: %s\n",
          mlirOperationIsNull(op) ? "null" : "built");
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

int main(void) {
  MlirContext ctx = kilnTestContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  testMatMul(ctx);
  testGemm(ctx);
  testSoftmax(ctx);
  testReduceConstantAxes(ctx);
  testReduceNoAxes(ctx);
  testReduceDynamicAxes(ctx);
  testArgReduce(ctx);
  testNegative(ctx);
  testReduceMore(ctx);
  testHardmaxCumSum(ctx);
  testTopK(ctx);
  testLosses(ctx);
  testEinsumDet(ctx);
  testNegativeMore(ctx);
  kilnTestContextDestroy(ctx);
  return 0;
}

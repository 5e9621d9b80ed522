/* Unit tests for the tensor family's typed builders (checked by FileCheck
 * through builders-tensor.test).
 *
 * Each test parses a function whose arguments are the operands, builds ops
 * into it, prints each inferred result type ("null" for a failed build),
 * then verifies and prints the module (builder_test_support.h). A diagnostic
 * handler prints every diagnostic, so error cases show their message and
 * location. Every built op stays in the module, which must verify. */
#include <stdio.h>

#include "builder_test_support.h"
#include "kiln/graph_tensor.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

/* Builds a graph.constant holding the i64 vector `v`. */
static MlirValue ints(const KilnTestFixture *f, const int64_t *v, intptr_t n) {
  return kilnGraphBuildConstantInts(f->b, v, n);
}

/* Prints every result type of a built op ("null" if none). */
static void showOp(const char *what, MlirOperation op) {
  fprintf(stderr, "%s:", what);
  if (mlirOperationIsNull(op)) {
    fprintf(stderr, " null\n");
    return;
  }
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    fprintf(stderr, " ");
    kilnTestPrintType(mlirOperationGetResult(op, i));
  }
  fprintf(stderr, "\n");
}

static const MlirValue kNone = {NULL};

static void testConstant(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "constant", "", NULL);
  int64_t shape[2] = {2, 2};
  MlirType t = mlirRankedTensorTypeGet(2, shape, mlirF32TypeGet(ctx),
                                       mlirAttributeGetNull());
  kilnTestShow("splat", kilnGraphBuildConstant(
                            f.b, mlirDenseElementsAttrFloatSplatGet(t, 1.5f)));
  const int64_t v[3] = {4, 5, 6};
  kilnTestShow("ints", ints(&f, v, 3));
  kilnTestShow("negative_null",
               kilnGraphBuildConstant(f.b, mlirAttributeGetNull()));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testIdentityShape(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "identity_shape", "%x: tensor<2x?x4xi8>", NULL);
  const int64_t end1 = -1;
  kilnTestShow("identity", kilnGraphBuildIdentity(f.b, kilnTestArg(&f, 0)));
  kilnTestShow("shape", kilnGraphBuildShape(f.b, kilnTestArg(&f, 0), 0, NULL));
  kilnTestShow("shape_1_m1",
               kilnGraphBuildShape(f.b, kilnTestArg(&f, 0), 1, &end1));
  kilnTestShow("shape_empty",
               kilnGraphBuildShape(f.b, kilnTestArg(&f, 0), 5, NULL));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testReshape(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "reshape",
                                    "%x: tensor<2x3x4xf32>, %s: tensor<3xi64>, "
                                    "%d: tensor<?xi64>, %y: tensor<?x4xf32>",
                                    NULL);
  const int64_t copy[2] = {0, -1}, zero[2] = {0, 24}, two[2] = {-1, -1};
  const int64_t bad[2] = {5, -1};
  kilnTestShow("copy_infer", kilnGraphBuildReshape(f.b, kilnTestArg(&f, 0),
                                                   ints(&f, copy, 2), false));
  kilnTestShow("dynamic_input",
               kilnGraphBuildReshape(f.b, kilnTestArg(&f, 3),
                                     ints(&f, copy + 1, 1), false));
  kilnTestShow("unknown_shape",
               kilnGraphBuildReshape(f.b, kilnTestArg(&f, 0),
                                     kilnTestArg(&f, 1), false));
  kilnTestShow(
      "negative_allowzero",
      kilnGraphBuildReshape(f.b, kilnTestArg(&f, 0), ints(&f, zero, 2), true));
  kilnTestShow(
      "negative_two_minus_one",
      kilnGraphBuildReshape(f.b, kilnTestArg(&f, 0), ints(&f, two, 2), false));
  kilnTestShow(
      "negative_indivisible",
      kilnGraphBuildReshape(f.b, kilnTestArg(&f, 0), ints(&f, bad, 2), false));
  kilnTestShow("negative_unknown_rank",
               kilnGraphBuildReshape(f.b, kilnTestArg(&f, 0),
                                     kilnTestArg(&f, 2), false));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testFlattenTranspose(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "flatten_transpose", "%x: tensor<2x?x4xf32>", NULL);
  const int64_t perm[3] = {1, 2, 0}, bad[3] = {0, 0, 1};
  kilnTestShow("flatten_0", kilnGraphBuildFlatten(f.b, kilnTestArg(&f, 0), 0));
  kilnTestShow("flatten_m1",
               kilnGraphBuildFlatten(f.b, kilnTestArg(&f, 0), -1));
  kilnTestShow("flatten_3", kilnGraphBuildFlatten(f.b, kilnTestArg(&f, 0), 3));
  kilnTestShow("negative_flatten_4",
               kilnGraphBuildFlatten(f.b, kilnTestArg(&f, 0), 4));
  kilnTestShow("transpose",
               kilnGraphBuildTranspose(f.b, kilnTestArg(&f, 0), NULL, 0));
  kilnTestShow("transpose_perm",
               kilnGraphBuildTranspose(f.b, kilnTestArg(&f, 0), perm, 3));
  kilnTestShow("negative_perm",
               kilnGraphBuildTranspose(f.b, kilnTestArg(&f, 0), bad, 3));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testConcat(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "concat",
                                    "%a: tensor<2x3xf32>, %b: tensor<2x?xf32>, "
                                    "%c: tensor<?x4xf32>, %d: tensor<3x3xf32>, "
                                    "%e: tensor<2x3xi32>, %f: tensor<2x4xf32>, "
                                    "%g: tensor<6xf32>",
                                    NULL);
  MlirValue a = kilnTestArg(&f, 0);
  kilnTestShow("same", kilnGraphBuildConcat(f.b, a, a, -1));
  kilnTestShow("mixed", kilnGraphBuildConcat(f.b, a, kilnTestArg(&f, 5), 1));
  kilnTestShow("rows", kilnGraphBuildConcat(f.b, a, kilnTestArg(&f, 3), 0));
  kilnTestShow("dynamic_axis",
               kilnGraphBuildConcat(f.b, a, kilnTestArg(&f, 1), 1));
  kilnTestShow("dynamic_other", kilnGraphBuildConcat(f.b, kilnTestArg(&f, 2),
                                                     kilnTestArg(&f, 5), 1));
  kilnTestShow("negative_dim",
               kilnGraphBuildConcat(f.b, a, kilnTestArg(&f, 3), 1));
  kilnTestShow("negative_type",
               kilnGraphBuildConcat(f.b, a, kilnTestArg(&f, 4), 0));
  kilnTestShow("negative_rank",
               kilnGraphBuildConcat(f.b, a, kilnTestArg(&f, 6), 0));
  kilnTestShow("negative_axis", kilnGraphBuildConcat(f.b, a, a, 2));
  kilnTestShow("negative_null", kilnGraphBuildConcat(f.b, a, kNone, 0));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static intptr_t countOps(MlirBlock block) {
  intptr_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ++n;
  return n;
}

/* ConcatN builds a left-leaning chain; on a failing link it leaves nothing
 * behind, which the op counts show. */
static void testConcatN(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "concat_n",
                                    "%a: tensor<2x3xf32>, %f: tensor<2x4xf32>, "
                                    "%b: tensor<2x?xf32>, %d: tensor<3x3xf32>",
                                    NULL);
  MlirValue chain[3] = {kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                        kilnTestArg(&f, 2)};
  MlirValue bad[3] = {kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                      kilnTestArg(&f, 3)};
  MlirValue withNull[2] = {kilnTestArg(&f, 0), kNone};
  kilnTestShow("chain", kilnGraphBuildConcatN(f.b, chain, 3, 1));
  MlirValue one = kilnGraphBuildConcatN(f.b, chain, 1, 1);
  fprintf(stderr, "one_is_input: %s\n",
          mlirValueEqual(one, chain[0]) ? "yes" : "no");
  intptr_t before = countOps(f.body);
  kilnTestShow("negative_chain", kilnGraphBuildConcatN(f.b, bad, 3, 1));
  fprintf(stderr, "ops_left: %ld\n", (long)(countOps(f.body) - before));
  kilnTestShow("negative_empty", kilnGraphBuildConcatN(f.b, NULL, 0, 0));
  kilnTestShow("negative_null", kilnGraphBuildConcatN(f.b, withNull, 2, 0));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testSplit(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "split",
                                    "%x: tensor<7x4xf32>, %s: tensor<2xi64>, "
                                    "%y: tensor<?x4xf32>",
                                    NULL);
  const int64_t sizes[2] = {2, 2}, unequal[2] = {2, 5}, bad[2] = {2, 4};
  MlirValue x = kilnTestArg(&f, 0);
  showOp("even", kilnGraphBuildSplit(f.b, x, kNone, 1, 2));
  showOp("sizes", kilnGraphBuildSplit(f.b, x, ints(&f, sizes, 2), 1, 2));
  showOp("unknown_sizes",
         kilnGraphBuildSplit(f.b, x, kilnTestArg(&f, 1), 0, 2));
  showOp("dynamic", kilnGraphBuildSplit(f.b, kilnTestArg(&f, 2), kNone, 0, 2));
  showOp("negative_uneven", kilnGraphBuildSplit(f.b, x, kNone, 0, 3));
  showOp("negative_unequal",
         kilnGraphBuildSplit(f.b, x, ints(&f, unequal, 2), 0, 2));
  showOp("negative_sum", kilnGraphBuildSplit(f.b, x, ints(&f, bad, 2), 0, 2));
  showOp("negative_count",
         kilnGraphBuildSplit(f.b, x, kilnTestArg(&f, 1), 0, 3));
  showOp("negative_too_many", kilnGraphBuildSplit(f.b, x, kNone, 0, 5));
  showOp("negative_zero", kilnGraphBuildSplit(f.b, x, kNone, 0, 0));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testSlice(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "slice",
                    "%x: tensor<10x20x?xf32>, %s: tensor<1xi32>, "
                    "%e: tensor<1xi32>, %a: tensor<1xi32>, %l: tensor<2xi64>",
                    NULL);
  const int64_t starts[3] = {-1, 2, 0}, ends[3] = {-1000, 1000, 5};
  const int64_t axes[3] = {1, 0, 2}, steps[3] = {-4, 3, 1};
  const int64_t zero[3] = {1, 0, 1}, dup[3] = {0, 0, 1};
  MlirValue st = ints(&f, starts, 3), en = ints(&f, ends, 3);
  kilnTestShow("constant",
               kilnGraphBuildSlice(f.b, kilnTestArg(&f, 0), st, en,
                                   ints(&f, axes, 3), ints(&f, steps, 3)));
  kilnTestShow("default_axes", kilnGraphBuildSlice(f.b, kilnTestArg(&f, 0), st,
                                                   en, kNone, kNone));
  kilnTestShow("unknown_values",
               kilnGraphBuildSlice(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                   kilnTestArg(&f, 2), kNone, kNone));
  kilnTestShow("unknown_axes",
               kilnGraphBuildSlice(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                   kilnTestArg(&f, 2), kilnTestArg(&f, 3),
                                   kNone));
  kilnTestShow("negative_zero_step",
               kilnGraphBuildSlice(f.b, kilnTestArg(&f, 0), st, en, kNone,
                                   ints(&f, zero, 3)));
  kilnTestShow("negative_repeated_axis",
               kilnGraphBuildSlice(f.b, kilnTestArg(&f, 0), st, en,
                                   ints(&f, dup, 3), kNone));
  kilnTestShow("negative_length",
               kilnGraphBuildSlice(f.b, kilnTestArg(&f, 0), st,
                                   kilnTestArg(&f, 4), kNone, kNone));
  kilnTestShow("negative_mixed_types",
               kilnGraphBuildSlice(f.b, kilnTestArg(&f, 0), st,
                                   kilnTestArg(&f, 2), kNone, kNone));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testGather(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "gather",
                    "%x: tensor<5x6x7xf32>, %i: tensor<2x3xi32>, "
                    "%s: tensor<i64>, %f: tensor<2xf32>",
                    NULL);
  const int64_t big[2] = {1, 7};
  kilnTestShow("axis_1", kilnGraphBuildGather(f.b, kilnTestArg(&f, 0),
                                              kilnTestArg(&f, 1), 1));
  kilnTestShow("scalar_index", kilnGraphBuildGather(f.b, kilnTestArg(&f, 0),
                                                    kilnTestArg(&f, 2), -1));
  kilnTestShow(
      "negative_indices_type",
      kilnGraphBuildGather(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 3), 0));
  kilnTestShow(
      "negative_index_range",
      kilnGraphBuildGather(f.b, kilnTestArg(&f, 0), ints(&f, big, 2), 1));
  kilnTestShow("negative_axis", kilnGraphBuildGather(f.b, kilnTestArg(&f, 0),
                                                     kilnTestArg(&f, 1), 3));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testSqueeze(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "squeeze",
                    "%x: tensor<1x3x1xf32>, %y: tensor<1x?x3xf32>, "
                    "%a: tensor<1xi64>",
                    NULL);
  const int64_t last[1] = {-1}, mid[1] = {1};
  const int64_t pair[2] = {0, 3};
  kilnTestShow("all", kilnGraphBuildSqueeze(f.b, kilnTestArg(&f, 0), kNone));
  kilnTestShow("axes", kilnGraphBuildSqueeze(f.b, kilnTestArg(&f, 0),
                                             ints(&f, last, 1)));
  kilnTestShow("dynamic", kilnGraphBuildSqueeze(f.b, kilnTestArg(&f, 1),
                                                ints(&f, mid, 1)));
  kilnTestShow("unknown_axes", kilnGraphBuildSqueeze(f.b, kilnTestArg(&f, 1),
                                                     kilnTestArg(&f, 2)));
  kilnTestShow(
      "negative_not_one",
      kilnGraphBuildSqueeze(f.b, kilnTestArg(&f, 0), ints(&f, mid, 1)));
  kilnTestShow("negative_unknown_rank",
               kilnGraphBuildSqueeze(f.b, kilnTestArg(&f, 1), kNone));
  kilnTestShow("unsqueeze", kilnGraphBuildUnsqueeze(f.b, kilnTestArg(&f, 1),
                                                    ints(&f, pair, 2)));
  kilnTestShow(
      "unsqueeze_unknown",
      kilnGraphBuildUnsqueeze(f.b, kilnTestArg(&f, 1), kilnTestArg(&f, 2)));
  kilnTestShow("negative_unsqueeze_repeated",
               kilnGraphBuildUnsqueeze(f.b, kilnTestArg(&f, 0),
                                       ints(&f, (int64_t[]){0, -5}, 2)));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testExpandTile(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "expand_tile",
                                    "%x: tensor<3x1xf32>, %s: tensor<3xi64>, "
                                    "%y: tensor<2x?xf32>",
                                    NULL);
  const int64_t shape[3] = {2, 1, 6}, bad[2] = {4, 1}, reps[2] = {3, 2};
  const int64_t negReps[2] = {1, -1};
  kilnTestShow("expand", kilnGraphBuildExpand(f.b, kilnTestArg(&f, 0),
                                              ints(&f, shape, 3)));
  kilnTestShow("expand_unknown", kilnGraphBuildExpand(f.b, kilnTestArg(&f, 0),
                                                      kilnTestArg(&f, 1)));
  kilnTestShow("negative_expand",
               kilnGraphBuildExpand(f.b, kilnTestArg(&f, 0), ints(&f, bad, 2)));
  kilnTestShow("tile",
               kilnGraphBuildTile(f.b, kilnTestArg(&f, 2), ints(&f, reps, 2)));
  kilnTestShow("negative_tile_length",
               kilnGraphBuildTile(f.b, kilnTestArg(&f, 2), ints(&f, shape, 3)));
  kilnTestShow(
      "negative_tile_value",
      kilnGraphBuildTile(f.b, kilnTestArg(&f, 2), ints(&f, negReps, 2)));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static MlirValue scalarF32(const KilnTestFixture *f, float v) {
  MlirType t = mlirRankedTensorTypeGet(0, NULL, mlirF32TypeGet(f->ctx),
                                       mlirAttributeGetNull());
  return kilnGraphBuildConstant(f->b, mlirDenseElementsAttrFloatSplatGet(t, v));
}

static MlirValue scalarI64(const KilnTestFixture *f, int64_t v) {
  MlirType t = mlirRankedTensorTypeGet(0, NULL, mlirIntegerTypeGet(f->ctx, 64),
                                       mlirAttributeGetNull());
  return kilnGraphBuildConstant(f->b, mlirDenseElementsAttrInt64SplatGet(t, v));
}

static void testRange(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "range", "%a: tensor<i32>, %v: tensor<2xi64>", NULL);
  kilnTestShow("ints",
               kilnGraphBuildRange(f.b, scalarI64(&f, 10), scalarI64(&f, 0),
                                   scalarI64(&f, -3)));
  kilnTestShow("floats",
               kilnGraphBuildRange(f.b, scalarF32(&f, 0.5f),
                                   scalarF32(&f, 2.0f), scalarF32(&f, 0.5f)));
  kilnTestShow("empty",
               kilnGraphBuildRange(f.b, scalarI64(&f, 0), scalarI64(&f, 5),
                                   scalarI64(&f, -1)));
  kilnTestShow("unknown",
               kilnGraphBuildRange(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 0),
                                   kilnTestArg(&f, 0)));
  kilnTestShow("negative_zero_delta",
               kilnGraphBuildRange(f.b, scalarI64(&f, 0), scalarI64(&f, 5),
                                   scalarI64(&f, 0)));
  kilnTestShow("negative_mixed",
               kilnGraphBuildRange(f.b, scalarI64(&f, 0), kilnTestArg(&f, 0),
                                   scalarI64(&f, 1)));
  kilnTestShow("negative_not_scalar",
               kilnGraphBuildRange(f.b, kilnTestArg(&f, 1), kilnTestArg(&f, 1),
                                   kilnTestArg(&f, 1)));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testPad(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "pad",
                                    "%x: tensor<1x3x?xf32>, %v: tensor<f32>, "
                                    "%p: tensor<6xi64>, %i: tensor<i32>",
                                    NULL);
  const int64_t pads[6] = {0, 1, 2, 0, -1, 3}, two[2] = {1, 2};
  const int64_t axis[1] = {-2}, crop[2] = {-2, -2};
  kilnTestShow("all_axes",
               kilnGraphBuildPad(f.b, kilnTestArg(&f, 0), ints(&f, pads, 6),
                                 kNone, kNone, NULL));
  kilnTestShow("axes", kilnGraphBuildPad(f.b, kilnTestArg(&f, 0),
                                         ints(&f, two, 2), kilnTestArg(&f, 1),
                                         ints(&f, axis, 1), "reflect"));
  kilnTestShow("unknown_pads",
               kilnGraphBuildPad(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 2),
                                 kNone, kNone, "edge"));
  kilnTestShow("negative_mode",
               kilnGraphBuildPad(f.b, kilnTestArg(&f, 0), ints(&f, pads, 6),
                                 kNone, kNone, "mirror"));
  kilnTestShow("negative_length",
               kilnGraphBuildPad(f.b, kilnTestArg(&f, 0), ints(&f, two, 2),
                                 kNone, kNone, NULL));
  kilnTestShow("negative_crop",
               kilnGraphBuildPad(f.b, kilnTestArg(&f, 0), ints(&f, crop, 2),
                                 kNone, ints(&f, axis, 1), NULL));
  kilnTestShow("negative_value_type",
               kilnGraphBuildPad(f.b, kilnTestArg(&f, 0), ints(&f, pads, 6),
                                 kilnTestArg(&f, 3), kNone, NULL));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testDepthSpace(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "depth_space",
                    "%x: tensor<1x8x2x?xf32>, %y: tensor<1x3x4x6xf32>", NULL);
  kilnTestShow("d2s",
               kilnGraphBuildDepthToSpace(f.b, kilnTestArg(&f, 0), 2, "CRD"));
  kilnTestShow("s2d", kilnGraphBuildSpaceToDepth(f.b, kilnTestArg(&f, 1), 2));
  kilnTestShow("negative_channels",
               kilnGraphBuildDepthToSpace(f.b, kilnTestArg(&f, 1), 2, NULL));
  kilnTestShow("negative_mode",
               kilnGraphBuildDepthToSpace(f.b, kilnTestArg(&f, 0), 2, "DRC"));
  kilnTestShow("negative_blocksize",
               kilnGraphBuildSpaceToDepth(f.b, kilnTestArg(&f, 1), 0));
  kilnTestShow("negative_spatial",
               kilnGraphBuildSpaceToDepth(f.b, kilnTestArg(&f, 1), 4));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testGatherScatterElements(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "gather_scatter_elements",
                                    "%x: tensor<3x4xf32>, %i: tensor<3x?xi32>, "
                                    "%u: tensor<3x2xf32>, %v: tensor<2x2xf32>",
                                    NULL);
  MlirValue x = kilnTestArg(&f, 0), i = kilnTestArg(&f, 1);
  const int64_t far[2] = {0, 5};
  kilnTestShow("gather", kilnGraphBuildGatherElements(f.b, x, i, -1));
  kilnTestShow("scatter", kilnGraphBuildScatterElements(
                              f.b, x, i, kilnTestArg(&f, 2), 1, "mul"));
  kilnTestShow("scatter_default", kilnGraphBuildScatterElements(
                                      f.b, x, i, kilnTestArg(&f, 2), 0, NULL));
  kilnTestShow("negative_gather_rank",
               kilnGraphBuildGatherElements(f.b, x, ints(&f, far, 2), 1));
  kilnTestShow(
      "negative_scatter_updates",
      kilnGraphBuildScatterElements(f.b, x, i, kilnTestArg(&f, 3), 0, NULL));
  kilnTestShow(
      "negative_scatter_reduction",
      kilnGraphBuildScatterElements(f.b, x, i, kilnTestArg(&f, 2), 0, "sum"));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testGatherScatterND(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "gather_scatter_nd",
                    "%x: tensor<2x3x4xf32>, %i: tensor<5x2xi64>, "
                    "%j: tensor<2x1xi64>, %k: tensor<5x?xi64>, "
                    "%u: tensor<5x4xf32>",
                    NULL);
  MlirValue x = kilnTestArg(&f, 0);
  kilnTestShow("gather", kilnGraphBuildGatherND(f.b, x, kilnTestArg(&f, 1), 0));
  kilnTestShow("gather_batch",
               kilnGraphBuildGatherND(f.b, x, kilnTestArg(&f, 2), 1));
  kilnTestShow("scatter", kilnGraphBuildScatterND(f.b, x, kilnTestArg(&f, 1),
                                                  kilnTestArg(&f, 4), "add"));
  kilnTestShow("negative_unknown_rank",
               kilnGraphBuildGatherND(f.b, x, kilnTestArg(&f, 3), 0));
  kilnTestShow("negative_batch_dims",
               kilnGraphBuildGatherND(f.b, x, kilnTestArg(&f, 2), 2));
  kilnTestShow("negative_scatter_updates",
               kilnGraphBuildScatterND(f.b, x, kilnTestArg(&f, 2),
                                       kilnTestArg(&f, 4), NULL));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testTriluEyeLike(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "trilu_eye_like",
                    "%x: tensor<2x?x4xi64>, %m: tensor<3x4xi32>", NULL);
  MlirValue x = kilnTestArg(&f, 0), m = kilnTestArg(&f, 1);
  kilnTestShow("trilu", kilnGraphBuildTrilu(f.b, x, kNone, true));
  kilnTestShow("tril_k", kilnGraphBuildTrilu(f.b, x, scalarI64(&f, -1), false));
  kilnTestShow("negative_trilu_k",
               kilnGraphBuildTrilu(f.b, x, scalarF32(&f, 1.0f), true));
  kilnTestShow("eye_like", kilnGraphBuildEyeLike(f.b, m, 0, (MlirType){NULL}));
  kilnTestShow("eye_like_f64",
               kilnGraphBuildEyeLike(f.b, m, 1, mlirF64TypeGet(ctx)));
  kilnTestShow("negative_eye_like_rank",
               kilnGraphBuildEyeLike(f.b, x, 0, (MlirType){NULL}));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testConstantOfShapeSize(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "constant_of_shape_size",
                    "%s: tensor<3xi64>, %d: tensor<?xi64>", NULL);
  const int64_t shape[2] = {4, 0}, neg[1] = {-2};
  MlirType one = mlirRankedTensorTypeGet(1, (const int64_t[]){1},
                                         mlirIntegerTypeGet(ctx, 32),
                                         mlirAttributeGetNull());
  MlirAttribute seven = mlirDenseElementsAttrInt32SplatGet(one, 7);
  kilnTestShow("constant_shape",
               kilnGraphBuildConstantOfShape(f.b, ints(&f, shape, 2), seven));
  kilnTestShow("unknown_shape",
               kilnGraphBuildConstantOfShape(f.b, kilnTestArg(&f, 0),
                                             mlirAttributeGetNull()));
  kilnTestShow("negative_dim",
               kilnGraphBuildConstantOfShape(f.b, ints(&f, neg, 1),
                                             mlirAttributeGetNull()));
  kilnTestShow("negative_unknown_rank",
               kilnGraphBuildConstantOfShape(f.b, kilnTestArg(&f, 1),
                                             mlirAttributeGetNull()));
  kilnTestShow("size", kilnGraphBuildSize(f.b, kilnTestArg(&f, 1)));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testOneHotReverseSequence(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(ctx, "one_hot_reverse_sequence",
                                    "%i: tensor<2x3xi64>, %d: tensor<1xi64>, "
                                    "%v: tensor<2xf16>, %x: tensor<4x5xf32>, "
                                    "%l: tensor<5xi64>",
                                    NULL);
  MlirValue i = kilnTestArg(&f, 0), v = kilnTestArg(&f, 2);
  kilnTestShow("one_hot",
               kilnGraphBuildOneHot(f.b, i, scalarF32(&f, 10.0f), v, -1));
  kilnTestShow("one_hot_axis0",
               kilnGraphBuildOneHot(f.b, i, kilnTestArg(&f, 1), v, 0));
  kilnTestShow("negative_one_hot_axis",
               kilnGraphBuildOneHot(f.b, i, kilnTestArg(&f, 1), v, -4));
  kilnTestShow("reverse_sequence",
               kilnGraphBuildReverseSequence(f.b, kilnTestArg(&f, 3),
                                             kilnTestArg(&f, 4), 1, 0));
  kilnTestShow("negative_reverse_sequence_lens",
               kilnGraphBuildReverseSequence(f.b, kilnTestArg(&f, 3),
                                             kilnTestArg(&f, 4), 0, 1));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

static void testDataDependent(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "data_dependent",
                    "%x: tensor<2x?x3xf32>, %c: tensor<4xi1>, "
                    "%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, "
                    "%t: tensor<f32>",
                    NULL);
  MlirValue x = kilnTestArg(&f, 0);
  const int64_t axis = 1;
  kilnTestShow("non_zero", kilnGraphBuildNonZero(f.b, x));
  kilnTestShow("compress",
               kilnGraphBuildCompress(f.b, x, kilnTestArg(&f, 1), NULL));
  kilnTestShow("compress_axis",
               kilnGraphBuildCompress(f.b, x, kilnTestArg(&f, 1), &axis));
  showOp("unique", kilnGraphBuildUnique(f.b, x, NULL, true, 4));
  showOp("unique_axis", kilnGraphBuildUnique(f.b, x, &axis, false, 3));
  showOp("negative_unique_results",
         kilnGraphBuildUnique(f.b, x, NULL, true, 5));
  kilnTestShow("nms", kilnGraphBuildNonMaxSuppression(
                          f.b, kilnTestArg(&f, 2), kilnTestArg(&f, 3), kNone,
                          kilnTestArg(&f, 4), kNone, 1));
  kilnTestShow("negative_nms_swapped",
               kilnGraphBuildNonMaxSuppression(f.b, kilnTestArg(&f, 3),
                                               kilnTestArg(&f, 2), kNone, kNone,
                                               kNone, 0));
  kilnTestEnd(&f, KILN_TEST_PRINT_MODULE);
}

int main(void) {
  MlirContext ctx = kilnTestContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  testConstant(ctx);
  testIdentityShape(ctx);
  testReshape(ctx);
  testFlattenTranspose(ctx);
  testConcat(ctx);
  testConcatN(ctx);
  testSplit(ctx);
  testSlice(ctx);
  testGather(ctx);
  testSqueeze(ctx);
  testExpandTile(ctx);
  testRange(ctx);
  testPad(ctx);
  testDepthSpace(ctx);
  testGatherScatterElements(ctx);
  testGatherScatterND(ctx);
  testTriluEyeLike(ctx);
  testConstantOfShapeSize(ctx);
  testOneHotReverseSequence(ctx);
  testDataDependent(ctx);
  kilnTestContextDestroy(ctx);
  return 0;
}

/* Unit tests for the nn family's typed builders (checked by FileCheck
 * through builders-nn.test).
 *
 * Each test parses a function whose arguments (and optional graph.constant
 * ops) are the operands, builds ops into it with the typed builders, prints
 * each result type ("null" for a failed build), verifies the module and
 * prints it (builder_test_support.h). A diagnostic handler prints every
 * diagnostic with its location, so error cases show their message; the op
 * count shows that a failed build inserts nothing. */
#include <stdio.h>

#include "builder_test_support.h"
#include "kiln/graph_nn.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

/* The first result of the k-th op of the parsed body (a graph.constant). */
static MlirValue constant(const KilnTestFixture *f, int k) {
  MlirOperation op = mlirBlockGetFirstOperation(f->body);
  for (int i = 0; i < k; ++i)
    op = mlirOperationGetNextInBlock(op);
  return mlirOperationGetResult(op, 0);
}

static const MlirValue kNone = {NULL};

static void testConv(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "conv",
                    "%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, "
                    "%b: tensor<4xf32>, %xd: tensor<?x3x?x8xf32>",
                    "");
  /* NULL options and a zero-initialized struct both set no attributes. */
  kilnTestShow("plain", kilnGraphBuildConv(f.b, kilnTestArg(&f, 0),
                                           kilnTestArg(&f, 1), kNone, NULL));
  KilnGraphConvOptions none = {0};
  kilnTestShow("zero_options",
               kilnGraphBuildConv(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                  kilnTestArg(&f, 2), &none));
  int64_t strides[] = {2, 2}, pads[] = {1, 1, 1, 1}, dil[] = {2, 1};
  KilnGraphConvOptions o = {.strides = strides,
                            .numStrides = 2,
                            .pads = pads,
                            .numPads = 4,
                            .dilations = dil,
                            .numDilations = 2};
  kilnTestShow("strided", kilnGraphBuildConv(f.b, kilnTestArg(&f, 0),
                                             kilnTestArg(&f, 1), kNone, &o));
  KilnGraphConvOptions same = {
      .autoPad = "SAME_UPPER", .strides = strides, .numStrides = 2};
  kilnTestShow("same_dynamic",
               kilnGraphBuildConv(f.b, kilnTestArg(&f, 3), kilnTestArg(&f, 1),
                                  kNone, &same));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testConvTranspose(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "conv_transpose",
                    "%x: tensor<1x4x3x3xf32>, %w: tensor<4x1x3x3xf32>, "
                    "%b: tensor<2xf32>",
                    "");
  int64_t strides[] = {2, 2}, outPad[] = {1, 0}, outShape[] = {9, 8};
  KilnGraphConvOptions o = {.group = 2,
                            .strides = strides,
                            .numStrides = 2,
                            .outputPadding = outPad,
                            .numOutputPadding = 2};
  kilnTestShow("grouped", kilnGraphBuildConvTranspose(f.b, kilnTestArg(&f, 0),
                                                      kilnTestArg(&f, 1),
                                                      kilnTestArg(&f, 2), &o));
  KilnGraphConvOptions shaped = {
      .group = 2, .outputShape = outShape, .numOutputShape = 2};
  kilnTestShow("output_shape",
               kilnGraphBuildConvTranspose(f.b, kilnTestArg(&f, 0),
                                           kilnTestArg(&f, 1), kNone, &shaped));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testPool(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "pool", "%x: tensor<1x3x7x7xf32>, %q: tensor<2x4x6xi8>", "");
  int64_t k2[] = {2, 2}, s2[] = {2, 2}, k3[] = {3};
  KilnGraphPoolOptions ceil = {.ceilMode = 1, .strides = s2, .numStrides = 2};
  MlirValue indices;
  kilnTestShow("max_pool", kilnGraphBuildMaxPool(f.b, kilnTestArg(&f, 0), k2, 2,
                                                 &ceil, &indices));
  kilnTestShow("max_pool_indices", indices);
  kilnTestShow("max_pool_i8", kilnGraphBuildMaxPool(f.b, kilnTestArg(&f, 1), k3,
                                                    1, NULL, NULL));
  int64_t pads[] = {1, 1, 1, 1};
  KilnGraphPoolOptions avg = {.countIncludePad = 1, .pads = pads, .numPads = 4};
  kilnTestShow("average_pool",
               kilnGraphBuildAveragePool(f.b, kilnTestArg(&f, 0),
                                         (int64_t[]){3, 3}, 2, &avg));
  kilnTestShow("global_average_pool",
               kilnGraphBuildGlobalAveragePool(f.b, kilnTestArg(&f, 0)));
  kilnTestShow("global_max_pool",
               kilnGraphBuildGlobalMaxPool(f.b, kilnTestArg(&f, 0)));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testNormalization(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "normalization",
                    "%x: tensor<2x3x4x5xf32>, %c: tensor<3xf32>, "
                    "%l: tensor<4x5xf32>, %xd: tensor<?x?x5xf16>, "
                    "%s: tensor<5xf16>",
                    "");
  kilnTestShow("batch_norm", kilnGraphBuildBatchNormalization(
                                 f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                 kilnTestArg(&f, 1), kilnTestArg(&f, 1),
                                 kilnTestArg(&f, 1), 1e-5f, 0.9f));
  kilnTestShow("instance_norm", kilnGraphBuildInstanceNormalization(
                                    f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                    kilnTestArg(&f, 1), 1e-5f));
  kilnTestShow("layer_norm", kilnGraphBuildLayerNormalization(
                                 f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 2),
                                 kilnTestArg(&f, 2), -2, 1e-5f, 1));
  kilnTestShow("layer_norm_no_bias",
               kilnGraphBuildLayerNormalization(f.b, kilnTestArg(&f, 3),
                                                kilnTestArg(&f, 4), kNone, -1,
                                                1e-5f, 1));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testResize(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "resize", "%x: tensor<1x3x4x8xf32>, %n: tensor<2xi64>",
      "%s = \"graph.constant\"() {value = dense<[2.0, 0.5]> : tensor<2xf32>} "
      ": () -> tensor<2xf32>\n"
      "%z = \"graph.constant\"() {value = dense<[6, 6]> : tensor<2xi64>} : "
      "() -> tensor<2xi64>");
  int64_t axes[] = {2, 3};
  float a = -0.5f;
  KilnGraphResizeOptions o = {
      .mode = "cubic", .axes = axes, .numAxes = 2, .cubicCoeffA = &a};
  kilnTestShow("scales", kilnGraphBuildResize(f.b, kilnTestArg(&f, 0), kNone,
                                              constant(&f, 0), kNone, &o));
  KilnGraphResizeOptions fit = {
      .axes = axes, .numAxes = 2, .keepAspectRatioPolicy = "not_larger"};
  kilnTestShow("sizes_not_larger",
               kilnGraphBuildResize(f.b, kilnTestArg(&f, 0), kNone, kNone,
                                    constant(&f, 1), &fit));
  kilnTestShow("sizes_dynamic",
               kilnGraphBuildResize(f.b, kilnTestArg(&f, 0), kNone, kNone,
                                    kilnTestArg(&f, 1), &fit));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

/* Each rejected build returns null, reports one diagnostic at the builder's
 * location and inserts nothing. */
static void testErrors(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "errors",
                    "%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>, "
                    "%s: tensor<4xf32>, %v: tensor<4x3x3x3xf32>, "
                    "%q: tensor<1x3x8x8xi8>",
                    "");
  kilnTestShow("conv_channels",
               kilnGraphBuildConv(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                  kNone, NULL));
  KilnGraphConvOptions bad = {.autoPad = "SAME"};
  kilnTestShow("conv_auto_pad",
               kilnGraphBuildConv(f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 3),
                                  kNone, &bad));
  MlirValue indices = kilnTestArg(&f, 0);
  kilnTestShow(
      "max_pool_no_kernel",
      kilnGraphBuildMaxPool(f.b, kilnTestArg(&f, 0), NULL, 0, NULL, &indices));
  kilnTestShow("max_pool_no_kernel_indices", indices);
  KilnGraphPoolOptions order = {.storageOrder = 1};
  kilnTestShow("average_pool_storage_order",
               kilnGraphBuildAveragePool(f.b, kilnTestArg(&f, 0),
                                         (int64_t[]){2, 2}, 2, &order));
  /* The generic entry point lets a caller ask for too many results. */
  MlirNamedAttribute k =
      kilnGraphAttrInts(f.b, "kernel_shape", (int64_t[]){2, 2}, 2);
  MlirValue x = kilnTestArg(&f, 0);
  MlirOperation three =
      kilnGraphBuilderCreateOp(f.b, "max_pool", &x, 1, &k, 1, 3);
  fprintf(stderr, "max_pool_three_results: %s\n",
          mlirOperationIsNull(three) ? "null" : "built");
  kilnTestShow("global_max_pool_i8",
               kilnGraphBuildGlobalMaxPool(f.b, kilnTestArg(&f, 4)));
  kilnTestShow(
      "resize_neither",
      kilnGraphBuildResize(f.b, kilnTestArg(&f, 0), kNone, kNone, kNone, NULL));
  kilnTestShow("batch_norm_missing_mean",
               kilnGraphBuildBatchNormalization(
                   f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 2),
                   kilnTestArg(&f, 2), kNone, kilnTestArg(&f, 2), 1e-5f, 0.9f));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS);
}

int main(void) {
  MlirContext ctx = kilnTestContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  testConv(ctx);
  testConvTranspose(ctx);
  testPool(ctx);
  testNormalization(ctx);
  testResize(ctx);
  testErrors(ctx);
  kilnTestContextDestroy(ctx);
  return 0;
}

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
                                 kilnTestArg(&f, 1), 1e-5f, 0.9f, NULL, NULL));
  kilnTestShow("instance_norm", kilnGraphBuildInstanceNormalization(
                                    f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                                    kilnTestArg(&f, 1), 1e-5f));
  kilnTestShow("layer_norm", kilnGraphBuildLayerNormalization(
                                 f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 2),
                                 kilnTestArg(&f, 2), -2, 1e-5f, 1, NULL, NULL));
  kilnTestShow("layer_norm_no_bias",
               kilnGraphBuildLayerNormalization(f.b, kilnTestArg(&f, 3),
                                                kilnTestArg(&f, 4), kNone, -1,
                                                1e-5f, 1, NULL, NULL));
  /* The statistics results: training-mode batch_norm and layer_norm's
   * mean/inv_std_dev (x's dims before axis, then 1s, stash type f64). */
  MlirValue runMean, runVar, mean, invStd;
  kilnTestShow("batch_norm_training",
               kilnGraphBuildBatchNormalization(
                   f.b, kilnTestArg(&f, 0), kilnTestArg(&f, 1),
                   kilnTestArg(&f, 1), kilnTestArg(&f, 1), kilnTestArg(&f, 1),
                   1e-5f, 0.9f, &runMean, &runVar));
  kilnTestShow("running_mean", runMean);
  kilnTestShow("running_var", runVar);
  kilnTestShow("layer_norm_stats",
               kilnGraphBuildLayerNormalization(f.b, kilnTestArg(&f, 0),
                                                kilnTestArg(&f, 2), kNone, 2,
                                                1e-5f, 11, &mean, &invStd));
  kilnTestShow("mean", mean);
  kilnTestShow("inv_std_dev", invStd);
  kilnTestShow(
      "lrn", kilnGraphBuildLrn(f.b, kilnTestArg(&f, 0), 3, 1e-4f, 0.75f, 1.0f));
  kilnTestShow("mvn", kilnGraphBuildMeanVarianceNormalization(
                          f.b, kilnTestArg(&f, 0), NULL, 0));
  kilnTestShow("mvn_axes", kilnGraphBuildMeanVarianceNormalization(
                               f.b, kilnTestArg(&f, 3), (int64_t[]){-1}, 1));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testRecurrent(MlirContext ctx) {
  KilnTestFixture f = kilnTestBegin(
      ctx, "recurrent",
      "%x: tensor<7x2x3xf32>, %w1: tensor<1x5x3xf32>, %r1: tensor<1x5x5xf32>, "
      "%w3: tensor<2x15x3xf32>, %r3: tensor<2x15x5xf32>, "
      "%b3: tensor<2x30xf32>, %w4: tensor<1x20x3xf32>, "
      "%r4: tensor<1x20x5xf32>, %len: tensor<2xi32>, "
      "%h: tensor<1x2x5xf32>, %p: tensor<1x15xf32>, %xd: tensor<?x2x3xf32>",
      "");
  MlirValue yH, yC;
  KilnGraphRecurrentInputs rnn = {.x = kilnTestArg(&f, 0),
                                  .w = kilnTestArg(&f, 1),
                                  .r = kilnTestArg(&f, 2)};
  kilnTestShow("rnn", kilnGraphBuildRnn(f.b, &rnn, NULL, &yH));
  kilnTestShow("rnn_y_h", yH);
  const char *const acts[] = {"Sigmoid", "Tanh", "Relu", "Tanh"};
  float alpha[] = {0.5f};
  KilnGraphRecurrentOptions bi = {.direction = "bidirectional",
                                  .hiddenSize = 5,
                                  .activations = acts,
                                  .numActivations = 4,
                                  .activationAlpha = alpha,
                                  .numActivationAlpha = 1,
                                  .linearBeforeReset = 1};
  KilnGraphRecurrentInputs gru = {.x = kilnTestArg(&f, 11),
                                  .w = kilnTestArg(&f, 3),
                                  .r = kilnTestArg(&f, 4),
                                  .b = kilnTestArg(&f, 5)};
  kilnTestShow("gru_bidirectional", kilnGraphBuildGru(f.b, &gru, &bi, &yH));
  kilnTestShow("gru_y_h", yH);
  /* Batch-major: x is read as batch 7 x seq 2. */
  float clip = 3.0f;
  KilnGraphRecurrentOptions major = {
      .layout = 1, .clip = &clip, .inputForget = 1};
  KilnGraphRecurrentInputs lstm = {.x = kilnTestArg(&f, 0),
                                   .w = kilnTestArg(&f, 6),
                                   .r = kilnTestArg(&f, 7),
                                   .p = kilnTestArg(&f, 10)};
  kilnTestShow("lstm_batch_major",
               kilnGraphBuildLstm(f.b, &lstm, &major, &yH, &yC));
  kilnTestShow("lstm_y_h", yH);
  kilnTestShow("lstm_y_c", yC);
  KilnGraphRecurrentInputs seq = {.x = kilnTestArg(&f, 0),
                                  .w = kilnTestArg(&f, 6),
                                  .r = kilnTestArg(&f, 7),
                                  .sequenceLens = kilnTestArg(&f, 8),
                                  .initialH = kilnTestArg(&f, 9)};
  kilnTestShow("lstm_seq", kilnGraphBuildLstm(f.b, &seq, NULL, NULL, NULL));
  kilnTestEnd(&f, KILN_TEST_PRINT_OPS | KILN_TEST_PRINT_MODULE);
}

static void testSampling(MlirContext ctx) {
  KilnTestFixture f =
      kilnTestBegin(ctx, "sampling",
                    "%x: tensor<1x3x4x4xf32>, %i: tensor<1x3x4x4xi64>, "
                    "%g: tensor<1x6x5x2xf32>, %rois: tensor<7x4xf32>, "
                    "%bi: tensor<7xi64>, %s: tensor<4xi64>",
                    "%o = \"graph.constant\"() {value = dense<[1, 3, 9, 10]> : "
                    "tensor<4xi64>} : () -> tensor<4xi64>");
  int64_t k[] = {2, 2}, strides[] = {2, 2}, pads[] = {0, 1, 0, 0};
  KilnGraphPoolOptions o = {
      .strides = strides, .numStrides = 2, .pads = pads, .numPads = 4};
  kilnTestShow("max_unpool",
               kilnGraphBuildMaxUnpool(f.b, kilnTestArg(&f, 0),
                                       kilnTestArg(&f, 1), kNone, k, 2, &o));
  kilnTestShow("max_unpool_shape",
               kilnGraphBuildMaxUnpool(f.b, kilnTestArg(&f, 0),
                                       kilnTestArg(&f, 1), constant(&f, 0), k,
                                       2, &o));
  kilnTestShow("max_unpool_dynamic",
               kilnGraphBuildMaxUnpool(f.b, kilnTestArg(&f, 0),
                                       kilnTestArg(&f, 1), kilnTestArg(&f, 5),
                                       k, 2, &o));
  kilnTestShow("grid_sample", kilnGraphBuildGridSample(f.b, kilnTestArg(&f, 0),
                                                       kilnTestArg(&f, 2),
                                                       "bicubic", "border", 1));
  float scale = 0.25f;
  KilnGraphRoiAlignOptions ro = {.mode = "max",
                                 .outputHeight = 2,
                                 .outputWidth = 3,
                                 .samplingRatio = 2,
                                 .spatialScale = &scale};
  kilnTestShow("roi_align", kilnGraphBuildRoiAlign(f.b, kilnTestArg(&f, 0),
                                                   kilnTestArg(&f, 3),
                                                   kilnTestArg(&f, 4), &ro));
  kilnTestShow("roi_align_defaults",
               kilnGraphBuildRoiAlign(f.b, kilnTestArg(&f, 0),
                                      kilnTestArg(&f, 3), kilnTestArg(&f, 4),
                                      NULL));
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
                    "%q: tensor<1x3x8x8xi8>, %rx: tensor<1x2x3xf32>, "
                    "%rw: tensor<1x4x3xf32>",
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
                   kilnTestArg(&f, 2), kNone, kilnTestArg(&f, 2), 1e-5f, 0.9f,
                   NULL, NULL));
  MlirValue yH = kilnTestArg(&f, 0);
  KilnGraphRecurrentInputs rnn = {.x = kilnTestArg(&f, 2),
                                  .w = kilnTestArg(&f, 1),
                                  .r = kilnTestArg(&f, 1)};
  kilnTestShow("rnn_rank", kilnGraphBuildRnn(f.b, &rnn, NULL, &yH));
  kilnTestShow("rnn_rank_y_h", yH);
  KilnGraphRecurrentInputs withC = {.x = kilnTestArg(&f, 5),
                                    .w = kilnTestArg(&f, 6),
                                    .r = kilnTestArg(&f, 6),
                                    .initialC = kilnTestArg(&f, 6)};
  kilnTestShow("gru_initial_c", kilnGraphBuildGru(f.b, &withC, NULL, NULL));
  const char *const one[] = {"Sigmoid"};
  KilnGraphRecurrentOptions acts = {.activations = one, .numActivations = 1};
  KilnGraphRecurrentInputs lstm = {.x = kilnTestArg(&f, 5),
                                   .w = kilnTestArg(&f, 6),
                                   .r = kilnTestArg(&f, 6)};
  kilnTestShow("lstm_activations",
               kilnGraphBuildLstm(f.b, &lstm, &acts, NULL, NULL));
  KilnGraphPoolOptions unpoolAutoPad = {.autoPad = "VALID"};
  kilnTestShow("max_unpool_auto_pad",
               kilnGraphBuildMaxUnpool(f.b, kilnTestArg(&f, 0),
                                       kilnTestArg(&f, 0), kNone,
                                       (int64_t[]){2, 2}, 2, &unpoolAutoPad));
  kilnTestShow("roi_align_rois",
               kilnGraphBuildRoiAlign(f.b, kilnTestArg(&f, 0),
                                      kilnTestArg(&f, 3), kilnTestArg(&f, 2),
                                      NULL));
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
  testRecurrent(ctx);
  testSampling(ctx);
  testErrors(ctx);
  kilnTestContextDestroy(ctx);
  return 0;
}

/* Unit tests for the nn family's typed builders (checked by FileCheck
 * through builders-nn.test).
 *
 * Each test parses a function whose arguments (and optional graph.constant
 * ops) are the operands, builds ops into it with the typed builders, prints
 * each result type ("null" for a failed build), verifies the module and
 * prints it. A diagnostic handler prints every diagnostic with its location,
 * so error cases show their message; the op count shows that a failed build
 * inserts nothing. */
#include <stdio.h>

#include "kiln/graph_nn.h"
#include "kiln/kiln.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

static void printToStderr(MlirStringRef s, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s", (int)s.length, s.data);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  fprintf(stderr, "diagnostic: ");
  mlirLocationPrint(mlirDiagnosticGetLocation(d), printToStderr, NULL);
  fprintf(stderr, ": ");
  mlirDiagnosticPrint(d, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

typedef struct Fixture {
  MlirContext ctx;
  MlirModule module;
  MlirBlock body;
  KilnGraphBuilder *b;
} Fixture;

/* Parses `func.func @<name>(<args>) { <body> return }` and points a builder
 * before the return, at location model.onnx:3:1. */
static Fixture begin(MlirContext ctx, const char *name, const char *args,
                     const char *body) {
  fprintf(stderr, "TEST: %s\n", name);
  char text[2048];
  snprintf(text, sizeof(text), "func.func @%s(%s) {\n%s\nfunc.return }", name,
           args, body);
  Fixture f = {ctx, {NULL}, {NULL}, NULL};
  f.module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(f.module));
  f.body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirLocation loc = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString("model.onnx"), 3, 1);
  f.b = kilnGraphBuilderCreate(ctx, f.body, loc);
  kilnGraphBuilderSetInsertionPointBefore(f.b, mlirBlockGetTerminator(f.body));
  return f;
}

static MlirValue arg(const Fixture *f, intptr_t i) {
  return mlirBlockGetArgument(f->body, i);
}

/* The first result of the k-th op of the parsed body (a graph.constant). */
static MlirValue constant(const Fixture *f, int k) {
  MlirOperation op = mlirBlockGetFirstOperation(f->body);
  for (int i = 0; i < k; ++i)
    op = mlirOperationGetNextInBlock(op);
  return mlirOperationGetResult(op, 0);
}

static const MlirValue kNone = {NULL};

/* Prints "<label>: <type>" or "<label>: null". */
static void show(const char *label, MlirValue v) {
  fprintf(stderr, "%s: ", label);
  if (mlirValueIsNull(v))
    fprintf(stderr, "null");
  else
    mlirTypePrint(mlirValueGetType(v), printToStderr, NULL);
  fprintf(stderr, "\n");
}

static intptr_t countOps(MlirBlock block) {
  intptr_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ++n;
  return n;
}

/* Verifies and prints the module, then releases the fixture. */
static void end(Fixture *f, int printModule) {
  MlirOperation m = mlirModuleGetOperation(f->module);
  fprintf(stderr, "ops: %ld\n", (long)countOps(f->body));
  fprintf(stderr, "verify: %s\n",
          mlirOperationVerify(m) ? "success" : "failure");
  if (printModule) {
    mlirOperationPrint(m, printToStderr, NULL);
    fprintf(stderr, "\n");
  }
  kilnGraphBuilderDestroy(f->b);
  mlirModuleDestroy(f->module);
}

static void testConv(MlirContext ctx) {
  Fixture f = begin(ctx, "conv",
                    "%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, "
                    "%b: tensor<4xf32>, %xd: tensor<?x3x?x8xf32>",
                    "");
  /* NULL options and a zero-initialized struct both set no attributes. */
  show("plain", kilnGraphBuildConv(f.b, arg(&f, 0), arg(&f, 1), kNone, NULL));
  KilnGraphConvOptions none = {0};
  show("zero_options",
       kilnGraphBuildConv(f.b, arg(&f, 0), arg(&f, 1), arg(&f, 2), &none));
  int64_t strides[] = {2, 2}, pads[] = {1, 1, 1, 1}, dil[] = {2, 1};
  KilnGraphConvOptions o = {.strides = strides,
                            .numStrides = 2,
                            .pads = pads,
                            .numPads = 4,
                            .dilations = dil,
                            .numDilations = 2};
  show("strided", kilnGraphBuildConv(f.b, arg(&f, 0), arg(&f, 1), kNone, &o));
  KilnGraphConvOptions same = {
      .autoPad = "SAME_UPPER", .strides = strides, .numStrides = 2};
  show("same_dynamic",
       kilnGraphBuildConv(f.b, arg(&f, 3), arg(&f, 1), kNone, &same));
  end(&f, 1);
}

static void testConvTranspose(MlirContext ctx) {
  Fixture f = begin(ctx, "conv_transpose",
                    "%x: tensor<1x4x3x3xf32>, %w: tensor<4x1x3x3xf32>, "
                    "%b: tensor<2xf32>",
                    "");
  int64_t strides[] = {2, 2}, outPad[] = {1, 0}, outShape[] = {9, 8};
  KilnGraphConvOptions o = {.group = 2,
                            .strides = strides,
                            .numStrides = 2,
                            .outputPadding = outPad,
                            .numOutputPadding = 2};
  show("grouped", kilnGraphBuildConvTranspose(f.b, arg(&f, 0), arg(&f, 1),
                                              arg(&f, 2), &o));
  KilnGraphConvOptions shaped = {
      .group = 2, .outputShape = outShape, .numOutputShape = 2};
  show("output_shape", kilnGraphBuildConvTranspose(f.b, arg(&f, 0), arg(&f, 1),
                                                   kNone, &shaped));
  end(&f, 1);
}

static void testPool(MlirContext ctx) {
  Fixture f =
      begin(ctx, "pool", "%x: tensor<1x3x7x7xf32>, %q: tensor<2x4x6xi8>", "");
  int64_t k2[] = {2, 2}, s2[] = {2, 2}, k3[] = {3};
  KilnGraphPoolOptions ceil = {.ceilMode = 1, .strides = s2, .numStrides = 2};
  MlirValue indices;
  show("max_pool",
       kilnGraphBuildMaxPool(f.b, arg(&f, 0), k2, 2, &ceil, &indices));
  show("max_pool_indices", indices);
  show("max_pool_i8",
       kilnGraphBuildMaxPool(f.b, arg(&f, 1), k3, 1, NULL, NULL));
  int64_t pads[] = {1, 1, 1, 1};
  KilnGraphPoolOptions avg = {.countIncludePad = 1, .pads = pads, .numPads = 4};
  show("average_pool",
       kilnGraphBuildAveragePool(f.b, arg(&f, 0), (int64_t[]){3, 3}, 2, &avg));
  show("global_average_pool", kilnGraphBuildGlobalAveragePool(f.b, arg(&f, 0)));
  show("global_max_pool", kilnGraphBuildGlobalMaxPool(f.b, arg(&f, 0)));
  end(&f, 1);
}

static void testNormalization(MlirContext ctx) {
  Fixture f = begin(ctx, "normalization",
                    "%x: tensor<2x3x4x5xf32>, %c: tensor<3xf32>, "
                    "%l: tensor<4x5xf32>, %xd: tensor<?x?x5xf16>, "
                    "%s: tensor<5xf16>",
                    "");
  show("batch_norm",
       kilnGraphBuildBatchNormalization(f.b, arg(&f, 0), arg(&f, 1), arg(&f, 1),
                                        arg(&f, 1), arg(&f, 1), 1e-5f, 0.9f));
  show("instance_norm",
       kilnGraphBuildInstanceNormalization(f.b, arg(&f, 0), arg(&f, 1),
                                           arg(&f, 1), 1e-5f));
  show("layer_norm",
       kilnGraphBuildLayerNormalization(f.b, arg(&f, 0), arg(&f, 2), arg(&f, 2),
                                        -2, 1e-5f, 1));
  show("layer_norm_no_bias",
       kilnGraphBuildLayerNormalization(f.b, arg(&f, 3), arg(&f, 4), kNone, -1,
                                        1e-5f, 1));
  end(&f, 1);
}

static void testResize(MlirContext ctx) {
  Fixture f = begin(
      ctx, "resize", "%x: tensor<1x3x4x8xf32>, %n: tensor<2xi64>",
      "%s = \"graph.constant\"() {value = dense<[2.0, 0.5]> : tensor<2xf32>} "
      ": () -> tensor<2xf32>\n"
      "%z = \"graph.constant\"() {value = dense<[6, 6]> : tensor<2xi64>} : "
      "() -> tensor<2xi64>");
  int64_t axes[] = {2, 3};
  float a = -0.5f;
  KilnGraphResizeOptions o = {
      .mode = "cubic", .axes = axes, .numAxes = 2, .cubicCoeffA = &a};
  show("scales", kilnGraphBuildResize(f.b, arg(&f, 0), kNone, constant(&f, 0),
                                      kNone, &o));
  KilnGraphResizeOptions fit = {
      .axes = axes, .numAxes = 2, .keepAspectRatioPolicy = "not_larger"};
  show("sizes_not_larger", kilnGraphBuildResize(f.b, arg(&f, 0), kNone, kNone,
                                                constant(&f, 1), &fit));
  show("sizes_dynamic",
       kilnGraphBuildResize(f.b, arg(&f, 0), kNone, kNone, arg(&f, 1), &fit));
  end(&f, 1);
}

/* Each rejected build returns null, reports one diagnostic at the builder's
 * location and inserts nothing. */
static void testErrors(MlirContext ctx) {
  Fixture f = begin(ctx, "errors",
                    "%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>, "
                    "%s: tensor<4xf32>, %v: tensor<4x3x3x3xf32>, "
                    "%q: tensor<1x3x8x8xi8>",
                    "");
  show("conv_channels",
       kilnGraphBuildConv(f.b, arg(&f, 0), arg(&f, 1), kNone, NULL));
  KilnGraphConvOptions bad = {.autoPad = "SAME"};
  show("conv_auto_pad",
       kilnGraphBuildConv(f.b, arg(&f, 0), arg(&f, 3), kNone, &bad));
  MlirValue indices = arg(&f, 0);
  show("max_pool_no_kernel",
       kilnGraphBuildMaxPool(f.b, arg(&f, 0), NULL, 0, NULL, &indices));
  show("max_pool_no_kernel_indices", indices);
  KilnGraphPoolOptions order = {.storageOrder = 1};
  show(
      "average_pool_storage_order",
      kilnGraphBuildAveragePool(f.b, arg(&f, 0), (int64_t[]){2, 2}, 2, &order));
  /* The generic entry point lets a caller ask for too many results. */
  MlirNamedAttribute k =
      kilnGraphAttrInts(f.b, "kernel_shape", (int64_t[]){2, 2}, 2);
  MlirValue x = arg(&f, 0);
  MlirOperation three =
      kilnGraphBuilderCreateOp(f.b, "max_pool", &x, 1, &k, 1, 3);
  fprintf(stderr, "max_pool_three_results: %s\n",
          mlirOperationIsNull(three) ? "null" : "built");
  show("global_max_pool_i8", kilnGraphBuildGlobalMaxPool(f.b, arg(&f, 4)));
  show("resize_neither",
       kilnGraphBuildResize(f.b, arg(&f, 0), kNone, kNone, kNone, NULL));
  show("batch_norm_missing_mean",
       kilnGraphBuildBatchNormalization(f.b, arg(&f, 0), arg(&f, 2), arg(&f, 2),
                                        kNone, arg(&f, 2), 1e-5f, 0.9f));
  end(&f, 0);
}

int main(void) {
  MlirContext ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx)) {
    fprintf(stderr, "kilnContextCreate failed\n");
    return 1;
  }
  MlirDiagnosticHandlerID handler =
      mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  testConv(ctx);
  testConvTranspose(ctx);
  testPool(ctx);
  testNormalization(ctx);
  testResize(ctx);
  testErrors(ctx);
  mlirContextDetachDiagnosticHandler(ctx, handler);
  kilnContextDestroy(ctx);
  return 0;
}

/* Unit tests for the elementwise family's typed builders (checked by FileCheck
 * through builders-elementwise.test).
 *
 * Each test parses a function whose arguments are the operands, builds ops
 * into it with the typed builders, prints each result type ("null" for a
 * failed build), verifies the module and prints it. A diagnostic handler
 * prints every diagnostic with its location, so error cases show their
 * message; the op count shows that a failed build inserts nothing. */
#include <stdio.h>

#include "kiln/graph_elementwise.h"
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

/* Parses `func.func @<name>(<args>) { return }` and points a builder before
 * the return, at location model.onnx:3:1. */
static Fixture begin(MlirContext ctx, const char *name, const char *args) {
  fprintf(stderr, "TEST: %s\n", name);
  char text[1024];
  snprintf(text, sizeof(text), "func.func @%s(%s) { func.return }", name, args);
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

static void testBinary(MlirContext ctx) {
  Fixture f = begin(ctx, "binary",
                    "%a: tensor<2x3xf32>, %b: tensor<3xf32>, "
                    "%i: tensor<?x1xi64>, %j: tensor<1x4xi64>, "
                    "%e: tensor<ui8>");
  show("add", kilnGraphBuildAdd(f.b, arg(&f, 0), arg(&f, 1)));
  show("sub", kilnGraphBuildSub(f.b, arg(&f, 1), arg(&f, 0)));
  show("mul_dynamic", kilnGraphBuildMul(f.b, arg(&f, 2), arg(&f, 3)));
  show("div_dynamic", kilnGraphBuildDiv(f.b, arg(&f, 3), arg(&f, 2)));
  show("pow", kilnGraphBuildPow(f.b, arg(&f, 0), arg(&f, 4)));
  end(&f, 1);
}

static void testCompareLogical(MlirContext ctx) {
  Fixture f = begin(ctx, "compare_logical",
                    "%a: tensor<2x3xf32>, %b: tensor<3xf32>, "
                    "%p: tensor<?xi1>, %q: tensor<4x1xi1>");
  show("equal", kilnGraphBuildEqual(f.b, arg(&f, 0), arg(&f, 1)));
  show("less", kilnGraphBuildLess(f.b, arg(&f, 0), arg(&f, 1)));
  show("greater", kilnGraphBuildGreater(f.b, arg(&f, 1), arg(&f, 0)));
  show("equal_bool", kilnGraphBuildEqual(f.b, arg(&f, 2), arg(&f, 3)));
  show("and", kilnGraphBuildAnd(f.b, arg(&f, 2), arg(&f, 3)));
  show("or", kilnGraphBuildOr(f.b, arg(&f, 3), arg(&f, 2)));
  show("not", kilnGraphBuildNot(f.b, arg(&f, 2)));
  end(&f, 0);
}

static void testUnary(MlirContext ctx) {
  Fixture f = begin(ctx, "unary", "%x: tensor<2x?xf32>, %i: tensor<5xi32>");
  MlirValue x = arg(&f, 0), i = arg(&f, 1);
  show("neg", kilnGraphBuildNeg(f.b, i));
  show("abs", kilnGraphBuildAbs(f.b, i));
  show("sqrt", kilnGraphBuildSqrt(f.b, x));
  show("reciprocal", kilnGraphBuildReciprocal(f.b, x));
  show("exp", kilnGraphBuildExp(f.b, x));
  show("log", kilnGraphBuildLog(f.b, x));
  show("tanh", kilnGraphBuildTanh(f.b, x));
  show("sigmoid", kilnGraphBuildSigmoid(f.b, x));
  show("relu", kilnGraphBuildRelu(f.b, i));
  show("erf", kilnGraphBuildErf(f.b, i));
  show("floor", kilnGraphBuildFloor(f.b, x));
  show("ceil", kilnGraphBuildCeil(f.b, x));
  show("round", kilnGraphBuildRound(f.b, x));
  end(&f, 0);
}

static void testActivations(MlirContext ctx) {
  Fixture f = begin(ctx, "activations", "%x: tensor<1x8xf16>");
  show("leaky_relu", kilnGraphBuildLeakyRelu(
                         f.b, arg(&f, 0), KILN_GRAPH_LEAKY_RELU_DEFAULT_ALPHA));
  show("elu", kilnGraphBuildElu(f.b, arg(&f, 0), 0.5f));
  show("hard_sigmoid",
       kilnGraphBuildHardSigmoid(f.b, arg(&f, 0),
                                 KILN_GRAPH_HARD_SIGMOID_DEFAULT_ALPHA,
                                 KILN_GRAPH_HARD_SIGMOID_DEFAULT_BETA));
  end(&f, 1);
}

static void testClip(MlirContext ctx) {
  Fixture f = begin(
      ctx, "clip", "%x: tensor<4x?xf32>, %lo: tensor<f32>, %hi: tensor<1xf32>");
  MlirValue none = {NULL};
  show("no_bounds", kilnGraphBuildClip(f.b, arg(&f, 0), none, none));
  show("max_only", kilnGraphBuildClip(f.b, arg(&f, 0), none, arg(&f, 2)));
  show("both", kilnGraphBuildClip(f.b, arg(&f, 0), arg(&f, 1), arg(&f, 2)));
  end(&f, 1);
}

static void testMinMaxWhere(MlirContext ctx) {
  Fixture f = begin(ctx, "min_max_where",
                    "%a: tensor<?x4xf32>, %c: tensor<2x1xi1>, "
                    "%x: tensor<3xf32>, %y: tensor<f32>, %r: tensor<3x1xf32>");
  MlirValue a = arg(&f, 0);
  show("min_same", kilnGraphBuildMin(f.b, a, a));
  show("max_scalar", kilnGraphBuildMax(f.b, a, arg(&f, 3)));
  show("min_broadcast", kilnGraphBuildMin(f.b, arg(&f, 4), arg(&f, 2)));
  show("where", kilnGraphBuildWhere(f.b, arg(&f, 1), arg(&f, 2), arg(&f, 3)));
  end(&f, 1);
}

static void testCast(MlirContext ctx) {
  Fixture f = begin(ctx, "cast", "%x: tensor<2x?xf32>, %b: tensor<3xi1>");
  show("to_f16",
       kilnGraphBuildCast(f.b, arg(&f, 0), mlirF16TypeGet(ctx), NULL));
  show("bool_to_i64",
       kilnGraphBuildCast(f.b, arg(&f, 1), mlirIntegerTypeGet(ctx, 64), NULL));
  KilnGraphCastOptions opts = {0, "nearest"};
  show("to_f8", kilnGraphBuildCast(f.b, arg(&f, 0),
                                   mlirFloat8E4M3FNTypeGet(ctx), &opts));
  end(&f, 1);
}

/* Every rejected build prints one diagnostic at model.onnx:3:1, returns
 * null and inserts nothing (ops stays 1: the return). */
static void testErrors(MlirContext ctx) {
  Fixture f = begin(ctx, "negative_errors",
                    "%a: tensor<2x3xf32>, %b: tensor<4xf32>, "
                    "%h: tensor<3xf16>, %i: tensor<3xi32>, %m: tensor<3xf32>, "
                    "%u: tensor<3xui8>");
  MlirValue a = arg(&f, 0), b = arg(&f, 1), h = arg(&f, 2), i = arg(&f, 3);
  MlirValue none = {NULL};
  show("broadcast", kilnGraphBuildAdd(f.b, a, b));
  show("element_types", kilnGraphBuildMul(f.b, h, a));
  show("sqrt_int", kilnGraphBuildSqrt(f.b, i));
  show("neg_unsigned", kilnGraphBuildNeg(f.b, arg(&f, 5)));
  show("missing_operand", kilnGraphBuildSub(f.b, a, none));
  show("not_float", kilnGraphBuildNot(f.b, a));
  show("clip_bound", kilnGraphBuildClip(f.b, a, arg(&f, 4), none));
  show("min_missing_operand", kilnGraphBuildMin(f.b, a, none));
  show("max_broadcast", kilnGraphBuildMax(f.b, a, b));
  show("max_element_types", kilnGraphBuildMax(f.b, i, arg(&f, 4)));
  show("where_condition", kilnGraphBuildWhere(f.b, a, a, a));
  show("cast_null_type", kilnGraphBuildCast(f.b, a, (MlirType){NULL}, NULL));
  show("cast_index", kilnGraphBuildCast(f.b, a, mlirIndexTypeGet(ctx), NULL));
  KilnGraphCastOptions badSaturate = {2, NULL};
  show("cast_saturate",
       kilnGraphBuildCast(f.b, a, mlirF16TypeGet(ctx), &badSaturate));
  KilnGraphCastOptions badMode = {1, "zero"};
  show("cast_round_mode",
       kilnGraphBuildCast(f.b, a, mlirF16TypeGet(ctx), &badMode));
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
  testBinary(ctx);
  testCompareLogical(ctx);
  testUnary(ctx);
  testActivations(ctx);
  testClip(ctx);
  testMinMaxWhere(ctx);
  testCast(ctx);
  testErrors(ctx);
  mlirContextDetachDiagnosticHandler(ctx, handler);
  kilnContextDestroy(ctx);
  return 0;
}

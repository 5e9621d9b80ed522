/* Unit tests for the reduction family's typed builders (checked by FileCheck
 * through builders-reduction.test).
 *
 * Each test parses a function whose arguments are the operands, builds ops
 * into it with the typed builders, prints each result type ("null" for a
 * failed build), verifies the module and prints it. Diagnostics are printed
 * by a handler, so error cases show their message and location. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kiln/graph_reduction.h"
#include "kiln/kiln.h"
#include "mlir-c/BuiltinAttributes.h"
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

/* Parses `func.func @test(<args>) { return }` and points a builder before
 * the return. */
static Fixture begin(MlirContext ctx, const char *name, const char *args) {
  fprintf(stderr, "TEST: %s\n", name);
  char text[1024];
  snprintf(text, sizeof(text), "func.func @%s(%s) { func.return }", name, args);
  Fixture f = {ctx,
               mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text)),
               {NULL},
               NULL};
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(f.module));
  f.body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirLocation loc = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString("model.onnx"), 7, 1);
  f.b = kilnGraphBuilderCreate(ctx, f.body, loc);
  kilnGraphBuilderSetInsertionPointBefore(f.b, mlirBlockGetTerminator(f.body));
  return f;
}

static MlirValue arg(const Fixture *f, intptr_t i) {
  return mlirBlockGetArgument(f->body, i);
}

/* Builds a graph.constant holding the i64 vector `vals`. */
static MlirValue constantI64(const Fixture *f, const int64_t *vals,
                             intptr_t n) {
  int64_t shape[1] = {n};
  MlirType t = mlirRankedTensorTypeGet(1, shape, mlirIntegerTypeGet(f->ctx, 64),
                                       mlirAttributeGetNull());
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

/* Prints the type of a built value, or "null" for a failed build. */
static void show(const char *what, MlirValue v) {
  fprintf(stderr, "%s: ", what);
  if (mlirValueIsNull(v))
    fprintf(stderr, "null");
  else
    mlirTypePrint(mlirValueGetType(v), printToStderr, NULL);
  fprintf(stderr, "\n");
}

static void end(Fixture *f) {
  MlirOperation m = mlirModuleGetOperation(f->module);
  fprintf(stderr, "verify: %s\n",
          mlirOperationVerify(m) ? "success" : "failure");
  mlirOperationPrint(m, printToStderr, NULL);
  fprintf(stderr, "\n");
  kilnGraphBuilderDestroy(f->b);
  mlirModuleDestroy(f->module);
}

static const MlirValue kNone = {NULL};

static void testMatMul(MlirContext ctx) {
  Fixture f = begin(ctx, "matmul",
                    "%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, "
                    "%v: tensor<3xf32>, %c: tensor<5x1x2x3xf32>, "
                    "%d: tensor<4x3x7xf32>, %e: tensor<?x2x3xi64>, "
                    "%g: tensor<3x?xi64>");
  show("2d", kilnGraphBuildMatMul(f.b, arg(&f, 0), arg(&f, 1)));
  show("vec_mat", kilnGraphBuildMatMul(f.b, arg(&f, 2), arg(&f, 1)));
  show("mat_vec", kilnGraphBuildMatMul(f.b, arg(&f, 0), arg(&f, 2)));
  show("vec_vec", kilnGraphBuildMatMul(f.b, arg(&f, 2), arg(&f, 2)));
  show("batch", kilnGraphBuildMatMul(f.b, arg(&f, 3), arg(&f, 4)));
  show("dynamic", kilnGraphBuildMatMul(f.b, arg(&f, 5), arg(&f, 6)));
  end(&f);
}

static void testGemm(MlirContext ctx) {
  Fixture f = begin(ctx, "gemm",
                    "%a: tensor<3x2xf32>, %b: tensor<5x3xf32>, "
                    "%c: tensor<5xf32>, %d: tensor<2x3xf32>, "
                    "%e: tensor<3x5xf32>, %s: tensor<f32>");
  show("trans", kilnGraphBuildGemm(f.b, arg(&f, 0), arg(&f, 1), arg(&f, 2),
                                   0.5f, 2.0f, true, true));
  show("defaults_no_c", kilnGraphBuildGemm(f.b, arg(&f, 3), arg(&f, 4), kNone,
                                           1.0f, 1.0f, false, false));
  show("scalar_c", kilnGraphBuildGemm(f.b, arg(&f, 3), arg(&f, 4), arg(&f, 5),
                                      1.0f, 1.0f, false, false));
  end(&f);
}

static void testSoftmax(MlirContext ctx) {
  Fixture f = begin(ctx, "softmax", "%x: tensor<2x?x4xf16>");
  show("softmax", kilnGraphBuildSoftmax(f.b, arg(&f, 0), 1));
  show("log_softmax", kilnGraphBuildLogSoftmax(f.b, arg(&f, 0), -1));
  end(&f);
}

static void testReduceConstantAxes(MlirContext ctx) {
  Fixture f = begin(ctx, "reduce_constant_axes", "%x: tensor<2x3x4xf32>");
  const int64_t axes[] = {-1, 0};
  MlirValue ax = constantI64(&f, axes, 2);
  show("sum_keep", kilnGraphBuildReduceSum(f.b, arg(&f, 0), ax, true, false));
  show("mean_drop",
       kilnGraphBuildReduceMean(f.b, arg(&f, 0), ax, false, false));
  MlirValue empty = constantI64(&f, NULL, 0);
  show("prod_empty_noop",
       kilnGraphBuildReduceProd(f.b, arg(&f, 0), empty, true, true));
  show("l2_empty", kilnGraphBuildReduceL2(f.b, arg(&f, 0), empty, true, false));
  end(&f);
}

static void testReduceNoAxes(MlirContext ctx) {
  Fixture f =
      begin(ctx, "reduce_no_axes", "%x: tensor<2x?xf32>, %p: tensor<3x2xi1>");
  show("sum_all", kilnGraphBuildReduceSum(f.b, arg(&f, 0), kNone, true, false));
  show("max_all_drop",
       kilnGraphBuildReduceMax(f.b, arg(&f, 0), kNone, false, false));
  show("min_noop", kilnGraphBuildReduceMin(f.b, arg(&f, 0), kNone, true, true));
  show("max_bool",
       kilnGraphBuildReduceMax(f.b, arg(&f, 1), kNone, false, false));
  end(&f);
}

static void testReduceDynamicAxes(MlirContext ctx) {
  Fixture f = begin(ctx, "reduce_dynamic_axes",
                    "%x: tensor<2x1x4xf32>, %a: tensor<2xi64>, "
                    "%u: tensor<?xi64>");
  show("count_keep",
       kilnGraphBuildReduceSum(f.b, arg(&f, 0), arg(&f, 1), true, false));
  show("count_drop",
       kilnGraphBuildReduceSum(f.b, arg(&f, 0), arg(&f, 1), false, false));
  show("unknown_keep",
       kilnGraphBuildReduceSum(f.b, arg(&f, 0), arg(&f, 2), true, false));
  end(&f);
}

static void testArgReduce(MlirContext ctx) {
  Fixture f = begin(ctx, "arg_reduce", "%x: tensor<2x3x?xi32>");
  show("argmax_default", kilnGraphBuildArgMax(f.b, arg(&f, 0), 0, true, false));
  show("argmax_last_drop",
       kilnGraphBuildArgMax(f.b, arg(&f, 0), -1, false, true));
  show("argmin", kilnGraphBuildArgMin(f.b, arg(&f, 0), 1, false, false));
  end(&f);
}

/* Every failed build emits one diagnostic at the builder's location and
 * inserts nothing (only the axes constants appear in the printed function). */
static void testNegative(MlirContext ctx) {
  Fixture f = begin(ctx, "negative",
                    "%a: tensor<2x3xf32>, %b: tensor<4x5xf32>, "
                    "%i: tensor<2x3xi32>, %p: tensor<2x3xi1>, "
                    "%s: tensor<f32>, %c: tensor<3x5xf32>, "
                    "%u: tensor<?xi64>");
  show("matmul_k", kilnGraphBuildMatMul(f.b, arg(&f, 0), arg(&f, 1)));
  show("matmul_types", kilnGraphBuildMatMul(f.b, arg(&f, 0), arg(&f, 2)));
  show("matmul_scalar", kilnGraphBuildMatMul(f.b, arg(&f, 4), arg(&f, 0)));
  show("matmul_missing", kilnGraphBuildMatMul(f.b, kNone, arg(&f, 0)));
  show("gemm_bias", kilnGraphBuildGemm(f.b, arg(&f, 0), arg(&f, 0), arg(&f, 5),
                                       1.0f, 1.0f, false, true));
  show("softmax_int", kilnGraphBuildSoftmax(f.b, arg(&f, 2), -1));
  show("softmax_axis", kilnGraphBuildLogSoftmax(f.b, arg(&f, 0), 2));
  show("sum_bool",
       kilnGraphBuildReduceSum(f.b, arg(&f, 3), kNone, true, false));
  const int64_t dup[] = {1, -1};
  show("sum_dup_axes",
       kilnGraphBuildReduceSum(f.b, arg(&f, 0), constantI64(&f, dup, 2), true,
                               false));
  const int64_t far[] = {2};
  show("max_axis_range",
       kilnGraphBuildReduceMax(f.b, arg(&f, 0), constantI64(&f, far, 1), true,
                               false));
  show("argmin_axis", kilnGraphBuildArgMin(f.b, arg(&f, 0), -3, true, false));
  show("argmax_bool", kilnGraphBuildArgMax(f.b, arg(&f, 3), 0, true, false));
  show("sum_unknown_rank",
       kilnGraphBuildReduceSum(f.b, arg(&f, 0), arg(&f, 6), false, false));
  /* Through the generic entry point: asking for two results. */
  const MlirValue ab[] = {arg(&f, 0), arg(&f, 5)};
  MlirOperation two =
      kilnGraphBuilderCreateOp(f.b, "matmul", ab, 2, NULL, 0, 2);
  fprintf(stderr, "matmul_two_results: %s\n",
          mlirOperationIsNull(two) ? "null" : "built");
  end(&f);
}

int main(void) {
  MlirContext ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  testMatMul(ctx);
  testGemm(ctx);
  testSoftmax(ctx);
  testReduceConstantAxes(ctx);
  testReduceNoAxes(ctx);
  testReduceDynamicAxes(ctx);
  testArgReduce(ctx);
  testNegative(ctx);
  kilnContextDestroy(ctx);
  return 0;
}

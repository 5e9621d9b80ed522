/* Unit tests for the tensor family's typed builders (checked by FileCheck
 * through builders-tensor.test).
 *
 * Each test parses a function whose arguments are the operands, builds ops
 * into it, prints each inferred result type ("null" for a failed build),
 * then verifies and prints the module. A diagnostic handler prints every
 * diagnostic, so error cases show their message and location. Every built
 * op stays in the module, which must verify. */
#include <stdio.h>

#include "kiln/graph_tensor.h"
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

/* Parses `func.func @name(<args>) { return }` and points a builder before
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
      ctx, mlirStringRefCreateFromCString("model.onnx"), 3, 1);
  f.b = kilnGraphBuilderCreate(ctx, f.body, loc);
  kilnGraphBuilderSetInsertionPointBefore(f.b, mlirBlockGetTerminator(f.body));
  return f;
}

static MlirValue arg(const Fixture *f, intptr_t i) {
  return mlirBlockGetArgument(f->body, i);
}

static MlirValue ints(const Fixture *f, const int64_t *v, intptr_t n) {
  return kilnGraphBuildConstantInts(f->b, v, n);
}

static void printType(MlirValue v) {
  if (mlirValueIsNull(v))
    fprintf(stderr, "null");
  else
    mlirTypePrint(mlirValueGetType(v), printToStderr, NULL);
}

/* Prints the type of a built value, or "null" for a failed build. */
static void show(const char *what, MlirValue v) {
  fprintf(stderr, "%s: ", what);
  printType(v);
  fprintf(stderr, "\n");
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
    printType(mlirOperationGetResult(op, i));
  }
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

static void testConstant(MlirContext ctx) {
  Fixture f = begin(ctx, "constant", "");
  int64_t shape[2] = {2, 2};
  MlirType t = mlirRankedTensorTypeGet(2, shape, mlirF32TypeGet(ctx),
                                       mlirAttributeGetNull());
  show("splat", kilnGraphBuildConstant(
                    f.b, mlirDenseElementsAttrFloatSplatGet(t, 1.5f)));
  const int64_t v[3] = {4, 5, 6};
  show("ints", ints(&f, v, 3));
  show("negative_null", kilnGraphBuildConstant(f.b, mlirAttributeGetNull()));
  end(&f);
}

static void testIdentityShape(MlirContext ctx) {
  Fixture f = begin(ctx, "identity_shape", "%x: tensor<2x?x4xi8>");
  const int64_t end1 = -1;
  show("identity", kilnGraphBuildIdentity(f.b, arg(&f, 0)));
  show("shape", kilnGraphBuildShape(f.b, arg(&f, 0), 0, NULL));
  show("shape_1_m1", kilnGraphBuildShape(f.b, arg(&f, 0), 1, &end1));
  show("shape_empty", kilnGraphBuildShape(f.b, arg(&f, 0), 5, NULL));
  end(&f);
}

static void testReshape(MlirContext ctx) {
  Fixture f = begin(ctx, "reshape",
                    "%x: tensor<2x3x4xf32>, %s: tensor<3xi64>, "
                    "%d: tensor<?xi64>, %y: tensor<?x4xf32>");
  const int64_t copy[2] = {0, -1}, zero[2] = {0, 24}, two[2] = {-1, -1};
  const int64_t bad[2] = {5, -1};
  show("copy_infer",
       kilnGraphBuildReshape(f.b, arg(&f, 0), ints(&f, copy, 2), false));
  show("dynamic_input",
       kilnGraphBuildReshape(f.b, arg(&f, 3), ints(&f, copy + 1, 1), false));
  show("unknown_shape",
       kilnGraphBuildReshape(f.b, arg(&f, 0), arg(&f, 1), false));
  show("negative_allowzero",
       kilnGraphBuildReshape(f.b, arg(&f, 0), ints(&f, zero, 2), true));
  show("negative_two_minus_one",
       kilnGraphBuildReshape(f.b, arg(&f, 0), ints(&f, two, 2), false));
  show("negative_indivisible",
       kilnGraphBuildReshape(f.b, arg(&f, 0), ints(&f, bad, 2), false));
  show("negative_unknown_rank",
       kilnGraphBuildReshape(f.b, arg(&f, 0), arg(&f, 2), false));
  end(&f);
}

static void testFlattenTranspose(MlirContext ctx) {
  Fixture f = begin(ctx, "flatten_transpose", "%x: tensor<2x?x4xf32>");
  const int64_t perm[3] = {1, 2, 0}, bad[3] = {0, 0, 1};
  show("flatten_0", kilnGraphBuildFlatten(f.b, arg(&f, 0), 0));
  show("flatten_m1", kilnGraphBuildFlatten(f.b, arg(&f, 0), -1));
  show("flatten_3", kilnGraphBuildFlatten(f.b, arg(&f, 0), 3));
  show("negative_flatten_4", kilnGraphBuildFlatten(f.b, arg(&f, 0), 4));
  show("transpose", kilnGraphBuildTranspose(f.b, arg(&f, 0), NULL, 0));
  show("transpose_perm", kilnGraphBuildTranspose(f.b, arg(&f, 0), perm, 3));
  show("negative_perm", kilnGraphBuildTranspose(f.b, arg(&f, 0), bad, 3));
  end(&f);
}

static void testConcat(MlirContext ctx) {
  Fixture f = begin(ctx, "concat",
                    "%a: tensor<2x3xf32>, %b: tensor<2x?xf32>, "
                    "%c: tensor<?x4xf32>, %d: tensor<3x3xf32>, "
                    "%e: tensor<2x3xi32>, %f: tensor<2x4xf32>, "
                    "%g: tensor<6xf32>");
  MlirValue a = arg(&f, 0);
  show("same", kilnGraphBuildConcat(f.b, a, a, -1));
  show("mixed", kilnGraphBuildConcat(f.b, a, arg(&f, 5), 1));
  show("rows", kilnGraphBuildConcat(f.b, a, arg(&f, 3), 0));
  show("dynamic_axis", kilnGraphBuildConcat(f.b, a, arg(&f, 1), 1));
  show("dynamic_other", kilnGraphBuildConcat(f.b, arg(&f, 2), arg(&f, 5), 1));
  show("negative_dim", kilnGraphBuildConcat(f.b, a, arg(&f, 3), 1));
  show("negative_type", kilnGraphBuildConcat(f.b, a, arg(&f, 4), 0));
  show("negative_rank", kilnGraphBuildConcat(f.b, a, arg(&f, 6), 0));
  show("negative_axis", kilnGraphBuildConcat(f.b, a, a, 2));
  show("negative_null", kilnGraphBuildConcat(f.b, a, kNone, 0));
  end(&f);
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
  Fixture f = begin(ctx, "concat_n",
                    "%a: tensor<2x3xf32>, %f: tensor<2x4xf32>, "
                    "%b: tensor<2x?xf32>, %d: tensor<3x3xf32>");
  MlirValue chain[3] = {arg(&f, 0), arg(&f, 1), arg(&f, 2)};
  MlirValue bad[3] = {arg(&f, 0), arg(&f, 1), arg(&f, 3)};
  MlirValue withNull[2] = {arg(&f, 0), kNone};
  show("chain", kilnGraphBuildConcatN(f.b, chain, 3, 1));
  MlirValue one = kilnGraphBuildConcatN(f.b, chain, 1, 1);
  fprintf(stderr, "one_is_input: %s\n",
          mlirValueEqual(one, chain[0]) ? "yes" : "no");
  intptr_t before = countOps(f.body);
  show("negative_chain", kilnGraphBuildConcatN(f.b, bad, 3, 1));
  fprintf(stderr, "ops_left: %ld\n", (long)(countOps(f.body) - before));
  show("negative_empty", kilnGraphBuildConcatN(f.b, NULL, 0, 0));
  show("negative_null", kilnGraphBuildConcatN(f.b, withNull, 2, 0));
  end(&f);
}

static void testSplit(MlirContext ctx) {
  Fixture f = begin(ctx, "split",
                    "%x: tensor<7x4xf32>, %s: tensor<2xi64>, "
                    "%y: tensor<?x4xf32>");
  const int64_t sizes[2] = {2, 2}, unequal[2] = {2, 5}, bad[2] = {2, 4};
  MlirValue x = arg(&f, 0);
  showOp("even", kilnGraphBuildSplit(f.b, x, kNone, 1, 2));
  showOp("sizes", kilnGraphBuildSplit(f.b, x, ints(&f, sizes, 2), 1, 2));
  showOp("unknown_sizes", kilnGraphBuildSplit(f.b, x, arg(&f, 1), 0, 2));
  showOp("dynamic", kilnGraphBuildSplit(f.b, arg(&f, 2), kNone, 0, 2));
  showOp("negative_uneven", kilnGraphBuildSplit(f.b, x, kNone, 0, 3));
  showOp("negative_unequal",
         kilnGraphBuildSplit(f.b, x, ints(&f, unequal, 2), 0, 2));
  showOp("negative_sum", kilnGraphBuildSplit(f.b, x, ints(&f, bad, 2), 0, 2));
  showOp("negative_count", kilnGraphBuildSplit(f.b, x, arg(&f, 1), 0, 3));
  showOp("negative_too_many", kilnGraphBuildSplit(f.b, x, kNone, 0, 5));
  showOp("negative_zero", kilnGraphBuildSplit(f.b, x, kNone, 0, 0));
  end(&f);
}

static void testSlice(MlirContext ctx) {
  Fixture f = begin(ctx, "slice",
                    "%x: tensor<10x20x?xf32>, %s: tensor<1xi32>, "
                    "%e: tensor<1xi32>, %a: tensor<1xi32>, %l: tensor<2xi64>");
  const int64_t starts[3] = {-1, 2, 0}, ends[3] = {-1000, 1000, 5};
  const int64_t axes[3] = {1, 0, 2}, steps[3] = {-4, 3, 1};
  const int64_t zero[3] = {1, 0, 1}, dup[3] = {0, 0, 1};
  MlirValue st = ints(&f, starts, 3), en = ints(&f, ends, 3);
  show("constant", kilnGraphBuildSlice(f.b, arg(&f, 0), st, en,
                                       ints(&f, axes, 3), ints(&f, steps, 3)));
  show("default_axes",
       kilnGraphBuildSlice(f.b, arg(&f, 0), st, en, kNone, kNone));
  show("unknown_values", kilnGraphBuildSlice(f.b, arg(&f, 0), arg(&f, 1),
                                             arg(&f, 2), kNone, kNone));
  show("unknown_axes", kilnGraphBuildSlice(f.b, arg(&f, 0), arg(&f, 1),
                                           arg(&f, 2), arg(&f, 3), kNone));
  show("negative_zero_step",
       kilnGraphBuildSlice(f.b, arg(&f, 0), st, en, kNone, ints(&f, zero, 3)));
  show("negative_repeated_axis",
       kilnGraphBuildSlice(f.b, arg(&f, 0), st, en, ints(&f, dup, 3), kNone));
  show("negative_length",
       kilnGraphBuildSlice(f.b, arg(&f, 0), st, arg(&f, 4), kNone, kNone));
  show("negative_mixed_types",
       kilnGraphBuildSlice(f.b, arg(&f, 0), st, arg(&f, 2), kNone, kNone));
  end(&f);
}

static void testGather(MlirContext ctx) {
  Fixture f = begin(ctx, "gather",
                    "%x: tensor<5x6x7xf32>, %i: tensor<2x3xi32>, "
                    "%s: tensor<i64>, %f: tensor<2xf32>");
  const int64_t big[2] = {1, 7};
  show("axis_1", kilnGraphBuildGather(f.b, arg(&f, 0), arg(&f, 1), 1));
  show("scalar_index", kilnGraphBuildGather(f.b, arg(&f, 0), arg(&f, 2), -1));
  show("negative_indices_type",
       kilnGraphBuildGather(f.b, arg(&f, 0), arg(&f, 3), 0));
  show("negative_index_range",
       kilnGraphBuildGather(f.b, arg(&f, 0), ints(&f, big, 2), 1));
  show("negative_axis", kilnGraphBuildGather(f.b, arg(&f, 0), arg(&f, 1), 3));
  end(&f);
}

static void testSqueeze(MlirContext ctx) {
  Fixture f = begin(ctx, "squeeze",
                    "%x: tensor<1x3x1xf32>, %y: tensor<1x?x3xf32>, "
                    "%a: tensor<1xi64>");
  const int64_t last[1] = {-1}, mid[1] = {1};
  const int64_t pair[2] = {0, 3};
  show("all", kilnGraphBuildSqueeze(f.b, arg(&f, 0), kNone));
  show("axes", kilnGraphBuildSqueeze(f.b, arg(&f, 0), ints(&f, last, 1)));
  show("dynamic", kilnGraphBuildSqueeze(f.b, arg(&f, 1), ints(&f, mid, 1)));
  show("unknown_axes", kilnGraphBuildSqueeze(f.b, arg(&f, 1), arg(&f, 2)));
  show("negative_not_one",
       kilnGraphBuildSqueeze(f.b, arg(&f, 0), ints(&f, mid, 1)));
  show("negative_unknown_rank", kilnGraphBuildSqueeze(f.b, arg(&f, 1), kNone));
  show("unsqueeze",
       kilnGraphBuildUnsqueeze(f.b, arg(&f, 1), ints(&f, pair, 2)));
  show("unsqueeze_unknown",
       kilnGraphBuildUnsqueeze(f.b, arg(&f, 1), arg(&f, 2)));
  show("negative_unsqueeze_repeated",
       kilnGraphBuildUnsqueeze(f.b, arg(&f, 0),
                               ints(&f, (int64_t[]){0, -5}, 2)));
  end(&f);
}

static void testExpandTile(MlirContext ctx) {
  Fixture f = begin(ctx, "expand_tile",
                    "%x: tensor<3x1xf32>, %s: tensor<3xi64>, "
                    "%y: tensor<2x?xf32>");
  const int64_t shape[3] = {2, 1, 6}, bad[2] = {4, 1}, reps[2] = {3, 2};
  const int64_t negReps[2] = {1, -1};
  show("expand", kilnGraphBuildExpand(f.b, arg(&f, 0), ints(&f, shape, 3)));
  show("expand_unknown", kilnGraphBuildExpand(f.b, arg(&f, 0), arg(&f, 1)));
  show("negative_expand",
       kilnGraphBuildExpand(f.b, arg(&f, 0), ints(&f, bad, 2)));
  show("tile", kilnGraphBuildTile(f.b, arg(&f, 2), ints(&f, reps, 2)));
  show("negative_tile_length",
       kilnGraphBuildTile(f.b, arg(&f, 2), ints(&f, shape, 3)));
  show("negative_tile_value",
       kilnGraphBuildTile(f.b, arg(&f, 2), ints(&f, negReps, 2)));
  end(&f);
}

static MlirValue scalarF32(const Fixture *f, float v) {
  MlirType t = mlirRankedTensorTypeGet(0, NULL, mlirF32TypeGet(f->ctx),
                                       mlirAttributeGetNull());
  return kilnGraphBuildConstant(f->b, mlirDenseElementsAttrFloatSplatGet(t, v));
}

static MlirValue scalarI64(const Fixture *f, int64_t v) {
  MlirType t = mlirRankedTensorTypeGet(0, NULL, mlirIntegerTypeGet(f->ctx, 64),
                                       mlirAttributeGetNull());
  return kilnGraphBuildConstant(f->b, mlirDenseElementsAttrInt64SplatGet(t, v));
}

static void testRange(MlirContext ctx) {
  Fixture f = begin(ctx, "range", "%a: tensor<i32>, %v: tensor<2xi64>");
  show("ints", kilnGraphBuildRange(f.b, scalarI64(&f, 10), scalarI64(&f, 0),
                                   scalarI64(&f, -3)));
  show("floats", kilnGraphBuildRange(f.b, scalarF32(&f, 0.5f),
                                     scalarF32(&f, 2.0f), scalarF32(&f, 0.5f)));
  show("empty", kilnGraphBuildRange(f.b, scalarI64(&f, 0), scalarI64(&f, 5),
                                    scalarI64(&f, -1)));
  show("unknown", kilnGraphBuildRange(f.b, arg(&f, 0), arg(&f, 0), arg(&f, 0)));
  show("negative_zero_delta",
       kilnGraphBuildRange(f.b, scalarI64(&f, 0), scalarI64(&f, 5),
                           scalarI64(&f, 0)));
  show("negative_mixed", kilnGraphBuildRange(f.b, scalarI64(&f, 0), arg(&f, 0),
                                             scalarI64(&f, 1)));
  show("negative_not_scalar",
       kilnGraphBuildRange(f.b, arg(&f, 1), arg(&f, 1), arg(&f, 1)));
  end(&f);
}

static void testPad(MlirContext ctx) {
  Fixture f = begin(ctx, "pad",
                    "%x: tensor<1x3x?xf32>, %v: tensor<f32>, "
                    "%p: tensor<6xi64>, %i: tensor<i32>");
  const int64_t pads[6] = {0, 1, 2, 0, -1, 3}, two[2] = {1, 2};
  const int64_t axis[1] = {-2}, crop[2] = {-2, -2};
  show("all_axes", kilnGraphBuildPad(f.b, arg(&f, 0), ints(&f, pads, 6), kNone,
                                     kNone, NULL));
  show("axes", kilnGraphBuildPad(f.b, arg(&f, 0), ints(&f, two, 2), arg(&f, 1),
                                 ints(&f, axis, 1), "reflect"));
  show("unknown_pads",
       kilnGraphBuildPad(f.b, arg(&f, 0), arg(&f, 2), kNone, kNone, "edge"));
  show("negative_mode", kilnGraphBuildPad(f.b, arg(&f, 0), ints(&f, pads, 6),
                                          kNone, kNone, "mirror"));
  show("negative_length", kilnGraphBuildPad(f.b, arg(&f, 0), ints(&f, two, 2),
                                            kNone, kNone, NULL));
  show("negative_crop", kilnGraphBuildPad(f.b, arg(&f, 0), ints(&f, crop, 2),
                                          kNone, ints(&f, axis, 1), NULL));
  show("negative_value_type",
       kilnGraphBuildPad(f.b, arg(&f, 0), ints(&f, pads, 6), arg(&f, 3), kNone,
                         NULL));
  end(&f);
}

static void testDepthSpace(MlirContext ctx) {
  Fixture f = begin(ctx, "depth_space",
                    "%x: tensor<1x8x2x?xf32>, %y: tensor<1x3x4x6xf32>");
  show("d2s", kilnGraphBuildDepthToSpace(f.b, arg(&f, 0), 2, "CRD"));
  show("s2d", kilnGraphBuildSpaceToDepth(f.b, arg(&f, 1), 2));
  show("negative_channels",
       kilnGraphBuildDepthToSpace(f.b, arg(&f, 1), 2, NULL));
  show("negative_mode", kilnGraphBuildDepthToSpace(f.b, arg(&f, 0), 2, "DRC"));
  show("negative_blocksize", kilnGraphBuildSpaceToDepth(f.b, arg(&f, 1), 0));
  show("negative_spatial", kilnGraphBuildSpaceToDepth(f.b, arg(&f, 1), 4));
  end(&f);
}

int main(void) {
  MlirContext ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
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
  kilnContextDestroy(ctx);
  return 0;
}

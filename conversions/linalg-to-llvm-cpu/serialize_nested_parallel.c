/* kiln-serialize-nested-parallel: an scf.parallel inside another one
 * becomes a nest of scf.for loops (docs/cpu-codegen.md).
 *
 * convert-scf-to-openmp turns every scf.parallel into an OpenMP parallel
 * region with a work-sharing loop. Inside a thread block (the outer loop,
 * already spread over the threads) a nested region only runs on the
 * thread that reaches it, yet each entry still calls the OpenMP runtime
 * (__kmpc_fork_call, __kmpc_for_static_init; LLVM 22's libomp formats a
 * trace string in the latter on every call). A loop left to
 * convert-linalg-to-parallel-loops inside a tile, e.g. the last 3 columns
 * of a 35-wide row that vectors of 16 do not cover, is entered once per
 * tile row and channel: 20000 runtime calls per inference for one 35 x 35
 * conv, 8x its time. As plain loops it costs nothing:
 *
 *   scf.parallel (%i) = ... {                  scf.parallel (%i) = ... {
 *     scf.for %k = ... {                         scf.for %k = ... {
 *       scf.parallel (%j, %l) = ... {   -->        scf.for %j = ... {
 *         body(%j, %l)                               scf.for %l = ... {
 *       }                                              body(%j, %l)
 *                                                   } } } }
 *
 * Only loops without reductions (results) are rewritten; the outermost
 * parallel loops, and parallel loops inside sequential loops only, stay. */
#include "kiln/diagnostics.h"
#include "kiln/passes.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

/* Whether `op` has an scf.parallel ancestor (before the function). */
static bool insideParallel(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p) && !kilnOpNameIs(p, "func.func");
       p = mlirOperationGetParentOperation(p))
    if (kilnOpNameIs(p, "scf.parallel"))
      return true;
  return false;
}

static MlirWalkResult collectNested(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "scf.parallel") && mlirOperationGetNumResults(op) == 0 &&
      insideParallel(op))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* An scf.for from `lb` to `ub` by `step` before `before`; returns its
 * body's terminator (insert the body before it), its induction variable
 * in *iv. */
static MlirOperation insertFor(MlirOperation before, MlirValue lb, MlirValue ub,
                               MlirValue step, MlirValue *iv) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirLocation loc = mlirOperationGetLocation(before);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirRegion region = mlirRegionCreate();
  MlirBlock body = mlirBlockCreate(1, &index, &loc);
  mlirRegionAppendOwnedBlock(region, body);
  MlirOperationState yieldState =
      mlirOperationStateGet(kilnStr("scf.yield"), loc);
  MlirOperation yield = mlirOperationCreate(&yieldState);
  mlirBlockAppendOwnedOperation(body, yield);
  MlirValue bounds[3] = {lb, ub, step};
  MlirOperationState state = mlirOperationStateGet(kilnStr("scf.for"), loc);
  mlirOperationStateAddOperands(&state, 3, bounds);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  MlirOperation forOp = mlirOperationCreate(&state);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before,
                                      forOp);
  *iv = mlirBlockGetArgument(body, 0);
  return yield;
}

/* Replaces `parallel` (operands: lower bounds, upper bounds, steps; no
 * inits) with a nest of scf.for loops around its body. */
static void serialize(MlirOperation parallel) {
  intptr_t n = mlirOperationGetNumOperands(parallel) / 3;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(parallel, 0));
  MlirOperation at = parallel;
  for (intptr_t d = 0; d < n; ++d) {
    MlirValue iv;
    at = insertFor(at, mlirOperationGetOperand(parallel, d),
                   mlirOperationGetOperand(parallel, n + d),
                   mlirOperationGetOperand(parallel, 2 * n + d), &iv);
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, d), iv);
  }
  /* Every op but the scf.reduce terminator moves into the innermost loop. */
  kilnMoveBlockOpsBefore(body, at);
  mlirOperationDestroy(parallel);
}

static void runSerializeNestedParallel(MlirOperation func,
                                       MlirExternalPass pass,
                                       const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  KilnOpList nested = {0};
  mlirOperationWalk(func, collectNested, &nested, MlirWalkPreOrder);
  for (size_t i = 0; i < nested.len; ++i) {
    MlirOperation op = nested.data[i];
    /* Operands: lower bounds, upper bounds, steps, then inits (none). */
    if (mlirOperationGetNumOperands(op) % 3 == 0)
      serialize(op);
  }
  kilnOpListDestroy(&nested);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__scf__,
};

const KilnPassInfo kilnSerializeNestedParallelPass = {
    .argument = "kiln-serialize-nested-parallel",
    .summary = "Turn scf.parallel loops nested in another scf.parallel into "
               "scf.for nests (no OpenMP region inside a thread block)",
    .anchor = "func.func",
    .run = runSerializeNestedParallel,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

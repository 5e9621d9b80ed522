/* kiln-mpi-world-grid: the communicator splits convert-shard-to-mpi makes
 * for a grid that spans every process, dropped (docs/scale-out.md).
 *
 * Each collective on a grid axis gets its communicator from a split of the
 * world, on every call:
 *
 *   %w = mpi.comm_world
 *   %c = mpi.comm_split(%w, %color, %key)       color constant, key the
 *   mpi.allreduce(%buf, %buf, MPI_SUM, %c)      rank on the axis
 *
 * MPI_Comm_split is itself a collective over all processes (an all-gather
 * of the colors and keys), paid on every run. Kiln's plans shard over a
 * 1-D grid of exactly the processes there are (the runtime refuses any
 * other count before a run), so the split of the world by a constant
 * color, keyed by the rank, is the world itself: its uses take the world
 * communicator and the split goes. Splits of anything but the world, or by
 * a color that is not a constant, are left alone. */
#include "kiln/passes.h"

#include "kiln/diagnostics.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

static MlirWalkResult collectSplits(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "mpi.comm_split"))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

static bool definedBy(MlirValue v, const char *name) {
  return mlirValueIsAOpResult(v) && kilnOpNameIs(mlirOpResultGetOwner(v), name);
}

static void runWorldGrid(MlirOperation module, MlirExternalPass pass,
                         const KilnPassOptionValue *options) {
  (void)pass, (void)options;
  KilnOpList splits = {0};
  mlirOperationWalk(module, collectSplits, &splits, MlirWalkPreOrder);
  for (size_t i = 0; i < splits.len; ++i) {
    MlirOperation split = splits.data[i];
    /* Operands: the communicator, the color, the key; results: an
     * optional retval, then the new communicator. */
    intptr_t nr = mlirOperationGetNumResults(split);
    if (mlirOperationGetNumOperands(split) != 3 || nr < 1 ||
        !definedBy(mlirOperationGetOperand(split, 0), "mpi.comm_world") ||
        !definedBy(mlirOperationGetOperand(split, 1), "arith.constant") ||
        (nr == 2 && !mlirOpOperandIsNull(mlirValueGetFirstUse(
                        mlirOperationGetResult(split, 0)))))
      continue;
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(split, nr - 1),
                                  mlirOperationGetOperand(split, 0));
    mlirOperationDestroy(split);
  }
  kilnOpListDestroy(&splits);
}

const KilnPassInfo kilnMpiWorldGridPass = {
    .argument = "kiln-mpi-world-grid",
    .summary = "Use the world communicator for convert-shard-to-mpi's splits "
               "of it by a constant color (a 1-D grid of every process)",
    .anchor = "builtin.module",
    .run = runWorldGrid,
};

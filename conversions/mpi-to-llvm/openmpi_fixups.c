/* kiln-openmpi-fixups: two mistakes of MLIR 22's mpi → LLVM lowering for
 * Open MPI (the module's DLTI "MPI:Implementation" = "OpenMPI"), mended
 * in its output (docs/mlir22-notes.md, "Scale-out"):
 *
 *  - reduction ops are referenced as `ompi_mpi_sum`, `ompi_mpi_max`, ...;
 *    Open MPI's libmpi exports them as `ompi_mpi_op_sum`, ...: the
 *    library would not link. The globals (opaque `ompi_predefined_op_t`)
 *    and their llvm.mlir.addressof uses are renamed.
 *  - the communicator MPI_Comm_split returns is loaded as an i32 and
 *    sign-extended; an Open MPI communicator is a pointer, so the next
 *    collective on it crashes. The load becomes one of 64 bits:
 *
 *      llvm.call @MPI_Comm_split(%world, %color, %key, %out)
 *      %c = llvm.load %out : !llvm.ptr -> i32       %c = llvm.load %out
 *      %w = llvm.sext %c : i32 to i64         =>         : !llvm.ptr -> i64
 *
 * Modules for other MPI implementations are left alone. */
#include "kiln/passes.h"

#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

/* Whether the module's DLTI map names Open MPI. */
static bool isOpenMpi(MlirOperation module) {
  MlirAttribute dlti =
      mlirOperationGetAttributeByName(module, kilnStr("dlti.map"));
  if (mlirAttributeIsNull(dlti))
    return false;
  KilnStrBuf text = {0};
  kilnStrBufAppendAttribute(&text, dlti);
  bool yes = strstr(kilnStrBufGet(&text), "\"OpenMPI\"") != NULL;
  kilnStrBufDestroy(&text);
  return yes;
}

typedef struct Found {
  KilnOpList globals, refs, splits;
} Found;

static MlirWalkResult collect(MlirOperation op, void *userData) {
  Found *f = userData;
  if (kilnOpNameIs(op, "llvm.mlir.global")) {
    KilnStrBuf text = {0};
    kilnStrBufAppendType(&text,
                         mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
                             op, kilnStr("global_type"))));
    if (strstr(kilnStrBufGet(&text), "ompi_predefined_op_t"))
      kilnOpListPush(&f->globals, op);
    kilnStrBufDestroy(&text);
  } else if (kilnOpNameIs(op, "llvm.mlir.addressof")) {
    kilnOpListPush(&f->refs, op);
  } else if (kilnOpNameIs(op, "llvm.call")) {
    MlirAttribute callee =
        mlirOperationGetAttributeByName(op, kilnStr("callee"));
    if (!mlirAttributeIsNull(callee) &&
        kilnStringRefEquals(mlirFlatSymbolRefAttrGetValue(callee),
                            "MPI_Comm_split"))
      kilnOpListPush(&f->splits, op);
  }
  return MlirWalkResultAdvance;
}

/* ompi_mpi_X → ompi_mpi_op_X for the op globals and their references. */
static void renameOps(MlirContext ctx, const Found *f) {
  for (size_t i = 0; i < f->globals.len; ++i) {
    MlirOperation g = f->globals.data[i];
    MlirStringRef name = mlirStringAttrGetValue(
        mlirOperationGetAttributeByName(g, kilnStr("sym_name")));
    if (name.length < 9 || memcmp(name.data, "ompi_mpi_", 9) ||
        (name.length > 12 && !memcmp(name.data, "ompi_mpi_op_", 12)))
      continue;
    KilnStrBuf fixed = {0};
    kilnStrBufAppendf(&fixed, "ompi_mpi_op_%.*s", (int)name.length - 9,
                      name.data + 9);
    MlirStringRef to = kilnStr(kilnStrBufGet(&fixed));
    for (size_t k = 0; k < f->refs.len; ++k) {
      MlirOperation r = f->refs.data[k];
      MlirAttribute at =
          mlirOperationGetAttributeByName(r, kilnStr("global_name"));
      if (!mlirAttributeIsNull(at) &&
          mlirStringRefEqual(mlirFlatSymbolRefAttrGetValue(at), name))
        mlirOperationSetAttributeByName(r, kilnStr("global_name"),
                                        mlirFlatSymbolRefAttrGet(ctx, to));
    }
    mlirOperationSetAttributeByName(g, kilnStr("sym_name"),
                                    mlirStringAttrGet(ctx, to));
    kilnStrBufDestroy(&fixed);
  }
}

/* The i32 load + sext of each split communicator → one i64 load. */
static void widenSplitComms(MlirContext ctx, const Found *f) {
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  for (size_t i = 0; i < f->splits.len; ++i) {
    MlirOperation call = f->splits.data[i];
    if (mlirOperationGetNumOperands(call) != 4)
      continue;
    MlirValue out = mlirOperationGetOperand(call, 3);
    for (MlirOpOperand u = mlirValueGetFirstUse(out); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      MlirOperation load = mlirOpOperandGetOwner(u);
      if (!kilnOpNameIs(load, "llvm.load"))
        continue;
      MlirValue v = mlirOperationGetResult(load, 0);
      MlirType t = mlirValueGetType(v);
      if (!mlirTypeIsAInteger(t) || mlirIntegerTypeGetWidth(t) != 32)
        continue;
      MlirOpOperand use = mlirValueGetFirstUse(v);
      MlirOperation sext = mlirOpOperandIsNull(use)
                               ? (MlirOperation){NULL}
                               : mlirOpOperandGetOwner(use);
      if (mlirOperationIsNull(sext) ||
          !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)) ||
          !kilnOpNameIs(sext, "llvm.sext") ||
          !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(sext, 0)),
                         i64))
        continue;
      mlirValueSetType(v, i64);
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(sext, 0), v);
      mlirOperationDestroy(sext);
      break;
    }
  }
}

static void runOpenMpiFixups(MlirOperation module, MlirExternalPass pass,
                             const KilnPassOptionValue *options) {
  (void)pass, (void)options;
  if (!isOpenMpi(module))
    return;
  Found f = {{0}, {0}, {0}};
  mlirOperationWalk(module, collect, &f, MlirWalkPreOrder);
  MlirContext ctx = mlirOperationGetContext(module);
  renameOps(ctx, &f);
  widenSplitComms(ctx, &f);
  kilnOpListDestroy(&f.globals);
  kilnOpListDestroy(&f.refs);
  kilnOpListDestroy(&f.splits);
}

const KilnPassInfo kilnOpenMpiFixupsPass = {
    .argument = "kiln-openmpi-fixups",
    .summary = "Mend MLIR 22's mpi-to-LLVM output for Open MPI: reduction "
               "ops' symbol names (ompi_mpi_op_*) and the width of split "
               "communicators",
    .anchor = "builtin.module",
    .run = runOpenMpiFixups,
};

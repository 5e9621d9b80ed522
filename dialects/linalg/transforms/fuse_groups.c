/* kiln-fuse-groups: lowers graph-fuse's fusion groups after graph-to-linalg
 * (docs/graph-fuse.md).
 *
 * A group is an `scf.execute_region` with a `graph.fusion` attribute whose
 * body now holds linalg on tensors. For a conv_epilogue / matmul_epilogue
 * group the body's last linalg op (the root: the epilogue) is tiled with
 * scf.forall, and the ops it reaches back to the contraction are fused into
 * each tile (transform dialect: tile_using_forall + fuse_into_containing_op,
 * as IREE and TVM do), so the contraction's result lives one tile at a time
 * instead of as a full tensor. Then every group's region is inlined into its
 * block. A group that cannot be tiled (no contraction reached through linalg
 * ops, a dynamic shape, more than one result) is only inlined: it lowers
 * unfused, as if graph-fuse had not run. Elementwise and reduction groups
 * are only inlined: upstream linalg-fuse-elementwise-ops (in
 * linalg-to-llvm-cpu) fuses their generics. */
#include "kiln/passes.h"

#include <stdint.h>
#include <string.h>

#include "dialects/common/diag.h"
#include "dialects/common/op_list.h"
#include "dialects/linalg/transforms/schedule.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/Dialect/Transform.h"
#include "mlir-c/IR.h"

enum { kOptTile, kOptConvRows, kOptMatmulRows };

static const char *const kRootAttr = "kiln.fuse_root";
static const char *const kProducerAttr = "kiln.fuse_producer";

/* The schedule applied to one group (payload: the execute_region). The tile
 * sizes are patched per group. fuse_into_containing_op fuses, one at a
 * time, whichever listed producer has a use inside the loop, so the order of
 * the producers does not matter. */
static const char kSchedule[] =
    "module attributes {transform.with_named_sequence} {\n"
    "  transform.named_sequence @kiln_fuse_group(\n"
    "      %group: !transform.any_op {transform.readonly}) {\n"
    "    %root = transform.structured.match attributes{kiln.fuse_root}\n"
    "        in %group : (!transform.any_op) -> !transform.any_op\n"
    "    %producers = transform.structured.match\n"
    "        attributes{kiln.fuse_producer} in %group\n"
    "        : (!transform.any_op) -> !transform.any_op\n"
    "    %tiled, %loop = transform.structured.tile_using_forall %root\n"
    "        tile_sizes [1] : (!transform.any_op)\n"
    "        -> (!transform.any_op, !transform.any_op)\n"
    "    %fused, %loop2 = transform.structured.fuse_into_containing_op\n"
    "        %producers into %loop : (!transform.any_op, !transform.any_op)\n"
    "        -> (!transform.any_op, !transform.any_op)\n"
    "    transform.yield\n"
    "  }\n"
    "}\n";

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static MlirWalkResult collectGroups(MlirOperation op, void *userData) {
  if (kilnOpNameStartsWith(op, "scf.execute_region") &&
      !mlirAttributeIsNull(
          mlirOperationGetDiscardableAttributeByName(op, str("graph.fusion"))))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* Whether a linalg op has a reduction loop (it is the group's contraction:
 * conv, matmul, or a generic with a reduction iterator). */
static bool hasReduction(MlirOperation op) {
  static const char *const kContractions[] = {"linalg.conv_",
                                              "linalg.depthwise_conv_",
                                              "linalg.matmul",
                                              "linalg.batch_matmul",
                                              "linalg.batch_reduce_matmul",
                                              "linalg.matvec",
                                              "linalg.vecmat",
                                              "linalg.contract",
                                              "linalg.batch_matvec"};
  for (size_t i = 0; i < sizeof(kContractions) / sizeof(kContractions[0]); ++i)
    if (kilnOpNameStartsWith(op, kContractions[i]))
      return true;
  MlirAttribute iters =
      mlirOperationGetAttributeByName(op, str("iterator_types"));
  if (mlirAttributeIsNull(iters) || !mlirAttributeIsAArray(iters))
    return false;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(iters); ++i) {
    /* #linalg.iterator_type<reduction>: compare the printed form. */
    MlirAttribute it = mlirArrayAttrGetElement(iters, i);
    KilnStrBuf buf = {0};
    kilnStrBufAppendAttribute(&buf, it);
    bool red = strstr(kilnStrBufGet(&buf), "reduction") != NULL;
    kilnStrBufDestroy(&buf);
    if (red)
      return true;
  }
  return false;
}

/* Collects into `producers` the linalg ops of `body` the root's tile needs:
 * from the root back through linalg ops; a contraction contributes only its
 * init (output) operand, since its inputs are read whole or in windows, not
 * tile by tile. Returns whether a contraction was reached. */
static bool collectProducers(MlirBlock body, MlirOperation root,
                             KilnOpList *producers) {
  bool sawContraction = false;
  KilnOpList work = {0};
  kilnOpListPush(&work, root);
  for (size_t w = 0; w < work.len; ++w) {
    MlirOperation op = work.data[w];
    bool contraction = hasReduction(op);
    sawContraction = sawContraction || contraction;
    intptr_t n = mlirOperationGetNumOperands(op);
    for (intptr_t i = contraction ? n - 1 : 0; i < n; ++i) {
      MlirValue v = mlirOperationGetOperand(op, i);
      if (!mlirValueIsAOpResult(v))
        continue;
      MlirOperation def = mlirOpResultGetOwner(v);
      if (!mlirBlockEqual(mlirOperationGetBlock(def), body) ||
          !kilnOpNameStartsWith(def, "linalg.") ||
          kilnOpListContains(&work, def))
        continue;
      kilnOpListPush(&work, def);
      kilnOpListPush(producers, def);
    }
  }
  kilnOpListDestroy(&work);
  return sawContraction;
}

static bool allStatic(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
    if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
      return false;
  }
  return true;
}

static MlirWalkResult dropMarkers(MlirOperation op, void *userData) {
  (void)userData;
  mlirOperationRemoveDiscardableAttributeByName(op, str(kRootAttr));
  mlirOperationRemoveDiscardableAttributeByName(op, str(kProducerAttr));
  return MlirWalkResultAdvance;
}

/* Tiles a contraction-epilogue group in place. Returns false, changing
 * nothing, when the group does not qualify; sets *failed when the schedule
 * itself failed (it has emitted an error). */
static bool tileGroup(MlirOperation group, bool conv, int64_t rows,
                      KilnSchedule *schedule, bool *failed) {
  MlirRegion region = mlirOperationGetRegion(group, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(body) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(body)) ||
      mlirOperationGetNumResults(group) != 1)
    return false;
  MlirOperation yield = mlirBlockGetTerminator(body);
  MlirValue out = mlirOperationGetOperand(yield, 0);
  if (!mlirValueIsAOpResult(out))
    return false;
  MlirOperation root = mlirOpResultGetOwner(out);
  MlirType type = mlirValueGetType(out);
  if (!mlirBlockEqual(mlirOperationGetBlock(root), body) ||
      !kilnOpNameStartsWith(root, "linalg.") || hasReduction(root) ||
      mlirOperationGetNumResults(root) != 1 || !allStatic(root))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (rank < (conv ? 3 : 2) || rank > 8)
    return false;
  KilnOpList producers = {0};
  bool ok = collectProducers(body, root, &producers);
  for (size_t i = 0; ok && i < producers.len; ++i)
    ok = allStatic(producers.data[i]);
  if (!ok) {
    kilnOpListDestroy(&producers);
    return false;
  }
  /* Tile sizes: conv NC[D]HW: one image, all channels, `rows` output rows,
   * whole rows; matmul [B...]MN: one batch entry, `rows` rows, all
   * columns. Zero means "not tiled". */
  int64_t sizes[8] = {0};
  intptr_t rowDim = conv ? 2 : rank - 2;
  for (intptr_t i = 0; i < rowDim; ++i)
    sizes[i] = i == 1 && conv ? 0 : 1;
  /* The largest divisor of the row count not above `rows`: full tiles keep
   * every tile's shape static. */
  int64_t dim = mlirShapedTypeGetDimSize(type, rowDim);
  sizes[rowDim] = rows < dim ? rows : dim;
  while (dim % sizes[rowDim])
    --sizes[rowDim];
  MlirContext ctx = mlirOperationGetContext(group);
  if (mlirModuleIsNull(schedule->module) &&
      !kilnScheduleCreate(ctx, kSchedule, schedule)) {
    kilnOpListDestroy(&producers);
    *failed = true;
    return false;
  }
  MlirOperation sequence = kilnScheduleGetSequence(schedule, "kiln_fuse_group");
  MlirOperation tileOp =
      kilnScheduleFindOp(sequence, "transform.structured.tile_using_forall");
  mlirOperationSetAttributeByName(tileOp, str("static_tile_sizes"),
                                  mlirDenseI64ArrayGet(ctx, rank, sizes));

  MlirAttribute unit = mlirUnitAttrGet(ctx);
  mlirOperationSetDiscardableAttributeByName(root, str(kRootAttr), unit);
  for (size_t i = 0; i < producers.len; ++i)
    mlirOperationSetDiscardableAttributeByName(producers.data[i],
                                               str(kProducerAttr), unit);
  kilnOpListDestroy(&producers);
  MlirLogicalResult applied = kilnScheduleApply(schedule, sequence, group);
  mlirOperationWalk(group, dropMarkers, NULL, MlirWalkPreOrder);
  if (mlirLogicalResultIsFailure(applied)) {
    *failed = true;
    return false;
  }
  return true;
}

/* Replaces a single-block execute_region by its body. */
static void inlineGroup(MlirOperation group) {
  MlirRegion region = mlirOperationGetRegion(group, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
    return; /* not graph-fuse's form: scf lowering handles it */
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(group); ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(group, i),
                                  mlirOperationGetOperand(yield, i));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationEqual(op, yield);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, group);
    op = next;
  }
  mlirOperationDestroy(group);
}

static void runFuseGroups(MlirOperation op, MlirExternalPass pass,
                          const KilnPassOptionValue *options) {
  int64_t convRows = options[kOptConvRows].i;
  int64_t matmulRows = options[kOptMatmulRows].i;
  if (convRows < 1 || matmulRows < 1) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "kiln-fuse-groups: conv-tile-rows and matmul-tile-rows "
                   "must be positive, got %ld and %ld",
                   (long)convRows, (long)matmulRows);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  KilnOpList groups = {0};
  mlirOperationWalk(op, collectGroups, &groups, MlirWalkPostOrder);
  KilnSchedule schedule = {{NULL}};
  bool failed = false;
  for (size_t i = 0; i < groups.len && !failed; ++i) {
    MlirOperation group = groups.data[i];
    MlirAttribute kind =
        mlirOperationGetDiscardableAttributeByName(group, str("graph.fusion"));
    if (options[kOptTile].b && mlirAttributeIsAString(kind)) {
      MlirStringRef k = mlirStringAttrGetValue(kind);
      if (kilnStringRefEquals(k, "conv_epilogue"))
        tileGroup(group, true, convRows, &schedule, &failed);
      else if (kilnStringRefEquals(k, "matmul_epilogue"))
        tileGroup(group, false, matmulRows, &schedule, &failed);
    }
    if (!failed)
      inlineGroup(group);
  }
  kilnScheduleDestroy(&schedule);
  kilnOpListDestroy(&groups);
  if (failed)
    mlirExternalPassSignalFailure(pass);
}

static const KilnPassOptionSpec kOptions[] = {
    [kOptTile] = {"tile", KILN_PASS_OPTION_BOOL, "true",
                  "Tile conv/matmul epilogue groups and fuse the contraction "
                  "into the tiles (false: only inline the groups)"},
    [kOptConvRows] = {"conv-tile-rows", KILN_PASS_OPTION_INT, "1",
                      "Output rows per tile of a conv_epilogue group"},
    [kOptMatmulRows] = {"matmul-tile-rows", KILN_PASS_OPTION_INT, "8",
                        "Output rows per tile of a matmul_epilogue group"},
};

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__scf__,
    mlirGetDialectHandle__linalg__,
    mlirGetDialectHandle__tensor__,
    mlirGetDialectHandle__transform__,
};

const KilnPassInfo kilnFuseGroupsPass = {
    .argument = "kiln-fuse-groups",
    .summary = "Lower graph-fuse groups: tile conv/matmul epilogues and fuse "
               "the contraction into the tiles, then inline every group",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof(kOptions) / sizeof(kOptions[0]),
    .run = runFuseGroups,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

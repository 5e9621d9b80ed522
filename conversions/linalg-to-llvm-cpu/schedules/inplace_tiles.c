/* kiln-tile-outputs-in-place: makes each thread block (scf.forall) of a
 * fused contraction compute in its slice of the output
 * (docs/cpu-codegen.md).
 *
 * After tiling and fusion, a block's ops are chained by value: the bias
 * broadcast writes an init, the contraction accumulates into it, the
 * epilogue reads the contraction and writes its own init, which the block
 * inserts into the output. Each init that is only overwritten is a
 * tensor.empty (linalg-fuse-elementwise-ops makes it one on purpose, to
 * drop false dependencies), and bufferization gives each a scratch buffer
 * per block, copied into the output at the end. This pass rewires the
 * chain through one buffer: the first op that only overwrites an empty
 * slice writes the block's slice of the output instead (flattened to the
 * contraction's [N, C, P] for an im2col conv), and each elementwise op that
 * only overwrites its init writes over its input from the chain
 * (elementwise, in place). The values computed do not change: the ops
 * rewired never read their init. It runs after elementwise fusion, before
 * bufferization. */
#include "kiln/passes.h"

#include <stdint.h>

#include "dialects/linalg/transforms/schedule.h"
#include "kiln/diagnostics.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"
#include "support/shape.h"

/* Whether the body of structured op `op` reads its output block argument
 * (an accumulation); an op that does not only overwrites its init. */
static bool readsInit(MlirOperation op) {
  if (mlirOperationGetNumRegions(op) != 1)
    return true;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  intptr_t n = mlirBlockGetNumArguments(body);
  return n == 0 || !mlirOpOperandIsNull(
                       mlirValueGetFirstUse(mlirBlockGetArgument(body, n - 1)));
}

/* Whether `v` is available before `op`, both in `block`: a value from
 * outside the block, a block argument, or the result of an op before. */
static bool availableBefore(MlirValue v, MlirOperation op, MlirBlock block) {
  if (mlirValueIsABlockArgument(v))
    return true;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!mlirBlockEqual(mlirOperationGetBlock(def), block))
    return true;
  for (MlirOperation o = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    if (mlirOperationEqual(o, def))
      return true;
    if (mlirOperationEqual(o, op))
      return false;
  }
  return false;
}

/* tensor.collapse_shape of `v` ([N, C, spatial...]) to [N, C, P], before
 * `before`. */
static MlirValue collapsePixels(MlirValue v, MlirType to,
                                MlirOperation before) {
  MlirContext ctx = mlirOperationGetContext(before);
  intptr_t sizes[3] = {1, 1, mlirShapedTypeGetRank(mlirValueGetType(v)) - 2};
  MlirNamedAttribute reassociation =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("reassociation")),
                            kilnReassociationGet(ctx, 3, sizes));
  return kilnInsertOpBefore(before, "tensor.collapse_shape", 1, &v, to, 1,
                            &reassociation);
}

/* Whether `op`'s indexing map for operand `i` is an identity. */
static bool isIdentityOperand(MlirOperation op, intptr_t i) {
  MlirAttribute maps =
      mlirOperationGetAttributeByName(op, kilnStr("indexing_maps"));
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      i >= mlirArrayAttrGetNumElements(maps))
    return false;
  MlirAttribute map = mlirArrayAttrGetElement(maps, i);
  return mlirAttributeIsAAffineMap(map) &&
         mlirAffineMapIsIdentity(mlirAffineMapAttrGetValue(map));
}

/* Whether `v` is, through reshapes and slices, a value from outside
 * `body` (a residual read from another block's result), not one computed
 * in the block. */
static bool isOutsideView(MlirValue v, MlirBlock body) {
  while (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!mlirBlockEqual(mlirOperationGetBlock(def), body))
      return true;
    if (!kilnOpNameIs(def, "tensor.extract_slice") &&
        !kilnOpNameIs(def, "tensor.expand_shape") &&
        !kilnOpNameIs(def, "tensor.collapse_shape"))
      return false;
    v = mlirOperationGetOperand(def, 0);
  }
  return true;
}

/* The input of `op` it can overwrite in place: one computed in `body`
 * (not a block argument or a value from outside), read through an
 * identity map, of the same type as its init; preferably not a view of a
 * value from outside the block (a residual Add overwrites the
 * contraction's result, not the residual, which bufferization would copy
 * into a scratch tile and the result back). Null if none. */
static MlirValue inPlaceInput(MlirOperation op, MlirBlock body) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType initType = mlirValueGetType(mlirOperationGetOperand(op, n - 1));
  MlirValue view = {NULL};
  for (intptr_t i = 0; i + 1 < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirValueIsAOpResult(v) &&
        mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(v)), body) &&
        mlirTypeEqual(mlirValueGetType(v), initType) &&
        isIdentityOperand(op, i)) {
      if (!isOutsideView(v, body))
        return v;
      if (mlirValueIsNull(view))
        view = v;
    }
  }
  return view;
}

/* Whether `v` is a tensor.empty or a tensor.extract_slice of one. */
static bool isEmpty(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (kilnOpNameStartsWith(def, "tensor.extract_slice")) {
    v = mlirOperationGetOperand(def, 0);
    if (!mlirValueIsAOpResult(v))
      return false;
    def = mlirOpResultGetOwner(v);
  }
  return kilnOpNameStartsWith(def, "tensor.empty");
}

/* Builds before `before` the tensor.extract_slice of the block's output
 * that `insert` (a tensor.parallel_insert_slice, not rank-reducing)
 * writes: same offsets, sizes and strides. Null when its dynamic offsets
 * are not available there. */
static MlirValue outputSlice(MlirOperation insert, MlirOperation before,
                             MlirBlock body) {
  intptr_t n = mlirOperationGetNumOperands(insert);
  for (intptr_t i = 2; i < n; ++i)
    if (!availableBefore(mlirOperationGetOperand(insert, i), before, body))
      return (MlirValue){NULL};
  MlirAttribute segs =
      mlirOperationGetAttributeByName(insert, kilnStr("operandSegmentSizes"));
  if (mlirAttributeIsNull(segs) || !mlirAttributeIsADenseI32Array(segs) ||
      mlirDenseArrayGetNumElements(segs) != 5)
    return (MlirValue){NULL};
  MlirContext ctx = mlirOperationGetContext(insert);
  int32_t sliceSegs[4] = {1, mlirDenseI32ArrayGetElement(segs, 2),
                          mlirDenseI32ArrayGetElement(segs, 3),
                          mlirDenseI32ArrayGetElement(segs, 4)};
  static const char *const kStatic[] = {"static_offsets", "static_sizes",
                                        "static_strides"};
  MlirNamedAttribute attrs[4];
  for (int i = 0; i < 3; ++i)
    attrs[i] = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, kilnStr(kStatic[i])),
        mlirOperationGetAttributeByName(insert, kilnStr(kStatic[i])));
  attrs[3] = kilnSegmentSizesAttr(ctx, 4, sliceSegs);
  for (int i = 0; i < 3; ++i)
    if (mlirAttributeIsNull(attrs[i].attribute))
      return (MlirValue){NULL};
  MlirValue operands[KILN_TILE_MAX_LOOPS * 3 + 1];
  if (n - 1 > (intptr_t)(sizeof(operands) / sizeof(operands[0])))
    return (MlirValue){NULL};
  operands[0] = mlirOperationGetOperand(insert, 1);
  for (intptr_t i = 2; i < n; ++i)
    operands[i - 1] = mlirOperationGetOperand(insert, i);
  return kilnInsertOpBefore(
      before, "tensor.extract_slice", n - 1, operands,
      mlirValueGetType(mlirOperationGetOperand(insert, 0)), 4, attrs);
}

/* Whether the forall's result is only ever stored where its tiles' pixel
 * rows stay contiguous: false when it is inserted into a larger tensor
 * whose dims below the outermost spatial one (dim 2) differ, such as the
 * interior of the next conv's padded input (eliminate-empty-tensors then
 * makes the forall write there). A tile's [N, C, P] flattening of such a
 * slice is not a view: bufferization would copy the slice into a scratch
 * buffer and back. */
static bool rowsStayContiguous(MlirOperation forall) {
  MlirValue result = mlirOperationGetResult(forall, 0);
  for (MlirOpOperand use = mlirValueGetFirstUse(result);
       !mlirOpOperandIsNull(use); use = mlirOpOperandGetNextUse(use)) {
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (!kilnOpNameStartsWith(user, "tensor.insert_slice") ||
        mlirOpOperandGetOperandNumber(use) != 0)
      continue;
    MlirType src = mlirValueGetType(result);
    MlirType dest = mlirValueGetType(mlirOperationGetOperand(user, 1));
    if (mlirShapedTypeGetRank(src) != mlirShapedTypeGetRank(dest))
      return false;
    for (intptr_t d = 3; d < mlirShapedTypeGetRank(src); ++d)
      if (mlirShapedTypeGetDimSize(src, d) != mlirShapedTypeGetDimSize(dest, d))
        return false;
  }
  return true;
}

/* In one thread block, chains the block's ops through one buffer, the
 * block's slice of the output (see the file comment). When that slice's
 * rows may not stay contiguous (rowsStayContiguous), the flattened
 * contraction keeps its scratch tile and the chain starts at the first op
 * of the output's shape, the epilogue, which so reads the scratch tile and
 * writes the output: one pass instead of a copy in and a copy out. */
static void reuseOutputSlice(MlirOperation forall) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(forall, 0));
  MlirOperation terminator = mlirBlockGetTerminator(body);
  if (mlirOperationIsNull(terminator) ||
      mlirOperationGetNumRegions(terminator) != 1)
    return;
  MlirOperation insert = mlirBlockGetFirstOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(terminator, 0)));
  if (mlirOperationIsNull(insert) ||
      !kilnOpNameStartsWith(insert, "tensor.parallel_insert_slice") ||
      !mlirOperationIsNull(mlirOperationGetNextInBlock(insert)))
    return; /* several results: left as they are */
  MlirType outType = mlirValueGetType(mlirOperationGetOperand(insert, 0));
  MlirType destType = mlirValueGetType(mlirOperationGetOperand(insert, 1));
  if (mlirShapedTypeGetRank(outType) != mlirShapedTypeGetRank(destType))
    return; /* rank-reducing */
  bool started = false;
  bool flattenOutput = rowsStayContiguous(forall);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op) && !mlirOperationEqual(op, terminator);
       op = mlirOperationGetNextInBlock(op)) {
    intptr_t m = mlirOperationGetNumOperands(op);
    if (!kilnOpNameStartsWith(op, "linalg.") || m < 1 ||
        mlirOperationGetNumResults(op) != 1 || readsInit(op) ||
        !isEmpty(mlirOperationGetOperand(op, m - 1)))
      continue;
    MlirType type = mlirValueGetType(mlirOperationGetOperand(op, m - 1));
    bool same = mlirTypeEqual(type, outType);
    MlirValue over = inPlaceInput(op, body);
    if (!mlirValueIsNull(over) && (started || flattenOutput || !same)) {
      mlirOperationSetOperand(op, m - 1, over);
      continue;
    }
    if (started)
      continue;
    /* The start of the chain: the block's slice of the output, flattened
     * to the contraction's [N, C, P] for an im2col conv. */
    bool flattened = !same && flattenOutput &&
                     mlirShapedTypeGetRank(type) == 3 &&
                     mlirShapedTypeGetRank(outType) > 3 &&
                     mlirShapedTypeHasStaticShape(type) &&
                     mlirShapedTypeHasStaticShape(outType) &&
                     mlirShapedTypeGetDimSize(type, 0) ==
                         mlirShapedTypeGetDimSize(outType, 0) &&
                     mlirShapedTypeGetDimSize(type, 1) ==
                         mlirShapedTypeGetDimSize(outType, 1) &&
                     kilnNumElements(type) == kilnNumElements(outType);
    if (!same && !flattened)
      continue;
    MlirValue dest = outputSlice(insert, op, body);
    if (mlirValueIsNull(dest))
      continue;
    if (flattened)
      dest = collapsePixels(dest, type, op);
    mlirOperationSetOperand(op, m - 1, dest);
    started = true;
  }
}

static MlirWalkResult collectForalls(MlirOperation op, void *userData) {
  if (kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(op)),
                          "scf.forall") &&
      mlirOperationGetNumResults(op) > 0)
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* A padded tensor is a fill of a tensor.empty with the producer's result
 * inserted into it, the fill placed after the producer. Moves the fill (and
 * its tensor.empty) before the producer, so that eliminate-empty-tensors
 * can make the producer write into the padded tensor's interior directly
 * instead of a buffer copied there. */
static void hoistPaddingFill(MlirOperation insert) {
  MlirValue src = mlirOperationGetOperand(insert, 0);
  MlirValue dest = mlirOperationGetOperand(insert, 1);
  if (!mlirValueIsAOpResult(src) || !mlirValueIsAOpResult(dest))
    return;
  MlirOperation producer = mlirOpResultGetOwner(src);
  MlirOperation fill = mlirOpResultGetOwner(dest);
  MlirBlock block = mlirOperationGetBlock(insert);
  if (!kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(fill)),
                           "linalg.fill") ||
      mlirOperationGetNumOperands(fill) != 2 ||
      !mlirBlockEqual(mlirOperationGetBlock(fill), block) ||
      !mlirBlockEqual(mlirOperationGetBlock(producer), block) ||
      availableBefore(dest, producer, block))
    return; /* not a fill, or already before the producer */
  MlirValue init = mlirOperationGetOperand(fill, 1);
  if (!mlirValueIsAOpResult(init) ||
      !kilnOpNameStartsWith(mlirOpResultGetOwner(init), "tensor.empty") ||
      mlirOperationGetNumOperands(mlirOpResultGetOwner(init)) != 0 ||
      !availableBefore(mlirOperationGetOperand(fill, 0), producer, block))
    return;
  MlirOperation empty = mlirOpResultGetOwner(init);
  if (!mlirBlockEqual(mlirOperationGetBlock(empty), block))
    return;
  if (!availableBefore(init, producer, block))
    mlirOperationMoveBefore(empty, producer);
  mlirOperationMoveBefore(fill, producer);
}

static void runTileOutputsInPlace(MlirOperation func, MlirExternalPass pass,
                                  const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  KilnOpList inserts = {0};
  kilnOpListCollectNamed(&inserts, func, "tensor.insert_slice",
                         MlirWalkPreOrder);
  for (size_t i = 0; i < inserts.len; ++i)
    hoistPaddingFill(inserts.data[i]);
  kilnOpListDestroy(&inserts);
  KilnOpList foralls = {0};
  mlirOperationWalk(func, collectForalls, &foralls, MlirWalkPreOrder);
  for (size_t i = 0; i < foralls.len; ++i)
    reuseOutputSlice(foralls.data[i]);
  kilnOpListDestroy(&foralls);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__tensor__,
};

const KilnPassInfo kilnTileOutputsInPlacePass = {
    .argument = "kiln-tile-outputs-in-place",
    .summary = "Chain each thread block's bias, contraction and epilogue "
               "through the block's slice of the output (no scratch "
               "buffers)",
    .anchor = "func.func",
    .run = runTileOutputsInPlace,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

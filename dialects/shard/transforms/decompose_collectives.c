/* kiln-shard-decompose-collectives: the shard collectives
 * convert-shard-to-mpi has no lowering for, in terms of those it has
 * (docs/scale-out.md).
 *
 * shard.all_slice takes each rank's slice of a tensor every rank holds
 * whole (a whole input's batch for dp, a whole bias for tp's split
 * columns): on a 1-D grid of N ranks, rank r's slice is block r of the
 * sliced dim:
 *
 *   %s = shard.all_slice %x on @g grid_axes = [0] slice_axis = 1
 *            : tensor<4x6xf32> -> tensor<4x3xf32>
 *   =>
 *   %r = shard.process_linear_index on @g : index
 *   %o = arith.muli %r, %c3 : index
 *   %s = tensor.extract_slice %x[0, %o] [4, 3] [1, 1]
 *
 * shard.all_gather assembles the ranks' blocks: each rank puts its block
 * into zeros of the whole shape, and an all-reduce sums them (every other
 * rank adds zeros: exact, but for the sign of a zero). It moves N times the
 * bytes of an all-gather; MPI has the better collective, the mpi dialect
 * does not yet:
 *
 *   %g = shard.all_gather %x on @g grid_axes = [0] gather_axis = 0
 *            : tensor<2x6xf32> -> tensor<4x6xf32>
 *   =>
 *   %z = arith.constant dense<0.0> : tensor<4x6xf32>
 *   %p = tensor.insert_slice %x into %z[%o, 0] [2, 6] [1, 1]
 *   %g = shard.all_reduce %p on @g grid_axes = [0]
 *
 * shard.all_reduce of a 0-d tensor (dp's all-reduced run-time check flag)
 * becomes one of a 1-element tensor: MLIR 22's mpi-to-LLVM conversion
 * leaves an mpi.allreduce of a 0-d memref unconverted.
 *
 *   %s = shard.all_reduce %x on @g grid_axes = [0] reduction = bitwise_or
 *            : tensor<i32> -> tensor<i32>
 *   =>
 *   %e = tensor.expand_shape %x [] output_shape [1] : tensor<i32> into
 * tensor<1xi32> %r = shard.all_reduce %e ... : tensor<1xi32> -> tensor<1xi32>
 *   %s = tensor.collapse_shape %r [] : tensor<1xi32> into tensor<i32>
 *
 * Other grid axes than a 1-D grid's are refused with an error (Kiln's
 * plans use one). */
#include "kiln/passes.h"

#include <stdlib.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Shard.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kMaxRank = 16 };

static MlirWalkResult collectOps(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "shard.all_slice") ||
      kilnOpNameIs(op, "shard.all_gather"))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

static MlirWalkResult collectScalarReduces(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "shard.all_reduce") &&
      mlirTypeIsARankedTensor(
          mlirValueGetType(mlirOperationGetResult(op, 0))) &&
      mlirShapedTypeGetRank(mlirValueGetType(mlirOperationGetResult(op, 0))) ==
          0)
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* A 0-d all_reduce as one of a 1-element tensor (above). */
static void reduceAsVector(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirType scalar = mlirValueGetType(result);
  int64_t one = 1;
  MlirType vector = mlirRankedTensorTypeGet(
      1, &one, mlirShapedTypeGetElementType(scalar), mlirAttributeGetNull());
  MlirNamedAttribute reshape[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("reassociation")),
                            mlirArrayAttrGet(ctx, 0, NULL)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("static_output_shape")),
          mlirDenseI64ArrayGet(ctx, 1, &one)),
  };
  MlirValue in = mlirOperationGetOperand(op, 0);
  MlirValue expanded = mlirOperationGetResult(
      kilnInsertOp(op, "tensor.expand_shape", 1, &in, 1, &vector, 2, reshape),
      0);
  intptr_t n = mlirOperationGetNumAttributes(op);
  MlirNamedAttribute *attrs = kilnXCalloc((size_t)n + 1, sizeof(*attrs));
  for (intptr_t i = 0; i < n; ++i)
    attrs[i] = mlirOperationGetAttribute(op, i);
  MlirValue reduced = mlirOperationGetResult(
      kilnInsertOp(op, "shard.all_reduce", 1, &expanded, 1, &vector, n, attrs),
      0);
  free(attrs);
  MlirValue back =
      mlirOperationGetResult(kilnInsertOp(op, "tensor.collapse_shape", 1,
                                          &reduced, 1, &scalar, 1, reshape),
                             0);
  mlirValueReplaceAllUsesOfWith(result, back);
  mlirOperationDestroy(op);
}

/* The collective's block: its dim (slice_axis or gather_axis) and the
 * block's type (the local one); false, with an error, unless it is static
 * over grid axis 0. */
static bool blockOf(MlirOperation op, int64_t *dim, MlirType *block) {
  bool gather = kilnOpNameIs(op, "shard.all_gather");
  MlirAttribute axes =
      mlirOperationGetAttributeByName(op, kilnStr("grid_axes"));
  MlirType in = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType out = mlirValueGetType(mlirOperationGetResult(op, 0));
  *block = gather ? in : out;
  intptr_t rank = mlirShapedTypeGetRank(in);
  *dim = kilnOpGetIntAttr(op, gather ? "gather_axis" : "slice_axis", -1);
  if (mlirAttributeIsNull(axes) || mlirDenseArrayGetNumElements(axes) != 1 ||
      mlirDenseI16ArrayGetElement(axes, 0) != 0 || *dim < 0 || *dim >= rank ||
      rank > kMaxRank || !mlirShapedTypeHasStaticShape(in) ||
      !mlirShapedTypeHasStaticShape(out)) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "kiln-shard-decompose-collectives: only static blocks over "
                   "grid axis 0 are supported");
    return false;
  }
  return true;
}

/* The offsets/sizes/strides of a slice shaped like `block` at one dynamic
 * offset along `dim`, into attrs[0, 3). */
static void sliceAttrs(MlirContext ctx, MlirType block, int64_t dim,
                       MlirNamedAttribute *attrs) {
  intptr_t rank = mlirShapedTypeGetRank(block);
  int64_t offsets[kMaxRank], sizes[kMaxRank], strides[kMaxRank];
  for (intptr_t d = 0; d < rank; ++d) {
    offsets[d] = d == dim ? mlirShapedTypeGetDynamicSize() : 0;
    sizes[d] = mlirShapedTypeGetDimSize(block, d);
    strides[d] = 1;
  }
  attrs[0] =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_offsets")),
                            mlirDenseI64ArrayGet(ctx, rank, offsets));
  attrs[1] =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_sizes")),
                            mlirDenseI64ArrayGet(ctx, rank, sizes));
  attrs[2] =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_strides")),
                            mlirDenseI64ArrayGet(ctx, rank, strides));
}

/* This rank's block offset along `dim`: rank * the block's size. */
static MlirValue blockOffset(MlirOperation op, MlirType block, int64_t dim) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirNamedAttribute grid = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("grid")),
      mlirOperationGetAttributeByName(op, kilnStr("grid")));
  MlirValue r =
      mlirOperationGetResult(kilnInsertOp(op, "shard.process_linear_index", 0,
                                          NULL, 1, &index, 1, &grid),
                             0);
  MlirValue chunk =
      kilnInsertIndexConstant(op, mlirShapedTypeGetDimSize(block, dim));
  MlirValue mulOps[2] = {r, chunk};
  return mlirOperationGetResult(
      kilnInsertOp(op, "arith.muli", 2, mulOps, 1, &index, 0, NULL), 0);
}

/* all_slice: this rank's block, taken locally. */
static void decomposeSlice(MlirOperation op, int64_t dim, MlirType block) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirNamedAttribute attrs[4];
  attrs[0] = kilnSegmentSizesAttr(ctx, 4, (const int32_t[]){1, 1, 0, 0});
  sliceAttrs(ctx, block, dim, attrs + 1);
  MlirValue ops[2] = {mlirOperationGetOperand(op, 0),
                      blockOffset(op, block, dim)};
  MlirValue slice = mlirOperationGetResult(
      kilnInsertOp(op, "tensor.extract_slice", 2, ops, 1, &block, 4, attrs), 0);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), slice);
}

/* all_gather: the blocks in zeros of the whole shape, summed. */
static void decomposeGather(MlirOperation op, int64_t dim, MlirType block) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirType whole = mlirValueGetType(result);
  MlirType elem = mlirShapedTypeGetElementType(whole);
  MlirAttribute zeroElem = mlirTypeIsAFloat(elem)
                               ? mlirFloatAttrDoubleGet(ctx, elem, 0.0)
                               : mlirIntegerAttrGet(elem, 0);
  MlirNamedAttribute zeroAttr =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("value")),
                            mlirDenseElementsAttrSplatGet(whole, zeroElem));
  MlirValue zeros = mlirOperationGetResult(
      kilnInsertOp(op, "arith.constant", 0, NULL, 1, &whole, 1, &zeroAttr), 0);
  MlirNamedAttribute attrs[4];
  attrs[0] = kilnSegmentSizesAttr(ctx, 5, (const int32_t[]){1, 1, 1, 0, 0});
  sliceAttrs(ctx, block, dim, attrs + 1);
  MlirValue ops[3] = {mlirOperationGetOperand(op, 0), zeros,
                      blockOffset(op, block, dim)};
  MlirValue placed = mlirOperationGetResult(
      kilnInsertOp(op, "tensor.insert_slice", 3, ops, 1, &whole, 4, attrs), 0);
  MlirNamedAttribute reduceAttrs[2] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("grid")),
          mlirOperationGetAttributeByName(op, kilnStr("grid"))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("grid_axes")),
          mlirOperationGetAttributeByName(op, kilnStr("grid_axes"))),
  };
  MlirValue sum =
      mlirOperationGetResult(kilnInsertOp(op, "shard.all_reduce", 1, &placed, 1,
                                          &whole, 2, reduceAttrs),
                             0);
  mlirValueReplaceAllUsesOfWith(result, sum);
}

static void runDecompose(MlirOperation module, MlirExternalPass pass,
                         const KilnPassOptionValue *options) {
  (void)options;
  KilnOpList ops = {0};
  mlirOperationWalk(module, collectOps, &ops, MlirWalkPreOrder);
  bool ok = true;
  for (size_t i = 0; i < ops.len && ok; ++i) {
    MlirOperation op = ops.data[i];
    int64_t dim;
    MlirType block;
    if (!(ok = blockOf(op, &dim, &block)))
      break;
    if (kilnOpNameIs(op, "shard.all_gather"))
      decomposeGather(op, dim, block);
    else
      decomposeSlice(op, dim, block);
    mlirOperationDestroy(op);
  }
  kilnOpListClear(&ops);
  /* After the gathers: they add all-reduces of their own. */
  mlirOperationWalk(module, collectScalarReduces, &ops, MlirWalkPreOrder);
  for (size_t i = 0; i < ops.len && ok; ++i)
    reduceAsVector(ops.data[i]);
  kilnOpListDestroy(&ops);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__tensor__,
    mlirGetDialectHandle__shard__};

const KilnPassInfo kilnShardDecomposeCollectivesPass = {
    .argument = "kiln-shard-decompose-collectives",
    .summary = "Express shard.all_slice (a local extract_slice) and "
               "shard.all_gather (an all-reduce of the blocks in zeros) for "
               "convert-shard-to-mpi, which lowers neither, and 0-d "
               "all-reduces as 1-element ones",
    .anchor = "builtin.module",
    .run = runDecompose,
    .dependentDialects = kDialects,
    .numDependentDialects = 3,
};

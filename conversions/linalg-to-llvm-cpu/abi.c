/* Small passes of the CPU back end (pipeline linalg-to-llvm-cpu).
 *
 * kiln-emit-c-interface: marks every public function definition with
 * `llvm.emit_c_interface`, so convert-func-to-llvm emits the
 * `_mlir_ciface_NAME(MemRef *...)` wrapper that the ExecutionEngine and
 * Kiln's runtime call.
 *
 * kiln-memref-copy-to-linalg: rewrites each `memref.copy` whose operands are
 * not both identity-layout into `linalg.copy`. finalize-memref-to-llvm turns
 * such a copy (tensor.pad and tensor.insert_slice into a strided subview
 * bufferize to one) into a call to `memrefCopy`, which lives in
 * libmlir_c_runner_utils and would drag libMLIR into every model. As a
 * linalg op it becomes parallel loops like the rest. Identity-layout copies
 * stay: they lower to a plain memcpy.
 *
 * kiln-distinct-results: after bufferization, gives each result of a
 * function its own buffer. A function returning one buffer twice (a split
 * into empty pieces, an op whose two results fold to one value) crashes
 * buffer-results-to-out-params, which moves each returned allocation into
 * its out-parameter: the second result gets a fresh allocation and a copy. */
#include <string.h>

#include "kiln/passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

static MlirWalkResult markPublic(MlirOperation op, void *userData) {
  (void)userData;
  if (kilnFuncIsPublicDefinition(op))
    mlirOperationSetAttributeByName(
        op, mlirStringRefCreateFromCString("llvm.emit_c_interface"),
        mlirUnitAttrGet(mlirOperationGetContext(op)));
  /* Functions do not nest: nothing below an op needs a look. */
  return kilnOpNameIs(op, "func.func") ? MlirWalkResultSkip
                                       : MlirWalkResultAdvance;
}

static void runEmitCInterface(MlirOperation op, MlirExternalPass pass,
                              const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  mlirOperationWalk(op, markPublic, NULL, MlirWalkPreOrder);
}

const KilnPassInfo kilnEmitCInterfacePass = {
    .argument = "kiln-emit-c-interface",
    .summary = "Mark public functions with llvm.emit_c_interface",
    .anchor = "builtin.module",
    .run = runEmitCInterface,
};

/* A growable list of the copies to rewrite: collected first, rewritten
 * after the walk, so the walk never sees an erased op. */
static bool hasIdentityLayout(MlirType type) {
  return mlirTypeIsAMemRef(type) &&
         mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(type));
}

static MlirWalkResult collectCopies(MlirOperation op, void *userData) {
  if (!mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                          mlirStringRefCreateFromCString("memref.copy")))
    return MlirWalkResultAdvance;
  if (hasIdentityLayout(mlirValueGetType(mlirOperationGetOperand(op, 0))) &&
      hasIdentityLayout(mlirValueGetType(mlirOperationGetOperand(op, 1))))
    return MlirWalkResultAdvance;
  kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

static void rewriteCopy(MlirOperation copy) {
  MlirContext ctx = mlirOperationGetContext(copy);
  MlirValue operands[2] = {mlirOperationGetOperand(copy, 0),
                           mlirOperationGetOperand(copy, 1)};
  MlirNamedAttribute segAttr =
      kilnSegmentSizesAttr(ctx, 2, (const int32_t[]){1, 1});
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("linalg.copy"),
                            mlirOperationGetLocation(copy));
  mlirOperationStateAddOperands(&st, 2, operands);
  mlirOperationStateAddAttributes(&st, 1, &segAttr);
  MlirRegion region = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation linalgCopy = mlirOperationCreate(&st);
  mlirLinalgFillBuiltinNamedOpRegion(linalgCopy);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(copy), copy,
                                      linalgCopy);
  mlirOperationDestroy(copy);
}

/* A staging copy between host and device (marked by kiln-gpu-stage-io)
 * must stay one contiguous transfer (kiln-gpu-device-memory makes it a
 * gpu.memcpy); when canonicalization folded a cast so that its device side
 * is a strided view, the view is gathered to (or scattered from) a
 * contiguous device buffer by a linalg.copy, which becomes a kernel. */
static void splitTransfer(MlirOperation copy) {
  MlirContext ctx = mlirOperationGetContext(copy);
  bool stridedSrc =
      !hasIdentityLayout(mlirValueGetType(mlirOperationGetOperand(copy, 0)));
  MlirValue strided = mlirOperationGetOperand(copy, stridedSrc ? 0 : 1);
  MlirType type = mlirValueGetType(strided);
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t dims[16];
  for (intptr_t d = 0; d < rank && d < 16; ++d)
    dims[d] = mlirShapedTypeGetDimSize(type, d);
  MlirType contiguous = mlirMemRefTypeGet(mlirShapedTypeGetElementType(type),
                                          rank, dims, mlirAttributeGetNull(),
                                          mlirMemRefTypeGetMemorySpace(type));
  MlirNamedAttribute seg =
      kilnSegmentSizesAttr(ctx, 2, (const int32_t[]){0, 0});
  MlirValue temp = mlirOperationGetResult(
      kilnInsertOp(copy, "memref.alloc", 0, NULL, 1, &contiguous, 1, &seg), 0);
  MlirOperation next = mlirOperationGetNextInBlock(copy);
  MlirOperation gather = kilnInsertOp(
      stridedSrc ? copy : next, "memref.copy", 2,
      (MlirValue[]){stridedSrc ? strided : temp, stridedSrc ? temp : strided},
      0, NULL, 0, NULL);
  mlirOperationSetOperand(copy, stridedSrc ? 0 : 1, temp);
  kilnInsertOp(next, "memref.dealloc", 1, &temp, 0, NULL, 0, NULL);
  rewriteCopy(gather);
}

static bool isTransfer(MlirOperation copy) {
  MlirType types[2] = {mlirValueGetType(mlirOperationGetOperand(copy, 0)),
                       mlirValueGetType(mlirOperationGetOperand(copy, 1))};
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
             copy, mlirStringRefCreateFromCString("kiln.gpu.transfer"))) &&
         mlirShapedTypeHasStaticShape(types[0]) &&
         mlirShapedTypeGetRank(types[0]) <= 16 &&
         (hasIdentityLayout(types[0]) || hasIdentityLayout(types[1]));
}

static void runMemrefCopyToLinalg(MlirOperation op, MlirExternalPass pass,
                                  const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  KilnOpList list = {0};
  mlirOperationWalk(op, collectCopies, &list, MlirWalkPostOrder);
  for (size_t i = 0; i < list.len; ++i) {
    if (isTransfer(list.data[i]))
      splitTransfer(list.data[i]);
    else
      rewriteCopy(list.data[i]);
  }
  kilnOpListDestroy(&list);
}

static const KilnDialectHandleGetter kLinalgDialect[] = {
    mlirGetDialectHandle__linalg__};

const KilnPassInfo kilnMemrefCopyToLinalgPass = {
    .argument = "kiln-memref-copy-to-linalg",
    .summary = "Rewrite strided memref.copy (a memrefCopy call) as linalg.copy",
    .anchor = NULL,
    .run = runMemrefCopyToLinalg,
    .dependentDialects = kLinalgDialect,
    .numDependentDialects = 1,
};

/* Returns the returned memref `v` as a new allocation holding a copy, built
 * before `ret`. */
static MlirValue copyToNewBuffer(MlirOperation ret, MlirValue v) {
  MlirLocation loc = mlirOperationGetLocation(ret);
  MlirBlock block = mlirOperationGetBlock(ret);
  MlirType type = mlirValueGetType(v);
  MlirContext ctx = mlirOperationGetContext(ret);
  MlirNamedAttribute segAttr =
      kilnSegmentSizesAttr(ctx, 2, (const int32_t[]){0, 0});
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("memref.alloc"), loc);
  mlirOperationStateAddResults(&st, 1, &type);
  mlirOperationStateAddAttributes(&st, 1, &segAttr);
  MlirOperation alloc = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(block, ret, alloc);
  MlirValue copyOperands[2] = {v, mlirOperationGetResult(alloc, 0)};
  st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("memref.copy"), loc);
  mlirOperationStateAddOperands(&st, 2, copyOperands);
  mlirBlockInsertOwnedOperationBefore(block, ret, mlirOperationCreate(&st));
  return copyOperands[1];
}

static void runDistinctResults(MlirOperation func, MlirExternalPass pass,
                               const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(block))
    return;
  MlirOperation ret = mlirBlockGetTerminator(block);
  if (mlirOperationIsNull(ret))
    return;
  intptr_t n = mlirOperationGetNumOperands(ret);
  for (intptr_t i = 1; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t))
      continue;
    for (intptr_t j = 0; j < i; ++j)
      if (mlirValueEqual(v, mlirOperationGetOperand(ret, j))) {
        mlirOperationSetOperand(ret, i, copyToNewBuffer(ret, v));
        break;
      }
  }
}

static const KilnDialectHandleGetter kMemRefDialect[] = {
    mlirGetDialectHandle__memref__};

const KilnPassInfo kilnDistinctResultsPass = {
    .argument = "kiln-distinct-results",
    .summary = "Give each returned buffer of a function its own allocation",
    .anchor = "func.func",
    .run = runDistinctResults,
    .dependentDialects = kMemRefDialect,
    .numDependentDialects = 1,
};

/* kiln-expand-dynamic-groups: MLIR 22's expand-strided-metadata crashes
 * on a memref.expand_shape with two dynamic dims in one group (building
 * the result's strides, docs/mlir22-notes.md). An expand is a
 * reinterpretation of its source's elements: each group's last dim keeps
 * the stride of the source dim it splits, and each dim before it strides
 * over the dims after it in the group:
 *
 *   %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%a, %b, 8]
 *          : memref<?x8xf32, strided<[8, 1]>> into
 *            memref<?x?x8xf32, strided<[?, 8, 1]>>
 * becomes
 *   %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %m
 *   %s0 = arith.muli %strides#0, %b
 *   %e = memref.reinterpret_cast %base to offset: [0], sizes: [%a, %b, 8],
 *          strides: [%s0, 8, 1]
 *
 * (the result type's static strides and offset as constants, the others
 * computed). expand-strided-metadata then folds the metadata of the source
 * (an allocation's sizes, a subview's offsets). */

static bool hasTwoDynamicInAGroup(MlirOperation expand) {
  MlirAttribute groups = mlirOperationGetAttributeByName(
      expand, mlirStringRefCreateFromCString("reassociation"));
  MlirType type = mlirValueGetType(mlirOperationGetResult(expand, 0));
  for (intptr_t g = 0; g < mlirArrayAttrGetNumElements(groups); ++g) {
    MlirAttribute group = mlirArrayAttrGetElement(groups, g);
    int dynamic = 0;
    for (intptr_t k = 0; k < mlirArrayAttrGetNumElements(group); ++k)
      dynamic += mlirShapedTypeIsDynamicDim(
          type, mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(group, k)));
    if (dynamic > 1)
      return true;
  }
  return false;
}

enum { kMaxExpandRank = 16 };

/* Whether `type` is a memref of a strided layout of rank at most
 * kMaxExpandRank; its strides and offset (static or dynamic) go to the
 * arrays. */
static bool stridedLayout(MlirType type, int64_t *strides, int64_t *offset) {
  return mlirTypeIsAMemRef(type) &&
         mlirShapedTypeGetRank(type) <= kMaxExpandRank &&
         mlirLogicalResultIsSuccess(
             mlirMemRefTypeGetStridesAndOffset(type, strides, offset));
}

static MlirWalkResult collectDynamicExpands(MlirOperation op, void *userData) {
  int64_t strides[kMaxExpandRank], offset;
  if (kilnOpNameIs(op, "memref.expand_shape") &&
      stridedLayout(mlirValueGetType(mlirOperationGetOperand(op, 0)), strides,
                    &offset) &&
      stridedLayout(mlirValueGetType(mlirOperationGetResult(op, 0)), strides,
                    &offset) &&
      hasTwoDynamicInAGroup(op))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

static MlirValue insertMul(MlirOperation before, MlirValue a, MlirValue b) {
  MlirType index = mlirIndexTypeGet(mlirOperationGetContext(before));
  MlirValue ops[2] = {a, b};
  return mlirOperationGetResult(
      kilnInsertOp(before, "arith.muli", 2, ops, 1, &index, 0, NULL), 0);
}

/* The expand's result strides as values (file comment). */
static void expandStrides(MlirOperation expand, const MlirValue *sizeValues,
                          const MlirValue *sourceStrides,
                          MlirValue *strideValues) {
  MlirAttribute groups = mlirOperationGetAttributeByName(
      expand, mlirStringRefCreateFromCString("reassociation"));
  for (intptr_t g = 0; g < mlirArrayAttrGetNumElements(groups); ++g) {
    MlirAttribute group = mlirArrayAttrGetElement(groups, g);
    intptr_t n = mlirArrayAttrGetNumElements(group);
    MlirValue stride = sourceStrides[g];
    for (intptr_t k = n - 1; k >= 0; --k) {
      intptr_t d =
          mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(group, k));
      strideValues[d] = stride;
      if (k > 0)
        stride = insertMul(expand, stride, sizeValues[d]);
    }
  }
}

static void expandToReinterpretCast(MlirOperation expand) {
  MlirContext ctx = mlirOperationGetContext(expand);
  MlirValue src = mlirOperationGetOperand(expand, 0);
  MlirType srcType = mlirValueGetType(src);
  MlirType type = mlirValueGetType(mlirOperationGetResult(expand, 0));
  intptr_t r = mlirShapedTypeGetRank(type);
  intptr_t rs = mlirShapedTypeGetRank(srcType);
  int64_t strides[kMaxExpandRank], offset;
  stridedLayout(type, strides, &offset);
  /* %base, %offset, %sizes..., %strides... of the source. */
  MlirType index = mlirIndexTypeGet(ctx);
  MlirType metaTypes[2 + 2 * kMaxExpandRank];
  metaTypes[0] =
      mlirMemRefTypeContiguousGet(mlirShapedTypeGetElementType(srcType), 0,
                                  NULL, mlirMemRefTypeGetMemorySpace(srcType));
  for (intptr_t i = 1; i < 2 + 2 * rs; ++i)
    metaTypes[i] = index;
  MlirOperation meta = kilnInsertOp(expand, "memref.extract_strided_metadata",
                                    1, &src, 2 + 2 * rs, metaTypes, 0, NULL);
  MlirValue sourceStrides[kMaxExpandRank];
  for (intptr_t i = 0; i < rs; ++i)
    sourceStrides[i] = mlirOperationGetResult(meta, 2 + rs + i);
  /* The dynamic sizes are the expand's output_shape operands, in order. */
  int64_t sizes[kMaxExpandRank];
  MlirValue sizeValues[kMaxExpandRank], strideValues[kMaxExpandRank];
  MlirValue operands[2 + 2 * kMaxExpandRank];
  intptr_t nSizes = 0;
  for (intptr_t i = 0; i < r; ++i) {
    sizes[i] = mlirShapedTypeGetDimSize(type, i);
    sizeValues[i] = mlirShapedTypeIsDynamicSize(sizes[i])
                        ? mlirOperationGetOperand(expand, 1 + nSizes++)
                        : kilnInsertIndexConstant(expand, sizes[i]);
  }
  expandStrides(expand, sizeValues, sourceStrides, strideValues);
  /* Operands: base, the dynamic offset, sizes and strides. */
  intptr_t n = 0, nOffsets = 0, nStrides = 0;
  operands[n++] = mlirOperationGetResult(meta, 0);
  if (mlirShapedTypeIsDynamicStrideOrOffset(offset)) {
    operands[n++] = mlirOperationGetResult(meta, 1);
    nOffsets = 1;
  }
  for (intptr_t i = 0; i < r; ++i)
    if (mlirShapedTypeIsDynamicSize(sizes[i]))
      operands[n++] = sizeValues[i];
  for (intptr_t i = 0; i < r; ++i)
    if (mlirShapedTypeIsDynamicStrideOrOffset(strides[i])) {
      operands[n++] = strideValues[i];
      ++nStrides;
    }
  MlirNamedAttribute attrs[4] = {
      kilnSegmentSizesAttr(ctx, 4,
                           (const int32_t[]){1, (int32_t)nOffsets,
                                             (int32_t)nSizes,
                                             (int32_t)nStrides}),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx,
                            mlirStringRefCreateFromCString("static_offsets")),
          mlirDenseI64ArrayGet(ctx, 1, &offset)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx,
                            mlirStringRefCreateFromCString("static_sizes")),
          mlirDenseI64ArrayGet(ctx, r, sizes)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx,
                            mlirStringRefCreateFromCString("static_strides")),
          mlirDenseI64ArrayGet(ctx, r, strides)),
  };
  MlirOperation cast = kilnInsertOp(expand, "memref.reinterpret_cast", n,
                                    operands, 1, &type, 4, attrs);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(expand, 0),
                                mlirOperationGetResult(cast, 0));
  mlirOperationDestroy(expand);
}

static void runExpandDynamicGroups(MlirOperation op, MlirExternalPass pass,
                                   const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  KilnOpList expands = {0};
  mlirOperationWalk(op, collectDynamicExpands, &expands, MlirWalkPreOrder);
  for (size_t i = 0; i < expands.len; ++i)
    expandToReinterpretCast(expands.data[i]);
  kilnOpListDestroy(&expands);
}

static const KilnDialectHandleGetter kMemRefArithDialects[] = {
    mlirGetDialectHandle__memref__, mlirGetDialectHandle__arith__};

const KilnPassInfo kilnExpandDynamicGroupsPass = {
    .argument = "kiln-expand-dynamic-groups",
    .summary = "Rewrite memref.expand_shape with two dynamic dims in a group "
               "(which expand-strided-metadata cannot take) as "
               "memref.reinterpret_cast of its source's base buffer",
    .anchor = NULL,
    .run = runExpandDynamicGroups,
    .dependentDialects = kMemRefArithDialects,
    .numDependentDialects = 2,
};

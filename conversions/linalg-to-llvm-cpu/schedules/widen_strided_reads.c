/* kiln-widen-strided-reads: reads every other element as two contiguous
 * vectors and one shuffle (docs/cpu-codegen.md).
 *
 * A stride-2 window (a stride-2 conv's im2col tap copies, a strided
 * depthwise conv's taps, a strided Slice) bufferizes to a memref view whose
 * innermost stride is 2; its vector reads, `vector.transfer_read` of n
 * elements, are assembled by LLVM lane by lane from n scalar loads. This
 * pass rewrites each such 1-D read (unmasked, 2 <= n <= 64; in bounds, or
 * out of bounds from a constant start of a static innermost dim: a
 * remainder tile widened to a masked vector, masked_remainders.h, whose
 * window then spans fewer elements and whose reads past it are masked):
 *
 *   %v = vector.transfer_read %s[%i, .., %j], %pad {in_bounds = [true]}
 *        : memref<.. x k x T, strided<[.., 2], offset: ?>>, vector<n x T>
 *
 * becomes, with `off` the element offset of %s[%i, .., %j] in its base
 * buffer (extract_strided_metadata: offset + sum of index * stride),
 *
 *   %row = memref.reinterpret_cast %base to offset: [off], sizes: [2n - 1],
 *          strides: [1]                 -- the 2n - 1 elements the window spans
 *   %a = vector.transfer_read %row[0], %pad     : vector<n x T>
 *   %b = vector.transfer_read %row[n - 1], %pad : vector<n x T>
 *   %v = vector.shuffle %a, %b [even elements of the window]
 *
 * Both reads stay within the window, and the shuffle of two registers is
 * one permute (`vpermt2ps` on AVX-512). A 2-D read, vector<r x n> of the
 * two innermost dims (a strided depthwise conv's register tile of r output
 * rows, each with its own accumulator), is rewritten row by row, each row
 * at the offset plus its index times the outer stride, and the r rows put
 * together with vector.insert (registers of an LLVM array: no moves); left
 * alone, it was assembled lane by lane, 2 r n loads and inserts. It runs
 * after the elementwise vectorization of buffers, before the vector
 * dialect is lowered. */
#include "kiln/diagnostics.h"
#include "kiln/passes.h"

#include <stdint.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/Vector.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kMaxLanes = 64, kMaxRank = 16 };

static MlirNamedAttribute namedAttr(MlirContext ctx, const char *name,
                                    MlirAttribute attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr(name)), attr);
}

/* How many of the `n` lanes of a read lie in its source: n when it is in
 * bounds; for a read out of bounds (a remainder tile widened to a masked
 * full vector, masked_remainders.h), the source's static innermost size
 * less the read's constant start there; 0 when unknown. */
static int64_t validLanes(MlirOperation read, int64_t n) {
  MlirAttribute inBounds =
      mlirOperationGetAttributeByName(read, kilnStr("in_bounds"));
  intptr_t last = mlirArrayAttrGetNumElements(inBounds) - 1;
  if (mlirBoolAttrGetValue(mlirArrayAttrGetElement(inBounds, last)))
    return n;
  MlirType srcType = mlirValueGetType(mlirOperationGetOperand(read, 0));
  intptr_t rank = mlirShapedTypeGetRank(srcType);
  int64_t size = mlirShapedTypeGetDimSize(srcType, rank - 1), start;
  if (mlirShapedTypeIsDynamicSize(size) ||
      !kilnConstantIndexValue(mlirOperationGetOperand(read, rank), &start) ||
      start < 0 || start >= size)
    return 0;
  return size - start < n ? size - start : n;
}

/* The number of lanes of a read this pass rewrites: an unmasked read of
 * a memref whose innermost stride is a static 2, 1-D along its innermost
 * dim or 2-D along its two innermost dims (the rows in bounds), the lanes
 * in bounds or a widened remainder (validLanes); 0 for any other read. */
static int64_t stride2Lanes(MlirOperation read) {
  MlirValue src = mlirOperationGetOperand(read, 0);
  MlirType srcType = mlirValueGetType(src);
  MlirType vecType = mlirValueGetType(mlirOperationGetResult(read, 0));
  if (!mlirTypeIsAMemRef(srcType) || !mlirTypeIsAVector(vecType))
    return 0;
  intptr_t vecRank = mlirShapedTypeGetRank(vecType);
  intptr_t rank = mlirShapedTypeGetRank(srcType);
  /* source, one index per dim, padding: no mask */
  if (vecRank < 1 || vecRank > 2 || rank < vecRank || rank > kMaxRank ||
      mlirOperationGetNumOperands(read) != rank + 2)
    return 0;
  int64_t strides[kMaxRank], offset;
  if (mlirLogicalResultIsFailure(
          mlirMemRefTypeGetStridesAndOffset(srcType, strides, &offset)) ||
      strides[rank - 1] != 2)
    return 0;
  MlirAttribute inBounds =
      mlirOperationGetAttributeByName(read, kilnStr("in_bounds"));
  if (mlirAttributeIsNull(inBounds) || !mlirAttributeIsAArray(inBounds) ||
      mlirArrayAttrGetNumElements(inBounds) != vecRank ||
      (vecRank == 2 &&
       !mlirBoolAttrGetValue(mlirArrayAttrGetElement(inBounds, 0))))
    return 0;
  MlirAttribute perm =
      mlirOperationGetAttributeByName(read, kilnStr("permutation_map"));
  if (mlirAttributeIsNull(perm) || !mlirAttributeIsAAffineMap(perm))
    return 0;
  MlirAffineMap map = mlirAffineMapAttrGetValue(perm);
  if (!mlirAffineMapIsMinorIdentity(map) ||
      mlirAffineMapGetNumResults(map) != vecRank)
    return 0;
  int64_t n = mlirShapedTypeGetDimSize(vecType, vecRank - 1);
  return n >= 2 && n <= kMaxLanes && validLanes(read, n) ? n : 0;
}

/* The element offset of the read's first element in the base buffer of its
 * source: offset + sum of index * stride, from extract_strided_metadata,
 * built before `read`. Returns the base buffer in *base and the stride of
 * the source's next-to-innermost dim (null for a 1-D source) in *rowStride. */
static MlirValue firstElement(MlirOperation read, MlirValue *base,
                              MlirValue *rowStride) {
  MlirValue src = mlirOperationGetOperand(read, 0);
  MlirType srcType = mlirValueGetType(src);
  MlirContext ctx = mlirTypeGetContext(srcType);
  intptr_t rank = mlirShapedTypeGetRank(srcType);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirType types[2 + 2 * kMaxRank];
  types[0] = mlirMemRefTypeGet(mlirShapedTypeGetElementType(srcType), 0, NULL,
                               mlirAttributeGetNull(),
                               mlirMemRefTypeGetMemorySpace(srcType));
  for (intptr_t i = 1; i < 2 + 2 * rank; ++i)
    types[i] = index;
  MlirOperation meta = kilnInsertOp(read, "memref.extract_strided_metadata", 1,
                                    &src, 2 + 2 * rank, types, 0, NULL);
  *base = mlirOperationGetResult(meta, 0);
  *rowStride = rank > 1 ? mlirOperationGetResult(meta, 2 + 2 * rank - 2)
                        : (MlirValue){NULL};
  MlirValue off = mlirOperationGetResult(meta, 1);
  for (intptr_t d = 0; d < rank; ++d) {
    MlirValue mul[2] = {mlirOperationGetOperand(read, 1 + d),
                        mlirOperationGetResult(meta, 2 + rank + d)};
    MlirValue term = mlirOperationGetResult(
        kilnInsertOp(read, "arith.muli", 2, mul, 1, &index, 0, NULL), 0);
    MlirValue add[2] = {off, term};
    off = mlirOperationGetResult(
        kilnInsertOp(read, "arith.addi", 2, add, 1, &index, 0, NULL), 0);
  }
  return off;
}

/* memref.reinterpret_cast of `base` to the `len` contiguous elements from
 * `offset`, before `before`. */
static MlirValue contiguousRow(MlirOperation before, MlirValue base,
                               MlirValue offset, int64_t len) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType baseType = mlirValueGetType(base);
  int64_t dynamic = mlirShapedTypeGetDynamicStrideOrOffset();
  int64_t one = 1;
  MlirAttribute layout = mlirStridedLayoutAttrGet(ctx, dynamic, 1, &one);
  MlirType rowType =
      mlirMemRefTypeGet(mlirShapedTypeGetElementType(baseType), 1, &len, layout,
                        mlirMemRefTypeGetMemorySpace(baseType));
  int32_t segs[4] = {1, 1, 0, 0};
  MlirNamedAttribute attrs[4] = {
      kilnSegmentSizesAttr(ctx, 4, segs),
      namedAttr(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, 1, &dynamic)),
      namedAttr(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, 1, &len)),
      namedAttr(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, 1, &one))};
  MlirValue operands[2] = {base, offset};
  return mlirOperationGetResult(kilnInsertOp(before, "memref.reinterpret_cast",
                                             2, operands, 1, &rowType, 4,
                                             attrs),
                                0);
}

/* The `n` even elements of the `len` contiguous elements from `offset` in
 * `base`: two reads and a shuffle, before `read` (whose padding they
 * take). */
static MlirValue evenElements(MlirOperation read, MlirValue base,
                              MlirValue offset, int64_t n, int64_t len) {
  MlirContext ctx = mlirOperationGetContext(read);
  MlirType vecType =
      mlirVectorTypeGet(1, &n,
                        mlirShapedTypeGetElementType(
                            mlirValueGetType(mlirOperationGetResult(read, 0))));
  MlirValue row = contiguousRow(read, base, offset, len);
  MlirValue pad =
      mlirOperationGetOperand(read, mlirOperationGetNumOperands(read) - 1);
  MlirAffineMap id = mlirAffineMapMinorIdentityGet(ctx, 1, 1);
  int32_t segs[4] = {1, 1, 1, 0};
  MlirValue halves[2];
  int64_t starts[2] = {0, n - 1};
  for (int h = 0; h < 2; ++h) {
    MlirAttribute inBounds = mlirBoolAttrGet(ctx, starts[h] + n <= len);
    MlirNamedAttribute attrs[3] = {
        namedAttr(ctx, "in_bounds", mlirArrayAttrGet(ctx, 1, &inBounds)),
        namedAttr(ctx, "permutation_map", mlirAffineMapAttrGet(id)),
        kilnSegmentSizesAttr(ctx, 4, segs)};
    MlirValue operands[3] = {row, kilnInsertIndexConstant(read, starts[h]),
                             pad};
    halves[h] =
        mlirOperationGetResult(kilnInsertOp(read, "vector.transfer_read", 3,
                                            operands, 1, &vecType, 3, attrs),
                               0);
  }
  /* Element 2i of the window: lane 2i of the first read while 2i < n, else
   * lane 2i - (n - 1) of the second, shuffle index 2i + 1. */
  int64_t mask[kMaxLanes];
  for (int64_t i = 0; i < n; ++i)
    mask[i] = 2 * i < n ? 2 * i : 2 * i + 1;
  MlirNamedAttribute maskAttr =
      namedAttr(ctx, "mask", mlirDenseI64ArrayGet(ctx, n, mask));
  return mlirOperationGetResult(kilnInsertOp(read, "vector.shuffle", 2, halves,
                                             1, &vecType, 1, &maskAttr),
                                0);
}

/* Rewrites `read` (stride2Lanes: n lanes per row) as the even elements of
 * each of its rows, put together with vector.insert when it is 2-D. */
static void widenRead(MlirOperation read, int64_t n) {
  MlirContext ctx = mlirOperationGetContext(read);
  MlirType vecType = mlirValueGetType(mlirOperationGetResult(read, 0));
  MlirType index = mlirIndexTypeGet(ctx);
  MlirValue base, rowStride;
  MlirValue offset = firstElement(read, &base, &rowStride);
  /* A window of `valid` < n lanes spans 2 valid - 1 elements: the reads
   * past its end are masked, and so are the lanes they feed. */
  int64_t valid = validLanes(read, n), len = 2 * valid - 1;
  if (mlirShapedTypeGetRank(vecType) == 1) {
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(read, 0),
                                  evenElements(read, base, offset, n, len));
    mlirOperationDestroy(read);
    return;
  }
  /* Every row of it is overwritten: LLVM folds the zeros away. */
  MlirNamedAttribute zeros = namedAttr(
      ctx, "value",
      mlirDenseElementsAttrSplatGet(
          vecType, mlirFloatAttrDoubleGet(
                       ctx, mlirShapedTypeGetElementType(vecType), 0.0)));
  MlirValue result = mlirOperationGetResult(
      kilnInsertOp(read, "arith.constant", 0, NULL, 1, &vecType, 1, &zeros), 0);
  for (int64_t r = 0; r < mlirShapedTypeGetDimSize(vecType, 0); ++r) {
    MlirValue rowOffset = offset;
    if (r) {
      MlirValue mul[2] = {kilnInsertIndexConstant(read, r), rowStride};
      MlirValue add[2] = {
          offset,
          mlirOperationGetResult(
              kilnInsertOp(read, "arith.muli", 2, mul, 1, &index, 0, NULL), 0)};
      rowOffset = mlirOperationGetResult(
          kilnInsertOp(read, "arith.addi", 2, add, 1, &index, 0, NULL), 0);
    }
    MlirValue ops[2] = {evenElements(read, base, rowOffset, n, len), result};
    MlirNamedAttribute pos =
        namedAttr(ctx, "static_position", mlirDenseI64ArrayGet(ctx, 1, &r));
    result = mlirOperationGetResult(
        kilnInsertOp(read, "vector.insert", 2, ops, 1, &vecType, 1, &pos), 0);
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(read, 0), result);
  mlirOperationDestroy(read);
}

static MlirWalkResult collectReads(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "vector.transfer_read") && stride2Lanes(op))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

static void runWidenStridedReads(MlirOperation func, MlirExternalPass pass,
                                 const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  KilnOpList reads = {0};
  mlirOperationWalk(func, collectReads, &reads, MlirWalkPreOrder);
  for (size_t i = 0; i < reads.len; ++i)
    widenRead(reads.data[i], stride2Lanes(reads.data[i]));
  kilnOpListDestroy(&reads);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__vector__,
};

const KilnPassInfo kilnWidenStridedReadsPass = {
    .argument = "kiln-widen-strided-reads",
    .summary = "Read stride-2 vectors of memrefs as two contiguous reads "
               "and one shuffle",
    .anchor = "func.func",
    .run = runWidenStridedReads,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

/* The arith, tensor and scf ops around imported subgraphs
 * (control_flow_internal.h). Every builder appends to the end of a block;
 * the importer never inserts control-flow glue anywhere else. */
#include <stdlib.h>

#include "conversions/onnx-to-graph/control_flow_internal.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

enum { kMaxRank = KILN_ONNX_CF_MAX_RANK };

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute a) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr(name)), a);
}

MlirOperation kilnOnnxCfCreate(MlirBlock block, MlirLocation loc,
                               const char *name, const MlirValue *operands,
                               intptr_t numOperands, const MlirType *results,
                               intptr_t numResults,
                               const MlirNamedAttribute *attrs,
                               intptr_t numAttrs, MlirRegion *regions,
                               intptr_t numRegions) {
  MlirOperationState st = mlirOperationStateGet(kilnStr(name), loc);
  mlirOperationStateAddOperands(&st, numOperands, operands);
  mlirOperationStateAddResults(&st, numResults, results);
  mlirOperationStateAddAttributes(&st, numAttrs, attrs);
  mlirOperationStateAddOwnedRegions(&st, numRegions, regions);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(block, op);
  return op;
}

/* Creates a one-result op and returns the result. */
static MlirValue create1(MlirBlock block, MlirLocation loc, const char *name,
                         const MlirValue *operands, intptr_t numOperands,
                         MlirType result, const MlirNamedAttribute *attrs,
                         intptr_t numAttrs) {
  MlirOperation op = kilnOnnxCfCreate(block, loc, name, operands, numOperands,
                                      &result, 1, attrs, numAttrs, NULL, 0);
  return mlirOperationGetResult(op, 0);
}

MlirValue kilnOnnxCfIntConst(MlirBlock block, MlirLocation loc, MlirType type,
                             int64_t v) {
  MlirNamedAttribute value =
      named(mlirLocationGetContext(loc), "value", mlirIntegerAttrGet(type, v));
  return create1(block, loc, "arith.constant", NULL, 0, type, &value, 1);
}

MlirValue kilnOnnxCfIndex(MlirBlock block, MlirLocation loc, int64_t v) {
  return kilnOnnxCfIntConst(block, loc,
                            mlirIndexTypeGet(mlirLocationGetContext(loc)), v);
}

MlirValue kilnOnnxCfBinary(MlirBlock block, MlirLocation loc, const char *op,
                           MlirValue a, MlirValue b) {
  char name[32] = "arith.";
  size_t i = 6;
  for (; *op && i + 1 < sizeof(name); ++op)
    name[i++] = *op;
  name[i] = '\0';
  MlirValue operands[2] = {a, b};
  return create1(block, loc, name, operands, 2, mlirValueGetType(a), NULL, 0);
}

MlirValue kilnOnnxCfLessThan(MlirBlock block, MlirLocation loc, MlirValue a,
                             MlirValue b) {
  MlirContext ctx = mlirLocationGetContext(loc);
  enum { kSlt = 2 }; /* arith::CmpIPredicate::slt */
  MlirNamedAttribute pred = named(
      ctx, "predicate", mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), kSlt));
  MlirValue operands[2] = {a, b};
  return create1(block, loc, "arith.cmpi", operands, 2,
                 mlirIntegerTypeGet(ctx, 1), &pred, 1);
}

MlirValue kilnOnnxCfIndexCast(MlirBlock block, MlirLocation loc, MlirValue v,
                              MlirType type) {
  return create1(block, loc, "arith.index_cast", &v, 1, type, NULL, 0);
}

MlirValue kilnOnnxCfExtractFirst(MlirBlock block, MlirLocation loc,
                                 MlirValue t) {
  MlirType type = mlirValueGetType(t);
  intptr_t rank = mlirShapedTypeGetRank(type);
  MlirValue operands[1 + kMaxRank];
  operands[0] = t;
  MlirValue zero = rank ? kilnOnnxCfIndex(block, loc, 0) : (MlirValue){NULL};
  for (intptr_t i = 0; i < rank && i < kMaxRank; ++i)
    operands[1 + i] = zero;
  return create1(block, loc, "tensor.extract", operands, 1 + rank,
                 mlirShapedTypeGetElementType(type), NULL, 0);
}

MlirValue kilnOnnxCfScalarTensor(MlirBlock block, MlirLocation loc,
                                 MlirValue v) {
  MlirType type = mlirRankedTensorTypeGet(0, NULL, mlirValueGetType(v),
                                          mlirAttributeGetNull());
  return create1(block, loc, "tensor.from_elements", &v, 1, type, NULL, 0);
}

MlirValue kilnOnnxCfEmpty(MlirBlock block, MlirLocation loc, MlirType type,
                          const MlirValue *dynSizes, intptr_t numDynSizes) {
  return create1(block, loc, "tensor.empty", dynSizes, numDynSizes, type, NULL,
                 0);
}

MlirValue kilnOnnxCfCast(MlirBlock block, MlirLocation loc, MlirValue v,
                         MlirType type) {
  if (mlirTypeEqual(mlirValueGetType(v), type))
    return v;
  return create1(block, loc, "tensor.cast", &v, 1, type, NULL, 0);
}

/* The static offsets, sizes and strides of a one-slice access at a
 * dynamic offset along `axis` of a tensor of `rank` dims, whose other
 * sizes are `dims` (dims[axis] is the slice's size there). */
static void sliceAttrs(MlirContext ctx, intptr_t rank, intptr_t axis,
                       const int64_t *dims, MlirNamedAttribute *out) {
  int64_t offsets[kMaxRank], strides[kMaxRank];
  for (intptr_t i = 0; i < rank; ++i) {
    offsets[i] = i == axis ? mlirShapedTypeGetDynamicSize() : 0;
    strides[i] = 1;
  }
  out[0] =
      named(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, rank, offsets));
  out[1] = named(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, rank, dims));
  out[2] =
      named(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, rank, strides));
}

MlirValue kilnOnnxCfInsertAt(MlirBlock block, MlirLocation loc, MlirValue src,
                             MlirValue dest, intptr_t axis, MlirValue offset) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType destType = mlirValueGetType(dest);
  intptr_t rank = mlirShapedTypeGetRank(destType);
  MlirType srcType = mlirValueGetType(src);
  int64_t dims[kMaxRank];
  for (intptr_t i = 0, k = 0; i < rank && i < kMaxRank; ++i)
    dims[i] = i == axis ? 1 : mlirShapedTypeGetDimSize(srcType, k++);
  MlirNamedAttribute attrs[4];
  sliceAttrs(ctx, rank, axis, dims, attrs);
  int32_t segments[5] = {1, 1, 1, 0, 0};
  attrs[3] =
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 5, segments));
  MlirValue operands[3] = {src, dest, offset};
  return create1(block, loc, "tensor.insert_slice", operands, 3, destType,
                 attrs, 4);
}

MlirValue kilnOnnxCfExtractAt(MlirBlock block, MlirLocation loc, MlirValue src,
                              intptr_t axis, MlirValue offset) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType srcType = mlirValueGetType(src);
  intptr_t rank = mlirShapedTypeGetRank(srcType);
  int64_t dims[kMaxRank];
  for (intptr_t i = 0; i < rank && i < kMaxRank; ++i)
    dims[i] = i == axis ? 1 : mlirShapedTypeGetDimSize(srcType, i);
  MlirNamedAttribute attrs[4];
  sliceAttrs(ctx, rank, axis, dims, attrs);
  int32_t segments[4] = {1, 1, 0, 0};
  attrs[3] =
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, segments));
  MlirValue operands[2] = {src, offset};
  return create1(block, loc, "tensor.extract_slice", operands, 2,
                 kilnOnnxCfDropDim(srcType, axis), attrs, 4);
}

MlirValue kilnOnnxCfTakeLeading(MlirBlock block, MlirLocation loc,
                                MlirValue src, MlirValue count) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType srcType = mlirValueGetType(src);
  intptr_t rank = mlirShapedTypeGetRank(srcType);
  int64_t offsets[kMaxRank], dims[kMaxRank], strides[kMaxRank];
  for (intptr_t i = 0; i < rank && i < kMaxRank; ++i) {
    offsets[i] = 0;
    strides[i] = 1;
    dims[i] = i == 0 ? mlirShapedTypeGetDynamicSize()
                     : mlirShapedTypeGetDimSize(srcType, i);
  }
  int32_t segments[4] = {1, 0, 1, 0};
  MlirNamedAttribute attrs[4] = {
      named(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, rank, offsets)),
      named(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, rank, dims)),
      named(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, rank, strides)),
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, segments)),
  };
  MlirType type =
      mlirRankedTensorTypeGet(rank, dims, mlirShapedTypeGetElementType(srcType),
                              mlirAttributeGetNull());
  MlirValue operands[2] = {src, count};
  return create1(block, loc, "tensor.extract_slice", operands, 2, type, attrs,
                 4);
}

void kilnOnnxCfTerminate(MlirBlock block, MlirLocation loc, const char *name,
                         const MlirValue *values, intptr_t n) {
  kilnOnnxCfCreate(block, loc, name, values, n, NULL, 0, NULL, 0, NULL, 0);
}

/* A ranked tensor type like `like` with `rank` dims `dims`. */
static MlirType withDims(MlirType like, intptr_t rank, const int64_t *dims) {
  return mlirRankedTensorTypeGet(rank, dims, mlirShapedTypeGetElementType(like),
                                 mlirAttributeGetNull());
}

MlirType kilnOnnxCfInsertDim(MlirType type, intptr_t axis, int64_t size) {
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t dims[kMaxRank + 1];
  for (intptr_t i = 0, k = 0; i <= rank && i <= kMaxRank; ++i)
    dims[i] = i == axis ? size : mlirShapedTypeGetDimSize(type, k++);
  return withDims(type, rank + 1, dims);
}

MlirType kilnOnnxCfDropDim(MlirType type, intptr_t axis) {
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t dims[kMaxRank];
  for (intptr_t i = 0, k = 0; i < rank && i < kMaxRank; ++i)
    if (i != axis)
      dims[k++] = mlirShapedTypeGetDimSize(type, i);
  return withDims(type, rank - 1, dims);
}

MlirType kilnOnnxCfJoinTypes(MlirType a, MlirType b) {
  if (mlirTypeEqual(a, b))
    return a;
  if (!mlirTypeIsARankedTensor(a) || !mlirTypeIsARankedTensor(b) ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(a),
                     mlirShapedTypeGetElementType(b)))
    return (MlirType){NULL};
  intptr_t rank = mlirShapedTypeGetRank(a);
  if (rank != mlirShapedTypeGetRank(b) || rank > kMaxRank)
    return (MlirType){NULL};
  int64_t dims[kMaxRank];
  for (intptr_t i = 0; i < rank; ++i) {
    int64_t x = mlirShapedTypeGetDimSize(a, i);
    dims[i] = x == mlirShapedTypeGetDimSize(b, i)
                  ? x
                  : mlirShapedTypeGetDynamicSize();
  }
  return withDims(a, rank, dims);
}

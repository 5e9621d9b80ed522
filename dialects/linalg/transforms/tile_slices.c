/* Slices of reshaped producers in kiln-fuse-groups' tile loops (see
 * tile_slices.h). */
#include "dialects/linalg/transforms/tile_slices.h"

#include "dialects/linalg/transforms/schedule.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

enum { kMaxDims = 8 };

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, str(name)), attr);
}

/* An offset of a slice: static, or a value when `value` is not null. */
typedef struct Offset {
  int64_t constant;
  MlirValue value;
} Offset;

/* The offsets of a tensor.extract_slice with static sizes and unit strides
 * (a tile's slice) and its sizes; false for any other slice. */
static bool sliceParts(MlirOperation slice, intptr_t rank, Offset *offsets,
                       int64_t *sizes) {
  MlirType type = mlirValueGetType(mlirOperationGetResult(slice, 0));
  MlirAttribute offs =
      mlirOperationGetAttributeByName(slice, str("static_offsets"));
  MlirAttribute strides =
      mlirOperationGetAttributeByName(slice, str("static_strides"));
  MlirAttribute staticSizes =
      mlirOperationGetAttributeByName(slice, str("static_sizes"));
  if (!mlirShapedTypeHasStaticShape(type) ||
      mlirShapedTypeGetRank(type) != rank ||
      mlirDenseArrayGetNumElements(offs) != rank)
    return false;
  int64_t dyn = mlirShapedTypeGetDynamicStrideOrOffset();
  intptr_t next = 1;
  for (intptr_t i = 0; i < rank; ++i) {
    if (mlirDenseI64ArrayGetElement(strides, i) != 1 ||
        mlirDenseI64ArrayGetElement(staticSizes, i) !=
            mlirShapedTypeGetDimSize(type, i))
      return false;
    sizes[i] = mlirShapedTypeGetDimSize(type, i);
    offsets[i].constant = mlirDenseI64ArrayGetElement(offs, i);
    offsets[i].value = (MlirValue){NULL};
    if (offsets[i].constant == dyn)
      offsets[i].value = mlirOperationGetOperand(slice, next++);
  }
  return next == mlirOperationGetNumOperands(slice);
}

/* (o * mul) floordiv div: folded when o is static, else an affine.apply
 * before `before`. */
static Offset scaled(MlirOperation before, Offset o, int64_t mul, int64_t div) {
  if (mlirValueIsNull(o.value))
    return (Offset){o.constant * mul / div, {NULL}};
  MlirContext ctx = mlirOperationGetContext(before);
  MlirAffineExpr e = mlirAffineFloorDivExprGet(
      mlirAffineMulExprGet(mlirAffineDimExprGet(ctx, 0),
                           mlirAffineConstantExprGet(ctx, mul)),
      mlirAffineConstantExprGet(ctx, div));
  MlirNamedAttribute map = named(
      ctx, "map", mlirAffineMapAttrGet(mlirAffineMapGet(ctx, 1, 0, 1, &e)));
  return (Offset){0, kilnInsertOpBefore(before, "affine.apply", 1, &o.value,
                                        mlirIndexTypeGet(ctx), 1, &map)};
}

/* tensor.extract_slice of `src` at `offsets` with `sizes`, unit strides,
 * before `before`. */
static MlirValue buildSlice(MlirOperation before, MlirValue src,
                            const Offset *offsets, const int64_t *sizes) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType st = mlirValueGetType(src);
  intptr_t rank = mlirShapedTypeGetRank(st), nOps = 1;
  int64_t offs[kMaxDims], strides[kMaxDims];
  MlirValue ops[1 + kMaxDims];
  ops[0] = src;
  for (intptr_t i = 0; i < rank; ++i) {
    strides[i] = 1;
    offs[i] = offsets[i].constant;
    if (!mlirValueIsNull(offsets[i].value)) {
      offs[i] = mlirShapedTypeGetDynamicStrideOrOffset();
      ops[nOps++] = offsets[i].value;
    }
  }
  int32_t segs[4] = {1, (int32_t)(nOps - 1), 0, 0};
  MlirNamedAttribute attrs[4] = {
      named(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, rank, offs)),
      named(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, rank, sizes)),
      named(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, rank, strides)),
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, segs))};
  MlirType type = mlirRankedTensorTypeGet(
      rank, sizes, mlirShapedTypeGetElementType(st), mlirAttributeGetNull());
  return kilnInsertOpBefore(before, "tensor.extract_slice", nOps, ops, type, 4,
                            attrs);
}

/* tensor.collapse_shape or expand_shape (by `type`'s rank) of `src` to
 * `type`, the larger type's dims in `nGroups` groups of `groupSizes`. */
static MlirValue buildReshape(MlirOperation before, MlirValue src,
                              MlirType type, intptr_t nGroups,
                              const intptr_t *groupSizes) {
  MlirContext ctx = mlirOperationGetContext(before);
  intptr_t rank = mlirShapedTypeGetRank(type);
  bool expand = rank > mlirShapedTypeGetRank(mlirValueGetType(src));
  MlirNamedAttribute attrs[2] = {named(
      ctx, "reassociation", kilnReassociationGet(ctx, nGroups, groupSizes))};
  if (expand) {
    int64_t shape[kMaxDims];
    for (intptr_t i = 0; i < rank; ++i)
      shape[i] = mlirShapedTypeGetDimSize(type, i);
    attrs[1] = named(ctx, "static_output_shape",
                     mlirDenseI64ArrayGet(ctx, rank, shape));
  }
  return kilnInsertOpBefore(
      before, expand ? "tensor.expand_shape" : "tensor.collapse_shape", 1, &src,
      type, expand ? 2 : 1, attrs);
}

/* The op defining `v` if it is an op named `name`, else null. */
static MlirOperation definedBy(MlirValue v, const char *name) {
  if (!mlirValueIsAOpResult(v))
    return (MlirOperation){NULL};
  MlirOperation def = mlirOpResultGetOwner(v);
  return kilnOpNameStartsWith(def, name) ? def : (MlirOperation){NULL};
}

bool kilnIsGroupMerge(MlirOperation collapse) {
  if (!kilnOpNameStartsWith(collapse, "tensor.collapse_shape"))
    return false;
  MlirType from = mlirValueGetType(mlirOperationGetOperand(collapse, 0));
  MlirType to = mlirValueGetType(mlirOperationGetResult(collapse, 0));
  return mlirTypeIsARankedTensor(from) && mlirShapedTypeHasStaticShape(from) &&
         mlirShapedTypeGetRank(from) == 4 && mlirShapedTypeGetRank(to) == 3 &&
         mlirShapedTypeGetDimSize(from, 0) == mlirShapedTypeGetDimSize(to, 0) &&
         mlirShapedTypeGetDimSize(from, 3) == mlirShapedTypeGetDimSize(to, 2);
}

/* Whether `expand` is a tensor.expand_shape [N, K, P] -> [N, G, K/G, P]. */
static bool isGroupSplit(MlirOperation expand) {
  if (mlirOperationIsNull(expand))
    return false;
  MlirType from = mlirValueGetType(mlirOperationGetOperand(expand, 0));
  MlirType to = mlirValueGetType(mlirOperationGetResult(expand, 0));
  return mlirShapedTypeGetRank(from) == 3 && mlirShapedTypeGetRank(to) == 4 &&
         mlirShapedTypeGetDimSize(from, 0) == mlirShapedTypeGetDimSize(to, 0) &&
         mlirShapedTypeGetDimSize(from, 2) == mlirShapedTypeGetDimSize(to, 3);
}

/* Rewrites `op`, a slice of the window tensor `windowValue` read through
 * its collapse `collapse` to [N, K, P] (and, if `split` is not null, that
 * collapse's expansion to [N, G, K/G, P]). */
static bool sliceWindow(MlirOperation op, MlirValue windowValue,
                        MlirOperation split) {
  MlirType wt = mlirValueGetType(windowValue);
  int64_t ow = mlirShapedTypeGetDimSize(wt, 5);
  int64_t taps =
      mlirShapedTypeGetDimSize(wt, 2) * mlirShapedTypeGetDimSize(wt, 3);
  int64_t k = mlirShapedTypeGetDimSize(wt, 1) * taps;
  intptr_t rank = mlirOperationIsNull(split) ? 3 : 4;
  Offset off[4];
  int64_t sizes[4];
  if (!sliceParts(op, rank, off, sizes))
    return false;
  /* The slice as [N, K, P]: channels (k0, kt), pixels (p0, pt). */
  Offset n0 = off[0], k0 = off[1], p0 = off[rank - 1];
  int64_t kt = sizes[1], pt = sizes[rank - 1];
  if (rank == 4) {
    int64_t kg = sizes[2];
    if (kg != mlirShapedTypeGetDimSize(
                  mlirValueGetType(mlirOperationGetResult(split, 0)), 2) ||
        !mlirValueIsNull(off[2].value) || off[2].constant != 0)
      return false; /* not whole groups */
    k0 = scaled(op, off[1], kg, 1);
    kt = sizes[1] * kg;
  }
  if (pt % ow || kt % taps || kt > k ||
      (mlirValueIsNull(k0.value) && k0.constant % taps) ||
      (mlirValueIsNull(p0.value) && p0.constant % ow))
    return false; /* not whole rows and whole channels */
  /* window[n0, k0 / taps, 0, 0, p0 / OW, 0] [nt, kt / taps, KH, KW, R, OW] */
  Offset woff[6] = {n0,          scaled(op, k0, 1, taps), {0, {NULL}},
                    {0, {NULL}}, scaled(op, p0, 1, ow),   {0, {NULL}}};
  int64_t wsizes[6];
  for (int i = 0; i < 6; ++i)
    wsizes[i] = mlirShapedTypeGetDimSize(wt, i);
  wsizes[0] = sizes[0];
  wsizes[1] = kt / taps;
  wsizes[4] = pt / ow;
  MlirValue v = buildSlice(op, windowValue, woff, wsizes);
  MlirType elt = mlirShapedTypeGetElementType(wt);
  int64_t flat[3] = {sizes[0], kt, pt};
  intptr_t toFlat[3] = {1, 3, 2};
  v = buildReshape(
      op, v, mlirRankedTensorTypeGet(3, flat, elt, mlirAttributeGetNull()), 3,
      toFlat);
  if (rank == 4) {
    intptr_t splitGroups[3] = {1, 2, 1};
    v = buildReshape(op, v, mlirValueGetType(mlirOperationGetResult(op, 0)), 3,
                     splitGroups);
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), v);
  mlirOperationDestroy(op);
  return true;
}

bool kilnSliceWindowRows(MlirOperation forall, MlirOperation window) {
  MlirValue windowValue = mlirOperationGetResult(window, 0);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(forall, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!kilnOpNameStartsWith(op, "tensor.extract_slice"))
      continue;
    MlirValue src = mlirOperationGetOperand(op, 0);
    MlirOperation split = definedBy(src, "tensor.expand_shape");
    if (isGroupSplit(split))
      src = mlirOperationGetOperand(split, 0);
    else
      split = (MlirOperation){NULL};
    MlirOperation collapse = definedBy(src, "tensor.collapse_shape");
    if (mlirOperationIsNull(collapse) ||
        !mlirValueEqual(mlirOperationGetOperand(collapse, 0), windowValue))
      continue;
    return sliceWindow(op, windowValue, split);
  }
  return false;
}

bool kilnSliceGroupedResult(MlirOperation forall) {
  bool rewrote = false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(forall, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    MlirOperation merge = {NULL};
    if (kilnOpNameStartsWith(op, "tensor.extract_slice"))
      merge =
          definedBy(mlirOperationGetOperand(op, 0), "tensor.collapse_shape");
    Offset off[3];
    int64_t sizes[3];
    if (mlirOperationIsNull(merge) || !kilnIsGroupMerge(merge) ||
        !sliceParts(op, 3, off, sizes)) {
      op = next;
      continue;
    }
    MlirValue y = mlirOperationGetOperand(merge, 0);
    int64_t mg = mlirShapedTypeGetDimSize(mlirValueGetType(y), 2);
    /* The tile's channel offset is a multiple of its size (a multiple of
     * MG): tile_using_forall's offsets are iv * size. */
    if (sizes[1] % mg ||
        (mlirValueIsNull(off[1].value) && off[1].constant % mg)) {
      op = next;
      continue;
    }
    Offset yoff[4] = {off[0], scaled(op, off[1], 1, mg), {0, {NULL}}, off[2]};
    int64_t ysizes[4] = {sizes[0], sizes[1] / mg, mg, sizes[2]};
    intptr_t merged[3] = {1, 2, 1};
    MlirValue v = buildSlice(op, y, yoff, ysizes);
    v = buildReshape(op, v, mlirValueGetType(mlirOperationGetResult(op, 0)), 3,
                     merged);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), v);
    mlirOperationDestroy(op);
    rewrote = true;
    op = next;
  }
  return rewrote;
}

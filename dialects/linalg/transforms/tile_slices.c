/* Slices of reshaped producers in kiln-fuse-groups' tile loops (see
 * tile_slices.h). */
#include "dialects/linalg/transforms/tile_slices.h"
#include "kiln/diagnostics.h"

#include "dialects/linalg/transforms/schedule.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/ir_build.h"

enum { kMaxDims = 8 };

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr(name)), attr);
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
      mlirOperationGetAttributeByName(slice, kilnStr("static_offsets"));
  MlirAttribute strides =
      mlirOperationGetAttributeByName(slice, kilnStr("static_strides"));
  MlirAttribute staticSizes =
      mlirOperationGetAttributeByName(slice, kilnStr("static_sizes"));
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

/* ((o mod m) * mul) floordiv div + add, without the mod when m is 0
 * (offsets are never negative): folded when o is static, else an
 * affine.apply before `before`. */
static Offset affineOffset(MlirOperation before, Offset o, int64_t m,
                           int64_t mul, int64_t div, int64_t add) {
  if (mlirValueIsNull(o.value))
    return (Offset){(m ? o.constant % m : o.constant) * mul / div + add,
                    {NULL}};
  MlirContext ctx = mlirOperationGetContext(before);
  MlirAffineExpr e = mlirAffineDimExprGet(ctx, 0);
  if (m)
    e = mlirAffineModExprGet(e, mlirAffineConstantExprGet(ctx, m));
  e = mlirAffineAddExprGet(
      mlirAffineFloorDivExprGet(
          mlirAffineMulExprGet(e, mlirAffineConstantExprGet(ctx, mul)),
          mlirAffineConstantExprGet(ctx, div)),
      mlirAffineConstantExprGet(ctx, add));
  MlirNamedAttribute map = named(
      ctx, "map", mlirAffineMapAttrGet(mlirAffineMapGet(ctx, 1, 0, 1, &e)));
  return (Offset){0, kilnInsertOpBefore(before, "affine.apply", 1, &o.value,
                                        mlirIndexTypeGet(ctx), 1, &map)};
}

/* (o * mul) floordiv div. */
static Offset scaled(MlirOperation before, Offset o, int64_t mul, int64_t div) {
  return affineOffset(before, o, 0, mul, div, 0);
}

/* tensor.extract_slice of `src` at `offsets` with `sizes` and `steps`
 * (null: unit strides), before `before`. */
static MlirValue buildStridedSlice(MlirOperation before, MlirValue src,
                                   const Offset *offsets, const int64_t *sizes,
                                   const int64_t *steps) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType st = mlirValueGetType(src);
  intptr_t rank = mlirShapedTypeGetRank(st), nOps = 1;
  int64_t offs[kMaxDims], strides[kMaxDims];
  MlirValue ops[1 + kMaxDims];
  ops[0] = src;
  for (intptr_t i = 0; i < rank; ++i) {
    strides[i] = steps ? steps[i] : 1;
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

static MlirValue buildSlice(MlirOperation before, MlirValue src,
                            const Offset *offsets, const int64_t *sizes) {
  return buildStridedSlice(before, src, offsets, sizes, NULL);
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

/* Most taps of a window tensor copied tap by tap (lower_conv_im2col.c:
 * kMaxTapCopies). */
enum { kMaxTaps = 64 };

/* A strided conv's window tensor N x C x KH x KW x OH x OW as
 * lower_conv_im2col.c's windowTensor builds it: `count` insert_slices
 * into a tensor.empty, each of a strided slice of the padded input `x` at
 * one kernel tap. */
typedef struct TapChain {
  MlirOperation inserts[kMaxTaps];
  intptr_t count;
  MlirValue x;
} TapChain;

static int64_t staticAt(MlirOperation op, const char *attr, intptr_t i) {
  return mlirDenseI64ArrayGetElement(
      mlirOperationGetAttributeByName(op, kilnStr(attr)), i);
}

/* Whether the tap slice `insert` (a tap of the chain) copies all of x's
 * images and channels into all the window's positions with static
 * offsets and sizes. */
static bool isTapCopy(MlirOperation insert, MlirValue *x) {
  MlirOperation slice =
      definedBy(mlirOperationGetOperand(insert, 0), "tensor.extract_slice");
  if (mlirOperationIsNull(slice) || mlirOperationGetNumOperands(slice) != 1 ||
      mlirOperationGetNumOperands(insert) != 2)
    return false;
  MlirValue src = mlirOperationGetOperand(slice, 0);
  if (!mlirValueIsNull(*x) && !mlirValueEqual(src, *x))
    return false;
  *x = src;
  MlirType st = mlirValueGetType(mlirOperationGetResult(slice, 0));
  MlirType wt = mlirValueGetType(mlirOperationGetResult(insert, 0));
  if (mlirShapedTypeGetRank(st) != 4 || mlirShapedTypeGetRank(wt) != 6 ||
      !mlirShapedTypeHasStaticShape(mlirValueGetType(src)))
    return false;
  static const intptr_t kFull[4] = {0, 1, 4, 5};
  for (int i = 0; i < 4; ++i)
    if (staticAt(insert, "static_offsets", kFull[i]) != 0 ||
        staticAt(insert, "static_sizes", kFull[i]) !=
            mlirShapedTypeGetDimSize(wt, kFull[i]) ||
        staticAt(insert, "static_strides", kFull[i]) != 1)
      return false;
  return staticAt(slice, "static_offsets", 0) == 0 &&
         staticAt(slice, "static_offsets", 1) == 0 &&
         staticAt(slice, "static_strides", 0) == 1 &&
         staticAt(slice, "static_strides", 1) == 1 &&
         staticAt(insert, "static_sizes", 2) == 1 &&
         staticAt(insert, "static_sizes", 3) == 1;
}

/* The tap chain whose last insert defines `v`; false if `v` is not one. */
static bool tapChain(MlirValue v, TapChain *chain) {
  chain->count = 0;
  chain->x = (MlirValue){NULL};
  for (;;) {
    MlirOperation insert = definedBy(v, "tensor.insert_slice");
    if (mlirOperationIsNull(insert))
      return chain->count > 0 &&
             !mlirOperationIsNull(definedBy(v, "tensor.empty"));
    if (chain->count == kMaxTaps || !isTapCopy(insert, &chain->x))
      return false;
    chain->inserts[chain->count++] = insert;
    v = mlirOperationGetOperand(insert, 1);
  }
}

/* tensor.insert_slice of `src` into `dest` at static `offsets` with
 * `sizes`, unit strides, before `before`. */
static MlirValue buildInsert(MlirOperation before, MlirValue src,
                             MlirValue dest, const int64_t *offsets,
                             const int64_t *sizes) {
  MlirContext ctx = mlirOperationGetContext(before);
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(dest));
  int64_t strides[kMaxDims];
  for (intptr_t i = 0; i < rank; ++i)
    strides[i] = 1;
  int32_t segs[5] = {1, 1, 0, 0, 0};
  MlirNamedAttribute attrs[4] = {
      named(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, rank, offsets)),
      named(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, rank, sizes)),
      named(ctx, "static_strides", mlirDenseI64ArrayGet(ctx, rank, strides)),
      named(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 5, segs))};
  MlirValue ops[2] = {src, dest};
  return kilnInsertOpBefore(before, "tensor.insert_slice", 2, ops,
                            mlirValueGetType(dest), 4, attrs);
}

/* The part `woff`/`wsizes` (whole taps and rows) of the window tensor of
 * `chain`, copied tap by tap from x in the tile, before `before`. */
static MlirValue buildTaps(MlirOperation before, const TapChain *chain,
                           const Offset *woff, const int64_t *wsizes) {
  MlirType xt = mlirValueGetType(chain->x);
  MlirType tileType = mlirRankedTensorTypeGet(
      6, wsizes, mlirShapedTypeGetElementType(xt), mlirAttributeGetNull());
  MlirValue tile =
      kilnInsertOpBefore(before, "tensor.empty", 0, NULL, tileType, 0, NULL);
  int64_t sizes[4] = {wsizes[0], wsizes[1], wsizes[4], wsizes[5]};
  int64_t tapSizes[6] = {wsizes[0], wsizes[1], 1, 1, wsizes[4], wsizes[5]};
  for (intptr_t i = chain->count - 1; i >= 0; --i) {
    MlirOperation insert = chain->inserts[i];
    MlirOperation slice =
        mlirOpResultGetOwner(mlirOperationGetOperand(insert, 0));
    int64_t steps[4] = {1, 1, staticAt(slice, "static_strides", 2),
                        staticAt(slice, "static_strides", 3)};
    Offset xoff[4] = {woff[0],
                      woff[1],
                      affineOffset(before, woff[4], 0, steps[2], 1,
                                   staticAt(slice, "static_offsets", 2)),
                      {staticAt(slice, "static_offsets", 3), {NULL}}};
    MlirValue part = buildStridedSlice(before, chain->x, xoff, sizes, steps);
    int64_t to[6] = {0,
                     0,
                     staticAt(insert, "static_offsets", 2),
                     staticAt(insert, "static_offsets", 3),
                     0,
                     0};
    tile = buildInsert(before, part, tile, to, tapSizes);
  }
  return tile;
}

/* The window tensor's offsets and sizes along its output dims (from
 * `first`) for the pixels [p0, p0 + pt) of the flattened P: whole rows of
 * a 2-D conv's window; of a 3-D conv's (OD x OH x OW), whole planes or
 * rows of one plane (pt divides the plane: the tile's offset, a multiple
 * of pt, never crosses one). False for any other block. */
static bool pixelBlock(MlirOperation op, MlirType wt, intptr_t first, Offset p0,
                       int64_t pt, Offset *woff, int64_t *wsizes) {
  intptr_t ns = mlirShapedTypeGetRank(wt) - first;
  int64_t ow = mlirShapedTypeGetDimSize(wt, first + ns - 1);
  int64_t plane = ns == 3 ? ow * mlirShapedTypeGetDimSize(wt, first + 1) : ow;
  bool rows = ns == 3 && pt < plane;
  int64_t unit = rows ? ow : plane;
  if (pt % unit || (rows && plane % pt) ||
      (mlirValueIsNull(p0.value) && p0.constant % (rows ? pt : unit)))
    return false;
  woff[first] = scaled(op, p0, 1, plane);
  wsizes[first] = rows ? 1 : pt / plane;
  if (ns == 3) {
    woff[first + 1] =
        rows ? affineOffset(op, p0, plane, 1, ow, 0) : (Offset){0, {NULL}};
    wsizes[first + 1] = rows ? pt / ow : plane / ow;
  }
  woff[first + ns - 1] = (Offset){0, {NULL}};
  wsizes[first + ns - 1] = ow;
  return true;
}

/* Rewrites `op`, a slice of the window tensor `windowValue` (N x C x K..
 * x O.., 2-D or 3-D) read through its collapse `collapse` to [N, K, P]
 * (and, if `split` is not null, that collapse's expansion to [N, G, K/G,
 * P]). */
static bool sliceWindow(MlirOperation op, MlirValue windowValue,
                        MlirOperation split, const TapChain *chain) {
  MlirType wt = mlirValueGetType(windowValue);
  intptr_t ns = (mlirShapedTypeGetRank(wt) - 2) / 2, first = 2 + ns;
  int64_t taps = 1;
  for (intptr_t i = 0; i < ns; ++i)
    taps *= mlirShapedTypeGetDimSize(wt, 2 + i);
  int64_t k = mlirShapedTypeGetDimSize(wt, 1) * taps;
  intptr_t rank = mlirOperationIsNull(split) ? 3 : 4;
  Offset off[4];
  int64_t sizes[4];
  if ((ns != 2 && ns != 3) || (chain && ns != 2) ||
      !sliceParts(op, rank, off, sizes))
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
  if (kt % taps || kt > k || (mlirValueIsNull(k0.value) && k0.constant % taps))
    return false; /* not whole channels */
  /* window[n0, k0 / taps, 0.., pixels] [nt, kt / taps, K.., pixels] */
  Offset woff[2 + 2 * 3];
  int64_t wsizes[2 + 2 * 3];
  for (intptr_t i = 0; i < first; ++i) {
    woff[i] = (Offset){0, {NULL}};
    wsizes[i] = mlirShapedTypeGetDimSize(wt, i);
  }
  if (!pixelBlock(op, wt, first, p0, pt, woff, wsizes))
    return false; /* not whole rows */
  woff[0] = n0;
  woff[1] = scaled(op, k0, 1, taps);
  wsizes[0] = sizes[0];
  wsizes[1] = kt / taps;
  MlirValue v = chain ? buildTaps(op, chain, woff, wsizes)
                      : buildSlice(op, windowValue, woff, wsizes);
  MlirType elt = mlirShapedTypeGetElementType(wt);
  int64_t flat[3] = {sizes[0], kt, pt};
  intptr_t toFlat[3] = {1, 1 + ns, ns};
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

/* The collapse_shape to [N, K, P] that `op` slices when it is a
 * tensor.extract_slice of one (a group-1 conv's window matrix) or of its
 * split into groups (a grouped conv's; *split set to the expand_shape);
 * null otherwise. */
static MlirOperation windowMatrixRead(MlirOperation op, MlirOperation *split) {
  *split = (MlirOperation){NULL};
  if (!kilnOpNameStartsWith(op, "tensor.extract_slice"))
    return (MlirOperation){NULL};
  MlirValue src = mlirOperationGetOperand(op, 0);
  MlirOperation expand = definedBy(src, "tensor.expand_shape");
  if (isGroupSplit(expand)) {
    *split = expand;
    src = mlirOperationGetOperand(expand, 0);
  }
  return definedBy(src, "tensor.collapse_shape");
}

bool kilnSliceWindowRows(MlirOperation forall, MlirOperation window) {
  MlirValue windowValue = mlirOperationGetResult(window, 0);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(forall, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirOperation split, collapse = windowMatrixRead(op, &split);
    if (!mlirOperationIsNull(collapse) &&
        mlirValueEqual(mlirOperationGetOperand(collapse, 0), windowValue))
      return sliceWindow(op, windowValue, split, NULL);
  }
  return false;
}

bool kilnSliceTapWindow(MlirOperation forall) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(forall, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirOperation split, collapse = windowMatrixRead(op, &split);
    TapChain chain;
    if (!mlirOperationIsNull(collapse) &&
        tapChain(mlirOperationGetOperand(collapse, 0), &chain))
      return sliceWindow(op, mlirOperationGetOperand(collapse, 0), split,
                         &chain);
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

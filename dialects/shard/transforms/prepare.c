/* kiln-shard-prepare: linalg on tensors in the form MLIR's sharding
 * propagation and partition accept (docs/scale-out.md).
 *
 * MLIR 22 shards ops with a sharding interface only: linalg structured ops
 * whose indexing maps are projected permutations, and tensor.empty. The
 * lowering makes two forms outside that, which this pass rewrites:
 *
 * 1. Slices of a linalg.generic's result, as a fused QKV projection split
 *    in three (ONNX Split or Slice):
 *
 *      %p = linalg.generic ins(%x, %w : tensor<16x64>, tensor<64x192>)
 *                          outs(%i : tensor<16x192>)
 *      %k = tensor.extract_slice %p[0, 64] [16, 64] [1, 1]
 *    =>
 *      %w1 = arith.constant <columns 64..127 of %w> : tensor<64x64>
 *      %k = linalg.generic ins(%x, %w1) outs(%i1 : tensor<16x64>)
 *
 *    The op computes only the slice's part of its iteration space: each
 *    operand indexed by a sliced loop is sliced in turn, and the slices
 *    are pushed on up through generics, into constants and tensor.empty.
 *    A generic is rewritten only when every use of its result is a slice,
 *    so nothing is computed twice. A body reading linalg.index, or a
 *    sliced loop in a map result that is not a plain dim, stops it.
 *
 * 2. Constant map results, the unit dims of keepdims reductions:
 *
 *      affine_map<(d0, d1, d2) -> (d0, d1, 0)>   over tensor<1x16x1xf32>
 *    =>
 *      affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
 *
 *    one new loop of extent 1 per op, parallel when an output is indexed by
 *    it, a reduction otherwise (the same computation).
 *
 * Runs on generics: after linalg-generalize-named-ops. The reshapes left
 * between products (attention heads) are then folded into the generics by
 * linalg-fuse-elementwise-ops (propagation by expansion). That pass also
 * fuses elementwise producers into their consumers, products too, where
 * they would run once per output column (and shard-partition crashes on a
 * row-split product with a Relu inside). With keep-products=true this
 * pass puts a linalg.copy (named: never fused) after each elementwise op
 * that computes something for a product (through reshapes):
 *
 *   %h = linalg.generic {Relu}          %h = linalg.generic {Relu}
 *   %r = tensor.collapse_shape %h   =>  %c = linalg.copy ins(%h) outs(%e)
 *   %p = linalg.generic {product}       %r = tensor.collapse_shape %c
 *          ins(%r, %w)                   ...
 *
 * and without it (the last run, after fusion) it takes them out again. */
#include "kiln/passes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/shard/transforms/gather.h"
#include "dialects/shard/transforms/weight_bytes.h"
#include "kiln/diagnostics.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kMaxRank = 16, kMaxOperands = 64 };
enum { kOptKeepProducts, kNumOptions };

/* A static, unit-stride, rank-preserving tensor.extract_slice: its
 * offsets, and its source and result types. */
typedef struct Slice {
  MlirOperation op;
  int64_t offsets[kMaxRank];
  MlirType whole, part;
} Slice;

static bool readSlice(MlirOperation op, Slice *s) {
  if (!kilnOpNameIs(op, "tensor.extract_slice") ||
      mlirOperationGetNumOperands(op) != 1)
    return false;
  s->op = op;
  s->whole = mlirValueGetType(mlirOperationGetOperand(op, 0));
  s->part = mlirValueGetType(mlirOperationGetResult(op, 0));
  intptr_t rank = mlirShapedTypeGetRank(s->whole);
  if (!kilnTypeIsStaticTensor(s->whole) || !kilnTypeIsStaticTensor(s->part) ||
      rank < 1 || rank > kMaxRank || rank != mlirShapedTypeGetRank(s->part))
    return false;
  MlirAttribute offsets =
      mlirOperationGetAttributeByName(op, kilnStr("static_offsets"));
  MlirAttribute strides =
      mlirOperationGetAttributeByName(op, kilnStr("static_strides"));
  for (intptr_t d = 0; d < rank; ++d) {
    s->offsets[d] = mlirDenseI64ArrayGetElement(offsets, d);
    if (s->offsets[d] < 0 || mlirDenseI64ArrayGetElement(strides, d) != 1)
      return false;
  }
  return true;
}

/* tensor.extract_slice of `v` (static type `whole`) at `offsets` with type
 * `part`, before `before`. */
static MlirValue insertSlice(MlirOperation before, MlirValue v,
                             const int64_t *offsets, MlirType part) {
  MlirContext ctx = mlirOperationGetContext(before);
  intptr_t rank = mlirShapedTypeGetRank(part);
  int64_t sizes[kMaxRank], strides[kMaxRank];
  for (intptr_t d = 0; d < rank; ++d) {
    sizes[d] = mlirShapedTypeGetDimSize(part, d);
    strides[d] = 1;
  }
  MlirNamedAttribute attrs[4] = {
      kilnSegmentSizesAttr(ctx, 4, (const int32_t[]){1, 0, 0, 0}),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_offsets")),
                            mlirDenseI64ArrayGet(ctx, rank, offsets)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_sizes")),
                            mlirDenseI64ArrayGet(ctx, rank, sizes)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_strides")),
                            mlirDenseI64ArrayGet(ctx, rank, strides)),
  };
  return mlirOperationGetResult(
      kilnInsertOp(before, "tensor.extract_slice", 1, &v, 1, &part, 4, attrs),
      0);
}

/* The slice as a constant when its source is one (through static
 * reshapes: the same elements), or a tensor.empty of its shape; null
 * otherwise. */
static MlirValue sliceLeaf(const Slice *s, MlirOperation src) {
  if (kilnOpNameIs(src, "tensor.empty"))
    return mlirOperationGetResult(
        kilnInsertOp(s->op, "tensor.empty", 0, NULL, 1, &s->part, 0, NULL), 0);
  while (kilnIsStaticTensorReshape(src)) {
    MlirValue up = mlirOperationGetOperand(src, 0);
    if (!mlirValueIsAOpResult(up))
      return (MlirValue){NULL};
    src = mlirOpResultGetOwner(up);
  }
  if (!kilnOpNameIs(src, "arith.constant"))
    return (MlirValue){NULL};
  MlirAttribute value =
      kilnWeightSliced(mlirOperationGetAttributeByName(src, kilnStr("value")),
                       s->whole, s->offsets, s->part);
  if (mlirAttributeIsNull(value))
    return (MlirValue){NULL};
  MlirNamedAttribute attr = mlirNamedAttributeGet(
      mlirIdentifierGet(mlirOperationGetContext(src), kilnStr("value")), value);
  return mlirOperationGetResult(
      kilnInsertOp(s->op, "arith.constant", 0, NULL, 1, &s->part, 1, &attr), 0);
}

static MlirWalkResult findIndexOp(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "linalg.index")) {
    *(bool *)userData = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool onlySliced(MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (!kilnOpNameIs(mlirOpOperandGetOwner(u), "tensor.extract_slice"))
      return false;
  return true;
}

/* The generic `g` over the part of its iteration space that `s` (a slice
 * of its one result) reads; false, changing nothing, when it cannot be.
 * On success `s` is replaced and erased, `g` too once unused. */
static bool sliceGeneric(const Slice *s, MlirOperation g) {
  intptr_t n = mlirOperationGetNumOperands(g);
  if (mlirOperationGetNumResults(g) != 1 || n > kMaxOperands ||
      !onlySliced(mlirOperationGetResult(g, 0)))
    return false;
  bool usesIndex = false;
  mlirOperationWalk(g, findIndexOp, &usesIndex, MlirWalkPreOrder);
  if (usesIndex)
    return false;
  /* The sliced loops: lo[loop] and size[loop], -1 for whole ones. */
  MlirAffineMap out = kilnLinalgIndexingMap(g, n - 1);
  intptr_t loops = mlirAffineMapGetNumDims(out);
  if (loops > kMaxRank * 2)
    return false;
  int64_t lo[kMaxRank * 2], size[kMaxRank * 2];
  for (intptr_t l = 0; l < loops; ++l)
    lo[l] = size[l] = -1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(s->whole); ++d) {
    int64_t part = mlirShapedTypeGetDimSize(s->part, d);
    if (part == mlirShapedTypeGetDimSize(s->whole, d))
      continue;
    MlirAffineExpr e = mlirAffineMapGetResult(out, d);
    if (!mlirAffineExprIsADim(e))
      return false;
    intptr_t l = mlirAffineDimExprGetPosition(e);
    lo[l] = s->offsets[d], size[l] = part;
  }
  /* Each operand's slice; none may index a sliced loop by an expression. */
  Slice operands[kMaxOperands];
  bool sliced[kMaxOperands] = {false};
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(g, i);
    MlirType t = mlirValueGetType(v);
    if (!mlirTypeIsARankedTensor(t))
      continue;
    MlirAffineMap m = kilnLinalgIndexingMap(g, i);
    intptr_t rank = mlirShapedTypeGetRank(t);
    int64_t shape[kMaxRank];
    if (!kilnTypeIsStaticTensor(t) || rank > kMaxRank)
      return false;
    for (intptr_t d = 0; d < rank; ++d) {
      MlirAffineExpr e = mlirAffineMapGetResult(m, d);
      shape[d] = mlirShapedTypeGetDimSize(t, d);
      operands[i].offsets[d] = 0;
      if (mlirAffineExprIsADim(e)) {
        intptr_t l = mlirAffineDimExprGetPosition(e);
        if (size[l] >= 0) {
          operands[i].offsets[d] = lo[l], shape[d] = size[l];
          sliced[i] = true;
        }
        continue;
      }
      for (intptr_t l = 0; l < loops; ++l)
        if (size[l] >= 0 && mlirAffineExprIsFunctionOfDim(e, l))
          return false;
    }
    operands[i].whole = t;
    operands[i].part = mlirRankedTensorTypeGet(
        rank, shape, mlirShapedTypeGetElementType(t), mlirAttributeGetNull());
  }
  MlirOperation c = mlirOperationClone(g);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(s->op), s->op, c);
  for (intptr_t i = 0; i < n; ++i)
    if (sliced[i])
      mlirOperationSetOperand(c, i,
                              insertSlice(c, mlirOperationGetOperand(g, i),
                                          operands[i].offsets,
                                          operands[i].part));
  MlirValue r = mlirOperationGetResult(c, 0);
  mlirValueSetType(r, s->part);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(s->op, 0), r);
  mlirOperationDestroy(s->op);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(g, 0))))
    mlirOperationDestroy(g);
  return true;
}

/* Pushes `op` (a slice) into its producer; true if it did. */
static bool pushSlice(MlirOperation op) {
  Slice s;
  MlirValue src = mlirOperationGetOperand(op, 0);
  if (!readSlice(op, &s) || !mlirValueIsAOpResult(src))
    return false;
  MlirOperation producer = mlirOpResultGetOwner(src);
  if (kilnOpNameIs(producer, "linalg.generic"))
    return sliceGeneric(&s, producer);
  MlirValue leaf = sliceLeaf(&s, producer);
  if (mlirValueIsNull(leaf))
    return false;
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), leaf);
  mlirOperationDestroy(op);
  return true;
}

/* Rounds until no slice moves: a producer shared by several slices moves
 * once the last of them has moved its user. */
static void pushSlices(MlirOperation f) {
  KilnOpList slices = {0};
  bool moved = true;
  while (moved) {
    moved = false;
    kilnOpListClear(&slices);
    kilnOpListCollectNamed(&slices, f, "tensor.extract_slice",
                           MlirWalkPreOrder);
    for (size_t i = 0; i < slices.len; ++i)
      moved |= pushSlice(slices.data[i]);
  }
  kilnOpListDestroy(&slices);
}

/* Constant map results of a unit dim become new loops of extent 1: a
 * map's k-th constant the k-th new loop (a map stays a projected
 * permutation). */
static void constantsToUnitLoop(MlirOperation g) {
  intptr_t n = mlirOperationGetNumOperands(g);
  intptr_t numInputs = n - mlirOperationGetNumResults(g);
  if (n > kMaxOperands || numInputs < 0)
    return;
  MlirAffineMap maps[kMaxOperands];
  intptr_t added = 0; /* the most constants in one map */
  for (intptr_t i = 0; i < n; ++i) {
    maps[i] = kilnLinalgIndexingMap(g, i);
    MlirType t = mlirValueGetType(mlirOperationGetOperand(g, i));
    intptr_t count = 0;
    for (intptr_t d = 0; d < mlirAffineMapGetNumResults(maps[i]); ++d) {
      MlirAffineExpr e = mlirAffineMapGetResult(maps[i], d);
      if (!mlirAffineExprIsAConstant(e))
        continue;
      if (mlirAffineConstantExprGetValue(e) != 0 ||
          !mlirTypeIsARankedTensor(t) || mlirShapedTypeGetDimSize(t, d) != 1)
        return; /* not a unit dim: left for the sharding passes to refuse */
      added = ++count > added ? count : added;
    }
  }
  MlirContext ctx = mlirOperationGetContext(g);
  intptr_t loops = mlirAffineMapGetNumDims(maps[0]);
  if (!added || loops + added > kMaxRank * 2)
    return;
  MlirAttribute newMaps[kMaxOperands];
  for (intptr_t i = 0; i < n; ++i) {
    intptr_t results = mlirAffineMapGetNumResults(maps[i]), count = 0;
    MlirAffineExpr exprs[kMaxRank];
    if (results > kMaxRank)
      return;
    for (intptr_t d = 0; d < results; ++d) {
      MlirAffineExpr e = mlirAffineMapGetResult(maps[i], d);
      exprs[d] = mlirAffineExprIsAConstant(e)
                     ? mlirAffineDimExprGet(ctx, loops + count++)
                     : e;
    }
    newMaps[i] = mlirAffineMapAttrGet(
        mlirAffineMapGet(ctx, loops + added,
                         mlirAffineMapGetNumSymbols(maps[i]), results, exprs));
  }
  MlirAttribute kinds =
      mlirOperationGetAttributeByName(g, kilnStr("iterator_types"));
  MlirAttribute newKinds[kMaxRank * 2];
  for (intptr_t l = 0; l < loops + added; ++l)
    newKinds[l] = l < loops
                      ? mlirArrayAttrGetElement(kinds, l)
                      : mlirAttributeParseGet(
                            ctx, kilnStr("#linalg.iterator_type<parallel>"));
  mlirOperationSetAttributeByName(g, kilnStr("indexing_maps"),
                                  mlirArrayAttrGet(ctx, n, newMaps));
  mlirOperationSetAttributeByName(
      g, kilnStr("iterator_types"),
      mlirArrayAttrGet(ctx, loops + added, newKinds));
}

/* ---- flattenings --------------------------------------------------------- */

/* A reshape that is neither an expand nor a collapse, lowered through 1-D
 * (multi-head attention's [S, B, E] -> [S, B*H, D]):
 *
 *   %f = tensor.collapse_shape %x [[0, 1, 2]] : 16x2x64 into 2048
 *   %y = tensor.expand_shape %f [[0, 1, 2]] : 2048 into 16x8x16
 * =>
 *   %e = tensor.expand_shape %x [[0], [1], [2, 3]] : 16x2x64 into 16x2x4x16
 *   %y = tensor.collapse_shape %e [[0], [1, 2], [3]] : into 16x8x16
 *
 * through the shapes' common refinement (every dim of both a product of
 * consecutive dims of it), which the reshape propagation folds into the
 * generics around; a 1-D tensor it cannot. Any collapse followed by an
 * expand is regrouped so. The refinement leaves unit dims out: the
 * source's stay where they are in the first reshape (an expand; the
 * collapse after it absorbs them), the result's are added by a last
 * expand. */

typedef struct Shape {
  intptr_t rank;
  int64_t dims[kMaxRank * 2];
} Shape;

static Shape shapeOf(MlirType t) {
  Shape s = {mlirShapedTypeGetRank(t), {0}};
  for (intptr_t d = 0; d < s.rank; ++d)
    s.dims[d] = mlirShapedTypeGetDimSize(t, d);
  return s;
}

/* `s` without its unit dims. */
static Shape withoutUnits(const Shape *s) {
  Shape r = {0, {0}};
  for (intptr_t d = 0; d < s->rank; ++d)
    if (s->dims[d] != 1)
      r.dims[r.rank++] = s->dims[d];
  return r;
}

/* The common refinement of unit-free shapes `a` and `b` of the same
 * size: its dims are the steps between the union of their prefix
 * products; false when a step does not divide. */
static bool refine(const Shape *a, const Shape *b, Shape *out) {
  int64_t cuts[kMaxRank * 4];
  intptr_t n = 0, i = 0, j = 0;
  int64_t pa = 1, pb = 1;
  while (i < a->rank || j < b->rank) {
    int64_t na = i < a->rank ? pa * a->dims[i] : INT64_MAX;
    int64_t nb = j < b->rank ? pb * b->dims[j] : INT64_MAX;
    int64_t next = na < nb ? na : nb;
    if (na == next)
      pa = na, ++i;
    if (nb == next)
      pb = nb, ++j;
    cuts[n++] = next;
  }
  if (pa != pb || n > kMaxRank * 2)
    return false;
  out->rank = n;
  for (intptr_t k = 0, prev = 1; k < n; prev = cuts[k++]) {
    if (cuts[k] % prev)
      return false;
    out->dims[k] = cuts[k] / prev;
  }
  return true;
}

/* The reassociation grouping `fine`'s dims into unit-free `coarse`'s:
 * each coarse dim the product of consecutive fine dims, a unit fine dim
 * joining the next group (the last, after it); null when there is none. */
static MlirAttribute reassociation(MlirContext ctx, const Shape *fine,
                                   const Shape *coarse) {
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirAttribute groups[kMaxRank * 2], members[kMaxRank * 2];
  intptr_t f = 0;
  for (intptr_t c = 0; c < coarse->rank; ++c) {
    intptr_t n = 0;
    int64_t product = 1;
    /* n == 0: a unit coarse dim takes a (unit) fine one. */
    while (f < fine->rank && (product != coarse->dims[c] || n == 0)) {
      product *= fine->dims[f];
      members[n++] = mlirIntegerAttrGet(i64, f++);
    }
    while (c + 1 == coarse->rank && f < fine->rank && fine->dims[f] == 1)
      members[n++] = mlirIntegerAttrGet(i64, f++);
    if (product != coarse->dims[c] || n == 0)
      return mlirAttributeGetNull();
    groups[c] = mlirArrayAttrGet(ctx, n, members);
  }
  return f == fine->rank ? mlirArrayAttrGet(ctx, coarse->rank, groups)
                         : mlirAttributeGetNull();
}

static MlirType shapeType(const Shape *s, MlirType like) {
  return mlirRankedTensorTypeGet(s->rank, s->dims,
                                 mlirShapedTypeGetElementType(like),
                                 mlirAttributeGetNull());
}

static bool sameShape(const Shape *a, const Shape *b) {
  if (a->rank != b->rank)
    return false;
  for (intptr_t d = 0; d < a->rank; ++d)
    if (a->dims[d] != b->dims[d])
      return false;
  return true;
}

/* `v` reshaped to `to` before `before`: an expand when `to` refines `v`'s
 * shape, else a collapse; `v` itself when the shapes are the same; null
 * when `v` is or there is no such reshape. */
static MlirValue reshapeTo(MlirOperation before, MlirValue v, const Shape *to) {
  if (mlirValueIsNull(v))
    return v;
  MlirType t = mlirValueGetType(v);
  Shape from = shapeOf(t);
  if (sameShape(&from, to))
    return v;
  MlirContext ctx = mlirOperationGetContext(before);
  bool expand = to->rank > from.rank;
  MlirAttribute groups =
      expand ? reassociation(ctx, to, &from) : reassociation(ctx, &from, to);
  if (mlirAttributeIsNull(groups))
    return (MlirValue){NULL};
  MlirType result = shapeType(to, t);
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("reassociation")),
                            groups),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("static_output_shape")),
          mlirDenseI64ArrayGet(ctx, to->rank, to->dims)),
  };
  return mlirOperationGetResult(
      kilnInsertOp(before,
                   expand ? "tensor.expand_shape" : "tensor.collapse_shape", 1,
                   &v, 1, &result, expand ? 2 : 1, attrs),
      0);
}

/* `a` with each non-unit dim split into its pieces of `r` (a refinement
 * of `a` without its unit dims), the unit dims kept where they are: an
 * expand of `a`, so no collapse that only drops unit dims comes between
 * its producer and the refinement (the reshape propagation folds expands
 * into producers, not such collapses). */
static bool refineKeepingUnits(const Shape *a, const Shape *r, Shape *out) {
  intptr_t k = 0;
  out->rank = 0;
  for (intptr_t d = 0; d < a->rank; ++d) {
    int64_t product = 1;
    do {
      if (out->rank == kMaxRank * 2)
        return false;
      int64_t piece = a->dims[d] == 1 ? 1 : r->dims[k++];
      out->dims[out->rank++] = piece;
      product *= piece;
    } while (product < a->dims[d] && k < r->rank);
    if (product != a->dims[d])
      return false;
  }
  return k == r->rank;
}

/* Rewrites `expand` (of a collapse) through the common refinement. */
static void regroupFlattening(MlirOperation expand) {
  MlirValue src = mlirOperationGetOperand(expand, 0);
  MlirType to = mlirValueGetType(mlirOperationGetResult(expand, 0));
  if (!mlirValueIsAOpResult(src) ||
      !kilnOpNameIs(mlirOpResultGetOwner(src), "tensor.collapse_shape") ||
      !kilnTypeIsStaticTensor(to))
    return;
  MlirValue x = mlirOperationGetOperand(mlirOpResultGetOwner(src), 0);
  Shape a = shapeOf(mlirValueGetType(x)), b = shapeOf(to);
  if (!kilnTypeIsStaticTensor(mlirValueGetType(x)) || a.rank > kMaxRank ||
      b.rank > kMaxRank)
    return;
  Shape a1 = withoutUnits(&a), b1 = withoutUnits(&b), r, ra;
  if (!refine(&a1, &b1, &r) || !refineKeepingUnits(&a, &r, &ra))
    return;
  MlirValue v = reshapeTo(expand, x, &ra);
  v = reshapeTo(expand, v, &b1);
  v = reshapeTo(expand, v, &b);
  if (!mlirValueIsNull(v))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(expand, 0), v);
}

/* A static reshape of a tensor.empty becomes an empty of its type (the
 * reshape propagation leaves them on inits). */
static void foldReshapedEmpty(MlirOperation reshape) {
  MlirValue src = mlirOperationGetOperand(reshape, 0);
  MlirType t = mlirValueGetType(mlirOperationGetResult(reshape, 0));
  if (!mlirValueIsAOpResult(src) ||
      !kilnOpNameIs(mlirOpResultGetOwner(src), "tensor.empty") ||
      !kilnTypeIsStaticTensor(t))
    return;
  MlirOperation e =
      kilnInsertOp(reshape, "tensor.empty", 0, NULL, 1, &t, 0, NULL);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(reshape, 0),
                                mlirOperationGetResult(e, 0));
  mlirOperationDestroy(reshape);
}

/* Each generic reading reshape result `r` as an input reads its source
 * `src` instead: source dim d through the map result of `r`'s dim
 * pick[d], or the constant 0 (a unit dim) where pick[d] is -1, which
 * constantsToUnitLoop then makes a unit loop. */
static void readSourceInUsers(MlirValue r, MlirValue src, intptr_t rank,
                              const intptr_t *pick) {
  KilnOpList users = {0};
  kilnOpListCollectUsers(&users, r);
  for (size_t i = 0; i < users.len; ++i) {
    MlirOperation g = users.data[i];
    intptr_t n = mlirOperationGetNumOperands(g);
    if (!kilnOpNameIs(g, "linalg.generic") || n > kMaxOperands)
      continue;
    MlirContext ctx = mlirOperationGetContext(g);
    MlirAttribute old =
        mlirOperationGetAttributeByName(g, kilnStr("indexing_maps"));
    MlirAttribute maps[kMaxOperands];
    bool changed = false;
    for (intptr_t k = 0; k < n; ++k) {
      maps[k] = mlirArrayAttrGetElement(old, k);
      if (k + 1 == n || !mlirValueEqual(mlirOperationGetOperand(g, k), r))
        continue; /* only inputs */
      MlirAffineMap m = mlirAffineMapAttrGetValue(maps[k]);
      MlirAffineExpr exprs[kMaxRank];
      for (intptr_t d = 0; d < rank; ++d)
        exprs[d] = pick[d] >= 0 ? mlirAffineMapGetResult(m, pick[d])
                                : mlirAffineConstantExprGet(ctx, 0);
      maps[k] = mlirAffineMapAttrGet(
          mlirAffineMapGet(ctx, mlirAffineMapGetNumDims(m),
                           mlirAffineMapGetNumSymbols(m), rank, exprs));
      mlirOperationSetOperand(g, k, src);
      changed = true;
    }
    if (changed)
      mlirOperationSetAttributeByName(g, kilnStr("indexing_maps"),
                                      mlirArrayAttrGet(ctx, n, maps));
  }
  kilnOpListDestroy(&users);
}

/* An expand that only adds unit dims (Unsqueeze), read by generics: each
 * reads the source instead, through the map results of the group's
 * non-unit dims (an input's mask broadcast over heads; the reshape
 * propagation folds only reshapes next to generics' results). */
static void foldUnitExpandIntoUsers(MlirOperation expand) {
  MlirValue src = mlirOperationGetOperand(expand, 0);
  MlirValue r = mlirOperationGetResult(expand, 0);
  MlirType st = mlirValueGetType(src);
  MlirAttribute groups =
      mlirOperationGetAttributeByName(expand, kilnStr("reassociation"));
  intptr_t rank = mlirShapedTypeGetRank(st);
  if (!kilnTypeIsStaticTensor(st) || mlirAttributeIsNull(groups) ||
      rank > kMaxRank || mlirArrayAttrGetNumElements(groups) != rank)
    return;
  /* pick[d]: the result dim source dim d is read through. */
  intptr_t pick[kMaxRank];
  for (intptr_t d = 0; d < rank; ++d) {
    MlirAttribute g = mlirArrayAttrGetElement(groups, d);
    pick[d] = -1;
    for (intptr_t k = 0; k < mlirArrayAttrGetNumElements(g); ++k) {
      intptr_t dim = mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(g, k));
      if (mlirShapedTypeGetDimSize(mlirValueGetType(r), dim) == 1)
        continue;
      if (pick[d] >= 0)
        return; /* splits a dim: not an Unsqueeze */
      pick[d] = dim;
    }
    if (pick[d] < 0) /* a unit source dim: its group's first */
      pick[d] = mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(g, 0));
  }
  readSourceInUsers(r, src, rank, pick);
}

/* A collapse that only drops unit dims, read by generics: each reads the
 * source instead, a group's non-unit dim (or first) through the group's
 * map result, its other (unit) dims through unit loops. The reshape
 * propagation leaves such collapses after elementwise ops whose inputs it
 * expanded with unit dims (attention scores at batch 1, masked). */
static void foldUnitCollapseIntoUsers(MlirOperation collapse) {
  MlirValue src = mlirOperationGetOperand(collapse, 0);
  MlirValue r = mlirOperationGetResult(collapse, 0);
  MlirType st = mlirValueGetType(src);
  MlirAttribute groups =
      mlirOperationGetAttributeByName(collapse, kilnStr("reassociation"));
  intptr_t rank = mlirShapedTypeGetRank(st);
  if (!kilnTypeIsStaticTensor(st) || mlirAttributeIsNull(groups) ||
      rank > kMaxRank)
    return;
  intptr_t pick[kMaxRank];
  for (intptr_t d = 0; d < rank; ++d)
    pick[d] = -1;
  for (intptr_t g = 0; g < mlirArrayAttrGetNumElements(groups); ++g) {
    MlirAttribute group = mlirArrayAttrGetElement(groups, g);
    intptr_t chosen = -1;
    for (intptr_t k = 0; k < mlirArrayAttrGetNumElements(group); ++k) {
      intptr_t dim =
          mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(group, k));
      if (mlirShapedTypeGetDimSize(st, dim) == 1)
        continue;
      if (chosen >= 0)
        return; /* merges dims: not a unit-dim drop */
      chosen = dim;
    }
    if (chosen < 0)
      chosen = mlirIntegerAttrGetValueInt(mlirArrayAttrGetElement(group, 0));
    pick[chosen] = g;
  }
  readSourceInUsers(r, src, rank, pick);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(r)))
    mlirOperationDestroy(collapse);
}

static void regroupFlattenings(MlirOperation module) {
  KilnOpList reshapes = {0};
  kilnOpListCollectNamed(&reshapes, module, "tensor.expand_shape",
                         MlirWalkPreOrder);
  for (size_t i = 0; i < reshapes.len; ++i) {
    regroupFlattening(reshapes.data[i]);
    foldUnitExpandIntoUsers(reshapes.data[i]);
  }
  kilnOpListClear(&reshapes);
  kilnOpListCollectNamed(&reshapes, module, "tensor.collapse_shape",
                         MlirWalkPreOrder);
  for (size_t i = 0; i < reshapes.len; ++i)
    foldUnitCollapseIntoUsers(reshapes.data[i]);
  kilnOpListClear(&reshapes);
  kilnOpListCollectNamed(&reshapes, module, "tensor.expand_shape",
                         MlirWalkPreOrder);
  kilnOpListCollectNamed(&reshapes, module, "tensor.collapse_shape",
                         MlirWalkPreOrder);
  for (size_t i = 0; i < reshapes.len; ++i)
    foldReshapedEmpty(reshapes.data[i]);
  kilnOpListDestroy(&reshapes);
}

/* ---- scalar code --------------------------------------------------------- */

/* Sharding propagation refuses every op without a sharding interface, and
 * the run-time checks read a reduced 0-d tensor as a scalar:
 *
 *   %s = tensor.extract %bad[] : tensor<i32>
 *   %c = arith.cmpi ne, %s, %c0 : i32
 *   scf.if %c { ... } {kiln.data_check}
 * =>
 *   linalg.generic {iterator_types = []} ins(%bad : tensor<i32>)
 *       outs(%e : tensor<i32>) {
 *   ^bb0(%s: i32, %out: i32):
 *     %c = arith.cmpi ne, %s, %c0 : i32
 *     scf.if %c { ... } {kiln.data_check}
 *     linalg.yield %out : i32
 *   }
 *
 * the same code in the body of a 0-d generic, which partition keeps on
 * every rank (after the all-reduce a dp reduction needs). The extract's
 * users (through their results, and the top-level ops enclosing nested
 * users) must produce no tensors and be used by nothing else. */

/* `NAME ins(ops[0]) outs(ops[1]) -> t` with `attrs` at `loc` before
 * `before`, its body the two element arguments, yielding argument `yielded`
 * (the region linalg.copy's builder makes yields the input); `*yield` is the
 * body's terminator. */
static MlirOperation
insertOneInputLinalgOp(MlirOperation before, MlirLocation loc, const char *name,
                       const MlirValue *ops, MlirType t, intptr_t nAttrs,
                       const MlirNamedAttribute *attrs, intptr_t yielded,
                       MlirOperation *yield) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType elem = mlirShapedTypeGetElementType(t);
  MlirType types[2] = {elem, elem};
  MlirLocation locs[2] = {loc, loc};
  MlirBlock body = mlirBlockCreate(2, types, locs);
  MlirValue value = mlirBlockGetArgument(body, yielded);
  MlirOperationState y = mlirOperationStateGet(kilnStr("linalg.yield"), loc);
  mlirOperationStateAddOperands(&y, 1, &value);
  *yield = mlirOperationCreate(&y);
  mlirBlockAppendOwnedOperation(body, *yield);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirNamedAttribute seg =
      kilnSegmentSizesAttr(ctx, 2, (const int32_t[]){1, 1});
  MlirOperationState st = mlirOperationStateGet(kilnStr(name), loc);
  mlirOperationStateAddOperands(&st, 2, ops);
  mlirOperationStateAddResults(&st, 1, &t);
  mlirOperationStateAddAttributes(&st, 1, &seg);
  mlirOperationStateAddAttributes(&st, nAttrs, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before,
                                      op);
  return op;
}

/* `op`'s ancestor in `block`, or null. */
static MlirOperation ancestorIn(MlirOperation op, MlirBlock block) {
  while (!mlirOperationIsNull(op) &&
         !mlirBlockEqual(mlirOperationGetBlock(op), block))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* The top-level ops using the scalar `extract` makes, transitively; false
 * if one makes a tensor or escapes. */
static bool scalarUsers(MlirOperation extract, KilnOpList *set) {
  MlirBlock block = mlirOperationGetBlock(extract);
  kilnOpListPush(set, extract);
  for (size_t i = 0; i < set->len; ++i) {
    MlirOperation op = set->data[i];
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      if (mlirTypeIsAShaped(mlirValueGetType(v)))
        return false;
      for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
           u = mlirOpOperandGetNextUse(u)) {
        MlirOperation user = ancestorIn(mlirOpOperandGetOwner(u), block);
        if (mlirOperationIsNull(user) ||
            mlirOperationEqual(user, mlirBlockGetTerminator(block)))
          return false;
        if (!kilnOpListContains(set, user))
          kilnOpListPush(set, user);
      }
    }
  }
  return true;
}

static void wrapScalarCode(MlirOperation extract) {
  MlirValue t = mlirOperationGetOperand(extract, 0);
  MlirType tt = mlirValueGetType(t);
  if (mlirOperationGetNumOperands(extract) != 1 ||
      !mlirTypeIsARankedTensor(tt) || mlirShapedTypeGetRank(tt) != 0)
    return;
  KilnOpList set = {0};
  if (!scalarUsers(extract, &set)) {
    kilnOpListDestroy(&set);
    return;
  }
  /* The generic goes after the last of them, in block order. */
  MlirOperation last = extract;
  for (MlirOperation o = extract; !mlirOperationIsNull(o);
       o = mlirOperationGetNextInBlock(o))
    if (kilnOpListContains(&set, o))
      last = o;
  MlirOperation at = mlirOperationGetNextInBlock(last);
  MlirContext ctx = mlirOperationGetContext(extract);
  MlirValue ops[2] = {
      t, mlirOperationGetResult(
             kilnInsertOp(at, "tensor.empty", 0, NULL, 1, &tt, 0, NULL), 0)};
  MlirAttribute scalarMap = mlirAffineMapAttrGet(mlirAffineMapEmptyGet(ctx));
  MlirAttribute maps[2] = {scalarMap, scalarMap};
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("indexing_maps")),
                            mlirArrayAttrGet(ctx, 2, maps)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("iterator_types")),
                            mlirArrayAttrGet(ctx, 0, NULL)),
  };
  MlirOperation y;
  MlirOperation g =
      insertOneInputLinalgOp(at, mlirOperationGetLocation(extract),
                             "linalg.generic", ops, tt, 2, attrs, 1, &y);
  MlirBlock body = mlirOperationGetBlock(y);
  /* The ops move into the body in block order; the extract's value is
   * the body's first argument. */
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(extract, 0),
                                mlirBlockGetArgument(body, 0));
  MlirOperation o = mlirOperationGetNextInBlock(extract);
  mlirOperationDestroy(extract);
  while (!mlirOperationEqual(o, g)) {
    MlirOperation next = mlirOperationGetNextInBlock(o);
    if (kilnOpListContains(&set, o))
      mlirOperationMoveBefore(o, y);
    o = next;
  }
  kilnOpListDestroy(&set);
}

static void wrapScalarCodeIn(MlirOperation module) {
  KilnOpList extracts = {0};
  kilnOpListCollectNamed(&extracts, module, "tensor.extract", MlirWalkPreOrder);
  for (size_t i = 0; i < extracts.len; ++i) {
    MlirOperation e = extracts.data[i];
    MlirOperation parent = mlirOperationGetParentOperation(e);
    if (!mlirOperationIsNull(parent) && kilnOpNameIs(parent, "func.func"))
      wrapScalarCode(e);
  }
  kilnOpListDestroy(&extracts);
}

/* ---- captured constants -------------------------------------------------- */

/* Scalar constants a generic's body uses from above are cloned into the
 * body: shard-partition rebuilds a generic whose reduction it splits
 * without remapping values captured from above (its copy would use the
 * old function's constants, erased with it). */
typedef struct Capture {
  MlirOperation generic;
  MlirBlock body;
} Capture;

static MlirWalkResult sinkConstantsOf(MlirOperation op, void *userData) {
  const Capture *c = userData;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v))
      continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!kilnOpNameIs(def, "arith.constant") ||
        mlirTypeIsAShaped(mlirValueGetType(v)) ||
        kilnOpIsInside(def, c->generic))
      continue;
    MlirOperation copy = mlirOperationClone(def);
    mlirBlockInsertOwnedOperation(c->body, 0, copy);
    mlirOperationSetOperand(op, i, mlirOperationGetResult(copy, 0));
  }
  return MlirWalkResultAdvance;
}

static void sinkCapturedConstants(MlirOperation module) {
  KilnOpList generics = {0};
  kilnOpListCollectNamed(&generics, module, "linalg.generic", MlirWalkPreOrder);
  for (size_t i = 0; i < generics.len; ++i) {
    MlirOperation g = generics.data[i];
    Capture c = {g, mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0))};
    for (MlirOperation op = mlirBlockGetFirstOperation(c.body);
         !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
      mlirOperationWalk(op, sinkConstantsOf, &c, MlirWalkPreOrder);
  }
  kilnOpListDestroy(&generics);
}

/* A product: a generic with a reduction loop over two or more tensors. */
static bool isProduct(MlirOperation g) {
  intptr_t n = mlirOperationGetNumOperands(g);
  intptr_t loops = mlirAffineMapGetNumDims(kilnLinalgIndexingMap(g, 0));
  char kinds[kMaxRank * 2];
  if (loops > kMaxRank * 2 || !kilnLinalgIteratorKinds(g, kinds, loops) ||
      !memchr(kinds, 'r', (size_t)loops))
    return false;
  int tensors = 0;
  for (intptr_t i = 0; i + 1 < n; ++i)
    tensors += mlirTypeIsARankedTensor(
        mlirValueGetType(mlirOperationGetOperand(g, i)));
  return tensors >= 2;
}

/* Whether generic `g` is elementwise and computes (its body is more than
 * a yield: a transpose fused into a product costs nothing). */
static bool computesElementwise(MlirOperation g) {
  intptr_t loops = mlirAffineMapGetNumDims(kilnLinalgIndexingMap(g, 0));
  char kinds[kMaxRank * 2];
  if (mlirOperationGetNumResults(g) != 1 || loops > kMaxRank * 2 ||
      !kilnLinalgIteratorKinds(g, kinds, loops) ||
      memchr(kinds, 'r', (size_t)loops))
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  return !mlirOperationEqual(mlirBlockGetFirstOperation(body),
                             mlirBlockGetTerminator(body));
}

/* A linalg.copy of `v` after its producer, read by all of `v`'s users. */
static void guardValue(MlirValue v) {
  MlirOperation producer = mlirOpResultGetOwner(v);
  MlirOperation next = mlirOperationGetNextInBlock(producer);
  MlirType t = mlirValueGetType(v);
  MlirValue ops[2] = {
      v, mlirOperationGetResult(
             kilnInsertOp(next, "tensor.empty", 0, NULL, 1, &t, 0, NULL), 0)};
  MlirOperation yield;
  MlirOperation copy =
      insertOneInputLinalgOp(next, mlirOperationGetLocation(next),
                             "linalg.copy", ops, t, 0, NULL, 0, &yield);
  mlirValueReplaceAllUsesExcept(v, mlirOperationGetResult(copy, 0), 1, &copy);
}

/* keep-products: a linalg.copy after each elementwise producer of a
 * product's operand (through reshapes), and after each embedding lookup
 * (gather.h: tp splits its table by rows when nothing is fused into it). */
static void guardProducts(MlirOperation module) {
  KilnOpList generics = {0};
  kilnOpListCollectNamed(&generics, module, "linalg.generic", MlirWalkPreOrder);
  for (size_t i = 0; i < generics.len; ++i) {
    MlirOperation g = generics.data[i];
    if (!mlirOperationIsNull(kilnShardLookupExtract(g)))
      guardValue(mlirOperationGetResult(g, 0));
    if (!isProduct(g))
      continue;
    for (intptr_t k = 0; k + 1 < mlirOperationGetNumOperands(g); ++k) {
      MlirValue v = mlirOperationGetOperand(g, k);
      while (mlirValueIsAOpResult(v) &&
             kilnIsStaticTensorReshape(mlirOpResultGetOwner(v)))
        v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
      if (!mlirValueIsAOpResult(v) ||
          !kilnOpNameIs(mlirOpResultGetOwner(v), "linalg.generic") ||
          !computesElementwise(mlirOpResultGetOwner(v)))
        continue;
      guardValue(v);
    }
  }
  kilnOpListDestroy(&generics);
}

/* The copies guardProducts made, taken out (with any other copy into a
 * tensor.empty: on tensors, the same value). */
static void dropGuards(MlirOperation module) {
  KilnOpList copies = {0};
  kilnOpListCollectNamed(&copies, module, "linalg.copy", MlirWalkPreOrder);
  for (size_t i = 0; i < copies.len; ++i) {
    MlirOperation c = copies.data[i];
    MlirValue init = mlirOperationGetOperand(c, 1);
    if (mlirOperationGetNumResults(c) != 1 || !mlirValueIsAOpResult(init) ||
        !kilnOpNameIs(mlirOpResultGetOwner(init), "tensor.empty"))
      continue;
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(c, 0),
                                  mlirOperationGetOperand(c, 0));
    mlirOperationDestroy(c);
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(init)))
      mlirOperationDestroy(mlirOpResultGetOwner(init));
  }
  kilnOpListDestroy(&copies);
}

/* Gives each user of a fill (a generic reading no tensor) its own: the
 * lowering shares one zero-filled init among products, and
 * linalg-fuse-elementwise-ops reshapes a product's init only when its
 * producer has one use. */
static void unshareFills(MlirOperation module) {
  KilnOpList generics = {0}, users = {0};
  kilnOpListCollectNamed(&generics, module, "linalg.generic", MlirWalkPreOrder);
  for (size_t i = 0; i < generics.len; ++i) {
    MlirOperation g = generics.data[i];
    bool readsTensor = false;
    for (intptr_t k = 0; k + 1 < mlirOperationGetNumOperands(g); ++k)
      readsTensor |= mlirTypeIsARankedTensor(
          mlirValueGetType(mlirOperationGetOperand(g, k)));
    if (readsTensor || mlirOperationGetNumResults(g) != 1)
      continue;
    MlirValue r = mlirOperationGetResult(g, 0);
    kilnOpListClear(&users);
    for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u))
      kilnOpListPush(&users, mlirOpOperandGetOwner(u));
    for (size_t k = 1; k < users.len; ++k) {
      MlirOperation user = users.data[k];
      MlirOperation c = mlirOperationClone(g);
      mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(user), user, c);
      for (intptr_t o = 0; o < mlirOperationGetNumOperands(user); ++o)
        if (mlirValueEqual(mlirOperationGetOperand(user, o), r))
          mlirOperationSetOperand(user, o, mlirOperationGetResult(c, 0));
    }
  }
  kilnOpListDestroy(&users);
  kilnOpListDestroy(&generics);
}

static void runShardPrepare(MlirOperation module, MlirExternalPass pass,
                            const KilnPassOptionValue *options) {
  (void)pass;
  wrapScalarCodeIn(module);
  regroupFlattenings(module);
  unshareFills(module);
  pushSlices(module);
  KilnOpList generics = {0};
  kilnOpListCollectNamed(&generics, module, "linalg.generic", MlirWalkPreOrder);
  for (size_t i = 0; i < generics.len; ++i)
    constantsToUnitLoop(generics.data[i]);
  kilnOpListDestroy(&generics);
  if (options[kOptKeepProducts].b) {
    guardProducts(module);
  } else {
    dropGuards(module);
    sinkCapturedConstants(module);
  }
}

static const KilnPassOptionSpec kOptions[kNumOptions] = {
    [kOptKeepProducts] = {"keep-products", KILN_PASS_OPTION_BOOL, "false",
                          "Put a linalg.copy after each elementwise producer "
                          "of a product, so linalg-fuse-elementwise-ops does "
                          "not fuse it in (false: take such copies out)"},
};

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__linalg__, mlirGetDialectHandle__tensor__};

const KilnPassInfo kilnShardPreparePass = {
    .argument = "kiln-shard-prepare",
    .summary = "Rewrite linalg on tensors into the form MLIR's sharding "
               "accepts: slices of generics pushed into their producers, "
               "constant map results as unit loops",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runShardPrepare,
    .dependentDialects = kDialects,
    .numDependentDialects = 2,
};

/* Accumulators initialized in registers (register_init.h).
 *
 * After kiln-tile-and-vectorize a fused contraction's thread block is
 *
 *   %b = linalg.generic ins(%bias) outs(%slice)  {yield %in}   (or a fill)
 *   %r = scf.for %m ... iter_args(%t = %b) {
 *          scf.for %p ... iter_args(%u = %t) {
 *            %s   = tensor.extract_slice %u[0, %m, %p] [1, 8, 16]
 *            %acc = vector.transfer_read %s ...       (the hoisted read)
 *            ... reduction loop of FMAs ...
 *            vector.transfer_write %sum, %s ...  tensor.insert_slice ...
 *
 * so each thread block stores the bias into every output element, and each
 * register tile loads it back before its first FMA: a pass over the block
 * in memory, 13% of a 1x1 conv with 16 input channels. Each register tile
 * reads its slice of the init once, before any tile writes it (every loop
 * entered on the way steps its own offset of the slices), so the value it
 * reads is the bias there: the read becomes a read of the bias through the
 * generic's input map (a broadcast transfer_read, one row per output
 * channel), and with no other read of the init left, the bias op is
 * erased and the loops start from its init, which they only overwrite. */
#include "conversions/linalg-to-llvm-cpu/schedules/register_init.h"

#include <stdint.h>
#include <string.h>

#include "dialects/linalg/transforms/schedule.h"
#include "kiln/diagnostics.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kMaxDepth = 16, kMaxRank = 12, kMaxUses = 64 };

/* The walk from the init op's result to the reads of its value: the loops
 * entered through their iter_args and the extract_slices taken on the way.
 * `build`: rewrite the reads (else only check that each can be). */
typedef struct Trace {
  MlirOperation init; /* the bias generic or fill */
  MlirOperation loops[kMaxDepth];
  intptr_t nLoops;
  MlirOperation slices[kMaxDepth];
  intptr_t nSlices;
  /* Following a loop's result: that loop (a loop it feeds must be its
   * peeled remainder); else null. */
  MlirOperation after;
  bool build;
  bool ok;
} Trace;

static bool isElementwiseCopy(MlirOperation op) {
  if (!kilnOpNameIs(op, "linalg.generic") ||
      mlirOperationGetNumOperands(op) != 2 ||
      mlirOperationGetNumResults(op) != 1)
    return false;
  char kinds[kMaxRank];
  MlirType out = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(out) || !mlirShapedTypeHasStaticShape(out) ||
      mlirShapedTypeGetRank(out) > kMaxRank ||
      !kilnLinalgIteratorKinds(op, kinds, mlirShapedTypeGetRank(out)))
    return false;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(out); ++i)
    if (kinds[i] != 'p')
      return false;
  MlirAttribute maps =
      mlirOperationGetAttributeByName(op, kilnStr("indexing_maps"));
  if (mlirAttributeIsNull(maps) || mlirArrayAttrGetNumElements(maps) != 2)
    return false;
  MlirAffineMap in =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
  MlirAffineMap o = mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 1));
  if (!mlirAffineMapIsIdentity(o) || !mlirAffineMapIsProjectedPermutation(in))
    return false;
  /* The body: yield %in. */
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation yield = mlirBlockGetFirstOperation(body);
  return kilnOpNameIs(yield, "linalg.yield") &&
         mlirOperationGetNumOperands(yield) == 1 &&
         mlirValueEqual(mlirOperationGetOperand(yield, 0),
                        mlirBlockGetArgument(body, 0));
}

/* The scalar every element of `op`'s result is: a linalg.fill's, or what
 * the body of a generic without inputs yields from outside (a constant).
 * Null for other ops. */
static MlirValue fillValue(MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1 ||
      !mlirTypeIsARankedTensor(mlirValueGetType(mlirOperationGetResult(op, 0))))
    return (MlirValue){NULL};
  if (kilnOpNameIs(op, "linalg.fill") && mlirOperationGetNumOperands(op) == 2)
    return mlirOperationGetOperand(op, 0);
  if (!kilnOpNameIs(op, "linalg.generic") ||
      mlirOperationGetNumOperands(op) != 1)
    return (MlirValue){NULL};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation yield = mlirBlockGetFirstOperation(body);
  if (!kilnOpNameIs(yield, "linalg.yield") ||
      mlirOperationGetNumOperands(yield) != 1)
    return (MlirValue){NULL};
  MlirValue v = mlirOperationGetOperand(yield, 0);
  if (mlirValueIsABlockArgument(v))
    return (MlirValue){NULL};
  return v;
}

/* Whether `v` is a dynamic offset of `op` (an extract_slice, or an
 * insert_slice: `firstDyn` 2). */
static bool hasOffset(MlirOperation op, intptr_t firstDyn, MlirValue v) {
  MlirAttribute offsets =
      mlirOperationGetAttributeByName(op, kilnStr("static_offsets"));
  intptr_t dyn = firstDyn;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(offsets); ++i) {
    if (!mlirShapedTypeIsDynamicStrideOrOffset(
            mlirDenseI64ArrayGetElement(offsets, i)))
      continue;
    if (mlirValueEqual(mlirOperationGetOperand(op, dyn), v))
      return true;
    ++dyn;
  }
  return false;
}

/* Whether each loop entered steps a dynamic offset of the slices taken
 * (`nSlices` of them) or of `insert` (if not null). */
static bool loopsStepOffsets(const Trace *t, MlirOperation insert) {
  for (intptr_t l = 0; l < t->nLoops; ++l) {
    MlirBlock body =
        mlirRegionGetFirstBlock(mlirOperationGetRegion(t->loops[l], 0));
    MlirValue iv = mlirBlockGetArgument(body, 0);
    bool found = !mlirOperationIsNull(insert) && hasOffset(insert, 2, iv);
    for (intptr_t s = 0; s < t->nSlices && !found; ++s)
      found = hasOffset(t->slices[s], 1, iv);
    if (!found)
      return false;
  }
  return true;
}

/* An extract_slice with unit strides, static sizes and a result whose dims
 * match its sizes in order (unit dims dropped): fills `srcDim` with the
 * source dim of each result dim. */
static bool sliceDims(MlirOperation slice, intptr_t *srcDim) {
  MlirAttribute sizes =
      mlirOperationGetAttributeByName(slice, kilnStr("static_sizes"));
  MlirAttribute strides =
      mlirOperationGetAttributeByName(slice, kilnStr("static_strides"));
  MlirType result = mlirValueGetType(mlirOperationGetResult(slice, 0));
  if (mlirAttributeIsNull(sizes) || mlirAttributeIsNull(strides) ||
      !mlirTypeIsARankedTensor(result))
    return false;
  intptr_t n = mlirDenseArrayGetNumElements(sizes);
  intptr_t rank = mlirShapedTypeGetRank(result), j = 0;
  if (n > kMaxRank)
    return false;
  for (intptr_t i = 0; i < n; ++i) {
    int64_t size = mlirDenseI64ArrayGetElement(sizes, i);
    if (mlirDenseI64ArrayGetElement(strides, i) != 1 ||
        mlirShapedTypeIsDynamicSize(size))
      return false;
    if (j < rank && size == mlirShapedTypeGetDimSize(result, j))
      srcDim[j++] = i;
    else if (size != 1)
      return false;
  }
  return j == rank;
}

/* Index `a` + `b` before `before` (either may be null: 0). */
static MlirValue addIndex(MlirOperation before, MlirValue a, MlirValue b) {
  if (mlirValueIsNull(a))
    return b;
  if (mlirValueIsNull(b))
    return a;
  MlirValue ops[2] = {a, b};
  MlirType index = mlirIndexTypeGet(mlirOperationGetContext(before));
  return mlirOperationGetResult(
      kilnInsertOp(before, "arith.addi", 2, ops, 1, &index, 0, NULL), 0);
}

/* The position of `read`'s element 0 in the init's coordinates (`idx`, a
 * null value for 0) and the init dim along each vector dim (`along`, -1:
 * broadcast), composing the slices on the way; index arithmetic is built
 * before `read` only when `t->build`. False if a slice or the read's map
 * is not of the forms handled. */
static bool composeIndices(const Trace *t, MlirOperation read, MlirValue *idx,
                           intptr_t *along, intptr_t *nIdx) {
  MlirType src = mlirValueGetType(mlirOperationGetOperand(read, 0));
  intptr_t rank = mlirShapedTypeGetRank(src);
  MlirAttribute permAttr =
      mlirOperationGetAttributeByName(read, kilnStr("permutation_map"));
  if (rank > kMaxRank || mlirAttributeIsNull(permAttr) ||
      mlirOperationGetNumOperands(read) != rank + 2)
    return false; /* a mask, or indices not one per dim */
  MlirAffineMap perm = mlirAffineMapAttrGetValue(permAttr);
  for (intptr_t v = 0; v < mlirAffineMapGetNumResults(perm); ++v) {
    MlirAffineExpr e = mlirAffineMapGetResult(perm, v);
    if (mlirAffineExprIsADim(e))
      along[v] = mlirAffineDimExprGetPosition(e);
    else if (mlirAffineExprIsAConstant(e) &&
             mlirAffineConstantExprGetValue(e) == 0)
      along[v] = -1;
    else
      return false;
  }
  for (intptr_t d = 0; d < rank; ++d)
    idx[d] = mlirOperationGetOperand(read, 1 + d);
  for (intptr_t s = t->nSlices - 1; s >= 0; --s) {
    MlirOperation slice = t->slices[s];
    intptr_t srcDim[kMaxRank];
    if (!sliceDims(slice, srcDim))
      return false;
    MlirAttribute offsets =
        mlirOperationGetAttributeByName(slice, kilnStr("static_offsets"));
    intptr_t srcRank = mlirDenseArrayGetNumElements(offsets), dyn = 1;
    MlirValue next[kMaxRank];
    for (intptr_t i = 0; i < srcRank; ++i) {
      int64_t o = mlirDenseI64ArrayGetElement(offsets, i);
      if (mlirShapedTypeIsDynamicStrideOrOffset(o))
        next[i] = mlirOperationGetOperand(slice, dyn++);
      else
        next[i] = o && t->build ? kilnInsertIndexConstant(read, o)
                                : (MlirValue){NULL};
    }
    for (intptr_t j = 0; j < rank; ++j) {
      int64_t c;
      MlirValue inner = idx[j];
      if (!mlirValueIsNull(inner) && kilnConstantIndexValue(inner, &c) && !c)
        inner = (MlirValue){NULL};
      next[srcDim[j]] =
          t->build ? addIndex(read, next[srcDim[j]], inner) : next[srcDim[j]];
    }
    for (intptr_t v = 0; v < mlirAffineMapGetNumResults(perm); ++v)
      if (along[v] >= 0)
        along[v] = srcDim[along[v]];
    memcpy(idx, next, sizeof(MlirValue) * srcRank);
    rank = srcRank;
  }
  *nIdx = rank;
  return true;
}

/* The vector the bias op puts at `read`'s tile: a transfer_read of its
 * input through its input map, or a broadcast of the fill's scalar. */
static MlirValue buildInitVector(const Trace *t, MlirOperation read,
                                 MlirValue *idx, const intptr_t *along) {
  MlirContext ctx = mlirOperationGetContext(read);
  MlirType vecType = mlirValueGetType(mlirOperationGetResult(read, 0));
  MlirValue in = fillValue(t->init);
  if (!mlirValueIsNull(in))
    return mlirOperationGetResult(
        kilnInsertOp(read, "vector.broadcast", 1, &in, 1, &vecType, 0, NULL),
        0);
  MlirAttribute maps =
      mlirOperationGetAttributeByName(t->init, kilnStr("indexing_maps"));
  MlirAffineMap inMap =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
  intptr_t inRank = mlirAffineMapGetNumResults(inMap);
  MlirValue operands[kMaxRank + 2];
  operands[0] = mlirOperationGetOperand(t->init, 0);
  MlirValue zero = {NULL};
  for (intptr_t j = 0; j < inRank; ++j) {
    MlirValue v =
        idx[mlirAffineDimExprGetPosition(mlirAffineMapGetResult(inMap, j))];
    if (mlirValueIsNull(v)) {
      if (mlirValueIsNull(zero))
        zero = kilnInsertIndexConstant(read, 0);
      v = zero;
    }
    operands[1 + j] = v;
  }
  operands[1 + inRank] = /* the padding */
      mlirOperationGetOperand(read, mlirOperationGetNumOperands(read) - 1);
  intptr_t nVec = mlirShapedTypeGetRank(vecType);
  MlirAffineExpr exprs[kMaxRank];
  MlirAttribute inBounds[kMaxRank];
  MlirAttribute oldBounds =
      mlirOperationGetAttributeByName(read, kilnStr("in_bounds"));
  for (intptr_t v = 0; v < nVec; ++v) {
    intptr_t j = -1;
    for (intptr_t k = 0; along[v] >= 0 && k < inRank; ++k)
      if (mlirAffineDimExprGetPosition(mlirAffineMapGetResult(inMap, k)) ==
          along[v])
        j = k;
    exprs[v] = j >= 0 ? mlirAffineDimExprGet(ctx, j)
                      : mlirAffineConstantExprGet(ctx, 0);
    inBounds[v] = j >= 0 && !mlirAttributeIsNull(oldBounds)
                      ? mlirArrayAttrGetElement(oldBounds, v)
                      : mlirBoolAttrGet(ctx, 1);
  }
  int32_t segs[4] = {1, (int32_t)inRank, 1, 0};
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("permutation_map")),
          mlirAffineMapAttrGet(mlirAffineMapGet(ctx, inRank, 0, nVec, exprs))),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("in_bounds")),
                            mlirArrayAttrGet(ctx, nVec, inBounds)),
      kilnSegmentSizesAttr(ctx, 4, segs)};
  return mlirOperationGetResult(kilnInsertOp(read, "vector.transfer_read",
                                             inRank + 2, operands, 1, &vecType,
                                             3, attrs),
                                0);
}

/* Whether the slice `read` reads is also written by a transfer_write: the
 * read is a register tile's accumulator, not another op reading the
 * finished result (a split reduction's lanes combined after its peeled
 * last rows were inserted: that read sees the sums, not the init). */
static bool readIsAccumulator(MlirOperation read) {
  MlirValue slice = mlirOperationGetOperand(read, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(slice); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (mlirOpOperandGetOperandNumber(u) == 1 &&
        kilnOpNameIs(mlirOpOperandGetOwner(u), "vector.transfer_write"))
      return true;
  return false;
}

/* A read of the init's value: each loop entered must step an offset of the
 * slices taken (the tile is read once, before it is written). */
static void visitRead(Trace *t, MlirOperation read) {
  if (!readIsAccumulator(read) || !loopsStepOffsets(t, (MlirOperation){NULL})) {
    t->ok = false;
    return;
  }
  MlirValue idx[kMaxRank];
  intptr_t along[kMaxRank], nIdx = 0;
  MlirType vecType = mlirValueGetType(mlirOperationGetResult(read, 0));
  if (!mlirTypeIsAVector(vecType) ||
      mlirShapedTypeGetRank(vecType) > kMaxRank ||
      !composeIndices(t, read, idx, along, &nIdx) ||
      nIdx != mlirShapedTypeGetRank(
                  mlirValueGetType(mlirOperationGetResult(t->init, 0)))) {
    t->ok = false;
    return;
  }
  if (!t->build)
    return;
  MlirValue v = buildInitVector(t, read, idx, along);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(read, 0), v);
  mlirOperationDestroy(read);
}

static void visitValue(Trace *t, MlirValue v);

/* Whether index values `a` and `b` are equal: one value, or constants. */
static bool sameIndex(MlirValue a, MlirValue b) {
  int64_t x, y;
  return mlirValueEqual(a, b) || (kilnConstantIndexValue(a, &x) &&
                                  kilnConstantIndexValue(b, &y) && x == y);
}

/* Whether a tile's write of `lanes` lanes covers its destination's dim `d`
 * of `size` elements: as many lanes, or more (a remainder tile widened to
 * a masked full vector, masked_remainders.h) written from index 0. */
static bool coversDim(MlirOperation write, intptr_t d, int64_t lanes,
                      int64_t size) {
  int64_t first;
  return lanes == size || (lanes > size &&
                           kilnConstantIndexValue(
                               mlirOperationGetOperand(write, 2 + d), &first) &&
                           first == 0);
}

/* Whether a tile's slice, written, only goes back into the tensor it was
 * sliced from (where the trace follows it). */
static bool onlyInsertedBack(MlirValue v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    if (mlirOpOperandGetOperandNumber(u) != 0 ||
        !kilnOpNameIs(mlirOpOperandGetOwner(u), "tensor.insert_slice"))
      return false;
  return true;
}

/* `v` is the init of `loop` (operand `operand`): its iter_arg holds the
 * value inside, its result after (the init's values where the loop did not
 * write: a peeled remainder's tiles read them). */
static void visitLoopInit(Trace *t, MlirOperation loop, intptr_t operand) {
  intptr_t k = operand - 3; /* lower bound, upper bound, step */
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  if (k < 0 || t->nLoops == kMaxDepth) {
    t->ok = false;
    return;
  }
  /* A loop fed by a loop's result reads the init's values only as that
   * loop's peeled remainder, which covers other indices. One over the
   * same range is another op's, reading what the loop wrote (a split
   * reduction's remainder columns added to its combined lanes, both
   * serial in an enclosing loop): the trace stops. */
  MlirOperation before = t->after;
  bool sameRange = !mlirOperationIsNull(before);
  for (intptr_t i = 0; sameRange && i < 3; ++i)
    sameRange = sameIndex(mlirOperationGetOperand(loop, i),
                          mlirOperationGetOperand(before, i));
  if (sameRange) {
    t->ok = false;
    return;
  }
  t->after = (MlirOperation){NULL};
  t->loops[t->nLoops++] = loop;
  visitValue(t, mlirBlockGetArgument(body, 1 + k));
  --t->nLoops;
  t->after = loop;
  visitValue(t, mlirOperationGetResult(loop, k));
  t->after = before;
}

/* Follows every use of `v`, a tensor holding the init's values where no
 * tile wrote yet: into loops, slices (to the tiles' reads), over the
 * tiles' writes. The only other use allowed is the nest's result, the
 * single use of a value at the nest's top level. */
static void visitValue(Trace *t, MlirValue v) {
  MlirOperation owners[kMaxUses];
  intptr_t operands[kMaxUses], n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    if (n == kMaxUses) {
      t->ok = false;
      return;
    }
    owners[n] = mlirOpOperandGetOwner(u);
    operands[n++] = mlirOpOperandGetOperandNumber(u);
  }
  for (intptr_t i = 0; i < n && t->ok; ++i) {
    MlirOperation op = owners[i];
    if (kilnOpNameIs(op, "scf.for")) {
      visitLoopInit(t, op, operands[i]);
    } else if (kilnOpNameIs(op, "scf.yield")) {
      continue; /* the loop's value passed on */
    } else if (operands[i] == 1 && kilnOpNameIs(op, "tensor.insert_slice")) {
      /* Written over, inside a tile's slice or at the tile's offsets; the
       * rest still holds the init's values. */
      if (!t->nSlices && !loopsStepOffsets(t, op))
        t->ok = false;
      else if (!t->nSlices)
        visitValue(t, mlirOperationGetResult(op, 0));
      else
        t->ok = onlyInsertedBack(mlirOperationGetResult(op, 0));
    } else if (operands[i] == 1 && t->nSlices &&
               kilnOpNameIs(op, "vector.transfer_write")) {
      /* A tile's write: it must cover its slice (nothing of the init's
       * values is left in the result). Vector dim d writes the slice's
       * dim perm(d): a transposed tile (channels innermost, pixels as
       * rows) writes its rows along the slice's last dim. */
      MlirType vec = mlirValueGetType(mlirOperationGetOperand(op, 0));
      MlirType dest = mlirValueGetType(v);
      MlirAttribute perm =
          mlirOperationGetAttributeByName(op, kilnStr("permutation_map"));
      bool whole = mlirShapedTypeGetRank(vec) == mlirShapedTypeGetRank(dest) &&
                   !mlirAttributeIsNull(perm);
      for (intptr_t d = 0; whole && d < mlirShapedTypeGetRank(vec); ++d) {
        MlirAffineExpr e =
            mlirAffineMapGetResult(mlirAffineMapAttrGetValue(perm), d);
        intptr_t to =
            mlirAffineExprIsADim(e) ? mlirAffineDimExprGetPosition(e) : -1;
        whole = to >= 0 && coversDim(op, to, mlirShapedTypeGetDimSize(vec, d),
                                     mlirShapedTypeGetDimSize(dest, to));
      }
      t->ok = whole;
    } else if (operands[i] == 0 && kilnOpNameIs(op, "tensor.extract_slice") &&
               t->nSlices < kMaxDepth) {
      t->slices[t->nSlices++] = op;
      visitValue(t, mlirOperationGetResult(op, 0));
      --t->nSlices;
    } else if (operands[i] == 0 && kilnOpNameIs(op, "vector.transfer_read")) {
      visitRead(t, op);
    } else if (n != 1 || t->nLoops || t->nSlices) {
      t->ok = false; /* not the nest's result */
    }
  }
}

static MlirWalkResult collectInits(MlirOperation op, void *userData) {
  if (!isElementwiseCopy(op) && mlirValueIsNull(fillValue(op)))
    return MlirWalkResultAdvance;
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirOpOperand use = mlirValueGetFirstUse(r);
  if (mlirOpOperandIsNull(use) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)) ||
      !kilnOpNameIs(mlirOpOperandGetOwner(use), "scf.for"))
    return MlirWalkResultAdvance;
  kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

int kilnInitAccumulatorsInRegisters(MlirOperation root) {
  KilnOpList inits = {0};
  mlirOperationWalk(root, collectInits, &inits, MlirWalkPreOrder);
  int erased = 0;
  for (size_t i = 0; i < inits.len; ++i) {
    MlirOperation op = inits.data[i];
    MlirValue r = mlirOperationGetResult(op, 0);
    MlirOpOperand use = mlirValueGetFirstUse(r);
    MlirOperation loop = mlirOpOperandGetOwner(use);
    intptr_t operand = mlirOpOperandGetOperandNumber(use);
    Trace t = {.init = op, .ok = true};
    visitLoopInit(&t, loop, operand);
    if (!t.ok)
      continue;
    t.build = true;
    visitLoopInit(&t, loop, operand);
    mlirOperationSetOperand(
        loop, operand,
        mlirOperationGetOperand(op, mlirOperationGetNumOperands(op) - 1));
    mlirOperationDestroy(op);
    ++erased;
  }
  kilnOpListDestroy(&inits);
  return erased;
}

/* kiln-concat-in-place: makes the producers of a concatenation write their
 * slices of its result directly (docs/cpu-codegen.md).
 *
 * graph-to-linalg lowers a concat as tensor.insert_slice ops chained into a
 * tensor.empty, and an ONNX Concat of n inputs is a left-leaning chain of
 * n - 1 binary concats (DenseNet: every dense layer's concat has the
 * previous one as its first operand). Bufferization then copies every
 * operand into the result, and every inner concat again into the outer
 * one: quadratic in the number of inputs. The chain's order is also the
 * lowering's, so eliminate-empty-tensors often finds the result's buffer
 * defined after the producers and gives up.
 *
 * For each chain of inserts (into a tensor.empty, or a padded tensor's
 * fill) this pass
 *  - splices the chains of inner concats into it (offsets added), so one
 *    chain writes one buffer; other users of an inner concat's result read
 *    an extract_slice of the outer chain instead;
 *  - moves the chain's root (the empty, or the fill) before the first
 *    producer and places each insert right after its operand's producer,
 *    so the chain's value before an insert is there when the producer
 *    starts;
 *  - makes each producer (a linalg op, a thread block's scf.forall, an
 *    scf.for, through the tensor.expand_shape that unflattens an im2col
 *    conv's pixels) write its slice: the tensor.empty at the end of its
 *    chain of inits becomes an extract_slice of the chain (collapsed like
 *    the producer's result), a shared linalg.fill init is cloned onto it.
 * Values do not change (inserts into disjoint slices commute, an empty's
 * contents are undefined); one-shot bufferization then finds each insert
 * writing a buffer onto itself, and copies where a producer's result has
 * to survive a later write. Runs after linalg-tile-and-fuse, before
 * eliminate-empty-tensors. */
#include "kiln/passes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/linalg/transforms/schedule.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { MAX_RANK = 8, MAX_PIECES = 1024, MAX_INIT_STEPS = 16 };

/* ---- op positions in a block --------------------------------------------- */

/* Open-addressing map from an op of one block to its index in the block,
 * so ordering questions cost O(1) (a DenseNet function has thousands of
 * ops and hundreds of chains). */
typedef struct {
  const void **keys;
  intptr_t *vals;
  size_t mask;
} PosMap;

static size_t posHash(const void *p, size_t mask) {
  return (size_t)(((uintptr_t)p >> 4) * UINT64_C(0x9E3779B97F4A7C15) >> 17) &
         mask;
}

static void posMapBuild(PosMap *m, MlirBlock block) {
  size_t n = 0;
  for (MlirOperation o = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    ++n;
  size_t cap = 16;
  while (cap < 2 * n + 2)
    cap *= 2;
  free(m->keys);
  free(m->vals);
  m->keys = calloc(cap, sizeof(*m->keys));
  m->vals = calloc(cap, sizeof(*m->vals));
  if (!m->keys || !m->vals)
    abort();
  m->mask = cap - 1;
  intptr_t i = 0;
  for (MlirOperation o = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o), ++i) {
    size_t h = posHash(o.ptr, m->mask);
    while (m->keys[h])
      h = (h + 1) & m->mask;
    m->keys[h] = o.ptr;
    m->vals[h] = i;
  }
}

/* The index of `op` in the mapped block, or -1 if it is not there. */
static intptr_t posOf(const PosMap *m, MlirOperation op) {
  for (size_t h = posHash(op.ptr, m->mask); m->keys[h]; h = (h + 1) & m->mask)
    if (m->keys[h] == op.ptr)
      return m->vals[h];
  return -1;
}

/* The op of `block` defining `v`, or null when `v` is available at the
 * block's start (a block argument, a value from an enclosing block). */
static MlirOperation defIn(MlirValue v, MlirBlock block) {
  if (!mlirValueIsAOpResult(v))
    return (MlirOperation){NULL};
  MlirOperation def = mlirOpResultGetOwner(v);
  return mlirBlockEqual(mlirOperationGetBlock(def), block)
             ? def
             : (MlirOperation){NULL};
}

static intptr_t valuePos(const PosMap *m, MlirValue v, MlirBlock block) {
  MlirOperation def = defIn(v, block);
  return mlirOperationIsNull(def) ? -1 : posOf(m, def);
}

/* ---- chains of inserts ----------------------------------------------------
 */

static intptr_t rankOf(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsARankedTensor(t) ? mlirShapedTypeGetRank(t) : -1;
}

static bool readStatic(MlirOperation op, const char *name, int64_t *out,
                       intptr_t r) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, kilnStr(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) != r)
    return false;
  for (intptr_t i = 0; i < r; ++i) {
    out[i] = mlirDenseI64ArrayGetElement(a, i);
    if (mlirShapedTypeIsDynamicStrideOrOffset(out[i]) ||
        mlirShapedTypeIsDynamicSize(out[i]))
      return false;
  }
  return true;
}

/* A tensor.insert_slice with static offsets, unit strides and a static
 * source of the destination's rank (what lowerConcat and padding build). */
static bool isChainInsert(MlirOperation op) {
  if (!kilnOpNameIs(op, "tensor.insert_slice") ||
      mlirOperationGetNumOperands(op) != 2)
    return false;
  MlirValue src = mlirOperationGetOperand(op, 0);
  intptr_t r = rankOf(src);
  if (r < 1 || r > MAX_RANK || r != rankOf(mlirOperationGetOperand(op, 1)) ||
      !mlirShapedTypeHasStaticShape(mlirValueGetType(src)))
    return false;
  int64_t v[MAX_RANK];
  if (!readStatic(op, "static_offsets", v, r) ||
      !readStatic(op, "static_strides", v, r))
    return false;
  for (intptr_t i = 0; i < r; ++i)
    if (v[i] != 1)
      return false;
  return true;
}

/* The chain insert of `block` defining `v`, or null. */
static MlirOperation chainInsertOf(MlirValue v, MlirBlock block) {
  MlirOperation def = defIn(v, block);
  return !mlirOperationIsNull(def) && isChainInsert(def)
             ? def
             : (MlirOperation){NULL};
}

static intptr_t countUses(MlirValue v) {
  intptr_t n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    ++n;
  return n;
}

/* One operand of the flattened chain: `source` written at `offsets` of the
 * outermost result. */
typedef struct {
  MlirValue source;
  MlirLocation loc;
  int64_t offsets[MAX_RANK];
  intptr_t pos;   /* the source's producer's index in the block, -1: before */
  intptr_t order; /* index in chain order, for a stable sort */
  MlirOperation newInsert;
} Piece;

/* An old inner chain's insert whose result other ops read: after the
 * rewrite they read their type at `offsets` of the new chain, once the
 * pieces [first, last] (chain order) are written. */
typedef struct {
  MlirOperation op;
  int64_t offsets[MAX_RANK];
  intptr_t first, last, end; /* its chain's pieces: [first, end) */
} Reader;

typedef struct {
  MlirBlock block;
  PosMap pos;
  Piece pieces[MAX_PIECES];
  intptr_t numPieces;
  KilnOpList old; /* the chains' inserts, all to be erased */
  Reader readers[MAX_PIECES];
  intptr_t numReaders;
} Flattening;

/* The inserts of the chain ending at `last`, first to last, into `ops`;
 * returns the root (the first insert's destination). `top`: the outermost
 * chain, whose intermediate values must have no other user. */
static MlirValue chainOps(MlirOperation last, MlirBlock block, bool top,
                          KilnOpList *ops) {
  kilnOpListClear(ops);
  MlirOperation op = last;
  for (;;) {
    kilnOpListPush(ops, op);
    MlirValue dest = mlirOperationGetOperand(op, 1);
    MlirOperation prev = chainInsertOf(dest, block);
    if (mlirOperationIsNull(prev) || (top && countUses(dest) != 1))
      break;
    op = prev;
  }
  for (size_t i = 0, j = ops->len - 1; i < j; ++i, --j) {
    MlirOperation t = ops->data[i];
    ops->data[i] = ops->data[j];
    ops->data[j] = t;
  }
  return mlirOperationGetOperand(ops->data[0], 1);
}

static bool isStaticEmpty(MlirValue v) {
  return mlirValueIsAOpResult(v) &&
         kilnOpNameIs(mlirOpResultGetOwner(v), "tensor.empty") &&
         mlirOperationGetNumOperands(mlirOpResultGetOwner(v)) == 0;
}

/* Whether `v`, the source of one insert of a chain, is itself a whole
 * concat that can be spliced in: the end of a chain into a tensor.empty,
 * read by no other insert as a source. */
static bool spliceable(MlirValue v, MlirBlock block, KilnOpList *scratch) {
  MlirOperation end = chainInsertOf(v, block);
  if (mlirOperationIsNull(end))
    return false;
  intptr_t asSource = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    asSource += kilnOpNameIs(mlirOpOperandGetOwner(u), "tensor.insert_slice") &&
                mlirOpOperandGetOperandNumber(u) == 0;
  return asSource == 1 &&
         isStaticEmpty(chainOps(end, block, /*top=*/false, scratch));
}

/* Appends the pieces of the chain ending at `last`, placed at `base` in
 * the outermost result. */
static bool collect(Flattening *f, MlirOperation last, const int64_t *base,
                    bool top, int depth) {
  KilnOpList ops = {0};
  /* Only concats into concats: a concat spliced into a padded tensor
   * would give its other readers a strided interior to read (a 1x1 conv
   * then copies it) and its producers' blocks strided rows to write. */
  bool spliceHere = isStaticEmpty(chainOps(last, f->block, top, &ops));
  bool ok = depth < 64;
  intptr_t first = f->numPieces, firstReader = f->numReaders;
  for (size_t k = 0; ok && k < ops.len; ++k) {
    MlirOperation op = ops.data[k];
    intptr_t r = rankOf(mlirOperationGetOperand(op, 1));
    int64_t off[MAX_RANK];
    readStatic(op, "static_offsets", off, r);
    for (intptr_t i = 0; i < r; ++i)
      off[i] += base[i];
    kilnOpListPush(&f->old, op);
    MlirValue src = mlirOperationGetOperand(op, 0);
    KilnOpList scratch = {0};
    bool splice = spliceHere && spliceable(src, f->block, &scratch);
    kilnOpListDestroy(&scratch);
    if (splice) {
      ok = collect(f, mlirOpResultGetOwner(src), off, false, depth + 1);
    } else if (f->numPieces < MAX_PIECES) {
      Piece *p = &f->pieces[f->numPieces];
      p->source = src;
      p->loc = mlirOperationGetLocation(op);
      memcpy(p->offsets, off, sizeof(off));
      p->pos = valuePos(&f->pos, src, f->block);
      p->order = f->numPieces++;
      p->newInsert = (MlirOperation){NULL};
    } else {
      ok = false;
    }
    /* Other users of an inner chain's value read it from the new chain. */
    if (ok && !top && f->numReaders < MAX_PIECES) {
      Reader *rd = &f->readers[f->numReaders++];
      rd->op = op;
      memcpy(rd->offsets, base, sizeof(rd->offsets));
      rd->first = first;
      rd->last = f->numPieces - 1;
      rd->end = -1;
    } else if (ok && !top) {
      ok = false;
    }
  }
  for (intptr_t i = firstReader; i < f->numReaders; ++i)
    if (f->readers[i].end < 0)
      f->readers[i].end = f->numPieces;
  kilnOpListDestroy(&ops);
  return ok;
}

static int comparePieces(const void *a, const void *b) {
  const Piece *x = a, *y = b;
  if (x->pos != y->pos)
    return x->pos < y->pos ? -1 : 1;
  return x->order < y->order ? -1 : x->order > y->order;
}

/* ---- moving the root ------------------------------------------------------
 */

typedef struct {
  MlirOperation self;
  MlirOperation target;
  const PosMap *pos;
  MlirBlock block;
  bool ok;
} CaptureCheck;

static MlirWalkResult checkCaptures(MlirOperation op, void *userData) {
  CaptureCheck *c = userData;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v))
      continue; /* a block argument of the op's regions or of an enclosing
                   block: available */
    MlirOperation def = mlirOpResultGetOwner(v);
    if (kilnOpIsInside(def, c->self) ||
        !mlirBlockEqual(mlirOperationGetBlock(def), c->block))
      continue;
    if (isStaticEmpty(v))
      continue; /* cloned along (rootBefore) */
    if (posOf(c->pos, def) >= posOf(c->pos, c->target)) {
      c->ok = false;
      return MlirWalkResultInterrupt;
    }
  }
  return MlirWalkResultAdvance;
}

/* A root available before `target` (both in the block) for this chain
 * alone: the root itself when it is defined before and read by the chain
 * only, else a clone of its op (a tensor.empty, a fill of one, a thread
 * block filling one; a fill CSE merged between pads would cost each pad a
 * copy) before `target`, with a fresh tensor.empty as its init. Null when
 * the root's op reads values defined after `target`. */
static MlirValue rootBefore(Flattening *f, MlirValue root,
                            MlirOperation target) {
  MlirOperation def = defIn(root, f->block);
  if (mlirOperationIsNull(def))
    return root;
  bool before = posOf(&f->pos, def) < posOf(&f->pos, target);
  if (before && countUses(root) == 1)
    return root;
  if (mlirOperationGetNumResults(def) != 1 ||
      !(kilnOpNameIs(def, "tensor.empty") || kilnOpNameIs(def, "linalg.fill") ||
        kilnOpNameIs(def, "scf.forall")))
    return before ? root : (MlirValue){NULL};
  CaptureCheck c = {def, target, &f->pos, f->block, true};
  mlirOperationWalk(def, checkCaptures, &c, MlirWalkPreOrder);
  if (!c.ok)
    return before ? root : (MlirValue){NULL};
  /* The original is erased once unused. */
  MlirOperation clone = mlirOperationClone(def);
  mlirBlockInsertOwnedOperationBefore(f->block, target, clone);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(clone); ++i) {
    MlirValue v = mlirOperationGetOperand(clone, i);
    if (!isStaticEmpty(v))
      continue;
    MlirOperation empty = mlirOperationClone(mlirOpResultGetOwner(v));
    mlirBlockInsertOwnedOperationBefore(f->block, clone, empty);
    mlirOperationSetOperand(clone, i, mlirOperationGetResult(empty, 0));
  }
  return mlirOperationGetResult(clone, 0);
}

/* ---- building the chain ---------------------------------------------------
 */

static MlirNamedAttribute namedArray(MlirContext ctx, const char *name,
                                     intptr_t n, const int64_t *v) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr(name)),
                               mlirDenseI64ArrayGet(ctx, n, v));
}

/* A slice op (`name`: tensor.insert_slice or tensor.extract_slice) with
 * static offsets, sizes of `sliceType`, unit strides; not inserted. */
static MlirOperation sliceOp(const char *name, MlirLocation loc,
                             intptr_t nOperands, const MlirValue *operands,
                             MlirType result, MlirType sliceType,
                             const int64_t *offsets) {
  MlirContext ctx = mlirLocationGetContext(loc);
  intptr_t r = mlirShapedTypeGetRank(sliceType);
  int64_t sizes[MAX_RANK], ones[MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    sizes[i] = mlirShapedTypeGetDimSize(sliceType, i);
    ones[i] = 1;
  }
  /* insert_slice: source, dest, offsets, sizes, strides; extract_slice:
   * source, offsets, sizes, strides (no dynamic ones here). */
  int32_t segs[5] = {1, 1, 0, 0, 0};
  MlirNamedAttribute attrs[4] = {
      namedArray(ctx, "static_offsets", r, offsets),
      namedArray(ctx, "static_sizes", r, sizes),
      namedArray(ctx, "static_strides", r, ones),
      kilnSegmentSizesAttr(ctx, nOperands + 3, segs + 2 - nOperands)};
  MlirOperationState state = mlirOperationStateGet(kilnStr(name), loc);
  mlirOperationStateAddOperands(&state, nOperands, operands);
  mlirOperationStateAddResults(&state, 1, &result);
  mlirOperationStateAddAttributes(&state, 4, attrs);
  return mlirOperationCreate(&state);
}

static void insertAfter(MlirBlock block, MlirOperation after,
                        MlirOperation op) {
  if (mlirOperationIsNull(after))
    mlirBlockInsertOwnedOperation(block, 0, op);
  else
    mlirBlockInsertOwnedOperationAfter(block, after, op);
}

/* ---- producers writing their slice ----------------------------------------
 */

/* The operand through which the result `v` of a destination-style op
 * (linalg, scf.forall, scf.for) gets its initial value; -1 if none. */
static intptr_t initOperand(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return -1;
  MlirOperation op = mlirOpResultGetOwner(v);
  intptr_t n = mlirOperationGetNumOperands(op),
           results = mlirOperationGetNumResults(op),
           i = mlirOpResultGetResultNumber(v);
  if (kilnOpNameIs(op, "scf.forall") || (kilnOpNameStartsWith(op, "linalg.") &&
                                         mlirOperationGetNumRegions(op) == 1))
    return n - results + i;
  if (kilnOpNameIs(op, "scf.for"))
    return 3 + i;
  return -1;
}

/* Whether the groups of `reshape` (a tensor.expand_shape or
 * collapse_shape) can collapse a slice of `sliceType` out of a contiguous
 * `destType`: in each group, every dim but the first is whole. */
static bool collapsible(MlirOperation reshape, MlirType sliceType,
                        MlirType destType, intptr_t *groupSizes,
                        intptr_t *numGroups) {
  MlirAttribute re =
      mlirOperationGetAttributeByName(reshape, kilnStr("reassociation"));
  if (mlirAttributeIsNull(re) || !mlirAttributeIsAArray(re))
    return false;
  *numGroups = mlirArrayAttrGetNumElements(re);
  intptr_t d = 0;
  for (intptr_t g = 0; g < *numGroups; ++g) {
    MlirAttribute group = mlirArrayAttrGetElement(re, g);
    if (!mlirAttributeIsAArray(group))
      return false;
    groupSizes[g] = mlirArrayAttrGetNumElements(group);
    for (intptr_t k = 1; k < groupSizes[g]; ++k)
      if (mlirShapedTypeGetDimSize(sliceType, d + k) !=
          mlirShapedTypeGetDimSize(destType, d + k))
        return false;
    d += groupSizes[g];
  }
  return d == mlirShapedTypeGetRank(sliceType);
}

/* Where the producer of `p`'s source gets its buffer: follows the source
 * (through an expand_shape, into `*expand`) down its chain of inits to a
 * tensor.empty or a fill of one (`*init`), read by operand `*operand` of
 * `*user`. False if the chain ends elsewhere. */
static bool findInit(const Piece *p, MlirOperation *expand, MlirOperation *user,
                     intptr_t *operand, MlirValue *init) {
  MlirValue v = p->source;
  *expand = (MlirOperation){NULL};
  if (mlirValueIsAOpResult(v) &&
      kilnOpNameIs(mlirOpResultGetOwner(v), "tensor.expand_shape")) {
    *expand = mlirOpResultGetOwner(v);
    v = mlirOperationGetOperand(*expand, 0);
  }
  *user = (MlirOperation){NULL};
  for (int step = 0; step < MAX_INIT_STEPS; ++step) {
    bool fill =
        mlirValueIsAOpResult(v) &&
        kilnOpNameIs(mlirOpResultGetOwner(v), "linalg.fill") &&
        isStaticEmpty(mlirOperationGetOperand(mlirOpResultGetOwner(v), 1));
    if (isStaticEmpty(v) || fill) {
      *init = v;
      return !mlirOperationIsNull(*user);
    }
    intptr_t i = initOperand(v);
    if (i < 0)
      return false;
    *user = mlirOpResultGetOwner(v);
    *operand = i;
    v = mlirOperationGetOperand(*user, i);
  }
  return false;
}

typedef struct {
  MlirType sliceType, destType;
  bool ok;
} BlockCollapse;

static MlirWalkResult checkBlockCollapse(MlirOperation op, void *userData) {
  BlockCollapse *c = userData;
  if (!kilnOpNameIs(op, "tensor.collapse_shape"))
    return MlirWalkResultAdvance;
  MlirValue src = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(src) ||
      !kilnOpNameIs(mlirOpResultGetOwner(src), "tensor.extract_slice") ||
      !mlirValueIsABlockArgument(
          mlirOperationGetOperand(mlirOpResultGetOwner(src), 0)))
    return MlirWalkResultAdvance;
  intptr_t groups[MAX_RANK], n;
  if (rankOf(src) != mlirShapedTypeGetRank(c->sliceType) ||
      !collapsible(op, c->sliceType, c->destType, groups, &n)) {
    c->ok = false;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* Whether the thread blocks of `user` (an scf.forall whose blocks flatten
 * their slice of the output, kiln-tile-outputs-in-place's im2col case) can
 * still flatten it inside `destType`; otherwise each block would copy its
 * rows in and out. */
static bool blocksCollapse(MlirOperation user, MlirType sliceType,
                           MlirType destType) {
  if (!kilnOpNameIs(user, "scf.forall"))
    return true;
  BlockCollapse c = {sliceType, destType, true};
  mlirOperationWalk(user, checkBlockCollapse, &c, MlirWalkPreOrder);
  return c.ok;
}

/* Makes the producer of `p`'s source write its slice of `dest` (the
 * chain's value before `p`, there from block index `destPos` on). */
static void writeInPlace(Flattening *f, const Piece *p, MlirValue dest,
                         intptr_t destPos) {
  MlirOperation expand, user;
  intptr_t operand;
  MlirValue init;
  if (!findInit(p, &expand, &user, &operand, &init))
    return;
  intptr_t userPos = posOf(&f->pos, user);
  if (userPos < 0 || destPos >= userPos)
    return; /* the chain's value is not there yet */
  MlirType sliceType = mlirValueGetType(p->source);
  if (!blocksCollapse(user, sliceType, mlirValueGetType(dest)))
    return;
  MlirType initType = mlirValueGetType(init);
  intptr_t groups[MAX_RANK], numGroups = 0;
  if (!mlirOperationIsNull(expand) &&
      !collapsible(expand, sliceType, mlirValueGetType(dest), groups,
                   &numGroups))
    return;
  if (mlirOperationIsNull(expand) && !mlirTypeEqual(sliceType, initType))
    return;
  MlirLocation loc = mlirOperationGetLocation(user);
  MlirOperation ex = sliceOp("tensor.extract_slice", loc, 1, &dest, sliceType,
                             sliceType, p->offsets);
  mlirBlockInsertOwnedOperationBefore(f->block, user, ex);
  MlirValue slice = mlirOperationGetResult(ex, 0);
  if (!mlirOperationIsNull(expand)) {
    MlirContext ctx = mlirLocationGetContext(loc);
    MlirNamedAttribute re =
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("reassociation")),
                              kilnReassociationGet(ctx, numGroups, groups));
    slice = kilnInsertOpBefore(user, "tensor.collapse_shape", 1, &slice,
                               initType, 1, &re);
  }
  if (isStaticEmpty(init)) {
    mlirOperationSetOperand(user, operand, slice);
    return;
  }
  /* A fill (perhaps shared by several convs): a clone fills the slice. */
  MlirOperation fill = mlirOperationClone(mlirOpResultGetOwner(init));
  mlirBlockInsertOwnedOperationBefore(f->block, user, fill);
  mlirOperationSetOperand(fill, 1, slice);
  mlirOperationSetOperand(user, operand, mlirOperationGetResult(fill, 0));
}

/* ---- one chain ------------------------------------------------------------
 */

static bool isErasable(MlirOperation def) {
  return mlirOperationGetNumResults(def) == 1 &&
         (kilnOpNameIs(def, "tensor.empty") ||
          kilnOpNameIs(def, "linalg.fill") || kilnOpNameIs(def, "scf.forall"));
}

/* Erases the op defining `v` (an empty, a fill, a filling thread block)
 * when nothing reads it any more, then its init likewise. */
static void eraseIfUnused(MlirValue v) {
  while (mlirValueIsAOpResult(v) && countUses(v) == 0 &&
         isErasable(mlirOpResultGetOwner(v))) {
    MlirOperation def = mlirOpResultGetOwner(v);
    intptr_t n = mlirOperationGetNumOperands(def);
    v = n ? mlirOperationGetOperand(def, n - 1) : (MlirValue){NULL};
    mlirOperationDestroy(def);
    if (mlirValueIsNull(v))
      return;
  }
}

/* The op before which the root must be: the first producer of a piece
 * (its source's op, or the op writing the source's init). Null when every
 * source is there at the block's start. */
static MlirOperation firstProducer(Flattening *f) {
  MlirOperation best = {NULL};
  intptr_t bestPos = INTPTR_MAX;
  for (intptr_t k = 0; k < f->numPieces; ++k) {
    const Piece *p = &f->pieces[k];
    MlirOperation cand[2] = {defIn(p->source, f->block), {NULL}};
    MlirOperation expand;
    intptr_t operand;
    MlirValue init;
    if (findInit(p, &expand, &cand[1], &operand, &init) &&
        !mlirBlockEqual(mlirOperationGetBlock(cand[1]), f->block))
      cand[1] = (MlirOperation){NULL};
    for (int c = 0; c < 2; ++c) {
      intptr_t at = mlirOperationIsNull(cand[c]) ? -1 : posOf(&f->pos, cand[c]);
      if (at >= 0 && at < bestPos) {
        best = cand[c];
        bestPos = at;
      }
    }
  }
  return best;
}

/* Destroys the old chains' inserts, readers first. */
static void eraseOld(Flattening *f) {
  MlirValue roots[MAX_PIECES];
  intptr_t numRoots = 0;
  for (size_t i = 0; i < f->old.len; ++i) {
    MlirValue dest = mlirOperationGetOperand(f->old.data[i], 1);
    if (numRoots < MAX_PIECES && mlirValueIsAOpResult(dest) &&
        !kilnOpListContains(&f->old, mlirOpResultGetOwner(dest)))
      roots[numRoots++] = dest;
  }
  for (bool progress = true; progress;) {
    progress = false;
    for (size_t i = 0; i < f->old.len; ++i) {
      MlirOperation op = f->old.data[i];
      if (mlirOperationIsNull(op) ||
          countUses(mlirOperationGetResult(op, 0)) != 0)
        continue;
      mlirOperationDestroy(op);
      f->old.data[i] = (MlirOperation){NULL};
      progress = true;
    }
  }
  for (intptr_t i = 0; i < numRoots; ++i)
    eraseIfUnused(roots[i]);
}

/* Gives the readers of the old inner chains' values the new chain's slice
 * (the final value: the new chain itself). */
static void rewireReaders(Flattening *f, MlirOperation last, MlirValue value,
                          const intptr_t *sortedOf) {
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(last, 0), value);
  for (intptr_t i = 0; i < f->numReaders; ++i) {
    const Reader *rd = &f->readers[i];
    MlirValue oldValue = mlirOperationGetResult(rd->op, 0);
    intptr_t uses = 0;
    for (MlirOpOperand u = mlirValueGetFirstUse(oldValue);
         !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
      uses += !kilnOpListContains(&f->old, mlirOpOperandGetOwner(u));
    if (uses == 0 || rd->last < rd->first)
      continue;
    intptr_t at = sortedOf[rd->first];
    for (intptr_t j = rd->first; j <= rd->last; ++j)
      at = sortedOf[j] > at ? sortedOf[j] : at;
    MlirOperation after = f->pieces[at].newInsert;
    MlirValue whole = mlirOperationGetResult(after, 0);
    MlirType t = mlirValueGetType(oldValue);
    MlirOperation ex =
        sliceOp("tensor.extract_slice", mlirOperationGetLocation(rd->op), 1,
                &whole, t, t, rd->offsets);
    mlirBlockInsertOwnedOperationAfter(f->block, after, ex);
    mlirValueReplaceAllUsesExcept(oldValue, mlirOperationGetResult(ex, 0),
                                  (intptr_t)f->old.len, f->old.data);
  }
}

/* Whether the inner chains' readers can read the new chain: each inner
 * value that other ops read must have its pieces first in the new order
 * (true when the inner chain is in producer order, as this pass leaves
 * it). */
static bool readersInOrder(const Flattening *f, const intptr_t *sortedOf) {
  for (intptr_t i = 0; i < f->numReaders; ++i) {
    const Reader *rd = &f->readers[i];
    MlirValue v = mlirOperationGetResult(rd->op, 0);
    bool read = false;
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u))
      read |= !kilnOpListContains(&f->old, mlirOpOperandGetOwner(u));
    if (!read)
      continue;
    /* The rest of its chain's pieces must come after its own. */
    intptr_t maxIn = -1;
    for (intptr_t j = rd->first; j <= rd->last; ++j)
      maxIn = sortedOf[j] > maxIn ? sortedOf[j] : maxIn;
    for (intptr_t j = rd->last + 1; j < rd->end; ++j)
      if (sortedOf[j] < maxIn)
        return false;
  }
  return true;
}

/* Rewrites the chain ending at `last` (see the file comment). */
static void flattenChain(Flattening *f, MlirOperation last) {
  posMapBuild(&f->pos, f->block);
  f->numPieces = f->numReaders = 0;
  kilnOpListClear(&f->old);
  int64_t zero[MAX_RANK] = {0};
  if (!collect(f, last, zero, true, 0) || f->numPieces == 0)
    return;
  KilnOpList ops = {0};
  MlirValue root = chainOps(last, f->block, true, &ops);
  kilnOpListDestroy(&ops);
  qsort(f->pieces, (size_t)f->numPieces, sizeof(Piece), comparePieces);
  intptr_t sortedOf[MAX_PIECES];
  for (intptr_t k = 0; k < f->numPieces; ++k)
    sortedOf[f->pieces[k].order] = k;
  if (!readersInOrder(f, sortedOf))
    return;
  MlirOperation first = firstProducer(f);
  if (mlirOperationIsNull(first) && !mlirOperationIsNull(defIn(root, f->block)))
    first = mlirOperationGetNextInBlock(defIn(root, f->block));
  MlirValue newRoot = rootBefore(f, root, first);
  if (mlirValueIsNull(newRoot))
    return;
  /* Each insert right after its source's op (or the previous insert):
   * `cursorPos` is the block index of the old op the chain has reached. */
  MlirOperation rootDef = defIn(newRoot, f->block);
  MlirOperation cursor = rootDef;
  intptr_t cursorPos = -1;
  if (!mlirOperationIsNull(rootDef))
    cursorPos = mlirValueEqual(newRoot, root) ? posOf(&f->pos, rootDef)
                                              : posOf(&f->pos, first) - 1;
  MlirType type = mlirValueGetType(root);
  MlirValue value = newRoot;
  for (intptr_t k = 0; k < f->numPieces; ++k) {
    Piece *p = &f->pieces[k];
    if (p->pos > cursorPos) {
      cursor = defIn(p->source, f->block);
      cursorPos = p->pos;
    }
    MlirValue operands[2] = {p->source, value};
    p->newInsert = sliceOp("tensor.insert_slice", p->loc, 2, operands, type,
                           mlirValueGetType(p->source), p->offsets);
    insertAfter(f->block, cursor, p->newInsert);
    cursor = p->newInsert;
    value = mlirOperationGetResult(p->newInsert, 0);
  }
  rewireReaders(f, last, value, sortedOf);
  eraseOld(f);
}

/* Makes the producers of the (flat) chain ending at `last` write their
 * slices (writeInPlace), once all chains are flat: a producer rewired to a
 * chain that a later one splices would write a buffer of its own. */
static void producersInPlace(Flattening *f, MlirOperation last) {
  posMapBuild(&f->pos, f->block);
  KilnOpList ops = {0};
  chainOps(last, f->block, true, &ops);
  for (size_t k = 0; k < ops.len; ++k) {
    MlirOperation op = ops.data[k];
    MlirValue dest = mlirOperationGetOperand(op, 1);
    Piece p = {.source = mlirOperationGetOperand(op, 0)};
    readStatic(op, "static_offsets", p.offsets, rankOf(dest));
    writeInPlace(f, &p, dest, valuePos(&f->pos, dest, f->block));
  }
  kilnOpListDestroy(&ops);
}

/* ---- the pass --------------------------------------------------------------
 */

/* Whether `op` (a chain insert) ends its chain: its result is not the
 * destination of the next insert of one chain. */
static bool isChainEnd(MlirOperation op) {
  MlirValue v = mlirOperationGetResult(op, 0);
  MlirOpOperand u = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(u) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
    return true;
  MlirOperation user = mlirOpOperandGetOwner(u);
  return !(
      mlirOpOperandGetOperandNumber(u) == 1 && isChainInsert(user) &&
      mlirBlockEqual(mlirOperationGetBlock(user), mlirOperationGetBlock(op)));
}

static MlirWalkResult collectBlocks(MlirOperation op, void *userData) {
  KilnOpList *owners = userData;
  /* Not the thread blocks and linalg bodies, nor anything inside them: no
   * chains there, and a filling thread block may be erased
   * (eraseIfUnused) with the loops inside it. */
  if (kilnOpNameIs(op, "scf.forall") || kilnOpNameStartsWith(op, "linalg."))
    return MlirWalkResultSkip;
  if (mlirOperationGetNumRegions(op) > 0)
    kilnOpListPush(owners, op);
  return MlirWalkResultAdvance;
}

static void runConcatInPlace(MlirOperation func, MlirExternalPass pass,
                             const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  Flattening *f = calloc(1, sizeof(*f));
  if (!f)
    abort();
  KilnOpList owners = {0};
  mlirOperationWalk(func, collectBlocks, &owners, MlirWalkPreOrder);
  for (size_t i = 0; i < owners.len; ++i)
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(owners.data[i]); ++r)
      for (MlirBlock block = mlirRegionGetFirstBlock(
               mlirOperationGetRegion(owners.data[i], r));
           !mlirBlockIsNull(block); block = mlirBlockGetNextInRegion(block)) {
        f->block = block;
        for (MlirOperation op = mlirBlockGetFirstOperation(block), next;
             !mlirOperationIsNull(op); op = next) {
          next = mlirOperationGetNextInBlock(op);
          if (isChainInsert(op) && isChainEnd(op))
            flattenChain(f, op);
        }
        for (MlirOperation op = mlirBlockGetFirstOperation(block);
             !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
          if (isChainInsert(op) && isChainEnd(op))
            producersInPlace(f, op);
      }
  kilnOpListDestroy(&owners);
  kilnOpListDestroy(&f->old);
  free(f->pos.keys);
  free(f->pos.vals);
  free(f);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__tensor__,
};

const KilnPassInfo kilnConcatInPlacePass = {
    .argument = "kiln-concat-in-place",
    .summary = "Make the producers of a concatenation (or a padded tensor) "
               "write their slices of it: one flat chain of inserts per "
               "result, in producer order",
    .anchor = "func.func",
    .run = runConcatInPlace,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

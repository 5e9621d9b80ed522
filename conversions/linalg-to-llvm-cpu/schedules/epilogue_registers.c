/* Epilogues in registers (epilogue_registers.h).
 *
 * After bufferization a fused conv's thread block is
 *
 *   %v0 = memref.collapse_shape %o [[0], [1], [2, 3]]   (or %o itself)
 *   scf.for %m ... { scf.for %p ... {
 *       %t = memref.subview %v0[0, %m, %p] [1, 8, 16] ...   (a chain)
 *       %acc = scf.for %k ... (the register tile's FMAs)
 *       vector.transfer_write %acc, %t[...]
 *   } ... peeled remainders ... }
 *   linalg.generic ins(%o, %residual) outs(%o) { clip / relu / add ... }
 *
 * and the generic is a second pass over the block: every output stored,
 * loaded back, transformed, stored again (9% of a 1x1 conv 16 -> 96 at
 * 112x112 with Clip). When the loops write every element of %o once and
 * read none, the generic's value at each element is its body applied to
 * the value written there: the body is cloned on vectors before each
 * write (its other inputs read through the same subview chain, cloned on
 * them: they have %o's type, so the chain's types hold), the write stores
 * its result, and the generic is erased. Coverage is checked by volume
 * (the writes' vectors times their loops' trip counts equal %o's size):
 * register tiles do not overlap, and a loop nest that revisits a tile
 * (a cache loop around the register tiles) reads %o, which is refused. */
#include "conversions/linalg-to-llvm-cpu/schedules/epilogue_registers.h"
#include "kiln/diagnostics.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dialects/linalg/transforms/schedule.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kMaxInputs = 8, kMaxWrites = 64, kMaxChain = 8, kMaxLoops = 8 };
enum { kMaxBodyOps = 64, kMaxRank = 12 };

static bool isViewOp(MlirOperation op) {
  return kilnOpNameIs(op, "memref.subview") ||
         kilnOpNameIs(op, "memref.collapse_shape") ||
         kilnOpNameIs(op, "memref.expand_shape") ||
         kilnOpNameIs(op, "memref.cast") ||
         kilnOpNameIs(op, "memref.reinterpret_cast");
}

/* The buffer `v` is a view of: its chain of view ops followed up. */
static MlirValue rootOf(MlirValue v) {
  while (mlirValueIsAOpResult(v) && isViewOp(mlirOpResultGetOwner(v)))
    v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
  return v;
}

/* A generic G and what the rewrite needs of it. */
typedef struct Epilogue {
  MlirOperation generic;
  MlirValue out;                /* O: the output, also read in place */
  MlirValue outRoot;            /* the buffer O is a view of */
  MlirValue inputs[kMaxInputs]; /* G's inputs other than O */
  MlirValue roots[kMaxInputs];  /* their buffers */
  intptr_t nInputs;             /* G's inputs, O included */
  MlirOperation collapse;       /* O's collapse_shape the writes use, or null */
  MlirOperation writes[kMaxWrites];
  intptr_t nWrites;
  bool ok;
} Epilogue;

/* Whether `g` is an elementwise generic on static buffers of one type with
 * identity maps and an arith/math body, writing one output. */
static bool isInPlaceEpilogue(MlirOperation g, Epilogue *e) {
  if (!kilnOpNameIs(g, "linalg.generic") || mlirOperationGetNumResults(g))
    return false;
  MlirAttribute segs =
      mlirOperationGetAttributeByName(g, kilnStr("operandSegmentSizes"));
  MlirAttribute maps =
      mlirOperationGetAttributeByName(g, kilnStr("indexing_maps"));
  if (mlirAttributeIsNull(segs) || mlirAttributeIsNull(maps) ||
      mlirDenseI32ArrayGetElement(segs, 1) != 1)
    return false;
  intptr_t n = mlirOperationGetNumOperands(g);
  if (n - 1 > kMaxInputs || mlirArrayAttrGetNumElements(maps) != n)
    return false;
  MlirValue out = mlirOperationGetOperand(g, n - 1);
  MlirType t = mlirValueGetType(out);
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) ||
      mlirShapedTypeGetRank(t) > kMaxRank)
    return false;
  MlirType elt = mlirShapedTypeGetElementType(t);
  if (!mlirTypeIsAF32(elt) && !mlirTypeIsAF64(elt))
    return false;
  char kinds[kMaxRank];
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (!kilnLinalgIteratorKinds(g, kinds, rank))
    return false;
  for (intptr_t i = 0; i < rank; ++i)
    if (kinds[i] != 'p')
      return false;
  memset(e, 0, sizeof(*e));
  e->generic = g;
  e->out = out;
  e->outRoot = rootOf(out);
  e->nInputs = n - 1;
  for (intptr_t i = 0; i < n; ++i) {
    MlirAffineMap map =
        mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i));
    MlirValue v = mlirOperationGetOperand(g, i);
    /* Other inputs must have O's type: the writes' subview chains are
     * cloned on them. */
    if (!mlirAffineMapIsIdentity(map) || !mlirTypeEqual(mlirValueGetType(v), t))
      return false;
    if (i < n - 1) {
      e->inputs[i] = v;
      e->roots[i] = rootOf(v);
      if (!mlirValueEqual(v, out) && mlirValueEqual(e->roots[i], e->outRoot))
        return false; /* another view of O's buffer */
    }
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  intptr_t nOps = 0;
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    if (++nOps > kMaxBodyOps || mlirOperationGetNumRegions(o))
      return false;
    if (kilnOpNameIs(o, "linalg.yield")) {
      /* Yields a value of the body (not a constant from outside). */
      MlirValue y = mlirOperationGetOperand(o, 0);
      if (mlirOperationGetNumOperands(o) != 1 ||
          (mlirValueIsAOpResult(y) &&
           !mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(y)),
                           body)))
        return false;
      continue;
    }
    if ((!kilnOpNameStartsWith(o, "arith.") &&
         !kilnOpNameStartsWith(o, "math.")) ||
        mlirOperationGetNumResults(o) != 1)
      return false;
    MlirType rt = mlirValueGetType(mlirOperationGetResult(o, 0));
    if (!mlirTypeIsAFloat(rt) && !mlirTypeIsAInteger(rt))
      return false;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); ++i) {
      MlirValue v = mlirOperationGetOperand(o, i);
      if (mlirValueIsABlockArgument(v)) {
        if (!mlirBlockEqual(mlirBlockArgumentGetOwner(v), body))
          return false;
        continue;
      }
      MlirOperation def = mlirOpResultGetOwner(v);
      /* Values from outside the body: scalar constants only. */
      if (!mlirBlockEqual(mlirOperationGetBlock(def), body) &&
          (!kilnOpNameIs(def, "arith.constant") ||
           mlirTypeIsAShaped(mlirValueGetType(v))))
        return false;
    }
  }
  return true;
}

/* The subview chain from the buffer the writes start at (O or its
 * collapse) to `dest`, outermost first; false if `dest` is not one. */
static bool writeChain(const Epilogue *e, MlirValue dest, MlirOperation *chain,
                       intptr_t *n) {
  intptr_t len = 0;
  MlirOperation rev[kMaxChain];
  MlirValue flat = mlirOperationIsNull(e->collapse)
                       ? e->out
                       : mlirOperationGetResult(e->collapse, 0);
  while (!mlirValueEqual(dest, e->out) && !mlirValueEqual(dest, flat) &&
         mlirValueIsAOpResult(dest) &&
         kilnOpNameIs(mlirOpResultGetOwner(dest), "memref.subview")) {
    if (len == kMaxChain)
      return false;
    rev[len++] = mlirOpResultGetOwner(dest);
    dest = mlirOperationGetOperand(rev[len - 1], 0);
  }
  if (!len || (!mlirValueEqual(dest, e->out) && !mlirValueEqual(dest, flat)))
    return false;
  for (intptr_t i = 0; i < len; ++i)
    chain[i] = rev[len - 1 - i];
  *n = len;
  return true;
}

/* How many times `op` runs per run of the block holding `top`: the trip
 * counts of the scf.for loops between them (constant bounds), or -1. */
static int64_t tripsUpTo(MlirOperation op, MlirOperation top) {
  MlirBlock block = mlirOperationGetBlock(top);
  int64_t trips = 1;
  if (mlirBlockEqual(mlirOperationGetBlock(op), block))
    return 1;
  for (MlirOperation p = mlirOperationGetParentOperation(op);;) {
    if (mlirOperationIsNull(p) || !kilnOpNameIs(p, "scf.for"))
      return -1;
    int64_t lb, ub, step;
    if (!kilnConstantIndexValue(mlirOperationGetOperand(p, 0), &lb) ||
        !kilnConstantIndexValue(mlirOperationGetOperand(p, 1), &ub) ||
        !kilnConstantIndexValue(mlirOperationGetOperand(p, 2), &step) ||
        step <= 0)
      return -1;
    trips *= ub > lb ? (ub - lb + step - 1) / step : 0;
    if (mlirBlockEqual(mlirOperationGetBlock(p), block))
      return trips;
    p = mlirOperationGetParentOperation(p);
  }
}

static int64_t volume(MlirType shaped) {
  int64_t v = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(shaped); ++i)
    v *= mlirShapedTypeGetDimSize(shaped, i);
  return v;
}

/* The elements write `w` stores: its vector's, or where a dim may run out
 * of bounds (a masked remainder row, masked_remainders.c), at index 0 of a
 * static buffer, the part of the vector inside it; -1 if unknown. */
static int64_t writtenVolume(MlirOperation w) {
  MlirType vt = mlirValueGetType(mlirOperationGetOperand(w, 0));
  MlirType mt = mlirValueGetType(mlirOperationGetOperand(w, 1));
  MlirAttribute inBounds =
      mlirOperationGetAttributeByName(w, kilnStr("in_bounds"));
  MlirAttribute perm =
      mlirOperationGetAttributeByName(w, kilnStr("permutation_map"));
  if (!mlirTypeIsAVector(vt) || !mlirShapedTypeHasStaticShape(mt) ||
      mlirAttributeIsNull(inBounds) || mlirAttributeIsNull(perm) ||
      !mlirAffineMapIsMinorIdentity(mlirAffineMapAttrGetValue(perm)))
    return -1;
  intptr_t vr = mlirShapedTypeGetRank(vt), mr = mlirShapedTypeGetRank(mt);
  int64_t v = 1;
  for (intptr_t i = 0; i < vr; ++i) {
    int64_t n = mlirShapedTypeGetDimSize(vt, i);
    if (!mlirBoolAttrGetValue(mlirArrayAttrGetElement(inBounds, i))) {
      int64_t idx;
      int64_t room = mlirShapedTypeGetDimSize(mt, mr - vr + i);
      if (!kilnConstantIndexValue(mlirOperationGetOperand(w, 2 + mr - vr + i),
                                  &idx) ||
          idx != 0)
        return -1;
      n = n < room ? n : room;
    }
    v *= n;
  }
  return v;
}

/* Inside the loops before G: every op touching O's buffer is a write that
 * can carry the epilogue (collected), and none writes G's other inputs. */
static MlirWalkResult checkLoopOp(MlirOperation op, void *data) {
  Epilogue *e = data;
  if (isViewOp(op))
    return MlirWalkResultAdvance;
  bool isWrite = kilnOpNameIs(op, "vector.transfer_write");
  bool isRead = kilnOpNameIs(op, "vector.transfer_read");
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirTypeIsAMemRef(mlirValueGetType(v)))
      continue;
    MlirValue root = rootOf(v);
    if (mlirValueEqual(root, e->outRoot)) {
      MlirOperation chain[kMaxChain];
      intptr_t n;
      MlirAttribute segs =
          mlirOperationGetAttributeByName(op, kilnStr("operandSegmentSizes"));
      if (!isWrite || i != 1 || e->nWrites == kMaxWrites ||
          !writeChain(e, v, chain, &n) || mlirAttributeIsNull(segs) ||
          mlirDenseI32ArrayGetElement(segs, 3) != 0 ||
          mlirAttributeIsNull(mlirOperationGetAttributeByName(
              op, kilnStr("permutation_map"))) ||
          mlirAttributeIsNull(
              mlirOperationGetAttributeByName(op, kilnStr("in_bounds")))) {
        e->ok = false;
        return MlirWalkResultInterrupt;
      }
      e->writes[e->nWrites++] = op;
      continue;
    }
    for (intptr_t k = 0; k < e->nInputs; ++k)
      if (!isRead && mlirValueEqual(root, e->roots[k])) {
        e->ok = false;
        return MlirWalkResultInterrupt;
      }
  }
  return MlirWalkResultAdvance;
}

/* Whether `v` is defined before `first` when in `first`'s block. */
static bool definedBefore(MlirValue v, MlirOperation first) {
  MlirBlock block = mlirOperationGetBlock(first);
  if (mlirValueIsABlockArgument(v))
    return true;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!mlirBlockEqual(mlirOperationGetBlock(def), block))
    return true; /* in an enclosing block, before the loops' parent */
  for (MlirOperation o = first; !mlirOperationIsNull(o);
       o = mlirOperationGetNextInBlock(o))
    if (mlirOperationEqual(o, def))
      return false;
  return true;
}

/* Finds the loops before G and their writes of O; false when the rewrite
 * does not apply. */
static bool collectWrites(Epilogue *e) {
  MlirOperation g = e->generic;
  /* The ops before G back to the block's start or an op with regions
   * other than a loop (the register tiles: loops, and a corner tile
   * peeled of them, straight-line). */
  MlirOperation first = {NULL};
  for (MlirOperation o = kilnPrevInBlock(g); !mlirOperationIsNull(o);
       o = kilnPrevInBlock(o)) {
    if (mlirOperationGetNumRegions(o) && !kilnOpNameIs(o, "scf.for"))
      break;
    first = o;
  }
  if (mlirOperationIsNull(first))
    return false;
  /* The writes may go through O's pixels collapsed: a collapse_shape of O
   * defined before the loops. */
  for (MlirOperation o = mlirBlockGetFirstOperation(mlirOperationGetBlock(g));
       !mlirOperationEqual(o, g); o = mlirOperationGetNextInBlock(o))
    if (kilnOpNameIs(o, "memref.collapse_shape") &&
        mlirValueEqual(mlirOperationGetOperand(o, 0), e->out)) {
      e->collapse = o;
      break;
    }
  e->ok = true;
  for (MlirOperation o = first; !mlirOperationEqual(o, g) && e->ok;
       o = mlirOperationGetNextInBlock(o))
    mlirOperationWalk(o, checkLoopOp, e, MlirWalkPreOrder);
  if (!e->ok || !e->nWrites)
    return false;
  int64_t written = 0;
  for (intptr_t w = 0; w < e->nWrites; ++w) {
    int64_t trips = tripsUpTo(e->writes[w], g);
    int64_t v = writtenVolume(e->writes[w]);
    if (trips < 0 || v < 0)
      return false;
    written += trips * v;
  }
  if (written != volume(mlirValueGetType(e->out)))
    return false;
  /* The op of G's block holding the first write. */
  MlirOperation top[kMaxWrites];
  for (intptr_t w = 0; w < e->nWrites; ++w) {
    top[w] = e->writes[w];
    while (!mlirBlockEqual(mlirOperationGetBlock(top[w]),
                           mlirOperationGetBlock(g)))
      top[w] = mlirOperationGetParentOperation(top[w]);
  }
  MlirOperation firstWrite = {NULL};
  for (MlirOperation o = first; mlirOperationIsNull(firstWrite);
       o = mlirOperationGetNextInBlock(o))
    for (intptr_t w = 0; w < e->nWrites; ++w)
      if (mlirOperationEqual(o, top[w]))
        firstWrite = o;
  first = firstWrite;
  /* An input's view made after the first write (a pure op on values
   * from before the loops) is moved before them, where the writes can use
   * it. */
  for (intptr_t k = 0; k < e->nInputs; ++k) {
    MlirValue v = e->inputs[k];
    if (definedBefore(v, first))
      continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!isViewOp(def))
      return false;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); ++i)
      if (!definedBefore(mlirOperationGetOperand(def, i), first))
        return false;
    mlirOperationMoveBefore(def, first);
  }
  return true;
}

/* `in`'s tile at write `w`: `in` viewed through `w`'s chain (and O's
 * collapse), read as `w`'s vector. */
static MlirValue readTile(const Epilogue *e, MlirOperation w, MlirValue in) {
  MlirOperation chain[kMaxChain];
  intptr_t n = 0;
  writeChain(e, mlirOperationGetOperand(w, 1), chain, &n);
  MlirValue base = in;
  if (!mlirValueEqual(mlirOperationGetOperand(chain[0], 0), e->out)) {
    MlirOperation c = mlirOperationClone(e->collapse);
    mlirOperationSetOperand(c, 0, base);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(w), w, c);
    base = mlirOperationGetResult(c, 0);
  }
  for (intptr_t i = 0; i < n; ++i) {
    MlirOperation s = mlirOperationClone(chain[i]);
    mlirOperationSetOperand(s, 0, base);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(w), w, s);
    base = mlirOperationGetResult(s, 0);
  }
  MlirContext ctx = mlirOperationGetContext(w);
  MlirType vt = mlirValueGetType(mlirOperationGetOperand(w, 0));
  MlirType elt = mlirShapedTypeGetElementType(vt);
  MlirNamedAttribute zero =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("value")),
                            mlirFloatAttrDoubleGet(ctx, elt, 0));
  MlirValue pad = mlirOperationGetResult(
      kilnInsertOp(w, "arith.constant", 0, NULL, 1, &elt, 1, &zero), 0);
  intptr_t nIdx = mlirOperationGetNumOperands(w) - 2;
  MlirValue operands[2 + kMaxRank];
  operands[0] = base;
  for (intptr_t i = 0; i < nIdx; ++i)
    operands[1 + i] = mlirOperationGetOperand(w, 2 + i);
  operands[1 + nIdx] = pad;
  int32_t sizes[4] = {1, (int32_t)nIdx, 1, 0};
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("permutation_map")),
          mlirOperationGetAttributeByName(w, kilnStr("permutation_map"))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("in_bounds")),
          mlirOperationGetAttributeByName(w, kilnStr("in_bounds"))),
      kilnSegmentSizesAttr(ctx, 4, sizes)};
  return mlirOperationGetResult(kilnInsertOp(w, "vector.transfer_read",
                                             nIdx + 2, operands, 1, &vt, 3,
                                             attrs),
                                0);
}

/* G's body on vectors before write `w`: block argument i is `args[i]`. */
static MlirValue cloneBody(const Epilogue *e, MlirOperation w,
                           const MlirValue *args) {
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(e->generic, 0));
  MlirType vt = mlirValueGetType(mlirOperationGetOperand(w, 0));
  intptr_t rank = mlirShapedTypeGetRank(vt);
  int64_t shape[kMaxRank];
  for (intptr_t i = 0; i < rank; ++i)
    shape[i] = mlirShapedTypeGetDimSize(vt, i);
  MlirValue from[kMaxBodyOps + kMaxInputs + 1],
      to[kMaxBodyOps + kMaxInputs + 1];
  intptr_t nMap = 0;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); ++i) {
    from[nMap] = mlirBlockGetArgument(body, i);
    to[nMap++] = args[i];
  }
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    if (kilnOpNameIs(o, "linalg.yield")) {
      MlirValue y = mlirOperationGetOperand(o, 0);
      for (intptr_t m = 0; m < nMap; ++m)
        if (mlirValueEqual(from[m], y))
          return to[m];
      return (MlirValue){NULL};
    }
    MlirValue res = mlirOperationGetResult(o, 0);
    MlirType rt = mlirVectorTypeGet(rank, shape, mlirValueGetType(res));
    if (kilnOpNameIs(o, "arith.constant")) {
      MlirOperation c = mlirOperationClone(o);
      mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(w), w, c);
      MlirValue s = mlirOperationGetResult(c, 0);
      from[nMap] = res;
      to[nMap++] = mlirOperationGetResult(
          kilnInsertOp(w, "vector.broadcast", 1, &s, 1, &rt, 0, NULL), 0);
      continue;
    }
    MlirValue operands[kMaxInputs];
    intptr_t nOps = mlirOperationGetNumOperands(o);
    for (intptr_t i = 0; i < nOps && i < kMaxInputs; ++i) {
      MlirValue v = mlirOperationGetOperand(o, i);
      operands[i] = (MlirValue){NULL};
      for (intptr_t m = 0; m < nMap; ++m)
        if (mlirValueEqual(from[m], v))
          operands[i] = to[m];
      if (mlirValueIsNull(operands[i])) {
        /* A constant from outside the body (isInPlaceEpilogue). */
        MlirOperation c = mlirOperationClone(mlirOpResultGetOwner(v));
        mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(w), w, c);
        MlirValue s = mlirOperationGetResult(c, 0);
        MlirType st = mlirVectorTypeGet(rank, shape, mlirValueGetType(v));
        operands[i] = mlirOperationGetResult(
            kilnInsertOp(w, "vector.broadcast", 1, &s, 1, &st, 0, NULL), 0);
      }
    }
    MlirNamedAttribute attrs[8];
    intptr_t nAttrs = mlirOperationGetNumAttributes(o);
    for (intptr_t i = 0; i < nAttrs && i < 8; ++i)
      attrs[i] = mlirOperationGetAttribute(o, i);
    /* The name as a C string (an MlirStringRef is not terminated). */
    char name[64];
    MlirStringRef id = mlirIdentifierStr(mlirOperationGetName(o));
    snprintf(name, sizeof(name), "%.*s", (int)id.length, id.data);
    MlirOperation v =
        kilnInsertOp(w, name, nOps, operands, 1, &rt, nAttrs, attrs);
    from[nMap] = res;
    to[nMap++] = mlirOperationGetResult(v, 0);
  }
  return (MlirValue){NULL};
}

static bool bodyFits(MlirOperation g) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    if (mlirOperationGetNumOperands(o) > kMaxInputs ||
        mlirOperationGetNumAttributes(o) > 8)
      return false;
  return true;
}

int kilnApplyEpiloguesInRegisters(MlirOperation root) {
  KilnOpList generics = {0};
  kilnOpListCollectNamed(&generics, root, "linalg.generic", MlirWalkPostOrder);
  int erased = 0;
  for (size_t i = 0; i < generics.len; ++i) {
    Epilogue e;
    if (!isInPlaceEpilogue(generics.data[i], &e) ||
        !bodyFits(generics.data[i]) || !collectWrites(&e))
      continue;
    for (intptr_t w = 0; w < e.nWrites; ++w) {
      MlirOperation write = e.writes[w];
      MlirValue acc = mlirOperationGetOperand(write, 0);
      MlirValue args[kMaxInputs + 1];
      for (intptr_t k = 0; k < e.nInputs; ++k)
        args[k] = mlirValueEqual(e.inputs[k], e.out)
                      ? acc
                      : readTile(&e, write, e.inputs[k]);
      args[e.nInputs] = acc; /* the output's block argument: O's value */
      MlirValue result = cloneBody(&e, write, args);
      mlirOperationSetOperand(write, 0, result);
    }
    mlirOperationDestroy(e.generic);
    ++erased;
  }
  kilnOpListDestroy(&generics);
  return erased;
}

/* Register accumulators for reduction loops on buffers
 * (buffer_accumulators.h). */
#include "conversions/linalg-to-llvm-cpu/schedules/buffer_accumulators.h"

#include <stdbool.h>
#include <stdlib.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kMaxPairs = 64, kMaxRoots = 16, kMaxTraceDepth = 32 };

/* A read of the accumulator and the write that stores it back. */
typedef struct Pair {
  MlirOperation read, write;
} Pair;

static MlirOperation definingOp(MlirValue v) {
  if (mlirValueIsABlockArgument(v))
    return mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
  return mlirOpResultGetOwner(v);
}

static bool definedOutside(MlirValue v, MlirOperation loop) {
  return !kilnOpIsInside(definingOp(v), loop);
}

/* ---- which memory a memref value is part of ---------------------------- */

/* The allocations, globals and function arguments a memref value may be a
 * view of; `unknown` when the trace ends anywhere else. */
typedef struct Roots {
  MlirValue values[kMaxRoots];
  int n;
  bool unknown;
} Roots;

static void addRoot(Roots *r, MlirValue v) {
  for (int i = 0; i < r->n; ++i)
    if (mlirValueEqual(r->values[i], v))
      return;
  if (r->n == kMaxRoots)
    r->unknown = true;
  else
    r->values[r->n++] = v;
}

static bool isViewOf(MlirOperation op) {
  static const char *const kViews[] = {
      "memref.subview",         "memref.expand_shape",
      "memref.collapse_shape",  "memref.cast",
      "memref.reshape",         "memref.transpose",
      "memref.reinterpret_cast"};
  for (size_t i = 0; i < sizeof(kViews) / sizeof(kViews[0]); ++i)
    if (kilnOpNameIs(op, kViews[i]))
      return true;
  return false;
}

static void traceRoots(MlirValue v, Roots *r, int depth) {
  if (depth > kMaxTraceDepth) {
    r->unknown = true;
    return;
  }
  if (mlirValueIsABlockArgument(v)) {
    MlirOperation owner =
        mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
    if (kilnOpNameIs(owner, "func.func"))
      addRoot(r, v);
    else
      r->unknown = true;
    return;
  }
  MlirOperation op = mlirOpResultGetOwner(v);
  if (isViewOf(op)) {
    traceRoots(mlirOperationGetOperand(op, 0), r, depth + 1);
  } else if (kilnOpNameIs(op, "memref.alloc") ||
             kilnOpNameIs(op, "memref.alloca") ||
             kilnOpNameIs(op, "memref.get_global")) {
    addRoot(r, v);
  } else if (kilnOpNameIs(op, "scf.if")) {
    intptr_t i = mlirOpResultGetResultNumber(v);
    for (intptr_t k = 0; k < mlirOperationGetNumRegions(op); ++k) {
      MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, k));
      if (mlirBlockIsNull(b)) {
        r->unknown = true;
        return;
      }
      traceRoots(mlirOperationGetOperand(mlirBlockGetTerminator(b), i), r,
                 depth + 1);
    }
  } else {
    r->unknown = true;
  }
}

/* Whether roots `a` and `b` are the same memory: one value, or two
 * get_globals of one global. */
static bool sameRoot(MlirValue a, MlirValue b) {
  if (mlirValueEqual(a, b))
    return true;
  if (mlirValueIsABlockArgument(a) || mlirValueIsABlockArgument(b))
    return false;
  MlirOperation x = mlirOpResultGetOwner(a), y = mlirOpResultGetOwner(b);
  return kilnOpNameIs(x, "memref.get_global") &&
         kilnOpNameIs(y, "memref.get_global") &&
         mlirAttributeEqual(
             mlirOperationGetAttributeByName(x, kilnStr("name")),
             mlirOperationGetAttributeByName(y, kilnStr("name")));
}

/* Whether the memory of `a` and `b` is known to be apart. (Distinct
 * function arguments are: the model ABI's inputs and outputs are separate
 * buffers, docs/runtime.md.) */
static bool apart(MlirValue a, MlirValue b) {
  Roots ra = {0}, rb = {0};
  traceRoots(a, &ra, 0);
  traceRoots(b, &rb, 0);
  if (ra.unknown || rb.unknown)
    return false;
  for (int i = 0; i < ra.n; ++i)
    for (int j = 0; j < rb.n; ++j)
      if (sameRoot(ra.values[i], rb.values[j]))
        return false;
  return true;
}

/* ---- finding the pairs -------------------------------------------------- */

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op, kilnStr(name));
}

static bool sameAttr(MlirOperation a, MlirOperation b, const char *name) {
  MlirAttribute x = attr(a, name), y = attr(b, name);
  return mlirAttributeIsNull(x)
             ? mlirAttributeIsNull(y)
             : !mlirAttributeIsNull(y) && mlirAttributeEqual(x, y);
}

/* The memref a transfer op accesses, if it is an unmasked transfer on a
 * memref of static shape whose operands (but the written vector) are all
 * defined outside `loop`; null otherwise. */
static MlirValue invariantTransferMemref(MlirOperation op, MlirOperation loop) {
  bool write = kilnOpNameIs(op, "vector.transfer_write");
  if (!write && !kilnOpNameIs(op, "vector.transfer_read"))
    return (MlirValue){NULL};
  MlirValue m = mlirOperationGetOperand(op, write ? 1 : 0);
  MlirType t = mlirValueGetType(m);
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t))
    return (MlirValue){NULL};
  /* read: source, indices, padding; write: vector, dest, indices */
  intptr_t unmasked = 2 + mlirShapedTypeGetRank(t);
  if (mlirOperationGetNumOperands(op) != unmasked)
    return (MlirValue){NULL};
  for (intptr_t i = write ? 1 : 0; i < unmasked; ++i)
    if (!definedOutside(mlirOperationGetOperand(op, i), loop))
      return (MlirValue){NULL};
  return m;
}

/* Whether read `r` and write `w` access the same elements as one vector. */
static bool matches(MlirOperation r, MlirOperation w) {
  intptr_t n = mlirOperationGetNumOperands(w);
  if (!mlirValueEqual(mlirOperationGetOperand(r, 0),
                      mlirOperationGetOperand(w, 1)) ||
      !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(r, 0)),
                     mlirValueGetType(mlirOperationGetOperand(w, 0))) ||
      !sameAttr(r, w, "permutation_map") || !sameAttr(r, w, "in_bounds"))
    return false;
  for (intptr_t i = 2; i < n; ++i) /* the indices */
    if (!mlirValueEqual(mlirOperationGetOperand(r, i - 1),
                        mlirOperationGetOperand(w, i)))
      return false;
  return true;
}

static bool inPairs(const Pair *pairs, int n, MlirOperation op) {
  for (int i = 0; i < n; ++i)
    if (mlirOperationEqual(pairs[i].read, op) ||
        mlirOperationEqual(pairs[i].write, op))
      return true;
  return false;
}

/* The read/write pairs at the top of `loop`'s body, by the rules of
 * invariantTransferMemref and matches (each write with the latest
 * unpaired read before it); returns their number. */
static int findPairs(MlirOperation loop, Pair *pairs) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  MlirOperation reads[kMaxPairs];
  bool used[kMaxPairs] = {false};
  int numReads = 0, n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op) && n < kMaxPairs;
       op = mlirOperationGetNextInBlock(op)) {
    if (mlirValueIsNull(invariantTransferMemref(op, loop)))
      continue;
    if (kilnOpNameIs(op, "vector.transfer_read")) {
      if (numReads < kMaxPairs)
        reads[numReads++] = op;
      continue;
    }
    for (int r = numReads - 1; r >= 0; --r)
      if (!used[r] && matches(reads[r], op)) {
        used[r] = true;
        pairs[n++] = (Pair){reads[r], op};
        break;
      }
  }
  return n;
}

/* Whether every use of `m` inside `loop` is one of the pairs' ops. */
static bool onlyPairsUse(MlirValue m, MlirOperation loop, const Pair *pairs,
                         int n) {
  for (MlirOpOperand u = mlirValueGetFirstUse(m); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (kilnOpIsInside(user, loop) && !inPairs(pairs, n, user))
      return false;
  }
  return true;
}

typedef struct LoopCheck {
  const Pair *pairs;
  int n;
  KilnOpList reads; /* the loop's other memory reads */
  bool ok;
} LoopCheck;

static bool isMemoryRead(MlirOperation op) {
  return kilnOpNameIs(op, "vector.transfer_read") ||
         kilnOpNameIs(op, "memref.load") || kilnOpNameIs(op, "vector.load");
}

/* Ops that touch memrefs without writing memory. */
static bool readsOrViews(MlirOperation op) {
  return isMemoryRead(op) || isViewOf(op) || kilnOpNameIs(op, "memref.dim") ||
         kilnOpNameIs(op, "memref.extract_strided_metadata");
}

static MlirWalkResult checkLoopOp(MlirOperation op, void *userData) {
  LoopCheck *c = userData;
  if (inPairs(c->pairs, c->n, op))
    return MlirWalkResultAdvance;
  if (isMemoryRead(op)) {
    kilnOpListPush(&c->reads, op);
    return MlirWalkResultAdvance;
  }
  if (readsOrViews(op))
    return MlirWalkResultAdvance;
  /* Anything else that takes a memref may write it. */
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetOperand(op, i)))) {
      c->ok = false;
      return MlirWalkResultInterrupt;
    }
  if (kilnOpNameIs(op, "func.call") || kilnOpNameIs(op, "memref.store")) {
    c->ok = false;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

/* Keeps the pairs whose memref nothing else in `loop` uses, then checks
 * that the loop writes nothing else and reads only memory apart from the
 * pairs'. Returns the pairs kept (0: leave the loop alone). */
static int safePairs(MlirOperation loop, Pair *pairs, int n) {
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    MlirValue m = mlirOperationGetOperand(pairs[i].write, 1);
    if (onlyPairsUse(m, loop, pairs, n))
      pairs[kept++] = pairs[i];
  }
  if (!kept)
    return 0;
  LoopCheck c = {.pairs = pairs, .n = kept, .ok = true};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       c.ok && !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    mlirOperationWalk(op, checkLoopOp, &c, MlirWalkPreOrder);
  for (size_t r = 0; c.ok && r < c.reads.len; ++r) {
    MlirValue read = mlirOperationGetOperand(c.reads.data[r], 0);
    for (int i = 0; c.ok && i < kept; ++i)
      c.ok = apart(read, mlirOperationGetOperand(pairs[i].write, 1));
  }
  kilnOpListDestroy(&c.reads);
  return c.ok ? kept : 0;
}

/* ---- the rewrite --------------------------------------------------------- */

/* Replaces `loop` (an scf.for without results) by one that carries the
 * pairs' values, read before it and written after it. */
static void carryPairs(MlirOperation loop, const Pair *pairs, int n) {
  MlirContext ctx = mlirOperationGetContext(loop);
  MlirLocation loc = mlirOperationGetLocation(loop);
  MlirBlock outer = mlirOperationGetBlock(loop);
  MlirBlock old = mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
  MlirValue operands[3 + kMaxPairs];
  MlirType types[1 + kMaxPairs];
  MlirLocation locs[1 + kMaxPairs];
  for (int i = 0; i < 3; ++i)
    operands[i] = mlirOperationGetOperand(loop, i);
  types[0] = mlirIndexTypeGet(ctx);
  locs[0] = loc;
  for (int i = 0; i < n; ++i) {
    MlirOperation init = mlirOperationClone(pairs[i].read);
    mlirBlockInsertOwnedOperationBefore(outer, loop, init);
    operands[3 + i] = mlirOperationGetResult(init, 0);
    types[1 + i] = mlirValueGetType(operands[3 + i]);
    locs[1 + i] = loc;
  }
  MlirBlock body = mlirBlockCreate(1 + n, types, locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirOperationState st = mlirOperationStateGet(kilnStr("scf.for"), loc);
  mlirOperationStateAddResults(&st, n, types + 1);
  mlirOperationStateAddOperands(&st, 3 + n, operands);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation carried = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(outer, loop, carried);
  for (MlirOperation op = mlirBlockGetFirstOperation(old);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(body, op);
    op = next;
  }
  mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(old, 0),
                                mlirBlockGetArgument(body, 0));
  MlirValue yielded[kMaxPairs];
  MlirOperation after = carried;
  for (int i = 0; i < n; ++i) {
    yielded[i] = mlirOperationGetOperand(pairs[i].write, 0);
    MlirOperation store = mlirOperationClone(pairs[i].write);
    mlirOperationSetOperand(store, 0, mlirOperationGetResult(carried, i));
    mlirBlockInsertOwnedOperationAfter(outer, after, store);
    after = store;
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(pairs[i].read, 0),
                                  mlirBlockGetArgument(body, 1 + i));
  }
  for (int i = 0; i < n; ++i) {
    mlirOperationDestroy(pairs[i].write);
    mlirOperationDestroy(pairs[i].read);
  }
  MlirOperation oldYield = mlirBlockGetTerminator(body);
  MlirOperationState ys = mlirOperationStateGet(
      kilnStr("scf.yield"), mlirOperationGetLocation(oldYield));
  mlirOperationStateAddOperands(&ys, n, yielded);
  mlirBlockInsertOwnedOperationBefore(body, oldYield, mlirOperationCreate(&ys));
  mlirOperationDestroy(oldYield);
  mlirOperationDestroy(loop);
}

static MlirWalkResult collectLoop(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "scf.for") && mlirOperationGetNumResults(op) == 0)
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

int kilnHoistBufferAccumulators(MlirOperation root) {
  KilnOpList loops = {0};
  /* Post-order: inner loops first, so that an outer loop sees the inner
   * ones rewritten (and their pairs, now outside them, not at its top). */
  mlirOperationWalk(root, collectLoop, &loops, MlirWalkPostOrder);
  int rewritten = 0;
  Pair pairs[kMaxPairs];
  for (size_t i = 0; i < loops.len; ++i) {
    int n = safePairs(loops.data[i], pairs, findPairs(loops.data[i], pairs));
    if (n) {
      carryPairs(loops.data[i], pairs, n);
      ++rewritten;
    }
  }
  kilnOpListDestroy(&loops);
  return rewritten;
}

/* kiln-gpu-tile-contractions' epilogues (docs/gpu-codegen.md, "Matrix
 * products"): the elementwise consumer of a tiled product's C — a ReLU
 * after a conv, a bias add or GELU after a linear layer, a residual add —
 * recognized here and copied into the product's store phase, so the kernel
 * applies it to the accumulators and writes the final result (tile.c
 * writes the store phase). Conservative: anything unclear stays a kernel
 * of its own. */
#include "conversions/linalg-to-gpu/tile.h"
#include "dialects/linalg/transforms/schedule_text.h"
#include "kiln/diagnostics.h"

#include <stdio.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/ir_build.h"
#include "support/op_list.h"

/* The consumer body's block (its ops copied into the store phase). */
MlirBlock kilnGpuEpilogueBody(const Epilogue *e) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(e->op, 0));
}

static bool isView(MlirOperation op) {
  return kilnOpNameIs(op, "memref.expand_shape") ||
         kilnOpNameIs(op, "memref.collapse_shape") ||
         kilnOpNameIs(op, "memref.subview") ||
         kilnOpNameIs(op, "memref.cast") ||
         kilnOpNameIs(op, "memref.reinterpret_cast");
}

/* The buffer a memref views (through views of it), or the value. */
MlirValue kilnGpuViewRoot(MlirValue v) {
  while (mlirValueIsAOpResult(v) && isView(mlirOpResultGetOwner(v)))
    v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
  return v;
}

/* `op` or its ancestor in `block`, null if none. */
static MlirOperation ancestorIn(MlirOperation op, MlirBlock block) {
  while (!mlirOperationIsNull(op) &&
         !mlirBlockEqual(mlirOperationGetBlock(op), block))
    op = mlirOperationGetParentOperation(op);
  return op;
}

/* Whether `a` comes before `b` in their block. */
static bool isBefore(MlirOperation a, MlirOperation b) {
  for (MlirOperation o = mlirOperationGetNextInBlock(a);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    if (mlirOperationEqual(o, b))
      return true;
  return false;
}

typedef struct Roots {
  MlirValue root[kMaxEpilogueRoots];
  int n;
  bool hit;
} Roots;

static MlirWalkResult touchesRootsWalk(MlirOperation op, void *userData) {
  Roots *r = userData;
  /* A call may reach any buffer. */
  if (kilnOpNameIs(op, "func.call") || kilnOpNameIs(op, "func.call_indirect")) {
    r->hit = true;
    return MlirWalkResultInterrupt;
  }
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirTypeIsAMemRef(mlirValueGetType(v)))
      continue;
    MlirValue root = kilnGpuViewRoot(v);
    for (int j = 0; j < r->n; ++j)
      if (mlirValueEqual(root, r->root[j])) {
        r->hit = true;
        return MlirWalkResultInterrupt;
      }
  }
  return MlirWalkResultAdvance;
}

/* Whether `op` (or an op nested in it) has a memref operand viewing one of
 * `roots`, or is a call. */
static bool touchesRoots(MlirOperation op, const MlirValue *roots, int n) {
  Roots r = {.n = n};
  for (int i = 0; i < n; ++i)
    r.root[i] = roots[i];
  mlirOperationWalk(op, touchesRootsWalk, &r, MlirWalkPreOrder);
  return r.hit;
}

/* Whether `map` is a permutation of its dims. */
static bool isPermutation(MlirAffineMap map) {
  intptr_t dims[kMaxRank], n;
  MlirAffineExpr exprs[kMaxRank];
  return !mlirAffineMapGetNumSymbols(map) &&
         mlirAffineMapGetNumDims(map) == mlirAffineMapGetNumResults(map) &&
         kilnGpuMapDims(map, dims, exprs, false, &n);
}

/* Whether every result of `map` is a dim or a constant. */
static bool dimsOrConstants(MlirAffineMap map) {
  if (mlirAffineMapGetNumSymbols(map) ||
      mlirAffineMapGetNumResults(map) > kMaxRank)
    return false;
  for (intptr_t i = 0; i < mlirAffineMapGetNumResults(map); ++i) {
    MlirAffineExpr r = mlirAffineMapGetResult(map, i);
    if (!mlirAffineExprIsADim(r) && !mlirAffineExprIsAConstant(r))
      return false;
  }
  return true;
}

/* Whether the consumer's body is arith/math ops without regions whose
 * operands are block arguments, earlier body results or constants from
 * outside, ending in a yield of one value. */
static bool isElementwiseBody(MlirBlock body) {
  int n = 0;
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    if (kilnOpNameIs(o, "linalg.yield"))
      return mlirOperationIsNull(mlirOperationGetNextInBlock(o)) &&
             mlirOperationGetNumOperands(o) == 1;
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(o));
    bool arith = name.length > 6 && !strncmp(name.data, "arith.", 6);
    bool math = name.length > 5 && !strncmp(name.data, "math.", 5);
    if ((!arith && !math) || mlirOperationGetNumRegions(o) ||
        mlirOperationGetNumResults(o) != 1 || ++n > kMaxEpilogueOps)
      return false;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); ++i) {
      MlirValue v = mlirOperationGetOperand(o, i);
      MlirOperation owner = mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v)
                                                    : (MlirOperation){NULL};
      MlirBlock at = mlirValueIsAOpResult(v) ? mlirOperationGetBlock(owner)
                                             : mlirBlockArgumentGetOwner(v);
      if (!mlirBlockEqual(at, body) && (mlirOperationIsNull(owner) ||
                                        !kilnOpNameIs(owner, "arith.constant")))
        return false;
    }
  }
  return false;
}

/* Whether, C's buffer being `root`, every use after the product is the
 * consumer or a dealloc (through views of it): nothing else sees C. */
static bool onlyConsumerUses(MlirValue v, MlirOperation op, MlirOperation fill,
                             MlirOperation consumer) {
  MlirBlock block = mlirOperationGetBlock(op);
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    MlirOperation anc = ancestorIn(owner, block);
    if (mlirOperationIsNull(anc))
      return false;
    if (mlirOperationEqual(anc, owner) && isView(owner)) {
      if (!onlyConsumerUses(mlirOperationGetResult(owner, 0), op, fill,
                            consumer))
        return false;
      continue;
    }
    bool ok = mlirOperationEqual(anc, op) ||
              mlirOperationEqual(anc, consumer) ||
              (!mlirOperationIsNull(fill) && mlirOperationEqual(anc, fill)) ||
              isBefore(anc, op) ||
              (mlirOperationEqual(anc, owner) &&
               kilnOpNameIs(owner, "memref.dealloc"));
    if (!ok)
      return false;
  }
  return true;
}

intptr_t kilnGpuSingleOutputIns(MlirOperation op) {
  MlirAttribute seg =
      mlirOperationGetAttributeByName(op, kilnStr("operandSegmentSizes"));
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
      mlirDenseArrayGetNumElements(seg) != 2 ||
      mlirDenseI32ArrayGetElement(seg, 1) != 1)
    return -1;
  return mlirDenseI32ArrayGetElement(seg, 0);
}

/* Recognizes the elementwise consumer of `op`'s C that can be fused into
 * its store phase (e->op stays null otherwise): the first op after `op`
 * that touches C's buffer, with nothing in between touching A, B or C. */
void kilnGpuMatchEpilogue(MlirOperation op, MlirValue c,
                          const MlirValue *inputs, int nInputs,
                          MlirOperation fill, Epilogue *e) {
  memset(e, 0, sizeof(*e));
  if (nInputs > kMaxEpilogueRoots - 1)
    return;
  MlirValue rootC = kilnGpuViewRoot(c);
  MlirValue roots[kMaxEpilogueRoots] = {rootC};
  int nRoots = 1;
  for (int i = 0; i < nInputs; ++i)
    roots[nRoots++] = kilnGpuViewRoot(inputs[i]);
  MlirOperation g = mlirOperationGetNextInBlock(op);
  for (; !mlirOperationIsNull(g); g = mlirOperationGetNextInBlock(g))
    if (touchesRoots(g, &rootC, 1))
      break;
  if (mlirOperationIsNull(g) || !kilnOpNameIs(g, "linalg.generic") ||
      mlirOperationGetNumResults(g) || mlirOperationGetNumRegions(g) != 1)
    return;
  for (MlirOperation o = mlirOperationGetNextInBlock(op);
       !mlirOperationEqual(o, g); o = mlirOperationGetNextInBlock(o))
    if (touchesRoots(o, roots, nRoots))
      return;
  intptr_t nIns = kilnGpuSingleOutputIns(g);
  intptr_t nOps = mlirOperationGetNumOperands(g);
  MlirAttribute maps =
      mlirOperationGetAttributeByName(g, kilnStr("indexing_maps"));
  if (nIns < 1 || nIns > kMaxEpilogueIns || nIns + 1 != nOps ||
      mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirArrayAttrGetNumElements(maps) != nOps)
    return;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  if (mlirBlockGetNumArguments(body) != nOps || !isElementwiseBody(body))
    return;
  e->nIns = nIns;
  for (intptr_t k = 0; k < nOps; ++k) {
    MlirAttribute m = mlirArrayAttrGetElement(maps, k);
    if (!mlirAttributeIsAAffineMap(m))
      return;
    e->map[k] = mlirAffineMapAttrGetValue(m);
  }
  e->loops = mlirAffineMapGetNumDims(e->map[0]);
  char kinds[kMaxRank];
  if (e->loops != mlirShapedTypeGetRank(mlirValueGetType(c)) ||
      !kilnLinalgIteratorKinds(g, kinds, e->loops))
    return;
  for (intptr_t l = 0; l < e->loops; ++l)
    if (kinds[l] != 'p')
      return;
  /* C read through one permutation (its dims index the consumer's loops),
   * the output written through the same one (in C's layout: a transposing
   * consumer would store uncoalesced), the other inputs read at dims or
   * constants. */
  MlirAffineMap cMap = {NULL};
  for (intptr_t k = 0; k < nIns; ++k) {
    MlirValue v = mlirOperationGetOperand(g, k);
    e->inIsC[k] = mlirValueEqual(v, c);
    if (!mlirTypeIsAMemRef(mlirValueGetType(v)) ||
        mlirAffineMapGetNumDims(e->map[k]) != e->loops)
      return;
    if (e->inIsC[k]) {
      if (!isPermutation(e->map[k]) ||
          (!mlirAffineMapIsNull(cMap) && !mlirAffineMapEqual(cMap, e->map[k])))
        return;
      cMap = e->map[k];
    } else if (!dimsOrConstants(e->map[k]) ||
               mlirValueEqual(kilnGpuViewRoot(v), rootC)) {
      return;
    }
  }
  MlirValue out = mlirOperationGetOperand(g, nIns);
  MlirAffineMap outMap = e->map[nIns];
  e->outIsC = mlirValueEqual(out, c);
  if (mlirAffineMapIsNull(cMap) && e->outIsC)
    cMap = outMap;
  MlirValue outRoot = kilnGpuViewRoot(out);
  if (mlirAffineMapIsNull(cMap) || !isPermutation(outMap) ||
      mlirAffineMapGetNumDims(outMap) != e->loops ||
      !mlirAffineMapEqual(outMap, cMap) ||
      (!e->outIsC && mlirValueEqual(outRoot, rootC)))
    return;
  /* The consumer's output is none of the product's inputs. */
  for (int i = 1; i < nRoots; ++i)
    if (mlirValueEqual(outRoot, roots[i]))
      return;
  /* An input in the output's buffer only as the element written. */
  for (intptr_t k = 0; k < nIns; ++k) {
    MlirValue v = mlirOperationGetOperand(g, k);
    if (!e->inIsC[k] && mlirValueEqual(kilnGpuViewRoot(v), outRoot) &&
        (!mlirValueEqual(v, out) || !mlirAffineMapEqual(e->map[k], outMap)))
      return;
  }
  for (intptr_t i = 0; i < e->loops; ++i)
    e->cDim[mlirAffineDimExprGetPosition(mlirAffineMapGetResult(cMap, i))] = i;
  e->outUsed = !mlirValueIsNull(mlirBlockGetArgument(body, nIns)) &&
               !mlirOpOperandIsNull(
                   mlirValueGetFirstUse(mlirBlockGetArgument(body, nIns)));
  /* Unless written in place, C must be a temporary of this function (an
   * argument's contents are seen by the caller). */
  if (!e->outIsC &&
      (!mlirValueIsAOpResult(rootC) ||
       !kilnOpNameIs(mlirOpResultGetOwner(rootC), "memref.alloc") ||
       !onlyConsumerUses(rootC, op, fill, g)))
    return;
  e->op = g;
}

/* `(argument types) -> result type` of @kiln_epilogue: the body's block
 * arguments (the output's only when the body reads it) to its value. */
static void appendEpilogueSignature(KilnScheduleText *g, const Epilogue *e) {
  MlirBlock body = kilnGpuEpilogueBody(e);
  kilnStrBufAppend(g->buf, "(", 1);
  intptr_t n = e->nIns + (e->outUsed ? 1 : 0);
  for (intptr_t k = 0; k < n; ++k) {
    if (k)
      kilnStrBufAppend(g->buf, ", ", 2);
    kilnStrBufAppendType(g->buf,
                         mlirValueGetType(mlirBlockGetArgument(body, k)));
  }
  kilnStrBufAppend(g->buf, ") -> ", 5);
  MlirOperation yield = mlirBlockGetTerminator(body);
  kilnStrBufAppendType(g->buf,
                       mlirValueGetType(mlirOperationGetOperand(yield, 0)));
}

/* The epilogue operand `k`'s type (the output: k = nIns). */
static MlirType epilogueType(const Epilogue *e, intptr_t k) {
  return mlirValueGetType(mlirOperationGetOperand(e->op, k));
}

/* The element of epilogue operand `k` (its map) at the element of C with
 * indices `idxC`. */
static void epilogueIndices(KilnScheduleText *g, const Epilogue *e, intptr_t k,
                            const int *idxC, int *idx) {
  MlirAffineMap map = e->map[k];
  for (intptr_t i = 0; i < mlirAffineMapGetNumResults(map); ++i) {
    MlirAffineExpr r = mlirAffineMapGetResult(map, i);
    idx[i] = mlirAffineExprIsADim(r)
                 ? idxC[e->cDim[mlirAffineDimExprGetPosition(r)]]
                 : kilnScheduleIndex(g, mlirAffineConstantExprGetValue(r));
  }
}

void kilnGpuGenEpilogueStore(KilnScheduleText *g, const Epilogue *e, int acc,
                             const int *idxC) {
  int args[kMaxEpilogueIns + 1], nArgs = 0, idx[kMaxRank];
  for (intptr_t k = 0; k < e->nIns; ++k) {
    if (e->inIsC[k]) {
      args[nArgs++] = acc;
      continue;
    }
    epilogueIndices(g, e, k, idxC, idx);
    int v = kilnScheduleFresh(g);
    char prefix[48], name[16];
    snprintf(prefix, sizeof(prefix), "%%v%d = memref.load ", v);
    snprintf(name, sizeof(name), "E%d", (int)k);
    kilnScheduleAppendIndexed(g, prefix, name, idx,
                              mlirAffineMapGetNumResults(e->map[k]),
                              epilogueType(e, k));
    args[nArgs++] = v;
  }
  const char *out = e->outIsC ? "C" : "Out";
  MlirType outType = epilogueType(e, e->nIns);
  epilogueIndices(g, e, e->nIns, idxC, idx);
  intptr_t outRank = mlirAffineMapGetNumResults(e->map[e->nIns]);
  if (e->outUsed && e->outIsC) {
    args[nArgs++] = acc;
  } else if (e->outUsed) {
    int v = kilnScheduleFresh(g);
    char prefix[48];
    snprintf(prefix, sizeof(prefix), "%%v%d = memref.load ", v);
    kilnScheduleAppendIndexed(g, prefix, out, idx, outRank, outType);
    args[nArgs++] = v;
  }
  int r = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf, "%%v%d = func.call @kiln_epilogue(", r);
  for (int i = 0; i < nArgs; ++i)
    kilnStrBufAppendf(g->buf, "%s%%v%d", i ? ", " : "", args[i]);
  kilnStrBufAppend(g->buf, ") : ", 4);
  appendEpilogueSignature(g, e);
  char prefix[48];
  snprintf(prefix, sizeof(prefix), "\nmemref.store %%v%d, ", r);
  kilnScheduleAppendIndexed(g, prefix, out, idx, outRank, outType);
}

void kilnGpuAppendEpilogueParams(KilnScheduleText *g, const Epilogue *e) {
  if (mlirOperationIsNull(e->op))
    return;
  for (intptr_t k = 0; k <= e->nIns; ++k) {
    if (k < e->nIns && e->inIsC[k])
      continue;
    if (k == e->nIns && e->outIsC)
      break;
    if (k < e->nIns)
      kilnStrBufAppendf(g->buf, ", %%E%d: ", (int)k);
    else
      kilnStrBufAppend(g->buf, ", %Out: ", 8);
    kilnStrBufAppendType(g->buf, epilogueType(e, k));
  }
}

void kilnGpuAppendEpilogueDecl(KilnScheduleText *g, const Epilogue *e) {
  if (mlirOperationIsNull(e->op))
    return;
  kilnStrBufAppend(g->buf, "func.func private @kiln_epilogue", 32);
  appendEpilogueSignature(g, e);
  kilnStrBufAppend(g->buf, "\n", 1);
}

intptr_t kilnGpuEpilogueArgs(const Epilogue *e, MlirValue *args) {
  intptr_t n = 0;
  for (intptr_t k = 0; !mlirOperationIsNull(e->op) && k <= e->nIns; ++k)
    if (k == e->nIns ? !e->outIsC : !e->inIsC[k])
      args[n++] = mlirOperationGetOperand(e->op, k);
  return n;
}

typedef struct FindMarks {
  KilnGpuMarks *m;
  const char *inMark, *elemMark;
} FindMarks;

static MlirWalkResult findMarks(MlirOperation op, void *userData) {
  FindMarks *f = userData;
  MlirAttribute a = mlirOperationGetAttributeByName(op, kilnStr(f->inMark));
  if (!mlirAttributeIsNull(a)) {
    int64_t k = mlirIntegerAttrGetValueInt(a);
    if (k >= 0 && k < kMaxMarkedInputs)
      f->m->in[k] = op;
    mlirOperationRemoveAttributeByName(op, kilnStr(f->inMark));
  } else if (!mlirAttributeIsNull(
                 mlirOperationGetAttributeByName(op, kilnStr(f->elemMark)))) {
    f->m->elem = op;
  }
  return MlirWalkResultAdvance;
}

void kilnGpuFindMarks(MlirOperation func, const char *inMark,
                      const char *elemMark, KilnGpuMarks *m) {
  memset(m, 0, sizeof(*m));
  FindMarks f = {m, inMark, elemMark};
  mlirOperationWalk(func, findMarks, &f, MlirWalkPreOrder);
}

/* `v` of `body` in the template: an argument's marked load, the copy of a
 * body op's result, or `v` itself (defined outside the body). */
static MlirValue markedValue(MlirValue v, MlirBlock body, const KilnGpuMarks *m,
                             const KilnOpList *from, const KilnOpList *to) {
  if (mlirValueIsABlockArgument(v) &&
      mlirBlockEqual(mlirBlockArgumentGetOwner(v), body))
    return mlirOperationGetResult(m->in[mlirBlockArgumentGetArgNumber(v)], 0);
  if (mlirValueIsAOpResult(v)) {
    MlirOperation def = mlirOpResultGetOwner(v);
    for (size_t i = 0; i < from->len; ++i)
      if (mlirOperationEqual(from->data[i], def))
        return mlirOperationGetResult(to->data[i],
                                      mlirOpResultGetResultNumber(v));
  }
  return v;
}

void kilnGpuInlineMarked(MlirBlock body, MlirOperation stop, MlirValue value,
                         KilnGpuMarks *m) {
  KilnOpList from = {0}, to = {0};
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationEqual(o, stop); o = mlirOperationGetNextInBlock(o)) {
    MlirOperation c = mlirOperationClone(o);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(m->elem), m->elem,
                                        c);
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(c); ++i)
      mlirOperationSetOperand(
          c, i,
          markedValue(mlirOperationGetOperand(c, i), body, m, &from, &to));
    kilnOpListPush(&from, o);
    kilnOpListPush(&to, c);
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(m->elem, 0),
                                markedValue(value, body, m, &from, &to));
  mlirOperationDestroy(m->elem);
  m->elem = (MlirOperation){NULL};
  kilnOpListDestroy(&from);
  kilnOpListDestroy(&to);
}

static MlirWalkResult collectCalls(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "func.call"))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

void kilnGpuSpliceTemplate(MlirBlock body, MlirOperation before,
                           KilnOpList *calls) {
  MlirOperation term = mlirBlockGetTerminator(body);
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationEqual(o, term);) {
    MlirOperation next = mlirOperationGetNextInBlock(o);
    mlirOperationMoveBefore(o, before);
    mlirOperationWalk(o, collectCalls, calls, MlirWalkPostOrder);
    o = next;
  }
}

/* Marks in `need` (indexed like the body's ops) the ops `v` depends on. */
static void markSlice(MlirBlock body, MlirValue v, MlirOperation *ops,
                      bool *need, int nOps) {
  if (!mlirValueIsAOpResult(v))
    return;
  MlirOperation def = mlirOpResultGetOwner(v);
  for (int i = 0; i < nOps; ++i)
    if (mlirOperationEqual(ops[i], def)) {
      if (need[i])
        return;
      need[i] = true;
      for (intptr_t k = 0; k < mlirOperationGetNumOperands(def); ++k)
        markSlice(body, mlirOperationGetOperand(def, k), ops, need, nOps);
      return;
    }
}

void kilnGpuInlineSlice(MlirOperation call, MlirBlock body,
                        const intptr_t *args, intptr_t nArgs,
                        MlirValue result) {
  MlirOperation ops[kMaxEpilogueOps];
  bool need[kMaxEpilogueOps] = {false};
  int nOps = 0;
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationEqual(o, yield) && nOps < kMaxEpilogueOps;
       o = mlirOperationGetNextInBlock(o))
    ops[nOps++] = o;
  markSlice(body, result, ops, need, nOps);
  MlirValue from[kMaxEpilogueOps + kMaxEpilogueIns + 1];
  MlirValue to[kMaxEpilogueOps + kMaxEpilogueIns + 1];
  int n = 0;
  for (intptr_t k = 0; k < nArgs && n < kMaxEpilogueIns + 1; ++k) {
    from[n] = mlirBlockGetArgument(body, args[k]);
    to[n++] = mlirOperationGetOperand(call, k);
  }
  MlirBlock block = mlirOperationGetBlock(call);
  for (int i = 0; i < nOps; ++i) {
    if (!need[i])
      continue;
    MlirOperation c = mlirOperationClone(ops[i]);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(c); ++k)
      for (int j = 0; j < n; ++j)
        if (mlirValueEqual(mlirOperationGetOperand(c, k), from[j]))
          mlirOperationSetOperand(c, k, to[j]);
    mlirBlockInsertOwnedOperationBefore(block, call, c);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(ops[i]); ++r) {
      from[n] = mlirOperationGetResult(ops[i], r);
      to[n++] = mlirOperationGetResult(c, r);
    }
  }
  for (int j = 0; j < n; ++j)
    if (mlirValueEqual(result, from[j]))
      result = to[j];
  /* A constant from outside the body is used as it is. */
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(call, 0), result);
  mlirOperationDestroy(call);
}

void kilnGpuInlineEpilogue(MlirOperation call, const Epilogue *e) {
  MlirBlock body = kilnGpuEpilogueBody(e);
  intptr_t args[kMaxEpilogueIns + 1];
  intptr_t nArgs = mlirOperationGetNumOperands(call);
  for (intptr_t k = 0; k < nArgs; ++k)
    args[k] = k;
  kilnGpuInlineSlice(call, body, args, nArgs,
                     mlirOperationGetOperand(mlirBlockGetTerminator(body), 0));
}

/* Collects the views and deallocs of `v` (users before their operands):
 * false if anything else uses it. */
static bool deadUses(MlirValue v, KilnOpList *list) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    if (isView(owner)) {
      if (!deadUses(mlirOperationGetResult(owner, 0), list))
        return false;
    } else if (!kilnOpNameIs(owner, "memref.dealloc")) {
      return false;
    }
    kilnOpListPush(list, owner);
  }
  return true;
}

/* Erases C's buffer once the fused product no longer reads or writes it
 * (its allocation, views and deallocation). */
void kilnGpuEraseIfDead(MlirValue root) {
  if (!mlirValueIsAOpResult(root) ||
      !kilnOpNameIs(mlirOpResultGetOwner(root), "memref.alloc"))
    return;
  KilnOpList list = {0};
  if (deadUses(root, &list)) {
    for (size_t i = 0; i < list.len; ++i)
      mlirOperationDestroy(list.data[i]);
    mlirOperationDestroy(mlirOpResultGetOwner(root));
  }
  kilnOpListDestroy(&list);
}

/* Replaces `op` by the schedule (with its elementwise consumer fused when
 * `epilogues`, in the consumer's place); false after an error. */

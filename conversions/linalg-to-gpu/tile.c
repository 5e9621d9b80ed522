/* kiln-gpu-tile-contractions: the GPU schedule of matrix products
 * (docs/gpu-codegen.md, "Contractions").
 *
 * Runs on bufferized memrefs before convert-linalg-to-parallel-loops. Each
 * static-shape contraction C[b,m,n] += A[.., m, k] * B[.., k, n] into an
 * f32 C (a linalg.matmul, linalg.batch_matmul, or a linalg.generic of the
 * same form: any operand layout, a batch dim shared or broadcast, each
 * factor computed from one or several inputs of any float type: Side)
 * becomes explicit block and thread loops in "phases" form:
 *
 *   scf.execute_region no_inline {            kiln.gpu.block_size = T
 *     memref.alloca_scope {
 *       %As, %Bs = memref.alloca {kiln.gpu.shared}   2 tiles of A, of B
 *       %acc = memref.alloca {kiln.gpu.private} : memref<TxRxCxf32>
 *       scf.parallel (batch, block row, block column) {     the grid
 *         scf.parallel (%t) to T { acc[t] = C or the fill value }
 *         scf.parallel (%t) to T { first A, B tile elements -> As[0], Bs[0] }
 *         scf.for %k0 step BK {                 cur = (k0 / BK) % 2
 *           scf.parallel (%t) to T {
 *             next A, B tile elements (loaded first; the last step reloads)
 *             acc[t] += As[cur] * Bs[cur] (R x C, unrolled)
 *             -> As[1 - cur], Bs[1 - cur]
 *         } }
 *         scf.parallel (%t) to T { C = acc[t] (guarded at the edges) }
 *       } } }
 *
 * Sibling thread loops ("phases") run one after another when the loops run
 * sequentially (gpu-on-cpu), exactly what barriers between them guarantee
 * on a GPU; kiln-gpu-launch-phases turns the form into a gpu.launch with
 * workgroup tiles, thread-private accumulators and barriers. Thread t owns
 * rows t/TX + TY*i and columns t%TX + TX*j of the block tile (neighbouring
 * threads store neighbouring elements); tile loads run along each
 * operand's contiguous dim. A fill of C just before the product is
 * folded into the accumulators' initial value. The elementwise op that
 * consumes C (ReLU, a bias add, a residual add) is fused into the store
 * phase, which then writes its result instead of C (Epilogue, below).
 *
 * Where both tiles hold f16 or both bf16 (f32 with tf32), the threads own
 * their outputs as mma.sync accumulator fragments and the compute phase is
 * nvvm.mma.sync on registers read by ldmatrix (mma=nvvm), or its
 * emulation from the same registers (mma=emulate, gpu-on-cpu). Plain
 * operands are copied into the tiles by cp.async (from sm_80), others
 * loaded through registers. Products of 128 or more 128 x 128 blocks take
 * those blocks (wide-min-blocks). The loops are written as text (a
 * schedule template) with the shapes, layouts and tile sizes of the op,
 * parsed, and moved in place of the op. Everything else is left alone:
 * other linalg ops, dynamic shapes, accumulators other than f32. */
#include "kiln/passes.h"

#include <stdio.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/LLVM.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/NVGPU.h"
#include "mlir-c/Dialect/NVVM.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Vector.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum {
  kOptEnable,
  kOptMinFlops,
  kOptEpilogues,
  kOptMma,
  kOptTf32,
  kOptLdmatrix,
  kOptWideMinBlocks,
  kNumOptions
};

#include "conversions/linalg-to-gpu/tile.h"
#include "dialects/linalg/transforms/schedule_text.h"

static bool staticMemRef(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsAMemRef(t) && mlirShapedTypeHasStaticShape(t) &&
         mlirShapedTypeGetRank(t) <= kMaxRank;
}

static bool isLowFloat(MlirType t) {
  return mlirTypeIsAF16(t) || mlirTypeIsABF16(t);
}

/* Whether `e` is a sum of dims times constants plus a constant. */
static bool isLinear(MlirAffineExpr e) {
  if (mlirAffineExprIsADim(e) || mlirAffineExprIsAConstant(e))
    return true;
  MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(e);
  MlirAffineExpr r = mlirAffineBinaryOpExprGetRHS(e);
  if (mlirAffineExprIsAAdd(e))
    return isLinear(l) && isLinear(r);
  if (mlirAffineExprIsAMul(e))
    return (mlirAffineExprIsAConstant(r) && isLinear(l)) ||
           (mlirAffineExprIsAConstant(l) && isLinear(r));
  return false;
}

/* The loop dim of each result of `map` (-1 and the expression in `exprs`
 * for a compound one when `compound`), false unless the plain results are
 * distinct dims. */
bool kilnGpuMapDims(MlirAffineMap map, intptr_t *dims, MlirAffineExpr *exprs,
                    bool compound, intptr_t *n) {
  *n = mlirAffineMapGetNumResults(map);
  if (*n > kMaxRank)
    return false;
  for (intptr_t i = 0; i < *n; ++i) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, i);
    exprs[i] = e;
    if (!mlirAffineExprIsADim(e)) {
      if (!compound || !isLinear(e))
        return false;
      dims[i] = -1;
      continue;
    }
    dims[i] = mlirAffineDimExprGetPosition(e);
    for (intptr_t j = 0; j < i; ++j)
      if (dims[j] == dims[i])
        return false;
  }
  return true;
}

/* Adds to `*args` (a bit per block argument) the arguments `v` is computed
 * from in `body`; false unless every op on the way is a region-free
 * single-result arith or math op of the body (or a constant from outside)
 * and `out` (argument `outArg`) is not among them. */
static bool factorArgs(MlirBlock body, MlirValue v, intptr_t outArg,
                       uint32_t *args, int depth) {
  if (depth > kMaxEpilogueOps)
    return false;
  if (mlirValueIsABlockArgument(v)) {
    intptr_t k = mlirBlockArgumentGetArgNumber(v);
    if (!mlirBlockEqual(mlirBlockArgumentGetOwner(v), body) || k == outArg ||
        k >= 32)
      return false;
    *args |= 1u << k;
    return true;
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!mlirBlockEqual(mlirOperationGetBlock(def), body))
    return kilnOpNameIs(def, "arith.constant");
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(def));
  bool arithOrMath = (name.length > 6 && !memcmp(name.data, "arith.", 6)) ||
                     (name.length > 5 && !memcmp(name.data, "math.", 5));
  if (!arithOrMath || mlirOperationGetNumRegions(def) ||
      mlirOperationGetNumResults(def) != 1)
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); ++i)
    if (!factorArgs(body, mlirOperationGetOperand(def, i), outArg, args,
                    depth + 1))
      return false;
  return true;
}

/* Whether the body is `yield out + X * Y` (either factor order) with X and
 * Y f32 values computed from disjoint sets of inputs that together are all
 * of them (argsX, argsY); the sum in that order keeps the sequential sum's
 * rounding. */
static bool matchMulAdd(MlirBlock body, intptr_t nIns, MlirValue *x,
                        MlirValue *y, uint32_t *argsX, uint32_t *argsY) {
  if (nIns < 2 || nIns > 31 || mlirBlockGetNumArguments(body) != nIns + 1)
    return false;
  MlirOperation yield = mlirBlockGetTerminator(body);
  if (mlirOperationIsNull(yield) || mlirOperationGetNumOperands(yield) != 1)
    return false;
  MlirValue s = mlirOperationGetOperand(yield, 0);
  if (!mlirValueIsAOpResult(s))
    return false;
  MlirOperation add = mlirOpResultGetOwner(s);
  MlirValue out = mlirBlockGetArgument(body, nIns);
  if (!kilnOpNameIs(add, "arith.addf") ||
      !mlirValueEqual(mlirOperationGetOperand(add, 0), out) ||
      !mlirValueIsAOpResult(mlirOperationGetOperand(add, 1)))
    return false;
  MlirOperation mul = mlirOpResultGetOwner(mlirOperationGetOperand(add, 1));
  if (!kilnOpNameIs(mul, "arith.mulf") ||
      !mlirBlockEqual(mlirOperationGetBlock(mul), body))
    return false;
  *x = mlirOperationGetOperand(mul, 0);
  *y = mlirOperationGetOperand(mul, 1);
  *argsX = *argsY = 0;
  if (!mlirTypeIsAF32(mlirValueGetType(*x)) ||
      !mlirTypeIsAF32(mlirValueGetType(*y)) ||
      !factorArgs(body, *x, nIns, argsX, 0) ||
      !factorArgs(body, *y, nIns, argsY, 0))
    return false;
  return !(*argsX & *argsY) && *argsX && *argsY &&
         (*argsX | *argsY) == (nIns == 31 ? 0x7fffffffu : (1u << nIns) - 1);
}

/* The maps of the op's operands (inputs, then C) as loop-dim lists; the
 * number of loops, 0 if the op is not a contraction this pass handles. */
static intptr_t contractionMaps(MlirOperation op, intptr_t nOps,
                                intptr_t dims[][kMaxRank],
                                MlirAffineExpr exprs[][kMaxRank],
                                intptr_t *nres) {
  /* Named ops without the attribute get their default maps. */
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(op);
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirArrayAttrGetNumElements(maps) != nOps)
    return 0;
  intptr_t loops = -1;
  for (intptr_t i = 0; i < nOps; ++i) {
    MlirAttribute m = mlirArrayAttrGetElement(maps, i);
    if (!mlirAttributeIsAAffineMap(m))
      return 0;
    MlirAffineMap map = mlirAffineMapAttrGetValue(m);
    /* Only the inputs may read through compound indices. */
    if (mlirAffineMapGetNumSymbols(map) ||
        !kilnGpuMapDims(map, dims[i], exprs[i], i < nOps - 1, &nres[i]))
      return 0;
    loops = mlirAffineMapGetNumDims(map);
  }
  return loops > 0 && loops <= kMaxRank ? loops : 0;
}

static bool setOperand(Operand *x, MlirValue v, const intptr_t *dims,
                       const MlirAffineExpr *exprs, intptr_t n) {
  x->value = v;
  x->type = mlirValueGetType(v);
  x->rank = n;
  if (mlirShapedTypeGetRank(x->type) != n)
    return false;
  for (intptr_t i = 0; i < n; ++i) {
    x->loop[i] = dims[i];
    x->expr[i] = exprs[i];
  }
  return true;
}

static bool uses(const Operand *x, intptr_t loop) {
  for (intptr_t i = 0; i < x->rank; ++i)
    if (x->loop[i] == loop ||
        (x->loop[i] < 0 && mlirAffineExprIsFunctionOfDim(x->expr[i], loop)))
      return true;
  return false;
}

/* Orders group `role`'s loops as they appear in `x`, setting strides. */
static void orderGroup(Contraction *ct, char role, const Operand *x) {
  int64_t stride = 1;
  intptr_t first = -1;
  for (intptr_t i = x->rank - 1; i >= 0; --i) {
    intptr_t l = x->loop[i];
    if (l < 0 || ct->role[l] != role)
      continue;
    ct->stride[l] = stride;
    ct->outer[l] = false;
    stride *= ct->size[l];
    first = l;
  }
  if (first >= 0)
    ct->outer[first] = true;
  int64_t *total = role == kBatch ? &ct->batch
                   : role == kM   ? &ct->m
                   : role == kN   ? &ct->n
                                  : &ct->k;
  *total = stride;
}

static bool sideUses(const Side *s, intptr_t loop) {
  for (intptr_t i = 0; i < s->n; ++i)
    if (uses(&s->in[i], loop))
      return true;
  return false;
}

static int loopsRead(const Operand *x, intptr_t loops) {
  int n = 0;
  for (intptr_t l = 0; l < loops; ++l)
    n += uses(x, l);
  return n;
}

/* The factor `f` of the product and the inputs `args` (a bit per operand)
 * it is computed from, as a Side; its main input is the one reading the
 * most loops. */
static bool buildSide(Side *s, MlirOperation op, MlirBlock body, uint32_t args,
                      MlirValue f, intptr_t loops, intptr_t dims[][kMaxRank],
                      MlirAffineExpr exprs[][kMaxRank], const intptr_t *nres) {
  s->n = 0;
  for (intptr_t k = 0; k < 32; ++k) {
    if (!(args >> k & 1))
      continue;
    MlirValue v = mlirOperationGetOperand(op, k);
    if (s->n == kMaxSideIns || !staticMemRef(v) ||
        !setOperand(&s->in[s->n], v, dims[k], exprs[k], nres[k]))
      return false;
    s->operand[s->n++] = k;
  }
  intptr_t best = 0;
  for (intptr_t i = 1; i < s->n; ++i)
    if (loopsRead(&s->in[i], loops) > loopsRead(&s->in[best], loops))
      best = i;
  Operand mainIn = s->in[best];
  intptr_t mainOperand = s->operand[best];
  s->in[best] = s->in[0];
  s->operand[best] = s->operand[0];
  s->in[0] = mainIn;
  s->operand[0] = mainOperand;
  s->stored = f;
  if (mlirValueIsAOpResult(f) &&
      kilnOpNameIs(mlirOpResultGetOwner(f), "arith.extf")) {
    MlirValue t = mlirOperationGetOperand(mlirOpResultGetOwner(f), 0);
    if (isLowFloat(mlirValueGetType(t)))
      s->stored = t;
  }
  s->storedType = mlirValueGetType(s->stored);
  s->plain =
      mlirValueEqual(s->stored, mlirBlockGetArgument(body, s->operand[0]));
  return true;
}

/* Recognizes a contraction this pass tiles. */
static bool matchContraction(MlirOperation op, Contraction *out) {
  bool generic = kilnOpNameIs(op, "linalg.generic");
  if ((!generic && !kilnOpNameIs(op, "linalg.batch_matmul") &&
       !kilnOpNameIs(op, "linalg.matmul")) ||
      mlirOperationGetNumResults(op) || mlirOperationGetNumRegions(op) != 1)
    return false;
  intptr_t nIns = kilnGpuSingleOutputIns(op), nOps = nIns + 1;
  if (nIns < 2 || nIns > 2 * kMaxSideIns ||
      mlirOperationGetNumOperands(op) != nOps)
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirValue x, y;
  uint32_t argsX, argsY;
  if (mlirBlockIsNull(body) || !matchMulAdd(body, nIns, &x, &y, &argsX, &argsY))
    return false;
  intptr_t dims[2 * kMaxSideIns + 1][kMaxRank], nres[2 * kMaxSideIns + 1];
  MlirAffineExpr exprs[2 * kMaxSideIns + 1][kMaxRank] = {{{NULL}}};
  intptr_t loops = contractionMaps(op, nOps, dims, exprs, nres);
  MlirValue c = mlirOperationGetOperand(op, nIns);
  if (loops < 2 || !staticMemRef(c) ||
      !mlirTypeIsAF32(mlirShapedTypeGetElementType(mlirValueGetType(c))))
    return false;
  memset(out, 0, sizeof(*out));
  out->loops = loops;
  out->body = body;
  if (!setOperand(&out->c, c, dims[nIns], exprs[nIns], nres[nIns]) ||
      !buildSide(&out->sa, op, body, argsX, x, loops, dims, exprs, nres) ||
      !buildSide(&out->sb, op, body, argsY, y, loops, dims, exprs, nres))
    return false;
  /* A is the side indexed by C's innermost dim's loop only if B is not:
   * then C's rows come from A, its columns (stored by neighbouring
   * threads) from B. */
  if (nres[nIns] > 0) {
    intptr_t last = out->c.loop[nres[nIns] - 1];
    if (sideUses(&out->sa, last) && !sideUses(&out->sb, last)) {
      Side t = out->sa;
      out->sa = out->sb;
      out->sb = t;
    }
  }
  out->a = out->sa.in[0];
  out->b = out->sb.in[0];
  char kinds[kMaxRank];
  if (generic && !kilnLinalgIteratorKinds(op, kinds, loops))
    return false;
  for (intptr_t l = 0; l < loops; ++l) {
    bool inA = sideUses(&out->sa, l), inB = sideUses(&out->sb, l),
         inC = uses(&out->c, l);
    out->role[l] = inC && inA && inB    ? kBatch
                   : inC && inA         ? kM
                   : inC && inB         ? kN
                   : !inC && inA && inB ? kK
                                        : kNone;
    if (!out->role[l] || (generic && (kinds[l] == 'r') != (out->role[l] == kK)))
      return false;
    out->size[l] = -1;
  }
  const Operand *ops[2 * kMaxSideIns + 1] = {&out->c};
  int nOperands = 1;
  for (intptr_t i = 0; i < out->sa.n; ++i)
    ops[nOperands++] = &out->sa.in[i];
  for (intptr_t i = 0; i < out->sb.n; ++i)
    ops[nOperands++] = &out->sb.in[i];
  for (int o = 0; o < nOperands; ++o)
    for (intptr_t i = 0; i < ops[o]->rank; ++i) {
      int64_t d = mlirShapedTypeGetDimSize(ops[o]->type, i);
      intptr_t l = ops[o]->loop[i];
      if (l < 0)
        continue; /* a compound index: sized by the plain ones */
      if (out->size[l] >= 0 && out->size[l] != d)
        return false;
      out->size[l] = d;
    }
  orderGroup(out, kBatch, &out->c);
  orderGroup(out, kM, &out->c);
  orderGroup(out, kN, &out->c);
  orderGroup(out, kK, &out->a);
  /* Every loop sized and ordered in its group (a loop only read through
   * compound indices, or a K loop A reads that way, is not). */
  bool hasK = false;
  for (intptr_t l = 0; l < loops; ++l) {
    hasK = hasK || out->role[l] == kK;
    if (out->size[l] < 0 || out->stride[l] <= 0)
      return false;
  }
  return hasK && out->batch > 0 && out->m > 0 && out->n > 0 && out->k > 0;
}

/* The group of `x`'s contiguous dim if that dim's loop is its group's
 * innermost (stride 1), else kNone. */
static char fastRole(const Contraction *ct, const Operand *x) {
  if (x->rank == 0)
    return kNone;
  intptr_t l = x->loop[x->rank - 1];
  return l >= 0 && ct->stride[l] == 1 ? ct->role[l] : kNone;
}

//===----------------------------------------------------------------------===//
// The schedule template
//===----------------------------------------------------------------------===//

typedef KilnScheduleText Gen;

/* `%vN = arith.cmpi ult, %vA, M` and the conjunction with `cond` (-1 for
 * none); returns the new condition. */
static int andLess(Gen *g, int cond, int a, int64_t bound) {
  int b = kilnScheduleIndex(g, bound);
  int n = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf, "%%v%d = arith.cmpi ult, %%v%d, %%v%d : index\n", n,
                    a, b);
  if (cond < 0)
    return n;
  int m = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf, "%%v%d = arith.andi %%v%d, %%v%d : i1\n", m, cond,
                    n);
  return m;
}

static void appendType(Gen *g, MlirType t) { kilnStrBufAppendType(g->buf, t); }

/* Loop l's index, derived from its group's linear index (vb, vm, vn, vk
 * for the batch, m, n and k groups). */
static int loopIndex(Gen *g, const Contraction *ct, intptr_t l,
                     const int group[4]) {
  char r = ct->role[l];
  int v = group[r == kBatch ? 0 : r == kM ? 1 : r == kN ? 2 : 3];
  if (ct->stride[l] > 1)
    v = kilnScheduleBinopConst(g, "divui", v, ct->stride[l]);
  if (!ct->outer[l])
    v = kilnScheduleBinopConst(g, "remui", v, ct->size[l]);
  return v;
}

/* A compound index (isLinear) from the loops' indices. */
static int compoundIndex(Gen *g, const Contraction *ct, MlirAffineExpr e,
                         const int group[4]) {
  if (mlirAffineExprIsADim(e))
    return loopIndex(g, ct, mlirAffineDimExprGetPosition(e), group);
  if (mlirAffineExprIsAConstant(e))
    return kilnScheduleIndex(g, mlirAffineConstantExprGetValue(e));
  int l = compoundIndex(g, ct, mlirAffineBinaryOpExprGetLHS(e), group);
  int r = compoundIndex(g, ct, mlirAffineBinaryOpExprGetRHS(e), group);
  return kilnScheduleBinop(g, mlirAffineExprIsAAdd(e) ? "addi" : "muli", l, r);
}

/* The indices of `x`'s element, each derived from its group's linear
 * index (vb, vm, vn, vk); emits the index arithmetic. */
static void accessIndices(Gen *g, const Contraction *ct, const Operand *x,
                          int vb, int vm, int vn, int vk, int *idx) {
  int group[4] = {vb, vm, vn, vk};
  for (intptr_t i = 0; i < x->rank; ++i)
    idx[i] = x->loop[i] >= 0 ? loopIndex(g, ct, x->loop[i], group)
                             : compoundIndex(g, ct, x->expr[i], group);
}

/* `%NAME[indices] : TYPE`, each index derived from its group's linear
 * index (vb, vm, vn, vk); emits the index arithmetic first. */
static void appendAccess(Gen *g, const Contraction *ct, const char *prefix,
                         const char *name, const Operand *x, int vb, int vm,
                         int vn, int vk) {
  int idx[kMaxRank];
  accessIndices(g, ct, x, vb, vm, vn, vk, idx);
  kilnScheduleAppendIndexed(g, prefix, name, idx, x->rank, x->type);
}

typedef struct Ctx {
  const Contraction *ct;
  const Epilogue *epi;
  Tiles t;
  int64_t bm, bn, threads;
  bool nvvm;       /* with t.mma: the compute phase as nvvm.mma.sync */
  bool cpAsync;    /* unit copies as cp.async (sm_80 and up: mma=nvvm) */
  int cur;         /* SSA name of the shared buffer the compute phase reads */
  int64_t unit[2]; /* side A, B: elements per unit copy (0: staged loads) */
  bool ldm[2];     /* side A, B: fragments read by ldmatrix (x4) */
  int vb, m0, n0, c0, c1, cT; /* SSA names of the block's values */
} Ctx;

static void beginPhase(Gen *g, const Ctx *x, int *tid) {
  *tid = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf,
                    "scf.parallel (%%v%d) = (%%v%d) to (%%v%d) step (%%v%d) "
                    "{\n",
                    *tid, x->c0, x->cT, x->c1);
}

static void endPhase(Gen *g) { kilnStrBufAppendf(g->buf, "scf.reduce\n}\n"); }

/* The mma layout's warp tile: 16 mt rows (mt m16 tiles) by 8 nt columns
 * (nt n8 tiles); 8 warps, 4 down and 2 across the block tile. */
static int64_t warpTileM(const Tiles *t) { return 8 * t->r; }
static int64_t warpTileN(const Tiles *t) { return 4 * t->c; }

/* The first row and column of warp tid/32's tile. */
static void warpOrigin(Gen *g, const Tiles *t, int tid, int *wr, int *wc) {
  int w = kilnScheduleBinopConst(g, "divui", tid, 32);
  *wr = kilnScheduleBinopConst(
      g, "muli", kilnScheduleBinopConst(g, "remui", w, 4), warpTileM(t));
  *wc = kilnScheduleBinopConst(
      g, "muli", kilnScheduleBinopConst(g, "divui", w, 4), warpTileN(t));
}

/* The block-tile rows of thread `tid`'s accumulator rows (t.r of them)
 * and columns of its columns (t.c). Register tiles: rows t/TX + TY*i,
 * columns t%TX + TX*j. The mma layout: lane l holds, of each m16 x n8
 * tile of its warp's tile (PTX's m16n8 accumulator fragment), rows l/4
 * and l/4 + 8 and columns 2 (l % 4) + {0, 1}: row i is m16 tile i/2's
 * row l/4 + 8 (i%2), column j n8 tile j/2's column 2 (l%4) + j%2. */
static void threadRowsCols(Gen *g, const Ctx *x, int tid, int *rows,
                           int *cols) {
  const Tiles *t = &x->t;
  if (!t->mma) {
    int ty = kilnScheduleBinopConst(g, "divui", tid, t->tx);
    int tx = kilnScheduleBinopConst(g, "remui", tid, t->tx);
    for (int64_t i = 0; i < t->r; ++i)
      rows[i] = kilnScheduleBinopConst(g, "addi", ty, i * t->ty);
    for (int64_t j = 0; j < t->c; ++j)
      cols[j] = kilnScheduleBinopConst(g, "addi", tx, j * t->tx);
    return;
  }
  int lane = kilnScheduleBinopConst(g, "remui", tid, 32);
  int group = kilnScheduleBinopConst(g, "divui", lane, 4);
  int q = kilnScheduleBinopConst(g, "remui", lane, 4);
  int wr, wc;
  warpOrigin(g, t, tid, &wr, &wc);
  int r0 = kilnScheduleBinop(g, "addi", wr, group);
  for (int64_t i = 0; i < t->r; ++i)
    rows[i] = kilnScheduleBinopConst(g, "addi", r0, (i / 2) * 16 + (i % 2) * 8);
  int c0 =
      kilnScheduleBinop(g, "addi", wc, kilnScheduleBinopConst(g, "muli", q, 2));
  for (int64_t j = 0; j < t->c; ++j)
    cols[j] = kilnScheduleBinopConst(g, "addi", c0, (j / 2) * 8 + j % 2);
}

/* The output element (i, j) of thread `tid`: row and column in C. */
static void threadElement(Gen *g, const Ctx *x, int tid, int64_t i, int64_t j,
                          int *row, int *col) {
  int rows[16], cols[16];
  threadRowsCols(g, x, tid, rows, cols);
  *row = kilnScheduleBinop(g, "addi", x->m0, rows[i]);
  *col = kilnScheduleBinop(g, "addi", x->n0, cols[j]);
}

/* Guard of output element (row, col): -1 when always inside C. */
static int outputGuard(Gen *g, const Ctx *x, int row, int col) {
  int cond = -1;
  if (x->ct->m % x->bm)
    cond = andLess(g, cond, row, x->ct->m);
  if (x->ct->n % x->bn)
    cond = andLess(g, cond, col, x->ct->n);
  return cond;
}

/* The template's zero of float type `t` (f32, f16 or bf16). */
static const char *zeroOf(MlirType t) {
  return mlirTypeIsAF16(t)    ? "zero_f16"
         : mlirTypeIsABF16(t) ? "zero_bf16"
                              : "zero";
}

static const char *typeName(MlirType t) {
  return mlirTypeIsAF16(t) ? "f16" : mlirTypeIsABF16(t) ? "bf16" : "f32";
}

/* `%vN = %NAME[...]` of `op`'s element at the groups' linear indices
 * (vm, vn, vk; the block's batch), or 0 where condition `cond` (-1: none)
 * is false; returns N. */
static int guardedLoad(Gen *g, const Ctx *x, int cond, const char *name,
                       const Operand *op, int vm, int vn, int vk) {
  MlirType t = mlirShapedTypeGetElementType(op->type);
  int v = kilnScheduleFresh(g);
  char prefix[96];
  if (cond >= 0)
    snprintf(prefix, sizeof(prefix),
             "%%v%d = scf.if %%v%d -> (%s) {\n%%l%d = memref.load ", v, cond,
             typeName(t), v);
  else
    snprintf(prefix, sizeof(prefix), "%%v%d = memref.load ", v);
  appendAccess(g, x->ct, prefix, name, op, x->vb, vm, vn, vk);
  if (cond >= 0)
    kilnStrBufAppendf(g->buf,
                      "scf.yield %%l%d : %s\n} else {\n"
                      "scf.yield %%%s : %s\n}\n",
                      v, typeName(t), zeroOf(t), typeName(t));
  return v;
}

/* The value side `s` (`letter` A or B) contributes to the tile at the
 * groups' linear indices: its main input's element, or its factor
 * computed from each input's element (a call of @kiln_side_A/B, whose body
 * slice tileOp copies in); 0 where `cond` (-1: none) is false. */
static int sideLoad(Gen *g, const Ctx *x, int cond, const Side *s, char letter,
                    int vm, int vn, int vk) {
  char name[8];
  if (s->plain) {
    snprintf(name, sizeof(name), "%c0", letter);
    return guardedLoad(g, x, cond, name, &s->in[0], vm, vn, vk);
  }
  const char *type = typeName(s->storedType);
  int v = kilnScheduleFresh(g);
  if (cond >= 0)
    kilnStrBufAppendf(g->buf, "%%v%d = scf.if %%v%d -> (%s) {\n", v, cond,
                      type);
  int loads[kMaxSideIns];
  for (intptr_t i = 0; i < s->n; ++i) {
    char prefix[48];
    loads[i] = kilnScheduleFresh(g);
    snprintf(prefix, sizeof(prefix), "%%v%d = memref.load ", loads[i]);
    snprintf(name, sizeof(name), "%c%d", letter, (int)i);
    appendAccess(g, x->ct, prefix, name, &s->in[i], x->vb, vm, vn, vk);
  }
  int r = cond >= 0 ? kilnScheduleFresh(g) : v;
  kilnStrBufAppendf(g->buf, "%%v%d = func.call @kiln_side_%c(", r, letter);
  for (intptr_t i = 0; i < s->n; ++i)
    kilnStrBufAppendf(g->buf, "%s%%v%d", i ? ", " : "", loads[i]);
  kilnStrBufAppend(g->buf, ") : (", 5);
  for (intptr_t i = 0; i < s->n; ++i) {
    if (i)
      kilnStrBufAppend(g->buf, ", ", 2);
    appendType(g, mlirShapedTypeGetElementType(s->in[i].type));
  }
  kilnStrBufAppendf(g->buf, ") -> %s\n", type);
  if (cond >= 0)
    kilnStrBufAppendf(g->buf,
                      "scf.yield %%v%d : %s\n} else {\n"
                      "scf.yield %%%s : %s\n}\n",
                      r, type, zeroOf(s->storedType), type);
  return v;
}

/* acc[t] = the fill value, or C's elements (0 outside C). */
static void genInitPhase(Gen *g, const Ctx *x, bool fromC) {
  int tid;
  beginPhase(g, x, &tid);
  for (int64_t i = 0; i < x->t.r; ++i)
    for (int64_t j = 0; j < x->t.c; ++j) {
      int ci = kilnScheduleIndex(g, i), cj = kilnScheduleIndex(g, j), v = -1;
      if (fromC) {
        int row, col;
        threadElement(g, x, tid, i, j, &row, &col);
        int cond = outputGuard(g, x, row, col);
        v = guardedLoad(g, x, cond, "C", &x->ct->c, row, col, -1);
      }
      if (fromC)
        kilnStrBufAppendf(g->buf, "memref.store %%v%d, ", v);
      else
        kilnStrBufAppendf(g->buf, "memref.store %%init, ");
      kilnStrBufAppendf(g->buf,
                        "%%acc[%%v%d, %%v%d, %%v%d] : "
                        "memref<%lldx%lldx%lldxf32>\n",
                        tid, ci, cj, (long long)x->threads, (long long)x->t.r,
                        (long long)x->t.c);
    }
  endPhase(g);
}

/* Where element `e` of a rows x cols tile (linear along its fast dim, of
 * `width`) lies: its tile row and K (ri, ki), the operand's row and K
 * (gr, gk), and the condition that it is inside the operand (-1: always). */
typedef struct TilePos {
  int ri, ki, gr, gk, cond;
} TilePos;

static TilePos tilePos(Gen *g, const Ctx *x, int e, bool rowFast, int64_t width,
                       int rowBase, int64_t rows, int64_t rowSize, int k0) {
  TilePos p;
  int fastIdx = kilnScheduleBinopConst(g, "remui", e, width);
  int slowIdx = kilnScheduleBinopConst(g, "divui", e, width);
  p.ri = rowFast ? fastIdx : slowIdx;
  p.ki = rowFast ? slowIdx : fastIdx;
  p.gr = kilnScheduleBinop(g, "addi", rowBase, p.ri);
  p.gk = kilnScheduleBinop(g, "addi", k0, p.ki);
  p.cond = -1;
  if (rowSize % rows)
    p.cond = andLess(g, p.cond, p.gr, rowSize);
  if (x->ct->k % x->t.bk)
    p.cond = andLess(g, p.cond, p.gk, x->ct->k);
  return p;
}

/* One thread's share of a tile: the values it loaded and where they go. */
typedef struct TileLoads {
  int n;
  int v[16], ri[16], ki[16]; /* value, tile row (of its role) and K */
  int in[16];                /* -1, or the condition of a partial share */
  bool isA;
} TileLoads;

/* The thread's share of one operand's tile (rows x cols of roles rowRole,
 * K) at K offset `k0`: elements spread over the threads along the
 * operand's contiguous dim, zero outside the operand. Loads only: the
 * stores (genTileStores) come after the compute phase's work, so the
 * loads' latency overlaps it. */
static void genTileLoads(Gen *g, const Ctx *x, int tid, int k0,
                         const Side *side, char letter, char rowRole,
                         int64_t rows, int64_t cols, int rowBase,
                         int64_t rowSize, TileLoads *out) {
  char fast = fastRole(x->ct, &side->in[0]);
  bool rowFast = fast == rowRole;
  int64_t total = rows * cols;
  int64_t per = (total + x->threads - 1) / x->threads;
  const char *type = typeName(side->storedType);
  out->n = 0;
  out->isA = rowRole == kM;
  for (int64_t r = 0; r < per && r < 16; ++r) {
    int e = kilnScheduleBinopConst(g, "addi", tid, r * x->threads);
    int in = -1, v = -1;
    if ((r + 1) * x->threads > total) {
      in = andLess(g, -1, e, total);
      v = kilnScheduleFresh(g);
      kilnStrBufAppendf(g->buf, "%%v%d = scf.if %%v%d -> (%s) {\n", v, in,
                        type);
    }
    int64_t width = rowFast ? rows : cols;
    TilePos at = tilePos(g, x, e, rowFast, width, rowBase, rows, rowSize, k0);
    int ri = at.ri, ki = at.ki;
    int l = sideLoad(g, x, at.cond, side, letter, out->isA ? at.gr : -1,
                     out->isA ? -1 : at.gr, at.gk);
    if (in >= 0)
      kilnStrBufAppendf(g->buf,
                        "scf.yield %%v%d : %s\n} else {\n"
                        "scf.yield %%%s : %s\n}\n",
                        l, type, zeroOf(side->storedType), type);
    else
      v = l;
    /* The tile's indices are recomputed at the store (outside any if). */
    if (in >= 0) {
      ri = kilnScheduleFresh(g);
      ki = kilnScheduleFresh(g);
      kilnStrBufAppendf(g->buf,
                        "%%v%d = arith.remui %%v%d, %%v%d : index\n"
                        "%%v%d = arith.divui %%v%d, %%v%d : index\n",
                        rowFast ? ri : ki, e, kilnScheduleIndex(g, width),
                        rowFast ? ki : ri, e, kilnScheduleIndex(g, width));
    }
    out->v[out->n] = v;
    out->ri[out->n] = ri;
    out->ki[out->n] = ki;
    out->in[out->n++] = in;
  }
}

/* Stores a thread's share (genTileLoads) into buffer `buf` of the shared
 * tile `tile` (As is [buffer][m][k], Bs is [buffer][k][n]). */
static void genTileStores(Gen *g, const TileLoads *l, const char *tile, int buf,
                          const char *tileType) {
  for (int i = 0; i < l->n; ++i) {
    if (l->in[i] >= 0)
      kilnStrBufAppendf(g->buf, "scf.if %%v%d {\n", l->in[i]);
    kilnStrBufAppendf(g->buf,
                      "memref.store %%v%d, %%%s[%%v%d, %%v%d, %%v%d] : %s\n",
                      l->v[i], tile, buf, l->isA ? l->ri[i] : l->ki[i],
                      l->isA ? l->ki[i] : l->ri[i], tileType);
    if (l->in[i] >= 0)
      kilnStrBufAppendf(g->buf, "}\n");
  }
}

/* The elements of `in` (an identity layout) that follow each other in
 * memory as its fast role's group index counts up: its trailing dims
 * while each is, whole, the next inner loop of that group. A conv's
 * weights [f, c, kh, kw] as the K group (c, kh, kw): c * kh * kw. */
static int64_t contiguousRun(const Contraction *ct, const Operand *in) {
  char role = fastRole(ct, in);
  int64_t run = 1;
  for (intptr_t i = in->rank - 1; i >= 0; --i) {
    intptr_t l = in->loop[i];
    if (l < 0 || ct->role[l] != role || ct->stride[l] != run ||
        mlirShapedTypeGetDimSize(in->type, i) != ct->size[l])
      break;
    run *= ct->size[l];
  }
  return run;
}

/* The elements side `s` (A: tiles [m][k], else B: [k][n]; rows x cols,
 * shared rows `pitch` elements apart) is copied in, 0 where it is loaded
 * through registers. It can be copied in units of 16, 8 or 4 bytes (the
 * sizes of cp.async, the largest that fits) along the tile's last dim
 * when it is a plain input read at plain indices, of an identity layout
 * whose fast dim runs along the tile's last dim, with a whole number of
 * units per thread and units that never straddle a tile row, a bound or a
 * break in memory: the last dim, or the contiguous run of trailing dims
 * (contiguousRun: a conv's weights), a multiple of the unit. Each unit
 * then starts at a multiple of its size in the operand (its buffers are
 * at least 16-byte aligned) and in shared memory. */
static int64_t copyUnitOf(const Contraction *ct, const Side *s, bool isA,
                          int64_t rows, int64_t cols, int64_t pitch,
                          int64_t threads) {
  const Operand *in = &s->in[0];
  if (!s->plain || in->rank < 1 || fastRole(ct, in) != (isA ? kK : kN))
    return 0;
  for (intptr_t i = 0; i < in->rank; ++i)
    if (in->loop[i] < 0)
      return 0;
  if (!mlirAffineMapIsIdentity(mlirMemRefTypeGetAffineMap(in->type)))
    return 0;
  int64_t bytes = isLowFloat(s->storedType) ? 2 : 4;
  int64_t last = mlirShapedTypeGetDimSize(in->type, in->rank - 1);
  int64_t run = contiguousRun(ct, in);
  for (int64_t unit = 16 / bytes; unit * bytes >= 4; unit /= 2) {
    int64_t units = rows * cols / unit;
    if (cols % unit == 0 && pitch % unit == 0 && units >= threads &&
        units % threads == 0 && (last % unit == 0 || run % unit == 0))
      return unit;
  }
  return 0;
}

/* The thread's units of one operand's tile (copyUnitOf) at K offset `k0`
 * into buffer `buf` of `tile`: with cp.async, nvgpu.device_async_copy of
 * the unit (0 read, zero-filled, outside the operand: its indices then
 * clamped to 0), their tokens appended to `tokens`; otherwise the same
 * indices as loads and stores (zeros outside), which the CPU runs. */
static void genUnitCopies(Gen *g, const Ctx *x, int tid, int k0,
                          const Side *side, char rowRole, int64_t rows,
                          int64_t cols, int rowBase, int64_t rowSize,
                          const char *tile, int buf, const char *tileType,
                          int *tokens, int *nTokens) {
  const Operand *in = &side->in[0];
  bool rowFast = fastRole(x->ct, in) == rowRole, isA = rowRole == kM;
  int64_t width = rowFast ? rows : cols;
  int64_t unit = x->unit[isA ? 0 : 1];
  int64_t per = rows * cols / unit / x->threads;
  char name[4] = {isA ? 'A' : 'B', '0', 0};
  for (int64_t r = 0; r < per; ++r) {
    int e = kilnScheduleBinopConst(
        g, "muli", kilnScheduleBinopConst(g, "addi", tid, r * x->threads),
        unit);
    TilePos at = tilePos(g, x, e, rowFast, width, rowBase, rows, rowSize, k0);
    int gr = at.gr, gk = at.gk, cond = at.cond;
    int di = isA ? at.ri : at.ki, dj = isA ? at.ki : at.ri;
    if (x->cpAsync) {
      int n = kilnScheduleIndex(g, unit);
      if (cond >= 0) {
        int sel[3] = {kilnScheduleFresh(g), kilnScheduleFresh(g),
                      kilnScheduleFresh(g)};
        kilnStrBufAppendf(g->buf,
                          "%%v%d = arith.select %%v%d, %%v%d, %%v%d : index\n"
                          "%%v%d = arith.select %%v%d, %%v%d, %%v%d : index\n"
                          "%%v%d = arith.select %%v%d, %%v%d, %%v%d : index\n",
                          sel[0], cond, n, x->c0, sel[1], cond, gr, x->c0,
                          sel[2], cond, gk, x->c0);
        n = sel[0], gr = sel[1], gk = sel[2];
      }
      int idx[kMaxRank];
      accessIndices(g, x->ct, in, x->vb, isA ? gr : -1, isA ? -1 : gr, gk, idx);
      int tok = kilnScheduleFresh(g);
      kilnStrBufAppendf(g->buf, "%%v%d = nvgpu.device_async_copy %%%s[", tok,
                        name);
      for (intptr_t i = 0; i < in->rank; ++i)
        kilnStrBufAppendf(g->buf, "%s%%v%d", i ? ", " : "", idx[i]);
      kilnStrBufAppendf(g->buf,
                        "], %%%s[%%v%d, %%v%d, %%v%d], %lld, %%v%d : ", tile,
                        buf, di, dj, (long long)unit, n);
      appendType(g, in->type);
      kilnStrBufAppendf(g->buf, " to %s\n", tileType);
      tokens[(*nTokens)++] = tok;
      continue;
    }
    if (cond >= 0)
      kilnStrBufAppendf(g->buf, "scf.if %%v%d {\n", cond);
    int v[8];
    for (int h = 0; h < unit; ++h) {
      /* The unit's next element: the next in its group (across a dim of
       * a contiguous run: a conv's kw, then kh). */
      int fast = isA ? gk : gr;
      if (h)
        fast = kilnScheduleBinopConst(g, "addi", fast, h);
      int idx[kMaxRank];
      accessIndices(g, x->ct, in, x->vb, isA ? gr : -1, isA ? -1 : fast,
                    isA ? fast : gk, idx);
      char prefix[32];
      v[h] = kilnScheduleFresh(g);
      snprintf(prefix, sizeof(prefix), "%%v%d = memref.load ", v[h]);
      kilnScheduleAppendIndexed(g, prefix, name, idx, in->rank, in->type);
    }
    for (int pass = 0; pass < (cond >= 0 ? 2 : 1); ++pass) {
      if (pass)
        kilnStrBufAppend(g->buf, "} else {\n", 9);
      for (int h = 0; h < unit; ++h) {
        int j = h ? kilnScheduleBinopConst(g, "addi", dj, h) : dj;
        if (pass)
          kilnStrBufAppendf(g->buf, "memref.store %%%s, ",
                            zeroOf(side->storedType));
        else
          kilnStrBufAppendf(g->buf, "memref.store %%v%d, ", v[h]);
        kilnStrBufAppendf(g->buf, "%%%s[%%v%d, %%v%d, %%v%d] : %s\n", tile, buf,
                          di, j, tileType);
      }
    }
    if (cond >= 0)
      kilnStrBufAppend(g->buf, "}\n", 2);
  }
}

/* Waits for the thread's copies `tokens` (one group). */
static void genCopiesWait(Gen *g, const int *tokens, int n) {
  if (!n)
    return;
  int group = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf, "%%v%d = nvgpu.device_async_create_group ", group);
  for (int i = 0; i < n; ++i)
    kilnStrBufAppendf(g->buf, "%s%%v%d", i ? ", " : "", tokens[i]);
  kilnStrBufAppendf(g->buf, "\nnvgpu.device_async_wait %%v%d\n", group);
}

/* Element [i, j] of shared tile `tile` (of `tileType`, elements `elt`) as
 * f32. */
static int tileElement(Gen *g, const Ctx *x, const char *tile, int i, int j,
                       const char *tileType, MlirType elt) {
  int v = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf,
                    "%%v%d = memref.load %%%s[%%v%d, %%v%d, %%v%d] : %s\n", v,
                    tile, x->cur, i, j, tileType);
  if (!isLowFloat(elt))
    return v;
  int w = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf, "%%v%d = arith.extf %%v%d : %s to f32\n", w, v,
                    typeName(elt));
  return w;
}

static void genComputeBody(Gen *g, const Ctx *x, int tid, const char *asType,
                           const char *bsType) {
  const Tiles *t = &x->t;
  int64_t rc = t->r * t->c;
  int rows[16], cols[16], init[256];
  threadRowsCols(g, x, tid, rows, cols);
  for (int64_t i = 0; i < t->r; ++i)
    for (int64_t j = 0; j < t->c; ++j) {
      int ci = kilnScheduleIndex(g, i), cj = kilnScheduleIndex(g, j);
      init[i * t->c + j] = kilnScheduleFresh(g);
      kilnStrBufAppendf(g->buf,
                        "%%v%d = memref.load %%acc[%%v%d, %%v%d, %%v%d] : "
                        "memref<%lldx%lldx%lldxf32>\n",
                        init[i * t->c + j], tid, ci, cj, (long long)x->threads,
                        (long long)t->r, (long long)t->c);
    }
  int cbk = kilnScheduleIndex(g, t->bk);
  int res = kilnScheduleFresh(g), kk = kilnScheduleFresh(g),
      iter = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf,
                    "%%v%d:%lld = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
                    "iter_args(",
                    res, (long long)rc, kk, x->c0, cbk, x->c1);
  for (int64_t s = 0; s < rc; ++s)
    kilnStrBufAppendf(g->buf, "%s%%s%d_%lld = %%v%d", s ? ", " : "", iter,
                      (long long)s, init[s]);
  kilnStrBufAppend(g->buf, ") -> (", 6);
  for (int64_t s = 0; s < rc; ++s)
    kilnStrBufAppendf(g->buf, "%sf32", s ? ", " : "");
  kilnStrBufAppend(g->buf, ") {\n", 4);
  int av[16], bv[16];
  for (int64_t i = 0; i < t->r; ++i)
    av[i] = tileElement(g, x, "As", rows[i], kk, asType, x->ct->sa.storedType);
  for (int64_t j = 0; j < t->c; ++j)
    bv[j] = tileElement(g, x, "Bs", kk, cols[j], bsType, x->ct->sb.storedType);
  int sums[256];
  for (int64_t i = 0; i < t->r; ++i)
    for (int64_t j = 0; j < t->c; ++j) {
      int p = kilnScheduleFresh(g), s = kilnScheduleFresh(g);
      kilnStrBufAppendf(g->buf,
                        "%%v%d = arith.mulf %%v%d, %%v%d : f32\n"
                        "%%v%d = arith.addf %%s%d_%lld, %%v%d : f32\n",
                        p, av[i], bv[j], s, iter, (long long)(i * t->c + j), p);
      sums[i * t->c + j] = s;
    }
  kilnStrBufAppend(g->buf, "scf.yield ", 10);
  for (int64_t s = 0; s < rc; ++s)
    kilnStrBufAppendf(g->buf, "%s%%v%d", s ? ", " : "", sums[s]);
  kilnStrBufAppend(g->buf, " : ", 3);
  for (int64_t s = 0; s < rc; ++s)
    kilnStrBufAppendf(g->buf, "%sf32", s ? ", " : "");
  kilnStrBufAppend(g->buf, "\n}\n", 3);
  for (int64_t i = 0; i < t->r; ++i)
    for (int64_t j = 0; j < t->c; ++j) {
      int ci = kilnScheduleIndex(g, i), cj = kilnScheduleIndex(g, j);
      kilnStrBufAppendf(g->buf,
                        "memref.store %%v%d#%lld, %%acc[%%v%d, %%v%d, %%v%d] : "
                        "memref<%lldx%lldx%lldxf32>\n",
                        res, (long long)(i * t->c + j), tid, ci, cj,
                        (long long)x->threads, (long long)t->r,
                        (long long)t->c);
    }
}

/* One 32-bit mma.sync operand register from shared tile `tile`: elements
 * [i0, j0] and [i1, j1] of a 16-bit tile packed (the first in the low
 * half), or element [i0, j0] of an f32 tile (i1 < 0) as its bits (TF32
 * reads the top 19). An i32, or for f16 in nvvm form vector<2xf16>. */
static int mmaRegister(Gen *g, const Ctx *x, const char *tile,
                       const char *tileType, MlirType elt, int i0, int j0,
                       int i1, int j1) {
  int v0 = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf,
                    "%%v%d = memref.load %%%s[%%v%d, %%v%d, %%v%d] : %s\n", v0,
                    tile, x->cur, i0, j0, tileType);
  int r = kilnScheduleFresh(g);
  if (i1 < 0) {
    kilnStrBufAppendf(g->buf, "%%v%d = arith.bitcast %%v%d : f32 to i32\n", r,
                      v0);
    return r;
  }
  int v1 = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf,
                    "%%v%d = memref.load %%%s[%%v%d, %%v%d, %%v%d] : %s\n", v1,
                    tile, x->cur, i1, j1, tileType);
  const char *t = typeName(elt);
  kilnStrBufAppendf(g->buf,
                    "%%p%d_0 = arith.bitcast %%v%d : %s to i16\n"
                    "%%p%d_1 = arith.bitcast %%v%d : %s to i16\n"
                    "%%p%d_2 = arith.extui %%p%d_0 : i16 to i32\n"
                    "%%p%d_3 = arith.extui %%p%d_1 : i16 to i32\n"
                    "%%p%d_4 = arith.shli %%p%d_3, %%i16 : i32\n"
                    "%%v%d = arith.ori %%p%d_2, %%p%d_4 : i32\n",
                    r, v0, t, r, v1, t, r, r, r, r, r, r, r, r, r);
  if (!x->nvvm || !mlirTypeIsAF16(elt))
    return r;
  int h = kilnScheduleFresh(g);
  kilnStrBufAppendf(
      g->buf, "%%v%d = llvm.bitcast %%v%d : i32 to vector<2xf16>\n", h, r);
  return h;
}

/* A thread's place in its warp's mma.sync fragments. */
enum { kMaxMt = 2, kMaxNt = 8 }; /* m16 and n8 tiles of a warp's tile */

typedef struct Lane {
  int rows[16], cols[16]; /* its accumulators' block-tile rows, columns */
  int lane, group, q, kq; /* l, l/4, l%4, and its first K: 2 (l%4) or l%4 */
  int ncol[kMaxNt];       /* B's column in each n8 tile */
  int wr, wc;             /* the warp tile's first row and column */
  int warpBase;           /* the thread of lane 0 */
  int lo16, hi16;         /* l%16, l/16 */
  bool tf32;              /* f32 tiles (m16n8k8) or 16-bit (m16n8k16) */
  int64_t kstep;
  int64_t mt, nt; /* the warp tile's m16 and n8 tiles */
  int64_t regs;   /* operand registers per K step: 4 mt + 2 nt */
  int64_t slots;  /* ldmatrix per K step: mt (A), nt / 2 (B pairs) */
} Lane;

/* One K step's operand registers: A's four per m16 tile, B's two per n8
 * tile. */
typedef struct Frags {
  int a[kMaxMt][4];
  int b[kMaxNt][2];
} Frags;

static void laneOf(Gen *g, const Ctx *x, int tid, Lane *l) {
  l->tf32 = !isLowFloat(x->ct->sa.storedType);
  l->kstep = l->tf32 ? 8 : 16;
  l->mt = x->t.r / 2;
  l->nt = x->t.c / 2;
  l->regs = 4 * l->mt + 2 * l->nt;
  l->slots = l->mt + l->nt / 2;
  threadRowsCols(g, x, tid, l->rows, l->cols);
  l->lane = kilnScheduleBinopConst(g, "remui", tid, 32);
  l->group = kilnScheduleBinopConst(g, "divui", l->lane, 4);
  l->q = kilnScheduleBinopConst(g, "remui", l->lane, 4);
  int q2 = kilnScheduleBinopConst(g, "muli", l->q, 2);
  l->kq = l->tf32 ? l->q : q2;
  warpOrigin(g, &x->t, tid, &l->wr, &l->wc);
  l->warpBase = kilnScheduleBinop(g, "subi", tid, l->lane);
  l->lo16 = kilnScheduleBinopConst(g, "remui", l->lane, 16);
  l->hi16 = kilnScheduleBinopConst(g, "divui", l->lane, 16);
  /* The tile's first column (the thread's first accumulator column there,
   * less 2 (l%4)) plus l/4. */
  for (int64_t n = 0; n < l->nt; ++n)
    l->ncol[n] = kilnScheduleBinop(
        g, "addi", kilnScheduleBinop(g, "subi", l->cols[2 * n], q2), l->group);
}

/* ldmatrix (x4) reads four 8 x 8 matrices of 16-bit elements from shared
 * memory, each of 8 rows of 16 bytes, one row address per lane: lanes
 * 8i .. 8i + 7 give rows 0 .. 7 of matrix i. Lane l receives register i
 * of each: elements 2 (l%4), + 1 of matrix i's row l/4 (an f32 tile's rows
 * are 4 elements: element l%4), or with .trans elements l/4 of its rows
 * 2 (l%4) and + 1. Those are mma.sync's fragments when the lanes give:
 * A's m16 tile i (row-major): rows wr + 16 i + l%16, K ks + 8 (l/16)
 * (f32: + 4 (l/16)), so matrices rows 0-7, 8-15 at K 0, then at K 8:
 * a[i][0..3]; B pair p (16-bit, .trans): K ks + l%16, columns wc + 16p +
 * 8 (l/16), so K 0-7, 8-15 of n8 tile 2p, then 2p + 1: b[2p][0..1],
 * b[2p + 1][0..1]. `slot`: l->slots per K step, A's m16 tiles then B's
 * pairs. */
static void ldmatrixAddress(Gen *g, const Lane *l, int64_t ks, int slot,
                            int *row, int *col) {
  int64_t which = slot % l->slots;
  if (which < l->mt) {
    *row = kilnScheduleBinop(
        g, "addi", kilnScheduleBinopConst(g, "addi", l->wr, 16 * which),
        l->lo16);
    *col = kilnScheduleBinopConst(
        g, "addi", kilnScheduleBinopConst(g, "muli", l->hi16, l->kstep / 2),
        ks);
    return;
  }
  *row = kilnScheduleBinopConst(g, "addi", l->lo16, ks);
  int n = kilnScheduleBinopConst(g, "muli", l->hi16, 8);
  *col = kilnScheduleBinop(
      g, "addi", kilnScheduleBinopConst(g, "addi", l->wc, 16 * (which - l->mt)),
      n);
}

/* Register `i` of lane l's x4 ldmatrix at `slot`, formed as the hardware
 * forms it from the row addresses the warp's lanes stored to %ldaddr
 * (genLdmatrixAddresses): gpu-on-cpu's check of ldmatrixAddress, written
 * from ldmatrix's definition rather than from the fragments. */
static int emulatedLdmatrix(Gen *g, const Ctx *x, const Lane *l,
                            const char *tile, const char *tileType,
                            MlirType elt, int slot, int i, bool trans) {
  int src[2], row[2], col[2];
  int base = kilnScheduleBinopConst(g, "addi", l->warpBase, 8 * i);
  if (trans) {
    src[0] = kilnScheduleBinop(g, "addi", base,
                               kilnScheduleBinopConst(g, "muli", l->q, 2));
    src[1] = kilnScheduleBinopConst(g, "addi", src[0], 1);
  } else {
    src[0] = src[1] = kilnScheduleBinop(g, "addi", base, l->group);
  }
  int cs = kilnScheduleIndex(g, slot);
  int at[2][2]; /* the row address (row, column) of each source lane */
  for (int h = 0; h < 2; ++h)
    for (int d = 0; d < 2; ++d) {
      if (h && !trans) {
        at[1][d] = at[0][d];
        continue;
      }
      at[h][d] = kilnScheduleFresh(g);
      kilnStrBufAppendf(g->buf,
                        "%%v%d = memref.load %%ldaddr[%%v%d, %%v%d, %%v%d] : "
                        "memref<%lldx%lldx2xindex>\n",
                        at[h][d], src[h], cs, kilnScheduleIndex(g, d),
                        (long long)x->threads,
                        (long long)(l->slots * (x->t.bk / l->kstep)));
    }
  for (int h = 0; h < 2; ++h) {
    row[h] = at[h][0];
    /* .trans: element l/4 of the row; else elements 2 (l%4) + h (16-bit)
     * or l%4 (f32) of it. */
    int off =
        trans ? l->group
        : isLowFloat(elt)
            ? kilnScheduleBinopConst(
                  g, "addi", kilnScheduleBinopConst(g, "muli", l->q, 2), h)
            : l->q;
    col[h] = kilnScheduleBinop(g, "addi", at[h][1], off);
  }
  bool single = !isLowFloat(elt);
  return mmaRegister(g, x, tile, tileType, elt, row[0], col[0],
                     single ? -1 : row[1], col[1]);
}

/* The four registers of lane l's x4 ldmatrix at `slot` (K step ks):
 * nvgpu.ldmatrix with nvvm, else its emulation. */
static void ldmatrix(Gen *g, const Ctx *x, const Lane *l, const char *tile,
                     const char *tileType, int64_t ks, int slot, bool trans,
                     int regs[4]) {
  MlirType elt = x->ct->sa.storedType;
  if (!x->nvvm) {
    for (int i = 0; i < 4; ++i)
      regs[i] = emulatedLdmatrix(g, x, l, tile, tileType, elt, slot, i, trans);
    return;
  }
  int row, col;
  ldmatrixAddress(g, l, ks, slot, &row, &col);
  bool wide = !isLowFloat(elt);
  const char *t = typeName(elt);
  int v = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf,
                    "%%v%d = nvgpu.ldmatrix %%%s[%%v%d, %%v%d, %%v%d] "
                    "{numTiles = 4 : i32, transpose = %s} : %s -> "
                    "vector<4x%dx%s>\n",
                    v, tile, x->cur, row, col, trans ? "true" : "false",
                    tileType, wide ? 1 : 2, t);
  for (int i = 0; i < 4; ++i) {
    int e = kilnScheduleFresh(g);
    regs[i] = mlirTypeIsAF16(elt) ? e : kilnScheduleFresh(g);
    if (wide)
      kilnStrBufAppendf(g->buf,
                        "%%v%d = vector.extract %%v%d[%d, 0] : f32 from "
                        "vector<4x1xf32>\n"
                        "%%v%d = arith.bitcast %%v%d : f32 to i32\n",
                        e, v, i, regs[i], e);
    else if (mlirTypeIsAF16(elt))
      kilnStrBufAppendf(g->buf,
                        "%%v%d = vector.extract %%v%d[%d] : vector<2xf16> from "
                        "vector<4x2xf16>\n",
                        e, v, i);
    else
      kilnStrBufAppendf(g->buf,
                        "%%v%d = vector.extract %%v%d[%d] : vector<2x%s> from "
                        "vector<4x2x%s>\n"
                        "%%v%d = llvm.bitcast %%v%d : vector<2x%s> to i32\n",
                        e, v, i, t, t, regs[i], e, t);
  }
}

/* The thread's operand registers for K step `ks` of the tiles in PTX's
 * fragment layouts: A (row-major) a[i][0..3] at rows l/4 and l/4 + 8 of
 * m16 tile i, K 2 (l%4) + {0, 1} and + 8 (tf32: K l%4 and + 4); B
 * (column-major) b[n][0..1] at K 2 (l%4) + {0, 1} and + 8 (tf32: l%4,
 * + 4), column l/4 of n8 tile n. By ldmatrix where x->ldm holds (B's tf32
 * tile cannot: .trans moves 16-bit elements), else element by element. */
static void gatherFragments(Gen *g, const Ctx *x, const Lane *l,
                            const char *asType, const char *bsType, int64_t ks,
                            Frags *f) {
  MlirType elt = x->ct->sa.storedType;
  int slot = (int)(l->slots * (ks / l->kstep));
  int k0 = -1, k1 = -1, kh = -1, kh1 = -1;
  if (!x->ldm[0] || !x->ldm[1]) {
    k0 = kilnScheduleBinopConst(g, "addi", l->kq, ks);
    k1 = kilnScheduleBinopConst(g, "addi", k0, 1);
    kh = kilnScheduleBinopConst(g, "addi", k0, l->tf32 ? 4 : 8);
    kh1 = kilnScheduleBinopConst(g, "addi", kh, 1);
  }
  bool single = l->tf32; /* one element per register */
  for (int64_t i = 0; i < l->mt; ++i) {
    if (x->ldm[0]) {
      ldmatrix(g, x, l, "As", asType, ks, slot + (int)i, false, f->a[i]);
      continue;
    }
    for (int r = 0; r < 4; ++r) {
      int row = l->rows[2 * i + r % 2], k = r < 2 ? k0 : kh,
          kn = r < 2 ? k1 : kh1;
      f->a[i][r] =
          mmaRegister(g, x, "As", asType, elt, row, k, single ? -1 : row, kn);
    }
  }
  if (x->ldm[1]) {
    for (int64_t p = 0; p < l->nt / 2; ++p) {
      int r[4];
      ldmatrix(g, x, l, "Bs", bsType, ks, slot + (int)(l->mt + p), true, r);
      for (int i = 0; i < 4; ++i)
        f->b[2 * p + i / 2][i % 2] = r[i];
    }
    return;
  }
  for (int64_t n = 0; n < l->nt; ++n)
    for (int r = 0; r < 2; ++r) {
      int k = r ? kh : k0, kn = r ? kh1 : k1;
      f->b[n][r] = mmaRegister(g, x, "Bs", bsType, elt, k, l->ncol[n],
                               single ? -1 : kn, l->ncol[n]);
    }
}

/* gpu-on-cpu's ldmatrix: a phase before the K loop in which each thread
 * stores the row address it gives each ldmatrix of a K step (the same
 * every step) to %ldaddr, for emulatedLdmatrix to read the warp's. */
static void genLdmatrixAddresses(Gen *g, const Ctx *x) {
  int tid;
  beginPhase(g, x, &tid);
  Lane l;
  laneOf(g, x, tid, &l);
  int64_t steps = x->t.bk / l.kstep;
  for (int64_t s = 0; s < steps; ++s)
    for (int64_t which = 0; which < l.slots; ++which) {
      if (!x->ldm[which < l.mt ? 0 : 1])
        continue;
      int slot = (int)(l.slots * s + which), at[2];
      ldmatrixAddress(g, &l, s * l.kstep, slot, &at[0], &at[1]);
      for (int d = 0; d < 2; ++d)
        kilnStrBufAppendf(g->buf,
                          "memref.store %%v%d, %%ldaddr[%%v%d, %%v%d, %%v%d] "
                          ": memref<%lldx%lldx2xindex>\n",
                          at[d], tid, kilnScheduleIndex(g, slot),
                          kilnScheduleIndex(g, d), (long long)x->threads,
                          (long long)(l.slots * steps));
    }
  endPhase(g);
}

/* The thread's accumulators acc[i][j] (t.r x t.c), as values. */
typedef struct Accumulators {
  int v[4][16];
} Accumulators;

static void loadAccumulators(Gen *g, const Ctx *x, int tid, Accumulators *a) {
  for (int64_t i = 0; i < x->t.r; ++i)
    for (int64_t j = 0; j < x->t.c; ++j) {
      int ci = kilnScheduleIndex(g, i), cj = kilnScheduleIndex(g, j);
      a->v[i][j] = kilnScheduleFresh(g);
      kilnStrBufAppendf(g->buf,
                        "%%v%d = memref.load %%acc[%%v%d, %%v%d, %%v%d] : "
                        "memref<%lldx%lldx%lldxf32>\n",
                        a->v[i][j], tid, ci, cj, (long long)x->threads,
                        (long long)x->t.r, (long long)x->t.c);
    }
}

static void storeAccumulators(Gen *g, const Ctx *x, int tid,
                              const Accumulators *a) {
  for (int64_t i = 0; i < x->t.r; ++i)
    for (int64_t j = 0; j < x->t.c; ++j) {
      int ci = kilnScheduleIndex(g, i), cj = kilnScheduleIndex(g, j);
      kilnStrBufAppendf(g->buf,
                        "memref.store %%v%d, %%acc[%%v%d, %%v%d, %%v%d] : "
                        "memref<%lldx%lldx%lldxf32>\n",
                        a->v[i][j], tid, ci, cj, (long long)x->threads,
                        (long long)x->t.r, (long long)x->t.c);
    }
}

/* The compute phase on tensor cores: each warp's tile as mt x nt m16n8
 * nvvm.mma.sync per K step (k16 for f16/bf16, k8 for tf32); the fragment
 * of m16 tile i and n8 tile n is acc[2i][2n], [2i][2n + 1], [2i + 1][2n],
 * [2i + 1][2n + 1]. */
static void genMmaComputeBody(Gen *g, const Ctx *x, int tid, const char *asType,
                              const char *bsType) {
  MlirType elt = x->ct->sa.storedType;
  Lane l;
  laneOf(g, x, tid, &l);
  const char *ptx = l.tf32 ? "tf32" : typeName(elt);
  const char *reg = mlirTypeIsAF16(elt) ? "vector<2xf16>" : "i32";
  Accumulators acc;
  loadAccumulators(g, x, tid, &acc);
  for (int64_t ks = 0; ks < x->t.bk; ks += l.kstep) {
    Frags f;
    gatherFragments(g, x, &l, asType, bsType, ks, &f);
    for (int64_t i = 0; i < l.mt; ++i)
      for (int64_t n = 0; n < l.nt; ++n) {
        int *c[4] = {&acc.v[2 * i][2 * n], &acc.v[2 * i][2 * n + 1],
                     &acc.v[2 * i + 1][2 * n], &acc.v[2 * i + 1][2 * n + 1]};
        const int *a = f.a[i];
        int d = kilnScheduleFresh(g);
        kilnStrBufAppendf(
            g->buf,
            "%%v%d = nvvm.mma.sync A[%%v%d, %%v%d, %%v%d, %%v%d] "
            "B[%%v%d, %%v%d] C[%%v%d, %%v%d, %%v%d, %%v%d] "
            "{layoutA = #nvvm.mma_layout<row>, layoutB = "
            "#nvvm.mma_layout<col>, multiplicandAPtxType = "
            "#nvvm.mma_type<%s>, multiplicandBPtxType = #nvvm.mma_type<%s>, "
            "shape = #nvvm.shape<m = 16, n = 8, k = %lld>} : (%s, %s, f32) -> "
            "!llvm.struct<(f32, f32, f32, f32)>\n",
            d, a[0], a[1], a[2], a[3], f.b[n][0], f.b[n][1], *c[0], *c[1],
            *c[2], *c[3], ptx, ptx, (long long)l.kstep, reg, reg);
        for (int e = 0; e < 4; ++e) {
          *c[e] = kilnScheduleFresh(g);
          kilnStrBufAppendf(g->buf,
                            "%%v%d = llvm.extractvalue %%v%d[%d] : "
                            "!llvm.struct<(f32, f32, f32, f32)>\n",
                            *c[e], d, e);
        }
      }
  }
  storeAccumulators(g, x, tid, &acc);
}

/* Element (r, c) of the warp's operands, read the way mma.sync reads it:
 * from the register of the lane that holds it in the fragments each lane
 * of the warp stored to %frag (PTX's layouts, written here independently
 * of gatherFragments: a mismatch shows up as a wrong sum). `isA`: A's
 * element at warp-tile row `r` (a value), K `k` (a loop index); else B's
 * at K `k`, column `r` within n8 tile n. */
static int fragmentElement(Gen *g, const Ctx *x, const Lane *l, bool isA, int r,
                           int k, int64_t n, int64_t step) {
  /* 16-bit: lane (row % 8) * 4 + (k % 8) / 2, register 4 (row / 16) +
   * (row / 8) % 2 + 2 (k / 8) for A, 4 mt + 2 n + k / 8 for B, half k % 2;
   * tf32: lane (row % 8) * 4 + k % 4, registers the same with k / 4. */
  int64_t kGroup = l->tf32 ? 4 : 8;
  int kIn = kilnScheduleBinopConst(g, "remui", k, kGroup);
  int tig = l->tf32 ? kIn : kilnScheduleBinopConst(g, "divui", kIn, 2);
  int kHalf = kilnScheduleBinopConst(g, "divui", k, kGroup);
  int rowIn = kilnScheduleBinopConst(g, "remui", r, 8);
  int lane = kilnScheduleBinop(
      g, "addi", kilnScheduleBinopConst(g, "muli", rowIn, 4), tig);
  int who = kilnScheduleBinop(g, "addi", l->warpBase, lane);
  int regIdx;
  if (isA) {
    int row8 = kilnScheduleBinopConst(g, "divui", r, 8);
    int rowHalf = kilnScheduleBinopConst(g, "remui", row8, 2);
    int tile = kilnScheduleBinopConst(
        g, "muli", kilnScheduleBinopConst(g, "divui", r, 16), 4);
    regIdx = kilnScheduleBinop(g, "addi",
                               kilnScheduleBinop(g, "addi", tile, rowHalf),
                               kilnScheduleBinopConst(g, "muli", kHalf, 2));
  } else {
    regIdx = kilnScheduleBinopConst(g, "addi", kHalf, 4 * l->mt + 2 * n);
  }
  regIdx = kilnScheduleBinopConst(g, "addi", regIdx, step * l->regs);
  int v = kilnScheduleFresh(g);
  kilnStrBufAppendf(g->buf,
                    "%%v%d = memref.load %%frag[%%v%d, %%v%d] : "
                    "memref<%lldx%lldxi32>\n",
                    v, who, regIdx, (long long)x->threads,
                    (long long)(l->regs * (x->t.bk / l->kstep)));
  int f = kilnScheduleFresh(g);
  if (l->tf32) {
    kilnStrBufAppendf(g->buf,
                      "%%u%d = arith.andi %%v%d, %%tf32mask : i32\n"
                      "%%v%d = arith.bitcast %%u%d : i32 to f32\n",
                      f, v, f, f);
    return f;
  }
  const char *t = typeName(x->ct->sa.storedType);
  int half = kilnScheduleBinopConst(g, "remui", k, 2);
  kilnStrBufAppendf(g->buf,
                    "%%u%d_0 = arith.muli %%v%d, %%c16 : index\n"
                    "%%u%d_1 = arith.index_cast %%u%d_0 : index to i32\n"
                    "%%u%d_2 = arith.shrui %%v%d, %%u%d_1 : i32\n"
                    "%%u%d_3 = arith.trunci %%u%d_2 : i32 to i16\n"
                    "%%u%d_4 = arith.bitcast %%u%d_3 : i16 to %s\n"
                    "%%v%d = arith.extf %%u%d_4 : %s to f32\n",
                    f, half, f, f, f, v, f, f, f, f, f, t, f, f, t);
  return f;
}

/* Tensor-core products emulated for the CPU (gpu-on-cpu): per K step, a
 * phase in which each thread gathers its operand registers exactly as the
 * nvvm form does and stores them to the shared %frag, then a phase in
 * which each thread forms its accumulators' sums from the registers of
 * the lanes that hold each operand element (fragmentElement), as
 * mma.sync does. */
static void genEmulatedGather(Gen *g, const Ctx *x, int tid, const char *asType,
                              const char *bsType) {
  Lane l;
  laneOf(g, x, tid, &l);
  int64_t steps = x->t.bk / l.kstep;
  for (int64_t s = 0; s < steps; ++s) {
    Frags f;
    gatherFragments(g, x, &l, asType, bsType, s * l.kstep, &f);
    int regs[4 * kMaxMt + 2 * kMaxNt];
    for (int64_t i = 0; i < l.mt; ++i)
      for (int r = 0; r < 4; ++r)
        regs[4 * i + r] = f.a[i][r];
    for (int64_t n = 0; n < l.nt; ++n)
      for (int r = 0; r < 2; ++r)
        regs[4 * l.mt + 2 * n + r] = f.b[n][r];
    for (int64_t r = 0; r < l.regs; ++r)
      kilnStrBufAppendf(g->buf,
                        "memref.store %%v%d, %%frag[%%v%d, %%v%d] : "
                        "memref<%lldx%lldxi32>\n",
                        regs[r], tid, kilnScheduleIndex(g, s * l.regs + r),
                        (long long)x->threads, (long long)(l.regs * steps));
  }
}

/* The second phase: each thread's sums from the registers in %frag. */
static void genEmulatedSums(Gen *g, const Ctx *x, int tid) {
  Lane l;
  laneOf(g, x, tid, &l);
  int64_t steps = x->t.bk / l.kstep, rows = x->t.r, cols = x->t.c;
  int64_t n = rows * cols;
  Accumulators acc;
  loadAccumulators(g, x, tid, &acc);
  /* Rows within the warp's tile (16 (i/2) + l/4 + 8 (i%2)); columns
   * within their n8 tiles (2 (l%4) + j%2). */
  int wrow[4], wcol[2];
  for (int64_t i = 0; i < rows; ++i)
    wrow[i] =
        kilnScheduleBinopConst(g, "addi", l.group, (i / 2) * 16 + (i % 2) * 8);
  wcol[0] = kilnScheduleBinopConst(g, "muli", l.q, 2);
  wcol[1] = kilnScheduleBinopConst(g, "addi", wcol[0], 1);
  int ck = kilnScheduleIndex(g, l.kstep);
  for (int64_t s = 0; s < steps; ++s) {
    int res = kilnScheduleFresh(g), k = kilnScheduleFresh(g),
        iter = kilnScheduleFresh(g);
    kilnStrBufAppendf(g->buf,
                      "%%v%d:%lld = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
                      "iter_args(",
                      res, (long long)n, k, x->c0, ck, x->c1);
    for (int64_t e = 0; e < n; ++e)
      kilnStrBufAppendf(g->buf, "%s%%s%d_%lld = %%v%d", e ? ", " : "", iter,
                        (long long)e, acc.v[e / cols][e % cols]);
    kilnStrBufAppend(g->buf, ") -> (", 6);
    for (int64_t e = 0; e < n; ++e)
      kilnStrBufAppendf(g->buf, "%sf32", e ? ", " : "");
    kilnStrBufAppend(g->buf, ") {\n", 4);
    int av[4], bv[16], sums[64];
    for (int64_t i = 0; i < rows; ++i)
      av[i] = fragmentElement(g, x, &l, true, wrow[i], k, 0, s);
    for (int64_t j = 0; j < cols; ++j)
      bv[j] = fragmentElement(g, x, &l, false, wcol[j % 2], k, j / 2, s);
    for (int64_t e = 0; e < n; ++e) {
      int p = kilnScheduleFresh(g);
      sums[e] = kilnScheduleFresh(g);
      kilnStrBufAppendf(g->buf,
                        "%%v%d = arith.mulf %%v%d, %%v%d : f32\n"
                        "%%v%d = arith.addf %%s%d_%lld, %%v%d : f32\n",
                        p, av[e / cols], bv[e % cols], sums[e], iter,
                        (long long)e, p);
    }
    kilnStrBufAppend(g->buf, "scf.yield ", 10);
    for (int64_t e = 0; e < n; ++e)
      kilnStrBufAppendf(g->buf, "%s%%v%d", e ? ", " : "", sums[e]);
    kilnStrBufAppend(g->buf, " : ", 3);
    for (int64_t e = 0; e < n; ++e)
      kilnStrBufAppendf(g->buf, "%sf32", e ? ", " : "");
    kilnStrBufAppend(g->buf, "\n}\n", 3);
    for (int64_t e = 0; e < n; ++e) {
      int *a = &acc.v[e / cols][e % cols];
      *a = kilnScheduleFresh(g);
      kilnStrBufAppendf(g->buf, "%%v%d = arith.addf %%v%d#%lld, %%zero : f32\n",
                        *a, res, (long long)e);
    }
  }
  storeAccumulators(g, x, tid, &acc);
}

static void genStorePhase(Gen *g, const Ctx *x) {
  int tid;
  beginPhase(g, x, &tid);
  for (int64_t i = 0; i < x->t.r; ++i)
    for (int64_t j = 0; j < x->t.c; ++j) {
      int row, col;
      threadElement(g, x, tid, i, j, &row, &col);
      int cond = outputGuard(g, x, row, col);
      if (cond >= 0)
        kilnStrBufAppendf(g->buf, "scf.if %%v%d {\n", cond);
      int ci = kilnScheduleIndex(g, i), cj = kilnScheduleIndex(g, j),
          v = kilnScheduleFresh(g);
      kilnStrBufAppendf(g->buf,
                        "%%v%d = memref.load %%acc[%%v%d, %%v%d, %%v%d] : "
                        "memref<%lldx%lldx%lldxf32>\n",
                        v, tid, ci, cj, (long long)x->threads,
                        (long long)x->t.r, (long long)x->t.c);
      char prefix[48];
      if (mlirOperationIsNull(x->epi->op)) {
        snprintf(prefix, sizeof(prefix), "memref.store %%v%d, ", v);
        appendAccess(g, x->ct, prefix, "C", &x->ct->c, x->vb, row, col, -1);
      } else {
        int idx[kMaxRank];
        accessIndices(g, x->ct, &x->ct->c, x->vb, row, col, -1, idx);
        kilnGpuGenEpilogueStore(g, x->epi, v, idx);
      }
      if (cond >= 0)
        kilnStrBufAppendf(g->buf, "}\n");
    }
  endPhase(g);
}

/* The thread's part of the tiles at K offset `k0`: each side either
 * copied in units now into buffer `buf` (x->unit) or loaded into `la`/`lb`
 * for genTileStores after the compute (`n` = 0 left there). */
static void genTiles(Gen *g, const Ctx *x, int tid, int k0, int buf,
                     const char *asType, const char *bsType, TileLoads *la,
                     TileLoads *lb, int *tokens, int *nTokens) {
  const Contraction *ct = x->ct;
  if (x->unit[0])
    genUnitCopies(g, x, tid, k0, &ct->sa, kM, x->bm, x->t.bk, x->m0, ct->m,
                  "As", buf, asType, tokens, nTokens);
  else
    genTileLoads(g, x, tid, k0, &ct->sa, 'A', kM, x->bm, x->t.bk, x->m0, ct->m,
                 la);
  if (x->unit[1])
    genUnitCopies(g, x, tid, k0, &ct->sb, kN, x->bn, x->t.bk, x->n0, ct->n,
                  "Bs", buf, bsType, tokens, nTokens);
  else
    genTileLoads(g, x, tid, k0, &ct->sb, 'B', kN, x->bn, x->t.bk, x->n0, ct->n,
                 lb);
}

/* The whole template: a function of (A, B, C, init) whose body replaces the
 * op. */
static void genTemplate(KilnStrBuf *buf, const Contraction *ct,
                        const Epilogue *epi, const Tiles *t, bool fromC,
                        KilnGpuMma mma) {
  Gen gen = {buf, 0}, *g = &gen;
  bool nvvm = mma == KILN_GPU_MMA_NVVM;
  Ctx x = {
      .ct = ct, .epi = epi, .t = *t, .nvvm = t->mma && nvvm, .cpAsync = nvvm};
  x.bm = t->ty * t->r;
  x.bn = t->tx * t->c;
  x.threads = t->ty * t->tx;
  if (t->mma) {
    x.ldm[0] = t->ldmatrix;
    x.ldm[1] = t->ldmatrix && isLowFloat(ct->sb.storedType);
  }
  /* Padding keeps a tile's stores free of bank conflicts when they run
   * along its short dim. The tensor-core tiles are padded for the
   * fragment reads instead: the 8 row groups of a warp's A reads (rows
   * l/4, 16-bit K pairs or f32 K at l%4) and the 4 K rows of its B reads
   * land in distinct banks when A's rows are 12 (16-bit: 24 elements) or
   * 20 (f32) words apart and B's rows 36 (16-bit: 72 elements) or 72
   * words (68 and 136 in the 128-column blocks), as do ldmatrix's 8 rows
   * of 16 bytes. */
  bool aRowFast = fastRole(ct, &ct->a) == kM;
  bool bColFast = fastRole(ct, &ct->b) == kN;
  int64_t padA = aRowFast ? 1 : 0, padB = bColFast ? 0 : 1;
  if (t->mma) {
    bool wide = !isLowFloat(ct->sa.storedType);
    padA = wide ? 4 : 8;
    padB = 8;
  }
  /* Plain sides are copied in units by cp.async (sm_80 and up: mma=nvvm;
   * gpu-on-cpu, mma=emulate, copies the same units) straight into tiles
   * that are then workgroup memory from the start, as
   * nvgpu.device_async_copy requires (so are the tensor cores', for
   * ldmatrix). Without, tiles are loaded into registers at the start of a
   * K step and stored after its compute. */
  if (mma != KILN_GPU_MMA_NONE) {
    x.unit[0] =
        copyUnitOf(ct, &ct->sa, true, x.bm, t->bk, t->bk + padA, x.threads);
    x.unit[1] =
        copyUnitOf(ct, &ct->sb, false, t->bk, x.bn, x.bn + padB, x.threads);
  }
  bool shared = x.nvvm || (x.cpAsync && (x.unit[0] || x.unit[1]));
  const char *space = shared ? ", #gpu.address_space<workgroup>" : "";
  char asType[96], bsType[96];
  /* Two buffers each: the compute phase reads one while the next tile's
   * loads go to the other. */
  snprintf(asType, sizeof(asType), "memref<2x%lldx%lldx%s%s>", (long long)x.bm,
           (long long)(t->bk + padA), typeName(ct->sa.storedType), space);
  snprintf(bsType, sizeof(bsType), "memref<2x%lldx%lldx%s%s>", (long long)t->bk,
           (long long)(x.bn + padB), typeName(ct->sb.storedType), space);
  kilnStrBufAppendf(buf, "func.func @kiln_tile(");
  const Side *sides[2] = {&ct->sa, &ct->sb};
  for (int s = 0; s < 2; ++s)
    for (intptr_t i = 0; i < sides[s]->n; ++i) {
      kilnStrBufAppendf(buf, "%s%%%c%d: ", s || i ? ", " : "", "AB"[s], (int)i);
      appendType(g, sides[s]->in[i].type);
    }
  kilnStrBufAppend(buf, ", %C: ", 6);
  appendType(g, ct->c.type);
  kilnStrBufAppend(buf, ", %init: f32", 12);
  kilnGpuAppendEpilogueParams(g, epi);
  kilnStrBufAppendf(buf, ") {\n"
                         "%%zero = arith.constant 0.0 : f32\n"
                         "%%zero_f16 = arith.constant 0.0 : f16\n"
                         "%%zero_bf16 = arith.constant 0.0 : bf16\n"
                         "%%i16 = arith.constant 16 : i32\n"
                         "%%c16 = arith.constant 16 : index\n"
                         "%%tf32mask = arith.constant -8192 : i32\n");
  x.c0 = kilnScheduleIndex(g, 0);
  x.c1 = kilnScheduleIndex(g, 1);
  x.cT = kilnScheduleIndex(g, x.threads);
  kilnStrBufAppendf(buf,
                    "scf.execute_region no_inline {\nmemref.alloca_scope {\n"
                    "%%As = memref.alloca() {kiln.gpu.shared} : %s\n"
                    "%%Bs = memref.alloca() {kiln.gpu.shared} : %s\n"
                    "%%acc = memref.alloca() {kiln.gpu.private} : "
                    "memref<%lldx%lldx%lldxf32>\n",
                    asType, bsType, (long long)x.threads, (long long)t->r,
                    (long long)t->c);
  /* gpu-on-cpu's registers (Lane.regs a K step) and ldmatrix row
   * addresses (Lane.slots). */
  int64_t kSteps = t->bk / (isLowFloat(ct->sa.storedType) ? 16 : 8);
  if (t->mma && !x.nvvm)
    kilnStrBufAppendf(buf,
                      "%%frag = memref.alloca() {kiln.gpu.shared} : "
                      "memref<%lldx%lldxi32>\n",
                      (long long)x.threads,
                      (long long)((2 * t->r + t->c) * kSteps));
  if (x.ldm[0] && !x.nvvm)
    kilnStrBufAppendf(buf,
                      "%%ldaddr = memref.alloca() {kiln.gpu.shared} : "
                      "memref<%lldx%lldx2xindex>\n",
                      (long long)x.threads,
                      (long long)((t->r / 2 + t->c / 4) * kSteps));
  /* The grid: batch, block rows, block columns (dims of one block left
   * out; at least one dim). */
  int64_t trips[3] = {ct->batch, (ct->m + x.bm - 1) / x.bm,
                      (ct->n + x.bn - 1) / x.bn};
  int ivs[3], ubs[3], nd = 0, dimOf[3];
  for (int d = 0; d < 3; ++d) {
    dimOf[d] = -1;
    if (trips[d] > 1 || (d == 2 && nd == 0)) {
      dimOf[d] = nd;
      ivs[nd] = kilnScheduleFresh(g);
      ubs[nd++] = kilnScheduleIndex(g, trips[d]);
    }
  }
  kilnStrBufAppend(buf, "scf.parallel (", 14);
  for (int i = 0; i < nd; ++i)
    kilnStrBufAppendf(buf, "%s%%v%d", i ? ", " : "", ivs[i]);
  kilnStrBufAppend(buf, ") = (", 5);
  for (int i = 0; i < nd; ++i)
    kilnStrBufAppendf(buf, "%s%%v%d", i ? ", " : "", x.c0);
  kilnStrBufAppend(buf, ") to (", 6);
  for (int i = 0; i < nd; ++i)
    kilnStrBufAppendf(buf, "%s%%v%d", i ? ", " : "", ubs[i]);
  kilnStrBufAppend(buf, ") step (", 8);
  for (int i = 0; i < nd; ++i)
    kilnStrBufAppendf(buf, "%s%%v%d", i ? ", " : "", x.c1);
  kilnStrBufAppend(buf, ") {\n", 4);
  int blockIv[3];
  for (int d = 0; d < 3; ++d)
    blockIv[d] = dimOf[d] >= 0 ? ivs[dimOf[d]] : x.c0;
  x.vb = blockIv[0];
  x.m0 = kilnScheduleBinopConst(g, "muli", blockIv[1], x.bm);
  x.n0 = kilnScheduleBinopConst(g, "muli", blockIv[2], x.bn);
  genInitPhase(g, &x, fromC);
  if (x.ldm[0] && !x.nvvm)
    genLdmatrixAddresses(g, &x);
  /* Double-buffered K loop: the first tiles into buffer 0; then at each K
   * step one phase loads the next tiles (the last step reloads its own,
   * in bounds and unused), computes on the current buffer and stores the
   * loaded tiles into the other, so a step needs one barrier and the
   * loads' latency overlaps the compute. No thread reads the buffer being
   * written in the same phase, so the phases also run sequentially. */
  TileLoads la = {0}, lb = {0};
  int tokens[64], nTokens = 0, tid;
  beginPhase(g, &x, &tid);
  genTiles(g, &x, tid, x.c0, x.c0, asType, bsType, &la, &lb, tokens, &nTokens);
  genTileStores(g, &la, "As", x.c0, asType);
  genTileStores(g, &lb, "Bs", x.c0, bsType);
  genCopiesWait(g, tokens, nTokens);
  endPhase(g);
  int k0 = kilnScheduleFresh(g), ck = kilnScheduleIndex(g, ct->k),
      cbk = kilnScheduleIndex(g, t->bk);
  kilnStrBufAppendf(buf, "scf.for %%v%d = %%v%d to %%v%d step %%v%d {\n", k0,
                    x.c0, ck, cbk);
  x.cur = kilnScheduleBinopConst(
      g, "remui", kilnScheduleBinopConst(g, "divui", k0, t->bk), 2);
  int next = kilnScheduleBinop(g, "subi", x.c1, x.cur);
  int kn = kilnScheduleBinopConst(g, "addi", k0, t->bk);
  int more = andLess(g, -1, kn, ct->k), kLoad = kilnScheduleFresh(g);
  kilnStrBufAppendf(buf, "%%v%d = arith.select %%v%d, %%v%d, %%v%d : index\n",
                    kLoad, more, kn, k0);
  beginPhase(g, &x, &tid);
  nTokens = 0;
  genTiles(g, &x, tid, kLoad, next, asType, bsType, &la, &lb, tokens, &nTokens);
  if (x.nvvm)
    genMmaComputeBody(g, &x, tid, asType, bsType);
  else if (t->mma)
    genEmulatedGather(g, &x, tid, asType, bsType);
  else
    genComputeBody(g, &x, tid, asType, bsType);
  genTileStores(g, &la, "As", next, asType);
  genTileStores(g, &lb, "Bs", next, bsType);
  genCopiesWait(g, tokens, nTokens);
  endPhase(g);
  if (t->mma && !x.nvvm) {
    beginPhase(g, &x, &tid);
    genEmulatedSums(g, &x, tid);
    endPhase(g);
  }
  kilnStrBufAppend(buf, "}\n", 2);
  genStorePhase(g, &x);
  kilnStrBufAppendf(buf,
                    "scf.reduce\n}\n}\nscf.yield\n}"
                    " {kiln.gpu.block_size = %lld : i64}\nreturn\n}\n",
                    (long long)x.threads);
  kilnGpuAppendEpilogueDecl(g, epi);
  for (int s = 0; s < 2; ++s) {
    if (sides[s]->plain)
      continue;
    kilnStrBufAppendf(buf, "func.func private @kiln_side_%c(", "AB"[s]);
    for (intptr_t i = 0; i < sides[s]->n; ++i) {
      if (i)
        kilnStrBufAppend(buf, ", ", 2);
      appendType(g, mlirShapedTypeGetElementType(sides[s]->in[i].type));
    }
    kilnStrBufAppendf(buf, ") -> %s\n", typeName(sides[s]->storedType));
  }
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/* Whether tensor cores can form the product: both tiles f16 or both
 * bf16, or both f32 when TF32 is allowed. */
static bool mmaTypes(const Contraction *ct, bool tf32) {
  MlirType a = ct->sa.storedType, b = ct->sb.storedType;
  if (!mlirTypeEqual(a, b))
    return false;
  return isLowFloat(a) || (tf32 && mlirTypeIsAF32(a));
}

static Tiles chooseTiles(const Contraction *ct, KilnGpuMma mma, bool tf32,
                         bool ldmatrix, int64_t wideMinBlocks) {
  /* A few rows (a fully connected layer at batch 1): one row of threads
   * per row, 128 columns per block. Otherwise 64 x 64 blocks of 256
   * threads: 8 warps of mma.sync fragments (16 x 32 each) where tensor
   * cores take the types, else 4 x 4 outputs each. Products that make at
   * least `wideMinBlocks` 128 x 128 blocks take those (warps of 32 x 64,
   * or 8 x 8 outputs a thread): twice the reuse of each shared tile
   * element and of each register loaded from it, for a quarter of the
   * blocks. */
  int64_t wide = ct->batch * ((ct->m + 127) / 128) * ((ct->n + 127) / 128);
  if (ct->m > 8 && mma != KILN_GPU_MMA_NONE && mmaTypes(ct, tf32)) {
    bool big = wideMinBlocks > 0 && wide >= wideMinBlocks;
    return (Tiles){.ty = 32,
                   .tx = 8,
                   .r = big ? 4 : 2,
                   .c = big ? 16 : 8,
                   .bk = 16,
                   .mma = true,
                   .ldmatrix = ldmatrix};
  }
  if (ct->m <= 8) {
    int64_t ty = 1;
    while (ty < ct->m)
      ty *= 2;
    return (Tiles){.ty = ty, .tx = 128 / ty, .r = 1, .c = 1, .bk = 16};
  }
  bool big = wideMinBlocks > 0 && wide >= wideMinBlocks;
  return (Tiles){
      .ty = 16, .tx = 16, .r = big ? 8 : 4, .c = big ? 8 : 4, .bk = 16};
}

/* The value a fill of `c` writes: a linalg.fill's, or a constant a
 * linalg.generic without inputs yields to every element of `c` (how
 * bufferization leaves a conv's zero init); null for other ops. */
static MlirValue fillValue(MlirOperation p, MlirValue c) {
  if (kilnOpNameIs(p, "linalg.fill"))
    return mlirOperationGetNumOperands(p) == 2 &&
                   !mlirOperationGetNumResults(p) &&
                   mlirValueEqual(mlirOperationGetOperand(p, 1), c)
               ? mlirOperationGetOperand(p, 0)
               : (MlirValue){NULL};
  if (!kilnOpNameIs(p, "linalg.generic") ||
      mlirOperationGetNumOperands(p) != 1 || mlirOperationGetNumResults(p) ||
      !mlirValueEqual(mlirOperationGetOperand(p, 0), c))
    return (MlirValue){NULL};
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(c));
  char kinds[kMaxRank];
  MlirAttribute maps =
      mlirOperationGetAttributeByName(p, kilnStr("indexing_maps"));
  if (rank > kMaxRank || !kilnLinalgIteratorKinds(p, kinds, rank) ||
      mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirArrayAttrGetNumElements(maps) != 1)
    return (MlirValue){NULL};
  for (intptr_t l = 0; l < rank; ++l)
    if (kinds[l] != 'p')
      return (MlirValue){NULL};
  MlirAttribute m = mlirArrayAttrGetElement(maps, 0);
  intptr_t dims[kMaxRank], n;
  MlirAffineExpr exprs[kMaxRank];
  if (!mlirAttributeIsAAffineMap(m))
    return (MlirValue){NULL};
  MlirAffineMap map = mlirAffineMapAttrGetValue(m);
  if (mlirAffineMapGetNumSymbols(map) || mlirAffineMapGetNumDims(map) != rank ||
      !kilnGpuMapDims(map, dims, exprs, false, &n) || n != rank)
    return (MlirValue){NULL};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(p, 0));
  MlirOperation yield = mlirBlockGetFirstOperation(body);
  if (mlirOperationIsNull(yield) || !kilnOpNameIs(yield, "linalg.yield") ||
      mlirOperationGetNumOperands(yield) != 1)
    return (MlirValue){NULL};
  MlirValue v = mlirOperationGetOperand(yield, 0);
  if (!mlirValueIsAOpResult(v) ||
      !kilnOpNameIs(mlirOpResultGetOwner(v), "arith.constant") ||
      mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(v)), body))
    return (MlirValue){NULL};
  return v;
}

/* The fill of `c` right before `op` (constants, weights and reshapes of
 * them in between), if any: its value becomes the accumulators' initial
 * value. */
static MlirOperation precedingFill(MlirOperation op, MlirValue c) {
  MlirOperation p = kilnPrevInBlock(op);
  while (!mlirOperationIsNull(p) && (kilnOpNameIs(p, "arith.constant") ||
                                     kilnOpNameIs(p, "memref.get_global") ||
                                     kilnOpNameIs(p, "memref.expand_shape") ||
                                     kilnOpNameIs(p, "memref.collapse_shape")))
    p = kilnPrevInBlock(p);
  if (mlirOperationIsNull(p) || mlirValueIsNull(fillValue(p, c)))
    return (MlirOperation){NULL};
  return p;
}

/* Copies in what a template's call stands for: the consumer's body
 * (@kiln_epilogue) or the ops computing a side's stored value
 * (@kiln_side_A, @kiln_side_B). */
static void inlineCall(MlirOperation call, const Contraction *ct,
                       const Epilogue *epi) {
  MlirAttribute callee =
      mlirOperationGetAttributeByName(call, kilnStr("callee"));
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  if (kilnStringRefEquals(name, "kiln_epilogue")) {
    kilnGpuInlineEpilogue(call, epi);
    return;
  }
  const Side *s = kilnStringRefEquals(name, "kiln_side_A") ? &ct->sa : &ct->sb;
  kilnGpuInlineSlice(call, ct->body, s->operand, s->n, s->stored);
}

static bool tileOp(MlirOperation op, const Contraction *ct, bool epilogues,
                   KilnGpuMma mma, bool tf32, bool ldmatrix,
                   int64_t wideMinBlocks) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirOperation fill = precedingFill(op, ct->c.value);
  Epilogue epi = {0};
  if (epilogues) {
    MlirValue ins[2 * kMaxSideIns];
    int n = 0;
    for (intptr_t i = 0; i < ct->sa.n; ++i)
      ins[n++] = ct->sa.in[i].value;
    for (intptr_t i = 0; i < ct->sb.n; ++i)
      ins[n++] = ct->sb.in[i].value;
    kilnGpuMatchEpilogue(op, ct->c.value, ins, n, fill, &epi);
  }
  bool fused = !mlirOperationIsNull(epi.op);
  MlirOperation at = fused ? epi.op : op;
  Tiles t = chooseTiles(ct, mma, tf32, ldmatrix, wideMinBlocks);
  KilnStrBuf text = {0};
  genTemplate(&text, ct, &epi, &t, mlirOperationIsNull(fill), mma);
  MlirModule tmpl = mlirModuleCreateParse(ctx, kilnStr(kilnStrBufGet(&text)));
  kilnStrBufDestroy(&text);
  if (mlirModuleIsNull(tmpl)) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "kiln-gpu-tile-contractions: internal error: the schedule "
                   "template does not parse");
    return false;
  }
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(tmpl));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirValue init;
  if (mlirOperationIsNull(fill)) {
    MlirType f32 = mlirF32TypeGet(ctx);
    MlirNamedAttribute value =
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("value")),
                              mlirFloatAttrDoubleGet(ctx, f32, 0.0));
    init = mlirOperationGetResult(
        kilnInsertOp(op, "arith.constant", 0, NULL, 1, &f32, 1, &value), 0);
  } else {
    init = fillValue(fill, ct->c.value);
  }
  MlirValue args[2 * kMaxSideIns + 2 + kMaxEpilogueIns + 1];
  intptr_t nArgs = 0;
  for (intptr_t i = 0; i < ct->sa.n; ++i)
    args[nArgs++] = ct->sa.in[i].value;
  for (intptr_t i = 0; i < ct->sb.n; ++i)
    args[nArgs++] = ct->sb.in[i].value;
  args[nArgs++] = ct->c.value;
  args[nArgs++] = init;
  nArgs += kilnGpuEpilogueArgs(&epi, args + nArgs);
  for (intptr_t i = 0; i < nArgs; ++i)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, i), args[i]);
  KilnOpList calls = {0};
  kilnGpuSpliceTemplate(body, at, &calls);
  for (size_t i = 0; i < calls.len; ++i)
    inlineCall(calls.data[i], ct, &epi);
  kilnOpListDestroy(&calls);
  mlirModuleDestroy(tmpl);
  mlirOperationDestroy(op);
  if (!mlirOperationIsNull(fill))
    mlirOperationDestroy(fill);
  if (fused) {
    mlirOperationDestroy(epi.op);
    if (!epi.outIsC)
      kilnGpuEraseIfDead(kilnGpuViewRoot(ct->c.value));
  }
  return true;
}

static MlirWalkResult collectContractions(MlirOperation op, void *userData) {
  Contraction ct;
  if (matchContraction(op, &ct))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

static void runTileContractions(MlirOperation func, MlirExternalPass pass,
                                const KilnPassOptionValue *options) {
  if (!options[kOptEnable].b)
    return;
  if (options[kOptWideMinBlocks].i < 0) {
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "kiln-gpu-tile-contractions: wide-min-blocks=%lld: must "
                   "not be negative",
                   (long long)options[kOptWideMinBlocks].i);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  if (options[kOptMinFlops].i < 0) {
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "kiln-gpu-tile-contractions: min-flops=%lld: must not be "
                   "negative",
                   (long long)options[kOptMinFlops].i);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  const char *mmaName = options[kOptMma].s ? options[kOptMma].s : "";
  KilnGpuMma mma = !strcmp(mmaName, "none")      ? KILN_GPU_MMA_NONE
                   : !strcmp(mmaName, "emulate") ? KILN_GPU_MMA_EMULATE
                   : !strcmp(mmaName, "nvvm")    ? KILN_GPU_MMA_NVVM
                                                 : (KilnGpuMma)-1;
  if ((int)mma < 0) {
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "kiln-gpu-tile-contractions: mma=%s: expected none, "
                   "emulate or nvvm",
                   mmaName);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  KilnOpList ops = {0};
  mlirOperationWalk(func, collectContractions, &ops, MlirWalkPostOrder);
  bool ok = true;
  for (size_t i = 0; i < ops.len && ok; ++i) {
    Contraction ct;
    matchContraction(ops.data[i], &ct);
    if (2 * ct.batch * ct.m * ct.n * ct.k < options[kOptMinFlops].i)
      continue;
    ok = tileOp(ops.data[i], &ct, options[kOptEpilogues].b, mma,
                options[kOptTf32].b, options[kOptLdmatrix].b,
                options[kOptWideMinBlocks].i);
  }
  kilnOpListDestroy(&ops);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnPassOptionSpec kOptions[kNumOptions] = {
    [kOptEnable] = {"enable", KILN_PASS_OPTION_BOOL, "true",
                    "Tile contractions (false: leave every op to the "
                    "one-output-per-thread mapping)"},
    [kOptMinFlops] = {"min-flops", KILN_PASS_OPTION_INT, "0",
                      "Leave contractions of fewer floating-point operations "
                      "(2*batch*M*N*K) alone"},
    [kOptEpilogues] = {"epilogues", KILN_PASS_OPTION_BOOL, "true",
                       "Fuse the elementwise op that consumes a product's "
                       "result into its store phase"},
    [kOptMma] = {"mma", KILN_PASS_OPTION_STRING, "nvvm",
                 "Products of f16 or bf16 factors (f32 with tf32) on tensor "
                 "cores: none, emulate (their layout, sums as loops: "
                 "gpu-on-cpu) or nvvm (nvvm.mma.sync, sm_80 and up)"},
    [kOptTf32] = {"tf32", KILN_PASS_OPTION_BOOL, "false",
                  "With mma: f32 products on tensor cores in TF32 (10-bit "
                  "mantissas)"},
    [kOptLdmatrix] = {"ldmatrix", KILN_PASS_OPTION_BOOL, "true",
                      "With mma: operand fragments read from the shared tiles "
                      "by ldmatrix (false: element by element)"},
    [kOptWideMinBlocks] = {"wide-min-blocks", KILN_PASS_OPTION_INT, "128",
                           "128 x 128 block tiles (warps of 32 x 64 with "
                           "mma, else 8 x 8 outputs a thread) for products "
                           "that make at least this many of them (0: "
                           "never)"},
};

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__scf__,   mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__llvm__,
    mlirGetDialectHandle__nvvm__,  mlirGetDialectHandle__nvgpu__,
    mlirGetDialectHandle__gpu__,   mlirGetDialectHandle__vector__};

const KilnPassInfo kilnGpuTileContractionsPass = {
    .argument = "kiln-gpu-tile-contractions",
    .summary = "Tile static matrix products (f32 accumulators) for the GPU: "
               "block tiles in shared memory, register tiles or tensor-core "
               "fragments per thread, as block and thread-phase loops",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runTileContractions,
    .dependentDialects = kDialects,
    .numDependentDialects = 8,
};

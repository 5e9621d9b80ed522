/* kiln-gpu-block-reductions: the GPU schedule of reductions
 * (docs/gpu-codegen.md, "Reductions").
 *
 * Runs on bufferized memrefs before convert-linalg-to-parallel-loops, next
 * to kiln-gpu-tile-contractions. Each static-shape f32 linalg.generic with
 * one output, at least one reduction dim and a body of the form
 * `combine(out, f(ins))` (combine: arith.addf, maximumf, minimumf, maxnumf
 * or minnumf; f: any region-free elementwise ops on the inputs, as fusion
 * leaves them, e.g. softmax's exp(x - max)) whose reduced extent R is at
 * least `min-extent` becomes one block per output element, in the phases
 * form of kiln-gpu-tile-contractions (T threads, W = T / 32 warps):
 *
 *   scf.execute_region no_inline {            kiln.gpu.block_size = T
 *     memref.alloca_scope {
 *       %sh = memref.alloca {kiln.gpu.shared} : memref<Wxf32>
 *       scf.parallel (%b) to P {                  the grid: one output each
 *         scf.parallel (%t) to T {
 *           p = combine over r = t, t+T, ... < R of f(ins[b, r])
 *           v = combine(p, gpu.shuffle xor p, 16), ... 1   (the warp's)
 *           if t % 32 == 0 { sh[t / 32] = v }
 *         }
 *         scf.parallel (%t) to 1 {
 *           out[b] = combine(out[b], sh[0], ..., sh[W - 1]) }
 *       } } }
 *
 * Without `shuffles` (the CPU) the butterfly is its tree through a %sh of
 * T, a phase per step (under 32 threads: one warp of T lanes). A
 * linalg.fill of the output right before the op becomes the value thread
 * 0 combines with (the fill disappears). T is the largest power of two up
 * to min(R, threads). The elementwise op after the reduction joins its
 * kernel when it reads only the output (Scale: applied in the store) or
 * reads it broadcast over the reduced dims (Normalize: a last phase over
 * the reduced elements). Sums are formed in another order than the
 * sequential loop's (expected: checked with tolerances). Generics whose inputs
 * form a contraction (two inputs both reduced, each indexed by a parallel dim
 * the other is not) are left to kiln-gpu-tile-contractions or the
 * one-output-per-thread mapping, and so is everything else: dynamic shapes,
 * other element types, other bodies, several outputs, linalg.index.
 * kiln-gpu-launch-phases turns the form into a gpu.launch with a workgroup
 * buffer and barriers. */
#include "kiln/passes.h"

#include <stdio.h>
#include <string.h>

#include "conversions/linalg-to-gpu/tile.h"
#include "dialects/linalg/transforms/schedule_text.h"
#include "kiln/diagnostics.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum {
  kOptEnable,
  kOptMinExtent,
  kOptThreads,
  kOptWarps,
  kOptShuffles,
  kNumOptions
};

enum { kMaxInputs = 16 }; /* kMaxRank: tile.h; at most kMaxMarkedInputs */

static const char *const kInMark = "kiln.reduce.in";
static const char *const kElemMark = "kiln.reduce.elem";
static const char *const kNormInMark = "kiln.normalize.in";
static const char *const kNormElemMark = "kiln.normalize.elem";

/* An operand's indices: loop l (>= 0) or the constant -1 - c. */
typedef struct Access {
  MlirValue value;
  MlirType type;
  intptr_t rank;
  int64_t index[kMaxRank];
} Access;

typedef struct Reduction {
  intptr_t inputs, loops;
  Access in[kMaxInputs], out;
  char kind[kMaxRank]; /* 'p' or 'r' */
  int64_t size[kMaxRank], stride[kMaxRank];
  bool outer[kMaxRank];    /* first of its group: no remainder needed */
  int64_t outputs, extent; /* P and R */
  MlirOperation combine;
} Reduction;

static bool staticF32MemRef(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsAMemRef(t) && mlirShapedTypeHasStaticShape(t) &&
         mlirTypeIsAF32(mlirShapedTypeGetElementType(t)) &&
         mlirShapedTypeGetRank(t) <= kMaxRank;
}

static bool staticFloatMemRef(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t) ||
      mlirShapedTypeGetRank(t) > kMaxRank)
    return false;
  MlirType e = mlirShapedTypeGetElementType(t);
  return mlirTypeIsAF32(e) || mlirTypeIsAF16(e) || mlirTypeIsABF16(e);
}

/* Reads `map` (results: dims or constants) into `x`. */
static bool setAccess(Access *x, MlirValue v, MlirAffineMap map) {
  x->value = v;
  x->type = mlirValueGetType(v);
  x->rank = mlirAffineMapGetNumResults(map);
  if (mlirAffineMapGetNumSymbols(map) || x->rank > kMaxRank ||
      mlirShapedTypeGetRank(x->type) != x->rank)
    return false;
  for (intptr_t i = 0; i < x->rank; ++i) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, i);
    if (mlirAffineExprIsADim(e))
      x->index[i] = mlirAffineDimExprGetPosition(e);
    else if (mlirAffineExprIsAConstant(e) &&
             mlirAffineConstantExprGetValue(e) >= 0)
      x->index[i] = -1 - mlirAffineConstantExprGetValue(e);
    else
      return false;
  }
  return true;
}

static bool accessUses(const Access *x, intptr_t loop) {
  for (intptr_t i = 0; i < x->rank; ++i)
    if (x->index[i] == loop)
      return true;
  return false;
}

static bool isCombine(MlirOperation op) {
  return kilnOpNameIs(op, "arith.addf") || kilnOpNameIs(op, "arith.maximumf") ||
         kilnOpNameIs(op, "arith.minimumf") ||
         kilnOpNameIs(op, "arith.maxnumf") || kilnOpNameIs(op, "arith.minnumf");
}

/* Whether the body is `yield combine(out, f(ins))` with `out` used once
 * and f region-free; sets the combine op. */
static bool matchBody(MlirOperation op, Reduction *rd) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockGetNumArguments(body) != rd->inputs + 1)
    return false;
  MlirOperation yield = mlirBlockGetTerminator(body);
  if (mlirOperationIsNull(yield) || mlirOperationGetNumOperands(yield) != 1)
    return false;
  MlirValue res = mlirOperationGetOperand(yield, 0);
  if (!mlirValueIsAOpResult(res))
    return false;
  MlirOperation comb = mlirOpResultGetOwner(res);
  if (!isCombine(comb) ||
      !mlirOperationEqual(mlirOperationGetNextInBlock(comb), yield))
    return false;
  MlirValue out = mlirBlockGetArgument(body, rd->inputs);
  MlirValue a = mlirOperationGetOperand(comb, 0);
  MlirValue b = mlirOperationGetOperand(comb, 1);
  if (!mlirValueEqual(a, out) && !mlirValueEqual(b, out))
    return false;
  if (mlirValueEqual(a, b))
    return false;
  /* `out` used only by the combine, once. */
  MlirOpOperand u = mlirValueGetFirstUse(out);
  if (mlirOpOperandIsNull(u) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)))
    return false;
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationEqual(o, comb); o = mlirOperationGetNextInBlock(o))
    if (mlirOperationGetNumRegions(o) || kilnOpNameIs(o, "linalg.index") ||
        mlirOperationGetNumResults(o) != 1)
      return false;
  rd->combine = comb;
  return true;
}

/* Two inputs both reduced, each indexed by a parallel dim the other is
 * not: a matrix product, not this pass's. */
static bool contractionLike(const Reduction *rd) {
  for (intptr_t i = 0; i < rd->inputs; ++i)
    for (intptr_t j = 0; j < rd->inputs; ++j) {
      if (i == j)
        continue;
      bool sharedR = false, onlyI = false, onlyJ = false;
      for (intptr_t l = 0; l < rd->loops; ++l) {
        bool ui = accessUses(&rd->in[i], l), uj = accessUses(&rd->in[j], l);
        if (rd->kind[l] == 'r')
          sharedR = sharedR || (ui && uj);
        else {
          onlyI = onlyI || (ui && !uj);
          onlyJ = onlyJ || (uj && !ui);
        }
      }
      if (sharedR && onlyI && onlyJ)
        return true;
    }
  return false;
}

/* Recognizes a reduction this pass handles. */
static bool matchReduction(MlirOperation op, Reduction *rd) {
  if (!kilnOpNameIs(op, "linalg.generic") || mlirOperationGetNumResults(op))
    return false;
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirAttribute seg =
      mlirOperationGetAttributeByName(op, kilnStr("operandSegmentSizes"));
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg) ||
      mlirDenseArrayGetNumElements(seg) != 2 ||
      mlirDenseI32ArrayGetElement(seg, 1) != 1)
    return false;
  MlirAttribute maps =
      mlirOperationGetAttributeByName(op, kilnStr("indexing_maps"));
  if (n < 2 || n - 1 > kMaxInputs || mlirAttributeIsNull(maps) ||
      !mlirAttributeIsAArray(maps) || mlirArrayAttrGetNumElements(maps) != n)
    return false;
  memset(rd, 0, sizeof(*rd));
  rd->inputs = n - 1;
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirAttribute m = mlirArrayAttrGetElement(maps, i);
    /* f32 accumulation; inputs may be f16 or bf16 (the body widens them,
     * as --precision leaves a sum over low-precision values). */
    if (!(i < n - 1 ? staticFloatMemRef(v) : staticF32MemRef(v)) ||
        !mlirAttributeIsAAffineMap(m))
      return false;
    MlirAffineMap map = mlirAffineMapAttrGetValue(m);
    rd->loops = mlirAffineMapGetNumDims(map);
    if (!setAccess(i < n - 1 ? &rd->in[i] : &rd->out, v, map))
      return false;
  }
  if (rd->loops < 1 || rd->loops > kMaxRank ||
      !kilnLinalgIteratorKinds(op, rd->kind, rd->loops) || !matchBody(op, rd))
    return false;
  for (intptr_t l = 0; l < rd->loops; ++l)
    rd->size[l] = -1;
  for (intptr_t i = 0; i < n; ++i) {
    const Access *x = i < n - 1 ? &rd->in[i] : &rd->out;
    for (intptr_t d = 0; d < x->rank; ++d) {
      int64_t s = mlirShapedTypeGetDimSize(x->type, d);
      int64_t l = x->index[d];
      if (l < 0) {
        if (-1 - l >= s)
          return false;
        continue;
      }
      if (l >= rd->loops || (rd->size[l] >= 0 && rd->size[l] != s))
        return false;
      rd->size[l] = s;
    }
  }
  /* The output: every parallel loop once, no reduction loop. */
  bool hasR = false;
  for (intptr_t l = 0; l < rd->loops; ++l) {
    if (rd->size[l] < 1)
      return false;
    int count = 0;
    for (intptr_t d = 0; d < rd->out.rank; ++d)
      count += rd->out.index[d] == l;
    if (count != (rd->kind[l] == 'p' ? 1 : 0))
      return false;
    hasR = hasR || rd->kind[l] == 'r';
  }
  if (!hasR || contractionLike(rd))
    return false;
  /* Parallel loops ordered as the output's dims, reduction loops as the
   * loops (innermost fastest). */
  rd->outputs = 1;
  bool first = true;
  for (intptr_t d = rd->out.rank - 1; d >= 0; --d) {
    int64_t l = rd->out.index[d];
    if (l < 0)
      continue;
    rd->stride[l] = rd->outputs;
    rd->outputs *= rd->size[l];
  }
  for (intptr_t d = 0; d < rd->out.rank && first; ++d)
    if (rd->out.index[d] >= 0) {
      rd->outer[rd->out.index[d]] = true;
      first = false;
    }
  rd->extent = 1;
  first = true;
  for (intptr_t l = rd->loops - 1; l >= 0; --l) {
    if (rd->kind[l] != 'r')
      continue;
    rd->stride[l] = rd->extent;
    rd->extent *= rd->size[l];
  }
  for (intptr_t l = 0; l < rd->loops && first; ++l)
    if (rd->kind[l] == 'r') {
      rd->outer[l] = true;
      first = false;
    }
  return true;
}

//===----------------------------------------------------------------------===//
// The schedule template
//===----------------------------------------------------------------------===//

/* The elementwise op reading the reduction's output that its final store
 * applies (a mean's division, a scale): a linalg.generic of parallel loops
 * over the output, its one input the output (identity maps), its body
 * arith/math ops whose other values are constants. Its result goes to its
 * own output at the same indices. */
typedef struct Scale {
  MlirOperation op; /* null: none */
  Access out;       /* the consumer's output, indexed as the reduction's */
} Scale;

/* The elementwise op after the reduction that reads its output broadcast
 * over the reduced dims (softmax's exp(x - max) / sum, layer norm's
 * (x - mean) * rsqrt(var + eps) * g + b): a linalg.generic of parallel
 * loops that are the reduction's loops one to one (same count and sizes),
 * reading the reduction's output as the reduction writes it, its other
 * inputs and its output at dims or constants, its body arith/math ops.
 * The reduction's kernel applies it once its output is complete: a phase
 * in which the threads of each output's block (warp) compute the
 * consumer's elements along the reduced dims, r = t, t + T, ... */
typedef struct Normalize {
  MlirOperation op; /* null: none */
  intptr_t n;       /* its operands: inputs, then the output */
  Access x[kMaxInputs + 1];
} Normalize;

typedef struct Gen {
  KilnScheduleText text;
  int c0, c1;            /* the index constants 0 and 1 */
  const Scale *scale;    /* the fused consumer of the output */
  const Normalize *norm; /* the fused consumer broadcasting it */
} Gen;

/* Loop l's index from its group's linear index `lin`. */
static int loopIndex(Gen *g, const Reduction *rd, intptr_t l, int lin) {
  int v = lin;
  if (rd->stride[l] > 1)
    v = kilnScheduleBinopConst(&g->text, "divui", v, rd->stride[l]);
  if (!rd->outer[l])
    v = kilnScheduleBinopConst(&g->text, "remui", v, rd->size[l]);
  return v;
}

/* `PREFIX%NAME[indices] ATTRS : TYPE`. */
static void appendAccess(Gen *g, const char *prefix, const char *name,
                         const Access *x, const int *idx, const char *attrs) {
  int v[kMaxRank];
  for (intptr_t d = 0; d < x->rank; ++d)
    v[d] = x->index[d] >= 0 ? idx[x->index[d]]
                            : kilnScheduleIndex(&g->text, -1 - x->index[d]);
  kilnStrBufAppendf(g->text.buf, "%s%%%s[", prefix, name);
  for (intptr_t d = 0; d < x->rank; ++d)
    kilnStrBufAppendf(g->text.buf, "%s%%v%d", d ? ", " : "", v[d]);
  kilnStrBufAppendf(g->text.buf, "] %s: ", attrs);
  kilnStrBufAppendType(g->text.buf, x->type);
  kilnStrBufAppend(g->text.buf, "\n", 1);
}

static void beginPhase(Gen *g, int bound, int *tid) {
  *tid = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(g->text.buf,
                    "scf.parallel (%%v%d) = (%%v%d) to (%%v%d) step (%%v%d) "
                    "{\n",
                    *tid, g->c0, bound, g->c1);
}

static void endPhase(Gen *g) {
  kilnStrBufAppendf(g->text.buf, "scf.reduce\n}\n");
}

/* `%vN = COMBINE %vA, %vB : f32`; returns N. */
static int combine(Gen *g, const char *name, int a, int b) {
  int n = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(g->text.buf, "%%v%d = %s %%v%d, %%v%d : f32\n", n, name, a,
                    b);
  return n;
}

/* The combine op's name (`arith.addf`, ...) into `name`; the template's
 * function header and constants (%ident: the combine's identity, -0 for
 * sums (-0 + x == x, also for x = -0), -inf for max, +inf for min). */
static void genHeader(Gen *g, const Reduction *rd, char *name, size_t size) {
  KilnStrBuf *buf = g->text.buf;
  MlirStringRef nameRef = mlirIdentifierStr(mlirOperationGetName(rd->combine));
  snprintf(name, size, "%.*s", (int)nameRef.length, nameRef.data);
  bool isAdd = !strcmp(name, "arith.addf");
  bool isMax =
      !strcmp(name, "arith.maximumf") || !strcmp(name, "arith.maxnumf");
  const char *ident = isAdd ? "-0.0" : isMax ? "0xFF800000" : "0x7F800000";
  kilnStrBufAppend(buf, "func.func @kiln_reduce(", 23);
  for (intptr_t i = 0; i < rd->inputs; ++i) {
    kilnStrBufAppendf(buf, "%%I%d: ", (int)i);
    kilnStrBufAppendType(buf, rd->in[i].type);
    kilnStrBufAppend(buf, ", ", 2);
  }
  kilnStrBufAppend(buf, "%O: ", 4);
  kilnStrBufAppendType(buf, rd->out.type);
  if (!mlirOperationIsNull(g->scale->op)) {
    kilnStrBufAppend(buf, ", %E: ", 6);
    kilnStrBufAppendType(buf, g->scale->out.type);
  }
  for (intptr_t k = 0; !mlirOperationIsNull(g->norm->op) && k < g->norm->n;
       ++k) {
    kilnStrBufAppendf(buf, ", %%N%d: ", (int)k);
    kilnStrBufAppendType(buf, g->norm->x[k].type);
  }
  kilnStrBufAppendf(
      buf, ", %%init: f32) {\n%%ident = arith.constant %s : f32\n", ident);
  g->c0 = kilnScheduleIndex(&g->text, 0);
  g->c1 = kilnScheduleIndex(&g->text, 1);
}

/* `%vP = scf.for r = start to R step step` combining f(ins) at the output
 * element whose parallel loops' indices are in `idx` (the reduced ones
 * filled in here): the inputs' loads and the marker the body's ops are
 * cloned before (reduceOp). Returns P. */
static int genPartial(Gen *g, const Reduction *rd, const char *name, int *idx,
                      int start, int step) {
  KilnStrBuf *buf = g->text.buf;
  int cR = kilnScheduleIndex(&g->text, rd->extent);
  int p = kilnScheduleFresh(&g->text), r = kilnScheduleFresh(&g->text),
      acc = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf,
                    "%%v%d = scf.for %%v%d = %%v%d to %%v%d step %%v%d "
                    "iter_args(%%v%d = %%ident) -> (f32) {\n",
                    p, r, start, cR, step, acc);
  for (intptr_t l = 0; l < rd->loops; ++l)
    if (rd->kind[l] == 'r')
      idx[l] = loopIndex(g, rd, l, r);
  for (intptr_t i = 0; i < rd->inputs; ++i) {
    char prefix[32], in[16], attrs[48];
    snprintf(prefix, sizeof(prefix), "%%in%d = memref.load ", (int)i);
    snprintf(in, sizeof(in), "I%d", (int)i);
    snprintf(attrs, sizeof(attrs), "{%s = %d : i64} ", kInMark, (int)i);
    appendAccess(g, prefix, in, &rd->in[i], idx, attrs);
  }
  int e = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf, "%%v%d = arith.constant {%s} 0.0 : f32\n", e,
                    kElemMark);
  int s = combine(g, name, acc, e);
  kilnStrBufAppendf(buf, "scf.yield %%v%d : f32\n}\n", s);
  return p;
}

/* out[idx] = combine(out's initial content, v). */
static void genStore(Gen *g, const Reduction *rd, const char *name,
                     const int *idx, int v, bool fromOut) {
  int o = kilnScheduleFresh(&g->text);
  char prefix[48];
  if (fromOut) {
    snprintf(prefix, sizeof(prefix), "%%v%d = memref.load ", o);
    appendAccess(g, prefix, "O", &rd->out, idx, "");
  } else {
    kilnStrBufAppendf(g->text.buf, "%%v%d = %s %%init, %%ident : f32\n", o,
                      name);
  }
  int z = combine(g, name, o, v);
  if (!mlirOperationIsNull(g->scale->op)) {
    int r = kilnScheduleFresh(&g->text);
    kilnStrBufAppendf(
        g->text.buf, "%%v%d = func.call @kiln_epilogue(%%v%d) : (f32) -> f32\n",
        r, z);
    snprintf(prefix, sizeof(prefix), "memref.store %%v%d, ", r);
    appendAccess(g, prefix, "E", &g->scale->out, idx, "");
    return;
  }
  snprintf(prefix, sizeof(prefix), "memref.store %%v%d, ", z);
  appendAccess(g, prefix, "O", &rd->out, idx, "");
}

/* Opens the grid loop `scf.parallel (%b) to bound`; returns b. */
static int openGrid(Gen *g, int bound) {
  int b = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(g->text.buf,
                    "scf.parallel (%%v%d) = (%%v%d) to (%%v%d) step (%%v%d) "
                    "{\n",
                    b, g->c0, bound, g->c1);
  return b;
}

/* The fused Normalize's elements of the output whose parallel indices are
 * in `idx` (the reduced ones filled in here): r = start, start + step, ...
 * < R, its inputs' loads and the marker its body's ops are cloned before
 * (reduceOp), stored to its output. */
static void genNormalize(Gen *g, const Reduction *rd, int *idx, int start,
                         int step) {
  const Normalize *nz = g->norm;
  KilnStrBuf *buf = g->text.buf;
  int cR = kilnScheduleIndex(&g->text, rd->extent);
  int r = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf, "scf.for %%v%d = %%v%d to %%v%d step %%v%d {\n", r,
                    start, cR, step);
  for (intptr_t l = 0; l < rd->loops; ++l)
    if (rd->kind[l] == 'r')
      idx[l] = loopIndex(g, rd, l, r);
  for (intptr_t k = 0; k + 1 < nz->n; ++k) {
    char prefix[32], in[16], attrs[48];
    snprintf(prefix, sizeof(prefix), "%%v%d = memref.load ",
             kilnScheduleFresh(&g->text));
    snprintf(in, sizeof(in), "N%d", (int)k);
    snprintf(attrs, sizeof(attrs), "{%s = %d : i64} ", kNormInMark, (int)k);
    appendAccess(g, prefix, in, &nz->x[k], idx, attrs);
  }
  const Access *out = &nz->x[nz->n - 1];
  int e = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf, "%%v%d = arith.constant {%s} 0.0 : ", e,
                    kNormElemMark);
  kilnStrBufAppendType(buf, mlirShapedTypeGetElementType(out->type));
  char prefix[32], name[16];
  snprintf(prefix, sizeof(prefix), "\nmemref.store %%v%d, ", e);
  snprintf(name, sizeof(name), "N%d", (int)(nz->n - 1));
  appendAccess(g, prefix, name, out, idx, "");
  kilnStrBufAppend(buf, "}\n", 2);
}

static void genFooter(Gen *g, int64_t threads) {
  kilnStrBufAppendf(g->text.buf,
                    "scf.reduce\n}\n}\nscf.yield\n}"
                    " {kiln.gpu.block_size = %lld : i64}\nreturn\n}\n",
                    (long long)threads);
  if (!mlirOperationIsNull(g->scale->op))
    kilnStrBufAppendf(g->text.buf,
                      "func.func private @kiln_epilogue(f32) -> f32\n");
}

/* Combines the values `v` of each group of `lanes` lanes of a warp by a
 * butterfly of gpu.shuffle xor (lanes/2, ..., 1): every lane is left with
 * the group's value. Returns it. */
static int genButterfly(Gen *g, const char *name, int v, int64_t lanes) {
  for (int64_t k = lanes / 2; k >= 1; k /= 2) {
    int s = kilnScheduleFresh(&g->text);
    kilnStrBufAppendf(g->text.buf,
                      "%%k%d = arith.constant %lld : i32\n"
                      "%%w%d = arith.constant %lld : i32\n"
                      "%%v%d, %%ok%d = gpu.shuffle xor %%v%d, %%k%d, "
                      "%%w%d : f32\n",
                      s, (long long)k, s, (long long)lanes, s, s, v, s, s);
    v = combine(g, name, v, s);
  }
  return v;
}

/* The butterfly's CPU form, one step of it per phase: in each group of
 * lanes (lane = t % lanes), lanes below `half` combine the %sh value of
 * lane + half into theirs, which leaves lane 0 with the butterfly's value,
 * combined in the same order. */
static void genTreeStep(Gen *g, const char *name, int cT, int64_t threads,
                        int64_t lanes, int64_t half) {
  KilnStrBuf *buf = g->text.buf;
  int tid;
  beginPhase(g, cT, &tid);
  int lane = kilnScheduleBinopConst(&g->text, "remui", tid, lanes);
  int c = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf,
                    "%%v%d = arith.cmpi ult, %%v%d, %%v%d : index\n"
                    "scf.if %%v%d {\n",
                    c, lane, kilnScheduleIndex(&g->text, half), c);
  int other = kilnScheduleBinopConst(&g->text, "addi", tid, half);
  int x = kilnScheduleFresh(&g->text), y = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf,
                    "%%v%d = memref.load %%sh[%%v%d] : memref<%lldxf32>\n"
                    "%%v%d = memref.load %%sh[%%v%d] : memref<%lldxf32>\n",
                    x, tid, (long long)threads, y, other, (long long)threads);
  int z = combine(g, name, x, y);
  kilnStrBufAppendf(buf,
                    "memref.store %%v%d, %%sh[%%v%d] : memref<%lldxf32>\n"
                    "}\n",
                    z, tid, (long long)threads);
  endPhase(g);
}

/* A block reduction of T threads by warps (W = T / 32 of them; one of T
 * lanes below 32): each warp's partials combined by a butterfly of
 * shuffles, lane 0 storing the warp's value to sh[w]; then thread 0
 * combines sh[0 .. W-1] with the output: one barrier, where a tree
 * through shared memory takes log2(T). Without `shuffles` (the CPU) the
 * butterfly is its tree through sh (genTreeStep) and the warps' values
 * are sh[32 w]. */
static void genBlockTemplate(KilnStrBuf *buf, const Reduction *rd,
                             int64_t threads, bool fromOut, bool shuffles,
                             const Scale *scale, const Normalize *norm) {
  Gen gen = {{buf, 0}, 0, 0, scale, norm}, *g = &gen;
  char name[32];
  genHeader(g, rd, name, sizeof(name));
  int64_t lanes = threads < 32 ? threads : 32, warps = threads / lanes;
  int64_t shSize = shuffles ? warps : threads;
  int cT = kilnScheduleIndex(&g->text, threads),
      cP = kilnScheduleIndex(&g->text, rd->outputs);
  kilnStrBufAppendf(buf,
                    "scf.execute_region no_inline {\nmemref.alloca_scope {\n"
                    "%%sh = memref.alloca() {kiln.gpu.shared} : "
                    "memref<%lldxf32>\n",
                    (long long)shSize);
  int b = openGrid(g, cP);
  int idx[kMaxRank];
  for (intptr_t l = 0; l < rd->loops; ++l)
    if (rd->kind[l] == 'p')
      idx[l] = loopIndex(g, rd, l, b);
  int tid;
  beginPhase(g, cT, &tid);
  int p = genPartial(g, rd, name, idx, tid, cT);
  if (shuffles) {
    int v = genButterfly(g, name, p, lanes);
    int lane = kilnScheduleBinopConst(&g->text, "remui", tid, lanes);
    int w = kilnScheduleBinopConst(&g->text, "divui", tid, lanes);
    int first = kilnScheduleFresh(&g->text);
    kilnStrBufAppendf(buf,
                      "%%v%d = arith.cmpi eq, %%v%d, %%v%d : index\n"
                      "scf.if %%v%d {\n"
                      "memref.store %%v%d, %%sh[%%v%d] : memref<%lldxf32>\n"
                      "}\n",
                      first, lane, g->c0, first, v, w, (long long)shSize);
  } else {
    kilnStrBufAppendf(buf,
                      "memref.store %%v%d, %%sh[%%v%d] : memref<%lldxf32>\n", p,
                      tid, (long long)shSize);
  }
  endPhase(g);
  for (int64_t half = lanes / 2; !shuffles && half >= 1; half /= 2)
    genTreeStep(g, name, cT, threads, lanes, half);
  /* Thread 0: the warps' values, in order, then the output. */
  beginPhase(g, g->c1, &tid);
  int v = -1;
  for (int64_t w = 0; w < warps; ++w) {
    int at = kilnScheduleIndex(&g->text, shuffles ? w : lanes * w);
    int x = kilnScheduleFresh(&g->text);
    kilnStrBufAppendf(buf,
                      "%%v%d = memref.load %%sh[%%v%d] : memref<%lldxf32>\n", x,
                      at, (long long)shSize);
    v = w ? combine(g, name, v, x) : x;
  }
  genStore(g, rd, name, idx, v, fromOut);
  endPhase(g);
  if (!mlirOperationIsNull(norm->op)) {
    beginPhase(g, cT, &tid);
    genNormalize(g, rd, idx, tid, cT);
    endPhase(g);
  }
  genFooter(g, threads);
}

/* Thread `tid`'s output o = base + tid / lanes and lane tid % lanes in a
 * warp-level reduction; `valid` (o < P) where the last block is ragged,
 * else -1; the output's parallel indices into `idx`. */
static void warpOutput(Gen *g, const Reduction *rd, int base, int tid,
                       int64_t lanes, bool ragged, int *lane, int *valid,
                       int *idx) {
  int o =
      kilnScheduleBinop(&g->text, "addi", base,
                        kilnScheduleBinopConst(&g->text, "divui", tid, lanes));
  *lane = kilnScheduleBinopConst(&g->text, "remui", tid, lanes);
  *valid = -1;
  if (ragged) {
    int cP = kilnScheduleIndex(&g->text, rd->outputs);
    *valid = kilnScheduleFresh(&g->text);
    kilnStrBufAppendf(g->text.buf,
                      "%%v%d = arith.cmpi ult, %%v%d, %%v%d : index\n", *valid,
                      o, cP);
  }
  for (intptr_t l = 0; l < rd->loops; ++l)
    if (rd->kind[l] == 'p')
      idx[l] = loopIndex(g, rd, l, o);
}

/* A warp-level reduction for short extents: blocks of 256 threads, `lanes`
 * (a power of two up to 32) per output, so 256 / lanes outputs per block.
 * Each lane combines a strided slice (r = lane, lane + lanes, ...); the
 * lanes' partials are combined by a butterfly of gpu.shuffle xor
 * (`shuffles`), or, on the CPU, by the same pairs in a tree through shared
 * memory (genTreeStep); lane 0 stores; a fused Normalize then runs over
 * each output's lanes:
 *
 *   scf.parallel (%blk) to ceil(P / G) {               G = 256 / lanes
 *     scf.parallel (%t) to 256 {
 *       o = blk * G + t / lanes, lane = t % lanes
 *       v = o < P ? combine over r = lane, lane + lanes, ... : identity
 *       v = combine(v, shuffle xor v, k) for k = lanes/2 ... 1
 *       if lane == 0 and o < P: out[o] = combine(out[o], v)
 *     }
 *     scf.parallel (%t) to 256 {                       with a Normalize
 *       if o < P: for r = lane, lane + lanes, ...: y[o, r] = f(.., out[o])
 *   } } */
static void genWarpTemplate(KilnStrBuf *buf, const Reduction *rd, int64_t lanes,
                            bool fromOut, bool shuffles, const Scale *scale,
                            const Normalize *norm) {
  const int64_t threads = 256, perBlock = threads / lanes;
  Gen gen = {{buf, 0}, 0, 0, scale, norm}, *g = &gen;
  char name[32];
  genHeader(g, rd, name, sizeof(name));
  int cT = kilnScheduleIndex(&g->text, threads);
  int cLanes = kilnScheduleIndex(&g->text, lanes);
  int cB = kilnScheduleIndex(&g->text, (rd->outputs + perBlock - 1) / perBlock);
  bool ragged = rd->outputs % perBlock != 0;
  kilnStrBufAppendf(buf,
                    "scf.execute_region no_inline {\nmemref.alloca_scope {\n");
  if (!shuffles)
    kilnStrBufAppendf(buf,
                      "%%sh = memref.alloca() {kiln.gpu.shared} : "
                      "memref<%lldxf32>\n",
                      (long long)threads);
  int blk = openGrid(g, cB);
  int base = kilnScheduleBinopConst(&g->text, "muli", blk, perBlock);
  /* The lane's partial (the identity for outputs past the end). */
  int tid, lane, valid, idx[kMaxRank];
  beginPhase(g, cT, &tid);
  warpOutput(g, rd, base, tid, lanes, ragged, &lane, &valid, idx);
  int v = -1;
  if (ragged) {
    v = kilnScheduleFresh(&g->text);
    kilnStrBufAppendf(buf, "%%v%d = scf.if %%v%d -> (f32) {\n", v, valid);
  }
  int p = genPartial(g, rd, name, idx, lane, cLanes);
  if (ragged)
    kilnStrBufAppendf(buf,
                      "scf.yield %%v%d : f32\n} else {\n"
                      "scf.yield %%ident : f32\n}\n",
                      p);
  else
    v = p;
  if (shuffles) {
    v = genButterfly(g, name, v, lanes);
  } else {
    kilnStrBufAppendf(buf,
                      "memref.store %%v%d, %%sh[%%v%d] : memref<%lldxf32>\n", v,
                      tid, (long long)threads);
    endPhase(g);
    for (int64_t half = lanes / 2; half >= 1; half /= 2)
      genTreeStep(g, name, cT, threads, lanes, half);
    beginPhase(g, cT, &tid);
    warpOutput(g, rd, base, tid, lanes, ragged, &lane, &valid, idx);
    v = kilnScheduleFresh(&g->text);
    kilnStrBufAppendf(buf,
                      "%%v%d = memref.load %%sh[%%v%d] : memref<%lldxf32>\n", v,
                      tid, (long long)threads);
  }
  /* Lane 0 of each output stores. */
  int first = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf, "%%v%d = arith.cmpi eq, %%v%d, %%v%d : index\n", first,
                    lane, g->c0);
  if (ragged) {
    int both = kilnScheduleFresh(&g->text);
    kilnStrBufAppendf(buf, "%%v%d = arith.andi %%v%d, %%v%d : i1\n", both,
                      first, valid);
    first = both;
  }
  kilnStrBufAppendf(buf, "scf.if %%v%d {\n", first);
  genStore(g, rd, name, idx, v, fromOut);
  kilnStrBufAppend(buf, "}\n", 2);
  endPhase(g);
  if (!mlirOperationIsNull(norm->op)) {
    beginPhase(g, cT, &tid);
    warpOutput(g, rd, base, tid, lanes, ragged, &lane, &valid, idx);
    if (ragged)
      kilnStrBufAppendf(buf, "scf.if %%v%d {\n", valid);
    genNormalize(g, rd, idx, lane, cLanes);
    if (ragged)
      kilnStrBufAppend(buf, "}\n", 2);
    endPhase(g);
  }
  genFooter(g, threads);
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/* The linalg.fill of `out` right before `op` (constants in between), if
 * any: its value becomes the initial value thread 0 combines with (the
 * fill's kernel disappears, as scf-parallel-loop-fusion merged it with the
 * one-output-per-thread loop). */
/* Whether `op` only makes a value: a constant, or a static allocation
 * (which may move before the reduction when its consumer is fused). */
static bool onlyMakes(MlirOperation op) {
  return kilnOpNameIs(op, "arith.constant") ||
         (kilnOpNameIs(op, "memref.alloc") && !mlirOperationGetNumOperands(op));
}

static MlirOperation precedingFill(MlirOperation op, MlirValue out) {
  MlirOperation p = kilnPrevInBlock(op);
  while (!mlirOperationIsNull(p) && kilnOpNameIs(p, "arith.constant"))
    p = kilnPrevInBlock(p);
  if (mlirOperationIsNull(p) || !kilnOpNameIs(p, "linalg.fill") ||
      mlirOperationGetNumOperands(p) != 2 || mlirOperationGetNumResults(p) ||
      !mlirValueEqual(mlirOperationGetOperand(p, 1), out) ||
      !mlirTypeIsAF32(mlirValueGetType(mlirOperationGetOperand(p, 0))))
    return (MlirOperation){NULL};
  return p;
}

/* Whether every use of `v` (through views) is one of `ops` or a dealloc. */
static bool onlyUsedBy(MlirValue v, const MlirOperation *ops, int n) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    bool ok = kilnOpNameIs(owner, "memref.dealloc");
    for (int i = 0; i < n && !ok; ++i)
      ok = mlirOperationEqual(owner, ops[i]);
    if (!ok && mlirOperationGetNumResults(owner) == 1 &&
        mlirTypeIsAMemRef(mlirValueGetType(mlirOperationGetResult(owner, 0))) &&
        mlirValueEqual(kilnGpuViewRoot(mlirOperationGetResult(owner, 0)),
                       kilnGpuViewRoot(v)))
      ok = onlyUsedBy(mlirOperationGetResult(owner, 0), ops, n);
    if (!ok)
      return false;
  }
  return true;
}

/* Whether `map` is the identity on `rank` dims. */
static bool isIdentity(MlirAttribute m, intptr_t rank) {
  if (!mlirAttributeIsAAffineMap(m))
    return false;
  MlirAffineMap map = mlirAffineMapAttrGetValue(m);
  return mlirAffineMapIsIdentity(map) && mlirAffineMapGetNumDims(map) == rank;
}

/* The consumer of `op`'s output that its store can apply (Scale): the next
 * op (constants aside); the output buffer then only used by the two ops,
 * the fill and deallocations, unless the consumer writes it in place. */
/* Whether linalg.generic `g`'s body is region-free arith/math ops on its
 * arguments, its own values and constants, yielding one value, its output
 * element unread. */
static bool elementwiseBody(MlirOperation g) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(g, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  intptr_t nArgs = mlirBlockGetNumArguments(body);
  if (nArgs < 1 || nArgs > kMaxInputs + 1 ||
      !mlirOpOperandIsNull(
          mlirValueGetFirstUse(mlirBlockGetArgument(body, nArgs - 1))) ||
      mlirOperationGetNumOperands(yield) != 1)
    return false;
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationEqual(o, yield); o = mlirOperationGetNextInBlock(o)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(o));
    bool arithOrMath = (n.length > 6 && !memcmp(n.data, "arith.", 6)) ||
                       (n.length > 5 && !memcmp(n.data, "math.", 5));
    if (!arithOrMath || mlirOperationGetNumRegions(o))
      return false;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); ++i) {
      MlirValue v = mlirOperationGetOperand(o, i);
      bool inside =
          mlirValueIsABlockArgument(v)
              ? mlirBlockEqual(mlirBlockArgumentGetOwner(v), body)
              : mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(v)),
                               body) ||
                    kilnOpNameIs(mlirOpResultGetOwner(v), "arith.constant");
      if (!inside)
        return false;
    }
  }
  return true;
}

/* The op after `op`, constants and static allocations passed over; null
 * if none. */
static MlirOperation nextConsumer(MlirOperation op) {
  MlirOperation g = mlirOperationGetNextInBlock(op);
  while (!mlirOperationIsNull(g) && onlyMakes(g))
    g = mlirOperationGetNextInBlock(g);
  return g;
}

/* Moves the static allocations between `from` and the fused consumer `to`
 * before `op`: the kernel replacing `op` writes into them. */
static void hoistAllocations(MlirOperation from, MlirOperation to,
                             MlirOperation op) {
  for (MlirOperation o = mlirOperationGetNextInBlock(from);
       !mlirOperationEqual(o, to);) {
    MlirOperation next = mlirOperationGetNextInBlock(o);
    if (kilnOpNameIs(o, "memref.alloc"))
      mlirOperationMoveBefore(o, op);
    o = next;
  }
}

static void matchScale(MlirOperation op, const Reduction *rd,
                       MlirOperation fill, Scale *sc) {
  memset(sc, 0, sizeof(*sc));
  MlirOperation g = nextConsumer(op);
  if (mlirOperationIsNull(g) || !kilnOpNameIs(g, "linalg.generic") ||
      mlirOperationGetNumResults(g) || kilnGpuSingleOutputIns(g) != 1 ||
      mlirOperationGetNumOperands(g) != 2 ||
      !mlirValueEqual(mlirOperationGetOperand(g, 0), rd->out.value))
    return;
  MlirValue out = mlirOperationGetOperand(g, 1);
  intptr_t rank = rd->out.rank;
  char kinds[kMaxRank];
  MlirAttribute maps =
      mlirOperationGetAttributeByName(g, kilnStr("indexing_maps"));
  if (!staticF32MemRef(out) ||
      !mlirTypeEqual(mlirValueGetType(out), rd->out.type) || rank < 1 ||
      !kilnLinalgIteratorKinds(g, kinds, rank) || mlirAttributeIsNull(maps) ||
      mlirArrayAttrGetNumElements(maps) != 2 ||
      !isIdentity(mlirArrayAttrGetElement(maps, 0), rank) ||
      !isIdentity(mlirArrayAttrGetElement(maps, 1), rank))
    return;
  for (intptr_t l = 0; l < rank; ++l)
    if (kinds[l] != 'p')
      return;
  if (!elementwiseBody(g))
    return;
  /* Not in place, the reduction's output must be a temporary nothing
   * else reads (a function's output buffer would lose its values). */
  bool inPlace = mlirValueEqual(out, rd->out.value);
  MlirValue root = kilnGpuViewRoot(rd->out.value);
  MlirOperation users[3] = {op, g, fill};
  if (!inPlace &&
      (!mlirValueIsAOpResult(root) ||
       !kilnOpNameIs(mlirOpResultGetOwner(root), "memref.alloc") ||
       !onlyUsedBy(root, users, mlirOperationIsNull(fill) ? 2 : 3) ||
       mlirValueEqual(kilnGpuViewRoot(out), kilnGpuViewRoot(rd->out.value))))
    return;
  for (intptr_t i = 0; i < rd->inputs; ++i)
    if (mlirValueEqual(kilnGpuViewRoot(out), kilnGpuViewRoot(rd->in[i].value)))
      return;
  sc->op = g;
  sc->out = rd->out;
  sc->out.value = out;
}

static bool sameAccess(const Access *a, const Access *b) {
  if (a->rank != b->rank)
    return false;
  for (intptr_t d = 0; d < a->rank; ++d)
    if (a->index[d] != b->index[d])
      return false;
  return true;
}

/* The Normalize right after `after` (the reduction, or its fused Scale)
 * reading `value` (the reduction's output, or the Scale's) indexed as the
 * reduction's output. */
static void matchNormalize(MlirOperation after, const Reduction *rd,
                           MlirValue value, Normalize *nz) {
  memset(nz, 0, sizeof(*nz));
  MlirOperation g = nextConsumer(after);
  if (mlirOperationIsNull(g) || !kilnOpNameIs(g, "linalg.generic") ||
      mlirOperationGetNumResults(g))
    return;
  intptr_t nIns = kilnGpuSingleOutputIns(g), n = nIns + 1;
  char kinds[kMaxRank];
  MlirAttribute maps =
      mlirOperationGetAttributeByName(g, kilnStr("indexing_maps"));
  if (nIns < 1 || n > kMaxInputs + 1 || mlirOperationGetNumOperands(g) != n ||
      !kilnLinalgIteratorKinds(g, kinds, rd->loops) ||
      mlirAttributeIsNull(maps) || mlirArrayAttrGetNumElements(maps) != n)
    return;
  for (intptr_t l = 0; l < rd->loops; ++l)
    if (kinds[l] != 'p')
      return;
  /* Every loop read with the reduction's loop's size; the reduction's
   * output read as it is written. */
  bool seen[kMaxRank] = {false}, readsOut = false;
  for (intptr_t k = 0; k < n; ++k) {
    Access *x = &nz->x[k];
    MlirValue v = mlirOperationGetOperand(g, k);
    if (!staticFloatMemRef(v) ||
        !setAccess(x, v,
                   mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, k))))
      return;
    for (intptr_t d = 0; d < x->rank; ++d) {
      int64_t l = x->index[d];
      if (l >= rd->loops ||
          (l >= 0 && mlirShapedTypeGetDimSize(x->type, d) != rd->size[l]))
        return;
      if (l >= 0)
        seen[l] = true;
    }
    if (k < nIns && mlirValueEqual(v, value)) {
      if (!sameAccess(x, &rd->out))
        return;
      readsOut = true;
    }
  }
  for (intptr_t l = 0; l < rd->loops; ++l)
    if (!seen[l])
      return;
  if (!readsOut || !elementwiseBody(g))
    return;
  /* Its output is written while other blocks still read: it must share no
   * buffer with what the kernel reads or the reduction writes. */
  MlirValue outRoot = kilnGpuViewRoot(nz->x[nIns].value);
  for (intptr_t k = 0; k < nIns; ++k)
    if (mlirValueEqual(kilnGpuViewRoot(nz->x[k].value), outRoot))
      return;
  for (intptr_t i = 0; i < rd->inputs; ++i)
    if (mlirValueEqual(kilnGpuViewRoot(rd->in[i].value), outRoot))
      return;
  nz->op = g;
  nz->n = n;
}

/* Replaces `op` by the schedule: a block per output of `threads`, or with
 * `lanes` > 0 a warp-level one; false after an error. */
static bool reduceOp(MlirOperation op, const Reduction *rd, int64_t threads,
                     int64_t lanes, bool shuffles) {
  MlirContext ctx = mlirOperationGetContext(op);
  /* The fill is replaced only where the op writes all of the output (an
   * output dim at a constant index has size 1). */
  MlirOperation fill = precedingFill(op, rd->out.value);
  for (intptr_t d = 0; d < rd->out.rank; ++d)
    if (rd->out.index[d] < 0 && mlirShapedTypeGetDimSize(rd->out.type, d) != 1)
      fill = (MlirOperation){NULL};
  Scale scale;
  Normalize norm = {0};
  matchScale(op, rd, fill, &scale);
  bool scaled = !mlirOperationIsNull(scale.op);
  MlirOperation last = scaled ? scale.op : op;
  matchNormalize(last, rd, scaled ? scale.out.value : rd->out.value, &norm);
  bool normalized = !mlirOperationIsNull(norm.op);
  if (scaled)
    hoistAllocations(op, scale.op, op);
  if (normalized)
    hoistAllocations(last, norm.op, op);
  KilnStrBuf text = {0};
  if (lanes > 0)
    genWarpTemplate(&text, rd, lanes, mlirOperationIsNull(fill), shuffles,
                    &scale, &norm);
  else
    genBlockTemplate(&text, rd, threads, mlirOperationIsNull(fill), shuffles,
                     &scale, &norm);
  MlirModule tmpl = mlirModuleCreateParse(ctx, kilnStr(kilnStrBufGet(&text)));
  kilnStrBufDestroy(&text);
  if (mlirModuleIsNull(tmpl)) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "kiln-gpu-block-reductions: internal error: the schedule "
                   "template does not parse");
    return false;
  }
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(tmpl));
  MlirBlock fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  /* The body's elementwise part, copied before the element's marker. */
  KilnGpuMarks m;
  kilnGpuFindMarks(func, kInMark, kElemMark, &m);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirValue out = mlirBlockGetArgument(body, rd->inputs);
  MlirValue e = mlirOperationGetOperand(rd->combine, 0);
  if (mlirValueEqual(e, out))
    e = mlirOperationGetOperand(rd->combine, 1);
  kilnGpuInlineMarked(body, rd->combine, e, &m);
  if (normalized) {
    MlirBlock nbody =
        mlirRegionGetFirstBlock(mlirOperationGetRegion(norm.op, 0));
    MlirOperation yield = mlirBlockGetTerminator(nbody);
    KilnGpuMarks nm;
    kilnGpuFindMarks(func, kNormInMark, kNormElemMark, &nm);
    kilnGpuInlineMarked(nbody, yield, mlirOperationGetOperand(yield, 0), &nm);
  }
  for (intptr_t i = 0; i <= rd->inputs; ++i)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, i),
                                  mlirOperationGetOperand(op, i));
  /* Then %E (scaled), %N0 .. (normalized), %init. */
  intptr_t arg = rd->inputs + 1;
  if (scaled)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, arg++),
                                  scale.out.value);
  for (intptr_t k = 0; normalized && k < norm.n; ++k)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, arg++),
                                  mlirOperationGetOperand(norm.op, k));
  intptr_t initArg = arg;
  if (!mlirOperationIsNull(fill))
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, initArg),
                                  mlirOperationGetOperand(fill, 0));
  KilnOpList calls = {0};
  kilnGpuSpliceTemplate(fbody, op, &calls);
  if (scaled) {
    MlirBlock sbody =
        mlirRegionGetFirstBlock(mlirOperationGetRegion(scale.op, 0));
    intptr_t arg0 = 0;
    for (size_t i = 0; i < calls.len; ++i)
      kilnGpuInlineSlice(
          calls.data[i], sbody, &arg0, 1,
          mlirOperationGetOperand(mlirBlockGetTerminator(sbody), 0));
  }
  kilnOpListDestroy(&calls);
  mlirModuleDestroy(tmpl);
  MlirValue outRoot = kilnGpuViewRoot(rd->out.value);
  bool inPlace = scaled && mlirValueEqual(scale.out.value, rd->out.value);
  mlirOperationDestroy(op);
  if (!mlirOperationIsNull(fill))
    mlirOperationDestroy(fill);
  if (normalized)
    mlirOperationDestroy(norm.op);
  if (scaled) {
    mlirOperationDestroy(scale.op);
    if (!inPlace)
      kilnGpuEraseIfDead(outRoot);
  }
  return true;
}

typedef struct Collect {
  KilnOpList *ops;
  int64_t minExtent;
  bool warps;
} Collect;

/* Whether threads cooperating per output pay: a block per output from
 * `minExtent` reduced elements, a warp's lanes from 2 (with `warps`); and
 * not a largest input whose contiguous dim is a parallel loop of a warp's
 * worth or more (the one-output-per-thread loop reads that coalesced
 * already, e.g. a reduction over an outer dim of a wide tensor). */
static bool pays(const Reduction *rd, int64_t minExtent, bool warps) {
  if (rd->extent < (warps ? 2 : minExtent))
    return false;
  const Access *big = NULL;
  int64_t most = -1;
  for (intptr_t i = 0; i < rd->inputs; ++i) {
    int64_t n = 1;
    for (intptr_t d = 0; d < rd->in[i].rank; ++d)
      n *= mlirShapedTypeGetDimSize(rd->in[i].type, d);
    if (n > most) {
      most = n;
      big = &rd->in[i];
    }
  }
  if (!big || big->rank == 0)
    return true;
  int64_t l = big->index[big->rank - 1];
  return l < 0 || rd->kind[l] != 'p' || rd->size[l] < 32;
}

static MlirWalkResult collectReductions(MlirOperation op, void *userData) {
  Collect *c = userData;
  Reduction rd;
  if (matchReduction(op, &rd) && pays(&rd, c->minExtent, c->warps))
    kilnOpListPush(c->ops, op);
  return MlirWalkResultAdvance;
}

static void runBlockReductions(MlirOperation func, MlirExternalPass pass,
                               const KilnPassOptionValue *options) {
  int64_t minExtent = options[kOptMinExtent].i;
  int64_t threads = options[kOptThreads].i;
  if (minExtent < 1) {
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "kiln-gpu-block-reductions: min-extent=%lld: must be at "
                   "least 1",
                   (long long)minExtent);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  if (threads < 1 || threads > 1024 || (threads & (threads - 1))) {
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "kiln-gpu-block-reductions: threads=%lld: must be a power "
                   "of two from 1 to 1024",
                   (long long)threads);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  if (!options[kOptEnable].b)
    return;
  KilnOpList ops = {0};
  Collect c = {&ops, minExtent, options[kOptWarps].b};
  mlirOperationWalk(func, collectReductions, &c, MlirWalkPostOrder);
  bool ok = true;
  for (size_t i = 0; i < ops.len && ok; ++i) {
    Reduction rd;
    matchReduction(ops.data[i], &rd);
    /* T, or the lanes per output: the largest power of two up to the
     * extent and the block (a warp). */
    bool warp = rd.extent < minExtent;
    int64_t limit = warp ? 32 : threads, t = 1;
    while (t * 2 <= limit && t * 2 <= rd.extent)
      t *= 2;
    ok = reduceOp(ops.data[i], &rd, t, warp ? t : 0, options[kOptShuffles].b);
  }
  kilnOpListDestroy(&ops);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnPassOptionSpec kOptions[kNumOptions] = {
    [kOptEnable] = {"enable", KILN_PASS_OPTION_BOOL, "true",
                    "Turn reductions into block reductions (false: leave "
                    "every op to the one-output-per-thread mapping)"},
    [kOptMinExtent] = {"min-extent", KILN_PASS_OPTION_INT, "64",
                       "Leave reductions over fewer elements per output "
                       "alone"},
    [kOptThreads] = {"threads", KILN_PASS_OPTION_INT, "256",
                     "Threads per block (a power of two; fewer for shorter "
                     "extents)"},
    [kOptWarps] = {"warps", KILN_PASS_OPTION_BOOL, "true",
                   "Shorter reductions (from 2 elements) as warp-level "
                   "ones: up to 32 lanes per output, 256-thread blocks"},
    [kOptShuffles] = {"shuffles", KILN_PASS_OPTION_BOOL, "true",
                      "Combine a warp's lanes by gpu.shuffle (false: the "
                      "same pairs through shared memory, for the CPU)"},
};

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__scf__, mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__gpu__};

const KilnPassInfo kilnGpuBlockReductionsPass = {
    .argument = "kiln-gpu-block-reductions",
    .summary = "Turn static f32 reductions into GPU block and warp "
               "reductions: strided per-thread partials combined by warp "
               "shuffles, as block and thread-phase loops",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runBlockReductions,
    .dependentDialects = kDialects,
    .numDependentDialects = 4,
};

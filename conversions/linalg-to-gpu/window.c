/* kiln-gpu-tile-windows: the GPU schedule of window ops, depthwise convs
 * and pools (docs/gpu-codegen.md, "Windows").
 *
 * Runs on bufferized memrefs before convert-linalg-to-parallel-loops, next
 * to kiln-gpu-tile-contractions. A window op reads, for each output
 * element [..., oh, ow], the elements [..., a_k + oh*sh, b_k + ow*sw] of
 * one source buffer S (k = 1..n; the leading indices are the output's),
 * so neighbouring outputs read overlapping windows. Two forms are
 * recognized (static shapes, one float element type):
 *  - linalg.depthwise_conv_2d_nchw_chw: S its input, a_k = kh*dh,
 *    b_k = kw*dw; out += S * F[c, kh, kw] for kh, then kw, in order;
 *  - a linalg.generic of parallel loops (what the pool lowerings give)
 *    whose inputs include at least two memref.subviews of one S with the
 *    output's sizes, unit strides and zero offsets but in the last two
 *    dims, and the same strides (sh, sw) there (each window element one
 *    input at identity indices); its other inputs are read at indices
 *    that are output dims or constants. Its body is copied in.
 * Each becomes a block per TH x TW tile of one output plane (threads T =
 * TH * TW, TW up to 32 along the contiguous dim), which first copies the
 * tile's input region into shared memory, then computes an output per
 * thread from it (the phases form of kiln-gpu-tile-contractions):
 *
 *   scf.execute_region no_inline {              kiln.gpu.block_size = T
 *     memref.alloca_scope {
 *       %sh = memref.alloca {kiln.gpu.shared} : memref<RxCxT>
 *       scf.parallel (%bh, %bw, %p) to (tiles of OH, of OW, planes) {
 *         r0 = bh*TH*sh + min a, c0 = bw*TW*sw + min b
 *         scf.parallel (%t) to T {                    the region, coalesced
 *           for e = t, t + T, ... < R*C:
 *             i = e / C, j = e % C
 *             if (r0 + i, c0 + j) in S: sh[i, j] = S[plane, r0 + i, c0 + j]
 *         }
 *         scf.parallel (%t) to T {                    an output each
 *           oh = bh*TH + t / TW, ow = bw*TW + t % TW
 *           if oh < OH and ow < OW:
 *             out[plane, oh, ow] = f(sh[(t / TW)*sh + a_k - min a,
 *                                       (t % TW)*sw + b_k - min b]...)
 *   } } }
 *
 * TH and TW are powers of two, the region R = (min(TH, OH) - 1)*sh +
 * max a - min a + 1 rows of C = (min(TW, OW) - 1)*sw + max b - min b + 1;
 * TH is halved until it fits in 48 KiB. The order of each output's
 * arithmetic is the op's. The elementwise op consuming the output (a
 * depthwise conv's Relu6; kilnGpuMatchEpilogue's rules) is applied in the
 * store, in the consumer's place, as for the products. Left alone: an
 * output that shares a buffer with an input, other layouts or element
 * types. kiln-gpu-launch-phases turns the form into a gpu.launch. */
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

enum { kOptEnable, kOptThreads, kOptEpilogues, kNumOptions };

/* kMaxWindow + kMaxOther + 1 <= kMaxMarkedInputs (tile.h). */
enum { kMaxWindow = 64, kMaxOther = 8, kMaxSharedBytes = 48 * 1024 };

static const char *const kInMark = "kiln.window.in";
static const char *const kElemMark = "kiln.window.elem";

/* A window op. Dims: the output's and S's rank, the last two the window's
 * rows and columns, the others the planes. */
typedef struct Window {
  MlirOperation op;
  bool conv;     /* linalg.depthwise_conv_2d_nchw_chw */
  MlirValue src; /* S */
  MlirValue out;
  MlirType elem;
  intptr_t rank;
  int64_t step[2]; /* sh, sw */
  intptr_t n;      /* window elements */
  int64_t off[kMaxWindow][2];
  intptr_t input[kMaxWindow]; /* generic: each one's input number */
  MlirValue filter;           /* conv: F[C, KH, KW] */
  /* generic: its other inputs, each one's index per dim (an output dim
   * d >= 0, or the constant -1 - c) */
  intptr_t numIns, numOther;
  intptr_t other[kMaxOther];
  int64_t otherIndex[kMaxOther][kMaxRank];
} Window;

static bool staticFloatMemRef(MlirValue v, intptr_t rank) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsAMemRef(t) && mlirShapedTypeHasStaticShape(t) &&
         mlirShapedTypeGetRank(t) == rank &&
         mlirTypeIsAFloat(mlirShapedTypeGetElementType(t));
}

static int64_t dimOf(MlirValue v, intptr_t d) {
  return mlirShapedTypeGetDimSize(mlirValueGetType(v), d);
}

static MlirType elemOf(MlirValue v) {
  return mlirShapedTypeGetElementType(mlirValueGetType(v));
}

static bool shareBuffer(MlirValue a, MlirValue b) {
  return mlirValueEqual(kilnGpuViewRoot(a), kilnGpuViewRoot(b));
}

//===----------------------------------------------------------------------===//
// Recognition
//===----------------------------------------------------------------------===//

static bool matchDepthwise(MlirOperation op, Window *w) {
  if (!kilnOpNameIs(op, "linalg.depthwise_conv_2d_nchw_chw") ||
      kilnGpuSingleOutputIns(op) != 2 || mlirOperationGetNumResults(op))
    return false;
  MlirValue in = mlirOperationGetOperand(op, 0);
  MlirValue f = mlirOperationGetOperand(op, 1);
  MlirValue out = mlirOperationGetOperand(op, 2);
  if (!staticFloatMemRef(in, 4) || !staticFloatMemRef(f, 3) ||
      !staticFloatMemRef(out, 4) || !mlirTypeEqual(elemOf(in), elemOf(f)) ||
      !mlirTypeEqual(elemOf(in), elemOf(out)) || shareBuffer(out, in) ||
      shareBuffer(out, f))
    return false;
  int64_t strides[2], dilations[2];
  const char *names[2] = {"strides", "dilations"};
  int64_t *into[2] = {strides, dilations};
  for (int a = 0; a < 2; ++a) {
    MlirAttribute attr = mlirOperationGetAttributeByName(op, kilnStr(names[a]));
    if (mlirAttributeIsNull(attr) || !mlirAttributeIsADenseIntElements(attr) ||
        mlirElementsAttrGetNumElements(attr) != 2)
      return false;
    for (int i = 0; i < 2; ++i)
      into[a][i] = mlirDenseElementsAttrGetInt64Value(attr, i);
  }
  int64_t kh = dimOf(f, 1), kw = dimOf(f, 2);
  if (kh * kw > kMaxWindow || kh * kw < 2 || dimOf(f, 0) != dimOf(out, 1))
    return false;
  *w = (Window){.op = op,
                .conv = true,
                .src = in,
                .out = out,
                .elem = elemOf(out),
                .rank = 4,
                .filter = f,
                .step = {strides[0], strides[1]},
                .n = kh * kw};
  for (int64_t i = 0; i < kh; ++i)
    for (int64_t j = 0; j < kw; ++j) {
      w->off[i * kw + j][0] = i * dilations[0];
      w->off[i * kw + j][1] = j * dilations[1];
    }
  return true;
}

static bool denseI64(MlirOperation op, const char *name, int64_t *v,
                     intptr_t n) {
  MlirAttribute a = mlirOperationGetAttributeByName(op, kilnStr(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) != n)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    v[i] = mlirDenseI64ArrayGetElement(a, i);
  return true;
}

/* Whether input `v` of a generic writing `out` is a window element:
 * a static subview of a buffer of the output's rank, the output's sizes,
 * offsets and strides trivial but in the last two dims. Its source, its
 * offsets and strides there into `*src`, `off`, `step`. */
static bool windowElement(MlirValue v, MlirValue out, MlirValue *src,
                          int64_t *off, int64_t *step) {
  intptr_t r = mlirShapedTypeGetRank(mlirValueGetType(out));
  if (!mlirValueIsAOpResult(v) ||
      !kilnOpNameIs(mlirOpResultGetOwner(v), "memref.subview"))
    return false;
  MlirOperation sv = mlirOpResultGetOwner(v);
  int64_t offsets[kMaxRank], sizes[kMaxRank], strides[kMaxRank];
  if (mlirOperationGetNumOperands(sv) != 1 || r > kMaxRank ||
      !denseI64(sv, "static_offsets", offsets, r) ||
      !denseI64(sv, "static_sizes", sizes, r) ||
      !denseI64(sv, "static_strides", strides, r))
    return false;
  *src = mlirOperationGetOperand(sv, 0);
  if (!staticFloatMemRef(*src, r))
    return false;
  for (intptr_t d = 0; d < r; ++d) {
    if (sizes[d] != dimOf(out, d) || offsets[d] < 0 || strides[d] < 1)
      return false;
    if (d < r - 2 &&
        (offsets[d] != 0 || strides[d] != 1 || dimOf(*src, d) != dimOf(out, d)))
      return false;
  }
  off[0] = offsets[r - 2], off[1] = offsets[r - 1];
  step[0] = strides[r - 2], step[1] = strides[r - 1];
  return true;
}

/* Each result of `map` as an output dim or the constant -1 - c. */
static bool otherIndices(MlirAffineMap map, intptr_t rank, int64_t *index) {
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n > kMaxRank || mlirAffineMapGetNumDims(map) != rank)
    return false;
  for (intptr_t i = 0; i < n; ++i) {
    MlirAffineExpr e = mlirAffineMapGetResult(map, i);
    if (mlirAffineExprIsADim(e))
      index[i] = mlirAffineDimExprGetPosition(e);
    else if (mlirAffineExprIsAConstant(e) &&
             mlirAffineConstantExprGetValue(e) >= 0)
      index[i] = -1 - mlirAffineConstantExprGetValue(e);
    else
      return false;
  }
  return true;
}

/* The body: region-free ops on its arguments and constants. */
static bool plainBody(MlirOperation op) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  if (mlirOperationGetNumOperands(yield) != 1)
    return false;
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationEqual(o, yield); o = mlirOperationGetNextInBlock(o)) {
    MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(o));
    bool arithOrMath = (n.length > 6 && !memcmp(n.data, "arith.", 6)) ||
                       (n.length > 5 && !memcmp(n.data, "math.", 5));
    if (!arithOrMath || mlirOperationGetNumRegions(o))
      return false;
  }
  return true;
}

static bool matchPoolGeneric(MlirOperation op, Window *w) {
  intptr_t ins = kilnGpuSingleOutputIns(op);
  if (!kilnOpNameIs(op, "linalg.generic") || ins < 2 ||
      mlirOperationGetNumResults(op) || !plainBody(op))
    return false;
  MlirValue out = mlirOperationGetOperand(op, ins);
  intptr_t r = mlirShapedTypeGetRank(mlirValueGetType(out));
  char kinds[kMaxRank];
  MlirAttribute maps =
      mlirOperationGetAttributeByName(op, kilnStr("indexing_maps"));
  if (r < 2 || r > kMaxRank || !staticFloatMemRef(out, r) ||
      !kilnLinalgIteratorKinds(op, kinds, r) || mlirAttributeIsNull(maps) ||
      mlirArrayAttrGetNumElements(maps) != ins + 1)
    return false;
  for (intptr_t l = 0; l < r; ++l)
    if (kinds[l] != 'p')
      return false;
  MlirAffineMap outMap =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, ins));
  if (!mlirAffineMapIsIdentity(outMap))
    return false;
  *w = (Window){
      .op = op, .out = out, .elem = elemOf(out), .rank = r, .numIns = ins};
  for (intptr_t i = 0; i < ins; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirAffineMap map =
        mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i));
    MlirValue src;
    int64_t off[2], step[2];
    if (shareBuffer(v, out))
      return false;
    if (mlirAffineMapIsIdentity(map) &&
        windowElement(v, out, &src, off, step) &&
        (w->n == 0 || (mlirValueEqual(src, w->src) && step[0] == w->step[0] &&
                       step[1] == w->step[1])) &&
        w->n < kMaxWindow && mlirTypeEqual(elemOf(src), w->elem)) {
      w->src = src;
      w->step[0] = step[0], w->step[1] = step[1];
      w->off[w->n][0] = off[0], w->off[w->n][1] = off[1];
      w->input[w->n++] = i;
      continue;
    }
    if (w->numOther == kMaxOther ||
        mlirAffineMapGetNumResults(map) !=
            mlirShapedTypeGetRank(mlirValueGetType(v)) ||
        !otherIndices(map, r, w->otherIndex[w->numOther]))
      return false;
    w->other[w->numOther++] = i;
  }
  return w->n >= 2;
}

//===----------------------------------------------------------------------===//
// The schedule template
//===----------------------------------------------------------------------===//

typedef struct Tile {
  int64_t th, tw, rows, cols;
  int64_t minOff[2];
} Tile;

/* TW up to 32 along the columns, TH filling `threads`, halved until the
 * region fits; false if not even one row does. */
static bool chooseTile(const Window *w, int64_t threads, Tile *t) {
  int64_t oh = dimOf(w->out, w->rank - 2), ow = dimOf(w->out, w->rank - 1);
  int64_t maxOff[2] = {0, 0};
  t->minOff[0] = t->minOff[1] = INT64_MAX;
  for (intptr_t k = 0; k < w->n; ++k)
    for (int d = 0; d < 2; ++d) {
      t->minOff[d] = w->off[k][d] < t->minOff[d] ? w->off[k][d] : t->minOff[d];
      maxOff[d] = w->off[k][d] > maxOff[d] ? w->off[k][d] : maxOff[d];
    }
  t->tw = 1;
  while (t->tw < 32 && t->tw < ow && t->tw * 2 <= threads)
    t->tw *= 2;
  t->th = 1;
  while (t->th < oh && t->th * t->tw * 2 <= threads)
    t->th *= 2;
  int64_t bytes = (mlirFloatTypeGetWidth(w->elem) + 7) / 8;
  /* A tile taller or wider than the output needs only the output's. */
  for (;; t->th /= 2) {
    int64_t th = t->th < oh ? t->th : oh, tw = t->tw < ow ? t->tw : ow;
    t->rows = (th - 1) * w->step[0] + maxOff[0] - t->minOff[0] + 1;
    t->cols = (tw - 1) * w->step[1] + maxOff[1] - t->minOff[1] + 1;
    if (t->rows * t->cols * bytes <= kMaxSharedBytes)
      return true;
    if (t->th == 1)
      return false;
  }
}

typedef struct Gen {
  KilnScheduleText text;
  const Window *w;
  const Tile *tile;
  const Epilogue *epi; /* the consumer fused into the store, if any */
  int c0, c1;
  int lead[kMaxRank]; /* the plane's leading indices */
} Gen;

static void appendType(Gen *g, MlirType t) {
  kilnStrBufAppendType(g->text.buf, t);
}

/* `%NAME[%vI, ...]` with the leading indices then `rows`, `cols`. */
static void appendIndices(Gen *g, const char *name, int rows, int cols) {
  kilnStrBufAppendf(g->text.buf, "%%%s[", name);
  for (intptr_t d = 0; d < g->w->rank - 2; ++d)
    kilnStrBufAppendf(g->text.buf, "%%v%d, ", g->lead[d]);
  kilnStrBufAppendf(g->text.buf, "%%v%d, %%v%d]", rows, cols);
}

static void genHeader(Gen *g) {
  const Window *w = g->w;
  KilnStrBuf *buf = g->text.buf;
  kilnStrBufAppendf(buf, "func.func @kiln_window(%%S: ");
  appendType(g, mlirValueGetType(w->src));
  kilnStrBufAppendf(buf, ", %%C: ");
  appendType(g, mlirValueGetType(w->out));
  if (w->conv) {
    kilnStrBufAppendf(buf, ", %%F: ");
    appendType(g, mlirValueGetType(w->filter));
  }
  for (intptr_t i = 0; i < w->numOther; ++i) {
    kilnStrBufAppendf(buf, ", %%X%d: ", (int)i);
    appendType(g,
               mlirValueGetType(mlirOperationGetOperand(w->op, w->other[i])));
  }
  kilnGpuAppendEpilogueParams(&g->text, g->epi);
  kilnStrBufAppendf(buf, ") {\n");
  g->c0 = kilnScheduleIndex(&g->text, 0);
  g->c1 = kilnScheduleIndex(&g->text, 1);
}

/* Opens a thread phase of `cT` threads; returns the thread id. */
static int openPhase(Gen *g, int cT) {
  int tid = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(g->text.buf,
                    "scf.parallel (%%v%d) = (%%v%d) to (%%v%d) step (%%v%d) "
                    "{\n",
                    tid, g->c0, cT, g->c1);
  return tid;
}

/* `scf.if` (row, col) lies within the last two dims of buffer `v`, opened
 * (the caller closes it). */
static void openIfInside(Gen *g, int row, int col, MlirValue v) {
  intptr_t r = g->w->rank;
  int cR = kilnScheduleIndex(&g->text, dimOf(v, r - 2));
  int cC = kilnScheduleIndex(&g->text, dimOf(v, r - 1));
  int okR = kilnScheduleFresh(&g->text), okC = kilnScheduleFresh(&g->text),
      ok = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(g->text.buf,
                    "%%v%d = arith.cmpi ult, %%v%d, %%v%d : index\n"
                    "%%v%d = arith.cmpi ult, %%v%d, %%v%d : index\n"
                    "%%v%d = arith.andi %%v%d, %%v%d : i1\nscf.if %%v%d {\n",
                    okR, row, cR, okC, col, cC, ok, okR, okC, ok);
}

/* Loads the tile's region of S into %sh: phase 1. */
static void genRegionLoad(Gen *g, int r0, int c0, int cT) {
  const Window *w = g->w;
  const Tile *t = g->tile;
  KilnStrBuf *buf = g->text.buf;
  int tid = openPhase(g, cT);
  int cRC = kilnScheduleIndex(&g->text, t->rows * t->cols);
  int e = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf, "scf.for %%v%d = %%v%d to %%v%d step %%v%d {\n", e,
                    tid, cRC, cT);
  int i = kilnScheduleBinopConst(&g->text, "divui", e, t->cols);
  int j = kilnScheduleBinopConst(&g->text, "remui", e, t->cols);
  int gr = kilnScheduleBinop(&g->text, "addi", r0, i);
  int gc = kilnScheduleBinop(&g->text, "addi", c0, j);
  openIfInside(g, gr, gc, w->src);
  int v = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf, "%%v%d = memref.load ", v);
  appendIndices(g, "S", gr, gc);
  kilnStrBufAppendf(buf, " : ");
  appendType(g, mlirValueGetType(w->src));
  kilnStrBufAppendf(buf, "\nmemref.store %%v%d, %%sh[%%v%d, %%v%d] : ", v, i,
                    j);
  kilnStrBufAppendf(buf, "memref<%lldx%lldx", (long long)t->rows,
                    (long long)t->cols);
  appendType(g, w->elem);
  kilnStrBufAppendf(buf, ">\n}\n}\nscf.reduce\n}\n");
}

/* `%vN = memref.load %sh[...]` of window element k for the thread whose
 * region corner is (br, bc); returns N. */
static int loadElement(Gen *g, intptr_t k, int br, int bc, const char *attrs) {
  const Tile *t = g->tile;
  int r = kilnScheduleBinopConst(&g->text, "addi", br,
                                 g->w->off[k][0] - t->minOff[0]);
  int c = kilnScheduleBinopConst(&g->text, "addi", bc,
                                 g->w->off[k][1] - t->minOff[1]);
  int v = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(g->text.buf,
                    "%%v%d = memref.load %%sh[%%v%d, %%v%d] %s: memref<%lldx"
                    "%lldx",
                    v, r, c, attrs, (long long)t->rows, (long long)t->cols);
  appendType(g, g->w->elem);
  kilnStrBufAppendf(g->text.buf, ">\n");
  return v;
}

/* The depthwise conv's sum: out, then + S * F[c, kh, kw] in order. */
static int genConvSum(Gen *g, int oh, int ow, int br, int bc) {
  const Window *w = g->w;
  KilnStrBuf *buf = g->text.buf;
  int acc = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf, "%%v%d = memref.load ", acc);
  appendIndices(g, "C", oh, ow);
  kilnStrBufAppendf(buf, " : ");
  appendType(g, mlirValueGetType(w->out));
  kilnStrBufAppendf(buf, "\n");
  int64_t kw = dimOf(w->filter, 2);
  for (intptr_t k = 0; k < w->n; ++k) {
    int x = loadElement(g, k, br, bc, "");
    int ci = kilnScheduleIndex(&g->text, k / kw);
    int cj = kilnScheduleIndex(&g->text, k % kw);
    int f = kilnScheduleFresh(&g->text), m = kilnScheduleFresh(&g->text),
        s = kilnScheduleFresh(&g->text);
    kilnStrBufAppendf(buf, "%%v%d = memref.load %%F[%%v%d, %%v%d, %%v%d] : ", f,
                      g->lead[1], ci, cj);
    appendType(g, mlirValueGetType(w->filter));
    kilnStrBufAppendf(buf, "\n%%v%d = arith.mulf %%v%d, %%v%d : ", m, x, f);
    appendType(g, w->elem);
    kilnStrBufAppendf(buf, "\n%%v%d = arith.addf %%v%d, %%v%d : ", s, acc, m);
    appendType(g, w->elem);
    kilnStrBufAppendf(buf, "\n");
    acc = s;
  }
  return acc;
}

/* The generic's body inputs as marked loads, and the marker its value
 * replaces; returns the marker's number. */
static int genBodyInputs(Gen *g, int oh, int ow, int br, int bc) {
  const Window *w = g->w;
  KilnStrBuf *buf = g->text.buf;
  char attrs[48];
  for (intptr_t k = 0; k < w->n; ++k) {
    snprintf(attrs, sizeof(attrs), "{%s = %d : i64} ", kInMark,
             (int)w->input[k]);
    loadElement(g, k, br, bc, attrs);
  }
  int outIdx[kMaxRank];
  for (intptr_t d = 0; d < w->rank - 2; ++d)
    outIdx[d] = g->lead[d];
  outIdx[w->rank - 2] = oh, outIdx[w->rank - 1] = ow;
  for (intptr_t i = 0; i < w->numOther; ++i) {
    MlirValue x = mlirOperationGetOperand(w->op, w->other[i]);
    intptr_t xr = mlirShapedTypeGetRank(mlirValueGetType(x));
    int idx[kMaxRank];
    for (intptr_t d = 0; d < xr; ++d)
      idx[d] = w->otherIndex[i][d] >= 0
                   ? outIdx[w->otherIndex[i][d]]
                   : kilnScheduleIndex(&g->text, -1 - w->otherIndex[i][d]);
    kilnStrBufAppendf(buf, "%%x%d = memref.load %%X%d[", (int)i, (int)i);
    for (intptr_t d = 0; d < xr; ++d)
      kilnStrBufAppendf(buf, "%s%%v%d", d ? ", " : "", idx[d]);
    kilnStrBufAppendf(buf, "] {%s = %d : i64} : ", kInMark, (int)w->other[i]);
    appendType(g, mlirValueGetType(x));
    kilnStrBufAppendf(buf, "\n");
  }
  kilnStrBufAppendf(buf, "%%o = memref.load ");
  appendIndices(g, "C", oh, ow);
  kilnStrBufAppendf(buf, " {%s = %d : i64} : ", kInMark, (int)w->numIns);
  appendType(g, mlirValueGetType(w->out));
  int m = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf, "\n%%v%d = arith.constant {%s} 0.0 : ", m, kElemMark);
  appendType(g, w->elem);
  kilnStrBufAppendf(buf, "\n");
  return m;
}

/* An output per thread from %sh: phase 2. */
static void genOutputs(Gen *g, int oh0, int ow0, int cT) {
  const Window *w = g->w;
  const Tile *t = g->tile;
  KilnStrBuf *buf = g->text.buf;
  int tid = openPhase(g, cT);
  int ty = kilnScheduleBinopConst(&g->text, "divui", tid, t->tw);
  int tx = kilnScheduleBinopConst(&g->text, "remui", tid, t->tw);
  int oh = kilnScheduleBinop(&g->text, "addi", oh0, ty);
  int ow = kilnScheduleBinop(&g->text, "addi", ow0, tx);
  openIfInside(g, oh, ow, w->out);
  int br = kilnScheduleBinopConst(&g->text, "muli", ty, w->step[0]);
  int bc = kilnScheduleBinopConst(&g->text, "muli", tx, w->step[1]);
  int v = w->conv ? genConvSum(g, oh, ow, br, bc)
                  : genBodyInputs(g, oh, ow, br, bc);
  if (mlirOperationIsNull(g->epi->op)) {
    kilnStrBufAppendf(buf, "memref.store %%v%d, ", v);
    appendIndices(g, "C", oh, ow);
    kilnStrBufAppendf(buf, " : ");
    appendType(g, mlirValueGetType(w->out));
    kilnStrBufAppendf(buf, "\n");
  } else {
    int idx[kMaxRank];
    for (intptr_t d = 0; d < w->rank - 2; ++d)
      idx[d] = g->lead[d];
    idx[w->rank - 2] = oh, idx[w->rank - 1] = ow;
    kilnGpuGenEpilogueStore(&g->text, g->epi, v, idx);
  }
  kilnStrBufAppendf(buf, "}\nscf.reduce\n}\n");
}

static void genTemplate(KilnStrBuf *buf, const Window *w, const Tile *t,
                        const Epilogue *epi) {
  Gen gen = {.text = {buf, 0}, .w = w, .tile = t, .epi = epi}, *g = &gen;
  genHeader(g);
  int64_t oh = dimOf(w->out, w->rank - 2), ow = dimOf(w->out, w->rank - 1);
  int64_t planes = 1;
  for (intptr_t d = 0; d < w->rank - 2; ++d)
    planes *= dimOf(w->out, d);
  int cT = kilnScheduleIndex(&g->text, t->th * t->tw);
  int cTH = kilnScheduleIndex(&g->text, (oh + t->th - 1) / t->th);
  int cTW = kilnScheduleIndex(&g->text, (ow + t->tw - 1) / t->tw);
  int cP = kilnScheduleIndex(&g->text, planes);
  kilnStrBufAppendf(buf,
                    "scf.execute_region no_inline {\nmemref.alloca_scope {\n"
                    "%%sh = memref.alloca() {kiln.gpu.shared} : "
                    "memref<%lldx%lldx",
                    (long long)t->rows, (long long)t->cols);
  appendType(g, w->elem);
  int bh = kilnScheduleFresh(&g->text), bw = kilnScheduleFresh(&g->text),
      p = kilnScheduleFresh(&g->text);
  kilnStrBufAppendf(buf,
                    ">\nscf.parallel (%%v%d, %%v%d, %%v%d) = (%%v%d, %%v%d, "
                    "%%v%d) to (%%v%d, %%v%d, %%v%d) step (%%v%d, %%v%d, "
                    "%%v%d) {\n",
                    bh, bw, p, g->c0, g->c0, g->c0, cTH, cTW, cP, g->c1, g->c1,
                    g->c1);
  /* The plane's leading indices, the last dim fastest. */
  int64_t stride = 1;
  for (intptr_t d = w->rank - 3; d >= 0; --d) {
    int64_t size = dimOf(w->out, d);
    int v =
        stride > 1 ? kilnScheduleBinopConst(&g->text, "divui", p, stride) : p;
    g->lead[d] = d > 0 ? kilnScheduleBinopConst(&g->text, "remui", v, size) : v;
    stride *= size;
  }
  int oh0 = kilnScheduleBinopConst(&g->text, "muli", bh, t->th);
  int ow0 = kilnScheduleBinopConst(&g->text, "muli", bw, t->tw);
  int r0 = kilnScheduleBinopConst(
      &g->text, "addi",
      kilnScheduleBinopConst(&g->text, "muli", oh0, w->step[0]), t->minOff[0]);
  int c0 = kilnScheduleBinopConst(
      &g->text, "addi",
      kilnScheduleBinopConst(&g->text, "muli", ow0, w->step[1]), t->minOff[1]);
  genRegionLoad(g, r0, c0, cT);
  genOutputs(g, oh0, ow0, cT);
  kilnStrBufAppendf(buf,
                    "scf.reduce\n}\n}\nscf.yield\n}"
                    " {kiln.gpu.block_size = %lld : i64}\nreturn\n}\n",
                    (long long)(t->th * t->tw));
  kilnGpuAppendEpilogueDecl(&g->text, epi);
}

//===----------------------------------------------------------------------===//
// Rewriting
//===----------------------------------------------------------------------===//

/* Erases the marked loads nothing uses (unused body arguments). */
static void eraseUnused(KilnGpuMarks *m) {
  for (size_t i = 0; i < sizeof(m->in) / sizeof(m->in[0]); ++i)
    if (!mlirOperationIsNull(m->in[i]) &&
        mlirOpOperandIsNull(
            mlirValueGetFirstUse(mlirOperationGetResult(m->in[i], 0))))
      mlirOperationDestroy(m->in[i]);
}

/* The elementwise op consuming the window op's output, fused into its
 * store (kilnGpuMatchEpilogue): a depthwise conv's Relu6, say. */
static void matchConsumer(const Window *w, Epilogue *epi) {
  MlirValue ins[kMaxEpilogueRoots - 1];
  int n = 0;
  ins[n++] = w->src;
  if (w->conv)
    ins[n++] = w->filter;
  for (intptr_t i = 0; i < w->numOther && n < kMaxEpilogueRoots - 1; ++i)
    ins[n++] = mlirOperationGetOperand(w->op, w->other[i]);
  kilnGpuMatchEpilogue(w->op, w->out, ins, n, (MlirOperation){NULL}, epi);
}

/* Replaces `op` by the schedule, with its consumer fused in the
 * consumer's place (`epilogues`); false after an error. */
static bool tileWindow(const Window *w, const Tile *t, bool epilogues) {
  MlirOperation op = w->op;
  MlirContext ctx = mlirOperationGetContext(op);
  Epilogue epi = {0};
  if (epilogues)
    matchConsumer(w, &epi);
  bool fused = !mlirOperationIsNull(epi.op);
  KilnStrBuf text = {0};
  genTemplate(&text, w, t, &epi);
  MlirModule tmpl = mlirModuleCreateParse(ctx, kilnStr(kilnStrBufGet(&text)));
  kilnStrBufDestroy(&text);
  if (mlirModuleIsNull(tmpl)) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "kiln-gpu-tile-windows: internal error: the schedule "
                   "template does not parse");
    return false;
  }
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(tmpl));
  MlirBlock fbody = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (!w->conv) {
    KilnGpuMarks m;
    kilnGpuFindMarks(func, kInMark, kElemMark, &m);
    MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    MlirOperation yield = mlirBlockGetTerminator(body);
    kilnGpuInlineMarked(body, yield, mlirOperationGetOperand(yield, 0), &m);
    eraseUnused(&m);
  }
  /* The template's arguments: S, C, then F or the other inputs, then the
   * consumer's. */
  MlirValue args[3 + kMaxOther + kMaxEpilogueIns + 1];
  intptr_t nArgs = 0;
  args[nArgs++] = w->src;
  args[nArgs++] = w->out;
  if (w->conv)
    args[nArgs++] = w->filter;
  for (intptr_t i = 0; i < w->numOther; ++i)
    args[nArgs++] = mlirOperationGetOperand(op, w->other[i]);
  nArgs += kilnGpuEpilogueArgs(&epi, args + nArgs);
  for (intptr_t i = 0; i < nArgs; ++i)
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(fbody, i), args[i]);
  MlirOperation at = fused ? epi.op : op;
  KilnOpList calls = {0};
  kilnGpuSpliceTemplate(fbody, at, &calls);
  for (size_t i = 0; i < calls.len; ++i)
    kilnGpuInlineEpilogue(calls.data[i], &epi);
  kilnOpListDestroy(&calls);
  mlirModuleDestroy(tmpl);
  mlirOperationDestroy(op);
  if (fused) {
    mlirOperationDestroy(epi.op);
    if (!epi.outIsC)
      kilnGpuEraseIfDead(kilnGpuViewRoot(w->out));
  }
  return true;
}

typedef struct Collect {
  KilnOpList *ops;
} Collect;

static bool matchWindow(MlirOperation op, Window *w) {
  return matchDepthwise(op, w) || matchPoolGeneric(op, w);
}

static MlirWalkResult collectWindows(MlirOperation op, void *userData) {
  Window w;
  if (matchWindow(op, &w))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

static void runTileWindows(MlirOperation func, MlirExternalPass pass,
                           const KilnPassOptionValue *options) {
  int64_t threads = options[kOptThreads].i;
  if (threads < 32 || threads > 1024 || (threads & (threads - 1))) {
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "kiln-gpu-tile-windows: threads=%lld: must be a power of "
                   "two from 32 to 1024",
                   (long long)threads);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  if (!options[kOptEnable].b)
    return;
  KilnOpList ops = {0};
  mlirOperationWalk(func, collectWindows, &ops, MlirWalkPostOrder);
  bool ok = true;
  for (size_t i = 0; i < ops.len && ok; ++i) {
    Window w;
    Tile t;
    if (matchWindow(ops.data[i], &w) && chooseTile(&w, threads, &t))
      ok = tileWindow(&w, &t, options[kOptEpilogues].b);
  }
  kilnOpListDestroy(&ops);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnPassOptionSpec kOptions[kNumOptions] = {
    [kOptEnable] = {"enable", KILN_PASS_OPTION_BOOL, "true",
                    "Tile window ops (false: leave every op to the "
                    "one-output-per-thread mapping)"},
    [kOptThreads] = {"threads", KILN_PASS_OPTION_INT, "256",
                     "Threads per block at most (a power of two; fewer for "
                     "smaller planes)"},
    [kOptEpilogues] = {"epilogues", KILN_PASS_OPTION_BOOL, "true",
                       "Fuse the elementwise op consuming a window op's "
                       "output into its store"},
};

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__scf__, mlirGetDialectHandle__memref__,
    mlirGetDialectHandle__arith__};

const KilnPassInfo kilnGpuTileWindowsPass = {
    .argument = "kiln-gpu-tile-windows",
    .summary = "Tile depthwise convs and pools for the GPU: a block per "
               "output tile, its input region in shared memory, as block "
               "and thread-phase loops",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runTileWindows,
    .dependentDialects = kDialects,
    .numDependentDialects = 3,
};

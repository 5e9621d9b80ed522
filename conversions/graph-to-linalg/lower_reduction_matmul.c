/* Contractions of the Reduction family → linalg: MatMul and Gemm (named
 * linalg.matmul / linalg.batch_matmul where the shapes fit, else a
 * linalg.generic), Einsum (one linalg.generic straight from the equation)
 * and Det (Gaussian elimination unrolled in a generic's body). */
#include <string.h>

#include "conversions/graph-to-linalg/lower_nn.h"
#include "conversions/graph-to-linalg/lower_reduction_internal.h"
#include "kiln/diagnostics.h"
#include "support/ir_build.h"

/* A new tensor of zeros, its dynamic dim i of size sizes[i]. */
static MlirValue zeros(KilnBuilder *b, MlirType type, const MlirValue *sizes) {
  return kilnFill(b, kilnConstFloat(b, mlirShapedTypeGetElementType(type), 0),
                  kilnEmptySized(b, type, sizes));
}

static bool isDynamic(MlirValue x, intptr_t i) {
  return mlirShapedTypeIsDynamicSize(kilnDim(x, i));
}

/* Dim i of x as a value when it is dynamic, else null (the sizes arrays
 * are read only at dynamic dims; static models get no extra ops). */
static MlirValue dynamicDim(KilnBuilder *b, MlirValue x, intptr_t i) {
  return isDynamic(x, i) ? kilnDimValue(b, x, i) : (MlirValue){NULL};
}

/* Asserts dim i of x equals dim j of y when either is dynamic (a static
 * mismatch is graph-verify's). */
static void assertSameDim(KilnBuilder *b, MlirValue x, intptr_t i, MlirValue y,
                          intptr_t j, const char *message) {
  if (isDynamic(x, i) || isDynamic(y, j))
    kilnAssertEqual(b, kilnDimValue(b, x, i), kilnDimValue(b, y, j), message);
}

static const char kInnerDims[] =
    "the contracted dims of a matrix product differ at run time";

/* acc + a * b (args: a, b, acc). */
static void macBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArithNumeric(b, "add", args[2],
                               kilnArithNumeric(b, "mul", args[0], args[1]));
}

/* ---- MatMul -------------------------------------------------------------- */

/* The general case: loops (batch..., m, n, k); a size-1 batch dim of an
 * operand broadcasts (reads index 0). */
static MlirValue matmulGeneric(KilnBuilder *b, MlirValue a, MlirValue bm,
                               MlirType fullType, const MlirValue *sizes) {
  intptr_t r = mlirShapedTypeGetRank(fullType), nb = r - 2, k = r;
  MlirValue ops[2] = {a, bm};
  MlirAttribute maps[3];
  for (int o = 0; o < 2; ++o) {
    intptr_t ro = kilnRank(ops[o]);
    MlirAffineExpr e[KILN_MAX_RANK];
    for (intptr_t j = 0; j < ro - 2; ++j) {
      intptr_t d = j + nb - (ro - 2);
      e[j] =
          kilnDim(ops[o], j) == 1 && mlirShapedTypeGetDimSize(fullType, d) != 1
              ? mlirAffineConstantExprGet(b->ctx, 0)
              : mlirAffineDimExprGet(b->ctx, d);
    }
    e[ro - 2] = mlirAffineDimExprGet(b->ctx, o == 0 ? nb : k);
    e[ro - 1] = mlirAffineDimExprGet(b->ctx, o == 0 ? k : nb + 1);
    maps[o] = kilnMapExprs(b->ctx, r + 1, ro, e);
  }
  int64_t ids[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    ids[i] = i;
  maps[2] = kilnMapDims(b->ctx, r + 1, r, ids);
  char iters[KILN_MAX_RANK + 2];
  memset(iters, 'p', r);
  iters[r] = 'r';
  iters[r + 1] = '\0';
  MlirValue out = zeros(b, fullType, sizes);
  return mlirOperationGetResult(
      kilnGeneric(b, 2, ops, 1, &out, maps, r + 1, iters, macBody, NULL), 0);
}

static bool sameBatch(MlirValue a, MlirValue bm) {
  intptr_t r = kilnRank(a);
  if (kilnRank(bm) != r)
    return false;
  for (intptr_t i = 0; i < r - 2; ++i)
    if (kilnDim(a, i) != kilnDim(bm, i))
      return false;
  return true;
}

/* Collapses all dims before the last `keep` into one. */
static MlirValue collapseLeading(KilnBuilder *b, MlirValue x, intptr_t keep) {
  intptr_t r = kilnRank(x);
  int64_t shape[3] = {1, 1, 1};
  bool dynamic = false;
  for (intptr_t i = 0; i < r - keep; ++i) {
    dynamic |= isDynamic(x, i);
    if (!dynamic)
      shape[0] *= kilnDim(x, i);
  }
  if (dynamic)
    shape[0] = mlirShapedTypeGetDynamicSize();
  for (intptr_t i = 0; i < keep; ++i)
    shape[1 + i] = kilnDim(x, r - keep + i);
  MlirType to = kilnTensorType(keep + 1, shape, kilnElementType(x));
  if (!dynamic && mlirShapedTypeHasStaticShape(to))
    return kilnReshape(b, x, to);
  intptr_t groups[3] = {r - keep, 1, 1};
  return kilnReshapeGroups(b, x, to, keep + 1, groups);
}

/* ---- Static tiles of a product with dynamic dims ------------------------
 *
 * A [(batch x) M x K] x B [(batch x) K x N], float, with M, N or K dynamic:
 *
 *   %y = scf.forall (%i, %r, %c) in (batch, ceil(M / R), ceil(N / C))
 *          shared_outs(%o = tensor.empty [batch x Mp x Np]) {
 *     %a = the R x K rows of A at r R: a view; in a last partial tile
 *          (scf.if) a zero-padded copy of the rows left
 *     %b = the K x C columns of B at c C: a view; in a last partial tile
 *          (scf.if) a zero-padded copy of the columns left
 *     %t = linalg.fill 0 into %o's R x C tile at (r R, c C)
 *     %t = linalg.matmul %a, %b into %t
 *     parallel_insert_slice %t into %o
 *   }
 *   %result = extract_slice %y [batch x M x N]
 *
 * Every tile's rows and columns are static, so the CPU schedules
 * register-tile and vectorize it (a dynamic K is its reduction loop's trip
 * count), and the forall is their thread level: one parallel region per
 * product. A and B are read in place: only a last partial row tile of A and
 * column tile of B are copied. */

/* Rows of a tile: two register tiles' (8 rows each on AVX-512), so each
 * tile reads its columns of B for 16 rows (8: the encoder's feed-forward
 * products 5-10% slower); few enough that a product of one row computes 16,
 * not 64 (64 made a batch-1 classifier's Gemm 1.8 ms). */
enum { kRowTile = 16 };
/* Columns of a tile when N is dynamic: a vector register tile wide several
 * times over; with N static, the widest divisor of N up to kMaxColTile
 * that is a multiple of kMinColTile (else all of N). */
enum { kColTile = 32, kMinColTile = 16, kMaxColTile = 128 };

typedef struct Tiles {
  MlirValue a, bm;      /* A [(B x) M x K], B [(B x) K x N] */
  intptr_t lead;        /* 1 with a batch dim, else 0 */
  MlirValue m, n;       /* M, N: rows and columns past them are zero-padded */
  bool rowsWhole;       /* A's rows are whole R-row tiles (static M) */
  bool colsWhole;       /* B's columns are whole C-column tiles (static N) */
  int64_t cols;         /* C */
  MlirValue r0, c0, b0; /* in a tile: its first row, column, batch entry */
} Tiles;

static MlirValue muliConst(KilnBuilder *b, MlirValue x, int64_t c) {
  return kilnArith2(b, "arith.muli", x, kilnConstIndex(b, c));
}

/* The [rows x cols] slice of x (2-D, or 3-D at batch entry t->b0) at
 * (row, col), as a 2-D tensor. */
static MlirValue matrixSlice(KilnBuilder *b, const Tiles *t, MlirValue x,
                             MlirValue row, MlirValue col, MlirValue rows,
                             MlirValue cols) {
  int64_t ones[3] = {1, 1, 1};
  MlirValue at[3] = {t->b0, row, col},
            sizes[3] = {kilnConstIndex(b, 1), rows, cols};
  MlirValue s =
      kilnExtractSliceAt(b, x, at + 1 - t->lead, sizes + 1 - t->lead, ones);
  if (!t->lead)
    return s;
  int64_t shape[2] = {kilnDim(s, 1), kilnDim(s, 2)};
  return kilnReshapeSized(b, s, kilnTensorType(2, shape, kilnElementType(s)),
                          sizes + 1);
}

/* A's R x K rows at t->r0 as a view. */
static MlirValue rowsView(KilnBuilder *b, void *userData) {
  const Tiles *t = userData;
  return matrixSlice(b, t, t->a, t->r0, kilnConstIndex(b, 0),
                     kilnConstIndex(b, kRowTile),
                     kilnDimValue(b, t->a, 1 + t->lead));
}

/* B's K x C columns at t->c0 as a view. */
static MlirValue colsView(KilnBuilder *b, void *userData) {
  const Tiles *t = userData;
  return matrixSlice(b, t, t->bm, kilnConstIndex(b, 0), t->c0,
                     kilnDimValue(b, t->bm, t->lead),
                     kilnConstIndex(b, t->cols));
}

/* B's columns [t->c0, N) zero-padded to C columns. */
static MlirValue colsPadded(KilnBuilder *b, void *userData) {
  const Tiles *t = userData;
  MlirValue zero = kilnConstIndex(b, 0);
  MlirType elt = kilnElementType(t->bm);
  int64_t shape[2] = {kilnDim(t->bm, t->lead), t->cols};
  MlirValue cols = kilnArith2(b, "arith.subi", t->n, t->c0);
  MlirValue part = matrixSlice(b, t, t->bm, zero, t->c0,
                               kilnDimValue(b, t->bm, t->lead), cols);
  MlirValue high[2] = {
      zero, kilnArith2(b, "arith.subi", kilnConstIndex(b, t->cols), cols)};
  return kilnPadHigh(b, part, kilnTensorType(2, shape, elt), high,
                     kilnConstFloat(b, elt, 0));
}

/* A's rows [t->r0, M) zero-padded to R rows. */
static MlirValue rowsPadded(KilnBuilder *b, void *userData) {
  const Tiles *t = userData;
  MlirValue zero = kilnConstIndex(b, 0);
  MlirType elt = kilnElementType(t->a);
  int64_t shape[2] = {kRowTile, kilnDim(t->a, 1 + t->lead)};
  MlirValue rows = kilnArith2(b, "arith.subi", t->m, t->r0);
  MlirValue part = matrixSlice(b, t, t->a, t->r0, zero, rows,
                               kilnDimValue(b, t->a, 1 + t->lead));
  MlirValue high[2] = {
      kilnArith2(b, "arith.subi", kilnConstIndex(b, kRowTile), rows), zero};
  return kilnPadHigh(b, part, kilnTensorType(2, shape, elt), high,
                     kilnConstFloat(b, elt, 0));
}

static void tileBody(KilnBuilder *b, const MlirValue *ivs, MlirValue out,
                     MlirValue *tile, MlirValue *at, void *userData) {
  Tiles t = *(const Tiles *)userData;
  MlirType elt = kilnElementType(t.a);
  MlirValue zero = kilnConstIndex(b, 0);
  t.b0 = t.lead ? ivs[0] : zero;
  t.r0 = muliConst(b, ivs[t.lead], kRowTile);
  MlirValue c0 = t.c0 = muliConst(b, ivs[t.lead + 1], t.cols);
  int64_t shape[2] = {kRowTile, kilnDim(t.a, 1 + t.lead)};
  MlirValue a;
  if (t.rowsWhole) {
    a = rowsView(b, &t);
  } else {
    MlirValue end =
        kilnArith2(b, "arith.addi", t.r0, kilnConstIndex(b, kRowTile));
    a = kilnIfElse(b, kilnCmpI(b, "sle", end, t.m),
                   kilnTensorType(2, shape, elt), rowsView, rowsPadded, &t);
  }
  MlirValue cols = kilnConstIndex(b, t.cols), bm;
  if (t.colsWhole) {
    bm = colsView(b, &t);
  } else {
    int64_t bShape[2] = {kilnDim(t.bm, t.lead), t.cols};
    MlirValue end = kilnArith2(b, "arith.addi", c0, cols);
    bm = kilnIfElse(b, kilnCmpI(b, "sle", end, t.n),
                    kilnTensorType(2, bShape, elt), colsView, colsPadded, &t);
  }
  MlirValue acc = kilnFill(
      b, kilnConstFloat(b, elt, 0),
      matrixSlice(b, &t, out, t.r0, c0, kilnConstIndex(b, kRowTile), cols));
  MlirValue in[2] = {a, bm};
  acc = kilnNamedOp(b, "linalg.matmul", 2, in, acc, 0, NULL);
  if (t.lead) {
    int64_t shape3[3] = {1, kRowTile, t.cols};
    acc = kilnReshape(b, acc, kilnTensorType(3, shape3, elt));
  }
  *tile = acc;
  MlirValue origin[3] = {t.b0, t.r0, c0};
  for (intptr_t i = 0; i < 2 + t.lead; ++i)
    at[i] = origin[i + 1 - t.lead];
}

/* C for a static N: its widest divisor in [kMinColTile, kMaxColTile] that
 * is a multiple of kMinColTile, else N. */
static int64_t colTileOf(int64_t n) {
  for (int64_t c = kMaxColTile; c >= kMinColTile; c -= kMinColTile)
    if (n % c == 0)
      return c;
  return n;
}

MlirValue kilnTiledProduct(KilnBuilder *b, MlirValue a, MlirValue bm,
                           MlirType type) {
  intptr_t lead = kilnRank(a) - 2;
  MlirType elt = kilnElementType(a);
  bool nDynamic = isDynamic(bm, lead + 1);
  int64_t cols = nDynamic ? kColTile : colTileOf(kilnDim(bm, lead + 1));
  MlirValue m = kilnDimValue(b, a, lead), n = kilnDimValue(b, bm, lead + 1);
  Tiles t = {
      a,         bm,    lead,
      m,         n,     !isDynamic(a, lead) && kilnDim(a, lead) % kRowTile == 0,
      !nDynamic, cols,  {NULL},
      {NULL},    {NULL}};
  MlirValue rowTiles =
      kilnArith2(b, "arith.ceildivsi", m, kilnConstIndex(b, kRowTile));
  MlirValue colTiles =
      kilnArith2(b, "arith.ceildivsi", n, kilnConstIndex(b, cols));
  MlirValue counts[3] = {kilnDimValue(b, a, 0), rowTiles, colTiles};
  int64_t shape[3];
  MlirValue sizes[3] = {counts[0], muliConst(b, rowTiles, kRowTile),
                        muliConst(b, colTiles, cols)};
  shape[0] = kilnDim(a, 0);
  shape[1] = isDynamic(a, lead)
                 ? mlirShapedTypeGetDynamicSize()
                 : (kilnDim(a, lead) + kRowTile - 1) / kRowTile * kRowTile;
  shape[2] = nDynamic ? mlirShapedTypeGetDynamicSize() : kilnDim(bm, lead + 1);
  MlirValue out = kilnEmptySized(
      b, kilnTensorType(2 + lead, shape + 1 - lead, elt), sizes + 1 - lead);
  MlirValue y =
      kilnForallTiles(b, 2 + lead, counts + 1 - lead, out, tileBody, &t);
  int64_t ones[3] = {1, 1, 1};
  MlirValue zero = kilnConstIndex(b, 0), at[3] = {zero, zero, zero};
  MlirValue resultSizes[3] = {counts[0], m, n};
  MlirValue result = kilnExtractSliceAt(b, y, at, resultSizes + 1 - lead, ones);
  return kilnReshape(b, result, type);
}

/* Whether A x B (2-D, or 3-D of the same batch) goes through
 * kilnTiledProduct: float, with M, N or K dynamic. */
static bool fitsTiles(MlirValue a, MlirValue bm) {
  intptr_t r = kilnRank(a), lead = r - 2;
  if (r < 2 || r > 3 || kilnRank(bm) != r ||
      !kilnTypeIsFloat(kilnElementType(a)) ||
      (lead && kilnDim(a, 0) != kilnDim(bm, 0)))
    return false;
  return isDynamic(a, lead) || isDynamic(a, lead + 1) || isDynamic(bm, lead) ||
         isDynamic(bm, lead + 1);
}

/* A x B with numpy's matmul semantics, into `resultType`; with `generic`
 * (option generic-products) a static product is a linalg.generic, which
 * linalg-fuse-elementwise-ops can fuse producers into (named ops take
 * none). */
static MlirValue matmulOf(KilnBuilder *b, MlirValue a, MlirValue bm,
                          MlirType resultType, bool generic) {
  MlirType elt = kilnElementType(a);
  /* numpy promotes 1-D operands to [1, K] and [K, 1]. */
  if (kilnRank(a) == 1) {
    int64_t s[2] = {1, kilnDim(a, 0)};
    a = kilnReshape(b, a, kilnTensorType(2, s, elt));
  }
  if (kilnRank(bm) == 1) {
    int64_t s[2] = {kilnDim(bm, 0), 1};
    bm = kilnReshape(b, bm, kilnTensorType(2, s, elt));
  }
  intptr_t ra = kilnRank(a), rb = kilnRank(bm);
  intptr_t r = ra > rb ? ra : rb, nb = r - 2;
  int64_t shape[KILN_MAX_RANK];
  MlirValue sizes[KILN_MAX_RANK]; /* of the dynamic dims */
  for (intptr_t i = 0; i < nb; ++i) {
    intptr_t ia = i - (nb - (ra - 2)), ib = i - (nb - (rb - 2));
    int64_t da = ia >= 0 ? kilnDim(a, ia) : 1,
            db = ib >= 0 ? kilnDim(bm, ib) : 1;
    shape[i] = da == 1 ? db : da;
    sizes[i] = da != 1   ? dynamicDim(b, a, ia)
               : ib >= 0 ? dynamicDim(b, bm, ib)
                         : (MlirValue){NULL};
    if (da != 1 && db != 1)
      assertSameDim(b, a, ia, bm, ib,
                    "the batch dims of a matrix product differ at run time "
                    "(a dynamic dim must equal the other: Kiln broadcasts "
                    "only dims the model's shapes make 1)");
  }
  assertSameDim(b, a, ra - 1, bm, rb - 2, kInnerDims);
  shape[nb] = kilnDim(a, ra - 2);
  shape[nb + 1] = kilnDim(bm, rb - 1);
  sizes[nb] = dynamicDim(b, a, ra - 2);
  sizes[nb + 1] = dynamicDim(b, bm, rb - 1);
  MlirType fullType = kilnTensorType(r, shape, elt);
  MlirValue out;
  if (generic && mlirShapedTypeHasStaticShape(fullType) &&
      mlirShapedTypeHasStaticShape(mlirValueGetType(a)) &&
      mlirShapedTypeHasStaticShape(mlirValueGetType(bm))) {
    out = matmulGeneric(b, a, bm, fullType, sizes);
  } else if (ra == 2 && rb == 2) {
    MlirValue in[2] = {a, bm};
    out = fitsTiles(a, bm) ? kilnTiledProduct(b, a, bm, fullType)
                           : kilnNamedOp(b, "linalg.matmul", 2, in,
                                         zeros(b, fullType, sizes), 0, NULL);
  } else if (rb == 2) {
    /* [..., M, K] x [K, N]: one matmul over the rows of all batches. */
    MlirValue in[2] = {collapseLeading(b, a, 1), bm};
    int64_t s[2] = {kilnDim(in[0], 0), shape[nb + 1]};
    MlirValue ss[2] = {dynamicDim(b, in[0], 0), sizes[nb + 1]};
    MlirType flatType = kilnTensorType(2, s, elt);
    out = fitsTiles(in[0], bm) ? kilnTiledProduct(b, in[0], bm, flatType)
                               : kilnNamedOp(b, "linalg.matmul", 2, in,
                                             zeros(b, flatType, ss), 0, NULL);
    out = kilnReshapeSized(b, out, fullType, sizes);
  } else if (sameBatch(a, bm)) {
    /* [B x M x K] x [B x K x N]: static tiles when M, N or K is dynamic,
     * else one batch_matmul. */
    MlirValue in[2] = {collapseLeading(b, a, 2), collapseLeading(b, bm, 2)};
    int64_t s[3] = {kilnDim(in[0], 0), shape[nb], shape[nb + 1]};
    MlirValue ss[3] = {dynamicDim(b, in[0], 0), sizes[nb], sizes[nb + 1]};
    MlirType flatType = kilnTensorType(3, s, elt);
    out = fitsTiles(in[0], in[1])
              ? kilnTiledProduct(b, in[0], in[1], flatType)
              : kilnNamedOp(b, "linalg.batch_matmul", 2, in,
                            zeros(b, flatType, ss), 0, NULL);
    if (r != 3) /* else `out` has the result's dims already */
      out = kilnReshapeSized(b, out, fullType, sizes);
  } else {
    out = matmulGeneric(b, a, bm, fullType, sizes);
  }
  return kilnReshape(b, out, resultType);
}

/* The element type a product of `elt` elements accumulates in: f32 for
 * f16 and bf16 (their sums lose too much: a bf16 sum of 4096 products
 * keeps 8 bits; ONNX Runtime and PyTorch accumulate in f32 too), else
 * `elt`. */
static MlirType accumulatorType(MlirContext ctx, MlirType elt) {
  return mlirTypeIsAF16(elt) || mlirTypeIsABF16(elt) ? mlirF32TypeGet(ctx)
                                                     : elt;
}

/* `type` with element type `elt`. */
static MlirType withElement(MlirType type, MlirType elt) {
  int64_t shape[KILN_MAX_RANK];
  intptr_t r = mlirShapedTypeGetRank(type);
  for (intptr_t i = 0; i < r; ++i)
    shape[i] = mlirShapedTypeGetDimSize(type, i);
  return kilnTensorType(r, shape, elt);
}

/* matmulOf in the accumulator type: f16/bf16 operands widened (fused into
 * the product by elementwise fusion), the result rounded back. */
static MlirValue matmulAccumulated(KilnBuilder *b, MlirValue a, MlirValue bm,
                                   MlirType resultType, bool generic) {
  MlirType elt = mlirShapedTypeGetElementType(resultType);
  MlirType acc = accumulatorType(b->ctx, elt);
  if (mlirTypeEqual(acc, elt))
    return matmulOf(b, a, bm, resultType, generic);
  MlirValue wide =
      matmulOf(b, kilnNNConvert(b, a, acc), kilnNNConvert(b, bm, acc),
               withElement(resultType, acc), generic);
  return kilnNNConvert(b, wide, elt);
}

static MlirValue matmulSample(KilnLowerOp *l, KilnBuilder *b, MlirValue sample,
                              MlirType sampleType) {
  return matmulAccumulated(b, sample, kilnLowerOperand(l, 1), sampleType,
                           l->genericProducts);
}

KilnLowerStatus kilnLowerRedMatMul(KilnLowerOp *l) {
  MlirValue a = kilnLowerOperand(l, 0);
  /* A batched product whose only dynamic dim is A's batch (attention's
   * scores x V with a dynamic batch; a Linear layer on [batch, seq, K]):
   * per sample, each a static product the CPU schedules tile. */
  if (kilnRank(a) >= 3 && kilnLowerIsDynamic(l) && kilnLowerOnlyBatchDynamic(l))
    return kilnLowerPerSample(l, matmulSample);
  l->results[0] =
      matmulAccumulated(&l->b, a, kilnLowerOperand(l, 1),
                        kilnLowerResultType(l, 0), l->genericProducts);
  return KILN_LOWER_OK;
}

/* ---- Gemm ---------------------------------------------------------------- */

/* The shortest reduction of a matrix-vector Gemm read as dot products:
 * kiln-split-reductions' shortest split row (min-length), below which the
 * dot products would stay scalar. */
enum { kGemvMinK = 32 };

typedef struct GemmInfo {
  double alpha, beta;
  bool hasC;
} GemmInfo;

/* alpha * ab + beta * c (args: ab, [c]). */
static void gemmEpilogue(KilnBuilder *b, const MlirValue *args,
                         MlirValue *yields, void *userData) {
  const GemmInfo *g = userData;
  MlirType t = mlirValueGetType(args[0]);
  MlirValue y = args[0];
  if (g->alpha != 1)
    y = kilnArithNumeric(b, "mul", y, kilnConstFloat(b, t, g->alpha));
  if (g->hasC) {
    MlirValue c = args[1];
    if (g->beta != 1)
      c = kilnArithNumeric(b, "mul", c, kilnConstFloat(b, t, g->beta));
    y = kilnArithNumeric(b, "add", y, c);
  }
  yields[0] = y;
}

KilnLowerStatus kilnLowerRedGemm(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue a = kilnLowerOperand(l, 0), bm = kilnLowerOperand(l, 1),
            c = kilnLowerOperand(l, 2);
  bool transA = kilnInferAttrInt(&l->infer, "transA", 0) != 0;
  bool transB = kilnInferAttrInt(&l->infer, "transB", 0) != 0;
  GemmInfo g = {kilnInferAttrFloat(&l->infer, "alpha", 1),
                kilnInferAttrFloat(&l->infer, "beta", 1), !mlirValueIsNull(c)};
  MlirType resultType = kilnLowerResultType(l, 0);
  MlirType elt = mlirShapedTypeGetElementType(resultType);
  if (!kilnTypeIsFloat(elt) && (g.alpha != (double)(int64_t)g.alpha ||
                                g.beta != (double)(int64_t)g.beta))
    return kilnLowerUnsupported(
        l, "with a fractional alpha or beta on integer tensors");
  /* A constant B (the weights of a Linear layer) is transposed here, at
   * compile time: matmul kernels read B's rows as vectors, and a transposed
   * read would gather one element per row. A single output row (batch 1)
   * is a matrix-vector product instead, read the other way: B as N x K
   * (transB), each output a dot product over a contiguous row of B, which
   * kiln-split-reductions computes in vector-wide partial sums (8 rows of
   * B streamed side by side); a K x N walk reads B's rows a whole row
   * apart per reduction step, which the prefetchers do not follow. Only
   * on the CPU path (conv-im2col=1; the GPU pipeline's 2 tiles the K x N
   * form with its own schedules). */
  bool gemv = l->convIm2col == 1 && !transA &&
              mlirShapedTypeGetDimSize(resultType, 0) == 1 &&
              kilnDim(a, 1) >= kGemvMinK;
  if (transB != gemv && !transA && mlirValueIsAOpResult(bm)) {
    MlirOperation def = mlirOpResultGetOwner(bm);
    MlirAttribute t = mlirAttributeGetNull();
    if (kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(def)),
                            "graph.constant"))
      t = kilnTransposedMatrix(
          mlirOperationGetAttributeByName(
              def, mlirStringRefCreateFromCString("value")),
          0);
    if (!mlirAttributeIsNull(t)) {
      bm = kilnConstantTensor(b, t);
      transB = !transB;
    }
  }
  /* f16/bf16: the product and its epilogue in f32, rounded at the end. */
  MlirType acc = accumulatorType(b->ctx, elt);
  MlirType lowType = resultType;
  if (!mlirTypeEqual(acc, elt)) {
    a = kilnNNConvert(b, a, acc);
    bm = kilnNNConvert(b, bm, acc);
    if (!mlirValueIsNull(c))
      c = kilnNNConvert(b, c, acc);
    resultType = withElement(resultType, acc);
  }
  MlirValue in[2] = {a, bm};
  assertSameDim(b, a, transA ? 0 : 1, bm, transB ? 1 : 0, kInnerDims);
  MlirValue sizes[2] = {dynamicDim(b, a, transA ? 1 : 0),
                        dynamicDim(b, bm, transB ? 0 : 1)};
  MlirValue ab;
  bool generic = l->genericProducts &&
                 mlirShapedTypeHasStaticShape(resultType) &&
                 mlirShapedTypeHasStaticShape(mlirValueGetType(a)) &&
                 mlirShapedTypeHasStaticShape(mlirValueGetType(bm));
  if (!transA && !transB && !generic && fitsTiles(a, bm)) {
    ab = kilnTiledProduct(b, a, bm, resultType);
  } else if (!transA && !transB && !generic) {
    ab = kilnNamedOp(b, "linalg.matmul", 2, in, zeros(b, resultType, sizes), 0,
                     NULL);
  } else {
    /* loops (m, n, k) */
    int64_t am[2] = {transA ? 2 : 0, transA ? 0 : 2};
    int64_t bmap[2] = {transB ? 1 : 2, transB ? 2 : 1};
    int64_t om[2] = {0, 1};
    MlirAttribute maps[3] = {kilnMapDims(b->ctx, 3, 2, am),
                             kilnMapDims(b->ctx, 3, 2, bmap),
                             kilnMapDims(b->ctx, 3, 2, om)};
    MlirValue out = zeros(b, resultType, sizes);
    ab = mlirOperationGetResult(
        kilnGeneric(b, 2, in, 1, &out, maps, 3, "ppr", macBody, NULL), 0);
  }
  if (g.alpha != 1 || (g.hasC && g.beta != 0)) {
    g.hasC = g.hasC && g.beta != 0;
    MlirValue ins[2] = {ab, c};
    ab = kilnElementwise(b, g.hasC ? 2 : 1, ins, resultType, gemmEpilogue, &g);
  }
  l->results[0] = kilnNNConvert(b, ab, mlirShapedTypeGetElementType(lowType));
  return KILN_LOWER_OK;
}

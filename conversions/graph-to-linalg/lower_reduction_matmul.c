/* Contractions of the Reduction family → linalg: MatMul and Gemm (named
 * linalg.matmul / linalg.batch_matmul where the shapes fit, else a
 * linalg.generic), Einsum (one linalg.generic straight from the equation)
 * and Det (Gaussian elimination unrolled in a generic's body). */
#include <string.h>

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

/* Rows of the static-row chunks of rowChunks: enough for a register tile
 * (8 rows), few enough that the padded last chunk wastes little (a batch-1
 * classifier computes 8 rows, not 64: 64 made MobileNetV2's Gemm 1.8 ms). */
enum { kRowChunk = 8 };

typedef struct RowChunks {
  MlirValue a, bm, rows; /* A [M x K], B [K x N] (static), M */
  /* Where B's columns go in the result, and how many are valid (B may be
   * a zero-padded column chunk: colChunks). */
  MlirValue colAt, cols;
} RowChunks;

/* Chunk c: rows [c * R, min(M, (c + 1) * R)) of A, placed in a zero
 * R x K tensor, times B (a static matmul), the valid rows inserted into
 * the result. */
static void rowChunkBody(KilnBuilder *b, MlirValue c, MlirValue acc,
                         MlirValue *next, void *userData) {
  const RowChunks *rc = userData;
  MlirType elt = kilnElementType(rc->a);
  int64_t k = kilnDim(rc->a, 1), n = kilnDim(rc->bm, 1);
  MlirValue zero = kilnConstIndex(b, 0), r = kilnConstIndex(b, kRowChunk);
  MlirValue start = kilnArith2(b, "arith.muli", c, r);
  MlirValue rows = kilnArith2(b, "arith.minsi", r,
                              kilnArith2(b, "arith.subi", rc->rows, start));
  int64_t ones[2] = {1, 1};
  MlirValue at[2] = {start, zero}, origin[2] = {zero, zero};
  MlirValue aSizes[2] = {rows, kilnConstIndex(b, k)};
  MlirValue chunk = kilnExtractSliceAt(b, rc->a, at, aSizes, ones);
  int64_t padShape[2] = {kRowChunk, k}, yShape[2] = {kRowChunk, n};
  MlirValue padded =
      kilnInsertSliceAt(b, chunk,
                        kilnFilled(b, kilnTensorType(2, padShape, elt),
                                   kilnConstFloat(b, elt, 0)),
                        origin);
  MlirValue in[2] = {padded, rc->bm};
  MlirValue y =
      kilnNamedOp(b, "linalg.matmul", 2, in,
                  zeros(b, kilnTensorType(2, yShape, elt), NULL), 0, NULL);
  MlirValue ySizes[2] = {rows, rc->cols};
  MlirValue yAt[2] = {start, rc->colAt};
  *next = kilnInsertSliceAt(b, kilnExtractSliceAt(b, y, origin, ySizes, ones),
                            acc, yAt);
}

/* A [M x K] x B [K x N] with only M dynamic and B static: static R-row
 * chunks, each a static matmul that the CPU schedules register-tile and
 * vectorize (a matmul of dynamic shape gets plain loops). */
static MlirValue rowChunksInto(KilnBuilder *b, RowChunks *rc, MlirValue acc) {
  MlirValue count =
      kilnArith2(b, "arith.ceildivsi", rc->rows, kilnConstIndex(b, kRowChunk));
  return kilnForLoop(b, count, acc, rowChunkBody, rc);
}

static MlirValue rowChunks(KilnBuilder *b, MlirValue a, MlirValue bm,
                           MlirType type) {
  RowChunks rc = {a, bm, kilnDimValue(b, a, 0), kilnConstIndex(b, 0),
                  kilnConstIndex(b, kilnDim(bm, 1))};
  MlirValue sizes[2] = {rc.rows};
  return rowChunksInto(b, &rc, kilnEmptySized(b, type, sizes));
}

/* Columns of the column chunks of colChunks: one vector register tile
 * wide several times over. */
enum { kColChunk = 64 };

/* Column chunk j: B's columns [j C, min(N, (j + 1) C)) in a zero K x C
 * tensor, then rowChunksInto with it: every tile a static R x C x K
 * product. */
static void colChunkBody(KilnBuilder *b, MlirValue j, MlirValue acc,
                         MlirValue *next, void *userData) {
  const RowChunks *whole = userData;
  MlirType elt = kilnElementType(whole->bm);
  int64_t k = kilnDim(whole->bm, 0), ones[2] = {1, 1};
  MlirValue c = kilnConstIndex(b, kColChunk), zero = kilnConstIndex(b, 0);
  MlirValue colAt = kilnArith2(b, "arith.muli", j, c);
  MlirValue cols = kilnArith2(b, "arith.minsi", c,
                              kilnArith2(b, "arith.subi", whole->cols, colAt));
  MlirValue at[2] = {zero, colAt}, origin[2] = {zero, zero};
  MlirValue sizes[2] = {kilnConstIndex(b, k), cols};
  int64_t padShape[2] = {k, kColChunk};
  MlirValue chunk =
      kilnInsertSliceAt(b, kilnExtractSliceAt(b, whole->bm, at, sizes, ones),
                        kilnFilled(b, kilnTensorType(2, padShape, elt),
                                   kilnConstFloat(b, elt, 0)),
                        origin);
  RowChunks rc = {whole->a, chunk, whole->rows, colAt, cols};
  *next = rowChunksInto(b, &rc, acc);
}

/* A [M x K] x B [K x N] with N dynamic (and M either) and K static, both
 * float: static C-column chunks of B, each a rowChunks of A. A's rows are
 * copied once per column chunk, B once: a static tile for every product of
 * attention's scores (Q Kt, dynamic in the sequence length) that would
 * otherwise get plain loops. */
static MlirValue colChunks(KilnBuilder *b, MlirValue a, MlirValue bm,
                           MlirType type) {
  RowChunks whole = {a, bm, kilnDimValue(b, a, 0), kilnConstIndex(b, 0),
                     kilnDimValue(b, bm, 1)};
  MlirValue sizes[2] = {whole.rows, whole.cols};
  MlirValue count = kilnArith2(b, "arith.ceildivsi", whole.cols,
                               kilnConstIndex(b, kColChunk));
  return kilnForLoop(b, count, kilnEmptySized(b, type, sizes), colChunkBody,
                     &whole);
}

/* Whether A (2-D) x B (2-D) suits colChunks. */
static bool fitsColChunks(MlirValue a, MlirValue bm) {
  return kilnRank(a) == 2 && kilnRank(bm) == 2 &&
         kilnTypeIsFloat(kilnElementType(a)) && !isDynamic(a, 1) &&
         !isDynamic(bm, 0) && isDynamic(bm, 1);
}

/* Depth of the reduction chunks of depthChunks. */
enum { kDepthChunk = 64 };

typedef struct RowDepth {
  MlirValue a, bm;        /* A, B zero-padded to [Mp x Kp], [Kp x N] */
  MlirValue rows, chunks; /* M, Kp / D */
  MlirValue r0;           /* in a row chunk: its first row */
} RowDepth;

/* Reduction chunk k of the row chunk at r0: the R x D view of A times the
 * D x N view of B (static views: the operands are padded), accumulated. */
static void depthChunkBody(KilnBuilder *b, MlirValue k, MlirValue acc,
                           MlirValue *next, void *userData) {
  const RowDepth *rd = userData;
  int64_t ones[2] = {1, 1};
  MlirValue d = kilnArith2(b, "arith.muli", k, kilnConstIndex(b, kDepthChunk));
  MlirValue aAt[2] = {rd->r0, d}, bAt[2] = {d, kilnConstIndex(b, 0)};
  MlirValue aSizes[2] = {kilnConstIndex(b, kRowChunk),
                         kilnConstIndex(b, kDepthChunk)};
  MlirValue bSizes[2] = {kilnConstIndex(b, kDepthChunk),
                         kilnConstIndex(b, kilnDim(rd->bm, 1))};
  MlirValue in[2] = {kilnExtractSliceAt(b, rd->a, aAt, aSizes, ones),
                     kilnExtractSliceAt(b, rd->bm, bAt, bSizes, ones)};
  *next = kilnNamedOp(b, "linalg.matmul", 2, in, acc, 0, NULL);
}

/* Row chunk r: a static R x N accumulator through the reduction chunks,
 * its valid rows inserted into the result. */
static void rowDepthBody(KilnBuilder *b, MlirValue r, MlirValue acc,
                         MlirValue *next, void *userData) {
  RowDepth rd = *(const RowDepth *)userData;
  MlirType elt = kilnElementType(rd.a);
  int64_t n = kilnDim(rd.bm, 1), ones[2] = {1, 1}, tile[2] = {kRowChunk, n};
  MlirValue zero = kilnConstIndex(b, 0), rc = kilnConstIndex(b, kRowChunk);
  rd.r0 = kilnArith2(b, "arith.muli", r, rc);
  MlirValue y = kilnForLoop(
      b, rd.chunks,
      kilnFilled(b, kilnTensorType(2, tile, elt), kilnConstFloat(b, elt, 0)),
      depthChunkBody, &rd);
  MlirValue rows = kilnArith2(b, "arith.minsi", rc,
                              kilnArith2(b, "arith.subi", rd.rows, rd.r0));
  MlirValue origin[2] = {zero, zero}, at[2] = {rd.r0, zero};
  MlirValue sizes[2] = {rows, kilnConstIndex(b, n)};
  *next = kilnInsertSliceAt(b, kilnExtractSliceAt(b, y, origin, sizes, ones),
                            acc, at);
}

/* `x` [P x Q] zero-padded to [ceil(P / p) p x ceil(Q / q) q]; a static dim
 * the multiple divides stays static. */
static MlirValue padTo(KilnBuilder *b, MlirValue x, int64_t p, int64_t q) {
  MlirType elt = kilnElementType(x);
  int64_t mult[2] = {p, q}, shape[2];
  MlirValue sizes[2], zero = kilnConstIndex(b, 0), at[2] = {zero, zero};
  for (int i = 0; i < 2; ++i) {
    MlirValue m = kilnConstIndex(b, mult[i]);
    sizes[i] = kilnArith2(
        b, "arith.muli",
        kilnArith2(b, "arith.ceildivsi", kilnDimValue(b, x, i), m), m);
    shape[i] = !isDynamic(x, i) && kilnDim(x, i) % mult[i] == 0
                   ? kilnDim(x, i)
                   : mlirShapedTypeGetDynamicSize();
  }
  MlirValue padded =
      kilnFill(b, kilnConstFloat(b, elt, 0),
               kilnEmptySized(b, kilnTensorType(2, shape, elt), sizes));
  return kilnInsertSliceAt(b, x, padded, at);
}

/* A [M x K] x B [K x N] with K dynamic and N static (attention's scores x
 * V over a dynamic sequence), both float: A and B zero-padded once to
 * whole chunks, then per 8-row chunk a static 8 x N accumulator through
 * 64-deep reduction chunks, each a static product of views (no copies in
 * the loops). */
static MlirValue depthChunks(KilnBuilder *b, MlirValue a, MlirValue bm,
                             MlirType type) {
  MlirValue m = kilnDimValue(b, a, 0);
  RowDepth rd = {padTo(b, a, kRowChunk, kDepthChunk),
                 padTo(b, bm, kDepthChunk, 1),
                 m,
                 kilnArith2(b, "arith.ceildivsi", kilnDimValue(b, a, 1),
                            kilnConstIndex(b, kDepthChunk)),
                 {NULL}};
  MlirValue sizes[2] = {m};
  MlirValue count =
      kilnArith2(b, "arith.ceildivsi", m, kilnConstIndex(b, kRowChunk));
  return kilnForLoop(b, count, kilnEmptySized(b, type, sizes), rowDepthBody,
                     &rd);
}

/* Whether A (2-D) x B (2-D) suits depthChunks. */
static bool fitsDepthChunks(MlirValue a, MlirValue bm) {
  return kilnRank(a) == 2 && kilnRank(bm) == 2 &&
         kilnTypeIsFloat(kilnElementType(a)) && isDynamic(a, 1) &&
         !isDynamic(bm, 1);
}

/* The static tiles of a 2-D product with a dynamic N or K, or null. */
static MlirValue tiledProduct(KilnBuilder *b, MlirValue a, MlirValue bm,
                              MlirType type) {
  if (fitsColChunks(a, bm))
    return colChunks(b, a, bm, type);
  if (fitsDepthChunks(a, bm))
    return depthChunks(b, a, bm, type);
  return (MlirValue){NULL};
}

typedef struct BatchChunks {
  MlirValue a, bm; /* [B x M x K], [B x K x N] */
  MlirType type;   /* [B x M x N] */
} BatchChunks;

/* Batch i: its M x K and K x N matrices through colChunks. */
static void batchChunkBody(KilnBuilder *b, MlirValue i, MlirValue acc,
                           MlirValue *next, void *userData) {
  const BatchChunks *bc = userData;
  int64_t ones[3] = {1, 1, 1};
  MlirValue zero = kilnConstIndex(b, 0), one = kilnConstIndex(b, 1);
  MlirValue at[3] = {i, zero, zero};
  MlirValue mats[2];
  const MlirValue ops[2] = {bc->a, bc->bm};
  for (int o = 0; o < 2; ++o) {
    MlirValue sizes[3] = {one, kilnDimValue(b, ops[o], 1),
                          kilnDimValue(b, ops[o], 2)};
    MlirValue slice = kilnExtractSliceAt(b, ops[o], at, sizes, ones);
    int64_t shape[2] = {kilnDim(ops[o], 1), kilnDim(ops[o], 2)};
    mats[o] = kilnReshapeSized(
        b, slice, kilnTensorType(2, shape, kilnElementType(slice)), sizes + 1);
  }
  int64_t yShape[2] = {mlirShapedTypeGetDimSize(bc->type, 1),
                       mlirShapedTypeGetDimSize(bc->type, 2)};
  MlirType yType = kilnTensorType(2, yShape, kilnElementType(bc->a));
  MlirValue y = tiledProduct(b, mats[0], mats[1], yType);
  MlirValue ySizes[3] = {one, kilnDimValue(b, y, 0), kilnDimValue(b, y, 1)};
  int64_t y3[3] = {1, yShape[0], yShape[1]};
  MlirValue y1 =
      kilnReshapeSized(b, y, kilnTensorType(3, y3, kilnElementType(y)), ySizes);
  *next = kilnInsertSliceAt(b, y1, acc, at);
}

/* [B x M x K] x [B x K x N] (same B) with colChunks per batch. */
static MlirValue batchChunks(KilnBuilder *b, MlirValue a, MlirValue bm,
                             MlirType type) {
  BatchChunks bc = {a, bm, type};
  MlirValue sizes[3] = {kilnDimValue(b, a, 0), kilnDimValue(b, a, 1),
                        kilnDimValue(b, bm, 2)};
  return kilnForLoop(b, sizes[0], kilnEmptySized(b, type, sizes),
                     batchChunkBody, &bc);
}

/* Whether A (2-D) x B suits rowChunks: float, M dynamic, K and B static. */
static bool fitsRowChunks(MlirValue a, MlirValue bm) {
  return kilnRank(a) == 2 && kilnRank(bm) == 2 &&
         kilnTypeIsFloat(kilnElementType(a)) && isDynamic(a, 0) &&
         !isDynamic(a, 1) && kilnTypeIsStaticTensor(mlirValueGetType(bm));
}

/* A x B with numpy's matmul semantics, into `resultType`. */
static MlirValue matmulOf(KilnBuilder *b, MlirValue a, MlirValue bm,
                          MlirType resultType) {
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
  if (ra == 2 && rb == 2) {
    MlirValue in[2] = {a, bm};
    out = fitsRowChunks(a, bm) ? rowChunks(b, a, bm, fullType)
                               : tiledProduct(b, a, bm, fullType);
    if (mlirValueIsNull(out))
      out = kilnNamedOp(b, "linalg.matmul", 2, in, zeros(b, fullType, sizes), 0,
                        NULL);
  } else if (rb == 2) {
    /* [..., M, K] x [K, N]: one matmul over the rows of all batches. */
    MlirValue in[2] = {collapseLeading(b, a, 1), bm};
    int64_t s[2] = {kilnDim(in[0], 0), shape[nb + 1]};
    MlirValue ss[2] = {dynamicDim(b, in[0], 0), sizes[nb + 1]};
    MlirType flatType = kilnTensorType(2, s, elt);
    out = fitsRowChunks(in[0], bm)
              ? rowChunks(b, in[0], bm, flatType)
              : kilnNamedOp(b, "linalg.matmul", 2, in, zeros(b, flatType, ss),
                            0, NULL);
    out = kilnReshapeSized(b, out, fullType, sizes);
  } else if (sameBatch(a, bm)) {
    MlirValue in[2] = {collapseLeading(b, a, 2), collapseLeading(b, bm, 2)};
    int64_t s[3] = {kilnDim(in[0], 0), shape[nb], shape[nb + 1]};
    MlirValue ss[3] = {dynamicDim(b, in[0], 0), sizes[nb], sizes[nb + 1]};
    /* [B x M x K] x [B x K x N]: static tiles per batch when N or K is
     * dynamic (tiledProduct), else one batch_matmul. */
    bool nTiles =
        !isDynamic(in[0], 2) && !isDynamic(in[1], 1) && isDynamic(in[1], 2);
    bool kTiles = isDynamic(in[0], 2) && !isDynamic(in[1], 2);
    out = kilnTypeIsFloat(elt) && (nTiles || kTiles)
              ? batchChunks(b, in[0], in[1], kilnTensorType(3, s, elt))
              : kilnNamedOp(b, "linalg.batch_matmul", 2, in,
                            zeros(b, kilnTensorType(3, s, elt), ss), 0, NULL);
    out = kilnReshapeSized(b, out, fullType, sizes);
  } else {
    out = matmulGeneric(b, a, bm, fullType, sizes);
  }
  return kilnReshape(b, out, resultType);
}

static MlirValue matmulSample(KilnLowerOp *l, KilnBuilder *b, MlirValue sample,
                              MlirType sampleType) {
  return matmulOf(b, sample, kilnLowerOperand(l, 1), sampleType);
}

KilnLowerStatus kilnLowerRedMatMul(KilnLowerOp *l) {
  MlirValue a = kilnLowerOperand(l, 0);
  /* A batched product whose only dynamic dim is A's batch (attention's
   * scores x V with a dynamic batch; a Linear layer on [batch, seq, K]):
   * per sample, each a static product the CPU schedules tile. */
  if (kilnRank(a) >= 3 && kilnLowerIsDynamic(l) && kilnLowerOnlyBatchDynamic(l))
    return kilnLowerPerSample(l, matmulSample);
  l->results[0] =
      matmulOf(&l->b, a, kilnLowerOperand(l, 1), kilnLowerResultType(l, 0));
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
  MlirValue in[2] = {a, bm};
  assertSameDim(b, a, transA ? 0 : 1, bm, transB ? 1 : 0, kInnerDims);
  MlirValue sizes[2] = {dynamicDim(b, a, transA ? 1 : 0),
                        dynamicDim(b, bm, transB ? 0 : 1)};
  MlirValue ab;
  if (!transA && !transB && fitsRowChunks(a, bm)) {
    ab = rowChunks(b, a, bm, resultType);
  } else if (!transA && !transB) {
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
  l->results[0] = ab;
  return KILN_LOWER_OK;
}

/* Einsum and Det → linalg.generic.
 *
 * Einsum: every subscript becomes one loop (output subscripts first, as
 * 'parallel', the summed ones after, as 'reduction'); each operand is read
 * through the map its term spells, so a repeated subscript reads a diagonal
 * and a size-1 dim broadcasts. The equation was validated by graph-verify
 * (ops_reduction_einsum.c), so parsing here trusts its shape.
 *
 * Det: Gaussian elimination with partial pivoting (as LAPACK's getrf, which
 * numpy uses), unrolled into the body of a generic over the batch dims; the
 * matrix elements are read as n * n inputs through constant maps. */
#include <string.h>

#include "conversions/graph-to-linalg/lower_reduction_internal.h"

/* ---- Einsum -------------------------------------------------------------- */

/* Subscripts A-Z are 0-25, a-z 26-51 (ASCII order); the dims under "..."
 * are 52 + i, right-aligned across operands. */
enum { EIN_LETTERS = 52, EIN_LABELS = EIN_LETTERS + KILN_MAX_RANK };

typedef struct EinTerm {
  intptr_t n;
  int labels[KILN_MAX_RANK];
} EinTerm;

static int letterId(char ch) {
  if (ch >= 'A' && ch <= 'Z')
    return ch - 'A';
  if (ch >= 'a' && ch <= 'z')
    return 26 + (ch - 'a');
  return -1;
}

static intptr_t countLetters(const char *s, intptr_t len) {
  intptr_t n = 0;
  for (intptr_t i = 0; i < len; ++i)
    n += letterId(s[i]) >= 0;
  return n;
}

/* Expands s[0..len) into labels; "..." stands for `e` dims, the last `e`
 * of the `total` ellipsis dims. */
static bool expandTerm(const char *s, intptr_t len, intptr_t e, intptr_t total,
                       EinTerm *t) {
  t->n = 0;
  for (intptr_t i = 0; i < len; ++i) {
    if (s[i] == '.') {
      for (intptr_t k = 0; k < e; ++k)
        t->labels[t->n++] = EIN_LETTERS + (int)(total - e + k);
      i += 2;
    } else if (letterId(s[i]) >= 0) {
      if (t->n >= KILN_MAX_RANK)
        return false;
      t->labels[t->n++] = letterId(s[i]);
    }
  }
  return true;
}

typedef struct Einsum {
  intptr_t numInputs, numLoops, numOut;
  EinTerm in[2], out;
  int loopOf[EIN_LABELS];
  int64_t size[EIN_LABELS];
} Einsum;

/* Parses the equation against the operand shapes into terms and loops. */
static bool parseEinsum(MlirStringRef eq, const MlirValue *ops, intptr_t nOps,
                        Einsum *es) {
  char text[256];
  intptr_t len = 0;
  for (size_t i = 0; i < eq.length; ++i)
    if (eq.data[i] != ' ') {
      if (len >= 255)
        return false;
      text[len++] = eq.data[i];
    }
  text[len] = '\0';
  char *arrow = strstr(text, "->");
  intptr_t lhsLen = arrow ? arrow - text : len;
  const char *start[2] = {text, NULL};
  intptr_t tlen[2] = {lhsLen, 0};
  char *comma = memchr(text, ',', lhsLen);
  es->numInputs = comma ? 2 : 1;
  if (es->numInputs != nOps)
    return false;
  if (comma) {
    tlen[0] = comma - text;
    start[1] = comma + 1;
    tlen[1] = lhsLen - tlen[0] - 1;
  }
  intptr_t ell[2] = {0, 0}, total = 0;
  for (intptr_t k = 0; k < nOps; ++k) {
    if (memchr(start[k], '.', tlen[k]))
      ell[k] = kilnRank(ops[k]) - countLetters(start[k], tlen[k]);
    total = ell[k] > total ? ell[k] : total;
  }
  int count[EIN_LABELS] = {0};
  for (int i = 0; i < EIN_LABELS; ++i) {
    es->size[i] = 1;
    es->loopOf[i] = -1;
  }
  for (intptr_t k = 0; k < nOps; ++k) {
    if (!expandTerm(start[k], tlen[k], ell[k], total, &es->in[k]) ||
        es->in[k].n != kilnRank(ops[k]))
      return false;
    for (intptr_t j = 0; j < es->in[k].n; ++j) {
      int lab = es->in[k].labels[j];
      ++count[lab];
      if (kilnDim(ops[k], j) != 1)
        es->size[lab] = kilnDim(ops[k], j);
    }
  }
  if (arrow) {
    const char *o = arrow + 2;
    if (!expandTerm(o, (intptr_t)strlen(o), total, total, &es->out))
      return false;
  } else {
    es->out.n = 0;
    for (intptr_t k = 0; k < total; ++k)
      es->out.labels[es->out.n++] = EIN_LETTERS + (int)k;
    for (int lab = 0; lab < EIN_LETTERS; ++lab)
      if (count[lab] == 1 && es->out.n < KILN_MAX_RANK)
        es->out.labels[es->out.n++] = lab;
  }
  es->numOut = es->out.n;
  es->numLoops = 0;
  for (intptr_t j = 0; j < es->out.n; ++j)
    es->loopOf[es->out.labels[j]] = (int)es->numLoops++;
  for (int lab = 0; lab < EIN_LABELS; ++lab)
    if (count[lab] && es->loopOf[lab] < 0)
      es->loopOf[lab] = (int)es->numLoops++;
  return es->numLoops <= 2 * KILN_MAX_RANK;
}

static void einsumBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  intptr_t nIn = *(const intptr_t *)userData;
  MlirValue term =
      nIn == 2 ? kilnArithNumeric(b, "mul", args[0], args[1]) : args[0];
  yields[0] = kilnArithNumeric(b, "add", args[nIn], term);
}

KilnLowerStatus kilnLowerRedEinsum(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue ops[2] = {kilnLowerOperand(l, 0), kilnLowerOperand(l, 1)};
  intptr_t nOps = mlirValueIsNull(ops[1]) ? 1 : 2;
  Einsum es;
  if (!parseEinsum(kilnInferAttrString(&l->infer, "equation", ""), ops, nOps,
                   &es))
    return kilnLowerUnsupported(l, "with this equation");
  MlirAttribute maps[3];
  for (intptr_t k = 0; k < nOps; ++k) {
    MlirAffineExpr e[KILN_MAX_RANK];
    for (intptr_t j = 0; j < es.in[k].n; ++j) {
      int lab = es.in[k].labels[j];
      e[j] = kilnDim(ops[k], j) == 1 && es.size[lab] != 1
                 ? mlirAffineConstantExprGet(b->ctx, 0)
                 : mlirAffineDimExprGet(b->ctx, es.loopOf[lab]);
    }
    maps[k] = kilnMapExprs(b->ctx, es.numLoops, es.in[k].n, e);
  }
  int64_t outDims[KILN_MAX_RANK], shape[KILN_MAX_RANK];
  for (intptr_t j = 0; j < es.numOut; ++j) {
    outDims[j] = j;
    shape[j] = es.size[es.out.labels[j]];
  }
  maps[nOps] = kilnMapDims(b->ctx, es.numLoops, es.numOut, outDims);
  char iters[2 * KILN_MAX_RANK + 1];
  for (intptr_t i = 0; i < es.numLoops; ++i)
    iters[i] = i < es.numOut ? 'p' : 'r';
  iters[es.numLoops] = '\0';
  MlirType elt = kilnElementType(ops[0]);
  MlirValue out = kilnFilled(b, kilnTensorType(es.numOut, shape, elt),
                             kilnConstFloat(b, elt, 0));
  l->results[0] =
      mlirOperationGetResult(kilnGeneric(b, nOps, ops, 1, &out, maps,
                                         es.numLoops, iters, einsumBody, &nOps),
                             0);
  return KILN_LOWER_OK;
}

/* ---- Det ----------------------------------------------------------------- */

/* Matrices above this size are not unrolled (the body grows as n^3). */
enum { DET_MAX_N = 8 };

static void detBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  int64_t n = *(const int64_t *)userData;
  MlirValue a[DET_MAX_N][DET_MAX_N];
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j)
      a[i][j] = args[i * n + j];
  MlirType t = mlirValueGetType(args[0]);
  MlirValue zero = kilnConstFloat(b, t, 0), sign = kilnConstFloat(b, t, 1);
  MlirValue det = sign;
  for (int64_t k = 0; k < n; ++k) {
    /* Partial pivoting by conditional row swaps: after the loop row k holds
     * the largest |a[i][k]|; each swap flips the sign. */
    MlirValue best = kilnArith1(b, "math.absf", a[k][k]);
    for (int64_t i = k + 1; i < n; ++i) {
      MlirValue ai = kilnArith1(b, "math.absf", a[i][k]);
      MlirValue c = kilnCmpF(b, "ogt", ai, best);
      for (int64_t j = k; j < n; ++j) {
        MlirValue tk = a[k][j];
        a[k][j] = kilnSelect(b, c, a[i][j], tk);
        a[i][j] = kilnSelect(b, c, tk, a[i][j]);
      }
      sign = kilnSelect(b, c, kilnArith1(b, "arith.negf", sign), sign);
      best = kilnSelect(b, c, ai, best);
    }
    MlirValue piv = a[k][k];
    det = kilnArith2(b, "arith.mulf", det, piv);
    /* A zero pivot means a zero column below: det is 0, keep the rest
     * finite. */
    MlirValue isZero = kilnCmpF(b, "oeq", piv, zero);
    for (int64_t i = k + 1; i < n; ++i) {
      MlirValue f = kilnSelect(b, isZero, zero,
                               kilnArith2(b, "arith.divf", a[i][k], piv));
      for (int64_t j = k + 1; j < n; ++j)
        a[i][j] = kilnArith2(b, "arith.subf", a[i][j],
                             kilnArith2(b, "arith.mulf", f, a[k][j]));
    }
  }
  yields[0] = kilnArith2(b, "arith.mulf", det, sign);
}

KilnLowerStatus kilnLowerRedDet(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x), nb = r - 2;
  int64_t n = kilnDim(x, r - 1);
  if (n > DET_MAX_N)
    return kilnLowerUnsupported(l, "of matrices larger than %dx%d", DET_MAX_N,
                                DET_MAX_N);
  if (n == 0) {
    MlirType t = kilnLowerResultType(l, 0);
    l->results[0] =
        kilnFilled(b, t, kilnConstFloat(b, mlirShapedTypeGetElementType(t), 1));
    return KILN_LOWER_OK;
  }
  MlirValue ins[DET_MAX_N * DET_MAX_N];
  MlirAttribute maps[DET_MAX_N * DET_MAX_N + 1];
  MlirAffineExpr e[KILN_MAX_RANK];
  for (intptr_t i = 0; i < nb; ++i)
    e[i] = mlirAffineDimExprGet(b->ctx, i);
  for (int64_t i = 0; i < n; ++i)
    for (int64_t j = 0; j < n; ++j) {
      e[nb] = mlirAffineConstantExprGet(b->ctx, i);
      e[nb + 1] = mlirAffineConstantExprGet(b->ctx, j);
      ins[i * n + j] = x;
      maps[i * n + j] = kilnMapExprs(b->ctx, nb, r, e);
    }
  maps[n * n] = kilnMapIdentity(b->ctx, nb);
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', nb);
  iters[nb] = '\0';
  MlirValue out = kilnEmpty(b, kilnLowerResultType(l, 0));
  l->results[0] = mlirOperationGetResult(
      kilnGeneric(b, n * n, ins, 1, &out, maps, nb, iters, detBody, &n), 0);
  return KILN_LOWER_OK;
}

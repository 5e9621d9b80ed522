/* TopK and the losses (NegativeLogLikelihoodLoss, SoftmaxCrossEntropyLoss)
 * → linalg.generic.
 *
 * Both select elements by a data-dependent index. Rather than gather (a
 * tensor.extract whose index must be clamped), they compare indices inside
 * a reduction over the candidates: O(n * k) for TopK, O(N * C * d) for the
 * losses, plain linalg that cannot read out of bounds. */
#include <string.h>

#include "conversions/graph-to-linalg/lower_reduction_internal.h"

/* i64 value of linalg.index(dim). */
static MlirValue indexI64(KilnBuilder *b, int64_t dim) {
  return kilnConvertScalar(b, kilnLinalgIndex(b, dim),
                           mlirIntegerTypeGet(b->ctx, 64), false);
}

/* ---- TopK ---------------------------------------------------------------- */

typedef struct TopKInfo {
  int64_t axis, extra; /* extra: the loop over candidates along the axis */
  bool largest;
} TopKInfo;

/* Whether `p` comes before `q` in the output order by value alone; NaN
 * counts as larger than every number (numpy's sort order). */
static MlirValue valueBefore(KilnBuilder *b, const TopKInfo *ti, MlirValue p,
                             MlirValue q) {
  if (!kilnTypeIsFloat(mlirValueGetType(p)))
    return kilnCmpI(b, ti->largest ? "sgt" : "slt", p, q);
  MlirValue pNan = kilnCmpF(b, "uno", p, p), qNan = kilnCmpF(b, "uno", q, q);
  MlirValue t = kilnConstInt(b, mlirValueGetType(pNan), 1);
  MlirValue nanWins = ti->largest
                          ? kilnArith2(b, "arith.andi", pNan,
                                       kilnArith2(b, "arith.xori", qNan, t))
                          : kilnArith2(b, "arith.andi", qNan,
                                       kilnArith2(b, "arith.xori", pNan, t));
  return kilnArith2(b, "arith.ori", nanWins,
                    kilnCmpF(b, ti->largest ? "ogt" : "olt", p, q));
}

static MlirValue valueEqual(KilnBuilder *b, MlirValue p, MlirValue q) {
  if (!kilnTypeIsFloat(mlirValueGetType(p)))
    return kilnCmpI(b, "eq", p, q);
  MlirValue bothNan = kilnArith2(b, "arith.andi", kilnCmpF(b, "uno", p, p),
                                 kilnCmpF(b, "uno", q, q));
  return kilnArith2(b, "arith.ori", kilnCmpF(b, "oeq", p, q), bothNan);
}

/* rank[i] = #{j : x[j] before x[i], or equal with j < i}: a permutation of
 * 0..n-1 (args: x[i], x[j], acc). */
static void rankBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                     void *userData) {
  const TopKInfo *ti = userData;
  MlirValue i = kilnLinalgIndex(b, ti->axis), j = kilnLinalgIndex(b, ti->extra);
  MlirValue before =
      kilnArith2(b, "arith.ori", valueBefore(b, ti, args[1], args[0]),
                 kilnArith2(b, "arith.andi", valueEqual(b, args[1], args[0]),
                            kilnCmpI(b, "ult", j, i)));
  MlirType i64 = mlirValueGetType(args[2]);
  yields[0] = kilnArith2(b, "arith.addi", args[2],
                         kilnConvertScalar(b, before, i64, true));
}

/* Output position t takes the candidate whose rank is t (args: x, rank,
 * value, index). */
static void pickBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                     void *userData) {
  const TopKInfo *ti = userData;
  MlirValue hit = kilnCmpI(b, "eq", args[1], indexI64(b, ti->axis));
  yields[0] = kilnSelect(b, hit, args[0], args[2]);
  yields[1] = kilnSelect(b, hit, indexI64(b, ti->extra), args[3]);
}

KilnLowerStatus kilnLowerRedTopK(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x);
  TopKInfo ti = {0, r, kilnInferAttrInt(&l->infer, "largest", 1) != 0};
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", -1), r, &ti.axis))
    return KILN_LOWER_ERROR;
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  int64_t ids[KILN_MAX_RANK], swapped[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    ids[i] = i;
    swapped[i] = i == ti.axis ? r : i;
  }
  MlirAttribute idMap = kilnMapDims(b->ctx, r + 1, r, ids);
  MlirAttribute candMap = kilnMapDims(b->ctx, r + 1, r, swapped);
  char iters[KILN_MAX_RANK + 2];
  memset(iters, 'p', r);
  iters[r] = 'r';
  iters[r + 1] = '\0';
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    shape[i] = kilnDim(x, i);
  MlirValue rank =
      kilnFilled(b, kilnTensorType(r, shape, i64), kilnConstInt(b, i64, 0));
  MlirValue in[2] = {x, x};
  MlirAttribute maps[4] = {idMap, candMap, idMap, idMap};
  rank = mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &rank, maps, r + 1, iters, rankBody, &ti), 0);
  MlirType valuesType = kilnLowerResultType(l, 0);
  MlirType indicesType = kilnLowerResultType(l, 1);
  MlirValue outs[2] = {
      kilnFilled(b, valuesType, kilnConstFloat(b, kilnElementType(x), 0)),
      kilnFilled(b, indicesType, kilnConstInt(b, i64, 0))};
  in[1] = rank;
  MlirAttribute pickMaps[4] = {candMap, candMap, idMap, idMap};
  MlirOperation pick =
      kilnGeneric(b, 2, in, 2, outs, pickMaps, r + 1, iters, pickBody, &ti);
  l->results[0] = mlirOperationGetResult(pick, 0);
  l->results[1] = mlirOperationGetResult(pick, 1);
  return KILN_LOWER_OK;
}

/* ---- Losses -------------------------------------------------------------- */

typedef struct NllInfo {
  bool hasWeight, hasIgnore;
  int64_t ignore, classLoop;
} NllInfo;

/* Over loops (n, d1.., c): loss -= x * w and wsum += w where c is the
 * target class (args: x, target, [weight], loss, wsum). */
static void nllBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  const NllInfo *ni = userData;
  MlirValue x = args[0], t = args[1];
  MlirType ft = mlirValueGetType(x), it = mlirValueGetType(t);
  MlirValue w = ni->hasWeight ? args[2] : kilnConstFloat(b, ft, 1);
  const MlirValue *acc = args + (ni->hasWeight ? 3 : 2);
  MlirValue c =
      kilnConvertScalar(b, kilnLinalgIndex(b, ni->classLoop), it, false);
  MlirValue hit = kilnCmpI(b, "eq", t, c);
  if (ni->hasIgnore)
    hit = kilnArith2(b, "arith.andi", hit,
                     kilnCmpI(b, "ne", t, kilnConstInt(b, it, ni->ignore)));
  MlirValue zero = kilnConstFloat(b, ft, 0);
  MlirValue term =
      kilnArith1(b, "arith.negf", kilnArith2(b, "arith.mulf", x, w));
  yields[0] =
      kilnArith2(b, "arith.addf", acc[0], kilnSelect(b, hit, term, zero));
  yields[1] = kilnArith2(b, "arith.addf", acc[1], kilnSelect(b, hit, w, zero));
}

static void divBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArith2(b, "arith.divf", args[0], args[1]);
}

/* The NLL loss of log-probabilities `input` [N, C, d...] (operands 1 and 2
 * of the op are the targets and weights). */
static KilnLowerStatus nllLoss(KilnLowerOp *l, MlirValue input) {
  KilnBuilder *b = &l->b;
  MlirValue target = kilnLowerOperand(l, 1), weight = kilnLowerOperand(l, 2);
  intptr_t r = kilnRank(input);
  MlirAttribute ignoreAttr = kilnInferAttr(&l->infer, "ignore_index");
  NllInfo ni = {!mlirValueIsNull(weight), !mlirAttributeIsNull(ignoreAttr),
                kilnInferAttrInt(&l->infer, "ignore_index", 0), r - 1};
  int64_t inDims[KILN_MAX_RANK], tDims[KILN_MAX_RANK], shape[KILN_MAX_RANK];
  inDims[0] = 0;
  inDims[1] = r - 1;
  for (intptr_t i = 2; i < r; ++i)
    inDims[i] = i - 1;
  for (intptr_t i = 0; i < r - 1; ++i) {
    tDims[i] = i;
    shape[i] = kilnDim(target, i);
  }
  int64_t cDim = r - 1;
  MlirValue ins[3] = {input, target, weight};
  MlirAttribute maps[5] = {kilnMapDims(b->ctx, r, r, inDims),
                           kilnMapDims(b->ctx, r, r - 1, tDims),
                           kilnMapDims(b->ctx, r, 1, &cDim)};
  intptr_t nIn = ni.hasWeight ? 3 : 2;
  maps[nIn] = maps[nIn + 1] = kilnMapDims(b->ctx, r, r - 1, tDims);
  MlirType elt = kilnElementType(input);
  MlirType lossType = kilnTensorType(r - 1, shape, elt);
  MlirValue zero = kilnConstFloat(b, elt, 0);
  MlirValue outs[2] = {kilnFill(b, zero, kilnEmptyLike(b, lossType, target)),
                       kilnFill(b, zero, kilnEmptyLike(b, lossType, target))};
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', r - 1);
  iters[r - 1] = 'r';
  iters[r] = '\0';
  MlirOperation op =
      kilnGeneric(b, nIn, ins, 2, outs, maps, r, iters, nllBody, &ni);
  MlirValue loss = mlirOperationGetResult(op, 0);
  MlirStringRef red = kilnInferAttrString(&l->infer, "reduction", "mean");
  if (red.length == 4 && !memcmp(red.data, "none", 4)) {
    l->results[0] = loss;
    return KILN_LOWER_OK;
  }
  bool all[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r - 1; ++i)
    all[i] = true;
  MlirValue sum = kilnLowerRedSum(b, loss, all);
  if (red.length == 4 && !memcmp(red.data, "mean", 4)) {
    MlirValue in[2] = {sum,
                       kilnLowerRedSum(b, mlirOperationGetResult(op, 1), all)};
    sum = kilnElementwise(b, 2, in, mlirValueGetType(sum), divBody, NULL);
  }
  l->results[0] = sum;
  return KILN_LOWER_OK;
}

KilnLowerStatus kilnLowerRedNllLoss(KilnLowerOp *l) {
  return nllLoss(l, kilnLowerOperand(l, 0));
}

KilnLowerStatus kilnLowerRedSceLoss(KilnLowerOp *l) {
  MlirValue logProb =
      kilnLowerRedSoftmax(&l->b, kilnLowerOperand(l, 0), 1, true);
  if (l->numResults > 1)
    l->results[1] = logProb;
  return nllLoss(l, logProb);
}

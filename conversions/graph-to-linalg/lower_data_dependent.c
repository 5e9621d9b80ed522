/* The ops whose result shape depends on the data: NonZero, Compress, Unique
 * and NonMaxSuppression → scf.for loops over tensors (tensor.extract,
 * tensor.insert, tensor.insert_slice) and a linalg gather.
 *
 * Each lowering first computes the data-dependent size as an index value,
 * then fills a scratch tensor one entry longer than the most the result can
 * hold, and returns the leading `count` entries of it:
 *
 *   %count = scf.for %i = %c0 to %n iter_args(%c = %c0) -> index {
 *     %keep = ...x[%i]...                         // non-zero, true, ...
 *     %c1 = arith.addi %c, (select %keep, 1, 0)
 *     scf.yield %c1
 *   }
 *   %scratch = tensor.empty(%n + 1)
 *   %filled:2 = scf.for %i = %c0 to %n iter_args(%t = %scratch, %p = %c0) {
 *     %t1 = tensor.insert %v into %t[%p]           // always written ...
 *     %p1 = arith.addi %p, (select %keep, 1, 0)    // ... kept when %keep
 *     scf.yield %t1, %p1
 *   }
 *   %y = tensor.extract_slice %filled#0[0] [%count] [1]
 *
 * The entry written past the kept ones is overwritten by the next kept one
 * (or lies past %count), so the loops need no scf.if; the scratch's spare
 * entry keeps every write in bounds. The library's shape function
 * (kiln-shape-function) is a clone of the model whose dims the
 * canonicalizer resolves to %count: it keeps the counting (for NMS the whole
 * selection) and drops the fill.
 *
 * The algorithms are quadratic, with no sort: Unique compares every slice
 * with the earlier ones (first occurrence) and with every first occurrence
 * (its rank in the sorted output); NMS ranks each class's boxes by score,
 * then tests each candidate against the boxes selected before it. */
#include <stdio.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower.h"
#include "support/ir_build.h"

/* ---- Small builders ------------------------------------------------------ */

static MlirType indexType(KilnBuilder *b) { return mlirIndexTypeGet(b->ctx); }
static MlirType i64Type(KilnBuilder *b) {
  return mlirIntegerTypeGet(b->ctx, 64);
}

/* count + 1 where `cond` (i1) holds, else count (index values). */
static MlirValue addIf(KilnBuilder *b, MlirValue count, MlirValue cond) {
  MlirValue one =
      kilnSelect(b, cond, kilnConstIndex(b, 1), kilnConstIndex(b, 0));
  return kilnArith2(b, "arith.addi", count, one);
}

static MlirValue andI(KilnBuilder *b, MlirValue x, MlirValue y) {
  return kilnArith2(b, "arith.andi", x, y);
}

static MlirValue notI(KilnBuilder *b, MlirValue x) {
  return kilnArith2(b, "arith.xori", x,
                    kilnConstInt(b, mlirValueGetType(x), 1));
}

/* t[i] of a 1-D i64 tensor as an index. */
static MlirValue readIndex(KilnBuilder *b, MlirValue t, MlirValue i) {
  return kilnConvertScalar(b, kilnExtract(b, t, 1, &i), indexType(b), false);
}

/* t[i] = v (an index) in a 1-D i64 tensor. */
static MlirValue writeIndex(KilnBuilder *b, MlirValue v, MlirValue t,
                            MlirValue i) {
  return kilnInsert(b, kilnConvertScalar(b, v, i64Type(b), false), t, 1, &i);
}

/* A new 1-D i64 tensor of `n` elements (uninitialized). */
static MlirValue emptyI64s(KilnBuilder *b, MlirValue n) {
  int64_t dyn = mlirShapedTypeGetDynamicSize();
  return kilnEmptySized(b, kilnTensorType(1, &dyn, i64Type(b)), &n);
}

/* The leading `count` entries of `t` along `axis` (all of the other dims). */
static MlirValue leading(KilnBuilder *b, MlirValue t, intptr_t axis,
                         MlirValue count) {
  intptr_t r = kilnRank(t);
  MlirValue offsets[KILN_MAX_RANK], sizes[KILN_MAX_RANK];
  int64_t strides[KILN_MAX_RANK];
  for (intptr_t j = 0; j < r; ++j) {
    offsets[j] = kilnConstIndex(b, 0);
    sizes[j] = j == axis ? count : kilnDimValue(b, t, j);
    strides[j] = 1;
  }
  return kilnExtractSliceAt(b, t, offsets, sizes, strides);
}

/* `x` as a 1-D tensor of its elements (row-major). */
static MlirValue flatten(KilnBuilder *b, MlirValue x) {
  int64_t n = kilnTypeIsStaticTensor(mlirValueGetType(x))
                  ? kilnNumElements(mlirValueGetType(x))
                  : mlirShapedTypeGetDynamicSize();
  return kilnReshape(b, x, kilnTensorType(1, &n, kilnElementType(x)));
}

/* Counts i in [0, n) where keep(b, i, userData) holds. */
typedef MlirValue (*KeepFn)(KilnBuilder *b, MlirValue i, const void *userData);

typedef struct Count {
  KeepFn keep;
  const void *userData;
} Count;

static void countBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                      MlirValue *next, void *userData) {
  const Count *c = userData;
  next[0] = addIf(b, acc[0], c->keep(b, iv, c->userData));
}

static MlirValue countWhere(KilnBuilder *b, MlirValue n, KeepFn keep,
                            const void *userData) {
  Count c = {keep, userData};
  MlirValue zero = kilnConstIndex(b, 0), count;
  kilnForLoopN(b, zero, n, 1, &zero, countBody, &c, &count);
  return count;
}

/* ---- non_zero ------------------------------------------------------------ */

typedef struct NonZero {
  MlirValue flat; /* x's elements */
  intptr_t rank;
  MlirValue dims[KILN_MAX_RANK]; /* x's dims (index values) */
} NonZero;

static MlirValue isNonZero(KilnBuilder *b, MlirValue i, const void *userData) {
  const NonZero *nz = userData;
  MlirValue v = kilnToSignless(b, kilnExtract(b, nz->flat, 1, &i));
  MlirType t = mlirValueGetType(v);
  if (kilnTypeIsFloat(t)) /* NaN counts as non-zero, as in numpy */
    return kilnCmpF(b, "une", v, kilnConstFloat(b, t, 0));
  return kilnCmpI(b, "ne", v, kilnConstInt(b, t, 0));
}

/* Column p of the scratch [rank, n + 1] takes the coordinates of flat index
 * i; p advances past it when x[i] is not zero. */
static void nonZeroFillBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                            MlirValue *next, void *userData) {
  const NonZero *nz = userData;
  MlirValue t = acc[0], rest = iv;
  for (intptr_t j = nz->rank - 1; j >= 0; --j) {
    MlirValue coord =
        j ? kilnArith2(b, "arith.remui", rest, nz->dims[j]) : rest;
    if (j)
      rest = kilnArith2(b, "arith.divui", rest, nz->dims[j]);
    MlirValue at[2] = {kilnConstIndex(b, j), acc[1]};
    t = kilnInsert(b, kilnConvertScalar(b, coord, i64Type(b), false), t, 2, at);
  }
  next[0] = t;
  next[1] = addIf(b, acc[1], isNonZero(b, iv, nz));
}

static KilnLowerStatus lowerNonZero(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  NonZero nz = {flatten(b, x), kilnRank(x), {{NULL}}};
  for (intptr_t j = 0; j < nz.rank; ++j)
    nz.dims[j] = kilnDimValue(b, x, j);
  MlirValue n = kilnDimValue(b, nz.flat, 0);
  MlirValue count = countWhere(b, n, isNonZero, &nz);
  int64_t shape[2] = {nz.rank, mlirShapedTypeGetDynamicSize()};
  MlirValue sizes[2] = {kilnConstIndex(b, nz.rank),
                        kilnArith2(b, "arith.addi", n, kilnConstIndex(b, 1))};
  MlirValue init[2] = {
      kilnEmptySized(b, kilnTensorType(2, shape, i64Type(b)), sizes),
      kilnConstIndex(b, 0)};
  MlirValue filled[2];
  kilnForLoopN(b, init[1], n, 2, init, nonZeroFillBody, &nz, filled);
  l->results[0] = leading(b, filled[0], 1, count);
  return KILN_LOWER_OK;
}

/* ---- compress ------------------------------------------------------------ */

typedef struct Compress {
  MlirValue data, condition; /* condition: i1 */
  intptr_t axis;
} Compress;

static MlirValue conditionHolds(KilnBuilder *b, MlirValue i,
                                const void *userData) {
  const Compress *c = userData;
  return kilnExtract(b, c->condition, 1, &i);
}

/* Slice i of data along the axis goes to slice p of the scratch; p advances
 * past it where the condition holds. */
static void compressFillBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                             MlirValue *next, void *userData) {
  const Compress *c = userData;
  intptr_t r = kilnRank(c->data);
  MlirValue offsets[KILN_MAX_RANK], sizes[KILN_MAX_RANK];
  int64_t strides[KILN_MAX_RANK];
  for (intptr_t j = 0; j < r; ++j) {
    offsets[j] = j == c->axis ? iv : kilnConstIndex(b, 0);
    sizes[j] =
        j == c->axis ? kilnConstIndex(b, 1) : kilnDimValue(b, c->data, j);
    strides[j] = 1;
  }
  MlirValue slice = kilnExtractSliceAt(b, c->data, offsets, sizes, strides);
  offsets[c->axis] = acc[1];
  next[0] = kilnInsertSliceAt(b, slice, acc[0], offsets);
  next[1] = addIf(b, acc[1], conditionHolds(b, iv, c));
}

static KilnLowerStatus lowerCompress(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue input = kilnLowerOperand(l, 0);
  Compress c = {input, kilnLowerOperand(l, 1), 0};
  if (mlirAttributeIsNull(kilnInferAttr(&l->infer, "axis")))
    c.data = flatten(b, input);
  else if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", 0),
                          kilnRank(input), &c.axis))
    return KILN_LOWER_ERROR;
  /* A shorter condition leaves out the slices past it (ONNX); a longer
   * one has entries for slices that do not exist. */
  int64_t entries = kilnDim(c.condition, 0), slices = kilnDim(c.data, c.axis);
  if (!mlirShapedTypeIsDynamicSize(entries) &&
      !mlirShapedTypeIsDynamicSize(slices) && entries > slices)
    return kilnLowerError(l,
                          "'condition' has %lld entries, more than the %lld "
                          "slices of the input along the axis",
                          (long long)entries, (long long)slices);
  MlirValue n = kilnDimValue(b, c.condition, 0);
  kilnAssertCmp(b, "ule", n, kilnDimValue(b, c.data, c.axis),
                "'condition' is longer than the input along the axis");
  MlirValue count = countWhere(b, n, conditionHolds, &c);
  intptr_t r = kilnRank(c.data);
  int64_t shape[KILN_MAX_RANK];
  MlirValue sizes[KILN_MAX_RANK];
  for (intptr_t j = 0; j < r; ++j) {
    shape[j] =
        j == c.axis ? mlirShapedTypeGetDynamicSize() : kilnDim(c.data, j);
    sizes[j] = j == c.axis
                   ? kilnArith2(b, "arith.addi", n, kilnConstIndex(b, 1))
                   : kilnDimValue(b, c.data, j);
  }
  MlirType scratchType = kilnTensorType(r, shape, kilnElementType(c.data));
  MlirValue init[2] = {kilnEmptySized(b, scratchType, sizes),
                       kilnConstIndex(b, 0)};
  MlirValue filled[2];
  kilnForLoopN(b, init[1], n, 2, init, compressFillBody, &c, filled);
  l->results[0] = leading(b, filled[0], c.axis, count);
  return KILN_LOWER_OK;
}

/* ---- unique -------------------------------------------------------------- */

/* The input as [outer, slices, inner]: slice a is data[:, a, :], compared
 * lexicographically in row-major order (numpy.unique with an axis moves the
 * axis first and compares the rest as one row). Without an axis the slices
 * are the elements. */
typedef struct Unique {
  MlirValue data;
  MlirValue inner, sliceSize; /* index values */
  MlirValue first;            /* i64 [slices]: the first slice equal to each */
  MlirValue rank; /* i64 [slices]: a first occurrence's output position */
  bool sorted;
} Unique;

/* Whether x comes before y: numeric order, NaN after every number and
 * equal to NaN (numpy.unique collapses NaNs). Unsigned and bool elements
 * compare unsigned. */
static MlirValue elementBefore(KilnBuilder *b, MlirValue x, MlirValue y,
                               bool isUnsigned) {
  if (!kilnTypeIsFloat(mlirValueGetType(x)))
    return kilnCmpI(b, isUnsigned ? "ult" : "slt", x, y);
  MlirValue yNan = kilnCmpF(b, "uno", y, y);
  MlirValue xNumber = kilnCmpF(b, "ord", x, x);
  return kilnArith2(b, "arith.ori", kilnCmpF(b, "olt", x, y),
                    andI(b, xNumber, yNan));
}

/* Comparison state of two slices: 0 equal so far, 1 less, 2 greater. */
enum { SAME = 0, LESS = 1, GREATER = 2 };

typedef struct SliceCompare {
  const Unique *u;
  MlirValue p, q; /* the slices compared */
} SliceCompare;

/* Element s of slice a (s in [0, outer * inner)). */
static MlirValue sliceElement(KilnBuilder *b, const Unique *u, MlirValue a,
                              MlirValue s) {
  MlirValue at[3] = {kilnArith2(b, "arith.divui", s, u->inner), a,
                     kilnArith2(b, "arith.remui", s, u->inner)};
  return kilnExtract(b, u->data, 3, at);
}

static void compareBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                        MlirValue *next, void *userData) {
  const SliceCompare *sc = userData;
  MlirType elt = kilnElementType(sc->u->data);
  bool isUnsigned =
      kilnTypeIsUnsignedInt(elt) ||
      (mlirTypeIsAInteger(elt) && mlirIntegerTypeGetWidth(elt) == 1);
  MlirValue x = kilnToSignless(b, sliceElement(b, sc->u, sc->p, iv));
  MlirValue y = kilnToSignless(b, sliceElement(b, sc->u, sc->q, iv));
  MlirValue step = kilnSelect(
      b, elementBefore(b, x, y, isUnsigned), kilnConstIndex(b, LESS),
      kilnSelect(b, elementBefore(b, y, x, isUnsigned),
                 kilnConstIndex(b, GREATER), kilnConstIndex(b, SAME)));
  MlirValue undecided = kilnCmpI(b, "eq", acc[0], kilnConstIndex(b, SAME));
  next[0] = kilnSelect(b, undecided, step, acc[0]);
}

/* SAME, LESS or GREATER: slice p against slice q. */
static MlirValue compareSlices(KilnBuilder *b, const Unique *u, MlirValue p,
                               MlirValue q) {
  SliceCompare sc = {u, p, q};
  MlirValue state = kilnConstIndex(b, SAME), result;
  kilnForLoopN(b, kilnConstIndex(b, 0), u->sliceSize, 1, &state, compareBody,
               &sc, &result);
  return result;
}

typedef struct UniqueStep {
  const Unique *u;
  MlirValue i; /* the outer loop's slice */
} UniqueStep;

/* f = j where f is still i and slice j (j < i) equals slice i. */
static void firstEqualBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                           MlirValue *next, void *userData) {
  const UniqueStep *s = userData;
  MlirValue same = kilnCmpI(b, "eq", compareSlices(b, s->u, iv, s->i),
                            kilnConstIndex(b, SAME));
  MlirValue unset = kilnCmpI(b, "eq", acc[0], s->i);
  next[0] = kilnSelect(b, andI(b, same, unset), iv, acc[0]);
}

static void firstBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                      MlirValue *next, void *userData) {
  UniqueStep s = {userData, iv};
  MlirValue f;
  kilnForLoopN(b, kilnConstIndex(b, 0), iv, 1, &iv, firstEqualBody, &s, &f);
  next[0] = writeIndex(b, f, acc[0], iv);
}

static MlirValue isFirst(KilnBuilder *b, MlirValue i, const void *userData) {
  const Unique *u = userData;
  return kilnCmpI(b, "eq", readIndex(b, u->first, i), i);
}

/* rank += 1 for each first occurrence j that goes before slice i. */
static void rankCountBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                          MlirValue *next, void *userData) {
  const UniqueStep *s = userData;
  MlirValue before = s->u->sorted
                         ? kilnCmpI(b, "eq", compareSlices(b, s->u, iv, s->i),
                                    kilnConstIndex(b, LESS))
                         : kilnCmpI(b, "ult", iv, s->i);
  next[0] = addIf(b, acc[0], andI(b, isFirst(b, iv, s->u), before));
}

static void rankBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                     MlirValue *next, void *userData) {
  const Unique *u = userData;
  UniqueStep s = {u, iv};
  MlirValue zero = kilnConstIndex(b, 0), rank;
  /* unsorted: only the slices before i can go before it */
  MlirValue end = u->sorted ? kilnDimValue(b, u->data, 1) : iv;
  kilnForLoopN(b, zero, end, 1, &zero, rankCountBody, &s, &rank);
  next[0] = writeIndex(b, rank, acc[0], iv);
}

/* pick[rank[a]] = a for each first occurrence a; the other slices write
 * the spare entry. */
typedef struct Pick {
  const Unique *u;
  MlirValue spare; /* the unique count: pick's last entry */
} Pick;

static void pickBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                     MlirValue *next, void *userData) {
  const Pick *p = userData;
  MlirValue at = kilnSelect(b, isFirst(b, iv, p->u),
                            readIndex(b, p->u->rank, iv), p->spare);
  next[0] = writeIndex(b, iv, acc[0], at);
}

/* counts[rank[first[k]]] += 1 */
static void countsBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                       MlirValue *next, void *userData) {
  const Unique *u = userData;
  MlirValue at = readIndex(b, u->rank, readIndex(b, u->first, iv));
  MlirValue n = kilnExtract(b, acc[0], 1, &at);
  n = kilnArith2(b, "arith.addi", n, kilnConstInt(b, i64Type(b), 1));
  next[0] = kilnInsert(b, n, acc[0], 1, &at);
}

/* inverse[k] = rank[first[k]] (args: first[k], out). */
static void inverseBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  const Unique *u = userData;
  MlirValue f = kilnConvertScalar(b, args[0], indexType(b), false);
  yields[0] = kilnExtract(b, u->rank, 1, &f);
}

/* y[o, p, i] = data[o, pick[p], i] (args: pick[p], out). */
static void gatherSliceBody(KilnBuilder *b, const MlirValue *args,
                            MlirValue *yields, void *userData) {
  const Unique *u = userData;
  MlirValue at[3] = {kilnLinalgIndex(b, 0),
                     kilnConvertScalar(b, args[0], indexType(b), false),
                     kilnLinalgIndex(b, 2)};
  yields[0] = kilnExtract(b, u->data, 3, at);
}

/* `x` as [outer, slices, inner] around `axis`. */
static MlirValue asSlices(KilnBuilder *b, MlirValue x, intptr_t axis) {
  int64_t shape[3] = {1, kilnDim(x, axis), 1};
  MlirValue sizes[3] = {kilnConstIndex(b, 1), kilnDimValue(b, x, axis),
                        kilnConstIndex(b, 1)};
  for (intptr_t j = 0; j < kilnRank(x); ++j) {
    if (j == axis)
      continue;
    int64_t *s = &shape[j < axis ? 0 : 2];
    MlirValue *v = &sizes[j < axis ? 0 : 2];
    *s = mlirShapedTypeIsDynamicSize(*s) ||
                 mlirShapedTypeIsDynamicSize(kilnDim(x, j))
             ? mlirShapedTypeGetDynamicSize()
             : *s * kilnDim(x, j);
    *v = kilnArith2(b, "arith.muli", *v, kilnDimValue(b, x, j));
  }
  return kilnReshapeSized(b, x, kilnTensorType(3, shape, kilnElementType(x)),
                          sizes);
}

/* y: the picked slices, back in the input's layout (unique count at the
 * axis). */
static MlirValue uniqueValues(KilnLowerOp *l, const Unique *u, MlirValue x,
                              intptr_t axis, MlirValue picked,
                              MlirValue count) {
  KilnBuilder *b = &l->b;
  MlirType yType = kilnLowerResultType(l, 0);
  int64_t shape[3] = {kilnDim(u->data, 0), mlirShapedTypeGetDynamicSize(),
                      kilnDim(u->data, 2)};
  MlirValue sizes[3] = {kilnDimValue(b, u->data, 0), count,
                        kilnDimValue(b, u->data, 2)};
  MlirValue init =
      kilnEmptySized(b, kilnTensorType(3, shape, kilnElementType(x)), sizes);
  int64_t d1 = 1;
  MlirAttribute maps[2] = {kilnMapDims(b->ctx, 3, 1, &d1),
                           kilnMapIdentity(b->ctx, 3)};
  MlirValue y =
      mlirOperationGetResult(kilnGeneric(b, 1, &picked, 1, &init, maps, 3,
                                         "ppp", gatherSliceBody, (void *)u),
                             0);
  MlirValue ySizes[KILN_MAX_RANK];
  for (intptr_t j = 0; j < mlirShapedTypeGetRank(yType); ++j)
    ySizes[j] = j == axis ? count : kilnDimValue(b, x, j);
  return kilnReshapeSized(b, y, yType, ySizes);
}

static KilnLowerStatus lowerUnique(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t axis = 0;
  if (mlirAttributeIsNull(kilnInferAttr(&l->infer, "axis")))
    x = flatten(b, x);
  else if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", 0),
                          kilnRank(x), &axis))
    return KILN_LOWER_ERROR;
  Unique u = {asSlices(b, x, axis),
              {NULL},
              {NULL},
              {NULL},
              {NULL},
              kilnInferAttrInt(&l->infer, "sorted", 1) != 0};
  u.inner = kilnDimValue(b, u.data, 2);
  u.sliceSize =
      kilnArith2(b, "arith.muli", kilnDimValue(b, u.data, 0), u.inner);
  MlirValue n = kilnDimValue(b, u.data, 1), zero = kilnConstIndex(b, 0);
  MlirValue t = emptyI64s(b, n);
  kilnForLoopN(b, zero, n, 1, &t, firstBody, &u, &u.first);
  MlirValue count = countWhere(b, n, isFirst, &u);
  t = emptyI64s(b, n);
  kilnForLoopN(b, zero, n, 1, &t, rankBody, &u, &u.rank);
  Pick p = {&u, count};
  t = emptyI64s(b, kilnArith2(b, "arith.addi", count, kilnConstIndex(b, 1)));
  MlirValue picked;
  kilnForLoopN(b, zero, n, 1, &t, pickBody, &p, &picked);
  picked = leading(b, picked, 0, count);
  l->results[0] = uniqueValues(l, &u, x, axis, picked, count);
  if (l->numResults > 1)
    l->results[1] = picked;
  if (l->numResults > 2) {
    MlirAttribute maps[2] = {kilnMapIdentity(b->ctx, 1),
                             kilnMapIdentity(b->ctx, 1)};
    MlirValue init = kilnEmptySized(b, kilnLowerResultType(l, 2), &n);
    l->results[2] = mlirOperationGetResult(
        kilnGeneric(b, 1, &u.first, 1, &init, maps, 1, "p", inverseBody, &u),
        0);
  }
  if (l->numResults > 3) {
    MlirValue counts =
        kilnFill(b, kilnConstInt(b, i64Type(b), 0), emptyI64s(b, count));
    kilnForLoopN(b, zero, n, 1, &counts, countsBody, &u, &l->results[3]);
  }
  return KILN_LOWER_OK;
}

/* ---- non_max_suppression ------------------------------------------------- */

typedef struct Nms {
  MlirValue boxes, scores; /* [batches, boxes, 4], [batches, classes, boxes] */
  MlirValue numBoxes, numClasses; /* index values */
  MlirValue maxPerClass;          /* i64 */
  MlirValue iouThreshold;         /* f32 */
  MlirValue scoreThreshold;       /* f32, or null: no threshold */
  bool centerPoint;
  MlirValue batch, cls; /* the loops' current batch and class */
  MlirValue order;      /* i64 [boxes]: the class's boxes by score */
  MlirValue start;      /* the class's first row in the output */
  MlirValue output;     /* i64 [rows, 3], the candidate step's */
  MlirValue box[4];     /* the candidate's x1, y1, x2, y2 (x1 <= x2, ...) */
} Nms;

/* The corners of box i of the current batch as xmin, ymin, xmax, ymax. */
static void boxCorners(KilnBuilder *b, const Nms *m, MlirValue i,
                       MlirValue *out) {
  MlirValue v[4];
  for (int k = 0; k < 4; ++k) {
    MlirValue at[3] = {m->batch, i, kilnConstIndex(b, k)};
    v[k] = kilnExtract(b, m->boxes, 3, at);
  }
  if (m->centerPoint) { /* [x_center, y_center, width, height] */
    MlirValue half = kilnConstFloat(b, mlirF32TypeGet(b->ctx), 0.5);
    MlirValue hw = kilnMulF(b, v[2], half), hh = kilnMulF(b, v[3], half);
    out[0] = kilnSubF(b, v[0], hw);
    out[1] = kilnSubF(b, v[1], hh);
    out[2] = kilnAddF(b, v[0], hw);
    out[3] = kilnAddF(b, v[1], hh);
    return;
  }
  /* [y1, x1, y2, x2], either diagonal */
  out[0] = kilnArith2(b, "arith.minimumf", v[1], v[3]);
  out[1] = kilnArith2(b, "arith.minimumf", v[0], v[2]);
  out[2] = kilnArith2(b, "arith.maximumf", v[1], v[3]);
  out[3] = kilnArith2(b, "arith.maximumf", v[0], v[2]);
}

/* Whether boxes p and q overlap by an IoU above the threshold; boxes of
 * no area suppress nothing (as onnxruntime and the ONNX reference). */
static MlirValue suppresses(KilnBuilder *b, const Nms *m, const MlirValue *p,
                            const MlirValue *q) {
  MlirValue zero = kilnConstFloat(b, mlirF32TypeGet(b->ctx), 0);
  MlirValue w = kilnSubF(b, kilnArith2(b, "arith.minimumf", p[2], q[2]),
                         kilnArith2(b, "arith.maximumf", p[0], q[0]));
  MlirValue h = kilnSubF(b, kilnArith2(b, "arith.minimumf", p[3], q[3]),
                         kilnArith2(b, "arith.maximumf", p[1], q[1]));
  MlirValue inter = kilnMulF(b, w, h);
  MlirValue areaP =
      kilnMulF(b, kilnSubF(b, p[2], p[0]), kilnSubF(b, p[3], p[1]));
  MlirValue areaQ =
      kilnMulF(b, kilnSubF(b, q[2], q[0]), kilnSubF(b, q[3], q[1]));
  MlirValue uni = kilnSubF(b, kilnAddF(b, areaP, areaQ), inter);
  MlirValue valid =
      andI(b, andI(b, kilnCmpF(b, "ogt", w, zero), kilnCmpF(b, "ogt", h, zero)),
           andI(b,
                andI(b, kilnCmpF(b, "ogt", areaP, zero),
                     kilnCmpF(b, "ogt", areaQ, zero)),
                kilnCmpF(b, "ogt", uni, zero)));
  MlirValue iou = kilnDivF(b, inter, uni);
  return andI(b, valid, kilnCmpF(b, "ogt", iou, m->iouThreshold));
}

/* The current class's score of box i. */
static MlirValue score(KilnBuilder *b, const Nms *m, MlirValue i) {
  MlirValue at[3] = {m->batch, m->cls, i};
  return kilnExtract(b, m->scores, 3, at);
}

/* Whether score x ranks before score y: higher first, NaN last (a total
 * order with the index as tie break, so the ranks are a permutation). */
static MlirValue scoreAbove(KilnBuilder *b, MlirValue x, MlirValue y) {
  MlirValue yNan = kilnCmpF(b, "uno", y, y);
  return kilnArith2(b, "arith.ori", kilnCmpF(b, "ogt", x, y),
                    andI(b, kilnCmpF(b, "ord", x, x), yNan));
}

typedef struct NmsStep {
  const Nms *m;
  MlirValue i;
} NmsStep;

/* rank += 1 for each box j that goes before box i. */
static void scoreRankBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                          MlirValue *next, void *userData) {
  const NmsStep *s = userData;
  MlirValue sj = score(b, s->m, iv), si = score(b, s->m, s->i);
  MlirValue tie =
      andI(b, notI(b, scoreAbove(b, si, sj)), kilnCmpI(b, "ult", iv, s->i));
  next[0] =
      addIf(b, acc[0], kilnArith2(b, "arith.ori", scoreAbove(b, sj, si), tie));
}

static void orderBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                      MlirValue *next, void *userData) {
  NmsStep s = {userData, iv};
  MlirValue zero = kilnConstIndex(b, 0), rank;
  kilnForLoopN(b, zero, s.m->numBoxes, 1, &zero, scoreRankBody, &s, &rank);
  next[0] = writeIndex(b, iv, acc[0], rank);
}

/* any |= selected row j's box suppresses the candidate. */
static void suppressedBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                           MlirValue *next, void *userData) {
  const Nms *m = userData;
  MlirValue at[2] = {iv, kilnConstIndex(b, 2)};
  MlirValue j = kilnConvertScalar(b, kilnExtract(b, m->output, 2, at),
                                  indexType(b), false);
  MlirValue other[4];
  boxCorners(b, m, j, other);
  next[0] = kilnArith2(b, "arith.ori", acc[0], suppresses(b, m, other, m->box));
}

/* Row `total` of the output takes (batch, class, order[k]); total advances
 * past it when the box is selected. acc: output, total. */
static void candidateBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                          MlirValue *next, void *userData) {
  Nms m = *(const Nms *)userData;
  MlirValue i = readIndex(b, m.order, iv);
  boxCorners(b, &m, i, m.box);
  MlirValue taken = kilnConvertScalar(
      b, kilnArith2(b, "arith.subi", acc[1], m.start), i64Type(b), false);
  MlirValue ok = kilnCmpI(b, "slt", taken, m.maxPerClass);
  if (!mlirValueIsNull(m.scoreThreshold))
    ok = andI(b, ok, kilnCmpF(b, "ogt", score(b, &m, i), m.scoreThreshold));
  m.output = acc[0];
  MlirValue none = kilnConstInt(b, mlirIntegerTypeGet(b->ctx, 1), 0), any;
  kilnForLoopN(b, m.start, acc[1], 1, &none, suppressedBody, &m, &any);
  MlirValue row[3] = {m.batch, m.cls, i}, t = acc[0];
  for (int k = 0; k < 3; ++k) {
    MlirValue at[2] = {acc[1], kilnConstIndex(b, k)};
    t = kilnInsert(b, kilnConvertScalar(b, row[k], i64Type(b), false), t, 2,
                   at);
  }
  next[0] = t;
  next[1] = addIf(b, acc[1], andI(b, ok, notI(b, any)));
}

static void classBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                      MlirValue *next, void *userData) {
  Nms m = *(const Nms *)userData;
  m.cls = iv;
  MlirValue zero = kilnConstIndex(b, 0), order = emptyI64s(b, m.numBoxes);
  kilnForLoopN(b, zero, m.numBoxes, 1, &order, orderBody, &m, &m.order);
  m.start = acc[1];
  kilnForLoopN(b, zero, m.numBoxes, 2, acc, candidateBody, &m, next);
}

static void batchBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                      MlirValue *next, void *userData) {
  Nms m = *(const Nms *)userData;
  m.batch = iv;
  kilnForLoopN(b, kilnConstIndex(b, 0), m.numClasses, 2, acc, classBody, &m,
               next);
}

/* The one value of optional scalar operand i, or `fallback`. */
static MlirValue scalarOperand(KilnLowerOp *l, intptr_t i, const char *name,
                               MlirValue fallback) {
  KilnBuilder *b = &l->b;
  MlirValue t = kilnLowerOperand(l, i);
  if (mlirValueIsNull(t))
    return fallback;
  /* a static one is a scalar or of one element (type inference) */
  if (!kilnTypeIsStaticTensor(mlirValueGetType(t))) {
    char message[96];
    snprintf(message, sizeof message, "'%s' must hold one value", name);
    kilnAssertEqual(b, kilnNumElementsValue(b, t), kilnConstIndex(b, 1),
                    message);
  }
  MlirValue zeros[KILN_MAX_RANK];
  for (intptr_t j = 0; j < kilnRank(t); ++j)
    zeros[j] = kilnConstIndex(b, 0);
  return kilnExtract(b, t, kilnRank(t), zeros);
}

static KilnLowerStatus lowerNonMaxSuppression(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirType f32 = mlirF32TypeGet(b->ctx);
  Nms m = {0};
  m.boxes = kilnLowerOperand(l, 0);
  m.scores = kilnLowerOperand(l, 1);
  m.centerPoint = kilnInferAttrInt(&l->infer, "center_point_box", 0) != 0;
  MlirValue batches = kilnDimValue(b, m.boxes, 0);
  m.numBoxes = kilnDimValue(b, m.boxes, 1);
  m.numClasses = kilnDimValue(b, m.scores, 1);
  kilnAssertEqual(b, kilnDimValue(b, m.boxes, 2), kilnConstIndex(b, 4),
                  "'boxes' must have 4 coordinates per box");
  kilnAssertEqual(b, kilnDimValue(b, m.scores, 0), batches,
                  "'boxes' and 'scores' have different numbers of batches");
  kilnAssertEqual(b, kilnDimValue(b, m.scores, 2), m.numBoxes,
                  "'boxes' and 'scores' have different numbers of boxes");
  /* no max_output_boxes_per_class: 0, no output (ONNX) */
  m.maxPerClass = scalarOperand(l, 2, "max_output_boxes_per_class",
                                kilnConstInt(b, i64Type(b), 0));
  m.iouThreshold =
      scalarOperand(l, 3, "iou_threshold", kilnConstFloat(b, f32, 0));
  m.scoreThreshold = scalarOperand(l, 4, "score_threshold", (MlirValue){NULL});
  /* at most every box of every class, and the spare row */
  MlirValue rows =
      kilnArith2(b, "arith.muli", batches,
                 kilnArith2(b, "arith.muli", m.numClasses, m.numBoxes));
  rows = kilnArith2(b, "arith.addi", rows, kilnConstIndex(b, 1));
  int64_t shape[2] = {mlirShapedTypeGetDynamicSize(), 3};
  MlirValue sizes[2] = {rows, kilnConstIndex(b, 3)};
  MlirValue init[2] = {
      kilnEmptySized(b, kilnTensorType(2, shape, i64Type(b)), sizes),
      kilnConstIndex(b, 0)};
  MlirValue selected[2];
  kilnForLoopN(b, init[1], batches, 2, init, batchBody, &m, selected);
  l->results[0] = leading(b, selected[0], 0, selected[1]);
  return KILN_LOWER_OK;
}

const KilnLowering kilnLowerDataDependent[] = {
    {"non_zero", lowerNonZero, KILN_LOWER_DYNAMIC},
    {"compress", lowerCompress, KILN_LOWER_DYNAMIC},
    {"unique", lowerUnique, KILN_LOWER_DYNAMIC},
    {"non_max_suppression", lowerNonMaxSuppression, KILN_LOWER_DYNAMIC},
};
const int kilnLowerDataDependentCount =
    sizeof(kilnLowerDataDependent) / sizeof(kilnLowerDataDependent[0]);

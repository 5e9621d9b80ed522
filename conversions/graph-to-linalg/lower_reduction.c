/* Reductions, contractions and normalizing ops (ops_reduction*.c) → linalg.
 *
 * This file holds the shared helpers (lower_reduction_internal.h), ReduceX,
 * Softmax/LogSoftmax, ArgMax/ArgMin, Hardmax, CumSum and the family table;
 * MatMul, Gemm, Einsum and Det are in lower_reduction_matmul.c, TopK and the
 * losses in lower_reduction_select.c.
 *
 * A reduction is a tensor filled with the combiner's identity (0, 1, -inf,
 * +inf, integer limits) and one linalg.generic whose reduced loops are
 * 'reduction' iterators; results drop the reduced dims and are reshaped to
 * keep them (keepdims) afterwards. */
#include <math.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower_reduction_internal.h"

/* ---- Shared helpers ------------------------------------------------------ */

MlirAttribute kilnLowerRedDropMap(MlirContext ctx, intptr_t rank,
                                  const bool *dropped) {
  int64_t dims[KILN_MAX_RANK];
  intptr_t n = 0;
  for (intptr_t i = 0; i < rank; ++i)
    if (!dropped[i])
      dims[n++] = i;
  return kilnMapDims(ctx, rank, n, dims);
}

/* A new tensor of `x`'s dims that `reduced` keeps, element type `elt`,
 * filled with `init`. */
static MlirValue keptFilled(KilnBuilder *b, MlirValue x, const bool *reduced,
                            MlirType elt, MlirValue init) {
  int64_t shape[KILN_MAX_RANK];
  MlirValue sizes[KILN_MAX_RANK];
  intptr_t n = 0;
  for (intptr_t i = 0; i < kilnRank(x); ++i)
    if (!reduced[i]) {
      shape[n] = kilnDim(x, i);
      if (mlirShapedTypeIsDynamicSize(shape[n]))
        sizes[n] = kilnDimValue(b, x, i);
      ++n;
    }
  MlirType type = kilnTensorType(n, shape, elt);
  return kilnFill(b, init, kilnEmptySized(b, type, sizes));
}

MlirValue kilnLowerRedReduce(KilnBuilder *b, MlirValue x, intptr_t nExtra,
                             const MlirValue *extra,
                             const MlirAttribute *extraMaps,
                             const bool *reduced, MlirType elt, MlirValue init,
                             KilnBodyFn body, void *userData) {
  intptr_t r = kilnRank(x);
  char iters[KILN_MAX_RANK + 1];
  for (intptr_t i = 0; i < r; ++i)
    iters[i] = reduced[i] ? 'r' : 'p';
  iters[r] = '\0';
  MlirValue out = keptFilled(b, x, reduced, elt, init);
  MlirValue inputs[4];
  MlirAttribute maps[5];
  inputs[0] = x;
  maps[0] = kilnMapIdentity(b->ctx, r);
  for (intptr_t i = 0; i < nExtra; ++i) {
    inputs[1 + i] = extra[i];
    maps[1 + i] = extraMaps[i];
  }
  maps[1 + nExtra] = kilnLowerRedDropMap(b->ctx, r, reduced);
  return mlirOperationGetResult(kilnGeneric(b, 1 + nExtra, inputs, 1, &out,
                                            maps, r, iters, body, userData),
                                0);
}

static void addBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArithNumeric(b, "add", args[1], args[0]);
}

MlirValue kilnLowerRedSum(KilnBuilder *b, MlirValue x, const bool *reduced) {
  MlirType elt = kilnElementType(x);
  return kilnLowerRedReduce(b, x, 0, NULL, NULL, reduced, elt,
                            kilnConstFloat(b, elt, 0), addBody, NULL);
}

MlirValue kilnLowerRedMapped(KilnBuilder *b, intptr_t nInputs,
                             const MlirValue *inputs, const MlirAttribute *maps,
                             MlirType resultType, KilnBodyFn body,
                             void *userData) {
  intptr_t r = mlirShapedTypeGetRank(resultType);
  MlirAttribute all[8];
  memcpy(all, maps, nInputs * sizeof(MlirAttribute));
  all[nInputs] = kilnMapIdentity(b->ctx, r);
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', r);
  iters[r] = '\0';
  /* Sized like the first input of the result's rank (the others, if
   * any, are broadcast statistics or scalars). */
  MlirValue like = {NULL};
  for (intptr_t i = 0; i < nInputs && mlirValueIsNull(like); ++i)
    if (kilnRank(inputs[i]) == r)
      like = inputs[i];
  MlirValue init = mlirValueIsNull(like) ? kilnEmpty(b, resultType)
                                         : kilnEmptyLike(b, resultType, like);
  return mlirOperationGetResult(
      kilnGeneric(b, nInputs, inputs, 1, &init, all, r, iters, body, userData),
      0);
}

/* ---- ReduceX ------------------------------------------------------------- */

typedef enum RedKind {
  RED_SUM,
  RED_MEAN,
  RED_MAX,
  RED_MIN,
  RED_PROD,
  RED_L1,
  RED_L2,
  RED_LOG_SUM,
  RED_LOG_SUM_EXP,
  RED_SUM_SQUARE
} RedKind;

typedef struct RedInfo {
  RedKind kind;
  bool isFloat, isBool;
} RedInfo;

static bool isBoolType(MlirType t) {
  return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 1;
}

/* The combiner: acc = acc (+|*|max|min) f(x), where f is |x|, x*x or
 * exp(x - m) for the kinds that need it (args: x, [m], acc). */
static void reduceBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  const RedInfo *ri = userData;
  MlirValue x = args[0], acc = args[1];
  switch (ri->kind) {
  case RED_MAX:
    yields[0] = ri->isBool ? kilnArith2(b, "arith.ori", acc, x)
                           : kilnArithNumeric(b, "max", acc, x);
    return;
  case RED_MIN:
    yields[0] = ri->isBool ? kilnArith2(b, "arith.andi", acc, x)
                           : kilnArithNumeric(b, "min", acc, x);
    return;
  case RED_PROD:
    yields[0] = kilnArithNumeric(b, "mul", acc, x);
    return;
  case RED_L1:
    x = kilnArith1(b, ri->isFloat ? "math.absf" : "math.absi", x);
    break;
  case RED_L2:
  case RED_SUM_SQUARE:
    x = kilnArithNumeric(b, "mul", x, x);
    break;
  case RED_LOG_SUM_EXP:
    acc = args[2];
    x = kilnArith1(b, "math.exp", kilnArith2(b, "arith.subf", x, args[1]));
    break;
  default:
    break;
  }
  yields[0] = kilnArithNumeric(b, "add", acc, x);
}

typedef struct PostInfo {
  RedKind kind;
  double count;         /* elements per result (mean) */
  MlirValue countValue; /* the same, as an index, when a dim is dynamic */
} PostInfo;

/* What follows the reduction, elementwise (args: sum, [max]). */
static void postBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                     void *userData) {
  const PostInfo *pi = userData;
  MlirValue s = args[0];
  MlirType t = mlirValueGetType(s);
  bool isFloat = kilnTypeIsFloat(t);
  switch (pi->kind) {
  case RED_MEAN: {
    MlirValue count =
        mlirValueIsNull(pi->countValue)
            ? kilnConstFloat(b, t, pi->count)
            : kilnConvertScalar(
                  b,
                  kilnConvertScalar(b, pi->countValue,
                                    mlirIntegerTypeGet(b->ctx, 64), false),
                  t, false);
    yields[0] = kilnArithNumeric(b, "div", s, count);
    return;
  }
  case RED_L2:
    if (isFloat) {
      yields[0] = kilnArith1(b, "math.sqrt", s);
    } else {
      MlirType f64 = mlirF64TypeGet(b->ctx);
      MlirValue r =
          kilnArith1(b, "math.sqrt", kilnConvertScalar(b, s, f64, false));
      yields[0] = kilnConvertScalar(b, r, t, false);
    }
    return;
  case RED_LOG_SUM:
    yields[0] = kilnArith1(b, "math.log", s);
    return;
  case RED_LOG_SUM_EXP:
    yields[0] =
        kilnArith2(b, "arith.addf", kilnArith1(b, "math.log", s), args[1]);
    return;
  default:
    yields[0] = s;
  }
}

/* The maximum with infinities replaced by 0, so that x - m stays finite
 * where it should (all -inf: log(0) = -inf; some +inf: +inf). */
static void finiteShiftBody(KilnBuilder *b, const MlirValue *args,
                            MlirValue *yields, void *userData) {
  (void)userData;
  MlirValue m = args[0];
  MlirType t = mlirValueGetType(m);
  MlirValue inf = kilnConstFloat(b, t, INFINITY);
  MlirValue isInf = kilnCmpF(b, "oeq", kilnArith1(b, "math.absf", m), inf);
  yields[0] = kilnSelect(b, isInf, kilnConstFloat(b, t, 0), m);
}

static MlirValue reduceIdentity(KilnBuilder *b, RedKind kind, MlirType elt) {
  switch (kind) {
  case RED_MAX:
    return kilnConstLowest(b, elt);
  case RED_MIN:
    return kilnConstHighest(b, elt);
  case RED_PROD:
    return kilnConstFloat(b, elt, 1);
  default:
    return kilnConstFloat(b, elt, 0);
  }
}

/* Reads the axes operand into `reduced`; false with *noop when the op is
 * the identity (empty axes with noop_with_empty_axes). */
static KilnLowerStatus readReduceAxes(KilnLowerOp *l, intptr_t rank,
                                      bool *reduced, bool *noop) {
  int64_t axes[KILN_MAX_RANK];
  intptr_t n = 0;
  *noop = false;
  MlirValue axesOperand = kilnLowerOperand(l, 1);
  /* A zero-length axes tensor is empty whatever its value. */
  if (!mlirValueIsNull(axesOperand) &&
      kilnNumElements(mlirValueGetType(axesOperand)) != 0) {
    n = kilnInferConstantInts(&l->infer, 1, axes, KILN_MAX_RANK);
    if (n < 0)
      return kilnLowerUnsupported(l, "with non-constant 'axes'");
  }
  memset(reduced, 0, KILN_MAX_RANK * sizeof(bool));
  if (n == 0) {
    *noop = kilnInferAttrInt(&l->infer, "noop_with_empty_axes", 0) != 0;
    for (intptr_t i = 0; i < rank; ++i)
      reduced[i] = true;
    return KILN_LOWER_OK;
  }
  for (intptr_t i = 0; i < n; ++i) {
    int64_t a;
    if (!kilnLowerAxis(l, axes[i], rank, &a))
      return KILN_LOWER_ERROR;
    reduced[a] = true;
  }
  return KILN_LOWER_OK;
}

static KilnLowerStatus lowerReduce(KilnLowerOp *l, RedKind kind) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType elt = kilnElementType(x);
  intptr_t rank = kilnRank(x);
  bool reduced[KILN_MAX_RANK], noop;
  KilnLowerStatus st = readReduceAxes(l, rank, reduced, &noop);
  if (st != KILN_LOWER_OK)
    return st;
  if (noop) {
    l->results[0] = x;
    return KILN_LOWER_OK;
  }
  RedInfo ri = {kind, kilnTypeIsFloat(elt), isBoolType(elt)};
  if (!ri.isFloat && (kind == RED_LOG_SUM || kind == RED_LOG_SUM_EXP))
    return kilnLowerUnsupported(l, "on integer tensors");
  if (ri.isBool && kind != RED_MAX && kind != RED_MIN)
    return kilnLowerUnsupported(l, "on i1 tensors");
  MlirAttribute dropMap = kilnLowerRedDropMap(b->ctx, rank, reduced);
  MlirValue shift = {NULL};
  if (kind == RED_LOG_SUM_EXP) {
    RedInfo maxInfo = {RED_MAX, true, false};
    MlirValue m =
        kilnLowerRedReduce(b, x, 0, NULL, NULL, reduced, elt,
                           kilnConstLowest(b, elt), reduceBody, &maxInfo);
    shift =
        kilnElementwise(b, 1, &m, mlirValueGetType(m), finiteShiftBody, NULL);
  }
  MlirValue acc = kilnLowerRedReduce(
      b, x, kind == RED_LOG_SUM_EXP ? 1 : 0, &shift, &dropMap, reduced, elt,
      reduceIdentity(b, kind, elt), reduceBody, &ri);
  PostInfo pi = {kind, 1, {NULL}};
  for (intptr_t i = 0; i < rank; ++i)
    if (reduced[i] && mlirShapedTypeIsDynamicSize(kilnDim(x, i)))
      pi.countValue = kilnConstIndex(b, 1);
  for (intptr_t i = 0; i < rank; ++i)
    if (reduced[i]) {
      pi.count *= (double)kilnDim(x, i);
      if (!mlirValueIsNull(pi.countValue))
        pi.countValue =
            kilnArith2(b, "arith.muli", pi.countValue, kilnDimValue(b, x, i));
    }
  if (kind == RED_MEAN || kind == RED_L2 || kind == RED_LOG_SUM ||
      kind == RED_LOG_SUM_EXP) {
    MlirValue in[2] = {acc, shift};
    acc = kilnElementwise(b, kind == RED_LOG_SUM_EXP ? 2 : 1, in,
                          mlirValueGetType(acc), postBody, &pi);
  }
  l->results[0] = kilnReshape(b, acc, kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

#define REDUCE_LOWERING(fn, kind)                                              \
  static KilnLowerStatus fn(KilnLowerOp *l) { return lowerReduce(l, kind); }
REDUCE_LOWERING(lowerReduceSum, RED_SUM)
REDUCE_LOWERING(lowerReduceMean, RED_MEAN)
REDUCE_LOWERING(lowerReduceMax, RED_MAX)
REDUCE_LOWERING(lowerReduceMin, RED_MIN)
REDUCE_LOWERING(lowerReduceProd, RED_PROD)
REDUCE_LOWERING(lowerReduceL1, RED_L1)
REDUCE_LOWERING(lowerReduceL2, RED_L2)
REDUCE_LOWERING(lowerReduceLogSum, RED_LOG_SUM)
REDUCE_LOWERING(lowerReduceLogSumExp, RED_LOG_SUM_EXP)
REDUCE_LOWERING(lowerReduceSumSquare, RED_SUM_SQUARE)

/* ---- Softmax, LogSoftmax ------------------------------------------------- */

/* args: x, max, sum. */
static void softmaxBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  bool isLog = *(const bool *)userData;
  if (isLog)
    yields[0] = kilnArith2(b, "arith.subf",
                           kilnArith2(b, "arith.subf", args[0], args[1]),
                           kilnArith1(b, "math.log", args[2]));
  else
    yields[0] =
        kilnArith2(b, "arith.divf",
                   kilnArith1(b, "math.exp",
                              kilnArith2(b, "arith.subf", args[0], args[1])),
                   args[2]);
}

MlirValue kilnLowerRedSoftmax(KilnBuilder *b, MlirValue x, int64_t axis,
                              bool isLog) {
  intptr_t rank = kilnRank(x);
  MlirType elt = kilnElementType(x);
  bool reduced[KILN_MAX_RANK] = {false};
  reduced[axis] = true;
  MlirAttribute id = kilnMapIdentity(b->ctx, rank);
  MlirAttribute drop = kilnLowerRedDropMap(b->ctx, rank, reduced);
  RedInfo maxInfo = {RED_MAX, true, false};
  MlirValue m =
      kilnLowerRedReduce(b, x, 0, NULL, NULL, reduced, elt,
                         kilnConstLowest(b, elt), reduceBody, &maxInfo);
  RedInfo sumInfo = {RED_LOG_SUM_EXP, true, false};
  MlirValue s =
      kilnLowerRedReduce(b, x, 1, &m, &drop, reduced, elt,
                         kilnConstFloat(b, elt, 0), reduceBody, &sumInfo);
  MlirValue in[3] = {x, m, s};
  MlirAttribute maps[3] = {id, drop, drop};
  return kilnLowerRedMapped(b, 3, in, maps, mlirValueGetType(x), softmaxBody,
                            &isLog);
}

/* The op's axis, normalized (verified by inference: always in range). */
static int64_t softmaxAxis(KilnLowerOp *l) {
  intptr_t r = kilnRank(kilnLowerOperand(l, 0));
  int64_t axis = kilnInferAttrInt(&l->infer, "axis", -1);
  return axis < 0 ? axis + r : axis;
}

static MlirValue softmaxSample(KilnLowerOp *l, KilnBuilder *b, MlirValue sample,
                               MlirType sampleType) {
  (void)sampleType;
  return kilnLowerRedSoftmax(b, sample, softmaxAxis(l), false);
}

static MlirValue logSoftmaxSample(KilnLowerOp *l, KilnBuilder *b,
                                  MlirValue sample, MlirType sampleType) {
  (void)sampleType;
  return kilnLowerRedSoftmax(b, sample, softmaxAxis(l), true);
}

static KilnLowerStatus lowerSoftmaxLike(KilnLowerOp *l, bool isLog) {
  MlirValue x = kilnLowerOperand(l, 0);
  int64_t axis;
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", -1), kilnRank(x),
                     &axis))
    return KILN_LOWER_ERROR;
  /* Only the batch dynamic, the axis another: per sample, each static. */
  if (axis != 0 && kilnLowerIsDynamic(l) && kilnLowerOnlyBatchDynamic(l))
    return kilnLowerPerSample(l, isLog ? logSoftmaxSample : softmaxSample);
  l->results[0] = kilnLowerRedSoftmax(&l->b, x, axis, isLog);
  return KILN_LOWER_OK;
}

static KilnLowerStatus lowerSoftmax(KilnLowerOp *l) {
  return lowerSoftmaxLike(l, false);
}

static KilnLowerStatus lowerLogSoftmax(KilnLowerOp *l) {
  return lowerSoftmaxLike(l, true);
}

/* ---- ArgMax, ArgMin, Hardmax -------------------------------------------- */

typedef struct ArgInfo {
  bool isMax, selectLast;
  int64_t axis;
} ArgInfo;

/* args: x, best value, best index. The update is independent of the visit
 * order: a better value wins, an equal one wins when its index is lower
 * (first) or higher (last). NaN beats everything, as in numpy's argmax. */
static void argBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  const ArgInfo *ai = userData;
  MlirValue x = args[0], accV = args[1], accI = args[2];
  MlirValue idx = kilnConvertScalar(b, kilnLinalgIndex(b, ai->axis),
                                    mlirValueGetType(accI), false);
  bool isFloat = kilnTypeIsFloat(mlirValueGetType(x));
  MlirValue better, equal;
  if (isFloat) {
    better = kilnCmpF(b, ai->isMax ? "ogt" : "olt", x, accV);
    equal = kilnCmpF(b, "oeq", x, accV);
  } else {
    better = kilnCmpI(b, ai->isMax ? "sgt" : "slt", x, accV);
    equal = kilnCmpI(b, "eq", x, accV);
  }
  MlirValue tieWins = kilnCmpI(b, ai->selectLast ? "sgt" : "slt", idx, accI);
  MlirValue take = kilnArith2(b, "arith.ori", better,
                              kilnArith2(b, "arith.andi", equal, tieWins));
  if (isFloat) {
    MlirValue xNan = kilnCmpF(b, "uno", x, x);
    MlirValue accNan = kilnCmpF(b, "uno", accV, accV);
    MlirValue ifAccNan = kilnArith2(b, "arith.andi", xNan, tieWins);
    MlirValue ifAccNum = kilnArith2(b, "arith.ori", xNan, take);
    take = kilnSelect(b, accNan, ifAccNan, ifAccNum);
  }
  yields[0] = kilnSelect(b, take, x, accV);
  yields[1] = kilnSelect(b, take, idx, accI);
}

/* The i64 index of the maximum (minimum) of x along `axis`, axis dropped. */
static MlirValue argReduce(KilnBuilder *b, MlirValue x, const ArgInfo *ai) {
  intptr_t r = kilnRank(x);
  MlirType elt = kilnElementType(x), i64 = mlirIntegerTypeGet(b->ctx, 64);
  char iters[KILN_MAX_RANK + 1];
  bool reduced[KILN_MAX_RANK] = {false};
  reduced[ai->axis] = true;
  for (intptr_t i = 0; i < r; ++i)
    iters[i] = reduced[i] ? 'r' : 'p';
  iters[r] = '\0';
  MlirValue outs[2] = {
      keptFilled(b, x, reduced, elt,
                 ai->isMax ? kilnConstLowest(b, elt)
                           : kilnConstHighest(b, elt)),
      keptFilled(b, x, reduced, i64,
                 ai->selectLast ? kilnConstInt(b, i64, -1)
                                : kilnConstHighest(b, i64)),
  };
  MlirAttribute drop = kilnLowerRedDropMap(b->ctx, r, reduced);
  MlirAttribute maps[3] = {kilnMapIdentity(b->ctx, r), drop, drop};
  MlirOperation op =
      kilnGeneric(b, 1, &x, 2, outs, maps, r, iters, argBody, (void *)ai);
  return mlirOperationGetResult(op, 1);
}

static KilnLowerStatus lowerArg(KilnLowerOp *l, bool isMax) {
  MlirValue x = kilnLowerOperand(l, 0);
  ArgInfo ai = {isMax, kilnInferAttrInt(&l->infer, "select_last_index", 0) != 0,
                0};
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", 0), kilnRank(x),
                     &ai.axis))
    return KILN_LOWER_ERROR;
  l->results[0] =
      kilnReshape(&l->b, argReduce(&l->b, x, &ai), kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

static KilnLowerStatus lowerArgMax(KilnLowerOp *l) { return lowerArg(l, true); }
static KilnLowerStatus lowerArgMin(KilnLowerOp *l) {
  return lowerArg(l, false);
}

/* args: x (unused but sets the iteration space type), argmax. */
static void hardmaxBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  int64_t axis = *(const int64_t *)userData;
  MlirType t = mlirValueGetType(args[0]);
  MlirValue idx = kilnConvertScalar(b, kilnLinalgIndex(b, axis),
                                    mlirValueGetType(args[1]), false);
  yields[0] = kilnSelect(b, kilnCmpI(b, "eq", idx, args[1]),
                         kilnConstFloat(b, t, 1), kilnConstFloat(b, t, 0));
}

static KilnLowerStatus lowerHardmax(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x);
  ArgInfo ai = {true, false, 0};
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", -1), r, &ai.axis))
    return KILN_LOWER_ERROR;
  bool reduced[KILN_MAX_RANK] = {false};
  reduced[ai.axis] = true;
  MlirValue in[2] = {x, argReduce(&l->b, x, &ai)};
  MlirAttribute maps[2] = {kilnMapIdentity(l->b.ctx, r),
                           kilnLowerRedDropMap(l->b.ctx, r, reduced)};
  l->results[0] = kilnLowerRedMapped(&l->b, 2, in, maps, mlirValueGetType(x),
                                     hardmaxBody, &ai.axis);
  return KILN_LOWER_OK;
}

/* ---- CumSum -------------------------------------------------------------- */

typedef struct CumSumInfo {
  int64_t axis, extra; /* extra: the loop over the summed positions */
  const char *pred;    /* which positions j are summed into i: j pred i */
} CumSumInfo;

static void cumSumBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  const CumSumInfo *ci = userData;
  MlirValue j = kilnLinalgIndex(b, ci->extra), i = kilnLinalgIndex(b, ci->axis);
  MlirValue zero = kilnConstFloat(b, mlirValueGetType(args[0]), 0);
  MlirValue v = kilnSelect(b, kilnCmpI(b, ci->pred, j, i), args[0], zero);
  yields[0] = kilnArithNumeric(b, "add", args[1], v);
}

/* out[i] = sum over j of x[j] where j <= i (or <, >=, > for exclusive and
 * reverse): an extra reduction loop over the axis. Quadratic in the axis
 * length, but one plain generic; fine for the lengths ONNX models use. */
static MlirValue cumSumAlong(KilnBuilder *b, MlirValue x, int64_t axis,
                             const char *pred) {
  intptr_t r = kilnRank(x);
  CumSumInfo ci = {axis, r, pred};
  int64_t dims[KILN_MAX_RANK], ids[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    dims[i] = i == axis ? r : i;
    ids[i] = i;
  }
  MlirAttribute maps[2] = {kilnMapDims(b->ctx, r + 1, r, dims),
                           kilnMapDims(b->ctx, r + 1, r, ids)};
  char iters[KILN_MAX_RANK + 2];
  memset(iters, 'p', r);
  iters[r] = 'r';
  iters[r + 1] = '\0';
  MlirType elt = kilnElementType(x);
  MlirValue out = kilnFill(b, kilnConstFloat(b, elt, 0),
                           kilnEmptyLike(b, mlirValueGetType(x), x));
  return mlirOperationGetResult(
      kilnGeneric(b, 1, &x, 1, &out, maps, r + 1, iters, cumSumBody, &ci), 0);
}

/* Picks candidate[axis] by the run-time axis (args: axis, candidates...;
 * a negative axis counts from the end). */
static void pickAxisBody(KilnBuilder *b, const MlirValue *args,
                         MlirValue *yields, void *userData) {
  intptr_t r = *(const intptr_t *)userData;
  MlirValue axis = args[0];
  MlirType t = mlirValueGetType(axis);
  MlirValue v = args[1];
  for (intptr_t a = 1; a < r; ++a) {
    MlirValue hit = kilnArith2(
        b, "arith.ori", kilnCmpI(b, "eq", axis, kilnConstInt(b, t, a)),
        kilnCmpI(b, "eq", axis, kilnConstInt(b, t, a - r)));
    v = kilnSelect(b, hit, args[1 + a], v);
  }
  yields[0] = v;
}

/* An axis known only at run time: one cumulative sum per possible axis,
 * then an elementwise pick (an out-of-range axis gives axis 0's). */
static MlirValue cumSumRuntimeAxis(KilnBuilder *b, MlirValue x, MlirValue axis,
                                   const char *pred) {
  intptr_t r = kilnRank(x);
  MlirValue ins[8];
  MlirAttribute maps[8];
  MlirAffineExpr zero = mlirAffineConstantExprGet(b->ctx, 0);
  ins[0] = axis;
  maps[0] = kilnMapExprs(b->ctx, r, kilnRank(axis), &zero);
  for (intptr_t a = 0; a < r; ++a) {
    ins[1 + a] = cumSumAlong(b, x, a, pred);
    maps[1 + a] = kilnMapIdentity(b->ctx, r);
  }
  return kilnLowerRedMapped(b, 1 + r, ins, maps, mlirValueGetType(x),
                            pickAxisBody, &r);
}

static KilnLowerStatus lowerCumSum(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x);
  bool exclusive = kilnInferAttrInt(&l->infer, "exclusive", 0) != 0;
  bool reverse = kilnInferAttrInt(&l->infer, "reverse", 0) != 0;
  const char *pred =
      reverse ? (exclusive ? "ugt" : "uge") : (exclusive ? "ult" : "ule");
  int64_t axisVal, axis;
  if (kilnInferConstantInts(&l->infer, 1, &axisVal, 1) != 1) {
    if (r == 0 || r > 7)
      return kilnLowerUnsupported(
          l, "with a non-constant 'axis' on a tensor of rank %ld", (long)r);
    l->results[0] = cumSumRuntimeAxis(&l->b, x, kilnLowerOperand(l, 1), pred);
    return KILN_LOWER_OK;
  }
  if (!kilnLowerAxis(l, axisVal, r, &axis))
    return KILN_LOWER_ERROR;
  l->results[0] = cumSumAlong(&l->b, x, axis, pred);
  return KILN_LOWER_OK;
}

/* ---- The table ------------------------------------------------------------
 */

const KilnLowering kilnLowerReduction[] = {
    {"matmul", kilnLowerRedMatMul, KILN_LOWER_DYNAMIC},
    {"gemm", kilnLowerRedGemm, KILN_LOWER_DYNAMIC},
    {"softmax", lowerSoftmax, KILN_LOWER_DYNAMIC},
    {"log_softmax", lowerLogSoftmax, KILN_LOWER_DYNAMIC},
    {"reduce_sum", lowerReduceSum, KILN_LOWER_DYNAMIC},
    {"reduce_mean", lowerReduceMean, KILN_LOWER_DYNAMIC},
    {"reduce_max", lowerReduceMax, KILN_LOWER_DYNAMIC},
    {"reduce_min", lowerReduceMin, KILN_LOWER_DYNAMIC},
    {"reduce_prod", lowerReduceProd, KILN_LOWER_DYNAMIC},
    {"reduce_l1", lowerReduceL1, KILN_LOWER_DYNAMIC},
    {"reduce_l2", lowerReduceL2, KILN_LOWER_DYNAMIC},
    {"reduce_log_sum", lowerReduceLogSum, KILN_LOWER_DYNAMIC},
    {"reduce_log_sum_exp", lowerReduceLogSumExp, KILN_LOWER_DYNAMIC},
    {"reduce_sum_square", lowerReduceSumSquare, KILN_LOWER_DYNAMIC},
    {"argmax", lowerArgMax, KILN_LOWER_DYNAMIC},
    {"argmin", lowerArgMin, KILN_LOWER_DYNAMIC},
    {"hardmax", lowerHardmax, KILN_LOWER_DYNAMIC},
    {"cum_sum", lowerCumSum, KILN_LOWER_DYNAMIC},
    {"top_k", kilnLowerRedTopK, 0},
    {"negative_log_likelihood_loss", kilnLowerRedNllLoss, KILN_LOWER_DYNAMIC},
    {"softmax_cross_entropy_loss", kilnLowerRedSceLoss, KILN_LOWER_DYNAMIC},
    {"einsum", kilnLowerRedEinsum, 0},
    {"det", kilnLowerRedDet, 0},
};
const int kilnLowerReductionCount =
    sizeof(kilnLowerReduction) / sizeof(kilnLowerReduction[0]);

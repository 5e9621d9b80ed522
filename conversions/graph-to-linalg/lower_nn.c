/* Normalizations, resampling and recurrent layers (ops_nn_*.c) → linalg:
 * the family's table and the statistics helpers the normalizations share.
 * The lowerings themselves live in lower_nn_norm.c, lower_nn_resize.c,
 * lower_nn_recurrent.c and lower_nn_sample.c (grid_sample, roi_align). */
#include "conversions/graph-to-linalg/lower_nn.h"

MlirType kilnNNComputeType(MlirContext ctx, MlirType elt) {
  return mlirTypeIsAF64(elt) ? elt : mlirF32TypeGet(ctx);
}

static void convertBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  yields[0] = kilnConvertScalar(b, args[0], *(MlirType *)userData, false);
}

MlirValue kilnNNConvert(KilnBuilder *b, MlirValue x, MlirType elt) {
  if (mlirTypeEqual(kilnElementType(x), elt))
    return x;
  int64_t shape[KILN_MAX_RANK];
  intptr_t r = kilnRank(x);
  for (intptr_t i = 0; i < r; ++i)
    shape[i] = kilnDim(x, i);
  return kilnElementwise(b, 1, &x, kilnTensorType(r, shape, elt), convertBody,
                         &elt);
}

/* The keepdims type of x reduced over `reduce`. */
static MlirType keepDimsType(MlirValue x, const bool *reduce) {
  int64_t shape[KILN_MAX_RANK];
  intptr_t r = kilnRank(x);
  for (intptr_t i = 0; i < r; ++i)
    shape[i] = reduce[i] ? 1 : kilnDim(x, i);
  return kilnTensorType(r, shape, kilnElementType(x));
}

/* Reads a keepdims tensor inside x's iteration space: reduced dims at 0. */
static MlirAttribute keepDimsMap(MlirContext ctx, intptr_t r,
                                 const bool *reduce) {
  MlirAffineExpr exprs[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    exprs[i] = reduce[i] ? mlirAffineConstantExprGet(ctx, 0)
                         : mlirAffineDimExprGet(ctx, i);
  return kilnMapExprs(ctx, r, r, exprs);
}

static void iteratorsFor(intptr_t r, const bool *reduce, char *out) {
  for (intptr_t i = 0; i < r; ++i)
    out[i] = reduce[i] ? 'r' : 'p';
  out[r] = '\0';
}

static void sumBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArithNumeric(b, "add", args[1], args[0]);
}

MlirValue kilnNNSumKeepDims(KilnBuilder *b, MlirValue x, const bool *reduce) {
  intptr_t r = kilnRank(x);
  MlirType elt = kilnElementType(x);
  MlirValue init = kilnFill(b, kilnConstFloat(b, elt, 0),
                            kilnEmptyLike(b, keepDimsType(x, reduce), x));
  MlirAttribute maps[2] = {kilnMapIdentity(b->ctx, r),
                           keepDimsMap(b->ctx, r, reduce)};
  char iters[KILN_MAX_RANK + 1];
  iteratorsFor(r, reduce, iters);
  return mlirOperationGetResult(
      kilnGeneric(b, 1, &x, 1, &init, maps, r, iters, sumBody, NULL), 0);
}

/* acc + (x - mean)^2 */
static void squaredDeviationBody(KilnBuilder *b, const MlirValue *args,
                                 MlirValue *yields, void *userData) {
  (void)userData;
  MlirValue d = kilnArith2(b, "arith.subf", args[0], args[1]);
  yields[0] =
      kilnArith2(b, "arith.addf", args[2], kilnArith2(b, "arith.mulf", d, d));
}

/* 1 / count, static or (when a reduced dim is dynamic) an index value
 * converted in the body; 0 for no elements. */
typedef struct Inverse {
  double value;
  MlirValue count; /* null: static */
} Inverse;

static void scaleBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                      void *userData) {
  const Inverse *inv = userData;
  MlirType t = mlirValueGetType(args[0]);
  if (mlirValueIsNull(inv->count)) {
    yields[0] =
        kilnArith2(b, "arith.mulf", args[0], kilnConstFloat(b, t, inv->value));
    return;
  }
  MlirValue n = kilnConvertScalar(
      b,
      kilnConvertScalar(b, inv->count, mlirIntegerTypeGet(b->ctx, 64), false),
      t, false);
  MlirValue zero = kilnConstFloat(b, t, 0);
  MlirValue q = kilnArith2(b, "arith.divf", args[0], n);
  yields[0] = kilnSelect(b, kilnCmpF(b, "oeq", n, zero), zero, q);
}

static MlirValue scaled(KilnBuilder *b, MlirValue x, const Inverse *inv) {
  return kilnElementwise(b, 1, &x, mlirValueGetType(x), scaleBody, (void *)inv);
}

void kilnNNMeanVar(KilnBuilder *b, MlirValue x, const bool *reduce,
                   MlirValue *mean, MlirValue *var) {
  intptr_t r = kilnRank(x);
  int64_t count = 1;
  Inverse inv = {0, {NULL}};
  for (intptr_t i = 0; i < r; ++i)
    if (reduce[i] && mlirShapedTypeIsDynamicSize(kilnDim(x, i)))
      inv.count = kilnConstIndex(b, 1);
  for (intptr_t i = 0; i < r; ++i)
    if (reduce[i]) {
      if (mlirValueIsNull(inv.count))
        count *= kilnDim(x, i);
      else
        inv.count =
            kilnArith2(b, "arith.muli", inv.count, kilnDimValue(b, x, i));
    }
  if (mlirValueIsNull(inv.count))
    inv.value = count ? 1.0 / (double)count : 0.0;
  *mean = scaled(b, kilnNNSumKeepDims(b, x, reduce), &inv);
  /* Two passes (sum of squared deviations), not E[x²] - E[x]²: no
   * cancellation when the mean is large against the spread. */
  MlirType elt = kilnElementType(x);
  MlirValue init = kilnFill(b, kilnConstFloat(b, elt, 0),
                            kilnEmptyLike(b, keepDimsType(x, reduce), x));
  MlirAttribute maps[3] = {kilnMapIdentity(b->ctx, r),
                           keepDimsMap(b->ctx, r, reduce),
                           keepDimsMap(b->ctx, r, reduce)};
  char iters[KILN_MAX_RANK + 1];
  iteratorsFor(r, reduce, iters);
  MlirValue in[2] = {x, *mean};
  MlirValue ssd =
      mlirOperationGetResult(kilnGeneric(b, 2, in, 1, &init, maps, r, iters,
                                         squaredDeviationBody, NULL),
                             0);
  *var = scaled(b, ssd, &inv);
}

const KilnLowering kilnLowerNN[] = {
    {"batch_norm", kilnLowerNNBatchNorm, KILN_LOWER_DYNAMIC},
    {"instance_norm", kilnLowerNNInstanceNorm, KILN_LOWER_DYNAMIC},
    {"layer_norm", kilnLowerNNLayerNorm, KILN_LOWER_DYNAMIC},
    {"lrn", kilnLowerNNLrn, 0},
    {"mean_variance_normalization", kilnLowerNNMeanVarianceNorm, 0},
    {"resize", kilnLowerNNResize, KILN_LOWER_DYNAMIC},
    {"grid_sample", kilnLowerNNGridSample, KILN_LOWER_DYNAMIC},
    {"roi_align", kilnLowerNNRoiAlign, 0},
    {"rnn", kilnLowerNNRnn, 0},
    {"gru", kilnLowerNNGru, 0},
    {"lstm", kilnLowerNNLstm, 0},
};
const int kilnLowerNNCount = sizeof(kilnLowerNN) / sizeof(kilnLowerNN[0]);

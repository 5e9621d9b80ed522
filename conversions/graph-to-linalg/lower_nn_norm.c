/* Normalizations of the NN family → linalg: batch_norm, instance_norm,
 * layer_norm, lrn and mean_variance_normalization. Statistics are computed
 * in f32 (f64 for f64 inputs; see kilnNNComputeType) with two-pass
 * variance, then one elementwise generic applies them. */
#include <string.h>

#include "conversions/graph-to-linalg/lower_nn.h"
#include "support/ir_build.h"

/* The final elementwise step: inputs x, mean, var, then scale and bias when
 * present; every input is converted to `ct` in the body. */
typedef struct Affine {
  MlirType ct, out;
  double eps;
  bool hasScale, hasBias;
  bool mvn; /* (x - mean) / (sqrt(var) + eps), MeanVarianceNormalization */
} Affine;

static void affineBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  const Affine *a = userData;
  MlirValue v[5];
  int n = 3 + a->hasScale + a->hasBias;
  for (int i = 0; i < n; ++i)
    v[i] = kilnConvertScalar(b, args[i], a->ct, false);
  MlirValue eps = kilnConstFloat(b, a->ct, a->eps);
  MlirValue xc = kilnArith2(b, "arith.subf", v[0], v[1]);
  MlirValue den =
      a->mvn
          ? kilnArith2(b, "arith.addf", kilnArith1(b, "math.sqrt", v[2]), eps)
          : kilnArith1(b, "math.sqrt", kilnArith2(b, "arith.addf", v[2], eps));
  MlirValue y = kilnArith2(b, "arith.divf", xc, den);
  if (a->hasScale)
    y = kilnArith2(b, "arith.mulf", y, v[3]);
  if (a->hasBias)
    y = kilnArith2(b, "arith.addf", y, v[3 + a->hasScale]);
  yields[0] = kilnConvertScalar(b, y, a->out, false);
}

static MlirValue applyAffine(KilnBuilder *b, Affine *a, MlirValue x,
                             MlirValue mean, MlirValue var, MlirValue scale,
                             MlirValue bias, MlirType resultType) {
  MlirValue in[5] = {x, mean, var};
  int n = 3;
  a->hasScale = !mlirValueIsNull(scale);
  a->hasBias = !mlirValueIsNull(bias);
  if (a->hasScale)
    in[n++] = scale;
  if (a->hasBias)
    in[n++] = bias;
  a->out = mlirShapedTypeGetElementType(resultType);
  return kilnElementwise(b, n, in, resultType, affineBody, a);
}

/* Inference batch norm folded per channel: a = scale / sqrt(var + eps),
 * shift = bias - mean * a, in `ct`. */
static void foldedBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  const Affine *a = userData;
  MlirValue v[4];
  for (int i = 0; i < 4; ++i)
    v[i] = kilnConvertScalar(b, args[i], a->ct, false);
  MlirValue eps = kilnConstFloat(b, a->ct, a->eps);
  MlirValue den =
      kilnArith1(b, "math.sqrt", kilnArith2(b, "arith.addf", v[3], eps));
  MlirValue mul = kilnArith2(b, "arith.divf", v[0], den);
  yields[0] = mul;
  yields[1] =
      kilnArith2(b, "arith.subf", v[1], kilnArith2(b, "arith.mulf", v[2], mul));
}

/* y = x * a + shift (foldedBody's), converted to the result type. */
static void scaleShiftBody(KilnBuilder *b, const MlirValue *args,
                           MlirValue *yields, void *userData) {
  const Affine *a = userData;
  MlirValue x = kilnConvertScalar(b, args[0], a->ct, false);
  MlirValue y = kilnArith2(b, "arith.addf",
                           kilnArith2(b, "arith.mulf", x, args[1]), args[2]);
  yields[0] = kilnConvertScalar(b, y, a->out, false);
}

/* Inference batch norm of x (rank r) with the per-channel vectors already
 * shaped [C, 1, ..., 1] (channelVector, all four static): the statistics folded
 * into one scale and one shift per channel first (one generic over C with both
 * as results), then one multiply-add per element. Applying them per element
 * (applyAffine) costs a division per element (DenseNet's standalone
 * BatchNormalization + Relu on its concat buffers: 1.8-2.2x ONNX Runtime,
 * which folds them the same way). The two results keep the per-channel
 * generic out of linalg-fuse-elementwise-ops' producer fusion, which fuses
 * only producers with a single use. */
static MlirValue foldedBatchNorm(KilnBuilder *b, Affine *a, MlirValue x,
                                 const MlirValue *params, MlirType resultType) {
  MlirType vt = mlirValueGetType(params[0]);
  intptr_t vr = mlirShapedTypeGetRank(vt);
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < vr; ++i)
    shape[i] = mlirShapedTypeGetDimSize(vt, i);
  MlirType ft = kilnTensorType(vr, shape, a->ct);
  MlirValue outs[2] = {kilnEmpty(b, ft), kilnEmpty(b, ft)};
  MlirAttribute maps[6];
  char iters[KILN_MAX_RANK + 1];
  for (intptr_t i = 0; i < 6; ++i)
    maps[i] = kilnMapIdentity(b->ctx, vr);
  for (intptr_t i = 0; i < vr; ++i)
    iters[i] = 'p';
  iters[vr] = '\0';
  MlirOperation folded =
      kilnGeneric(b, 4, params, 2, outs, maps, vr, iters, foldedBody, a);
  MlirValue in[3] = {x, mlirOperationGetResult(folded, 0),
                     mlirOperationGetResult(folded, 1)};
  a->out = mlirShapedTypeGetElementType(resultType);
  return kilnElementwise(b, 3, in, resultType, scaleShiftBody, a);
}

/* A per-channel vector [C] reshaped to [C, 1, ..., 1] so that it broadcasts
 * against x's dims 1.. (x of rank r). */
static MlirValue channelVector(KilnBuilder *b, MlirValue v, intptr_t r) {
  if (mlirValueIsNull(v) || r < 2)
    return v;
  int64_t shape[KILN_MAX_RANK];
  shape[0] = kilnDim(v, 0);
  for (intptr_t i = 1; i < r - 1; ++i)
    shape[i] = 1;
  return kilnReshape(b, v, kilnTensorType(r - 1, shape, kilnElementType(v)));
}

/* running = input * momentum + batch * (1 - momentum) */
static void runningBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  const double *momentum = userData;
  MlirType ct = mlirValueGetType(args[1]);
  MlirValue in = kilnConvertScalar(b, args[0], ct, false);
  MlirValue m = kilnConstFloat(b, ct, *momentum);
  MlirValue m1 = kilnConstFloat(b, ct, 1.0 - *momentum);
  MlirValue r = kilnArith2(b, "arith.addf", kilnArith2(b, "arith.mulf", in, m),
                           kilnArith2(b, "arith.mulf", args[1], m1));
  yields[0] = kilnConvertScalar(b, r, kilnElementType(args[2]), false);
}

static MlirValue runningStat(KilnLowerOp *l, intptr_t result, MlirValue input,
                             MlirValue batch, double *momentum) {
  MlirType t = kilnLowerResultType(l, result);
  if (!kilnTypeIsStaticTensor(t)) /* [C]: the same reshape, sized at run time */
    return kilnElementwise(&l->b, 2,
                           (MlirValue[]){input, kilnReshape(&l->b, batch, t)},
                           t, runningBody, momentum);
  int64_t c = kilnNumElements(t);
  MlirValue vec =
      kilnReshape(&l->b, batch, kilnTensorType(1, &c, kilnElementType(batch)));
  MlirValue in[2] = {input, vec};
  return kilnElementwise(&l->b, 2, in, t, runningBody, momentum);
}

KilnLowerStatus kilnLowerNNBatchNorm(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x);
  bool training = kilnInferAttrInt(&l->infer, "training_mode", 0) != 0;
  Affine a = {.ct = kilnNNComputeType(b->ctx, kilnElementType(x)),
              .eps = kilnInferAttrFloat(&l->infer, "epsilon", 1e-5f)};
  MlirValue scale = channelVector(b, kilnLowerOperand(l, 1), r);
  MlirValue bias = channelVector(b, kilnLowerOperand(l, 2), r);
  if (!training) {
    MlirValue mean = channelVector(b, kilnLowerOperand(l, 3), r);
    MlirValue var = channelVector(b, kilnLowerOperand(l, 4), r);
    MlirValue params[4] = {scale, bias, mean, var};
    bool fold = r >= 2;
    for (int i = 0; i < 4 && fold; ++i)
      fold = !mlirValueIsNull(params[i]) &&
             mlirShapedTypeHasStaticShape(mlirValueGetType(params[i]));
    if (fold) {
      l->results[0] =
          foldedBatchNorm(b, &a, x, params, kilnLowerResultType(l, 0));
      return KILN_LOWER_OK;
    }
    l->results[0] = applyAffine(b, &a, x, mean, var, scale, bias,
                                kilnLowerResultType(l, 0));
    return KILN_LOWER_OK;
  }
  /* Training form: y uses the batch statistics over every dim but 1. */
  bool reduce[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    reduce[i] = i != 1;
  MlirValue mean, var;
  kilnNNMeanVar(b, kilnNNConvert(b, x, a.ct), reduce, &mean, &var);
  l->results[0] =
      applyAffine(b, &a, x, mean, var, scale, bias, kilnLowerResultType(l, 0));
  double momentum = kilnInferAttrFloat(&l->infer, "momentum", 0.9f);
  if (l->numResults > 1)
    l->results[1] = runningStat(l, 1, kilnLowerOperand(l, 3), mean, &momentum);
  if (l->numResults > 2)
    l->results[2] = runningStat(l, 2, kilnLowerOperand(l, 4), var, &momentum);
  return KILN_LOWER_OK;
}

KilnLowerStatus kilnLowerNNInstanceNorm(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x);
  Affine a = {.ct = kilnNNComputeType(b->ctx, kilnElementType(x)),
              .eps = kilnInferAttrFloat(&l->infer, "epsilon", 1e-5f)};
  bool reduce[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    reduce[i] = i >= 2;
  MlirValue mean, var;
  kilnNNMeanVar(b, kilnNNConvert(b, x, a.ct), reduce, &mean, &var);
  l->results[0] = applyAffine(
      b, &a, x, mean, var, channelVector(b, kilnLowerOperand(l, 1), r),
      channelVector(b, kilnLowerOperand(l, 2), r), kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

static void invStdBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  const Affine *a = userData;
  MlirValue one = kilnConstFloat(b, a->ct, 1.0);
  MlirValue s = kilnArith1(
      b, "math.sqrt",
      kilnArith2(b, "arith.addf", args[0], kilnConstFloat(b, a->ct, a->eps)));
  yields[0] = kilnConvertScalar(b, kilnArith2(b, "arith.divf", one, s),
                                kilnElementType(args[1]), false);
}

KilnLowerStatus kilnLowerNNLayerNorm(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x);
  int64_t axis;
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", -1), r, &axis))
    return KILN_LOWER_ERROR;
  MlirType ct = kilnNNComputeType(b->ctx, kilnElementType(x));
  if (kilnInferAttrInt(&l->infer, "stash_type", 1) == 11)
    ct = mlirF64TypeGet(b->ctx);
  Affine a = {.ct = ct, .eps = kilnInferAttrFloat(&l->infer, "epsilon", 1e-5f)};
  bool reduce[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    reduce[i] = i >= axis;
  MlirValue mean, var;
  kilnNNMeanVar(b, kilnNNConvert(b, x, ct), reduce, &mean, &var);
  l->results[0] =
      applyAffine(b, &a, x, mean, var, kilnLowerOperand(l, 1),
                  kilnLowerOperand(l, 2), kilnLowerResultType(l, 0));
  if (l->numResults > 1)
    l->results[1] = kilnNNConvert(
        b, mean, mlirShapedTypeGetElementType(kilnLowerResultType(l, 1)));
  if (l->numResults > 2)
    l->results[2] =
        kilnElementwise(b, 1, &var, kilnLowerResultType(l, 2), invStdBody, &a);
  return KILN_LOWER_OK;
}

KilnLowerStatus kilnLowerNNMeanVarianceNorm(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x);
  int64_t axes[KILN_MAX_RANK + 1] = {0, 2, 3};
  intptr_t n = kilnInferAttrInts(&l->infer, "axes", axes, KILN_MAX_RANK + 1);
  if (n < 0)
    n = 3;
  bool reduce[KILN_MAX_RANK] = {false};
  for (intptr_t i = 0; i < n; ++i) {
    int64_t axis;
    if (!kilnLowerAxis(l, axes[i], r, &axis))
      return KILN_LOWER_ERROR;
    reduce[axis] = true;
  }
  /* ONNX's function body: (x - E[x]) / (sqrt(Var[x]) + 1e-9). */
  Affine a = {.ct = kilnNNComputeType(b->ctx, kilnElementType(x)),
              .eps = 1e-9,
              .mvn = true};
  MlirValue mean, var;
  kilnNNMeanVar(b, kilnNNConvert(b, x, a.ct), reduce, &mean, &var);
  MlirValue none = {NULL};
  l->results[0] =
      applyAffine(b, &a, x, mean, var, none, none, kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

/* ---- LRN ------------------------------------------------------------------
 */

typedef struct Lrn {
  MlirType ct;
  double alpha, beta, bias;
  int64_t size;
} Lrn;

static void squareBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  const Lrn *p = userData;
  MlirValue v = kilnConvertScalar(b, args[0], p->ct, false);
  yields[0] = kilnArith2(b, "arith.mulf", v, v);
}

static void windowSumBody(KilnBuilder *b, const MlirValue *args,
                          MlirValue *yields, void *userData) {
  (void)userData;
  yields[0] = kilnArith2(b, "arith.addf", args[2], args[0]);
}

/* y = x / (bias + alpha / size * sum)^beta */
static void lrnBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  const Lrn *p = userData;
  MlirValue x = kilnConvertScalar(b, args[0], p->ct, false);
  MlirValue k = kilnConstFloat(b, p->ct, p->alpha / (double)p->size);
  MlirValue base =
      kilnArith2(b, "arith.addf", kilnConstFloat(b, p->ct, p->bias),
                 kilnArith2(b, "arith.mulf", k, args[1]));
  MlirValue den =
      kilnArith2(b, "math.powf", base, kilnConstFloat(b, p->ct, p->beta));
  yields[0] = kilnConvertScalar(b, kilnArith2(b, "arith.divf", x, den),
                                kilnElementType(args[2]), false);
}

KilnLowerStatus kilnLowerNNLrn(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  intptr_t r = kilnRank(x);
  Lrn p = {.ct = kilnNNComputeType(b->ctx, kilnElementType(x)),
           .alpha = kilnInferAttrFloat(&l->infer, "alpha", 1e-4f),
           .beta = kilnInferAttrFloat(&l->infer, "beta", 0.75f),
           .bias = kilnInferAttrFloat(&l->infer, "bias", 1.0f),
           .size = kilnInferAttrInt(&l->infer, "size", 1)};
  int64_t shape[KILN_MAX_RANK], padded[KILN_MAX_RANK], offsets[KILN_MAX_RANK],
      strides[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    shape[i] = padded[i] = kilnDim(x, i);
    offsets[i] = 0;
    strides[i] = 1;
  }
  /* The window over channels c - floor((size-1)/2) .. c + ceil((size-1)/2):
   * zero-pad the squares on dim 1 and sum `size` shifted reads. */
  padded[1] += p.size - 1;
  offsets[1] = (p.size - 1) / 2;
  MlirValue sq =
      kilnElementwise(b, 1, &x, kilnTensorType(r, shape, p.ct), squareBody, &p);
  MlirValue zero = kilnConstFloat(b, p.ct, 0);
  MlirValue pad = kilnInsertSlice(
      b, sq, kilnFilled(b, kilnTensorType(r, padded, p.ct), zero), offsets,
      strides);
  MlirValue window = kilnEmpty(b, kilnTensorType(1, &p.size, p.ct));
  MlirAffineExpr exprs[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    exprs[i] = mlirAffineDimExprGet(b->ctx, i);
  exprs[1] = mlirAffineAddExprGet(exprs[1], mlirAffineDimExprGet(b->ctx, r));
  int64_t k = r;
  MlirAttribute maps[3] = {kilnMapExprs(b->ctx, r + 1, r, exprs),
                           kilnMapDims(b->ctx, r + 1, 1, &k),
                           {NULL}};
  int64_t ids[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    ids[i] = i;
  maps[2] = kilnMapDims(b->ctx, r + 1, r, ids);
  char iters[KILN_MAX_RANK + 2];
  for (intptr_t i = 0; i < r; ++i)
    iters[i] = 'p';
  iters[r] = 'r';
  iters[r + 1] = '\0';
  MlirValue init = kilnFilled(b, kilnTensorType(r, shape, p.ct), zero);
  MlirValue in[2] = {pad, window};
  MlirValue sum = mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &init, maps, r + 1, iters, windowSumBody, NULL),
      0);
  MlirValue ins[2] = {x, sum};
  MlirType rt = kilnLowerResultType(l, 0);
  MlirValue out = kilnEmpty(b, rt);
  MlirAttribute id = kilnMapIdentity(b->ctx, r);
  MlirAttribute emaps[3] = {id, id, id};
  memset(iters, 'p', r);
  iters[r] = '\0';
  l->results[0] = mlirOperationGetResult(
      kilnGeneric(b, 2, ins, 1, &out, emaps, r, iters, lrnBody, &p), 0);
  return KILN_LOWER_OK;
}

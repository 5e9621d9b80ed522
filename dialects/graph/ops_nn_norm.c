/* Normalization ops of the NN family: batch_norm, instance_norm,
 * layer_norm, lrn and mean_variance_normalization (inference functions; the
 * table entries are in ops_nn.c).
 *
 * The shape rules follow the ONNX operator docs of the latest opset and
 * ONNX's own shape inference; where ONNX leaves a case open, the choice is
 * noted beside the code and in docs/graph-dialect.md. */
#include "dialects/graph/infer.h"
#include "dialects/graph/ops_nn_window.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"

static const char *operandName(const KilnInferContext *c, intptr_t i) {
  return c->op->operands[i].name;
}

/* Checks operands first..last as per-channel vectors of `channels` values
 * with a float element type equal to operand `first`'s. */
static MlirLogicalResult checkChannelVectors(const KilnInferContext *c,
                                             intptr_t first, intptr_t last,
                                             int64_t channels) {
  MlirType head = (MlirType){NULL};
  for (intptr_t i = first; i <= last; ++i) {
    MlirType t = kilnInferRankedOperand(c, i);
    if (mlirTypeIsNull(t) || failed(kilnNNRequireFloat(c, i, t)) ||
        (i > first && failed(kilnNNRequireSameElement(c, first, head, i, t))) ||
        failed(kilnNNRequireVector(c, i, t, channels, "one value per channel")))
      return mlirLogicalResultFailure();
    if (i == first)
      head = t;
  }
  return ok();
}

/* BatchNormalization: Y has X's type. scale/B share one float type and
 * input_mean/input_var another (ONNX's T1 and T2). With training_mode = 1
 * the optional running_mean and running_var results are C-vectors of T2;
 * without it ONNX defines Y alone. */
MlirLogicalResult kilnNNInferBatchNorm(KilnInferContext *c) {
  bool training;
  if (failed(kilnNNReadFlag(c, "training_mode", &training)) ||
      failed(kilnNNCheckResults(c, 1, 3)))
    return mlirLogicalResultFailure();
  if (!training && c->numResults > 1)
    return kilnInferError(c,
                          "results 'running_mean' and 'running_var' require "
                          "training_mode = 1, got %ld results",
                          (long)c->numResults);
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(kilnNNRequireMinRank(c, 0, x, 1, "N x C x ...")) ||
      failed(kilnNNRequireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  /* ONNX: a 1-D X has a single channel. */
  int64_t channels = rankOf(x) > 1 ? dim(x, 1) : 1;
  if (failed(checkChannelVectors(c, 1, 2, channels)) ||
      failed(checkChannelVectors(c, 3, 4, channels)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = x;
  for (intptr_t i = 1; i < c->numResults; ++i) {
    MlirType stat = mlirValueGetType(kilnInferOperand(c, 2 + i));
    c->resultTypes[i] = kilnInferTensorType(1, &channels, elt(stat));
  }
  return ok();
}

MlirLogicalResult kilnNNInferInstanceNorm(KilnInferContext *c) {
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(kilnNNRequireMinRank(c, 0, x, 3, "N x C x D1 ... Dn")) ||
      failed(kilnNNRequireFloat(c, 0, x)) ||
      failed(checkChannelVectors(c, 1, 2, dim(x, 1))))
    return mlirLogicalResultFailure();
  MlirType scale = kilnInferRankedOperand(c, 1);
  if (failed(kilnNNRequireSameElement(c, 0, x, 1, scale)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = x;
  return ok();
}

/* LayerNormalization: scale and B broadcast unidirectionally to the
 * normalized shape x.shape[axis:]. */
static MlirLogicalResult checkNormalizedOperand(const KilnInferContext *c,
                                                intptr_t i, MlirType x,
                                                int64_t axis) {
  if (mlirValueIsNull(kilnInferOperand(c, i)))
    return ok();
  MlirType t = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(t) || failed(kilnNNRequireSameElement(c, 0, x, i, t)))
    return mlirLogicalResultFailure();
  intptr_t rt = rankOf(t), normRank = rankOf(x) - axis;
  bool fits = rt <= normRank;
  for (intptr_t k = 0; fits && k < rt; ++k) {
    int64_t dt = dim(t, k), dx = dim(x, axis + normRank - rt + k);
    fits = !known(dt) || !known(dx) || dt == 1 || dt == dx;
  }
  if (fits)
    return ok();
  KilnStrBuf a = {0}, b = {0};
  kilnInferError(c,
                 "operand '%s' (%s) does not broadcast to the normalized "
                 "shape of 'x' (%s from axis %ld)",
                 operandName(c, i), kilnNNTypeStr(&a, t), kilnNNTypeStr(&b, x),
                 (long)axis);
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

/* The element type an ONNX stash_type code names: FLOAT, FLOAT16, DOUBLE
 * or BFLOAT16 are the float types it can name. Null for any other code. */
static MlirType stashElement(MlirContext ctx, int64_t stash) {
  switch (stash) {
  case 1:
    return mlirF32TypeGet(ctx);
  case 10:
    return mlirF16TypeGet(ctx);
  case 11:
    return mlirF64TypeGet(ctx);
  case 16:
    return mlirBF16TypeGet(ctx);
  default:
    return (MlirType){NULL};
  }
}

/* Y has X's type; the optional Mean and InvStdDev keep X's dims before
 * `axis`, have 1 from there on, and the element type stash_type names. */
MlirLogicalResult kilnNNInferLayerNorm(KilnInferContext *c) {
  if (failed(kilnNNCheckResults(c, 1, 3)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) || failed(kilnNNRequireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  int64_t axis;
  if (failed(kilnInferNormalizeAxis(c, "attribute 'axis'",
                                    kilnInferAttrInt(c, "axis", -1), rankOf(x),
                                    &axis)))
    return mlirLogicalResultFailure();
  int64_t stash = kilnInferAttrInt(c, "stash_type", 1);
  MlirType stashType = stashElement(c->ctx, stash);
  if (mlirTypeIsNull(stashType))
    return kilnInferError(c,
                          "attribute 'stash_type' must be an ONNX float type "
                          "(1 = float, 10 = float16, 11 = double, 16 = "
                          "bfloat16), got %ld",
                          (long)stash);
  if (mlirValueIsNull(kilnInferOperand(c, 1)))
    return kilnInferError(c, "operand #1 ('scale') is missing");
  if (failed(checkNormalizedOperand(c, 1, x, axis)) ||
      failed(checkNormalizedOperand(c, 2, x, axis)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = x;
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t k = 0; k < rankOf(x); ++k)
    shape[k] = k < axis ? dim(x, k) : 1;
  for (intptr_t i = 1; i < c->numResults; ++i)
    c->resultTypes[i] = kilnInferTensorType(rankOf(x), shape, stashType);
  return ok();
}

/* LRN: y has x's type; x is N x C x ... (the window runs over C). */
MlirLogicalResult kilnNNInferLrn(KilnInferContext *c) {
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(kilnNNRequireMinRank(c, 0, x, 2, "N x C x D1 ... Dn")) ||
      failed(kilnNNRequireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  int64_t size = kilnInferAttrInt(c, "size", 0);
  if (size < 1)
    return kilnInferError(c, "attribute 'size' must be positive, got %ld",
                          (long)size);
  c->resultTypes[0] = x;
  return ok();
}

/* MeanVarianceNormalization: y has x's type; every value of `axes`
 * (default [0, 2, 3]) is in [-r, r) and none repeats. */
MlirLogicalResult kilnNNInferMeanVarianceNorm(KilnInferContext *c) {
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) || failed(kilnNNRequireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  int64_t axes[KILN_MAX_RANK + 1] = {0, 2, 3}, norm[KILN_MAX_RANK + 1];
  intptr_t n = kilnInferAttrInts(c, "axes", axes, KILN_MAX_RANK + 1);
  if (n < 0)
    n = 3;
  if (n > rankOf(x))
    return kilnInferError(c,
                          "attribute 'axes' has %ld values, more than the "
                          "rank of 'x' (%ld)",
                          (long)n, (long)rankOf(x));
  for (intptr_t i = 0; i < n; ++i) {
    if (failed(kilnInferNormalizeAxis(c, "attribute 'axes' value", axes[i],
                                      rankOf(x), &norm[i])))
      return mlirLogicalResultFailure();
    for (intptr_t j = 0; j < i; ++j)
      if (norm[j] == norm[i])
        return kilnInferError(c, "attribute 'axes' repeats axis %ld",
                              (long)norm[i]);
  }
  c->resultTypes[0] = x;
  return ok();
}

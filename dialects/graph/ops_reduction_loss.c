/* Type inference for the Reduction family's losses (see
 * ops_reduction_internal.h): NegativeLogLikelihoodLoss-22 and
 * SoftmaxCrossEntropyLoss-13. Both take class scores [N, C, d1, ..., dk],
 * integer class indices [N, d1, ..., dk] and optional per-class weights [C],
 * and give a scalar loss, or one loss per index for reduction = "none". */
#include <stdbool.h>

#include "dialects/graph/infer.h"
#include "dialects/graph/ops_reduction_internal.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"

/* Fails unless the string attribute `reduction` is one of ONNX's three
 * values. */
static MlirLogicalResult checkReduction(const KilnInferContext *c, bool *none) {
  MlirStringRef r = kilnInferAttrString(c, "reduction", "mean");
  *none = kilnStringRefEquals(r, "none");
  if (*none || kilnStringRefEquals(r, "sum") || kilnStringRefEquals(r, "mean"))
    return mlirLogicalResultSuccess();
  return kilnInferError(c,
                        "attribute 'reduction' must be \"none\", \"sum\" or "
                        "\"mean\", got \"%.*s\"",
                        (int)r.length, r.data);
}

/* Checks operand 1 (class indices) against operand 0 (scores of rank
 * `rank`): rank - 1 dims, equal to the scores' N, d1, ..., dk. Writes the
 * merged dims (static where either is) into `shape`. */
static MlirLogicalResult checkIndices(const KilnInferContext *c, MlirType in,
                                      MlirType idx, int64_t *shape) {
  intptr_t rank = mlirShapedTypeGetRank(in);
  if (mlirShapedTypeGetRank(idx) != rank - 1)
    return kilnInferError(c,
                          "operand '%s' must have rank %ld (one less than "
                          "'%s'), got rank %ld",
                          kilnRedOperandName(c, 1), (long)(rank - 1),
                          kilnRedOperandName(c, 0),
                          (long)mlirShapedTypeGetRank(idx));
  for (intptr_t i = 0; i < rank - 1; ++i) {
    /* Index dim i pairs with score dim 0 (N) or i + 1 (skipping C). */
    intptr_t j = i == 0 ? 0 : i + 1;
    int64_t di = kilnRedDim(idx, i), dj = kilnRedDim(in, j);
    if (kilnRedStaticMismatch(di, dj))
      return kilnInferError(c,
                            "operand '%s' dim %ld is %ld but '%s' dim %ld "
                            "is %ld",
                            kilnRedOperandName(c, 1), (long)i, (long)di,
                            kilnRedOperandName(c, 0), (long)j, (long)dj);
    shape[i] = kilnRedMergeDim(di, dj);
  }
  return mlirLogicalResultSuccess();
}

/* Checks the optional operand 2 (per-class weights): 1-D, C values, the
 * scores' element type. */
static MlirLogicalResult checkWeights(const KilnInferContext *c, MlirType in) {
  if (mlirValueIsNull(kilnInferOperand(c, 2)))
    return mlirLogicalResultSuccess();
  MlirType w = kilnInferRankedOperand(c, 2);
  if (mlirTypeIsNull(w) ||
      mlirLogicalResultIsFailure(kilnRedCheckSameElementType(c, 0, in, 2, w)))
    return mlirLogicalResultFailure();
  if (mlirShapedTypeGetRank(w) != 1)
    return kilnInferError(c, "operand '%s' must be 1-D, got rank %ld",
                          kilnRedOperandName(c, 2),
                          (long)mlirShapedTypeGetRank(w));
  int64_t n = kilnRedDim(w, 0), classes = kilnRedDim(in, 1);
  if (kilnRedStaticMismatch(n, classes))
    return kilnInferError(c,
                          "operand '%s' has %ld values but '%s' has %ld "
                          "classes (dim 1)",
                          kilnRedOperandName(c, 2), (long)n,
                          kilnRedOperandName(c, 0), (long)classes);
  return mlirLogicalResultSuccess();
}

/* Both losses: checks the operands and sets result 0, the loss; *scores is
 * operand 0's type. */
static MlirLogicalResult inferLoss(KilnInferContext *c, MlirType *scores) {
  MlirType in = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(in) || mlirLogicalResultIsFailure(kilnRedCheckElementType(
                                c, 0, in, KILN_RED_FLOAT)))
    return mlirLogicalResultFailure();
  intptr_t rank = mlirShapedTypeGetRank(in);
  if (rank < 2)
    return kilnInferError(c,
                          "operand '%s' must have rank >= 2 ([N, C] or "
                          "[N, C, d1, ...]), got rank %ld",
                          kilnRedOperandName(c, 0), (long)rank);
  MlirType idx = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(idx) || mlirLogicalResultIsFailure(kilnRedCheckElementType(
                                 c, 1, idx, KILN_RED_I32 | KILN_RED_I64)))
    return mlirLogicalResultFailure();
  int64_t shape[KILN_MAX_RANK];
  bool none;
  if (mlirLogicalResultIsFailure(checkIndices(c, in, idx, shape)) ||
      mlirLogicalResultIsFailure(checkWeights(c, in)) ||
      mlirLogicalResultIsFailure(checkReduction(c, &none)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = kilnInferTensorType(none ? rank - 1 : 0, shape,
                                          mlirShapedTypeGetElementType(in));
  *scores = in;
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnRedInferNllLoss(KilnInferContext *c) {
  MlirType in;
  if (mlirLogicalResultIsFailure(kilnRedCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  return inferLoss(c, &in);
}

MlirLogicalResult kilnRedInferSceLoss(KilnInferContext *c) {
  MlirType scores;
  if (mlirLogicalResultIsFailure(kilnRedCheckResults(c, 1, 2)) ||
      mlirLogicalResultIsFailure(inferLoss(c, &scores)))
    return mlirLogicalResultFailure();
  /* log_prob: the log-softmax of the scores, same type. */
  if (c->numResults == 2)
    c->resultTypes[1] = scores;
  return mlirLogicalResultSuccess();
}

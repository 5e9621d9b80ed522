/* Recurrent ops of the NN family: rnn, gru and lstm (ONNX RNN-22, GRU-22,
 * LSTM-22; inference functions, the table entries are in ops_nn.c).
 *
 * The three share one operand layout, X, W, R, B, sequence_lens, initial_h
 * (and initial_c, P for LSTM), and differ in the number of gates G (1, 3,
 * 4) that W, R and B stack, and in how many activations each direction
 * takes (1, 2, 3). `layout` 0 is sequence-major, 1 batch-major. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "dialects/graph/infer.h"
#include "dialects/graph/ops_nn_window.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

enum {
  IN_X,
  IN_W,
  IN_R,
  IN_B,
  IN_SEQUENCE_LENS,
  IN_INITIAL_H,
  IN_INITIAL_C, /* lstm only */
  IN_P          /* lstm only */
};

typedef struct Cell {
  int gates;          /* G: rows per direction of W and R are G * hidden */
  int activations;    /* activation functions per direction */
  intptr_t maxResult; /* 2 (y, y_h) or 3 (y, y_h, y_c) */
} Cell;

static const Cell kRnnCell = {1, 1, 2};
static const Cell kGruCell = {3, 2, 2};
static const Cell kLstmCell = {4, 3, 3};

/* What the attributes and X fix: every dim may be dynamic. */
typedef struct Dims {
  int64_t dirs, seq, batch, input, hidden;
  bool batchMajor; /* layout = 1 */
} Dims;

enum { DIR_FORWARD, DIR_REVERSE, DIR_BIDIRECTIONAL };
static const char *const kDirection[] = {"forward", "reverse", "bidirectional",
                                         NULL};

/* ONNX's activation functions for recurrent ops. Matched without regard to
 * case, as ONNX Runtime does. */
static const char *const kActivations[] = {
    "Relu",       "Tanh",        "Sigmoid",
    "Affine",     "LeakyRelu",   "ThresholdedRelu",
    "ScaledTanh", "HardSigmoid", "Elu",
    "Softsign",   "Softplus",    NULL};

static bool isActivation(const char *s, size_t n) {
  for (int i = 0; kActivations[i]; ++i) {
    size_t len = strlen(kActivations[i]);
    bool same = len == n;
    for (size_t k = 0; same && k < n; ++k)
      same = tolower((unsigned char)s[k]) ==
             tolower((unsigned char)kActivations[i][k]);
    if (same)
      return true;
  }
  return false;
}

/* `activations` (ONNX STRINGS, an array of strings) names the functions of
 * every direction in order. Stores the number of names (the per-direction
 * default times the number of directions when absent). */
static MlirLogicalResult readActivations(const KilnInferContext *c,
                                         const Cell *cell, int64_t dirs,
                                         intptr_t *count) {
  MlirAttribute a = kilnInferAttr(c, "activations");
  int64_t want = cell->activations * dirs;
  if (mlirAttributeIsNull(a)) {
    *count = (intptr_t)want;
    return ok();
  }
  /* The kind (an array of strings) is checked before inference runs. */
  intptr_t n = mlirArrayAttrGetNumElements(a);
  for (intptr_t i = 0; i < n; ++i) {
    MlirStringRef v = mlirStringAttrGetValue(mlirArrayAttrGetElement(a, i));
    if (!isActivation(v.data, v.length))
      return kilnInferError(c,
                            "attribute 'activations' names unknown function "
                            "\"%.*s\" (expected Relu, Tanh, Sigmoid, Affine, "
                            "LeakyRelu, ThresholdedRelu, ScaledTanh, "
                            "HardSigmoid, Elu, Softsign or Softplus)",
                            (int)v.length, v.data);
  }
  if (n != want)
    return kilnInferError(c,
                          "attribute 'activations' must name %ld function(s) "
                          "(%d per direction), got %ld",
                          (long)want, cell->activations, (long)n);
  *count = n;
  return ok();
}

/* Reads and checks every attribute; fills dirs, hidden (from hidden_size,
 * else R's last dim) and batchMajor. */
static MlirLogicalResult readAttrs(const KilnInferContext *c, const Cell *cell,
                                   MlirType r, Dims *d) {
  int direction;
  bool flag;
  if (failed(kilnNNReadChoice(c, "direction", "forward", kDirection,
                              &direction)) ||
      failed(kilnNNReadFlag(c, "layout", &d->batchMajor)) ||
      failed(kilnNNReadFlag(c, "input_forget", &flag)) ||
      failed(kilnNNReadFlag(c, "linear_before_reset", &flag)))
    return mlirLogicalResultFailure();
  d->dirs = direction == DIR_BIDIRECTIONAL ? 2 : 1;
  d->hidden = dim(r, 2);
  MlirAttribute hs = kilnInferAttr(c, "hidden_size");
  if (!mlirAttributeIsNull(hs)) {
    d->hidden = kilnInferAttrInt(c, "hidden_size", 0);
    /* B holds 2 * G * hidden values per direction: keep that in range. */
    if (d->hidden < 1 || d->hidden > INT64_MAX / 8)
      return kilnInferError(c,
                            "attribute 'hidden_size' must be in [1, %ld], "
                            "got %ld",
                            (long)(INT64_MAX / 8), (long)d->hidden);
  }
  MlirAttribute clip = kilnInferAttr(c, "clip");
  float clipValue = kilnInferAttrFloat(c, "clip", 1.0f);
  if (!mlirAttributeIsNull(clip) && !(clipValue > 0.0f))
    return kilnInferError(c, "attribute 'clip' must be positive, got %g",
                          (double)clipValue);
  intptr_t count;
  if (failed(readActivations(c, cell, d->dirs, &count)))
    return mlirLogicalResultFailure();
  /* activation_alpha/beta are consumed in order by the activations that
   * take parameters, so there cannot be more than activations. */
  static const char *const kParams[] = {"activation_alpha", "activation_beta"};
  for (int k = 0; k < 2; ++k) {
    MlirAttribute p = kilnInferAttr(c, kParams[k]);
    intptr_t n = mlirAttributeIsNull(p) ? 0 : mlirDenseArrayGetNumElements(p);
    if (n > count)
      return kilnInferError(c,
                            "attribute '%s' has %ld values, more than the "
                            "%ld activation function(s)",
                            kParams[k], (long)n, (long)count);
  }
  return ok();
}

/* g * hidden, dynamic when hidden is (no overflow: hidden_size is bounded
 * in readAttrs and a dim of R fits a tensor). */
static int64_t times(int64_t g, int64_t hidden) {
  return known(hidden) ? g * hidden : dyn();
}

/* Checks operand i, when present, against `expect` (rank n); `float`
 * operands must have x's element type. */
static MlirLogicalResult checkOptional(const KilnInferContext *c, intptr_t i,
                                       MlirType x, intptr_t n,
                                       const int64_t *expect,
                                       const char *form) {
  if (mlirValueIsNull(kilnInferOperand(c, i)))
    return ok();
  MlirType t = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(t))
    return mlirLogicalResultFailure();
  if (i == IN_SEQUENCE_LENS) {
    if (failed(kilnNNRequireInt(c, i, t, 32)))
      return mlirLogicalResultFailure();
  } else if (failed(kilnNNRequireSameElement(c, IN_X, x, i, t))) {
    return mlirLogicalResultFailure();
  }
  return kilnNNRequireShape(c, i, t, n, expect, form);
}

/* W, R and the optional operands against the dims X and the attributes
 * fix. */
static MlirLogicalResult checkOperands(const KilnInferContext *c,
                                       const Cell *cell, MlirType x, MlirType w,
                                       MlirType r, const Dims *d) {
  int64_t rows = times(cell->gates, d->hidden);
  int64_t wShape[] = {d->dirs, rows, d->input};
  int64_t rShape[] = {d->dirs, rows, d->hidden};
  int64_t bShape[] = {d->dirs, times(2 * cell->gates, d->hidden)};
  int64_t pShape[] = {d->dirs, times(3, d->hidden)};
  int64_t hMajor[] = {d->batch, d->dirs, d->hidden};
  int64_t hSeq[] = {d->dirs, d->batch, d->hidden};
  const int64_t *hShape = d->batchMajor ? hMajor : hSeq;
  const char *hForm = d->batchMajor
                          ? "batch_size x num_directions x hidden_size"
                          : "num_directions x batch_size x hidden_size";
  char wForm[64], rForm[64], bForm[64];
  snprintf(wForm, sizeof(wForm), "num_directions x %d*hidden_size x input_size",
           cell->gates);
  snprintf(rForm, sizeof(rForm),
           "num_directions x %d*hidden_size x hidden_size", cell->gates);
  snprintf(bForm, sizeof(bForm), "num_directions x %d*hidden_size",
           2 * cell->gates);
  bool lstm = cell->maxResult == 3;
  if (failed(kilnNNRequireShape(c, IN_W, w, 3, wShape, wForm)) ||
      failed(kilnNNRequireShape(c, IN_R, r, 3, rShape, rForm)) ||
      failed(checkOptional(c, IN_B, x, 2, bShape, bForm)) ||
      failed(
          checkOptional(c, IN_SEQUENCE_LENS, x, 1, &d->batch, "batch_size")) ||
      failed(checkOptional(c, IN_INITIAL_H, x, 3, hShape, hForm)) ||
      (lstm && failed(checkOptional(c, IN_INITIAL_C, x, 3, hShape, hForm))) ||
      (lstm && failed(checkOptional(c, IN_P, x, 2, pShape,
                                    "num_directions x 3*hidden_size"))))
    return mlirLogicalResultFailure();
  return ok();
}

/* Y: seq x dirs x batch x hidden (layout 0) or batch x seq x dirs x hidden;
 * Y_h and Y_c: dirs x batch x hidden or batch x dirs x hidden. */
static void setResults(KilnInferContext *c, MlirType x, const Dims *d) {
  int64_t yMajor[] = {d->batch, d->seq, d->dirs, d->hidden};
  int64_t ySeq[] = {d->seq, d->dirs, d->batch, d->hidden};
  int64_t hMajor[] = {d->batch, d->dirs, d->hidden};
  int64_t hSeq[] = {d->dirs, d->batch, d->hidden};
  c->resultTypes[0] =
      kilnInferTensorType(4, d->batchMajor ? yMajor : ySeq, elt(x));
  for (intptr_t i = 1; i < c->numResults; ++i)
    c->resultTypes[i] =
        kilnInferTensorType(3, d->batchMajor ? hMajor : hSeq, elt(x));
}

/* Inference sees only how many results there are, and gives them in order
 * (y, y_h, y_c): LSTM IR whose resultSegmentSizes leaves out y_h but keeps
 * y_c would be read wrongly, so it is rejected. */
static MlirLogicalResult checkResultOrder(const KilnInferContext *c) {
  MlirAttribute seg = kilnInferAttr(c, "resultSegmentSizes");
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg))
    return ok();
  intptr_t n = mlirDenseArrayGetNumElements(seg);
  for (intptr_t i = 1; i + 1 < n; ++i)
    if (mlirDenseI32ArrayGetElement(seg, i) == 0 &&
        mlirDenseI32ArrayGetElement(seg, i + 1) != 0)
      return kilnInferError(c, "result '%s' requires result '%s' before it",
                            c->op->results[i + 1].name, c->op->results[i].name);
  return ok();
}

static MlirLogicalResult inferRecurrent(KilnInferContext *c, const Cell *cell) {
  if (failed(kilnNNCheckResults(c, 1, cell->maxResult)) ||
      failed(checkResultOrder(c)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, IN_X);
  if (mlirTypeIsNull(x))
    return mlirLogicalResultFailure();
  MlirType w = kilnInferRankedOperand(c, IN_W);
  if (mlirTypeIsNull(w))
    return mlirLogicalResultFailure();
  MlirType r = kilnInferRankedOperand(c, IN_R);
  if (mlirTypeIsNull(r) || failed(kilnNNRequireFloat(c, IN_X, x)) ||
      failed(kilnNNRequireSameElement(c, IN_X, x, IN_W, w)) ||
      failed(kilnNNRequireSameElement(c, IN_X, x, IN_R, r)))
    return mlirLogicalResultFailure();
  if (rankOf(x) != 3)
    return kilnInferError(c,
                          "operand 'x' must have rank 3 (seq_length x "
                          "batch_size x input_size, or batch-major with "
                          "layout = 1), got rank %ld",
                          (long)rankOf(x));
  if (rankOf(r) != 3)
    return kilnInferError(c, "operand 'r' must have rank 3, got rank %ld",
                          (long)rankOf(r));
  Dims d;
  if (failed(readAttrs(c, cell, r, &d)))
    return mlirLogicalResultFailure();
  d.seq = dim(x, d.batchMajor ? 1 : 0);
  d.batch = dim(x, d.batchMajor ? 0 : 1);
  d.input = dim(x, 2);
  if (failed(checkOperands(c, cell, x, w, r, &d)))
    return mlirLogicalResultFailure();
  setResults(c, x, &d);
  return ok();
}

MlirLogicalResult kilnNNInferRnn(KilnInferContext *c) {
  return inferRecurrent(c, &kRnnCell);
}

MlirLogicalResult kilnNNInferGru(KilnInferContext *c) {
  return inferRecurrent(c, &kGruCell);
}

MlirLogicalResult kilnNNInferLstm(KilnInferContext *c) {
  return inferRecurrent(c, &kLstmCell);
}

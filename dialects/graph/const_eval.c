/* Compile-time evaluation of small integer tensors (see const_eval.h): a
 * lazy driver over Kiln's one evaluator of graph ops (fold_eval.h), the
 * one graph-fold-constants folds with, so that type inference and folding
 * compute every op alike. From the value asked for it walks up to the
 * producers, evaluating each operand on demand; graph.constant is read,
 * and graph.shape and graph.size come from their operand's static type.
 * Running out of depth, steps or the element bound just means "not a
 * compile-time value". */
#include "dialects/graph/const_eval.h"

#include <stdbool.h>
#include <stdlib.h>

#include "dialects/graph/fold_eval.h"
#include "dialects/graph/fold_tensor.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/ir_build.h"

/* Op visits per top-level call: bounds DAGs that fan out (x + x + ...). */
#define MAX_STEPS 4096

typedef struct Eval {
  int steps;
} Eval;

static bool evalValue(Eval *e, MlirValue v, int depth, intptr_t maxElements,
                      KilnFoldTensor *out);

/* ONNX Shape-15 (dims [start, end) of the input, each clamped to [0, r])
 * and Size, from the operand's type, into `out` (made from the result's
 * static type). */
static bool evalShapeQuery(MlirOperation op, KilnFoldTensor *out) {
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!mlirTypeIsARankedTensor(t))
    return false;
  int64_t r = mlirShapedTypeGetRank(t);
  if (kilnOpNameIs(op, "graph.size")) {
    int64_t n = 1;
    for (intptr_t d = 0; d < r; ++d)
      if (mlirShapedTypeIsDynamicDim(t, d) ||
          __builtin_mul_overflow(n, mlirShapedTypeGetDimSize(t, d), &n))
        return false;
    if (out->n != 1)
      return false;
    out->data[0].i = kilnFoldWrapInt(out->elt, n);
    return true;
  }
  int64_t start = kilnOpGetIntAttr(op, "start", 0),
          end = kilnOpGetIntAttr(op, "end", r);
  start = start < 0 ? start + r : start;
  end = end < 0 ? end + r : end;
  start = start < 0 ? 0 : start > r ? r : start;
  end = end < start ? start : end > r ? r : end;
  if (out->n != end - start)
    return false;
  for (int64_t d = start; d < end; ++d) {
    if (mlirShapedTypeIsDynamicDim(t, (intptr_t)d))
      return false;
    out->data[d - start].i =
        kilnFoldWrapInt(out->elt, mlirShapedTypeGetDimSize(t, (intptr_t)d));
  }
  return true;
}

/* Evaluates the operands of `op` (absent optional ones as empty tensors),
 * then `op` itself, into `out`. */
static bool evalOp(Eval *e, MlirOperation op, int depth, KilnFoldTensor *out) {
  /* Optional operands can make the positional count exceed the flat one. */
  intptr_t cap = mlirOperationGetNumOperands(op) + KILN_MAX_RANK;
  MlirValue *operands = kilnXCalloc((size_t)cap, sizeof(MlirValue));
  KilnFoldTensor *inputs = kilnXCalloc((size_t)cap, sizeof(KilnFoldTensor));
  intptr_t n = kilnFoldPositionalOperands(op, operands, cap);
  bool ok = n >= 0;
  for (intptr_t k = 0; ok && k < n; ++k)
    ok = mlirValueIsNull(operands[k]) ||
         evalValue(e, operands[k], depth + 1, KILN_GRAPH_EVAL_MAX_ELEMENTS,
                   &inputs[k]);
  ok = ok && kilnFoldEvaluate(op, inputs, n, out);
  for (intptr_t k = 0; k < n; ++k)
    kilnFoldTensorDestroy(&inputs[k]);
  free(inputs);
  free(operands);
  return ok;
}

/* Evaluates `v` (result 0 of its op, of a static foldable type, at most
 * `maxElements` elements) into `out`, which the caller destroys. The value
 * takes v's declared type: IR whose types contradict the values is left to
 * graph-verify to report at the op itself. */
static bool evalValue(Eval *e, MlirValue v, int depth, intptr_t maxElements,
                      KilnFoldTensor *out) {
  if (depth >= KILN_GRAPH_EVAL_MAX_DEPTH || ++e->steps > MAX_STEPS ||
      !mlirValueIsAOpResult(v) || mlirOpResultGetResultNumber(v) != 0)
    return false;
  MlirOperation op = mlirOpResultGetOwner(v);
  if (kilnOpNameIs(op, "graph.constant")) {
    if (!kilnFoldTensorRead(kilnFoldConstantValue(v), maxElements, out))
      return false;
    if (mlirTypeEqual(out->type, mlirValueGetType(v)))
      return true;
    kilnFoldTensorDestroy(out);
    return false;
  }
  bool shapeQuery =
      kilnOpNameIs(op, "graph.shape") || kilnOpNameIs(op, "graph.size");
  if ((!shapeQuery && !kilnFoldCanEvaluate(op)) ||
      !kilnFoldTensorCreate(mlirValueGetType(v), maxElements, out))
    return false;
  bool ok = shapeQuery ? evalShapeQuery(op, out) : evalOp(e, op, depth, out);
  if (!ok)
    kilnFoldTensorDestroy(out);
  return ok;
}

intptr_t kilnGraphEvalConstantInts(MlirValue v, int64_t *out, intptr_t cap) {
  if (mlirValueIsNull(v))
    return -1;
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) ||
      !mlirTypeIsAInteger(mlirShapedTypeGetElementType(t)))
    return -1;
  /* A constant is read whatever its size (index checks read large index
   * tensors); computed values are bounded. */
  bool constant = mlirValueIsAOpResult(v) &&
                  kilnOpNameIs(mlirOpResultGetOwner(v), "graph.constant");
  Eval e = {0};
  KilnFoldTensor r = {0};
  if (!evalValue(&e, v, 0, constant ? INTPTR_MAX : KILN_GRAPH_EVAL_MAX_ELEMENTS,
                 &r))
    return -1;
  for (intptr_t k = 0; k < r.n && k < cap; ++k)
    out[k] = r.data[k].i;
  intptr_t n = r.n;
  kilnFoldTensorDestroy(&r);
  return n;
}

/* ---- Partly known shape vectors ------------------------------------------ */

/* The longest vector followed entry by entry: shapes and their pieces. */
enum { kPartialMax = 32 };

/* The static length of a 0-D or 1-D integer tensor `v`, or -1. */
static intptr_t vectorLength(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) ||
      !mlirTypeIsAInteger(mlirShapedTypeGetElementType(t)) ||
      mlirShapedTypeGetRank(t) > 1)
    return -1;
  if (mlirShapedTypeGetRank(t) == 0)
    return 1;
  return mlirShapedTypeIsDynamicDim(t, 0) ? -1 : mlirShapedTypeGetDimSize(t, 0);
}

static intptr_t partialInts(MlirValue v, int64_t *out, intptr_t cap, int depth);

/* graph.shape: the operand's dims [start, end), dynamic ones unknown. */
static void partialShape(MlirOperation op, int64_t *out, intptr_t n) {
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  int64_t r = mlirShapedTypeGetRank(t);
  int64_t start = kilnOpGetIntAttr(op, "start", 0);
  start = start < 0 ? start + r : start;
  start = start < 0 ? 0 : start > r ? r : start;
  for (intptr_t k = 0; k < n && start + k < r; ++k)
    out[k] = mlirShapedTypeIsDynamicDim(t, (intptr_t)(start + k))
                 ? KILN_GRAPH_EVAL_UNKNOWN
                 : mlirShapedTypeGetDimSize(t, (intptr_t)(start + k));
}

/* graph.gather of a partly known vector at constant indices. */
static void partialGather(MlirOperation op, int64_t *out, intptr_t n,
                          int depth) {
  int64_t data[kPartialMax], idx[kPartialMax];
  MlirValue src = mlirOperationGetOperand(op, 0);
  intptr_t len = partialInts(src, data, kPartialMax, depth);
  intptr_t m = kilnGraphEvalConstantInts(mlirOperationGetOperand(op, 1), idx,
                                         kPartialMax);
  if (len < 0 || m != n || kilnOpGetIntAttr(op, "axis", 0) != 0)
    return;
  for (intptr_t k = 0; k < n; ++k) {
    int64_t i = idx[k] < 0 ? idx[k] + len : idx[k];
    if (i >= 0 && i < len)
      out[k] = data[i];
  }
}

static intptr_t partialInts(MlirValue v, int64_t *out, intptr_t cap,
                            int depth) {
  intptr_t n = vectorLength(v);
  if (n < 0 || n > cap || n > kPartialMax)
    return -1;
  if (kilnGraphEvalConstantInts(v, out, cap) == n)
    return n;
  for (intptr_t k = 0; k < n; ++k)
    out[k] = KILN_GRAPH_EVAL_UNKNOWN;
  if (depth >= KILN_GRAPH_EVAL_MAX_DEPTH || !mlirValueIsAOpResult(v))
    return n;
  MlirOperation op = mlirOpResultGetOwner(v);
  intptr_t nOps = mlirOperationGetNumOperands(op);
  if (kilnOpNameIs(op, "graph.shape")) {
    partialShape(op, out, n);
  } else if (kilnOpNameIs(op, "graph.gather")) {
    partialGather(op, out, n, depth + 1);
  } else if (kilnOpNameIs(op, "graph.concat")) {
    intptr_t at = 0;
    for (intptr_t i = 0; i < nOps && at < n; ++i) {
      intptr_t m = partialInts(mlirOperationGetOperand(op, i), out + at, n - at,
                               depth + 1);
      if (m < 0) { /* a piece of unknown length: nothing after it is placed */
        for (intptr_t k = 0; k < n; ++k)
          out[k] = KILN_GRAPH_EVAL_UNKNOWN;
        return n;
      }
      at += m;
    }
  } else if (nOps >= 1 && (kilnOpNameIs(op, "graph.unsqueeze") ||
                           kilnOpNameIs(op, "graph.squeeze") ||
                           kilnOpNameIs(op, "graph.cast") ||
                           kilnOpNameIs(op, "graph.identity"))) {
    int64_t in[kPartialMax];
    if (partialInts(mlirOperationGetOperand(op, 0), in, kPartialMax,
                    depth + 1) == n)
      for (intptr_t k = 0; k < n; ++k)
        out[k] = in[k];
  }
  return n;
}

intptr_t kilnGraphEvalPartialInts(MlirValue v, int64_t *out, intptr_t cap) {
  if (mlirValueIsNull(v))
    return -1;
  return partialInts(v, out, cap, 0);
}

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

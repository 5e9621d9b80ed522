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
static bool evalByEntry(Eval *e, MlirValue v, int depth, KilnFoldTensor *out,
                        bool *followed);

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
  /* A shape vector is followed entry by entry, so that one whose entries
   * are all known is a value though its operands are not (Gather(Shape(x),
   * -1) of x: [?, ?, 576]). */
  bool followed = false;
  bool ok = evalByEntry(e, v, depth, out, &followed);
  if (!followed)
    ok = shapeQuery ? evalShapeQuery(op, out) : evalOp(e, op, depth, out);
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

static intptr_t partialInts(Eval *e, MlirValue v, int64_t *out, intptr_t cap,
                            int depth);

/* graph.shape: the operand's dims [start, end), dynamic ones unknown. */
static bool partialShape(MlirOperation op, int64_t *out, intptr_t n) {
  MlirType t = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (!mlirTypeIsARankedTensor(t))
    return false;
  int64_t r = mlirShapedTypeGetRank(t);
  int64_t start = kilnOpGetIntAttr(op, "start", 0);
  start = start < 0 ? start + r : start;
  start = start < 0 ? 0 : start > r ? r : start;
  for (intptr_t k = 0; k < n && start + k < r; ++k)
    out[k] = mlirShapedTypeIsDynamicDim(t, (intptr_t)(start + k))
                 ? KILN_GRAPH_EVAL_UNKNOWN
                 : mlirShapedTypeGetDimSize(t, (intptr_t)(start + k));
  return true;
}

/* graph.gather of a partly known vector at indices known whole. */
static bool partialGather(Eval *e, MlirOperation op, int64_t *out, intptr_t n,
                          int depth) {
  int64_t data[kPartialMax], idx[kPartialMax];
  intptr_t len =
      partialInts(e, mlirOperationGetOperand(op, 0), data, kPartialMax, depth);
  if (len < 0)
    return false; /* data of another shape: evaluated whole */
  if (kilnGraphEvalConstantInts(mlirOperationGetOperand(op, 1), idx,
                                kPartialMax) != n ||
      kilnOpGetIntAttr(op, "axis", 0) != 0)
    return true;
  for (intptr_t k = 0; k < n; ++k) {
    int64_t i = idx[k] < 0 ? idx[k] + len : idx[k];
    if (i >= 0 && i < len)
      out[k] = data[i];
  }
  return true;
}

/* The graph ops whose result entry k depends only on entry k of each
 * operand (a length-1 operand broadcasting to every entry). */
static bool isEntrywise(MlirOperation op) {
  static const char *const names[] = {
      "graph.add",     "graph.sub",           "graph.mul",
      "graph.div",     "graph.mod",           "graph.min",
      "graph.max",     "graph.neg",           "graph.abs",
      "graph.cast",    "graph.equal",         "graph.less",
      "graph.greater", "graph.less_or_equal", "graph.greater_or_equal",
      "graph.where",   "graph.and",           "graph.or",
      "graph.not"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (kilnOpNameIs(op, names[i]))
      return true;
  return false;
}

/* An entrywise op of integer vectors, some entries unknown: evaluated by the
 * one evaluator (fold_eval.h) with every unknown entry read as 1 (defined
 * for every op listed), then each result entry that read an unknown one is
 * made unknown again. */
enum { kEntrywiseMaxOperands = 3 };
static bool partialEntrywise(Eval *e, MlirOperation op, int64_t *out,
                             intptr_t n, int depth) {
  intptr_t nIn = mlirOperationGetNumOperands(op);
  if (nIn < 1 || nIn > kEntrywiseMaxOperands)
    return false;
  int64_t vals[kEntrywiseMaxOperands][kPartialMax];
  intptr_t len[kEntrywiseMaxOperands];
  for (intptr_t i = 0; i < nIn; ++i) {
    len[i] = partialInts(e, mlirOperationGetOperand(op, i), vals[i],
                         kPartialMax, depth);
    if (len[i] != n && len[i] != 1)
      return false; /* a float operand (a cast's) or another shape */
  }
  KilnFoldTensor in[kEntrywiseMaxOperands] = {{0}}, r = {0};
  bool unknown[kPartialMax] = {false}, ok = true;
  for (intptr_t i = 0; ok && i < nIn; ++i) {
    ok = kilnFoldTensorCreate(mlirValueGetType(mlirOperationGetOperand(op, i)),
                              kPartialMax, &in[i]);
    for (intptr_t k = 0; ok && k < len[i]; ++k) {
      bool known = vals[i][k] != KILN_GRAPH_EVAL_UNKNOWN;
      in[i].data[k].i = known ? kilnFoldWrapInt(in[i].elt, vals[i][k]) : 1;
      if (!known && len[i] == 1)
        for (intptr_t j = 0; j < n; ++j)
          unknown[j] = true;
      else if (!known)
        unknown[k] = true;
    }
  }
  ok = ok &&
       kilnFoldTensorCreate(mlirValueGetType(mlirOperationGetResult(op, 0)),
                            kPartialMax, &r) &&
       r.n == n && kilnFoldEvaluate(op, in, nIn, &r);
  for (intptr_t k = 0; ok && k < n; ++k)
    if (!unknown[k])
      out[k] = r.data[k].i;
  kilnFoldTensorDestroy(&r);
  for (intptr_t i = 0; i < nIn; ++i)
    kilnFoldTensorDestroy(&in[i]);
  return true;
}

/* Follows `op` (result 0 an integer vector of n entries, all unknown in
 * `out`) entry by entry from its operands' known entries. Returns false
 * when it does not follow this op or these operands (then the op is
 * evaluated whole, if at all). */
static bool partialOp(Eval *e, MlirOperation op, int64_t *out, intptr_t n,
                      int depth) {
  intptr_t nOps = mlirOperationGetNumOperands(op);
  if (kilnOpNameIs(op, "graph.shape"))
    return partialShape(op, out, n);
  if (kilnOpNameIs(op, "graph.gather"))
    return partialGather(e, op, out, n, depth);
  if (kilnOpNameIs(op, "graph.concat")) {
    intptr_t at = 0;
    for (intptr_t i = 0; i < nOps && at < n; ++i) {
      intptr_t m = partialInts(e, mlirOperationGetOperand(op, i), out + at,
                               n - at, depth);
      if (m < 0) { /* a piece of unknown length: nothing after it is placed */
        for (intptr_t k = 0; k < n; ++k)
          out[k] = KILN_GRAPH_EVAL_UNKNOWN;
        return false;
      }
      at += m;
    }
    return true;
  }
  if (nOps == 1 &&
      (kilnOpNameIs(op, "graph.unsqueeze") ||
       kilnOpNameIs(op, "graph.squeeze") || kilnOpNameIs(op, "graph.identity")))
    return partialInts(e, mlirOperationGetOperand(op, 0), out, n, depth) == n;
  if (isEntrywise(op))
    return partialEntrywise(e, op, out, n, depth);
  return false;
}

/* Follows the integer vector `v` entry by entry, into `out` (created from
 * v's type): true when every entry is known. `*followed` says whether
 * partialOp followed v's op; when it did not, v is left to the whole
 * evaluation. */
static bool evalByEntry(Eval *e, MlirValue v, int depth, KilnFoldTensor *out,
                        bool *followed) {
  intptr_t n = vectorLength(v);
  *followed = false;
  if (n < 0 || n > kPartialMax || out->n != n || out->isFloat)
    return false;
  int64_t vals[kPartialMax];
  for (intptr_t k = 0; k < n; ++k)
    vals[k] = KILN_GRAPH_EVAL_UNKNOWN;
  *followed = partialOp(e, mlirOpResultGetOwner(v), vals, n, depth + 1);
  if (!*followed)
    return false;
  for (intptr_t k = 0; k < n; ++k) {
    if (vals[k] == KILN_GRAPH_EVAL_UNKNOWN)
      return false;
    out->data[k].i = kilnFoldWrapInt(out->elt, vals[k]);
  }
  return true;
}

static intptr_t partialInts(Eval *e, MlirValue v, int64_t *out, intptr_t cap,
                            int depth) {
  intptr_t n = vectorLength(v);
  if (n < 0 || n > cap || n > kPartialMax)
    return -1;
  for (intptr_t k = 0; k < n; ++k)
    out[k] = KILN_GRAPH_EVAL_UNKNOWN;
  if (depth >= KILN_GRAPH_EVAL_MAX_DEPTH || ++e->steps > MAX_STEPS ||
      !mlirValueIsAOpResult(v) || mlirOpResultGetResultNumber(v) != 0)
    return n;
  MlirOperation op = mlirOpResultGetOwner(v);
  if (!kilnOpNameIs(op, "graph.constant") &&
      partialOp(e, op, out, n, depth + 1))
    return n;
  KilnFoldTensor r = {0};
  if (evalValue(e, v, depth, KILN_GRAPH_EVAL_MAX_ELEMENTS, &r) && r.n == n)
    for (intptr_t k = 0; k < n; ++k)
      out[k] = r.data[k].i;
  kilnFoldTensorDestroy(&r);
  return n;
}

intptr_t kilnGraphEvalPartialInts(MlirValue v, int64_t *out, intptr_t cap) {
  if (mlirValueIsNull(v))
    return -1;
  Eval e = {0};
  return partialInts(&e, v, out, cap, 0);
}

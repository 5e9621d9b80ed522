/* graph-fold-constants: replaces graph ops whose value is known at compile
 * time by graph.constant ops holding it.
 *
 * Two evaluators decide what is known:
 *  - integer and bool results go first through kilnGraphEvalConstantInts
 *    (const_eval.h), which also sees through graph.shape and graph.size of
 *    statically shaped values whatever their contents: this is what folds
 *    the Shape -> Gather -> Unsqueeze -> Concat -> Reshape chains PyTorch
 *    exports;
 *  - otherwise, an op whose operands are all graph.constant ops (dense or
 *    dense-resource values) is evaluated by fold_eval.h, which computes
 *    each element in the precision the lowering uses.
 *
 * Ops are visited in pre-order, so operands fold before their users and one
 * sweep folds whole chains; sweeps repeat until nothing changes (bounded
 * by max-iterations). An identity of a constant is replaced by that
 * constant itself (no copy of its data). A folded op is erased once its uses
 * are replaced (the constant takes its location, i.e. the ONNX node's name);
 * operands it leaves unused, such as the constants it read, are left for
 * graph-dce.
 *
 * Left alone: ops of other dialects, graph ops with regions or more than
 * one result, results whose type is not statically shaped, and results or
 * operands of more than max-elements elements, so folding never inflates
 * a model (an Expand of a scalar to a large shape stays an Expand). */
#include "kiln/passes.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/graph/const_eval.h"
#include "dialects/graph/fold_eval.h"
#include "kiln/diagnostics.h"
#include "kiln/graph_builder.h"
#include "kiln/graph_tensor.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/op_list.h"

enum { OPT_MAX_ELEMENTS, OPT_MAX_ITERATIONS, OPT_FOLD_FLOATS, NUM_OPTIONS };

/* The most operands an evaluated op takes (slice: 5). */
#define MAX_OPERANDS 8

typedef struct FoldOptions {
  intptr_t maxElements;
  bool foldFloats;
} FoldOptions;

static bool isGraphOp(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length > 6 && memcmp(name.data, "graph.", 6) == 0;
}

/* A graph op that may be folded: one result, no regions, not a constant. */
static bool isCandidate(MlirOperation op) {
  return isGraphOp(op) && mlirOperationGetNumRegions(op) == 0 &&
         mlirOperationGetNumResults(op) == 1 &&
         !kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(op)),
                              "graph.constant");
}

static MlirWalkResult collect(MlirOperation op, void *userData) {
  if (isCandidate(op))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* Integer/bool results through the shape evaluator of const_eval.h. */
static bool evalInts(MlirValue result, KilnFoldTensor *out) {
  if (out->isFloat)
    return false;
  intptr_t cap = out->n ? out->n : 1;
  int64_t *buf = malloc((size_t)cap * sizeof(int64_t));
  if (!buf)
    abort();
  intptr_t n = kilnGraphEvalConstantInts(result, buf, cap);
  bool ok = n == out->n;
  for (intptr_t i = 0; ok && i < n; ++i)
    out->data[i].i = kilnFoldWrapInt(out->elt, buf[i]);
  free(buf);
  return ok;
}

/* Every operand a graph.constant (or absent): evaluate with fold_eval. */
static bool evalOnConstants(MlirOperation op, const FoldOptions *o,
                            KilnFoldTensor *out) {
  if (!kilnFoldCanEvaluate(op) || (out->isFloat && !o->foldFloats))
    return false;
  MlirValue operands[MAX_OPERANDS];
  intptr_t n = kilnFoldPositionalOperands(op, operands, MAX_OPERANDS);
  if (n < 0)
    return false;
  /* Check every operand before reading any: reading is the costly part. */
  for (intptr_t k = 0; k < n; ++k)
    if (!mlirValueIsNull(operands[k]) &&
        mlirAttributeIsNull(kilnFoldConstantValue(operands[k])))
      return false;
  KilnFoldTensor inputs[MAX_OPERANDS];
  memset(inputs, 0, sizeof(inputs));
  bool ok = true;
  for (intptr_t k = 0; ok && k < n; ++k)
    if (!mlirValueIsNull(operands[k]))
      ok = kilnFoldTensorRead(kilnFoldConstantValue(operands[k]),
                              o->maxElements, &inputs[k]);
  ok = ok && kilnFoldEvaluate(op, inputs, n, out);
  for (intptr_t k = 0; k < n; ++k)
    kilnFoldTensorDestroy(&inputs[k]);
  return ok;
}

/* Replaces `op` by a graph.constant of its value; false if not known. */
static bool tryFold(MlirOperation op, const FoldOptions *o) {
  MlirValue result = mlirOperationGetResult(op, 0);
  /* An identity of a constant is that constant: no copy of the data. */
  if (kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(op)),
                          "graph.identity") &&
      mlirOperationGetNumOperands(op) == 1) {
    MlirValue in = mlirOperationGetOperand(op, 0);
    if (mlirAttributeIsNull(kilnFoldConstantValue(in)) ||
        !mlirTypeEqual(mlirValueGetType(in), mlirValueGetType(result)))
      return false;
    mlirValueReplaceAllUsesOfWith(result, in);
    mlirOperationDestroy(op);
    return true;
  }
  KilnFoldTensor out;
  if (!kilnFoldTensorCreate(mlirValueGetType(result), o->maxElements, &out))
    return false;
  bool ok = evalInts(result, &out) || evalOnConstants(op, o, &out);
  if (ok) {
    MlirAttribute value = kilnFoldTensorToAttr(&out);
    MlirContext ctx = mlirOperationGetContext(op);
    KilnGraphBuilder *b = kilnGraphBuilderCreate(ctx, mlirOperationGetBlock(op),
                                                 mlirOperationGetLocation(op));
    kilnGraphBuilderSetInsertionPointBefore(b, op);
    MlirValue c = kilnGraphBuildConstant(b, value);
    kilnGraphBuilderDestroy(b);
    ok = !mlirValueIsNull(c);
    if (ok) {
      mlirValueReplaceAllUsesOfWith(result, c);
      mlirOperationDestroy(op);
    }
  }
  kilnFoldTensorDestroy(&out);
  return ok;
}

static void runFoldConstants(MlirOperation root, MlirExternalPass pass,
                             const KilnPassOptionValue *options) {
  FoldOptions o = {(intptr_t)options[OPT_MAX_ELEMENTS].i,
                   options[OPT_FOLD_FLOATS].b};
  int64_t maxIterations = options[OPT_MAX_ITERATIONS].i;
  if (options[OPT_MAX_ELEMENTS].i < 0 || maxIterations < 1) {
    kilnEmitErrorf(mlirOperationGetLocation(root),
                   "graph-fold-constants: option '%s' must be %s, got %lld",
                   maxIterations < 1 ? "max-iterations" : "max-elements",
                   maxIterations < 1 ? "at least 1" : "non-negative",
                   (long long)(maxIterations < 1
                                   ? maxIterations
                                   : options[OPT_MAX_ELEMENTS].i));
    mlirExternalPassSignalFailure(pass);
    return;
  }
  KilnOpList ops = {0};
  for (int64_t it = 0; it < maxIterations; ++it) {
    kilnOpListClear(&ops);
    mlirOperationWalk(root, collect, &ops, MlirWalkPreOrder);
    bool changed = false;
    /* Each collected op is visited once and only it may be erased, so no
     * op in the list is used after it is destroyed. */
    for (size_t i = 0; i < ops.len; ++i)
      changed |= tryFold(ops.data[i], &o);
    if (!changed)
      break;
  }
  kilnOpListDestroy(&ops);
}

static const KilnPassOptionSpec kOptions[NUM_OPTIONS] = {
    [OPT_MAX_ELEMENTS] = {"max-elements", KILN_PASS_OPTION_INT, "1048576",
                          "Fold no result, and read no operand, of more "
                          "elements than this"},
    [OPT_MAX_ITERATIONS] = {"max-iterations", KILN_PASS_OPTION_INT, "8",
                            "Sweeps over the function at most (one usually "
                            "reaches the fixed point)"},
    [OPT_FOLD_FLOATS] = {"fold-floats", KILN_PASS_OPTION_BOOL, "true",
                         "Also fold float-valued ops (false: integer and "
                         "bool values only, e.g. shape computations)"},
};

const KilnPassInfo kilnGraphFoldConstantsPass = {
    .argument = "graph-fold-constants",
    .summary = "Replace graph ops with compile-time values by constants",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = NUM_OPTIONS,
    .run = runFoldConstants,
    .pipeline = NULL,
};

/* graph-verify: checks each graph op against the op table and re-runs type
 * inference, so a hand-written or transformed graph cannot carry result
 * types its operands do not imply. */
#include "dialects/graph/verify.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/graph/infer.h"
#include "dialects/graph/op_check.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/shape.h"

/* Lays the op's flat operands out by ONNX position (absent optional ones as
 * null values) into `out` (capacity numDeclared + numOperands). Returns the
 * positional count, or -1 after an error. */
intptr_t kilnGraphPositionalOperands(MlirOperation operation,
                                     const KilnGraphOpInfo *op,
                                     MlirValue *out) {
  intptr_t n = mlirOperationGetNumOperands(operation);
  MlirAttribute seg = mlirOperationGetAttributeByName(
      operation, mlirStringRefCreateFromCString("operandSegmentSizes"));
  intptr_t flat = 0, pos = 0;
  for (int i = 0; i < op->numOperands; ++i) {
    intptr_t count = 1;
    if (!mlirAttributeIsNull(seg) && mlirAttributeIsADenseI32Array(seg) &&
        mlirDenseArrayGetNumElements(seg) == op->numOperands)
      count = mlirDenseI32ArrayGetElement(seg, i);
    else if (op->operands[i].kind != KILN_OPERAND_SINGLE)
      count = n - (op->numOperands - 1); /* the only non-single one */
    if (count < 0 || flat + count > n) {
      kilnEmitErrorf(mlirOperationGetLocation(operation),
                     "'graph.%s' op has inconsistent operand segments",
                     op->name);
      return -1;
    }
    if (count == 0)
      out[pos++] = (MlirValue){NULL};
    for (intptr_t k = 0; k < count; ++k)
      out[pos++] = mlirOperationGetOperand(operation, flat++);
  }
  return pos;
}

/* True when `actual` is `inferred` or a refinement/relaxation of it: same
 * element type and rank, and no two static dims that differ. */
static bool typesCompatible(MlirType inferred, MlirType actual) {
  if (mlirTypeEqual(inferred, actual))
    return true;
  if (!mlirTypeIsATensor(inferred) || !mlirTypeIsATensor(actual))
    return false;
  if (!mlirTypeEqual(mlirShapedTypeGetElementType(inferred),
                     mlirShapedTypeGetElementType(actual)))
    return false;
  if (!mlirShapedTypeHasRank(inferred) || !mlirShapedTypeHasRank(actual))
    return true;
  intptr_t rank = mlirShapedTypeGetRank(inferred);
  if (rank != mlirShapedTypeGetRank(actual))
    return false;
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t a = mlirShapedTypeGetDimSize(inferred, d);
    int64_t b = mlirShapedTypeGetDimSize(actual, d);
    if (!mlirShapedTypeIsDynamicSize(a) && !mlirShapedTypeIsDynamicSize(b) &&
        a != b)
      return false;
  }
  return true;
}

/* Whether the tensor type `t` has static dims whose bytes a 64-bit size
 * cannot count (an ONNX shape of 2^40 x 2^40): no buffer of it can exist,
 * and every size computed from it would wrap. Dynamic dims count as 1. */
static bool tooManyBytes(MlirType t) {
  return mlirTypeIsARankedTensor(t) && kilnShapedByteSize(t) == INT64_MAX;
}

static MlirLogicalResult checkResults(MlirOperation operation,
                                      const KilnGraphOpInfo *op,
                                      const MlirType *inferred, intptr_t n) {
  for (intptr_t i = 0; i < n; ++i) {
    MlirType actual = mlirValueGetType(mlirOperationGetResult(operation, i));
    if (tooManyBytes(actual)) {
      KilnStrBuf a = {0};
      kilnStrBufAppendType(&a, actual);
      kilnEmitErrorf(mlirOperationGetLocation(operation),
                     "'graph.%s' op result #%ld has type %s, more bytes than "
                     "a 64-bit size can count",
                     op->name, (long)i, kilnStrBufGet(&a));
      kilnStrBufDestroy(&a);
      return mlirLogicalResultFailure();
    }
    if (typesCompatible(inferred[i], actual))
      continue;
    KilnStrBuf a = {0}, b = {0};
    kilnStrBufAppendType(&a, actual);
    kilnStrBufAppendType(&b, inferred[i]);
    kilnEmitErrorf(mlirOperationGetLocation(operation),
                   "'graph.%s' op result #%ld has type %s, but its operands "
                   "and attributes imply %s",
                   op->name, (long)i, kilnStrBufGet(&a), kilnStrBufGet(&b));
    kilnStrBufDestroy(&a);
    kilnStrBufDestroy(&b);
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult verifyOp(MlirOperation operation,
                                  const KilnGraphOpInfo *op) {
  MlirLocation loc = mlirOperationGetLocation(operation);
  intptr_t numAttrs = mlirOperationGetNumAttributes(operation);
  intptr_t numOperands = mlirOperationGetNumOperands(operation);
  intptr_t numResults = mlirOperationGetNumResults(operation);
  MlirNamedAttribute *attrs = calloc((size_t)numAttrs + 1, sizeof(*attrs));
  MlirValue *operands =
      calloc((size_t)(numOperands + op->numOperands + 1), sizeof(*operands));
  MlirType *types = calloc((size_t)numResults + 1, sizeof(*types));
  if (!attrs || !operands || !types)
    abort();
  for (intptr_t i = 0; i < numAttrs; ++i)
    attrs[i] = mlirOperationGetAttribute(operation, i);

  MlirLogicalResult ok = kilnGraphCheckAttrs(op, attrs, numAttrs, loc);
  intptr_t positional = -1;
  if (mlirLogicalResultIsSuccess(ok)) {
    positional = kilnGraphPositionalOperands(operation, op, operands);
    ok = positional < 0 ? mlirLogicalResultFailure() : ok;
  }
  if (mlirLogicalResultIsSuccess(ok)) {
    KilnInferContext ic = {mlirOperationGetContext(operation),
                           loc,
                           op,
                           operands,
                           positional,
                           attrs,
                           numAttrs,
                           numResults,
                           types};
    ok = op->infer(&ic);
  }
  if (mlirLogicalResultIsSuccess(ok))
    ok = checkResults(operation, op, types, numResults);
  free(attrs);
  free(operands);
  free(types);
  return ok;
}

typedef struct WalkState {
  KilnGraphVerifyOptions options;
  int64_t numErrors;
} WalkState;

/* With require-static-shapes: every result of a graph op has a static
 * shape (what code generation needs before dynamic shapes are supported). */
static MlirLogicalResult checkStatic(MlirOperation operation,
                                     const KilnGraphOpInfo *op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(operation); ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(operation, i));
    if (mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t))
      continue;
    KilnStrBuf buf = {0};
    kilnStrBufAppendType(&buf, t);
    kilnEmitErrorf(mlirOperationGetLocation(operation),
                   "'graph.%s' op result #%ld has a dynamic shape (%s); "
                   "static shapes are required here",
                   op->name, (long)i, kilnStrBufGet(&buf));
    kilnStrBufDestroy(&buf);
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

static MlirWalkResult verifyCallback(MlirOperation operation, void *userData) {
  WalkState *st = userData;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(operation));
  if (name.length <= 6 || memcmp(name.data, "graph.", 6) != 0)
    return MlirWalkResultAdvance;
  const KilnGraphOpInfo *op = kilnGraphOpLookup(name);
  bool failed;
  if (!op) {
    kilnEmitErrorf(mlirOperationGetLocation(operation),
                   "'%.*s' is not in Kiln's graph op table", (int)name.length,
                   name.data);
    failed = true;
  } else {
    failed = mlirLogicalResultIsFailure(verifyOp(operation, op)) ||
             (st->options.requireStaticShapes &&
              mlirLogicalResultIsFailure(checkStatic(operation, op)));
  }
  st->numErrors += failed;
  if (failed && st->options.maxErrors > 0 &&
      st->numErrors >= st->options.maxErrors)
    return MlirWalkResultInterrupt;
  return MlirWalkResultAdvance;
}

MlirLogicalResult kilnGraphVerifyWithOptions(MlirOperation root,
                                             KilnGraphVerifyOptions options) {
  WalkState st = {options, 0};
  mlirOperationWalk(root, verifyCallback, &st, MlirWalkPreOrder);
  return st.numErrors ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}

MlirLogicalResult kilnGraphVerify(MlirOperation root) {
  KilnGraphVerifyOptions defaults = {false, 0};
  return kilnGraphVerifyWithOptions(root, defaults);
}

/* Option indices, as in kVerifyOptions below. */
enum { OPT_REQUIRE_STATIC, OPT_MAX_ERRORS };

static const KilnPassOptionSpec kVerifyOptions[] = {
    {"require-static-shapes", KILN_PASS_OPTION_BOOL, "false",
     "Also require every graph op result to have a static shape"},
    {"max-errors", KILN_PASS_OPTION_INT, "0",
     "Stop after this many bad ops (0: report them all)"},
};

static void runVerify(MlirOperation op, MlirExternalPass pass,
                      const KilnPassOptionValue *options) {
  KilnGraphVerifyOptions o = {options[OPT_REQUIRE_STATIC].b,
                              options[OPT_MAX_ERRORS].i};
  if (mlirLogicalResultIsFailure(kilnGraphVerifyWithOptions(op, o)))
    mlirExternalPassSignalFailure(pass);
}

const KilnPassInfo kilnGraphVerifyPass = {
    .argument = "graph-verify",
    .summary = "Check graph ops' attributes and shapes against ONNX rules",
    .anchor = NULL,
    .options = kVerifyOptions,
    .numOptions = sizeof(kVerifyOptions) / sizeof(kVerifyOptions[0]),
    .run = runVerify,
    .pipeline = NULL,
};

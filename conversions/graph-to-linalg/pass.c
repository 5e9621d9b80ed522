/* convert-graph-to-linalg: lowers every graph op of a function to linalg,
 * tensor, arith and math on tensors (see lower.h for the contract with the
 * per-family lowerings).
 *
 * The C API has no dialect-conversion framework, so this pass walks the
 * graph ops itself, in program order, and replaces each one. Before an op is
 * lowered its operands are looked through the tensor.cast ops earlier
 * replacements left behind, and its result types are inferred again from
 * those (possibly more static) operands. Small integer results that are
 * compile-time values (shape computations) become graph.constant. Constants
 * are lowered last, so lowerings can read constant operands. A final
 * legality check reports every graph op left, at its ONNX node. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower.h"
#include "dialects/graph/const_eval.h"
#include "dialects/graph/verify.h"
#include "kiln/diagnostics.h"
#include "kiln/passes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/ControlFlow.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Math.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "support/ir_build.h"
#include "support/op_list.h"
#include "support/schedule_record.h"

static bool isGraphOp(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length > 6 && !memcmp(name.data, "graph.", 6);
}

static bool isOpNamed(MlirOperation op, const char *name) {
  return kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

static MlirWalkResult collectGraphOps(MlirOperation op, void *userData) {
  if (isGraphOp(op))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* ---- Lowering tables ------------------------------------------------------
 */

static const KilnLowering *findInTable(const KilnLowering *table, int count,
                                       MlirStringRef name) {
  for (int i = 0; i < count; ++i)
    if (table[i].name && kilnStringRefEquals(name, table[i].name))
      return &table[i];
  return NULL;
}

static const KilnLowering *findLowering(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  name.data += 6; /* "graph." */
  name.length -= 6;
  const struct {
    const KilnLowering *table;
    const int *count;
  } families[] = {
      {kilnLowerElementwise, &kilnLowerElementwiseCount},
      {kilnLowerReduction, &kilnLowerReductionCount},
      {kilnLowerTensor, &kilnLowerTensorCount},
      {kilnLowerTensorIndex, &kilnLowerTensorIndexCount},
      {kilnLowerConv, &kilnLowerConvCount},
      {kilnLowerNN, &kilnLowerNNCount},
      {kilnLowerQuant, &kilnLowerQuantCount},
      {kilnLowerDataDependent, &kilnLowerDataDependentCount},
  };
  for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); ++i) {
    const KilnLowering *l =
        findInTable(families[i].table, *families[i].count, name);
    if (l)
      return l;
  }
  return NULL;
}

/* ---- KilnLowerOp helpers ----------------------------------------------------
 */

static KilnLowerStatus emitf(KilnLowerOp *l, const char *prefix,
                             const char *fmt, va_list ap) {
  KilnStrBuf buf = {0};
  kilnStrBufAppendf(&buf, prefix, l->info->name);
  kilnStrBufAppendv(&buf, fmt, ap);
  mlirEmitError(mlirOperationGetLocation(l->op), kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return KILN_LOWER_ERROR;
}

KilnLowerStatus kilnLowerUnsupported(KilnLowerOp *l, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emitf(l, "unsupported: 'graph.%s' ", fmt, ap);
  va_end(ap);
  return KILN_LOWER_UNSUPPORTED;
}

KilnLowerStatus kilnLowerError(KilnLowerOp *l, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emitf(l, "'graph.%s' op ", fmt, ap);
  va_end(ap);
  return KILN_LOWER_ERROR;
}

MlirValue kilnLowerOperand(KilnLowerOp *l, intptr_t i) {
  return kilnInferOperand(&l->infer, i);
}

MlirType kilnLowerResultType(KilnLowerOp *l, intptr_t i) {
  return l->infer.resultTypes[i];
}

bool kilnLowerIsDynamic(KilnLowerOp *l) {
  for (intptr_t i = 0; i < l->infer.numOperands; ++i) {
    MlirValue v = l->infer.operands[i];
    if (!mlirValueIsNull(v) && !kilnTypeIsStaticTensor(mlirValueGetType(v)))
      return true;
  }
  for (intptr_t i = 0; i < l->numResults; ++i)
    if (!kilnTypeIsStaticTensor(kilnLowerResultType(l, i)))
      return true;
  return false;
}

bool kilnLowerOnlyBatchDynamic(KilnLowerOp *l) {
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType result = kilnLowerResultType(l, 0);
  if (kilnRank(x) == 0 || l->numResults != 1 ||
      mlirShapedTypeGetRank(result) != kilnRank(x))
    return false;
  for (intptr_t i = 1; i < kilnRank(x); ++i)
    if (mlirShapedTypeIsDynamicSize(kilnDim(x, i)) ||
        mlirShapedTypeIsDynamicDim(result, i))
      return false;
  for (intptr_t i = 1; i < l->infer.numOperands; ++i) {
    MlirValue v = l->infer.operands[i];
    if (!mlirValueIsNull(v) && !kilnTypeIsStaticTensor(mlirValueGetType(v)))
      return false;
  }
  return true;
}

typedef struct PerSample {
  KilnLowerOp *l;
  KilnSampleFn fn;
} PerSample;

static void sampleBody(KilnBuilder *b, MlirValue n, MlirValue acc,
                       MlirValue *next, void *userData) {
  const PerSample *p = userData;
  MlirValue x = kilnLowerOperand(p->l, 0);
  MlirType result = kilnLowerResultType(p->l, 0);
  intptr_t r = kilnRank(x);
  MlirValue at[KILN_MAX_RANK], sizes[KILN_MAX_RANK];
  int64_t strides[KILN_MAX_RANK], shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    at[i] = i ? kilnConstIndex(b, 0) : n;
    sizes[i] = kilnConstIndex(b, i ? kilnDim(x, i) : 1);
    strides[i] = 1;
    shape[i] = i ? mlirShapedTypeGetDimSize(result, i) : 1;
  }
  MlirValue sample = kilnExtractSliceAt(b, x, at, sizes, strides);
  MlirType sampleType =
      kilnTensorType(r, shape, mlirShapedTypeGetElementType(result));
  *next = kilnInsertSliceAt(b, p->fn(p->l, b, sample, sampleType), acc, at);
}

KilnLowerStatus kilnLowerPerSample(KilnLowerOp *l, KilnSampleFn fn) {
  KilnBuilder *b = &l->b;
  MlirValue n = kilnDimValue(b, kilnLowerOperand(l, 0), 0);
  MlirValue sizes[KILN_MAX_RANK] = {n};
  MlirValue out = kilnEmptySized(b, kilnLowerResultType(l, 0), sizes);
  PerSample p = {l, fn};
  l->results[0] = kilnForLoop(b, n, out, sampleBody, &p);
  return KILN_LOWER_OK;
}

/* ---- Per sample, for any batch-separable op (KILN_LOWER_PER_SAMPLE) ------
 *
 *   %n = numpy's broadcast of the operands' batch dims   (each n or 1)
 *   scf.for %i = 0 to %n iter_args(%acc = tensor.empty(%n) : tensor<?x...>)
 *     %s_k = extract_slice %operand_k[%i or 0, 0..] [1, ...]   (static)
 *     %y = the op's own lowering on the %s_k, into tensor<1x...>
 *     insert_slice %y into %acc[%i, 0..]
 *
 * A batch dim that is 1 at run time is read at 0 for every sample: numpy's
 * broadcasting, as the dynamic lowering would do it. */

/* Whether `l` fits lowerSampleWise: one result whose only dynamic dim
 * is dim 0; every operand static (of a lower rank, or of batch 1: a
 * broadcast) or of the result's rank with only dim 0 dynamic. */
static bool sampleWiseFits(KilnLowerOp *l, bool onlyFirst) {
  if (l->numResults != 1)
    return false;
  MlirType result = kilnLowerResultType(l, 0);
  intptr_t r = mlirShapedTypeGetRank(result);
  if (r == 0 || !mlirShapedTypeIsDynamicDim(result, 0))
    return false;
  for (intptr_t i = 1; i < r; ++i)
    if (mlirShapedTypeIsDynamicDim(result, i))
      return false;
  for (intptr_t k = 0; k < l->infer.numOperands; ++k) {
    MlirValue v = l->infer.operands[k];
    if (mlirValueIsNull(v))
      continue;
    MlirType t = mlirValueGetType(v);
    if (kilnTypeIsStaticTensor(t)) {
      if (mlirShapedTypeGetRank(t) == r && mlirShapedTypeGetDimSize(t, 0) != 1)
        return false;
      continue;
    }
    if (mlirShapedTypeGetRank(t) != r || (onlyFirst && k > 0))
      return false;
    for (intptr_t i = 1; i < r; ++i)
      if (mlirShapedTypeIsDynamicDim(t, i))
        return false;
  }
  return true;
}

enum { kMaxSampleOperands = 8 }; /* more (a long Sum): lowered as a whole */

typedef struct SampleWise {
  KilnLowerOp *l;
  KilnLowerFn lower;
  MlirValue isOne[kMaxSampleOperands]; /* per dynamic operand: batch is 1 */
  KilnLowerStatus status;
} SampleWise;

static void sampleWiseBody(KilnBuilder *b, MlirValue n, MlirValue acc,
                           MlirValue *next, void *userData) {
  SampleWise *sw = userData;
  KilnLowerOp *l = sw->l;
  MlirValue operands[kMaxSampleOperands];
  for (intptr_t k = 0; k < l->infer.numOperands; ++k) {
    MlirValue v = operands[k] = l->infer.operands[k];
    if (mlirValueIsNull(v) || kilnTypeIsStaticTensor(mlirValueGetType(v)))
      continue;
    intptr_t r = kilnRank(v);
    MlirValue at[KILN_MAX_RANK], sizes[KILN_MAX_RANK];
    int64_t strides[KILN_MAX_RANK];
    for (intptr_t i = 0; i < r; ++i) {
      at[i] = i ? kilnConstIndex(b, 0)
                : kilnSelect(b, sw->isOne[k], kilnConstIndex(b, 0), n);
      sizes[i] = kilnConstIndex(b, i ? kilnDim(v, i) : 1);
      strides[i] = 1;
    }
    operands[k] = kilnExtractSliceAt(b, v, at, sizes, strides);
  }
  MlirType result = kilnLowerResultType(l, 0);
  intptr_t r = mlirShapedTypeGetRank(result);
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    shape[i] = i ? mlirShapedTypeGetDimSize(result, i) : 1;
  MlirType sampleType =
      kilnTensorType(r, shape, mlirShapedTypeGetElementType(result));
  MlirValue y = {NULL};
  KilnLowerOp s = *l;
  s.b = *b;
  s.infer.operands = operands;
  s.infer.resultTypes = &sampleType;
  s.results = &y;
  sw->status = sw->lower(&s);
  MlirValue at[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    at[i] = i ? kilnConstIndex(b, 0) : n;
  *next = sw->status == KILN_LOWER_OK ? kilnInsertSliceAt(b, y, acc, at) : acc;
}

/* The op per sample when its lowering allows (KILN_LOWER_PER_SAMPLE[_FIRST])
 * and it fits; false otherwise (then the caller lowers it as a whole). */
static bool lowerSampleWise(KilnLowerOp *l, const KilnLowering *lowering,
                            KilnLowerStatus *status) {
  bool onlyFirst = lowering->flags & KILN_LOWER_PER_SAMPLE_FIRST;
  if (!(lowering->flags &
        (KILN_LOWER_PER_SAMPLE | KILN_LOWER_PER_SAMPLE_FIRST)) ||
      !kilnLowerIsDynamic(l) || l->infer.numOperands > kMaxSampleOperands ||
      !sampleWiseFits(l, onlyFirst))
    return false;
  KilnBuilder *b = &l->b;
  SampleWise sw = {.l = l, .lower = lowering->lower};
  MlirValue one = kilnConstIndex(b, 1), count = {NULL};
  for (intptr_t k = 0; k < l->infer.numOperands; ++k) {
    MlirValue v = l->infer.operands[k];
    if (mlirValueIsNull(v) || kilnTypeIsStaticTensor(mlirValueGetType(v)))
      continue;
    MlirValue d = kilnDimValue(b, v, 0);
    sw.isOne[k] = kilnCmpI(b, "eq", d, one);
    count = mlirValueIsNull(count)
                ? d
                : kilnSelect(b, kilnCmpI(b, "eq", count, one), d, count);
  }
  for (intptr_t k = 0; k < l->infer.numOperands; ++k) {
    MlirValue v = l->infer.operands[k];
    if (mlirValueIsNull(v) || kilnTypeIsStaticTensor(mlirValueGetType(v)))
      continue;
    kilnAssert(b,
               kilnArith2(b, "arith.ori",
                          kilnCmpI(b, "eq", kilnDimValue(b, v, 0), count),
                          sw.isOne[k]),
               "inputs that broadcast together have dims of different sizes "
               "at run time, neither of them 1");
  }
  MlirValue sizes[KILN_MAX_RANK] = {count};
  MlirValue out = kilnEmptySized(b, kilnLowerResultType(l, 0), sizes);
  l->results[0] = kilnForLoop(b, count, out, sampleWiseBody, &sw);
  *status = sw.status;
  return true;
}

bool kilnLowerAxis(KilnLowerOp *l, int64_t axis, int64_t rank, int64_t *out) {
  if (axis < -rank || axis >= (rank ? rank : 1) || (rank == 0 && axis != 0)) {
    kilnLowerError(l, "axis %ld is out of range for rank %ld", (long)axis,
                   (long)rank);
    return false;
  }
  *out = axis < 0 ? axis + rank : axis;
  return true;
}

/* ---- One op
 * ------------------------------------------------------------------ */

/* `v`, or the static source of the tensor.cast that produced it. */
static MlirValue lookThroughCast(MlirValue v) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v))
    return v;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (isOpNamed(def, "tensor.cast")) {
    MlirValue src = mlirOperationGetOperand(def, 0);
    if (kilnTypeIsStaticTensor(mlirValueGetType(src)))
      return src;
  }
  return v;
}

/* Replaces the small integer results of `op` that are compile-time values
 * by graph.constant ops. Returns true when it did (the op is then dead). */
static bool foldToConstants(KilnBuilder *b, MlirOperation op,
                            const MlirType *types, intptr_t n) {
  enum { kMax = KILN_GRAPH_EVAL_MAX_ELEMENTS };
  MlirValue repl[8];
  if (n == 0 || n > 8)
    return false;
  for (intptr_t i = 0; i < n; ++i) {
    MlirType elt = mlirShapedTypeGetElementType(types[i]);
    if (!kilnTypeIsStaticTensor(types[i]) || !mlirTypeIsAInteger(elt) ||
        kilnNumElements(types[i]) > kMax)
      return false;
  }
  /* Evaluate every result once; fold only when all are known. */
  int64_t *values = malloc((size_t)n * kMax * sizeof(int64_t));
  if (!values)
    abort();
  bool known = true;
  for (intptr_t i = 0; i < n && known; ++i)
    known = kilnGraphEvalConstantInts(mlirOperationGetResult(op, i),
                                      values + i * kMax,
                                      kMax) == kilnNumElements(types[i]);
  for (intptr_t i = 0; i < n && known; ++i) {
    const int64_t *v = values + i * kMax;
    MlirType elt = mlirShapedTypeGetElementType(types[i]);
    intptr_t count = kilnNumElements(types[i]);
    MlirAttribute *elts = malloc((count ? count : 1) * sizeof(MlirAttribute));
    if (!elts)
      abort();
    for (intptr_t k = 0; k < count; ++k)
      elts[k] = mlirIntegerAttrGet(
          elt, mlirIntegerTypeGetWidth(elt) == 1 ? v[k] != 0 : v[k]);
    MlirNamedAttribute value = kilnNamedAttr(
        b->ctx, "value", mlirDenseElementsAttrGet(types[i], count, elts));
    free(elts);
    repl[i] = kilnBuildOp1(b, "graph.constant", types[i], 0, NULL, 1, &value);
  }
  free(values);
  if (!known)
    return false;
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue old = mlirOperationGetResult(op, i);
    mlirValueReplaceAllUsesOfWith(
        old, kilnCastTo(b, repl[i], mlirValueGetType(old)));
  }
  return true;
}

static void emitDynamic(MlirOperation op, const KilnGraphOpInfo *info,
                        const char *what, intptr_t i, MlirType t) {
  KilnStrBuf buf = {0};
  kilnStrBufAppendf(&buf,
                    "unsupported: 'graph.%s' %s #%ld has a dynamic shape (",
                    info->name, what, (long)i);
  kilnStrBufAppendType(&buf, t);
  kilnStrBufAppendf(&buf, "); Kiln lowers this op for static shapes only "
                          "(size the input dims with --dim or --input-shape, "
                          "and bind shape-determining inputs)");
  mlirEmitError(mlirOperationGetLocation(op), kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
}

/* Replaces op's results by l->results (cast to the declared types); erases
 * op. Fails when a used result has no replacement. */
static KilnLowerStatus replaceOp(KilnLowerOp *l) {
  for (intptr_t i = 0; i < l->numResults; ++i) {
    MlirValue old = mlirOperationGetResult(l->op, i);
    if (mlirValueIsNull(l->results[i])) {
      if (!mlirOpOperandIsNull(mlirValueGetFirstUse(old)))
        return kilnLowerUnsupported(l,
                                    "result #%ld is used but was not "
                                    "lowered",
                                    (long)i);
      continue;
    }
    mlirValueReplaceAllUsesOfWith(
        old, kilnCastTo(&l->b, l->results[i], mlirValueGetType(old)));
  }
  mlirOperationDestroy(l->op);
  return KILN_LOWER_OK;
}

/* Whether a lowering can take a value of type `t`: a static tensor, or
 * with `dynamicOk`, any ranked tensor. */
static bool isLowerable(MlirType t, bool dynamicOk) {
  return kilnTypeIsStaticTensor(t) || (dynamicOk && mlirTypeIsARankedTensor(t));
}

/* Of an inferred type (maybe null) and the declared one, the one with
 * more static dims. */
static MlirType moreStatic(MlirType inferred, MlirType declared) {
  if (mlirTypeIsNull(inferred) || !mlirTypeIsARankedTensor(inferred))
    return declared;
  if (!mlirTypeIsARankedTensor(declared))
    return inferred;
  intptr_t a = 0, b = 0;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(inferred); ++d)
    a += !mlirShapedTypeIsDynamicDim(inferred, d);
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(declared); ++d)
    b += !mlirShapedTypeIsDynamicDim(declared, d);
  return a >= b ? inferred : declared;
}

static KilnLowerStatus lowerOp(MlirOperation op, const KilnLowering *lowering,
                               int convIm2col, bool convChannelsInner,
                               bool genericProducts) {
  const KilnGraphOpInfo *info =
      kilnGraphOpLookup(mlirIdentifierStr(mlirOperationGetName(op)));
  if (!info)
    return KILN_LOWER_UNSUPPORTED; /* not a graph op the table knows */
  intptr_t nFlat = mlirOperationGetNumOperands(op);
  intptr_t nRes = mlirOperationGetNumResults(op);
  intptr_t nAttrs = mlirOperationGetNumAttributes(op);
  MlirValue *operands =
      calloc(info->numOperands + nFlat + 1, sizeof(MlirValue));
  MlirType *types = calloc(nRes + 1, sizeof(MlirType));
  MlirValue *results = calloc(nRes + 1, sizeof(MlirValue));
  MlirNamedAttribute *attrs = calloc(nAttrs + 1, sizeof(MlirNamedAttribute));
  if (!operands || !types || !results || !attrs)
    abort();
  KilnLowerStatus status = KILN_LOWER_ERROR;
  intptr_t nPos = kilnGraphPositionalOperands(op, info, operands);
  if (nPos < 0)
    goto done;
  for (intptr_t i = 0; i < nAttrs; ++i)
    attrs[i] = mlirOperationGetAttribute(op, i);
  KilnLowerOp l = {
      .op = op,
      .info = info,
      .infer = {mlirOperationGetContext(op), mlirOperationGetLocation(op), info,
                operands, nPos, attrs, nAttrs, nRes, types},
      .b = {mlirOperationGetContext(op), mlirOperationGetLocation(op),
            mlirOperationGetBlock(op), op},
      .numResults = nRes,
      .results = results,
      .convIm2col = convIm2col,
      .convChannelsInner = convChannelsInner,
      .genericProducts = genericProducts,
  };
  bool dynamicOk = lowering->flags & KILN_LOWER_DYNAMIC;
  for (intptr_t i = 0; i < nPos; ++i) {
    operands[i] = lookThroughCast(operands[i]);
    if (!mlirValueIsNull(operands[i]) &&
        !isLowerable(mlirValueGetType(operands[i]), dynamicOk)) {
      emitDynamic(op, info, "operand", i, mlirValueGetType(operands[i]));
      status = KILN_LOWER_UNSUPPORTED;
      goto done;
    }
  }
  /* Infer again from the looked-through operands; fall back on the declared
   * types where inference cannot do better. */
  if (mlirLogicalResultIsFailure(info->infer(&l.infer)))
    goto done;
  for (intptr_t i = 0; i < nRes; ++i) {
    MlirType declared = mlirValueGetType(mlirOperationGetResult(op, i));
    if (mlirTypeIsNull(types[i]) || !kilnTypeIsStaticTensor(types[i]))
      types[i] = moreStatic(types[i], declared);
    if (!isLowerable(types[i], dynamicOk)) {
      emitDynamic(op, info, "result", i, declared);
      status = KILN_LOWER_UNSUPPORTED;
      goto done;
    }
  }
  if (foldToConstants(&l.b, op, types, nRes)) {
    mlirOperationDestroy(op);
    status = KILN_LOWER_OK;
    goto done;
  }
  if (!lowerSampleWise(&l, lowering, &status))
    status = lowering->lower(&l);
  if (status == KILN_LOWER_OK)
    status = replaceOp(&l);
done:
  free(operands);
  free(types);
  free(results);
  free(attrs);
  return status;
}

static KilnLowerStatus lowerConstant(MlirOperation op) {
  MlirValue result = mlirOperationGetResult(op, 0);
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(result))) {
    mlirOperationDestroy(op);
    return KILN_LOWER_OK;
  }
  MlirAttribute value = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("value"));
  KilnBuilder b = {mlirOperationGetContext(op), mlirOperationGetLocation(op),
                   mlirOperationGetBlock(op), op};
  MlirValue c = mlirAttributeIsNull(value) ? (MlirValue){NULL}
                                           : kilnConstantTensor(&b, value);
  if (mlirValueIsNull(c)) {
    mlirEmitError(mlirOperationGetLocation(op),
                  "unsupported: 'graph.constant' with this element type");
    return KILN_LOWER_UNSUPPORTED;
  }
  mlirValueReplaceAllUsesOfWith(result,
                                kilnCastTo(&b, c, mlirValueGetType(result)));
  mlirOperationDestroy(op);
  return KILN_LOWER_OK;
}

/* ---- Function results ---------------------------------------------------- */

/* Makes the function's result types as static as the returned values: the
 * caller-allocated-outputs ABI needs static output shapes. */
static void refineResultTypes(MlirOperation func) {
  if (!isOpNamed(func, "func.func"))
    return;
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock block = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(block) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(block)))
    return;
  MlirOperation ret = mlirBlockGetTerminator(block);
  if (mlirOperationIsNull(ret) || !isOpNamed(ret, "func.return"))
    return;
  MlirAttribute fnTypeAttr = mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type"));
  MlirType fnType = mlirTypeAttrGetValue(fnTypeAttr);
  intptr_t nIn = mlirFunctionTypeGetNumInputs(fnType);
  intptr_t nOut = mlirOperationGetNumOperands(ret);
  MlirType *ins = malloc((nIn + 1) * sizeof(MlirType));
  MlirType *outs = malloc((nOut + 1) * sizeof(MlirType));
  if (!ins || !outs)
    abort();
  for (intptr_t i = 0; i < nIn; ++i)
    ins[i] = mlirFunctionTypeGetInput(fnType, i);
  for (intptr_t i = 0; i < nOut; ++i) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    MlirValue src = lookThroughCast(v);
    if (!mlirValueEqual(src, v))
      mlirOperationSetOperand(ret, i, src);
    outs[i] = mlirValueGetType(src);
  }
  MlirType refined =
      mlirFunctionTypeGet(mlirOperationGetContext(func), nIn, ins, nOut, outs);
  mlirOperationSetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type"),
      mlirTypeAttrGet(refined));
  free(ins);
  free(outs);
}

/* ---- The pass
 * ------------------------------------------------------------------ */

enum {
  kOptConvIm2col,
  kOptIm2colGather,
  kOptConvChannelsInner,
  kOptGenericProducts,
  kNumOptions
};

extern const KilnPassInfo kilnConvertGraphToLinalgPass;

unsigned kilnLowerFlags(MlirOperation op) {
  const KilnLowering *lowering = findLowering(op);
  return lowering ? lowering->flags : 0;
}

static void runConvertGraphToLinalg(MlirOperation root, MlirExternalPass pass,
                                    const KilnPassOptionValue *options) {
  KilnOpList ops = {0}, failed = {0};
  if (isOpNamed(root, "func.func"))
    kilnLowerModelPerSample(root);
  mlirOperationWalk(root, collectGraphOps, &ops, MlirWalkPreOrder);
  bool ok = true;
  for (size_t i = 0; i < ops.len; ++i) {
    MlirOperation op = ops.data[i];
    if (isOpNamed(op, "graph.constant"))
      continue;
    const KilnLowering *lowering = findLowering(op);
    if (!lowering)
      continue; /* reported by the legality check */
    /* A tuned workload's own conv form (schedule_record.h). */
    KilnPassOptionValue own[kNumOptions];
    kilnScheduleRecordGetOptions(op, &kilnConvertGraphToLinalgPass, options,
                                 own);
    int im2col = !own[kOptConvIm2col].b ? 0 : own[kOptIm2colGather].b ? 2 : 1;
    if (lowerOp(op, lowering, im2col, own[kOptConvChannelsInner].b,
                own[kOptGenericProducts].b) != KILN_LOWER_OK) {
      kilnOpListPush(&failed, op);
      ok = false;
    }
  }
  /* Constants last: lowerings above read them. Walk again: folding made
   * new ones. */
  kilnOpListClear(&ops);
  mlirOperationWalk(root, collectGraphOps, &ops, MlirWalkPreOrder);
  for (size_t i = 0; i < ops.len; ++i)
    if (isOpNamed(ops.data[i], "graph.constant") &&
        lowerConstant(ops.data[i]) != KILN_LOWER_OK) {
      kilnOpListPush(&failed, ops.data[i]);
      ok = false;
    }
  /* Legality: every graph op left that has not reported an error. */
  kilnOpListClear(&ops);
  mlirOperationWalk(root, collectGraphOps, &ops, MlirWalkPreOrder);
  for (size_t i = 0; i < ops.len; ++i) {
    if (kilnOpListContains(&failed, ops.data[i]))
      continue;
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(ops.data[i]));
    kilnEmitErrorf(mlirOperationGetLocation(ops.data[i]),
                   "unsupported: no lowering for '%.*s' to linalg",
                   (int)name.length, name.data);
    ok = false;
  }
  if (ok)
    refineResultTypes(root);
  kilnOpListDestroy(&ops);
  kilnOpListDestroy(&failed);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__arith__, mlirGetDialectHandle__linalg__,
    mlirGetDialectHandle__math__,  mlirGetDialectHandle__tensor__,
    mlirGetDialectHandle__scf__,   mlirGetDialectHandle__cf__,
};

static const KilnPassOptionSpec kOptions[] = {
    [kOptConvIm2col] = {"conv-im2col", KILN_PASS_OPTION_BOOL, "true",
                        "Lower plain 2-D convs as im2col + one contraction "
                        "(false: linalg's named conv ops)"},
    [kOptIm2colGather] = {"im2col-gather", KILN_PASS_OPTION_BOOL, "false",
                          "Build every im2col window tensor as one gather "
                          "(one GPU kernel), strided convs too (false: "
                          "those copy tap by tap)"},
    [kOptConvChannelsInner] = {"conv-channels-inner", KILN_PASS_OPTION_BOOL,
                               "false",
                               "Loop over a conv's output channels innermost "
                               "(filter transposed at compile time) when its "
                               "output plane would leave a mostly idle "
                               "remainder vector of pixels (7x7, 5x5, 1x1) "
                               "and its window matrix is at most 256 KB; off "
                               "until measured on whole models "
                               "(docs/cpu-codegen.md)"},
    [kOptGenericProducts] = {"generic-products", KILN_PASS_OPTION_BOOL, "false",
                             "Static MatMul and Gemm products as "
                             "linalg.generic, never linalg.matmul or "
                             "batch_matmul (the GPU pipeline: elementwise "
                             "producers, a cast to bf16, then fuse into them)"},
};

const KilnPassInfo kilnConvertGraphToLinalgPass = {
    .argument = "convert-graph-to-linalg",
    .summary = "Lower graph ops to linalg, tensor, arith and math on tensors",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runConvertGraphToLinalg,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

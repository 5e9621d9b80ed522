/* Shared helpers for graph-op type inference (see infer.h). */
#include "dialects/graph/infer.h"

#include <stdarg.h>
#include <string.h>

#include "dialects/graph/const_eval.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"

MlirValue kilnInferOperand(const KilnInferContext *c, intptr_t i) {
  if (i < 0 || i >= c->numOperands)
    return (MlirValue){NULL};
  return c->operands[i];
}

MlirLogicalResult kilnInferError(const KilnInferContext *c, const char *fmt,
                                 ...) {
  KilnStrBuf buf = {0};
  kilnStrBufAppendf(&buf, "'graph.%s' op ", c->op->name);
  va_list ap;
  va_start(ap, fmt);
  kilnStrBufAppendv(&buf, fmt, ap);
  va_end(ap);
  mlirEmitError(c->loc, kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

MlirType kilnInferRankedOperand(const KilnInferContext *c, intptr_t i) {
  MlirValue v = kilnInferOperand(c, i);
  const char *name = i < c->op->numOperands ? c->op->operands[i].name
                     : c->op->numOperands
                         ? c->op->operands[c->op->numOperands - 1].name
                         : "?";
  if (mlirValueIsNull(v)) {
    kilnInferError(c, "operand #%ld ('%s') is missing", (long)i, name);
    return (MlirType){NULL};
  }
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t)) {
    KilnStrBuf buf = {0};
    kilnStrBufAppendType(&buf, t);
    kilnInferError(c, "operand #%ld ('%s') must be a ranked tensor, got %s",
                   (long)i, name, kilnStrBufGet(&buf));
    kilnStrBufDestroy(&buf);
    return (MlirType){NULL};
  }
  if (mlirShapedTypeGetRank(t) > KILN_MAX_RANK) {
    kilnInferError(c,
                   "operand #%ld ('%s') has rank %ld, above Kiln's limit "
                   "of %d",
                   (long)i, name, (long)mlirShapedTypeGetRank(t),
                   KILN_MAX_RANK);
    return (MlirType){NULL};
  }
  return t;
}

MlirAttribute kilnInferAttr(const KilnInferContext *c, const char *name) {
  for (intptr_t i = 0; i < c->numAttrs; ++i) {
    MlirIdentifier id = c->attrs[i].name;
    if (kilnStringRefEquals(mlirIdentifierStr(id), name))
      return c->attrs[i].attribute;
  }
  return (MlirAttribute){NULL};
}

int64_t kilnInferAttrInt(const KilnInferContext *c, const char *name,
                         int64_t dflt) {
  MlirAttribute a = kilnInferAttr(c, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return dflt;
  return mlirIntegerAttrGetValueInt(a);
}

float kilnInferAttrFloat(const KilnInferContext *c, const char *name,
                         float dflt) {
  MlirAttribute a = kilnInferAttr(c, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAFloat(a))
    return dflt;
  return (float)mlirFloatAttrGetValueDouble(a);
}

MlirStringRef kilnInferAttrString(const KilnInferContext *c, const char *name,
                                  const char *dflt) {
  MlirAttribute a = kilnInferAttr(c, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAString(a))
    return mlirStringRefCreateFromCString(dflt);
  return mlirStringAttrGetValue(a);
}

intptr_t kilnInferAttrInts(const KilnInferContext *c, const char *name,
                           int64_t *out, intptr_t cap) {
  MlirAttribute a = kilnInferAttr(c, name);
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseI64Array(a))
    return -1;
  intptr_t n = mlirDenseArrayGetNumElements(a);
  for (intptr_t i = 0; i < n && i < cap; ++i)
    out[i] = mlirDenseI64ArrayGetElement(a, i);
  return n;
}

intptr_t kilnInferConstantInts(const KilnInferContext *c, intptr_t i,
                               int64_t *out, intptr_t cap) {
  return kilnGraphEvalConstantInts(kilnInferOperand(c, i), out, cap);
}

static void appendShape(KilnStrBuf *buf, MlirType t) {
  kilnStrBufAppendType(buf, t);
}

MlirLogicalResult kilnInferBroadcast(const KilnInferContext *c, MlirType a,
                                     MlirType b, int64_t *out,
                                     intptr_t *outRank) {
  intptr_t ra = mlirShapedTypeGetRank(a), rb = mlirShapedTypeGetRank(b);
  intptr_t r = ra > rb ? ra : rb;
  for (intptr_t k = 0; k < r; ++k) {
    /* Align from the right: dimension k of the result. */
    intptr_t ia = k - (r - ra), ib = k - (r - rb);
    int64_t da = ia >= 0 ? mlirShapedTypeGetDimSize(a, ia) : 1;
    int64_t db = ib >= 0 ? mlirShapedTypeGetDimSize(b, ib) : 1;
    bool dynA = mlirShapedTypeIsDynamicSize(da);
    bool dynB = mlirShapedTypeIsDynamicSize(db);
    if (!dynA && !dynB && da != db && da != 1 && db != 1) {
      KilnStrBuf buf = {0};
      appendShape(&buf, a);
      kilnStrBufAppend(&buf, " and ", 5);
      appendShape(&buf, b);
      kilnInferError(c,
                     "operands are not broadcast-compatible: %s "
                     "(dimension %ld: %ld vs %ld)",
                     kilnStrBufGet(&buf), (long)k, (long)da, (long)db);
      kilnStrBufDestroy(&buf);
      return mlirLogicalResultFailure();
    }
    if (dynA && dynB)
      out[k] = da;
    else if (dynA)
      out[k] = db == 1 ? da : db;
    else if (dynB)
      out[k] = da == 1 ? db : da;
    else
      out[k] = da == 1 ? db : da;
  }
  *outRank = r;
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnInferNormalizeAxis(const KilnInferContext *c,
                                         const char *what, int64_t axis,
                                         int64_t rank, int64_t *out) {
  if (axis < -rank || axis >= rank || (rank == 0 && axis != 0))
    return kilnInferError(c, "%s %ld is out of range for rank %ld", what,
                          (long)axis, (long)rank);
  *out = axis < 0 ? axis + rank : axis;
  return mlirLogicalResultSuccess();
}

MlirType kilnInferTensorType(intptr_t rank, const int64_t *shape,
                             MlirType elementType) {
  return mlirRankedTensorTypeGet(rank, shape, elementType,
                                 mlirAttributeGetNull());
}

int kilnInferAttrChoice(const KilnInferContext *c, const char *name,
                        const char *dflt, const char *const *names) {
  MlirStringRef s = kilnInferAttrString(c, name, dflt);
  for (int i = 0; names[i]; ++i)
    if (kilnStringRefEquals(s, names[i]))
      return i;
  return -1;
}

intptr_t kilnInferConstantFloats(const KilnInferContext *c, intptr_t i,
                                 double *out, intptr_t cap) {
  MlirValue v = kilnInferOperand(c, i);
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v))
    return -1;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(def)),
                           "graph.constant"))
    return -1;
  MlirAttribute value = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(value) || !mlirAttributeIsADenseElements(value))
    return -1;
  MlirType e = mlirShapedTypeGetElementType(mlirAttributeGetType(value));
  if (!mlirTypeIsAF32(e) && !mlirTypeIsAF64(e))
    return -1;
  bool splat = mlirDenseElementsAttrIsSplat(value);
  intptr_t n = mlirElementsAttrGetNumElements(value);
  for (intptr_t k = 0; k < n && k < cap; ++k) {
    intptr_t pos = splat ? 0 : k;
    out[k] = mlirTypeIsAF32(e)
                 ? mlirDenseElementsAttrGetFloatValue(value, pos)
                 : mlirDenseElementsAttrGetDoubleValue(value, pos);
  }
  return n;
}

/* Helpers shared by the Tensor family's files (declared in
 * ops_tensor_index.h): error-message text, operand checks for index vectors,
 * axes, scalars and flags. */
#include <assert.h>
#include <string.h>

#include "dialects/graph/infer.h"
#include "dialects/graph/ops_tensor_index.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"

static KilnTensorText textOf(const KilnStrBuf *buf) {
  KilnTensorText t;
  const char *src = kilnStrBufGet(buf);
  size_t n = strlen(src);
  if (n >= sizeof(t.s))
    n = sizeof(t.s) - 4, memcpy(t.s + n, "...", 4);
  else
    t.s[n] = '\0';
  memcpy(t.s, src, n);
  return t;
}

KilnTensorText kilnTensorIntsText(const int64_t *v, intptr_t n) {
  KilnStrBuf buf = {0};
  kilnStrBufAppend(&buf, "[", 1);
  for (intptr_t i = 0; i < n; ++i) {
    if (i)
      kilnStrBufAppend(&buf, ", ", 2);
    if (isDynamic(v[i]))
      kilnStrBufAppend(&buf, "?", 1);
    else
      kilnStrBufAppendf(&buf, "%ld", (long)v[i]);
  }
  kilnStrBufAppend(&buf, "]", 1);
  KilnTensorText t = textOf(&buf);
  kilnStrBufDestroy(&buf);
  return t;
}

KilnTensorText kilnTensorTypeText(MlirType type) {
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, type);
  KilnTensorText t = textOf(&buf);
  kilnStrBufDestroy(&buf);
  return t;
}

/* No op of this family has a variadic operand, so the index is the
 * declared position. */
const char *kilnTensorOperandName(const KilnInferContext *c, intptr_t i) {
  assert(i >= 0 && i < c->op->numOperands);
  return c->op->operands[i].name;
}

void kilnTensorSetAllDynamic(KilnInferContext *c, intptr_t rank, MlirType elt) {
  int64_t dims[KILN_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i)
    dims[i] = dynamicDim();
  setResult(c, 0, rank, dims, elt);
}

MlirLogicalResult kilnTensorIndexVector(const KilnInferContext *c, intptr_t i,
                                        KilnTensorIndexKind kind,
                                        intptr_t *len) {
  MlirType t = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(t))
    return mlirLogicalResultFailure();
  MlirType elt = elementOf(t);
  bool intOk = isSignlessInt(elt, 64) ||
               (kind == KILN_TENSOR_INDEX_I32_OR_I64 && isSignlessInt(elt, 32));
  if (mlirShapedTypeGetRank(t) != 1 || !intOk)
    return kilnInferError(c, "operand '%s' must be a 1-D tensor of %s, got %s",
                          kilnTensorOperandName(c, i),
                          kind == KILN_TENSOR_INDEX_I64 ? "i64" : "i32 or i64",
                          kilnTensorTypeText(t).s);
  int64_t d = mlirShapedTypeGetDimSize(t, 0);
  *len = isDynamic(d) ? -1 : (intptr_t)d;
  return mlirLogicalResultSuccess();
}

/* Normalizes the `n` axes read from operand `name` against `rank` in place
 * ([-rank, rank) -> [0, rank)) and rejects duplicates. */
static MlirLogicalResult normalizeAxes(const KilnInferContext *c,
                                       const char *name, int64_t *axes,
                                       intptr_t n, int64_t rank) {
  int64_t orig[KILN_MAX_RANK];
  memcpy(orig, axes, (size_t)n * sizeof(int64_t));
  for (intptr_t k = 0; k < n; ++k) {
    if (axes[k] < -rank || axes[k] >= rank)
      return kilnInferError(c,
                            "operand '%s' %s has axis %ld, out of range "
                            "for rank %ld",
                            name, kilnTensorIntsText(orig, n).s, (long)orig[k],
                            (long)rank);
    if (axes[k] < 0)
      axes[k] += rank;
    for (intptr_t j = 0; j < k; ++j)
      if (axes[j] == axes[k])
        return kilnInferError(c, "operand '%s' %s repeats axis %ld", name,
                              kilnTensorIntsText(orig, n).s, (long)axes[k]);
  }
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnTensorReadAxes(const KilnInferContext *c, intptr_t i,
                                     intptr_t n, int64_t rank, int64_t *axes,
                                     bool *known) {
  *known = constantInts(c, i, axes, n);
  if (!*known)
    return mlirLogicalResultSuccess();
  return normalizeAxes(c, kilnTensorOperandName(c, i), axes, n, rank);
}

MlirLogicalResult kilnTensorScalarOperand(const KilnInferContext *c, intptr_t i,
                                          MlirType *type) {
  *type = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(*type))
    return mlirLogicalResultFailure();
  intptr_t r = mlirShapedTypeGetRank(*type);
  int64_t d = r == 1 ? mlirShapedTypeGetDimSize(*type, 0) : 1;
  if (r > 1 || (r == 1 && !isDynamic(d) && d != 1))
    return kilnInferError(c,
                          "operand '%s' must be a scalar (or a 1-D tensor "
                          "of one element), got %s",
                          kilnTensorOperandName(c, i),
                          kilnTensorTypeText(*type).s);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnTensorFlagAttr(const KilnInferContext *c,
                                     const char *attr, int64_t dflt,
                                     int64_t *out) {
  *out = kilnInferAttrInt(c, attr, dflt);
  if (*out != 0 && *out != 1)
    return kilnInferError(c, "attribute '%s' must be 0 or 1, got %ld", attr,
                          (long)*out);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnTensorCheckEnum(const KilnInferContext *c,
                                      const char *attr, MlirStringRef value,
                                      const char *const *allowed) {
  KilnStrBuf list = {0};
  for (const char *const *a = allowed; *a; ++a) {
    if (kilnStringRefEquals(value, *a)) {
      kilnStrBufDestroy(&list);
      return mlirLogicalResultSuccess();
    }
    kilnStrBufAppendf(&list, "%s%s", a == allowed ? "" : ", ", *a);
  }
  kilnInferError(c, "attribute '%s' must be one of %s, got \"%.*s\"", attr,
                 kilnStrBufGet(&list), (int)value.length, value.data);
  kilnStrBufDestroy(&list);
  return mlirLogicalResultFailure();
}

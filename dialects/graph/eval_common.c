#include "dialects/graph/eval_common.h"

#include "dialects/graph/infer.h"
#include "mlir-c/BuiltinAttributes.h"

bool kilnEvalIntBinary(KilnEvalIntOp op, int64_t a, int64_t b, int64_t *r) {
  uint64_t ua = (uint64_t)a, ub = (uint64_t)b;
  switch (op) {
  case KILN_EVAL_ADD:
    *r = (int64_t)(ua + ub);
    return true;
  case KILN_EVAL_SUB:
    *r = (int64_t)(ua - ub);
    return true;
  case KILN_EVAL_MUL:
    *r = (int64_t)(ua * ub);
    return true;
  case KILN_EVAL_DIV: /* integer Div truncates toward zero, as C does */
    if (b == 0 || (a == INT64_MIN && b == -1))
      return false;
    *r = a / b;
    return true;
  case KILN_EVAL_MIN:
    *r = a < b ? a : b;
    return true;
  case KILN_EVAL_MAX:
    *r = a > b ? a : b;
    return true;
  case KILN_EVAL_MOD:
  case KILN_EVAL_FMOD:
    if (b == 0)
      return false;
    *r = b == -1 ? 0 : a % b; /* INT64_MIN % -1 overflows in C */
    if (op == KILN_EVAL_MOD && *r != 0 && (*r < 0) != (b < 0))
      *r = (int64_t)((uint64_t)*r + ub);
    return true;
  }
  return false;
}

bool kilnEvalBroadcastStrides(intptr_t inRank, const int64_t *inShape,
                              intptr_t outRank, const int64_t *outShape,
                              intptr_t *strides) {
  if (inRank > outRank)
    return false;
  intptr_t stride = 1;
  for (intptr_t d = outRank - 1; d >= 0; --d) {
    intptr_t di = d - (outRank - inRank);
    if (di < 0) {
      strides[d] = 0;
      continue;
    }
    int64_t s = inShape[di];
    if (s != 1 && s != outShape[d])
      return false;
    strides[d] = s == 1 ? 0 : stride;
    stride *= (intptr_t)s;
  }
  return true;
}

intptr_t kilnEvalBroadcastOffset(intptr_t outRank, const int64_t *outShape,
                                 const intptr_t *strides, intptr_t linear) {
  intptr_t offset = 0;
  for (intptr_t d = outRank - 1; d >= 0; --d) {
    intptr_t dim = (intptr_t)outShape[d];
    offset += (linear % dim) * strides[d];
    linear /= dim;
  }
  return offset;
}

bool kilnEvalTransposeStrides(MlirOperation op, intptr_t rank,
                              const int64_t *inShape, int64_t *outShape,
                              intptr_t *strides) {
  if (rank > KILN_MAX_RANK)
    return false;
  MlirAttribute p = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("perm"));
  bool hasPerm = !mlirAttributeIsNull(p) && mlirAttributeIsADenseI64Array(p);
  if (hasPerm && mlirDenseArrayGetNumElements(p) != rank)
    return false;
  intptr_t strideIn[KILN_MAX_RANK], stride = 1;
  for (intptr_t d = rank - 1; d >= 0; --d) {
    strideIn[d] = stride;
    stride *= (intptr_t)inShape[d];
  }
  bool seen[KILN_MAX_RANK] = {false};
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t v = hasPerm ? mlirDenseI64ArrayGetElement(p, d) : rank - 1 - d;
    if (v < 0 || v >= rank || seen[v])
      return false;
    seen[v] = true;
    outShape[d] = inShape[v];
    strides[d] = strideIn[v];
  }
  return true;
}

bool kilnEvalScatterNDOffsets(intptr_t rank, const int64_t *dataShape,
                              const int64_t *indices, intptr_t numTuples,
                              intptr_t k, intptr_t *offsets) {
  if (k < 0 || k > rank)
    return false;
  intptr_t sliceStride[KILN_MAX_RANK], stride = 1;
  for (intptr_t d = rank - 1; d >= 0; --d) {
    sliceStride[d] = stride;
    stride *= (intptr_t)dataShape[d];
  }
  for (intptr_t t = 0; t < numTuples; ++t) {
    intptr_t offset = 0;
    for (intptr_t j = 0; j < k; ++j) {
      int64_t i = indices[t * k + j];
      i = i < 0 ? i + dataShape[j] : i;
      if (i < 0 || i >= dataShape[j])
        return false;
      offset += (intptr_t)i * sliceStride[j];
    }
    offsets[t] = offset;
  }
  return true;
}

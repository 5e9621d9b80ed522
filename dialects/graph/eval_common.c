#include "dialects/graph/eval_common.h"

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

/* Compile-time evaluation of small integer tensors (see const_eval.h).
 *
 * Values live in one fixed pool per top-level call, used as a stack: an op
 * evaluates its operands (each pushed on the pool), pushes its result, and
 * the caller moves that result down over the operands. So the memory is
 * bounded up front and released all at once; running out of pool, depth or
 * steps just means "not a compile-time value". */
#include "dialects/graph/const_eval.h"
#include "support/ir_build.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/eval_common.h"
#include "dialects/graph/infer.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* Pool slots (int64) for all values alive at once in one evaluation. */
#define POOL_SLOTS (16 * KILN_GRAPH_EVAL_MAX_ELEMENTS)
/* Op visits per top-level call: bounds DAGs that fan out (x + x + ...). */
#define MAX_STEPS 4096

typedef struct Val {
  intptr_t rank;
  int64_t shape[KILN_MAX_RANK];
  intptr_t n;    /* element count */
  int64_t *data; /* in the pool */
} Val;

typedef struct Eval {
  int64_t *pool;
  intptr_t used;
  int steps;
} Eval;

static bool evalValue(Eval *e, MlirValue v, int depth, Val *out);

/*===--------------------------------------------------------------------===*
 * Helpers
 *===--------------------------------------------------------------------===*/

/* Pushes an uninitialized value of the given shape; false if it is too big
 * or the pool is full. */
static bool alloc(Eval *e, intptr_t rank, const int64_t *shape, Val *out) {
  if (rank < 0 || rank > KILN_MAX_RANK)
    return false;
  intptr_t n = 1;
  for (intptr_t d = 0; d < rank; ++d) {
    if (shape[d] < 0 || shape[d] > KILN_GRAPH_EVAL_MAX_ELEMENTS)
      return false;
    n *= (intptr_t)shape[d];
    if (n > KILN_GRAPH_EVAL_MAX_ELEMENTS)
      return false;
    out->shape[d] = shape[d];
  }
  if (e->used + n > POOL_SLOTS)
    return false;
  out->rank = rank;
  out->n = n;
  out->data = e->pool + e->used;
  e->used += n;
  return true;
}

/* Sign-extends the low `width` bits of v (i1 stays 0 or 1): the wrapping
 * of ONNX's fixed-width integers. Unsigned arithmetic avoids C overflow. */
static int64_t wrapToWidth(uint64_t v, unsigned width) {
  if (width >= 64)
    return (int64_t)v;
  if (width <= 1)
    return (int64_t)(v & 1);
  uint64_t sign = (uint64_t)1 << (width - 1);
  v &= (sign << 1) - 1;
  return (int64_t)((v ^ sign) - sign);
}

/* Reads element `i` of an integer DenseElementsAttr as int64. */
static int64_t denseIntElement(MlirAttribute a, MlirType elt, intptr_t i) {
  unsigned width = mlirIntegerTypeGetWidth(elt);
  bool isUnsigned = mlirIntegerTypeIsUnsigned(elt);
  if (mlirDenseElementsAttrIsSplat(a))
    i = 0;
  /* Each branch widens on its own: in `u ? uint32 : int32` C would convert
   * the signed value to unsigned first, turning -1 into 4294967295. */
  switch (width) {
  case 1:
    return mlirDenseElementsAttrGetBoolValue(a, i);
  case 8:
    if (isUnsigned)
      return (int64_t)mlirDenseElementsAttrGetUInt8Value(a, i);
    return (int64_t)mlirDenseElementsAttrGetInt8Value(a, i);
  case 16:
    if (isUnsigned)
      return (int64_t)mlirDenseElementsAttrGetUInt16Value(a, i);
    return (int64_t)mlirDenseElementsAttrGetInt16Value(a, i);
  case 32:
    if (isUnsigned)
      return (int64_t)mlirDenseElementsAttrGetUInt32Value(a, i);
    return (int64_t)mlirDenseElementsAttrGetInt32Value(a, i);
  case 64:
    if (isUnsigned)
      return (int64_t)mlirDenseElementsAttrGetUInt64Value(a, i);
    return mlirDenseElementsAttrGetInt64Value(a, i);
  default:
    return 0; /* filtered out by isReadableIntType */
  }
}

/* The integer widths denseIntElement can read. */
static bool isReadableIntType(MlirType t) {
  if (!mlirTypeIsAInteger(t))
    return false;
  unsigned w = mlirIntegerTypeGetWidth(t);
  return w == 1 || w == 8 || w == 16 || w == 32 || w == 64;
}

/* The integer DenseElementsAttr `value` of a graph.constant, or null. */
static MlirAttribute constantIntAttr(MlirOperation op) {
  MlirAttribute value = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(value) || !mlirAttributeIsADenseElements(value))
    return (MlirAttribute){NULL};
  MlirType elt = mlirShapedTypeGetElementType(mlirAttributeGetType(value));
  return isReadableIntType(elt) ? value : (MlirAttribute){NULL};
}

static bool opIs(MlirOperation op, const char *name) {
  return kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

/* The operand at ONNX position `pos` of an op whose optional operands are
 * laid out by operandSegmentSizes (one entry per ONNX input); a null value
 * when absent. Without segments, operands are positional. */
static MlirValue operandAt(MlirOperation op, intptr_t pos) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirAttribute seg = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("operandSegmentSizes"));
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg))
    return pos < n ? mlirOperationGetOperand(op, pos) : (MlirValue){NULL};
  intptr_t flat = 0;
  intptr_t numSegs = mlirDenseArrayGetNumElements(seg);
  for (intptr_t i = 0; i < numSegs && i <= pos; ++i) {
    int32_t count = mlirDenseI32ArrayGetElement(seg, i);
    if (count < 0 || flat + count > n)
      return (MlirValue){NULL};
    if (i == pos)
      return count == 1 ? mlirOperationGetOperand(op, flat) : (MlirValue){NULL};
    flat += count;
  }
  return (MlirValue){NULL};
}

static bool operand(Eval *e, MlirOperation op, intptr_t pos, int depth,
                    Val *v) {
  MlirValue x = operandAt(op, pos);
  return !mlirValueIsNull(x) && evalValue(e, x, depth, v);
}

/* The static shape of `t` into `shape` (capacity KILN_MAX_RANK). */
static bool staticShape(MlirType t, intptr_t *rank, int64_t *shape) {
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) > KILN_MAX_RANK)
    return false;
  *rank = mlirShapedTypeGetRank(t);
  for (intptr_t d = 0; d < *rank; ++d) {
    shape[d] = mlirShapedTypeGetDimSize(t, d);
    if (mlirShapedTypeIsDynamicSize(shape[d]))
      return false;
  }
  return true;
}

/* Numpy broadcast of the shapes of vals[0..k) into rank and shape. */
static bool broadcastShape(const Val *const *vals, int k, intptr_t *rank,
                           int64_t *shape) {
  intptr_t r = 0;
  for (int i = 0; i < k; ++i)
    r = vals[i]->rank > r ? vals[i]->rank : r;
  for (intptr_t d = 0; d < r; ++d) {
    int64_t dim = 1;
    for (int i = 0; i < k; ++i) {
      intptr_t di = d - (r - vals[i]->rank);
      int64_t s = di >= 0 ? vals[i]->shape[di] : 1;
      if (s != 1 && dim != 1 && s != dim)
        return false;
      dim = s != 1 ? s : dim;
    }
    shape[d] = dim;
  }
  *rank = r;
  return true;
}

/* Strides of `v` per dim of `out` (0 where `v` broadcasts); false if `v`
 * does not broadcast to `out`. */
static bool broadcastStrides(const Val *v, const Val *out, intptr_t *strides) {
  return kilnEvalBroadcastStrides(v->rank, v->shape, out->rank, out->shape,
                                  strides);
}

/* The element of `v`, with `strides` from broadcastStrides, that broadcasts
 * to position `linear` of `out`. */
static int64_t broadcastElement(const Val *v, const intptr_t *strides,
                                const Val *out, intptr_t linear) {
  return v
      ->data[kilnEvalBroadcastOffset(out->rank, out->shape, strides, linear)];
}

/*===--------------------------------------------------------------------===*
 * Sources: constants and shape queries
 *===--------------------------------------------------------------------===*/

static bool evalConstant(Eval *e, MlirOperation op, int depth, Val *out) {
  (void)depth;
  MlirAttribute value = constantIntAttr(op);
  intptr_t rank;
  int64_t shape[KILN_MAX_RANK];
  if (mlirAttributeIsNull(value) ||
      !staticShape(mlirAttributeGetType(value), &rank, shape) ||
      !alloc(e, rank, shape, out))
    return false;
  MlirType elt = mlirShapedTypeGetElementType(mlirAttributeGetType(value));
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = denseIntElement(value, elt, i);
  return true;
}

/* ONNX Shape-15: dims [start, end) of the input, each clamped to [0, r]. */
static bool evalShape(Eval *e, MlirOperation op, int depth, Val *out) {
  (void)depth;
  MlirValue x = operandAt(op, 0);
  if (mlirValueIsNull(x) || !mlirTypeIsARankedTensor(mlirValueGetType(x)))
    return false;
  MlirType t = mlirValueGetType(x);
  int64_t r = mlirShapedTypeGetRank(t);
  int64_t start = kilnOpGetIntAttr(op, "start", 0),
          end = kilnOpGetIntAttr(op, "end", r);
  start = start < 0 ? start + r : start;
  end = end < 0 ? end + r : end;
  start = start < 0 ? 0 : start > r ? r : start;
  end = end < start ? start : end > r ? r : end;
  int64_t len = end - start;
  if (!alloc(e, 1, &len, out))
    return false;
  for (int64_t d = start; d < end; ++d) {
    out->data[d - start] = mlirShapedTypeGetDimSize(t, (intptr_t)d);
    if (mlirShapedTypeIsDynamicSize(out->data[d - start]))
      return false;
  }
  return true;
}

static bool evalSize(Eval *e, MlirOperation op, int depth, Val *out) {
  (void)depth;
  intptr_t rank;
  int64_t shape[KILN_MAX_RANK];
  MlirValue x = operandAt(op, 0);
  if (mlirValueIsNull(x) || !staticShape(mlirValueGetType(x), &rank, shape) ||
      !alloc(e, 0, NULL, out))
    return false;
  int64_t n = 1;
  for (intptr_t d = 0; d < rank; ++d)
    if (__builtin_mul_overflow(n, shape[d], &n))
      return false;
  out->data[0] = n;
  return true;
}

/* ONNX ConstantOfShape: the one-element integer `value` (the default, f32
 * 0, is a float and so never reaches here: the result type is checked). */
static bool evalConstantOfShape(Eval *e, MlirOperation op, int depth,
                                Val *out) {
  Val dims;
  MlirAttribute value = constantIntAttr(op);
  if (mlirAttributeIsNull(value) ||
      mlirElementsAttrGetNumElements(value) != 1 ||
      !operand(e, op, 0, depth, &dims) || dims.rank != 1 ||
      !alloc(e, dims.n, dims.data, out))
    return false;
  MlirType elt = mlirShapedTypeGetElementType(mlirAttributeGetType(value));
  int64_t fill = denseIntElement(value, elt, 0);
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = fill;
  return true;
}

/* ONNX Range: start, start + delta, ... before limit (scalars). */
static bool evalRange(Eval *e, MlirOperation op, int depth, Val *out) {
  Val s, l, d;
  if (!operand(e, op, 0, depth, &s) || !operand(e, op, 1, depth, &l) ||
      !operand(e, op, 2, depth, &d) || s.n != 1 || l.n != 1 || d.n != 1 ||
      d.data[0] == 0)
    return false;
  int64_t start = s.data[0], delta = d.data[0], span;
  if (__builtin_sub_overflow(l.data[0], start, &span))
    return false;
  /* max(ceil(span / delta), 0) without overflow: both have one sign. */
  int64_t count = 0;
  if ((span > 0 && delta > 0) || (span < 0 && delta < 0))
    count = span / delta + (span % delta != 0);
  if (!alloc(e, 1, &count, out))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = (int64_t)((uint64_t)start + (uint64_t)delta * (uint64_t)i);
  return true;
}

/*===--------------------------------------------------------------------===*
 * Data movement
 *===--------------------------------------------------------------------===*/

/* Reshape-like ops (identity, reshape, flatten, squeeze, unsqueeze) keep
 * the values in order; the result shape is the declared static one, which
 * inference has already derived from the same operands. */
static bool evalReshapeLike(Eval *e, MlirOperation op, int depth, Val *out) {
  intptr_t rank;
  int64_t shape[KILN_MAX_RANK];
  if (!staticShape(mlirValueGetType(mlirOperationGetResult(op, 0)), &rank,
                   shape) ||
      !operand(e, op, 0, depth, out))
    return false;
  intptr_t n = 1;
  for (intptr_t d = 0; d < rank; ++d) {
    if (shape[d] > KILN_GRAPH_EVAL_MAX_ELEMENTS)
      return false;
    n *= (intptr_t)shape[d];
    if (n > KILN_GRAPH_EVAL_MAX_ELEMENTS)
      return false;
    out->shape[d] = shape[d];
  }
  out->rank = rank;
  return n == out->n;
}

/* ONNX Cast between integer types: wrapping happens in evalValue; a cast
 * to bool is "non-zero", not the low bit. */
static bool evalCast(Eval *e, MlirOperation op, int depth, Val *out) {
  if (!operand(e, op, 0, depth, out))
    return false;
  MlirType to = mlirShapedTypeGetElementType(
      mlirValueGetType(mlirOperationGetResult(op, 0)));
  if (mlirIntegerTypeGetWidth(to) == 1)
    for (intptr_t i = 0; i < out->n; ++i)
      out->data[i] = out->data[i] != 0;
  return true;
}

/* ONNX Gather on axis 0 (any data rank; the other axes never hold shape
 * values). Negative indices count from the back. */
static bool evalGather(Eval *e, MlirOperation op, int depth, Val *out) {
  Val data, idx;
  if (!operand(e, op, 0, depth, &data) || !operand(e, op, 1, depth, &idx) ||
      data.rank < 1)
    return false;
  int64_t axis = kilnOpGetIntAttr(op, "axis", 0);
  if (axis != 0 && axis != -data.rank)
    return false;
  int64_t shape[KILN_MAX_RANK];
  intptr_t rank = idx.rank + data.rank - 1;
  if (rank > KILN_MAX_RANK)
    return false;
  memcpy(shape, idx.shape, (size_t)idx.rank * sizeof(int64_t));
  memcpy(shape + idx.rank, data.shape + 1,
         (size_t)(data.rank - 1) * sizeof(int64_t));
  if (!alloc(e, rank, shape, out))
    return false;
  int64_t dim = data.shape[0];
  intptr_t inner = dim ? data.n / (intptr_t)dim : 0;
  for (intptr_t i = 0; i < idx.n; ++i) {
    int64_t k = idx.data[i] < 0 ? idx.data[i] + dim : idx.data[i];
    if (k < 0 || k >= dim)
      return false;
    memcpy(out->data + i * inner, data.data + k * inner,
           (size_t)inner * sizeof(int64_t));
  }
  return true;
}

/* ONNX Slice's start and element count along one axis of size `dim`,
 * clamped as ONNX does (and as slice inference does): start to [0, dim]
 * and end to [0, dim] going forward; [0, dim - 1] and [-1, dim - 1]
 * backward. Spans and strides are unsigned so no step overflows. */
static int64_t sliceCount(int64_t dim, int64_t *start, int64_t end,
                          int64_t step) {
  int64_t s = *start < 0 ? *start + dim : *start;
  end = end < 0 ? end + dim : end;
  int64_t count = 0;
  if (dim > 0 && step > 0) {
    s = s < 0 ? 0 : s > dim ? dim : s;
    end = end < 0 ? 0 : end > dim ? dim : end;
    if (end > s)
      count = (int64_t)((uint64_t)(end - s - 1) / (uint64_t)step + 1);
  } else if (dim > 0) {
    s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s;
    end = end < -1 ? -1 : end > dim - 1 ? dim - 1 : end;
    if (s > end)
      count = (int64_t)((uint64_t)(s - end - 1) / (0 - (uint64_t)step) + 1);
  }
  *start = s;
  return count;
}

/* ONNX Slice: any data rank, any listed axes, any non-zero steps (the
 * reversal of PyTorch's pad pairs slices a [n, 2] tensor with step -1). */
static bool evalSlice(Eval *e, MlirOperation op, int depth, Val *out) {
  Val data, starts, ends, axes, steps;
  bool hasAxes = !mlirValueIsNull(operandAt(op, 3));
  bool hasSteps = !mlirValueIsNull(operandAt(op, 4));
  if (!operand(e, op, 0, depth, &data) || !operand(e, op, 1, depth, &starts) ||
      !operand(e, op, 2, depth, &ends) ||
      (hasAxes && !operand(e, op, 3, depth, &axes)) ||
      (hasSteps && !operand(e, op, 4, depth, &steps)) || data.rank < 1 ||
      starts.rank != 1 || ends.n != starts.n ||
      (hasAxes && axes.n != starts.n) || (hasSteps && steps.n != starts.n))
    return false;
  int64_t start[KILN_MAX_RANK], step[KILN_MAX_RANK], count[KILN_MAX_RANK];
  bool seen[KILN_MAX_RANK] = {false};
  for (intptr_t d = 0; d < data.rank; ++d)
    start[d] = 0, step[d] = 1, count[d] = data.shape[d];
  for (intptr_t j = 0; j < starts.n; ++j) {
    int64_t ax = hasAxes ? axes.data[j] : j;
    ax = ax < 0 ? ax + data.rank : ax;
    if (ax < 0 || ax >= data.rank || seen[ax] ||
        (hasSteps && steps.data[j] == 0))
      return false;
    seen[ax] = true;
    step[ax] = hasSteps ? steps.data[j] : 1;
    start[ax] = starts.data[j];
    count[ax] = sliceCount(data.shape[ax], &start[ax], ends.data[j], step[ax]);
  }
  if (!alloc(e, data.rank, count, out))
    return false;
  intptr_t strides[KILN_MAX_RANK], base = 0, stride = 1;
  for (intptr_t d = data.rank - 1; d >= 0; --d) {
    strides[d] = (intptr_t)step[d] * stride;
    base += (intptr_t)start[d] * stride;
    stride *= (intptr_t)data.shape[d];
  }
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = data.data[base + kilnEvalBroadcastOffset(
                                        out->rank, out->shape, strides, i)];
  return true;
}

/* ONNX Transpose (perm absent: the dims reversed). */
static bool evalTranspose(Eval *e, MlirOperation op, int depth, Val *out) {
  Val in;
  int64_t shape[KILN_MAX_RANK];
  intptr_t strides[KILN_MAX_RANK];
  if (!operand(e, op, 0, depth, &in) ||
      !kilnEvalTransposeStrides(op, in.rank, in.shape, shape, strides) ||
      !alloc(e, in.rank, shape, out))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] =
        in.data[kilnEvalBroadcastOffset(out->rank, out->shape, strides, i)];
  return true;
}

/* ONNX ScatterND with reduction "none": a copy of the data with the
 * slices the index tuples name replaced, in order (the lowering's loop
 * order, so a repeated index keeps its last update). */
static bool evalScatterND(Eval *e, MlirOperation op, int depth, Val *out) {
  Val data, idx, upd;
  MlirAttribute red = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("reduction"));
  if ((!mlirAttributeIsNull(red) &&
       (!mlirAttributeIsAString(red) ||
        !kilnStringRefEquals(mlirStringAttrGetValue(red), "none"))) ||
      !operand(e, op, 0, depth, &data) || !operand(e, op, 1, depth, &idx) ||
      !operand(e, op, 2, depth, &upd) || idx.rank < 1)
    return false;
  intptr_t k = (intptr_t)idx.shape[idx.rank - 1];
  intptr_t tuples = k ? idx.n / k : 0, slice = 1;
  if (k > data.rank || upd.rank != idx.rank - 1 + data.rank - k)
    return false;
  for (intptr_t d = 0; d < idx.rank - 1; ++d)
    if (upd.shape[d] != idx.shape[d])
      return false;
  for (intptr_t d = k; d < data.rank; ++d) {
    if (upd.shape[idx.rank - 1 + d - k] != data.shape[d])
      return false;
    slice *= (intptr_t)data.shape[d];
  }
  if (k == 0 || upd.n != tuples * slice ||
      !alloc(e, data.rank, data.shape, out))
    return false;
  memcpy(out->data, data.data, (size_t)data.n * sizeof(int64_t));
  intptr_t offsets[KILN_GRAPH_EVAL_MAX_ELEMENTS];
  if (!kilnEvalScatterNDOffsets(data.rank, data.shape, idx.data, tuples, k,
                                offsets))
    return false;
  for (intptr_t t = 0; t < tuples; ++t)
    memcpy(out->data + offsets[t], upd.data + t * slice,
           (size_t)slice * sizeof(int64_t));
  return true;
}

static bool evalConcat(Eval *e, MlirOperation op, int depth, Val *out) {
  Val a, b;
  if (!operand(e, op, 0, depth, &a) || !operand(e, op, 1, depth, &b) ||
      a.rank != b.rank || a.rank < 1)
    return false;
  int64_t axis = kilnOpGetIntAttr(op, "axis", 0);
  axis = axis < 0 ? axis + a.rank : axis;
  if (axis < 0 || axis >= a.rank)
    return false;
  int64_t shape[KILN_MAX_RANK];
  intptr_t outer = 1, innerA = 1, innerB = 1;
  for (intptr_t d = 0; d < a.rank; ++d) {
    if (d != axis && a.shape[d] != b.shape[d])
      return false;
    shape[d] = d == axis ? a.shape[d] + b.shape[d] : a.shape[d];
    if (d < axis)
      outer *= (intptr_t)a.shape[d];
    else
      innerA *= (intptr_t)a.shape[d], innerB *= (intptr_t)b.shape[d];
  }
  if (!alloc(e, a.rank, shape, out))
    return false;
  int64_t *dst = out->data;
  for (intptr_t o = 0; o < outer; ++o) {
    memcpy(dst, a.data + o * innerA, (size_t)innerA * sizeof(int64_t));
    dst += innerA;
    memcpy(dst, b.data + o * innerB, (size_t)innerB * sizeof(int64_t));
    dst += innerB;
  }
  return true;
}

/* ONNX Expand: bidirectional broadcast of the input and the shape. */
static bool evalExpand(Eval *e, MlirOperation op, int depth, Val *out) {
  Val in, dims, target;
  if (!operand(e, op, 0, depth, &in) || !operand(e, op, 1, depth, &dims) ||
      dims.rank != 1 || dims.n > KILN_MAX_RANK)
    return false;
  target.rank = dims.n;
  for (intptr_t d = 0; d < dims.n; ++d)
    target.shape[d] = dims.data[d];
  const Val *vals[2] = {&in, &target};
  intptr_t rank;
  int64_t shape[KILN_MAX_RANK];
  intptr_t s[KILN_MAX_RANK];
  if (!broadcastShape(vals, 2, &rank, shape) || !alloc(e, rank, shape, out) ||
      !broadcastStrides(&in, out, s))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = broadcastElement(&in, s, out, i);
  return true;
}

static bool evalTile(Eval *e, MlirOperation op, int depth, Val *out) {
  Val in, reps;
  if (!operand(e, op, 0, depth, &in) || !operand(e, op, 1, depth, &reps) ||
      reps.rank != 1 || reps.n != in.rank)
    return false;
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t d = 0; d < in.rank; ++d)
    if (reps.data[d] < 0 ||
        __builtin_mul_overflow(in.shape[d], reps.data[d], &shape[d]))
      return false;
  if (!alloc(e, in.rank, shape, out))
    return false;
  for (intptr_t i = 0; i < out->n; ++i) {
    intptr_t linear = i, offset = 0, stride = 1;
    for (intptr_t d = in.rank - 1; d >= 0; --d) {
      offset += (linear % (intptr_t)shape[d]) % (intptr_t)in.shape[d] * stride;
      linear /= (intptr_t)shape[d];
      stride *= (intptr_t)in.shape[d];
    }
    out->data[i] = in.data[offset];
  }
  return true;
}

/*===--------------------------------------------------------------------===*
 * Elementwise arithmetic, comparisons and logic
 *===--------------------------------------------------------------------===*/

/* The integer ops shared with fold_eval.c come first (eval_common.h). */
typedef enum BinOp {
  BIN_ADD = KILN_EVAL_ADD,
  BIN_SUB = KILN_EVAL_SUB,
  BIN_MUL = KILN_EVAL_MUL,
  BIN_DIV = KILN_EVAL_DIV,
  BIN_MIN = KILN_EVAL_MIN,
  BIN_MAX = KILN_EVAL_MAX,
  BIN_MOD = KILN_EVAL_MOD,
  BIN_FMOD = KILN_EVAL_FMOD,
  BIN_EQUAL,
  BIN_LESS,
  BIN_GREATER,
  BIN_AND,
  BIN_OR,
  BIN_XOR
} BinOp;

/* One element of a binary op; false when undefined at compile time
 * (division by zero, INT64_MIN / -1). Wrapping to the result's width
 * happens in evalValue. */
static bool applyBin(BinOp k, int64_t a, int64_t b, int64_t *r) {
  switch (k) {
  case BIN_ADD:
  case BIN_SUB:
  case BIN_MUL:
  case BIN_DIV:
  case BIN_MIN:
  case BIN_MAX:
  case BIN_MOD:
  case BIN_FMOD:
    return kilnEvalIntBinary((KilnEvalIntOp)k, a, b, r);
  case BIN_EQUAL:
    *r = a == b;
    return true;
  case BIN_LESS:
    *r = a < b;
    return true;
  case BIN_GREATER:
    *r = a > b;
    return true;
  case BIN_AND:
    *r = a && b;
    return true;
  case BIN_OR:
    *r = a || b;
    return true;
  case BIN_XOR:
    *r = !a != !b;
    return true;
  }
  return false;
}

static bool evalBinary(Eval *e, MlirOperation op, int depth, BinOp k,
                       Val *out) {
  Val a, b;
  if (!operand(e, op, 0, depth, &a) || !operand(e, op, 1, depth, &b))
    return false;
  const Val *vals[2] = {&a, &b};
  intptr_t rank;
  int64_t shape[KILN_MAX_RANK];
  intptr_t sa[KILN_MAX_RANK], sb[KILN_MAX_RANK];
  if (!broadcastShape(vals, 2, &rank, shape) || !alloc(e, rank, shape, out) ||
      !broadcastStrides(&a, out, sa) || !broadcastStrides(&b, out, sb))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    if (!applyBin(k, broadcastElement(&a, sa, out, i),
                  broadcastElement(&b, sb, out, i), &out->data[i]))
      return false;
  return true;
}

#define BINARY(fn, kind)                                                       \
  static bool fn(Eval *e, MlirOperation op, int depth, Val *out) {             \
    return evalBinary(e, op, depth, kind, out);                                \
  }
BINARY(evalAdd, BIN_ADD)
BINARY(evalSub, BIN_SUB)
BINARY(evalMul, BIN_MUL)
BINARY(evalDiv, BIN_DIV)
BINARY(evalMin, BIN_MIN)
BINARY(evalMax, BIN_MAX)
BINARY(evalEqual, BIN_EQUAL)
BINARY(evalLess, BIN_LESS)
BINARY(evalGreater, BIN_GREATER)
BINARY(evalAnd, BIN_AND)
BINARY(evalOr, BIN_OR)
BINARY(evalXor, BIN_XOR)
#undef BINARY

/* ONNX Mod on integers: fmod = 0 (the default) takes the divisor's sign,
 * fmod = 1 the dividend's. Unsigned 64-bit values do not fit the signed
 * slots. */
static bool evalMod(Eval *e, MlirOperation op, int depth, Val *out) {
  MlirType t = mlirShapedTypeGetElementType(
      mlirValueGetType(mlirOperationGetOperand(op, 0)));
  if (mlirIntegerTypeIsUnsigned(t) && mlirIntegerTypeGetWidth(t) == 64)
    return false;
  return evalBinary(e, op, depth,
                    kilnOpGetIntAttr(op, "fmod", 0) ? BIN_FMOD : BIN_MOD, out);
}

static bool evalWhere(Eval *e, MlirOperation op, int depth, Val *out) {
  Val c, x, y;
  if (!operand(e, op, 0, depth, &c) || !operand(e, op, 1, depth, &x) ||
      !operand(e, op, 2, depth, &y))
    return false;
  const Val *vals[3] = {&c, &x, &y};
  intptr_t rank;
  int64_t shape[KILN_MAX_RANK];
  intptr_t sc[KILN_MAX_RANK], sx[KILN_MAX_RANK], sy[KILN_MAX_RANK];
  if (!broadcastShape(vals, 3, &rank, shape) || !alloc(e, rank, shape, out) ||
      !broadcastStrides(&c, out, sc) || !broadcastStrides(&x, out, sx) ||
      !broadcastStrides(&y, out, sy))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = broadcastElement(&c, sc, out, i)
                       ? broadcastElement(&x, sx, out, i)
                       : broadcastElement(&y, sy, out, i);
  return true;
}

/* Unary ops rewrite their operand's values in place. */
static bool evalNeg(Eval *e, MlirOperation op, int depth, Val *out) {
  if (!operand(e, op, 0, depth, out))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = (int64_t)(0 - (uint64_t)out->data[i]);
  return true;
}

static bool evalAbs(Eval *e, MlirOperation op, int depth, Val *out) {
  if (!operand(e, op, 0, depth, out))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    if (out->data[i] < 0)
      out->data[i] = (int64_t)(0 - (uint64_t)out->data[i]);
  return true;
}

static bool evalNot(Eval *e, MlirOperation op, int depth, Val *out) {
  if (!operand(e, op, 0, depth, out))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = !out->data[i];
  return true;
}

/*===--------------------------------------------------------------------===*
 * Whole-tensor reductions
 *===--------------------------------------------------------------------===*/

/* ReduceSum/ReduceProd-18 when they reduce every axis (no axes, or axes
 * naming them all) or none (empty axes with noop_with_empty_axes). */
static bool evalReduce(Eval *e, MlirOperation op, int depth, bool prod,
                       Val *out) {
  Val data, axes;
  bool hasAxes = !mlirValueIsNull(operandAt(op, 1));
  if (!operand(e, op, 0, depth, &data) ||
      (hasAxes && !operand(e, op, 1, depth, &axes)))
    return false;
  bool noAxes = !hasAxes || axes.n == 0;
  if (noAxes && kilnOpGetIntAttr(op, "noop_with_empty_axes", 0)) {
    *out = data;
    return true;
  }
  bool reduced[KILN_MAX_RANK];
  for (intptr_t d = 0; d < data.rank; ++d)
    reduced[d] = noAxes;
  for (intptr_t i = 0; !noAxes && i < axes.n; ++i) {
    int64_t a = axes.data[i] < 0 ? axes.data[i] + data.rank : axes.data[i];
    if (a < 0 || a >= data.rank)
      return false;
    reduced[a] = true;
  }
  /* Kept axes must have size 1, so the result is one element. */
  bool keep = kilnOpGetIntAttr(op, "keepdims", 1) != 0;
  int64_t ones[KILN_MAX_RANK];
  intptr_t rank = 0;
  for (intptr_t d = 0; d < data.rank; ++d) {
    if (!reduced[d] && data.shape[d] != 1)
      return false; /* a partial reduction: not a shape computation */
    if (keep || !reduced[d])
      ones[rank++] = 1;
  }
  if (!alloc(e, rank, ones, out))
    return false;
  uint64_t acc = prod ? 1 : 0;
  for (intptr_t i = 0; i < data.n; ++i)
    acc = prod ? acc * (uint64_t)data.data[i] : acc + (uint64_t)data.data[i];
  out->data[0] = (int64_t)acc;
  return true;
}

static bool evalReduceSum(Eval *e, MlirOperation op, int depth, Val *out) {
  return evalReduce(e, op, depth, false, out);
}

static bool evalReduceProd(Eval *e, MlirOperation op, int depth, Val *out) {
  return evalReduce(e, op, depth, true, out);
}

/*===--------------------------------------------------------------------===*
 * Dispatch
 *===--------------------------------------------------------------------===*/

typedef bool (*EvalFn)(Eval *e, MlirOperation op, int depth, Val *out);

static const struct {
  const char *name;
  EvalFn fn;
} kEvaluators[] = {
    {"graph.constant", evalConstant},
    {"graph.shape", evalShape},
    {"graph.size", evalSize},
    {"graph.constant_of_shape", evalConstantOfShape},
    {"graph.range", evalRange},
    {"graph.identity", evalReshapeLike},
    {"graph.reshape", evalReshapeLike},
    {"graph.flatten", evalReshapeLike},
    {"graph.squeeze", evalReshapeLike},
    {"graph.unsqueeze", evalReshapeLike},
    {"graph.cast", evalCast},
    {"graph.gather", evalGather},
    {"graph.slice", evalSlice},
    {"graph.transpose", evalTranspose},
    {"graph.scatter_nd", evalScatterND},
    {"graph.concat", evalConcat},
    {"graph.expand", evalExpand},
    {"graph.tile", evalTile},
    {"graph.add", evalAdd},
    {"graph.sub", evalSub},
    {"graph.mul", evalMul},
    {"graph.div", evalDiv},
    {"graph.mod", evalMod},
    {"graph.min", evalMin},
    {"graph.max", evalMax},
    {"graph.equal", evalEqual},
    {"graph.less", evalLess},
    {"graph.greater", evalGreater},
    {"graph.and", evalAnd},
    {"graph.or", evalOr},
    {"graph.xor", evalXor},
    {"graph.where", evalWhere},
    {"graph.neg", evalNeg},
    {"graph.abs", evalAbs},
    {"graph.not", evalNot},
    {"graph.reduce_sum", evalReduceSum},
    {"graph.reduce_prod", evalReduceProd},
};

static EvalFn lookupEvaluator(MlirOperation op) {
  for (size_t i = 0; i < sizeof(kEvaluators) / sizeof(kEvaluators[0]); ++i)
    if (opIs(op, kEvaluators[i].name))
      return kEvaluators[i].fn;
  return NULL;
}

/* Evaluates `v` and leaves its value on top of the pool, where the pool
 * stood on entry (so operands evaluated for it are released). The result
 * must agree with v's declared type: its element width (values wrap to it)
 * and its static dims; IR whose types contradict the values is left to
 * graph-verify to report at the op itself. */
static bool evalValue(Eval *e, MlirValue v, int depth, Val *out) {
  if (depth >= KILN_GRAPH_EVAL_MAX_DEPTH || ++e->steps > MAX_STEPS ||
      !mlirValueIsAOpResult(v) || mlirOpResultGetResultNumber(v) != 0)
    return false;
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) ||
      !isReadableIntType(mlirShapedTypeGetElementType(t)))
    return false;
  MlirOperation op = mlirOpResultGetOwner(v);
  EvalFn fn = lookupEvaluator(op);
  intptr_t base = e->used;
  Val r;
  if (!fn || !fn(e, op, depth + 1, &r) || r.rank != mlirShapedTypeGetRank(t)) {
    e->used = base;
    return false;
  }
  for (intptr_t d = 0; d < r.rank; ++d) {
    int64_t dim = mlirShapedTypeGetDimSize(t, d);
    if (!mlirShapedTypeIsDynamicSize(dim) && dim != r.shape[d]) {
      e->used = base;
      return false;
    }
  }
  memmove(e->pool + base, r.data, (size_t)r.n * sizeof(int64_t));
  r.data = e->pool + base;
  e->used = base + r.n;
  unsigned width = mlirIntegerTypeGetWidth(mlirShapedTypeGetElementType(t));
  for (intptr_t i = 0; i < r.n; ++i)
    r.data[i] = wrapToWidth((uint64_t)r.data[i], width);
  *out = r;
  return true;
}

/* A graph.constant is read directly, whatever its size (index checks read
 * large index tensors); anything else goes through the bounded evaluator. */
static intptr_t readConstant(MlirOperation def, int64_t *out, intptr_t cap) {
  MlirAttribute value = constantIntAttr(def);
  if (mlirAttributeIsNull(value))
    return -1;
  MlirType elt = mlirShapedTypeGetElementType(mlirAttributeGetType(value));
  intptr_t n = mlirElementsAttrGetNumElements(value);
  for (intptr_t k = 0; k < n && k < cap; ++k)
    out[k] = denseIntElement(value, elt, k);
  return n;
}

intptr_t kilnGraphEvalConstantInts(MlirValue v, int64_t *out, intptr_t cap) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v))
    return -1;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (opIs(def, "graph.constant"))
    return readConstant(def, out, cap);
  MlirType t = mlirValueGetType(v);
  if (!lookupEvaluator(def) || !mlirTypeIsARankedTensor(t) ||
      !isReadableIntType(mlirShapedTypeGetElementType(t)))
    return -1; /* the common cases: no pool needed */
  Eval e = {malloc(POOL_SLOTS * sizeof(int64_t)), 0, 0};
  if (!e.pool)
    abort();
  Val r;
  intptr_t n = -1;
  if (evalValue(&e, v, 0, &r)) {
    n = r.n;
    for (intptr_t k = 0; k < n && k < cap; ++k)
      out[k] = r.data[k];
  }
  free(e.pool);
  return n;
}

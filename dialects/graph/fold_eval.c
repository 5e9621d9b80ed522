/* The graph-op evaluator of graph-fold-constants (see fold_eval.h).
 *
 * Every evaluator writes the op's result, whose static shape is already in
 * `out`, from inputs in ONNX operand order. Broadcasting and index
 * arithmetic go through offsets computed per result element: slower than
 * strided loops, but folding is bounded by max-elements and runs once. */
#include "dialects/graph/fold_eval.h"
#include "support/ir_build.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/eval_common.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

typedef bool (*EvalFn)(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                       KilnFoldTensor *out);

static bool present(const KilnFoldTensor *in, intptr_t nIn, intptr_t k) {
  return k < nIn && in[k].data != NULL;
}

intptr_t kilnFoldPositionalOperands(MlirOperation op, MlirValue *out,
                                    intptr_t cap) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirAttribute seg = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("operandSegmentSizes"));
  if (mlirAttributeIsNull(seg) || !mlirAttributeIsADenseI32Array(seg)) {
    if (n > cap)
      return -1;
    for (intptr_t i = 0; i < n; ++i)
      out[i] = mlirOperationGetOperand(op, i);
    return n;
  }
  intptr_t numSegs = mlirDenseArrayGetNumElements(seg), flat = 0;
  if (numSegs > cap)
    return -1;
  for (intptr_t i = 0; i < numSegs; ++i) {
    int32_t count = mlirDenseI32ArrayGetElement(seg, i);
    if (count < 0 || count > 1 || flat + count > n)
      return -1; /* variadic segments: not evaluated */
    out[i] = count ? mlirOperationGetOperand(op, flat) : (MlirValue){NULL};
    flat += count;
  }
  return flat == n ? numSegs : -1;
}

/*===--------------------------------------------------------------------===*
 * Broadcasting
 *===--------------------------------------------------------------------===*/

/* Strides of `in` per dim of `out` (0 where `in` broadcasts); false if
 * `in` does not broadcast to `out`. */
static bool broadcastStrides(const KilnFoldTensor *in,
                             const KilnFoldTensor *out, intptr_t *strides) {
  return kilnEvalBroadcastStrides(in->rank, in->shape, out->rank, out->shape,
                                  strides);
}

/* The offset in a tensor with `strides` of element `linear` of `out`. */
static intptr_t offsetOf(const KilnFoldTensor *out, const intptr_t *strides,
                         intptr_t linear) {
  return kilnEvalBroadcastOffset(out->rank, out->shape, strides, linear);
}

/*===--------------------------------------------------------------------===*
 * Elementwise
 *===--------------------------------------------------------------------===*/

/* The integer ops of eval_common.h come first, in its order. */
typedef enum Kind {
  K_ADD = KILN_EVAL_ADD,
  K_SUB = KILN_EVAL_SUB,
  K_MUL = KILN_EVAL_MUL,
  K_DIV = KILN_EVAL_DIV,
  K_MIN = KILN_EVAL_MIN,
  K_MAX = KILN_EVAL_MAX,
  K_MOD = KILN_EVAL_MOD,
  K_FMOD = KILN_EVAL_FMOD,
  K_POW,
  K_EQUAL,
  K_LESS,
  K_GREATER,
  K_LESS_EQUAL,
  K_GREATER_EQUAL,
  K_NEG,
  K_ABS,
  K_SQRT,
  K_RECIPROCAL,
  K_EXP,
  K_LOG,
  K_RELU,
  K_SIGMOID,
  K_FLOOR,
  K_CEIL,
  K_AND, /* the logical ops, on i1 */
  K_OR,
  K_XOR,
  K_NOT,
} Kind;

static bool isLogical(Kind k) { return k >= K_AND && k <= K_NOT; }

static bool isCompare(Kind k) { return k >= K_EQUAL && k <= K_GREATER_EQUAL; }

static bool compare(Kind k, double a, double b) {
  switch (k) {
  case K_EQUAL:
    return a == b;
  case K_LESS:
    return a < b;
  case K_GREATER:
    return a > b;
  case K_LESS_EQUAL:
    return a <= b;
  default:
    return a >= b;
  }
}

static bool compareInt(Kind k, int64_t a, int64_t b) {
  switch (k) {
  case K_EQUAL:
    return a == b;
  case K_LESS:
    return a < b;
  case K_GREATER:
    return a > b;
  case K_LESS_EQUAL:
    return a <= b;
  default:
    return a >= b;
  }
}

/* One float element in single precision (f32, f16, bf16: the lowering
 * extends the small types to f32). */
static float floatOp(Kind k, float a, float b) {
  switch (k) {
  case K_ADD:
    return a + b;
  case K_SUB:
    return a - b;
  case K_MUL:
    return a * b;
  case K_DIV:
    return a / b;
  case K_FMOD:
    return fmodf(a, b); /* arith.remf */
  case K_POW:
    return powf(a, b);
  case K_MIN:
    return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
  case K_MAX:
    return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
  case K_NEG:
    return -a;
  case K_ABS:
    return fabsf(a);
  case K_SQRT:
    return sqrtf(a);
  case K_RECIPROCAL:
    return 1.0f / a;
  case K_EXP:
    return expf(a);
  case K_LOG:
    return logf(a);
  case K_RELU:
    return a < 0 ? 0.0f : a;
  case K_SIGMOID:
    return 1.0f / (1.0f + expf(-a));
  case K_FLOOR:
    return floorf(a);
  default:
    return ceilf(a);
  }
}

static double doubleOp(Kind k, double a, double b) {
  switch (k) {
  case K_ADD:
    return a + b;
  case K_SUB:
    return a - b;
  case K_MUL:
    return a * b;
  case K_DIV:
    return a / b;
  case K_FMOD:
    return fmod(a, b);
  case K_POW:
    return pow(a, b);
  case K_MIN:
    return isnan(a) || isnan(b) ? NAN : a < b ? a : b;
  case K_MAX:
    return isnan(a) || isnan(b) ? NAN : a > b ? a : b;
  case K_NEG:
    return -a;
  case K_ABS:
    return fabs(a);
  case K_SQRT:
    return sqrt(a);
  case K_RECIPROCAL:
    return 1.0 / a;
  case K_EXP:
    return exp(a);
  case K_LOG:
    return log(a);
  case K_RELU:
    return a < 0 ? 0.0 : a;
  case K_SIGMOID:
    return 1.0 / (1.0 + exp(-a));
  case K_FLOOR:
    return floor(a);
  default:
    return ceil(a);
  }
}

/* One integer element (values already wrapped to the operand type); false
 * where the lowering's result is undefined or the op takes floats only. */
static bool intOp(Kind k, int64_t a, int64_t b, int64_t *r) {
  uint64_t ua = (uint64_t)a;
  switch (k) {
  case K_ADD:
  case K_SUB:
  case K_MUL:
  case K_DIV:
  case K_MIN:
  case K_MAX:
  case K_MOD:
  case K_FMOD:
    return kilnEvalIntBinary((KilnEvalIntOp)k, a, b, r);
  case K_NEG:
    *r = (int64_t)(0 - ua);
    return true;
  case K_ABS:
    *r = a < 0 ? (int64_t)(0 - ua) : a;
    return true;
  case K_RELU:
    *r = a < 0 ? 0 : a;
    return true;
  case K_AND:
    *r = a && b;
    return true;
  case K_OR:
    *r = a || b;
    return true;
  case K_XOR:
    *r = !a != !b;
    return true;
  case K_NOT:
    *r = !a;
    return true;
  default:
    return false;
  }
}

/* An elementwise op of arity 1 or 2 over operands of one element type
 * (pow's exponent may differ: it is converted to the base's type). */
static bool evalElementwise(Kind k, int arity, const KilnFoldTensor *in,
                            intptr_t nIn, KilnFoldTensor *out) {
  if (nIn != arity || !present(in, nIn, 0) ||
      (arity == 2 && !present(in, nIn, 1)))
    return false;
  const KilnFoldTensor *a = &in[0], *b = arity == 2 ? &in[1] : &in[0];
  MlirType elt = a->elt;
  bool f64 = mlirTypeIsAF64(elt);
  /* Mixed operand types only for pow with a float base; integers of 64
   * unsigned bits do not fit the signed slot arithmetic. */
  if ((!mlirTypeEqual(a->elt, b->elt) && (k != K_POW || !a->isFloat)) ||
      (!a->isFloat && mlirIntegerTypeIsUnsigned(elt) &&
       mlirIntegerTypeGetWidth(elt) == 64) ||
      (isLogical(k) && a->isFloat))
    return false;
  if (isCompare(k) ? mlirIntegerTypeGetWidth(out->elt) != 1
                   : !mlirTypeEqual(out->elt, elt))
    return false;
  intptr_t sa[KILN_MAX_RANK], sb[KILN_MAX_RANK];
  if (!broadcastStrides(a, out, sa) || !broadcastStrides(b, out, sb))
    return false;
  for (intptr_t i = 0; i < out->n; ++i) {
    KilnFoldSlot x = a->data[offsetOf(out, sa, i)];
    KilnFoldSlot y = b->data[offsetOf(out, sb, i)];
    if (k == K_POW && !b->isFloat)
      y.f = (double)y.i; /* sitofp of the exponent */
    if (isCompare(k)) {
      out->data[i].i =
          a->isFloat ? compare(k, x.f, y.f) : compareInt(k, x.i, y.i);
    } else if (a->isFloat) {
      double v = f64 ? doubleOp(k, x.f, y.f)
                     : (double)floatOp(k, (float)x.f, (float)y.f);
      out->data[i].f = kilnFoldRoundFloat(elt, v);
    } else {
      int64_t r;
      if (!intOp(k, x.i, y.i, &r))
        return false;
      out->data[i].i = kilnFoldWrapInt(elt, r);
    }
  }
  return true;
}

#define EW(fn, kind, arity)                                                    \
  static bool fn(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,     \
                 KilnFoldTensor *out) {                                        \
    (void)op;                                                                  \
    return evalElementwise(kind, arity, in, nIn, out);                         \
  }
EW(evalAdd, K_ADD, 2)
EW(evalSub, K_SUB, 2)
EW(evalMul, K_MUL, 2)
EW(evalDiv, K_DIV, 2)
EW(evalPow, K_POW, 2)
EW(evalMin, K_MIN, 2)
EW(evalMax, K_MAX, 2)
EW(evalEqual, K_EQUAL, 2)
EW(evalLess, K_LESS, 2)
EW(evalGreater, K_GREATER, 2)
EW(evalLessEqual, K_LESS_EQUAL, 2)
EW(evalGreaterEqual, K_GREATER_EQUAL, 2)
EW(evalNeg, K_NEG, 1)
EW(evalAbs, K_ABS, 1)
EW(evalSqrt, K_SQRT, 1)
EW(evalReciprocal, K_RECIPROCAL, 1)
EW(evalExp, K_EXP, 1)
EW(evalLog, K_LOG, 1)
EW(evalRelu, K_RELU, 1)
EW(evalSigmoid, K_SIGMOID, 1)
EW(evalFloor, K_FLOOR, 1)
EW(evalCeil, K_CEIL, 1)
EW(evalAnd, K_AND, 2)
EW(evalOr, K_OR, 2)
EW(evalXor, K_XOR, 2)
EW(evalNot, K_NOT, 1)
#undef EW

/* ONNX Mod: integers take the divisor's sign unless fmod = 1; floats need
 * fmod = 1 (C's fmod, the lowering's arith.remf). */
static bool evalMod(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                    KilnFoldTensor *out) {
  bool fmodAttr = kilnOpGetIntAttr(op, "fmod", 0) != 0;
  if (out->isFloat && !fmodAttr)
    return false;
  return evalElementwise(fmodAttr ? K_FMOD : K_MOD, 2, in, nIn, out);
}

/* ONNX Cast, as kilnConvertScalar lowers it: float to float rounds, to i1
 * is "non-zero", float to integer truncates toward zero (not evaluated
 * outside the target's range, where fptosi/fptoui give poison), integers
 * wrap, bool and unsigned integers convert as unsigned. */
static bool evalCast(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                     KilnFoldTensor *out) {
  (void)op;
  if (nIn != 1 || !present(in, nIn, 0) || in[0].n != out->n)
    return false;
  const KilnFoldTensor *a = &in[0];
  MlirType to = out->elt;
  bool toBool = !out->isFloat && mlirIntegerTypeGetWidth(to) == 1;
  for (intptr_t i = 0; i < out->n; ++i) {
    KilnFoldSlot x = a->data[i];
    if (toBool) {
      out->data[i].i = a->isFloat ? x.f != 0 || isnan(x.f) : x.i != 0;
    } else if (out->isFloat) {
      /* Integers convert straight to the target type (one rounding). */
      bool u = mlirIntegerTypeIsUnsigned(a->elt);
      double v = a->isFloat ? x.f
                 : !mlirTypeIsAF64(to)
                     ? (u ? (double)(float)(uint64_t)x.i : (double)(float)x.i)
                 : u ? (double)(uint64_t)x.i
                     : (double)x.i;
      out->data[i].f = kilnFoldRoundFloat(to, v);
    } else if (a->isFloat) {
      unsigned w = mlirIntegerTypeGetWidth(to);
      bool u = mlirIntegerTypeIsUnsigned(to);
      double t = trunc(x.f);
      double lo = u ? 0 : -ldexp(1, (int)w - 1);
      double hi = u ? ldexp(1, (int)w) : ldexp(1, (int)w - 1);
      if (!(t >= lo && t < hi) || (u && w == 64))
        return false;
      out->data[i].i = (int64_t)t;
    } else {
      out->data[i].i = kilnFoldWrapInt(to, x.i);
    }
  }
  return true;
}

static bool evalWhere(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                      KilnFoldTensor *out) {
  (void)op;
  if (nIn != 3 || !present(in, nIn, 0) || !present(in, nIn, 1) ||
      !present(in, nIn, 2) || !mlirTypeEqual(in[1].elt, out->elt) ||
      !mlirTypeEqual(in[2].elt, out->elt))
    return false;
  intptr_t sc[KILN_MAX_RANK], sx[KILN_MAX_RANK], sy[KILN_MAX_RANK];
  if (!broadcastStrides(&in[0], out, sc) ||
      !broadcastStrides(&in[1], out, sx) || !broadcastStrides(&in[2], out, sy))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = in[0].data[offsetOf(out, sc, i)].i
                       ? in[1].data[offsetOf(out, sx, i)]
                       : in[2].data[offsetOf(out, sy, i)];
  return true;
}

/*===--------------------------------------------------------------------===*
 * Whole-tensor reductions
 *===--------------------------------------------------------------------===*/

/* ReduceSum/ReduceProd-18 on integers (a float sum's rounding depends on
 * the lowering's order) when they reduce every axis (no axes, or axes
 * naming them all) or none (empty axes with noop_with_empty_axes): the
 * reductions of shape computations. */
static bool evalReduce(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                       bool prod, KilnFoldTensor *out) {
  if (!present(in, nIn, 0) || in[0].isFloat ||
      !mlirTypeEqual(in[0].elt, out->elt))
    return false;
  const KilnFoldTensor *data = &in[0];
  const KilnFoldTensor *axes = present(in, nIn, 1) ? &in[1] : NULL;
  bool noAxes = !axes || axes->n == 0;
  if (noAxes && kilnOpGetIntAttr(op, "noop_with_empty_axes", 0)) {
    if (out->n != data->n)
      return false;
    memcpy(out->data, data->data, (size_t)data->n * sizeof(KilnFoldSlot));
    return true;
  }
  bool reduced[KILN_MAX_RANK];
  for (intptr_t d = 0; d < data->rank; ++d)
    reduced[d] = noAxes;
  for (intptr_t i = 0; !noAxes && i < axes->n; ++i) {
    int64_t a = axes->data[i].i;
    a = a < 0 ? a + data->rank : a;
    if (a < 0 || a >= data->rank)
      return false;
    reduced[a] = true;
  }
  for (intptr_t d = 0; d < data->rank; ++d)
    if (!reduced[d] && data->shape[d] != 1)
      return false; /* a partial reduction: not evaluated */
  if (out->n != 1)
    return false;
  uint64_t acc = prod ? 1 : 0;
  for (intptr_t i = 0; i < data->n; ++i)
    acc = prod ? acc * (uint64_t)data->data[i].i
               : acc + (uint64_t)data->data[i].i;
  out->data[0].i = kilnFoldWrapInt(out->elt, (int64_t)acc);
  return true;
}

static bool evalReduceSum(MlirOperation op, const KilnFoldTensor *in,
                          intptr_t nIn, KilnFoldTensor *out) {
  return evalReduce(op, in, nIn, false, out);
}

static bool evalReduceProd(MlirOperation op, const KilnFoldTensor *in,
                           intptr_t nIn, KilnFoldTensor *out) {
  return evalReduce(op, in, nIn, true, out);
}

/*===--------------------------------------------------------------------===*
 * Data movement
 *===--------------------------------------------------------------------===*/

/* identity, reshape, flatten, squeeze, unsqueeze: the values in order. */
static bool evalReshapeLike(MlirOperation op, const KilnFoldTensor *in,
                            intptr_t nIn, KilnFoldTensor *out) {
  (void)op;
  if (!present(in, nIn, 0) || in[0].n != out->n ||
      !mlirTypeEqual(in[0].elt, out->elt))
    return false;
  memcpy(out->data, in[0].data, (size_t)out->n * sizeof(KilnFoldSlot));
  return true;
}

/* Same as an input of the same element type: expand (broadcast) and the
 * broadcast half of tile. */
static bool evalExpand(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                       KilnFoldTensor *out) {
  (void)op;
  intptr_t s[KILN_MAX_RANK];
  if (!present(in, nIn, 0) || !mlirTypeEqual(in[0].elt, out->elt) ||
      !broadcastStrides(&in[0], out, s))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = in[0].data[offsetOf(out, s, i)];
  return true;
}

static bool evalTile(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                     KilnFoldTensor *out) {
  (void)op;
  const KilnFoldTensor *a = &in[0];
  if (!present(in, nIn, 0) || a->rank != out->rank ||
      !mlirTypeEqual(a->elt, out->elt))
    return false;
  for (intptr_t d = 0; d < a->rank; ++d)
    if (a->shape[d] == 0 ? out->shape[d] != 0
                         : out->shape[d] % a->shape[d] != 0)
      return false;
  for (intptr_t i = 0; i < out->n; ++i) {
    intptr_t linear = i, offset = 0, stride = 1;
    for (intptr_t d = out->rank - 1; d >= 0; --d) {
      offset +=
          (linear % (intptr_t)out->shape[d]) % (intptr_t)a->shape[d] * stride;
      linear /= (intptr_t)out->shape[d];
      stride *= (intptr_t)a->shape[d];
    }
    out->data[i] = a->data[offset];
  }
  return true;
}

static bool evalTranspose(MlirOperation op, const KilnFoldTensor *in,
                          intptr_t nIn, KilnFoldTensor *out) {
  const KilnFoldTensor *a = &in[0];
  int64_t shape[KILN_MAX_RANK];
  intptr_t s[KILN_MAX_RANK]; /* input stride per output dim */
  if (!present(in, nIn, 0) || a->rank != out->rank ||
      !kilnEvalTransposeStrides(op, a->rank, a->shape, shape, s) ||
      memcmp(shape, out->shape, (size_t)a->rank * sizeof(int64_t)))
    return false;
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = a->data[offsetOf(out, s, i)];
  return true;
}

static bool evalConcat(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                       KilnFoldTensor *out) {
  if (nIn != 2 || !present(in, nIn, 0) || !present(in, nIn, 1))
    return false;
  const KilnFoldTensor *a = &in[0], *b = &in[1];
  int64_t axis = kilnOpGetIntAttr(op, "axis", 0);
  axis = axis < 0 ? axis + out->rank : axis;
  if (a->rank != out->rank || b->rank != out->rank || axis < 0 ||
      axis >= out->rank || a->shape[axis] + b->shape[axis] != out->shape[axis])
    return false;
  intptr_t outer = 1, innerA = 1, innerB = 1;
  for (intptr_t d = 0; d < out->rank; ++d) {
    if (d < axis)
      outer *= (intptr_t)out->shape[d];
    else
      innerA *= (intptr_t)a->shape[d], innerB *= (intptr_t)b->shape[d];
  }
  KilnFoldSlot *dst = out->data;
  for (intptr_t o = 0; o < outer; ++o) {
    memcpy(dst, a->data + o * innerA, (size_t)innerA * sizeof(KilnFoldSlot));
    dst += innerA;
    memcpy(dst, b->data + o * innerB, (size_t)innerB * sizeof(KilnFoldSlot));
    dst += innerB;
  }
  return true;
}

/* ONNX Gather on any axis; negative indices count from the back. */
static bool evalGather(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                       KilnFoldTensor *out) {
  if (nIn != 2 || !present(in, nIn, 0) || !present(in, nIn, 1) || in[1].isFloat)
    return false;
  const KilnFoldTensor *data = &in[0], *idx = &in[1];
  int64_t axis = kilnOpGetIntAttr(op, "axis", 0);
  axis = axis < 0 ? axis + data->rank : axis;
  if (axis < 0 || axis >= data->rank || out->rank != data->rank - 1 + idx->rank)
    return false;
  intptr_t outer = 1, inner = 1, dim = (intptr_t)data->shape[axis];
  for (intptr_t d = 0; d < data->rank; ++d)
    if (d < axis)
      outer *= (intptr_t)data->shape[d];
    else if (d > axis)
      inner *= (intptr_t)data->shape[d];
  KilnFoldSlot *dst = out->data;
  for (intptr_t o = 0; o < outer; ++o) {
    for (intptr_t j = 0; j < idx->n; ++j) {
      int64_t k = idx->data[j].i < 0 ? idx->data[j].i + dim : idx->data[j].i;
      if (k < 0 || k >= dim)
        return false;
      memcpy(dst, data->data + (o * dim + (intptr_t)k) * inner,
             (size_t)inner * sizeof(KilnFoldSlot));
      dst += inner;
    }
  }
  return dst == out->data + out->n;
}

/* ONNX Slice-13: per listed axis, start/end clamped as ONNX does, any
 * non-zero step. */
static bool evalSlice(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                      KilnFoldTensor *out) {
  (void)op;
  if (!present(in, nIn, 0) || !present(in, nIn, 1) || !present(in, nIn, 2))
    return false;
  const KilnFoldTensor *a = &in[0];
  intptr_t r = a->rank, k = in[1].n;
  if (out->rank != r || in[2].n != k || (present(in, nIn, 3) && in[3].n != k) ||
      (present(in, nIn, 4) && in[4].n != k))
    return false;
  int64_t start[KILN_MAX_RANK], step[KILN_MAX_RANK];
  for (intptr_t d = 0; d < r; ++d)
    start[d] = 0, step[d] = 1;
  for (intptr_t j = 0; j < k; ++j) {
    int64_t ax = present(in, nIn, 3) ? in[3].data[j].i : j;
    ax = ax < 0 ? ax + r : ax;
    int64_t st = present(in, nIn, 4) ? in[4].data[j].i : 1;
    if (ax < 0 || ax >= r || st == 0)
      return false;
    int64_t dim = a->shape[ax], s = in[1].data[j].i;
    s = s < 0 ? s + dim : s;
    if (st > 0)
      s = s < 0 ? 0 : s > dim ? dim : s;
    else
      s = s < 0 ? 0 : s > dim - 1 ? dim - 1 : s;
    start[ax] = s;
    step[ax] = st;
  }
  intptr_t strideIn[KILN_MAX_RANK], stride = 1;
  for (intptr_t d = r - 1; d >= 0; --d) {
    strideIn[d] = stride;
    stride *= (intptr_t)a->shape[d];
  }
  /* The result's static shape (from inference) fixes the counts. */
  for (intptr_t i = 0; i < out->n; ++i) {
    intptr_t linear = i, offset = 0;
    for (intptr_t d = r - 1; d >= 0; --d) {
      int64_t j = linear % (intptr_t)out->shape[d];
      linear /= (intptr_t)out->shape[d];
      int64_t pos = start[d] + j * step[d];
      if (pos < 0 || pos >= a->shape[d])
        return false;
      offset += (intptr_t)pos * strideIn[d];
    }
    out->data[i] = a->data[offset];
  }
  return true;
}

/* ONNX Range: start + i * delta, as the lowering computes it (floats in
 * their own precision, f32 for f32); the count is the result's static
 * shape, which inference derived from the same scalars. */
static bool evalRange(MlirOperation op, const KilnFoldTensor *in, intptr_t nIn,
                      KilnFoldTensor *out) {
  (void)op;
  if (nIn != 3 || !present(in, nIn, 0) || !present(in, nIn, 2) ||
      in[0].n != 1 || in[2].n != 1 || !mlirTypeEqual(in[0].elt, out->elt) ||
      (out->isFloat && !mlirTypeIsAF32(out->elt) && !mlirTypeIsAF64(out->elt)))
    return false;
  KilnFoldSlot start = in[0].data[0], delta = in[2].data[0];
  for (intptr_t i = 0; i < out->n; ++i) {
    if (mlirTypeIsAF32(out->elt))
      out->data[i].f = (double)((float)start.f + (float)i * (float)delta.f);
    else if (out->isFloat)
      out->data[i].f = start.f + (double)i * delta.f;
    else
      out->data[i].i = kilnFoldWrapInt(
          out->elt, (int64_t)((uint64_t)start.i + (uint64_t)i * delta.i));
  }
  return true;
}

/* ONNX ScatterND with reduction "none": the data with the slices the index
 * tuples name replaced, in order (a repeated index keeps its last update,
 * as the lowering's loop does). */
static bool evalScatterND(MlirOperation op, const KilnFoldTensor *in,
                          intptr_t nIn, KilnFoldTensor *out) {
  MlirAttribute red = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("reduction"));
  if (nIn != 3 || !present(in, nIn, 0) || !present(in, nIn, 1) ||
      !present(in, nIn, 2) || in[1].isFloat || in[1].rank < 1 ||
      in[0].n != out->n || !mlirTypeEqual(in[0].elt, out->elt) ||
      !mlirTypeEqual(in[2].elt, out->elt) ||
      (!mlirAttributeIsNull(red) &&
       (!mlirAttributeIsAString(red) ||
        !kilnStringRefEquals(mlirStringAttrGetValue(red), "none"))))
    return false;
  const KilnFoldTensor *data = &in[0], *idx = &in[1], *upd = &in[2];
  intptr_t k = (intptr_t)idx->shape[idx->rank - 1];
  intptr_t tuples = k ? idx->n / k : 0, slice = 1;
  if (k == 0 || k > data->rank)
    return false;
  for (intptr_t d = k; d < data->rank; ++d)
    slice *= (intptr_t)data->shape[d];
  if (upd->n != tuples * slice)
    return false;
  int64_t *indices = malloc((size_t)idx->n * sizeof(int64_t));
  intptr_t *offsets = malloc((size_t)tuples * sizeof(intptr_t));
  if (!indices || !offsets)
    abort();
  for (intptr_t i = 0; i < idx->n; ++i)
    indices[i] = idx->data[i].i;
  bool ok = kilnEvalScatterNDOffsets(data->rank, data->shape, indices, tuples,
                                     k, offsets);
  memcpy(out->data, data->data, (size_t)out->n * sizeof(KilnFoldSlot));
  for (intptr_t t = 0; ok && t < tuples; ++t)
    memcpy(out->data + offsets[t], upd->data + t * slice,
           (size_t)slice * sizeof(KilnFoldSlot));
  free(indices);
  free(offsets);
  return ok;
}

/* ONNX ConstantOfShape: the one-element `value` (default f32 0). */
static bool evalConstantOfShape(MlirOperation op, const KilnFoldTensor *in,
                                intptr_t nIn, KilnFoldTensor *out) {
  (void)in, (void)nIn;
  MlirAttribute value = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("value"));
  KilnFoldSlot fill = {0};
  if (!mlirAttributeIsNull(value)) {
    KilnFoldTensor v;
    if (!kilnFoldTensorRead(value, 1, &v))
      return false;
    bool ok = v.n == 1 && mlirTypeEqual(v.elt, out->elt);
    fill = v.data[0];
    kilnFoldTensorDestroy(&v);
    if (!ok)
      return false;
  } else if (!mlirTypeIsAF32(out->elt)) {
    return false;
  }
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i] = fill;
  return true;
}

/*===--------------------------------------------------------------------===*
 * Dispatch
 *===--------------------------------------------------------------------===*/

static const struct {
  const char *name;
  EvalFn fn;
} kEvaluators[] = {
    {"graph.add", evalAdd},
    {"graph.sub", evalSub},
    {"graph.mul", evalMul},
    {"graph.div", evalDiv},
    {"graph.mod", evalMod},
    {"graph.pow", evalPow},
    {"graph.min", evalMin},
    {"graph.max", evalMax},
    {"graph.equal", evalEqual},
    {"graph.less", evalLess},
    {"graph.greater", evalGreater},
    {"graph.less_or_equal", evalLessEqual},
    {"graph.greater_or_equal", evalGreaterEqual},
    {"graph.neg", evalNeg},
    {"graph.abs", evalAbs},
    {"graph.sqrt", evalSqrt},
    {"graph.reciprocal", evalReciprocal},
    {"graph.exp", evalExp},
    {"graph.log", evalLog},
    {"graph.relu", evalRelu},
    {"graph.sigmoid", evalSigmoid},
    {"graph.floor", evalFloor},
    {"graph.ceil", evalCeil},
    {"graph.and", evalAnd},
    {"graph.or", evalOr},
    {"graph.xor", evalXor},
    {"graph.not", evalNot},
    {"graph.reduce_sum", evalReduceSum},
    {"graph.reduce_prod", evalReduceProd},
    {"graph.cast", evalCast},
    {"graph.where", evalWhere},
    {"graph.identity", evalReshapeLike},
    {"graph.reshape", evalReshapeLike},
    {"graph.flatten", evalReshapeLike},
    {"graph.squeeze", evalReshapeLike},
    {"graph.unsqueeze", evalReshapeLike},
    {"graph.expand", evalExpand},
    {"graph.tile", evalTile},
    {"graph.transpose", evalTranspose},
    {"graph.concat", evalConcat},
    {"graph.gather", evalGather},
    {"graph.slice", evalSlice},
    {"graph.scatter_nd", evalScatterND},
    {"graph.range", evalRange},
    {"graph.constant_of_shape", evalConstantOfShape},
};

static EvalFn lookup(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; i < sizeof(kEvaluators) / sizeof(kEvaluators[0]); ++i)
    if (kilnStringRefEquals(name, kEvaluators[i].name))
      return kEvaluators[i].fn;
  return NULL;
}

bool kilnFoldCanEvaluate(MlirOperation op) { return lookup(op) != NULL; }

bool kilnFoldEvaluate(MlirOperation op, const KilnFoldTensor *inputs,
                      intptr_t numInputs, KilnFoldTensor *out) {
  EvalFn fn = lookup(op);
  return fn && fn(op, inputs, numInputs, out);
}

/* Graph ops of the Reduction family: the table, the checks shared by the
 * family (ops_reduction_internal.h) and most inference functions.
 *
 * The family holds the ops that contract or reduce dimensions: MatMul, Gemm,
 * Softmax/LogSoftmax/Hardmax (along an axis), ReduceX, ArgMax/ArgMin, CumSum,
 * TopK and Det here; the losses (ops_reduction_loss.c) and Einsum
 * (ops_reduction_einsum.c). Inference follows the latest ONNX opset of each
 * op (MatMul-13, Gemm-13, Softmax/Hardmax-13, ReduceSum-13,
 * ReduceMean/Prod/L1/L2/LogSum/LogSumExp/SumSquare-18, ReduceMax/Min-20,
 * ArgMax/ArgMin-13, CumSum-14, TopK-24, Det-22) including its element-type
 * constraints. Where ONNX's own shape inference is silent, Kiln is stricter
 * on purpose and rejects: duplicate reduction axes (numpy, which ONNX's
 * reference implementation uses, rejects them too), boolean attributes
 * other than 0 and 1, and a constant TopK k above its axis' size (a run-time
 * error in ONNX Runtime). */
#include <stdbool.h>

#include "dialects/graph/infer.h"
#include "dialects/graph/op_table.h"
#include "dialects/graph/ops_reduction_internal.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"

/* ---- Checks shared by the family (ops_reduction_internal.h) ------------- */

/* Short names for the element-type classes keep the table readable. */
#define TY_FLOAT KILN_RED_FLOAT
#define TY_BOOL KILN_RED_BOOL
#define TY_I8 KILN_RED_I8
#define TY_I16 KILN_RED_I16
#define TY_I32 KILN_RED_I32
#define TY_I64 KILN_RED_I64
/* MatMul, Gemm, ReduceSum/Mean/Prod/L2/L1/LogSum/LogSumExp/SumSquare,
 * CumSum. */
#define TY_NUMERIC (TY_FLOAT | TY_I32 | TY_I64)
/* ReduceMax/Min-20 add int8/uint8 and bool. */
#define TY_MINMAX (TY_NUMERIC | TY_I8 | TY_BOOL)
/* ArgMax/ArgMin-13 and TopK-24: every integer width but no bool. */
#define TY_ARG (TY_FLOAT | TY_I8 | TY_I16 | TY_I32 | TY_I64)

static unsigned typeClass(MlirType t) {
  if (mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) ||
      mlirTypeIsAF64(t))
    return TY_FLOAT;
  if (!mlirTypeIsAInteger(t))
    return 0;
  switch (mlirIntegerTypeGetWidth(t)) {
  case 1:
    return TY_BOOL;
  case 8:
    return TY_I8;
  case 16:
    return TY_I16;
  case 32:
    return TY_I32;
  case 64:
    return TY_I64;
  default:
    return 0;
  }
}

static void appendClassNames(KilnStrBuf *buf, unsigned mask) {
  static const struct {
    unsigned bit;
    const char *names;
  } kNames[] = {{TY_FLOAT, "f16, bf16, f32, f64"},
                {TY_BOOL, "i1"},
                {TY_I8, "i8"},
                {TY_I16, "i16"},
                {TY_I32, "i32"},
                {TY_I64, "i64"}};
  const char *sep = "";
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i) {
    if (!(mask & kNames[i].bit))
      continue;
    kilnStrBufAppendf(buf, "%s%s", sep, kNames[i].names);
    sep = ", ";
  }
}

const char *kilnRedOperandName(const KilnInferContext *c, intptr_t i) {
  return i < c->op->numOperands ? c->op->operands[i].name : "?";
}

MlirLogicalResult kilnRedCheckElementType(const KilnInferContext *c, intptr_t i,
                                          MlirType t, unsigned mask) {
  MlirType elt = mlirShapedTypeGetElementType(t);
  if (typeClass(elt) & mask)
    return mlirLogicalResultSuccess();
  KilnStrBuf got = {0}, want = {0};
  kilnStrBufAppendType(&got, elt);
  appendClassNames(&want, mask);
  bool single = mask != TY_FLOAT && (mask & (mask - 1)) == 0;
  kilnInferError(c, "operand '%s' has element type %s, expected %s%s",
                 kilnRedOperandName(c, i), kilnStrBufGet(&got),
                 single ? "" : "one of ", kilnStrBufGet(&want));
  kilnStrBufDestroy(&got);
  kilnStrBufDestroy(&want);
  return mlirLogicalResultFailure();
}

MlirLogicalResult kilnRedCheckSameElementType(const KilnInferContext *c,
                                              intptr_t i, MlirType ti,
                                              intptr_t j, MlirType tj) {
  MlirType ei = mlirShapedTypeGetElementType(ti);
  MlirType ej = mlirShapedTypeGetElementType(tj);
  if (mlirTypeEqual(ei, ej))
    return mlirLogicalResultSuccess();
  KilnStrBuf a = {0}, b = {0};
  kilnStrBufAppendType(&a, ei);
  kilnStrBufAppendType(&b, ej);
  kilnInferError(c,
                 "operands '%s' and '%s' must have the same element type, "
                 "got %s and %s",
                 kilnRedOperandName(c, i), kilnRedOperandName(c, j),
                 kilnStrBufGet(&a), kilnStrBufGet(&b));
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

MlirLogicalResult kilnRedCheckResults(const KilnInferContext *c, intptr_t lo,
                                      intptr_t hi) {
  if (c->numResults >= lo && c->numResults <= hi)
    return mlirLogicalResultSuccess();
  if (lo == hi)
    return kilnInferError(c, "has exactly %ld result%s, %ld requested",
                          (long)lo, lo == 1 ? "" : "s", (long)c->numResults);
  return kilnInferError(c, "has %ld to %ld results, %ld requested", (long)lo,
                        (long)hi, (long)c->numResults);
}

static void appendDim(KilnStrBuf *buf, int64_t d) {
  if (kilnRedIsDyn(d))
    kilnStrBufAppend(buf, "?", 1);
  else
    kilnStrBufAppendf(buf, "%ld", (long)d);
}

/* Most ops here have exactly one result. */
static MlirLogicalResult checkOneResult(const KilnInferContext *c) {
  return kilnRedCheckResults(c, 1, 1);
}

/* Reads a boolean-valued integer attribute; only 0 and 1 are accepted. */
static MlirLogicalResult readFlag(const KilnInferContext *c, const char *name,
                                  int64_t dflt, bool *out) {
  int64_t v = kilnInferAttrInt(c, name, dflt);
  if (v != 0 && v != 1)
    return kilnInferError(c, "attribute '%s' must be 0 or 1, got %ld", name,
                          (long)v);
  *out = v == 1;
  return mlirLogicalResultSuccess();
}

/* Normalizes `axis` for a tensor of rank `rank` with ONNX's range
 * [-rank, rank-1], which is empty for rank 0 (the shared helper accepts
 * axis 0 there). */
static MlirLogicalResult normalizeAxis(const KilnInferContext *c,
                                       const char *what, int64_t axis,
                                       int64_t rank, int64_t *out) {
  if (rank == 0)
    return kilnInferError(c, "%s %ld is out of range for rank 0", what,
                          (long)axis);
  return kilnInferNormalizeAxis(c, what, axis, rank, out);
}

/* The broadcast of two compatible dims: a static size other than 1 wins;
 * otherwise a dynamic one (it may be anything) beats a static 1. */
static int64_t broadcastDim(int64_t x, int64_t y) {
  if (!kilnRedIsDyn(x) && x != 1)
    return x;
  if (!kilnRedIsDyn(y) && y != 1)
    return y;
  return kilnRedIsDyn(x) ? x : y;
}

/* ---- MatMul -------------------------------------------------------------- */

/* numpy.matmul: 1-D operands are promoted (a: [1, K], b: [K, 1]) and the
 * promoted dims dropped from the result; batch dims (all but the last two)
 * broadcast. */
static MlirLogicalResult inferMatMul(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType a = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(a))
    return mlirLogicalResultFailure();
  MlirType b = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(b) ||
      mlirLogicalResultIsFailure(
          kilnRedCheckElementType(c, 0, a, TY_NUMERIC)) ||
      mlirLogicalResultIsFailure(kilnRedCheckSameElementType(c, 0, a, 1, b)))
    return mlirLogicalResultFailure();
  intptr_t ra = mlirShapedTypeGetRank(a), rb = mlirShapedTypeGetRank(b);
  if (ra == 0 || rb == 0)
    return kilnInferError(c, "operand '%s' must have rank >= 1, got rank 0",
                          ra == 0 ? "a" : "b");

  int64_t ka = kilnRedDim(a, ra - 1), kb = kilnRedDim(b, rb >= 2 ? rb - 2 : 0);
  if (kilnRedStaticMismatch(ka, kb))
    return kilnInferError(c,
                          "contraction dimensions differ: 'a' has %ld "
                          "columns (dim %ld) but 'b' has %ld rows (dim %ld)",
                          (long)ka, (long)(ra - 1), (long)kb,
                          (long)(rb >= 2 ? rb - 2 : 0));

  /* Batch dims: a[0..ra-2) and b[0..rb-2), right-aligned. */
  intptr_t ba = ra > 2 ? ra - 2 : 0, bb = rb > 2 ? rb - 2 : 0;
  intptr_t batch = ba > bb ? ba : bb;
  int64_t shape[KILN_MAX_RANK];
  intptr_t n = 0;
  for (intptr_t k = 0; k < batch; ++k) {
    intptr_t ia = k - (batch - ba), ib = k - (batch - bb);
    int64_t da = ia >= 0 ? kilnRedDim(a, ia) : 1,
            db = ib >= 0 ? kilnRedDim(b, ib) : 1;
    if (kilnRedStaticMismatch(da, db) && da != 1 && db != 1)
      return kilnInferError(c,
                            "batch dimensions are not broadcast-compatible:"
                            " %ld in 'a' vs %ld in 'b' (batch dim %ld)",
                            (long)da, (long)db, (long)k);
    shape[n++] = broadcastDim(da, db);
  }
  if (ra >= 2)
    shape[n++] = kilnRedDim(a, ra - 2);
  if (rb >= 2)
    shape[n++] = kilnRedDim(b, rb - 1);
  c->resultTypes[0] =
      kilnInferTensorType(n, shape, mlirShapedTypeGetElementType(a));
  return mlirLogicalResultSuccess();
}

/* ---- Gemm ---------------------------------------------------------------- */

/* Checks that `cType` broadcasts unidirectionally to [m, n]: rank <= 2 and
 * each dim, right-aligned, is 1 or equal. */
static MlirLogicalResult checkGemmBias(const KilnInferContext *c,
                                       MlirType cType, int64_t m, int64_t n) {
  intptr_t rc = mlirShapedTypeGetRank(cType);
  const int64_t out[2] = {m, n};
  bool ok = rc <= 2;
  for (intptr_t k = 0; ok && k < rc; ++k) {
    int64_t d = kilnRedDim(cType, k), o = out[2 - rc + k];
    ok = d == 1 || !kilnRedStaticMismatch(d, o);
  }
  if (ok)
    return mlirLogicalResultSuccess();
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, cType);
  kilnStrBufAppendf(&buf, " is not unidirectionally broadcastable to the "
                          "result shape [");
  appendDim(&buf, m);
  kilnStrBufAppendf(&buf, ", ");
  appendDim(&buf, n);
  kilnInferError(c, "operand 'c' of type %s]", kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult inferGemm(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  bool transA, transB;
  if (mlirLogicalResultIsFailure(readFlag(c, "transA", 0, &transA)) ||
      mlirLogicalResultIsFailure(readFlag(c, "transB", 0, &transB)))
    return mlirLogicalResultFailure();
  MlirType t[3] = {{NULL}, {NULL}, {NULL}};
  for (intptr_t i = 0; i < 3; ++i) {
    if (i == 2 && mlirValueIsNull(kilnInferOperand(c, 2)))
      break;
    t[i] = kilnInferRankedOperand(c, i);
    if (mlirTypeIsNull(t[i]))
      return mlirLogicalResultFailure();
    if (i == 0 && mlirLogicalResultIsFailure(
                      kilnRedCheckElementType(c, 0, t[0], TY_NUMERIC)))
      return mlirLogicalResultFailure();
    if (i > 0 && mlirLogicalResultIsFailure(
                     kilnRedCheckSameElementType(c, 0, t[0], i, t[i])))
      return mlirLogicalResultFailure();
    if (i < 2 && mlirShapedTypeGetRank(t[i]) != 2)
      return kilnInferError(c, "operand '%s' must have rank 2, got rank %ld",
                            kilnRedOperandName(c, i),
                            (long)mlirShapedTypeGetRank(t[i]));
  }
  int64_t m = kilnRedDim(t[0], transA ? 1 : 0),
          ka = kilnRedDim(t[0], transA ? 0 : 1);
  int64_t kb = kilnRedDim(t[1], transB ? 1 : 0),
          n = kilnRedDim(t[1], transB ? 0 : 1);
  if (kilnRedStaticMismatch(ka, kb))
    return kilnInferError(c,
                          "contraction dimensions differ: K is %ld for 'a' "
                          "(transA = %d) but %ld for 'b' (transB = %d)",
                          (long)ka, transA, (long)kb, transB);
  if (!mlirTypeIsNull(t[2]) &&
      mlirLogicalResultIsFailure(checkGemmBias(c, t[2], m, n)))
    return mlirLogicalResultFailure();
  const int64_t shape[2] = {m, n};
  c->resultTypes[0] =
      kilnInferTensorType(2, shape, mlirShapedTypeGetElementType(t[0]));
  return mlirLogicalResultSuccess();
}

/* ---- Softmax, LogSoftmax ------------------------------------------------- */

static MlirLogicalResult inferSoftmax(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType in = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(in) ||
      mlirLogicalResultIsFailure(kilnRedCheckElementType(c, 0, in, TY_FLOAT)))
    return mlirLogicalResultFailure();
  int64_t axis;
  if (mlirLogicalResultIsFailure(
          normalizeAxis(c, "axis", kilnInferAttrInt(c, "axis", -1),
                        mlirShapedTypeGetRank(in), &axis)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = in;
  return mlirLogicalResultSuccess();
}

/* ---- ArgMax, ArgMin ------------------------------------------------------ */

static MlirLogicalResult inferArgReduce(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType data = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(data) ||
      mlirLogicalResultIsFailure(kilnRedCheckElementType(c, 0, data, TY_ARG)))
    return mlirLogicalResultFailure();
  bool keepdims, selectLast;
  int64_t axis, rank = mlirShapedTypeGetRank(data);
  if (mlirLogicalResultIsFailure(readFlag(c, "keepdims", 1, &keepdims)) ||
      mlirLogicalResultIsFailure(
          readFlag(c, "select_last_index", 0, &selectLast)) ||
      mlirLogicalResultIsFailure(normalizeAxis(
          c, "axis", kilnInferAttrInt(c, "axis", 0), rank, &axis)))
    return mlirLogicalResultFailure();
  int64_t shape[KILN_MAX_RANK];
  intptr_t n = 0;
  for (intptr_t k = 0; k < rank; ++k) {
    if (k != axis)
      shape[n++] = kilnRedDim(data, k);
    else if (keepdims)
      shape[n++] = 1;
  }
  c->resultTypes[0] =
      kilnInferTensorType(n, shape, mlirIntegerTypeGet(c->ctx, 64));
  return mlirLogicalResultSuccess();
}

/* ---- ReduceX ------------------------------------------------------------- */

/* What is known about the reduction axes at compile time. */
typedef enum AxesKind {
  AXES_EMPTY,         /* absent or zero-length: all axes, or none if noop */
  AXES_KNOWN,         /* constant: `reduced` marks them */
  AXES_UNKNOWN_COUNT, /* not constant, `count` of them (count > 0) */
  AXES_UNKNOWN        /* not constant, count unknown */
} AxesKind;

typedef struct Axes {
  AxesKind kind;
  int64_t count;
  bool reduced[KILN_MAX_RANK];
} Axes;

/* Marks the constant axes `vals[0..axes->count)`: each must be in
 * [-rank, rank-1] and appear once. */
static MlirLogicalResult markConstantAxes(const KilnInferContext *c,
                                          const int64_t *vals, int64_t rank,
                                          Axes *axes) {
  for (int64_t k = 0; k < axes->count; ++k) {
    int64_t axis;
    if (mlirLogicalResultIsFailure(
            normalizeAxis(c, "axes entry", vals[k], rank, &axis)))
      return mlirLogicalResultFailure();
    if (axes->reduced[axis])
      return kilnInferError(c,
                            "'axes' refers to dimension %ld more than "
                            "once",
                            (long)axis);
    axes->reduced[axis] = true;
  }
  return mlirLogicalResultSuccess();
}

/* Classifies the optional `axes` operand (1-D i64) of a ReduceX op. */
static MlirLogicalResult readAxes(const KilnInferContext *c, int64_t rank,
                                  Axes *axes) {
  *axes = (Axes){AXES_EMPTY, 0, {false}};
  if (mlirValueIsNull(kilnInferOperand(c, 1)))
    return mlirLogicalResultSuccess();
  MlirType t = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(t))
    return mlirLogicalResultFailure();
  if (mlirShapedTypeGetRank(t) != 1)
    return kilnInferError(c, "operand 'axes' must be 1-D, got rank %ld",
                          (long)mlirShapedTypeGetRank(t));
  if (mlirLogicalResultIsFailure(kilnRedCheckElementType(c, 1, t, TY_I64)))
    return mlirLogicalResultFailure();
  int64_t vals[KILN_MAX_RANK];
  intptr_t known = kilnInferConstantInts(c, 1, vals, KILN_MAX_RANK);
  axes->count = known >= 0 ? known : kilnRedDim(t, 0);
  if (kilnRedIsDyn(axes->count)) {
    axes->kind = AXES_UNKNOWN;
    return mlirLogicalResultSuccess();
  }
  /* Distinct axes cannot outnumber the dims; this also bounds `vals`. */
  if (axes->count > rank)
    return kilnInferError(c, "'axes' has %ld entries but 'data' has rank %ld",
                          (long)axes->count, (long)rank);
  if (axes->count == 0)
    return mlirLogicalResultSuccess();
  if (known < 0) {
    axes->kind = AXES_UNKNOWN_COUNT;
    return mlirLogicalResultSuccess();
  }
  axes->kind = AXES_KNOWN;
  return markConstantAxes(c, vals, rank, axes);
}

static MlirLogicalResult inferReduce(KilnInferContext *c, unsigned types) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType data = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(data) ||
      mlirLogicalResultIsFailure(kilnRedCheckElementType(c, 0, data, types)))
    return mlirLogicalResultFailure();
  bool keepdims, noop;
  int64_t rank = mlirShapedTypeGetRank(data);
  Axes axes;
  if (mlirLogicalResultIsFailure(readFlag(c, "keepdims", 1, &keepdims)) ||
      mlirLogicalResultIsFailure(
          readFlag(c, "noop_with_empty_axes", 0, &noop)) ||
      mlirLogicalResultIsFailure(readAxes(c, rank, &axes)))
    return mlirLogicalResultFailure();
  MlirType elt = mlirShapedTypeGetElementType(data);

  if (axes.kind == AXES_EMPTY && noop) {
    c->resultTypes[0] = data;
    return mlirLogicalResultSuccess();
  }
  if (axes.kind == AXES_UNKNOWN && !keepdims && rank > 0)
    /* How many dims go away is unknown, so the result has no rank; graph
     * ops take and give ranked tensors only. */
    return kilnInferError(c, "result rank is unknown: 'axes' is not a "
                             "constant and has a dynamic length while "
                             "keepdims = 0");
  int64_t shape[KILN_MAX_RANK];
  intptr_t n = 0;
  if (axes.kind == AXES_UNKNOWN_COUNT && !keepdims) {
    for (; n < rank - axes.count; ++n)
      shape[n] = mlirShapedTypeGetDynamicSize();
  } else {
    for (intptr_t k = 0; k < rank; ++k) {
      int64_t d = kilnRedDim(data, k);
      if (axes.kind == AXES_UNKNOWN || axes.kind == AXES_UNKNOWN_COUNT)
        shape[n++] = d == 1 ? 1 : mlirShapedTypeGetDynamicSize();
      else if (axes.kind == AXES_KNOWN && !axes.reduced[k])
        shape[n++] = d;
      else if (keepdims)
        shape[n++] = 1;
    }
  }
  c->resultTypes[0] = kilnInferTensorType(n, shape, elt);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferReduceNumeric(KilnInferContext *c) {
  return inferReduce(c, TY_NUMERIC);
}

static MlirLogicalResult inferReduceMinMax(KilnInferContext *c) {
  return inferReduce(c, TY_MINMAX);
}

/* ---- CumSum -------------------------------------------------------------- */

/* The axis operand of CumSum: a 0-D tensor in ONNX; Kiln also accepts a
 * 1-element 1-D one, as ONNX Runtime does. i32 or i64. A constant axis is
 * checked against x's rank; any other value leaves the shape unaffected. */
static MlirLogicalResult checkCumSumAxis(const KilnInferContext *c,
                                         int64_t rank) {
  MlirType t = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(t) || mlirLogicalResultIsFailure(kilnRedCheckElementType(
                               c, 1, t, TY_I32 | TY_I64)))
    return mlirLogicalResultFailure();
  intptr_t r = mlirShapedTypeGetRank(t);
  if (r > 1 || (r == 1 && kilnRedStaticMismatch(kilnRedDim(t, 0), 1))) {
    KilnStrBuf buf = {0};
    kilnStrBufAppendType(&buf, t);
    kilnInferError(c,
                   "operand 'axis' must be a scalar or a 1-element 1-D "
                   "tensor, got %s",
                   kilnStrBufGet(&buf));
    kilnStrBufDestroy(&buf);
    return mlirLogicalResultFailure();
  }
  int64_t axis, norm;
  if (kilnInferConstantInts(c, 1, &axis, 1) != 1)
    return mlirLogicalResultSuccess();
  return normalizeAxis(c, "axis", axis, rank, &norm);
}

static MlirLogicalResult inferCumSum(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  bool exclusive, reverse;
  if (mlirTypeIsNull(x) ||
      mlirLogicalResultIsFailure(
          kilnRedCheckElementType(c, 0, x, TY_NUMERIC)) ||
      mlirLogicalResultIsFailure(readFlag(c, "exclusive", 0, &exclusive)) ||
      mlirLogicalResultIsFailure(readFlag(c, "reverse", 0, &reverse)) ||
      mlirLogicalResultIsFailure(checkCumSumAxis(c, mlirShapedTypeGetRank(x))))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = x;
  return mlirLogicalResultSuccess();
}

/* ---- TopK ---------------------------------------------------------------- */

/* Reads TopK's k (a 1-D i64 tensor of one element): its value when it is a
 * constant, else a dynamic size. A constant k must be non-negative and, when
 * the axis dim is static, at most that dim. */
static MlirLogicalResult readTopK(const KilnInferContext *c, int64_t axisDim,
                                  int64_t *k) {
  MlirType t = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(t) ||
      mlirLogicalResultIsFailure(kilnRedCheckElementType(c, 1, t, TY_I64)))
    return mlirLogicalResultFailure();
  if (mlirShapedTypeGetRank(t) != 1 ||
      kilnRedStaticMismatch(kilnRedDim(t, 0), 1)) {
    KilnStrBuf buf = {0};
    kilnStrBufAppendType(&buf, t);
    kilnInferError(c, "operand 'k' must be a 1-D tensor of one element, got %s",
                   kilnStrBufGet(&buf));
    kilnStrBufDestroy(&buf);
    return mlirLogicalResultFailure();
  }
  *k = mlirShapedTypeGetDynamicSize();
  int64_t value;
  if (kilnInferConstantInts(c, 1, &value, 1) != 1)
    return mlirLogicalResultSuccess();
  if (value < 0)
    return kilnInferError(c, "'k' must be non-negative, got %ld", (long)value);
  if (!kilnRedIsDyn(axisDim) && value > axisDim)
    return kilnInferError(c,
                          "'k' (%ld) exceeds the size %ld of the axis it "
                          "selects along",
                          (long)value, (long)axisDim);
  *k = value;
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferTopK(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(kilnRedCheckResults(c, 2, 2)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  bool largest, sorted;
  int64_t rank, axis, k;
  if (mlirTypeIsNull(x) ||
      mlirLogicalResultIsFailure(kilnRedCheckElementType(c, 0, x, TY_ARG)) ||
      mlirLogicalResultIsFailure(readFlag(c, "largest", 1, &largest)) ||
      mlirLogicalResultIsFailure(readFlag(c, "sorted", 1, &sorted)))
    return mlirLogicalResultFailure();
  rank = mlirShapedTypeGetRank(x);
  if (mlirLogicalResultIsFailure(normalizeAxis(
          c, "axis", kilnInferAttrInt(c, "axis", -1), rank, &axis)) ||
      mlirLogicalResultIsFailure(readTopK(c, kilnRedDim(x, axis), &k)))
    return mlirLogicalResultFailure();
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i)
    shape[i] = i == axis ? k : kilnRedDim(x, i);
  c->resultTypes[0] =
      kilnInferTensorType(rank, shape, mlirShapedTypeGetElementType(x));
  c->resultTypes[1] =
      kilnInferTensorType(rank, shape, mlirIntegerTypeGet(c->ctx, 64));
  return mlirLogicalResultSuccess();
}

/* ---- Det ----------------------------------------------------------------- */

static MlirLogicalResult inferDet(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      mlirLogicalResultIsFailure(kilnRedCheckElementType(c, 0, x, TY_FLOAT)))
    return mlirLogicalResultFailure();
  intptr_t rank = mlirShapedTypeGetRank(x);
  if (rank < 2)
    return kilnInferError(c,
                          "operand 'x' must have rank >= 2 (square matrices "
                          "in the last two dims), got rank %ld",
                          (long)rank);
  int64_t rows = kilnRedDim(x, rank - 2), cols = kilnRedDim(x, rank - 1);
  if (kilnRedStaticMismatch(rows, cols))
    return kilnInferError(c,
                          "operand 'x' must hold square matrices, got %ld x "
                          "%ld in its last two dims",
                          (long)rows, (long)cols);
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < rank - 2; ++i)
    shape[i] = kilnRedDim(x, i);
  c->resultTypes[0] =
      kilnInferTensorType(rank - 2, shape, mlirShapedTypeGetElementType(x));
  return mlirLogicalResultSuccess();
}

/* ---- The table ----------------------------------------------------------- */

static const KilnOperandSpec kMatMulOperands[] = {{"a", KILN_OPERAND_SINGLE},
                                                  {"b", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kGemmOperands[] = {{"a", KILN_OPERAND_SINGLE},
                                                {"b", KILN_OPERAND_SINGLE},
                                                {"c", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kY[] = {{"y", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kInput[] = {{"input", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kOutput[] = {{"output", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kReduceOperands[] = {
    {"data", KILN_OPERAND_SINGLE}, {"axes", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kData[] = {{"data", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kReduced[] = {{"reduced", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kX[] = {{"x", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kCumSumOperands[] = {
    {"x", KILN_OPERAND_SINGLE}, {"axis", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kTopKOperands[] = {{"x", KILN_OPERAND_SINGLE},
                                                {"k", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kTopKResults[] = {
    {"values", KILN_OPERAND_SINGLE}, {"indices", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kNllOperands[] = {
    {"input", KILN_OPERAND_SINGLE},
    {"target", KILN_OPERAND_SINGLE},
    {"weight", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kLoss[] = {{"loss", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kSceOperands[] = {
    {"scores", KILN_OPERAND_SINGLE},
    {"labels", KILN_OPERAND_SINGLE},
    {"weights", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kSceResults[] = {
    {"output", KILN_OPERAND_SINGLE}, {"log_prob", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kEinsumOperands[] = {{"a", KILN_OPERAND_SINGLE},
                                                  {"b", KILN_OPERAND_OPTIONAL}};

static const KilnAttrSpec kGemmAttrs[] = {
    {"alpha", KILN_ATTR_FLOAT, false, "1.0 : f32", "scale of A * B"},
    {"beta", KILN_ATTR_FLOAT, false, "1.0 : f32", "scale of C"},
    {"transA", KILN_ATTR_INT, false, "0 : i64", "1: transpose A first"},
    {"transB", KILN_ATTR_INT, false, "0 : i64", "1: transpose B first"},
};
static const KilnAttrSpec kSoftmaxAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "-1 : i64",
     "the axis normalized over, in [-r, r-1]"},
};
static const KilnAttrSpec kReduceAttrs[] = {
    {"keepdims", KILN_ATTR_INT, false, "1 : i64",
     "1: keep reduced dims with size 1"},
    {"noop_with_empty_axes", KILN_ATTR_INT, false, "0 : i64",
     "1: empty or absent axes is the identity, not a full reduction"},
};
static const KilnAttrSpec kArgAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "0 : i64", "the axis reduced, in [-r, r-1]"},
    {"keepdims", KILN_ATTR_INT, false, "1 : i64",
     "1: keep the reduced dim with size 1"},
    {"select_last_index", KILN_ATTR_INT, false, "0 : i64",
     "1: on ties pick the last index, not the first"},
};

static const KilnAttrSpec kHardmaxAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "-1 : i64",
     "the axis the maximum is taken along, in [-r, r-1]"},
};
static const KilnAttrSpec kCumSumAttrs[] = {
    {"exclusive", KILN_ATTR_INT, false, "0 : i64",
     "1: each sum leaves out its own element"},
    {"reverse", KILN_ATTR_INT, false, "0 : i64",
     "1: sum from the end of the axis backwards"},
};
static const KilnAttrSpec kTopKAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "-1 : i64",
     "the axis selected along, in [-r, r-1]"},
    {"largest", KILN_ATTR_INT, false, "1 : i64",
     "1: the k largest elements, 0: the k smallest"},
    {"sorted", KILN_ATTR_INT, false, "1 : i64",
     "1: results in sorted order (ONNX leaves 0 unspecified)"},
};
static const KilnAttrSpec kLossAttrs[] = {
    {"ignore_index", KILN_ATTR_INT, false, NULL,
     "a target value that contributes nothing (none by default)"},
    {"reduction", KILN_ATTR_STRING, false, "\"mean\"",
     "\"none\", \"sum\" or \"mean\" (weighted mean)"},
};
static const KilnAttrSpec kEinsumAttrs[] = {
    {"equation", KILN_ATTR_STRING, true, NULL,
     "Einstein summation, e.g. \"bij,bjk->bik\""},
};

#define N(a) (int)(sizeof(a) / sizeof((a)[0]))
#define REDUCE(name, onnx, summary, fn)                                        \
  {name,     onnx, summary,      kReduceOperands, 2,                           \
   kReduced, 1,    kReduceAttrs, N(kReduceAttrs), fn}

const KilnGraphOpInfo kilnGraphReductionOps[] = {
    {"matmul", "MatMul", "numpy matrix product with batch broadcasting",
     kMatMulOperands, 2, kY, 1, NULL, 0, inferMatMul},
    {"gemm", "Gemm", "alpha * A' * B' + beta * C (A', B' maybe transposed)",
     kGemmOperands, 3, kY, 1, kGemmAttrs, N(kGemmAttrs), inferGemm},
    {"softmax", "Softmax", "exp(x) / sum(exp(x)) along an axis", kInput, 1,
     kOutput, 1, kSoftmaxAttrs, N(kSoftmaxAttrs), inferSoftmax},
    {"log_softmax", "LogSoftmax", "log of softmax along an axis", kInput, 1,
     kOutput, 1, kSoftmaxAttrs, N(kSoftmaxAttrs), inferSoftmax},
    REDUCE("reduce_sum", "ReduceSum", "sum over axes", inferReduceNumeric),
    REDUCE("reduce_mean", "ReduceMean", "mean over axes", inferReduceNumeric),
    REDUCE("reduce_max", "ReduceMax", "maximum over axes", inferReduceMinMax),
    REDUCE("reduce_min", "ReduceMin", "minimum over axes", inferReduceMinMax),
    REDUCE("reduce_prod", "ReduceProd", "product over axes",
           inferReduceNumeric),
    REDUCE("reduce_l2", "ReduceL2", "sqrt of the sum of squares over axes",
           inferReduceNumeric),
    REDUCE("reduce_l1", "ReduceL1", "sum of absolute values over axes",
           inferReduceNumeric),
    REDUCE("reduce_log_sum", "ReduceLogSum", "log of the sum over axes",
           inferReduceNumeric),
    REDUCE("reduce_log_sum_exp", "ReduceLogSumExp",
           "log of the sum of exponentials over axes", inferReduceNumeric),
    REDUCE("reduce_sum_square", "ReduceSumSquare", "sum of squares over axes",
           inferReduceNumeric),
    {"argmax", "ArgMax", "index of the maximum along an axis (i64)", kData, 1,
     kReduced, 1, kArgAttrs, N(kArgAttrs), inferArgReduce},
    {"argmin", "ArgMin", "index of the minimum along an axis (i64)", kData, 1,
     kReduced, 1, kArgAttrs, N(kArgAttrs), inferArgReduce},
    {"hardmax", "Hardmax", "1 at the first maximum along an axis, else 0",
     kInput, 1, kOutput, 1, kHardmaxAttrs, N(kHardmaxAttrs), inferSoftmax},
    {"cum_sum", "CumSum", "cumulative sum along an axis", kCumSumOperands, 2,
     kY, 1, kCumSumAttrs, N(kCumSumAttrs), inferCumSum},
    {"top_k", "TopK", "the k largest (or smallest) elements and their indices",
     kTopKOperands, 2, kTopKResults, 2, kTopKAttrs, N(kTopKAttrs), inferTopK},
    {"negative_log_likelihood_loss", "NegativeLogLikelihoodLoss",
     "negative log-likelihood loss of log-probabilities", kNllOperands, 3,
     kLoss, 1, kLossAttrs, N(kLossAttrs), kilnRedInferNllLoss},
    {"softmax_cross_entropy_loss", "SoftmaxCrossEntropyLoss",
     "cross entropy of softmax(scores) and labels", kSceOperands, 3,
     kSceResults, 2, kLossAttrs, N(kLossAttrs), kilnRedInferSceLoss},
    {"einsum", "Einsum", "Einstein summation over one or two operands",
     kEinsumOperands, 2, kOutput, 1, kEinsumAttrs, N(kEinsumAttrs),
     kilnRedInferEinsum},
    {"det", "Det", "determinants of the square matrices in the last two dims",
     kX, 1, kY, 1, NULL, 0, inferDet},
};
const int kilnGraphReductionOpsCount = N(kilnGraphReductionOps);

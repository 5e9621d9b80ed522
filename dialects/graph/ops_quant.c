/* Graph ops of the Quant family (quantization and integer arithmetic):
 * table entries and type inference.
 *
 * QuantizeLinear/DequantizeLinear follow opset 21 (per-tensor, per-axis and
 * blocked quantization; the newer float8/int4/16-bit types), the others their
 * latest opsets (DynamicQuantizeLinear-11, MatMulInteger-10, ConvInteger-10,
 * QLinearMatMul-21, QLinearConv-10). Element types map to ONNX as: iN/siN =
 * intN, uiN = uintN, f8E4M3FN/f8E4M3FNUZ/f8E5M2/f8E5M2FNUZ = the float8
 * types. A scale or zero point that ONNX calls a scalar may also be a 1-D
 * tensor of one element (ONNX's own node tests and ONNX Runtime use that
 * form). The conv window arithmetic is graph.conv's (conv_shape.h). */
#include "dialects/graph/conv_shape.h"
#include "dialects/graph/infer.h"
#include "dialects/graph/op_table.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ---- Element types ------------------------------------------------------ */

enum {
  Q_I8 = 1u << 0,
  Q_UI8 = 1u << 1,
  Q_I16 = 1u << 2,
  Q_UI16 = 1u << 3,
  Q_I32 = 1u << 4,
  Q_I4 = 1u << 5,
  Q_UI4 = 1u << 6,
  Q_F8 = 1u << 7,
  Q_F32 = 1u << 8,
  Q_F16 = 1u << 9,
  Q_BF16 = 1u << 10,
  Q_NUM_CLASSES = 11
};
static const char *const kClassNames[Q_NUM_CLASSES] = {
    "i8",  "ui8", "i16", "ui16",
    "i32", "i4",  "ui4", "f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ",
    "f32", "f16", "bf16"};

#define Q_INT8 (Q_I8 | Q_UI8)
#define Q_SCALE (Q_F32 | Q_F16 | Q_BF16)
/* QuantizeLinear-21's T2, DequantizeLinear-21's T1 without int32. */
#define Q_QUANTIZED (Q_INT8 | Q_I16 | Q_UI16 | Q_I4 | Q_UI4 | Q_F8)

static unsigned classify(MlirType t) {
  if (mlirTypeIsAF32(t))
    return Q_F32;
  if (mlirTypeIsAF16(t))
    return Q_F16;
  if (mlirTypeIsABF16(t))
    return Q_BF16;
  if (mlirTypeIsAFloat8E4M3FN(t) || mlirTypeIsAFloat8E4M3FNUZ(t) ||
      mlirTypeIsAFloat8E5M2(t) || mlirTypeIsAFloat8E5M2FNUZ(t))
    return Q_F8;
  if (!mlirTypeIsAInteger(t))
    return 0;
  bool u = mlirIntegerTypeIsUnsigned(t);
  switch (mlirIntegerTypeGetWidth(t)) {
  case 4:
    return u ? Q_UI4 : Q_I4;
  case 8:
    return u ? Q_UI8 : Q_I8;
  case 16:
    return u ? Q_UI16 : Q_I16;
  case 32:
    return u ? 0 : Q_I32;
  default:
    return 0;
  }
}

static bool failed(MlirLogicalResult r) {
  return mlirLogicalResultIsFailure(r);
}
static bool known(int64_t d) { return !mlirShapedTypeIsDynamicSize(d); }
static MlirType elt(MlirType t) { return mlirShapedTypeGetElementType(t); }
static int64_t dim(MlirType t, intptr_t i) {
  return mlirShapedTypeGetDimSize(t, i);
}
static intptr_t rankOf(MlirType t) { return mlirShapedTypeGetRank(t); }
static const char *name(const KilnInferContext *c, intptr_t i) {
  return c->op->operands[i].name;
}

/* Prints `t` into `buf` (cleared first) and returns the text. */
static const char *typeStr(KilnStrBuf *buf, MlirType t) {
  kilnStrBufClear(buf);
  kilnStrBufAppendType(buf, t);
  return kilnStrBufGet(buf);
}

/* Fails unless element type `e` is in `mask`; `what` names its owner with a
 * verb ("operand 'x' has element type", "attribute 'output_dtype' is"). */
static MlirLogicalResult requireClass(const KilnInferContext *c,
                                      const char *what, MlirType e,
                                      unsigned mask) {
  if (classify(e) & mask)
    return mlirLogicalResultSuccess();
  KilnStrBuf got = {0}, want = {0};
  for (int i = 0; i < Q_NUM_CLASSES; ++i)
    if (mask & (1u << i))
      kilnStrBufAppendf(&want, "%s%s", want.len ? ", " : "", kClassNames[i]);
  kilnInferError(c, "%s %s, expected %s%s", what, typeStr(&got, e),
                 (mask & (mask - 1)) ? "one of " : "", kilnStrBufGet(&want));
  kilnStrBufDestroy(&got);
  kilnStrBufDestroy(&want);
  return mlirLogicalResultFailure();
}

/* Reads operand i as a ranked tensor whose element type is in `mask`. */
static MlirType operandOf(const KilnInferContext *c, intptr_t i,
                          unsigned mask) {
  MlirType t = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(t))
    return t;
  KilnStrBuf what = {0};
  kilnStrBufAppendf(&what, "operand '%s' has element type", name(c, i));
  MlirLogicalResult r = requireClass(c, kilnStrBufGet(&what), elt(t), mask);
  kilnStrBufDestroy(&what);
  return failed(r) ? (MlirType){NULL} : t;
}

/* Fails unless operands i and j have the same element type (one ONNX type
 * variable). */
static MlirLogicalResult requireSameElement(const KilnInferContext *c,
                                            intptr_t i, MlirType ti, intptr_t j,
                                            MlirType tj) {
  if (mlirTypeEqual(elt(ti), elt(tj)))
    return mlirLogicalResultSuccess();
  KilnStrBuf a = {0}, b = {0};
  kilnInferError(c,
                 "operands '%s' and '%s' must have the same element type, "
                 "got %s and %s",
                 name(c, i), name(c, j), typeStr(&a, elt(ti)),
                 typeStr(&b, elt(tj)));
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

/* Reads the zero point at operand zi, which pairs with operand ti (same
 * element type). A null type when absent or wrong; *bad tells which. */
static MlirType zeroPointOf(const KilnInferContext *c, intptr_t zi, intptr_t ti,
                            MlirType t, bool *bad) {
  *bad = false;
  if (mlirValueIsNull(kilnInferOperand(c, zi)))
    return (MlirType){NULL};
  MlirType z = kilnInferRankedOperand(c, zi);
  *bad = mlirTypeIsNull(z) || failed(requireSameElement(c, ti, t, zi, z));
  return *bad ? (MlirType){NULL} : z;
}

/* ---- Scale and zero-point shapes ----------------------------------------- */

/* A scale and its zero point have the same shape (ONNX, every op here). */
static MlirLogicalResult requireSameShape(const KilnInferContext *c,
                                          intptr_t si, MlirType s, intptr_t zi,
                                          MlirType z) {
  bool same = rankOf(s) == rankOf(z);
  for (intptr_t k = 0; same && k < rankOf(s); ++k)
    same = !known(dim(s, k)) || !known(dim(z, k)) || dim(s, k) == dim(z, k);
  if (same)
    return mlirLogicalResultSuccess();
  KilnStrBuf a = {0}, b = {0};
  kilnInferError(
      c, "operands '%s' and '%s' must have the same shape, got %s and %s",
      name(c, si), name(c, zi), typeStr(&a, s), typeStr(&b, z));
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

/* Scalar, or 1-D of one element (`?` may be one). */
static bool isPerTensor(MlirType t) {
  return rankOf(t) == 0 ||
         (rankOf(t) == 1 && (!known(dim(t, 0)) || dim(t, 0) == 1));
}

/* Per-tensor only: a scalar or one element. */
static MlirLogicalResult requirePerTensor(const KilnInferContext *c, intptr_t i,
                                          MlirType t) {
  if (isPerTensor(t))
    return mlirLogicalResultSuccess();
  KilnStrBuf buf = {0};
  kilnInferError(c,
                 "operand '%s' must be a scalar (per-tensor quantization), "
                 "got %s",
                 name(c, i), typeStr(&buf, t));
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

/* Per tensor or per output channel: a scalar or 1-D of 1 or m values. */
static MlirLogicalResult requirePerChannel(const KilnInferContext *c,
                                           intptr_t i, MlirType t, int64_t m) {
  if (isPerTensor(t) || (rankOf(t) == 1 && (!known(m) || dim(t, 0) == m)))
    return mlirLogicalResultSuccess();
  KilnStrBuf buf = {0};
  kilnInferError(c,
                 "operand '%s' must be a scalar or 1-D with one value per "
                 "output channel (%ld), got %s",
                 name(c, i), (long)m, typeStr(&buf, t));
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

/* The scale (operand si) of QuantizeLinear/DequantizeLinear-21 for input
 * x. As ONNX Runtime: a scalar or one element is per-tensor; otherwise
 * block_size = 0 is per-axis (1-D, x.shape[axis] values) and block_size > 0
 * blocked (x's rank, ceil(x.shape[axis] / block_size) along axis, x's dims
 * elsewhere). */
static MlirLogicalResult checkQuantScale(const KilnInferContext *c, intptr_t si,
                                         MlirType x, MlirType s) {
  int64_t block = kilnInferAttrInt(c, "block_size", 0), axis;
  if (block < 0)
    return kilnInferError(c,
                          "attribute 'block_size' must be non-negative, got "
                          "%ld",
                          (long)block);
  if (isPerTensor(s))
    return mlirLogicalResultSuccess();
  intptr_t r = rankOf(x), rs = rankOf(s);
  if (r == 0)
    return kilnInferError(c,
                          "operand '%s' must be a scalar for a rank-0 'x' "
                          "(per-axis and blocked quantization need an axis)",
                          name(c, si));
  if (failed(kilnInferNormalizeAxis(c, "axis", kilnInferAttrInt(c, "axis", 1),
                                    r, &axis)))
    return mlirLogicalResultFailure();
  int64_t d = dim(x, axis);
  if (block == 0) {
    if (rs != 1)
      return kilnInferError(c,
                            "operand '%s' must be a scalar or 1-D (per-axis) "
                            "when 'block_size' is 0, got rank %ld",
                            name(c, si), (long)rs);
    if (known(d) && known(dim(s, 0)) && dim(s, 0) != d)
      return kilnInferError(c,
                            "operand '%s' has %ld values but 'x' has %ld "
                            "along axis %ld (per-axis quantization)",
                            name(c, si), (long)dim(s, 0), (long)d, (long)axis);
    return mlirLogicalResultSuccess();
  }
  if (rs != r)
    return kilnInferError(c,
                          "operand '%s' must have the rank of 'x' (%ld) for "
                          "blocked quantization (block_size %ld), got rank %ld",
                          name(c, si), (long)r, (long)block, (long)rs);
  for (intptr_t k = 0; k < r; ++k) {
    int64_t want =
        k == axis ? (known(d) ? (d + block - 1) / block : d) : dim(x, k);
    if (known(want) && known(dim(s, k)) && dim(s, k) != want)
      return kilnInferError(c,
                            "operand '%s' has %ld values along dimension %ld, "
                            "expected %ld (blocked quantization along axis "
                            "%ld with block_size %ld)",
                            name(c, si), (long)dim(s, k), (long)k, (long)want,
                            (long)axis, (long)block);
  }
  return mlirLogicalResultSuccess();
}

/* ---- QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear ------------- */

static MlirLogicalResult checkOneResult(const KilnInferContext *c, intptr_t n) {
  if (c->numResults == n)
    return mlirLogicalResultSuccess();
  return kilnInferError(c, "has exactly %ld result(s), %ld requested", (long)n,
                        (long)c->numResults);
}

/* y's element type: output_dtype, y_zero_point's type (they must agree),
 * or ui8 when neither is given. */
static MlirLogicalResult quantizedType(const KilnInferContext *c, MlirType z,
                                       MlirType *out) {
  MlirAttribute dtype = kilnInferAttr(c, "output_dtype");
  *out = mlirTypeIsNull(z) ? mlirIntegerTypeUnsignedGet(c->ctx, 8) : elt(z);
  if (mlirAttributeIsNull(dtype))
    return mlirLogicalResultSuccess();
  MlirType t = mlirTypeAttrGetValue(dtype);
  if (failed(requireClass(c, "attribute 'output_dtype' is", t, Q_QUANTIZED)))
    return mlirLogicalResultFailure();
  if (!mlirTypeIsNull(z) && !mlirTypeEqual(t, elt(z))) {
    KilnStrBuf a = {0}, b = {0};
    kilnInferError(c,
                   "attribute 'output_dtype' (%s) must equal the element "
                   "type of 'y_zero_point' (%s)",
                   typeStr(&a, t), typeStr(&b, elt(z)));
    kilnStrBufDestroy(&a);
    kilnStrBufDestroy(&b);
    return mlirLogicalResultFailure();
  }
  *out = t;
  return mlirLogicalResultSuccess();
}

/* `t`'s shape with element type `e`. */
static MlirType withElement(MlirType t, MlirType e) {
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t k = 0; k < rankOf(t) && k < KILN_MAX_RANK; ++k)
    shape[k] = dim(t, k);
  return kilnInferTensorType(rankOf(t), shape, e);
}

/* Reads QuantizeLinear's y_zero_point (any quantized type, y_scale's shape)
 * when present. False after an error. */
static bool readOutputZeroPoint(const KilnInferContext *c, MlirType s,
                                MlirType *z) {
  *z = (MlirType){NULL};
  if (mlirValueIsNull(kilnInferOperand(c, 2)))
    return true;
  *z = operandOf(c, 2, Q_QUANTIZED);
  return !mlirTypeIsNull(*z) && !failed(requireSameShape(c, 1, s, 2, *z));
}

static MlirLogicalResult inferQuantizeLinear(KilnInferContext *c) {
  MlirType x, s, z, y;
  if (failed(checkOneResult(c, 1)) ||
      mlirTypeIsNull(x = operandOf(c, 0, Q_SCALE | Q_I32)) ||
      mlirTypeIsNull(s = operandOf(c, 1, Q_SCALE)))
    return mlirLogicalResultFailure();
  /* Opset 19+ binds x and y_scale to one type; an i32 x keeps the float
   * scale of opsets 10-13. */
  if (classify(elt(x)) != Q_I32 && failed(requireSameElement(c, 0, x, 1, s)))
    return mlirLogicalResultFailure();
  int64_t saturate = kilnInferAttrInt(c, "saturate", 1);
  if (saturate != 0 && saturate != 1)
    return kilnInferError(c, "attribute 'saturate' must be 0 or 1, got %ld",
                          (long)saturate);
  if (!readOutputZeroPoint(c, s, &z) || failed(quantizedType(c, z, &y)) ||
      failed(checkQuantScale(c, 1, x, s)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = withElement(x, y);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferDequantizeLinear(KilnInferContext *c) {
  MlirType x, s, z;
  bool bad;
  if (failed(checkOneResult(c, 1)) ||
      mlirTypeIsNull(x = operandOf(c, 0, Q_QUANTIZED | Q_I32)) ||
      mlirTypeIsNull(s = operandOf(c, 1, Q_SCALE)))
    return mlirLogicalResultFailure();
  z = zeroPointOf(c, 2, 0, x, &bad);
  if (bad || (!mlirTypeIsNull(z) && failed(requireSameShape(c, 1, s, 2, z))) ||
      failed(checkQuantScale(c, 1, x, s)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = withElement(x, elt(s));
  return mlirLogicalResultSuccess();
}

/* y (ui8, x's shape), y_scale (f32 scalar), y_zero_point (ui8 scalar). */
static MlirLogicalResult inferDynamicQuantizeLinear(KilnInferContext *c) {
  MlirType x;
  if (failed(checkOneResult(c, 3)) ||
      mlirTypeIsNull(x = operandOf(c, 0, Q_F32)))
    return mlirLogicalResultFailure();
  MlirType u8 = mlirIntegerTypeUnsignedGet(c->ctx, 8);
  c->resultTypes[0] = withElement(x, u8);
  c->resultTypes[1] = kilnInferTensorType(0, NULL, mlirF32TypeGet(c->ctx));
  c->resultTypes[2] = kilnInferTensorType(0, NULL, u8);
  return mlirLogicalResultSuccess();
}

/* ---- Integer and quantized matmul ---------------------------------------- */

/* numpy.matmul's shape for operands ai (type a) and bi (type b), as
 * graph.matmul (whose inference in ops_reduction.c exports no shape
 * helper): 1-D operands are promoted and the promoted dim dropped, batch
 * dims broadcast. Writes the result shape and rank. */
static MlirLogicalResult matmulShape(const KilnInferContext *c, intptr_t ai,
                                     MlirType a, intptr_t bi, MlirType b,
                                     int64_t *shape, intptr_t *n) {
  intptr_t ra = rankOf(a), rb = rankOf(b);
  if (ra == 0 || rb == 0)
    return kilnInferError(c, "operand '%s' must have rank >= 1, got rank 0",
                          name(c, ra == 0 ? ai : bi));
  int64_t ka = dim(a, ra - 1), kb = dim(b, rb >= 2 ? rb - 2 : 0);
  if (known(ka) && known(kb) && ka != kb)
    return kilnInferError(c,
                          "contraction dimensions differ: '%s' has %ld "
                          "columns but '%s' has %ld rows",
                          name(c, ai), (long)ka, name(c, bi), (long)kb);
  intptr_t ba = ra > 2 ? ra - 2 : 0, bb = rb > 2 ? rb - 2 : 0;
  intptr_t batch = ba > bb ? ba : bb;
  *n = 0;
  for (intptr_t k = 0; k < batch; ++k) {
    intptr_t ia = k - (batch - ba), ib = k - (batch - bb);
    int64_t da = ia >= 0 ? dim(a, ia) : 1, db = ib >= 0 ? dim(b, ib) : 1;
    if (known(da) && known(db) && da != db && da != 1 && db != 1)
      return kilnInferError(c,
                            "batch dimensions are not broadcast-compatible: "
                            "%ld in '%s' vs %ld in '%s' (batch dim %ld)",
                            (long)da, name(c, ai), (long)db, name(c, bi),
                            (long)k);
    /* A static size other than 1 wins; `?` beats a static 1. */
    shape[(*n)++] = (known(da) && da != 1)   ? da
                    : (known(db) && db != 1) ? db
                    : !known(da)             ? da
                                             : db;
  }
  if (ra >= 2)
    shape[(*n)++] = dim(a, ra - 2);
  if (rb >= 2)
    shape[(*n)++] = dim(b, rb - 1);
  return mlirLogicalResultSuccess();
}

static bool dimFits(int64_t d, int64_t want) {
  return !known(d) || !known(want) || d == want;
}

/* A matmul quantization parameter (operand pi) of operand xi (type x):
 * per tensor (scalar, one element), or per row of a (`row`: M values as a
 * 1-D vector or shaped [..., M, 1]) or per column of b (N values, 1-D or
 * [..., 1, N]), as MatMulInteger's and QLinearMatMul's docs describe.
 * Batch dims of the N-D form are x's or 1. */
static MlirLogicalResult checkMatMulParam(const KilnInferContext *c,
                                          intptr_t pi, MlirType p, intptr_t xi,
                                          MlirType x, bool row) {
  intptr_t rp = rankOf(p), rx = rankOf(x);
  if (isPerTensor(p))
    return mlirLogicalResultSuccess();
  /* M is x's second-to-last dim, N its last; a 1-D x has neither. */
  int64_t len = rx < 2 ? 1 : dim(x, row ? rx - 2 : rx - 1);
  bool fits = rp == 1 && dimFits(dim(p, 0), len);
  if (rp == rx && rx >= 2) {
    fits = dimFits(dim(p, rx - 2), row ? len : 1) &&
           dimFits(dim(p, rx - 1), row ? 1 : len);
    for (intptr_t k = 0; fits && k < rx - 2; ++k)
      fits = dim(p, k) == 1 || dimFits(dim(p, k), dim(x, k));
  }
  if (fits)
    return mlirLogicalResultSuccess();
  KilnStrBuf a = {0}, b = {0};
  kilnInferError(c,
                 "operand '%s' of type %s must be a scalar or hold one value "
                 "per %s of '%s' (%s): 1-D or shaped [..., %s]",
                 name(c, pi), typeStr(&a, p), row ? "row" : "column",
                 name(c, xi), typeStr(&b, x), row ? "M, 1" : "1, N");
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult inferMatMulInteger(KilnInferContext *c) {
  MlirType a, b, za, zb;
  bool badA, badB;
  int64_t shape[KILN_MAX_RANK];
  intptr_t n;
  if (failed(checkOneResult(c, 1)) ||
      mlirTypeIsNull(a = operandOf(c, 0, Q_INT8)) ||
      mlirTypeIsNull(b = operandOf(c, 1, Q_INT8)) ||
      failed(matmulShape(c, 0, a, 1, b, shape, &n)))
    return mlirLogicalResultFailure();
  za = zeroPointOf(c, 2, 0, a, &badA);
  if (badA ||
      (!mlirTypeIsNull(za) && failed(checkMatMulParam(c, 2, za, 0, a, true))))
    return mlirLogicalResultFailure();
  zb = zeroPointOf(c, 3, 1, b, &badB);
  if (badB ||
      (!mlirTypeIsNull(zb) && failed(checkMatMulParam(c, 3, zb, 1, b, false))))
    return mlirLogicalResultFailure();
  c->resultTypes[0] =
      kilnInferTensorType(n, shape, mlirIntegerTypeGet(c->ctx, 32));
  return mlirLogicalResultSuccess();
}

/* Reads the (scale, zero point) pair at operands si, si + 1 for the
 * quantized operand xi: one float scale type for the whole op (`*scaleElt`,
 * set by the first pair), the zero point of x's element type and the
 * scale's shape. */
static MlirLogicalResult readPair(const KilnInferContext *c, intptr_t si,
                                  intptr_t xi, MlirType x, unsigned scaleMask,
                                  MlirType *s, MlirType *z) {
  *s = operandOf(c, si, scaleMask);
  if (mlirTypeIsNull(*s) ||
      (si > 1 &&
       failed(requireSameElement(c, 1, kilnInferRankedOperand(c, 1), si, *s))))
    return mlirLogicalResultFailure();
  *z = kilnInferRankedOperand(c, si + 1);
  if (mlirTypeIsNull(*z) || failed(requireSameElement(c, xi, x, si + 1, *z)))
    return mlirLogicalResultFailure();
  return requireSameShape(c, si, *s, si + 1, *z);
}

/* QLinearMatMul-21: a, b and y in T1/T2/T3 (int8, uint8, float8), all
 * scales of one float type. */
static MlirLogicalResult inferQLinearMatMul(KilnInferContext *c) {
  const unsigned kT = Q_INT8 | Q_F8;
  MlirType a, b, y, s, z;
  int64_t shape[KILN_MAX_RANK];
  intptr_t n;
  if (failed(checkOneResult(c, 1)) || mlirTypeIsNull(a = operandOf(c, 0, kT)) ||
      mlirTypeIsNull(b = operandOf(c, 3, kT)) ||
      mlirTypeIsNull(y = operandOf(c, 7, kT)) ||
      failed(matmulShape(c, 0, a, 3, b, shape, &n)) ||
      failed(readPair(c, 1, 0, a, Q_SCALE, &s, &z)) ||
      failed(checkMatMulParam(c, 1, s, 0, a, true)) ||
      failed(readPair(c, 4, 3, b, Q_SCALE, &s, &z)) ||
      failed(checkMatMulParam(c, 4, s, 3, b, false)) ||
      failed(readPair(c, 6, 7, y, Q_SCALE, &s, &z)) ||
      failed(requirePerTensor(c, 6, s)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = kilnInferTensorType(n, shape, elt(y));
  return mlirLogicalResultSuccess();
}

/* ---- Integer and quantized convolution ----------------------------------- */

static MlirLogicalResult inferConvInteger(KilnInferContext *c) {
  MlirType x, w, zx, zw;
  bool bad;
  int64_t shape[KILN_MAX_RANK];
  if (failed(checkOneResult(c, 1)) ||
      mlirTypeIsNull(x = operandOf(c, 0, Q_INT8)) ||
      mlirTypeIsNull(w = operandOf(c, 1, Q_INT8)) ||
      failed(kilnNNConvShape(c, 0, x, 1, w, shape)))
    return mlirLogicalResultFailure();
  zx = zeroPointOf(c, 2, 0, x, &bad);
  if (bad || (!mlirTypeIsNull(zx) && failed(requirePerTensor(c, 2, zx))))
    return mlirLogicalResultFailure();
  zw = zeroPointOf(c, 3, 1, w, &bad);
  if (bad ||
      (!mlirTypeIsNull(zw) && failed(requirePerChannel(c, 3, zw, shape[1]))))
    return mlirLogicalResultFailure();
  c->resultTypes[0] =
      kilnInferTensorType(rankOf(x), shape, mlirIntegerTypeGet(c->ctx, 32));
  return mlirLogicalResultSuccess();
}

/* QLinearConv-10: f32 scales; x and y per tensor, w per output channel;
 * the optional bias is i32 with one value per output channel. */
static MlirLogicalResult inferQLinearConv(KilnInferContext *c) {
  MlirType x, w, y, s, z;
  int64_t shape[KILN_MAX_RANK];
  if (failed(checkOneResult(c, 1)) ||
      mlirTypeIsNull(x = operandOf(c, 0, Q_INT8)) ||
      mlirTypeIsNull(w = operandOf(c, 3, Q_INT8)) ||
      mlirTypeIsNull(y = operandOf(c, 7, Q_INT8)) ||
      failed(kilnNNConvShape(c, 0, x, 3, w, shape)) ||
      failed(readPair(c, 1, 0, x, Q_F32, &s, &z)) ||
      failed(requirePerTensor(c, 1, s)) ||
      failed(readPair(c, 4, 3, w, Q_F32, &s, &z)) ||
      failed(requirePerChannel(c, 4, s, shape[1])) ||
      failed(readPair(c, 6, 7, y, Q_F32, &s, &z)) ||
      failed(requirePerTensor(c, 6, s)))
    return mlirLogicalResultFailure();
  if (!mlirValueIsNull(kilnInferOperand(c, 8))) {
    MlirType bias = operandOf(c, 8, Q_I32);
    if (mlirTypeIsNull(bias))
      return mlirLogicalResultFailure();
    if (rankOf(bias) != 1 || !dimFits(dim(bias, 0), shape[1])) {
      KilnStrBuf buf = {0};
      kilnInferError(c,
                     "operand 'b' must be 1-D with one value per output "
                     "channel (%ld), got %s",
                     (long)shape[1], typeStr(&buf, bias));
      kilnStrBufDestroy(&buf);
      return mlirLogicalResultFailure();
    }
  }
  c->resultTypes[0] = kilnInferTensorType(rankOf(x), shape, elt(y));
  return mlirLogicalResultSuccess();
}

/* ---- The table ----------------------------------------------------------- */

#define SINGLE(n) {n, KILN_OPERAND_SINGLE}
#define OPTIONAL(n) {n, KILN_OPERAND_OPTIONAL}
#define N(a) (int)(sizeof(a) / sizeof((a)[0]))
#define SPECS(a) a, N(a)

static const KilnOperandSpec kQuantizeIn[] = {SINGLE("x"), SINGLE("y_scale"),
                                              OPTIONAL("y_zero_point")};
static const KilnOperandSpec kDequantizeIn[] = {SINGLE("x"), SINGLE("x_scale"),
                                                OPTIONAL("x_zero_point")};
static const KilnOperandSpec kX[] = {SINGLE("x")};
static const KilnOperandSpec kY[] = {SINGLE("y")};
static const KilnOperandSpec kDynamicOut[] = {SINGLE("y"), SINGLE("y_scale"),
                                              SINGLE("y_zero_point")};
static const KilnOperandSpec kMatMulIntegerIn[] = {SINGLE("a"), SINGLE("b"),
                                                   OPTIONAL("a_zero_point"),
                                                   OPTIONAL("b_zero_point")};
static const KilnOperandSpec kConvIntegerIn[] = {SINGLE("x"), SINGLE("w"),
                                                 OPTIONAL("x_zero_point"),
                                                 OPTIONAL("w_zero_point")};
static const KilnOperandSpec kQLinearMatMulIn[] = {
    SINGLE("a"),       SINGLE("a_scale"),     SINGLE("a_zero_point"),
    SINGLE("b"),       SINGLE("b_scale"),     SINGLE("b_zero_point"),
    SINGLE("y_scale"), SINGLE("y_zero_point")};
static const KilnOperandSpec kQLinearConvIn[] = {
    SINGLE("x"),       SINGLE("x_scale"),      SINGLE("x_zero_point"),
    SINGLE("w"),       SINGLE("w_scale"),      SINGLE("w_zero_point"),
    SINGLE("y_scale"), SINGLE("y_zero_point"), OPTIONAL("b")};

#define AXIS                                                                   \
  {"axis", KILN_ATTR_INT, false, "1 : i64",                                    \
   "per-axis/blocked: the quantized axis of x, in [-r, r-1]"}
#define BLOCK_SIZE                                                             \
  {"block_size", KILN_ATTR_INT, false, "0 : i64",                              \
   "> 0: blocked quantization, scales repeated block_size times along axis"}
static const KilnAttrSpec kQuantizeAttrs[] = {
    AXIS,
    BLOCK_SIZE,
    {"output_dtype", KILN_ATTR_TYPE, false, NULL,
     "y's element type; default y_zero_point's, else ui8"},
    {"saturate", KILN_ATTR_INT, false, "1 : i64",
     "float8 outputs: 1 clamps out-of-range values, 0 gives inf/NaN"},
};
static const KilnAttrSpec kDequantizeAttrs[] = {AXIS, BLOCK_SIZE};
static const KilnAttrSpec kConvAttrs[] = {
    {"auto_pad", KILN_ATTR_STRING, false, "\"NOTSET\"",
     "NOTSET, SAME_UPPER, SAME_LOWER or VALID"},
    {"dilations", KILN_ATTR_INTS, false, NULL,
     "one per spatial dimension, default 1"},
    {"group", KILN_ATTR_INT, false, "1 : i64", "number of channel groups"},
    {"kernel_shape", KILN_ATTR_INTS, false, NULL,
     "default: the spatial dimensions of w"},
    {"pads", KILN_ATTR_INTS, false, NULL,
     "begins then ends per spatial dimension, default 0"},
    {"strides", KILN_ATTR_INTS, false, NULL,
     "one per spatial dimension, default 1"},
};

const KilnGraphOpInfo kilnGraphQuantOps[] = {
    {"quantize_linear", "QuantizeLinear",
     "saturate(round(x / y_scale) + y_zero_point), per tensor, axis or block",
     SPECS(kQuantizeIn), SPECS(kY), SPECS(kQuantizeAttrs), inferQuantizeLinear},
    {"dequantize_linear", "DequantizeLinear",
     "(x - x_zero_point) * x_scale, per tensor, axis or block",
     SPECS(kDequantizeIn), SPECS(kY), SPECS(kDequantizeAttrs),
     inferDequantizeLinear},
    {"dynamic_quantize_linear", "DynamicQuantizeLinear",
     "quantizes x to ui8 with a scale and zero point from its range", SPECS(kX),
     SPECS(kDynamicOut), NULL, 0, inferDynamicQuantizeLinear},
    {"matmul_integer", "MatMulInteger",
     "(a - a_zero_point) x (b - b_zero_point) in i32, numpy matmul shapes",
     SPECS(kMatMulIntegerIn), SPECS(kY), NULL, 0, inferMatMulInteger},
    {"conv_integer", "ConvInteger",
     "convolution of (x - x_zero_point) by (w - w_zero_point) in i32",
     SPECS(kConvIntegerIn), SPECS(kY), SPECS(kConvAttrs), inferConvInteger},
    {"qlinear_matmul", "QLinearMatMul",
     "quantized matmul: dequantize a and b, multiply, quantize to y",
     SPECS(kQLinearMatMulIn), SPECS(kY), NULL, 0, inferQLinearMatMul},
    {"qlinear_conv", "QLinearConv",
     "quantized convolution with an optional i32 bias", SPECS(kQLinearConvIn),
     SPECS(kY), SPECS(kConvAttrs), inferQLinearConv},
};
const int kilnGraphQuantOpsCount = N(kilnGraphQuantOps);

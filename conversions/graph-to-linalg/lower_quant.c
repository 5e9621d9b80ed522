/* Quantization ops (ops_quant.c) → linalg.
 *
 * The importer keeps ONNX's uint8/uint16 as ui8/ui16, so every quantized
 * element is read through kilnToSignless and extended with its own
 * signedness; results go back through kilnFromSignless. Quantizing is
 * saturate(roundeven(x / scale) + zero_point) computed in f32 (round half to
 * even, as ONNX and ONNX Runtime); dequantizing is (x - zero_point) * scale
 * with the difference taken exactly in i64.
 *
 * The integer matmul and convolution accumulate (a - a_zp) * (b - b_zp) in
 * i32 in a linalg.generic; the QLinear variants then requantize the i32
 * accumulator with the multiplier a_scale * b_scale / y_scale, as ONNX
 * Runtime does. Convolution subtracts x's zero point first and pads with 0,
 * which is ONNX Runtime's padding with the zero point. */
#include <string.h>

#include "conversions/graph-to-linalg/lower.h"

/* ---- Element types and scalars ------------------------------------------- */

static MlirType f32Type(KilnBuilder *b) { return mlirF32TypeGet(b->ctx); }
static MlirType i32Type(KilnBuilder *b) {
  return mlirIntegerTypeGet(b->ctx, 32);
}

/* An integer element type Kiln quantizes to/from: (u)int8 or (u)int16. */
static bool isQuantInt(MlirType t) {
  return mlirTypeIsAInteger(t) &&
         (mlirIntegerTypeGetWidth(t) == 8 || mlirIntegerTypeGetWidth(t) == 16);
}

/* Any integer (maybe unsigned) or float scalar as f32. */
static MlirValue toF32(KilnBuilder *b, MlirValue x) {
  bool u = kilnTypeIsUnsignedInt(mlirValueGetType(x));
  return kilnConvertScalar(b, kilnToSignless(b, x), f32Type(b), u);
}

/* An integer scalar (maybe unsigned) extended to signless i<width>. */
static MlirValue toInt(KilnBuilder *b, MlirValue x, unsigned width) {
  bool u = kilnTypeIsUnsignedInt(mlirValueGetType(x));
  return kilnConvertScalar(b, kilnToSignless(b, x),
                           mlirIntegerTypeGet(b->ctx, width), u);
}

/* saturate(roundeven(v) + zp) as element type q (iN/uiN); v and zp (may be
 * null) are f32. NaN saturates to the low end. */
static MlirValue quantizeScalar(KilnBuilder *b, MlirValue v, MlirValue zp,
                                MlirType q) {
  unsigned w = mlirIntegerTypeGetWidth(q);
  bool u = kilnTypeIsUnsignedInt(q);
  double lo = u ? 0 : -(double)(1 << (w - 1));
  double hi = u ? (double)((1 << w) - 1) : (double)((1 << (w - 1)) - 1);
  MlirValue r = kilnArith1(b, "math.roundeven", v);
  if (!mlirValueIsNull(zp))
    r = kilnArith2(b, "arith.addf", r, zp);
  r = kilnArith2(b, "arith.maxnumf", r, kilnConstFloat(b, f32Type(b), lo));
  r = kilnArith2(b, "arith.minnumf", r, kilnConstFloat(b, f32Type(b), hi));
  MlirValue i = kilnConvertScalar(b, r, i32Type(b), false);
  i = kilnConvertScalar(b, i, mlirIntegerTypeGet(b->ctx, w), false);
  return kilnFromSignless(b, i, q);
}

static char *parallelIters(char *buf, intptr_t n) {
  memset(buf, 'p', n);
  buf[n] = '\0';
  return buf;
}

/* Map reading a parameter tensor of type `p` in an iteration space of
 * `nLoops`: its dim j is loop loops[j], or index 0 where the dim is 1. */
static MlirAttribute paramMap(MlirContext ctx, MlirType p, intptr_t nLoops,
                              const int64_t *loops) {
  MlirAffineExpr exprs[KILN_MAX_RANK];
  intptr_t r = mlirShapedTypeGetRank(p);
  for (intptr_t j = 0; j < r; ++j)
    exprs[j] = mlirShapedTypeGetDimSize(p, j) == 1
                   ? mlirAffineConstantExprGet(ctx, 0)
                   : mlirAffineDimExprGet(ctx, loops[j]);
  return kilnMapExprs(ctx, nLoops, r, exprs);
}

/* Map for a per-tensor parameter (scalar or one element). */
static MlirAttribute scalarMap(MlirContext ctx, MlirType p, intptr_t nLoops) {
  int64_t zeros[KILN_MAX_RANK] = {0};
  return paramMap(ctx, p, nLoops, zeros);
}

/* ---- quantize_linear, dequantize_linear ---------------------------------- */

/* The map of a quantize/dequantize scale or zero point `p` for x of rank r:
 * per tensor, per axis (1-D along `axis`) or blocked (x's rank, dim `axis`
 * divided by `block`). */
static MlirAttribute quantParamMap(MlirContext ctx, MlirType p, intptr_t r,
                                   int64_t axis, int64_t block) {
  intptr_t rp = mlirShapedTypeGetRank(p);
  if (rp == 0 || (rp == 1 && mlirShapedTypeGetDimSize(p, 0) == 1))
    return scalarMap(ctx, p, r);
  if (block <= 0)
    return paramMap(ctx, p, r, &axis);
  MlirAffineExpr exprs[KILN_MAX_RANK];
  for (intptr_t j = 0; j < r; ++j) {
    exprs[j] = mlirAffineDimExprGet(ctx, j);
    if (j == axis)
      exprs[j] = mlirAffineFloorDivExprGet(
          exprs[j], mlirAffineConstantExprGet(ctx, block));
  }
  return kilnMapExprs(ctx, r, r, exprs);
}

typedef struct Quant {
  bool hasZp;
  MlirType elt; /* result element type */
} Quant;

static void quantizeBody(KilnBuilder *b, const MlirValue *args,
                         MlirValue *yields, void *userData) {
  const Quant *q = userData;
  MlirValue v =
      kilnArith2(b, "arith.divf", toF32(b, args[0]), toF32(b, args[1]));
  yields[0] = quantizeScalar(
      b, v, q->hasZp ? toF32(b, args[2]) : (MlirValue){NULL}, q->elt);
}

static void dequantizeBody(KilnBuilder *b, const MlirValue *args,
                           MlirValue *yields, void *userData) {
  const Quant *q = userData;
  MlirValue x = toInt(b, args[0], 64);
  if (q->hasZp)
    x = kilnArith2(b, "arith.subi", x, toInt(b, args[2], 64));
  MlirValue y = kilnArith2(b, "arith.mulf", toF32(b, x), toF32(b, args[1]));
  yields[0] = kilnConvertScalar(b, y, q->elt, false);
}

/* Shared by quantize and dequantize: x, scale, optional zero point, one
 * elementwise generic over x's shape. */
static KilnLowerStatus lowerQuantLike(KilnLowerOp *l, KilnBodyFn body) {
  MlirValue in[3] = {kilnLowerOperand(l, 0), kilnLowerOperand(l, 1),
                     kilnLowerOperand(l, 2)};
  MlirType resultType = kilnLowerResultType(l, 0);
  Quant q = {!mlirValueIsNull(in[2]), mlirShapedTypeGetElementType(resultType)};
  intptr_t r = kilnRank(in[0]);
  int64_t axis = 0, block = kilnInferAttrInt(&l->infer, "block_size", 0);
  /* The axis only matters (and must be in range) when the scale is not
   * per tensor. */
  MlirType scale = mlirValueGetType(in[1]);
  bool perTensor =
      kilnNumElements(scale) == 1 && mlirShapedTypeGetRank(scale) <= 1;
  if (!perTensor &&
      !kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", 1), r, &axis))
    return KILN_LOWER_ERROR;
  MlirAttribute maps[4];
  maps[0] = kilnMapIdentity(l->b.ctx, r);
  for (int i = 1; i < 2 + q.hasZp; ++i)
    maps[i] = quantParamMap(l->b.ctx, mlirValueGetType(in[i]), r, axis, block);
  maps[2 + q.hasZp] = kilnMapIdentity(l->b.ctx, r);
  char iters[KILN_MAX_RANK + 1];
  MlirValue init = kilnEmpty(&l->b, resultType);
  l->results[0] =
      mlirOperationGetResult(kilnGeneric(&l->b, 2 + q.hasZp, in, 1, &init, maps,
                                         r, parallelIters(iters, r), body, &q),
                             0);
  return KILN_LOWER_OK;
}

static KilnLowerStatus lowerQuantizeLinear(KilnLowerOp *l) {
  MlirType y = mlirShapedTypeGetElementType(kilnLowerResultType(l, 0));
  if (!isQuantInt(y))
    return kilnLowerUnsupported(l, "to this element type (Kiln quantizes to "
                                   "8- and 16-bit integers)");
  return lowerQuantLike(l, quantizeBody);
}

static KilnLowerStatus lowerDequantizeLinear(KilnLowerOp *l) {
  MlirType x = kilnElementType(kilnLowerOperand(l, 0));
  if (!isQuantInt(x) &&
      !(mlirTypeIsAInteger(x) && mlirIntegerTypeGetWidth(x) == 32))
    return kilnLowerUnsupported(l, "from this element type (Kiln "
                                   "dequantizes 8-, 16- and 32-bit "
                                   "integers)");
  return lowerQuantLike(l, dequantizeBody);
}

/* ---- dynamic_quantize_linear --------------------------------------------- */

static void minMaxBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  (void)userData;
  yields[0] = kilnArith2(b, "arith.minimumf", args[1], args[0]);
  yields[1] = kilnArith2(b, "arith.maximumf", args[2], args[0]);
}

typedef struct DynQuant {
  MlirValue scale, zp; /* f32 scalars */
  MlirType elt;
} DynQuant;

static void dynQuantBody(KilnBuilder *b, const MlirValue *args,
                         MlirValue *yields, void *userData) {
  const DynQuant *d = userData;
  MlirValue v = kilnArith2(b, "arith.divf", args[0], d->scale);
  yields[0] = quantizeScalar(b, v, d->zp, d->elt);
}

/* tensor.from_elements of one scalar: a rank-0 tensor. */
static MlirValue scalarTensor(KilnBuilder *b, MlirValue v) {
  MlirType t = kilnTensorType(0, NULL, mlirValueGetType(v));
  return kilnBuildOp1(b, "tensor.from_elements", t, 1, &v, 0, NULL);
}

/* min(0, min(x)) and max(0, max(x)) as f32 scalars. */
static void rangeWithZero(KilnBuilder *b, MlirValue x, MlirValue *lo,
                          MlirValue *hi) {
  intptr_t r = kilnRank(x);
  MlirType scalarT = kilnTensorType(0, NULL, f32Type(b));
  MlirValue zero = kilnConstFloat(b, f32Type(b), 0);
  MlirValue inits[2] = {kilnFilled(b, scalarT, zero),
                        kilnFilled(b, scalarT, zero)};
  MlirAttribute maps[3] = {
      kilnMapIdentity(b->ctx, r),
      mlirAffineMapAttrGet(mlirAffineMapGet(b->ctx, r, 0, 0, NULL)),
      mlirAffineMapAttrGet(mlirAffineMapGet(b->ctx, r, 0, 0, NULL))};
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'r', r);
  iters[r] = '\0';
  MlirOperation op =
      kilnGeneric(b, 1, &x, 2, inits, maps, r, iters, minMaxBody, NULL);
  MlirValue mn = mlirOperationGetResult(op, 0);
  MlirValue mx = mlirOperationGetResult(op, 1);
  *lo = kilnBuildOp1(b, "tensor.extract", f32Type(b), 1, &mn, 0, NULL);
  *hi = kilnBuildOp1(b, "tensor.extract", f32Type(b), 1, &mx, 0, NULL);
}

static KilnLowerStatus lowerDynamicQuantizeLinear(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType yType = kilnLowerResultType(l, 0);
  MlirType u8 = mlirShapedTypeGetElementType(yType);
  MlirValue lo, hi;
  rangeWithZero(b, x, &lo, &hi);
  DynQuant d = {{NULL}, {NULL}, u8};
  d.scale = kilnArith2(b, "arith.divf", kilnArith2(b, "arith.subf", hi, lo),
                       kilnConstFloat(b, f32Type(b), 255));
  /* zero point = saturate(round(0 - lo / scale)) in [0, 255]. */
  MlirValue zpF = kilnArith2(b, "arith.subf", kilnConstFloat(b, f32Type(b), 0),
                             kilnArith2(b, "arith.divf", lo, d.scale));
  MlirValue zpQ = quantizeScalar(b, zpF, (MlirValue){NULL}, u8);
  d.zp = toF32(b, zpQ);
  l->results[0] = kilnElementwise(b, 1, &x, yType, dynQuantBody, &d);
  l->results[1] = scalarTensor(b, d.scale);
  l->results[2] = scalarTensor(b, zpQ);
  return KILN_LOWER_OK;
}

/* ---- Integer matmul ------------------------------------------------------ */

/* (a - za) * (b - zb) summed in i32 over K; operands are a, b, then the
 * zero points present. */
typedef struct IntMatMul {
  bool hasZa, hasZb;
} IntMatMul;

static void intMatMulBody(KilnBuilder *b, const MlirValue *args,
                          MlirValue *yields, void *userData) {
  const IntMatMul *m = userData;
  int i = 2;
  MlirValue x = toInt(b, args[0], 32), y = toInt(b, args[1], 32);
  if (m->hasZa)
    x = kilnArith2(b, "arith.subi", x, toInt(b, args[i++], 32));
  if (m->hasZb)
    y = kilnArith2(b, "arith.subi", y, toInt(b, args[i++], 32));
  yields[0] =
      kilnArith2(b, "arith.addi", args[i], kilnArith2(b, "arith.muli", x, y));
}

/* The loops of an operand (or parameter) of rank `rank` whose last two dims
 * are (last2[0], last2[1]) and whose leading dims align right with the nb
 * batch loops 0..nb-1. */
static void batchLoops(intptr_t rank, intptr_t nb, const int64_t *last2,
                       int64_t *loops) {
  for (intptr_t j = 0; j < rank - 2; ++j)
    loops[j] = nb - (rank - 2) + j;
  loops[rank - 2] = last2[0];
  loops[rank - 1] = last2[1];
}

/* The map of a matmul zero point or scale `p` of operand of rank rx (after
 * promotion to >= 2): per tensor, 1-D along loop `vecLoop`, or N-D with
 * last two dims (last2). */
static MlirAttribute matmulParamMap(MlirContext ctx, MlirType p, intptr_t nb,
                                    intptr_t nLoops, int64_t vecLoop,
                                    const int64_t *last2) {
  intptr_t rp = mlirShapedTypeGetRank(p);
  if (rp <= 1)
    return rp == 1 ? paramMap(ctx, p, nLoops, &vecLoop)
                   : scalarMap(ctx, p, nLoops);
  int64_t loops[KILN_MAX_RANK];
  batchLoops(rp, nb, last2, loops);
  return paramMap(ctx, p, nLoops, loops);
}

/* Builds the i32 accumulator [batch..., M, N] of an integer matmul of a and
 * b (rank >= 1, numpy promotion) with optional zero points za, zb; returns
 * it with its batch rank in *nbOut. */
static MlirValue intMatMul(KilnBuilder *b, MlirValue a, MlirValue bm,
                           MlirValue za, MlirValue zb, intptr_t *nbOut) {
  MlirContext ctx = b->ctx;
  intptr_t ra = kilnRank(a), rb = kilnRank(bm);
  int64_t shape[KILN_MAX_RANK];
  if (ra == 1) { /* [K] -> [1, K] */
    shape[0] = 1, shape[1] = kilnDim(a, 0);
    a = kilnReshape(b, a, kilnTensorType(2, shape, kilnElementType(a))), ra = 2;
  }
  if (rb == 1) { /* [K] -> [K, 1] */
    shape[0] = kilnDim(bm, 0), shape[1] = 1;
    bm = kilnReshape(b, bm, kilnTensorType(2, shape, kilnElementType(bm)));
    rb = 2;
  }
  intptr_t nb = (ra > rb ? ra : rb) - 2, n = nb + 3;
  for (intptr_t j = 0; j < nb; ++j) {
    intptr_t ia = j - (nb - (ra - 2)), ib = j - (nb - (rb - 2));
    int64_t da = ia >= 0 ? kilnDim(a, ia) : 1,
            db = ib >= 0 ? kilnDim(bm, ib) : 1;
    shape[j] = da != 1 ? da : db;
  }
  shape[nb] = kilnDim(a, ra - 2), shape[nb + 1] = kilnDim(bm, rb - 1);
  int64_t mk[2] = {nb, nb + 2}, kn[2] = {nb + 2, nb + 1};
  int64_t m1[2] = {nb, nb + 2}, n1[2] = {nb + 2, nb + 1};
  int64_t loops[KILN_MAX_RANK];
  MlirValue in[4] = {a, bm};
  MlirAttribute maps[5];
  batchLoops(ra, nb, mk, loops);
  maps[0] = paramMap(ctx, mlirValueGetType(a), n, loops);
  batchLoops(rb, nb, kn, loops);
  maps[1] = paramMap(ctx, mlirValueGetType(bm), n, loops);
  intptr_t ni = 2;
  IntMatMul m = {!mlirValueIsNull(za), !mlirValueIsNull(zb)};
  if (m.hasZa) {
    in[ni] = za;
    maps[ni++] = matmulParamMap(ctx, mlirValueGetType(za), nb, n, nb, m1);
  }
  if (m.hasZb) {
    in[ni] = zb;
    maps[ni++] = matmulParamMap(ctx, mlirValueGetType(zb), nb, n, nb + 1, n1);
  }
  int64_t outLoops[KILN_MAX_RANK];
  for (intptr_t j = 0; j < nb + 2; ++j)
    outLoops[j] = j;
  maps[ni] = kilnMapDims(ctx, n, nb + 2, outLoops);
  MlirValue init = kilnFilled(b, kilnTensorType(nb + 2, shape, i32Type(b)),
                              kilnConstInt(b, i32Type(b), 0));
  char iters[KILN_MAX_RANK + 4];
  parallelIters(iters, n);
  iters[n - 1] = 'r';
  *nbOut = nb;
  return mlirOperationGetResult(
      kilnGeneric(b, ni, in, 1, &init, maps, n, iters, intMatMulBody, &m), 0);
}

static bool int8Operands(KilnLowerOp *l, int i, int j) {
  return isQuantInt(kilnElementType(kilnLowerOperand(l, i))) &&
         isQuantInt(kilnElementType(kilnLowerOperand(l, j)));
}

static KilnLowerStatus lowerMatMulInteger(KilnLowerOp *l) {
  if (!int8Operands(l, 0, 1))
    return kilnLowerUnsupported(l, "on these element types");
  intptr_t nb;
  MlirValue acc =
      intMatMul(&l->b, kilnLowerOperand(l, 0), kilnLowerOperand(l, 1),
                kilnLowerOperand(l, 2), kilnLowerOperand(l, 3), &nb);
  l->results[0] = kilnReshape(&l->b, acc, kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

/* ---- Requantization ------------------------------------------------------ */

/* y = saturate(roundeven(acc (+ bias) * (sx * sw / sy)) + zy); operands:
 * acc, sx, sw, sy, zy, then bias when hasBias. */
typedef struct Requant {
  bool hasBias;
  MlirType elt;
} Requant;

static void requantBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  const Requant *q = userData;
  MlirValue acc = args[0];
  if (q->hasBias)
    acc = kilnArith2(b, "arith.addi", acc, args[5]);
  MlirValue mult = kilnArith2(
      b, "arith.divf",
      kilnArith2(b, "arith.mulf", toF32(b, args[1]), toF32(b, args[2])),
      toF32(b, args[3]));
  MlirValue v = kilnArith2(b, "arith.mulf", toF32(b, acc), mult);
  yields[0] = quantizeScalar(b, v, toF32(b, args[4]), q->elt);
}

static MlirValue requantize(KilnBuilder *b, intptr_t nIn, const MlirValue *in,
                            const MlirAttribute *inMaps, MlirType resultType) {
  Requant q = {nIn == 6, mlirShapedTypeGetElementType(resultType)};
  intptr_t r = mlirShapedTypeGetRank(resultType);
  MlirAttribute maps[7];
  memcpy(maps, inMaps, nIn * sizeof(MlirAttribute));
  maps[nIn] = kilnMapIdentity(b->ctx, r);
  char iters[KILN_MAX_RANK + 1];
  MlirValue init = kilnEmpty(b, resultType);
  return mlirOperationGetResult(kilnGeneric(b, nIn, in, 1, &init, maps, r,
                                            parallelIters(iters, r),
                                            requantBody, &q),
                                0);
}

static KilnLowerStatus lowerQLinearMatMul(KilnLowerOp *l) {
  MlirType resultType = kilnLowerResultType(l, 0);
  if (!int8Operands(l, 0, 3) ||
      !isQuantInt(mlirShapedTypeGetElementType(resultType)))
    return kilnLowerUnsupported(l, "on these element types (Kiln lowers "
                                   "8- and 16-bit integers)");
  intptr_t nb;
  MlirValue acc =
      intMatMul(&l->b, kilnLowerOperand(l, 0), kilnLowerOperand(l, 3),
                kilnLowerOperand(l, 2), kilnLowerOperand(l, 5), &nb);
  MlirContext ctx = l->b.ctx;
  intptr_t n = nb + 2;
  int64_t m1[2] = {nb, nb + 1}, n1[2] = {nb, nb + 1};
  MlirValue in[5] = {acc, kilnLowerOperand(l, 1), kilnLowerOperand(l, 4),
                     kilnLowerOperand(l, 6), kilnLowerOperand(l, 7)};
  MlirAttribute maps[5] = {
      kilnMapIdentity(ctx, n),
      matmulParamMap(ctx, mlirValueGetType(in[1]), nb, n, nb, m1),
      matmulParamMap(ctx, mlirValueGetType(in[2]), nb, n, nb + 1, n1),
      scalarMap(ctx, mlirValueGetType(in[3]), n),
      scalarMap(ctx, mlirValueGetType(in[4]), n)};
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t j = 0; j < n; ++j)
    shape[j] = kilnDim(acc, j);
  MlirType full =
      kilnTensorType(n, shape, mlirShapedTypeGetElementType(resultType));
  l->results[0] =
      kilnReshape(&l->b, requantize(&l->b, 5, in, maps, full), resultType);
  return KILN_LOWER_OK;
}

/* ---- Integer convolution ------------------------------------------------- */

typedef struct ConvGeom {
  intptr_t ns; /* spatial dims */
  int64_t group;
  int64_t strides[KILN_MAX_RANK], dilations[KILN_MAX_RANK];
  int64_t kernel[KILN_MAX_RANK], padBegin[KILN_MAX_RANK], out[KILN_MAX_RANK];
} ConvGeom;

static bool stringIs(MlirStringRef s, const char *c) {
  return s.length == strlen(c) && !memcmp(s.data, c, s.length);
}

/* Resolves strides, dilations, group and the leading pads (auto_pad) of a
 * conv of x by w into the result type's spatial shape. */
static KilnLowerStatus convGeometry(KilnLowerOp *l, MlirValue x, MlirValue w,
                                    MlirType resultType, ConvGeom *g) {
  KilnInferContext *c = &l->infer;
  g->ns = kilnRank(x) - 2;
  g->group = kilnInferAttrInt(c, "group", 1);
  int64_t pads[2 * KILN_MAX_RANK];
  intptr_t np = kilnInferAttrInts(c, "pads", pads, 2 * KILN_MAX_RANK);
  if (g->ns < 1 || g->group < 1 || kilnDim(w, 0) % g->group ||
      kilnDim(w, 1) * g->group != kilnDim(x, 1))
    return kilnLowerError(l, "invalid shapes or 'group'");
  if (kilnInferAttrInts(c, "strides", g->strides, KILN_MAX_RANK) < 0)
    for (intptr_t i = 0; i < g->ns; ++i)
      g->strides[i] = 1;
  if (kilnInferAttrInts(c, "dilations", g->dilations, KILN_MAX_RANK) < 0)
    for (intptr_t i = 0; i < g->ns; ++i)
      g->dilations[i] = 1;
  MlirStringRef autoPad = kilnInferAttrString(c, "auto_pad", "NOTSET");
  bool same =
      stringIs(autoPad, "SAME_UPPER") || stringIs(autoPad, "SAME_LOWER");
  for (intptr_t i = 0; i < g->ns; ++i) {
    g->kernel[i] = kilnDim(w, 2 + i);
    g->out[i] = mlirShapedTypeGetDimSize(resultType, 2 + i);
    int64_t needed = (g->out[i] - 1) * g->strides[i] +
                     (g->kernel[i] - 1) * g->dilations[i] + 1;
    int64_t total = needed - kilnDim(x, 2 + i);
    total = total > 0 ? total : 0;
    g->padBegin[i] = 0;
    if (same)
      g->padBegin[i] =
          stringIs(autoPad, "SAME_UPPER") ? total / 2 : total - total / 2;
    else if (stringIs(autoPad, "NOTSET") && np == 2 * g->ns)
      g->padBegin[i] = pads[i];
    if (g->padBegin[i] < 0)
      return kilnLowerUnsupported(l, "with negative pads");
  }
  return KILN_LOWER_OK;
}

static void subZeroPointBody(KilnBuilder *b, const MlirValue *args,
                             MlirValue *yields, void *userData) {
  const bool *hasZp = userData;
  MlirValue x = toInt(b, args[0], 32);
  if (*hasZp)
    x = kilnArith2(b, "arith.subi", x, toInt(b, args[1], 32));
  yields[0] = x;
}

/* x - zp as i32 (zp per tensor, or 1-D along loop `zpLoop`; may be null). */
static MlirValue subZeroPoint(KilnBuilder *b, MlirValue x, MlirValue zp,
                              int64_t zpLoop) {
  intptr_t r = kilnRank(x);
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t j = 0; j < r; ++j)
    shape[j] = kilnDim(x, j);
  bool hasZp = !mlirValueIsNull(zp);
  MlirValue in[2] = {x, zp};
  MlirAttribute maps[3] = {kilnMapIdentity(b->ctx, r)};
  if (hasZp)
    maps[1] = paramMap(b->ctx, mlirValueGetType(zp), r, &zpLoop);
  maps[1 + hasZp] = kilnMapIdentity(b->ctx, r);
  char iters[KILN_MAX_RANK + 1];
  MlirValue init = kilnEmpty(b, kilnTensorType(r, shape, i32Type(b)));
  return mlirOperationGetResult(kilnGeneric(b, 1 + hasZp, in, 1, &init, maps, r,
                                            parallelIters(iters, r),
                                            subZeroPointBody, &hasZp),
                                0);
}

/* x (i32) zero-padded so that every window read is in bounds. */
static MlirValue padInput(KilnBuilder *b, MlirValue x, const ConvGeom *g) {
  intptr_t r = kilnRank(x);
  int64_t shape[KILN_MAX_RANK], offsets[KILN_MAX_RANK] = {0},
                                strides[KILN_MAX_RANK];
  bool needed = false;
  for (intptr_t j = 0; j < r; ++j) {
    shape[j] = kilnDim(x, j);
    strides[j] = 1;
  }
  for (intptr_t i = 0; i < g->ns; ++i) {
    int64_t in = kilnDim(x, 2 + i),
            reach = (g->out[i] - 1) * g->strides[i] +
                    (g->kernel[i] - 1) * g->dilations[i] + 1;
    offsets[2 + i] = g->padBegin[i];
    shape[2 + i] = in + g->padBegin[i] > reach ? in + g->padBegin[i] : reach;
    needed |= shape[2 + i] != in || g->padBegin[i] != 0;
  }
  if (!needed)
    return x;
  MlirValue zeros = kilnFilled(b, kilnTensorType(r, shape, i32Type(b)),
                               kilnConstInt(b, i32Type(b), 0));
  return kilnInsertSlice(b, x, zeros, offsets, strides);
}

static void macBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArith2(b, "arith.addi", args[2],
                         kilnArith2(b, "arith.muli", args[0], args[1]));
}

/* Reshapes [A, B, rest...] to [A, groups, B / groups, rest...]. */
static MlirValue splitGroups(KilnBuilder *b, MlirValue t, int64_t groups,
                             intptr_t dim) {
  intptr_t r = kilnRank(t);
  int64_t shape[KILN_MAX_RANK + 1];
  for (intptr_t j = 0, k = 0; j < r; ++j) {
    if (j == dim) {
      shape[k++] = groups;
      shape[k++] = kilnDim(t, j) / groups;
    } else {
      shape[k++] = kilnDim(t, j);
    }
  }
  return kilnReshape(b, t, kilnTensorType(r + 1, shape, kilnElementType(t)));
}

/* The i32 convolution of xs (i32, [N, C, S...]) by ws (i32, [M, C/G, K...])
 * as [N, M, O...]. Loops: n, g, m, o..., c, k... */
static MlirValue intConv(KilnBuilder *b, MlirValue xs, MlirValue ws,
                         const ConvGeom *g) {
  MlirContext ctx = b->ctx;
  intptr_t ns = g->ns, n = 4 + 2 * ns, cLoop = 3 + ns;
  MlirValue in[2] = {splitGroups(b, padInput(b, xs, g), g->group, 1),
                     splitGroups(b, ws, g->group, 0)};
  MlirAffineExpr xe[KILN_MAX_RANK + 1], we[KILN_MAX_RANK + 1],
      oe[KILN_MAX_RANK + 1];
  int64_t shape[KILN_MAX_RANK + 1] = {kilnDim(xs, 0), g->group,
                                      kilnDim(ws, 0) / g->group};
  xe[0] = oe[0] = mlirAffineDimExprGet(ctx, 0);
  xe[1] = we[0] = oe[1] = mlirAffineDimExprGet(ctx, 1);
  we[1] = oe[2] = mlirAffineDimExprGet(ctx, 2);
  xe[2] = we[2] = mlirAffineDimExprGet(ctx, cLoop);
  for (intptr_t i = 0; i < ns; ++i) {
    MlirAffineExpr o = mlirAffineDimExprGet(ctx, 3 + i);
    MlirAffineExpr k = mlirAffineDimExprGet(ctx, cLoop + 1 + i);
    xe[3 + i] = mlirAffineAddExprGet(
        mlirAffineMulExprGet(o, mlirAffineConstantExprGet(ctx, g->strides[i])),
        mlirAffineMulExprGet(k,
                             mlirAffineConstantExprGet(ctx, g->dilations[i])));
    we[3 + i] = k;
    oe[3 + i] = o;
    shape[3 + i] = g->out[i];
  }
  MlirAttribute maps[3] = {kilnMapExprs(ctx, n, 3 + ns, xe),
                           kilnMapExprs(ctx, n, 3 + ns, we),
                           kilnMapExprs(ctx, n, 3 + ns, oe)};
  MlirValue init = kilnFilled(b, kilnTensorType(3 + ns, shape, i32Type(b)),
                              kilnConstInt(b, i32Type(b), 0));
  char iters[2 * KILN_MAX_RANK + 5];
  parallelIters(iters, n);
  memset(iters + cLoop, 'r', n - cLoop);
  MlirValue acc = mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &init, maps, n, iters, macBody, NULL), 0);
  int64_t outShape[KILN_MAX_RANK] = {shape[0], kilnDim(ws, 0)};
  for (intptr_t i = 0; i < ns; ++i)
    outShape[2 + i] = g->out[i];
  return kilnReshape(b, acc, kilnTensorType(2 + ns, outShape, i32Type(b)));
}

/* The i32 accumulator of ConvInteger / QLinearConv for operands x, w and
 * zero points zx, zw (null when absent). */
static KilnLowerStatus convAccumulator(KilnLowerOp *l, intptr_t xi, intptr_t wi,
                                       intptr_t zxi, intptr_t zwi,
                                       MlirValue *acc) {
  MlirValue x = kilnLowerOperand(l, xi), w = kilnLowerOperand(l, wi);
  if (!isQuantInt(kilnElementType(x)) || !isQuantInt(kilnElementType(w)))
    return kilnLowerUnsupported(l, "on these element types");
  ConvGeom g;
  KilnLowerStatus s = convGeometry(l, x, w, kilnLowerResultType(l, 0), &g);
  if (s != KILN_LOWER_OK)
    return s;
  MlirValue xs = subZeroPoint(&l->b, x, kilnLowerOperand(l, zxi), 1);
  MlirValue ws = subZeroPoint(&l->b, w, kilnLowerOperand(l, zwi), 0);
  *acc = intConv(&l->b, xs, ws, &g);
  return KILN_LOWER_OK;
}

static KilnLowerStatus lowerConvInteger(KilnLowerOp *l) {
  MlirValue acc;
  KilnLowerStatus s = convAccumulator(l, 0, 1, 2, 3, &acc);
  if (s == KILN_LOWER_OK)
    l->results[0] = kilnCastTo(&l->b, acc, kilnLowerResultType(l, 0));
  return s;
}

static KilnLowerStatus lowerQLinearConv(KilnLowerOp *l) {
  MlirType resultType = kilnLowerResultType(l, 0);
  if (!isQuantInt(mlirShapedTypeGetElementType(resultType)))
    return kilnLowerUnsupported(l, "to this element type");
  MlirValue acc;
  KilnLowerStatus s = convAccumulator(l, 0, 3, 2, 5, &acc);
  if (s != KILN_LOWER_OK)
    return s;
  MlirContext ctx = l->b.ctx;
  intptr_t r = kilnRank(acc);
  int64_t channel = 1;
  MlirValue in[6] = {acc,
                     kilnLowerOperand(l, 1),
                     kilnLowerOperand(l, 4),
                     kilnLowerOperand(l, 6),
                     kilnLowerOperand(l, 7),
                     kilnLowerOperand(l, 8)};
  intptr_t nIn = mlirValueIsNull(in[5]) ? 5 : 6;
  MlirAttribute maps[6] = {kilnMapIdentity(ctx, r),
                           scalarMap(ctx, mlirValueGetType(in[1]), r),
                           paramMap(ctx, mlirValueGetType(in[2]), r, &channel),
                           scalarMap(ctx, mlirValueGetType(in[3]), r),
                           scalarMap(ctx, mlirValueGetType(in[4]), r)};
  if (nIn == 6)
    maps[5] = paramMap(ctx, mlirValueGetType(in[5]), r, &channel);
  l->results[0] = requantize(&l->b, nIn, in, maps, resultType);
  return KILN_LOWER_OK;
}

const KilnLowering kilnLowerQuant[] = {
    {"quantize_linear", lowerQuantizeLinear, 0},
    {"dequantize_linear", lowerDequantizeLinear, 0},
    {"dynamic_quantize_linear", lowerDynamicQuantizeLinear, 0},
    {"matmul_integer", lowerMatMulInteger, 0},
    {"qlinear_matmul", lowerQLinearMatMul, 0},
    {"conv_integer", lowerConvInteger, 0},
    {"qlinear_conv", lowerQLinearConv, 0},
};
const int kilnLowerQuantCount =
    sizeof(kilnLowerQuant) / sizeof(kilnLowerQuant[0]);

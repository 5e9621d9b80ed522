/* Elementwise graph ops (ops_elementwise.c) → linalg.generic with numpy
 * broadcasting: the framework every elementwise lowering uses
 * (kilnEwLower), and the arithmetic, comparison, logic, cast and selection
 * ops. Math functions and activations are in lower_elementwise_math.c.
 *
 * Element types inside a body are normalized: arith only takes signless
 * integers, so unsigned operands (uiN, which the importer keeps for ONNX's
 * uintN) are reinterpreted as iN with builtin.unrealized_conversion_cast,
 * which the LLVM type conversion makes a no-op (it maps uiN to iN too); the
 * op then picks the unsigned arith variant. f16 and bf16 are computed in
 * f32 and rounded once at the end, as numpy does. */
#include "conversions/graph-to-linalg/lower_elementwise.h"

#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "support/ir_build.h"

/* ---- Element types --------------------------------------------------- */

static bool isNarrowFloat(MlirType t) {
  return mlirTypeIsAF16(t) || mlirTypeIsABF16(t);
}

static bool isUnsignedInt(MlirType t) {
  return mlirTypeIsAInteger(t) && !mlirIntegerTypeIsSignless(t) &&
         mlirIntegerTypeGetWidth(t) > 1;
}

bool kilnEwSupportedType(MlirType t) {
  if (mlirTypeIsAInteger(t)) {
    unsigned w = mlirIntegerTypeGetWidth(t);
    return w == 1 || w == 8 || w == 16 || w == 32 || w == 64;
  }
  return mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) ||
         mlirTypeIsAF64(t);
}

/* The type a body computes in for element type `t`. */
static MlirType normalizedType(MlirType t) {
  MlirContext ctx = mlirTypeGetContext(t);
  if (isNarrowFloat(t))
    return mlirF32TypeGet(ctx);
  if (isUnsignedInt(t))
    return mlirIntegerTypeGet(ctx, mlirIntegerTypeGetWidth(t));
  return t;
}

static MlirValue reinterpret(KilnBuilder *b, MlirValue x, MlirType to) {
  return kilnBuildOp1(b, "builtin.unrealized_conversion_cast", to, 1, &x, 0,
                      NULL);
}

static MlirValue normalize(KilnBuilder *b, MlirValue x) {
  MlirType t = mlirValueGetType(x);
  if (isNarrowFloat(t))
    return kilnConvertScalar(b, x, normalizedType(t), false);
  if (isUnsignedInt(t))
    return reinterpret(b, x, normalizedType(t));
  return x;
}

/* Converts a body's result `x` (normalized, or already `to`) to `to`. */
static MlirValue denormalize(KilnBuilder *b, MlirValue x, MlirType to) {
  if (mlirTypeEqual(mlirValueGetType(x), to))
    return x;
  if (isUnsignedInt(to))
    return reinterpret(b, kilnConvertScalar(b, x, normalizedType(to), false),
                       to);
  return kilnConvertScalar(b, x, to, false);
}

MlirValue kilnEwConst(KilnBuilder *b, MlirValue like, double v) {
  return kilnConstFloat(b, mlirValueGetType(like), v);
}

/* ---- The framework ----------------------------------------------------- */

static void ewBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                   void *userData) {
  const KilnEw *e = userData;
  MlirValue x[4];
  for (intptr_t i = 0; i < e->nInputs; ++i)
    x[i] = normalize(b, args[i]);
  yields[0] = denormalize(b, e->fn(b, x, e), e->outElt);
}

/* Integer arithmetic on shape vectors (kilnIsShapeVector): operands and
 * result, at least one operand. */
static bool allShapeVectors(intptr_t nInputs, const MlirValue *inputs,
                            MlirType resultType) {
  bool all = nInputs > 0 && kilnIsShapeVector(resultType);
  for (intptr_t i = 0; all && i < nInputs; ++i)
    all = kilnIsShapeVector(mlirValueGetType(inputs[i]));
  return all;
}

/* The op's body applied element by element to scalars (lower.h: shape
 * vectors), numpy-broadcast as kilnElementwise would. */
static MlirValue shapeVectorOp(KilnBuilder *b, intptr_t nInputs,
                               const MlirValue *inputs, MlirType resultType,
                               KilnEw *e) {
  MlirValue elements[KILN_MAX_RANK], args[4];
  for (intptr_t k = 0; k < kilnNumElements(resultType); ++k) {
    for (intptr_t i = 0; i < nInputs; ++i)
      args[i] = kilnShapeVectorElement(b, inputs[i], k);
    ewBody(b, args, &elements[k], e);
  }
  return kilnShapeVectorFrom(b, resultType, elements);
}

static KilnLowerStatus unsupportedType(KilnLowerOp *l, const char *what,
                                       intptr_t i, MlirType t) {
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, t);
  kilnLowerUnsupported(l, "%s #%ld has element type %s", what, (long)i,
                       kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return KILN_LOWER_UNSUPPORTED;
}

KilnLowerStatus kilnEwLowerValues(KilnLowerOp *l, intptr_t nInputs,
                                  const MlirValue *inputs, KilnEw *e) {
  if (nInputs > 4)
    abort(); /* a lowering's mistake */
  for (intptr_t i = 0; i < nInputs; ++i)
    if (!kilnEwSupportedType(kilnElementType(inputs[i])))
      return unsupportedType(l, "operand", i, kilnElementType(inputs[i]));
  MlirType rt = kilnLowerResultType(l, 0);
  MlirType outElt = mlirShapedTypeGetElementType(rt);
  if (!kilnEwSupportedType(outElt))
    return unsupportedType(l, "result", 0, outElt);
  e->nInputs = nInputs;
  e->outElt = outElt;
  e->resultElt = normalizedType(outElt);
  e->resultUnsigned = isUnsignedInt(outElt);
  e->isUnsigned = nInputs > 0 && isUnsignedInt(kilnElementType(inputs[0]));
  e->isUnsigned1 = nInputs > 1 && isUnsignedInt(kilnElementType(inputs[1]));
  l->results[0] = allShapeVectors(nInputs, inputs, rt)
                      ? shapeVectorOp(&l->b, nInputs, inputs, rt, e)
                      : kilnElementwise(&l->b, nInputs, inputs, rt, ewBody, e);
  return KILN_LOWER_OK;
}

KilnLowerStatus kilnEwLower(KilnLowerOp *l, intptr_t nInputs, KilnEw *e) {
  MlirValue in[4];
  for (intptr_t i = 0; i < nInputs && i < 4; ++i) {
    in[i] = kilnLowerOperand(l, i);
    if (mlirValueIsNull(in[i]))
      return kilnLowerError(l, "operand #%ld is required", (long)i);
  }
  return kilnEwLowerValues(l, nInputs, in, e);
}

static bool isFloat(MlirValue x) {
  return kilnTypeIsFloat(mlirValueGetType(x));
}

/* ---- Binary arithmetic and logic ---------------------------------------- */

/* An op by element kind: float, signed integer, unsigned integer (a null
 * name: not defined for that kind; inference rules it out). */
typedef struct ByKind {
  const char *f, *s, *u;
} ByKind;

static const char *pick(const ByKind *k, MlirValue x, bool isUnsigned) {
  return isFloat(x) ? k->f : isUnsigned ? k->u : k->s;
}

static MlirValue binaryFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  return kilnArith2(b, pick(e->data, x[0], e->isUnsigned), x[0], x[1]);
}

static MlirValue compareFn(KilnBuilder *b, const MlirValue *x,
                           const KilnEw *e) {
  const char *pred = pick(e->data, x[0], e->isUnsigned);
  return isFloat(x[0]) ? kilnCmpF(b, pred, x[0], x[1])
                       : kilnCmpI(b, pred, x[0], x[1]);
}

static KilnLowerStatus lowerWith(KilnLowerOp *l, KilnEwFn fn, const ByKind *k,
                                 intptr_t nInputs) {
  KilnEw e = {.fn = fn, .data = k};
  return kilnEwLower(l, nInputs, &e);
}

#define BINARY(fnName, F, S, U)                                                \
  static KilnLowerStatus fnName(KilnLowerOp *l) {                              \
    static const ByKind k = {F, S, U};                                         \
    return lowerWith(l, binaryFn, &k, 2);                                      \
  }
#define COMPARE(fnName, F, S, U)                                               \
  static KilnLowerStatus fnName(KilnLowerOp *l) {                              \
    static const ByKind k = {F, S, U};                                         \
    return lowerWith(l, compareFn, &k, 2);                                     \
  }

BINARY(lowerAdd, "arith.addf", "arith.addi", "arith.addi")
BINARY(lowerSub, "arith.subf", "arith.subi", "arith.subi")
BINARY(lowerMul, "arith.mulf", "arith.muli", "arith.muli")
/* Min/Max propagate NaN (ONNX follows numpy's minimum/maximum). */
BINARY(lowerMin, "arith.minimumf", "arith.minsi", "arith.minui")
BINARY(lowerMax, "arith.maximumf", "arith.maxsi", "arith.maxui")
BINARY(lowerAnd, NULL, "arith.andi", "arith.andi")
BINARY(lowerOr, NULL, "arith.ori", "arith.ori")
BINARY(lowerXor, NULL, "arith.xori", "arith.xori")
COMPARE(lowerEqual, "oeq", "eq", "eq")
COMPARE(lowerLess, "olt", "slt", "ult")
COMPARE(lowerLessOrEqual, "ole", "sle", "ule")
COMPARE(lowerGreater, "ogt", "sgt", "ugt")
COMPARE(lowerGreaterOrEqual, "oge", "sge", "uge")

/* Integer division and remainder fault on x86 for a zero divisor and for
 * INT_MIN / -1, and the generated code must not fault: such divisors are
 * replaced by 1 and the result fixed up (x / 0 = 0 as numpy gives, x / -1 =
 * -x wrapping, x % 0 = x % -1 = 0). */
static MlirValue safeDivisor(KilnBuilder *b, MlirValue d, bool isUnsigned,
                             MlirValue *isZero, MlirValue *isMinusOne) {
  MlirValue zero = kilnEwConst(b, d, 0), one = kilnEwConst(b, d, 1);
  *isZero = kilnCmpI(b, "eq", d, zero);
  MlirValue bad = *isZero;
  if (!isUnsigned) {
    *isMinusOne = kilnCmpI(b, "eq", d, kilnEwConst(b, d, -1));
    bad = kilnArith2(b, "arith.ori", bad, *isMinusOne);
  }
  return kilnSelect(b, bad, one, d);
}

static MlirValue divFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  if (isFloat(x[0]))
    return kilnArith2(b, "arith.divf", x[0], x[1]);
  MlirValue isZero, isMinusOne;
  MlirValue d = safeDivisor(b, x[1], e->isUnsigned, &isZero, &isMinusOne);
  MlirValue zero = kilnEwConst(b, x[0], 0);
  MlirValue q =
      kilnArith2(b, e->isUnsigned ? "arith.divui" : "arith.divsi", x[0], d);
  if (!e->isUnsigned)
    q = kilnSelect(b, isMinusOne, kilnArith2(b, "arith.subi", zero, x[0]), q);
  return kilnSelect(b, isZero, zero, q);
}

static KilnLowerStatus lowerDiv(KilnLowerOp *l) {
  KilnEw e = {.fn = divFn};
  return kilnEwLower(l, 2, &e);
}

/* fmod = 1: C's fmod (the sign of the dividend); fmod = 0: the sign of the
 * divisor, like Python's % (integers only). */
static MlirValue modFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  if (isFloat(x[0]))
    return kilnArith2(b, "arith.remf", x[0], x[1]);
  MlirValue isZero, isMinusOne;
  MlirValue d = safeDivisor(b, x[1], e->isUnsigned, &isZero, &isMinusOne);
  if (e->isUnsigned)
    return kilnArith2(b, "arith.remui", x[0], d); /* x % 1 = 0 for 0 */
  MlirValue r = kilnArith2(b, "arith.remsi", x[0], d);
  if (e->flag)
    return r;
  MlirValue zero = kilnEwConst(b, r, 0);
  MlirValue rNeg = kilnCmpI(b, "slt", r, zero);
  MlirValue dNeg = kilnCmpI(b, "slt", x[1], zero);
  MlirValue fix = kilnArith2(b, "arith.andi", kilnCmpI(b, "ne", r, zero),
                             kilnArith2(b, "arith.xori", rNeg, dNeg));
  return kilnSelect(b, fix, kilnArith2(b, "arith.addi", r, x[1]), r);
}

static KilnLowerStatus lowerMod(KilnLowerOp *l) {
  KilnEw e = {.fn = modFn, .flag = kilnInferAttrInt(&l->infer, "fmod", 0)};
  return kilnEwLower(l, 2, &e);
}

/* ONNX (numpy) Pow: a float base takes any exponent converted to its type;
 * an integer base with an integer exponent is an exact integer power; an
 * integer base with a float exponent is computed in f64 and truncated. */
static MlirValue powFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  MlirType t = mlirValueGetType(x[0]);
  if (kilnTypeIsFloat(t))
    return kilnArith2(b, "math.powf", x[0],
                      kilnConvertScalar(b, x[1], t, e->isUnsigned1));
  if (!isFloat(x[1]))
    return kilnArith2(b, "math.ipowi", x[0],
                      kilnConvertScalar(b, x[1], t, e->isUnsigned1));
  MlirType f64 = mlirF64TypeGet(b->ctx);
  MlirValue p =
      kilnArith2(b, "math.powf", kilnConvertScalar(b, x[0], f64, e->isUnsigned),
                 kilnConvertScalar(b, x[1], f64, false));
  return kilnConvertScalar(b, p, t, e->resultUnsigned);
}

static KilnLowerStatus lowerPow(KilnLowerOp *l) {
  KilnEw e = {.fn = powFn};
  return kilnEwLower(l, 2, &e);
}

/* ONNX BitShift is on unsigned integers; shifting by the width or more
 * gives 0 (LLVM would give poison). */
static MlirValue bitShiftFn(KilnBuilder *b, const MlirValue *x,
                            const KilnEw *e) {
  MlirType t = mlirValueGetType(x[0]);
  MlirValue r =
      kilnArith2(b, e->flag ? "arith.shli" : "arith.shrui", x[0], x[1]);
  MlirValue width = kilnConstInt(b, t, mlirIntegerTypeGetWidth(t));
  return kilnSelect(b, kilnCmpI(b, "uge", x[1], width), kilnEwConst(b, x[0], 0),
                    r);
}

static KilnLowerStatus lowerBitShift(KilnLowerOp *l) {
  MlirStringRef dir = kilnInferAttrString(&l->infer, "direction", "");
  KilnEw e = {.fn = bitShiftFn, .flag = kilnStringRefEquals(dir, "LEFT")};
  return kilnEwLower(l, 2, &e);
}

/* ---- Unary integer-capable ops ------------------------------------------ */

static MlirValue notFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  (void)e;
  return kilnArith2(b, "arith.xori", x[0], kilnEwConst(b, x[0], 1));
}

static MlirValue bitwiseNotFn(KilnBuilder *b, const MlirValue *x,
                              const KilnEw *e) {
  (void)e;
  return kilnArith2(b, "arith.xori", x[0], kilnEwConst(b, x[0], -1));
}

static MlirValue negFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  (void)e;
  if (isFloat(x[0]))
    return kilnArith1(b, "arith.negf", x[0]);
  return kilnArith2(b, "arith.subi", kilnEwConst(b, x[0], 0), x[0]);
}

static MlirValue absFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  if (isFloat(x[0]))
    return kilnArith1(b, "math.absf", x[0]);
  return e->isUnsigned ? x[0] : kilnArith1(b, "math.absi", x[0]);
}

/* -1, 0 or 1; NaN stays NaN (numpy's sign). */
static MlirValue signFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  MlirValue zero = kilnEwConst(b, x[0], 0);
  MlirValue pos, neg;
  if (isFloat(x[0])) {
    pos = kilnCmpF(b, "ogt", x[0], zero);
    neg = kilnCmpF(b, "olt", x[0], zero);
  } else {
    pos = kilnCmpI(b, e->isUnsigned ? "ugt" : "sgt", x[0], zero);
    neg = kilnCmpI(b, e->isUnsigned ? "ult" : "slt", x[0], zero);
  }
  MlirValue rest = kilnSelect(b, neg, kilnEwConst(b, x[0], -1), x[0]);
  return kilnSelect(b, pos, kilnEwConst(b, x[0], 1), rest);
}

/* max(x, 0) that keeps NaN: select(x < 0, 0, x). */
static MlirValue reluFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  (void)e;
  MlirValue zero = kilnEwConst(b, x[0], 0);
  MlirValue neg = isFloat(x[0]) ? kilnCmpF(b, "olt", x[0], zero)
                                : kilnCmpI(b, "slt", x[0], zero);
  return kilnSelect(b, neg, zero, x[0]);
}

/* x < 0 ? slope * x : x (slope broadcast to x). */
static MlirValue preluFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  MlirValue zero = kilnEwConst(b, x[0], 0);
  if (e->isUnsigned)
    return x[0];
  MlirValue neg = isFloat(x[0]) ? kilnCmpF(b, "olt", x[0], zero)
                                : kilnCmpI(b, "slt", x[0], zero);
  return kilnSelect(b, neg, kilnArithNumeric(b, "mul", x[1], x[0]), x[0]);
}

#define UNARY(fnName, bodyFn, nIn)                                             \
  static KilnLowerStatus fnName(KilnLowerOp *l) {                              \
    KilnEw e = {.fn = bodyFn};                                                 \
    return kilnEwLower(l, nIn, &e);                                            \
  }
UNARY(lowerNot, notFn, 1)
UNARY(lowerBitwiseNot, bitwiseNotFn, 1)
UNARY(lowerNeg, negFn, 1)
UNARY(lowerAbs, absFn, 1)
UNARY(lowerSign, signFn, 1)
UNARY(lowerRelu, reluFn, 1)
UNARY(lowerPRelu, preluFn, 2)
BINARY(lowerBitwiseAnd, NULL, "arith.andi", "arith.andi")
BINARY(lowerBitwiseOr, NULL, "arith.ori", "arith.ori")
BINARY(lowerBitwiseXor, NULL, "arith.xori", "arith.xori")

/* ---- Selection, clip, casts, dropout --------------------------------------
 */

static MlirValue whereFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  (void)e;
  return kilnSelect(b, x[0], x[1], x[2]);
}
UNARY(lowerWhere, whereFn, 3)

/* min(max(x, lo), hi) with the bounds present (e->flag bit 0: lo, bit 1:
 * hi) following x; NaN propagates, as with np.clip. */
static MlirValue clipFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  MlirValue r = x[0];
  int next = 1;
  if (e->flag & 1)
    r = kilnArith2(b, pick(e->data, r, e->isUnsigned), r, x[next++]);
  if (e->flag & 2) {
    static const ByKind kMin = {"arith.minimumf", "arith.minsi", "arith.minui"};
    r = kilnArith2(b, pick(&kMin, r, e->isUnsigned), r, x[next]);
  }
  return r;
}

static KilnLowerStatus lowerClip(KilnLowerOp *l) {
  static const ByKind kMax = {"arith.maximumf", "arith.maxsi", "arith.maxui"};
  KilnEw e = {.fn = clipFn, .data = &kMax};
  MlirValue in[3] = {kilnLowerOperand(l, 0)};
  intptr_t n = 1;
  for (intptr_t i = 1; i <= 2; ++i) {
    MlirValue bound = kilnLowerOperand(l, i);
    if (mlirValueIsNull(bound))
      continue;
    if (!kilnTypeIsStaticTensor(mlirValueGetType(bound)))
      return kilnLowerUnsupported(l, "with a bound of dynamic shape (%s)",
                                  i == 1 ? "min" : "max");
    /* A bound may be a one-element 1-D tensor: read it as a scalar. */
    in[n++] = kilnReshape(&l->b, bound,
                          kilnTensorType(0, NULL, kilnElementType(bound)));
    e.flag |= i;
  }
  return kilnEwLowerValues(l, n, in, &e);
}

/* ONNX Cast between the supported element types: the unsigned variants of
 * the conversion follow the source for int->float and int->int, the target
 * for float->int. */
static MlirValue castFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  MlirType to = kilnTypeIsFloat(e->outElt) ? e->outElt : e->resultElt;
  bool fromFloat = isFloat(x[0]);
  bool isUnsigned =
      fromFloat && !kilnTypeIsFloat(to) ? e->resultUnsigned : e->isUnsigned;
  return kilnConvertScalar(b, x[0], to, isUnsigned);
}
UNARY(lowerCast, castFn, 1)
/* cast_like: the result type already has target_type's element type. */
UNARY(lowerCastLike, castFn, 1)

/* Inference only (graph inference has checked training_mode is absent or
 * false): the identity, and a mask of ones when asked for. */
static KilnLowerStatus lowerDropout(KilnLowerOp *l) {
  l->results[0] = kilnLowerOperand(l, 0);
  if (l->numResults > 1) {
    MlirType maskType = kilnLowerResultType(l, 1);
    MlirValue one =
        kilnConstInt(&l->b, mlirShapedTypeGetElementType(maskType), 1);
    l->results[1] = kilnFill(
        &l->b, one, kilnEmptyLike(&l->b, maskType, kilnLowerOperand(l, 0)));
  }
  return KILN_LOWER_OK;
}

const KilnLowering kilnLowerElementwise[] = {
    {"add", lowerAdd, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"sub", lowerSub, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"mul", lowerMul, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"div", lowerDiv, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"pow", lowerPow, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"mod", lowerMod, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"min", lowerMin, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"max", lowerMax, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"and", lowerAnd, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"or", lowerOr, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"xor", lowerXor, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"not", lowerNot, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"bitwise_and", lowerBitwiseAnd,
     KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"bitwise_or", lowerBitwiseOr, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"bitwise_xor", lowerBitwiseXor,
     KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"bitwise_not", lowerBitwiseNot,
     KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"bit_shift", lowerBitShift, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"equal", lowerEqual, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"less", lowerLess, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"less_or_equal", lowerLessOrEqual,
     KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"greater", lowerGreater, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"greater_or_equal", lowerGreaterOrEqual,
     KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"neg", lowerNeg, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"abs", lowerAbs, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"sign", lowerSign, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"relu", lowerRelu, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"prelu", lowerPRelu, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"where", lowerWhere, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"clip", lowerClip, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE_FIRST},
    {"cast", lowerCast, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"cast_like", lowerCastLike, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"dropout", lowerDropout, KILN_LOWER_DYNAMIC},
    /* lower_elementwise_math.c */
    {"sqrt", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"reciprocal", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"exp", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"log", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"tanh", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"sigmoid", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"erf", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"floor", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"ceil", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"round", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"is_nan", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"is_inf", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"sin", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"cos", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"tan", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"asin", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"acos", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"atan", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"sinh", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"cosh", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"asinh", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"acosh", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"atanh", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"leaky_relu", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"elu", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"selu", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"celu", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"hard_sigmoid", kilnEwLowerMath,
     KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"hard_swish", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"softplus", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"softsign", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"thresholded_relu", kilnEwLowerMath,
     KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"shrink", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"mish", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
    {"gelu", kilnEwLowerMath, KILN_LOWER_DYNAMIC | KILN_LOWER_PER_SAMPLE},
};
const int kilnLowerElementwiseCount =
    sizeof(kilnLowerElementwise) / sizeof(kilnLowerElementwise[0]);

/* Graph ops of the Elementwise family: table entries and type inference.
 *
 * Every op here either keeps its operand's shape (unary ops, cast) or
 * broadcasts its operands numpy-style (binary ops incl. min/max, where). What
 * differs between ops is ONNX's type constraints on element types, which
 * IRDL cannot express, so they are checked here. Element types map to ONNX
 * as: i1 = bool, iN/siN = intN, uiN = uintN, f16/bf16/f32/f64 = the float
 * types; float8 types are accepted where ONNX lists them (cast, cast_like,
 * is_nan, is_inf, dropout), float4/int4 by cast and cast_like only. Ops with
 * attribute-value rules or operands of their own kinds are inferred in
 * ops_elementwise_rules.c. */
#include "dialects/graph/ops_elementwise.h"

#include "dialects/graph/infer.h"
#include "dialects/graph/op_table.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ---- Element-type classes (ONNX type constraints) ---------------------- */

/* Element types of each class, for error messages (indexed by bit). */
static const char *const kClassTypes[KILN_TC_NUM_CLASSES] = {
    "i1",
    "i8, i16",
    "i32, i64",
    "ui8, ui16",
    "ui32, ui64",
    "f16, bf16, f32, f64",
    "f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ",
    "f8E8M0FNU, f4E2M1FN, i4, ui4",
};

static KilnElemClass classifyInteger(MlirType t) {
  unsigned w = mlirIntegerTypeGetWidth(t);
  if (w == 4)
    return KILN_TC_CAST_ONLY;
  if (mlirIntegerTypeIsUnsigned(t)) {
    if (w == 8 || w == 16)
      return KILN_TC_UINT_NARROW;
    return w == 32 || w == 64 ? KILN_TC_UINT_WIDE : 0;
  }
  if (w == 1)
    return mlirIntegerTypeIsSignless(t) ? KILN_TC_BOOL : 0;
  if (w == 8 || w == 16)
    return KILN_TC_INT_NARROW;
  return w == 32 || w == 64 ? KILN_TC_INT_WIDE : 0;
}

KilnElemClass kilnElemClassify(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return classifyInteger(t);
  if (mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) ||
      mlirTypeIsAF64(t))
    return KILN_TC_FLOAT;
  if (mlirTypeIsAFloat8E4M3FN(t) || mlirTypeIsAFloat8E4M3FNUZ(t) ||
      mlirTypeIsAFloat8E5M2(t) || mlirTypeIsAFloat8E5M2FNUZ(t))
    return KILN_TC_FLOAT8;
  if (mlirTypeIsAFloat8E8M0FNU(t) || mlirTypeIsAFloat4E2M1FN(t))
    return KILN_TC_CAST_ONLY;
  return 0;
}

/* Appends the element types allowed by `allowed`, comma-separated. */
static void appendAllowed(KilnStrBuf *buf, KilnElemClass allowed) {
  const char *sep = "";
  for (int i = 0; i < KILN_TC_NUM_CLASSES; ++i) {
    if (!(allowed & (1u << i)))
      continue;
    kilnStrBufAppendf(buf, "%s%s", sep, kClassTypes[i]);
    sep = ", ";
  }
}

/* ---- Operand helpers (shared with ops_elementwise_rules.c) ------------- */

const char *kilnElemOperandName(const KilnInferContext *c, intptr_t i) {
  const KilnGraphOpInfo *op = c->op;
  return i >= 0 && i < op->numOperands ? op->operands[i].name : "?";
}

MlirLogicalResult kilnElemTypeError(const KilnInferContext *c, intptr_t i,
                                    MlirType t, const char *allowed) {
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, t);
  kilnInferError(c,
                 "operand #%ld ('%s') has an unsupported element type: %s; "
                 "allowed element types: %s",
                 (long)i, kilnElemOperandName(c, i), kilnStrBufGet(&buf),
                 allowed);
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

MlirType kilnElemTypedOperand(const KilnInferContext *c, intptr_t i,
                              KilnElemClass allowed) {
  MlirType t = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(t) || (kilnElemClassify(kilnElemOf(t)) & allowed))
    return t;
  KilnStrBuf buf = {0};
  appendAllowed(&buf, allowed);
  kilnElemTypeError(c, i, t, kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return (MlirType){NULL};
}

MlirLogicalResult kilnElemSameElementType(const KilnInferContext *c, intptr_t i,
                                          MlirType ti, intptr_t j,
                                          MlirType tj) {
  if (mlirTypeEqual(kilnElemOf(ti), kilnElemOf(tj)))
    return mlirLogicalResultSuccess();
  KilnStrBuf a = {0}, b = {0};
  kilnStrBufAppendType(&a, kilnElemOf(ti));
  kilnStrBufAppendType(&b, kilnElemOf(tj));
  kilnInferError(c,
                 "operand #%ld ('%s') must have the element type of operand "
                 "#%ld ('%s'), %s, got %s",
                 (long)j, kilnElemOperandName(c, j), (long)i,
                 kilnElemOperandName(c, i), kilnStrBufGet(&a),
                 kilnStrBufGet(&b));
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

MlirLogicalResult kilnElemCheckOneResult(const KilnInferContext *c) {
  if (c->numResults == 1)
    return mlirLogicalResultSuccess();
  return kilnInferError(c, "expects 1 result, got %ld", (long)c->numResults);
}

MlirLogicalResult kilnElemReadFlag(const KilnInferContext *c, const char *name,
                                   int64_t dflt, int64_t *out) {
  *out = kilnInferAttrInt(c, name, dflt);
  if (*out == 0 || *out == 1)
    return mlirLogicalResultSuccess();
  return kilnInferError(c, "attribute '%s' must be 0 or 1, got %ld", name,
                        (long)*out);
}

MlirLogicalResult kilnElemCheckCastAttrs(const KilnInferContext *c) {
  int64_t saturate;
  if (mlirLogicalResultIsFailure(kilnElemReadFlag(c, "saturate", 1, &saturate)))
    return mlirLogicalResultFailure();
  MlirStringRef mode = kilnInferAttrString(c, "round_mode", "up");
  if (!kilnStringRefEquals(mode, "up") && !kilnStringRefEquals(mode, "down") &&
      !kilnStringRefEquals(mode, "nearest"))
    return kilnInferError(c,
                          "attribute 'round_mode' must be \"up\", \"down\" or "
                          "\"nearest\", got \"%.*s\"",
                          (int)mode.length, mode.data);
  return mlirLogicalResultSuccess();
}

MlirType kilnElemWithElementType(MlirType t, MlirType elt) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i)
    shape[i] = mlirShapedTypeGetDimSize(t, i);
  return kilnInferTensorType(rank, shape, elt);
}

/* The broadcast of tensor types `a` and `b`, with element type `elt`; a null
 * type after an error. */
static MlirType broadcast(const KilnInferContext *c, MlirType a, MlirType b,
                          MlirType elt) {
  int64_t shape[KILN_MAX_RANK];
  intptr_t rank = 0;
  if (mlirLogicalResultIsFailure(kilnInferBroadcast(c, a, b, shape, &rank)))
    return (MlirType){NULL};
  return kilnInferTensorType(rank, shape, elt);
}

/* ---- Inference functions ------------------------------------------------ */

MlirLogicalResult kilnElemInferUnary(KilnInferContext *c,
                                     KilnElemClass allowed) {
  if (mlirLogicalResultIsFailure(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType t = kilnElemTypedOperand(c, 0, allowed);
  if (mlirTypeIsNull(t))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = t;
  return mlirLogicalResultSuccess();
}

/* neg, relu: T in signed numeric types. */
static MlirLogicalResult inferSignedUnary(KilnInferContext *c) {
  return kilnElemInferUnary(c, KILN_TC_SIGNED);
}

/* abs, erf, sign: T in all numeric types. */
static MlirLogicalResult inferNumericUnary(KilnInferContext *c) {
  return kilnElemInferUnary(c, KILN_TC_NUMERIC);
}

/* sqrt, reciprocal, exp, log, tanh, sigmoid, the trigonometric and
 * hyperbolic functions and most activations: T in the float types. */
static MlirLogicalResult inferFloatUnary(KilnInferContext *c) {
  return kilnElemInferUnary(c, KILN_TC_FLOAT);
}

/* not: T = bool. */
static MlirLogicalResult inferNot(KilnInferContext *c) {
  return kilnElemInferUnary(c, KILN_TC_BOOL);
}

/* bitwise_not: T in the integer types (no bool). */
static MlirLogicalResult inferBitwiseNot(KilnInferContext *c) {
  return kilnElemInferUnary(c, KILN_TC_INTEGER);
}

MlirLogicalResult kilnElemInferBinary(KilnInferContext *c,
                                      KilnElemClass allowed,
                                      MlirType resultElt) {
  if (mlirLogicalResultIsFailure(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType a = kilnElemTypedOperand(c, 0, allowed);
  if (mlirTypeIsNull(a))
    return mlirLogicalResultFailure();
  MlirType b = kilnElemTypedOperand(c, 1, allowed);
  if (mlirTypeIsNull(b) ||
      mlirLogicalResultIsFailure(kilnElemSameElementType(c, 0, a, 1, b)))
    return mlirLogicalResultFailure();
  if (mlirTypeIsNull(resultElt))
    resultElt = kilnElemOf(a);
  c->resultTypes[0] = broadcast(c, a, b, resultElt);
  return mlirTypeIsNull(c->resultTypes[0]) ? mlirLogicalResultFailure()
                                           : mlirLogicalResultSuccess();
}

/* add, sub, mul, div: numeric T, result T. */
static MlirLogicalResult inferArithmetic(KilnInferContext *c) {
  return kilnElemInferBinary(c, KILN_TC_NUMERIC, (MlirType){NULL});
}

/* and, or, xor: bool operands, bool result. */
static MlirLogicalResult inferLogical(KilnInferContext *c) {
  return kilnElemInferBinary(c, KILN_TC_BOOL, mlirIntegerTypeGet(c->ctx, 1));
}

/* bitwise_and, bitwise_or, bitwise_xor: integer T (no bool), result T. */
static MlirLogicalResult inferBitwise(KilnInferContext *c) {
  return kilnElemInferBinary(c, KILN_TC_INTEGER, (MlirType){NULL});
}

/* equal: any T (bool included), bool result. */
static MlirLogicalResult inferEqual(KilnInferContext *c) {
  return kilnElemInferBinary(c, KILN_TC_ANY, mlirIntegerTypeGet(c->ctx, 1));
}

/* less, greater, less_or_equal, greater_or_equal: numeric T, bool result. */
static MlirLogicalResult inferOrdering(KilnInferContext *c) {
  return kilnElemInferBinary(c, KILN_TC_NUMERIC, mlirIntegerTypeGet(c->ctx, 1));
}

/* min, max: numeric T, result T. Binary although ONNX's Min/Max are
 * variadic: IRDL binds one type to all values of a variadic operand, which
 * would forbid broadcasting, and min/max being associative, the importer
 * chains N-ary ones exactly. */
static MlirLogicalResult inferMinMax(KilnInferContext *c) {
  return kilnElemInferBinary(c, KILN_TC_NUMERIC, (MlirType){NULL});
}

/* pow: X has T (i32, i64, floats), Y has its own T1 (any numeric); the
 * result has T. */
static MlirLogicalResult inferPow(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType x = kilnElemTypedOperand(c, 0, KILN_TC_INT_WIDE | KILN_TC_FLOAT);
  if (mlirTypeIsNull(x))
    return mlirLogicalResultFailure();
  MlirType y = kilnElemTypedOperand(c, 1, KILN_TC_NUMERIC);
  if (mlirTypeIsNull(y))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = broadcast(c, x, y, kilnElemOf(x));
  return mlirTypeIsNull(c->resultTypes[0]) ? mlirLogicalResultFailure()
                                           : mlirLogicalResultSuccess();
}

/* where: a bool condition and X, Y of one T, all three broadcast. */
static MlirLogicalResult inferWhere(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType cond = kilnElemTypedOperand(c, 0, KILN_TC_BOOL);
  if (mlirTypeIsNull(cond))
    return mlirLogicalResultFailure();
  MlirType x = kilnElemTypedOperand(c, 1, KILN_TC_ANY);
  if (mlirTypeIsNull(x))
    return mlirLogicalResultFailure();
  MlirType y = kilnElemTypedOperand(c, 2, KILN_TC_ANY);
  if (mlirTypeIsNull(y) ||
      mlirLogicalResultIsFailure(kilnElemSameElementType(c, 1, x, 2, y)))
    return mlirLogicalResultFailure();
  MlirType xy = broadcast(c, x, y, kilnElemOf(x));
  if (mlirTypeIsNull(xy))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = broadcast(c, cond, xy, kilnElemOf(x));
  return mlirTypeIsNull(c->resultTypes[0]) ? mlirLogicalResultFailure()
                                           : mlirLogicalResultSuccess();
}

/* A clip bound must be a scalar of the input's element type. ONNX says
 * "tensor of empty shape"; like ONNX Runtime, a one-element 1-D tensor is
 * accepted too, since exporters emit both. */
static MlirLogicalResult checkClipBound(const KilnInferContext *c, intptr_t i,
                                        MlirType input) {
  if (mlirValueIsNull(kilnInferOperand(c, i)))
    return mlirLogicalResultSuccess();
  MlirType t = kilnElemTypedOperand(c, i, KILN_TC_NUMERIC);
  if (mlirTypeIsNull(t) ||
      mlirLogicalResultIsFailure(kilnElemSameElementType(c, 0, input, i, t)))
    return mlirLogicalResultFailure();
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t dim = rank == 1 ? mlirShapedTypeGetDimSize(t, 0) : 1;
  if (rank == 0 ||
      (rank == 1 && (dim == 1 || mlirShapedTypeIsDynamicSize(dim))))
    return mlirLogicalResultSuccess();
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, t);
  kilnInferError(c, "operand #%ld ('%s') must be a scalar, got %s", (long)i,
                 kilnElemOperandName(c, i), kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

/* clip: the input's type, with optional scalar min/max of the same T. */
static MlirLogicalResult inferClip(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType input = kilnElemTypedOperand(c, 0, KILN_TC_NUMERIC);
  if (mlirTypeIsNull(input) ||
      mlirLogicalResultIsFailure(checkClipBound(c, 1, input)) ||
      mlirLogicalResultIsFailure(checkClipBound(c, 2, input)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = input;
  return mlirLogicalResultSuccess();
}

/* cast's `to`: an element type ONNX can cast to. A null type after an
 * error otherwise. */
static MlirType castTarget(const KilnInferContext *c) {
  MlirAttribute to = kilnInferAttr(c, "to");
  if (mlirAttributeIsNull(to) || !mlirAttributeIsAType(to)) {
    kilnInferError(c, "requires attribute 'to' (the target element type)");
    return (MlirType){NULL};
  }
  MlirType t = mlirTypeAttrGetValue(to);
  if (kilnElemClassify(t) & KILN_TC_CASTABLE)
    return t;
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, t);
  kilnStrBufAppendf(&buf, "; allowed: ");
  appendAllowed(&buf, KILN_TC_CASTABLE);
  kilnInferError(c, "attribute 'to' must be an element type, got %s",
                 kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return (MlirType){NULL};
}

/* cast: the input's shape with element type `to`. `saturate` is a flag and
 * `round_mode` one of ONNX's three modes (both only matter for float8). */
static MlirLogicalResult inferCast(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType input = kilnElemTypedOperand(c, 0, KILN_TC_CASTABLE);
  if (mlirTypeIsNull(input))
    return mlirLogicalResultFailure();
  MlirType to = castTarget(c);
  if (mlirTypeIsNull(to) ||
      mlirLogicalResultIsFailure(kilnElemCheckCastAttrs(c)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = kilnElemWithElementType(input, to);
  return mlirLogicalResultSuccess();
}

/* ---- The table --------------------------------------------------------- */

#define SINGLE(n) {n, KILN_OPERAND_SINGLE}
#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const KilnOperandSpec kAB[] = {SINGLE("a"), SINGLE("b")};
static const KilnOperandSpec kC[] = {SINGLE("c")};
static const KilnOperandSpec kX[] = {SINGLE("x")};
static const KilnOperandSpec kY[] = {SINGLE("y")};
static const KilnOperandSpec kXY[] = {SINGLE("x"), SINGLE("y")};
static const KilnOperandSpec kZ[] = {SINGLE("z")};
static const KilnOperandSpec kInput[] = {SINGLE("input")};
static const KilnOperandSpec kOutput[] = {SINGLE("output")};
static const KilnOperandSpec kClipIn[] = {SINGLE("input"),
                                          {"min", KILN_OPERAND_OPTIONAL},
                                          {"max", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kMin[] = {SINGLE("min")};
static const KilnOperandSpec kMax[] = {SINGLE("max")};
static const KilnOperandSpec kWhereIn[] = {SINGLE("condition"), SINGLE("x"),
                                           SINGLE("y")};
static const KilnOperandSpec kPReluIn[] = {SINGLE("x"), SINGLE("slope")};
static const KilnOperandSpec kCastLikeIn[] = {SINGLE("input"),
                                              SINGLE("target_type")};
static const KilnOperandSpec kDropoutIn[] = {
    SINGLE("data"),
    {"ratio", KILN_OPERAND_OPTIONAL},
    {"training_mode", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kDropoutOut[] = {SINGLE("output"),
                                              {"mask", KILN_OPERAND_OPTIONAL}};

static const KilnAttrSpec kLeakyReluAttrs[] = {
    {"alpha", KILN_ATTR_FLOAT, false, "0.01 : f32",
     "slope of the line for x < 0"},
};
static const KilnAttrSpec kEluAttrs[] = {
    {"alpha", KILN_ATTR_FLOAT, false, "1.0 : f32",
     "scale of exp(x) - 1 for x < 0"},
};
static const KilnAttrSpec kHardSigmoidAttrs[] = {
    {"alpha", KILN_ATTR_FLOAT, false, "0.2 : f32", "slope"},
    {"beta", KILN_ATTR_FLOAT, false, "0.5 : f32", "offset"},
};
static const KilnAttrSpec kCastAttrs[] = {
    {"to", KILN_ATTR_TYPE, true, NULL, "the target element type"},
    {"saturate", KILN_ATTR_INT, false, "1 : i64",
     "0 or 1: saturate out-of-range values when casting to float8"},
    {"round_mode", KILN_ATTR_STRING, false, "\"up\"",
     "\"up\", \"down\" or \"nearest\": rounding to f8E8M0FNU"},
};

static const KilnAttrSpec kModAttrs[] = {
    {"fmod", KILN_ATTR_INT, false, "0 : i64",
     "0: integer mod, sign of the divisor; 1: fmod, sign of the dividend "
     "(required for floats)"},
};
static const KilnAttrSpec kBitShiftAttrs[] = {
    {"direction", KILN_ATTR_STRING, true, NULL, "\"LEFT\" or \"RIGHT\""},
};
static const KilnAttrSpec kIsInfAttrs[] = {
    {"detect_negative", KILN_ATTR_INT, false, "1 : i64",
     "0 or 1: whether -inf counts"},
    {"detect_positive", KILN_ATTR_INT, false, "1 : i64",
     "0 or 1: whether +inf counts"},
};
static const KilnAttrSpec kSeluAttrs[] = {
    {"alpha", KILN_ATTR_FLOAT, false, "1.67326319217681884765625 : f32",
     "scale of exp(x) - 1 for x <= 0"},
    {"gamma", KILN_ATTR_FLOAT, false, "1.05070102214813232421875 : f32",
     "scale of the whole result"},
};
static const KilnAttrSpec kThresholdedReluAttrs[] = {
    {"alpha", KILN_ATTR_FLOAT, false, "1.0 : f32", "threshold"},
};
static const KilnAttrSpec kShrinkAttrs[] = {
    {"bias", KILN_ATTR_FLOAT, false, "0.0 : f32",
     "added below -lambd, subtracted above lambd"},
    {"lambd", KILN_ATTR_FLOAT, false, "0.5 : f32",
     "values in [-lambd, lambd] become 0"},
};
static const KilnAttrSpec kCeluAttrs[] = {
    {"alpha", KILN_ATTR_FLOAT, false, "1.0 : f32",
     "x < 0 ? alpha * (e ^ (x / alpha) - 1) : x"},
};
static const KilnAttrSpec kGeluAttrs[] = {
    {"approximate", KILN_ATTR_STRING, false, "\"none\"",
     "\"none\" (erf) or \"tanh\" (the tanh approximation)"},
};
static const KilnAttrSpec kCastLikeAttrs[] = {
    {"saturate", KILN_ATTR_INT, false, "1 : i64",
     "0 or 1: saturate out-of-range values when casting to float8"},
    {"round_mode", KILN_ATTR_STRING, false, "\"up\"",
     "\"up\", \"down\" or \"nearest\": rounding to f8E8M0FNU"},
};
static const KilnAttrSpec kDropoutAttrs[] = {
    {"seed", KILN_ATTR_INT, false, NULL,
     "random seed (training only; absent: generated)"},
};

/* An op with no attributes, operand list `in`, result list `out`. */
#define OP(name, onnx, summary, in, out, infer)                                \
  {name, onnx, summary, in, COUNT(in), out, COUNT(out), NULL, 0, infer}
/* The same with attribute specs. */
#define OP_ATTRS(name, onnx, summary, in, out, attrs, infer)                   \
  {name, onnx,       summary, in,           COUNT(in),                         \
   out,  COUNT(out), attrs,   COUNT(attrs), infer}

const KilnGraphOpInfo kilnGraphElementwiseOps[] = {
    OP("add", "Add", "a + b, broadcast", kAB, kC, inferArithmetic),
    OP("sub", "Sub", "a - b, broadcast", kAB, kC, inferArithmetic),
    OP("mul", "Mul", "a * b, broadcast", kAB, kC, inferArithmetic),
    OP("div", "Div", "a / b, broadcast", kAB, kC, inferArithmetic),
    OP("pow", "Pow", "x ^ y, broadcast", kXY, kZ, inferPow),
    OP("neg", "Neg", "-x", kX, kY, inferSignedUnary),
    OP("abs", "Abs", "|x|", kX, kY, inferNumericUnary),
    OP("sqrt", "Sqrt", "square root", kX, kY, inferFloatUnary),
    OP("reciprocal", "Reciprocal", "1 / x", kX, kY, inferFloatUnary),
    OP("exp", "Exp", "e ^ x", kInput, kOutput, inferFloatUnary),
    OP("log", "Log", "natural logarithm", kInput, kOutput, inferFloatUnary),
    OP("tanh", "Tanh", "hyperbolic tangent", kInput, kOutput, inferFloatUnary),
    OP("sigmoid", "Sigmoid", "1 / (1 + e ^ -x)", kX, kY, inferFloatUnary),
    OP("relu", "Relu", "max(x, 0)", kX, kY, inferSignedUnary),
    OP_ATTRS("leaky_relu", "LeakyRelu", "x < 0 ? alpha * x : x", kX, kY,
             kLeakyReluAttrs, inferFloatUnary),
    OP_ATTRS("elu", "Elu", "x < 0 ? alpha * (e ^ x - 1) : x", kX, kY, kEluAttrs,
             inferFloatUnary),
    OP_ATTRS("hard_sigmoid", "HardSigmoid", "max(0, min(1, alpha * x + beta))",
             kX, kY, kHardSigmoidAttrs, inferFloatUnary),
    OP("clip", "Clip", "min(max(input, min), max)", kClipIn, kOutput,
       inferClip),
    OP("erf", "Erf", "error function", kInput, kOutput, inferNumericUnary),
    OP("floor", "Floor", "round toward -inf", kX, kY, inferFloatUnary),
    OP("ceil", "Ceil", "round toward +inf", kX, kY, inferFloatUnary),
    OP("round", "Round", "round half to even", kX, kY, inferFloatUnary),
    OP("min", "Min", "elementwise minimum of a and b, broadcast", kAB, kMin,
       inferMinMax),
    OP("max", "Max", "elementwise maximum of a and b, broadcast", kAB, kMax,
       inferMinMax),
    OP("where", "Where", "condition ? x : y, broadcast", kWhereIn, kOutput,
       inferWhere),
    OP("equal", "Equal", "a == b (i1), broadcast", kAB, kC, inferEqual),
    OP("less", "Less", "a < b (i1), broadcast", kAB, kC, inferOrdering),
    OP("greater", "Greater", "a > b (i1), broadcast", kAB, kC, inferOrdering),
    OP("not", "Not", "logical not (i1)", kX, kY, inferNot),
    OP("and", "And", "logical and (i1), broadcast", kAB, kC, inferLogical),
    OP("or", "Or", "logical or (i1), broadcast", kAB, kC, inferLogical),
    OP_ATTRS("cast", "Cast", "converts the element type to `to`", kInput,
             kOutput, kCastAttrs, inferCast),
    OP_ATTRS("mod", "Mod", "a mod b, broadcast", kAB, kC, kModAttrs,
             kilnElemInferMod),
    OP("xor", "Xor", "logical xor (i1), broadcast", kAB, kC, inferLogical),
    OP_ATTRS("bit_shift", "BitShift", "x << y or x >> y (unsigned), broadcast",
             kXY, kZ, kBitShiftAttrs, kilnElemInferBitShift),
    OP("bitwise_and", "BitwiseAnd", "a & b (integers), broadcast", kAB, kC,
       inferBitwise),
    OP("bitwise_or", "BitwiseOr", "a | b (integers), broadcast", kAB, kC,
       inferBitwise),
    OP("bitwise_xor", "BitwiseXor", "a ^ b (integers), broadcast", kAB, kC,
       inferBitwise),
    OP("bitwise_not", "BitwiseNot", "~x (integers)", kX, kY, inferBitwiseNot),
    OP("sign", "Sign", "-1, 0 or 1 by the sign of input", kInput, kOutput,
       inferNumericUnary),
    OP("is_nan", "IsNaN", "x is NaN (i1)", kX, kY, kilnElemInferIsNaN),
    OP_ATTRS("is_inf", "IsInf", "x is an infinity (i1)", kX, kY, kIsInfAttrs,
             kilnElemInferIsInf),
    OP("sin", "Sin", "sine", kInput, kOutput, inferFloatUnary),
    OP("cos", "Cos", "cosine", kInput, kOutput, inferFloatUnary),
    OP("tan", "Tan", "tangent", kInput, kOutput, inferFloatUnary),
    OP("asin", "Asin", "arcsine", kInput, kOutput, inferFloatUnary),
    OP("acos", "Acos", "arccosine", kInput, kOutput, inferFloatUnary),
    OP("atan", "Atan", "arctangent", kInput, kOutput, inferFloatUnary),
    OP("sinh", "Sinh", "hyperbolic sine", kInput, kOutput, inferFloatUnary),
    OP("cosh", "Cosh", "hyperbolic cosine", kInput, kOutput, inferFloatUnary),
    OP("asinh", "Asinh", "inverse hyperbolic sine", kInput, kOutput,
       inferFloatUnary),
    OP("acosh", "Acosh", "inverse hyperbolic cosine", kInput, kOutput,
       inferFloatUnary),
    OP("atanh", "Atanh", "inverse hyperbolic tangent", kInput, kOutput,
       inferFloatUnary),
    OP_ATTRS("selu", "Selu", "gamma * (x > 0 ? x : alpha * (e ^ x - 1))", kX,
             kY, kSeluAttrs, inferFloatUnary),
    OP("softplus", "Softplus", "ln(e ^ x + 1)", kX, kY, inferFloatUnary),
    OP("softsign", "Softsign", "x / (1 + |x|)", kInput, kOutput,
       inferFloatUnary),
    OP_ATTRS("thresholded_relu", "ThresholdedRelu", "x > alpha ? x : 0", kX, kY,
             kThresholdedReluAttrs, inferFloatUnary),
    OP_ATTRS("shrink", "Shrink",
             "x < -lambd ? x + bias : x > lambd ? x - bias : 0", kInput,
             kOutput, kShrinkAttrs, kilnElemInferShrink),
    OP_ATTRS("celu", "Celu",
             "max(0, x) + min(0, alpha * (e ^ (x / alpha) - 1))", kX, kY,
             kCeluAttrs, kilnElemInferCelu),
    OP("hard_swish", "HardSwish", "x * max(0, min(1, x / 6 + 0.5))", kX, kY,
       inferFloatUnary),
    OP("mish", "Mish", "x * tanh(softplus(x))", kX, kY, inferFloatUnary),
    OP_ATTRS("gelu", "Gelu", "x * Phi(x), exact or tanh-approximated", kX, kY,
             kGeluAttrs, kilnElemInferGelu),
    OP("prelu", "PRelu", "x < 0 ? slope * x : x, slope broadcast to x's shape",
       kPReluIn, kY, kilnElemInferPRelu),
    OP("less_or_equal", "LessOrEqual", "a <= b (i1), broadcast", kAB, kC,
       inferOrdering),
    OP("greater_or_equal", "GreaterOrEqual", "a >= b (i1), broadcast", kAB, kC,
       inferOrdering),
    OP_ATTRS("cast_like", "CastLike",
             "converts input to target_type's element type", kCastLikeIn,
             kOutput, kCastLikeAttrs, kilnElemInferCastLike),
    OP_ATTRS("dropout", "Dropout",
             "identity (inference); optional all-true i1 mask", kDropoutIn,
             kDropoutOut, kDropoutAttrs, kilnElemInferDropout),
};
const int kilnGraphElementwiseOpsCount = COUNT(kilnGraphElementwiseOps);

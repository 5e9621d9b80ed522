/* Graph ops of the Elementwise family: table entries and type inference.
 *
 * Every op here either keeps its operand's shape (unary ops, cast) or
 * broadcasts its operands numpy-style (binary ops incl. min/max, where). What
 * differs between ops is ONNX's type constraints on element types, which
 * IRDL cannot express, so they are checked here. Element types map to ONNX
 * as: i1 = bool, iN/siN = intN, uiN = uintN, f16/bf16/f32/f64 = the float
 * types; the float8/float4/int4 types are accepted by cast only. */
#include "dialects/common/diag.h"
#include "dialects/graph/infer.h"
#include "dialects/graph/op_table.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ---- Element-type classes (ONNX type constraints) ---------------------- */

/* A bit set of element-type classes; classify() returns exactly one bit. */
typedef unsigned TypeClass;
enum {
  TC_BOOL = 1u << 0,          /* i1 */
  TC_INT_NARROW = 1u << 1,    /* i8, i16 */
  TC_INT_WIDE = 1u << 2,      /* i32, i64 */
  TC_UINT = 1u << 3,          /* ui8 .. ui64 */
  TC_FLOAT = 1u << 4,         /* f16, bf16, f32, f64 */
  TC_LOW_PRECISION = 1u << 5, /* float8, float4, int4: Cast only */
  TC_NUM_CLASSES = 6
};
#define TC_SIGNED (TC_INT_NARROW | TC_INT_WIDE | TC_FLOAT)
#define TC_NUMERIC (TC_SIGNED | TC_UINT)
#define TC_ANY (TC_BOOL | TC_NUMERIC)
#define TC_CASTABLE (TC_ANY | TC_LOW_PRECISION)

/* Element types of each class, for error messages (indexed by bit). */
static const char *const kClassTypes[TC_NUM_CLASSES] = {
    "i1",
    "i8, i16",
    "i32, i64",
    "ui8, ui16, ui32, ui64",
    "f16, bf16, f32, f64",
    "f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ, f8E8M0FNU, f4E2M1FN, i4, ui4",
};

static TypeClass classifyInteger(MlirType t) {
  unsigned w = mlirIntegerTypeGetWidth(t);
  if (w == 4)
    return TC_LOW_PRECISION;
  bool standard = w == 8 || w == 16 || w == 32 || w == 64;
  if (mlirIntegerTypeIsUnsigned(t))
    return standard ? TC_UINT : 0;
  if (w == 1)
    return mlirIntegerTypeIsSignless(t) ? TC_BOOL : 0;
  if (w == 8 || w == 16)
    return TC_INT_NARROW;
  return standard ? TC_INT_WIDE : 0;
}

/* The class of an element type, or 0 when ONNX has no such tensor type
 * (index, i3, f80, complex, ...). */
static TypeClass classify(MlirType t) {
  if (mlirTypeIsAInteger(t))
    return classifyInteger(t);
  if (mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) ||
      mlirTypeIsAF64(t))
    return TC_FLOAT;
  if (mlirTypeIsAFloat8E4M3FN(t) || mlirTypeIsAFloat8E4M3FNUZ(t) ||
      mlirTypeIsAFloat8E5M2(t) || mlirTypeIsAFloat8E5M2FNUZ(t) ||
      mlirTypeIsAFloat8E8M0FNU(t) || mlirTypeIsAFloat4E2M1FN(t))
    return TC_LOW_PRECISION;
  return 0;
}

/* Appends the element types allowed by `allowed`, comma-separated. */
static void appendAllowed(KilnStrBuf *buf, TypeClass allowed) {
  const char *sep = "";
  for (int i = 0; i < TC_NUM_CLASSES; ++i) {
    if (!(allowed & (1u << i)))
      continue;
    kilnStrBufAppendf(buf, "%s%s", sep, kClassTypes[i]);
    sep = ", ";
  }
}

/* ---- Operand helpers ---------------------------------------------------- */

/* The declared name of operand `i`; "?" past the declared ones. */
static const char *operandName(const KilnInferContext *c, intptr_t i) {
  const KilnGraphOpInfo *op = c->op;
  return i >= 0 && i < op->numOperands ? op->operands[i].name : "?";
}

static MlirType elementType(MlirType tensor) {
  return mlirShapedTypeGetElementType(tensor);
}

/* Operand `i` as a ranked tensor whose element type is in `allowed`; a null
 * type after an error otherwise. */
static MlirType typedOperand(const KilnInferContext *c, intptr_t i,
                             TypeClass allowed) {
  MlirType t = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(t) || (classify(elementType(t)) & allowed))
    return t;
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, t);
  kilnStrBufAppendf(&buf, "; allowed element types: ");
  appendAllowed(&buf, allowed);
  kilnInferError(c, "operand #%ld ('%s') has an unsupported element type: %s",
                 (long)i, operandName(c, i), kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return (MlirType){NULL};
}

/* ONNX binds operands `i` and `j` to one type variable T: their element
 * types must be equal. */
static MlirLogicalResult sameElementType(const KilnInferContext *c, intptr_t i,
                                         MlirType ti, intptr_t j, MlirType tj) {
  if (mlirTypeEqual(elementType(ti), elementType(tj)))
    return mlirLogicalResultSuccess();
  KilnStrBuf a = {0}, b = {0};
  kilnStrBufAppendType(&a, elementType(ti));
  kilnStrBufAppendType(&b, elementType(tj));
  kilnInferError(c,
                 "operand #%ld ('%s') must have the element type of operand "
                 "#%ld ('%s'), %s, got %s",
                 (long)j, operandName(c, j), (long)i, operandName(c, i),
                 kilnStrBufGet(&a), kilnStrBufGet(&b));
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

/* Every op of this family has exactly one result. */
static MlirLogicalResult checkOneResult(const KilnInferContext *c) {
  if (c->numResults == 1)
    return mlirLogicalResultSuccess();
  return kilnInferError(c, "expects 1 result, got %ld", (long)c->numResults);
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

/* Unary ops keep their operand's type; only the element type is checked. */
static MlirLogicalResult inferUnary(KilnInferContext *c, TypeClass allowed) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType t = typedOperand(c, 0, allowed);
  if (mlirTypeIsNull(t))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = t;
  return mlirLogicalResultSuccess();
}

/* neg, relu: T in signed numeric types. */
static MlirLogicalResult inferSignedUnary(KilnInferContext *c) {
  return inferUnary(c, TC_SIGNED);
}

/* abs, erf: T in all numeric types. */
static MlirLogicalResult inferNumericUnary(KilnInferContext *c) {
  return inferUnary(c, TC_NUMERIC);
}

/* sqrt, reciprocal, exp, log, tanh, sigmoid, leaky_relu, elu, hard_sigmoid,
 * floor, ceil, round: T in the float types. */
static MlirLogicalResult inferFloatUnary(KilnInferContext *c) {
  return inferUnary(c, TC_FLOAT);
}

/* not: T = bool. */
static MlirLogicalResult inferNot(KilnInferContext *c) {
  return inferUnary(c, TC_BOOL);
}

/* Two operands bound to one T in `allowed`, broadcast; the result has
 * element type `resultElt`, or T's when null. */
static MlirLogicalResult inferBinary(KilnInferContext *c, TypeClass allowed,
                                     MlirType resultElt) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType a = typedOperand(c, 0, allowed);
  if (mlirTypeIsNull(a))
    return mlirLogicalResultFailure();
  MlirType b = typedOperand(c, 1, allowed);
  if (mlirTypeIsNull(b) ||
      mlirLogicalResultIsFailure(sameElementType(c, 0, a, 1, b)))
    return mlirLogicalResultFailure();
  if (mlirTypeIsNull(resultElt))
    resultElt = elementType(a);
  c->resultTypes[0] = broadcast(c, a, b, resultElt);
  return mlirTypeIsNull(c->resultTypes[0]) ? mlirLogicalResultFailure()
                                           : mlirLogicalResultSuccess();
}

/* add, sub, mul, div: numeric T, result T. */
static MlirLogicalResult inferArithmetic(KilnInferContext *c) {
  return inferBinary(c, TC_NUMERIC, (MlirType){NULL});
}

/* and, or: bool operands, bool result. */
static MlirLogicalResult inferLogical(KilnInferContext *c) {
  return inferBinary(c, TC_BOOL, mlirIntegerTypeGet(c->ctx, 1));
}

/* equal: any T (bool included), bool result. */
static MlirLogicalResult inferEqual(KilnInferContext *c) {
  return inferBinary(c, TC_ANY, mlirIntegerTypeGet(c->ctx, 1));
}

/* less, greater: numeric T, bool result. */
static MlirLogicalResult inferOrdering(KilnInferContext *c) {
  return inferBinary(c, TC_NUMERIC, mlirIntegerTypeGet(c->ctx, 1));
}

/* min, max: numeric T, result T. Binary although ONNX's Min/Max are
 * variadic: IRDL binds one type to all values of a variadic operand, which
 * would forbid broadcasting, and min/max being associative, the importer
 * chains N-ary ones exactly. */
static MlirLogicalResult inferMinMax(KilnInferContext *c) {
  return inferBinary(c, TC_NUMERIC, (MlirType){NULL});
}

/* pow: X has T (i32, i64, floats), Y has its own T1 (any numeric); the
 * result has T. */
static MlirLogicalResult inferPow(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType x = typedOperand(c, 0, TC_INT_WIDE | TC_FLOAT);
  if (mlirTypeIsNull(x))
    return mlirLogicalResultFailure();
  MlirType y = typedOperand(c, 1, TC_NUMERIC);
  if (mlirTypeIsNull(y))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = broadcast(c, x, y, elementType(x));
  return mlirTypeIsNull(c->resultTypes[0]) ? mlirLogicalResultFailure()
                                           : mlirLogicalResultSuccess();
}

/* where: a bool condition and X, Y of one T, all three broadcast. */
static MlirLogicalResult inferWhere(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType cond = typedOperand(c, 0, TC_BOOL);
  if (mlirTypeIsNull(cond))
    return mlirLogicalResultFailure();
  MlirType x = typedOperand(c, 1, TC_ANY);
  if (mlirTypeIsNull(x))
    return mlirLogicalResultFailure();
  MlirType y = typedOperand(c, 2, TC_ANY);
  if (mlirTypeIsNull(y) ||
      mlirLogicalResultIsFailure(sameElementType(c, 1, x, 2, y)))
    return mlirLogicalResultFailure();
  MlirType xy = broadcast(c, x, y, elementType(x));
  if (mlirTypeIsNull(xy))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = broadcast(c, cond, xy, elementType(x));
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
  MlirType t = typedOperand(c, i, TC_NUMERIC);
  if (mlirTypeIsNull(t) ||
      mlirLogicalResultIsFailure(sameElementType(c, 0, input, i, t)))
    return mlirLogicalResultFailure();
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t dim = rank == 1 ? mlirShapedTypeGetDimSize(t, 0) : 1;
  if (rank == 0 ||
      (rank == 1 && (dim == 1 || mlirShapedTypeIsDynamicSize(dim))))
    return mlirLogicalResultSuccess();
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, t);
  kilnInferError(c, "operand #%ld ('%s') must be a scalar, got %s", (long)i,
                 operandName(c, i), kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

/* clip: the input's type, with optional scalar min/max of the same T. */
static MlirLogicalResult inferClip(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType input = typedOperand(c, 0, TC_NUMERIC);
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
  if (classify(t) & TC_CASTABLE)
    return t;
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, t);
  kilnStrBufAppendf(&buf, "; allowed: ");
  appendAllowed(&buf, TC_CASTABLE);
  kilnInferError(c, "attribute 'to' must be an element type, got %s",
                 kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return (MlirType){NULL};
}

/* cast: the input's shape with element type `to`. `saturate` is a flag and
 * `round_mode` one of ONNX's three modes (both only matter for float8). */
static MlirLogicalResult inferCast(KilnInferContext *c) {
  if (mlirLogicalResultIsFailure(checkOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType input = typedOperand(c, 0, TC_CASTABLE);
  if (mlirTypeIsNull(input))
    return mlirLogicalResultFailure();
  MlirType to = castTarget(c);
  if (mlirTypeIsNull(to))
    return mlirLogicalResultFailure();
  int64_t saturate = kilnInferAttrInt(c, "saturate", 1);
  if (saturate != 0 && saturate != 1)
    return kilnInferError(c, "attribute 'saturate' must be 0 or 1, got %ld",
                          (long)saturate);
  MlirStringRef mode = kilnInferAttrString(c, "round_mode", "up");
  if (!kilnStringRefEquals(mode, "up") && !kilnStringRefEquals(mode, "down") &&
      !kilnStringRefEquals(mode, "nearest"))
    return kilnInferError(c,
                          "attribute 'round_mode' must be \"up\", \"down\" or "
                          "\"nearest\", got \"%.*s\"",
                          (int)mode.length, mode.data);
  intptr_t rank = mlirShapedTypeGetRank(input);
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i)
    shape[i] = mlirShapedTypeGetDimSize(input, i);
  c->resultTypes[0] = kilnInferTensorType(rank, shape, to);
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
};
const int kilnGraphElementwiseOpsCount = COUNT(kilnGraphElementwiseOps);

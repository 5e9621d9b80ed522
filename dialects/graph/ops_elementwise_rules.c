/* Type inference for the elementwise ops whose rules go beyond one
 * element-type class (see ops_elementwise.h): attribute values that depend
 * on the element type (mod), string choices (bit_shift, gelu), flags
 * (is_inf, cast_like), ONNX type lists that match no class (celu: f32 only;
 * shrink: no bf16; prelu: 32/64-bit integers and floats), unidirectional
 * broadcasting (prelu), and optional operands and results (dropout). */
#include "dialects/graph/infer.h"
#include "dialects/graph/ops_elementwise.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <stdio.h>

static bool failed(MlirLogicalResult r) {
  return mlirLogicalResultIsFailure(r);
}

static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }

static MlirType boolType(const KilnInferContext *c) {
  return mlirIntegerTypeGet(c->ctx, 1);
}

/* Fails unless string attribute `name` (default `dflt`) is one of the
 * NULL-terminated `choices`; `expected` lists them for the message. */
static MlirLogicalResult checkChoice(const KilnInferContext *c,
                                     const char *name, const char *dflt,
                                     const char *const *choices,
                                     const char *expected) {
  MlirStringRef v = kilnInferAttrString(c, name, dflt);
  for (const char *const *p = choices; *p; ++p)
    if (kilnStringRefEquals(v, *p))
      return ok();
  return kilnInferError(c, "attribute '%s' must be %s, got \"%.*s\"", name,
                        expected, (int)v.length, v.data);
}

/* Operand `i` must be a rank-0 tensor (ONNX's scalars). */
static MlirLogicalResult requireScalar(const KilnInferContext *c, intptr_t i,
                                       MlirType t) {
  if (mlirShapedTypeGetRank(t) == 0)
    return ok();
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, t);
  kilnInferError(c, "operand #%ld ('%s') must be a scalar (rank 0), got %s",
                 (long)i, kilnElemOperandName(c, i), kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

MlirLogicalResult kilnElemInferMod(KilnInferContext *c) {
  int64_t fmod;
  if (failed(kilnElemReadFlag(c, "fmod", 0, &fmod)) ||
      failed(kilnElemInferBinary(c, KILN_TC_NUMERIC, (MlirType){NULL})))
    return mlirLogicalResultFailure();
  /* ONNX: integer mod (the sign of the divisor) is not defined for floats. */
  MlirType elt = kilnElemOf(c->resultTypes[0]);
  if (fmod == 0 && kilnElemClassify(elt) == KILN_TC_FLOAT) {
    KilnStrBuf buf = {0};
    kilnStrBufAppendType(&buf, elt);
    kilnInferError(c,
                   "attribute 'fmod' must be 1 for float operands (%s), "
                   "got 0",
                   kilnStrBufGet(&buf));
    kilnStrBufDestroy(&buf);
    return mlirLogicalResultFailure();
  }
  return ok();
}

MlirLogicalResult kilnElemInferBitShift(KilnInferContext *c) {
  static const char *const kDirections[] = {"LEFT", "RIGHT", NULL};
  if (failed(checkChoice(c, "direction", "", kDirections,
                         "\"LEFT\" or \"RIGHT\"")))
    return mlirLogicalResultFailure();
  return kilnElemInferBinary(c, KILN_TC_UINT, (MlirType){NULL});
}

MlirLogicalResult kilnElemInferIsNaN(KilnInferContext *c) {
  if (failed(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType x = kilnElemTypedOperand(c, 0, KILN_TC_FLOAT | KILN_TC_FLOAT8);
  if (mlirTypeIsNull(x))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = kilnElemWithElementType(x, boolType(c));
  return ok();
}

MlirLogicalResult kilnElemInferIsInf(KilnInferContext *c) {
  int64_t flag;
  if (failed(kilnElemReadFlag(c, "detect_negative", 1, &flag)) ||
      failed(kilnElemReadFlag(c, "detect_positive", 1, &flag)))
    return mlirLogicalResultFailure();
  return kilnElemInferIsNaN(c);
}

MlirLogicalResult kilnElemInferCelu(KilnInferContext *c) {
  if (failed(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x))
    return mlirLogicalResultFailure();
  if (!mlirTypeIsAF32(kilnElemOf(x)))
    return kilnElemTypeError(c, 0, x, "f32");
  c->resultTypes[0] = x;
  return ok();
}

MlirLogicalResult kilnElemInferGelu(KilnInferContext *c) {
  static const char *const kModes[] = {"none", "tanh", NULL};
  if (failed(checkChoice(c, "approximate", "none", kModes,
                         "\"none\" or \"tanh\"")))
    return mlirLogicalResultFailure();
  return kilnElemInferUnary(c, KILN_TC_FLOAT);
}

MlirLogicalResult kilnElemInferShrink(KilnInferContext *c) {
  if (failed(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x))
    return mlirLogicalResultFailure();
  /* ONNX's all_numeric_types, which lacks bfloat16. */
  MlirType elt = kilnElemOf(x);
  if (!(kilnElemClassify(elt) & KILN_TC_NUMERIC) || mlirTypeIsABF16(elt))
    return kilnElemTypeError(c, 0, x,
                             "i8, i16, i32, i64, ui8, ui16, ui32, ui64, f16, "
                             "f32, f64");
  c->resultTypes[0] = x;
  return ok();
}

/* Fails unless `slope` broadcasts to `x` in one direction: it has at most
 * x's rank and each of its dims, right-aligned, is 1 or x's dim. */
static MlirLogicalResult checkUnidirectional(const KilnInferContext *c,
                                             MlirType x, MlirType slope) {
  intptr_t rx = mlirShapedTypeGetRank(x), rs = mlirShapedTypeGetRank(slope);
  intptr_t bad = -1;
  int64_t dx = 0, ds = 0;
  for (intptr_t k = 0; k < rs && bad < 0 && rs <= rx; ++k) {
    ds = mlirShapedTypeGetDimSize(slope, rs - 1 - k);
    dx = mlirShapedTypeGetDimSize(x, rx - 1 - k);
    if (ds != 1 && ds != dx && !mlirShapedTypeIsDynamicSize(ds) &&
        !mlirShapedTypeIsDynamicSize(dx))
      bad = rx - 1 - k;
  }
  if (rs <= rx && bad < 0)
    return ok();
  KilnStrBuf a = {0}, b = {0};
  kilnStrBufAppendType(&a, slope);
  kilnStrBufAppendType(&b, x);
  if (rs > rx)
    kilnInferError(c,
                   "operand #1 ('slope') must broadcast to the shape of "
                   "operand #0 ('x'): %s has a higher rank than %s",
                   kilnStrBufGet(&a), kilnStrBufGet(&b));
  else
    kilnInferError(c,
                   "operand #1 ('slope') must broadcast to the shape of "
                   "operand #0 ('x'): %s vs %s (x's dimension %ld: %ld vs "
                   "%ld)",
                   kilnStrBufGet(&a), kilnStrBufGet(&b), (long)bad, (long)ds,
                   (long)dx);
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

MlirLogicalResult kilnElemInferPRelu(KilnInferContext *c) {
  const KilnElemClass allowed =
      KILN_TC_INT_WIDE | KILN_TC_UINT_WIDE | KILN_TC_FLOAT;
  if (failed(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType x = kilnElemTypedOperand(c, 0, allowed);
  if (mlirTypeIsNull(x))
    return mlirLogicalResultFailure();
  MlirType slope = kilnElemTypedOperand(c, 1, allowed);
  if (mlirTypeIsNull(slope) ||
      failed(kilnElemSameElementType(c, 0, x, 1, slope)) ||
      failed(checkUnidirectional(c, x, slope)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = x;
  return ok();
}

MlirLogicalResult kilnElemInferCastLike(KilnInferContext *c) {
  if (failed(kilnElemCheckOneResult(c)))
    return mlirLogicalResultFailure();
  MlirType input = kilnElemTypedOperand(c, 0, KILN_TC_CASTABLE);
  if (mlirTypeIsNull(input))
    return mlirLogicalResultFailure();
  MlirType target = kilnElemTypedOperand(c, 1, KILN_TC_CASTABLE);
  if (mlirTypeIsNull(target) || failed(kilnElemCheckCastAttrs(c)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = kilnElemWithElementType(input, kilnElemOf(target));
  return ok();
}

/* Kiln compiles for inference, where dropout is the identity: a
 * training_mode must be absent or a constant false. A non-constant one
 * could be true at run time, which would ask for random dropout -- unless
 * the ratio is a constant 0, when training mode drops nothing either and
 * the op is still the identity (torch 1.13 exports F.dropout(x, p=0) that
 * way, e.g. in torchvision's Swin). */
static MlirLogicalResult checkTrainingMode(const KilnInferContext *c) {
  if (mlirValueIsNull(kilnInferOperand(c, 2)))
    return ok();
  MlirType t = kilnElemTypedOperand(c, 2, KILN_TC_BOOL);
  if (mlirTypeIsNull(t) || failed(requireScalar(c, 2, t)))
    return mlirLogicalResultFailure();
  int64_t mode = 0;
  intptr_t n = kilnInferConstantInts(c, 2, &mode, 1);
  if (n == 1 && mode == 0)
    return ok();
  double ratio = 0.5; /* ONNX's default */
  bool hasRatio = !mlirValueIsNull(kilnInferOperand(c, 1));
  bool known = !hasRatio || kilnInferConstantFloats(c, 1, &ratio, 1) == 1;
  if (known && ratio == 0.0)
    return ok();
  char why[64];
  if (known)
    snprintf(why, sizeof why, "ratio %g%s", ratio,
             hasRatio ? "" : " (default)");
  else
    snprintf(why, sizeof why, "a non-constant ratio");
  return kilnInferError(c,
                        "operand #2 ('training_mode') must be absent or a "
                        "constant false: Kiln compiles dropout for inference "
                        "only, got %s with %s (training-mode dropout is "
                        "unsupported unless its ratio is a constant 0)",
                        n == 1 ? "a constant true" : "a non-constant value",
                        why);
}

MlirLogicalResult kilnElemInferDropout(KilnInferContext *c) {
  if (c->numResults != 1 && c->numResults != 2)
    return kilnInferError(c, "expects 1 or 2 results (output, mask), got %ld",
                          (long)c->numResults);
  MlirType data = kilnElemTypedOperand(c, 0, KILN_TC_FLOAT | KILN_TC_FLOAT8);
  if (mlirTypeIsNull(data))
    return mlirLogicalResultFailure();
  if (!mlirValueIsNull(kilnInferOperand(c, 1))) {
    MlirType ratio = kilnElemTypedOperand(c, 1, KILN_TC_FLOAT | KILN_TC_FLOAT8);
    if (mlirTypeIsNull(ratio) || failed(requireScalar(c, 1, ratio)))
      return mlirLogicalResultFailure();
  }
  if (failed(checkTrainingMode(c)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = data;
  if (c->numResults == 2)
    c->resultTypes[1] = kilnElemWithElementType(data, boolType(c));
  return ok();
}

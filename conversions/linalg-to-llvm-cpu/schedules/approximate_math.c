/* kiln-approximate-math: vectorizable f32 math functions for CPUs
 * (docs/cpu-codegen.md).
 *
 * With exp-tanh (the CPU pipeline), f32 math.exp and math.tanh too, which
 * LLVM otherwise turns into one libm call per element even in vectors
 * (a recurrent cell's sigmoids and tanhs spent a third of an LSTM's time
 * there); see approximateExp and approximateTanh for the methods and
 * their measured error (~1.4 ulp and ~4e-7).
 *
 * convert-math-to-libm turns math.erf into a call of libm's erff, one
 * element at a time: a loop that calls a function is not vectorized by
 * LLVM, and GELU-heavy models (BERT) spend a tenth of their time there.
 * This pass replaces each f32 math.erf (scalar or vector) with a rational
 * approximation in arith ops, which LLVM vectorizes with the loop around
 * it: erf(x) = x P(x^2) / Q(x^2) on x clamped to [-4, 4] (outside, erf is
 * +-1 in f32), with P of degree 6 and Q of degree 4 in x^2. Measured
 * against libm's erf on [-6, 6] (200001 points): at most 4.2e-7 absolute
 * and relative error, i.e. a few f32 ulps. NaN stays NaN (the clamp and
 * the arithmetic propagate it). f64 erf keeps the libm call. */
#include "kiln/diagnostics.h"
#include "kiln/passes.h"

#include <stdint.h>
#include <string.h>

#include "dialects/linalg/transforms/schedule.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Math.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

/* Odd numerator x * (a0 + a1 x^2 + ... + a6 x^12) and even denominator
 * b0 + b1 x^2 + ... + b4 x^8, lowest degree first. */
static const double kErfNumerator[] = {
    -1.60960333262415e-02, -2.95459980854025e-03, -7.34990630326855e-04,
    -5.69250639462346e-05, -2.10102402082508e-06, 2.77068142495902e-08,
    -2.72614225801306e-10};
static const double kErfDenominator[] = {
    -1.42647390514189e-02, -7.37332916720468e-03, -1.68282697438203e-03,
    -2.13374055278905e-04, -1.45660718464996e-05};

/* Where replacement ops go: before `anchor`, typed like it. */
typedef struct Emitter {
  MlirContext ctx;
  MlirLocation loc;
  MlirOperation anchor;
  MlirType type; /* f32 or a vector of f32 */
  MlirAttribute contract;
} Emitter;

static MlirValue insert(Emitter *e, MlirOperationState *state) {
  MlirOperation op = mlirOperationCreate(state);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(e->anchor),
                                      e->anchor, op);
  return mlirOperationGetResult(op, 0);
}

static MlirValue constant(Emitter *e, double v) {
  MlirAttribute value =
      mlirTypeIsAVector(e->type)
          ? mlirDenseElementsAttrFloatSplatGet(e->type, (float)v)
          : mlirFloatAttrDoubleGet(e->ctx, e->type, v);
  MlirNamedAttribute attr =
      mlirNamedAttributeGet(mlirIdentifierGet(e->ctx, kilnStr("value")), value);
  MlirOperationState state =
      mlirOperationStateGet(kilnStr("arith.constant"), e->loc);
  mlirOperationStateAddResults(&state, 1, &e->type);
  mlirOperationStateAddAttributes(&state, 1, &attr);
  return insert(e, &state);
}

/* The binary arith op `name` on (x, y); multiplies and adds may contract
 * into FMAs. */
static MlirValue binary(Emitter *e, const char *name, MlirValue x,
                        MlirValue y) {
  MlirOperationState state = mlirOperationStateGet(kilnStr(name), e->loc);
  MlirValue operands[2] = {x, y};
  mlirOperationStateAddOperands(&state, 2, operands);
  mlirOperationStateAddResults(&state, 1, &e->type);
  if (!strcmp(name, "arith.mulf") || !strcmp(name, "arith.addf")) {
    MlirNamedAttribute fm = mlirNamedAttributeGet(
        mlirIdentifierGet(e->ctx, kilnStr("fastmath")), e->contract);
    mlirOperationStateAddAttributes(&state, 1, &fm);
  }
  return insert(e, &state);
}

/* c[0] + c[1] t + ... + c[n-1] t^(n-1), by Horner's rule. */
static MlirValue polynomial(Emitter *e, MlirValue t, const double *c,
                            size_t n) {
  MlirValue acc = constant(e, c[n - 1]);
  for (size_t i = n - 1; i-- > 0;)
    acc = binary(e, "arith.addf", binary(e, "arith.mulf", acc, t),
                 constant(e, c[i]));
  return acc;
}

/* The op `name` on `operands` with one result of type `type`, and the
 * attribute `attr` (null: none) named `attrName`. */
static MlirValue emit(Emitter *e, const char *name, intptr_t n,
                      const MlirValue *operands, MlirType type,
                      const char *attrName, MlirAttribute attr) {
  MlirNamedAttribute named = {{NULL}, {NULL}};
  if (attrName)
    named = mlirNamedAttributeGet(mlirIdentifierGet(e->ctx, kilnStr(attrName)),
                                  attr);
  return mlirOperationGetResult(kilnInsertOp(e->anchor, name, n, operands, 1,
                                             &type, attrName ? 1 : 0, &named),
                                0);
}

static MlirValue unary(Emitter *e, const char *name, MlirValue x,
                       MlirType type) {
  return emit(e, name, 1, &x, type, NULL, mlirAttributeGetNull());
}

/* The i32 type shaped like e->type (i32 or a vector of them). */
static MlirType intType(Emitter *e) {
  MlirType i32 = mlirIntegerTypeGet(e->ctx, 32);
  if (!mlirTypeIsAVector(e->type))
    return i32;
  intptr_t rank = mlirShapedTypeGetRank(e->type);
  int64_t shape[8];
  for (intptr_t i = 0; i < rank && i < 8; ++i)
    shape[i] = mlirShapedTypeGetDimSize(e->type, i);
  return mlirVectorTypeGet(rank, shape, i32);
}

static MlirValue intConstant(Emitter *e, int32_t v) {
  MlirType t = intType(e);
  MlirAttribute value = mlirTypeIsAVector(t)
                            ? mlirDenseElementsAttrInt32SplatGet(t, v)
                            : mlirIntegerAttrGet(t, v);
  return emit(e, "arith.constant", 0, NULL, t, "value", value);
}

static MlirValue intBinary(Emitter *e, const char *name, MlirValue x,
                           MlirValue y) {
  MlirValue operands[2] = {x, y};
  return emit(e, name, 2, operands, intType(e), NULL, mlirAttributeGetNull());
}

/* arith.cmpf's predicates used here (its enum's values). */
enum { CMPF_OLT = 4, CMPF_UNO = 14 };

/* arith.select(cmpf `predicate` (x, y), a, b). */
static MlirValue selectIf(Emitter *e, int predicate, MlirValue x, MlirValue y,
                          MlirValue a, MlirValue b) {
  MlirType i1 = mlirIntegerTypeGet(e->ctx, 1);
  if (mlirTypeIsAVector(e->type)) {
    intptr_t rank = mlirShapedTypeGetRank(e->type);
    int64_t shape[8];
    for (intptr_t i = 0; i < rank && i < 8; ++i)
      shape[i] = mlirShapedTypeGetDimSize(e->type, i);
    i1 = mlirVectorTypeGet(rank, shape, i1);
  }
  MlirValue xy[2] = {x, y};
  MlirValue cond =
      emit(e, "arith.cmpf", 2, xy, i1, "predicate",
           mlirIntegerAttrGet(mlirIntegerTypeGet(e->ctx, 64), predicate));
  MlirValue ops[3] = {cond, a, b};
  return emit(e, "arith.select", 3, ops, e->type, NULL, mlirAttributeGetNull());
}

/* 2^k for integer k in [-126, 127], built from its exponent bits. */
static MlirValue pow2(Emitter *e, MlirValue k) {
  MlirValue bits = intBinary(e, "arith.shli",
                             intBinary(e, "arith.addi", k, intConstant(e, 127)),
                             intConstant(e, 23));
  return unary(e, "arith.bitcast", bits, e->type);
}

static bool isF32OrF32Vector(MlirType t) {
  if (mlirTypeIsAVector(t))
    t = mlirShapedTypeGetElementType(t);
  return mlirTypeIsAF32(t);
}

typedef struct Collect {
  KilnOpList ops;
  bool expTanh;
} Collect;

static MlirWalkResult collectMath(MlirOperation op, void *userData) {
  Collect *c = userData;
  bool erf = kilnOpNameIs(op, "math.erf");
  bool more = c->expTanh &&
              (kilnOpNameIs(op, "math.exp") || kilnOpNameIs(op, "math.tanh"));
  if ((erf || more) && mlirOperationGetNumResults(op) == 1 &&
      isF32OrF32Vector(mlirValueGetType(mlirOperationGetResult(op, 0))))
    kilnOpListPush(&c->ops, op);
  return MlirWalkResultAdvance;
}

/* exp(x) as Cephes' expf computes it: x = n ln 2 + r with n = round(x /
 * ln 2) and r in [-ln 2 / 2, ln 2 / 2] (ln 2 in two parts, so r is exact),
 * e^r = 1 + r + r^2 P(r) with P of degree 5, times 2^n. 2^n is applied as
 * two factors 2^(n/2) (each a normal float), so results from 2^-149 to
 * 2^128 (inf) round as they should; x is clamped to [-104, 89] first,
 * beyond which the result is 0 or inf anyway. NaN stays NaN. Measured
 * against float64 exp on [-110, 95] (2000001 points): at most 8.1e-8
 * relative error (1.4 ulp) over the normal range. */
static MlirValue approximateExp(Emitter *e, MlirValue x) {
  static const double kP[] = {5.0000001201e-1, 1.6666665459e-1,
                              4.1665795894e-2, 8.3334519073e-3,
                              1.3981999507e-3, 1.9875691500e-4};
  MlirValue xc = binary(e, "arith.maximumf", x, constant(e, -104.0));
  xc = binary(e, "arith.minimumf", xc, constant(e, 89.0));
  MlirValue n = unary(
      e, "math.roundeven",
      binary(e, "arith.mulf", xc, constant(e, 1.4426950408889634)), e->type);
  MlirValue r = binary(e, "arith.subf", xc,
                       binary(e, "arith.mulf", n, constant(e, 0.693359375)));
  r = binary(e, "arith.subf", r,
             binary(e, "arith.mulf", n, constant(e, -2.12194440e-4)));
  MlirValue p = polynomial(e, r, kP, sizeof(kP) / sizeof(kP[0]));
  MlirValue y = binary(
      e, "arith.addf",
      binary(e, "arith.addf",
             binary(e, "arith.mulf", p, binary(e, "arith.mulf", r, r)), r),
      constant(e, 1.0));
  MlirValue k = unary(e, "arith.fptosi", n, intType(e));
  MlirValue k1 = intBinary(e, "arith.shrsi", k, intConstant(e, 1));
  MlirValue k2 = intBinary(e, "arith.subi", k, k1);
  y = binary(e, "arith.mulf", binary(e, "arith.mulf", y, pow2(e, k1)),
             pow2(e, k2));
  /* NaN: n's conversion to an integer is undefined, y is not used. */
  return selectIf(e, CMPF_UNO, x, x, x, y);
}

/* tanh(x) as x P(x^2) / Q(x^2) (the rational approximation of Eigen and
 * MLIR's math polynomial approximations) on x clamped to +-7.9988 (where
 * tanh rounds to +-1); x itself below 0.0004 in magnitude. NaN stays NaN.
 * Measured against float64 tanh on [-12, 12] (2400001 points): at most
 * 3.9e-7 absolute and relative error. */
static MlirValue approximateTanh(Emitter *e, MlirValue x) {
  static const double kP[] = {4.89352455891786e-03,  6.37261928875436e-04,
                              1.48572235717979e-05,  5.12229709037114e-08,
                              -8.60467152213735e-11, 2.00018790482477e-13,
                              -2.76076847742355e-16};
  static const double kQ[] = {4.89352518554385e-03, 2.26843463243900e-03,
                              1.18534705686654e-04, 1.19825839466702e-06};
  MlirValue xc =
      binary(e, "arith.maximumf", x, constant(e, -7.99881172180175781));
  xc = binary(e, "arith.minimumf", xc, constant(e, 7.99881172180175781));
  MlirValue x2 = binary(e, "arith.mulf", xc, xc);
  MlirValue p = binary(e, "arith.mulf", xc,
                       polynomial(e, x2, kP, sizeof(kP) / sizeof(kP[0])));
  MlirValue q = polynomial(e, x2, kQ, sizeof(kQ) / sizeof(kQ[0]));
  MlirValue t = binary(e, "arith.divf", p, q);
  MlirValue ax = unary(e, "math.absf", x, e->type);
  return selectIf(e, CMPF_OLT, ax, constant(e, 0.0004), x, t);
}

static MlirValue approximateErf(Emitter *e, MlirValue x) {
  x = binary(e, "arith.maximumf", x, constant(e, -4.0));
  x = binary(e, "arith.minimumf", x, constant(e, 4.0));
  MlirValue x2 = binary(e, "arith.mulf", x, x);
  MlirValue p =
      binary(e, "arith.mulf", x,
             polynomial(e, x2, kErfNumerator,
                        sizeof(kErfNumerator) / sizeof(kErfNumerator[0])));
  MlirValue q =
      polynomial(e, x2, kErfDenominator,
                 sizeof(kErfDenominator) / sizeof(kErfDenominator[0]));
  return binary(e, "arith.divf", p, q);
}

/* Replaces `op` (math.erf, exp or tanh) with its approximation. */
static void approximate(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  Emitter e = {
      ctx, mlirOperationGetLocation(op), op,
      mlirValueGetType(mlirOperationGetResult(op, 0)),
      mlirAttributeParseGet(ctx, kilnStr("#arith.fastmath<contract>"))};
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirValue y = kilnOpNameIs(op, "math.exp")    ? approximateExp(&e, x)
                : kilnOpNameIs(op, "math.tanh") ? approximateTanh(&e, x)
                                                : approximateErf(&e, x);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), y);
  mlirOperationDestroy(op);
}

static void runApproximateMath(MlirOperation func, MlirExternalPass pass,
                               const KilnPassOptionValue *options) {
  (void)pass;
  Collect c = {{0}, options[0].b};
  mlirOperationWalk(func, collectMath, &c, MlirWalkPostOrder);
  for (size_t i = 0; i < c.ops.len; ++i)
    approximate(c.ops.data[i]);
  kilnOpListDestroy(&c.ops);
}

static const KilnPassOptionSpec kOptions[] = {
    {"exp-tanh", KILN_PASS_OPTION_BOOL, "false",
     "Approximate f32 math.exp and math.tanh too (the CPU pipeline)"},
};

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__arith__,
};

const KilnPassInfo kilnApproximateMathPass = {
    .argument = "kiln-approximate-math",
    .summary = "Replace f32 math.erf (and with exp-tanh, math.exp and "
               "math.tanh) with vectorizable approximations (a few ulps) "
               "instead of libm calls",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = 1,
    .run = runApproximateMath,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

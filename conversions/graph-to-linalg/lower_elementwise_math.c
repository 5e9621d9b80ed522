/* Elementwise math functions and activations (float ops of
 * ops_elementwise.c) → linalg.generic over math/arith scalar ops. Inputs
 * arrive in f32 or f64 (kilnEwLower computes f16/bf16 in f32), so math ops
 * that become libm calls always find a libm function. */
#include <math.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower_elementwise.h"
#include "kiln/diagnostics.h"

static MlirValue c(KilnBuilder *b, MlirValue like, double v) {
  return kilnEwConst(b, like, v);
}
static MlirValue mulC(KilnBuilder *b, MlirValue x, double k) {
  return kilnMulF(b, x, c(b, x, k));
}
/* NaN-propagating clamp to [lo, hi]. */
static MlirValue clamp(KilnBuilder *b, MlirValue x, double lo, double hi) {
  x = kilnArith2(b, "arith.maximumf", x, c(b, x, lo));
  return kilnArith2(b, "arith.minimumf", x, c(b, x, hi));
}
static MlirValue less(KilnBuilder *b, MlirValue x, double k) {
  return kilnCmpF(b, "olt", x, c(b, x, k));
}
static MlirValue greater(KilnBuilder *b, MlirValue x, double k) {
  return kilnCmpF(b, "ogt", x, c(b, x, k));
}

/* ---- Plain math functions ----------------------------------------------- */

/* The math op named by e->data, on x[0]. */
static MlirValue mathFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  return kilnArith1(b, e->data, x[0]);
}

/* erf also takes integers: computed in f64 and truncated, as numpy would. */
static MlirValue erfFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  if (kilnTypeIsFloat(mlirValueGetType(x[0])))
    return kilnArith1(b, "math.erf", x[0]);
  MlirType t = mlirValueGetType(x[0]), f64 = mlirF64TypeGet(b->ctx);
  MlirValue r =
      kilnArith1(b, "math.erf", kilnConvertScalar(b, x[0], f64, e->isUnsigned));
  return kilnConvertScalar(b, r, t, e->isUnsigned);
}

static MlirValue reciprocalFn(KilnBuilder *b, const MlirValue *x,
                              const KilnEw *e) {
  (void)e;
  return kilnDivF(b, c(b, x[0], 1), x[0]);
}

/* 1 / (1 + e^-x): e^-x overflows to inf for very negative x, giving 0. */
static MlirValue sigmoidOf(KilnBuilder *b, MlirValue x) {
  MlirValue ex = kilnArith1(b, "math.exp", kilnArith1(b, "arith.negf", x));
  return kilnDivF(b, c(b, x, 1), kilnAddF(b, c(b, x, 1), ex));
}
static MlirValue sigmoidFn(KilnBuilder *b, const MlirValue *x,
                           const KilnEw *e) {
  (void)e;
  return sigmoidOf(b, x[0]);
}

static MlirValue isNanFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  (void)e;
  return kilnCmpF(b, "uno", x[0], x[0]);
}

/* e->flag bit 0: detect_negative, bit 1: detect_positive. */
static MlirValue isInfFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  MlirValue r = kilnConstInt(b, mlirIntegerTypeGet(b->ctx, 1), 0);
  if (e->flag & 1)
    r = kilnArith2(b, "arith.ori", r,
                   kilnCmpF(b, "oeq", x[0], c(b, x[0], -INFINITY)));
  if (e->flag & 2)
    r = kilnArith2(b, "arith.ori", r,
                   kilnCmpF(b, "oeq", x[0], c(b, x[0], INFINITY)));
  return r;
}

/* ---- Activations (alpha, beta, gamma from attributes) ------------------- */

static MlirValue leakyReluFn(KilnBuilder *b, const MlirValue *x,
                             const KilnEw *e) {
  return kilnSelect(b, less(b, x[0], 0), mulC(b, x[0], e->alpha), x[0]);
}

/* alpha * (e^x - 1) */
static MlirValue expm1Scaled(KilnBuilder *b, MlirValue x, double alpha) {
  MlirValue em1 = kilnSubF(b, kilnArith1(b, "math.exp", x), c(b, x, 1));
  return mulC(b, em1, alpha);
}

static MlirValue eluFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  return kilnSelect(b, less(b, x[0], 0), expm1Scaled(b, x[0], e->alpha), x[0]);
}

static MlirValue seluFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  MlirValue r =
      kilnSelect(b, greater(b, x[0], 0), x[0], expm1Scaled(b, x[0], e->alpha));
  return mulC(b, r, e->gamma);
}

/* max(0, x) + min(0, alpha * (e^(x / alpha) - 1)) */
static MlirValue celuFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  MlirValue zero = c(b, x[0], 0);
  MlirValue neg = expm1Scaled(b, mulC(b, x[0], 1.0 / e->alpha), e->alpha);
  return kilnAddF(b, kilnArith2(b, "arith.maximumf", x[0], zero),
                  kilnArith2(b, "arith.minimumf", neg, zero));
}

static MlirValue hardSigmoidFn(KilnBuilder *b, const MlirValue *x,
                               const KilnEw *e) {
  MlirValue y = kilnAddF(b, mulC(b, x[0], e->alpha), c(b, x[0], e->beta));
  return clamp(b, y, 0, 1);
}

static MlirValue hardSwishFn(KilnBuilder *b, const MlirValue *x,
                             const KilnEw *e) {
  (void)e;
  MlirValue y = kilnAddF(b, mulC(b, x[0], 1.0 / 6.0), c(b, x[0], 0.5));
  return kilnMulF(b, x[0], clamp(b, y, 0, 1));
}

/* ln(1 + e^x), computed as max(x, 0) + log1p(e^-|x|) so that large x does
 * not overflow. */
static MlirValue softplusOf(KilnBuilder *b, MlirValue x) {
  MlirValue negAbs = kilnArith1(b, "arith.negf", kilnArith1(b, "math.absf", x));
  MlirValue tail =
      kilnArith1(b, "math.log1p", kilnArith1(b, "math.exp", negAbs));
  return kilnAddF(b, kilnArith2(b, "arith.maximumf", x, c(b, x, 0)), tail);
}
static MlirValue softplusFn(KilnBuilder *b, const MlirValue *x,
                            const KilnEw *e) {
  (void)e;
  return softplusOf(b, x[0]);
}

static MlirValue softsignFn(KilnBuilder *b, const MlirValue *x,
                            const KilnEw *e) {
  (void)e;
  MlirValue den = kilnAddF(b, c(b, x[0], 1), kilnArith1(b, "math.absf", x[0]));
  return kilnDivF(b, x[0], den);
}

static MlirValue thresholdedReluFn(KilnBuilder *b, const MlirValue *x,
                                   const KilnEw *e) {
  return kilnSelect(b, greater(b, x[0], e->alpha), x[0], c(b, x[0], 0));
}

/* x < -lambd ? x + bias : x > lambd ? x - bias : 0, on any numeric type
 * (the float attributes converted to an integer type as ONNX's reference
 * does). */
static MlirValue shrinkFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  bool isF = kilnTypeIsFloat(mlirValueGetType(x[0]));
  MlirValue lambd = c(b, x[0], e->beta), bias = c(b, x[0], e->alpha);
  MlirValue negLambd = c(b, x[0], -e->beta);
  MlirValue lo = isF ? kilnCmpF(b, "olt", x[0], negLambd)
                     : kilnCmpI(b, "slt", x[0], negLambd);
  MlirValue hi = isF ? kilnCmpF(b, "ogt", x[0], lambd)
                     : kilnCmpI(b, e->isUnsigned ? "ugt" : "sgt", x[0], lambd);
  if (e->isUnsigned)
    lo = kilnConstInt(b, mlirIntegerTypeGet(b->ctx, 1), 0);
  MlirValue r =
      kilnSelect(b, hi, kilnArithNumeric(b, "sub", x[0], bias), c(b, x[0], 0));
  return kilnSelect(b, lo, kilnArithNumeric(b, "add", x[0], bias), r);
}

/* x * tanh(softplus(x)) */
static MlirValue mishFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  (void)e;
  return kilnMulF(b, x[0], kilnArith1(b, "math.tanh", softplusOf(b, x[0])));
}

/* e->flag 0: 0.5 x (1 + erf(x / sqrt 2)); 1: the tanh approximation
 * 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))). */
static MlirValue geluFn(KilnBuilder *b, const MlirValue *x, const KilnEw *e) {
  MlirValue inner;
  if (e->flag) {
    MlirValue x3 = kilnMulF(b, kilnMulF(b, x[0], x[0]), x[0]);
    MlirValue s = kilnAddF(b, x[0], mulC(b, x3, 0.044715));
    inner = kilnArith1(b, "math.tanh",
                       mulC(b, s, 0.7978845608028654 /* sqrt(2 / pi) */));
  } else {
    inner = kilnArith1(b, "math.erf", mulC(b, x[0], 1.0 / sqrt(2.0)));
  }
  MlirValue half = mulC(b, x[0], 0.5);
  return kilnMulF(b, half, kilnAddF(b, c(b, x[0], 1), inner));
}

/* ---- The table ------------------------------------------------------------
 */

typedef struct MathOp {
  const char *name;
  KilnEwFn fn;
  const char *mathOp;   /* for mathFn */
  const char *attrs[3]; /* read into alpha, beta, gamma */
  float dflts[3];
} MathOp;

static const MathOp kMathOps[] = {
    {"sqrt", mathFn, "math.sqrt", {0}, {0}},
    {"exp", mathFn, "math.exp", {0}, {0}},
    {"log", mathFn, "math.log", {0}, {0}},
    {"tanh", mathFn, "math.tanh", {0}, {0}},
    {"floor", mathFn, "math.floor", {0}, {0}},
    {"ceil", mathFn, "math.ceil", {0}, {0}},
    {"round", mathFn, "math.roundeven", {0}, {0}}, /* half to even */
    {"sin", mathFn, "math.sin", {0}, {0}},
    {"cos", mathFn, "math.cos", {0}, {0}},
    {"tan", mathFn, "math.tan", {0}, {0}},
    {"asin", mathFn, "math.asin", {0}, {0}},
    {"acos", mathFn, "math.acos", {0}, {0}},
    {"atan", mathFn, "math.atan", {0}, {0}},
    {"sinh", mathFn, "math.sinh", {0}, {0}},
    {"cosh", mathFn, "math.cosh", {0}, {0}},
    {"asinh", mathFn, "math.asinh", {0}, {0}},
    {"acosh", mathFn, "math.acosh", {0}, {0}},
    {"atanh", mathFn, "math.atanh", {0}, {0}},
    {"erf", erfFn, NULL, {0}, {0}},
    {"reciprocal", reciprocalFn, NULL, {0}, {0}},
    {"sigmoid", sigmoidFn, NULL, {0}, {0}},
    {"is_nan", isNanFn, NULL, {0}, {0}},
    {"is_inf", isInfFn, NULL, {0}, {0}},
    {"leaky_relu", leakyReluFn, NULL, {"alpha"}, {0.01f}},
    {"elu", eluFn, NULL, {"alpha"}, {1.0f}},
    {"selu",
     seluFn,
     NULL,
     {"alpha", NULL, "gamma"},
     {1.67326319217681884765625f, 0, 1.05070102214813232421875f}},
    {"celu", celuFn, NULL, {"alpha"}, {1.0f}},
    {"hard_sigmoid", hardSigmoidFn, NULL, {"alpha", "beta"}, {0.2f, 0.5f}},
    {"hard_swish", hardSwishFn, NULL, {0}, {0}},
    {"softplus", softplusFn, NULL, {0}, {0}},
    {"softsign", softsignFn, NULL, {0}, {0}},
    {"thresholded_relu", thresholdedReluFn, NULL, {"alpha"}, {1.0f}},
    {"shrink", shrinkFn, NULL, {"bias", "lambd"}, {0.0f, 0.5f}},
    {"mish", mishFn, NULL, {0}, {0}},
    {"gelu", geluFn, NULL, {0}, {0}},
};

KilnLowerStatus kilnEwLowerMath(KilnLowerOp *l) {
  const char *name = l->info->name;
  const MathOp *op = NULL;
  for (size_t i = 0; i < sizeof(kMathOps) / sizeof(kMathOps[0]); ++i)
    if (!strcmp(kMathOps[i].name, name))
      op = &kMathOps[i];
  if (!op)
    return kilnLowerUnsupported(l, "has no math lowering");
  double v[3];
  for (int i = 0; i < 3; ++i)
    v[i] = op->attrs[i]
               ? kilnInferAttrFloat(&l->infer, op->attrs[i], op->dflts[i])
               : 0;
  KilnEw e = {.fn = op->fn,
              .data = op->mathOp,
              .alpha = v[0],
              .beta = v[1],
              .gamma = v[2]};
  if (!strcmp(name, "is_inf"))
    e.flag = (kilnInferAttrInt(&l->infer, "detect_negative", 1) ? 1 : 0) |
             (kilnInferAttrInt(&l->infer, "detect_positive", 1) ? 2 : 0);
  else if (!strcmp(name, "gelu"))
    e.flag = kilnStringRefEquals(
        kilnInferAttrString(&l->infer, "approximate", "none"), "tanh");
  return kilnEwLower(l, 1, &e);
}

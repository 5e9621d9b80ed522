/* graph-simplify's recomposition rules: decomposed GELU, LayerNorm and
 * MatMul + Add rebuilt as graph.gelu, graph.layer_norm and graph.gemm.
 *
 * Each pattern is matched from its last op (the root). Every intermediate
 * value must have no use outside the pattern, so the pattern's ops all die
 * and no work is duplicated; the pattern's inputs may have any uses.
 * Constants must hold exactly the expected values (1/sqrt(2) and sqrt(2)
 * within 1e-6 relative) and every type must line up exactly; anything else
 * is left as it is. */
#include "dialects/graph/transforms/simplify.h"
#include "kiln/graph_elementwise.h"
#include "kiln/graph_nn.h"
#include "kiln/graph_reduction.h"
#include "kiln/graph_tensor.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

static const double kSqrt2Tolerance = 1e-6;
/* M_SQRT2 and M_SQRT1_2 are POSIX, not C11. */
static const double kSqrt2 = 1.41421356237309504880;
static const double kSqrtHalf = 0.70710678118654752440;

static bool isFloat(MlirType t) {
  return mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) ||
         mlirTypeIsAF64(t);
}

static MlirType elementType(MlirValue v) {
  return mlirShapedTypeGetElementType(mlirValueGetType(v));
}

/* The op using `v` when it has exactly one use, else a null op. */
static MlirOperation soleUser(MlirValue v) {
  if (!kilnSimplifyHasOneUse(v))
    return (MlirOperation){NULL};
  return mlirOpOperandGetOwner(mlirValueGetFirstUse(v));
}

/* ---- GELU -----------------------------------------------------------------
 * 0.5 * x * (1 + erf(x / sqrt(2))), with x * 0.7071... for the division and
 * the three products in any order and operand order (PyTorch exports
 * (x * (1 + erf)) * 0.5; TF-style graphs (0.5 * x) * (1 + erf)).
 */

/* v = x / sqrt(2) or x * (1 / sqrt(2)) used once: returns x, else null. */
static MlirValue matchScaledX(MlirValue v) {
  MlirValue none = {NULL};
  if (!kilnSimplifyHasOneUse(v))
    return none;
  double c;
  MlirOperation d = kilnSimplifyDef(v, "div");
  if (!mlirOperationIsNull(d)) {
    MlirValue x = mlirOperationGetOperand(d, 0);
    bool ok = kilnSimplifyConstSplat(mlirOperationGetOperand(d, 1), &c) &&
              kilnSimplifyNear(c, kSqrt2, kSqrt2Tolerance) &&
              kilnSimplifySameType(x, v);
    return ok ? x : none;
  }
  MlirOperation m = kilnSimplifyDef(v, "mul");
  if (mlirOperationIsNull(m))
    return none;
  for (int i = 0; i < 2; ++i) {
    MlirValue x = mlirOperationGetOperand(m, i);
    if (kilnSimplifyConstSplat(mlirOperationGetOperand(m, 1 - i), &c) &&
        kilnSimplifyNear(c, kSqrtHalf, kSqrt2Tolerance) &&
        kilnSimplifySameType(x, v))
      return x;
  }
  return none;
}

/* a = 1 + erf(x / sqrt(2)) (either order), used once: returns x, else
 * null. */
static MlirValue matchOnePlusErf(MlirValue a) {
  MlirValue none = {NULL};
  MlirOperation add = kilnSimplifyDef(a, "add");
  if (mlirOperationIsNull(add) || !kilnSimplifyHasOneUse(a))
    return none;
  for (int i = 0; i < 2; ++i) {
    MlirValue e = mlirOperationGetOperand(add, i);
    MlirOperation erf = kilnSimplifyDef(e, "erf");
    if (mlirOperationIsNull(erf) ||
        !kilnSimplifyConstIs(mlirOperationGetOperand(add, 1 - i), 1.0) ||
        !kilnSimplifyHasOneUse(e) || !kilnSimplifySameType(e, a))
      continue;
    MlirValue x = matchScaledX(mlirOperationGetOperand(erf, 0));
    if (!mlirValueIsNull(x) && kilnSimplifySameType(x, a))
      return x;
  }
  return none;
}

/* A product p = u * v used once with u == want (or any u when want is
 * null) and v a constant 0.5, in either order: returns u, else null. */
static MlirValue matchHalfOf(MlirValue p) {
  MlirValue none = {NULL};
  MlirOperation m = kilnSimplifyDef(p, "mul");
  if (mlirOperationIsNull(m) || !kilnSimplifyHasOneUse(p))
    return none;
  for (int i = 0; i < 2; ++i)
    if (kilnSimplifyConstIs(mlirOperationGetOperand(m, 1 - i), 0.5))
      return mlirOperationGetOperand(m, i);
  return none;
}

/* Finds x such that the graph.mul `op` computes GELU(x); null if none. */
static MlirValue matchGelu(MlirOperation op) {
  MlirValue none = {NULL};
  for (int i = 0; i < 2; ++i) {
    MlirValue p = mlirOperationGetOperand(op, i);
    MlirValue q = mlirOperationGetOperand(op, 1 - i);
    /* (x * a) * 0.5 */
    MlirOperation m = kilnSimplifyDef(p, "mul");
    if (kilnSimplifyConstIs(q, 0.5) && !mlirOperationIsNull(m) &&
        kilnSimplifyHasOneUse(p))
      for (int j = 0; j < 2; ++j) {
        MlirValue x = mlirOperationGetOperand(m, j);
        MlirValue a = matchOnePlusErf(mlirOperationGetOperand(m, 1 - j));
        if (mlirValueEqual(a, x) && kilnSimplifySameType(p, x))
          return x;
      }
    /* (x * 0.5) * a */
    MlirValue x = matchHalfOf(p);
    if (!mlirValueIsNull(x) && kilnSimplifySameType(p, x) &&
        mlirValueEqual(matchOnePlusErf(q), x))
      return x;
    /* x * (a * 0.5) */
    MlirValue a = matchHalfOf(q);
    if (!mlirValueIsNull(a) && kilnSimplifySameType(q, p) &&
        mlirValueEqual(matchOnePlusErf(a), p))
      return p;
  }
  return none;
}

static bool recomposeGelu(KilnSimplify *s, MlirOperation op) {
  MlirValue x = matchGelu(op);
  MlirValue r = mlirOperationGetResult(op, 0);
  if (mlirValueIsNull(x) || !kilnSimplifySameType(x, r) ||
      !isFloat(elementType(x)))
    return false;
  KilnGraphBuilder *b = kilnSimplifyBuilderAt(s, op);
  MlirValue g = kilnSimplifyExpectType(kilnGraphBuildGelu(b, x, NULL),
                                       mlirValueGetType(r));
  kilnGraphBuilderDestroy(b);
  return !mlirValueIsNull(g) && kilnSimplifyReplace(s, op, &g);
}

/* ---- LayerNorm ------------------------------------------------------------
 * d = x - ReduceMean(x); y = d / Sqrt(ReduceMean(Pow(d, 2)) + eps), then
 * optionally y * gamma and (y * gamma) + beta, over trailing axes
 * [axis, rank) with keepdims, as PyTorch exports LayerNorm below opset 17.
 */

typedef struct LayerNorm {
  MlirValue x;
  int64_t axis; /* in [0, rank) */
  double eps;
} LayerNorm;

/* The first normalized axis if `red` (a graph.reduce_mean of rank-`rank`
 * data, keepdims) reduces exactly the trailing axes [k, rank); else -1. */
static int64_t trailingAxes(MlirOperation red, int64_t rank) {
  MlirAttribute keep = mlirOperationGetAttributeByName(
      red, mlirStringRefCreateFromCString("keepdims"));
  if (!mlirAttributeIsNull(keep) &&
      (!mlirAttributeIsAInteger(keep) || mlirIntegerAttrGetValueInt(keep) != 1))
    return -1;
  MlirValue axesValue = kilnSimplifyOperand(red, 1);
  int64_t axes[16];
  intptr_t n = mlirValueIsNull(axesValue)
                   ? -1
                   : kilnSimplifyConstInts(axesValue, axes, 16);
  if (n < 1 || n > 16 || n > rank)
    return -1;
  bool seen[16] = {false};
  for (intptr_t i = 0; i < n; ++i) {
    int64_t a = axes[i] < 0 ? axes[i] + rank : axes[i];
    if (a < rank - n || a >= rank || seen[a])
      return -1;
    seen[a] = true;
  }
  return rank - n;
}

/* Matches the normalization core ending in graph.div `div`. */
static bool matchLayerNormCore(MlirOperation div, LayerNorm *ln) {
  MlirValue d = mlirOperationGetOperand(div, 0);
  MlirValue sd = mlirOperationGetOperand(div, 1);
  MlirOperation sub = kilnSimplifyDef(d, "sub");
  MlirOperation sqrt = kilnSimplifyDef(sd, "sqrt");
  if (mlirOperationIsNull(sub) || mlirOperationIsNull(sqrt) ||
      !kilnSimplifyHasOneUse(sd))
    return false;
  MlirValue x = mlirOperationGetOperand(sub, 0);
  MlirValue mean = mlirOperationGetOperand(sub, 1);
  MlirType xt = mlirValueGetType(x);
  /* f32 only: graph.layer_norm computes in f32 (stash_type 1), which for
   * f16 input would differ from the decomposed f16 arithmetic. */
  if (!kilnSimplifyIsStatic(xt) || !mlirTypeIsAF32(elementType(x)) ||
      mlirShapedTypeGetRank(xt) < 1 || mlirShapedTypeGetRank(xt) > 16 ||
      !kilnSimplifySameType(d, x) ||
      !kilnSimplifySameType(mlirOperationGetResult(div, 0), x))
    return false;
  int64_t rank = mlirShapedTypeGetRank(xt);
  MlirOperation red1 = kilnSimplifyDef(mean, "reduce_mean");
  if (mlirOperationIsNull(red1) || !kilnSimplifyHasOneUse(mean) ||
      !mlirValueEqual(mlirOperationGetOperand(red1, 0), x))
    return false;
  int64_t axis = trailingAxes(red1, rank);
  /* Variance + eps. */
  MlirValue ve = mlirOperationGetOperand(sqrt, 0);
  MlirOperation add = kilnSimplifyDef(ve, "add");
  if (axis < 0 || mlirOperationIsNull(add) || !kilnSimplifyHasOneUse(ve))
    return false;
  for (int i = 0; i < 2; ++i) {
    MlirValue var = mlirOperationGetOperand(add, i);
    double eps;
    MlirOperation red2 = kilnSimplifyDef(var, "reduce_mean");
    if (mlirOperationIsNull(red2) || !kilnSimplifyHasOneUse(var) ||
        !kilnSimplifyConstSplat(mlirOperationGetOperand(add, 1 - i), &eps) ||
        !(eps >= 0) || !kilnSimplifySameType(var, ve) ||
        trailingAxes(red2, rank) != axis)
      continue;
    /* (x - mean)^2 as Pow(d, 2) or d * d; d has no other use. */
    MlirValue sq = mlirOperationGetOperand(red2, 0);
    MlirOperation pow = kilnSimplifyDef(sq, "pow");
    MlirOperation mul = kilnSimplifyDef(sq, "mul");
    bool isPow = !mlirOperationIsNull(pow) &&
                 mlirValueEqual(mlirOperationGetOperand(pow, 0), d) &&
                 kilnSimplifyConstIs(mlirOperationGetOperand(pow, 1), 2.0) &&
                 kilnSimplifyNumUses(d) == 2;
    bool isMul = !mlirOperationIsNull(mul) &&
                 mlirValueEqual(mlirOperationGetOperand(mul, 0), d) &&
                 mlirValueEqual(mlirOperationGetOperand(mul, 1), d) &&
                 kilnSimplifyNumUses(d) == 3;
    if ((isPow || isMul) && kilnSimplifyHasOneUse(sq) &&
        kilnSimplifySameType(sq, x)) {
      *ln = (LayerNorm){x, axis, eps};
      return true;
    }
  }
  return false;
}

/* Whether `v` is a constant of x's element type shaped exactly like the
 * normalized dims [axis, rank) of x: a LayerNorm scale or bias. */
static bool fitsNormalized(MlirValue v, const LayerNorm *ln) {
  MlirType t = mlirValueGetType(v);
  MlirType xt = mlirValueGetType(ln->x);
  int64_t rank = mlirShapedTypeGetRank(xt);
  if (mlirAttributeIsNull(kilnSimplifyConstAttr(v)) ||
      !kilnSimplifyIsStatic(t) || mlirShapedTypeGetRank(t) != rank - ln->axis ||
      !mlirTypeEqual(mlirShapedTypeGetElementType(t), elementType(ln->x)))
    return false;
  for (int64_t i = ln->axis; i < rank; ++i)
    if (mlirShapedTypeGetDimSize(t, i - ln->axis) !=
        mlirShapedTypeGetDimSize(xt, i))
      return false;
  return true;
}

/* If graph.mul `mul` is core * gamma (either order) with the core used
 * once, fills *ln and *gamma. */
static bool matchScaled(MlirOperation mul, LayerNorm *ln, MlirValue *gamma) {
  for (int i = 0; i < 2; ++i) {
    MlirValue y = mlirOperationGetOperand(mul, i);
    MlirOperation div = kilnSimplifyDef(y, "div");
    MlirValue g = mlirOperationGetOperand(mul, 1 - i);
    if (!mlirOperationIsNull(div) && kilnSimplifyHasOneUse(y) &&
        matchLayerNormCore(div, ln) && fitsNormalized(g, ln) &&
        kilnSimplifySameType(mlirOperationGetResult(mul, 0), ln->x)) {
      *gamma = g;
      return true;
    }
  }
  return false;
}

/* Whether `v`'s only user is a graph.`name` whose other operand fits the
 * normalized dims: a longer pattern ends there, so match there instead. */
static bool extendsTo(MlirValue v, const char *name, const LayerNorm *ln) {
  MlirOperation user = soleUser(v);
  if (mlirOperationIsNull(user) || !kilnSimplifyIsOp(user, name))
    return false;
  for (int i = 0; i < 2; ++i)
    if (mlirValueEqual(mlirOperationGetOperand(user, i), v) &&
        fitsNormalized(mlirOperationGetOperand(user, 1 - i), ln))
      return true;
  return false;
}

/* Sets *deferred when `op` ends a LayerNorm core (or scaled core) that a
 * later op extends: that op will match, and `op` must stay as it is. */
static bool recomposeLayerNorm(KilnSimplify *s, MlirOperation op,
                               bool *deferred) {
  LayerNorm ln;
  MlirValue gamma = {NULL}, beta = {NULL};
  MlirValue r = mlirOperationGetResult(op, 0);
  if (kilnSimplifyIsOp(op, "div")) {
    if (!matchLayerNormCore(op, &ln))
      return false;
    *deferred = extendsTo(r, "mul", &ln);
    if (*deferred)
      return false;
  } else if (kilnSimplifyIsOp(op, "mul")) {
    if (!matchScaled(op, &ln, &gamma))
      return false;
    *deferred = extendsTo(r, "add", &ln);
    if (*deferred)
      return false;
  } else {
    bool found = false;
    for (int i = 0; i < 2 && !found; ++i) {
      MlirValue y = mlirOperationGetOperand(op, i);
      MlirOperation mul = kilnSimplifyDef(y, "mul");
      beta = mlirOperationGetOperand(op, 1 - i);
      found = !mlirOperationIsNull(mul) && kilnSimplifyHasOneUse(y) &&
              matchScaled(mul, &ln, &gamma) && fitsNormalized(beta, &ln) &&
              kilnSimplifySameType(r, ln.x);
    }
    if (!found)
      return false;
  }
  MlirType xt = mlirValueGetType(ln.x);
  int64_t rank = mlirShapedTypeGetRank(xt);
  KilnGraphBuilder *b = kilnSimplifyBuilderAt(s, op);
  MlirValue ones = {NULL};
  if (mlirValueIsNull(gamma)) {
    int64_t shape[16];
    for (int64_t i = ln.axis; i < rank; ++i)
      shape[i - ln.axis] = mlirShapedTypeGetDimSize(xt, i);
    MlirType t = mlirRankedTensorTypeGet(
        rank - ln.axis, shape, elementType(ln.x), mlirAttributeGetNull());
    gamma = ones =
        kilnGraphBuildConstant(b, mlirDenseElementsAttrFloatSplatGet(t, 1.0f));
  }
  MlirValue y = {NULL};
  if (!mlirValueIsNull(gamma))
    y = kilnSimplifyExpectType(
        kilnGraphBuildLayerNormalization(b, ln.x, gamma, beta, ln.axis - rank,
                                         (float)ln.eps, 1, NULL, NULL),
        mlirValueGetType(r));
  if (mlirValueIsNull(y) && !mlirValueIsNull(ones))
    mlirOperationDestroy(mlirOpResultGetOwner(ones));
  kilnGraphBuilderDestroy(b);
  return !mlirValueIsNull(y) && kilnSimplifyReplace(s, op, &y);
}

/* ---- Gemm -----------------------------------------------------------------
 * MatMul(x, W) + bias with x [M, K], a constant W [K, N] and a constant
 * 1-D bias [N]: graph.gemm at the add's location.
 */

static bool recomposeGemm(KilnSimplify *s, MlirOperation op) {
  MlirValue r = mlirOperationGetResult(op, 0);
  for (int i = 0; i < 2; ++i) {
    MlirValue mv = mlirOperationGetOperand(op, i);
    MlirValue bias = mlirOperationGetOperand(op, 1 - i);
    MlirOperation mm = kilnSimplifyDef(mv, "matmul");
    if (mlirOperationIsNull(mm) || !kilnSimplifyHasOneUse(mv) ||
        !kilnSimplifySameType(mv, r))
      continue;
    MlirValue x = mlirOperationGetOperand(mm, 0);
    MlirValue w = mlirOperationGetOperand(mm, 1);
    MlirType xt = mlirValueGetType(x), wt = mlirValueGetType(w);
    MlirType bt = mlirValueGetType(bias), rt = mlirValueGetType(r);
    if (!kilnSimplifyIsStatic(xt) || !kilnSimplifyIsStatic(wt) ||
        !kilnSimplifyIsStatic(bt) || !kilnSimplifyIsStatic(rt) ||
        mlirShapedTypeGetRank(xt) != 2 || mlirShapedTypeGetRank(wt) != 2 ||
        mlirShapedTypeGetRank(bt) != 1 ||
        mlirShapedTypeGetDimSize(bt, 0) != mlirShapedTypeGetDimSize(rt, 1) ||
        mlirAttributeIsNull(kilnSimplifyConstAttr(w)) ||
        mlirAttributeIsNull(kilnSimplifyConstAttr(bias)) ||
        !isFloat(elementType(x)) ||
        !mlirTypeEqual(elementType(x), elementType(w)) ||
        !mlirTypeEqual(elementType(x), elementType(bias)))
      continue;
    KilnGraphBuilder *b = kilnSimplifyBuilderAt(s, op);
    MlirValue g = kilnSimplifyExpectType(
        kilnGraphBuildGemm(b, x, w, bias, 1.0f, 1.0f, false, false), rt);
    kilnGraphBuilderDestroy(b);
    return !mlirValueIsNull(g) && kilnSimplifyReplace(s, op, &g);
  }
  return false;
}

bool kilnSimplifyRecompose(KilnSimplify *s, MlirOperation op, bool *deferred) {
  *deferred = false;
  if (kilnSimplifyIsOp(op, "mul") && recomposeGelu(s, op))
    return true;
  if (kilnSimplifyIsOp(op, "add") && recomposeGemm(s, op))
    return true;
  return recomposeLayerNorm(s, op, deferred);
}

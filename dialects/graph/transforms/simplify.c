/* graph-simplify: algebraic identities, no-ops and compositions of graph
 * ops, and recomposition of decomposed GELU, LayerNorm and Gemm
 * (simplify_recompose.c). See docs/graph-simplify.md for the rules.
 *
 * MLIR's C API has no pattern rewriter for IRDL ops, so the pass is its own
 * small driver: forward sweeps over every block (nested regions included)
 * try the rules on each region-free graph op; after a sweep, the ops the
 * rewrites left without uses are erased; sweeps repeat until one changes
 * nothing (bounded by kMaxSweeps). Operands are simplified before their
 * users in a sweep, so chains usually settle in one or two sweeps.
 *
 * Matching is exact and conservative: result types must equal what they
 * replace (a broadcast that changes the shape is never a no-op), constants
 * must hold the exact values, and values used outside a pattern keep the
 * pattern's ops alive, so no rule duplicates work. */
#include "dialects/graph/transforms/simplify.h"
#include "support/ir_build.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/const_eval.h"
#include "dialects/graph/transforms/dce.h"
#include "dialects/graph/verify.h"
#include "kiln/graph_elementwise.h"
#include "kiln/graph_tensor.h"
#include "kiln/passes.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

enum { kMaxSweeps = 32 };

/* ---- Helpers (simplify.h) ------------------------------------------------
 */

static MlirStringRef opName(MlirOperation op) {
  return mlirIdentifierStr(mlirOperationGetName(op));
}

bool kilnSimplifyIsOp(MlirOperation op, const char *name) {
  MlirStringRef n = opName(op);
  size_t len = strlen(name);
  return n.length == 6 + len && memcmp(n.data, "graph.", 6) == 0 &&
         memcmp(n.data + 6, name, len) == 0;
}

MlirOperation kilnSimplifyDef(MlirValue v, const char *name) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v))
    return (MlirOperation){NULL};
  MlirOperation def = mlirOpResultGetOwner(v);
  return kilnSimplifyIsOp(def, name) ? def : (MlirOperation){NULL};
}

bool kilnSimplifyHasOneUse(MlirValue v) {
  MlirOpOperand u = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(u) &&
         mlirOpOperandIsNull(mlirOpOperandGetNextUse(u));
}

intptr_t kilnSimplifyNumUses(MlirValue v) {
  intptr_t n = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    ++n;
  return n;
}

bool kilnSimplifySameType(MlirValue a, MlirValue b) {
  return mlirTypeEqual(mlirValueGetType(a), mlirValueGetType(b));
}

bool kilnSimplifyIsStatic(MlirType t) { return kilnTypeIsStaticTensor(t); }

MlirAttribute kilnSimplifyConstAttr(MlirValue v) {
  MlirOperation def = kilnSimplifyDef(v, "constant");
  if (mlirOperationIsNull(def))
    return mlirAttributeGetNull();
  return mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
}

/* A scalar element attribute (FloatAttr or IntegerAttr) as a double. */
static bool scalarValue(MlirAttribute e, double *out) {
  if (mlirAttributeIsAFloat(e)) {
    *out = mlirFloatAttrGetValueDouble(e);
    return true;
  }
  if (mlirAttributeIsAInteger(e)) {
    MlirType t = mlirAttributeGetType(e);
    if (mlirIntegerTypeGetWidth(t) == 1)
      return false;
    *out = mlirIntegerTypeIsUnsigned(t) ? (double)mlirIntegerAttrGetValueUInt(e)
                                        : (double)mlirIntegerAttrGetValueInt(e);
    return true;
  }
  return false;
}

/* Element `i` of a non-splat dense attribute of a type the C API reads. */
static bool denseElement(MlirAttribute a, MlirType e, intptr_t i, double *out) {
  if (mlirTypeIsAF32(e))
    *out = mlirDenseElementsAttrGetFloatValue(a, i);
  else if (mlirTypeIsAF64(e))
    *out = mlirDenseElementsAttrGetDoubleValue(a, i);
  else if (mlirTypeIsAInteger(e) && !mlirIntegerTypeIsUnsigned(e) &&
           mlirIntegerTypeGetWidth(e) == 32)
    *out = mlirDenseElementsAttrGetInt32Value(a, i);
  else if (mlirTypeIsAInteger(e) && !mlirIntegerTypeIsUnsigned(e) &&
           mlirIntegerTypeGetWidth(e) == 64)
    *out = (double)mlirDenseElementsAttrGetInt64Value(a, i);
  else
    return false;
  return true;
}

bool kilnSimplifyConstSplat(MlirValue v, double *out) {
  MlirAttribute a = kilnSimplifyConstAttr(v);
  if (mlirAttributeIsNull(a))
    return false;
  MlirType e = mlirShapedTypeGetElementType(mlirAttributeGetType(a));
  intptr_t n = mlirElementsAttrGetNumElements(a);
  if (n < 1)
    return false;
  double first, x;
  if (mlirAttributeIsADenseElements(a)) {
    if (mlirDenseElementsAttrIsSplat(a))
      return scalarValue(mlirDenseElementsAttrGetSplatValue(a), out);
    if (!denseElement(a, e, 0, &first))
      return false;
    for (intptr_t i = 1; i < n; ++i)
      if (!denseElement(a, e, i, &x) || x != first)
        return false;
  } else if (mlirAttributeIsADenseResourceElements(a) && mlirTypeIsAF32(e)) {
    first = mlirDenseFloatResourceElementsAttrGetValue(a, 0);
    for (intptr_t i = 1; i < n; ++i)
      if (mlirDenseFloatResourceElementsAttrGetValue(a, i) != first)
        return false;
  } else {
    return false;
  }
  *out = first;
  return true;
}

bool kilnSimplifyConstIs(MlirValue v, double want) {
  double x;
  return kilnSimplifyConstSplat(v, &x) && x == want;
}

bool kilnSimplifyNear(double got, double want, double tol) {
  return fabs(got - want) <= tol * fabs(want);
}

intptr_t kilnSimplifyConstInts(MlirValue v, int64_t *out, intptr_t cap) {
  return kilnGraphEvalConstantInts(v, out, cap);
}

MlirValue kilnSimplifyOperand(MlirOperation op, intptr_t i) {
  const KilnGraphOpInfo *info = kilnGraphOpLookup(opName(op));
  if (!info)
    return (MlirValue){NULL};
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue stack[16];
  MlirValue *all = stack;
  size_t cap = (size_t)(info->numOperands + n);
  if (cap > sizeof(stack) / sizeof(stack[0])) {
    all = malloc(cap * sizeof(*all));
    if (!all)
      abort();
  }
  intptr_t count = kilnGraphPositionalOperands(op, info, all);
  MlirValue v = i < count ? all[i] : (MlirValue){NULL};
  if (all != stack)
    free(all);
  return v;
}

KilnGraphBuilder *kilnSimplifyBuilderAt(KilnSimplify *s, MlirOperation root) {
  KilnGraphBuilder *b = kilnGraphBuilderCreate(
      s->ctx, mlirOperationGetBlock(root), mlirOperationGetLocation(root));
  kilnGraphBuilderSetInsertionPointBefore(b, root);
  return b;
}

MlirValue kilnSimplifyExpectType(MlirValue built, MlirType want) {
  if (mlirValueIsNull(built))
    return built;
  if (mlirTypeEqual(mlirValueGetType(built), want))
    return built;
  mlirOperationDestroy(mlirOpResultGetOwner(built));
  return (MlirValue){NULL};
}

bool kilnSimplifyReplace(KilnSimplify *s, MlirOperation root,
                         const MlirValue *values) {
  intptr_t n = mlirOperationGetNumResults(root);
  for (intptr_t i = 0; i < n; ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(root, i), values[i]);
  kilnGraphDCEPushOperandDefs(&s->dead, root);
  mlirOperationDestroy(root);
  return true;
}

/* Replaces the single-result `root` by `v` if `v` is non-null. */
static bool replaceWith(KilnSimplify *s, MlirOperation root, MlirValue v) {
  return !mlirValueIsNull(v) && kilnSimplifyReplace(s, root, &v);
}

/* ---- No-ops ---------------------------------------------------------------
 */

/* graph.identity; reshape-like ops and expand to their input's type. */
static bool ruleSameType(KilnSimplify *s, MlirOperation op) {
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirValue r = mlirOperationGetResult(op, 0);
  bool isIdentity = kilnSimplifyIsOp(op, "identity");
  if (!kilnSimplifySameType(x, r) ||
      (!isIdentity && !kilnSimplifyIsStatic(mlirValueGetType(r))))
    return false;
  return replaceWith(s, op, x);
}

/* graph.dropout in inference form: training_mode absent or a constant
 * false, or a ratio of constant 0 (nothing dropped whatever the mode). The
 * mask, when used, becomes a constant true. */
static bool ruleDropout(KilnSimplify *s, MlirOperation op) {
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirValue mode = kilnSimplifyOperand(op, 2);
  MlirValue ratio = kilnSimplifyOperand(op, 1);
  int64_t m = 1;
  bool inference = mlirValueIsNull(mode) ||
                   (kilnSimplifyConstInts(mode, &m, 1) == 1 && m == 0);
  if (!inference &&
      (mlirValueIsNull(ratio) || !kilnSimplifyConstIs(ratio, 0.0)))
    return false;
  MlirValue out[2] = {x, {NULL}};
  if (!kilnSimplifySameType(x, mlirOperationGetResult(op, 0)))
    return false;
  if (mlirOperationGetNumResults(op) == 2) {
    MlirValue mask = mlirOperationGetResult(op, 1);
    out[1] = mask;
    if (!mlirOpOperandIsNull(mlirValueGetFirstUse(mask))) {
      MlirType t = mlirValueGetType(mask);
      if (!kilnSimplifyIsStatic(t))
        return false;
      KilnGraphBuilder *b = kilnSimplifyBuilderAt(s, op);
      out[1] =
          kilnGraphBuildConstant(b, mlirDenseElementsAttrBoolSplatGet(t, true));
      kilnGraphBuilderDestroy(b);
      if (mlirValueIsNull(out[1]))
        return false;
    }
  }
  return kilnSimplifyReplace(s, op, out);
}

/* graph.concat with a statically empty operand. */
static bool ruleConcat(KilnSimplify *s, MlirOperation op) {
  MlirAttribute axisAttr = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("axis"));
  MlirValue r = mlirOperationGetResult(op, 0);
  if (mlirAttributeIsNull(axisAttr) || !mlirAttributeIsAInteger(axisAttr) ||
      !kilnSimplifyIsStatic(mlirValueGetType(r)))
    return false;
  int64_t rank = mlirShapedTypeGetRank(mlirValueGetType(r));
  int64_t axis = mlirIntegerAttrGetValueInt(axisAttr);
  axis = axis < 0 ? axis + rank : axis;
  if (axis < 0 || axis >= rank)
    return false;
  for (int i = 0; i < 2; ++i) {
    MlirType empty = mlirValueGetType(mlirOperationGetOperand(op, i));
    MlirValue other = mlirOperationGetOperand(op, 1 - i);
    if (kilnSimplifyIsStatic(empty) &&
        mlirShapedTypeGetDimSize(empty, axis) == 0 &&
        kilnSimplifySameType(other, r))
      return replaceWith(s, op, other);
  }
  return false;
}

/* graph.slice with unit steps whose result has its input's static type:
 * with step 1 the only full-length range is the whole axis. */
static bool ruleSlice(KilnSimplify *s, MlirOperation op) {
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirValue r = mlirOperationGetResult(op, 0);
  if (!kilnSimplifySameType(x, r) || !kilnSimplifyIsStatic(mlirValueGetType(r)))
    return false;
  MlirValue steps = kilnSimplifyOperand(op, 4);
  if (!mlirValueIsNull(steps)) {
    int64_t st[64];
    intptr_t n = kilnSimplifyConstInts(steps, st, 64);
    if (n < 0 || n > 64)
      return false;
    for (intptr_t i = 0; i < n; ++i)
      if (st[i] != 1)
        return false;
  }
  return replaceWith(s, op, x);
}

/* x op c -> x when the constant c is `op`'s neutral element and the result
 * has x's type (a broadcast to a bigger shape is not a no-op). c on the
 * right only, or on either side when `op` is commutative. */
static bool ruleNeutral(KilnSimplify *s, MlirOperation op, double neutral,
                        bool commutative) {
  MlirValue r = mlirOperationGetResult(op, 0);
  for (int i = 0; i < (commutative ? 2 : 1); ++i) {
    MlirValue x = mlirOperationGetOperand(op, i);
    MlirValue c = mlirOperationGetOperand(op, 1 - i);
    if (kilnSimplifySameType(x, r) && kilnSimplifyConstIs(c, neutral))
      return replaceWith(s, op, x);
  }
  return false;
}

/* ---- Compositions ---------------------------------------------------------
 */

intptr_t kilnSimplifyReadPerm(MlirOperation t, int64_t *p) {
  MlirType in = mlirValueGetType(mlirOperationGetOperand(t, 0));
  if (!mlirTypeIsARankedTensor(in))
    return -1;
  intptr_t rank = mlirShapedTypeGetRank(in);
  if (rank > 16)
    return -1;
  MlirAttribute a = mlirOperationGetAttributeByName(
      t, mlirStringRefCreateFromCString("perm"));
  if (mlirAttributeIsNull(a)) {
    for (intptr_t i = 0; i < rank; ++i)
      p[i] = rank - 1 - i;
    return rank;
  }
  if (!mlirAttributeIsADenseI64Array(a) ||
      mlirDenseArrayGetNumElements(a) != rank)
    return -1;
  for (intptr_t i = 0; i < rank; ++i) {
    p[i] = mlirDenseI64ArrayGetElement(a, i);
    if (p[i] < 0 || p[i] >= rank)
      return -1;
  }
  return rank;
}

/* transpose(x) with an identity perm -> x; transpose(transpose(x)) -> one
 * transpose of x (or x itself). */
static bool ruleTranspose(KilnSimplify *s, MlirOperation op) {
  int64_t p[16], q[16], c[16];
  intptr_t rank = kilnSimplifyReadPerm(op, p);
  if (rank < 0)
    return false;
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirOperation inner = kilnSimplifyDef(x, "transpose");
  if (!mlirOperationIsNull(inner) && kilnSimplifyReadPerm(inner, q) == rank) {
    /* out[i] = t[p[i]] = x[q[p[i]]] */
    for (intptr_t i = 0; i < rank; ++i)
      c[i] = q[p[i]];
    x = mlirOperationGetOperand(inner, 0);
  } else {
    memcpy(c, p, (size_t)rank * sizeof(*c));
    inner = (MlirOperation){NULL};
  }
  bool isIdentity = true;
  for (intptr_t i = 0; i < rank; ++i)
    isIdentity = isIdentity && c[i] == i;
  if (isIdentity)
    return kilnSimplifySameType(x, r) && replaceWith(s, op, x);
  if (mlirOperationIsNull(inner))
    return false;
  KilnGraphBuilder *b = kilnSimplifyBuilderAt(s, op);
  MlirValue t = kilnSimplifyExpectType(kilnGraphBuildTranspose(b, x, c, rank),
                                       mlirValueGetType(r));
  kilnGraphBuilderDestroy(b);
  return replaceWith(s, op, t);
}

static bool isReshapeLike(MlirOperation op) {
  return kilnSimplifyIsOp(op, "reshape") || kilnSimplifyIsOp(op, "flatten") ||
         kilnSimplifyIsOp(op, "squeeze") || kilnSimplifyIsOp(op, "unsqueeze");
}

/* A reshape-like op of a reshape-like op -> one reshape of the first input
 * to the final static shape (the input itself when the types agree); a
 * reshape-like op to its input's type -> the input. */
static bool ruleReshapeLike(KilnSimplify *s, MlirOperation op) {
  if (ruleSameType(s, op))
    return true;
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirValueIsAOpResult(x) || !isReshapeLike(mlirOpResultGetOwner(x)) ||
      !kilnSimplifyIsStatic(rt))
    return false;
  MlirValue x0 = mlirOperationGetOperand(mlirOpResultGetOwner(x), 0);
  if (mlirTypeEqual(mlirValueGetType(x0), rt))
    return replaceWith(s, op, x0);
  intptr_t rank = mlirShapedTypeGetRank(rt);
  int64_t shape[16];
  if (rank > 16 || !kilnSimplifyIsStatic(mlirValueGetType(x0)))
    return false;
  for (intptr_t i = 0; i < rank; ++i) {
    shape[i] = mlirShapedTypeGetDimSize(rt, i);
    if (shape[i] == 0) /* 0 would mean "copy the input dim" */
      return false;
  }
  KilnGraphBuilder *b = kilnSimplifyBuilderAt(s, op);
  MlirValue c = kilnGraphBuildConstantInts(b, shape, rank);
  MlirValue v = mlirValueIsNull(c) ? c : kilnGraphBuildReshape(b, x0, c, false);
  v = kilnSimplifyExpectType(v, rt);
  if (mlirValueIsNull(v) && !mlirValueIsNull(c))
    mlirOperationDestroy(mlirOpResultGetOwner(c));
  kilnGraphBuilderDestroy(b);
  return replaceWith(s, op, v);
}

/* Bits of a type's values, for exactness: ints by signedness and width,
 * floats by significand bits and exponent width. float8 types are not
 * handled (kind 0). */
typedef struct NumKind {
  int kind; /* 0 unknown, 1 bool, 2 signed, 3 unsigned, 4 float */
  int bits; /* int width; float significand bits (implicit bit included) */
  int exp;  /* float exponent bits */
} NumKind;

static NumKind numKind(MlirType t) {
  if (mlirTypeIsAInteger(t)) {
    int w = (int)mlirIntegerTypeGetWidth(t);
    if (w == 1)
      return (NumKind){1, 1, 0};
    return (NumKind){mlirIntegerTypeIsUnsigned(t) ? 3 : 2, w, 0};
  }
  if (mlirTypeIsAF16(t))
    return (NumKind){4, 11, 5};
  if (mlirTypeIsABF16(t))
    return (NumKind){4, 8, 8};
  if (mlirTypeIsAF32(t))
    return (NumKind){4, 24, 8};
  if (mlirTypeIsAF64(t))
    return (NumKind){4, 53, 11};
  return (NumKind){0, 0, 0};
}

/* Whether every value of `from` is exactly a value of `to`. */
static bool castIsExact(MlirType from, MlirType to) {
  NumKind f = numKind(from), t = numKind(to);
  if (f.kind == 0 || t.kind == 0)
    return false;
  if (f.kind == 1)
    return true; /* 0 and 1 are exact everywhere */
  if (t.kind == 4) {
    if (f.kind == 4)
      return t.bits >= f.bits && t.exp >= f.exp;
    int magnitude = f.kind == 2 ? f.bits - 1 : f.bits;
    return magnitude <= t.bits;
  }
  if (f.kind == 2)
    return t.kind == 2 && t.bits >= f.bits;
  if (f.kind == 3)
    return (t.kind == 3 && t.bits >= f.bits) ||
           (t.kind == 2 && t.bits > f.bits);
  return false;
}

/* cast(x) to x's type -> x; cast(cast(x)) with an exact inner cast -> one
 * cast of x (or x). The outer cast must carry only `to`. */
static bool ruleCast(KilnSimplify *s, MlirOperation op) {
  MlirValue x = mlirOperationGetOperand(op, 0);
  MlirValue r = mlirOperationGetResult(op, 0);
  if (kilnSimplifySameType(x, r))
    return replaceWith(s, op, x);
  MlirOperation inner = kilnSimplifyDef(x, "cast");
  if (mlirOperationIsNull(inner) ||
      mlirOperationGetNumDiscardableAttributes(op) != 1)
    return false;
  MlirValue x0 = mlirOperationGetOperand(inner, 0);
  MlirType t0 = mlirShapedTypeGetElementType(mlirValueGetType(x0));
  MlirType t1 = mlirShapedTypeGetElementType(mlirValueGetType(x));
  if (!castIsExact(t0, t1))
    return false;
  if (kilnSimplifySameType(x0, r))
    return replaceWith(s, op, x0);
  KilnGraphBuilder *b = kilnSimplifyBuilderAt(s, op);
  MlirValue v = kilnSimplifyExpectType(
      kilnGraphBuildCast(
          b, x0, mlirShapedTypeGetElementType(mlirValueGetType(r)), NULL),
      mlirValueGetType(r));
  kilnGraphBuilderDestroy(b);
  return replaceWith(s, op, v);
}

/* neg(neg(x)) -> x. */
static bool ruleNeg(KilnSimplify *s, MlirOperation op) {
  MlirOperation inner = kilnSimplifyDef(mlirOperationGetOperand(op, 0), "neg");
  if (mlirOperationIsNull(inner))
    return false;
  MlirValue x = mlirOperationGetOperand(inner, 0);
  return kilnSimplifySameType(x, mlirOperationGetResult(op, 0)) &&
         replaceWith(s, op, x);
}

/* A scalar-like float constant: f32 or f64, every dim 1 (or rank 0). */
static bool isScalarFloatConst(MlirValue v, double *out) {
  MlirType t = mlirValueGetType(v);
  MlirAttribute a = kilnSimplifyConstAttr(v);
  if (mlirAttributeIsNull(a) || !kilnSimplifyIsStatic(t) ||
      mlirElementsAttrGetNumElements(a) != 1)
    return false;
  MlirType e = mlirShapedTypeGetElementType(t);
  return (mlirTypeIsAF32(e) || mlirTypeIsAF64(e)) &&
         kilnSimplifyConstSplat(v, out);
}

/* (x op a) op b -> x op (a op b) for op = mul or add and scalar-like
 * constants a and b of one type; the inner op has no other use. */
static bool ruleReassociate(KilnSimplify *s, MlirOperation op,
                            const char *name) {
  bool mul = !strcmp(name, "mul");
  MlirValue r = mlirOperationGetResult(op, 0);
  for (int i = 0; i < 2; ++i) {
    MlirValue in = mlirOperationGetOperand(op, i);
    MlirValue bv = mlirOperationGetOperand(op, 1 - i);
    MlirOperation inner = kilnSimplifyDef(in, name);
    double a, bx;
    if (mlirOperationIsNull(inner) || !kilnSimplifyHasOneUse(in) ||
        !isScalarFloatConst(bv, &bx))
      continue;
    for (int j = 0; j < 2; ++j) {
      MlirValue x = mlirOperationGetOperand(inner, j);
      MlirValue av = mlirOperationGetOperand(inner, 1 - j);
      if (!isScalarFloatConst(av, &a) ||
          !mlirAttributeIsNull(kilnSimplifyConstAttr(x)) ||
          !kilnSimplifySameType(av, bv))
        continue;
      MlirType t = mlirValueGetType(av);
      MlirType e = mlirShapedTypeGetElementType(t);
      double c = mul ? a * bx : a + bx;
      if (mlirTypeIsAF32(e))
        c = (float)c; /* the f64 result of two floats, rounded once */
      KilnGraphBuilder *b = kilnSimplifyBuilderAt(s, op);
      MlirValue cv = kilnGraphBuildConstant(
          b, mlirDenseElementsAttrSplatGet(
                 t, mlirFloatAttrDoubleGet(s->ctx, e, c)));
      MlirValue v = mlirValueIsNull(cv) ? cv
                    : mul               ? kilnGraphBuildMul(b, x, cv)
                                        : kilnGraphBuildAdd(b, x, cv);
      v = kilnSimplifyExpectType(v, mlirValueGetType(r));
      if (mlirValueIsNull(v) && !mlirValueIsNull(cv))
        mlirOperationDestroy(mlirOpResultGetOwner(cv));
      kilnGraphBuilderDestroy(b);
      return replaceWith(s, op, v);
    }
  }
  return false;
}

/* ---- The driver -----------------------------------------------------------
 */

static bool simplifyOp(KilnSimplify *s, MlirOperation op) {
  MlirStringRef full = opName(op);
  if (full.length <= 6 || memcmp(full.data, "graph.", 6) != 0 ||
      mlirOperationGetNumRegions(op) != 0 ||
      mlirOperationGetNumResults(op) == 0)
    return false;
  if (kilnSimplifyIsOp(op, "identity") || kilnSimplifyIsOp(op, "expand"))
    return ruleSameType(s, op);
  if (isReshapeLike(op))
    return ruleReshapeLike(s, op);
  if (kilnSimplifyIsOp(op, "dropout"))
    return ruleDropout(s, op);
  if (kilnSimplifyIsOp(op, "cast"))
    return ruleCast(s, op);
  if (kilnSimplifyIsOp(op, "transpose"))
    return ruleTranspose(s, op);
  if (kilnSimplifyIsOp(op, "neg"))
    return ruleNeg(s, op);
  if (kilnSimplifyIsOp(op, "concat"))
    return ruleConcat(s, op);
  if (kilnSimplifyIsOp(op, "slice"))
    return ruleSlice(s, op);
  bool mul = kilnSimplifyIsOp(op, "mul"), add = kilnSimplifyIsOp(op, "add");
  /* Recomposition first: a LayerNorm's gamma of ones and beta of zeros are
   * part of the pattern, not no-ops to strip. */
  bool deferred = false;
  if ((mul || add || kilnSimplifyIsOp(op, "div")) && s->recompose &&
      kilnSimplifyRecompose(s, op, &deferred))
    return true;
  if (deferred)
    return false;
  if (mul)
    return ruleNeutral(s, op, 1.0, true) ||
           (s->reassociate && ruleReassociate(s, op, "mul"));
  if (add)
    return ruleNeutral(s, op, 0.0, true) ||
           (s->reassociate && ruleReassociate(s, op, "add"));
  if (kilnSimplifyIsOp(op, "sub"))
    return ruleNeutral(s, op, 0.0, false);
  if (kilnSimplifyIsOp(op, "div") || kilnSimplifyIsOp(op, "pow"))
    return ruleNeutral(s, op, 1.0, false);
  return false;
}

static bool sweepRegions(KilnSimplify *s, MlirOperation op);

static bool sweepBlock(KilnSimplify *s, MlirBlock block) {
  bool changed = false;
  MlirOperation op = mlirBlockGetFirstOperation(block);
  while (!mlirOperationIsNull(op)) {
    /* Step first: a rewrite destroys `op` (and only `op`). */
    MlirOperation next = mlirOperationGetNextInBlock(op);
    changed |= sweepRegions(s, op);
    changed |= simplifyOp(s, op);
    op = next;
  }
  return changed;
}

static bool sweepRegions(KilnSimplify *s, MlirOperation op) {
  bool changed = false;
  intptr_t n = mlirOperationGetNumRegions(op);
  for (intptr_t r = 0; r < n; ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      changed |= sweepBlock(s, b);
  return changed;
}

enum { OPT_RECOMPOSE, OPT_REASSOCIATE };

static const KilnPassOptionSpec kSimplifyOptions[] = {
    {"recompose", KILN_PASS_OPTION_BOOL, "true",
     "Recompose decomposed GELU, LayerNorm and MatMul+Add into graph.gelu, "
     "graph.layer_norm and graph.gemm"},
    {"reassociate", KILN_PASS_OPTION_BOOL, "true",
     "Fold (x*a)*b and (x+a)+b with scalar float constants into one op "
     "(may change results by one rounding)"},
};

static void runSimplify(MlirOperation op, MlirExternalPass pass,
                        const KilnPassOptionValue *options) {
  (void)pass;
  KilnSimplify s = {.ctx = mlirOperationGetContext(op),
                    .recompose = options[OPT_RECOMPOSE].b,
                    .reassociate = options[OPT_REASSOCIATE].b};
  for (int i = 0; i < kMaxSweeps; ++i) {
    bool changed = sweepRegions(&s, op);
    /* Ops that were dead before the pass and never lost a use to it are
     * left alone. */
    kilnGraphDCEEraseUnused(&s.dead);
    if (!changed)
      break;
  }
  kilnOpListDestroy(&s.dead);
}

const KilnPassInfo kilnGraphSimplifyPass = {
    .argument = "graph-simplify",
    .summary = "Remove no-op graph ops, compose chains, recompose GELU, "
               "LayerNorm and Gemm",
    .anchor = "func.func",
    .options = kSimplifyOptions,
    .numOptions = sizeof(kSimplifyOptions) / sizeof(kSimplifyOptions[0]),
    .run = runSimplify,
    .pipeline = NULL,
};

/* IR-building helpers for the graph-to-linalg lowerings (see lower.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower.h"
#include "mlir-c/Dialect/Linalg.h"
#include "support/ir_build.h"

MlirOperation kilnBuildInsert(KilnBuilder *b, MlirOperationState *state) {
  MlirOperation op = mlirOperationCreate(state);
  if (mlirOperationIsNull(b->before))
    mlirBlockAppendOwnedOperation(b->block, op);
  else
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, op);
  return op;
}

MlirOperation kilnBuildOp(KilnBuilder *b, const char *name, intptr_t nResults,
                          const MlirType *resultTypes, intptr_t nOperands,
                          const MlirValue *operands, intptr_t nAttrs,
                          const MlirNamedAttribute *attrs) {
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), b->loc);
  if (nResults)
    mlirOperationStateAddResults(&st, nResults, resultTypes);
  if (nOperands)
    mlirOperationStateAddOperands(&st, nOperands, operands);
  if (nAttrs)
    mlirOperationStateAddAttributes(&st, nAttrs, attrs);
  return kilnBuildInsert(b, &st);
}

MlirValue kilnBuildOp1(KilnBuilder *b, const char *name, MlirType resultType,
                       intptr_t nOperands, const MlirValue *operands,
                       intptr_t nAttrs, const MlirNamedAttribute *attrs) {
  return mlirOperationGetResult(
      kilnBuildOp(b, name, 1, &resultType, nOperands, operands, nAttrs, attrs),
      0);
}

MlirNamedAttribute kilnNamedAttr(MlirContext ctx, const char *name,
                                 MlirAttribute attr) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), attr);
}

/* ---- Scalars ---------------------------------------------------------- */

static MlirValue constant(KilnBuilder *b, MlirType type, MlirAttribute value) {
  MlirNamedAttribute attr = kilnNamedAttr(b->ctx, "value", value);
  return kilnBuildOp1(b, "arith.constant", type, 0, NULL, 1, &attr);
}

MlirValue kilnConstFloat(KilnBuilder *b, MlirType type, double value) {
  if (!kilnTypeIsFloat(type))
    return kilnConstInt(b, type, (int64_t)value);
  return constant(b, type, mlirFloatAttrDoubleGet(b->ctx, type, value));
}

MlirValue kilnConstInt(KilnBuilder *b, MlirType type, int64_t value) {
  if (kilnTypeIsFloat(type))
    return kilnConstFloat(b, type, (double)value);
  if (mlirTypeIsAInteger(type) && mlirIntegerTypeGetWidth(type) == 1)
    value = value != 0;
  return constant(b, type, mlirIntegerAttrGet(type, value));
}

MlirValue kilnConstIndex(KilnBuilder *b, int64_t value) {
  return kilnConstInt(b, mlirIndexTypeGet(b->ctx), value);
}

static void intLimits(MlirType type, int64_t *lo, int64_t *hi) {
  unsigned w = mlirIntegerTypeGetWidth(type);
  if (w == 1) {
    *lo = 0;
    *hi = 1;
  } else if (w >= 64) {
    *lo = INT64_MIN;
    *hi = INT64_MAX;
  } else {
    *hi = (int64_t)((UINT64_C(1) << (w - 1)) - 1);
    *lo = -*hi - 1;
  }
}

MlirValue kilnConstLowest(KilnBuilder *b, MlirType type) {
  if (kilnTypeIsFloat(type))
    return kilnConstFloat(b, type, -INFINITY);
  int64_t lo, hi;
  intLimits(type, &lo, &hi);
  return kilnConstInt(b, type, lo);
}

MlirValue kilnConstHighest(KilnBuilder *b, MlirType type) {
  if (kilnTypeIsFloat(type))
    return kilnConstFloat(b, type, INFINITY);
  int64_t lo, hi;
  intLimits(type, &lo, &hi);
  return kilnConstInt(b, type, hi);
}

MlirValue kilnArith2(KilnBuilder *b, const char *name, MlirValue lhs,
                     MlirValue rhs) {
  MlirValue ops[2] = {lhs, rhs};
  return kilnBuildOp1(b, name, mlirValueGetType(lhs), 2, ops, 0, NULL);
}

MlirValue kilnAddF(KilnBuilder *b, MlirValue x, MlirValue y) {
  return kilnArith2(b, "arith.addf", x, y);
}

MlirValue kilnSubF(KilnBuilder *b, MlirValue x, MlirValue y) {
  return kilnArith2(b, "arith.subf", x, y);
}

MlirValue kilnMulF(KilnBuilder *b, MlirValue x, MlirValue y) {
  return kilnArith2(b, "arith.mulf", x, y);
}

MlirValue kilnDivF(KilnBuilder *b, MlirValue x, MlirValue y) {
  return kilnArith2(b, "arith.divf", x, y);
}

MlirValue kilnArith1(KilnBuilder *b, const char *name, MlirValue x) {
  return kilnBuildOp1(b, name, mlirValueGetType(x), 1, &x, 0, NULL);
}

static const char *const kCmpF[] = {"false", "oeq", "ogt", "oge", "olt", "ole",
                                    "one",   "ord", "ueq", "ugt", "uge", "ult",
                                    "ule",   "une", "uno", "true"};
static const char *const kCmpI[] = {"eq",  "ne",  "slt", "sle", "sgt",
                                    "sge", "ult", "ule", "ugt", "uge"};

static MlirValue compare(KilnBuilder *b, const char *name,
                         const char *const *preds, int nPreds, const char *pred,
                         MlirValue lhs, MlirValue rhs) {
  int p = 0;
  while (p < nPreds && strcmp(preds[p], pred))
    ++p;
  if (p == nPreds)
    abort(); /* a typo in a lowering, not user input */
  MlirNamedAttribute attr =
      kilnNamedAttr(b->ctx, "predicate",
                    mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), p));
  MlirValue ops[2] = {lhs, rhs};
  return kilnBuildOp1(b, name, mlirIntegerTypeGet(b->ctx, 1), 2, ops, 1, &attr);
}

MlirValue kilnCmpF(KilnBuilder *b, const char *predicate, MlirValue lhs,
                   MlirValue rhs) {
  return compare(b, "arith.cmpf", kCmpF, 16, predicate, lhs, rhs);
}

MlirValue kilnCmpI(KilnBuilder *b, const char *predicate, MlirValue lhs,
                   MlirValue rhs) {
  return compare(b, "arith.cmpi", kCmpI, 10, predicate, lhs, rhs);
}

MlirValue kilnSelect(KilnBuilder *b, MlirValue cond, MlirValue t, MlirValue f) {
  MlirValue ops[3] = {cond, t, f};
  return kilnBuildOp1(b, "arith.select", mlirValueGetType(t), 3, ops, 0, NULL);
}

static unsigned floatWidth(MlirType t) { return mlirFloatTypeGetWidth(t); }

static MlirValue convertFloatToFloat(KilnBuilder *b, MlirValue x, MlirType to) {
  MlirType from = mlirValueGetType(x);
  unsigned fw = floatWidth(from), tw = floatWidth(to);
  if (fw < tw)
    return kilnBuildOp1(b, "arith.extf", to, 1, &x, 0, NULL);
  if (fw > tw)
    return kilnBuildOp1(b, "arith.truncf", to, 1, &x, 0, NULL);
  /* f16 <-> bf16: through f32. */
  MlirValue wide =
      kilnBuildOp1(b, "arith.extf", mlirF32TypeGet(b->ctx), 1, &x, 0, NULL);
  return kilnBuildOp1(b, "arith.truncf", to, 1, &wide, 0, NULL);
}

MlirValue kilnConvertScalar(KilnBuilder *b, MlirValue x, MlirType to,
                            bool isUnsigned) {
  MlirType from = mlirValueGetType(x);
  if (mlirTypeEqual(from, to))
    return x;
  bool fromIndex = mlirTypeIsAIndex(from), toIndex = mlirTypeIsAIndex(to);
  if (fromIndex || toIndex) {
    if ((fromIndex || mlirTypeIsAInteger(from)) &&
        (toIndex || mlirTypeIsAInteger(to)))
      return kilnBuildOp1(b, "arith.index_cast", to, 1, &x, 0, NULL);
    MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
    return kilnConvertScalar(b, kilnConvertScalar(b, x, i64, false), to, false);
  }
  bool fromFloat = kilnTypeIsFloat(from), toFloat = kilnTypeIsFloat(to);
  if (fromFloat && toFloat)
    return convertFloatToFloat(b, x, to);
  if (!toFloat && mlirIntegerTypeGetWidth(to) == 1) {
    MlirValue zero = kilnConstFloat(b, from, 0);
    return fromFloat ? kilnCmpF(b, "une", x, zero) : kilnCmpI(b, "ne", x, zero);
  }
  bool fromBool = !fromFloat && mlirIntegerTypeGetWidth(from) == 1;
  if (fromFloat)
    return kilnBuildOp1(b, isUnsigned ? "arith.fptoui" : "arith.fptosi", to, 1,
                        &x, 0, NULL);
  if (toFloat)
    return kilnBuildOp1(
        b, isUnsigned || fromBool ? "arith.uitofp" : "arith.sitofp", to, 1, &x,
        0, NULL);
  unsigned fw = mlirIntegerTypeGetWidth(from), tw = mlirIntegerTypeGetWidth(to);
  if (fw > tw)
    return kilnBuildOp1(b, "arith.trunci", to, 1, &x, 0, NULL);
  return kilnBuildOp1(b, isUnsigned || fromBool ? "arith.extui" : "arith.extsi",
                      to, 1, &x, 0, NULL);
}

MlirValue kilnArithNumeric(KilnBuilder *b, const char *op, MlirValue lhs,
                           MlirValue rhs) {
  static const struct {
    const char *op, *f, *i;
  } kOps[] = {
      {"add", "arith.addf", "arith.addi"},
      {"sub", "arith.subf", "arith.subi"},
      {"mul", "arith.mulf", "arith.muli"},
      {"div", "arith.divf", "arith.divsi"},
      {"max", "arith.maximumf", "arith.maxsi"},
      {"min", "arith.minimumf", "arith.minsi"},
      {"rem", "arith.remf", "arith.remsi"},
  };
  bool isFloat = kilnTypeIsFloat(mlirValueGetType(lhs));
  for (size_t i = 0; i < sizeof(kOps) / sizeof(kOps[0]); ++i)
    if (!strcmp(kOps[i].op, op))
      return kilnArith2(b, isFloat ? kOps[i].f : kOps[i].i, lhs, rhs);
  abort(); /* a typo in a lowering */
}

/* ---- Types ----------------------------------------------------------------
 */

bool kilnTypeIsFloat(MlirType t) { return mlirTypeIsAFloat(t); }
bool kilnTypeIsInteger(MlirType t) { return mlirTypeIsAInteger(t); }

MlirType kilnElementType(MlirValue tensor) {
  MlirType t = mlirValueGetType(tensor);
  return mlirTypeIsAShaped(t) ? mlirShapedTypeGetElementType(t) : t;
}

intptr_t kilnRank(MlirValue tensor) {
  return mlirShapedTypeGetRank(mlirValueGetType(tensor));
}

int64_t kilnDim(MlirValue tensor, intptr_t i) {
  return mlirShapedTypeGetDimSize(mlirValueGetType(tensor), i);
}

MlirType kilnTensorType(intptr_t rank, const int64_t *shape,
                        MlirType elementType) {
  return mlirRankedTensorTypeGet(rank, shape, elementType,
                                 mlirAttributeGetNull());
}

/* ---- Affine maps ----------------------------------------------------------
 */

MlirAttribute kilnMapIdentity(MlirContext ctx, intptr_t rank) {
  return mlirAffineMapAttrGet(mlirAffineMapMultiDimIdentityGet(ctx, rank));
}

MlirAttribute kilnMapExprs(MlirContext ctx, intptr_t nDims, intptr_t nExprs,
                           const MlirAffineExpr *exprs) {
  return mlirAffineMapAttrGet(
      mlirAffineMapGet(ctx, nDims, 0, nExprs, (MlirAffineExpr *)exprs));
}

MlirAttribute kilnMapDims(MlirContext ctx, intptr_t nDims, intptr_t nResults,
                          const int64_t *dims) {
  MlirAffineExpr exprs[KILN_MAX_RANK * 2];
  for (intptr_t i = 0; i < nResults; ++i)
    exprs[i] = mlirAffineDimExprGet(ctx, dims[i]);
  return kilnMapExprs(ctx, nDims, nResults, exprs);
}

MlirAttribute kilnMapBroadcast(MlirContext ctx, MlirType shaped, intptr_t nDims,
                               const int64_t *shape) {
  intptr_t r = mlirShapedTypeGetRank(shaped);
  MlirAffineExpr exprs[KILN_MAX_RANK];
  for (intptr_t j = 0; j < r; ++j) {
    intptr_t d = nDims - r + j;
    if (mlirShapedTypeGetDimSize(shaped, j) == 1 && shape[d] != 1)
      exprs[j] = mlirAffineConstantExprGet(ctx, 0);
    else
      exprs[j] = mlirAffineDimExprGet(ctx, d);
  }
  return kilnMapExprs(ctx, nDims, r, exprs);
}

/* ---- Tensors --------------------------------------------------------------
 */

MlirValue kilnEmpty(KilnBuilder *b, MlirType tensorType) {
  return kilnBuildOp1(b, "tensor.empty", tensorType, 0, NULL, 0, NULL);
}

MlirValue kilnDimValue(KilnBuilder *b, MlirValue tensor, intptr_t i) {
  int64_t size = kilnDim(tensor, i);
  if (!mlirShapedTypeIsDynamicSize(size))
    return kilnConstIndex(b, size);
  MlirValue ops[2] = {tensor, kilnConstIndex(b, i)};
  return kilnBuildOp1(b, "tensor.dim", mlirIndexTypeGet(b->ctx), 2, ops, 0,
                      NULL);
}

MlirValue kilnExtract(KilnBuilder *b, MlirValue t, intptr_t n,
                      const MlirValue *coords) {
  MlirValue ops[KILN_MAX_RANK + 1];
  ops[0] = t;
  memcpy(ops + 1, coords, n * sizeof(MlirValue));
  return kilnBuildOp1(b, "tensor.extract", kilnElementType(t), n + 1, ops, 0,
                      NULL);
}

MlirValue kilnInsert(KilnBuilder *b, MlirValue v, MlirValue t, intptr_t n,
                     const MlirValue *coords) {
  MlirValue ops[KILN_MAX_RANK + 2];
  ops[0] = v;
  ops[1] = t;
  memcpy(ops + 2, coords, n * sizeof(MlirValue));
  return kilnBuildOp1(b, "tensor.insert", mlirValueGetType(t), n + 2, ops, 0,
                      NULL);
}

MlirValue kilnEmptySized(KilnBuilder *b, MlirType tensorType,
                         const MlirValue *sizes) {
  MlirValue dynamic[KILN_MAX_RANK];
  intptr_t n = 0;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(tensorType); ++i)
    if (mlirShapedTypeIsDynamicDim(tensorType, i))
      dynamic[n++] = sizes[i];
  return kilnBuildOp1(b, "tensor.empty", tensorType, n, dynamic, 0, NULL);
}

MlirValue kilnEmptyLike(KilnBuilder *b, MlirType tensorType, MlirValue like) {
  MlirValue sizes[KILN_MAX_RANK];
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(tensorType); ++i)
    if (mlirShapedTypeIsDynamicDim(tensorType, i))
      sizes[i] = kilnDimValue(b, like, i);
  return kilnEmptySized(b, tensorType, sizes);
}

void kilnAssert(KilnBuilder *b, MlirValue cond, const char *message) {
  MlirNamedAttribute msg = kilnNamedAttr(
      b->ctx, "msg",
      mlirStringAttrGet(b->ctx, mlirStringRefCreateFromCString(message)));
  kilnBuildOp(b, "cf.assert", 0, NULL, 1, &cond, 1, &msg);
}

/* Whether `predicate` ("eq", "ule", "sle") holds between constants x, y. */
static bool constantsSatisfy(const char *predicate, int64_t x, int64_t y) {
  if (!strcmp(predicate, "eq"))
    return x == y;
  if (!strcmp(predicate, "ule"))
    return (uint64_t)x <= (uint64_t)y;
  return !strcmp(predicate, "sle") && x <= y;
}

void kilnAssertCmp(KilnBuilder *b, const char *predicate, MlirValue x,
                   MlirValue y, const char *message) {
  int64_t cx, cy;
  if (kilnConstantIndexValue(x, &cx) && kilnConstantIndexValue(y, &cy) &&
      constantsSatisfy(predicate, cx, cy))
    return;
  kilnAssert(b, kilnCmpI(b, predicate, x, y), message);
}

void kilnAssertEqual(KilnBuilder *b, MlirValue x, MlirValue y,
                     const char *message) {
  kilnAssertCmp(b, "eq", x, y, message);
}

/* One branch of kilnIfElse: a block that ends in scf.yield of what `fn`
 * builds in it. */
static MlirRegion branchRegion(KilnBuilder *b, KilnBranchFn fn,
                               void *userData) {
  MlirRegion region = mlirRegionCreate();
  MlirBlock block = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(region, block);
  KilnBuilder inner = {b->ctx, b->loc, block, {NULL}};
  MlirValue result = fn(&inner, userData);
  kilnBuildOp(&inner, "scf.yield", 0, NULL, 1, &result, 0, NULL);
  return region;
}

MlirValue kilnIfElse(KilnBuilder *b, MlirValue cond, MlirType type,
                     KilnBranchFn thenFn, KilnBranchFn elseFn, void *userData) {
  MlirRegion regions[2] = {branchRegion(b, thenFn, userData),
                           branchRegion(b, elseFn, userData)};
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.if"), b->loc);
  mlirOperationStateAddResults(&st, 1, &type);
  mlirOperationStateAddOperands(&st, 1, &cond);
  mlirOperationStateAddOwnedRegions(&st, 2, regions);
  return mlirOperationGetResult(kilnBuildInsert(b, &st), 0);
}

static MlirNamedAttribute segments(MlirContext ctx, intptr_t n,
                                   const int32_t *sizes) {
  return kilnNamedAttr(ctx, "operandSegmentSizes",
                       mlirDenseI32ArrayGet(ctx, n, sizes));
}

/* Creates a linalg named op with an empty region, then has MLIR fill the
 * region with the op's builtin body. */
static MlirOperation namedOp(KilnBuilder *b, const char *name, intptr_t nInputs,
                             const MlirValue *inputs, MlirValue output,
                             intptr_t nAttrs, const MlirNamedAttribute *attrs) {
  MlirValue ops[8];
  if (nInputs > 7)
    abort();
  if (nInputs)
    memcpy(ops, inputs, nInputs * sizeof(MlirValue));
  ops[nInputs] = output;
  MlirNamedAttribute all[8];
  if (nAttrs > 7)
    abort();
  if (nAttrs)
    memcpy(all, attrs, nAttrs * sizeof(MlirNamedAttribute));
  int32_t seg[2] = {(int32_t)nInputs, 1};
  all[nAttrs] = segments(b->ctx, 2, seg);
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString(name), b->loc);
  MlirType resultType = mlirValueGetType(output);
  mlirOperationStateAddResults(&st, 1, &resultType);
  mlirOperationStateAddOperands(&st, nInputs + 1, ops);
  mlirOperationStateAddAttributes(&st, nAttrs + 1, all);
  MlirRegion region = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation op = kilnBuildInsert(b, &st);
  mlirLinalgFillBuiltinNamedOpRegion(op);
  return op;
}

MlirValue kilnNamedOp(KilnBuilder *b, const char *name, intptr_t nInputs,
                      const MlirValue *inputs, MlirValue output,
                      intptr_t nAttrs, const MlirNamedAttribute *attrs) {
  return mlirOperationGetResult(
      namedOp(b, name, nInputs, inputs, output, nAttrs, attrs), 0);
}

MlirValue kilnFill(KilnBuilder *b, MlirValue value, MlirValue init) {
  return kilnNamedOp(b, "linalg.fill", 1, &value, init, 0, NULL);
}

MlirValue kilnFilled(KilnBuilder *b, MlirType tensorType, MlirValue value) {
  return kilnFill(b, value, kilnEmpty(b, tensorType));
}

MlirValue kilnCastTo(KilnBuilder *b, MlirValue x, MlirType type) {
  if (mlirTypeEqual(mlirValueGetType(x), type))
    return x;
  return kilnBuildOp1(b, "tensor.cast", type, 1, &x, 0, NULL);
}

/* reassociation = [[0, 1, ..., n-1]] (n > 0) or [] (n == 0). */
static MlirAttribute allInOneGroup(MlirContext ctx, intptr_t n) {
  if (n == 0)
    return mlirArrayAttrGet(ctx, 0, NULL);
  MlirAttribute dims[KILN_MAX_RANK];
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  for (intptr_t i = 0; i < n; ++i)
    dims[i] = mlirIntegerAttrGet(i64, i);
  MlirAttribute group = mlirArrayAttrGet(ctx, n, dims);
  return mlirArrayAttrGet(ctx, 1, &group);
}

static MlirValue collapseOrExpand(KilnBuilder *b, const char *name, MlirValue x,
                                  MlirType to, intptr_t groupLen) {
  MlirNamedAttribute attrs[2];
  attrs[0] =
      kilnNamedAttr(b->ctx, "reassociation", allInOneGroup(b->ctx, groupLen));
  intptr_t n = 1;
  if (!strcmp(name, "tensor.expand_shape")) {
    intptr_t r = mlirShapedTypeGetRank(to);
    int64_t shape[KILN_MAX_RANK];
    for (intptr_t i = 0; i < r; ++i)
      shape[i] = mlirShapedTypeGetDimSize(to, i);
    attrs[n++] = kilnNamedAttr(b->ctx, "static_output_shape",
                               mlirDenseI64ArrayGet(b->ctx, r, shape));
  }
  return kilnBuildOp1(b, name, to, 1, &x, n, attrs);
}

/* The number of elements of `x` as an index value. */
MlirValue kilnNumElementsValue(KilnBuilder *b, MlirValue x) {
  MlirValue n = kilnConstIndex(b, 1);
  for (intptr_t i = 0; i < kilnRank(x); ++i)
    n = kilnArith2(b, "arith.muli", n, kilnDimValue(b, x, i));
  return n;
}

static bool isStaticOne(MlirType t, intptr_t i) {
  return mlirShapedTypeGetDimSize(t, i) == 1;
}

/* The groups of a reshape between `big` and `small` (rank at most big's)
 * that only adds or drops static 1s: small's dim j gets a group of big's
 * consecutive dims, its one dim that is not 1 with the 1s before it (a 1
 * of small: one 1 of big); the trailing 1s join the last group. False
 * when the dims that are not 1 differ (static sizes, or dynamic against
 * static) or there is no such grouping. */
static bool unitDimGroups(MlirType big, MlirType small, intptr_t *groupSizes,
                          intptr_t *numGroups) {
  intptr_t rb = mlirShapedTypeGetRank(big), rs = mlirShapedTypeGetRank(small);
  intptr_t i = 0;
  if (rs == 0)
    return false;
  for (intptr_t j = 0; j < rs; ++j) {
    intptr_t first = i;
    if (isStaticOne(small, j)) {
      if (i >= rb || !isStaticOne(big, i))
        return false;
      groupSizes[j] = 1;
      ++i;
      continue;
    }
    while (i < rb && isStaticOne(big, i))
      ++i;
    if (i >= rb ||
        mlirShapedTypeGetDimSize(big, i) != mlirShapedTypeGetDimSize(small, j))
      return false;
    groupSizes[j] = ++i - first;
  }
  for (; i < rb; ++i) {
    if (!isStaticOne(big, i))
      return false;
    ++groupSizes[rs - 1];
  }
  *numGroups = rs;
  return true;
}

/* tensor.expand_shape of `x` into `to` (groups of consecutive dims of
 * `to`, `sizes[i]` for its dynamic dim i; `sizes` may be NULL for a static
 * `to`), or tensor.collapse_shape of `x` into `to` (groups of consecutive
 * dims of `x`). */
static MlirValue reshapeByGroups(KilnBuilder *b, MlirValue x, MlirType to,
                                 intptr_t nGroups, const intptr_t *groupSizes,
                                 const MlirValue *sizes) {
  bool expand = mlirShapedTypeGetRank(to) > kilnRank(x);
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirAttribute groups[KILN_MAX_RANK], dims[2 * KILN_MAX_RANK];
  intptr_t d = 0;
  for (intptr_t g = 0; g < nGroups; ++g) {
    intptr_t first = d;
    for (intptr_t i = 0; i < groupSizes[g]; ++i, ++d)
      dims[d] = mlirIntegerAttrGet(i64, d);
    groups[g] = mlirArrayAttrGet(b->ctx, d - first, &dims[first]);
  }
  MlirNamedAttribute attrs[2] = {kilnNamedAttr(
      b->ctx, "reassociation", mlirArrayAttrGet(b->ctx, nGroups, groups))};
  if (!expand)
    return kilnBuildOp1(b, "tensor.collapse_shape", to, 1, &x, 1, attrs);
  intptr_t r = mlirShapedTypeGetRank(to), n = 0;
  int64_t shape[2 * KILN_MAX_RANK];
  MlirValue ops[2 * KILN_MAX_RANK + 1] = {x};
  for (intptr_t i = 0; i < r; ++i) {
    shape[i] = mlirShapedTypeGetDimSize(to, i);
    if (mlirShapedTypeIsDynamicSize(shape[i]))
      ops[1 + n++] = sizes[i];
  }
  attrs[1] = kilnNamedAttr(b->ctx, "static_output_shape",
                           mlirDenseI64ArrayGet(b->ctx, r, shape));
  return kilnBuildOp1(b, "tensor.expand_shape", to, n + 1, ops, 2, attrs);
}

MlirValue kilnReshapeSized(KilnBuilder *b, MlirValue x, MlirType to,
                           const MlirValue *sizes) {
  MlirType from = mlirValueGetType(x);
  if (mlirTypeEqual(from, to) && mlirShapedTypeHasStaticShape(to))
    return x;
  intptr_t rf = mlirShapedTypeGetRank(from), rt = mlirShapedTypeGetRank(to);
  /* Adding or dropping static 1s: one expand or collapse, each group with
   * one dim that is not 1 (MLIR 22's expand-strided-metadata cannot take a
   * group with two dynamic dims). */
  intptr_t groupSizes[KILN_MAX_RANK], nGroups;
  if (rt > rf && unitDimGroups(to, from, groupSizes, &nGroups))
    return reshapeByGroups(b, x, to, nGroups, groupSizes, sizes);
  if (rt < rf && unitDimGroups(from, to, groupSizes, &nGroups))
    return reshapeByGroups(b, x, to, nGroups, groupSizes, sizes);
  /* Otherwise, static both sides: a collapse and an expand, never
   * tensor.reshape, whose index-vector shape the GPU target cannot place in
   * device memory (and the CPU pipeline would regroup anyway). */
  if (mlirShapedTypeHasStaticShape(from) && mlirShapedTypeHasStaticShape(to))
    return kilnReshape(b, x, to);
  /* Anything dynamic: tensor.reshape with the shape as index values, which
   * must hold as many elements as x (asserted). */
  MlirValue dims[KILN_MAX_RANK];
  MlirValue count = kilnConstIndex(b, 1);
  for (intptr_t i = 0; i < rt; ++i) {
    dims[i] = mlirShapedTypeIsDynamicDim(to, i)
                  ? sizes[i]
                  : kilnConstIndex(b, mlirShapedTypeGetDimSize(to, i));
    count = kilnArith2(b, "arith.muli", count, dims[i]);
  }
  kilnAssertEqual(b, kilnNumElementsValue(b, x), count,
                  "a reshape's new shape holds a different number of "
                  "elements than its input at run time");
  int64_t len = rt;
  MlirValue shape = kilnBuildOp1(
      b, "tensor.from_elements",
      kilnTensorType(1, &len, mlirIndexTypeGet(b->ctx)), rt, dims, 0, NULL);
  MlirValue ops[2] = {x, shape};
  return kilnBuildOp1(b, "tensor.reshape", to, 2, ops, 0, NULL);
}

/* kilnReshape of a dynamic tensor or to a dynamic type: a lone dynamic
 * dim of `to` takes what the element count leaves (exact); several take
 * the sizes of `x`'s dynamic dims in order (a reshape that adds or drops
 * static dims: keepdims, squeeze, unsqueeze), which kilnReshapeSized's
 * element-count assert guards where they are not that. */
static MlirValue reshapeDynamic(KilnBuilder *b, MlirValue x, MlirType to) {
  MlirValue sizes[KILN_MAX_RANK];
  intptr_t rx = kilnRank(x), rt = mlirShapedTypeGetRank(to), next = 0;
  intptr_t numDynamic = 0, last = -1;
  int64_t staticTo = 1;
  for (intptr_t i = 0; i < rt; ++i) {
    if (mlirShapedTypeIsDynamicDim(to, i)) {
      ++numDynamic;
      last = i;
    } else {
      staticTo *= mlirShapedTypeGetDimSize(to, i);
    }
  }
  if (numDynamic == 1) { /* exact: what the element count leaves */
    sizes[last] = kilnArith2(b, "arith.divui", kilnNumElementsValue(b, x),
                             kilnConstIndex(b, staticTo ? staticTo : 1));
    return kilnReshapeSized(b, x, to, sizes);
  }
  for (intptr_t i = 0; i < rt; ++i) {
    if (!mlirShapedTypeIsDynamicDim(to, i))
      continue;
    while (next < rx && !mlirShapedTypeIsDynamicSize(kilnDim(x, next)))
      ++next;
    sizes[i] = next < rx ? kilnDimValue(b, x, next++) : kilnConstIndex(b, 1);
  }
  return kilnReshapeSized(b, x, to, sizes);
}

MlirValue kilnReshape(KilnBuilder *b, MlirValue x, MlirType to) {
  MlirType from = mlirValueGetType(x);
  if (mlirTypeEqual(from, to))
    return x;
  if (!mlirShapedTypeHasStaticShape(from) || !mlirShapedTypeHasStaticShape(to))
    return reshapeDynamic(b, x, to);
  MlirType elt = mlirShapedTypeGetElementType(from);
  int64_t n = kilnNumElements(from);
  MlirType flatType = kilnTensorType(1, &n, elt);
  intptr_t rf = mlirShapedTypeGetRank(from), rt = mlirShapedTypeGetRank(to);
  MlirValue flat = x;
  if (rf == 0)
    flat = collapseOrExpand(b, "tensor.expand_shape", x, flatType, 0);
  else if (rf > 1)
    flat = collapseOrExpand(b, "tensor.collapse_shape", x, flatType, rf);
  if (rt == 0)
    return collapseOrExpand(b, "tensor.collapse_shape", flat, to, 0);
  if (rt == 1)
    return flat;
  return collapseOrExpand(b, "tensor.expand_shape", flat, to, rt);
}

MlirValue kilnReshapeGroups(KilnBuilder *b, MlirValue x, MlirType to,
                            intptr_t nGroups, const intptr_t *groupSizes) {
  if (mlirTypeEqual(mlirValueGetType(x), to))
    return x;
  return reshapeByGroups(b, x, to, nGroups, groupSizes, NULL);
}

MlirValue kilnReshapeGroupsSized(KilnBuilder *b, MlirValue x, MlirType to,
                                 intptr_t nGroups, const intptr_t *groupSizes,
                                 const MlirValue *sizes) {
  if (mlirTypeEqual(mlirValueGetType(x), to) &&
      mlirShapedTypeHasStaticShape(to))
    return x;
  return reshapeByGroups(b, x, to, nGroups, groupSizes, sizes);
}

/* tensor.extract_slice (`nTensors` 1: ops = x) or tensor.insert_slice
 * (2: ops = src, dest) of rank r with the static offsets, sizes and
 * strides given, kDynamic where ops holds the value: after the tensors,
 * `nOffsets` dynamic offsets, then `nSizes` dynamic sizes. */
static MlirOperation sliceOpWithResults(KilnBuilder *b, const char *name,
                                        intptr_t nResults, MlirType type,
                                        intptr_t r, intptr_t nTensors,
                                        const MlirValue *ops, intptr_t nOffsets,
                                        intptr_t nSizes, const int64_t *offsets,
                                        const int64_t *sizes,
                                        const int64_t *strides) {
  int32_t seg[5] = {1, 1, 0, 0, 0};
  seg[nTensors] = (int32_t)nOffsets;
  seg[nTensors + 1] = (int32_t)nSizes;
  seg[nTensors + 2] = 0;
  MlirNamedAttribute attrs[4] = {
      segments(b->ctx, nTensors + 3, seg),
      kilnNamedAttr(b->ctx, "static_offsets",
                    mlirDenseI64ArrayGet(b->ctx, r, offsets)),
      kilnNamedAttr(b->ctx, "static_sizes",
                    mlirDenseI64ArrayGet(b->ctx, r, sizes)),
      kilnNamedAttr(b->ctx, "static_strides",
                    mlirDenseI64ArrayGet(b->ctx, r, strides)),
  };
  return kilnBuildOp(b, name, nResults, &type, nTensors + nOffsets + nSizes,
                     ops, 4, attrs);
}

static MlirValue sliceOp(KilnBuilder *b, const char *name, MlirType type,
                         intptr_t r, intptr_t nTensors, const MlirValue *ops,
                         intptr_t nOffsets, intptr_t nSizes,
                         const int64_t *offsets, const int64_t *sizes,
                         const int64_t *strides) {
  return mlirOperationGetResult(
      sliceOpWithResults(b, name, 1, type, r, nTensors, ops, nOffsets, nSizes,
                         offsets, sizes, strides),
      0);
}

MlirValue kilnExtractSlice(KilnBuilder *b, MlirValue x, const int64_t *offsets,
                           const int64_t *sizes, const int64_t *strides) {
  intptr_t r = kilnRank(x);
  MlirType type = kilnTensorType(r, sizes, kilnElementType(x));
  return sliceOp(b, "tensor.extract_slice", type, r, 1, &x, 0, 0, offsets,
                 sizes, strides);
}

MlirValue kilnInsertSlice(KilnBuilder *b, MlirValue src, MlirValue dest,
                          const int64_t *offsets, const int64_t *strides) {
  int64_t sizes[KILN_MAX_RANK];
  for (intptr_t i = 0; i < kilnRank(dest); ++i)
    sizes[i] = kilnDim(src, i);
  return kilnInsertSliceSized(b, src, dest, offsets, sizes, strides);
}

/* Mixed static/dynamic index values: a constant into `statics`, anything
 * else as kDynamic there and appended to `dynamic` (count in *n). */
static void splitMixed(intptr_t r, const MlirValue *values, int64_t *statics,
                       MlirValue *dynamic, intptr_t *n) {
  for (intptr_t i = 0; i < r; ++i) {
    if (kilnConstantIndexValue(values[i], &statics[i]))
      continue;
    statics[i] = mlirShapedTypeGetDynamicSize();
    dynamic[(*n)++] = values[i];
  }
}

MlirValue kilnInsertSliceAt(KilnBuilder *b, MlirValue src, MlirValue dest,
                            const MlirValue *offsets) {
  intptr_t r = kilnRank(dest);
  MlirValue sizes[KILN_MAX_RANK], ops[2 + 2 * KILN_MAX_RANK] = {src, dest};
  int64_t staticOffsets[KILN_MAX_RANK], staticSizes[KILN_MAX_RANK],
      strides[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    sizes[i] = kilnDimValue(b, src, i);
    strides[i] = 1;
  }
  intptr_t n = 2;
  splitMixed(r, offsets, staticOffsets, ops, &n);
  intptr_t nOffsets = n - 2;
  splitMixed(r, sizes, staticSizes, ops, &n);
  return sliceOp(b, "tensor.insert_slice", mlirValueGetType(dest), r, 2, ops,
                 nOffsets, n - 2 - nOffsets, staticOffsets, staticSizes,
                 strides);
}

MlirValue kilnExtractSliceAt(KilnBuilder *b, MlirValue x,
                             const MlirValue *offsets, const MlirValue *sizes,
                             const int64_t *strides) {
  intptr_t r = kilnRank(x);
  MlirValue ops[1 + 2 * KILN_MAX_RANK] = {x};
  int64_t staticOffsets[KILN_MAX_RANK], staticSizes[KILN_MAX_RANK];
  intptr_t n = 1;
  splitMixed(r, offsets, staticOffsets, ops, &n);
  intptr_t nOffsets = n - 1;
  splitMixed(r, sizes, staticSizes, ops, &n);
  MlirType type = kilnTensorType(r, staticSizes, kilnElementType(x));
  return sliceOp(b, "tensor.extract_slice", type, r, 1, ops, nOffsets,
                 n - 1 - nOffsets, staticOffsets, staticSizes, strides);
}

MlirValue kilnPadHigh(KilnBuilder *b, MlirValue x, MlirType to,
                      const MlirValue *high, MlirValue value) {
  intptr_t r = kilnRank(x);
  MlirValue ops[1 + KILN_MAX_RANK] = {x};
  int64_t low[KILN_MAX_RANK], staticHigh[KILN_MAX_RANK];
  MlirType index = mlirIndexTypeGet(b->ctx);
  MlirType types[KILN_MAX_RANK];
  MlirLocation locs[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    low[i] = 0;
    types[i] = index;
    locs[i] = b->loc;
  }
  intptr_t n = 1;
  splitMixed(r, high, staticHigh, ops, &n);
  int32_t seg[3] = {1, 0, (int32_t)(n - 1)};
  MlirNamedAttribute attrs[3] = {
      segments(b->ctx, 3, seg),
      kilnNamedAttr(b->ctx, "static_low", mlirDenseI64ArrayGet(b->ctx, r, low)),
      kilnNamedAttr(b->ctx, "static_high",
                    mlirDenseI64ArrayGet(b->ctx, r, staticHigh)),
  };
  /* The region yields the padding value for every padded position. */
  MlirRegion region = mlirRegionCreate();
  MlirBlock block = mlirBlockCreate(r, types, locs);
  mlirRegionAppendOwnedBlock(region, block);
  KilnBuilder inner = {b->ctx, b->loc, block, {NULL}};
  kilnBuildOp(&inner, "tensor.yield", 0, NULL, 1, &value, 0, NULL);
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("tensor.pad"), b->loc);
  mlirOperationStateAddResults(&st, 1, &to);
  mlirOperationStateAddOperands(&st, n, ops);
  mlirOperationStateAddAttributes(&st, 3, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  return mlirOperationGetResult(kilnBuildInsert(b, &st), 0);
}

MlirValue kilnInsertSliceSized(KilnBuilder *b, MlirValue src, MlirValue dest,
                               const int64_t *offsets, const int64_t *sizes,
                               const int64_t *strides) {
  MlirValue ops[2] = {src, dest};
  return sliceOp(b, "tensor.insert_slice", mlirValueGetType(dest),
                 kilnRank(dest), 2, ops, 0, 0, offsets, sizes, strides);
}

/* ---- linalg -----------------------------------------------------------------
 */

void kilnCopyBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                  void *userData) {
  (void)b;
  (void)userData;
  yields[0] = args[0];
}

void kilnAddBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                 void *userData) {
  (void)userData;
  yields[0] = kilnArithNumeric(b, "add", args[0], args[1]);
}

MlirValue kilnCopyThroughMap(KilnBuilder *b, MlirValue x, MlirAttribute inMap,
                             MlirType type) {
  intptr_t r = mlirShapedTypeGetRank(type);
  MlirAttribute maps[2] = {inMap, kilnMapIdentity(b->ctx, r)};
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', (size_t)r);
  iters[r] = '\0';
  /* A dynamic result dim i has the size of the input dim the map reads
   * with loop i. */
  MlirValue sizes[KILN_MAX_RANK];
  MlirAffineMap map = mlirAffineMapAttrGetValue(inMap);
  for (intptr_t i = 0; i < r; ++i) {
    if (!mlirShapedTypeIsDynamicDim(type, i))
      continue;
    sizes[i] = (MlirValue){NULL};
    for (intptr_t j = 0; j < mlirAffineMapGetNumResults(map); ++j) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, j);
      if (mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == i) {
        sizes[i] = kilnDimValue(b, x, j);
        break;
      }
    }
    if (mlirValueIsNull(sizes[i])) /* not read: the loop runs once */
      sizes[i] = kilnConstIndex(b, 1);
  }
  MlirValue init = kilnEmptySized(b, type, sizes);
  return mlirOperationGetResult(
      kilnGeneric(b, 1, &x, 1, &init, maps, r, iters, kilnCopyBody, NULL), 0);
}

MlirOperation kilnGeneric(KilnBuilder *b, intptr_t nInputs,
                          const MlirValue *inputs, intptr_t nOutputs,
                          const MlirValue *outputs, const MlirAttribute *maps,
                          intptr_t nLoops, const char *iterators,
                          KilnBodyFn body, void *userData) {
  intptr_t n = nInputs + nOutputs;
  MlirValue *operands = malloc(n * sizeof(MlirValue));
  MlirType *argTypes = malloc(n * sizeof(MlirType));
  MlirLocation *argLocs = malloc(n * sizeof(MlirLocation));
  MlirType *resultTypes = malloc((nOutputs + 1) * sizeof(MlirType));
  MlirAttribute *iters = malloc((nLoops + 1) * sizeof(MlirAttribute));
  MlirValue *yields = malloc((nOutputs + 1) * sizeof(MlirValue));
  if (!operands || !argTypes || !argLocs || !resultTypes || !iters || !yields)
    abort();
  for (intptr_t i = 0; i < n; ++i) {
    operands[i] = i < nInputs ? inputs[i] : outputs[i - nInputs];
    argTypes[i] = kilnElementType(operands[i]);
    argLocs[i] = b->loc;
  }
  for (intptr_t i = 0; i < nOutputs; ++i)
    resultTypes[i] = mlirValueGetType(outputs[i]);
  MlirAttribute parallel = mlirAttributeParseGet(
      b->ctx,
      mlirStringRefCreateFromCString("#linalg.iterator_type<parallel>"));
  MlirAttribute reduction = mlirAttributeParseGet(
      b->ctx,
      mlirStringRefCreateFromCString("#linalg.iterator_type<reduction>"));
  for (intptr_t i = 0; i < nLoops; ++i)
    iters[i] = iterators[i] == 'r' ? reduction : parallel;
  int32_t seg[2] = {(int32_t)nInputs, (int32_t)nOutputs};
  MlirNamedAttribute attrs[3] = {
      kilnNamedAttr(b->ctx, "indexing_maps", mlirArrayAttrGet(b->ctx, n, maps)),
      kilnNamedAttr(b->ctx, "iterator_types",
                    mlirArrayAttrGet(b->ctx, nLoops, iters)),
      segments(b->ctx, 2, seg),
  };
  MlirRegion region = mlirRegionCreate();
  MlirBlock block = mlirBlockCreate(n, argTypes, argLocs);
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("linalg.generic"), b->loc);
  mlirOperationStateAddResults(&st, nOutputs, resultTypes);
  mlirOperationStateAddOperands(&st, n, operands);
  mlirOperationStateAddAttributes(&st, 3, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation op = kilnBuildInsert(b, &st);

  KilnBuilder inner = {b->ctx, b->loc, block, {NULL}};
  MlirValue *args = operands; /* reuse: block arguments now */
  for (intptr_t i = 0; i < n; ++i)
    args[i] = mlirBlockGetArgument(block, i);
  body(&inner, args, yields, userData);
  kilnBuildOp(&inner, "linalg.yield", 0, NULL, nOutputs, yields, 0, NULL);
  free(operands);
  free(argTypes);
  free(argLocs);
  free(resultTypes);
  free(iters);
  free(yields);
  return op;
}

/* The sizes of a broadcast result's dims (numpy's trailing alignment), one
 * index value per dim: an input's static size other than 1 where there is
 * one; else the inputs' dynamic dims folded with numpy's rule (the first
 * size that is not 1), read at run time. kilnBroadcastDynamicOnes then
 * checks each input against them. */
static void broadcastSizes(KilnBuilder *b, intptr_t nInputs,
                           const MlirValue *inputs, MlirType resultType,
                           MlirValue *sizes) {
  intptr_t r = mlirShapedTypeGetRank(resultType);
  MlirValue one = kilnConstIndex(b, 1);
  for (intptr_t d = 0; d < r; ++d) {
    if (!mlirShapedTypeIsDynamicDim(resultType, d)) {
      sizes[d] = kilnConstIndex(b, mlirShapedTypeGetDimSize(resultType, d));
      continue;
    }
    MlirValue size = {NULL};
    for (intptr_t i = 0; mlirValueIsNull(size) && i < nInputs; ++i) {
      MlirType t = mlirValueGetType(inputs[i]);
      intptr_t j =
          mlirTypeIsAShaped(t) ? d - (r - mlirShapedTypeGetRank(t)) : -1;
      if (j >= 0 && !mlirShapedTypeIsDynamicDim(t, j) &&
          mlirShapedTypeGetDimSize(t, j) != 1)
        size = kilnConstIndex(b, mlirShapedTypeGetDimSize(t, j));
    }
    if (mlirValueIsNull(size)) {
      for (intptr_t i = 0; i < nInputs; ++i) {
        MlirType t = mlirValueGetType(inputs[i]);
        intptr_t j =
            mlirTypeIsAShaped(t) ? d - (r - mlirShapedTypeGetRank(t)) : -1;
        if (j < 0 || !mlirShapedTypeIsDynamicDim(t, j))
          continue;
        MlirValue dim = kilnDimValue(b, inputs[i], j);
        size = mlirValueIsNull(size)
                   ? dim
                   : kilnSelect(b, kilnCmpI(b, "eq", size, one), dim, size);
      }
    }
    sizes[d] = mlirValueIsNull(size) ? one : size; /* every input 1 there */
  }
}

/* Whether `size` is `tensor.dim x, j` (the very dim: it needs no check). */
static bool isDimOf(MlirValue size, MlirValue x, intptr_t j) {
  if (!mlirValueIsAOpResult(size))
    return false;
  MlirOperation op = mlirOpResultGetOwner(size);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  int64_t at;
  return name.length == 10 && !strncmp(name.data, "tensor.dim", 10) &&
         mlirValueEqual(mlirOperationGetOperand(op, 0), x) &&
         kilnConstantIndexValue(mlirOperationGetOperand(op, 1), &at) && at == j;
}

typedef struct StretchOnes {
  MlirValue x;
  intptr_t rank;
  MlirValue dims[KILN_MAX_RANK];  /* x's dims */
  MlirValue sizes[KILN_MAX_RANK]; /* the stretched copy's dims */
  MlirValue isOne[KILN_MAX_RANK]; /* null where x's dim is read as is */
} StretchOnes;

static MlirValue stretchNone(KilnBuilder *b, void *userData) {
  (void)b;
  return ((StretchOnes *)userData)->x;
}

/* The copy's element at i is x at i, with 0 for each dim that is 1. */
static void stretchBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  (void)args;
  StretchOnes *s = userData;
  MlirValue at[KILN_MAX_RANK + 1];
  at[0] = s->x;
  for (intptr_t j = 0; j < s->rank; ++j) {
    at[j + 1] = kilnLinalgIndex(b, j);
    if (!mlirValueIsNull(s->isOne[j]))
      at[j + 1] = kilnSelect(b, s->isOne[j], kilnConstIndex(b, 0), at[j + 1]);
  }
  yields[0] = kilnBuildOp1(b, "tensor.extract", kilnElementType(s->x),
                           s->rank + 1, at, 0, NULL);
}

static MlirValue stretchCopy(KilnBuilder *b, void *userData) {
  StretchOnes *s = userData;
  return kilnGenerate(b, mlirValueGetType(s->x), s->sizes, stretchBody, s);
}

MlirValue kilnBroadcastDynamicOnes(KilnBuilder *b, MlirValue x, intptr_t rank,
                                   const MlirValue *sizes,
                                   const char *message) {
  MlirType type = mlirValueGetType(x);
  if (!mlirTypeIsAShaped(type) || mlirShapedTypeHasStaticShape(type))
    return x;
  StretchOnes s = {.x = x, .rank = mlirShapedTypeGetRank(type)};
  MlirValue one = kilnConstIndex(b, 1), same = {NULL};
  for (intptr_t j = 0; j < s.rank; ++j) {
    s.isOne[j] = (MlirValue){NULL};
    s.dims[j] = s.sizes[j] = kilnDimValue(b, x, j);
    MlirValue size = sizes[j + rank - s.rank];
    int64_t c;
    if (!mlirShapedTypeIsDynamicDim(type, j) || isDimOf(size, x, j))
      continue;
    if (kilnConstantIndexValue(size, &c) && c == 1) {
      kilnAssertEqual(b, s.dims[j], size, message);
      continue;
    }
    MlirValue eq = kilnCmpI(b, "eq", s.dims[j], size);
    s.isOne[j] = kilnCmpI(b, "eq", s.dims[j], one);
    kilnAssert(b, kilnArith2(b, "arith.ori", eq, s.isOne[j]), message);
    same = mlirValueIsNull(same) ? eq : kilnArith2(b, "arith.andi", same, eq);
    s.sizes[j] = size;
  }
  if (mlirValueIsNull(same))
    return x;
  /* The full-size slice states the result's dims (the stretched sizes):
   * nothing reads them from the scf.if, whose dims no pattern resolves, so
   * the shape function needs neither branch. */
  MlirValue at[KILN_MAX_RANK];
  int64_t strides[KILN_MAX_RANK];
  for (intptr_t j = 0; j < s.rank; ++j) {
    at[j] = kilnConstIndex(b, 0);
    strides[j] = 1;
  }
  return kilnExtractSliceAt(
      b, kilnIfElse(b, same, type, stretchNone, stretchCopy, &s), at, s.sizes,
      strides);
}

MlirValue kilnElementwise(KilnBuilder *b, intptr_t nInputs,
                          const MlirValue *inputs, MlirType resultType,
                          KilnBodyFn body, void *userData) {
  intptr_t r = mlirShapedTypeGetRank(resultType);
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    shape[i] = mlirShapedTypeGetDimSize(resultType, i);
  MlirAttribute *maps = malloc((nInputs + 1) * sizeof(MlirAttribute));
  if (!maps)
    abort();
  for (intptr_t i = 0; i < nInputs; ++i) {
    MlirType t = mlirValueGetType(inputs[i]);
    maps[i] =
        mlirTypeIsAShaped(t)
            ? kilnMapBroadcast(b->ctx, t, r, shape)
            : mlirAffineMapAttrGet(mlirAffineMapGet(b->ctx, r, 0, 0, NULL));
  }
  maps[nInputs] = kilnMapIdentity(b->ctx, r);
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', r);
  iters[r] = '\0';
  MlirValue sizes[KILN_MAX_RANK];
  MlirValue *read = malloc((nInputs + 1) * sizeof(MlirValue));
  if (!read)
    abort();
  broadcastSizes(b, nInputs, inputs, resultType, sizes);
  for (intptr_t i = 0; i < nInputs; ++i)
    read[i] = kilnBroadcastDynamicOnes(
        b, inputs[i], r, sizes,
        "inputs that broadcast together have dims of different sizes at run "
        "time, neither of them 1");
  MlirValue init = kilnEmptySized(b, resultType, sizes);
  MlirOperation op =
      kilnGeneric(b, nInputs, read, 1, &init, maps, r, iters, body, userData);
  free(read);
  free(maps);
  return mlirOperationGetResult(op, 0);
}

MlirValue kilnGenerate(KilnBuilder *b, MlirType type, const MlirValue *sizes,
                       KilnBodyFn body, void *userData) {
  intptr_t r = mlirShapedTypeGetRank(type);
  MlirAttribute map = kilnMapIdentity(b->ctx, r);
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', (size_t)r);
  iters[r] = '\0';
  MlirValue init = sizes ? kilnEmptySized(b, type, sizes) : kilnEmpty(b, type);
  return mlirOperationGetResult(
      kilnGeneric(b, 0, NULL, 1, &init, &map, r, iters, body, userData), 0);
}

MlirValue kilnLinalgIndex(KilnBuilder *b, int64_t dim) {
  MlirNamedAttribute attr = kilnNamedAttr(
      b->ctx, "dim", mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), dim));
  return kilnBuildOp1(b, "linalg.index", mlirIndexTypeGet(b->ctx), 0, NULL, 1,
                      &attr);
}

/* ---- Signed and unsigned integers ------------------------------------------
 */

bool kilnTypeIsUnsignedInt(MlirType t) {
  return mlirTypeIsAInteger(t) && mlirIntegerTypeIsUnsigned(t);
}

static MlirValue unrealizedCast(KilnBuilder *b, MlirValue x, MlirType to) {
  return kilnBuildOp1(b, "builtin.unrealized_conversion_cast", to, 1, &x, 0,
                      NULL);
}

MlirValue kilnToSignless(KilnBuilder *b, MlirValue x) {
  MlirType t = mlirValueGetType(x);
  if (!mlirTypeIsAInteger(t) || mlirIntegerTypeIsSignless(t))
    return x;
  return unrealizedCast(b, x,
                        mlirIntegerTypeGet(b->ctx, mlirIntegerTypeGetWidth(t)));
}

MlirValue kilnFromSignless(KilnBuilder *b, MlirValue x, MlirType to) {
  if (mlirTypeEqual(mlirValueGetType(x), to))
    return x;
  return unrealizedCast(b, x, to);
}

void kilnForLoopN(KilnBuilder *b, MlirValue lo, MlirValue hi, intptr_t n,
                  const MlirValue *init, KilnLoopNBodyFn body, void *userData,
                  MlirValue *results) {
  if (n > KILN_MAX_CARRIED)
    abort();
  MlirValue ops[3 + KILN_MAX_CARRIED] = {lo, hi, kilnConstIndex(b, 1)};
  MlirType types[1 + KILN_MAX_CARRIED] = {mlirIndexTypeGet(b->ctx)};
  MlirLocation locs[1 + KILN_MAX_CARRIED];
  for (intptr_t i = 0; i <= n; ++i)
    locs[i] = b->loc;
  for (intptr_t i = 0; i < n; ++i) {
    ops[3 + i] = init[i];
    types[1 + i] = mlirValueGetType(init[i]);
  }
  MlirRegion region = mlirRegionCreate();
  MlirBlock block = mlirBlockCreate(1 + n, types, locs);
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.for"), b->loc);
  mlirOperationStateAddResults(&st, n, types + 1);
  mlirOperationStateAddOperands(&st, 3 + n, ops);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation op = kilnBuildInsert(b, &st);
  KilnBuilder inner = {b->ctx, b->loc, block, {NULL}};
  MlirValue acc[KILN_MAX_CARRIED], next[KILN_MAX_CARRIED];
  for (intptr_t i = 0; i < n; ++i)
    acc[i] = mlirBlockGetArgument(block, 1 + i);
  body(&inner, mlirBlockGetArgument(block, 0), acc, next, userData);
  kilnBuildOp(&inner, "scf.yield", 0, NULL, n, next, 0, NULL);
  for (intptr_t i = 0; i < n; ++i)
    results[i] = mlirOperationGetResult(op, i);
}

typedef struct OneCarried {
  KilnLoopBodyFn body;
  void *userData;
} OneCarried;

static void oneCarriedBody(KilnBuilder *b, MlirValue iv, const MlirValue *acc,
                           MlirValue *next, void *userData) {
  const OneCarried *one = userData;
  one->body(b, iv, acc[0], next, one->userData);
}

MlirValue kilnForLoop(KilnBuilder *b, MlirValue n, MlirValue init,
                      KilnLoopBodyFn body, void *userData) {
  OneCarried one = {body, userData};
  MlirValue result;
  kilnForLoopN(b, kilnConstIndex(b, 0), n, 1, &init, oneCarriedBody, &one,
               &result);
  return result;
}

/* ---- scf.forall of static tiles ------------------------------------------
 *
 *   %y = scf.forall (%i0, %i1, ...) in (%n0, %n1, ...) shared_outs(%o = init)
 *     %tile = body(%i..., %o)                  (a static shape)
 *     scf.forall.in_parallel {
 *       tensor.parallel_insert_slice %tile into %o[at...] [tile's shape]
 *     }
 */

MlirValue kilnForallTiles(KilnBuilder *b, intptr_t n, const MlirValue *counts,
                          MlirValue init, KilnTileBodyFn body, void *userData) {
  if (n > KILN_MAX_RANK)
    abort();
  MlirValue ops[KILN_MAX_RANK + 1];
  int64_t lower[KILN_MAX_RANK], upper[KILN_MAX_RANK], step[KILN_MAX_RANK];
  intptr_t nUpper = 0;
  splitMixed(n, counts, upper, ops, &nUpper);
  for (intptr_t i = 0; i < n; ++i) {
    lower[i] = 0;
    step[i] = 1;
  }
  ops[nUpper] = init;
  MlirType outType = mlirValueGetType(init);
  MlirType types[KILN_MAX_RANK + 1];
  MlirLocation locs[KILN_MAX_RANK + 1];
  for (intptr_t i = 0; i <= n; ++i) {
    types[i] = i < n ? mlirIndexTypeGet(b->ctx) : outType;
    locs[i] = b->loc;
  }
  MlirRegion region = mlirRegionCreate();
  MlirBlock block = mlirBlockCreate(n + 1, types, locs);
  mlirRegionAppendOwnedBlock(region, block);
  int32_t seg[4] = {0, (int32_t)nUpper, 0, 1};
  MlirNamedAttribute attrs[4] = {
      segments(b->ctx, 4, seg),
      kilnNamedAttr(b->ctx, "staticLowerBound",
                    mlirDenseI64ArrayGet(b->ctx, n, lower)),
      kilnNamedAttr(b->ctx, "staticUpperBound",
                    mlirDenseI64ArrayGet(b->ctx, n, upper)),
      kilnNamedAttr(b->ctx, "staticStep",
                    mlirDenseI64ArrayGet(b->ctx, n, step)),
  };
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("scf.forall"), b->loc);
  mlirOperationStateAddResults(&st, 1, &outType);
  mlirOperationStateAddOperands(&st, nUpper + 1, ops);
  mlirOperationStateAddAttributes(&st, 4, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation forall = kilnBuildInsert(b, &st);

  KilnBuilder inner = {b->ctx, b->loc, block, {NULL}};
  MlirValue ivs[KILN_MAX_RANK], at[KILN_MAX_RANK], tile;
  for (intptr_t i = 0; i < n; ++i)
    ivs[i] = mlirBlockGetArgument(block, i);
  MlirValue out = mlirBlockGetArgument(block, n);
  body(&inner, ivs, out, &tile, at, userData);

  /* The terminator: one parallel_insert_slice of the tile. */
  MlirRegion yieldRegion = mlirRegionCreate();
  MlirBlock yieldBlock = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(yieldRegion, yieldBlock);
  MlirOperationState term = mlirOperationStateGet(
      mlirStringRefCreateFromCString("scf.forall.in_parallel"), b->loc);
  mlirOperationStateAddOwnedRegions(&term, 1, &yieldRegion);
  kilnBuildInsert(&inner, &term);
  KilnBuilder yield = {b->ctx, b->loc, yieldBlock, {NULL}};
  intptr_t r = kilnRank(out);
  MlirValue sliceOps[2 + KILN_MAX_RANK] = {tile, out};
  int64_t offsets[KILN_MAX_RANK], sizes[KILN_MAX_RANK], strides[KILN_MAX_RANK];
  intptr_t nOps = 2;
  splitMixed(r, at, offsets, sliceOps, &nOps);
  for (intptr_t i = 0; i < r; ++i) {
    sizes[i] = kilnDim(tile, i);
    strides[i] = 1;
  }
  sliceOpWithResults(&yield, "tensor.parallel_insert_slice", 0,
                     (MlirType){NULL}, r, 2, sliceOps, nOps - 2, 0, offsets,
                     sizes, strides);
  return mlirOperationGetResult(forall, 0);
}

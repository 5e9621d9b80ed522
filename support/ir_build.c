#include "support/ir_build.h"

#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

bool kilnOpNameIs(MlirOperation op, const char *name) {
  return kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

bool kilnOpNameStartsWith(MlirOperation op, const char *prefix) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  size_t n = strlen(prefix);
  return name.length >= n && !memcmp(name.data, prefix, n);
}

MlirOperation kilnInsertOp(MlirOperation before, const char *name,
                           intptr_t nOperands, const MlirValue *operands,
                           intptr_t nResults, const MlirType *resultTypes,
                           intptr_t nAttrs, const MlirNamedAttribute *attrs) {
  MlirOperationState state =
      mlirOperationStateGet(kilnStr(name), mlirOperationGetLocation(before));
  mlirOperationStateAddOperands(&state, nOperands, operands);
  mlirOperationStateAddResults(&state, nResults, resultTypes);
  mlirOperationStateAddAttributes(&state, nAttrs, attrs);
  MlirOperation op = mlirOperationCreate(&state);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before,
                                      op);
  return op;
}

MlirNamedAttribute kilnSegmentSizesAttr(MlirContext ctx, intptr_t n,
                                        const int32_t *sizes) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("operandSegmentSizes")),
      mlirDenseI32ArrayGet(ctx, n, sizes));
}

MlirValue kilnInsertIndexConstant(MlirOperation before, int64_t v) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirNamedAttribute value = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("value")), mlirIntegerAttrGet(index, v));
  return mlirOperationGetResult(
      kilnInsertOp(before, "arith.constant", 0, NULL, 1, &index, 1, &value), 0);
}

bool kilnFuncIsPublicDefinition(MlirOperation op) {
  if (!kilnOpNameIs(op, "func.func") ||
      mlirBlockIsNull(mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0))))
    return false;
  MlirAttribute vis =
      mlirOperationGetAttributeByName(op, kilnStr("sym_visibility"));
  return mlirAttributeIsNull(vis) ||
         (mlirAttributeIsAString(vis) &&
          kilnStringRefEquals(mlirStringAttrGetValue(vis), "public"));
}

MlirOperation kilnInsertIfLess(MlirOperation before, MlirValue a, MlirValue b) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirLocation loc = mlirOperationGetLocation(before);
  MlirValue cmpOps[2] = {a, b};
  MlirType i1 = mlirIntegerTypeGet(ctx, 1);
  MlirNamedAttribute pred = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("predicate")),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 6 /* ult */));
  MlirValue cond = mlirOperationGetResult(
      kilnInsertOp(before, "arith.cmpi", 2, cmpOps, 1, &i1, 1, &pred), 0);
  MlirBlock then = mlirBlockCreate(0, NULL, NULL);
  MlirOperationState yield = mlirOperationStateGet(kilnStr("scf.yield"), loc);
  MlirOperation end = mlirOperationCreate(&yield);
  mlirBlockAppendOwnedOperation(then, end);
  MlirRegion regions[2] = {mlirRegionCreate(), mlirRegionCreate()};
  mlirRegionAppendOwnedBlock(regions[0], then);
  MlirOperationState st = mlirOperationStateGet(kilnStr("scf.if"), loc);
  mlirOperationStateAddOperands(&st, 1, &cond);
  mlirOperationStateAddOwnedRegions(&st, 2, regions);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before,
                                      mlirOperationCreate(&st));
  return end;
}

bool kilnConstantIndexValue(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!kilnOpNameIs(def, "arith.constant"))
    return false;
  MlirAttribute value = mlirOperationGetAttributeByName(def, kilnStr("value"));
  if (!mlirAttributeIsAInteger(value))
    return false;
  *out = mlirIntegerAttrGetValueInt(value);
  return true;
}

void kilnMoveBlockOpsBefore(MlirBlock from, MlirOperation before) {
  MlirOperation op = mlirBlockGetFirstOperation(from);
  MlirOperation term = mlirBlockGetTerminator(from);
  while (!mlirOperationIsNull(op) && !mlirOperationEqual(op, term)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, before);
    op = next;
  }
}

MlirOperation kilnPrevInBlock(MlirOperation op) {
  MlirOperation prev = {NULL};
  for (MlirOperation o = mlirBlockGetFirstOperation(mlirOperationGetBlock(op));
       !mlirOperationEqual(o, op); o = mlirOperationGetNextInBlock(o))
    prev = o;
  return prev;
}

bool kilnLinalgIteratorKinds(MlirOperation op, char *kinds, intptr_t loops) {
  MlirAttribute it =
      mlirOperationGetAttributeByName(op, kilnStr("iterator_types"));
  if (mlirAttributeIsNull(it))
    return false;
  KilnStrBuf text = {0};
  kilnStrBufAppendAttribute(&text, it);
  const char *s = kilnStrBufGet(&text);
  intptr_t n = 0;
  for (const char *p = s; *p && n <= loops; ++p) {
    if (!strncmp(p, "parallel", 8))
      kinds[n++] = 'p';
    else if (!strncmp(p, "reduction", 9))
      kinds[n++] = 'r';
  }
  kilnStrBufDestroy(&text);
  return n == loops;
}

MlirAffineMap kilnLinalgIndexingMap(MlirOperation op, intptr_t i) {
  MlirAttribute maps =
      mlirOperationGetAttributeByName(op, kilnStr("indexing_maps"));
  return mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, i));
}

int64_t kilnOpGetIntAttr(MlirOperation op, const char *name, int64_t dflt) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return dflt;
  return mlirIntegerAttrGetValueInt(a);
}

bool kilnTypeIsStaticTensor(MlirType t) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t);
}

bool kilnIsStaticTensorReshape(MlirOperation op) {
  return (kilnOpNameIs(op, "tensor.expand_shape") ||
          kilnOpNameIs(op, "tensor.collapse_shape")) &&
         kilnTypeIsStaticTensor(
             mlirValueGetType(mlirOperationGetResult(op, 0)));
}

bool kilnOpIsInside(MlirOperation op, MlirOperation ancestor) {
  for (; !mlirOperationIsNull(op); op = mlirOperationGetParentOperation(op))
    if (mlirOperationEqual(op, ancestor))
      return true;
  return false;
}

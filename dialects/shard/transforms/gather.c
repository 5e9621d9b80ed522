/* Embedding lookups (gather.h). */
#include "dialects/shard/transforms/gather.h"

#include "mlir-c/BuiltinTypes.h"
#include "support/ir_build.h"

MlirOperation kilnShardLookupExtract(MlirOperation op) {
  MlirOperation none = {NULL};
  if (!kilnOpNameIs(op, "linalg.generic") ||
      mlirOperationGetNumResults(op) != 1)
    return none;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  if (mlirOperationGetNumOperands(yield) != 1)
    return none;
  MlirValue v = mlirOperationGetOperand(yield, 0);
  if (!mlirValueIsAOpResult(v))
    return none;
  MlirOperation extract = mlirOpResultGetOwner(v);
  if (!kilnOpNameIs(extract, "tensor.extract") ||
      !mlirBlockEqual(mlirOperationGetBlock(extract), body))
    return none;
  MlirValue table = mlirOperationGetOperand(extract, 0);
  MlirType t = mlirValueGetType(table);
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) < 1 ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(mlirValueGetFirstUse(v))))
    return none;
  /* Captured: defined outside the generic. */
  MlirOperation def =
      mlirValueIsAOpResult(table)
          ? mlirOpResultGetOwner(table)
          : mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(table));
  return kilnOpIsInside(def, op) ? none : extract;
}

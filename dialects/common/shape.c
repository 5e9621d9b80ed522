#include "dialects/common/shape.h"

#include "mlir-c/BuiltinTypes.h"

int64_t kilnNumElements(MlirType shaped) {
  int64_t n = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(shaped); ++i)
    n *= mlirShapedTypeGetDimSize(shaped, i);
  return n;
}

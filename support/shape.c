#include "support/shape.h"

#include "mlir-c/BuiltinTypes.h"

int64_t kilnNumElements(MlirType shaped) {
  int64_t n = 1;
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(shaped); ++i)
    n *= mlirShapedTypeGetDimSize(shaped, i);
  return n;
}

int64_t kilnElementByteSize(MlirType element) {
  if (mlirTypeIsAIndex(element))
    return 8;
  if (mlirTypeIsAInteger(element))
    return ((int64_t)mlirIntegerTypeGetWidth(element) + 7) / 8;
  if (mlirTypeIsAFloat(element))
    return ((int64_t)mlirFloatTypeGetWidth(element) + 7) / 8;
  return 0;
}

int64_t kilnShapedByteSize(MlirType shaped) {
  int64_t bytes = kilnElementByteSize(mlirShapedTypeGetElementType(shaped));
  if (bytes == 0)
    bytes = 8;
  intptr_t rank = mlirShapedTypeGetRank(shaped);
  for (intptr_t d = 0; d < rank; ++d)
    if (mlirShapedTypeGetDimSize(shaped, d) == 0)
      return 0;
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t n = mlirShapedTypeGetDimSize(shaped, d);
    if (mlirShapedTypeIsDynamicSize(n))
      continue;
    if (bytes > INT64_MAX / n)
      return INT64_MAX;
    bytes *= n;
  }
  return bytes;
}

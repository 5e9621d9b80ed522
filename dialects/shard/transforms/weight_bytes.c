/* Weight bytes for the sharding passes (weight_bytes.h). */
#include "dialects/shard/transforms/weight_bytes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/resource_data.h"

size_t kilnWeightElementBytes(MlirType type) {
  MlirType e = mlirShapedTypeGetElementType(type);
  unsigned bits = mlirTypeIsAFloat(e)     ? mlirFloatTypeGetWidth(e)
                  : mlirTypeIsAInteger(e) ? mlirIntegerTypeGetWidth(e)
                  : mlirTypeIsAIndex(e)   ? 64
                                          : 0;
  return bits % 8 ? 0 : bits / 8;
}

size_t kilnWeightTypeBytes(MlirType type) {
  size_t n = kilnWeightElementBytes(type);
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(type); ++d)
    n *= (size_t)mlirShapedTypeGetDimSize(type, d);
  return n;
}

const void *kilnWeightBytes(MlirAttribute attr, size_t *size) {
  *size = 0;
  MlirType t = mlirAttributeGetType(attr);
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) ||
      !kilnWeightElementBytes(t))
    return NULL;
  const void *data = NULL;
  if (mlirAttributeIsADenseResourceElements(attr)) {
    data = kilnResourceDataLookup(attr, size);
  } else if (mlirAttributeIsADenseElements(attr) &&
             !mlirDenseElementsAttrIsSplat(attr)) {
    data = mlirDenseElementsAttrGetRawData(attr);
    *size = kilnWeightTypeBytes(t);
  }
  if (data && *size == kilnWeightTypeBytes(t))
    return data;
  *size = 0;
  return NULL;
}

enum { kInlineBytes = 1024 };

static void freeCopy(void *userData, const void *data, size_t size,
                     size_t align) {
  (void)data, (void)size, (void)align;
  kilnResourceDataForget(userData);
  free(userData);
}

void *kilnWeightBufferCreate(size_t size) {
  /* 64-byte aligned: every element type's alignment, and a vector's. */
  size_t padded = (size + 63) / 64 * 64;
  void *buffer = aligned_alloc(64, padded ? padded : 64);
  if (!buffer)
    abort();
  memset(buffer, 0, padded);
  return buffer;
}

MlirAttribute kilnWeightFromOwnedBuffer(MlirType type, void *buffer,
                                        size_t size) {
  if (size != kilnWeightTypeBytes(type) || !size) {
    free(buffer);
    return mlirAttributeGetNull();
  }
  /* Small weights inline (readable in the IR), large ones as resources,
   * as the importer stores initializers. */
  if (size <= kInlineBytes) {
    MlirAttribute a = mlirDenseElementsAttrRawBufferGet(type, size, buffer);
    free(buffer);
    return a;
  }
  MlirAttribute a = mlirUnmanagedDenseResourceElementsAttrGet(
      type, mlirStringRefCreateFromCString("kiln_weight"), buffer, size, 64,
      false, freeCopy, buffer);
  kilnResourceDataRegister(a, buffer, size);
  return a;
}

MlirAttribute kilnWeightFromBytes(MlirType type, const void *data,
                                  size_t size) {
  if (size != kilnWeightTypeBytes(type) || !size)
    return mlirAttributeGetNull();
  void *copy = kilnWeightBufferCreate(size);
  memcpy(copy, data, size);
  return kilnWeightFromOwnedBuffer(type, copy, size);
}

MlirAttribute kilnWeightReshaped(MlirAttribute attr, MlirType type) {
  if (mlirTypeEqual(mlirAttributeGetType(attr), type))
    return attr;
  size_t size;
  const void *data = kilnWeightBytes(attr, &size);
  return data ? kilnWeightFromBytes(type, data, size) : mlirAttributeGetNull();
}

MlirAttribute kilnWeightSliced(MlirAttribute attr, MlirType whole,
                               const int64_t *offsets, MlirType slice) {
  if (mlirAttributeIsADenseElements(attr) && mlirDenseElementsAttrIsSplat(attr))
    return mlirDenseElementsAttrSplatGet(
        slice, mlirDenseElementsAttrGetSplatValue(attr));
  size_t size;
  const char *src = kilnWeightBytes(attr, &size);
  intptr_t rank = mlirShapedTypeGetRank(whole);
  if (!src || size != kilnWeightTypeBytes(whole) || rank < 1 ||
      rank != mlirShapedTypeGetRank(slice))
    return mlirAttributeGetNull();
  /* Row by row of the innermost dim: `at` counts the slice's outer
   * indices in row-major order. */
  size_t elem = kilnWeightElementBytes(whole);
  int64_t rowLen = mlirShapedTypeGetDimSize(slice, rank - 1);
  size_t rows =
      kilnWeightTypeBytes(slice) / elem / (size_t)(rowLen ? rowLen : 1);
  char *dst = kilnWeightBufferCreate(kilnWeightTypeBytes(slice));
  for (size_t at = 0; at < rows && rowLen; ++at) {
    size_t rest = at, from = 0, stride = 1;
    for (intptr_t d = rank - 1; d >= 0; --d) {
      int64_t n = mlirShapedTypeGetDimSize(slice, d);
      size_t index = (size_t)offsets[d];
      if (d < rank - 1) {
        index += rest % (size_t)n;
        rest /= (size_t)n;
      }
      from += index * stride;
      stride *= (size_t)mlirShapedTypeGetDimSize(whole, d);
    }
    memcpy(dst + at * (size_t)rowLen * elem, src + from * elem,
           (size_t)rowLen * elem);
  }
  return kilnWeightFromOwnedBuffer(slice, dst, kilnWeightTypeBytes(slice));
}

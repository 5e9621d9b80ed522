/* Constant tensors for the lowerings: weights as flat 1-D constants plus a
 * reshape (docs/graph-to-linalg.md: multi-dimensional constants become
 * nested LLVM arrays, which are an order of magnitude slower to
 * translate). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower.h"
#include "support/ir_build.h"
#include "support/resource_data.h"

static void freeBlob(void *userData, const void *data, size_t size,
                     size_t align) {
  (void)data;
  (void)size;
  (void)align;
  kilnResourceDataForget(userData);
  free(userData);
}

/* A resource attribute of type `flatType` sharing the registered buffer
 * of `attr` (the same row-major bytes, another shape), or a null attribute
 * if `attr`'s buffer is unknown. The alias has no deleter: the buffer
 * belongs to `attr`'s blob, which lives as long as the context. */
static MlirAttribute aliasResource(MlirAttribute attr, MlirType flatType,
                                   size_t width) {
  size_t size;
  const void *data = kilnResourceDataLookup(attr, &size);
  /* The alignment of a copy (which MLIR prints with the blob). */
  size_t align = width < 8 ? 8 : width;
  if (!data || !width || size != (size_t)kilnNumElements(flatType) * width ||
      (uintptr_t)data % align)
    return mlirAttributeGetNull();
  MlirAttribute alias = mlirUnmanagedDenseResourceElementsAttrGet(
      flatType, mlirStringRefCreateFromCString("kiln_weight"), (void *)data,
      size, align, false, NULL, NULL);
  kilnResourceDataRegister(alias, data, size);
  return alias;
}

/* Copies the elements of a dense-resource attribute into a new, owned 1-D
 * dense-resource attribute of type `flatType`. The C API exposes resource
 * elements one at a time only, hence the loop. Returns a null attribute for
 * element types the C API cannot read. */
static MlirAttribute flattenResource(MlirAttribute attr, MlirType flatType) {
  MlirType elt = mlirShapedTypeGetElementType(flatType);
  int64_t n = kilnNumElements(flatType);
  size_t width;
  if (mlirTypeIsAF32(elt))
    width = 4;
  else if (mlirTypeIsAF64(elt))
    width = 8;
  else if (mlirTypeIsAInteger(elt))
    width = mlirIntegerTypeGetWidth(elt) == 1
                ? 1
                : (size_t)mlirIntegerTypeGetWidth(elt) / 8;
  else if (mlirTypeIsAF16(elt) || mlirTypeIsABF16(elt))
    width = 2;
  else
    return mlirAttributeGetNull();
  MlirAttribute alias = aliasResource(attr, flatType, width);
  if (!mlirAttributeIsNull(alias))
    return alias;
  /* The C API reads no 16-bit float resource elements: those weights are
   * aliased (imported ones always are) or unsupported. */
  if (mlirTypeIsAF16(elt) || mlirTypeIsABF16(elt))
    return mlirAttributeGetNull();
  void *buf = malloc(n ? (size_t)n * width : 1);
  if (!buf)
    abort();
  unsigned bits = mlirTypeIsAInteger(elt) ? mlirIntegerTypeGetWidth(elt) : 0;
  for (int64_t i = 0; i < n; ++i) {
    if (mlirTypeIsAF32(elt)) {
      float v = mlirDenseFloatResourceElementsAttrGetValue(attr, i);
      memcpy((char *)buf + 4 * i, &v, 4);
    } else if (mlirTypeIsAF64(elt)) {
      double v = mlirDenseDoubleResourceElementsAttrGetValue(attr, i);
      memcpy((char *)buf + 8 * i, &v, 8);
    } else if (bits == 1) {
      ((uint8_t *)buf)[i] = mlirDenseBoolResourceElementsAttrGetValue(attr, i);
    } else if (bits == 8) {
      ((int8_t *)buf)[i] = mlirDenseInt8ResourceElementsAttrGetValue(attr, i);
    } else if (bits == 16) {
      int16_t v = mlirDenseInt16ResourceElementsAttrGetValue(attr, i);
      memcpy((char *)buf + 2 * i, &v, 2);
    } else if (bits == 32) {
      int32_t v = mlirDenseInt32ResourceElementsAttrGetValue(attr, i);
      memcpy((char *)buf + 4 * i, &v, 4);
    } else if (bits == 64) {
      int64_t v = mlirDenseInt64ResourceElementsAttrGetValue(attr, i);
      memcpy((char *)buf + 8 * i, &v, 8);
    } else {
      free(buf);
      return mlirAttributeGetNull();
    }
  }
  MlirAttribute flat = mlirUnmanagedDenseResourceElementsAttrGet(
      flatType, mlirStringRefCreateFromCString("kiln_weight"), buf,
      (size_t)n * width, width < 8 ? 8 : width, false, freeBlob, buf);
  kilnResourceDataRegister(flat, buf, (size_t)n * width);
  return flat;
}

/* Element i of a dense or dense-resource f32 attribute. */
static float f32Element(MlirAttribute attr, intptr_t i) {
  if (mlirAttributeIsADenseResourceElements(attr))
    return mlirDenseFloatResourceElementsAttrGetValue(attr, i);
  return mlirDenseElementsAttrGetFloatValue(attr, i);
}

/* Whether `elements` is a constant whose values the helpers below read. */
static bool isDenseConstant(MlirAttribute elements) {
  return !mlirAttributeIsNull(elements) &&
         (mlirAttributeIsADenseElements(elements) ||
          mlirAttributeIsADenseResourceElements(elements));
}

/* A cols x rows weight resource of `elt` owning `buf` (`size` bytes). */
static MlirAttribute transposedWeightOwned(int64_t cols, int64_t rows,
                                           MlirType elt, void *buf,
                                           size_t size) {
  int64_t shape[2] = {cols, rows};
  MlirType type =
      mlirRankedTensorTypeGet(2, shape, elt, mlirAttributeGetNull());
  MlirAttribute t = mlirUnmanagedDenseResourceElementsAttrGet(
      type, mlirStringRefCreateFromCString("kiln_weight"), buf, size, 8, false,
      freeBlob, buf);
  kilnResourceDataRegister(t, buf, size);
  return t;
}

MlirAttribute kilnTransposedMatrix(MlirAttribute elements, int64_t index) {
  if (!isDenseConstant(elements))
    return mlirAttributeGetNull();
  MlirType type = mlirAttributeGetType(elements);
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (rank < 2 || rank > 3 || !mlirShapedTypeHasStaticShape(type) ||
      !mlirTypeIsAF32(mlirShapedTypeGetElementType(type)))
    return mlirAttributeGetNull();
  int64_t count = rank == 3 ? mlirShapedTypeGetDimSize(type, 0) : 1;
  if (index < 0 || index >= count)
    return mlirAttributeGetNull();
  int64_t rows = mlirShapedTypeGetDimSize(type, rank - 2);
  int64_t cols = mlirShapedTypeGetDimSize(type, rank - 1);
  bool splat = mlirAttributeIsADenseElements(elements) &&
               mlirDenseElementsAttrIsSplat(elements);
  float *buf = malloc(rows * cols ? (size_t)(rows * cols) * 4 : 4);
  if (!buf)
    abort();
  int64_t base = index * rows * cols;
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c)
      buf[c * rows + r] = f32Element(elements, splat ? 0 : base + r * cols + c);
  return transposedWeightOwned(cols, rows, mlirShapedTypeGetElementType(type),
                               buf, (size_t)(rows * cols) * 4);
}

/* Element i of a dense or dense-resource f32 or f64 attribute. */
static double floatElement(MlirAttribute attr, bool f64, intptr_t i) {
  if (!f64)
    return f32Element(attr, i);
  if (mlirAttributeIsADenseResourceElements(attr))
    return mlirDenseDoubleResourceElementsAttrGetValue(attr, i);
  return mlirDenseElementsAttrGetDoubleValue(attr, i);
}

MlirAttribute kilnTransposedRows(MlirAttribute elements, int64_t stride) {
  if (!isDenseConstant(elements))
    return mlirAttributeGetNull();
  MlirType type = mlirAttributeGetType(elements);
  MlirType elt = mlirShapedTypeGetElementType(type);
  bool f64 = mlirTypeIsAF64(elt);
  if (mlirShapedTypeGetRank(type) < 2 || !mlirShapedTypeHasStaticShape(type) ||
      !(f64 || mlirTypeIsAF32(elt)))
    return mlirAttributeGetNull();
  int64_t rows = mlirShapedTypeGetDimSize(type, 0);
  int64_t cols = rows ? kilnNumElements(type) / rows : 0;
  if (stride < rows)
    return mlirAttributeGetNull();
  size_t width = f64 ? 8 : 4, size = (size_t)(stride * cols) * width;
  bool splat = mlirAttributeIsADenseElements(elements) &&
               mlirDenseElementsAttrIsSplat(elements);
  char *buf = calloc(size ? size : 8, 1);
  if (!buf)
    abort();
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      double v = floatElement(elements, f64, splat ? 0 : r * cols + c);
      float f = (float)v;
      memcpy(buf + (size_t)(c * stride + r) * width, f64 ? (void *)&v : &f,
             width);
    }
  return transposedWeightOwned(cols, stride, elt, buf, size);
}

MlirValue kilnConstantTensor(KilnBuilder *b, MlirAttribute elements) {
  MlirType type = mlirAttributeGetType(elements);
  MlirType elt = mlirShapedTypeGetElementType(type);
  int64_t n = kilnNumElements(type);
  MlirType flatType = kilnTensorType(1, &n, elt);
  MlirAttribute flat;
  if (mlirAttributeIsADenseElements(elements))
    flat = mlirDenseElementsAttrReshapeGet(elements, flatType);
  else if (mlirAttributeIsADenseResourceElements(elements))
    flat = flattenResource(elements, flatType);
  else
    flat = mlirAttributeGetNull();
  if (mlirAttributeIsNull(flat))
    return (MlirValue){NULL};
  MlirNamedAttribute value = kilnNamedAttr(b->ctx, "value", flat);
  MlirValue c = kilnBuildOp1(b, "arith.constant", flatType, 0, NULL, 1, &value);
  return kilnReshape(b, c, type);
}

MlirValue kilnConstantI64s(KilnBuilder *b, intptr_t rank, const int64_t *shape,
                           const int64_t *values, MlirType elementType) {
  MlirType type = kilnTensorType(rank, shape, elementType);
  int64_t n = kilnNumElements(type);
  MlirAttribute *elts = malloc((n ? n : 1) * sizeof(MlirAttribute));
  if (!elts)
    abort();
  for (int64_t i = 0; i < n; ++i)
    elts[i] =
        kilnTypeIsFloat(elementType)
            ? mlirFloatAttrDoubleGet(b->ctx, elementType, (double)values[i])
            : mlirIntegerAttrGet(elementType,
                                 mlirIntegerTypeGetWidth(elementType) == 1
                                     ? values[i] != 0
                                     : values[i]);
  MlirAttribute attr = mlirDenseElementsAttrGet(type, n, elts);
  free(elts);
  return kilnConstantTensor(b, attr);
}

/* ---- Shape vectors ------------------------------------------------------- */

bool kilnIsShapeVector(MlirType t) {
  if (!kilnTypeIsStaticTensor(t) || mlirShapedTypeGetRank(t) > 1 ||
      kilnNumElements(t) > KILN_MAX_RANK)
    return false;
  MlirType elt = mlirShapedTypeGetElementType(t);
  return mlirTypeIsAInteger(elt) && mlirIntegerTypeIsSignless(elt);
}

MlirValue kilnShapeVectorElement(KilnBuilder *b, MlirValue v, intptr_t k) {
  MlirType t = mlirValueGetType(v);
  MlirValue at = kilnConstIndex(b, kilnNumElements(t) == 1 ? 0 : k);
  return kilnExtract(b, v, mlirShapedTypeGetRank(t), &at);
}

MlirValue kilnShapeVectorFrom(KilnBuilder *b, MlirType type,
                              const MlirValue *elements) {
  return kilnBuildOp1(b, "tensor.from_elements", type, kilnNumElements(type),
                      elements, 0, NULL);
}

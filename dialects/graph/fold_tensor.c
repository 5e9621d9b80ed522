/* Host-side tensors for the folding passes (see fold_tensor.h). */
#include "dialects/graph/fold_tensor.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "runtime/half.h"

/*===--------------------------------------------------------------------===*
 * Element types
 *===--------------------------------------------------------------------===*/

bool kilnFoldElementTypeSupported(MlirType elt) {
  if (mlirTypeIsAF32(elt) || mlirTypeIsAF64(elt) || mlirTypeIsAF16(elt) ||
      mlirTypeIsABF16(elt))
    return true;
  if (!mlirTypeIsAInteger(elt))
    return false;
  unsigned w = mlirIntegerTypeGetWidth(elt);
  return w == 1 || w == 8 || w == 16 || w == 32 || w == 64;
}

double kilnFoldRoundFloat(MlirType elt, double v) {
  if (mlirTypeIsAF64(elt))
    return v;
  if (mlirTypeIsAF16(elt))
    return kilnHalfToFloat(kilnFloatToHalf((float)v));
  if (mlirTypeIsABF16(elt))
    return kilnBF16ToFloat(kilnFloatToBF16((float)v));
  return (float)v;
}

int64_t kilnFoldWrapInt(MlirType elt, int64_t v) {
  unsigned width = mlirIntegerTypeGetWidth(elt);
  if (width >= 64)
    return v;
  if (width <= 1)
    return v & 1;
  uint64_t u = (uint64_t)v, mask = ((uint64_t)1 << width) - 1;
  if (mlirIntegerTypeIsUnsigned(elt))
    return (int64_t)(u & mask);
  uint64_t sign = (uint64_t)1 << (width - 1);
  return (int64_t)(((u & mask) ^ sign) - sign);
}

/*===--------------------------------------------------------------------===*
 * Tensors
 *===--------------------------------------------------------------------===*/

bool kilnFoldTensorCreate(MlirType type, intptr_t maxElements,
                          KilnFoldTensor *t) {
  memset(t, 0, sizeof(*t));
  if (!mlirTypeIsARankedTensor(type) ||
      mlirShapedTypeGetRank(type) > KILN_MAX_RANK ||
      !kilnFoldElementTypeSupported(mlirShapedTypeGetElementType(type)))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(type), n = 1;
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t dim = mlirShapedTypeGetDimSize(type, d);
    if (mlirShapedTypeIsDynamicSize(dim) || dim < 0 ||
        (dim > 0 && n > maxElements / dim))
      return false;
    n *= (intptr_t)dim;
    t->shape[d] = dim;
  }
  if (n > maxElements)
    return false;
  t->data = malloc((size_t)(n ? n : 1) * sizeof(KilnFoldSlot));
  if (!t->data)
    abort(); /* out of memory is not a user error */
  t->type = type;
  t->elt = mlirShapedTypeGetElementType(type);
  t->isFloat = !mlirTypeIsAInteger(t->elt);
  t->rank = rank;
  t->n = n;
  return true;
}

void kilnFoldTensorDestroy(KilnFoldTensor *t) {
  free(t->data);
  memset(t, 0, sizeof(*t));
}

/* Element `i` of a DenseElementsAttr (a splat reads element 0). */
static KilnFoldSlot readDense(MlirAttribute a, MlirType elt, intptr_t i,
                              const void *raw) {
  KilnFoldSlot s;
  if (mlirDenseElementsAttrIsSplat(a))
    i = 0;
  if (mlirTypeIsAF32(elt)) {
    s.f = mlirDenseElementsAttrGetFloatValue(a, i);
  } else if (mlirTypeIsAF64(elt)) {
    s.f = mlirDenseElementsAttrGetDoubleValue(a, i);
  } else if (mlirTypeIsAF16(elt) || mlirTypeIsABF16(elt)) {
    uint16_t h;
    memcpy(&h, (const char *)raw + 2 * i, 2);
    s.f = mlirTypeIsAF16(elt) ? kilnHalfToFloat(h) : kilnBF16ToFloat(h);
  } else if (mlirIntegerTypeGetWidth(elt) == 1) {
    s.i = mlirDenseElementsAttrGetBoolValue(a, i);
  } else {
    unsigned bytes = mlirIntegerTypeGetWidth(elt) / 8;
    uint64_t u = 0;
    memcpy(&u, (const char *)raw + (size_t)i * bytes, bytes); /* LE host */
    s.i = kilnFoldWrapInt(elt, (int64_t)u);
  }
  return s;
}

/* Element `i` of a DenseResourceElementsAttr; false for element types the
 * C API cannot read from resources (f16, bf16). */
static bool readResource(MlirAttribute a, MlirType elt, intptr_t i,
                         KilnFoldSlot *s) {
  if (mlirTypeIsAF32(elt)) {
    s->f = mlirDenseFloatResourceElementsAttrGetValue(a, i);
    return true;
  }
  if (mlirTypeIsAF64(elt)) {
    s->f = mlirDenseDoubleResourceElementsAttrGetValue(a, i);
    return true;
  }
  if (!mlirTypeIsAInteger(elt))
    return false;
  bool u = mlirIntegerTypeIsUnsigned(elt);
  switch (mlirIntegerTypeGetWidth(elt)) {
  case 1:
    s->i = mlirDenseBoolResourceElementsAttrGetValue(a, i);
    return true;
  case 8:
    s->i = u ? (int64_t)mlirDenseUInt8ResourceElementsAttrGetValue(a, i)
             : (int64_t)mlirDenseInt8ResourceElementsAttrGetValue(a, i);
    return true;
  case 16:
    s->i = u ? (int64_t)mlirDenseUInt16ResourceElementsAttrGetValue(a, i)
             : (int64_t)mlirDenseInt16ResourceElementsAttrGetValue(a, i);
    return true;
  case 32:
    s->i = u ? (int64_t)mlirDenseUInt32ResourceElementsAttrGetValue(a, i)
             : (int64_t)mlirDenseInt32ResourceElementsAttrGetValue(a, i);
    return true;
  case 64:
    s->i = u ? (int64_t)mlirDenseUInt64ResourceElementsAttrGetValue(a, i)
             : mlirDenseInt64ResourceElementsAttrGetValue(a, i);
    return true;
  default:
    return false;
  }
}

bool kilnFoldTensorRead(MlirAttribute value, intptr_t maxElements,
                        KilnFoldTensor *t) {
  memset(t, 0, sizeof(*t));
  if (mlirAttributeIsNull(value))
    return false;
  bool dense = mlirAttributeIsADenseElements(value);
  if (!dense && !mlirAttributeIsADenseResourceElements(value))
    return false; /* e.g. strings */
  if (!kilnFoldTensorCreate(mlirAttributeGetType(value), maxElements, t))
    return false;
  if (dense) {
    const void *raw = mlirDenseElementsAttrGetRawData(value);
    for (intptr_t i = 0; i < t->n; ++i)
      t->data[i] = readDense(value, t->elt, i, raw);
    return true;
  }
  for (intptr_t i = 0; i < t->n; ++i) {
    if (!readResource(value, t->elt, i, &t->data[i])) {
      kilnFoldTensorDestroy(t);
      return false;
    }
  }
  return true;
}

MlirAttribute kilnFoldConstantValue(MlirValue v) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v))
    return mlirAttributeGetNull();
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(def)),
                           "graph.constant"))
    return mlirAttributeGetNull();
  return mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
}

MlirAttribute kilnFoldTensorToAttr(const KilnFoldTensor *t) {
  MlirType elt = t->elt;
  intptr_t n = t->n;
  /* A splat: MLIR stores one element for a raw buffer of one element. */
  bool splat = n > 1;
  for (intptr_t i = 1; splat && i < n; ++i)
    splat = !memcmp(&t->data[i], &t->data[0], sizeof(KilnFoldSlot));
  if (mlirTypeIsAInteger(elt) && mlirIntegerTypeGetWidth(elt) == 1) {
    int *bits = malloc((size_t)(n ? n : 1) * sizeof(int));
    if (!bits)
      abort();
    for (intptr_t i = 0; i < n; ++i)
      bits[i] = t->data[i].i != 0;
    MlirAttribute a = mlirDenseElementsAttrBoolGet(t->type, n, bits);
    free(bits);
    return a;
  }
  size_t bytes = mlirTypeIsAInteger(elt) ? mlirIntegerTypeGetWidth(elt) / 8
                 : mlirTypeIsAF64(elt)   ? 8
                 : mlirTypeIsAF32(elt)   ? 4
                                         : 2;
  unsigned char *buf = malloc((size_t)(n ? n : 1) * bytes);
  if (!buf)
    abort();
  for (intptr_t i = 0; i < (splat ? 1 : n); ++i) {
    unsigned char *p = buf + (size_t)i * bytes;
    if (mlirTypeIsAF64(elt)) {
      memcpy(p, &t->data[i].f, 8);
    } else if (mlirTypeIsAF32(elt)) {
      float f = (float)t->data[i].f;
      memcpy(p, &f, 4);
    } else if (mlirTypeIsAF16(elt) || mlirTypeIsABF16(elt)) {
      float f = (float)t->data[i].f;
      uint16_t h =
          mlirTypeIsAF16(elt) ? kilnFloatToHalf(f) : kilnFloatToBF16(f);
      memcpy(p, &h, 2);
    } else {
      uint64_t u = (uint64_t)t->data[i].i;
      memcpy(p, &u, bytes); /* little-endian host: the low bytes */
    }
  }
  MlirAttribute a = mlirDenseElementsAttrRawBufferGet(
      t->type, (size_t)(splat ? 1 : n) * bytes, buf);
  free(buf);
  return a;
}

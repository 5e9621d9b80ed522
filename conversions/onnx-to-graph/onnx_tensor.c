/* ONNX TensorProto -> DenseElementsAttr.
 *
 * A tensor's values come either as little-endian `raw_data` (which may be
 * unaligned inside the protobuf buffer, hence memcpy) or in a typed field
 * (float_data, double_data, int64_data, and int32_data for every type of 32
 * bits or fewer, FLOAT16 as its bit pattern). Both are decoded into one
 * native-typed buffer, then handed to the typed mlir-c getter. Kiln runs on
 * little-endian hosts only, so raw_data is copied as is. */
#include "conversions/onnx-to-graph/onnx_tensor.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/common/diag.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* Bytes per element in raw_data; 0 for data types Kiln does not import. */
static size_t elementSize(int32_t dt) {
  switch (dt) {
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT8:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8:
  case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL:
    return 1;
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16:
    return 2;
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
    return 4;
  case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE:
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    return 8;
  default:
    return 0;
  }
}

MlirType kilnOnnxElementType(MlirContext ctx, int32_t dt) {
  switch (dt) {
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
    return mlirF32TypeGet(ctx);
  case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE:
    return mlirF64TypeGet(ctx);
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16:
    return mlirF16TypeGet(ctx);
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT8:
    return mlirIntegerTypeGet(ctx, 8);
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8: /* the dialect spells it ui8 */
    return mlirIntegerTypeUnsignedGet(ctx, 8);
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
    return mlirIntegerTypeGet(ctx, 32);
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    return mlirIntegerTypeGet(ctx, 64);
  case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL:
    return mlirIntegerTypeGet(ctx, 1);
  default:
    return (MlirType){NULL};
  }
}

const char *kilnOnnxDataTypeName(int32_t dt, char *scratch) {
  const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(
      &onnx__tensor_proto__data_type__descriptor, dt);
  if (v)
    return v->name;
  snprintf(scratch, 32, "data type %d", (int)dt);
  return scratch;
}

/* Copies the typed field holding `n` values of `t` into `buf` (n elements of
 * elementSize(dt) bytes). False if that field has another count. */
static bool decodeTypedField(const Onnx__TensorProto *t, int32_t dt, size_t n,
                             unsigned char *buf) {
  switch (dt) {
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
    if (t->n_float_data != n)
      return false;
    memcpy(buf, t->float_data, n * sizeof(float));
    return true;
  case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE:
    if (t->n_double_data != n)
      return false;
    memcpy(buf, t->double_data, n * sizeof(double));
    return true;
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    if (t->n_int64_data != n)
      return false;
    memcpy(buf, t->int64_data, n * sizeof(int64_t));
    return true;
  default: /* every narrower type travels in int32_data */
    if (t->n_int32_data != n)
      return false;
    for (size_t i = 0; i < n; ++i) {
      int32_t v = t->int32_data[i];
      if (elementSize(dt) == 1)
        buf[i] = (unsigned char)v;
      else if (elementSize(dt) == 2) {
        uint16_t h = (uint16_t)v;
        memcpy(buf + 2 * i, &h, 2);
      } else
        memcpy(buf + 4 * i, &v, 4);
    }
    return true;
  }
}

/* Builds the attribute from decoded values. */
static MlirAttribute buildAttr(MlirType type, int32_t dt, size_t n,
                               const unsigned char *buf) {
  intptr_t count = (intptr_t)n;
  switch (dt) {
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
    return mlirDenseElementsAttrFloatGet(type, count, (const float *)buf);
  case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE:
    return mlirDenseElementsAttrDoubleGet(type, count, (const double *)buf);
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16:
    return mlirDenseElementsAttrFloat16Get(type, count, (const uint16_t *)buf);
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT8:
    return mlirDenseElementsAttrInt8Get(type, count, (const int8_t *)buf);
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8:
    return mlirDenseElementsAttrUInt8Get(type, count, buf);
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
    return mlirDenseElementsAttrInt32Get(type, count, (const int32_t *)buf);
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    return mlirDenseElementsAttrInt64Get(type, count, (const int64_t *)buf);
  default: { /* BOOL: the getter takes one int per element */
    int *bits = malloc((n ? n : 1) * sizeof(int));
    if (!bits)
      abort();
    for (size_t i = 0; i < n; ++i)
      bits[i] = buf[i] != 0;
    MlirAttribute a = mlirDenseElementsAttrBoolGet(type, count, bits);
    free(bits);
    return a;
  }
  }
}

/* The element count of `t`, or false (after an error) on negative or
 * overflowing dims. */
static bool elementCount(const Onnx__TensorProto *t, size_t elemSize,
                         MlirLocation loc, const char *what, size_t *n) {
  size_t count = 1;
  for (size_t i = 0; i < t->n_dims; ++i) {
    int64_t d = t->dims[i];
    if (d < 0 || (d > 0 && count > SIZE_MAX / 2 / elemSize / (uint64_t)d)) {
      kilnEmitErrorf(loc, "%s has an invalid dimension %lld", what,
                     (long long)d);
      return false;
    }
    count *= (size_t)d;
  }
  *n = count;
  return true;
}

MlirAttribute kilnOnnxTensorToAttr(MlirContext ctx, const Onnx__TensorProto *t,
                                   MlirLocation loc, const char *what) {
  MlirAttribute result = {NULL};
  char scratch[32];
  int32_t dt = t->has_data_type ? t->data_type : 0;
  size_t size = elementSize(dt);
  if (size == 0) {
    kilnEmitErrorf(loc, "%s has element type %s, which Kiln does not import",
                   what, kilnOnnxDataTypeName(dt, scratch));
    return result;
  }
  if (t->has_data_location &&
      t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL) {
    kilnEmitErrorf(loc, "%s is stored in external data, not supported yet",
                   what);
    return result;
  }
  size_t n;
  if (!elementCount(t, size, loc, what, &n))
    return result;
  unsigned char *buf = malloc(n ? n * size : 1);
  if (!buf)
    abort();
  if (t->has_raw_data) {
    if (t->raw_data.len != n * size) {
      kilnEmitErrorf(loc, "%s has %zu bytes of raw_data, expected %zu", what,
                     t->raw_data.len, n * size);
      goto out;
    }
    if (n)
      memcpy(buf, t->raw_data.data, n * size);
  } else if (!decodeTypedField(t, dt, n, buf)) {
    kilnEmitErrorf(loc,
                   "%s: the number of values does not match its %zu "
                   "elements",
                   what, n);
    goto out;
  }
  int64_t *shape = malloc((t->n_dims ? t->n_dims : 1) * sizeof(int64_t));
  if (!shape)
    abort();
  for (size_t i = 0; i < t->n_dims; ++i)
    shape[i] = t->dims[i];
  MlirType type = mlirRankedTensorTypeGet((intptr_t)t->n_dims, shape,
                                          kilnOnnxElementType(ctx, dt),
                                          mlirAttributeGetNull());
  free(shape);
  result = buildAttr(type, dt, n, buf);
out:
  free(buf);
  return result;
}

/* ONNX TensorProto -> elements attributes.
 *
 * A tensor's values come as little-endian `raw_data` (which may be
 * unaligned inside the protobuf buffer, hence memcpy), in an external file
 * (external_data.h), or in a typed field: float_data, double_data,
 * int64_data, uint64_data (UINT32, UINT64) and int32_data for every other
 * type of 32 bits or fewer (FLOAT16 and BFLOAT16 as bit patterns). All are
 * decoded into one little-endian buffer handed to MLIR as a raw buffer.
 * Kiln runs on little-endian hosts only, so raw_data is used as is.
 *
 * Weights dominate a model's size, and protobuf-c already holds a private
 * copy of each raw_data: large float initializers hand that buffer to MLIR
 * as a DenseResourceElementsAttr instead of copying it again. */
#include "conversions/onnx-to-graph/onnx_tensor.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/onnx-to-graph/external_data.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/resource_data.h"

/* Bytes per element in raw_data; 0 for data types Kiln does not import. */
static size_t elementSize(int32_t dt) {
  switch (dt) {
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT8:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8:
  case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL:
    return 1;
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16:
  case ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16:
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT16:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT16:
    return 2;
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32:
    return 4;
  case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE:
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64:
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
  case ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16:
    return mlirBF16TypeGet(ctx);
  case ONNX__TENSOR_PROTO__DATA_TYPE__BOOL:
    return mlirIntegerTypeGet(ctx, 1);
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT8:
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT16:
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT32:
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    return mlirIntegerTypeGet(ctx, 8 * (unsigned)elementSize(dt));
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT8: /* the dialect spells it uiN */
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT16:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64:
    return mlirIntegerTypeUnsignedGet(ctx, 8 * (unsigned)elementSize(dt));
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

static bool isFloat(int32_t dt) {
  return dt == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT ||
         dt == ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE ||
         dt == ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT16 ||
         dt == ONNX__TENSOR_PROTO__DATA_TYPE__BFLOAT16;
}

/* The number of values in the typed field that holds `t`'s data type. */
static size_t typedFieldCount(const Onnx__TensorProto *t, int32_t dt) {
  switch (dt) {
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
    return t->n_float_data;
  case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE:
    return t->n_double_data;
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    return t->n_int64_data;
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64:
    return t->n_uint64_data;
  default: /* every other type of 32 bits or fewer travels in int32_data */
    return t->n_int32_data;
  }
}

/* Copies the typed field of `t`, which holds `n` values (checked by the
 * caller with typedFieldCount), into `buf` (n elements of elementSize(dt)
 * bytes). */
static void decodeTypedField(const Onnx__TensorProto *t, int32_t dt, size_t n,
                             unsigned char *buf) {
  size_t size = elementSize(dt);
  if (n == 0)
    return; /* the field's pointer may be NULL */
  switch (dt) {
  case ONNX__TENSOR_PROTO__DATA_TYPE__FLOAT:
    memcpy(buf, t->float_data, n * sizeof(float));
    return;
  case ONNX__TENSOR_PROTO__DATA_TYPE__DOUBLE:
    memcpy(buf, t->double_data, n * sizeof(double));
    return;
  case ONNX__TENSOR_PROTO__DATA_TYPE__INT64:
    memcpy(buf, t->int64_data, n * sizeof(int64_t));
    return;
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT32:
  case ONNX__TENSOR_PROTO__DATA_TYPE__UINT64:
    for (size_t i = 0; i < n; ++i) {
      uint32_t narrow = (uint32_t)t->uint64_data[i];
      memcpy(buf + size * i, size == 4 ? (void *)&narrow : &t->uint64_data[i],
             size);
    }
    return;
  default:
    for (size_t i = 0; i < n; ++i) {
      int32_t v = t->int32_data[i];
      uint16_t h = (uint16_t)v;
      if (size == 1)
        buf[i] = (unsigned char)v;
      else if (size == 2)
        memcpy(buf + 2 * i, &h, 2);
      else
        memcpy(buf + 4 * i, &v, 4);
    }
    return;
  }
}

/* Builds a DenseElementsAttr from decoded little-endian values. */
static MlirAttribute denseAttr(MlirType type, int32_t dt, size_t n,
                               const unsigned char *buf) {
  if (dt != ONNX__TENSOR_PROTO__DATA_TYPE__BOOL)
    return mlirDenseElementsAttrRawBufferGet(type, n * elementSize(dt), buf);
  int *bits = malloc((n ? n : 1) * sizeof(int)); /* one int per element */
  if (!bits)
    abort();
  for (size_t i = 0; i < n; ++i)
    bits[i] = buf[i] != 0;
  MlirAttribute a = mlirDenseElementsAttrBoolGet(type, (intptr_t)n, bits);
  free(bits);
  return a;
}

static void freeResource(void *userData, const void *data, size_t size,
                         size_t align) {
  (void)userData, (void)size, (void)align;
  kilnResourceDataForget(data);
  free((void *)data);
}

/* A DenseResourceElementsAttr owning malloc'd `buf`, named after `t`. */
static MlirAttribute resourceAttr(MlirType type, const Onnx__TensorProto *t,
                                  size_t bytes, void *buf) {
  const char *name = t->name && *t->name ? t->name : "onnx_tensor";
  MlirAttribute attr = mlirUnmanagedDenseResourceElementsAttrGet(
      type, mlirStringRefCreateFromCString(name), buf, bytes,
      elementSize(t->data_type), false, freeResource, NULL);
  kilnResourceDataRegister(attr, buf, bytes);
  return attr;
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

/* The tensor's `bytes` bytes as a malloc'd buffer: raw_data (taken from
 * `owned` when not NULL), external data or a decoded typed field. NULL
 * after an error. */
static unsigned char *tensorBytes(const Onnx__TensorProto *t,
                                  Onnx__TensorProto *owned, const char *base,
                                  size_t n, size_t bytes, MlirLocation loc,
                                  const char *what) {
  if (t->has_data_location &&
      t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL)
    return kilnOnnxExternalDataRead(t, base, bytes, loc, what);
  if (t->has_raw_data && t->raw_data.len != bytes) {
    kilnEmitErrorf(loc, "%s has %zu bytes of raw_data, expected %zu", what,
                   t->raw_data.len, bytes);
    return NULL;
  }
  if (t->has_raw_data && owned && bytes && owned->raw_data.data) {
    unsigned char *data = owned->raw_data.data;
    owned->raw_data = (ProtobufCBinaryData){0, NULL}; /* ours to free now */
    return data;
  }
  /* Checked before allocating: the dims alone may claim any size. */
  if (!t->has_raw_data && typedFieldCount(t, t->data_type) != n) {
    kilnEmitErrorf(loc,
                   "%s: the number of values does not match its %zu "
                   "elements",
                   what, n);
    return NULL;
  }
  unsigned char *buf = malloc(bytes ? bytes : 1);
  if (!buf)
    abort();
  if (t->has_raw_data) {
    if (bytes)
      memcpy(buf, t->raw_data.data, bytes);
  } else {
    decodeTypedField(t, t->data_type, n, buf);
  }
  return buf;
}

static MlirAttribute convert(MlirContext ctx, const Onnx__TensorProto *t,
                             Onnx__TensorProto *owned, const char *baseDir,
                             MlirLocation loc, const char *what) {
  char scratch[32];
  int32_t dt = t->has_data_type ? t->data_type : 0;
  size_t size = elementSize(dt), n;
  if (size == 0) {
    kilnEmitErrorf(loc, "%s has element type %s, which Kiln does not import",
                   what, kilnOnnxDataTypeName(dt, scratch));
    return mlirAttributeGetNull();
  }
  if (!elementCount(t, size, loc, what, &n))
    return mlirAttributeGetNull();
  unsigned char *buf = tensorBytes(t, owned, baseDir, n, n * size, loc, what);
  if (!buf)
    return mlirAttributeGetNull();
  int64_t *shape = malloc((t->n_dims ? t->n_dims : 1) * sizeof(int64_t));
  if (!shape)
    abort();
  for (size_t i = 0; i < t->n_dims; ++i)
    shape[i] = t->dims[i];
  MlirType type = mlirRankedTensorTypeGet((intptr_t)t->n_dims, shape,
                                          kilnOnnxElementType(ctx, dt),
                                          mlirAttributeGetNull());
  free(shape);
  if (owned && isFloat(dt) && n * size >= KILN_ONNX_RESOURCE_MIN_BYTES)
    return resourceAttr(type, t, n * size, buf); /* takes buf */
  MlirAttribute result = denseAttr(type, dt, n, buf);
  free(buf);
  if (mlirAttributeIsNull(result)) /* MLIR refused the buffer's layout */
    kilnEmitErrorf(loc, "%s: cannot build its elements attribute", what);
  return result;
}

MlirAttribute kilnOnnxTensorToAttr(MlirContext ctx, const Onnx__TensorProto *t,
                                   const char *baseDir, MlirLocation loc,
                                   const char *what) {
  return convert(ctx, t, NULL, baseDir, loc, what);
}

MlirAttribute kilnOnnxTensorTakeToAttr(MlirContext ctx, Onnx__TensorProto *t,
                                       const char *baseDir, MlirLocation loc,
                                       const char *what) {
  MlirAttribute a = convert(ctx, t, t, baseDir, loc, what);
  /* Whatever stayed in the message is no longer needed: release it now so
   * the model and the attributes do not both hold the weights. */
  free(t->raw_data.data);
  t->raw_data = (ProtobufCBinaryData){0, NULL};
  free(t->float_data), t->float_data = NULL, t->n_float_data = 0;
  free(t->int32_data), t->int32_data = NULL, t->n_int32_data = 0;
  free(t->int64_data), t->int64_data = NULL, t->n_int64_data = 0;
  free(t->uint64_data), t->uint64_data = NULL, t->n_uint64_data = 0;
  free(t->double_data), t->double_data = NULL, t->n_double_data = 0;
  return a;
}

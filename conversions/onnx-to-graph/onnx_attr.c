/* ONNX attributes -> MLIR attributes, driven by the graph op table so that
 * the attribute kinds live in one place (dialects/graph/ops_*.c). */
#include "conversions/onnx-to-graph/onnx_attr.h"

#include "conversions/onnx-to-graph/onnx_tensor.h"
#include "dialects/common/diag.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* The ONNX attribute type each spec kind accepts. */
static Onnx__AttributeProto__AttributeType expectedType(KilnAttrKind kind) {
  switch (kind) {
  case KILN_ATTR_INT:
  case KILN_ATTR_TYPE: /* an ONNX data-type code */
    return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT;
  case KILN_ATTR_FLOAT:
    return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT;
  case KILN_ATTR_STRING:
    return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
  case KILN_ATTR_INTS:
    return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS;
  case KILN_ATTR_FLOATS:
    return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS;
  case KILN_ATTR_TENSOR:
    return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR;
  }
  return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
}

static const char *attrTypeName(Onnx__AttributeProto__AttributeType t) {
  const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(
      &onnx__attribute_proto__attribute_type__descriptor, (int)t);
  return v ? v->name : "UNDEFINED";
}

/* The value of `a` as an MLIR attribute; null after an error. */
static MlirAttribute convertValue(MlirContext ctx, const KilnAttrSpec *spec,
                                  const Onnx__AttributeProto *a,
                                  const char *baseDir, MlirLocation loc) {
  switch (spec->kind) {
  case KILN_ATTR_INT:
    return mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), a->i);
  case KILN_ATTR_FLOAT:
    return mlirFloatAttrDoubleGet(ctx, mlirF32TypeGet(ctx), a->f);
  case KILN_ATTR_STRING:
    return mlirStringAttrGet(
        ctx, mlirStringRefCreate((const char *)a->s.data, a->s.len));
  case KILN_ATTR_INTS:
    return mlirDenseI64ArrayGet(ctx, (intptr_t)a->n_ints, a->ints);
  case KILN_ATTR_FLOATS:
    return mlirDenseF32ArrayGet(ctx, (intptr_t)a->n_floats, a->floats);
  case KILN_ATTR_TYPE: {
    MlirType t = a->i >= INT32_MIN && a->i <= INT32_MAX
                     ? kilnOnnxElementType(ctx, (int32_t)a->i)
                     : (MlirType){NULL};
    if (mlirTypeIsNull(t)) {
      char scratch[32];
      kilnEmitErrorf(loc,
                     "attribute '%s': data type %s (%lld) is not imported "
                     "by Kiln",
                     spec->name,
                     kilnOnnxDataTypeName(a->i >= INT32_MIN && a->i <= INT32_MAX
                                              ? (int32_t)a->i
                                              : -1,
                                          scratch),
                     (long long)a->i);
      return mlirAttributeGetNull();
    }
    return mlirTypeAttrGet(t);
  }
  case KILN_ATTR_TENSOR: {
    if (!a->t) {
      kilnEmitErrorf(loc, "attribute '%s' has no tensor", spec->name);
      return mlirAttributeGetNull();
    }
    KilnStrBuf what = {0};
    kilnStrBufAppendf(&what, "attribute '%s'", spec->name);
    MlirAttribute v = kilnOnnxTensorToAttr(ctx, a->t, baseDir, loc, what.data);
    kilnStrBufDestroy(&what);
    return v;
  }
  }
  return mlirAttributeGetNull();
}

bool kilnOnnxConvertAttr(MlirContext ctx, const KilnAttrSpec *spec,
                         const Onnx__AttributeProto *a, const char *baseDir,
                         MlirLocation loc, MlirNamedAttribute *out) {
  Onnx__AttributeProto__AttributeType want = expectedType(spec->kind);
  Onnx__AttributeProto__AttributeType got =
      a->has_type ? a->type : ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
  if (got != want) {
    kilnEmitErrorf(loc, "attribute '%s' is %s, expected %s", spec->name,
                   attrTypeName(got), attrTypeName(want));
    return false;
  }
  MlirAttribute value = convertValue(ctx, spec, a, baseDir, loc);
  if (mlirAttributeIsNull(value))
    return false;
  *out = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(spec->name)),
      value);
  return true;
}

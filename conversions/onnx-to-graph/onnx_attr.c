/* ONNX attributes -> MLIR attributes, driven by the graph op table so that
 * the attribute kinds live in one place (dialects/graph/ops_*.c). */
#include "conversions/onnx-to-graph/onnx_attr.h"

#include <stdlib.h>
#include <string.h>

#include "conversions/onnx-to-graph/onnx_tensor.h"
#include "kiln/diagnostics.h"
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
  case KILN_ATTR_STRINGS:
    return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS;
  }
  return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
}

static const char *attrTypeName(Onnx__AttributeProto__AttributeType t) {
  const ProtobufCEnumValue *v = protobuf_c_enum_descriptor_get_value(
      &onnx__attribute_proto__attribute_type__descriptor, (int)t);
  return v ? v->name : "UNDEFINED";
}

/* STRINGS -> an ArrayAttr of StringAttr. */
static MlirAttribute stringsValue(MlirContext ctx,
                                  const Onnx__AttributeProto *a) {
  size_t n = a->n_strings;
  MlirAttribute *elems = malloc((n ? n : 1) * sizeof(MlirAttribute));
  if (!elems)
    abort();
  for (size_t i = 0; i < n; ++i)
    elems[i] = mlirStringAttrGet(
        ctx, mlirStringRefCreate((const char *)a->strings[i].data,
                                 a->strings[i].len));
  MlirAttribute v = mlirArrayAttrGet(ctx, (intptr_t)n, elems);
  free(elems);
  return v;
}

/* IR v1 attributes have no `type`: exactly one value field says what they
 * are (onnx.proto, and ONNX's checker for IR versions before 2). One row
 * per field, in onnx.proto's order. */
typedef struct ValueField {
  Onnx__AttributeProto__AttributeType type;
  const char *field;
} ValueField;

static const ValueField kValueFields[] = {
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT, "f"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT, "i"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING, "s"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR, "t"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH, "g"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR, "sparse_tensor"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTO, "tp"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS, "floats"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS, "ints"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS, "strings"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSORS, "tensors"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPHS, "graphs"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSORS, "sparse_tensors"},
    {ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTOS, "type_protos"},
};
enum { kNumValueFields = sizeof(kValueFields) / sizeof(kValueFields[0]) };

/* Whether `a` sets the value field of row `i` of kValueFields. */
static bool fieldIsSet(const Onnx__AttributeProto *a, int i) {
  switch (kValueFields[i].type) {
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT:
    return a->has_f;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT:
    return a->has_i;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING:
    return a->has_s;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSOR:
    return a->t != NULL;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH:
    return a->g != NULL;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSOR:
    return a->sparse_tensor != NULL;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTO:
    return a->tp != NULL;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS:
    return a->n_floats > 0;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS:
    return a->n_ints > 0;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRINGS:
    return a->n_strings > 0;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TENSORS:
    return a->n_tensors > 0;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPHS:
    return a->n_graphs > 0;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__SPARSE_TENSORS:
    return a->n_sparse_tensors > 0;
  case ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__TYPE_PROTOS:
    return a->n_type_protos > 0;
  default:
    return false;
  }
}

static bool hasDeclaredType(const Onnx__AttributeProto *a) {
  return a->has_type &&
         a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
}

Onnx__AttributeProto__AttributeType
kilnOnnxAttrType(const Onnx__AttributeProto *a) {
  if (hasDeclaredType(a))
    return a->type;
  Onnx__AttributeProto__AttributeType found =
      ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
  for (int i = 0; i < kNumValueFields; ++i) {
    if (!fieldIsSet(a, i))
      continue;
    if (found != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED)
      return ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED;
    found = kValueFields[i].type;
  }
  return found;
}

bool kilnOnnxAttrCopyKeyword(const Onnx__AttributeProto *a, char *out,
                             size_t size) {
  if (kilnOnnxAttrType(a) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING ||
      a->s.len == 0 || a->s.len >= size)
    return false;
  memcpy(out, a->s.data, a->s.len);
  out[a->s.len] = '\0';
  return true;
}

bool kilnOnnxCheckAttrTypes(const Onnx__NodeProto *n, MlirLocation loc) {
  for (size_t k = 0; k < n->n_attribute; ++k) {
    const Onnx__AttributeProto *a = n->attribute[k];
    if (hasDeclaredType(a) ||
        kilnOnnxAttrType(a) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__UNDEFINED)
      continue;
    KilnStrBuf fields = {0};
    for (int i = 0; i < kNumValueFields; ++i)
      if (fieldIsSet(a, i))
        kilnStrBufAppendf(&fields, "%s'%s'", fields.data ? ", " : "",
                          kValueFields[i].field);
    if (fields.data)
      kilnEmitErrorf(loc,
                     "attribute '%s' has no type and several value fields "
                     "(%s): its type is ambiguous",
                     a->name ? a->name : "", fields.data);
    else
      kilnEmitErrorf(loc,
                     "attribute '%s' has no type and no value (an attribute "
                     "without a type must set exactly one value field)",
                     a->name ? a->name : "");
    kilnStrBufDestroy(&fields);
    return false;
  }
  return true;
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
  case KILN_ATTR_STRINGS:
    return stringsValue(ctx, a);
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
  Onnx__AttributeProto__AttributeType got = kilnOnnxAttrType(a);
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

/* Constant's value attributes (Constant-12 added the scalar and list
 * forms); the last three are refused. */
static const char *const kConstantValues[] = {
    "value",      "value_float",  "value_floats",  "value_int",
    "value_ints", "value_string", "value_strings", "sparse_value"};
enum { kNumConstantValues = 8 };

static int constantValueIndex(const char *name) {
  for (int i = 0; name && i < kNumConstantValues; ++i)
    if (strcmp(name, kConstantValues[i]) == 0)
      return i;
  return -1;
}

/* A dense tensor of `n` values (0-D when `scalar`) of f32 or i64. */
static MlirAttribute constantElements(MlirContext ctx, bool isFloat,
                                      bool scalar, const void *values,
                                      size_t n) {
  int64_t len = (int64_t)n;
  MlirType elem = isFloat ? mlirF32TypeGet(ctx) : mlirIntegerTypeGet(ctx, 64);
  MlirType type = mlirRankedTensorTypeGet(scalar ? 0 : 1, &len, elem,
                                          mlirAttributeGetNull());
  return isFloat ? mlirDenseElementsAttrFloatGet(type, (intptr_t)n, values)
                 : mlirDenseElementsAttrInt64Get(type, (intptr_t)n, values);
}

/* The `value` tensor for Constant's attribute `a` (kConstantValues[which],
 * 1 to 4); null after an error. */
static MlirAttribute constantScalarOrList(MlirContext ctx,
                                          const Onnx__AttributeProto *a,
                                          int which, MlirLocation loc) {
  static const Onnx__AttributeProto__AttributeType kWant[] = {
      ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT,
      ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS,
      ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT,
      ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS};
  Onnx__AttributeProto__AttributeType want = kWant[which - 1];
  Onnx__AttributeProto__AttributeType got = kilnOnnxAttrType(a);
  if (got != want) {
    kilnEmitErrorf(loc, "attribute '%s' is %s, expected %s", a->name,
                   attrTypeName(got), attrTypeName(want));
    return mlirAttributeGetNull();
  }
  switch (which) {
  case 1:
    return constantElements(ctx, true, true, &a->f, 1);
  case 2:
    return constantElements(ctx, true, false, a->floats, a->n_floats);
  case 3:
    return constantElements(ctx, false, true, &a->i, 1);
  default:
    return constantElements(ctx, false, false, a->ints, a->n_ints);
  }
}

/* "'value', 'value_int'": the value attributes `n` sets. */
static void listConstantValues(const Onnx__NodeProto *n, KilnStrBuf *out) {
  for (size_t i = 0; i < n->n_attribute; ++i)
    if (constantValueIndex(n->attribute[i]->name) >= 0)
      kilnStrBufAppendf(out, "%s'%s'", out->data ? ", " : "",
                        n->attribute[i]->name);
}

bool kilnOnnxConvertConstantForms(MlirContext ctx, const Onnx__NodeProto *n,
                                  MlirLocation loc, bool *consumed,
                                  MlirNamedAttribute *attrs,
                                  intptr_t *numAttrs) {
  size_t count = 0, at = 0;
  for (size_t i = 0; i < n->n_attribute; ++i)
    if (constantValueIndex(n->attribute[i]->name) >= 0) {
      ++count;
      at = i;
    }
  if (count != 1) {
    KilnStrBuf given = {0};
    listConstantValues(n, &given);
    kilnEmitErrorf(loc,
                   "Constant needs exactly one of 'value', 'value_float', "
                   "'value_floats', 'value_int', 'value_ints', "
                   "'value_string', 'value_strings', 'sparse_value'; it has "
                   "%s",
                   given.data ? given.data : "none");
    kilnStrBufDestroy(&given);
    return false;
  }
  const Onnx__AttributeProto *a = n->attribute[at];
  int which = constantValueIndex(a->name);
  if (which == 0)
    return true; /* `value` is the op table's TENSOR attribute */
  if (which >= 5) {
    kilnEmitErrorf(loc, "unsupported: Constant with '%s' (Kiln imports no %s)",
                   a->name, which == 7 ? "sparse tensors" : "string tensors");
    return false;
  }
  MlirAttribute value = constantScalarOrList(ctx, a, which, loc);
  if (mlirAttributeIsNull(value))
    return false;
  consumed[at] = true;
  attrs[(*numAttrs)++] = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("value")), value);
  return true;
}

#include "dialects/graph/op_check.h"

#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

const char *kilnGraphAttrKindName(KilnAttrKind kind) {
  switch (kind) {
  case KILN_ATTR_INT:
    return "an i64 integer attribute";
  case KILN_ATTR_FLOAT:
    return "an f32 float attribute";
  case KILN_ATTR_STRING:
    return "a string attribute";
  case KILN_ATTR_INTS:
    return "an array<i64: ...> attribute";
  case KILN_ATTR_FLOATS:
    return "an array<f32: ...> attribute";
  case KILN_ATTR_TYPE:
    return "a type attribute";
  case KILN_ATTR_TENSOR:
    return "a dense elements attribute";
  case KILN_ATTR_STRINGS:
    return "an array of string attributes";
  }
  return "?";
}

/* An ArrayAttr whose elements are all StringAttr (empty is allowed). */
static bool isStringArray(MlirAttribute a) {
  if (!mlirAttributeIsAArray(a))
    return false;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(a); ++i)
    if (!mlirAttributeIsAString(mlirArrayAttrGetElement(a, i)))
      return false;
  return true;
}

static bool attrHasKind(MlirAttribute a, KilnAttrKind kind) {
  switch (kind) {
  case KILN_ATTR_INT:
    return mlirAttributeIsAInteger(a) &&
           mlirTypeIsAInteger(mlirAttributeGetType(a)) &&
           mlirIntegerTypeGetWidth(mlirAttributeGetType(a)) == 64;
  case KILN_ATTR_FLOAT:
    return mlirAttributeIsAFloat(a) && mlirTypeIsAF32(mlirAttributeGetType(a));
  case KILN_ATTR_STRING:
    return mlirAttributeIsAString(a);
  case KILN_ATTR_INTS:
    return mlirAttributeIsADenseI64Array(a);
  case KILN_ATTR_FLOATS:
    return mlirAttributeIsADenseF32Array(a);
  case KILN_ATTR_TYPE:
    return mlirAttributeIsAType(a);
  case KILN_ATTR_TENSOR:
    return mlirAttributeIsADenseElements(a) ||
           mlirAttributeIsADenseResourceElements(a);
  case KILN_ATTR_STRINGS:
    return isStringArray(a);
  }
  return false;
}

static bool isStructuralAttr(MlirStringRef name) {
  return kilnStringRefEquals(name, "operandSegmentSizes") ||
         kilnStringRefEquals(name, "resultSegmentSizes") ||
         memchr(name.data, '.', name.length) != NULL;
}

MlirLogicalResult kilnGraphCheckAttrs(const KilnGraphOpInfo *op,
                                      const MlirNamedAttribute *attrs,
                                      intptr_t numAttrs, MlirLocation loc) {
  for (intptr_t i = 0; i < numAttrs; ++i) {
    MlirStringRef name = mlirIdentifierStr(attrs[i].name);
    if (isStructuralAttr(name))
      continue;
    const KilnAttrSpec *spec = kilnGraphOpFindAttr(op, name);
    if (!spec) {
      kilnEmitErrorf(loc, "'graph.%s' op has unknown attribute '%.*s'",
                     op->name, (int)name.length, name.data);
      return mlirLogicalResultFailure();
    }
    if (!attrHasKind(attrs[i].attribute, spec->kind)) {
      KilnStrBuf buf = {0};
      kilnStrBufAppendAttribute(&buf, attrs[i].attribute);
      kilnEmitErrorf(loc, "'graph.%s' op attribute '%s' must be %s, got %s",
                     op->name, spec->name, kilnGraphAttrKindName(spec->kind),
                     kilnStrBufGet(&buf));
      kilnStrBufDestroy(&buf);
      return mlirLogicalResultFailure();
    }
  }
  for (int s = 0; s < op->numAttrs; ++s) {
    if (!op->attrs[s].required)
      continue;
    bool found = false;
    for (intptr_t i = 0; i < numAttrs && !found; ++i)
      found = kilnStringRefEquals(mlirIdentifierStr(attrs[i].name),
                                  op->attrs[s].name);
    if (!found) {
      kilnEmitErrorf(loc, "'graph.%s' op requires attribute '%s'", op->name,
                     op->attrs[s].name);
      return mlirLogicalResultFailure();
    }
  }
  return mlirLogicalResultSuccess();
}

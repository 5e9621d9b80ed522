/* Attribute-to-operand conversion for older ONNX opsets (opset_compat.h). */
#include "conversions/onnx-to-graph/opset_compat.h"

#include <string.h>

#include "dialects/common/diag.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

typedef enum CompatKind {
  COMPAT_INTS,        /* INTS attribute -> 1-D i64 tensor */
  COMPAT_INPUT_SCALAR /* FLOAT attribute -> 0-D tensor of the input's type */
} CompatKind;

typedef struct CompatEntry {
  const char *opType;
  int lastOpset; /* the last opset in which `attr` is an attribute */
  const char *attr;
  int operand; /* the operand index it became */
  CompatKind kind;
} CompatEntry;

/* Reshape's `shape` attribute ended at opset 5, before the oldest opset Kiln
 * accepts; it is listed so the table reads as ONNX's change log. */
static const CompatEntry kCompat[] = {
    {"Reshape", 4, "shape", 1, COMPAT_INTS},
    {"Squeeze", 12, "axes", 1, COMPAT_INTS},
    {"Unsqueeze", 12, "axes", 1, COMPAT_INTS},
    {"Split", 12, "split", 1, COMPAT_INTS},
    {"Slice", 9, "starts", 1, COMPAT_INTS},
    {"Slice", 9, "ends", 2, COMPAT_INTS},
    {"Slice", 9, "axes", 3, COMPAT_INTS},
    {"Clip", 10, "min", 1, COMPAT_INPUT_SCALAR},
    {"Clip", 10, "max", 2, COMPAT_INPUT_SCALAR},
    {"Pad", 10, "pads", 1, COMPAT_INTS},
    {"Pad", 10, "value", 2, COMPAT_INPUT_SCALAR},
    {"ReduceSum", 12, "axes", 1, COMPAT_INTS},
    {"ReduceMean", 17, "axes", 1, COMPAT_INTS},
    {"ReduceMax", 17, "axes", 1, COMPAT_INTS},
    {"ReduceMin", 17, "axes", 1, COMPAT_INTS},
    {"ReduceProd", 17, "axes", 1, COMPAT_INTS},
    {"ReduceL2", 17, "axes", 1, COMPAT_INTS},
};
enum { kNumCompat = sizeof(kCompat) / sizeof(kCompat[0]) };

static const CompatEntry *findEntry(const char *opType, long long opset,
                                    const char *attr) {
  for (int i = 0; i < kNumCompat; ++i)
    if (opset <= kCompat[i].lastOpset &&
        strcmp(kCompat[i].opType, opType) == 0 &&
        strcmp(kCompat[i].attr, attr) == 0)
      return &kCompat[i];
  return NULL;
}

int kilnOnnxCompatMaxOperand(const char *opType, long long opset) {
  int max = -1;
  for (int i = 0; i < kNumCompat; ++i)
    if (opset <= kCompat[i].lastOpset &&
        strcmp(kCompat[i].opType, opType) == 0 && kCompat[i].operand > max)
      max = kCompat[i].operand;
  return max;
}

/* The constant value for INTS attribute `a`, or null after an error. */
static MlirAttribute intsValue(MlirContext ctx, const Onnx__AttributeProto *a,
                               MlirLocation loc) {
  if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS) {
    kilnEmitErrorf(loc, "attribute '%s' must be a list of ints", a->name);
    return mlirAttributeGetNull();
  }
  int64_t n = (int64_t)a->n_ints;
  MlirType type = mlirRankedTensorTypeGet(1, &n, mlirIntegerTypeGet(ctx, 64),
                                          mlirAttributeGetNull());
  return mlirDenseElementsAttrInt64Get(type, (intptr_t)n, a->ints);
}

/* A 0-D tensor of `input`'s float element type holding FLOAT attribute
 * `a` (Clip's bounds and Pad's value must match the data's type). */
static MlirAttribute scalarValue(MlirValue input, const Onnx__AttributeProto *a,
                                 MlirLocation loc) {
  if (a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT) {
    kilnEmitErrorf(loc, "attribute '%s' must be a float", a->name);
    return mlirAttributeGetNull();
  }
  MlirType t =
      mlirValueIsNull(input) ? (MlirType){NULL} : mlirValueGetType(input);
  MlirType elem = !mlirTypeIsNull(t) && mlirTypeIsAShaped(t)
                      ? mlirShapedTypeGetElementType(t)
                      : (MlirType){NULL};
  if (mlirTypeIsNull(elem) || !mlirTypeIsAFloat(elem)) {
    kilnEmitErrorf(loc,
                   "attribute '%s' needs a floating-point input to take "
                   "its element type from",
                   a->name);
    return mlirAttributeGetNull();
  }
  MlirType type =
      mlirRankedTensorTypeGet(0, NULL, elem, mlirAttributeGetNull());
  return mlirDenseElementsAttrSplatGet(
      type, mlirFloatAttrDoubleGet(mlirTypeGetContext(elem), elem, a->f));
}

bool kilnOnnxCompatApply(KilnGraphBuilder *b, const Onnx__NodeProto *n,
                         long long opset, MlirLocation loc, MlirValue *operands,
                         bool *consumed) {
  MlirContext ctx = kilnGraphBuilderGetContext(b);
  for (size_t i = 0; i < n->n_attribute; ++i) {
    const Onnx__AttributeProto *a = n->attribute[i];
    const CompatEntry *e =
        a->name ? findEntry(n->op_type, opset, a->name) : NULL;
    if (!e)
      continue;
    if (!mlirValueIsNull(operands[e->operand])) {
      kilnEmitErrorf(loc,
                     "%s-%lld: '%s' is given both as an attribute and as "
                     "input %d",
                     n->op_type, opset, a->name, e->operand);
      return false;
    }
    MlirAttribute value = e->kind == COMPAT_INTS
                              ? intsValue(ctx, a, loc)
                              : scalarValue(operands[0], a, loc);
    if (mlirAttributeIsNull(value))
      return false;
    MlirNamedAttribute attr = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("value")), value);
    operands[e->operand] =
        kilnGraphBuilderCreateValue(b, "constant", NULL, 0, &attr, 1);
    if (mlirValueIsNull(operands[e->operand]))
      return false;
    consumed[i] = true;
  }
  return true;
}

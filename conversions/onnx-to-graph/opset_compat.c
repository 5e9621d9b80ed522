/* Older ONNX op forms -> the latest form (opset_compat.h).
 *
 * The table reads as ONNX's change log (onnx/defs/<family>/old.cc): each row is
 * an attribute form that ended in `lastOpset`, and what it becomes now. */
#include "conversions/onnx-to-graph/opset_compat.h"

#include <string.h>

#include "conversions/onnx-to-graph/import_util.h"
#include "conversions/onnx-to-graph/onnx_attr.h"
#include "conversions/onnx-to-graph/onnx_tensor.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

typedef enum CompatKind {
  COMPAT_INTS,         /* INTS attribute -> 1-D i64 tensor operand */
  COMPAT_INPUT_SCALAR, /* FLOAT attribute -> 0-D tensor of the input's type */
  COMPAT_IGNORE,       /* a hint without effect on inference: dropped */
  COMPAT_MUST_BE_ONE,  /* INT attribute whose only supported value is 1 */
  COMPAT_BROADCAST,    /* legacy broadcast/axis: see legacyBroadcast */
  COMPAT_TYPE_NAME,    /* STRING data-type name -> the `to` TypeAttr */
  COMPAT_DEFAULT_ONE,  /* INT later required; absent means 1 */
  COMPAT_UNSUPPORTED   /* (attr NULL) the op's old form is not imported */
} CompatKind;

typedef struct CompatEntry {
  const char *opType; /* "*": every op */
  int lastOpset;      /* the last opset in which `attr` has this form */
  const char *attr;
  int operand; /* the operand index it became, or -1 */
  CompatKind kind;
} CompatEntry;

#define BROADCAST(op)                                                          \
  {op, 6, "broadcast", -1, COMPAT_BROADCAST}, {                                \
    op, 6, "axis", -1, COMPAT_BROADCAST                                        \
  }

static const CompatEntry kCompat[] = {
    {"*", 5, "consumed_inputs", -1, COMPAT_IGNORE},
    {"BatchNormalization", 6, "is_test", -1, COMPAT_IGNORE},
    {"BatchNormalization", 8, "spatial", -1, COMPAT_MUST_BE_ONE},
    {"Dropout", 6, "is_test", -1, COMPAT_IGNORE},
    {"Dropout", 11, "ratio", 1, COMPAT_INPUT_SCALAR},
    {"Gemm", 6, "broadcast", -1, COMPAT_IGNORE}, /* Gemm-7 always does */
    BROADCAST("Add"),
    BROADCAST("Sub"),
    BROADCAST("Mul"),
    BROADCAST("Div"),
    BROADCAST("Pow"),
    BROADCAST("Equal"),
    BROADCAST("Less"),
    BROADCAST("Greater"),
    BROADCAST("And"),
    BROADCAST("Or"),
    BROADCAST("Xor"),
    {"Cast", 5, "to", -1, COMPAT_TYPE_NAME},
    {"Concat", 3, "axis", -1, COMPAT_DEFAULT_ONE},
    {"Tile", 5, NULL, -1, COMPAT_UNSUPPORTED}, /* inputs tiles, axis */
    {"Reshape", 4, "shape", 1, COMPAT_INTS},
    {"Squeeze", 12, "axes", 1, COMPAT_INTS},
    {"Unsqueeze", 12, "axes", 1, COMPAT_INTS},
    {"Split", 12, "split", 1, COMPAT_INTS},
    {"Slice", 9, "starts", 1, COMPAT_INTS},
    {"Slice", 9, "ends", 2, COMPAT_INTS},
    {"Slice", 9, "axes", 3, COMPAT_INTS},
    {"Clip", 10, "min", 1, COMPAT_INPUT_SCALAR},
    {"Clip", 10, "max", 2, COMPAT_INPUT_SCALAR},
    {"Pad", 1, "paddings", 1, COMPAT_INTS},
    {"Pad", 10, "pads", 1, COMPAT_INTS},
    {"Pad", 10, "value", 2, COMPAT_INPUT_SCALAR},
    {"ReduceSum", 12, "axes", 1, COMPAT_INTS},
    {"ReduceMean", 17, "axes", 1, COMPAT_INTS},
    {"ReduceMax", 17, "axes", 1, COMPAT_INTS},
    {"ReduceMin", 17, "axes", 1, COMPAT_INTS},
    {"ReduceProd", 17, "axes", 1, COMPAT_INTS},
    {"ReduceL1", 17, "axes", 1, COMPAT_INTS},
    {"ReduceL2", 17, "axes", 1, COMPAT_INTS},
    {"ReduceLogSum", 17, "axes", 1, COMPAT_INTS},
    {"ReduceLogSumExp", 17, "axes", 1, COMPAT_INTS},
    {"ReduceSumSquare", 17, "axes", 1, COMPAT_INTS},
};
enum { kNumCompat = sizeof(kCompat) / sizeof(kCompat[0]) };

static bool entryMatches(const CompatEntry *e, const char *opType,
                         long long opset) {
  return opset <= e->lastOpset &&
         (strcmp(e->opType, "*") == 0 || strcmp(e->opType, opType) == 0);
}

static const CompatEntry *findEntry(const char *opType, long long opset,
                                    const char *attr) {
  for (int i = 0; i < kNumCompat; ++i)
    if (kCompat[i].attr && entryMatches(&kCompat[i], opType, opset) &&
        strcmp(kCompat[i].attr, attr) == 0)
      return &kCompat[i];
  return NULL;
}

int kilnOnnxCompatMaxOperand(const char *opType, long long opset) {
  int max = -1;
  for (int i = 0; i < kNumCompat; ++i)
    if (entryMatches(&kCompat[i], opType, opset) && kCompat[i].operand > max)
      max = kCompat[i].operand;
  return max;
}

static const Onnx__AttributeProto *findAttr(const Onnx__NodeProto *n,
                                            const char *name) {
  for (size_t i = 0; i < n->n_attribute; ++i)
    if (n->attribute[i]->name && strcmp(n->attribute[i]->name, name) == 0)
      return n->attribute[i];
  return NULL;
}

/* The constant value for INTS attribute `a`, or null after an error. */
static MlirAttribute intsValue(MlirContext ctx, const Onnx__AttributeProto *a,
                               MlirLocation loc) {
  if (kilnOnnxAttrType(a) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INTS) {
    kilnEmitErrorf(loc, "attribute '%s' must be a list of ints", a->name);
    return mlirAttributeGetNull();
  }
  return kilnOnnxI64VectorAttr(ctx, a->ints, (intptr_t)a->n_ints);
}

/* A 0-D tensor of `input`'s float element type holding FLOAT attribute
 * `a` (Clip's bounds and Pad's value must match the data's type). */
static MlirAttribute scalarValue(MlirValue input, const Onnx__AttributeProto *a,
                                 MlirLocation loc) {
  if (kilnOnnxAttrType(a) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT) {
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

/* Cast-1's `to`: the data type's name ("FLOAT") as a TypeAttr. */
static bool typeName(MlirContext ctx, const Onnx__NodeProto *n,
                     const Onnx__AttributeProto *a, MlirLocation loc,
                     MlirNamedAttribute *out) {
  char text[32];
  const ProtobufCEnumValue *v =
      kilnOnnxAttrCopyKeyword(a, text, sizeof(text))
          ? protobuf_c_enum_descriptor_get_value_by_name(
                &onnx__tensor_proto__data_type__descriptor, text)
          : NULL;
  MlirType t = v ? kilnOnnxElementType(ctx, v->value) : (MlirType){NULL};
  if (mlirTypeIsNull(t)) {
    kilnEmitErrorf(loc,
                   "%s: attribute 'to' must name a data type Kiln imports "
                   "(such as \"FLOAT\")",
                   n->op_type);
    return false;
  }
  *out = kilnOnnxNamedAttr(ctx, "to", mlirTypeAttrGet(t));
  return true;
}

static bool intAttr(const Onnx__AttributeProto *a, MlirLocation loc,
                    int64_t *out) {
  if (kilnOnnxAttrType(a) != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__INT) {
    kilnEmitErrorf(loc, "attribute '%s' must be an int", a->name);
    return false;
  }
  *out = a->i;
  return true;
}

/* The static-rank shape of `v` into dims (up to 16); -1 if unranked. */
static intptr_t shapeOf(MlirValue v, int64_t *dims) {
  MlirType t = mlirValueGetType(v);
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) > 16)
    return -1;
  intptr_t r = mlirShapedTypeGetRank(t);
  for (intptr_t i = 0; i < r; ++i)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  return r;
}

/* Opsets 1-6 broadcast binary ops only with broadcast=1, aligning B's dims
 * with A's starting at `axis` (default: B's dims are A's trailing dims).
 * Numpy broadcasting aligns at the end, so B gets trailing 1s when `axis`
 * is earlier; its dims are copied (reshape 0) so dynamic ones stay. */
static bool legacyBroadcast(KilnGraphBuilder *b, const Onnx__NodeProto *n,
                            long long opset, MlirLocation loc,
                            MlirValue *operands) {
  const Onnx__AttributeProto *bc = findAttr(n, "broadcast");
  const Onnx__AttributeProto *ax = findAttr(n, "axis");
  int64_t broadcast = 0, axis = 0, a[16], bd[16];
  if ((bc && !intAttr(bc, loc, &broadcast)) || (ax && !intAttr(ax, loc, &axis)))
    return false;
  /* `operands` has n_input slots here (no row of these ops adds one). */
  if (n->n_input < 2 || mlirValueIsNull(operands[0]) ||
      mlirValueIsNull(operands[1]))
    return true; /* the builder reports the missing operand */
  intptr_t ra = shapeOf(operands[0], a), rb = shapeOf(operands[1], bd);
  if (ra < 0 || rb < 0)
    return true;
  /* A dynamic dim may be the same: the elementwise op checks at run time. */
  bool same = ra == rb;
  for (intptr_t i = 0; same && i < ra; ++i)
    same = a[i] == bd[i] || mlirShapedTypeIsDynamicSize(a[i]) ||
           mlirShapedTypeIsDynamicSize(bd[i]);
  if (!broadcast && !same) {
    kilnEmitErrorf(loc,
                   "%s-%lld: inputs of different shapes need broadcast=1 "
                   "(numpy-style broadcasting starts at opset 7)",
                   n->op_type, opset);
    return false;
  }
  if (!broadcast || same)
    return true;
  if (!ax)
    axis = ra - rb;
  else if (axis < 0)
    axis += ra;
  bool ok = rb <= ra && axis >= 0 && axis <= ra - rb;
  for (intptr_t i = 0; ok && i < rb; ++i)
    ok = bd[i] == 1 || bd[i] == a[axis + i] ||
         mlirShapedTypeIsDynamicSize(bd[i]) ||
         mlirShapedTypeIsDynamicSize(a[axis + i]);
  if (!ok) {
    kilnEmitErrorf(loc,
                   "%s-%lld: B (rank %ld) does not match A (rank %ld) from "
                   "axis %lld, as legacy broadcasting requires",
                   n->op_type, opset, (long)rb, (long)ra, (long long)axis);
    return false;
  }
  if (axis + rb == ra)
    return true; /* already aligned at the end */
  int64_t shape[16] = {0};
  for (intptr_t i = rb; i < ra - axis; ++i)
    shape[i] = 1;
  MlirValue ops[2] = {
      operands[1], kilnOnnxBuildConstant(
                       b, kilnOnnxI64VectorAttr(kilnGraphBuilderGetContext(b),
                                                shape, ra - axis))};
  if (mlirValueIsNull(ops[1]))
    return false;
  operands[1] = kilnGraphBuilderCreateValue(b, "reshape", ops, 2, NULL, 0);
  return !mlirValueIsNull(operands[1]);
}

/* Handles attribute `a` (entry `e`), setting *consume when the attribute
 * needs no conversion by the op table; false after an error. */
static bool applyEntry(KilnGraphBuilder *b, const Onnx__NodeProto *n,
                       long long opset, const CompatEntry *e,
                       const Onnx__AttributeProto *a, MlirLocation loc,
                       MlirValue *operands, MlirNamedAttribute *attrs,
                       intptr_t *numAttrs, bool *consume) {
  MlirContext ctx = kilnGraphBuilderGetContext(b);
  int64_t v;
  *consume = e->kind != COMPAT_DEFAULT_ONE && e->kind != COMPAT_UNSUPPORTED;
  switch (e->kind) {
  case COMPAT_IGNORE:
  case COMPAT_BROADCAST: /* both attributes at once, after the loop */
  case COMPAT_DEFAULT_ONE:
  case COMPAT_UNSUPPORTED:
    return true;
  case COMPAT_MUST_BE_ONE:
    if (!intAttr(a, loc, &v))
      return false;
    if (v != 1)
      kilnEmitErrorf(loc, "%s-%lld: %s = %lld is not supported (only 1)",
                     n->op_type, opset, a->name, (long long)v);
    return v == 1;
  case COMPAT_TYPE_NAME:
    *consume =
        kilnOnnxAttrType(a) == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__STRING;
    if (!*consume)
      return true; /* already a data-type code: converted as usual */
    if (!typeName(ctx, n, a, loc, &attrs[*numAttrs]))
      return false;
    ++*numAttrs;
    return true;
  case COMPAT_INTS:
  case COMPAT_INPUT_SCALAR:
    break;
  }
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
  operands[e->operand] = kilnOnnxBuildConstant(b, value);
  return !mlirValueIsNull(operands[e->operand]);
}

/* PRelu before opset 7 has no broadcasting: a slope of one element is
 * shared, and a 1-D slope of X's channel count holds one value per channel
 * (dim 1). Numpy broadcasting aligns at the end, so such a slope gets
 * trailing 1s: [C] -> [C, 1, ..., 1]. */
static bool legacyPReluSlope(KilnGraphBuilder *b, const Onnx__NodeProto *n,
                             MlirValue *operands) {
  if (strcmp(n->op_type, "PRelu") != 0 || n->n_input < 2 ||
      mlirValueIsNull(operands[0]) || mlirValueIsNull(operands[1]))
    return true;
  int64_t x[16], slope[16];
  intptr_t rx = shapeOf(operands[0], x), rs = shapeOf(operands[1], slope);
  /* X's dynamic channel count is taken to be the slope's (the elementwise
   * op checks it at run time). */
  if (rx < 3 || rs != 1 || slope[0] == 1 ||
      (slope[0] != x[1] && !mlirShapedTypeIsDynamicSize(x[1])) ||
      mlirShapedTypeIsDynamicSize(slope[0]))
    return true; /* nothing to align; the op's own rules apply */
  int64_t shape[16];
  shape[0] = slope[0];
  for (intptr_t i = 1; i < rx - 1; ++i)
    shape[i] = 1;
  MlirValue ops[2] = {
      operands[1], kilnOnnxBuildConstant(
                       b, kilnOnnxI64VectorAttr(kilnGraphBuilderGetContext(b),
                                                shape, rx - 1))};
  if (mlirValueIsNull(ops[1]))
    return false;
  operands[1] = kilnGraphBuilderCreateValue(b, "reshape", ops, 2, NULL, 0);
  return !mlirValueIsNull(operands[1]);
}

/* The node-level rows: old forms refused, defaults for absent attributes,
 * legacy broadcasting. False after an error. */
static bool applyNodeRows(KilnGraphBuilder *b, const Onnx__NodeProto *n,
                          long long opset, MlirLocation loc,
                          MlirValue *operands, MlirNamedAttribute *attrs,
                          intptr_t *numAttrs) {
  MlirContext ctx = kilnGraphBuilderGetContext(b);
  bool broadcast = false;
  for (int i = 0; i < kNumCompat; ++i) {
    const CompatEntry *e = &kCompat[i];
    if (!entryMatches(e, n->op_type, opset))
      continue;
    if (e->kind == COMPAT_UNSUPPORTED) {
      kilnEmitErrorf(loc,
                     "%s-%lld: this old form of the op is not supported "
                     "(re-export the model with opset %d or later)",
                     n->op_type, opset, e->lastOpset + 1);
      return false;
    }
    if (e->kind == COMPAT_DEFAULT_ONE && !findAttr(n, e->attr))
      attrs[(*numAttrs)++] = kilnOnnxNamedAttr(
          ctx, e->attr, mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 1));
    broadcast |= e->kind == COMPAT_BROADCAST;
  }
  if (opset < 7 && !legacyPReluSlope(b, n, operands))
    return false;
  return !broadcast || legacyBroadcast(b, n, opset, loc, operands);
}

bool kilnOnnxCompatApply(KilnGraphBuilder *b, const Onnx__NodeProto *n,
                         long long opset, MlirLocation loc, MlirValue *operands,
                         bool *consumed, MlirNamedAttribute *attrs,
                         intptr_t *numAttrs) {
  if (!kilnOnnxCheckAttrTypes(n, loc))
    return false;
  if (strcmp(n->op_type, "Constant") == 0 &&
      !kilnOnnxConvertConstantForms(kilnGraphBuilderGetContext(b), n, loc,
                                    consumed, attrs, numAttrs))
    return false;
  for (size_t i = 0; i < n->n_attribute; ++i) {
    const Onnx__AttributeProto *a = n->attribute[i];
    const CompatEntry *e =
        a->name ? findEntry(n->op_type, opset, a->name) : NULL;
    if (e && !applyEntry(b, n, opset, e, a, loc, operands, attrs, numAttrs,
                         &consumed[i]))
      return false;
  }
  return applyNodeRows(b, n, opset, loc, operands, attrs, numAttrs);
}

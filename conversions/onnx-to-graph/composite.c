/* ONNX ops built from other graph ops (composite.h). */
#include "conversions/onnx-to-graph/composite.h"

#include <stdlib.h>
#include <string.h>

#include "conversions/onnx-to-graph/import_util.h"
#include "conversions/onnx-to-graph/onnx_attr.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ONNX ops imported through another op's table entry. */
static const struct {
  const char *opType, *via;
} kAliases[] = {{"Sum", "Add"},
                {"Mean", "Add"},
                {"Scatter", "ScatterElements"}, /* deprecated in opset 11 */
                {"Upsample", "Resize"}};

const KilnGraphOpInfo *kilnOnnxLookupOp(const char *opType) {
  for (size_t i = 0; i < sizeof(kAliases) / sizeof(kAliases[0]); ++i)
    if (strcmp(kAliases[i].opType, opType) == 0)
      opType = kAliases[i].via;
  intptr_t n = kilnGraphOpGetCount();
  for (intptr_t i = 0; i < n; ++i) {
    const KilnGraphOpInfo *op = kilnGraphOpGetAt(i);
    if (strcmp(op->onnxName, opType) == 0)
      return op;
  }
  return NULL;
}

bool kilnOnnxReadsOwnAttrs(const char *opType) {
  return strcmp(opType, "Upsample") == 0;
}

/* Opset 13 changed Softmax, LogSoftmax and Hardmax from "coerce to 2-D at
 * `axis`" to "along `axis`". */
static bool isLegacySoftmax(const Onnx__NodeProto *n, long long opset) {
  return opset < 13 && (strcmp(n->op_type, "Softmax") == 0 ||
                        strcmp(n->op_type, "LogSoftmax") == 0 ||
                        strcmp(n->op_type, "Hardmax") == 0);
}

static bool is(const Onnx__NodeProto *n, const char *opType) {
  return strcmp(n->op_type, opType) == 0;
}

static MlirValue i64Constant(KilnGraphBuilder *b, const int64_t *v,
                             intptr_t n) {
  int64_t len = n;
  MlirContext ctx = kilnGraphBuilderGetContext(b);
  MlirType type = mlirRankedTensorTypeGet(1, &len, mlirIntegerTypeGet(ctx, 64),
                                          mlirAttributeGetNull());
  return kilnOnnxBuildConstant(b, mlirDenseElementsAttrInt64Get(type, n, v));
}

static MlirValue f32Constant(KilnGraphBuilder *b, const float *v, intptr_t n) {
  int64_t len = n;
  MlirContext ctx = kilnGraphBuilderGetContext(b);
  MlirType type = mlirRankedTensorTypeGet(1, &len, mlirF32TypeGet(ctx),
                                          mlirAttributeGetNull());
  return kilnOnnxBuildConstant(b, mlirDenseElementsAttrFloatGet(type, n, v));
}

/* Min, Max, Concat, Sum, Mean: a left-leaning chain of the binary op, which
 * is exact (see docs/graph-dialect.md); Mean then divides by N. */
static bool buildChain(KilnGraphBuilder *b, const KilnGraphOpInfo *op,
                       const Onnx__NodeProto *n, const MlirValue *operands,
                       intptr_t nIn, const MlirNamedAttribute *attrs,
                       intptr_t nAttrs, MlirValue *result) {
  if (nIn == 0) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(b), "%s needs an input",
                   n->op_type);
    return false;
  }
  MlirValue acc = operands[0];
  for (intptr_t i = 1; i < nIn && !mlirValueIsNull(acc); ++i) {
    MlirValue pair[2] = {acc, operands[i]};
    acc = kilnGraphBuilderCreateValue(b, op->name, pair, 2, attrs, nAttrs);
  }
  if (!mlirValueIsNull(acc) && is(n, "Mean") && nIn > 1) {
    MlirType elem = mlirShapedTypeGetElementType(mlirValueGetType(acc));
    if (!mlirTypeIsAFloat(elem)) {
      kilnEmitErrorf(kilnGraphBuilderGetLocation(b),
                     "Mean needs floating-point inputs");
      return false;
    }
    MlirType scalar =
        mlirRankedTensorTypeGet(0, NULL, elem, mlirAttributeGetNull());
    MlirValue pair[2] = {
        acc, kilnOnnxBuildConstant(
                 b, mlirDenseElementsAttrSplatGet(
                        scalar, mlirFloatAttrDoubleGet(mlirTypeGetContext(elem),
                                                       elem, (double)nIn)))};
    acc = mlirValueIsNull(pair[1])
              ? pair[1]
              : kilnGraphBuilderCreateValue(b, "div", pair, 2, NULL, 0);
  }
  *result = acc;
  return !mlirValueIsNull(acc);
}

static int64_t intAttr(const MlirNamedAttribute *attrs, intptr_t n,
                       const char *name, int64_t dflt, bool *present) {
  for (intptr_t i = 0; i < n; ++i)
    if (kilnStringRefEquals(mlirIdentifierStr(attrs[i].name), name)) {
      *present = true;
      return mlirIntegerAttrGetValueInt(attrs[i].attribute);
    }
  *present = false;
  return dflt;
}

/* The values of a 1-D integer graph.constant; false if `v` is not one. */
static bool constantInts(MlirValue v, int64_t *out, intptr_t n) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  MlirAttribute a = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (!kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(def)),
                           "graph.constant") ||
      mlirAttributeIsNull(a) || !mlirAttributeIsADenseIntElements(a) ||
      !mlirTypeIsAInteger(
          mlirShapedTypeGetElementType(mlirAttributeGetType(a))) ||
      mlirIntegerTypeGetWidth(
          mlirShapedTypeGetElementType(mlirAttributeGetType(a))) != 64 ||
      mlirElementsAttrGetNumElements(a) != n)
    return false;
  for (intptr_t i = 0; i < n; ++i)
    out[i] = mlirDenseElementsAttrGetInt64Value(
        a, mlirDenseElementsAttrIsSplat(a) ? 0 : i);
  return true;
}

/* The piece sizes of a Split along `axis` of a dim of size `d` into `n`
 * pieces, when they are known statically; false otherwise. */
static bool splitSizes(const MlirValue *operands, intptr_t nIn, int64_t d,
                       int64_t numOutputs, bool byCount, intptr_t n,
                       int64_t *sizes) {
  if (nIn > 1 && !mlirValueIsNull(operands[1])) {
    if (!constantInts(operands[1], sizes, n))
      return false;
    /* Negative sizes or a sum past int64 are graph.split's to report. */
    int64_t sum = 0;
    for (intptr_t i = 0; i < n; ++i)
      if (sizes[i] < 0 || __builtin_add_overflow(sum, sizes[i], &sum))
        return false;
    return true;
  }
  if (!byCount || numOutputs != n || mlirShapedTypeIsDynamicSize(d) || n < 1)
    return false;
  int64_t chunk = d / n + (d % n != 0);
  for (intptr_t i = 0; i < n; ++i) {
    int64_t left = d - chunk * i;
    sizes[i] = left < 0 ? 0 : left < chunk ? left : chunk;
  }
  return true;
}

/* Split: graph.split holds equal pieces only (IRDL gives a variadic result
 * one type), so unequal ones become one graph.slice per piece. Returns
 * false with *handled unset when the generic op applies. */
static bool buildSplit(KilnGraphBuilder *b, const Onnx__NodeProto *n,
                       const MlirValue *operands, intptr_t nIn,
                       const MlirNamedAttribute *attrs, intptr_t nAttrs,
                       MlirValue *results, bool *handled) {
  *handled = false;
  MlirType t = mlirValueIsNull(operands[0]) ? (MlirType){NULL}
                                            : mlirValueGetType(operands[0]);
  if (mlirTypeIsNull(t) || !mlirTypeIsARankedTensor(t))
    return true;
  bool present, byCount;
  int64_t r = mlirShapedTypeGetRank(t);
  int64_t axis = intAttr(attrs, nAttrs, "axis", 0, &present);
  int64_t count = intAttr(attrs, nAttrs, "num_outputs", 0, &byCount);
  intptr_t numOut = (intptr_t)n->n_output;
  if (axis < -r || axis >= r || numOut < 1 || numOut > 4096)
    return true; /* inference reports it */
  axis = axis < 0 ? axis + r : axis;
  int64_t *sizes = calloc((size_t)numOut, sizeof(int64_t));
  if (!sizes)
    abort();
  bool ok = true, equal = true;
  if (splitSizes(operands, nIn, mlirShapedTypeGetDimSize(t, axis), count,
                 byCount, numOut, sizes)) {
    for (intptr_t i = 1; i < numOut; ++i)
      equal &= sizes[i] == sizes[0];
    *handled = !equal;
  }
  int64_t start = 0;
  for (intptr_t i = 0; *handled && ok && i < numOut; ++i) {
    int64_t end = start + sizes[i];
    MlirValue ops[4] = {operands[0], i64Constant(b, &start, 1),
                        i64Constant(b, &end, 1), i64Constant(b, &axis, 1)};
    ok = !mlirValueIsNull(ops[1]) && !mlirValueIsNull(ops[2]) &&
         !mlirValueIsNull(ops[3]);
    if (ok)
      results[i] = kilnGraphBuilderCreateValue(b, "slice", ops, 4, NULL, 0);
    ok = ok && !mlirValueIsNull(results[i]);
    start = end;
  }
  free(sizes);
  return ok;
}

static const Onnx__AttributeProto *findAttr(const Onnx__NodeProto *n,
                                            const char *name) {
  for (size_t i = 0; i < n->n_attribute; ++i)
    if (n->attribute[i]->name && strcmp(n->attribute[i]->name, name) == 0)
      return n->attribute[i];
  return NULL;
}

/* Upsample's scales: the input (opset 9, 10), the `scales` attribute
 * (7, 8) or height_scale/width_scale of a 4-D input (1-6). */
static MlirValue upsampleScales(KilnGraphBuilder *b, const Onnx__NodeProto *n,
                                long long opset, const MlirValue *operands,
                                intptr_t nIn, MlirLocation loc) {
  if (opset >= 9)
    return nIn > 1 ? operands[1] : (MlirValue){NULL};
  const Onnx__AttributeProto *a = findAttr(n, "scales");
  if (opset >= 7 && a &&
      kilnOnnxAttrType(a) == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOATS)
    return f32Constant(b, a->floats, (intptr_t)a->n_floats);
  const Onnx__AttributeProto *h = findAttr(n, "height_scale");
  const Onnx__AttributeProto *w = findAttr(n, "width_scale");
  if (opset < 7 && h && w &&
      kilnOnnxAttrType(h) == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT &&
      kilnOnnxAttrType(w) == ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__FLOAT) {
    float scales[4] = {1.0f, 1.0f, h->f, w->f};
    return f32Constant(b, scales, 4);
  }
  kilnEmitErrorf(loc, "Upsample-%lld needs %s", opset,
                 opset >= 7 ? "a FLOATS attribute 'scales'"
                            : "FLOAT attributes 'height_scale' and "
                              "'width_scale'");
  return (MlirValue){NULL};
}

/* Upsample and Resize-10 (its successor, with Upsample's meaning and
 * inputs X, scales) -> resize. Both map output index x to input x / scale
 * (asymmetric) and, in nearest mode, round down (ONNX's Resize 10 -> 11
 * version converter sets the same). */
static bool buildUpsample(KilnGraphBuilder *b, const Onnx__NodeProto *n,
                          long long opset, const MlirValue *operands,
                          intptr_t nIn, MlirValue *result) {
  MlirContext ctx = kilnGraphBuilderGetContext(b);
  MlirLocation loc = kilnGraphBuilderGetLocation(b);
  bool upsample = is(n, "Upsample");
  for (size_t i = 0; i < n->n_attribute; ++i) {
    const char *name = n->attribute[i]->name ? n->attribute[i]->name : "";
    if (strcmp(name, "mode") &&
        (!upsample || (strcmp(name, "scales") && strcmp(name, "height_scale") &&
                       strcmp(name, "width_scale")))) {
      kilnEmitErrorf(loc, "attribute '%s' of %s is not supported", name,
                     n->op_type);
      return false;
    }
  }
  const Onnx__AttributeProto *m = findAttr(n, "mode");
  char mode[16] = "nearest";
  if (m && !kilnOnnxAttrCopyKeyword(m, mode, sizeof(mode)))
    strcpy(mode, "?");
  bool nearest = strcmp(mode, "nearest") == 0;
  if (!nearest && strcmp(mode, "linear") &&
      (!upsample || strcmp(mode, "bilinear"))) {
    kilnEmitErrorf(loc, "%s-%lld: mode must be \"nearest\" or \"linear\"%s",
                   n->op_type, opset, upsample ? " (or \"bilinear\")" : "");
    return false;
  }
  MlirValue ops[3] = {nIn ? operands[0] : (MlirValue){NULL},
                      {NULL},
                      upsampleScales(b, n, opset, operands, nIn, loc)};
  if (mlirValueIsNull(ops[2]))
    return false;
  MlirNamedAttribute attrs[3] = {
      kilnOnnxNamedAttr(
          ctx, "mode",
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(
                                     nearest ? "nearest" : "linear"))),
      kilnOnnxNamedAttr(
          ctx, "coordinate_transformation_mode",
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("asymmetric"))),
      kilnOnnxNamedAttr(
          ctx, "nearest_mode",
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString("floor")))};
  *result =
      kilnGraphBuilderCreateValue(b, "resize", ops, 3, attrs, nearest ? 3 : 2);
  return !mlirValueIsNull(*result);
}

/* The largest rank buildLegacySoftmax reshapes (graph ops allow less). */
enum { kMaxLegacyRank = 64 };

/* True if a dim of `t` may be 0 (a static 0 or a dynamic dim): reshaping
 * to such a shape needs allowzero, or a 0 would copy the input's dim. */
static bool mayHaveZeroDim(MlirType t) {
  for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); ++i)
    if (mlirShapedTypeGetDimSize(t, i) == 0 || mlirShapedTypeIsDynamicDim(t, i))
      return true;
  return false;
}

/* x's shape as a graph value: a constant when static, else graph.shape. */
static MlirValue shapeValue(KilnGraphBuilder *b, MlirValue x) {
  MlirType t = mlirValueGetType(x);
  if (!mlirShapedTypeHasStaticShape(t))
    return kilnGraphBuilderCreateValue(b, "shape", &x, 1, NULL, 0);
  int64_t dims[kMaxLegacyRank];
  intptr_t r = mlirShapedTypeGetRank(t);
  for (intptr_t i = 0; i < r; ++i)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  return i64Constant(b, dims, r);
}

/* Softmax, LogSoftmax and Hardmax before opset 13 coerce x to 2-D,
 * [d0*..*d(axis-1), d(axis)*..*d(r-1)] (axis default 1), and normalize over
 * the second dim. With `axis` the last dim that is the op along it;
 * otherwise x is flattened at `axis`, the op runs along dim 1 and the
 * result is reshaped back to x's shape. Leaves *handled false (returning
 * true) when x is not a ranked tensor: the generic op then reports it. */
static bool buildLegacySoftmax(KilnGraphBuilder *b, const KilnGraphOpInfo *op,
                               const Onnx__NodeProto *n, long long opset,
                               const MlirValue *operands, intptr_t nIn,
                               const MlirNamedAttribute *attrs, intptr_t nAttrs,
                               MlirValue *result, bool *handled) {
  *handled = false;
  MlirValue x = nIn == 1 ? operands[0] : (MlirValue){NULL};
  MlirType t = mlirValueIsNull(x) ? (MlirType){NULL} : mlirValueGetType(x);
  if (mlirTypeIsNull(t) || !mlirTypeIsARankedTensor(t))
    return true;
  *handled = true;
  if (mlirShapedTypeGetRank(t) > kMaxLegacyRank) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(b),
                   "%s-%lld: inputs of rank above %d are not supported",
                   n->op_type, opset, kMaxLegacyRank);
    return false;
  }
  bool present;
  int64_t r = mlirShapedTypeGetRank(t);
  int64_t axis = intAttr(attrs, nAttrs, "axis", 1, &present);
  if (axis < -r || axis >= r) {
    kilnEmitErrorf(kilnGraphBuilderGetLocation(b),
                   "%s-%lld: attribute 'axis' (%lld) must be in [-%lld, "
                   "%lld] for an input of rank %lld",
                   n->op_type, opset, (long long)axis, (long long)r,
                   (long long)(r - 1), (long long)r);
    return false;
  }
  axis = axis < 0 ? axis + r : axis;
  MlirNamedAttribute along = kilnGraphAttrInt(b, "axis", axis);
  if (axis == r - 1) {
    *result = kilnGraphBuilderCreateValue(b, op->name, &x, 1, &along, 1);
    return !mlirValueIsNull(*result);
  }
  MlirValue flat = kilnGraphBuilderCreateValue(b, "flatten", &x, 1, &along, 1);
  along = kilnGraphAttrInt(b, "axis", 1);
  MlirValue ops[2] = {
      mlirValueIsNull(flat)
          ? flat
          : kilnGraphBuilderCreateValue(b, op->name, &flat, 1, &along, 1),
      {NULL}};
  if (!mlirValueIsNull(ops[0]))
    ops[1] = shapeValue(b, x);
  if (mlirValueIsNull(ops[1]))
    return false;
  MlirNamedAttribute allowZero = kilnGraphAttrInt(b, "allowzero", 1);
  *result = kilnGraphBuilderCreateValue(b, "reshape", ops, 2, &allowZero,
                                        mayHaveZeroDim(t) ? 1 : 0);
  return !mlirValueIsNull(*result);
}

bool kilnOnnxBuildNode(KilnGraphBuilder *b, const KilnGraphOpInfo *op,
                       const Onnx__NodeProto *n, long long opset,
                       const MlirValue *operands, intptr_t numOperands,
                       const MlirNamedAttribute *attrs, intptr_t numAttrs,
                       MlirValue *results) {
  for (size_t i = 0; i < n->n_output; ++i)
    results[i] = (MlirValue){NULL};
  if (n->n_output == 0)
    return true; /* nothing is used: nothing to build */
  if (is(n, "Upsample") || (is(n, "Resize") && opset < 11))
    return buildUpsample(b, n, opset, operands, numOperands, &results[0]);
  if (isLegacySoftmax(n, opset)) {
    bool handled;
    bool ok = buildLegacySoftmax(b, op, n, opset, operands, numOperands, attrs,
                                 numAttrs, &results[0], &handled);
    if (!ok || handled)
      return ok;
  }
  bool binary = is(n, "Min") || is(n, "Max") || is(n, "Concat");
  if ((binary && numOperands != 2) || is(n, "Sum") || is(n, "Mean"))
    return buildChain(b, op, n, operands, numOperands, attrs, numAttrs,
                      &results[0]);
  if (is(n, "Split")) {
    bool handled;
    bool ok = buildSplit(b, n, operands, numOperands, attrs, numAttrs, results,
                         &handled);
    if (!ok || handled)
      return ok;
  }
  MlirOperation built =
      kilnGraphBuilderCreateOp(b, op->name, operands, numOperands, attrs,
                               numAttrs, (intptr_t)n->n_output);
  if (mlirOperationIsNull(built))
    return false;
  intptr_t numResults = mlirOperationGetNumResults(built);
  for (size_t i = 0; i < n->n_output && (intptr_t)i < numResults; ++i)
    results[i] = mlirOperationGetResult(built, (intptr_t)i);
  return true;
}

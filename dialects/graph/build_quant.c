/* Typed builders for the graph ops of the quant family: each turns its C
 * arguments into named attributes (ONNX defaults left off) and calls
 * kilnGraphBuilderCreateOp, which checks them and infers the result types.
 * Fields an op does not have are passed on anyway, so the op table rejects
 * them as unknown attributes instead of their being dropped silently. */
#include "kiln/graph_quant.h"

/* More than any quant op has attributes. */
#define MAX_ATTRS 16

typedef struct AttrList {
  MlirNamedAttribute items[MAX_ATTRS];
  intptr_t count;
} AttrList;

static void addInts(KilnGraphBuilder *b, AttrList *l, const char *name,
                    const int64_t *values, intptr_t n) {
  if (values)
    l->items[l->count++] = kilnGraphAttrInts(b, name, values, n);
}

/* Adds `name = value` unless value is `absent`. */
static void addInt(KilnGraphBuilder *b, AttrList *l, const char *name,
                   int64_t value, int64_t absent) {
  if (value != absent)
    l->items[l->count++] = kilnGraphAttrInt(b, name, value);
}

static void addQuantizeAttrs(KilnGraphBuilder *b, AttrList *l,
                             const KilnGraphQuantizeOptions *opts) {
  static const KilnGraphQuantizeOptions kNone = {0};
  const KilnGraphQuantizeOptions *o = opts ? opts : &kNone;
  if (o->hasAxis)
    addInt(b, l, "axis", o->axis, 1);
  addInt(b, l, "block_size", o->blockSize, 0);
  if (!mlirTypeIsNull(o->outputDtype))
    l->items[l->count++] = kilnGraphAttrType(b, "output_dtype", o->outputDtype);
  if (o->noSaturate)
    l->items[l->count++] = kilnGraphAttrInt(b, "saturate", 0);
}

static void addConvAttrs(KilnGraphBuilder *b, AttrList *l,
                         const KilnGraphConvOptions *opts) {
  static const KilnGraphConvOptions kNone = {0};
  const KilnGraphConvOptions *o = opts ? opts : &kNone;
  if (o->autoPad)
    l->items[l->count++] = kilnGraphAttrString(b, "auto_pad", o->autoPad);
  addInts(b, l, "dilations", o->dilations, o->numDilations);
  addInt(b, l, "group", o->group, 0);
  addInts(b, l, "kernel_shape", o->kernelShape, o->numKernelShape);
  addInts(b, l, "output_padding", o->outputPadding, o->numOutputPadding);
  addInts(b, l, "output_shape", o->outputShape, o->numOutputShape);
  addInts(b, l, "pads", o->pads, o->numPads);
  addInts(b, l, "strides", o->strides, o->numStrides);
}

MlirValue kilnGraphBuildQuantizeLinear(KilnGraphBuilder *b, MlirValue x,
                                       MlirValue yScale, MlirValue yZeroPoint,
                                       const KilnGraphQuantizeOptions *opts) {
  AttrList l = {.count = 0};
  addQuantizeAttrs(b, &l, opts);
  const MlirValue operands[] = {x, yScale, yZeroPoint};
  return kilnGraphBuilderCreateValue(b, "quantize_linear", operands, 3, l.items,
                                     l.count);
}

MlirValue kilnGraphBuildDequantizeLinear(KilnGraphBuilder *b, MlirValue x,
                                         MlirValue xScale, MlirValue xZeroPoint,
                                         const KilnGraphQuantizeOptions *opts) {
  AttrList l = {.count = 0};
  addQuantizeAttrs(b, &l, opts);
  const MlirValue operands[] = {x, xScale, xZeroPoint};
  return kilnGraphBuilderCreateValue(b, "dequantize_linear", operands, 3,
                                     l.items, l.count);
}

MlirValue kilnGraphBuildDynamicQuantizeLinear(KilnGraphBuilder *b, MlirValue x,
                                              MlirValue *yScale,
                                              MlirValue *yZeroPoint) {
  MlirOperation op =
      kilnGraphBuilderCreateOp(b, "dynamic_quantize_linear", &x, 1, NULL, 0, 3);
  bool ok = !mlirOperationIsNull(op);
  if (yScale)
    *yScale = ok ? mlirOperationGetResult(op, 1) : (MlirValue){NULL};
  if (yZeroPoint)
    *yZeroPoint = ok ? mlirOperationGetResult(op, 2) : (MlirValue){NULL};
  return ok ? mlirOperationGetResult(op, 0) : (MlirValue){NULL};
}

MlirValue kilnGraphBuildMatMulInteger(KilnGraphBuilder *b, MlirValue a,
                                      MlirValue bMatrix, MlirValue aZeroPoint,
                                      MlirValue bZeroPoint) {
  const MlirValue operands[] = {a, bMatrix, aZeroPoint, bZeroPoint};
  return kilnGraphBuilderCreateValue(b, "matmul_integer", operands, 4, NULL, 0);
}

MlirValue kilnGraphBuildConvInteger(KilnGraphBuilder *b, MlirValue x,
                                    MlirValue w, MlirValue xZeroPoint,
                                    MlirValue wZeroPoint,
                                    const KilnGraphConvOptions *opts) {
  AttrList l = {.count = 0};
  addConvAttrs(b, &l, opts);
  const MlirValue operands[] = {x, w, xZeroPoint, wZeroPoint};
  return kilnGraphBuilderCreateValue(b, "conv_integer", operands, 4, l.items,
                                     l.count);
}

MlirValue kilnGraphBuildQLinearMatMul(KilnGraphBuilder *b, KilnGraphQuantized a,
                                      KilnGraphQuantized bMatrix,
                                      KilnGraphQuantized y) {
  const MlirValue operands[] = {a.value,       a.scale,       a.zeroPoint,
                                bMatrix.value, bMatrix.scale, bMatrix.zeroPoint,
                                y.scale,       y.zeroPoint};
  return kilnGraphBuilderCreateValue(b, "qlinear_matmul", operands, 8, NULL, 0);
}

MlirValue kilnGraphBuildQLinearConv(KilnGraphBuilder *b, KilnGraphQuantized x,
                                    KilnGraphQuantized w, KilnGraphQuantized y,
                                    MlirValue bias,
                                    const KilnGraphConvOptions *opts) {
  AttrList l = {.count = 0};
  addConvAttrs(b, &l, opts);
  const MlirValue operands[] = {x.value, x.scale,     x.zeroPoint,
                                w.value, w.scale,     w.zeroPoint,
                                y.scale, y.zeroPoint, bias};
  return kilnGraphBuilderCreateValue(b, "qlinear_conv", operands, 9, l.items,
                                     l.count);
}

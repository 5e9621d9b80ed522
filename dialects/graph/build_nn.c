/* Typed builders for the graph ops of the nn family: each turns its C
 * arguments into named attributes and calls kilnGraphBuilderCreateOp, which
 * checks them and infers the result types. */
#include "kiln/graph_nn.h"

/* More than any nn op has attributes. */
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

static void addString(KilnGraphBuilder *b, AttrList *l, const char *name,
                      const char *value) {
  if (value)
    l->items[l->count++] = kilnGraphAttrString(b, name, value);
}

/* Adds `name = value` unless value is `absent`. */
static void addInt(KilnGraphBuilder *b, AttrList *l, const char *name,
                   int64_t value, int64_t absent) {
  if (value != absent)
    l->items[l->count++] = kilnGraphAttrInt(b, name, value);
}

static void addFloat(KilnGraphBuilder *b, AttrList *l, const char *name,
                     const float *value) {
  if (value)
    l->items[l->count++] = kilnGraphAttrFloat(b, name, *value);
}

static MlirValue buildConvLike(KilnGraphBuilder *b, const char *opName,
                               MlirValue x, MlirValue w, MlirValue bias,
                               const KilnGraphConvOptions *opts) {
  static const KilnGraphConvOptions kNone = {0};
  const KilnGraphConvOptions *o = opts ? opts : &kNone;
  AttrList l = {.count = 0};
  addString(b, &l, "auto_pad", o->autoPad);
  addInts(b, &l, "dilations", o->dilations, o->numDilations);
  addInt(b, &l, "group", o->group, 0);
  addInts(b, &l, "kernel_shape", o->kernelShape, o->numKernelShape);
  addInts(b, &l, "output_padding", o->outputPadding, o->numOutputPadding);
  addInts(b, &l, "output_shape", o->outputShape, o->numOutputShape);
  addInts(b, &l, "pads", o->pads, o->numPads);
  addInts(b, &l, "strides", o->strides, o->numStrides);
  MlirValue operands[] = {x, w, bias};
  return kilnGraphBuilderCreateValue(b, opName, operands, 3, l.items, l.count);
}

MlirValue kilnGraphBuildConv(KilnGraphBuilder *b, MlirValue x, MlirValue w,
                             MlirValue bias, const KilnGraphConvOptions *opts) {
  return buildConvLike(b, "conv", x, w, bias, opts);
}

MlirValue kilnGraphBuildConvTranspose(KilnGraphBuilder *b, MlirValue x,
                                      MlirValue w, MlirValue bias,
                                      const KilnGraphConvOptions *opts) {
  return buildConvLike(b, "conv_transpose", x, w, bias, opts);
}

static MlirOperation buildPool(KilnGraphBuilder *b, const char *opName,
                               MlirValue x, const int64_t *kernelShape,
                               intptr_t numKernelShape,
                               const KilnGraphPoolOptions *opts,
                               intptr_t numResults) {
  static const KilnGraphPoolOptions kNone = {0};
  const KilnGraphPoolOptions *o = opts ? opts : &kNone;
  AttrList l = {.count = 0};
  addString(b, &l, "auto_pad", o->autoPad);
  addInt(b, &l, "ceil_mode", o->ceilMode, 0);
  addInt(b, &l, "count_include_pad", o->countIncludePad, 0);
  addInts(b, &l, "dilations", o->dilations, o->numDilations);
  addInts(b, &l, "kernel_shape", kernelShape, numKernelShape);
  addInts(b, &l, "pads", o->pads, o->numPads);
  addInt(b, &l, "storage_order", o->storageOrder, 0);
  addInts(b, &l, "strides", o->strides, o->numStrides);
  return kilnGraphBuilderCreateOp(b, opName, &x, 1, l.items, l.count,
                                  numResults);
}

static MlirValue firstResult(MlirOperation op) {
  return mlirOperationIsNull(op) ? (MlirValue){NULL}
                                 : mlirOperationGetResult(op, 0);
}

MlirValue kilnGraphBuildMaxPool(KilnGraphBuilder *b, MlirValue x,
                                const int64_t *kernelShape,
                                intptr_t numKernelShape,
                                const KilnGraphPoolOptions *opts,
                                MlirValue *indices) {
  MlirOperation op = buildPool(b, "max_pool", x, kernelShape, numKernelShape,
                               opts, indices ? 2 : 1);
  if (indices)
    *indices = mlirOperationIsNull(op) ? (MlirValue){NULL}
                                       : mlirOperationGetResult(op, 1);
  return firstResult(op);
}

MlirValue kilnGraphBuildAveragePool(KilnGraphBuilder *b, MlirValue x,
                                    const int64_t *kernelShape,
                                    intptr_t numKernelShape,
                                    const KilnGraphPoolOptions *opts) {
  return firstResult(
      buildPool(b, "average_pool", x, kernelShape, numKernelShape, opts, 1));
}

MlirValue kilnGraphBuildGlobalAveragePool(KilnGraphBuilder *b, MlirValue x) {
  return kilnGraphBuilderCreateValue(b, "global_average_pool", &x, 1, NULL, 0);
}

MlirValue kilnGraphBuildGlobalMaxPool(KilnGraphBuilder *b, MlirValue x) {
  return kilnGraphBuilderCreateValue(b, "global_max_pool", &x, 1, NULL, 0);
}

MlirValue kilnGraphBuildBatchNormalization(KilnGraphBuilder *b, MlirValue x,
                                           MlirValue scale, MlirValue bias,
                                           MlirValue mean, MlirValue var,
                                           float epsilon, float momentum) {
  MlirValue operands[] = {x, scale, bias, mean, var};
  MlirNamedAttribute attrs[] = {kilnGraphAttrFloat(b, "epsilon", epsilon),
                                kilnGraphAttrFloat(b, "momentum", momentum)};
  return kilnGraphBuilderCreateValue(b, "batch_norm", operands, 5, attrs, 2);
}

MlirValue kilnGraphBuildInstanceNormalization(KilnGraphBuilder *b,
                                              MlirValue input, MlirValue scale,
                                              MlirValue bias, float epsilon) {
  MlirValue operands[] = {input, scale, bias};
  MlirNamedAttribute attr = kilnGraphAttrFloat(b, "epsilon", epsilon);
  return kilnGraphBuilderCreateValue(b, "instance_norm", operands, 3, &attr, 1);
}

MlirValue kilnGraphBuildLayerNormalization(KilnGraphBuilder *b, MlirValue x,
                                           MlirValue scale, MlirValue bias,
                                           int64_t axis, float epsilon,
                                           int64_t stashType) {
  MlirValue operands[] = {x, scale, bias};
  MlirNamedAttribute attrs[] = {kilnGraphAttrInt(b, "axis", axis),
                                kilnGraphAttrFloat(b, "epsilon", epsilon),
                                kilnGraphAttrInt(b, "stash_type", stashType)};
  return kilnGraphBuilderCreateValue(b, "layer_norm", operands, 3, attrs, 3);
}

MlirValue kilnGraphBuildResize(KilnGraphBuilder *b, MlirValue x, MlirValue roi,
                               MlirValue scales, MlirValue sizes,
                               const KilnGraphResizeOptions *opts) {
  static const KilnGraphResizeOptions kNone = {0};
  const KilnGraphResizeOptions *o = opts ? opts : &kNone;
  AttrList l = {.count = 0};
  addInt(b, &l, "antialias", o->antialias, 0);
  addInts(b, &l, "axes", o->axes, o->numAxes);
  addString(b, &l, "coordinate_transformation_mode",
            o->coordinateTransformationMode);
  addFloat(b, &l, "cubic_coeff_a", o->cubicCoeffA);
  addInt(b, &l, "exclude_outside", o->excludeOutside, 0);
  addFloat(b, &l, "extrapolation_value", o->extrapolationValue);
  addString(b, &l, "keep_aspect_ratio_policy", o->keepAspectRatioPolicy);
  addString(b, &l, "mode", o->mode);
  addString(b, &l, "nearest_mode", o->nearestMode);
  MlirValue operands[] = {x, roi, scales, sizes};
  return kilnGraphBuilderCreateValue(b, "resize", operands, 4, l.items,
                                     l.count);
}

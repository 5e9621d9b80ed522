/* Typed builders for the graph ops of the nn family: each turns its C
 * arguments into named attributes and calls kilnGraphBuilderCreateOp, which
 * checks them and infers the result types. */
#include "kiln/graph_nn.h"

#include <stdbool.h>

#include "kiln/diagnostics.h"

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

static void addFloats(KilnGraphBuilder *b, AttrList *l, const char *name,
                      const float *values, intptr_t n) {
  if (values)
    l->items[l->count++] = kilnGraphAttrFloats(b, name, values, n);
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

static MlirOperation
buildPoolOp(KilnGraphBuilder *b, const char *opName, const MlirValue *operands,
            intptr_t numOperands, const int64_t *kernelShape,
            intptr_t numKernelShape, const KilnGraphPoolOptions *opts,
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
  return kilnGraphBuilderCreateOp(b, opName, operands, numOperands, l.items,
                                  l.count, numResults);
}

static MlirOperation buildPool(KilnGraphBuilder *b, const char *opName,
                               MlirValue x, const int64_t *kernelShape,
                               intptr_t numKernelShape,
                               const KilnGraphPoolOptions *opts,
                               intptr_t numResults) {
  return buildPoolOp(b, opName, &x, 1, kernelShape, numKernelShape, opts,
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

/* Stores result i of `op` in *out when out is non-NULL (null on failure). */
static void storeResult(MlirOperation op, intptr_t i, MlirValue *out) {
  if (out)
    *out = mlirOperationIsNull(op) ? (MlirValue){NULL}
                                   : mlirOperationGetResult(op, i);
}

MlirValue kilnGraphBuildBatchNormalization(KilnGraphBuilder *b, MlirValue x,
                                           MlirValue scale, MlirValue bias,
                                           MlirValue mean, MlirValue var,
                                           float epsilon, float momentum,
                                           MlirValue *runningMean,
                                           MlirValue *runningVar) {
  bool training = runningMean || runningVar;
  MlirValue operands[] = {x, scale, bias, mean, var};
  MlirNamedAttribute attrs[] = {kilnGraphAttrFloat(b, "epsilon", epsilon),
                                kilnGraphAttrFloat(b, "momentum", momentum),
                                kilnGraphAttrInt(b, "training_mode", 1)};
  MlirOperation op = kilnGraphBuilderCreateOp(
      b, "batch_norm", operands, 5, attrs, training ? 3 : 2, training ? 3 : 1);
  storeResult(op, 1, runningMean);
  storeResult(op, 2, runningVar);
  return firstResult(op);
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
                                           int64_t stashType, MlirValue *mean,
                                           MlirValue *invStdDev) {
  bool stats = mean || invStdDev;
  MlirValue operands[] = {x, scale, bias};
  MlirNamedAttribute attrs[] = {kilnGraphAttrInt(b, "axis", axis),
                                kilnGraphAttrFloat(b, "epsilon", epsilon),
                                kilnGraphAttrInt(b, "stash_type", stashType)};
  MlirOperation op = kilnGraphBuilderCreateOp(b, "layer_norm", operands, 3,
                                              attrs, 3, stats ? 3 : 1);
  storeResult(op, 1, mean);
  storeResult(op, 2, invStdDev);
  return firstResult(op);
}

MlirValue kilnGraphBuildLrn(KilnGraphBuilder *b, MlirValue x, int64_t size,
                            float alpha, float beta, float bias) {
  MlirNamedAttribute attrs[] = {kilnGraphAttrFloat(b, "alpha", alpha),
                                kilnGraphAttrFloat(b, "beta", beta),
                                kilnGraphAttrFloat(b, "bias", bias),
                                kilnGraphAttrInt(b, "size", size)};
  return kilnGraphBuilderCreateValue(b, "lrn", &x, 1, attrs, 4);
}

MlirValue kilnGraphBuildMeanVarianceNormalization(KilnGraphBuilder *b,
                                                  MlirValue x,
                                                  const int64_t *axes,
                                                  intptr_t numAxes) {
  AttrList l = {.count = 0};
  addInts(b, &l, "axes", axes, numAxes);
  return kilnGraphBuilderCreateValue(b, "mean_variance_normalization", &x, 1,
                                     l.items, l.count);
}

static void addActivations(KilnGraphBuilder *b, AttrList *l,
                           const char *const *names, intptr_t n) {
  if (names)
    l->items[l->count++] = kilnGraphAttrStrings(b, "activations", names, n);
}

/* rnn, gru (2 results) and lstm (3): builds every result, storing results
 * 1 and 2 in yH and yC when asked. */
static MlirValue buildRecurrent(KilnGraphBuilder *b, const char *opName,
                                const KilnGraphRecurrentInputs *in,
                                const KilnGraphRecurrentOptions *opts,
                                intptr_t numResults, MlirValue *yH,
                                MlirValue *yC) {
  static const KilnGraphRecurrentOptions kNone = {0};
  const KilnGraphRecurrentOptions *o = opts ? opts : &kNone;
  AttrList l = {.count = 0};
  addFloats(b, &l, "activation_alpha", o->activationAlpha,
            o->numActivationAlpha);
  addFloats(b, &l, "activation_beta", o->activationBeta, o->numActivationBeta);
  addActivations(b, &l, o->activations, o->numActivations);
  addFloat(b, &l, "clip", o->clip);
  addString(b, &l, "direction", o->direction);
  addInt(b, &l, "hidden_size", o->hiddenSize, 0);
  addInt(b, &l, "input_forget", o->inputForget, 0);
  addInt(b, &l, "layout", o->layout, 0);
  addInt(b, &l, "linear_before_reset", o->linearBeforeReset, 0);
  MlirValue operands[] = {
      in->x,        in->w,        in->r, in->b, in->sequenceLens,
      in->initialH, in->initialC, in->p};
  /* Trailing absent operands are left out, so that rnn and gru accept a
   * struct whose LSTM-only fields are null. */
  intptr_t n = 8;
  while (n > 3 && mlirValueIsNull(operands[n - 1]))
    --n;
  MlirOperation op = kilnGraphBuilderCreateOp(b, opName, operands, n, l.items,
                                              l.count, numResults);
  storeResult(op, 1, yH);
  if (numResults > 2)
    storeResult(op, 2, yC);
  return firstResult(op);
}

MlirValue kilnGraphBuildRnn(KilnGraphBuilder *b,
                            const KilnGraphRecurrentInputs *in,
                            const KilnGraphRecurrentOptions *opts,
                            MlirValue *yH) {
  return buildRecurrent(b, "rnn", in, opts, 2, yH, NULL);
}

MlirValue kilnGraphBuildGru(KilnGraphBuilder *b,
                            const KilnGraphRecurrentInputs *in,
                            const KilnGraphRecurrentOptions *opts,
                            MlirValue *yH) {
  return buildRecurrent(b, "gru", in, opts, 2, yH, NULL);
}

MlirValue kilnGraphBuildLstm(KilnGraphBuilder *b,
                             const KilnGraphRecurrentInputs *in,
                             const KilnGraphRecurrentOptions *opts,
                             MlirValue *yH, MlirValue *yC) {
  return buildRecurrent(b, "lstm", in, opts, 3, yH, yC);
}

MlirValue kilnGraphBuildMaxUnpool(KilnGraphBuilder *b, MlirValue x,
                                  MlirValue indices, MlirValue outputShape,
                                  const int64_t *kernelShape,
                                  intptr_t numKernelShape,
                                  const KilnGraphPoolOptions *opts) {
  MlirValue operands[] = {x, indices, outputShape};
  MlirOperation op = buildPoolOp(b, "max_unpool", operands, 3, kernelShape,
                                 numKernelShape, opts, 1);
  return firstResult(op);
}

MlirValue kilnGraphBuildGridSample(KilnGraphBuilder *b, MlirValue x,
                                   MlirValue grid, const char *mode,
                                   const char *paddingMode,
                                   int64_t alignCorners) {
  AttrList l = {.count = 0};
  addInt(b, &l, "align_corners", alignCorners, 0);
  addString(b, &l, "mode", mode);
  addString(b, &l, "padding_mode", paddingMode);
  MlirValue operands[] = {x, grid};
  return kilnGraphBuilderCreateValue(b, "grid_sample", operands, 2, l.items,
                                     l.count);
}

MlirValue kilnGraphBuildRoiAlign(KilnGraphBuilder *b, MlirValue x,
                                 MlirValue rois, MlirValue batchIndices,
                                 const KilnGraphRoiAlignOptions *opts) {
  static const KilnGraphRoiAlignOptions kNone = {0};
  const KilnGraphRoiAlignOptions *o = opts ? opts : &kNone;
  AttrList l = {.count = 0};
  addString(b, &l, "coordinate_transformation_mode",
            o->coordinateTransformationMode);
  addString(b, &l, "mode", o->mode);
  addInt(b, &l, "output_height", o->outputHeight, 0);
  addInt(b, &l, "output_width", o->outputWidth, 0);
  addInt(b, &l, "sampling_ratio", o->samplingRatio, 0);
  addFloat(b, &l, "spatial_scale", o->spatialScale);
  MlirValue operands[] = {x, rois, batchIndices};
  return kilnGraphBuilderCreateValue(b, "roi_align", operands, 3, l.items,
                                     l.count);
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

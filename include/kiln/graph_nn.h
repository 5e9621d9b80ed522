/* Typed builders for graph ops of the nn family (see graph_builder.h):
 * convolution, pooling, normalization, resize, recurrent layers and
 * sampling.
 *
 * Conventions shared by every function here:
 *  - The result is owned by the op, which the builder inserted into its
 *    block. On a violated ONNX rule (shapes, element types, attribute
 *    values) the builder emits an error diagnostic at its location and
 *    returns a null value; nothing is inserted.
 *  - An absent optional operand is a null MlirValue.
 *  - Options structs are read during the call only. A zero-initialized
 *    struct (or a NULL pointer to one) means "every attribute absent", i.e.
 *    ONNX's defaults: NULL strings, NULL arrays and NULL float pointers are
 *    absent, and integer fields equal to 0 are left out (0 is the ONNX
 *    default of each, except `group`, `outputHeight` and `outputWidth`,
 *    where 0 means absent = 1, and `hiddenSize`, where it means absent =
 *    taken from r). Arrays are pointer + count. */
#ifndef KILN_GRAPH_NN_H
#define KILN_GRAPH_NN_H

#include "kiln/graph_builder.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Attributes of graph.conv and graph.conv_transpose.
typedef struct KilnGraphConvOptions {
  const char *autoPad;      /* "NOTSET" (default), "SAME_UPPER", "SAME_LOWER",
                               "VALID" */
  int64_t group;            /* 0: absent (1) */
  const int64_t *dilations; /* one per spatial dimension */
  intptr_t numDilations;
  const int64_t *kernelShape; /* absent: taken from w */
  intptr_t numKernelShape;
  const int64_t *pads; /* all begins, then all ends */
  intptr_t numPads;
  const int64_t *strides;
  intptr_t numStrides;
  /* conv_transpose only (conv rejects them as unknown attributes): */
  const int64_t *outputPadding;
  intptr_t numOutputPadding;
  const int64_t *outputShape; /* spatial output sizes */
  intptr_t numOutputShape;
} KilnGraphConvOptions;

/// Attributes of graph.max_pool and graph.average_pool besides the
/// required kernel_shape.
typedef struct KilnGraphPoolOptions {
  const char *autoPad;
  int64_t ceilMode; /* 0 or 1 */
  const int64_t *dilations;
  intptr_t numDilations;
  const int64_t *pads;
  intptr_t numPads;
  const int64_t *strides;
  intptr_t numStrides;
  int64_t storageOrder;    /* max_pool only: 0 row major, 1 column major */
  int64_t countIncludePad; /* average_pool only: 0 or 1 */
} KilnGraphPoolOptions;

/// Attributes of graph.resize.
typedef struct KilnGraphResizeOptions {
  const char *mode;                         /* NULL: "nearest" */
  const char *coordinateTransformationMode; /* NULL: "half_pixel" */
  const char *nearestMode;                  /* NULL: "round_prefer_floor" */
  const char *keepAspectRatioPolicy;        /* NULL: "stretch" */
  const int64_t *axes;                      /* NULL: all axes */
  intptr_t numAxes;
  int64_t antialias;               /* 0 or 1 */
  int64_t excludeOutside;          /* 0 or 1 */
  const float *cubicCoeffA;        /* NULL: -0.75 */
  const float *extrapolationValue; /* NULL: 0.0 */
} KilnGraphResizeOptions;

/// Builds graph.conv (ONNX Conv): x is N x C x D1..Dn (n = 1..3), w is
/// M x C/group x k1..kn, bias (optional) has M values. `opts` may be NULL.
/// Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildConv(KilnGraphBuilder *b, MlirValue x, MlirValue w,
                             MlirValue bias, const KilnGraphConvOptions *opts);

/// Builds graph.conv_transpose (ONNX ConvTranspose): w is
/// C x M/group x k1..kn, bias (optional) has M values. `opts` may be NULL.
/// Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildConvTranspose(KilnGraphBuilder *b, MlirValue x,
                                      MlirValue w, MlirValue bias,
                                      const KilnGraphConvOptions *opts);

/// Builds graph.max_pool (ONNX MaxPool) with the given kernel (one size per
/// spatial dimension). `opts` may be NULL. If `indices` is non-NULL the op
/// also has the i64 indices result, stored there (null on failure).
/// Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildMaxPool(KilnGraphBuilder *b, MlirValue x,
                                const int64_t *kernelShape,
                                intptr_t numKernelShape,
                                const KilnGraphPoolOptions *opts,
                                MlirValue *indices /* OUT, optional */);

/// Builds graph.average_pool (ONNX AveragePool). `opts` may be NULL.
/// Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildAveragePool(KilnGraphBuilder *b, MlirValue x,
                                    const int64_t *kernelShape,
                                    intptr_t numKernelShape,
                                    const KilnGraphPoolOptions *opts);

/// Builds graph.global_average_pool (ONNX GlobalAveragePool): N x C x 1..1.
/// Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildGlobalAveragePool(KilnGraphBuilder *b, MlirValue x);

/// Builds graph.global_max_pool (ONNX GlobalMaxPool): N x C x 1..1.
/// Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildGlobalMaxPool(KilnGraphBuilder *b, MlirValue x);

/// Builds graph.batch_norm (ONNX BatchNormalization): scale, bias, mean and
/// var are 1-D with one value per channel. ONNX's defaults are epsilon =
/// 1e-5 and momentum = 0.9; both are always set on the op. With
/// `runningMean` and `runningVar` both NULL this is the inference form;
/// otherwise the op gets training_mode = 1 and both results, stored there
/// (null on failure). Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildBatchNormalization(
    KilnGraphBuilder *b, MlirValue x, MlirValue scale, MlirValue bias,
    MlirValue mean, MlirValue var, float epsilon, float momentum,
    MlirValue *runningMean /* OUT, optional */,
    MlirValue *runningVar /* OUT, optional */);

/// Builds graph.instance_norm (ONNX InstanceNormalization): scale
/// and bias are 1-D with one value per channel; ONNX's default epsilon is
/// 1e-5 (always set). Returns the output, or null after an error
/// diagnostic.
MlirValue kilnGraphBuildInstanceNormalization(KilnGraphBuilder *b,
                                              MlirValue input, MlirValue scale,
                                              MlirValue bias, float epsilon);

/// Builds graph.layer_norm (ONNX LayerNormalization) over axes
/// [axis, rank) (negative axis counts from the end; ONNX default -1);
/// bias is optional; stashType is an ONNX float type code (ONNX default 1).
/// axis, epsilon and stash_type are always set. If `mean` or `invStdDev`
/// is non-NULL the op has both statistics results (x's dims before axis,
/// then 1s; stashType's element type), stored there (null on failure).
/// Returns y, or null after an error diagnostic.
MlirValue
kilnGraphBuildLayerNormalization(KilnGraphBuilder *b, MlirValue x,
                                 MlirValue scale, MlirValue bias, int64_t axis,
                                 float epsilon, int64_t stashType,
                                 MlirValue *mean /* OUT, optional */,
                                 MlirValue *invStdDev /* OUT, optional */);

/// Builds graph.lrn (ONNX LRN) over windows of `size` channels (> 0); the
/// ONNX defaults are alpha = 1e-4, beta = 0.75, bias = 1.0 (all always
/// set). Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildLrn(KilnGraphBuilder *b, MlirValue x, int64_t size,
                            float alpha, float beta, float bias);

/// Builds graph.mean_variance_normalization (ONNX
/// MeanVarianceNormalization) over `axes` (NULL: ONNX's default
/// [0, 2, 3]). Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildMeanVarianceNormalization(KilnGraphBuilder *b,
                                                  MlirValue x,
                                                  const int64_t *axes,
                                                  intptr_t numAxes);

/// Operands of graph.rnn, graph.gru and graph.lstm by ONNX name; all but x,
/// w and r may be null (absent). initialC and p are LSTM's only: rnn and
/// gru reject them.
typedef struct KilnGraphRecurrentInputs {
  MlirValue x, w, r, b, sequenceLens, initialH, initialC, p;
} KilnGraphRecurrentInputs;

/// Attributes of graph.rnn, graph.gru and graph.lstm.
typedef struct KilnGraphRecurrentOptions {
  const char *direction; /* NULL: "forward"; "reverse", "bidirectional" */
  int64_t hiddenSize;    /* 0: absent (taken from r) */
  int64_t layout;        /* 0 sequence-major, 1 batch-major */
  /* Activation function names, per direction in order (NULL: ONNX's
   * defaults); stored as an array of strings. */
  const char *const *activations;
  intptr_t numActivations;
  const float *activationAlpha;
  intptr_t numActivationAlpha;
  const float *activationBeta;
  intptr_t numActivationBeta;
  const float *clip;         /* NULL: no clipping */
  int64_t inputForget;       /* lstm only: 0 or 1 */
  int64_t linearBeforeReset; /* gru only: 0 or 1 */
} KilnGraphRecurrentOptions;

/// Builds graph.rnn (ONNX RNN) with both results. `opts` may be NULL.
/// Stores Y_h in `yH` if non-NULL (null on failure). Returns Y
/// (seq x dirs x batch x hidden, or batch-major with layout 1), or null
/// after an error diagnostic.
MlirValue kilnGraphBuildRnn(KilnGraphBuilder *b,
                            const KilnGraphRecurrentInputs *in,
                            const KilnGraphRecurrentOptions *opts,
                            MlirValue *yH /* OUT, optional */);

/// Builds graph.gru (ONNX GRU) with both results, as kilnGraphBuildRnn.
MlirValue kilnGraphBuildGru(KilnGraphBuilder *b,
                            const KilnGraphRecurrentInputs *in,
                            const KilnGraphRecurrentOptions *opts,
                            MlirValue *yH /* OUT, optional */);

/// Builds graph.lstm (ONNX LSTM) with all three results, as
/// kilnGraphBuildRnn; Y_c is stored in `yC` if non-NULL.
MlirValue kilnGraphBuildLstm(KilnGraphBuilder *b,
                             const KilnGraphRecurrentInputs *in,
                             const KilnGraphRecurrentOptions *opts,
                             MlirValue *yH /* OUT, optional */,
                             MlirValue *yC /* OUT, optional */);

/// Builds graph.max_unpool (ONNX MaxUnpool): x and indices (i64, x's
/// shape) come from a max pool with the given kernel; outputShape (1-D
/// i64) is optional. Of `opts` only pads and strides apply (the other
/// fields must be zero: max_unpool rejects them as unknown attributes).
/// Returns the output, or null after an error diagnostic.
MlirValue kilnGraphBuildMaxUnpool(KilnGraphBuilder *b, MlirValue x,
                                  MlirValue indices, MlirValue outputShape,
                                  const int64_t *kernelShape,
                                  intptr_t numKernelShape,
                                  const KilnGraphPoolOptions *opts);

/// Builds graph.grid_sample (ONNX GridSample): x is N x C x D1..Dr, grid
/// N x H1..Hr x r. mode (NULL: "linear") and paddingMode (NULL: "zeros")
/// are set when non-NULL, alignCorners when 1. Returns y, or null after an
/// error diagnostic.
MlirValue kilnGraphBuildGridSample(KilnGraphBuilder *b, MlirValue x,
                                   MlirValue grid, const char *mode,
                                   const char *paddingMode,
                                   int64_t alignCorners);

/// Attributes of graph.roi_align.
typedef struct KilnGraphRoiAlignOptions {
  const char *mode;                         /* NULL: "avg"; "max" */
  const char *coordinateTransformationMode; /* NULL: "half_pixel" */
  int64_t outputHeight;                     /* 0: absent (1) */
  int64_t outputWidth;                      /* 0: absent (1) */
  int64_t samplingRatio;                    /* 0: adaptive (ONNX default) */
  const float *spatialScale;                /* NULL: 1.0 */
} KilnGraphRoiAlignOptions;

/// Builds graph.roi_align (ONNX RoiAlign): x is N x C x H x W, rois
/// num_rois x 4 (x's type), batchIndices num_rois (i64). `opts` may be
/// NULL. Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildRoiAlign(KilnGraphBuilder *b, MlirValue x,
                                 MlirValue rois, MlirValue batchIndices,
                                 const KilnGraphRoiAlignOptions *opts);

/// Builds graph.resize (ONNX Resize): exactly one of scales (f32, one per
/// resized axis) and sizes (i64) is given; roi is optional. `opts` may be
/// NULL. Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildResize(KilnGraphBuilder *b, MlirValue x, MlirValue roi,
                               MlirValue scales, MlirValue sizes,
                               const KilnGraphResizeOptions *opts);

#ifdef __cplusplus
}
#endif

#endif

/* Typed builders for graph ops of the nn family (see graph_builder.h):
 * convolution, pooling, normalization and resize.
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
 *    default of each, except `group`, where 0 means absent = 1). Arrays are
 *    pointer + count. */
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

/// Builds graph.batch_norm (ONNX BatchNormalization, inference
/// form): scale, bias, mean and var are 1-D with one value per channel.
/// ONNX's defaults are epsilon = 1e-5 and momentum = 0.9; both are always
/// set on the op. Returns y, or null after an error diagnostic.
MlirValue kilnGraphBuildBatchNormalization(KilnGraphBuilder *b, MlirValue x,
                                           MlirValue scale, MlirValue bias,
                                           MlirValue mean, MlirValue var,
                                           float epsilon, float momentum);

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
/// axis, epsilon and stash_type are always set. Returns y, or null after an
/// error diagnostic.
MlirValue kilnGraphBuildLayerNormalization(KilnGraphBuilder *b, MlirValue x,
                                           MlirValue scale, MlirValue bias,
                                           int64_t axis, float epsilon,
                                           int64_t stashType);

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

/* The output shape of an ONNX convolution, shared by the float conv of the
 * NN family (ops_nn_window.c, which defines it) and the integer convs of the
 * Quant family (conv_integer, qlinear_conv in ops_quant.c), so that all of
 * them follow one set of window rules and messages. Internal to
 * dialects/graph. */
#ifndef KILN_DIALECTS_GRAPH_CONV_SHAPE_H
#define KILN_DIALECTS_GRAPH_CONV_SHAPE_H

#include <stdint.h>

#include "dialects/graph/infer.h"
#include "mlir-c/IR.h"

/// N x M x O1 ... On for `x` (operand xi, N x C x D1 ... Dn with 1 to 3
/// spatial dims) convolved by `w` (operand wi, M x C/group x k1 ... kn) under
/// the conv window attributes (auto_pad, dilations, group, kernel_shape,
/// pads, strides); checks ranks, group and channels but not element types.
/// Writes rank(x) dims into `shape` (capacity KILN_MAX_RANK). Fails after an
/// error naming the operand or attribute at fault.
MlirLogicalResult kilnNNConvShape(const KilnInferContext *c, intptr_t xi,
                                  MlirType x, intptr_t wi, MlirType w,
                                  int64_t *shape);

#endif

/* Internal to the Quant op family, which is split in two files: ops_quant.c
 * (the table, element types, scale and zero-point checks, matmul shapes) and
 * ops_quant_conv.c (the conv window arithmetic of conv_integer and
 * qlinear_conv). Nothing outside those two files includes this header. */
#ifndef KILN_DIALECTS_GRAPH_OPS_QUANT_H
#define KILN_DIALECTS_GRAPH_OPS_QUANT_H

#include <stdint.h>

#include "dialects/graph/infer.h"
#include "mlir-c/IR.h"

/// The output shape N x M x O1 ... On of an ONNX convolution of `x`
/// (operand xi, N x C x D1 ... Dn with 1 to 3 spatial dims) by `w` (operand
/// wi, M x C/group x k1 ... kn) under the conv attributes (auto_pad,
/// dilations, group, kernel_shape, pads, strides), with graph.conv's rules.
/// Writes rank(x) dims into `shape`; element types are the caller's
/// business. Fails after an error naming the operand or attribute.
MlirLogicalResult kilnQuantConvShape(const KilnInferContext *c, intptr_t xi,
                                     MlirType x, intptr_t wi, MlirType w,
                                     int64_t *shape);

#endif

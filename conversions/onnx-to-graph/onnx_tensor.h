/* ONNX TensorProto -> MLIR: element types and dense elements attributes.
 * Internal to the importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_ONNX_TENSOR_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_ONNX_TENSOR_H

#include <stdint.h>

#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

/// Returns the MLIR element type for an ONNX TensorProto data type (FLOAT,
/// DOUBLE, FLOAT16, INT8, UINT8 -> ui8, INT32, INT64, BOOL -> i1), or a null
/// type for one Kiln does not import yet.
MlirType kilnOnnxElementType(MlirContext ctx, int32_t dataType);

/// Returns ONNX's name of a data type ("FLOAT"), or "data type N".
/// `scratch` (at least 32 bytes) holds the text for unknown codes.
const char *kilnOnnxDataTypeName(int32_t dataType, char *scratch);

/// Converts `t` into a DenseElementsAttr of its ranked tensor type. `what`
/// names it in errors ("initializer 'w'"). Returns a null attribute after
/// emitting an error at `loc` on a bad or unsupported tensor.
MlirAttribute kilnOnnxTensorToAttr(MlirContext ctx, const Onnx__TensorProto *t,
                                   MlirLocation loc, const char *what);

#endif

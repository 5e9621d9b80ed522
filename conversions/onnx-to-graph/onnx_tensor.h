/* ONNX TensorProto -> MLIR: element types and elements attributes.
 * Internal to the importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_ONNX_TENSOR_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_ONNX_TENSOR_H

#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

/// Float tensors of at least this many bytes that kilnOnnxTensorTakeToAttr
/// may take become DenseResourceElementsAttr (see there).
enum { KILN_ONNX_RESOURCE_MIN_BYTES = 4096 };

/// Returns the MLIR element type for an ONNX TensorProto data type (FLOAT,
/// DOUBLE, FLOAT16, BFLOAT16, INT8/16/32/64 -> iN, UINT8/16/32/64 -> uiN,
/// BOOL -> i1), or a null type for one Kiln does not import (STRING,
/// COMPLEX64/128, the float8 and 4-bit types).
MlirType kilnOnnxElementType(MlirContext ctx, int32_t dataType);

/// Returns ONNX's name of a data type ("FLOAT"), or "data type N".
/// `scratch` (at least 32 bytes) holds the text for unknown codes.
const char *kilnOnnxDataTypeName(int32_t dataType, char *scratch);

/// Converts `t` into a DenseElementsAttr of its ranked tensor type, reading
/// external data relative to `baseDir` (NULL: a model imported from memory,
/// where external data is an error). `what` names it in errors
/// ("initializer 'w'"). Returns a null attribute after emitting an error at
/// `loc` on a bad or unsupported tensor. `t` is only read.
MlirAttribute kilnOnnxTensorToAttr(MlirContext ctx, const Onnx__TensorProto *t,
                                   const char *baseDir, MlirLocation loc,
                                   const char *what);

/// As kilnOnnxTensorToAttr, but may take `t`'s data to spare a copy: a
/// float tensor of at least KILN_ONNX_RESOURCE_MIN_BYTES becomes a
/// DenseResourceElementsAttr that owns its raw_data (or external data)
/// buffer, freed with the context; `t`'s raw_data is then emptied. Integer
/// and small tensors stay DenseElementsAttr, which shape inference reads.
MlirAttribute kilnOnnxTensorTakeToAttr(MlirContext ctx, Onnx__TensorProto *t,
                                       const char *baseDir, MlirLocation loc,
                                       const char *what);

#endif

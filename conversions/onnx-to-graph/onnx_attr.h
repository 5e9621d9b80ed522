/* ONNX AttributeProto -> MLIR named attribute, by the op table's spec.
 * Internal to the importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_ONNX_ATTR_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_ONNX_ATTR_H

#include <stdbool.h>

#include "dialects/graph/op_table.h"
#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

/// Converts `a` into `*out` as `spec` prescribes: INT -> i64, FLOAT -> f32,
/// INTS -> array<i64>, FLOATS -> array<f32>, STRING -> string, TENSOR ->
/// dense elements, and for a TYPE spec an ONNX data-type code -> the element
/// type. A TENSOR's external data is read relative to `baseDir` (NULL: none,
/// see kilnOnnxTensorToAttr). Returns false after an error at `loc` when the
/// ONNX attribute has another kind or an unsupported value.
bool kilnOnnxConvertAttr(MlirContext ctx, const KilnAttrSpec *spec,
                         const Onnx__AttributeProto *a, const char *baseDir,
                         MlirLocation loc, MlirNamedAttribute *out);

#endif

/* ONNX AttributeProto -> MLIR named attribute, by the op table's spec.
 * Internal to the importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_ONNX_ATTR_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_ONNX_ATTR_H

#include <stdbool.h>

#include "dialects/graph/op_table.h"
#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

/// The type of attribute `a`: its `type` field, or for an attribute
/// without one (IR version 1) the kind of the one value field it sets;
/// UNDEFINED when that is not exactly one field.
Onnx__AttributeProto__AttributeType
kilnOnnxAttrType(const Onnx__AttributeProto *a);

/// Copies the STRING attribute `a` (a short keyword: Cast-1's "FLOAT",
/// Upsample's "nearest") NUL-terminated into `out[size]`. False when `a` is
/// not a STRING attribute, or is empty or longer than `size - 1` bytes
/// (protobuf-c's bytes are not NUL-terminated, and NULL when empty).
bool kilnOnnxAttrCopyKeyword(const Onnx__AttributeProto *a, char *out,
                             size_t size);

/// Checks that every attribute of `n` has a type (kilnOnnxAttrType is not
/// UNDEFINED). Returns false after an error at `loc` naming the first
/// attribute without a type whose value fields are empty or ambiguous.
bool kilnOnnxCheckAttrTypes(const Onnx__NodeProto *n, MlirLocation loc);

/// Converts `a` into `*out` as `spec` prescribes: INT -> i64, FLOAT -> f32,
/// INTS -> array<i64>, FLOATS -> array<f32>, STRING -> string, STRINGS ->
/// array of strings, TENSOR -> dense elements, and for a TYPE spec an ONNX
/// data-type code -> the element type. The ONNX type is kilnOnnxAttrType. A
/// TENSOR's external data is read relative to `baseDir` (NULL: none, see
/// kilnOnnxTensorToAttr). Returns false after an error at `loc` when the ONNX
/// attribute has another kind or an unsupported value.
bool kilnOnnxConvertAttr(MlirContext ctx, const KilnAttrSpec *spec,
                         const Onnx__AttributeProto *a, const char *baseDir,
                         MlirLocation loc, MlirNamedAttribute *out);

/// Constant node `n`: checks that it sets exactly one value attribute and
/// turns `value_float`/`value_floats`/`value_int`/`value_ints` into the
/// graph op's `value` tensor (0-D f32, 1-D f32, 0-D i64, 1-D i64), appended
/// to `attrs` (*numAttrs counts it) with the ONNX attribute marked in
/// `consumed`; `value` itself is left to the op table. Returns false after
/// an error at `loc`: none or several value attributes, the unsupported
/// `sparse_value`, `value_string` or `value_strings`, a value of the wrong
/// kind.
bool kilnOnnxConvertConstantForms(MlirContext ctx, const Onnx__NodeProto *n,
                                  MlirLocation loc, bool *consumed,
                                  MlirNamedAttribute *attrs,
                                  intptr_t *numAttrs);

#endif

/* Older ONNX op forms -> the latest form the graph dialect follows.
 * Internal to the importer.
 *
 * Several ONNX ops turned attributes into inputs in later opsets (Squeeze's
 * `axes` in 13, Clip's `min`/`max` in 11, ...). Graph ops take those as
 * operands, so for a model importing an older opset the importer turns each
 * such attribute into a graph.constant and passes it as the operand.
 *
 * Opsets before 7 add more: hints without effect on inference results
 * (`consumed_inputs`, `is_test`) are dropped; BatchNormalization's
 * `spatial` must be 1; binary ops broadcast only with `broadcast = 1`, with
 * B aligned at `axis` of A (B is reshaped so numpy broadcasting matches);
 * Concat's `axis` defaults to 1; Cast-1 names its target type as a string. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_OPSET_COMPAT_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_OPSET_COMPAT_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/graph_builder.h"
#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

/// The range of default-domain opset versions the importer accepts.
enum { KILN_ONNX_MIN_OPSET = 1, KILN_ONNX_MAX_OPSET = 22 };

/// The largest operand index any attribute of `opType` maps to, or -1 when
/// `opType` at `opset` has no attribute-form operand. Callers size the
/// operand array to max(n_input, this + 1).
int kilnOnnxCompatMaxOperand(const char *opType, long long opset);

/// For node `n` at default-domain `opset`: first checks that every
/// attribute has a type (IR v1 attributes without one take it from their
/// one value field, kilnOnnxAttrType) and turns a Constant's scalar and list
/// forms into its `value` (kilnOnnxConvertConstantForms). Then builds a
/// graph.constant with `b`
/// for every attribute that later opsets made an input, stores it into
/// `operands` (at least kilnOnnxCompatMaxOperand + 1 slots, operand 0 set)
/// and marks the attribute in `consumed` (n->n_attribute slots); drops
/// legacy hints, rewrites legacy broadcasting, and appends attributes whose
/// form changed (Cast-1 `to`, Concat-1 default `axis`) to `attrs` (room for
/// n->n_attribute + 1), counting them in *numAttrs. Returns false after an
/// error at `loc` (an attribute without a type and without exactly one
/// value, a Constant without exactly one supported value attribute, an
/// attribute of the wrong kind or an unsupported value,
/// an operand given both ways, a non-float input for a float scalar,
/// shapes legacy broadcasting does not allow).
bool kilnOnnxCompatApply(KilnGraphBuilder *b, const Onnx__NodeProto *n,
                         long long opset, MlirLocation loc, MlirValue *operands,
                         bool *consumed, MlirNamedAttribute *attrs,
                         intptr_t *numAttrs);

#endif

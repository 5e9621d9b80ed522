/* ONNX ops built from one or several graph ops other than their namesake:
 * N-ary chains, Split into unequal pieces, Upsample and Resize-10, Scatter,
 * Softmax/LogSoftmax/Hardmax before opset 13. Internal to the importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_COMPOSITE_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_COMPOSITE_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/op_table.h"
#include "kiln/graph_builder.h"
#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

/// The graph op implementing ONNX op `opType` (default domain): the op
/// whose table entry has that onnxName, or for Sum and Mean graph.add,
/// Scatter the op for ScatterElements, Upsample graph.resize. NULL if none.
const KilnGraphOpInfo *kilnOnnxLookupOp(const char *opType);

/// True if kilnOnnxBuildNode reads `opType`'s ONNX attributes itself
/// (Upsample's differ from resize's), so they are not converted by the op
/// table.
bool kilnOnnxReadsOwnAttrs(const char *opType);

/// Builds node `n` (opset `opset`) as graph op `op` from its operands (by
/// ONNX position, null = absent) and converted attributes, with `b` at the
/// node's location: N-ary Min, Max, Concat, Sum become left-leaning chains
/// of the binary op (one input: that input), Mean a Sum chain divided by N,
/// a Split into unequal pieces one graph.slice per piece, Upsample and
/// Resize-10 (inputs X, scales) a resize with Upsample's coordinates,
/// Softmax/LogSoftmax/Hardmax before opset 13 the op along the last dim or
/// flatten + op + reshape (the old 2-D meaning); others one op. Stores the
/// value for each ONNX output in `results` (n->n_output slots; null for absent
/// results). False after an error.
bool kilnOnnxBuildNode(KilnGraphBuilder *b, const KilnGraphOpInfo *op,
                       const Onnx__NodeProto *n, long long opset,
                       const MlirValue *operands, intptr_t numOperands,
                       const MlirNamedAttribute *attrs, intptr_t numAttrs,
                       MlirValue *results);

#endif

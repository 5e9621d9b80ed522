/* ONNX control flow (If, Loop, Scan) -> upstream structured control flow
 * holding graph ops. Internal to the importer.
 *
 * IRDL binds every value of a variadic result to one type, so a graph op
 * cannot yield the differently typed results If/Loop/Scan have. They import
 * as scf.if / scf.while / scf.for (region ops with typed, variadic results)
 * whose regions hold the imported subgraphs as graph ops, with tensor and
 * arith ops for the scalars and slices in between. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_CONTROL_FLOW_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_CONTROL_FLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

/// Imports subgraph `g` at the end of `block`, with g's inputs bound by
/// name to `inputs` (g->n_input values) and the names of the enclosing
/// graphs still visible (inner names shadow them and are dropped at the
/// end). Stores the value of each of g's outputs in `outputs`
/// (g->n_output slots). False after errors (reported).
typedef bool (*KilnOnnxSubgraphFn)(void *importer, const Onnx__GraphProto *g,
                                   MlirBlock block, const MlirValue *inputs,
                                   MlirValue *outputs);

/// What a control-flow node is imported with: the block it goes to (ops
/// are appended at its end) and the importer's subgraph entry point.
typedef struct KilnOnnxControlFlow {
  MlirContext ctx;
  MlirBlock block;
  long long opset; /* of the default domain */
  KilnOnnxSubgraphFn importSubgraph;
  void *importer;
} KilnOnnxControlFlow;

/// True if `opType` (default domain) is If, Loop or Scan.
bool kilnOnnxIsControlFlowOp(const char *opType);

/// Imports control-flow node `n` at `loc` from its operands (by ONNX
/// position, n->n_input slots, null = absent) and stores the value of
/// each ONNX output in `results` (n->n_output slots). False after errors
/// at `loc` or inside the subgraphs.
bool kilnOnnxBuildControlFlow(const KilnOnnxControlFlow *cf,
                              const Onnx__NodeProto *n, MlirLocation loc,
                              const MlirValue *operands, MlirValue *results);

#endif

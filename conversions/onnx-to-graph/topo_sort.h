/* Node order and name checks for an ONNX graph. Internal to the importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_TOPO_SORT_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_TOPO_SORT_H

#include <stddef.h>

#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

/// Checks `g`'s names and orders its nodes. Errors (at `fileLoc` or the
/// node): a node without op_type, a graph input or initializer listed twice
/// (an initializer that is also an input is IR v3's way to give a default),
/// a value produced by two nodes, a node output shadowing a graph input or
/// initializer, a cycle (naming its nodes). ONNX requires topological order
/// but some exporters break it, so on success the returned malloc'd array
/// holds every node index in an order where producers come first: the
/// file's order when it is valid, else Kahn's order preferring earlier
/// nodes. Inputs that nothing defines are left for the importer to report.
/// Returns NULL after errors.
size_t *kilnOnnxSortNodes(const Onnx__GraphProto *g, MlirLocation fileLoc);

#endif

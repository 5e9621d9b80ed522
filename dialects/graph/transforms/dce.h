/* The dead-op erasure of graph-dce, shared with the passes that leave graph
 * ops without uses (graph-simplify). Not a public header.
 *
 * Every graph op is pure, so a graph op without regions whose results are
 * unused may be erased (see dce.c). */
#ifndef KILN_DIALECTS_GRAPH_TRANSFORMS_DCE_H
#define KILN_DIALECTS_GRAPH_TRANSFORMS_DCE_H

#include "mlir-c/IR.h"
#include "support/op_list.h"

/// Appends to `list` the op defining each operand of `op` that DCE may
/// erase (a graph op without regions). An op used twice is appended twice.
void kilnGraphDCEPushOperandDefs(KilnOpList *list, MlirOperation op);

/// Erases the ops of `list` that have no uses, then each op that erasing
/// them leaves without uses, transitively. The ops of `list` must be alive
/// graph ops without regions; duplicates are allowed. Leaves `list` empty
/// (its storage is kept).
void kilnGraphDCEEraseUnused(KilnOpList *list);

#endif

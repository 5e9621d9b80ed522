/* Checks shared by the graph builders and graph-verify: attribute kinds
 * against the op table, and running an op's type inference. */
#ifndef KILN_DIALECTS_GRAPH_OP_CHECK_H
#define KILN_DIALECTS_GRAPH_OP_CHECK_H

#include "dialects/graph/infer.h"
#include "dialects/graph/op_table.h"

/// Checks every attribute against `op`'s specs: known name (names with a '.'
/// are discardable and allowed, as are operandSegmentSizes and
/// resultSegmentSizes), the right kind, required ones present. Emits an
/// error at `loc` for the first violation.
MlirLogicalResult kilnGraphCheckAttrs(const KilnGraphOpInfo *op,
                                      const MlirNamedAttribute *attrs,
                                      intptr_t numAttrs, MlirLocation loc);

/// Returns the attribute-kind name used in diagnostics ("i64 integer").
const char *kilnGraphAttrKindName(KilnAttrKind kind);

#endif

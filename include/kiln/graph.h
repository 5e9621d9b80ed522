/* The graph dialect: Kiln's ONNX-level IR.
 *
 * The dialect is defined in dialects/graph/graph.irdl.mlir, embedded in the
 * library and loaded at run time. Ops are printed and parsed in MLIR's
 * generic form only. See docs/graph-dialect.md for every op. */
#ifndef KILN_GRAPH_H
#define KILN_GRAPH_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Loads the graph dialect into `ctx` unless it is already loaded (loading
/// an IRDL dialect twice crashes MLIR, so this is the only way Kiln loads
/// it). Failure emits a diagnostic.
MlirLogicalResult kilnGraphDialectLoad(MlirContext ctx);

/// Returns true if the graph dialect is loaded in `ctx`.
bool kilnGraphDialectIsLoaded(MlirContext ctx);

/// Returns the dialect's IRDL source text (static, NUL-terminated).
const char *kilnGraphDialectGetIRDLSource(void);

/// Verifies every graph op nested in `root` (root included) by the rules
/// IRDL cannot state: attributes against the op table, and declared result
/// types against those inferred from operands and attributes (pass
/// graph-verify). Emits one located error per bad op and returns failure if
/// any.
MlirLogicalResult kilnGraphVerify(MlirOperation root);

#ifdef __cplusplus
}
#endif

#endif

/* Kiln compiler API: contexts set up for Kiln, and the version.
 *
 * Ownership follows mlir-c: Create/Destroy pairs, Get borrows. */
#ifndef KILN_KILN_H
#define KILN_KILN_H

#include "kiln/version.h"
#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Returns Kiln's version, e.g. "0.1.0". Borrowed, static.
const char *kilnGetVersion(void);

/// Creates an MLIR context ready for Kiln: every upstream dialect registered
/// (loaded lazily), every upstream pass registered, and the func and graph
/// dialects loaded. Returns a null context if the graph dialect failed to
/// load (a diagnostic has been emitted). Destroy with kilnContextDestroy.
MlirContext kilnContextCreate(void);

/// Destroys a context made by kilnContextCreate; a null context is a no-op.
void kilnContextDestroy(MlirContext ctx);

#ifdef __cplusplus
}
#endif

#endif

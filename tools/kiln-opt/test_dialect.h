/* MLIR's test dialect, as far as upstream tests need it.
 *
 * Debian's mlir-opt-22 registers the `test` dialect, which accepts any op
 * named `test.*`; upstream tests write such ops ("test.foo") without
 * --allow-unregistered-dialect. MLIR's C API cannot register that dialect,
 * so kiln-opt parses an input that names test ops with unregistered ops
 * allowed, then rejects every unregistered op outside `test` with the error
 * mlir-opt's parser gives. (The test dialect's registered ops, types and
 * attributes with their own syntax or verifiers are not available.) */
#ifndef KILN_TOOLS_KILN_OPT_TEST_DIALECT_H
#define KILN_TOOLS_KILN_OPT_TEST_DIALECT_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

/// Does the text name a generic-form op of the test dialect (`"test.`)?
bool kilnOptNamesTestOps(const char *text, size_t length);

/// Reports (at the first one, in mlir-opt's words) an unregistered op
/// outside the test dialect under `root`; fails if there is one.
MlirLogicalResult kilnOptCheckOnlyTestOpsUnregistered(MlirContext ctx,
                                                      MlirOperation root);

#endif

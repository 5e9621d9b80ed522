/* Running a lowered module with MLIR's ExecutionEngine, and the memref
 * descriptors of its C interface. Internal to kiln-run. */
#ifndef KILN_TOOLS_KILN_RUN_EXECUTE_H
#define KILN_TOOLS_KILN_RUN_EXECUTE_H

#include <stdbool.h>

#include "kiln/kiln_runtime.h"
#include "mlir-c/IR.h"

/// JIT-compiles `module` (LLVM dialect, with `_mlir_ciface_ENTRY`) with
/// libomp at `libompPath` (NULL: none) and calls ENTRY with `inputs` then
/// `outputs` as memref descriptors; outputs are written in place. Returns
/// false after printing an error to stderr.
bool kilnRunInvoke(MlirModule module, const char *entry, const char *libompPath,
                   KilnTensor *const *inputs, int numInputs,
                   KilnTensor *const *outputs, int numOutputs);

#endif

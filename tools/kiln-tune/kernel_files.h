/* kiln-tune's kernels as files: the module of one workload, and inputs
 * for it that every candidate runs on. */
#ifndef KILN_TOOLS_KILN_TUNE_KERNEL_FILES_H
#define KILN_TOOLS_KILN_TUNE_KERNEL_FILES_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/// Writes `module` as text to `path`; false on a write error.
bool kernelWriteModule(MlirModule module, const char *path);

/// Writes the inputs of `kernel`'s function as DIR/inK.npy: floats
/// uniform in [-1, 1) from a fixed seed (the same inputs for every
/// candidate), other types zero (indices stay in range). Returns how many,
/// -1 on failure (an input type the runtime cannot hold, a write error).
int kernelWriteInputs(MlirModule kernel, const char *dir);

#endif

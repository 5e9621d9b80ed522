/* Weights kept out of LLVM IR: the large constants of an LLVM-dialect
 * module whose bytes Kiln knows (support/resource_data.h) are
 * translated as declarations, and code generation writes their bytes
 * straight from the MLIR buffers into objects of their own (split.c).
 * The translation would otherwise copy every weight into an LLVM
 * constant, and each code generation thread copy it again. */
#ifndef KILN_PIPELINES_BACKEND_DETACHED_H
#define KILN_PIPELINES_BACKEND_DETACHED_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

/// Data arrays at least this large are weights: detached here, and kept
/// out of the bitcode of a split module (split.c).
enum { kKilnLargeDataBytes = 4096 };

typedef struct KilnDetachedData KilnDetachedData;

/// Takes the `value` out of every constant `llvm.mlir.global` of `module`
/// whose value is a registered resource attribute of at least `minBytes`
/// and which has an explicit alignment, making it an external declaration
/// for the translation. Restore the module with kilnDetachedDataRestore.
KilnDetachedData *kilnDetachedDataCreate(MlirModule module, size_t minBytes);
/// Puts the values and linkages back into the module's globals.
void kilnDetachedDataRestore(KilnDetachedData *d);
/// Destroys `d` (NULL is a no-op); restore the module first.
void kilnDetachedDataDestroy(KilnDetachedData *d);

/// The number of detached globals (0 for NULL).
size_t kilnDetachedDataCount(const KilnDetachedData *d);
/// Global `i`'s NUL-terminated name and bytes, borrowed from `d` and the
/// module's context.
const char *kilnDetachedDataGetName(const KilnDetachedData *d, size_t i);
const void *kilnDetachedDataGetBytes(const KilnDetachedData *d, size_t i,
                                     size_t *size /* OUT */);

#endif

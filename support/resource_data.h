/* Where the bytes of Kiln's dense-resource attributes live. MLIR's C API
 * reads a DenseResourceElementsAttr element by element only, so copying
 * or reshaping a weight would take a pass over it and a second buffer.
 * Kiln records the buffer of every resource attribute it creates instead:
 * the lowering reshapes a weight by aliasing its buffer, and code
 * generation writes the bytes into the object without an LLVM constant
 * (docs/performance.md, "Compile time"). Thread-safe: passes run on
 * MLIR's thread pool. */
#ifndef KILN_SUPPORT_RESOURCE_DATA_H
#define KILN_SUPPORT_RESOURCE_DATA_H

#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/IR.h"

/// Records that resource attribute `attr` holds the `size` bytes at `data`,
/// which stay valid until kilnResourceDataForget(data).
void kilnResourceDataRegister(MlirAttribute attr, const void *data,
                              size_t size);

/// The bytes of `attr` (borrowed; *size receives their count), or NULL if
/// `attr` was not registered.
const void *kilnResourceDataLookup(MlirAttribute attr, size_t *size);

/// Asks that the global code generation makes of registered attribute
/// `attr` be aligned to `align` bytes (a power of two; more than the
/// global would get otherwise): a sharded model's per-rank weights start on
/// their own 2 MiB pages.
void kilnResourceDataSetAlignment(MlirAttribute attr, size_t align);

/// The alignment asked for `attr`, 0 if none.
size_t kilnResourceDataGetAlignment(MlirAttribute attr);

/// Records that registered attribute `attr` is a sharded model's rank-major
/// weights (bind_weights.c): one row of `rowBytes` bytes per rank, of which
/// each rank reads the first `usedBytes`. The library lists such globals
/// for the runtime (`kiln_model_weight_rows`, docs/runtime.md).
void kilnResourceDataSetRankRows(MlirAttribute attr, size_t rowBytes,
                                 size_t usedBytes);

/// The rows recorded for `attr`; false if none.
bool kilnResourceDataGetRankRows(MlirAttribute attr, size_t *rowBytes /* OUT */,
                                 size_t *usedBytes /* OUT */);

/// Forgets every attribute registered with `data`: the blob deleter calls
/// this before freeing the buffer.
void kilnResourceDataForget(const void *data);

#endif

/* The bytes of a weight constant, whichever attribute holds them
 * (DenseElementsAttr, or the DenseResourceElementsAttr Kiln makes for
 * large weights), and weight attributes made of bytes: what the sharding
 * passes lift and slice. */
#ifndef KILN_DIALECTS_SHARD_TRANSFORMS_WEIGHT_BYTES_H
#define KILN_DIALECTS_SHARD_TRANSFORMS_WEIGHT_BYTES_H

#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

/// The row-major bytes of the non-splat tensor constant `attr` (borrowed;
/// `*size` their count), or NULL when they cannot be read (a resource Kiln
/// did not make, a splat, an element type without whole bytes).
const void *kilnWeightBytes(MlirAttribute attr, size_t *size /* OUT */);

/// A weight attribute of tensor type `type` holding a copy of `data[0,
/// size)` (up to 1 KiB a DenseElementsAttr, else a resource that frees its
/// copy with the context); null if `size` is not the type's.
MlirAttribute kilnWeightFromBytes(MlirType type, const void *data, size_t size);

/// A zeroed, 64-byte aligned buffer of `size` bytes for
/// kilnWeightFromOwnedBuffer (aborts when memory runs out).
void *kilnWeightBufferCreate(size_t size);

/// kilnWeightFromBytes without the copy: the attribute takes `buffer`
/// (from kilnWeightBufferCreate, `size` bytes), freed with the context, or
/// at once when the weight is small enough to be inline or `size` is not
/// the type's (null then). A model's weights are then in memory once, not
/// twice, while a pass builds them.
MlirAttribute kilnWeightFromOwnedBuffer(MlirType type, void *buffer,
                                        size_t size);

/// `attr`'s bytes as a weight of `type` (the same elements, another
/// shape): `attr` itself when it has that type; null when unreadable.
MlirAttribute kilnWeightReshaped(MlirAttribute attr, MlirType type);

/// The static slice of `attr` (its bytes read as tensor type `whole`, the
/// same elements) at `offsets` with shape and type `slice`, unit strides;
/// null when unreadable.
MlirAttribute kilnWeightSliced(MlirAttribute attr, MlirType whole,
                               const int64_t *offsets, MlirType slice);

/// Bytes per element of tensor type `type`; 0 for an element type without
/// whole bytes.
size_t kilnWeightElementBytes(MlirType type);

/// Bytes of static tensor type `type` (0 for an element type without whole
/// bytes).
size_t kilnWeightTypeBytes(MlirType type);

#endif

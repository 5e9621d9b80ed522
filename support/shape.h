/* Shape helpers shared by Kiln's passes and lowerings. */
#ifndef KILN_SUPPORT_SHAPE_H
#define KILN_SUPPORT_SHAPE_H

#include <stdint.h>

#include "mlir-c/IR.h"

/// Number of elements of a static shaped type.
int64_t kilnNumElements(MlirType shaped);

/// Bytes one element of type `element` takes in a buffer (integers and
/// floats rounded up to whole bytes, so i1 is one; index is 8), or 0 for a
/// type without a fixed size here.
int64_t kilnElementByteSize(MlirType element);

/// Bytes of a buffer of the shaped type `shaped`: the element size times
/// every static dim (dynamic dims count as 1; a zero dim makes 0), saturating
/// at INT64_MAX where the product would overflow; an element type without a
/// fixed size counts 8 bytes.
int64_t kilnShapedByteSize(MlirType shaped);

#endif

/* Shape arithmetic shared by the tensor file readers. Internal to
 * libkiln_runtime. */
#ifndef KILN_RUNTIME_TENSOR_H
#define KILN_RUNTIME_TENSOR_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_runtime.h"

/* Tensor data is host order and both file formats are little-endian; the
 * readers copy bytes straight through, so refuse to build elsewhere rather
 * than silently corrupt data. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "libkiln_runtime assumes a little-endian host"
#endif

/// Checks a tensor type and shape as kilnTensorCreate does and returns the
/// data's byte size in `*outBytes`, without allocating anything, so readers
/// can compare it with the bytes a file actually holds first.
KilnStatus *kilnTensorComputeByteSize(KilnElementType type, int64_t rank,
                                      const int64_t *dims, size_t *outBytes);

#endif

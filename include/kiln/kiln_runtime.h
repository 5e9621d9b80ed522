/* Kiln's runtime API (libkiln_runtime): host tensors and their files.
 *
 * The runtime depends on libc only, so it can be linked into any program.
 *
 * Errors are objects, in the style of IREE's C API: every fallible call
 * returns a `KilnStatus *`, NULL on success. A non-NULL status owns a
 * human-readable message (for file functions prefixed with the path) and
 * must be released with kilnStatusDestroy. On failure, out-parameters are
 * set to NULL. Bad input (malformed files, impossible shapes) is always an
 * error status, never a crash; only a failed small allocation aborts. */
#ifndef KILN_KILN_RUNTIME_H
#define KILN_KILN_RUNTIME_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

//===----------------------------------------------------------------------===//
// Status
//===----------------------------------------------------------------------===//

/// An error: NULL means success.
typedef struct KilnStatus KilnStatus;

/// The status' message (borrowed, valid until kilnStatusDestroy); "ok" for
/// NULL.
const char *kilnStatusGetMessage(const KilnStatus *status);

/// Releases `status`; NULL is a no-op.
void kilnStatusDestroy(KilnStatus *status);

//===----------------------------------------------------------------------===//
// Tensors
//===----------------------------------------------------------------------===//

/// Element types of host tensors. Values are Kiln's own (not ONNX's).
typedef enum KilnElementType {
  KILN_ELEMENT_TYPE_F16,
  KILN_ELEMENT_TYPE_BF16,
  KILN_ELEMENT_TYPE_F32,
  KILN_ELEMENT_TYPE_F64,
  KILN_ELEMENT_TYPE_I8,
  KILN_ELEMENT_TYPE_I16,
  KILN_ELEMENT_TYPE_I32,
  KILN_ELEMENT_TYPE_I64,
  KILN_ELEMENT_TYPE_U8,
  KILN_ELEMENT_TYPE_U16,
  KILN_ELEMENT_TYPE_U32,
  KILN_ELEMENT_TYPE_U64,
  /// One byte per element, 0 or 1.
  KILN_ELEMENT_TYPE_BOOL,
} KilnElementType;

/// The largest rank a tensor may have (numpy's limit).
#define KILN_TENSOR_MAX_RANK 64

/// Size in bytes of one element of `type`, 0 for a value outside the enum.
size_t kilnElementTypeGetSize(KilnElementType type);

/// A short lower-case name ("f32", "bool"), "?" outside the enum.
const char *kilnElementTypeGetName(KilnElementType type);

/// A dense host tensor: element type, rank, dims and contiguous row-major
/// little-endian (host-order) data owned by the tensor, plus an optional
/// name. Opaque; use the accessors.
typedef struct KilnTensor KilnTensor;

/// Creates a zero-filled tensor of `type` with `rank` dims (0 for a scalar;
/// `dims` may be NULL then). Fails on an unknown type, a rank outside
/// 0..KILN_TENSOR_MAX_RANK, a negative dim, a byte size that overflows, or
/// memory that cannot be allocated. Destroy with kilnTensorDestroy.
KilnStatus *kilnTensorCreate(KilnElementType type, int64_t rank,
                             const int64_t *dims, KilnTensor **out /* OUT */);

/// Releases `tensor` and its data; NULL is a no-op.
void kilnTensorDestroy(KilnTensor *tensor);

KilnElementType kilnTensorGetElementType(const KilnTensor *tensor);
int64_t kilnTensorGetRank(const KilnTensor *tensor);
/// The dims (borrowed; `rank` entries, NULL-safe to read for rank 0).
const int64_t *kilnTensorGetDims(const KilnTensor *tensor);
/// The number of elements (product of the dims; 1 for a scalar).
int64_t kilnTensorGetElementCount(const KilnTensor *tensor);
/// The size of the data in bytes.
size_t kilnTensorGetByteSize(const KilnTensor *tensor);
/// The data (owned by the tensor, writable, never NULL).
void *kilnTensorGetData(KilnTensor *tensor);
const void *kilnTensorGetConstData(const KilnTensor *tensor);
/// The name (borrowed), or NULL when the tensor has none.
const char *kilnTensorGetName(const KilnTensor *tensor);
/// Copies `name` into the tensor (NULL removes the name).
void kilnTensorSetName(KilnTensor *tensor, const char *name);

//===----------------------------------------------------------------------===//
// .npy files (numpy's format, versions 1.0, 2.0 and 3.0)
//===----------------------------------------------------------------------===//

/// Parses the .npy bytes `data[0, len)` into a new tensor. Accepts the
/// dtypes <f2 <f4 <f8 |i1 <i2 <i4 <i8 |u1 <u2 <u4 <u8 |b1 (big-endian
/// '>' forms are byte-swapped; '=' is read as little-endian), C order only.
/// The data must be exactly as long as the shape says. bf16 has no numpy
/// dtype. `data` is only read during the call.
KilnStatus *kilnTensorReadNpy(const void *data, size_t len,
                              KilnTensor **out /* OUT */);

/// As kilnTensorReadNpy for the file at `path`.
KilnStatus *kilnTensorReadNpyFile(const char *path, KilnTensor **out /* OUT */);

/// Serializes `tensor` as a version 1.0 .npy file, byte for byte as
/// numpy.save writes it. Returns the bytes in `*outData` (release with
/// free) and their count in `*outLen`. Fails for bf16.
KilnStatus *kilnTensorWriteNpy(const KilnTensor *tensor,
                               void **outData /* OUT */,
                               size_t *outLen /* OUT */);

/// As kilnTensorWriteNpy, writing the file at `path`.
KilnStatus *kilnTensorWriteNpyFile(const KilnTensor *tensor, const char *path);

//===----------------------------------------------------------------------===//
// ONNX TensorProto files (.pb)
//===----------------------------------------------------------------------===//

/// Parses the serialized onnx.TensorProto `data[0, len)` into a new tensor
/// named after the proto's `name` (if set). Elements are decoded as ONNX
/// does: raw_data (little-endian), float_data, double_data, int64_data,
/// int32_data (which carries i8/i16/u8/u16/bool/f16/bf16 values, truncated
/// to the type's width, bool as nonzero) or uint64_data (u32/u64). Fails on
/// malformed wire data, string or complex tensors, external or segmented
/// data, an element count that differs from the dims, or more than one data
/// field. `data` is only read during the call.
KilnStatus *kilnTensorReadPb(const void *data, size_t len,
                             KilnTensor **out /* OUT */);

/// As kilnTensorReadPb for the file at `path`.
KilnStatus *kilnTensorReadPbFile(const char *path, KilnTensor **out /* OUT */);

#ifdef __cplusplus
}
#endif

#endif

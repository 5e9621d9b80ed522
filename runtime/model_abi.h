/* The model library ABI's data formats (docs/runtime.md, "Model
 * libraries"), one definition each for the code that writes libraries
 * (kiln-compile's signature and metadata) and the code that reads and
 * calls them (libkiln_runtime, kiln-run's JIT): the memref descriptor a
 * model's arguments are passed as, and the escaping of tensor names in
 * metadata records. The element types' names are kilnElementTypeGetName's
 * (kiln_runtime.h), also defined in model_abi.c. No MLIR here: the runtime
 * links this file, and so does the compiler. */
#ifndef KILN_RUNTIME_MODEL_ABI_H
#define KILN_RUNTIME_MODEL_ABI_H

#include <stddef.h>
#include <stdint.h>

/// A strided memref descriptor as MLIR's C interface passes one: two
/// pointers, then offset, sizes[rank] and strides[rank]; its size depends
/// on the rank (kilnMemRefDescSize).
typedef struct KilnMemRefDesc {
  void *allocated;
  void *aligned;
  int64_t offset;
  int64_t sizesAndStrides[];
} KilnMemRefDesc;

/// The bytes of a descriptor of `rank` dims.
size_t kilnMemRefDescSize(int64_t rank);
/// Fills `desc` (kilnMemRefDescSize(rank) bytes) for the dense row-major
/// data at `data` with `dims`: offset 0, strides the suffix products of the
/// dims (computed unsigned: with a zero dim the others may overflow, and
/// then address nothing).
void kilnMemRefDescFill(KilnMemRefDesc *desc, void *data, int64_t rank,
                        const int64_t *dims);

struct KilnTensor;
/// Descriptors of the dense tensors `tensors[0, n)` (kilnMemRefDescFill),
/// built in one allocation, which is returned (free it after the call);
/// `descs[i]` points at tensor i's, as a model's entry takes them.
char *kilnMemRefDescsCreate(struct KilnTensor *const *tensors, size_t n,
                            void **descs /* OUT, n entries */);

/// A sharded model's rank-major weights (docs/runtime.md, "Sharded
/// models"): each global holds one row of `rowBytes` bytes per rank, rank
/// r's at `base + r * rowBytes`, of which it reads the first `usedBytes`.
/// The library exports them as the array `kiln_model_weight_rows`, ended
/// by an entry whose `base` is NULL; a library without split weights has
/// no such symbol.
typedef struct KilnModelWeightRows {
  const void *base;
  uint64_t rowBytes, usedBytes;
} KilnModelWeightRows;
#define KILN_MODEL_WEIGHT_ROWS_SYMBOL "kiln_model_weight_rows"

/// Every symbol a model library may export (docs/runtime.md), ended by
/// NULL: the back end keeps them exported (a model's own symbol of such a
/// name steps aside) and code generation keeps their definitions together.
extern const char *const kilnModelAbiSymbols[];

/// A tensor name as a metadata record holds it: '%', '\n' and '\r' as %25,
/// %0A and %0D, every other byte as is. Returns a malloc'd string.
char *kilnModelAbiNameEncode(const char *name, size_t length);
/// The inverse: %25, %0A and %0D decoded, other bytes (a '%' starting no
/// such escape too) kept. Returns a malloc'd string.
char *kilnModelAbiNameDecode(const char *begin, const char *end);

#endif

/* KilnTensor: a dense, row-major host tensor whose data it owns (64-byte
 * aligned) or borrows from the caller. */
#include "runtime/tensor.h"

#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/half.h"
#include "runtime/status.h"

struct KilnTensor {
  KilnElementType type;
  int64_t rank;
  int64_t dims[KILN_TENSOR_MAX_RANK];
  int64_t elementCount;
  size_t byteSize;
  /* Never NULL: at least one byte is allocated, so empty tensors have a
   * valid pointer too. */
  void *data;
  /* False for kilnTensorCreateWithBuffer's caller-owned buffers. */
  bool ownsData;
  char *name;
};

/* Compiled code uses aligned vector loads where it can prove alignment;
 * 64 bytes is a cache line and an AVX-512 vector. */
enum { kTensorAlignment = 64 };

KilnStatus *kilnTensorComputeByteSize(KilnElementType type, int64_t rank,
                                      const int64_t *dims, size_t *outBytes) {
  *outBytes = 0;
  size_t elemSize = kilnElementTypeGetSize(type);
  if (elemSize == 0)
    return kilnStatusCreatef("unknown element type %d", (int)type);
  if (rank < 0 || rank > KILN_TENSOR_MAX_RANK)
    return kilnStatusCreatef("rank %lld is outside 0..%d", (long long)rank,
                             KILN_TENSOR_MAX_RANK);
  if (rank > 0 && !dims)
    return kilnStatusCreatef("dims is NULL");
  /* Bounded by both SIZE_MAX bytes and INT64_MAX elements, so element
   * counts and byte offsets never overflow downstream either. */
  uint64_t limit = (uint64_t)SIZE_MAX < (uint64_t)INT64_MAX
                       ? (uint64_t)SIZE_MAX
                       : (uint64_t)INT64_MAX;
  bool empty = false;
  for (int64_t i = 0; i < rank; ++i) {
    if (dims[i] < 0)
      return kilnStatusCreatef("dim %lld is negative (%lld)", (long long)i,
                               (long long)dims[i]);
    empty |= dims[i] == 0;
  }
  /* A zero dim makes the tensor empty whatever the other dims are. */
  uint64_t bytes = empty ? 0 : elemSize;
  for (int64_t i = 0; i < rank && !empty; ++i) {
    uint64_t d = (uint64_t)dims[i];
    if (bytes > limit / d)
      return kilnStatusCreatef("tensor size overflows (dim %lld = %lld)",
                               (long long)i, (long long)dims[i]);
    bytes *= d;
  }
  *outBytes = (size_t)bytes;
  return NULL;
}

/* The tensor around `data`, whose shape is checked and takes `bytes`. */
static KilnTensor *tensorCreate(KilnElementType type, int64_t rank,
                                const int64_t *dims, size_t bytes, void *data,
                                bool ownsData) {
  KilnTensor *t = calloc(1, sizeof(*t));
  if (!t)
    abort();
  t->type = type;
  t->rank = rank;
  for (int64_t i = 0; i < rank; ++i)
    t->dims[i] = dims[i];
  /* Not the product of the dims: with a zero dim the others may overflow. */
  t->elementCount = (int64_t)(bytes / kilnElementTypeGetSize(type));
  t->byteSize = bytes;
  t->data = data;
  t->ownsData = ownsData;
  return t;
}

KilnStatus *kilnTensorCreate(KilnElementType type, int64_t rank,
                             const int64_t *dims, KilnTensor **out) {
  if (!out)
    return kilnStatusCreatef("kilnTensorCreate: out is NULL");
  *out = NULL;
  size_t bytes;
  KilnStatus *status = kilnTensorComputeByteSize(type, rank, dims, &bytes);
  if (status)
    return status;
  /* aligned_alloc wants a nonzero multiple of the alignment. */
  if (bytes > SIZE_MAX - kTensorAlignment)
    return kilnStatusCreatef("cannot allocate %zu bytes for a tensor", bytes);
  size_t padded = ((bytes ? bytes : 1) + kTensorAlignment - 1) &
                  ~(size_t)(kTensorAlignment - 1);
  void *data = aligned_alloc(kTensorAlignment, padded);
  if (!data)
    return kilnStatusCreatef("cannot allocate %zu bytes for a tensor", bytes);
  memset(data, 0, padded);
  *out = tensorCreate(type, rank, dims, bytes, data, true);
  return NULL;
}

KilnStatus *kilnTensorCreateWithBuffer(KilnElementType type, int64_t rank,
                                       const int64_t *dims, void *data,
                                       size_t byteSize, KilnTensor **out) {
  if (!out)
    return kilnStatusCreatef("kilnTensorCreateWithBuffer: out is NULL");
  *out = NULL;
  size_t bytes;
  KilnStatus *status = kilnTensorComputeByteSize(type, rank, dims, &bytes);
  if (status)
    return status;
  if (!data)
    return kilnStatusCreatef("kilnTensorCreateWithBuffer: data is NULL");
  if (byteSize < bytes)
    return kilnStatusCreatef("the buffer has %zu bytes, the shape needs %zu",
                             byteSize, bytes);
  *out = tensorCreate(type, rank, dims, bytes, data, false);
  return NULL;
}

void kilnTensorDestroy(KilnTensor *tensor) {
  if (!tensor)
    return;
  if (tensor->ownsData)
    free(tensor->data);
  free(tensor->name);
  free(tensor);
}

KilnElementType kilnTensorGetElementType(const KilnTensor *tensor) {
  return tensor->type;
}

int64_t kilnTensorGetRank(const KilnTensor *tensor) { return tensor->rank; }

const int64_t *kilnTensorGetDims(const KilnTensor *tensor) {
  return tensor->dims;
}

int64_t kilnTensorGetElementCount(const KilnTensor *tensor) {
  return tensor->elementCount;
}

size_t kilnTensorGetByteSize(const KilnTensor *tensor) {
  return tensor->byteSize;
}

void *kilnTensorGetData(KilnTensor *tensor) { return tensor->data; }

const void *kilnTensorGetConstData(const KilnTensor *tensor) {
  return tensor->data;
}

double kilnTensorGetElementAsDouble(const KilnTensor *tensor, int64_t index) {
  if (index < 0 || index >= kilnTensorGetElementCount(tensor))
    return NAN;
  size_t size = kilnElementTypeGetSize(tensor->type);
  const char *p = (const char *)tensor->data + (size_t)index * size;
  union {
    uint16_t u16;
    float f32;
    double f64;
    int8_t i8;
    int16_t i16;
    int32_t i32;
    int64_t i64;
    uint8_t u8;
    uint32_t u32;
    uint64_t u64;
  } v;
  memcpy(&v, p, size);
  switch (tensor->type) {
  case KILN_ELEMENT_TYPE_F16:
    return kilnHalfToFloat(v.u16);
  case KILN_ELEMENT_TYPE_BF16:
    return kilnBF16ToFloat(v.u16);
  case KILN_ELEMENT_TYPE_F32:
    return v.f32;
  case KILN_ELEMENT_TYPE_F64:
    return v.f64;
  case KILN_ELEMENT_TYPE_I8:
    return v.i8;
  case KILN_ELEMENT_TYPE_I16:
    return v.i16;
  case KILN_ELEMENT_TYPE_I32:
    return v.i32;
  case KILN_ELEMENT_TYPE_I64:
    return (double)v.i64;
  case KILN_ELEMENT_TYPE_U8:
  case KILN_ELEMENT_TYPE_BOOL:
    return v.u8;
  case KILN_ELEMENT_TYPE_U16:
    return v.u16;
  case KILN_ELEMENT_TYPE_U32:
    return v.u32;
  case KILN_ELEMENT_TYPE_U64:
    return (double)v.u64;
  }
  return NAN;
}

const char *kilnTensorGetName(const KilnTensor *tensor) { return tensor->name; }

void kilnTensorSetName(KilnTensor *tensor, const char *name) {
  free(tensor->name);
  tensor->name = NULL;
  if (!name)
    return;
  size_t n = strlen(name) + 1;
  tensor->name = malloc(n);
  if (!tensor->name)
    abort();
  memcpy(tensor->name, name, n);
}

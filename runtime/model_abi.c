/* The model library ABI's data formats (model_abi.h). */
#include "runtime/model_abi.h"

#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_runtime.h"

size_t kilnElementTypeGetSize(KilnElementType type) {
  switch (type) {
  case KILN_ELEMENT_TYPE_I8:
  case KILN_ELEMENT_TYPE_U8:
  case KILN_ELEMENT_TYPE_BOOL:
    return 1;
  case KILN_ELEMENT_TYPE_F16:
  case KILN_ELEMENT_TYPE_BF16:
  case KILN_ELEMENT_TYPE_I16:
  case KILN_ELEMENT_TYPE_U16:
    return 2;
  case KILN_ELEMENT_TYPE_F32:
  case KILN_ELEMENT_TYPE_I32:
  case KILN_ELEMENT_TYPE_U32:
    return 4;
  case KILN_ELEMENT_TYPE_F64:
  case KILN_ELEMENT_TYPE_I64:
  case KILN_ELEMENT_TYPE_U64:
    return 8;
  }
  return 0;
}

/* The names metadata records and messages use for the element types. */
const char *kilnElementTypeGetName(KilnElementType type) {
  static const char *const names[] = {"f16", "bf16", "f32", "f64", "i8",
                                      "i16", "i32",  "i64", "u8",  "u16",
                                      "u32", "u64",  "bool"};
  if ((unsigned)type >= sizeof(names) / sizeof(names[0]))
    return "?";
  return names[type];
}

size_t kilnMemRefDescSize(int64_t rank) {
  return sizeof(KilnMemRefDesc) + 2 * (size_t)rank * sizeof(int64_t);
}

void kilnMemRefDescFill(KilnMemRefDesc *desc, void *data, int64_t rank,
                        const int64_t *dims) {
  desc->allocated = desc->aligned = data;
  desc->offset = 0;
  uint64_t stride = 1;
  for (int64_t i = rank - 1; i >= 0; --i) {
    desc->sizesAndStrides[i] = dims[i];
    desc->sizesAndStrides[rank + i] = (int64_t)stride;
    stride *= (uint64_t)dims[i];
  }
}

static char *allocate(size_t n) {
  char *s = malloc(n ? n : 1);
  if (!s)
    abort();
  return s;
}

char *kilnModelAbiNameEncode(const char *name, size_t length) {
  static const char kHex[] = "0123456789ABCDEF";
  char *s = allocate(3 * length + 1), *w = s;
  for (size_t i = 0; i < length; ++i) {
    unsigned char c = (unsigned char)name[i];
    if (c == '%' || c == '\n' || c == '\r') {
      *w++ = '%';
      *w++ = kHex[c >> 4];
      *w++ = kHex[c & 15];
    } else {
      *w++ = (char)c;
    }
  }
  *w = '\0';
  return s;
}

char *kilnModelAbiNameDecode(const char *begin, const char *end) {
  size_t n = (size_t)(end - begin);
  char *s = allocate(n + 1), *w = s;
  for (const char *r = begin; r < end; ++r) {
    if (r[0] == '%' && end - r >= 3) {
      char c = !strncmp(r + 1, "25", 2)   ? '%'
               : !strncmp(r + 1, "0A", 2) ? '\n'
               : !strncmp(r + 1, "0D", 2) ? '\r'
                                          : 0;
      if (c) {
        *w++ = c;
        r += 2;
        continue;
      }
    }
    *w++ = *r;
  }
  *w = '\0';
  return s;
}

char *kilnMemRefDescsCreate(KilnTensor *const *tensors, size_t n,
                            void **descs) {
  size_t bytes = 0;
  for (size_t i = 0; i < n; ++i)
    bytes += kilnMemRefDescSize(kilnTensorGetRank(tensors[i]));
  char *all = malloc(bytes ? bytes : 1);
  if (!all)
    abort();
  size_t at = 0;
  for (size_t i = 0; i < n; ++i) {
    KilnMemRefDesc *d = (KilnMemRefDesc *)(all + at);
    int64_t rank = kilnTensorGetRank(tensors[i]);
    kilnMemRefDescFill(d, kilnTensorGetData(tensors[i]), rank,
                       kilnTensorGetDims(tensors[i]));
    descs[i] = d;
    at += kilnMemRefDescSize(rank);
  }
  return all;
}

const char *const kilnModelAbiSymbols[] = {
    "kiln_model_metadata",
    "kiln_model_run",
    "kiln_model_output_dims",
    "kiln_model_profile",
    "kiln_model_gpu_load",
    "kiln_model_gpu_unload",
    "kiln_model_gpu_upload",
    KILN_MODEL_WEIGHT_ROWS_SYMBOL,
    NULL,
};

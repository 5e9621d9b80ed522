/* Reading and writing numpy's .npy files (format versions 1.0-3.0).
 *
 * Hand-written because the format is a tiny header (magic, version, a
 * Python dict literal) and the runtime may depend on libc only. The header
 * parser accepts exactly the literal forms numpy writes: quoted strings,
 * True/False and a tuple of non-negative integers. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/status.h"
#include "runtime/tensor.h"

/* numpy pads headers so the data starts on this boundary, and leaves room
 * for the first dim to grow to this many digits (numpy/lib/format.py). */
enum { NPY_ALIGN = 64, NPY_GROWTH_DIGITS = 21 };

static const char kMagic[6] = {'\x93', 'N', 'U', 'M', 'P', 'Y'};

/* The dtype string numpy writes for `type`; NULL for types numpy cannot
 * represent. */
static const char *npyDescr(KilnElementType type) {
  switch (type) {
  case KILN_ELEMENT_TYPE_F16:
    return "<f2";
  case KILN_ELEMENT_TYPE_F32:
    return "<f4";
  case KILN_ELEMENT_TYPE_F64:
    return "<f8";
  case KILN_ELEMENT_TYPE_I8:
    return "|i1";
  case KILN_ELEMENT_TYPE_I16:
    return "<i2";
  case KILN_ELEMENT_TYPE_I32:
    return "<i4";
  case KILN_ELEMENT_TYPE_I64:
    return "<i8";
  case KILN_ELEMENT_TYPE_U8:
    return "|u1";
  case KILN_ELEMENT_TYPE_U16:
    return "<u2";
  case KILN_ELEMENT_TYPE_U32:
    return "<u4";
  case KILN_ELEMENT_TYPE_U64:
    return "<u8";
  case KILN_ELEMENT_TYPE_BOOL:
    return "|b1";
  case KILN_ELEMENT_TYPE_BF16:
    break;
  }
  return NULL;
}

//===----------------------------------------------------------------------===//
// Header parsing
//===----------------------------------------------------------------------===//

typedef struct NpyHeader {
  KilnElementType type;
  bool bigEndian;
  bool haveDescr, haveOrder, haveShape;
  int64_t rank;
  int64_t dims[KILN_TENSOR_MAX_RANK];
} NpyHeader;

typedef struct Cursor {
  const char *p, *end;
} Cursor;

static void skipSpace(Cursor *c) {
  while (c->p < c->end &&
         (*c->p == ' ' || *c->p == '\t' || *c->p == '\n' || *c->p == '\r'))
    ++c->p;
}

static bool consume(Cursor *c, char ch) {
  skipSpace(c);
  if (c->p < c->end && *c->p == ch) {
    ++c->p;
    return true;
  }
  return false;
}

/* A quoted string without escapes (numpy never writes any in headers). */
static KilnStatus *parseString(Cursor *c, const char **s, size_t *n) {
  skipSpace(c);
  if (c->p >= c->end || (*c->p != '\'' && *c->p != '"'))
    return kilnStatusCreatef("npy header: expected a quoted string");
  char quote = *c->p++;
  const char *start = c->p;
  while (c->p < c->end && *c->p != quote) {
    if (*c->p == '\\')
      return kilnStatusCreatef("npy header: escapes are not supported");
    ++c->p;
  }
  if (c->p >= c->end)
    return kilnStatusCreatef("npy header: unterminated string");
  *s = start;
  *n = (size_t)(c->p - start);
  ++c->p;
  return NULL;
}

static KilnStatus *parseDescr(Cursor *c, NpyHeader *h) {
  const char *s;
  size_t n;
  KilnStatus *status = parseString(c, &s, &n);
  if (status)
    return status;
  static const struct {
    char kind, size;
    KilnElementType type;
  } kinds[] = {
      {'f', '2', KILN_ELEMENT_TYPE_F16}, {'f', '4', KILN_ELEMENT_TYPE_F32},
      {'f', '8', KILN_ELEMENT_TYPE_F64}, {'i', '1', KILN_ELEMENT_TYPE_I8},
      {'i', '2', KILN_ELEMENT_TYPE_I16}, {'i', '4', KILN_ELEMENT_TYPE_I32},
      {'i', '8', KILN_ELEMENT_TYPE_I64}, {'u', '1', KILN_ELEMENT_TYPE_U8},
      {'u', '2', KILN_ELEMENT_TYPE_U16}, {'u', '4', KILN_ELEMENT_TYPE_U32},
      {'u', '8', KILN_ELEMENT_TYPE_U64}, {'b', '1', KILN_ELEMENT_TYPE_BOOL}};
  if (n == 3) {
    for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); ++i) {
      if (s[1] != kinds[i].kind || s[2] != kinds[i].size)
        continue;
      /* '|' means "byte order not applicable": only for 1-byte types. */
      bool oneByte = kinds[i].size == '1';
      if (s[0] == '<' || s[0] == '=' || s[0] == '>' ||
          (s[0] == '|' && oneByte)) {
        h->type = kinds[i].type;
        h->bigEndian = s[0] == '>';
        return NULL;
      }
    }
  }
  return kilnStatusCreatef("npy header: unsupported dtype '%.*s'",
                           (int)(n > 32 ? 32 : n), s);
}

static KilnStatus *parseFortranOrder(Cursor *c) {
  skipSpace(c);
  size_t left = (size_t)(c->end - c->p);
  if (left >= 5 && memcmp(c->p, "False", 5) == 0) {
    c->p += 5;
    return NULL;
  }
  if (left >= 4 && memcmp(c->p, "True", 4) == 0)
    return kilnStatusCreatef("npy: fortran_order True (column-major data) is "
                             "not supported; save a C-contiguous array");
  return kilnStatusCreatef("npy header: fortran_order is not True or False");
}

static KilnStatus *parseDim(Cursor *c, int64_t *dim) {
  skipSpace(c);
  if (c->p >= c->end || *c->p < '0' || *c->p > '9')
    return kilnStatusCreatef("npy header: expected a non-negative integer in "
                             "the shape");
  uint64_t v = 0;
  while (c->p < c->end && *c->p >= '0' && *c->p <= '9') {
    v = v * 10 + (uint64_t)(*c->p++ - '0');
    if (v > (uint64_t)INT64_MAX)
      return kilnStatusCreatef("npy header: shape dim overflows int64");
  }
  /* Python 2 era writers appended 'L' to longs. */
  if (c->p < c->end && *c->p == 'L')
    ++c->p;
  *dim = (int64_t)v;
  return NULL;
}

static KilnStatus *parseShape(Cursor *c, NpyHeader *h) {
  if (!consume(c, '('))
    return kilnStatusCreatef("npy header: shape is not a tuple");
  h->rank = 0;
  if (consume(c, ')'))
    return NULL;
  for (;;) {
    if (h->rank == KILN_TENSOR_MAX_RANK)
      return kilnStatusCreatef("npy header: more than %d dims",
                               KILN_TENSOR_MAX_RANK);
    KilnStatus *status = parseDim(c, &h->dims[h->rank++]);
    if (status)
      return status;
    bool comma = consume(c, ',');
    if (consume(c, ')'))
      return h->rank == 1 && !comma
                 ? kilnStatusCreatef("npy header: shape is not a tuple")
                 : NULL;
    if (!comma)
      return kilnStatusCreatef("npy header: malformed shape tuple");
  }
}

static KilnStatus *parseEntry(Cursor *c, NpyHeader *h) {
  const char *key;
  size_t n;
  KilnStatus *status = parseString(c, &key, &n);
  if (status)
    return status;
  if (!consume(c, ':'))
    return kilnStatusCreatef("npy header: expected ':' after a key");
  bool *seen = NULL;
  if (n == 5 && memcmp(key, "descr", 5) == 0) {
    seen = &h->haveDescr;
    status = parseDescr(c, h);
  } else if (n == 13 && memcmp(key, "fortran_order", 13) == 0) {
    seen = &h->haveOrder;
    status = parseFortranOrder(c);
  } else if (n == 5 && memcmp(key, "shape", 5) == 0) {
    seen = &h->haveShape;
    status = parseShape(c, h);
  } else {
    return kilnStatusCreatef("npy header: unexpected key '%.*s'",
                             (int)(n > 32 ? 32 : n), key);
  }
  if (!status && *seen)
    status = kilnStatusCreatef("npy header: duplicate key '%.*s'", (int)n, key);
  *seen = true;
  return status;
}

static KilnStatus *parseHeader(const char *text, size_t len, NpyHeader *h) {
  Cursor c = {text, text + len};
  if (!consume(&c, '{'))
    return kilnStatusCreatef("npy header: not a dict");
  while (!consume(&c, '}')) {
    KilnStatus *status = parseEntry(&c, h);
    if (status)
      return status;
    if (!consume(&c, ',') && !(c.p < c.end && *c.p == '}'))
      return kilnStatusCreatef("npy header: expected ',' or '}'");
  }
  skipSpace(&c);
  if (c.p != c.end)
    return kilnStatusCreatef("npy header: text after the dict");
  if (!h->haveDescr || !h->haveOrder || !h->haveShape)
    return kilnStatusCreatef("npy header: needs descr, fortran_order and "
                             "shape");
  return NULL;
}

//===----------------------------------------------------------------------===//
// Reading
//===----------------------------------------------------------------------===//

static void byteSwap(uint8_t *data, size_t bytes, size_t elemSize) {
  for (size_t off = 0; off + elemSize <= bytes; off += elemSize)
    for (size_t i = 0; i < elemSize / 2; ++i) {
      uint8_t tmp = data[off + i];
      data[off + i] = data[off + elemSize - 1 - i];
      data[off + elemSize - 1 - i] = tmp;
    }
}

KilnStatus *kilnTensorReadNpy(const void *data, size_t len, KilnTensor **out) {
  *out = NULL;
  const uint8_t *b = data;
  if (len < 10 || memcmp(b, kMagic, sizeof(kMagic)) != 0)
    return kilnStatusCreatef("not a .npy file (bad magic)");
  if (b[6] < 1 || b[6] > 3 || b[7] != 0)
    return kilnStatusCreatef("unsupported .npy format version %u.%u", b[6],
                             b[7]);
  size_t prefix = b[6] == 1 ? 10 : 12;
  if (len < prefix)
    return kilnStatusCreatef("npy: truncated header");
  uint64_t headerLen = (uint64_t)b[8] | (uint64_t)b[9] << 8;
  if (b[6] > 1)
    headerLen |= (uint64_t)b[10] << 16 | (uint64_t)b[11] << 24;
  if (headerLen > len - prefix)
    return kilnStatusCreatef("npy: header length %llu runs past the end of "
                             "the file",
                             (unsigned long long)headerLen);
  NpyHeader h;
  memset(&h, 0, sizeof(h));
  KilnStatus *status =
      parseHeader((const char *)b + prefix, (size_t)headerLen, &h);
  if (status)
    return status;
  size_t bytes;
  if ((status = kilnTensorComputeByteSize(h.type, h.rank, h.dims, &bytes)))
    return status;
  size_t have = len - prefix - (size_t)headerLen;
  if (have != bytes)
    return kilnStatusCreatef("npy: the shape needs %zu data bytes, the file "
                             "has %zu",
                             bytes, have);
  KilnTensor *t;
  if ((status = kilnTensorCreate(h.type, h.rank, h.dims, &t)))
    return status;
  uint8_t *dst = kilnTensorGetData(t);
  if (bytes)
    memcpy(dst, b + prefix + headerLen, bytes);
  if (h.bigEndian)
    byteSwap(dst, bytes, kilnElementTypeGetSize(h.type));
  if (h.type == KILN_ELEMENT_TYPE_BOOL)
    for (size_t i = 0; i < bytes; ++i)
      dst[i] = dst[i] != 0;
  *out = t;
  return NULL;
}

KilnStatus *kilnTensorReadNpyFile(const char *path, KilnTensor **out) {
  *out = NULL;
  uint8_t *data;
  size_t len;
  KilnStatus *status = kilnRuntimeReadFile(path, &data, &len);
  if (status)
    return kilnStatusAddPath(status, path);
  status = kilnStatusAddPath(kilnTensorReadNpy(data, len, out), path);
  free(data);
  return status;
}

//===----------------------------------------------------------------------===//
// Writing
//===----------------------------------------------------------------------===//

/* Formats the dict exactly as numpy's _write_array_header does (sorted
 * keys, repr() values, growth spaces); returns its length. `buf` holds
 * KILN_TENSOR_MAX_RANK dims of 19 digits easily. */
static size_t formatHeaderDict(const KilnTensor *tensor, const char *descr,
                               char *buf, size_t cap) {
  int64_t rank = kilnTensorGetRank(tensor);
  const int64_t *dims = kilnTensorGetDims(tensor);
  size_t n = (size_t)snprintf(
      buf, cap, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
  for (int64_t i = 0; i < rank; ++i)
    n += (size_t)snprintf(buf + n, cap - n, "%s%lld", i ? ", " : "",
                          (long long)dims[i]);
  n += (size_t)snprintf(buf + n, cap - n, "%s), }", rank == 1 ? "," : "");
  if (rank > 0) {
    int digits = snprintf(NULL, 0, "%lld", (long long)dims[0]);
    for (int i = digits; i < NPY_GROWTH_DIGITS; ++i)
      buf[n++] = ' ';
  }
  return n;
}

KilnStatus *kilnTensorWriteNpy(const KilnTensor *tensor, void **outData,
                               size_t *outLen) {
  *outData = NULL;
  *outLen = 0;
  const char *descr = npyDescr(kilnTensorGetElementType(tensor));
  if (!descr)
    return kilnStatusCreatef(
        "npy: element type %s has no numpy dtype",
        kilnElementTypeGetName(kilnTensorGetElementType(tensor)));
  char dict[2048];
  size_t dictLen = formatHeaderDict(tensor, descr, dict, sizeof(dict));
  /* Header = dict, spaces, '\n', padded so magic + version + length +
   * header is a multiple of NPY_ALIGN (a full extra block when already
   * aligned, as numpy does). */
  size_t pad = NPY_ALIGN - (10 + dictLen + 1) % NPY_ALIGN;
  size_t headerLen = dictLen + pad + 1;
  size_t bytes = kilnTensorGetByteSize(tensor);
  if (bytes > SIZE_MAX - 10 - headerLen)
    return kilnStatusCreatef("npy: tensor too large to serialize");
  size_t total = 10 + headerLen + bytes;
  uint8_t *buf = malloc(total);
  if (!buf)
    return kilnStatusCreatef("npy: cannot allocate %zu bytes", total);
  memcpy(buf, kMagic, sizeof(kMagic));
  buf[6] = 1;
  buf[7] = 0;
  buf[8] = (uint8_t)(headerLen & 0xff);
  buf[9] = (uint8_t)(headerLen >> 8);
  memcpy(buf + 10, dict, dictLen);
  memset(buf + 10 + dictLen, ' ', pad);
  buf[10 + headerLen - 1] = '\n';
  if (bytes)
    memcpy(buf + 10 + headerLen, kilnTensorGetConstData(tensor), bytes);
  *outData = buf;
  *outLen = total;
  return NULL;
}

KilnStatus *kilnTensorWriteNpyFile(const KilnTensor *tensor, const char *path) {
  void *data;
  size_t len;
  KilnStatus *status = kilnTensorWriteNpy(tensor, &data, &len);
  if (!status)
    status = kilnRuntimeWriteFile(path, data, len);
  free(data);
  return kilnStatusAddPath(status, path);
}

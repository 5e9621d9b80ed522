/* A minimal protobuf wire-format scanner, hand-written because protobuf-c
 * offers no way to unpack a message without copying every `bytes` field:
 * unpacking a mapped model whole holds each initializer's raw_data twice
 * (the file's pages and protobuf-c's copy) at the end of the unpack.
 *
 * The scan finds the byte range of each initializer of the main graph
 * (ModelProto field 7 `graph`, GraphProto field 5 `initializer`, both
 * length-delimited), unpacks a copy of the model with those fields cut
 * out, then unpacks each initializer from its range, appending it to the
 * graph in file order (what protobuf-c does with a repeated field), and
 * drops the pages already consumed. Every varint and length is bounds
 * checked; anything unexpected (groups, a repeated `graph` field) sends
 * the model to the plain unpack, which reports real errors. */
#define _DEFAULT_SOURCE /* madvise, MADV_DONTNEED */

#include "conversions/onnx-to-graph/wire_scan.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

enum { kModelGraphField = 7, kGraphInitializerField = 5, kWireLen = 2 };

/* A field's bytes: [tag, end) is the whole field, [payload, end) the
 * contents of a length-delimited one. */
typedef struct {
  size_t tag, payload, end;
} Field;

/* Reads a varint at *pos (< end); false when truncated or over 10 bytes. */
static bool readVarint(const uint8_t *p, size_t end, size_t *pos,
                       uint64_t *out) {
  uint64_t v = 0;
  for (unsigned shift = 0; shift < 64; shift += 7) {
    if (*pos >= end)
      return false;
    uint8_t b = p[(*pos)++];
    v |= (uint64_t)(b & 0x7f) << shift;
    if (!(b & 0x80)) {
      *out = v;
      return true;
    }
  }
  return false;
}

/* Reads the field at *pos in [*pos, end) into *f and its number into
 * *number, moving *pos past it; false when malformed or a group. */
static bool readField(const uint8_t *p, size_t end, size_t *pos, Field *f,
                      uint64_t *number, unsigned *wireType) {
  uint64_t key, n = 0;
  f->tag = *pos;
  if (!readVarint(p, end, pos, &key) || (key >> 3) == 0)
    return false;
  *number = key >> 3;
  *wireType = (unsigned)(key & 7);
  switch (*wireType) {
  case 0:
    if (!readVarint(p, end, pos, &n))
      return false;
    n = 0;
    break;
  case 1:
    n = 8;
    break;
  case 5:
    n = 4;
    break;
  case kWireLen:
    if (!readVarint(p, end, pos, &n))
      return false;
    break;
  default: /* groups (3, 4) are not used by onnx.proto */
    return false;
  }
  if (n > end - *pos)
    return false;
  f->payload = *pos;
  *pos += (size_t)n;
  f->end = *pos;
  return true;
}

/* The single `graph` field of the model; false when it is absent,
 * repeated or the model is malformed. */
static bool findGraph(const uint8_t *p, size_t len, Field *graph) {
  bool found = false;
  size_t pos = 0;
  while (pos < len) {
    Field f;
    uint64_t number;
    unsigned wt;
    if (!readField(p, len, &pos, &f, &number, &wt))
      return false;
    if (number == kModelGraphField) {
      if (found || wt != kWireLen)
        return false;
      *graph = f;
      found = true;
    }
  }
  return found;
}

/* The graph's initializer fields, malloc'd, in file order (count in *n);
 * NULL with *n == 0 when there are none or the graph is malformed. */
static Field *findInitializers(const uint8_t *p, Field graph, size_t *n) {
  Field *out = NULL;
  size_t cap = 0, pos = graph.payload;
  *n = 0;
  while (pos < graph.end) {
    Field f;
    uint64_t number;
    unsigned wt;
    if (!readField(p, graph.end, &pos, &f, &number, &wt))
      goto fail;
    if (number != kGraphInitializerField)
      continue;
    if (wt != kWireLen)
      goto fail;
    if (*n == cap) {
      cap = cap ? 2 * cap : 16;
      out = realloc(out, cap * sizeof *out);
      if (!out)
        abort();
    }
    out[(*n)++] = f;
  }
  return out;
fail:
  free(out);
  *n = 0;
  return NULL;
}

static size_t putVarint(uint8_t *out, uint64_t v) {
  size_t n = 0;
  do {
    out[n++] = (uint8_t)((v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
  return n;
}

/* A copy of the model without the initializer fields `inits[0, n)` of
 * `graph`, malloc'd (length in *outLen). */
static uint8_t *cutInitializers(const uint8_t *p, size_t len, Field graph,
                                const Field *inits, size_t n, size_t *outLen) {
  size_t graphLen = graph.end - graph.payload;
  for (size_t i = 0; i < n; ++i)
    graphLen -= inits[i].end - inits[i].tag;
  /* Room for everything but the graph's old key and length, plus a
   * one-byte key and a varint of at most 10 bytes. */
  uint8_t *out = malloc(len - (graph.payload - graph.tag) + 11);
  if (!out)
    abort();
  size_t o = 0;
  memcpy(out, p, graph.tag);
  o += graph.tag;
  out[o++] = (uint8_t)(kModelGraphField << 3 | kWireLen);
  o += putVarint(out + o, graphLen);
  size_t from = graph.payload;
  for (size_t i = 0; i <= n; ++i) {
    size_t to = i < n ? inits[i].tag : graph.end;
    memcpy(out + o, p + from, to - from);
    o += to - from;
    if (i < n)
      from = inits[i].end;
  }
  memcpy(out + o, p + graph.end, len - graph.end);
  *outLen = o + (len - graph.end);
  return out;
}

/* Drops the whole pages of the mapping `p` in [*done, end), advancing
 * *done: those bytes have all been unpacked. Dropping a private read-only
 * file mapping's pages only unmaps them; a later read maps them again. */
static void releasePages(const uint8_t *p, size_t *done, size_t end) {
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t to = end / page * page;
  if (to > *done) {
    madvise((void *)(uintptr_t)(p + *done), to - *done, MADV_DONTNEED);
    *done = to;
  }
}

/* Unpacks `inits[0, n)` into `graph`'s initializers; false when one does
 * not decode. */
static bool unpackInitializers(const uint8_t *p, Onnx__GraphProto *graph,
                               const Field *inits, size_t n, bool release) {
  /* protobuf-c's default allocator is malloc, and free_unpacked frees the
   * array and its elements with free. */
  graph->initializer = malloc(n * sizeof *graph->initializer);
  if (!graph->initializer)
    abort();
  size_t done = 0;
  for (size_t i = 0; i < n; ++i) {
    Onnx__TensorProto *t = onnx__tensor_proto__unpack(
        NULL, inits[i].end - inits[i].payload, p + inits[i].payload);
    if (!t)
      return false;
    graph->initializer[graph->n_initializer++] = t;
    if (release)
      releasePages(p, &done, inits[i].end);
  }
  return true;
}

Onnx__ModelProto *kilnOnnxUnpackModel(const uint8_t *data, size_t len,
                                      bool release) {
  Field graph;
  size_t n = 0;
  Field *inits =
      findGraph(data, len, &graph) ? findInitializers(data, graph, &n) : NULL;
  if (!n)
    return onnx__model_proto__unpack(NULL, len, data);
  size_t cutLen;
  uint8_t *cut = cutInitializers(data, len, graph, inits, n, &cutLen);
  Onnx__ModelProto *model = onnx__model_proto__unpack(NULL, cutLen, cut);
  free(cut);
  /* The cut graph has no initializers left, so it is always present. */
  if (model && (!model->graph ||
                !unpackInitializers(data, model->graph, inits, n, release))) {
    onnx__model_proto__free_unpacked(model, NULL);
    model = NULL;
  }
  free(inits);
  return model;
}

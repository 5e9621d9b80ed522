/* Unit tests for libkiln_runtime's tensors and their files. Checked by
 * tensor-io.test, which prepares reference .npy files with numpy.
 *
 *   kiln-test-tensor-io manifest MANIFEST OUTDIR   real and generated files
 *   kiln-test-tensor-io prefixes FILE...           truncations must fail
 *   kiln-test-tensor-io garbage FILE...            mutations must not crash
 *   kiln-test-tensor-io negative                   crafted bad inputs */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_runtime.h"

static uint8_t *readAll(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return NULL;
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  size_t got;
  while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
    n += got;
    if (n == cap)
      buf = realloc(buf, cap *= 2);
  }
  fclose(f);
  *len = n;
  return buf;
}

static bool sameTensor(const KilnTensor *a, const KilnTensor *b) {
  int64_t rank = kilnTensorGetRank(a);
  return kilnTensorGetElementType(a) == kilnTensorGetElementType(b) &&
         rank == kilnTensorGetRank(b) &&
         memcmp(kilnTensorGetDims(a), kilnTensorGetDims(b),
                (size_t)rank * sizeof(int64_t)) == 0 &&
         kilnTensorGetByteSize(a) == kilnTensorGetByteSize(b) &&
         memcmp(kilnTensorGetConstData(a), kilnTensorGetConstData(b),
                kilnTensorGetByteSize(a)) == 0;
}

/* Reads `path` with `read`, printing the error as a mismatch. */
static KilnTensor *mustRead(KilnStatus *(*read)(const char *, KilnTensor **),
                            const char *path) {
  KilnTensor *t = NULL;
  KilnStatus *status = read(path, &t);
  if (status)
    fprintf(stderr, "MISMATCH: %s\n", kilnStatusGetMessage(status));
  kilnStatusDestroy(status);
  return t;
}

/* The .npy bytes numpy wrote must come back unchanged from read + write. */
static bool roundTripsExactly(const char *npyPath) {
  size_t len, outLen;
  uint8_t *bytes = readAll(npyPath, &len);
  KilnTensor *t = NULL;
  void *out = NULL;
  bool same = false;
  KilnStatus *status = kilnTensorReadNpy(bytes, len, &t);
  if (!status)
    status = kilnTensorWriteNpy(t, &out, &outLen);
  if (!status)
    same = outLen == len && memcmp(out, bytes, len) == 0;
  kilnStatusDestroy(status);
  free(out);
  kilnTensorDestroy(t);
  free(bytes);
  return same;
}

typedef struct Counts {
  int kinds[4], mismatches, roundTripDiffs;
  bool typeSeen[KILN_ELEMENT_TYPE_BOOL + 1];
} Counts;

/* One "ok"/"bf16" line: the .pb and numpy's .npy hold the same tensor. The
 * tensor is also written to OUTDIR for the numpy check after this test. */
static void checkPair(const char *kind, const char *pb, const char *npy,
                      const char *outDir, FILE *written, Counts *c) {
  KilnTensor *a = mustRead(kilnTensorReadPbFile, pb);
  KilnTensor *b = mustRead(kilnTensorReadNpyFile, npy);
  bool bf16 = strcmp(kind, "bf16") == 0;
  if (a && b && bf16) {
    /* numpy has no bf16: the reference holds the bits as uint16. */
    KilnTensor *bits = NULL;
    kilnStatusDestroy(kilnTensorCreate(KILN_ELEMENT_TYPE_BF16,
                                       kilnTensorGetRank(b),
                                       kilnTensorGetDims(b), &bits));
    memcpy(kilnTensorGetData(bits), kilnTensorGetConstData(b),
           kilnTensorGetByteSize(b));
    bool was16 = kilnTensorGetElementType(b) == KILN_ELEMENT_TYPE_U16;
    kilnTensorDestroy(b);
    b = was16 ? bits : (kilnTensorDestroy(bits), NULL);
  }
  if (!a || !b || !sameTensor(a, b)) {
    fprintf(stderr, "MISMATCH: %s vs %s\n", pb, npy);
    ++c->mismatches;
  } else {
    c->typeSeen[kilnTensorGetElementType(a)] = true;
  }
  if (!bf16 && !roundTripsExactly(npy)) {
    fprintf(stderr, "MISMATCH: npy round trip of %s\n", npy);
    ++c->roundTripDiffs;
  }
  if (a && !bf16) {
    char path[4096];
    snprintf(path, sizeof(path), "%s/w%d.npy", outDir, c->kinds[0]);
    KilnStatus *status = kilnTensorWriteNpyFile(a, path);
    if (status)
      fprintf(stderr, "MISMATCH: %s\n", kilnStatusGetMessage(status));
    else
      fprintf(written, "%s %s\n", path, npy);
    kilnStatusDestroy(status);
  }
  kilnTensorDestroy(a);
  kilnTensorDestroy(b);
}

/* One "same" line: two .npy files (versions, byte orders) read equal. */
static void checkSame(const char *x, const char *y, Counts *c) {
  KilnTensor *a = mustRead(kilnTensorReadNpyFile, x);
  KilnTensor *b = mustRead(kilnTensorReadNpyFile, y);
  if (!a || !b || !sameTensor(a, b)) {
    fprintf(stderr, "MISMATCH: %s vs %s\n", x, y);
    ++c->mismatches;
  }
  kilnTensorDestroy(a);
  kilnTensorDestroy(b);
}

/* One "string" line: string tensors are rejected with a clear message. */
static void checkString(const char *pb, Counts *c) {
  KilnTensor *t = NULL;
  KilnStatus *status = kilnTensorReadPbFile(pb, &t);
  if (!status || !strstr(kilnStatusGetMessage(status), "string tensors")) {
    fprintf(stderr, "MISMATCH: string tensor %s not rejected\n", pb);
    ++c->mismatches;
  }
  kilnStatusDestroy(status);
  kilnTensorDestroy(t);
}

static int runManifest(const char *manifest, const char *outDir) {
  fprintf(stderr, "TEST: manifest\n");
  FILE *f = fopen(manifest, "r");
  char path[4096];
  snprintf(path, sizeof(path), "%s/written.txt", outDir);
  FILE *written = fopen(path, "w");
  if (!f || !written) {
    fprintf(stderr, "cannot open %s or %s\n", manifest, path);
    return 1;
  }
  Counts c;
  memset(&c, 0, sizeof(c));
  char kind[16], x[2048], y[2048];
  while (fscanf(f, "%15s %2047s %2047s", kind, x, y) == 3) {
    if (!strcmp(kind, "ok") || !strcmp(kind, "bf16")) {
      checkPair(kind, x, y, outDir, written, &c);
      ++c.kinds[kind[0] == 'o' ? 0 : 1];
    } else if (!strcmp(kind, "same")) {
      checkSame(x, y, &c);
      ++c.kinds[2];
    } else {
      checkString(x, &c);
      ++c.kinds[3];
    }
  }
  fclose(f);
  fclose(written);
  fprintf(stderr,
          "pairs: %d, bf16: %d, same: %d, strings: %d, mismatches: %d, "
          "round-trip diffs: %d\ntypes:",
          c.kinds[0], c.kinds[1], c.kinds[2], c.kinds[3], c.mismatches,
          c.roundTripDiffs);
  for (int t = 0; t <= KILN_ELEMENT_TYPE_BOOL; ++t)
    if (c.typeSeen[t])
      fprintf(stderr, " %s", kilnElementTypeGetName((KilnElementType)t));
  fprintf(stderr, "\n");
  return 0;
}

static bool isPb(const char *path) {
  size_t n = strlen(path);
  return n > 3 && strcmp(path + n - 3, ".pb") == 0;
}

static KilnStatus *readBuffer(const char *path, const uint8_t *data, size_t len,
                              KilnTensor **out) {
  return isPb(path) ? kilnTensorReadPb(data, len, out)
                    : kilnTensorReadNpy(data, len, out);
}

/* Every strict prefix of a file holding at least one element is invalid,
 * except that a .pb cut after its last data field (before a trailing name)
 * is still a whole tensor: such a prefix must read the same data. Each
 * prefix is copied to its own allocation so ASan sees over-reads. */
static int runPrefixes(int argc, char **argv) {
  fprintf(stderr, "TEST: prefixes\n");
  for (int i = 0; i < argc; ++i) {
    size_t len, rejected = 0, differ = 0;
    uint8_t *bytes = readAll(argv[i], &len);
    KilnTensor *whole = NULL;
    kilnStatusDestroy(readBuffer(argv[i], bytes, len, &whole));
    for (size_t n = 0; bytes && whole && n < len; ++n) {
      uint8_t *copy = malloc(n ? n : 1);
      memcpy(copy, bytes, n);
      KilnTensor *t = NULL;
      KilnStatus *status = readBuffer(argv[i], copy, n, &t);
      rejected += status != NULL && t == NULL;
      differ += t && !sameTensor(t, whole);
      kilnStatusDestroy(status);
      kilnTensorDestroy(t);
      free(copy);
    }
    fprintf(stderr, "%s: %zu of %zu prefixes rejected, %zu differ\n",
            strrchr(argv[i], '/') + 1, rejected, len, differ);
    kilnTensorDestroy(whole);
    free(bytes);
  }
  return 0;
}

/* Random byte mutations: any outcome but a crash, leak or over-read is
 * fine. A successful read must describe a consistent tensor. */
static int runGarbage(int argc, char **argv) {
  fprintf(stderr, "TEST: garbage\n");
  uint32_t seed = 12345;
  for (int i = 0; i < argc; ++i) {
    size_t len, accepted = 0, inconsistent = 0;
    uint8_t *bytes = readAll(argv[i], &len);
    uint8_t *copy = malloc(len ? len : 1);
    for (int round = 0; bytes && round < 3000; ++round) {
      memcpy(copy, bytes, len);
      for (int k = 0; k < 1 + round % 4; ++k) {
        seed = seed * 1664525u + 1013904223u;
        copy[(seed >> 8) % len] = (uint8_t)(seed >> 24);
      }
      KilnTensor *t = NULL;
      KilnStatus *status = readBuffer(argv[i], copy, len, &t);
      if (t) {
        ++accepted;
        size_t elem = kilnElementTypeGetSize(kilnTensorGetElementType(t));
        inconsistent += kilnTensorGetByteSize(t) !=
                        (size_t)kilnTensorGetElementCount(t) * elem;
      }
      kilnStatusDestroy(status);
      kilnTensorDestroy(t);
    }
    fprintf(stderr, "%s: inconsistent %zu (accepted %zu)\n",
            strrchr(argv[i], '/') + 1, inconsistent, accepted);
    free(copy);
    free(bytes);
  }
  return 0;
}

//===----------------------------------------------------------------------===//
// Crafted inputs
//===----------------------------------------------------------------------===//

typedef struct Buf {
  uint8_t b[1024];
  size_t n;
} Buf;

static void putByte(Buf *b, unsigned v) { b->b[b->n++] = (uint8_t)v; }

static void putVarint(Buf *b, uint64_t v) {
  do {
    putByte(b, (unsigned)(v & 0x7f) | (v > 0x7f ? 0x80 : 0));
    v >>= 7;
  } while (v);
}

static void putTag(Buf *b, unsigned field, unsigned wt) {
  putVarint(b, (uint64_t)field << 3 | wt);
}

static void putBytes(Buf *b, const void *p, size_t n) {
  memcpy(b->b + b->n, p, n);
  b->n += n;
}

/* dims (packed), data_type and, when `raw` is not NULL, raw_data. */
static Buf tensorProto(int rank, const int64_t *dims, unsigned dataType,
                       const void *raw, size_t rawLen) {
  Buf b = {{0}, 0}, packed = {{0}, 0};
  for (int i = 0; i < rank; ++i)
    putVarint(&packed, (uint64_t)dims[i]);
  if (rank) {
    putTag(&b, 1, 2);
    putVarint(&b, packed.n);
    putBytes(&b, packed.b, packed.n);
  }
  putTag(&b, 2, 0);
  putVarint(&b, dataType);
  if (raw) {
    putTag(&b, 9, 2);
    putVarint(&b, rawLen);
    putBytes(&b, raw, rawLen);
  }
  return b;
}

/* Reads `b` (copied to an exact-size allocation, so ASan sees over-reads)
 * and prints the error, or a summary of the tensor. */
static void show(const char *name, bool pb, const Buf *b) {
  uint8_t *copy = malloc(b->n ? b->n : 1);
  memcpy(copy, b->b, b->n);
  KilnTensor *t = NULL;
  KilnStatus *status =
      pb ? kilnTensorReadPb(copy, b->n, &t) : kilnTensorReadNpy(copy, b->n, &t);
  fprintf(stderr, "%s: ", name);
  if (status) {
    fprintf(stderr, "error: %s%s\n", kilnStatusGetMessage(status),
            t ? " (BUG: tensor set)" : "");
  } else {
    fprintf(stderr, "%s rank %lld elements %lld:",
            kilnElementTypeGetName(kilnTensorGetElementType(t)),
            (long long)kilnTensorGetRank(t),
            (long long)kilnTensorGetElementCount(t));
    const uint8_t *d = kilnTensorGetConstData(t);
    for (size_t i = 0; i < kilnTensorGetByteSize(t) && i < 16; ++i)
      fprintf(stderr, " %02x", d[i]);
    fprintf(stderr, "\n");
  }
  kilnStatusDestroy(status);
  kilnTensorDestroy(t);
  free(copy);
}

static void negativePb(void) {
  fprintf(stderr, "TEST: negative_pb\n");
  Buf b = {{0}, 0};
  show("empty", true, &b);
  putTag(&b, 2, 0);
  for (int i = 0; i < 11; ++i)
    putByte(&b, 0xff);
  show("long varint", true, &b);
  b = tensorProto(0, NULL, 1, "abc", 3);
  b.b[b.n - 4] = 100; /* raw_data length past the end */
  show("length past end", true, &b);
  b = tensorProto(0, NULL, 1, NULL, 0);
  putTag(&b, 5, 3);
  show("group", true, &b);
  int64_t huge[] = {INT64_C(1) << 62, INT64_C(1) << 62, 4};
  b = tensorProto(3, huge, 1, "abcd", 4);
  show("dims overflow", true, &b);
  int64_t hugeEmpty[] = {INT64_C(1) << 62, INT64_C(1) << 62, 0};
  b = tensorProto(3, hugeEmpty, 1, "", 0);
  show("huge empty", true, &b);
  int64_t neg[] = {-1};
  b = tensorProto(1, neg, 1, NULL, 0);
  show("negative dim", true, &b);
  int64_t ones[65];
  for (int i = 0; i < 65; ++i)
    ones[i] = 1;
  b = tensorProto(65, ones, 1, "abcd", 4);
  show("65 dims", true, &b);
  b = tensorProto(0, NULL, 1, "abcd", 4);
  putTag(&b, 14, 0);
  putVarint(&b, 1);
  show("external", true, &b);
  b = tensorProto(0, NULL, 1, NULL, 0);
  putTag(&b, 6, 2);
  putVarint(&b, 1);
  putByte(&b, 'x');
  show("string_data", true, &b);
  b = tensorProto(0, NULL, 14, "abcdefgh", 8);
  show("complex64", true, &b);
  int64_t two[] = {2};
  b = tensorProto(1, two, 1, "abcdefg", 7);
  show("raw size", true, &b);
  b = tensorProto(0, NULL, 1, "abcd", 4);
  putTag(&b, 4, 5);
  putBytes(&b, "abcd", 4);
  show("raw and float_data", true, &b);
  b = tensorProto(0, NULL, 7, NULL, 0);
  putTag(&b, 4, 5);
  putBytes(&b, "abcd", 4);
  show("int64 in float_data", true, &b);
  b = tensorProto(0, NULL, 1, NULL, 0);
  putTag(&b, 2, 2);
  putVarint(&b, 0);
  show("data_type wire type", true, &b);
  b = tensorProto(0, NULL, 1, NULL, 0);
  putTag(&b, 4, 2);
  putVarint(&b, 6);
  putBytes(&b, "abcdef", 6);
  show("packed float partial", true, &b);
  b = tensorProto(0, NULL, 0, "abcd", 4);
  show("no data_type", true, &b);
}

/* Unpacked repeated fields, negative int32 varints, unknown fields. */
static void positivePb(void) {
  fprintf(stderr, "TEST: positive_pb\n");
  Buf b = {{0}, 0};
  putTag(&b, 1, 0);
  putVarint(&b, 1);
  putTag(&b, 1, 0);
  putVarint(&b, 3);
  putTag(&b, 2, 0);
  putVarint(&b, 3);  /* INT8 */
  putTag(&b, 12, 2); /* doc_string */
  putVarint(&b, 2);
  putBytes(&b, "hi", 2);
  putTag(&b, 99, 1); /* unknown fixed64 */
  putBytes(&b, "12345678", 8);
  for (int64_t v = -2; v <= 0; ++v) {
    putTag(&b, 5, 0);
    putVarint(&b, (uint64_t)v);
  }
  show("unpacked int8", true, &b);
  b = tensorProto(0, NULL, 1, NULL, 0);
  float f = 1.0f;
  putTag(&b, 4, 5);
  putBytes(&b, &f, 4);
  show("unpacked scalar float", true, &b);
  int64_t zero[] = {0};
  b = tensorProto(1, zero, 1, NULL, 0);
  putTag(&b, 4, 2);
  putVarint(&b, 0);
  show("empty packed", true, &b);
}

static Buf npy(int major, const char *header, size_t dataBytes) {
  Buf b = {{0}, 0};
  putBytes(&b, "\x93NUMPY", 6);
  putByte(&b, (unsigned)major);
  putByte(&b, 0);
  size_t n = strlen(header);
  putByte(&b, n & 0xff);
  putByte(&b, (n >> 8) & 0xff);
  if (major > 1) {
    putByte(&b, 0);
    putByte(&b, 0);
  }
  putBytes(&b, header, n);
  for (size_t i = 0; i < dataBytes; ++i)
    putByte(&b, (unsigned)i);
  return b;
}

static void negativeNpy(void) {
  fprintf(stderr, "TEST: negative_npy\n");
  const char *ok = "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), }";
  Buf b = npy(1, ok, 4);
  show("valid", false, &b);
  b.b[1] = 'X';
  show("bad magic", false, &b);
  b = npy(4, ok, 4);
  show("version 4", false, &b);
  b = npy(1, ok, 4);
  b.b[9] = 0x7f;
  show("header past end", false, &b);
  b = npy(1, ok, 3);
  show("short data", false, &b);
  b = npy(1, ok, 5);
  show("trailing byte", false, &b);
  static const char *headers[] = {
      "{'descr': '<i2', 'fortran_order': True, 'shape': (2,), }",
      "{'descr': '<c8', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '|f4', 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '<i2', 'fortran_order': False, 'shape': "
      "(99999999999999999999,), }",
      "{'descr': '<i2', 'fortran_order': False, 'shape': "
      "(4611686018427387904, 4611686018427387904), }",
      "{'descr': '<i2', 'shape': (2,), }",
      "{'descr': '<i2', 'descr': '<i2', 'fortran_order': False, "
      "'shape': (2,), }",
      "{'descr': '<i2', 'fortran_order': False, 'shape': (2), }",
      "{'descr': '<i2, 'fortran_order': False, 'shape': (2,), }",
      "{'descr': '<i2', 'fortran_order': False, 'shape': (-2,), }",
      "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), 'x': 1}",
      "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), } x",
      /* Quoted bytes are escaped: a terminal escape, a control byte, a
       * byte that is not UTF-8, an overlong '/', a surrogate and a cut
       * sequence; well-formed UTF-8 (2 and 4 bytes) stays. */
      "{'descr': '<i2', 'fortran_order': False, 'shape': (2,), "
      "'\x1b[2J\x01\xff\xc3\xa9\xc0\xaf\xed\xa0\x80\xf0\x9f\x98\x80"
      "\xe2\x82': 1}",
  };
  for (size_t i = 0; i < sizeof(headers) / sizeof(headers[0]); ++i) {
    char name[32];
    snprintf(name, sizeof(name), "header %zu", i);
    b = npy(i % 2 ? 2 : 1, headers[i], 4);
    show(name, false, &b);
  }
}

static void negativeCreate(void) {
  fprintf(stderr, "TEST: negative_create\n");
  int64_t dims[65] = {0};
  int64_t bad[][2] = {{2, -3}, {INT64_MAX, 2}};
  KilnTensor *t = NULL;
  KilnStatus *s[4] = {kilnTensorCreate(KILN_ELEMENT_TYPE_F32, 65, dims, &t),
                      kilnTensorCreate(KILN_ELEMENT_TYPE_F32, 2, bad[0], &t),
                      kilnTensorCreate(KILN_ELEMENT_TYPE_U8, 2, bad[1], &t),
                      kilnTensorCreate((KilnElementType)99, 0, NULL, &t)};
  for (int i = 0; i < 4; ++i) {
    fprintf(stderr, "create %d: %s\n", i, kilnStatusGetMessage(s[i]));
    kilnStatusDestroy(s[i]);
  }
  kilnStatusDestroy(kilnTensorCreate(KILN_ELEMENT_TYPE_BF16, 0, NULL, &t));
  void *data = NULL;
  size_t len = 0;
  KilnStatus *status = kilnTensorWriteNpy(t, &data, &len);
  fprintf(stderr, "write bf16: %s\n", kilnStatusGetMessage(status));
  kilnStatusDestroy(status);
  kilnTensorSetName(t, "x");
  kilnTensorSetName(t, "renamed");
  fprintf(stderr, "name: %s\n", kilnTensorGetName(t));
  kilnTensorDestroy(t);
  kilnTensorDestroy(NULL);
  kilnStatusDestroy(NULL);
  status = kilnTensorReadPbFile("/nonexistent/x.pb", &t);
  fprintf(stderr, "missing file: %s\n", kilnStatusGetMessage(status));
  kilnStatusDestroy(status);
}

static int runNegative(void) {
  negativePb();
  positivePb();
  negativeNpy();
  negativeCreate();
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 4 && !strcmp(argv[1], "manifest"))
    return runManifest(argv[2], argv[3]);
  if (argc >= 3 && !strcmp(argv[1], "prefixes"))
    return runPrefixes(argc - 2, argv + 2);
  if (argc >= 3 && !strcmp(argv[1], "garbage"))
    return runGarbage(argc - 2, argv + 2);
  if (argc == 2 && !strcmp(argv[1], "negative"))
    return runNegative();
  fprintf(stderr, "usage: see the comment at the top of tensor-io.c\n");
  return 2;
}

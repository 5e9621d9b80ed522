/* The model library integrity digest; see library_digest.h. */
#define _POSIX_C_SOURCE 200809L

#include "runtime/library_digest.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

static const char kMagic[8] = {'K', 'I', 'L', 'N', 'S', 'U', 'M', '1'};

/* Odd 64-bit constants with well-mixed bits (the fractional parts of
 * sqrt(2), sqrt(3), sqrt(5), sqrt(7) and the golden ratio). */
static const uint64_t kPrime1 = 0x6a09e667f3bcc909ull;
static const uint64_t kPrime2 = 0xbb67ae8584caa73bull;
static const uint64_t kPrime3 = 0x3c6ef372fe94f82bull;
static const uint64_t kPrime4 = 0xa54ff53a5f1d36f1ull;
static const uint64_t kPrime5 = 0x9e3779b97f4a7c15ull;

static uint64_t rotl(uint64_t x, int r) { return x << r | x >> (64 - r); }

static uint64_t load64(const unsigned char *p) {
  uint64_t v = 0;
  for (int i = 7; i >= 0; --i)
    v = v << 8 | p[i];
  return v;
}

static void store64(unsigned char *p, uint64_t v) {
  for (int i = 0; i < 8; ++i)
    p[i] = (unsigned char)(v >> (8 * i));
}

static uint64_t lane(uint64_t acc, uint64_t word) {
  return rotl(acc + word * kPrime2, 31) * kPrime1;
}

/* The final avalanche: every input bit reaches every output bit. */
static uint64_t mix(uint64_t h) {
  h ^= h >> 33;
  h *= kPrime2;
  h ^= h >> 29;
  h *= kPrime3;
  return h ^ h >> 32;
}

uint64_t kilnDigest64(const void *data, size_t len) {
  const unsigned char *p = data, *end = p + len;
  uint64_t a = kPrime1 + kPrime2, b = kPrime2, c = 0, d = 0 - kPrime1;
  for (; end - p >= 32; p += 32) {
    a = lane(a, load64(p));
    b = lane(b, load64(p + 8));
    c = lane(c, load64(p + 16));
    d = lane(d, load64(p + 24));
  }
  uint64_t h = rotl(a, 1) + rotl(b, 7) + rotl(c, 12) + rotl(d, 18);
  h = (h ^ lane(0, a)) * kPrime1 + kPrime4;
  h = (h ^ lane(0, b)) * kPrime1 + kPrime4;
  h = (h ^ lane(0, c)) * kPrime1 + kPrime4;
  h = (h ^ lane(0, d)) * kPrime1 + kPrime4;
  h += (uint64_t)len;
  for (; end - p >= 8; p += 8)
    h = rotl(h ^ lane(0, load64(p)), 27) * kPrime1 + kPrime4;
  for (; p < end; ++p)
    h = rotl(h ^ (*p * kPrime5), 11) * kPrime1;
  return mix(h);
}

/* The bytes of the open file `fd`, mapped read-only; NULL (errno set) on
 * failure. An empty file maps to a non-NULL dummy. */
static const unsigned char *mapFile(int fd, uint64_t size) {
  static const unsigned char empty[1];
  if (size == 0)
    return empty;
  void *p = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
  return p == MAP_FAILED ? NULL : p;
}

static void unmapFile(const unsigned char *p, uint64_t size) {
  if (size)
    munmap((void *)p, (size_t)size);
}

int kilnLibraryDigestAppend(const char *path) {
  int fd = open(path, O_RDWR);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    int err = errno;
    if (fd >= 0)
      close(fd);
    return err;
  }
  uint64_t size = (uint64_t)st.st_size;
  const unsigned char *bytes = mapFile(fd, size);
  if (!bytes) {
    int err = errno;
    close(fd);
    return err;
  }
  unsigned char trailer[KILN_DIGEST_TRAILER_SIZE];
  memcpy(trailer, kMagic, 8);
  store64(trailer + 8, size);
  store64(trailer + 16, kilnDigest64(bytes, (size_t)size));
  unmapFile(bytes, size);
  int err = pwrite(fd, trailer, sizeof(trailer), (off_t)size) ==
                    (ssize_t)sizeof(trailer)
                ? 0
                : (errno ? errno : EIO);
  if (close(fd) != 0 && !err)
    err = errno;
  return err;
}

const char *kilnLibraryDigestCheck(int fd, uint64_t fileSize,
                                   uint64_t *digest) {
  if (fileSize < KILN_DIGEST_TRAILER_SIZE)
    return "no integrity digest (the file is too short)";
  const unsigned char *bytes = mapFile(fd, fileSize);
  if (!bytes)
    return "cannot map the file to check its integrity digest";
  const unsigned char *t = bytes + fileSize - KILN_DIGEST_TRAILER_SIZE;
  const char *why = NULL;
  if (memcmp(t, kMagic, 8) ||
      load64(t + 8) != fileSize - KILN_DIGEST_TRAILER_SIZE)
    why = "no integrity digest at the end of the file";
  else if (kilnDigest64(bytes, (size_t)load64(t + 8)) != load64(t + 16))
    why = "integrity digest mismatch";
  else if (digest)
    *digest = load64(t + 16);
  unmapFile(bytes, fileSize);
  return why;
}

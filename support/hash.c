/* FNV-1a (hash.h). */
#include "support/hash.h"

#include <string.h>

uint64_t kilnFnv1a(uint64_t h, const void *data, size_t n) {
  const unsigned char *p = data;
  for (size_t i = 0; i < n; ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

uint64_t kilnFnv1aString(const char *s) {
  return kilnFnv1a(KILN_FNV1A_INIT, s, strlen(s));
}

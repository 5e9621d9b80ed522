/* Text made safe to print: see kilnPrintableTextCreate in kiln/kiln_runtime.h.
 * libc only (the runtime and the compiler's tools both use it). */
#include "kiln/kiln_runtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The length of the well-formed UTF-8 sequence of two to four bytes at
 * `s` (of `n`), 0 if there is none: no overlong forms, surrogates or code
 * points past U+10FFFF. */
static size_t utf8SequenceLength(const unsigned char *s, size_t n) {
  size_t len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
  if (!len || s[0] > 0xF4 || n < len)
    return 0;
  for (size_t i = 1; i < len; ++i)
    if ((s[i] & 0xC0) != 0x80)
      return 0;
  if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] > 0x9F) ||
      (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] > 0x8F))
    return 0;
  return len;
}

char *kilnPrintableTextCreate(const char *text) {
  const unsigned char *s = (const unsigned char *)text;
  size_t n = strlen(text);
  char *out = malloc(4 * n + 1), *w = out;
  if (!out)
    abort();
  for (size_t i = 0; i < n;) {
    size_t seq = s[i] >= 0x80 ? utf8SequenceLength(s + i, n - i) : 0;
    if (seq) {
      memcpy(w, s + i, seq);
      w += seq;
      i += seq;
    } else if ((s[i] >= 0x20 && s[i] < 0x7F) || s[i] == '\n' || s[i] == '\t') {
      *w++ = (char)s[i++];
    } else {
      w += sprintf(w, "\\x%02x", s[i++]);
    }
  }
  *w = '\0';
  return out;
}

/* Splits an input buffer at marker lines; see split_input.h. */
#include "tools/kiln-opt/split_input.h"

#include <stdlib.h>
#include <string.h>

static int isBlank(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v';
}

/// Whether [line, line + n) is `marker` with optional blanks around it.
static int isMarkerLine(const char *line, size_t n, const char *marker,
                        size_t markerLen) {
  while (n > 0 && isBlank(*line)) {
    ++line;
    --n;
  }
  while (n > 0 && isBlank(line[n - 1]))
    --n;
  return n == markerLen && memcmp(line, marker, n) == 0;
}

/// Appends a chunk, growing the array geometrically. Returns 0 when out of
/// memory.
static int pushChunk(KilnInputChunk **arr, size_t *count, size_t *cap,
                     KilnInputChunk chunk) {
  if (*count == *cap) {
    size_t newCap = *cap ? *cap * 2 : 4;
    KilnInputChunk *grown = realloc(*arr, newCap * sizeof(*grown));
    if (!grown)
      return 0;
    *arr = grown;
    *cap = newCap;
  }
  (*arr)[(*count)++] = chunk;
  return 1;
}

intptr_t kilnSplitInput(const char *buf, size_t length, const char *marker,
                        KilnInputChunk **chunks) {
  if (!chunks)
    return -1;
  *chunks = NULL;
  if (!buf && length > 0)
    return -1;
  if (!buf)
    buf = "";
  if (!marker || !*marker)
    marker = KILN_SPLIT_MARKER_DEFAULT;
  size_t markerLen = strlen(marker);

  KilnInputChunk *arr = NULL;
  size_t count = 0, cap = 0;
  KilnInputChunk current = {buf, 0, 1};
  int line = 1;
  size_t pos = 0;
  while (pos < length) {
    const char *nl = memchr(buf + pos, '\n', length - pos);
    size_t lineEnd = nl ? (size_t)(nl - buf) : length;
    size_t next = nl ? lineEnd + 1 : length;
    if (isMarkerLine(buf + pos, lineEnd - pos, marker, markerLen)) {
      current.length = (size_t)(buf + pos - current.data);
      if (!pushChunk(&arr, &count, &cap, current))
        goto oom;
      current.data = buf + next;
      current.firstLine = line + 1;
    }
    pos = next;
    ++line;
  }
  current.length = (size_t)(buf + length - current.data);
  if (!pushChunk(&arr, &count, &cap, current))
    goto oom;
  *chunks = arr;
  return (intptr_t)count;

oom:
  free(arr);
  return -1;
}

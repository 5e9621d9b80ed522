/* Messages as bytes (wire.h). */
#include "tools/kiln-tune/wire.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void grow(Wire *w, size_t more) {
  if (w->size + more <= w->capacity)
    return;
  size_t capacity = w->capacity ? w->capacity : 256;
  while (capacity < w->size + more)
    capacity *= 2;
  unsigned char *data = realloc(w->data, capacity);
  if (!data)
    abort();
  w->data = data;
  w->capacity = capacity;
}

static void put(Wire *w, const void *p, size_t n) {
  grow(w, n);
  if (n)
    memcpy(w->data + w->size, p, n);
  w->size += n;
}

/* The next `n` bytes, or NULL (and `bad`) past the end. */
static const unsigned char *take(Wire *w, size_t n) {
  if (w->bad || n > w->size - w->pos) {
    w->bad = true;
    return NULL;
  }
  const unsigned char *p = w->data + w->pos;
  w->pos += n;
  return p;
}

void wirePutInt(Wire *w, int64_t v) { put(w, &v, sizeof(v)); }

void wirePutDouble(Wire *w, double v) { put(w, &v, sizeof(v)); }

void wirePutBytes(Wire *w, const void *data, size_t size) {
  wirePutInt(w, (int64_t)size);
  put(w, data, size);
}

void wirePutString(Wire *w, const char *s) {
  wirePutBytes(w, s, strlen(s) + 1);
}

bool wirePutFile(Wire *w, const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  bool ok = fseek(f, 0, SEEK_END) == 0;
  long size = ok ? ftell(f) : -1;
  ok = size >= 0 && fseek(f, 0, SEEK_SET) == 0;
  if (ok) {
    wirePutInt(w, size);
    grow(w, (size_t)size);
    ok = fread(w->data + w->size, 1, (size_t)size, f) == (size_t)size;
    w->size += (size_t)size;
  }
  fclose(f);
  return ok;
}

int64_t wireGetInt(Wire *w) {
  int64_t v = 0;
  const unsigned char *p = take(w, sizeof(v));
  if (p)
    memcpy(&v, p, sizeof(v));
  return v;
}

double wireGetDouble(Wire *w) {
  double v = 0;
  const unsigned char *p = take(w, sizeof(v));
  if (p)
    memcpy(&v, p, sizeof(v));
  return v;
}

const void *wireGetBytes(Wire *w, size_t *size) {
  int64_t n = wireGetInt(w);
  const void *p = n >= 0 ? take(w, (size_t)n) : NULL;
  if (n < 0)
    w->bad = true;
  *size = p ? (size_t)n : 0;
  return p;
}

const char *wireGetString(Wire *w) {
  size_t n;
  const char *s = wireGetBytes(w, &n);
  if (!s || !n || s[n - 1]) {
    w->bad = true;
    return "";
  }
  return s;
}

void wireReserve(Wire *w, size_t size) {
  w->size = w->pos = 0;
  w->bad = false;
  grow(w, size ? size : 1);
  w->size = size;
}

void wireFree(Wire *w) {
  free(w->data);
  *w = (Wire){0};
}

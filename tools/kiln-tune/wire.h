/* The messages between kiln-tune's MPI ranks, as bytes: integers, doubles,
 * strings and byte strings one after another, in the machine's own byte
 * order (the ranks of one tuning job are the same kind of machine: the
 * tuner checks that they compile for the same target). A read past the
 * end, or of a string without its terminator, sets `bad` and returns
 * zeros, so a reader checks once at the end. */
#ifndef KILN_TOOLS_KILN_TUNE_WIRE_H
#define KILN_TOOLS_KILN_TUNE_WIRE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct Wire {
  unsigned char *data;
  size_t size, capacity;
  size_t pos; /* the next byte to read */
  bool bad;
} Wire;

void wirePutInt(Wire *w, int64_t v);
void wirePutDouble(Wire *w, double v);
void wirePutBytes(Wire *w, const void *data, size_t size);
void wirePutString(Wire *w, const char *s);
/// The file at `path` as a byte string; false if it cannot be read.
bool wirePutFile(Wire *w, const char *path);

int64_t wireGetInt(Wire *w);
double wireGetDouble(Wire *w);
/// A byte string: a pointer into the message (valid until wireFree).
const void *wireGetBytes(Wire *w, size_t *size);
/// A string: a pointer into the message ("" after an error).
const char *wireGetString(Wire *w);

/// A message of `size` bytes to receive into (read from the start).
void wireReserve(Wire *w, size_t size);
void wireFree(Wire *w);

#endif

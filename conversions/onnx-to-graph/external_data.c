/* Reading ONNX external tensor data (external_data.h).
 *
 * ONNX stores large weights beside the model: each tensor names a file
 * relative to the model's directory plus an optional byte range. The path
 * comes from the (untrusted) model, so it must stay inside that directory:
 * absolute paths and `..` components are refused rather than resolved. */
#define _POSIX_C_SOURCE 200809L /* pread */

#include "conversions/onnx-to-graph/external_data.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kiln/diagnostics.h"

/* The value of external_data key `key`, or NULL. */
static const char *entry(const Onnx__TensorProto *t, const char *key) {
  for (size_t i = 0; i < t->n_external_data; ++i) {
    const Onnx__StringStringEntryProto *e = t->external_data[i];
    if (e->key && strcmp(e->key, key) == 0)
      return e->value ? e->value : "";
  }
  return NULL;
}

/* Parses a non-negative decimal `text` into *out; false if malformed. */
static bool parseSize(const char *text, uint64_t *out) {
  if (!*text)
    return false;
  uint64_t v = 0;
  for (const char *p = text; *p; ++p) {
    if (*p < '0' || *p > '9' || v > (UINT64_MAX - 9) / 10)
      return false;
    v = v * 10 + (uint64_t)(*p - '0');
  }
  *out = v;
  return true;
}

/* True if `path` has a `..` component. */
static bool escapes(const char *path) {
  for (const char *p = path; *p;) {
    size_t n = strcspn(p, "/");
    if (n == 2 && p[0] == '.' && p[1] == '.')
      return true;
    p += n;
    p += *p == '/';
  }
  return false;
}

/* Checks the location key; returns it or NULL after an error. */
static const char *checkLocation(const Onnx__TensorProto *t,
                                 const char *baseDir, MlirLocation loc,
                                 const char *what) {
  const char *location = entry(t, "location");
  if (!baseDir) {
    kilnEmitErrorf(loc,
                   "%s is stored in external data, but the model was "
                   "imported from memory: there is no model directory to "
                   "find it in (import the model from its file)",
                   what);
    return NULL;
  }
  if (!location || !*location) {
    kilnEmitErrorf(loc, "%s is stored in external data without a 'location'",
                   what);
    return NULL;
  }
  if (location[0] == '/' || escapes(location)) {
    kilnEmitErrorf(loc,
                   "%s: external data location '%s' must be a relative "
                   "path inside the model's directory",
                   what, location);
    return NULL;
  }
  return location;
}

/* Reads the byte range into a fresh buffer; NULL after an error. */
static void *readRange(int fd, uint64_t offset, size_t size, MlirLocation loc,
                       const char *what, const char *path) {
  unsigned char *buf = malloc(size ? size : 1);
  if (!buf)
    abort();
  size_t done = 0;
  while (done < size) {
    ssize_t n = pread(fd, buf + done, size - done, (off_t)(offset + done));
    if (n <= 0) {
      kilnEmitErrorf(loc, "%s: cannot read external data file '%s': %s", what,
                     path, n < 0 ? strerror(errno) : "unexpected end of file");
      free(buf);
      return NULL;
    }
    done += (size_t)n;
  }
  return buf;
}

/* Checks offset/length against the file and `size`; false after errors. */
static bool checkRange(const Onnx__TensorProto *t, uint64_t fileSize,
                       size_t size, MlirLocation loc, const char *what,
                       const char *path, uint64_t *offset) {
  const char *offText = entry(t, "offset"), *lenText = entry(t, "length");
  uint64_t length = 0;
  *offset = 0;
  const char *bad = offText && !parseSize(offText, offset)    ? "offset"
                    : lenText && !parseSize(lenText, &length) ? "length"
                                                              : NULL;
  if (bad) {
    kilnEmitErrorf(loc, "%s: malformed external data %s '%s'", what, bad,
                   bad[0] == 'o' ? offText : lenText);
    return false;
  }
  if (*offset > fileSize) {
    kilnEmitErrorf(loc,
                   "%s: external data offset %llu is beyond the end of "
                   "'%s' (%llu bytes)",
                   what, (unsigned long long)*offset, path,
                   (unsigned long long)fileSize);
    return false;
  }
  if (!lenText)
    length = fileSize - *offset;
  if (length != size) {
    kilnEmitErrorf(loc,
                   "%s: external data length %llu does not match the "
                   "tensor's %zu bytes",
                   what, (unsigned long long)length, size);
    return false;
  }
  if (length > fileSize - *offset) {
    kilnEmitErrorf(loc,
                   "%s: external data range [%llu, %llu) is beyond the end "
                   "of '%s' (%llu bytes)",
                   what, (unsigned long long)*offset,
                   (unsigned long long)(*offset + length), path,
                   (unsigned long long)fileSize);
    return false;
  }
  return true;
}

void *kilnOnnxExternalDataRead(const Onnx__TensorProto *t, const char *baseDir,
                               size_t size, MlirLocation loc,
                               const char *what) {
  const char *location = checkLocation(t, baseDir, loc, what);
  if (!location)
    return NULL;
  KilnStrBuf path = {0};
  kilnStrBufAppendf(&path, "%s/%s", baseDir, location);
  void *data = NULL;
  int fd = open(path.data, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    kilnEmitErrorf(loc, "%s: cannot open external data file '%s': %s", what,
                   path.data, fd < 0 ? strerror(errno) : "not a regular file");
    goto out;
  }
  uint64_t offset;
  if (checkRange(t, (uint64_t)st.st_size, size, loc, what, path.data, &offset))
    data = readRange(fd, offset, size, loc, what, path.data);
out:
  if (fd >= 0)
    close(fd);
  kilnStrBufDestroy(&path);
  return data;
}

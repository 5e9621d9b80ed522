/* KilnStatus: heap-allocated error messages (NULL is success), and the
 * whole-file reads and writes the tensor readers build on. */
#include "runtime/status.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_runtime.h"

struct KilnStatus {
  char *message;
};

static void *xmalloc(size_t size) {
  void *p = malloc(size ? size : 1);
  if (!p)
    abort();
  return p;
}

static KilnStatus *statusFromVa(const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0)
    n = 0;
  char *raw = xmalloc((size_t)n + 1);
  if (vsnprintf(raw, (size_t)n + 1, fmt, ap) < 0)
    raw[0] = '\0';
  KilnStatus *status = xmalloc(sizeof(*status));
  status->message = kilnPrintableTextCreate(raw);
  free(raw);
  return status;
}

/* Messages quote bytes of the files they describe (an npy header's key, a
 * name), so they are made printable (kilnPrintableTextCreate). */
KilnStatus *kilnStatusCreatef(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  KilnStatus *status = statusFromVa(fmt, ap);
  va_end(ap);
  return status;
}

KilnStatus *kilnStatusAddPath(KilnStatus *status, const char *path) {
  if (!status)
    return NULL;
  KilnStatus *wrapped = kilnStatusCreatef("%s: %s", path, status->message);
  kilnStatusDestroy(status);
  return wrapped;
}

const char *kilnStatusGetMessage(const KilnStatus *status) {
  return status ? status->message : "ok";
}

void kilnStatusDestroy(KilnStatus *status) {
  if (!status)
    return;
  free(status->message);
  free(status);
}

/* Reads in chunks rather than trusting ftell, so pipes and /dev/stdin-like
 * paths work and a file that changes size cannot cause an over-read. */
KilnStatus *kilnRuntimeReadFile(const char *path, uint8_t **outData,
                                size_t *outLen) {
  *outData = NULL;
  *outLen = 0;
  FILE *f = fopen(path, "rb");
  if (!f)
    return kilnStatusCreatef("cannot open: %s", strerror(errno));
  size_t cap = 4096, len = 0;
  uint8_t *buf = xmalloc(cap);
  for (;;) {
    if (len == cap) {
      if (cap > SIZE_MAX / 2) {
        free(buf);
        fclose(f);
        return kilnStatusCreatef("file too large");
      }
      cap *= 2;
      uint8_t *grown = realloc(buf, cap);
      if (!grown) {
        free(buf);
        fclose(f);
        return kilnStatusCreatef("out of memory reading the file");
      }
      buf = grown;
    }
    size_t got = fread(buf + len, 1, cap - len, f);
    len += got;
    if (got == 0)
      break;
  }
  int failed = ferror(f);
  fclose(f);
  if (failed) {
    free(buf);
    return kilnStatusCreatef("read error");
  }
  *outData = buf;
  *outLen = len;
  return NULL;
}

KilnStatus *kilnRuntimeWriteFile(const char *path, const void *data,
                                 size_t len) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return kilnStatusCreatef("cannot create: %s", strerror(errno));
  size_t put = len ? fwrite(data, 1, len, f) : 0;
  int closed = fclose(f);
  if (put != len || closed != 0)
    return kilnStatusCreatef("write error");
  return NULL;
}

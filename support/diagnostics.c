#include "kiln/diagnostics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"

/* Makes room for `extra` more bytes plus the terminating NUL. */
static void reserve(KilnStrBuf *buf, size_t extra) {
  if (buf->len + extra + 1 <= buf->cap)
    return;
  size_t cap = buf->cap ? buf->cap : 64;
  while (cap < buf->len + extra + 1)
    cap *= 2;
  char *data = realloc(buf->data, cap);
  if (!data)
    abort();
  buf->data = data;
  buf->cap = cap;
}

void kilnStrBufAppend(KilnStrBuf *buf, const char *s, size_t n) {
  reserve(buf, n);
  if (n)
    memcpy(buf->data + buf->len, s, n);
  buf->len += n;
  buf->data[buf->len] = '\0';
}

void kilnStrBufAppendv(KilnStrBuf *buf, const char *fmt, va_list ap) {
  va_list copy;
  va_copy(copy, ap);
  int n = vsnprintf(NULL, 0, fmt, copy);
  va_end(copy);
  if (n < 0)
    return;
  reserve(buf, (size_t)n);
  vsnprintf(buf->data + buf->len, (size_t)n + 1, fmt, ap);
  buf->len += (size_t)n;
}

void kilnStrBufAppendf(KilnStrBuf *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kilnStrBufAppendv(buf, fmt, ap);
  va_end(ap);
}

const char *kilnStrBufGet(const KilnStrBuf *buf) {
  return buf->data ? buf->data : "";
}

void kilnStrBufClear(KilnStrBuf *buf) {
  buf->len = 0;
  if (buf->data)
    buf->data[0] = '\0';
}

void *kilnXCalloc(size_t count, size_t size) {
  void *p = calloc(count ? count : 1, size ? size : 1);
  if (!p)
    abort();
  return p;
}

char *kilnStrDup(const char *s) {
  if (!s)
    return NULL;
  size_t n = strlen(s) + 1;
  char *copy = malloc(n);
  if (!copy)
    abort();
  memcpy(copy, s, n);
  return copy;
}

bool kilnStrHasSuffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

void kilnStrBufDestroy(KilnStrBuf *buf) {
  if (!buf)
    return;
  free(buf->data);
  buf->data = NULL;
  buf->len = buf->cap = 0;
}

void kilnStrBufCallback(MlirStringRef fragment, void *userData) {
  kilnStrBufAppend((KilnStrBuf *)userData, fragment.data, fragment.length);
}

void kilnEmitErrorf(MlirLocation loc, const char *fmt, ...) {
  KilnStrBuf buf = {0};
  va_list ap;
  va_start(ap, fmt);
  kilnStrBufAppendv(&buf, fmt, ap);
  va_end(ap);
  mlirEmitError(loc, kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
}

void kilnStrBufAppendType(KilnStrBuf *buf, MlirType type) {
  mlirTypePrint(type, kilnStrBufCallback, buf);
}

void kilnStrBufAppendAttribute(KilnStrBuf *buf, MlirAttribute attr) {
  mlirAttributePrint(attr, kilnStrBufCallback, buf);
}

int kilnStringRefEquals(MlirStringRef ref, const char *s) {
  size_t n = strlen(s);
  return ref.length == n && (n == 0 || memcmp(ref.data, s, n) == 0);
}

bool kilnLocationGetSourcePos(MlirLocation loc, KilnSourcePos *pos) {
  memset(pos, 0, sizeof(*pos));
  for (int depth = 0; depth < 64 && !mlirLocationIsNull(loc); ++depth) {
    if (mlirLocationIsAFileLineColRange(loc)) {
      pos->file =
          mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
      pos->line = mlirLocationFileLineColRangeGetStartLine(loc);
      pos->col = mlirLocationFileLineColRangeGetStartColumn(loc);
      return true;
    }
    if (mlirLocationIsAName(loc)) {
      loc = mlirLocationNameGetChildLoc(loc);
    } else if (mlirLocationIsACallSite(loc)) {
      loc = mlirLocationCallSiteGetCallee(loc);
    } else if (mlirLocationIsAFused(loc)) {
      unsigned n = mlirLocationFusedGetNumLocations(loc);
      if (n == 0)
        return false;
      MlirLocation *parts = malloc(n * sizeof(*parts));
      if (!parts)
        abort();
      mlirLocationFusedGetLocations(loc, parts);
      bool found = false;
      for (unsigned i = 0; i < n && !found; ++i)
        found = kilnLocationGetSourcePos(parts[i], pos);
      free(parts);
      return found;
    } else {
      return false;
    }
  }
  return false;
}

bool kilnLocationFileIsUnnamed(MlirStringRef file) {
  return file.length == 0 || kilnStringRefEquals(file, "-");
}

const char *kilnDiagnosticSeverityGetName(MlirDiagnosticSeverity severity) {
  switch (severity) {
  case MlirDiagnosticWarning:
    return "warning";
  case MlirDiagnosticNote:
    return "note";
  case MlirDiagnosticRemark:
    return "remark";
  case MlirDiagnosticError:
  default:
    return "error";
  }
}

void kilnStrBufAppendLocation(KilnStrBuf *buf, MlirLocation loc) {
  KilnSourcePos pos;
  if (mlirLocationIsAName(loc)) {
    MlirStringRef name = mlirIdentifierStr(mlirLocationNameGetName(loc));
    if (kilnLocationGetSourcePos(loc, &pos))
      kilnStrBufAppendf(buf, "%.*s: ", (int)pos.file.length, pos.file.data);
    kilnStrBufAppendf(buf, "%.*s", (int)name.length, name.data);
  } else if (kilnLocationGetSourcePos(loc, &pos)) {
    kilnStrBufAppendf(buf, "%.*s", (int)pos.file.length, pos.file.data);
    if (pos.line != 0)
      kilnStrBufAppendf(buf, ":%d:%d", pos.line, pos.col);
  } else {
    mlirLocationPrint(loc, kilnStrBufCallback, buf);
  }
}

/* File input and output shared by Kiln's tools. */
#define _POSIX_C_SOURCE 200809L
#include "tools/common/tool_io.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kiln/compile.h"
#include "kiln/diagnostics.h"

/* Reads all of `path` ("-" = stdin). Returns NULL with errno set. */
char *kilnToolReadFile(const char *path, size_t *length) {
  FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
  if (!f)
    return NULL;
  KilnStrBuf buf = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    kilnStrBufAppend(&buf, chunk, n);
  int failed = ferror(f);
  if (f != stdin)
    fclose(f);
  if (failed) {
    kilnStrBufDestroy(&buf);
    errno = EIO;
    return NULL;
  }
  kilnStrBufAppend(&buf, "", 0);
  *length = buf.len;
  return buf.data;
}

bool kilnToolOutputOpen(KilnToolOutput *out, const char *path) {
  *out = (KilnToolOutput){0};
  if (strcmp(path, "-") == 0) {
    out->file = stdout;
    return true;
  }
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    out->file = fopen(path, "wb");
    return out->file != NULL;
  }
  kilnStrBufAppendf(&out->tmpPath, "%s.tmp-kiln-XXXXXX", path);
  int fd = mkstemp(out->tmpPath.data);
  /* mkstemp creates the file 0600; give it the mode fopen would. */
  mode_t mask = umask(0);
  umask(mask);
  if (fd < 0 || fchmod(fd, 0666 & ~mask) != 0 ||
      !(out->file = fdopen(fd, "wb"))) {
    int saved = errno;
    if (fd >= 0) {
      close(fd);
      unlink(out->tmpPath.data);
    }
    kilnStrBufDestroy(&out->tmpPath);
    errno = saved;
    return false;
  }
  return true;
}

void kilnToolOutputWrite(KilnToolOutput *out, const char *data, size_t len) {
  if (!out->failed && len && fwrite(data, 1, len, out->file) != len)
    out->failed = true;
}

void kilnToolOutputCallback(MlirStringRef text, void *userData) {
  kilnToolOutputWrite(userData, text.data, text.length);
}

/* Closes the stream; false if it or an earlier write failed. */
static bool closeOutput(KilnToolOutput *out) {
  bool ok = !out->failed;
  if (out->file == stdout)
    ok &= fflush(stdout) == 0;
  else if (out->file)
    ok &= fclose(out->file) == 0;
  out->file = NULL;
  return ok;
}

bool kilnToolOutputCommit(KilnToolOutput *out, const char *path) {
  bool ok = closeOutput(out);
  if (out->tmpPath.len) {
    if (ok)
      ok = rename(out->tmpPath.data, path) == 0;
    if (!ok) {
      int saved = errno;
      unlink(out->tmpPath.data);
      errno = saved;
    }
  }
  kilnStrBufDestroy(&out->tmpPath);
  return ok;
}

void kilnToolOutputDiscard(KilnToolOutput *out) {
  closeOutput(out);
  if (out->tmpPath.len)
    unlink(out->tmpPath.data);
  kilnStrBufDestroy(&out->tmpPath);
}

int kilnToolWriteFileAtomically(const char *path, const char *data,
                                size_t length) {
  KilnToolOutput out;
  if (!kilnToolOutputOpen(&out, path))
    return -1;
  kilnToolOutputWrite(&out, data, length);
  return kilnToolOutputCommit(&out, path) ? 0 : -1;
}

KilnOnnxInputValue kilnToolInputValueOf(MlirContext ctx, const char *name,
                                        const KilnTensor *t) {
  return (KilnOnnxInputValue){
      .name = name,
      .elementType = kilnModelElementTypeGet(ctx, kilnTensorGetElementType(t)),
      .dims = kilnTensorGetDims(t),
      .rank = (intptr_t)kilnTensorGetRank(t),
      .data = kilnTensorGetConstData(t),
      .byteSize = kilnTensorGetByteSize(t)};
}

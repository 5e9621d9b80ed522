/* File input and output shared by Kiln's tools. */
#include "tools/common/tool_io.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/common/diag.h"

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

/* Writes `data` to `path` through a temporary file and a rename, so a
 * failure never leaves a half-written output. */
int kilnToolWriteFileAtomically(const char *path, const char *data,
                                size_t length) {
  if (strcmp(path, "-") == 0)
    return fwrite(data, 1, length, stdout) == length ? 0 : -1;
  KilnStrBuf tmp = {0};
  kilnStrBufAppendf(&tmp, "%s.tmp-kiln", path);
  FILE *f = fopen(tmp.data, "wb");
  int rc = -1;
  if (f) {
    rc = fwrite(data, 1, length, f) == length ? 0 : -1;
    rc |= fclose(f);
    if (rc == 0)
      rc = rename(tmp.data, path);
    if (rc != 0)
      remove(tmp.data);
  }
  kilnStrBufDestroy(&tmp);
  return rc;
}

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

/* Writes all of `data` to the open descriptor `fd`; closes it. */
static int writeAllAndClose(int fd, const char *data, size_t length) {
  int rc = 0;
  while (length > 0) {
    ssize_t n = write(fd, data, length);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      rc = -1;
      break;
    }
    data += n;
    length -= (size_t)n;
  }
  if (close(fd) != 0)
    rc = -1;
  return rc;
}

/* Writes `data` to `path` through a temporary file (unique, beside the
 * output) and a rename, so a failure never leaves a half-written output and
 * concurrent runs never share a temporary. Devices, FIFOs and the like
 * (/dev/null, /dev/stdout) are written directly: renaming over them would
 * replace the device node with a regular file. */
int kilnToolWriteFileAtomically(const char *path, const char *data,
                                size_t length) {
  if (strcmp(path, "-") == 0)
    return fwrite(data, 1, length, stdout) == length ? 0 : -1;
  struct stat st;
  if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
    int fd = open(path, O_WRONLY | O_TRUNC);
    return fd < 0 ? -1 : writeAllAndClose(fd, data, length);
  }
  KilnStrBuf tmp = {0};
  kilnStrBufAppendf(&tmp, "%s.tmp-kiln-XXXXXX", path);
  int rc = -1;
  int fd = mkstemp(tmp.data);
  if (fd >= 0) {
    /* mkstemp creates 0600; give the output the usual umask-based mode. */
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, 0666 & ~mask);
    rc = writeAllAndClose(fd, data, length);
    if (rc == 0)
      rc = rename(tmp.data, path);
    if (rc != 0) {
      int saved = errno;
      unlink(tmp.data);
      errno = saved;
    }
  }
  kilnStrBufDestroy(&tmp);
  return rc;
}

/* Private temporary directories (temp_dir.h). */
#define _POSIX_C_SOURCE 200809L /* mkdtemp */

#include "support/temp_dir.h"

#include <stdlib.h>

bool kilnTempDirCreate(const char *name, KilnStrBuf *path) {
  const char *tmp = getenv("TMPDIR");
  kilnStrBufClear(path);
  kilnStrBufAppendf(path, "%s/%s-XXXXXX", tmp && *tmp ? tmp : "/tmp", name);
  return mkdtemp(path->data) != NULL;
}

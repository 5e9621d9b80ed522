/* Private temporary directories: where the compiler writes the objects of
 * a library before linking them, and the stand-ins of a cross-compiled
 * library's shared-library dependencies. One rule for every user: under
 * $TMPDIR, else /tmp. */
#ifndef KILN_SUPPORT_TEMP_DIR_H
#define KILN_SUPPORT_TEMP_DIR_H

#include <stdbool.h>

#include "kiln/diagnostics.h"

/// Creates a new directory "$TMPDIR/NAME-XXXXXX" (TMPDIR unset or empty:
/// /tmp), readable by its owner only, and sets `path` (cleared first) to
/// it. False with errno set when it cannot be made; `path` then holds the
/// template, for the message.
bool kilnTempDirCreate(const char *name, KilnStrBuf *path);

#endif

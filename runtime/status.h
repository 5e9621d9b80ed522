/* Creating KilnStatus objects and reading whole files. Internal to
 * libkiln_runtime. */
#ifndef KILN_RUNTIME_STATUS_H
#define KILN_RUNTIME_STATUS_H

#include <stddef.h>
#include <stdint.h>

#include "kiln/kiln_runtime.h"

#if defined(__GNUC__)
#define KILN_PRINTF_LIKE(f, a) __attribute__((format(printf, f, a)))
#else
#define KILN_PRINTF_LIKE(f, a)
#endif

/// Returns a new status whose message is the printf-formatted text.
KilnStatus *kilnStatusCreatef(const char *fmt, ...) KILN_PRINTF_LIKE(1, 2);

/// Returns `status` with its message prefixed by "PATH: " (NULL stays NULL).
KilnStatus *kilnStatusAddPath(KilnStatus *status, const char *path);

/// Reads the whole file at `path` into `*outData` (release with free; never
/// NULL on success, even for an empty file) and `*outLen`. Messages do
/// not name the path: callers add it with kilnStatusAddPath.
KilnStatus *kilnRuntimeReadFile(const char *path, uint8_t **outData,
                                size_t *outLen);

/// Writes `data[0, len)` to the file at `path`, replacing it.
KilnStatus *kilnRuntimeWriteFile(const char *path, const void *data,
                                 size_t len);

#endif

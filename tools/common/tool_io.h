/* File input and output shared by Kiln's tools. */
#ifndef KILN_TOOLS_COMMON_TOOL_IO_H
#define KILN_TOOLS_COMMON_TOOL_IO_H

#include <stddef.h>

/// Reads all of `path` ("-" = stdin) into a NUL-terminated buffer the caller
/// frees with free(); its length (without the NUL) goes to *length. Returns
/// NULL with errno set on failure (a directory fails with EIO/EISDIR).
char *kilnToolReadFile(const char *path, size_t *length);

/// Writes `length` bytes to `path` ("-" = stdout) through a temporary file
/// and a rename, so a failure never leaves a half-written output. Returns 0
/// on success, -1 (errno set) otherwise.
int kilnToolWriteFileAtomically(const char *path, const char *data,
                                size_t length);

#endif

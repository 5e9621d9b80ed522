/* File input and output shared by Kiln's tools. */
#ifndef KILN_TOOLS_COMMON_TOOL_IO_H
#define KILN_TOOLS_COMMON_TOOL_IO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "kiln/diagnostics.h"
#include "kiln/kiln_runtime.h"
#include "kiln/onnx.h"
#include "mlir-c/Support.h"

/// Input `name` of an ONNX import made a constant of tensor `t` (--input-
/// value, kiln-run's shape inputs): its data and dims borrowed from `t`,
/// its element type the MLIR type of `t`'s in `ctx`.
KilnOnnxInputValue kilnToolInputValueOf(MlirContext ctx, const char *name,
                                        const KilnTensor *t);

/// Reads all of `path` ("-" = stdin) into a NUL-terminated buffer the caller
/// frees with free(); its length (without the NUL) goes to *length. Returns
/// NULL with errno set on failure (a directory fails with EIO/EISDIR).
char *kilnToolReadFile(const char *path, size_t *length);

/// Writes `length` bytes to `path` ("-" = stdout) through a temporary file
/// and a rename, so a failure never leaves a half-written output. Returns 0
/// on success, -1 (errno set) otherwise.
int kilnToolWriteFileAtomically(const char *path, const char *data,
                                size_t length);

/// An output file written as a stream and published only when complete. A
/// regular (or new) file is written to a unique temporary file beside it and
/// renamed over it on commit, so a failure never leaves a partial output;
/// "-" is stdout, and other non-regular files (/dev/null, a fifo) are
/// written in place, since renaming over them would replace the device node.
typedef struct KilnToolOutput {
  FILE *file;
  KilnStrBuf tmpPath; /* empty when written in place */
  bool failed;        /* a write failed: commit will discard */
} KilnToolOutput;

/// Opens `path` for writing. Returns false (errno set) on failure, with
/// nothing created.
bool kilnToolOutputOpen(KilnToolOutput *out, const char *path);
/// Appends bytes; a failure is remembered and reported by commit.
void kilnToolOutputWrite(KilnToolOutput *out, const char *data, size_t len);
/// An MlirStringCallback appending to the KilnToolOutput in `userData`, for
/// mlirOperationPrint and friends.
void kilnToolOutputCallback(MlirStringRef text, void *userData);
/// Closes the output and publishes it at `path` if every write succeeded;
/// otherwise removes the temporary file. Returns whether it was published.
bool kilnToolOutputCommit(KilnToolOutput *out, const char *path);
/// Closes the output and discards it (a temporary file is removed).
void kilnToolOutputDiscard(KilnToolOutput *out);

#endif

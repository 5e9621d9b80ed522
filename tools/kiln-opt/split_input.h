/* kiln-opt's --split-input-file: cutting one input buffer into chunks.
 *
 * Like mlir-opt, a file holding several independent test cases separates
 * them with marker lines ("// -----"); each chunk is parsed and processed on
 * its own. Chunks remember the file line they start on so that diagnostics
 * can name lines of the whole file. */
#ifndef KILN_TOOLS_KILN_OPT_SPLIT_INPUT_H
#define KILN_TOOLS_KILN_OPT_SPLIT_INPUT_H

#include <stddef.h>
#include <stdint.h>

/// The default marker, as in mlir-opt.
#define KILN_SPLIT_MARKER_DEFAULT "// -----"

/// One chunk of an input buffer. `data` borrows from the split buffer.
typedef struct KilnInputChunk {
  const char *data;
  size_t length;
  int firstLine; /* 1-based line of data[0] in the whole file */
} KilnInputChunk;

/// Splits `buf` at lines consisting of `marker` (NULL or "" means
/// KILN_SPLIT_MARKER_DEFAULT; whitespace around the marker is allowed), like
/// mlir-opt. The marker lines belong to no chunk; a chunk ends just after the
/// newline of its last line. N marker lines give N + 1 chunks (some may be
/// empty), so the result is at least 1. On success returns the number of
/// chunks and stores in /* OUT: */ *chunks an array that the caller releases
/// with free(); chunk data points into `buf` (not copied). Returns -1 (and
/// stores NULL) when memory runs out or an argument is invalid.
intptr_t kilnSplitInput(const char *buf, size_t length, const char *marker,
                        KilnInputChunk **chunks);

#endif

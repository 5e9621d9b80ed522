/* A limit on how deeply kiln-opt's input may nest.
 *
 * MLIR's parser recurses once per nested region, paren or bracket (and the
 * verifier and printer once per region), so an input nested some ten
 * thousand levels deep overflows the stack: mlir-opt-22 segfaults. A cheap
 * scan of the text refuses such input with a diagnostic before MLIR sees
 * it. */
#ifndef KILN_TOOLS_KILN_OPT_NESTING_LIMIT_H
#define KILN_TOOLS_KILN_OPT_NESTING_LIMIT_H

#include <stdbool.h>
#include <stddef.h>

/// The deepest nesting of '(', '[' and '{' (together) that kiln-opt accepts.
/// Real IR stays far below; MLIR's recursion handles it with room to spare,
/// also under AddressSanitizer (whose frames are larger).
#define KILN_OPT_MAX_NESTING 1000

/// Scans `text` for the nesting depth of '(', '[' and '{', skipping string
/// literals and `//` comments. Returns true if it stays within `limit`;
/// otherwise false, with the 1-based /* OUT: */ *line and *col of the
/// bracket that went past it.
bool kilnNestingWithinLimit(const char *text, size_t length, int limit,
                            int *line, int *col);

#endif

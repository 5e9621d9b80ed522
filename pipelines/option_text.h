/* Scanning `{key=value ...}` option text as MLIR writes it. Internal to
 * pipelines/. */
#ifndef KILN_PIPELINES_OPTION_TEXT_H
#define KILN_PIPELINES_OPTION_TEXT_H

#include <stddef.h>

/// Length of the value token at `p`: a quoted string (quotes included), a
/// braced group, or bare text up to the next space.
size_t kilnOptionValueLength(const char *p, const char *end);

#endif

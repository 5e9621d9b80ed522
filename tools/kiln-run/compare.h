/* Comparing, printing and saving kiln-run's outputs. Internal to kiln-run. */
#ifndef KILN_TOOLS_KILN_RUN_COMPARE_H
#define KILN_TOOLS_KILN_RUN_COMPARE_H

#include <stdbool.h>

#include "kiln/kiln_runtime.h"

/// Compares output `got` with `expected` (same type and shape, checked by
/// the caller): floats within atol + rtol * |expected| (NaN matches NaN),
/// integers and bools exactly. On a mismatch prints the worst element and
/// the count of mismatches to stderr and returns false.
bool kilnRunCompare(const char *name, const KilnTensor *got,
                    const KilnTensor *expected, double rtol, double atol);

/// Prints `t` to stdout as `NAME: TYPE[D0xD1...] = [v0, v1, ...]`, at most
/// `limit` elements.
void kilnRunPrint(const char *name, const KilnTensor *t, int64_t limit);

#endif

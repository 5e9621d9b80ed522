/* Comparing, printing and saving kiln-run's outputs. Internal to kiln-run. */
#ifndef KILN_TOOLS_KILN_RUN_COMPARE_H
#define KILN_TOOLS_KILN_RUN_COMPARE_H

#include <stdbool.h>

#include "kiln/kiln_runtime.h"
#include "tools/kiln-run/options.h"

/// The tolerances outputs of `type` are compared with when --rtol/--atol
/// are not given: 1e-3 and 1e-5 (f32, f64), 1e-2 and 1e-3 (f16, bf16). An
/// atol of 1e-7 (ONNX's backend tests, whose runner passes it) reports
/// false mismatches on real models' near-zero outputs.
void kilnRunDefaultTolerance(KilnElementType type, double *rtol, double *atol);

/// Compares output `got` with `expected` (same type and shape, checked by
/// the caller): floats within atol + rtol * |expected| (NaN matches NaN;
/// a negative rtol/atol: the default for the type), integers and bools
/// exactly. Prints a line saying it matches, with the tolerances and the
/// largest difference, to stdout and returns true; on a mismatch prints the
/// worst element and the count of mismatches to stderr and returns false.
bool kilnRunCompare(const char *name, const KilnTensor *got,
                    const KilnTensor *expected, double rtol, double atol);

/// After a run with nothing compared, printed or saved: a line saying it
/// ran and how to check it, so that success is never silent.
void kilnRunReportUnchecked(const Options *o, const char *model,
                            int64_t numOutputs);

/// Prints `t` to stdout as `NAME: TYPE[D0xD1...] = [v0, v1, ...]`, at most
/// `limit` elements.
void kilnRunPrint(const char *name, const KilnTensor *t, int64_t limit);

#endif

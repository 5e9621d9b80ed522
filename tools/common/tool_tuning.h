/* --tuning-log for the tools (kiln-compile, kiln-run): loads a kiln-tune
 * log for the module's target, prints its warnings, attaches its records
 * (include/kiln/tuning.h). */
#ifndef KILN_TOOLS_COMMON_TOOL_TUNING_H
#define KILN_TOOLS_COMMON_TOOL_TUNING_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/// Applies the log at `path` to `module` (graph dialect, after graph
/// optimizations). Warnings go to stderr as "PROG: warning: ..."; when
/// `report`, also "PROG: tuning log: N of M workloads use tuned
/// schedules". Returns false after printing an error (the log cannot be
/// read, or a record is out of range).
bool kilnToolApplyTuningLog(const char *prog, const char *path,
                            MlirModule module, bool report);

#endif

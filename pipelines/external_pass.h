/* Wrapping a registry entry and its parsed options as an MLIR external
 * pass. Internal to pipelines/. */
#ifndef KILN_PIPELINES_EXTERNAL_PASS_H
#define KILN_PIPELINES_EXTERNAL_PASS_H

#include "kiln/passes.h"

/// Creates the external pass for `info` (a pass, not a pipeline) with
/// `values` (one per option spec; strings are deep-copied). The pass owns
/// its copy; MLIR clones it for each thread with a fresh deep copy.
MlirPass kilnExternalPassCreate(const KilnPassInfo *info,
                                const KilnPassOptionValue *values);

#endif

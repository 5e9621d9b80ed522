/* Remainder register tiles as masked full vectors: a tile row of 7 or 14
 * lanes, which LLVM splits into 4 + 2 + 1 and 8 + 4 + 2 lane pieces per
 * load, store and FMA, becomes one vector of the next power of two whose
 * extra lanes are masked off at every read and write
 * (docs/cpu-codegen.md, "depthwise conv"). */
#ifndef KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_SCHEDULES_MASKED_REMAINDERS_H
#define KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_SCHEDULES_MASKED_REMAINDERS_H

#include <stdint.h>

#include "mlir-c/IR.h"

/// In `root` (vectorized tiles on tensors, before their accumulators are
/// hoisted): widens every vector whose innermost size n (2 < n <
/// `maxLanes`) LLVM would split into three or more power-of-two pieces to
/// the next power of two, at most `maxLanes`.
/// Reads of the widened dim become out of bounds (masked; the extra lanes
/// are padding), writes too (the extra lanes are not stored). Changes
/// nothing unless every op on such vectors is a transfer read or write, a
/// broadcast or elementwise arith or math, and every widened write covers
/// its destination's innermost dim exactly from index 0, so the extra
/// lanes never reach memory. Returns whether anything was widened.
bool kilnMaskRemainderVectors(MlirOperation root, int64_t maxLanes);

#endif

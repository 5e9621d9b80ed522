/* Small IR-building helpers shared by the GPU passes
 * (dialects/linalg/transforms/gpu_*.c). */
#ifndef KILN_DIALECTS_LINALG_TRANSFORMS_GPU_UTIL_H
#define KILN_DIALECTS_LINALG_TRANSFORMS_GPU_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

/// Whether `op` is named exactly `name` ("memref.alloc").
bool kilnGpuOpIs(MlirOperation op, const char *name);
/// Builds the op `name` with the given operands, result types and
/// attributes at `before`'s location, inserted before it. Returns the op.
MlirOperation kilnGpuInsertOp(MlirOperation before, const char *name,
                              intptr_t nOperands, const MlirValue *operands,
                              intptr_t nResults, const MlirType *resultTypes,
                              intptr_t nAttrs, const MlirNamedAttribute *attrs);
/// The `operandSegmentSizes` attribute with `n` segment sizes.
MlirNamedAttribute kilnGpuSegmentsAttr(MlirContext ctx, intptr_t n,
                                       const int32_t *sizes);
/// An `arith.constant` of type index with value `v`, before `before`.
MlirValue kilnGpuIndexConstant(MlirOperation before, int64_t v);

#endif

/* Accumulators that start in registers: a vectorized contraction whose init
 * is a bias broadcast or a fill reads its register tiles' first values from
 * the bias (or the fill's scalar) instead of from memory the bias op wrote
 * (docs/cpu-codegen.md, "The register tile"). */
#ifndef KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_SCHEDULES_REGISTER_INIT_H
#define KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_SCHEDULES_REGISTER_INIT_H

#include "mlir-c/IR.h"

/// In `root` (on tensors), for each elementwise broadcast generic or
/// linalg.fill whose only use is the init of the register loops of a
/// vectorized contraction (kiln-tile-and-vectorize's tiles, accumulators
/// hoisted out of their reduction loops): rewrites each tile's first read
/// of its accumulator into a read of the bias (a vector.transfer_read with
/// a broadcast map) or a vector.broadcast of the fill's scalar, and erases
/// the op, its init then only overwritten. Nothing changes for a nest where
/// any read cannot be rewritten (a tile visited twice: a cache loop around
/// the register loops, an accumulator not hoisted). Returns how many ops
/// were erased.
int kilnInitAccumulatorsInRegisters(MlirOperation root);

#endif

/* Register accumulators for reduction loops on buffers: the tiles that
 * kiln-tile-and-vectorize vectorizes after bufferization (products and
 * row reductions of dynamic shape) read their accumulator tile from
 * memory and write it back at every reduction step,
 *
 *   scf.for %k = ... {
 *     %acc = vector.transfer_read %tile[%c0, %c0]      (%tile: outside)
 *     %sum = ... %acc ...
 *     vector.transfer_write %sum, %tile[%c0, %c0]
 *   }
 *
 * which LLVM cannot keep in registers when it cannot prove the tile apart
 * from the loop's other memory. Where the IR shows that it is, the pair
 * moves out of the loop and the value is carried:
 *
 *   %init = vector.transfer_read %tile[%c0, %c0]
 *   %r = scf.for %k = ... iter_args(%acc = %init) {
 *     %sum = ... %acc ...
 *     scf.yield %sum
 *   }
 *   vector.transfer_write %r, %tile[%c0, %c0]
 *
 * (On tensors, transform.loop.hoist_loop_invariant_subsets does this;
 * upstream's hoist_redundant_vector_transfers refuses views such as a
 * tile's subview, docs/mlir22-notes.md.) */
#ifndef KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_SCHEDULES_BUFFER_ACCUMULATORS_H
#define KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_SCHEDULES_BUFFER_ACCUMULATORS_H

#include "mlir-c/IR.h"

/// Hoists accumulator pairs out of every `scf.for` in `root` (innermost
/// first) where it is safe: the pair reads and writes one memref value of
/// static shape defined outside the loop, at the same loop-invariant
/// indices, without masks; nothing else in the loop uses that memref or
/// writes memory; and every memref the loop reads traces back (through
/// views and `scf.if` results) to allocations, globals or arguments other
/// than the accumulator's. Run loop-invariant code motion first, so that
/// the tile's subview is outside its loop. Returns how many loops were
/// rewritten.
int kilnHoistBufferAccumulators(MlirOperation root);

#endif

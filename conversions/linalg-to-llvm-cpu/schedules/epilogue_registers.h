/* Epilogues applied in registers: a conv or matmul epilogue (activation,
 * Clip, residual Add, ...) computed on each register tile's accumulators
 * before their one store, instead of a second pass over the thread block
 * in memory (docs/cpu-codegen.md, "The register tile"). */
#ifndef KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_SCHEDULES_EPILOGUE_REGISTERS_H
#define KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_SCHEDULES_EPILOGUE_REGISTERS_H

#include "mlir-c/IR.h"

/// In `root` (on buffers), for each elementwise linalg.generic G that
/// overwrites its output O in place (identity maps, arith/math body) right
/// after loops that write every element of O once through
/// vector.transfer_writes of subviews of O (or of O with its pixels
/// collapsed) and read nothing of O: computes G's body on each written
/// vector, reading G's other inputs' tiles at the same place, writes that
/// instead, and erases G. Nothing changes where any of that does not hold
/// (a tile visited twice, as by a cache loop around the register loops; an
/// input of another layout). Returns how many generics were erased.
int kilnApplyEpiloguesInRegisters(MlirOperation root);

#endif

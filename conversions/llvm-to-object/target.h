/* Internals shared by the llvm-to-object files (see kiln/compile.h). */
#ifndef KILN_CONVERSIONS_LLVM_TO_OBJECT_TARGET_H
#define KILN_CONVERSIONS_LLVM_TO_OBJECT_TARGET_H

#include "kiln/compile.h"
#include "llvm-c/TargetMachine.h"

/// Initializes LLVM's X86 and AArch64 back ends (once per process).
void kilnTargetInitializeLLVM(void);
/// The -O level, 0..3.
int kilnTargetGetOptLevel(const KilnTarget *target);
/// Creates a PIC target machine for `target`; dispose with
/// LLVMDisposeTargetMachine.
LLVMTargetMachineRef kilnTargetCreateMachine(const KilnTarget *target);

#endif

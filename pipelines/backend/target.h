/* Internals shared by the back end's files (see kiln/compile.h). */
#ifndef KILN_PIPELINES_BACKEND_TARGET_H
#define KILN_PIPELINES_BACKEND_TARGET_H

#include "kiln/compile.h"
#include "pipelines/backend/detached.h"
#include "llvm-c/TargetMachine.h"

/// Initializes LLVM's X86 and AArch64 back ends (once per process).
void kilnTargetInitializeLLVM(void);

/// Formats a message and hands it to `cb` (the compile API's error
/// callback) in one piece.
void kilnCompileReport(MlirStringCallback cb, void *ud, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/// The -O level, 0..3.
int kilnTargetGetOptLevel(const KilnTarget *target);
/// Creates a PIC target machine for `target`; dispose with
/// LLVMDisposeTargetMachine.
LLVMTargetMachineRef kilnTargetCreateMachine(const KilnTarget *target);

/// Replaces each large constant data array global of `m` (weights) by a
/// byte array with the same bytes, name and alignment, which the back end
/// emits in one copy instead of element by element (split.c).
void kilnRetypeDataAsBytes(LLVMModuleRef m);
/// Generates the object code of the optimized module `m` (consumed: disposed
/// as soon as it is no longer needed) into objects passed whole to `out`,
/// one at a time but in any order and from any thread (split.c). With
/// `numThreads` > 1 and two or more function definitions, `m` is modified:
/// its local definitions become hidden external symbols, split into at most
/// `numThreads` partitions. Otherwise `m` is emitted whole with `tm` into
/// object 0. The weights `d` detached (may be NULL) go into objects of their
/// own after those, as hidden symbols: link all objects together in index
/// order. Returns false after reporting through `err`; objects passed before
/// are then to be discarded.
bool kilnSplitCodegen(LLVMModuleRef m, LLVMTargetMachineRef tm,
                      const KilnTarget *target, const KilnDetachedData *d,
                      unsigned numThreads, KilnCompileObjectFn out, void *outUd,
                      MlirStringCallback err, void *errUd);

#endif

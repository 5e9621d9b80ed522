/* The CUDA target's compile steps (gpu.c): internal to Kiln's tools. */
#ifndef KILN_PIPELINES_BACKEND_GPU_H
#define KILN_PIPELINES_BACKEND_GPU_H

#include <stdbool.h>

#include "kiln/compile.h"
#include "kiln/diagnostics.h"
#include "mlir-c/IR.h"

/// Finds the CUDA toolkit's libdevice.10.bc (the file KILN_LIBDEVICE names
/// if set, else under CUDA_HOME, CUDA_PATH, /usr/local/cuda, Debian's
/// nvidia-cuda-toolkit); its path in *path, or false (and *path empty) when
/// there is none.
bool kilnGpuFindLibdevice(KilnStrBuf *path);
/// Finds the CUDA toolkit whose ptxas assembles cubins: CUDA_HOME, else
/// CUDA_PATH (a variable that is set must name a toolkit), else
/// /usr/local/cuda, else the directory above a ptxas on PATH. Its root in
/// *root, or false with the reason appended to *why.
bool kilnGpuFindToolkit(KilnStrBuf *root, KilnStrBuf *why);
/// Appends the `gpu-to-nvvm` pipeline text for `target` (a "cuda" target):
/// its architecture, PTX version and -O level, libdevice when found, and
/// the kernels embedded as PTX (`toolkit` NULL) or as a cubin assembled by
/// the toolkit at `toolkit`.
void kilnGpuPipelineAppend(KilnStrBuf *pipeline, const KilnTarget *target,
                           const char *toolkit);
/// Receives one compiled kernel module: the gpu.binary's name and its
/// object (PTX text, or a cubin).
typedef void (*KilnGpuBinaryFn)(MlirStringRef name, MlirStringRef object,
                                void *userData);
/// Calls `fn` for the object of each gpu.binary in `module` (after
/// gpu-to-nvvm: PTX with format=isa, a cubin with format=bin); returns how
/// many.
unsigned kilnGpuForEachBinary(MlirModule module, KilnGpuBinaryFn fn,
                              void *userData);
/// Whether every function the kernels call is defined; otherwise passes a
/// message naming the missing libdevice functions to `errorCallback`.
bool kilnGpuCheckLinked(MlirModule module, MlirStringCallback errorCallback,
                        void *userData);

#endif

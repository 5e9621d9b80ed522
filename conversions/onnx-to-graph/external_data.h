/* ONNX external tensor data (TensorProto.data_location = EXTERNAL).
 * Internal to the importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_EXTERNAL_DATA_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_EXTERNAL_DATA_H

#include <stddef.h>

#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

/// Reads the `size` bytes of `t`'s external data: the file named by its
/// `location` key, relative to `baseDir` (the model file's directory), from
/// `offset` (default 0) for `length` bytes (default: to the end of the
/// file; both must agree with `size`). Returns a malloc'd buffer the caller
/// frees (never NULL on success, even for 0 bytes), or NULL after an error
/// at `loc` naming `what`: no base directory (a model imported from memory),
/// no or an absolute location, one with a `..` component, an unreadable
/// file, malformed or out-of-range offset/length.
void *kilnOnnxExternalDataRead(const Onnx__TensorProto *t, const char *baseDir,
                               size_t size, MlirLocation loc, const char *what);

#endif

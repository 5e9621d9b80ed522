/* Importing ONNX models into the graph dialect.
 *
 * The result is a module holding `func.func @main_graph(inputs...) ->
 * (outputs...)` made of graph ops, one per ONNX node (N-ary Min, Max and
 * Concat become chains of binary ops), with initializers as graph.constant.
 * Every op is located at NameLoc("NODE (OpType)", FILE:0:0), "#INDEX" for
 * unnamed nodes, so later diagnostics name the ONNX node. */
#ifndef KILN_ONNX_H
#define KILN_ONNX_H

#include <stddef.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Imports the ONNX model in the file at `path` into `ctx` (set up with
/// kilnContextCreate). Returns an owned module (destroy with
/// mlirModuleDestroy), or a null module after emitting error diagnostics:
/// an unreadable or corrupt file, every unsupported op, dynamic input dims,
/// values used before their definition, unsupported data.
MlirModule kilnOnnxImportFile(MlirContext ctx, const char *path);

/// As kilnOnnxImportFile for a serialized ModelProto in memory; `name` is
/// the file name used in locations and messages. `data` is only read during
/// the call.
MlirModule kilnOnnxImportBuffer(MlirContext ctx, const void *data, size_t len,
                                const char *name);

#ifdef __cplusplus
}
#endif

#endif

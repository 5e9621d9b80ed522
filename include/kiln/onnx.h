/* Importing ONNX models into the graph dialect.
 *
 * The result is a module holding `func.func @main_graph(inputs...) ->
 * (outputs...)` made of graph ops, one per ONNX node (N-ary Min, Max,
 * Concat, Sum and Mean become chains of binary ops; see
 * docs/onnx-import.md), with initializers as graph.constant. Each argument
 * and result carries its ONNX name as `{onnx.name = "..."}`. Every op is
 * located at NameLoc("NODE (OpType)", FILE:0:0), "#INDEX" for unnamed
 * nodes, so later diagnostics name the ONNX node. */
#ifndef KILN_ONNX_H
#define KILN_ONNX_H

#include <stddef.h>
#include <stdint.h>

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Imports the ONNX model in the file at `path` into `ctx` (set up with
/// kilnContextCreate). External tensor data is read relative to the file's
/// directory. Returns an owned module (destroy with mlirModuleDestroy), or a
/// null module after emitting error diagnostics: an unreadable or corrupt
/// file, a default-domain opset outside 1..22, every unsupported op,
/// dynamic input dims, undefined or doubly defined values, cycles, declared
/// types contradicting the inferred ones, unsupported data. Older opsets'
/// forms (Squeeze-11 `axes`, Clip-6 `min`/`max`, opset-6 broadcasting, ...)
/// become their latest form. Large float weights become
/// DenseResourceElementsAttr blobs owned by `ctx`.
MlirModule kilnOnnxImportFile(MlirContext ctx, const char *path);

/// As kilnOnnxImportFile for a serialized ModelProto in memory; `name` is
/// the file name used in locations and messages. `data` is only read during
/// the call. There is no directory here, so external data is an error.
MlirModule kilnOnnxImportBuffer(MlirContext ctx, const void *data, size_t len,
                                const char *name);

/// A static shape for one graph input, replacing its symbolic or unknown
/// dims. Known dims in the model must agree with it. Borrowed strings and
/// arrays: only read during the import call.
typedef struct KilnOnnxInputShape {
  const char *name;    /* graph input name */
  const int64_t *dims; /* `rank` dims, each >= 0 */
  intptr_t rank;
} KilnOnnxInputShape;

/// Import options; zero-initialize, then set what you need.
typedef struct KilnOnnxImportOptions {
  const KilnOnnxInputShape *inputShapes;
  intptr_t numInputShapes;
} KilnOnnxImportOptions;

/// As kilnOnnxImportFile with `options` (NULL: the defaults). Also errors
/// for an input shape naming no graph input, with the wrong rank or
/// contradicting a static dim of the model.
MlirModule kilnOnnxImportFileWithOptions(MlirContext ctx, const char *path,
                                         const KilnOnnxImportOptions *options);

/// As kilnOnnxImportBuffer with `options` (NULL: the defaults).
MlirModule
kilnOnnxImportBufferWithOptions(MlirContext ctx, const void *data, size_t len,
                                const char *name,
                                const KilnOnnxImportOptions *options);

#ifdef __cplusplus
}
#endif

#endif

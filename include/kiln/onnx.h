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
  const char *name;    /* graph input name; NULL: use `position` */
  const int64_t *dims; /* `rank` dims, each >= 0, or -1: dynamic */
  intptr_t rank;
  /* With a NULL name: the input's index among the graph inputs that are
   * not initializers (0 = the first). */
  intptr_t position;
} KilnOnnxInputShape;

/// A value for one graph input, which turns it into a constant (as if it
/// were an initializer): the input disappears from @main_graph's arguments.
/// Binding the inputs that determine shapes (Reshape's shape, Slice's
/// starts, TopK's k, ...) makes the graph's shapes static. Borrowed: only
/// read during the import call.
typedef struct KilnOnnxInputValue {
  const char *name;     /* graph input name */
  MlirType elementType; /* must equal the input's declared element type */
  const int64_t *dims;  /* `rank` dims; must agree with the model's */
  intptr_t rank;
  /* Row-major, host byte order, exactly as many bytes as the dims and
   * element type say (bool: one byte per element). */
  const void *data;
  size_t byteSize;
} KilnOnnxInputValue;

/// A size for a named dimension: every graph input dim whose ONNX
/// `dim_param` is `name` gets `size` (as ONNX Runtime's free dimension
/// overrides by name). Inputs that share a dim name share its size, so one
/// binding sizes the batch of every input.
typedef struct KilnOnnxDimBinding {
  const char *name;
  int64_t size; /* >= 0 */
} KilnOnnxDimBinding;

/// What becomes of a graph input dim that no shape, value or binding sizes.
typedef enum KilnOnnxDynamicDims {
  /* An error: every input dim the model leaves open needs a size. */
  KILN_ONNX_DIMS_STATIC = 0,
  /* The model's open dims (named by a dim_param, or unknown) stay dynamic:
   * the code takes any size there at run time. */
  KILN_ONNX_DIMS_DYNAMIC,
  /* Every input dim no shape, value or binding sizes is dynamic, even one
   * the model fixes (onnx-mlir's force-dynamic: testing shape-generic
   * code). */
  KILN_ONNX_DIMS_ALL_DYNAMIC,
} KilnOnnxDynamicDims;

/// Import options; zero-initialize, then set what you need.
typedef struct KilnOnnxImportOptions {
  const KilnOnnxInputShape *inputShapes;
  intptr_t numInputShapes;
  const KilnOnnxInputValue *inputValues;
  intptr_t numInputValues;
  const KilnOnnxDimBinding *dims;
  intptr_t numDims;
  KilnOnnxDynamicDims dynamicDims;
} KilnOnnxImportOptions;

/// As kilnOnnxImportFile with `options` (NULL: the defaults). Also errors
/// for an input shape or value naming no graph input (or a position past
/// the last), with the wrong rank or contradicting a static dim of the
/// model, for a value of the wrong element type or byte size, for sizes of
/// one dim name that disagree (two inputs' shapes, or a shape and a
/// binding), and for a binding whose name no input dim has.
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

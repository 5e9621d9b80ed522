/* The sizes of the graph inputs' dimensions. A dim is the model's own
 * (dim_value), the one an input shape gives (KilnOnnxInputShape), or, for
 * a named dim (dim_param), the size bound to its name
 * (KilnOnnxDimBinding, as ONNX Runtime's free dimension overrides by
 * name). Inputs that share a dim name share its size: once one input's
 * dim fixes it, the others follow, and a contradiction is an error naming
 * both places. Internal to the importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_INPUT_DIMS_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_INPUT_DIMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/onnx.h"
#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

typedef struct KilnInputDims KilnInputDims;

/// Starts resolving with the options' dim bindings (borrowed for the
/// lifetime of the result); NULL after an error at `loc` (a binding without
/// a name, with a negative size, or given twice with different sizes).
KilnInputDims *kilnInputDimsCreate(const KilnOnnxImportOptions *options,
                                   MlirLocation loc);
void kilnInputDimsDestroy(KilnInputDims *dims);

/// The size of dim `i` of graph input `input` (`d` in the model; `given`,
/// the options' shape for the input, or NULL) into *out. False after an
/// error at `loc`: a given size contradicting the model's or a shared
/// name's, or a dynamic dim nothing sizes.
bool kilnInputDimsResolve(KilnInputDims *dims, const char *input, size_t i,
                          const Onnx__TensorShapeProto__Dimension *d,
                          const KilnOnnxInputShape *given, MlirLocation loc,
                          int64_t *out);

/// After every input: false after an error at `loc` for each binding whose
/// name no input dim has (with the names the inputs do have).
bool kilnInputDimsFinish(KilnInputDims *dims, MlirLocation loc);

#endif

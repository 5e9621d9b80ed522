/* Small pieces the importer's files share: a string-keyed map and the
 * locations errors are reported at. Internal to the importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_IMPORT_UTIL_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_IMPORT_UTIL_H

#include <stdbool.h>
#include <stddef.h>

#include "kiln/graph_builder.h"
#include "mlir-c/IR.h"
#include "onnx.pb-c.h"

/// An open-addressing map from borrowed NUL-terminated names (which must
/// outlive it) to pointers. Zero-initialize; release with
/// kilnOnnxNameMapDestroy.
typedef struct KilnOnnxNameMap {
  struct KilnOnnxNameSlot *slots;
  size_t cap; /* a power of two, kept at least twice the count */
  size_t count;
} KilnOnnxNameMap;

/// Maps `name` to `value` (replacing an earlier value).
void kilnOnnxNameMapPut(KilnOnnxNameMap *m, const char *name,
                        const void *value);
/// The value of `name`, or NULL when absent.
const void *kilnOnnxNameMapGet(const KilnOnnxNameMap *m, const char *name);
void kilnOnnxNameMapDestroy(KilnOnnxNameMap *m);

/// NameLoc("NAME (OpType)", fileLoc), "#INDEX (OpType)" for an unnamed
/// node: where errors about node `index` of a graph are reported.
MlirLocation kilnOnnxNodeLoc(MlirLocation fileLoc, const Onnx__NodeProto *n,
                             size_t index);
/// NameLoc("NAME", fileLoc): where errors about a graph value are reported.
MlirLocation kilnOnnxValueLoc(MlirLocation fileLoc, const char *name);

/// `name = value` as a named attribute.
MlirNamedAttribute kilnOnnxNamedAttr(MlirContext ctx, const char *name,
                                     MlirAttribute value);
/// A 1-D i64 dense elements attribute of `n` values.
MlirAttribute kilnOnnxI64VectorAttr(MlirContext ctx, const int64_t *v,
                                    intptr_t n);
/// A graph.constant holding `value`; null after an error.
MlirValue kilnOnnxBuildConstant(KilnGraphBuilder *b, MlirAttribute value);

#endif

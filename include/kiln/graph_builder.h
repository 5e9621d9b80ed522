/* Building graph-dialect IR from C.
 *
 * A KilnGraphBuilder appends ops to a block at a location. Every op's result
 * types are inferred from its operands and attributes with ONNX's shape
 * rules (numpy broadcasting, conv arithmetic, ...). On a violated rule the
 * builder emits an error diagnostic at its current location and returns a
 * null op/value; nothing is inserted.
 *
 * Typed builders, one per op, are declared in graph_ops.h; this header has
 * the builder itself and the generic entry point they share. */
#ifndef KILN_GRAPH_BUILDER_H
#define KILN_GRAPH_BUILDER_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct KilnGraphBuilder KilnGraphBuilder;

/// Creates a builder appending to the end of `block` with location `loc`.
/// The graph dialect must be loaded in `ctx`. Destroy with
/// kilnGraphBuilderDestroy.
KilnGraphBuilder *kilnGraphBuilderCreate(MlirContext ctx, MlirBlock block,
                                         MlirLocation loc);
/// Destroys a builder; NULL is a no-op. Built ops are owned by their block.
void kilnGraphBuilderDestroy(KilnGraphBuilder *b);

/// Sets the location given to subsequently built ops (and their errors).
void kilnGraphBuilderSetLocation(KilnGraphBuilder *b, MlirLocation loc);
/// Inserts subsequent ops before `op` (a null op: append to the block).
void kilnGraphBuilderSetInsertionPointBefore(KilnGraphBuilder *b,
                                             MlirOperation op);
MlirContext kilnGraphBuilderGetContext(const KilnGraphBuilder *b);
MlirLocation kilnGraphBuilderGetLocation(const KilnGraphBuilder *b);

/// Builds `graph.<opName>` (opName without prefix). `operands` are by ONNX
/// position; a null value marks an absent optional input. `numResults` is
/// the number of results wanted, or -1 for the op's usual count (one per
/// declared result, optional results left out). Returns the new op, or a
/// null op after emitting an error.
MlirOperation kilnGraphBuilderCreateOp(KilnGraphBuilder *b, const char *opName,
                                       const MlirValue *operands,
                                       intptr_t numOperands,
                                       const MlirNamedAttribute *attrs,
                                       intptr_t numAttrs, intptr_t numResults);

/// Convenience: the first result of kilnGraphBuilderCreateOp, or null.
MlirValue kilnGraphBuilderCreateValue(KilnGraphBuilder *b, const char *opName,
                                      const MlirValue *operands,
                                      intptr_t numOperands,
                                      const MlirNamedAttribute *attrs,
                                      intptr_t numAttrs);

/// Named-attribute shorthands for typed builders: `name = value`.
MlirNamedAttribute kilnGraphAttrInt(KilnGraphBuilder *b, const char *name,
                                    int64_t value);
MlirNamedAttribute kilnGraphAttrFloat(KilnGraphBuilder *b, const char *name,
                                      float value);
MlirNamedAttribute kilnGraphAttrString(KilnGraphBuilder *b, const char *name,
                                       const char *value);
MlirNamedAttribute kilnGraphAttrInts(KilnGraphBuilder *b, const char *name,
                                     const int64_t *values, intptr_t n);
MlirNamedAttribute kilnGraphAttrFloats(KilnGraphBuilder *b, const char *name,
                                       const float *values, intptr_t n);
MlirNamedAttribute kilnGraphAttrType(KilnGraphBuilder *b, const char *name,
                                     MlirType type);
/// `name = ["a", "b"]`: an ArrayAttr of the `n` NUL-terminated `values`
/// as StringAttrs (copied).
MlirNamedAttribute kilnGraphAttrStrings(KilnGraphBuilder *b, const char *name,
                                        const char *const *values, intptr_t n);

#ifdef __cplusplus
}
#endif

#endif

/* Type inference for graph ops: the context an inference function gets and
 * helpers for reading its operands and attributes.
 *
 * The same functions serve the typed builders (before an op exists) and
 * graph-verify (on an existing op), so a context carries values and named
 * attributes rather than an operation. */
#ifndef KILN_DIALECTS_GRAPH_INFER_H
#define KILN_DIALECTS_GRAPH_INFER_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/op_table.h"
#include "mlir-c/IR.h"

/* Ranks above this are rejected by inference (ONNX models stay far below). */
#define KILN_MAX_RANK 16

typedef struct KilnInferContext {
  MlirContext ctx;
  MlirLocation loc; /* where errors are reported */
  const KilnGraphOpInfo *op;
  /* Operands by ONNX position: an absent optional operand is a null value
   * (mlirValueIsNull); trailing absent ones may be left out. A variadic
   * last operand contributes all its values. */
  const MlirValue *operands;
  intptr_t numOperands;
  const MlirNamedAttribute *attrs;
  intptr_t numAttrs;
  /* In: how many results are wanted (for variadic/optional results such as
   * split's outputs or max_pool's indices). Out: the types. */
  intptr_t numResults;
  MlirType *resultTypes; /* capacity numResults */
} KilnInferContext;

/// The operand at ONNX position `i`, or a null value when absent.
MlirValue kilnInferOperand(const KilnInferContext *c, intptr_t i);
/// The operand's type as a ranked tensor type; a null type (with an error
/// emitted) if it is absent or not a ranked tensor.
MlirType kilnInferRankedOperand(const KilnInferContext *c, intptr_t i);

/// The named attribute, or a null attribute when absent.
MlirAttribute kilnInferAttr(const KilnInferContext *c, const char *name);
/// Typed attribute getters returning `dflt` when absent. Kinds have been
/// checked against the op table before inference runs.
int64_t kilnInferAttrInt(const KilnInferContext *c, const char *name,
                         int64_t dflt);
float kilnInferAttrFloat(const KilnInferContext *c, const char *name,
                         float dflt);
/// Returns the string (borrowed from the attribute) or `dflt`.
MlirStringRef kilnInferAttrString(const KilnInferContext *c, const char *name,
                                  const char *dflt);
/// Copies up to `cap` elements of an i64 array attribute into `out`; returns
/// the attribute's length, or -1 when absent.
intptr_t kilnInferAttrInts(const KilnInferContext *c, const char *name,
                           int64_t *out, intptr_t cap);

/// The index of the string attribute's value (or `dflt`) in the
/// NULL-terminated `names`; -1 when it is none of them.
int kilnInferAttrChoice(const KilnInferContext *c, const char *name,
                        const char *dflt, const char *const *names);

/// If operand `i` is defined by a graph.constant of f32 or f64, reads up to
/// `cap` elements into `out` and returns its element count; -1 otherwise.
intptr_t kilnInferConstantFloats(const KilnInferContext *c, intptr_t i,
                                 double *out, intptr_t cap);

/// If operand `i` is an integer (or i1) tensor known at compile time, reads
/// up to `cap` elements (sign-extended) into `out` and returns how many it
/// holds. Known values are graph.constant and small integer computations on
/// constants and static shapes (Shape, Slice, Concat, Gather, arithmetic...;
/// see const_eval.h). Returns -1 when the operand is absent or its value is
/// unknown at compile time.
intptr_t kilnInferConstantInts(const KilnInferContext *c, intptr_t i,
                               int64_t *out, intptr_t cap);

/// Emits "'graph.<op>' op <message>" at the context's location; returns
/// failure so callers can `return kilnInferError(...)`.
MlirLogicalResult kilnInferError(const KilnInferContext *c, const char *fmt,
                                 ...) __attribute__((format(printf, 2, 3)));

/// Numpy-style broadcast of ranked shapes `a` and `b` (dynamic dims are
/// MLIR's kDynamic). Writes the result shape into out (capacity
/// KILN_MAX_RANK) and its rank into *outRank. Fails (with an error naming
/// both shapes) on incompatible static dims.
MlirLogicalResult kilnInferBroadcast(const KilnInferContext *c, MlirType a,
                                     MlirType b, int64_t *out,
                                     intptr_t *outRank);

/// Normalizes an ONNX axis in [-rank, rank) to [0, rank); fails with an error
/// naming `what` (e.g. "axis") when out of range.
MlirLogicalResult kilnInferNormalizeAxis(const KilnInferContext *c,
                                         const char *what, int64_t axis,
                                         int64_t rank, int64_t *out);

/// Shorthand for mlirRankedTensorTypeGet with no encoding.
MlirType kilnInferTensorType(intptr_t rank, const int64_t *shape,
                             MlirType elementType);

#endif

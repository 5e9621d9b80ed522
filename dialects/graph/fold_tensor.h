/* Host-side tensors for the compile-time evaluator (fold_eval.h) and the
 * graph folding passes (graph-fold-constants, graph-fold-batchnorm): reading a
 * graph.constant's value, whether a DenseElementsAttr or a
 * DenseResourceElementsAttr (the importer's weights), into a flat buffer, and
 * writing a buffer back as a DenseElementsAttr.
 *
 * Every element occupies one 64-bit slot: floats as a double holding a
 * value exactly representable in the element type (f16, bf16, f32, f64),
 * integers sign- or zero-extended to int64 and wrapped to their width, i1
 * as 0 or 1. Arithmetic on such slots must round each result to the
 * element type (kilnFoldRoundFloat, kilnFoldWrapInt) so that folding gives
 * the values the lowering would compute. */
#ifndef KILN_DIALECTS_GRAPH_FOLD_TENSOR_H
#define KILN_DIALECTS_GRAPH_FOLD_TENSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/infer.h"
#include "mlir-c/IR.h"

typedef union KilnFoldSlot {
  double f;
  int64_t i;
} KilnFoldSlot;

typedef struct KilnFoldTensor {
  MlirType type; /* a statically shaped ranked tensor type */
  MlirType elt;
  bool isFloat;
  intptr_t rank;
  int64_t shape[KILN_MAX_RANK];
  intptr_t n;         /* element count */
  KilnFoldSlot *data; /* n slots, owned (malloc'd) */
} KilnFoldTensor;

/// Whether tensors of this element type can be folded: f16, bf16, f32, f64,
/// i1 and (un)signed integers of 8, 16, 32 or 64 bits.
bool kilnFoldElementTypeSupported(MlirType elt);

/// Allocates `t` for the statically shaped tensor type `type` with
/// uninitialized slots. Returns false (leaving `t` empty) when the type is
/// not foldable or has more than `maxElements` elements. Destroy with
/// kilnFoldTensorDestroy.
bool kilnFoldTensorCreate(MlirType type, intptr_t maxElements,
                          KilnFoldTensor *t);

/// Reads the elements attribute `value` (dense or dense resource) into `t`.
/// Returns false (leaving `t` empty) when the attribute's type is not
/// foldable or has more than `maxElements` elements. Destroy with
/// kilnFoldTensorDestroy.
bool kilnFoldTensorRead(MlirAttribute value, intptr_t maxElements,
                        KilnFoldTensor *t);

/// The `value` attribute of the graph.constant defining `v`, or a null
/// attribute.
MlirAttribute kilnFoldConstantValue(MlirValue v);

/// A DenseElementsAttr of t->type holding t's elements (borrowed from the
/// context).
MlirAttribute kilnFoldTensorToAttr(const KilnFoldTensor *t);

/// Frees t's slots; an empty tensor is a no-op.
void kilnFoldTensorDestroy(KilnFoldTensor *t);

/// Rounds `v` to the float element type `elt` (returned as a double).
double kilnFoldRoundFloat(MlirType elt, double v);

/// Wraps `v` to the integer element type `elt`: i1 to 0/1, signed types
/// sign-extended, unsigned ones zero-extended from their width.
int64_t kilnFoldWrapInt(MlirType elt, int64_t v);

#endif

/* Shared by the tensor-family lowerings (lower_tensor.c, which holds the
 * kilnLowerTensor table, and lower_tensor_gen.c): helpers and the lowerings
 * defined outside lower_tensor.c. Internal to convert-graph-to-linalg. */
#ifndef KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_TENSOR_H
#define KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_TENSOR_H

#include "conversions/graph-to-linalg/lower.h"

/// linalg.transpose of static `x`: result dim i is x's dim perm[i]. Returns
/// `x` for the identity permutation.
MlirValue kilnTensorTranspose(KilnBuilder *b, MlirValue x, const int64_t *perm);
/// tensor.extract of element 0 of a one-element tensor of any rank.
MlirValue kilnTensorExtractFirst(KilnBuilder *b, MlirValue t);
/// tensor.extract at `indices` (index values, one per dim of `t`).
MlirValue kilnTensorExtractAt(KilnBuilder *b, MlirValue t,
                              const MlirValue *indices);
/// Entry `k` of the 1-D integer tensor `v` as an index value: a size or
/// bound read at run time from a shape or starts operand (Reshape, Expand,
/// ConstantOfShape, Slice), i64 values clamped by the cast.
MlirValue kilnTensorIndexAt(KilnBuilder *b, MlirValue v, intptr_t k);

/* Lowerings in lower_tensor_gen.c: ops that generate values (range,
 * constant_of_shape, eye_like), mask (trilu) or move elements by computed
 * indices (pad, reverse_sequence). */
KilnLowerStatus kilnLowerTensorRange(KilnLowerOp *l);
KilnLowerStatus kilnLowerTensorPad(KilnLowerOp *l);
KilnLowerStatus kilnLowerTensorTrilu(KilnLowerOp *l);
KilnLowerStatus kilnLowerTensorConstantOfShape(KilnLowerOp *l);
KilnLowerStatus kilnLowerTensorEyeLike(KilnLowerOp *l);
KilnLowerStatus kilnLowerTensorReverseSequence(KilnLowerOp *l);

#endif

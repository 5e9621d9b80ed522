/* Shared pieces of the Reduction family's lowerings: lower_reduction.c
 * (ReduceX, Softmax, ArgMax, Hardmax, CumSum and the table),
 * lower_reduction_matmul.c (MatMul, Gemm, Einsum, Det) and
 * lower_reduction_select.c (TopK and the losses). */
#ifndef KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_REDUCTION_INTERNAL_H
#define KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_REDUCTION_INTERNAL_H

#include "conversions/graph-to-linalg/lower.h"

/// (d0..d{rank-1}) -> the dims not marked in `dropped`: reads a tensor that
/// lacks the dropped dims inside a rank-`rank` iteration space.
MlirAttribute kilnLowerRedDropMap(MlirContext ctx, intptr_t rank,
                                  const bool *dropped);

/// A linalg.generic over the dims of `x` (rank r) that reduces the dims
/// marked in `reduced` into a new tensor of the remaining dims, element type
/// `elt`, filled with the scalar `init` first. Inputs: `x` (identity map),
/// then `nExtra` tensors read through `extraMaps`. The body gets the input
/// elements, then the accumulator, and yields the new accumulator.
MlirValue kilnLowerRedReduce(KilnBuilder *b, MlirValue x, intptr_t nExtra,
                             const MlirValue *extra,
                             const MlirAttribute *extraMaps,
                             const bool *reduced, MlirType elt, MlirValue init,
                             KilnBodyFn body, void *userData);

/// A sum of `x` over the dims marked in `reduced` (dims removed).
MlirValue kilnLowerRedSum(KilnBuilder *b, MlirValue x, const bool *reduced);

/// An all-parallel linalg.generic over `resultType`'s shape reading each
/// input through its map; the body yields one element.
MlirValue kilnLowerRedMapped(KilnBuilder *b, intptr_t nInputs,
                             const MlirValue *inputs, const MlirAttribute *maps,
                             MlirType resultType, KilnBodyFn body,
                             void *userData);

/// Softmax (or log-softmax when `isLog`) of float `x` along `axis`,
/// numerically stable (the maximum is subtracted first).
MlirValue kilnLowerRedSoftmax(KilnBuilder *b, MlirValue x, int64_t axis,
                              bool isLog);

KilnLowerStatus kilnLowerRedMatMul(KilnLowerOp *l);
KilnLowerStatus kilnLowerRedGemm(KilnLowerOp *l);
KilnLowerStatus kilnLowerRedEinsum(KilnLowerOp *l);
KilnLowerStatus kilnLowerRedDet(KilnLowerOp *l);
KilnLowerStatus kilnLowerRedTopK(KilnLowerOp *l);
KilnLowerStatus kilnLowerRedNllLoss(KilnLowerOp *l);
KilnLowerStatus kilnLowerRedSceLoss(KilnLowerOp *l);

#endif

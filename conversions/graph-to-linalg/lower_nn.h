/* Shared pieces of the NN family's lowerings (lower_nn_*.c): the per-op
 * entry points the table in lower_nn.c lists, and the statistics helpers
 * the normalizations share. */
#ifndef KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_NN_H
#define KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_NN_H

#include "conversions/graph-to-linalg/lower.h"

/* lower_nn_norm.c */
KilnLowerStatus kilnLowerNNBatchNorm(KilnLowerOp *l);
KilnLowerStatus kilnLowerNNInstanceNorm(KilnLowerOp *l);
KilnLowerStatus kilnLowerNNLayerNorm(KilnLowerOp *l);
KilnLowerStatus kilnLowerNNLrn(KilnLowerOp *l);
KilnLowerStatus kilnLowerNNMeanVarianceNorm(KilnLowerOp *l);
/* lower_nn_resize.c */
KilnLowerStatus kilnLowerNNResize(KilnLowerOp *l);
/* lower_nn_sample.c */
KilnLowerStatus kilnLowerNNGridSample(KilnLowerOp *l);
KilnLowerStatus kilnLowerNNRoiAlign(KilnLowerOp *l);
/* lower_nn_recurrent.c */
KilnLowerStatus kilnLowerNNRnn(KilnLowerOp *l);
KilnLowerStatus kilnLowerNNGru(KilnLowerOp *l);
KilnLowerStatus kilnLowerNNLstm(KilnLowerOp *l);

/// The type statistics are computed in for element type `elt`: f64 for
/// f64, f32 for every narrower float (f16/bf16 sums lose too much).
MlirType kilnNNComputeType(MlirContext ctx, MlirType elt);
/// Converts every element of `x` to `elt` (a new tensor; `x` when equal).
MlirValue kilnNNConvert(KilnBuilder *b, MlirValue x, MlirType elt);
/// Sums `x` over the dims d with reduce[d] into a tensor of x's rank and
/// element type with size 1 in those dims (keepdims).
MlirValue kilnNNSumKeepDims(KilnBuilder *b, MlirValue x, const bool *reduce);
/// Mean and population variance of float `x` over the dims d with
/// reduce[d], both keepdims tensors of x's element type.
void kilnNNMeanVar(KilnBuilder *b, MlirValue x, const bool *reduce,
                   MlirValue *mean, MlirValue *var);

#endif

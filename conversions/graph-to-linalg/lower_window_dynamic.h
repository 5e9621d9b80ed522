/* Internal to the Conv lowering family: the lowerings of convolutions and
 * pools with dynamic dims (lower_window_dynamic.c), which lower_conv.c and
 * lower_pool.c call when an operand or the result has one. */
#ifndef KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_WINDOW_DYNAMIC_H
#define KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_WINDOW_DYNAMIC_H

#include "conversions/graph-to-linalg/lower.h"

/// Whether the op's only dynamic dims are the batch (dim 0) of its first
/// operand and of its result.
bool kilnLowerOnlyBatchDynamic(KilnLowerOp *l);

/// The static lowering of one sample: `sample` is a batch-1 slice of the
/// op's first operand, `sampleType` the result type with batch 1.
typedef MlirValue (*KilnSampleFn)(KilnLowerOp *l, KilnBuilder *b,
                                  MlirValue sample, MlirType sampleType);
/// An op whose only dynamic dim is the batch (kilnLowerOnlyBatchDynamic):
/// a loop over the samples, each lowered statically by `fn` (the schedules
/// a static model of batch 1 gets) and written into its row of the
/// result.
KilnLowerStatus kilnLowerPerSample(KilnLowerOp *l, KilnSampleFn fn);

KilnLowerStatus kilnLowerConvDynamic(KilnLowerOp *l);
KilnLowerStatus kilnLowerConvTransposeDynamic(KilnLowerOp *l);
KilnLowerStatus kilnLowerMaxPoolDynamic(KilnLowerOp *l);
KilnLowerStatus kilnLowerAveragePoolDynamic(KilnLowerOp *l);

#endif

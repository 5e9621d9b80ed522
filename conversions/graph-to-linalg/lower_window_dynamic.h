/* Internal to the Conv lowering family: the lowerings of convolutions and
 * pools with dynamic dims (lower_window_dynamic.c), which lower_conv.c and
 * lower_pool.c call when an operand or the result has one. */
#ifndef KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_WINDOW_DYNAMIC_H
#define KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_WINDOW_DYNAMIC_H

#include "conversions/graph-to-linalg/lower.h"

KilnLowerStatus kilnLowerConvDynamic(KilnLowerOp *l);
KilnLowerStatus kilnLowerConvTransposeDynamic(KilnLowerOp *l);
KilnLowerStatus kilnLowerMaxPoolDynamic(KilnLowerOp *l);
KilnLowerStatus kilnLowerAveragePoolDynamic(KilnLowerOp *l);

#endif

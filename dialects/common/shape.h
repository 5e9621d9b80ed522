/* Shape helpers shared by Kiln's passes and lowerings. */
#ifndef KILN_DIALECTS_COMMON_SHAPE_H
#define KILN_DIALECTS_COMMON_SHAPE_H

#include <stdint.h>

#include "mlir-c/IR.h"

/// Number of elements of a static shaped type.
int64_t kilnNumElements(MlirType shaped);

#endif

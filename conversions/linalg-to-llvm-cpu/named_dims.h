/* The SSA values that name a tensor's dynamic dims at the tensor level.
 *
 * A dynamic dim of a tensor is the size its producer was built with: a
 * tensor.empty's size operand, a slice's size, an expand's output_shape
 * entry, a reshape's shape element; a linalg op or an scf.forall passes on
 * its init's. After resolve-ranked-shaped-type-result-dims, canonicalize
 * and cse, dims the code computes the same way are one value, so two dims
 * are known equal when these values are. kiln-unify-dims and
 * kiln-regroup-reshapes prove dims equal this way. */
#ifndef KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_NAMED_DIMS_H
#define KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_NAMED_DIMS_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

/// The value that names dynamic dim `d` of the ranked tensor `v` (see the
/// file comment); null where its producer names none, and for static dims.
MlirValue kilnNamedDim(MlirValue v, intptr_t d);

/// Whether the index value `size` is dim `d` of tensor `v`: the equal
/// constant for a static dim; for a dynamic one `tensor.dim %v, d` or the
/// value kilnNamedDim gives.
bool kilnIsDimOf(MlirValue size, MlirValue v, intptr_t d);

#endif

/* Small IR helpers shared by Kiln's passes: op names, building one op
 * before another, operand segments, index constants, public functions. */
#ifndef KILN_SUPPORT_IR_BUILD_H
#define KILN_SUPPORT_IR_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"

/// Whether `op` is named exactly `name` ("memref.alloc").
bool kilnOpNameIs(MlirOperation op, const char *name);
/// Whether `op`'s name starts with `prefix` ("linalg.", "graph.reduce_").
bool kilnOpNameStartsWith(MlirOperation op, const char *prefix);
/// Builds the op `name` with the given operands, result types and
/// attributes at `before`'s location, inserted before it. Returns the op.
MlirOperation kilnInsertOp(MlirOperation before, const char *name,
                           intptr_t nOperands, const MlirValue *operands,
                           intptr_t nResults, const MlirType *resultTypes,
                           intptr_t nAttrs, const MlirNamedAttribute *attrs);
/// The `operandSegmentSizes` attribute with `n` segment sizes.
MlirNamedAttribute kilnSegmentSizesAttr(MlirContext ctx, intptr_t n,
                                        const int32_t *sizes);
/// An `arith.constant` of type index with value `v`, before `before`.
MlirValue kilnInsertIndexConstant(MlirOperation before, int64_t v);
/// `scf.if (a < b) {}` (unsigned index comparison, no else) before
/// `before`; returns its then-block's terminator (insert the guarded ops
/// before it).
MlirOperation kilnInsertIfLess(MlirOperation before, MlirValue a, MlirValue b);
/// The value of an index `arith.constant` (`v`'s defining op); false if
/// `v` is not one.
bool kilnConstantIndexValue(MlirValue v, int64_t *out);
/// Moves every op of `from` but its terminator before `before`.
void kilnMoveBlockOpsBefore(MlirBlock from, MlirOperation before);
/// The op before `op` in its block, or null (the C API has no getter).
MlirOperation kilnPrevInBlock(MlirOperation op);
/// Whether `op` is `ancestor` or nested in it.
bool kilnOpIsInside(MlirOperation op, MlirOperation ancestor);
/// A linalg op's iterator types in order ('p' parallel, 'r' reduction);
/// false unless it has exactly `loops` of them.
bool kilnLinalgIteratorKinds(MlirOperation op, char *kinds, intptr_t loops);
/// Indexing map `i` of a linalg op carrying an `indexing_maps` attribute
/// (a generic, or a named op that prints one).
MlirAffineMap kilnLinalgIndexingMap(MlirOperation op, intptr_t i);
/// The integer attribute `name` of `op`, or `dflt` when it is absent or
/// not an integer.
int64_t kilnOpGetIntAttr(MlirOperation op, const char *name, int64_t dflt);
/// Whether `t` is a ranked tensor type with a static shape.
bool kilnTypeIsStaticTensor(MlirType t);
/// Whether `op` is a tensor.expand_shape or tensor.collapse_shape whose
/// result has a static shape.
bool kilnIsStaticTensorReshape(MlirOperation op);
/// Whether `op` is a func.func definition (it has a body) that is public
/// (no `sym_visibility`, or "public").
bool kilnFuncIsPublicDefinition(MlirOperation op);

#endif

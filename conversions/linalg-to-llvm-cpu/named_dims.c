/* The values that name dynamic dims (named_dims.h). */
#include "conversions/linalg-to-llvm-cpu/named_dims.h"

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/ir_build.h"

/* How many producers deep a dim is followed. */
enum { kMaxDepth = 24 };

/* The k-th operand of `op` from `first` on where k counts the dynamic dims
 * of `t` before `d` (the operands of the dynamic sizes, in order). */
static MlirValue dynamicSizeOperand(MlirOperation op, intptr_t first,
                                    MlirType t, intptr_t d) {
  intptr_t k = first;
  for (intptr_t i = 0; i < d; ++i)
    k += mlirShapedTypeIsDynamicDim(t, i);
  return k < mlirOperationGetNumOperands(op) ? mlirOperationGetOperand(op, k)
                                             : (MlirValue){NULL};
}

/* kilnNamedDim, `depth` producers in. */
static MlirValue namedDim(MlirValue v, intptr_t d, int depth) {
  MlirType t = mlirValueGetType(v);
  if (depth >= kMaxDepth || !mlirValueIsAOpResult(v) ||
      !mlirTypeIsARankedTensor(t) || !mlirShapedTypeIsDynamicDim(t, d))
    return (MlirValue){NULL};
  MlirOperation op = mlirOpResultGetOwner(v);
  intptr_t n = mlirOperationGetNumOperands(op);
  if (kilnOpNameIs(op, "tensor.empty"))
    return dynamicSizeOperand(op, 0, t, d);
  if (kilnOpNameIs(op, "tensor.expand_shape"))
    return dynamicSizeOperand(op, 1, t, d);
  if (kilnOpNameIs(op, "tensor.reshape")) {
    MlirValue shape = mlirOperationGetOperand(op, 1);
    if (!mlirValueIsAOpResult(shape) ||
        !kilnOpNameIs(mlirOpResultGetOwner(shape), "tensor.from_elements"))
      return (MlirValue){NULL};
    return mlirOperationGetOperand(mlirOpResultGetOwner(shape), d);
  }
  if (kilnOpNameIs(op, "tensor.extract_slice")) {
    /* Not rank-reducing: the result's dims are the slice's sizes. */
    MlirAttribute sizes =
        mlirOperationGetAttributeByName(op, kilnStr("static_sizes"));
    if (mlirAttributeIsNull(sizes) ||
        mlirDenseArrayGetNumElements(sizes) != mlirShapedTypeGetRank(t))
      return (MlirValue){NULL};
    MlirAttribute offsets =
        mlirOperationGetAttributeByName(op, kilnStr("static_offsets"));
    intptr_t first = 1; /* operands: source, dynamic offsets, dynamic sizes */
    for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(offsets); ++i)
      first +=
          mlirShapedTypeIsDynamicSize(mlirDenseI64ArrayGetElement(offsets, i));
    return dynamicSizeOperand(op, first, t, d);
  }
  /* Destination-style ops: result r is written into init r, the last
   * results' worth of operands (a structured linalg op's second operand
   * segment; an scf.forall's shared outputs). */
  intptr_t nResults = mlirOperationGetNumResults(op);
  MlirAttribute segs =
      mlirOperationGetAttributeByName(op, kilnStr("operandSegmentSizes"));
  bool structured = kilnOpNameStartsWith(op, "linalg.") &&
                    !mlirAttributeIsNull(segs) &&
                    mlirAttributeIsADenseI32Array(segs) &&
                    mlirDenseArrayGetNumElements(segs) == 2 &&
                    mlirDenseI32ArrayGetElement(segs, 1) == nResults;
  if ((structured || kilnOpNameIs(op, "scf.forall")) && n >= nResults) {
    intptr_t r = mlirOpResultGetResultNumber(v);
    return namedDim(mlirOperationGetOperand(op, n - nResults + r), d,
                    depth + 1);
  }
  return (MlirValue){NULL};
}

MlirValue kilnNamedDim(MlirValue v, intptr_t d) { return namedDim(v, d, 0); }

bool kilnIsDimOf(MlirValue size, MlirValue v, intptr_t d) {
  MlirType t = mlirValueGetType(v);
  int64_t c;
  if (mlirValueIsNull(size))
    return false;
  if (!mlirShapedTypeIsDynamicDim(t, d))
    return kilnConstantIndexValue(size, &c) &&
           c == mlirShapedTypeGetDimSize(t, d);
  if (mlirValueIsAOpResult(size)) {
    MlirOperation def = mlirOpResultGetOwner(size);
    if (kilnOpNameIs(def, "tensor.dim") &&
        mlirValueEqual(mlirOperationGetOperand(def, 0), v) &&
        kilnConstantIndexValue(mlirOperationGetOperand(def, 1), &c) && c == d)
      return true;
  }
  MlirValue named = namedDim(v, d, 0);
  return !mlirValueIsNull(named) && mlirValueEqual(named, size);
}

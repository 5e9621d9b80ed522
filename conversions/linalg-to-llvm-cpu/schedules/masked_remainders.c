/* Remainder register tiles as masked full vectors (masked_remainders.h).
 *
 * A register tile of n columns, n not a power of two, is vectorized as
 * vector<.. x n>; LLVM legalizes each load, store and arithmetic op on it
 * as power-of-two pieces (7 lanes: 4 + 2 + 1 loads, inserted into one
 * register lane group by lane group). Widened to the next power of two w,
 * every op is one instruction: the reads and writes become out of bounds on
 * that dim, which convert-vector-to-llvm lowers to llvm.masked.load and
 * llvm.masked.store with a constant mask (AVX-512: a k-masked vmovups;
 * AVX2: vmaskmovps), and the arithmetic runs on whole registers. The extra
 * lanes hold padding (reads) or garbage computed from it; they stay in
 * their lanes (only elementwise ops and broadcasts are allowed on the
 * widened vectors) and are never stored (each widened write ends exactly
 * at its destination's last element). */
#include "conversions/linalg-to-llvm-cpu/schedules/masked_remainders.h"
#include "kiln/diagnostics.h"

#include <stdbool.h>

#include "dialects/linalg/transforms/schedule.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kMaxRank = 8 };

/* The widened innermost size of a vector type, 0 when it keeps its type:
 * only sizes LLVM splits into three or more pieces (7, 11, 13, 14, 15).
 * Two pieces (12 = 8 + 4, 5, 6) measured no better masked: 12 -> 16 on a
 * 28-wide 5x5 layer, 1 thread, 0.179 -> 0.186 ms. */
static int64_t widenedLanes(MlirType t, int64_t maxLanes) {
  if (!mlirTypeIsAVector(t) || mlirVectorTypeIsScalable(t))
    return 0;
  intptr_t rank = mlirShapedTypeGetRank(t);
  if (rank < 1 || rank > kMaxRank)
    return 0;
  int64_t n = mlirShapedTypeGetDimSize(t, rank - 1);
  int pieces = 0;
  for (int64_t b = n; b; b >>= 1)
    pieces += (int)(b & 1);
  if (n <= 2 || n >= maxLanes || pieces < 3)
    return 0;
  int64_t w = 1;
  while (w < n)
    w *= 2;
  if (w > maxLanes)
    w = maxLanes;
  return w == n ? 0 : w;
}

static MlirType widenedType(MlirType t, int64_t lanes) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[kMaxRank];
  for (intptr_t d = 0; d < rank; ++d)
    shape[d] = mlirShapedTypeGetDimSize(t, d);
  shape[rank - 1] = lanes;
  return mlirVectorTypeGet(rank, shape, mlirShapedTypeGetElementType(t));
}

/* The transfer op's source or destination dim read along the vector's
 * innermost dim; -1 for a broadcast dim, -2 for another form. */
static intptr_t innermostSourceDim(MlirOperation transfer) {
  MlirAttribute perm =
      mlirOperationGetAttributeByName(transfer, kilnStr("permutation_map"));
  if (mlirAttributeIsNull(perm) || !mlirAttributeIsAAffineMap(perm))
    return -2;
  MlirAffineMap map = mlirAffineMapAttrGetValue(perm);
  intptr_t n = mlirAffineMapGetNumResults(map);
  if (n < 1)
    return -2;
  MlirAffineExpr e = mlirAffineMapGetResult(map, n - 1);
  if (mlirAffineExprIsADim(e))
    return mlirAffineDimExprGetPosition(e);
  if (mlirAffineExprIsAConstant(e) && !mlirAffineConstantExprGetValue(e))
    return -1;
  return -2;
}

/* Whether a transfer op has no mask operand (its last segment is empty). */
static bool unmasked(MlirOperation transfer) {
  MlirAttribute segs =
      mlirOperationGetAttributeByName(transfer, kilnStr("operandSegmentSizes"));
  return !mlirAttributeIsNull(segs) && mlirAttributeIsADenseI32Array(segs) &&
         mlirDenseI32ArrayGetElement(segs, mlirDenseArrayGetNumElements(segs) -
                                               1) == 0;
}

/* Whether a write of `lanes` lanes along its destination's dim `dim`
 * starts at a constant 0 and that dim has exactly `lanes` elements. */
static bool writeCoversDim(MlirOperation write, intptr_t dim, int64_t lanes) {
  MlirType dest = mlirValueGetType(mlirOperationGetOperand(write, 1));
  if (dim < 0 || !mlirTypeIsAShaped(dest) || !mlirShapedTypeHasRank(dest) ||
      dim >= mlirShapedTypeGetRank(dest) ||
      mlirShapedTypeGetDimSize(dest, dim) != lanes)
    return false;
  int64_t first;
  return kilnConstantIndexValue(mlirOperationGetOperand(write, 2 + dim),
                                &first) &&
         first == 0;
}

typedef struct Scan {
  MlirOperation root;
  int64_t maxLanes;
  KilnOpList ops; /* ops with a vector operand or result to widen */
  bool ok;
} Scan;

static bool touchesWidened(MlirOperation op, int64_t maxLanes) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    if (widenedLanes(mlirValueGetType(mlirOperationGetResult(op, i)), maxLanes))
      return true;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (widenedLanes(mlirValueGetType(mlirOperationGetOperand(op, i)),
                     maxLanes))
      return true;
  return false;
}

/* Whether `op`, which has a vector to widen, keeps the extra lanes in
 * their lanes and out of memory. */
static bool widenable(MlirOperation op, int64_t maxLanes) {
  if (kilnOpNameIs(op, "vector.transfer_read"))
    return unmasked(op) && innermostSourceDim(op) > -2;
  if (kilnOpNameIs(op, "vector.transfer_write")) {
    MlirType vec = mlirValueGetType(mlirOperationGetOperand(op, 0));
    int64_t n = mlirShapedTypeGetDimSize(vec, mlirShapedTypeGetRank(vec) - 1);
    return unmasked(op) && widenedLanes(vec, maxLanes) &&
           writeCoversDim(op, innermostSourceDim(op), n);
  }
  if (kilnOpNameIs(op, "vector.broadcast"))
    return true;
  return (kilnOpNameStartsWith(op, "arith.") ||
          kilnOpNameStartsWith(op, "math.")) &&
         !kilnOpNameIs(op, "arith.constant") &&
         mlirOperationGetNumRegions(op) == 0;
}

static MlirWalkResult scanOp(MlirOperation op, void *userData) {
  Scan *s = userData;
  if (mlirOperationEqual(op, s->root) || !touchesWidened(op, s->maxLanes))
    return MlirWalkResultAdvance;
  if (!widenable(op, s->maxLanes)) {
    s->ok = false;
    return MlirWalkResultInterrupt;
  }
  kilnOpListPush(&s->ops, op);
  return MlirWalkResultAdvance;
}

/* Whether every widened operand is a result of a widened op (pre-order:
 * producers are listed before their users within the root). */
static bool closed(const Scan *s) {
  for (size_t i = 0; i < s->ops.len; ++i) {
    MlirOperation op = s->ops.data[i];
    for (intptr_t j = 0; j < mlirOperationGetNumOperands(op); ++j) {
      MlirValue v = mlirOperationGetOperand(op, j);
      if (widenedLanes(mlirValueGetType(v), s->maxLanes) &&
          (!mlirValueIsAOpResult(v) ||
           !kilnOpListContains(&s->ops, mlirOpResultGetOwner(v))))
        return false;
    }
  }
  return true;
}

/* Marks the widened dim of a transfer op out of bounds (broadcast dims
 * stay in bounds, as the verifier requires). */
static void setOutOfBounds(MlirOperation transfer) {
  if (innermostSourceDim(transfer) < 0)
    return;
  MlirAttribute old =
      mlirOperationGetAttributeByName(transfer, kilnStr("in_bounds"));
  intptr_t n = mlirArrayAttrGetNumElements(old);
  MlirContext ctx = mlirOperationGetContext(transfer);
  MlirAttribute flags[kMaxRank];
  for (intptr_t i = 0; i < n && i < kMaxRank; ++i)
    flags[i] = mlirArrayAttrGetElement(old, i);
  flags[n - 1] = mlirBoolAttrGet(ctx, 0);
  mlirOperationSetAttributeByName(transfer, kilnStr("in_bounds"),
                                  mlirArrayAttrGet(ctx, n, flags));
}

bool kilnMaskRemainderVectors(MlirOperation root, int64_t maxLanes) {
  Scan s = {.root = root, .maxLanes = maxLanes, .ok = true};
  mlirOperationWalk(root, scanOp, &s, MlirWalkPreOrder);
  bool ok = s.ok && s.ops.len && closed(&s);
  for (size_t i = 0; ok && i < s.ops.len; ++i) {
    MlirOperation op = s.ops.data[i];
    if (kilnOpNameIs(op, "vector.transfer_read") ||
        kilnOpNameIs(op, "vector.transfer_write"))
      setOutOfBounds(op);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      int64_t lanes = widenedLanes(mlirValueGetType(v), maxLanes);
      if (lanes)
        mlirValueSetType(v, widenedType(mlirValueGetType(v), lanes));
    }
  }
  kilnOpListDestroy(&s.ops);
  return ok;
}

/* Internal to the Tensor op family, which is split in two files: ops_tensor.c
 * (the table, the helpers below, and the ops that rearrange one tensor:
 * constant, identity, shape, reshape, flatten, transpose, squeeze, unsqueeze,
 * expand, tile, depth_to_space, space_to_depth) and ops_tensor_index.c (the
 * ops that select, join or generate index ranges along axes: concat, split,
 * slice, gather, pad, range). Nothing outside those two files includes this
 * header. */
#ifndef KILN_DIALECTS_GRAPH_OPS_TENSOR_INDEX_H
#define KILN_DIALECTS_GRAPH_OPS_TENSOR_INDEX_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/infer.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

/* ---------------------------------------------------------------------- */
/* Defined in ops_tensor_index.c: the table's inference functions          */
/* ---------------------------------------------------------------------- */

/// concat: binary; a and b agree in all dims but `axis`, which adds up.
MlirLogicalResult kilnTensorInferConcat(KilnInferContext *c);
/// split: equal pieces only (all results of a variadic share one type).
MlirLogicalResult kilnTensorInferSplit(KilnInferContext *c);
/// slice: ONNX Slice-13 on the constant axes, else dynamic dims.
MlirLogicalResult kilnTensorInferSlice(KilnInferContext *c);
/// gather: d[:axis] ++ shape(indices) ++ d[axis+1:].
MlirLogicalResult kilnTensorInferGather(KilnInferContext *c);
/// range: 1-D, its length known when start, limit and delta are constants.
MlirLogicalResult kilnTensorInferRange(KilnInferContext *c);
/// pad: padded (or cropped) dims when pads and axes are constants.
MlirLogicalResult kilnTensorInferPad(KilnInferContext *c);

/* ---------------------------------------------------------------------- */
/* Defined in ops_tensor.c: helpers shared by both files                   */
/* ---------------------------------------------------------------------- */

/// Fixed-size text for error messages, truncated with "..." when long.
/// Returned by value so several can appear in one kilnInferError call.
typedef struct KilnTensorText {
  char s[192];
} KilnTensorText;

/// "[2, ?, 3]": `?` for a dynamic dim.
KilnTensorText kilnTensorIntsText(const int64_t *v, intptr_t n);
/// The type as MLIR prints it.
KilnTensorText kilnTensorTypeText(MlirType type);

/// The declared name of operand `i` of the op being inferred.
const char *kilnTensorOperandName(const KilnInferContext *c, intptr_t i);

/// Sets result 0 to a ranked tensor of `rank` dynamic dims.
void kilnTensorSetAllDynamic(KilnInferContext *c, intptr_t rank, MlirType elt);

/// The integer element type wanted of an index operand.
typedef enum KilnTensorIndexKind {
  KILN_TENSOR_INDEX_I64,
  KILN_TENSOR_INDEX_I32_OR_I64
} KilnTensorIndexKind;

/// Checks that operand `i` is a 1-D tensor of i64 (or i32/i64) and stores its
/// static length, or -1 when dynamic, in *len.
MlirLogicalResult kilnTensorIndexVector(const KilnInferContext *c, intptr_t i,
                                        KilnTensorIndexKind kind,
                                        intptr_t *len);

/// Reads the constant axes of operand `i` (already checked to have static
/// length n <= KILN_MAX_RANK), normalizes them to [0, rank) and rejects
/// out-of-range or repeated ones. *known is false (and the call succeeds)
/// when they are not a compile-time constant.
MlirLogicalResult kilnTensorReadAxes(const KilnInferContext *c, intptr_t i,
                                     intptr_t n, int64_t rank, int64_t *axes,
                                     bool *known);

/// Fails unless `value` is one of the NULL-terminated `allowed` strings.
MlirLogicalResult kilnTensorCheckEnum(const KilnInferContext *c,
                                      const char *attr, MlirStringRef value,
                                      const char *const *allowed);

/* ---------------------------------------------------------------------- */
/* Shorthands for both files; short names keep the shape rules readable    */
/* ---------------------------------------------------------------------- */

static inline int64_t dynamicDim(void) {
  return mlirShapedTypeGetDynamicSize();
}
static inline bool isDynamic(int64_t d) {
  return mlirShapedTypeIsDynamicSize(d);
}
static inline MlirType elementOf(MlirType t) {
  return mlirShapedTypeGetElementType(t);
}

/* Copies a ranked type's shape (rank <= KILN_MAX_RANK) into `dims`. */
static inline intptr_t shapeOf(MlirType t, int64_t *dims) {
  intptr_t r = mlirShapedTypeGetRank(t);
  for (intptr_t i = 0; i < r; ++i)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  return r;
}

static inline void setResult(KilnInferContext *c, intptr_t i, intptr_t rank,
                             const int64_t *dims, MlirType elt) {
  c->resultTypes[i] = kilnInferTensorType(rank, dims, elt);
}

static inline bool isSignlessInt(MlirType t, unsigned width) {
  return mlirTypeIsAInteger(t) && mlirIntegerTypeIsSignless(t) &&
         mlirIntegerTypeGetWidth(t) == width;
}

/* Reads exactly `n` constant integers of operand `i`; false when the value
 * is not a compile-time constant of that length. */
static inline bool constantInts(const KilnInferContext *c, intptr_t i,
                                int64_t *out, intptr_t n) {
  return n >= 0 && kilnInferConstantInts(c, i, out, n) == n;
}

#endif

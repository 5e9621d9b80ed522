/* Internal to the Tensor op family, which is split in five files:
 * ops_tensor_common.c (the helpers below), ops_tensor.c (the table and the
 * ops that rearrange one tensor: constant, identity, shape, reshape,
 * flatten, transpose, squeeze, unsqueeze, expand, tile, depth_to_space,
 * space_to_depth),
 * ops_tensor_index.c (the ops that select, join or generate index ranges
 * along axes: concat, split, slice, gather, pad, range), ops_tensor_data.c
 * (element-wise indexing and masks: gather_elements, gather_nd,
 * scatter_elements, scatter_nd, trilu, eye_like, one_hot, reverse_sequence)
 * and ops_tensor_dynamic.c (ops whose result shape is data-dependent or
 * generated: constant_of_shape, size, non_zero, compress, unique,
 * non_max_suppression). Nothing outside those files includes this header. */
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
/* Defined in ops_tensor_data.c                                            */
/* ---------------------------------------------------------------------- */

/// gather_elements: the result has indices' shape and data's element type.
MlirLogicalResult kilnTensorInferGatherElements(KilnInferContext *c);
/// gather_nd: indices.shape[:-1] ++ data.shape[batch_dims + k:].
MlirLogicalResult kilnTensorInferGatherND(KilnInferContext *c);
/// scatter_elements: data's type; indices and updates agree in shape.
MlirLogicalResult kilnTensorInferScatterElements(KilnInferContext *c);
/// scatter_nd: data's type; updates is indices.shape[:-1] ++ data.shape[k:].
MlirLogicalResult kilnTensorInferScatterND(KilnInferContext *c);
/// trilu: the input's type (rank >= 2).
MlirLogicalResult kilnTensorInferTrilu(KilnInferContext *c);
/// eye_like: the 2-D input's shape, element type `dtype` or the input's.
MlirLogicalResult kilnTensorInferEyeLike(KilnInferContext *c);
/// one_hot: indices' shape with depth inserted at `axis`.
MlirLogicalResult kilnTensorInferOneHot(KilnInferContext *c);
/// reverse_sequence: the input's type.
MlirLogicalResult kilnTensorInferReverseSequence(KilnInferContext *c);

/* ---------------------------------------------------------------------- */
/* Defined in ops_tensor_dynamic.c                                         */
/* ---------------------------------------------------------------------- */

/// constant_of_shape: the shape operand's value, `value`'s element type.
MlirLogicalResult kilnTensorInferConstantOfShape(KilnInferContext *c);
/// size: a scalar i64.
MlirLogicalResult kilnTensorInferSize(KilnInferContext *c);
/// non_zero: [rank, ?] of i64.
MlirLogicalResult kilnTensorInferNonZero(KilnInferContext *c);
/// compress: 1-D [?] without axis, else the input with dim `axis` dynamic.
MlirLogicalResult kilnTensorInferCompress(KilnInferContext *c);
/// unique: y, and the optional indices, inverse_indices, counts (i64).
MlirLogicalResult kilnTensorInferUnique(KilnInferContext *c);
/// non_max_suppression: [?, 3] of i64.
MlirLogicalResult kilnTensorInferNonMaxSuppression(KilnInferContext *c);

/* ---------------------------------------------------------------------- */
/* Defined in ops_tensor_index.c, shared                                   */
/* ---------------------------------------------------------------------- */

/// If operand `i` is a one-element graph.constant of integer, f32 or f64
/// type, stores its value in *out and returns true.
bool kilnTensorConstantScalar(const KilnInferContext *c, intptr_t i,
                              double *out);

/// Checks the constant values of operand 'indices' (position 1), if known,
/// against [-s, s) for a gathered dim of static size `s`.
MlirLogicalResult kilnTensorCheckConstantIndices(const KilnInferContext *c,
                                                 int64_t s);

/* ---------------------------------------------------------------------- */
/* Defined in ops_tensor_common.c: helpers shared by all the files        */
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

/// Checks that operand `i` is a scalar: rank 0, or (as exporters also write
/// it) a 1-D tensor of one element (or of dynamic length). Stores its type.
MlirLogicalResult kilnTensorScalarOperand(const KilnInferContext *c, intptr_t i,
                                          MlirType *type);

/// Fails unless the i64 attribute `attr` (default `dflt`) is 0 or 1; stores
/// it in *out.
MlirLogicalResult kilnTensorFlagAttr(const KilnInferContext *c,
                                     const char *attr, int64_t dflt,
                                     int64_t *out);

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

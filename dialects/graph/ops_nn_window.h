/* Internal to the NN op family, which is split in several files: ops_nn.c
 * (the table, the checks below, resize), ops_nn_window.c (conv, pool and
 * max_unpool inference over sliding windows), ops_nn_norm.c
 * (normalization), ops_nn_recurrent.c (rnn, lstm, gru) and ops_nn_sample.c
 * (grid_sample, roi_align). Nothing outside the family includes this
 * header. */
#ifndef KILN_DIALECTS_GRAPH_OPS_NN_WINDOW_H
#define KILN_DIALECTS_GRAPH_OPS_NN_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/infer.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

/* ---------------------------------------------------------------------- */
/* Defined in ops_nn_window.c: the table's inference functions             */
/* ---------------------------------------------------------------------- */

/// conv: N x M x O1 ... On from x (N x C x D1 ... Dn) and w.
MlirLogicalResult kilnNNInferConv(KilnInferContext *c);
/// conv_transpose: N x M x O1 ... On, output_shape or the transposed sizes.
MlirLogicalResult kilnNNInferConvTranspose(KilnInferContext *c);
/// max_pool: y and the optional i64 indices, both N x C x O1 ... On.
MlirLogicalResult kilnNNInferMaxPool(KilnInferContext *c);
/// average_pool: N x C x O1 ... On.
MlirLogicalResult kilnNNInferAveragePool(KilnInferContext *c);
/// global_average_pool, global_max_pool: N x C x 1 ... 1.
MlirLogicalResult kilnNNInferGlobalPool(KilnInferContext *c);
/// max_unpool: N x C x O1 ... On, from output_shape or the window sizes.
MlirLogicalResult kilnNNInferMaxUnpool(KilnInferContext *c);

/* ---------------------------------------------------------------------- */
/* Defined in ops_nn_norm.c, ops_nn_recurrent.c and ops_nn_sample.c        */
/* ---------------------------------------------------------------------- */

/// batch_norm: y (x's type); in training mode also running_mean/var (C).
MlirLogicalResult kilnNNInferBatchNorm(KilnInferContext *c);
/// instance_norm: x's type.
MlirLogicalResult kilnNNInferInstanceNorm(KilnInferContext *c);
/// layer_norm: y (x's type), optional mean and inv_std_dev (stash type).
MlirLogicalResult kilnNNInferLayerNorm(KilnInferContext *c);
/// lrn: x's type.
MlirLogicalResult kilnNNInferLrn(KilnInferContext *c);
/// mean_variance_normalization: x's type.
MlirLogicalResult kilnNNInferMeanVarianceNorm(KilnInferContext *c);
/// rnn, gru, lstm: y, y_h (and y_c for lstm), all optional.
MlirLogicalResult kilnNNInferRnn(KilnInferContext *c);
MlirLogicalResult kilnNNInferGru(KilnInferContext *c);
MlirLogicalResult kilnNNInferLstm(KilnInferContext *c);
/// grid_sample: N x C x (grid's spatial dims).
MlirLogicalResult kilnNNInferGridSample(KilnInferContext *c);
/// roi_align: num_rois x C x output_height x output_width.
MlirLogicalResult kilnNNInferRoiAlign(KilnInferContext *c);

/* ---------------------------------------------------------------------- */
/* Defined in ops_nn.c: checks shared by both files                        */
/* ---------------------------------------------------------------------- */

/// Prints `t` into `buf` (cleared first) and returns its text, borrowed from
/// `buf`.
const char *kilnNNTypeStr(KilnStrBuf *buf, MlirType t);

/// Fails unless lo <= c->numResults <= hi. Every inference function calls it
/// first: filling fewer types than requested would leave null types.
MlirLogicalResult kilnNNCheckResults(const KilnInferContext *c, intptr_t lo,
                                     intptr_t hi);

/// Fails unless `t` (operand i's type) has an f16, bf16, f32 or f64 element
/// type.
MlirLogicalResult kilnNNRequireFloat(const KilnInferContext *c, intptr_t i,
                                     MlirType t);

/// Fails unless operands i and j (types ti, tj) have the same element type.
MlirLogicalResult kilnNNRequireSameElement(const KilnInferContext *c,
                                           intptr_t i, MlirType ti, intptr_t j,
                                           MlirType tj);

/// Fails unless operand i has rank >= minRank; `form` describes the layout
/// expected, e.g. "N x C x D1 ... Dn".
MlirLogicalResult kilnNNRequireMinRank(const KilnInferContext *c, intptr_t i,
                                       MlirType t, intptr_t minRank,
                                       const char *form);

/// Fails unless operand i is 1-D with `n` elements (only the rank is checked
/// when either length is dynamic); `what` says what the values are.
MlirLogicalResult kilnNNRequireVector(const KilnInferContext *c, intptr_t i,
                                      MlirType t, int64_t n, const char *what);

/// Reads string attribute `name` (default `dflt`) and stores its index in the
/// NULL-terminated `choices`, failing on any other value.
MlirLogicalResult kilnNNReadChoice(const KilnInferContext *c, const char *name,
                                   const char *dflt, const char *const *choices,
                                   int *out);

/// Reads a 0/1 integer attribute (ONNX's booleans), default 0.
MlirLogicalResult kilnNNReadFlag(const KilnInferContext *c, const char *name,
                                 bool *out);

/// Fails unless operand i has rank `rank` and, where both sides are known,
/// the dims in `expect` (dynamic entries match anything); `form` names the
/// dims in the message, e.g. "num_directions x batch_size x hidden_size".
MlirLogicalResult kilnNNRequireShape(const KilnInferContext *c, intptr_t i,
                                     MlirType t, intptr_t rank,
                                     const int64_t *expect, const char *form);

/// Fails unless operand i has a signless integer element type of `width`
/// bits.
MlirLogicalResult kilnNNRequireInt(const KilnInferContext *c, intptr_t i,
                                   MlirType t, unsigned width);

/* ---------------------------------------------------------------------- */
/* Shorthands for both files; short names keep the shape rules readable    */
/* ---------------------------------------------------------------------- */

static inline MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }
static inline bool failed(MlirLogicalResult r) {
  return mlirLogicalResultIsFailure(r);
}
static inline int64_t dyn(void) { return mlirShapedTypeGetDynamicSize(); }
static inline bool known(int64_t d) { return !mlirShapedTypeIsDynamicSize(d); }
static inline MlirType elt(MlirType t) {
  return mlirShapedTypeGetElementType(t);
}
static inline int64_t dim(MlirType t, intptr_t i) {
  return mlirShapedTypeGetDimSize(t, i);
}
static inline intptr_t rankOf(MlirType t) { return mlirShapedTypeGetRank(t); }

#endif

/* Internal to the Reduction op family, which is split in three files:
 * ops_reduction.c (the table, the checks below, matmul, gemm, the softmax
 * family, the ReduceX ops, argmax/argmin, cum_sum, top_k and det),
 * ops_reduction_loss.c (negative_log_likelihood_loss and
 * softmax_cross_entropy_loss) and ops_reduction_einsum.c (the einsum
 * equation parser and its shape rules). Nothing outside those files includes
 * this header. */
#ifndef KILN_DIALECTS_GRAPH_OPS_REDUCTION_INTERNAL_H
#define KILN_DIALECTS_GRAPH_OPS_REDUCTION_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/infer.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

/* ---------------------------------------------------------------------- */
/* Defined in ops_reduction_loss.c and ops_reduction_einsum.c              */
/* ---------------------------------------------------------------------- */

/// negative_log_likelihood_loss: scalar, or target's shape for "none".
MlirLogicalResult kilnRedInferNllLoss(KilnInferContext *c);
/// softmax_cross_entropy_loss: output as NLL; optional log_prob = scores.
MlirLogicalResult kilnRedInferSceLoss(KilnInferContext *c);
/// einsum: parses and checks the equation against the operands.
MlirLogicalResult kilnRedInferEinsum(KilnInferContext *c);

/* ---------------------------------------------------------------------- */
/* Defined in ops_reduction.c: checks shared by the three files            */
/* ---------------------------------------------------------------------- */

/* Element-type classes (ONNX type constraints). ONNX's unsigned and signed
 * integers both map to signless iN, so classes are by width. */
enum {
  KILN_RED_FLOAT = 1u << 0, /* f16, bf16, f32, f64 */
  KILN_RED_BOOL = 1u << 1,  /* i1 */
  KILN_RED_I8 = 1u << 2,
  KILN_RED_I16 = 1u << 3,
  KILN_RED_I32 = 1u << 4,
  KILN_RED_I64 = 1u << 5,
};

/// Fails unless the element type of operand `i` (of type `t`) is in `mask`.
MlirLogicalResult kilnRedCheckElementType(const KilnInferContext *c, intptr_t i,
                                          MlirType t, unsigned mask);

/// Fails unless operands `i` and `j` have the same element type (ONNX's
/// single type variable T).
MlirLogicalResult kilnRedCheckSameElementType(const KilnInferContext *c,
                                              intptr_t i, MlirType ti,
                                              intptr_t j, MlirType tj);

/// Fails unless lo <= c->numResults <= hi (builders may ask for any count,
/// which must not write past the caller's type array).
MlirLogicalResult kilnRedCheckResults(const KilnInferContext *c, intptr_t lo,
                                      intptr_t hi);

/// The declared name of operand `i` of the op being inferred.
const char *kilnRedOperandName(const KilnInferContext *c, intptr_t i);

/* Shorthands for the three files. */
static inline int64_t kilnRedDim(MlirType t, intptr_t i) {
  return mlirShapedTypeGetDimSize(t, i);
}
static inline bool kilnRedIsDyn(int64_t d) {
  return mlirShapedTypeIsDynamicSize(d);
}
/* True when static dims `x` and `y` are known to differ. */
static inline bool kilnRedStaticMismatch(int64_t x, int64_t y) {
  return !kilnRedIsDyn(x) && !kilnRedIsDyn(y) && x != y;
}
/* Of two dims that must agree, the static one when there is one. */
static inline int64_t kilnRedMergeDim(int64_t x, int64_t y) {
  return kilnRedIsDyn(x) ? y : x;
}

#endif

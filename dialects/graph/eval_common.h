/* The integer and index rules of the compile-time evaluator
 * (fold_eval.c): integer arithmetic, broadcasting, transposes and
 * ScatterND's destinations, each as the graph-to-linalg lowering computes
 * it. Not a public header. */
#ifndef KILN_DIALECTS_GRAPH_EVAL_COMMON_H
#define KILN_DIALECTS_GRAPH_EVAL_COMMON_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

/// Integer binary ops with one meaning in both evaluators. Their enums
/// start with these values, in this order.
typedef enum KilnEvalIntOp {
  KILN_EVAL_ADD,
  KILN_EVAL_SUB,
  KILN_EVAL_MUL,
  KILN_EVAL_DIV,
  KILN_EVAL_MIN,
  KILN_EVAL_MAX,
  KILN_EVAL_MOD,  /* Mod with fmod = 0: the sign of the divisor */
  KILN_EVAL_FMOD, /* Mod with fmod = 1: the sign of the dividend, as C's % */
} KilnEvalIntOp;

/// One element of `op` on signed 64-bit values into `*r`: add, sub and mul
/// wrap (two's complement; the caller wraps the result to the element
/// type's width), div truncates toward zero, mod and fmod are the
/// remainders of floored and truncated division. Returns false where the
/// result is undefined at compile time (division or remainder by zero,
/// INT64_MIN / -1).
bool kilnEvalIntBinary(KilnEvalIntOp op, int64_t a, int64_t b, int64_t *r);

/// Strides, per dim of the shape `outShape[outRank]`, of a row-major tensor
/// of shape `inShape[inRank]` broadcast to it (numpy rules, in one
/// direction): 0 where the input broadcasts. Returns false if it does not
/// broadcast to `outShape`.
bool kilnEvalBroadcastStrides(intptr_t inRank, const int64_t *inShape,
                              intptr_t outRank, const int64_t *outShape,
                              intptr_t *strides);

/// The offset, in a tensor with `strides` (one per dim of `outShape`), of
/// the element at row-major position `linear` of `outShape`.
intptr_t kilnEvalBroadcastOffset(intptr_t outRank, const int64_t *outShape,
                                 const intptr_t *strides, intptr_t linear);

/// Transpose's permutation: reads `op`'s "perm" attribute (absent: the
/// dims reversed), checks it is a permutation of `rank` dims, and writes
/// the result's shape and, per result dim, the row-major stride of the
/// matching input dim (for kilnEvalBroadcastOffset). False if invalid.
bool kilnEvalTransposeStrides(MlirOperation op, intptr_t rank,
                              const int64_t *inShape, int64_t *outShape,
                              intptr_t *strides);

/// ScatterND's destinations: for each of the `numTuples` index tuples of
/// length `k` in `indices` (row-major), the row-major offset in a tensor of
/// shape `dataShape[rank]` of the slice it names (negative entries count
/// from the back), into `offsets`. False when k > rank or an index is out
/// of range (the lowering clamps those; ONNX leaves them undefined).
bool kilnEvalScatterNDOffsets(intptr_t rank, const int64_t *dataShape,
                              const int64_t *indices, intptr_t numTuples,
                              intptr_t k, intptr_t *offsets);

#endif

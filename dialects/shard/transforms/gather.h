/* Embedding lookups (ONNX Gather of a weight) as the sharding passes see
 * them (docs/scale-out.md): a linalg.generic whose body yields an element
 * of a tensor it captures, at indices it computes from its inputs.
 *
 *   %e = linalg.generic ins(%ids : tensor<2x16xi64>) outs(...) {
 *   ^bb0(%id: i64, %out: f32):
 *     %row = ... %id ...
 *     %v = tensor.extract %table[%row, %j] : tensor<500x64xf32>
 *     linalg.yield %v : f32
 *   } -> tensor<2x16x64xf32>
 *
 * MLIR's sharding sees no table operand: kiln-shard-prepare keeps such
 * lookups apart from their users (no elementwise op fused in), and tp
 * splits the table by rows (vocabulary-parallel, as Megatron-LM does):
 * each rank looks up the ids in its rows, zero for the others, and an
 * all-reduce sums the ranks' results (kiln-shard-bind-weights). */
#ifndef KILN_DIALECTS_SHARD_TRANSFORMS_GATHER_H
#define KILN_DIALECTS_SHARD_TRANSFORMS_GATHER_H

#include "mlir-c/IR.h"

/// The tensor.extract a lookup generic yields (of a tensor defined outside
/// it), or null if `op` is not such a lookup.
MlirOperation kilnShardLookupExtract(MlirOperation op);

#endif

/* Typed builders for graph ops of the tensor family (see graph_builder.h).
 *
 * Every builder appends one op at the builder's insertion point and location
 * with result types inferred by ONNX's shape rules. Operands are borrowed;
 * the built op is owned by its block. On a violated rule (or a result whose
 * rank cannot be inferred, which the dialect cannot express) the builder
 * emits an error diagnostic at its location, inserts nothing and returns a
 * null value / op.
 *
 * Conventions: an optional operand is a null MlirValue when absent; an
 * optional attribute without a C default is a pointer, NULL when absent; a
 * string attribute given as NULL takes its ONNX default. An attribute equal
 * to its ONNX default is left off the op (it means the same), so built IR
 * matches what the ONNX importer produces. */
#ifndef KILN_GRAPH_TENSOR_H
#define KILN_GRAPH_TENSOR_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/graph_builder.h"

#ifdef __cplusplus
extern "C" {
#endif

/// graph.constant (ONNX Constant) holding `value`, a dense elements
/// attribute of ranked tensor type (borrowed); the result has its type.
MlirValue kilnGraphBuildConstant(KilnGraphBuilder *b, MlirAttribute value);

/// graph.constant of a 1-D tensor<n x i64> holding `values[0..n)` (copied):
/// the usual way to make shape, axes and pads operands.
MlirValue kilnGraphBuildConstantInts(KilnGraphBuilder *b, const int64_t *values,
                                     intptr_t n);

/// graph.identity (ONNX Identity).
MlirValue kilnGraphBuildIdentity(KilnGraphBuilder *b, MlirValue input);

/// graph.reshape (ONNX Reshape) of `data` to the 1-D i64 `shape` (-1: infer
/// this dim; 0: copy the input dim unless `allowzero`).
MlirValue kilnGraphBuildReshape(KilnGraphBuilder *b, MlirValue data,
                                MlirValue shape, bool allowzero);

/// graph.flatten (ONNX Flatten) to 2-D around `axis` in [-r, r] (ONNX
/// default 1).
MlirValue kilnGraphBuildFlatten(KilnGraphBuilder *b, MlirValue input,
                                int64_t axis);

/// graph.transpose (ONNX Transpose) by `perm[0..numPerm)` (copied); NULL
/// perm reverses the dims (the ONNX default).
MlirValue kilnGraphBuildTranspose(KilnGraphBuilder *b, MlirValue data,
                                  const int64_t *perm, intptr_t numPerm);

/// graph.concat (ONNX Concat) of `a` and `b` along `axis`: they agree in
/// element type, rank and every dim but `axis`. The op is binary because
/// IRDL binds all values of a variadic operand to one type.
MlirValue kilnGraphBuildConcat(KilnGraphBuilder *b, MlirValue a, MlirValue b2,
                               int64_t axis);

/// ONNX's N-ary Concat of `inputs[0..n)` (borrowed) along `axis`, built as
/// the left-leaning chain concat(concat(in0, in1), in2)... (exact). n == 1
/// returns inputs[0] and builds nothing. n < 1 or a null input is an error;
/// on any error nothing stays inserted and the result is a null value.
MlirValue kilnGraphBuildConcatN(KilnGraphBuilder *b, const MlirValue *inputs,
                                intptr_t n, int64_t axis);

/// graph.split (ONNX Split) of `input` along `axis` into `numOutputs`
/// results. With a null `split`, the parts are ceil(d / numOutputs) each
/// (attribute num_outputs = numOutputs); otherwise `split` (1-D i64 with
/// numOutputs entries) gives their sizes. The parts must come out equal
/// (IRDL gives all results of a variadic one type): build unequal ones with
/// kilnGraphBuildSlice. Returns the op (its results are the parts), or a
/// null op.
MlirOperation kilnGraphBuildSplit(KilnGraphBuilder *b, MlirValue input,
                                  MlirValue split, int64_t axis,
                                  intptr_t numOutputs);

/// graph.slice (ONNX Slice). `starts`, `ends` and the optional `axes` and
/// `steps` (null when absent) are 1-D i32 or i64 tensors of equal length.
MlirValue kilnGraphBuildSlice(KilnGraphBuilder *b, MlirValue data,
                              MlirValue starts, MlirValue ends, MlirValue axes,
                              MlirValue steps);

/// graph.gather (ONNX Gather) of `data` along `axis` (ONNX default 0) by
/// i32/i64 `indices`.
MlirValue kilnGraphBuildGather(KilnGraphBuilder *b, MlirValue data,
                               MlirValue indices, int64_t axis);

/// graph.squeeze (ONNX Squeeze) of the dims listed in 1-D i64 `axes`; a null
/// `axes` removes every dim of size 1 (the input shape must then be static).
MlirValue kilnGraphBuildSqueeze(KilnGraphBuilder *b, MlirValue data,
                                MlirValue axes);

/// graph.unsqueeze (ONNX Unsqueeze): inserts size-1 dims at the result
/// positions listed in 1-D i64 `axes`.
MlirValue kilnGraphBuildUnsqueeze(KilnGraphBuilder *b, MlirValue data,
                                  MlirValue axes);

/// graph.expand (ONNX Expand): broadcasts `input` and the 1-D i64 `shape`
/// both ways.
MlirValue kilnGraphBuildExpand(KilnGraphBuilder *b, MlirValue input,
                               MlirValue shape);

/// graph.tile (ONNX Tile) by the 1-D i64 `repeats` (one per input dim).
MlirValue kilnGraphBuildTile(KilnGraphBuilder *b, MlirValue input,
                             MlirValue repeats);

/// graph.shape (ONNX Shape): dims [start, end) of `data` as a 1-D i64
/// tensor. `end` NULL: up to the rank (the ONNX default).
MlirValue kilnGraphBuildShape(KilnGraphBuilder *b, MlirValue data,
                              int64_t start, const int64_t *end);

/// graph.range (ONNX Range) from scalar (rank-0) `start` to `limit`
/// (excluded) by `delta`, all of one element type.
MlirValue kilnGraphBuildRange(KilnGraphBuilder *b, MlirValue start,
                              MlirValue limit, MlirValue delta);

/// graph.pad (ONNX Pad) of `data` by the 1-D i64 `pads` ([begins..., ends...]
/// per padded axis). `constantValue` (a scalar) and `axes` (1-D i32/i64) may
/// be null; `mode` is "constant" (NULL), "reflect", "edge" or "wrap".
MlirValue kilnGraphBuildPad(KilnGraphBuilder *b, MlirValue data, MlirValue pads,
                            MlirValue constantValue, MlirValue axes,
                            const char *mode);

/// graph.depth_to_space (ONNX DepthToSpace) of an NCHW `input`; `mode` is
/// "DCR" (NULL) or "CRD".
MlirValue kilnGraphBuildDepthToSpace(KilnGraphBuilder *b, MlirValue input,
                                     int64_t blocksize, const char *mode);

/// graph.space_to_depth (ONNX SpaceToDepth) of an NCHW `input`.
MlirValue kilnGraphBuildSpaceToDepth(KilnGraphBuilder *b, MlirValue input,
                                     int64_t blocksize);

#ifdef __cplusplus
}
#endif

#endif

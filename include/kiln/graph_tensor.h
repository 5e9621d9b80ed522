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
/// (attribute num_outputs = numOutputs; an op with neither means the same,
/// as ONNX Split-13 without 'split' does); otherwise `split` (1-D i64 with
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

/// graph.gather_elements (ONNX GatherElements): picks data's element along
/// `axis` (ONNX default 0) at each position of the i32/i64 `indices`, which
/// has data's rank; the result has indices' shape.
MlirValue kilnGraphBuildGatherElements(KilnGraphBuilder *b, MlirValue data,
                                       MlirValue indices, int64_t axis);

/// graph.gather_nd (ONNX GatherND): gathers slices of `data` addressed by
/// the last dim of the i64 `indices`; the first `batchDims` (ONNX default
/// 0) dims are shared.
MlirValue kilnGraphBuildGatherND(KilnGraphBuilder *b, MlirValue data,
                                 MlirValue indices, int64_t batchDims);

/// graph.scatter_elements (ONNX ScatterElements; Scatter without
/// `reduction`): writes `updates` (shaped like the i32/i64 `indices`) into
/// a copy of `data` along `axis`. `reduction` is "none" (NULL), "add",
/// "mul", "max" or "min".
MlirValue kilnGraphBuildScatterElements(KilnGraphBuilder *b, MlirValue data,
                                        MlirValue indices, MlirValue updates,
                                        int64_t axis, const char *reduction);

/// graph.scatter_nd (ONNX ScatterND): writes the slices `updates` into a
/// copy of `data` at the i64 index tuples `indices`; `reduction` as for
/// kilnGraphBuildScatterElements.
MlirValue kilnGraphBuildScatterND(KilnGraphBuilder *b, MlirValue data,
                                  MlirValue indices, MlirValue updates,
                                  const char *reduction);

/// graph.trilu (ONNX Trilu): the upper (`upper`, the ONNX default) or lower
/// triangle of the last two dims, shifted by the optional i64 scalar `k`
/// (null: 0).
MlirValue kilnGraphBuildTrilu(KilnGraphBuilder *b, MlirValue input, MlirValue k,
                              bool upper);

/// graph.constant_of_shape (ONNX ConstantOfShape): a tensor shaped by the
/// 1-D i64 `input`, filled with `value` (a one-element dense elements
/// attribute, borrowed; null: f32 0, the ONNX default).
MlirValue kilnGraphBuildConstantOfShape(KilnGraphBuilder *b, MlirValue input,
                                        MlirAttribute value);

/// graph.size (ONNX Size): `data`'s element count as a scalar i64.
MlirValue kilnGraphBuildSize(KilnGraphBuilder *b, MlirValue data);

/// graph.eye_like (ONNX EyeLike): ones on diagonal `k` of a tensor shaped
/// like the 2-D `input`, of element type `dtype` (null: input's).
MlirValue kilnGraphBuildEyeLike(KilnGraphBuilder *b, MlirValue input, int64_t k,
                                MlirType dtype);

/// graph.one_hot (ONNX OneHot): `indices` encoded along a new dim of size
/// `depth` (a numeric scalar) at `axis` (ONNX default -1), using
/// `values` = [off, on].
MlirValue kilnGraphBuildOneHot(KilnGraphBuilder *b, MlirValue indices,
                               MlirValue depth, MlirValue values, int64_t axis);

/// graph.reverse_sequence (ONNX ReverseSequence): reverses the first
/// `sequenceLens[i]` (1-D i64) steps along `timeAxis` of each batch entry
/// along `batchAxis` (ONNX defaults 1 and 0).
MlirValue kilnGraphBuildReverseSequence(KilnGraphBuilder *b, MlirValue input,
                                        MlirValue sequenceLens,
                                        int64_t batchAxis, int64_t timeAxis);

/// graph.non_zero (ONNX NonZero): the coordinates of `x`'s non-zero
/// elements, tensor<rank x ? x i64>.
MlirValue kilnGraphBuildNonZero(KilnGraphBuilder *b, MlirValue x);

/// graph.compress (ONNX Compress): the slices along `*axis` (NULL: the
/// elements of the flattened input) where the 1-D i1 `condition` holds.
MlirValue kilnGraphBuildCompress(KilnGraphBuilder *b, MlirValue input,
                                 MlirValue condition, const int64_t *axis);

/// graph.unique (ONNX Unique) of `x`'s elements, or of its slices along
/// `*axis` (NULL: flattened), in ascending order when `sorted` (the ONNX
/// default). Builds the first `numResults` (1 to 4) of y, indices,
/// inverse_indices and counts. Returns the op, or a null op.
MlirOperation kilnGraphBuildUnique(KilnGraphBuilder *b, MlirValue x,
                                   const int64_t *axis, bool sorted,
                                   intptr_t numResults);

/// graph.non_max_suppression (ONNX NonMaxSuppression) of f32 `boxes`
/// [batches, boxes, 4] by `scores` [batches, classes, boxes]. The scalar
/// operands (i64 `maxOutputBoxesPerClass`, f32 `iouThreshold` and
/// `scoreThreshold`) may be null. `centerPointBox` is 0 (ONNX default) or 1.
MlirValue kilnGraphBuildNonMaxSuppression(KilnGraphBuilder *b, MlirValue boxes,
                                          MlirValue scores,
                                          MlirValue maxOutputBoxesPerClass,
                                          MlirValue iouThreshold,
                                          MlirValue scoreThreshold,
                                          int64_t centerPointBox);

#ifdef __cplusplus
}
#endif

#endif

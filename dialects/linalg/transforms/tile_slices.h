/* Slices of reshaped producers inside kiln-fuse-groups' tile loops,
 * rewritten as reshapes of slices of the producers themselves, so that
 * transform.structured.fuse_into_containing_op finds the producer: the
 * cases upstream's bubble_up_extract_slice patterns leave alone because
 * the tile's offset is a value they cannot prove a multiple of the inner
 * dims (whole rows of an im2col window tensor, whole groups of a grouped
 * conv's contraction). */
#ifndef KILN_DIALECTS_LINALG_TRANSFORMS_TILE_SLICES_H
#define KILN_DIALECTS_LINALG_TRANSFORMS_TILE_SLICES_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/// Rewrites the first tensor.extract_slice in `forall`'s body that reads
/// the window tensor of `window` (an im2col window generic, N x C x KH x KW
/// x OH x OW, or a 3-D conv's N x C x KD x KH x KW x OD x OH x OW) through
/// its collapse to [N, K, P] (a group-1 conv), or through that collapse
/// expanded to [N, G, K/G, P] (a grouped 2-D conv), with whole rows of
/// pixels (a 3-D conv's: whole planes, or rows of one plane, a divisor of
/// it) and whole channels (whole groups): as the same reshapes of a slice
/// of the window tensor's channels and rows. Returns whether it rewrote
/// one.
bool kilnSliceWindowRows(MlirOperation forall, MlirOperation window);

/// kilnSliceWindowRows for a strided conv's window tensor, copied tap by
/// tap (a chain of tensor.insert_slices of strided slices of one padded
/// input into a tensor.empty): the tile's part of it is copied tap by tap
/// from the input in the tile instead, so it is still in cache when the
/// tile's contraction reads it. Returns whether it rewrote one.
bool kilnSliceTapWindow(MlirOperation forall);

/// Rewrites every tensor.extract_slice in `forall`'s body that reads a
/// grouped conv's contraction result N x G x MG x P through its collapse
/// to [N, M, P] with whole groups (the channel size a multiple of MG; the
/// offset is the tile's, a multiple of the size) as the collapse of a slice
/// of the contraction result. Returns whether it rewrote one.
bool kilnSliceGroupedResult(MlirOperation forall);

/// Whether `collapse` is a tensor.collapse_shape [N, G, MG, P] ->
/// [N, G * MG, P] (a grouped conv's result, groups merged into channels).
bool kilnIsGroupMerge(MlirOperation collapse);

#endif

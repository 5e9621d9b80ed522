/* The tiles kiln-fuse-groups gives a 3-D im2col conv with an epilogue:
 * blocks of output positions, each computing its own columns of the
 * window tensor (fuse_groups.c). The lowering (lower_conv_im2col.c) asks
 * the same question before it builds the window: a window that tiles will
 * build piece by piece is built as one gather generic, however big it is
 * whole. */
#ifndef KILN_DIALECTS_LINALG_TRANSFORMS_CONV3D_TILES_H
#define KILN_DIALECTS_LINALG_TRANSFORMS_CONV3D_TILES_H

#include <stdint.h>

#include "mlir-c/IR.h"

/// kiln-fuse-groups' conv tile options that the lowering predicts its
/// tiles from: `conv-tile-pixels` (output pixels per tile, at most) and
/// `conv-window-tiles` (the least row blocks per image for which each tile
/// of a 2-D conv builds its own rows of the window tensor, with all output
/// channels: fewer leave too little parallelism; 0: never).
#define KILN_CONV_TILE_PIXELS 256
#define KILN_CONV_WINDOW_TILES 4

/// The least blocks per image for which each tile of a 3-D conv builds its
/// own window columns (the blocks are cut for it: kilnConv3dTileGet).
enum { kKilnConv3dWindowBlocks = 4 };

/// Those two options for the conv at `loc`: its schedule record's values
/// (kiln-tune), else the defaults above.
void kilnConvGroupTilesAt(MlirLocation loc, int64_t *pixels,
                          int64_t *windowTiles);

/// A block of a 3-D conv's output positions OD x OH x OW: `depth` whole
/// planes (rows == OH), or `rows` rows of one plane (depth == 1); `count`
/// blocks per image.
/// The fewest positions of a block that leaves more blocks: a block of a
/// few positions wastes its register tiles' lanes (a 7 x 7 plane's rows).
enum { kKilnConv3dMinTilePixels = 64 };

typedef struct KilnConv3dTile {
  int64_t depth, rows, count;
} KilnConv3dTile;

/// The largest block of at most `pixels` positions (whole planes if they
/// fit, else rows of a plane) that leaves at least `minBlocks` blocks of at
/// least `minPixels` positions per image; failing that, the largest block
/// of at most `pixels` positions (one row if a row is longer).
KilnConv3dTile kilnConv3dTileGet(const int64_t *out, int64_t pixels,
                                 int64_t minBlocks, int64_t minPixels);

#endif

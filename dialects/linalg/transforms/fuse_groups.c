/* kiln-fuse-groups: lowers graph-fuse's fusion groups after graph-to-linalg
 * (docs/graph-fuse.md).
 *
 * A group is an `scf.execute_region` with a `graph.fusion` attribute whose
 * body now holds linalg on tensors. For a conv_epilogue / matmul_epilogue
 * group the body's last linalg op (the root: the epilogue) is tiled with
 * scf.forall, and the ops it reaches back to the contraction are fused into
 * each tile (transform dialect: tile_using_forall + fuse_into_containing_op,
 * as IREE and TVM do), so the contraction's result lives one tile at a time
 * instead of as a full tensor. Then every group's region is inlined into its
 * block. A group that cannot be tiled (no contraction reached through linalg
 * ops, a dynamic shape, more than one result) is only inlined: it lowers
 * unfused, as if graph-fuse had not run. Elementwise and reduction groups
 * are only inlined: upstream linalg-fuse-elementwise-ops (in
 * linalg-to-llvm-cpu) fuses their generics. */
#include "kiln/passes.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "dialects/linalg/transforms/conv3d_tiles.h"
#include "dialects/linalg/transforms/schedule.h"
#include "dialects/linalg/transforms/tile_slices.h"
#include "kiln/diagnostics.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/Dialect/Transform.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"
#include "support/schedule_record.h"

extern const KilnPassInfo kilnFuseGroupsPass;

/* An option's default text from its number (conv3d_tiles.h's defaults). */
#define KILN_STRINGIFY_(x) #x
#define KILN_STRINGIFY(x) KILN_STRINGIFY_(x)

enum {
  kOptTile,
  kOptConvRows,
  kOptMatmulRows,
  kOptConvChannels,
  kOptConvPixels,
  kOptDepthwiseTasks,
  kOptConvWindowTiles,
  kNumOptions
};

static const char *const kRootAttr = "kiln.fuse_root";

/* The most producers fused into one group's tiles; each is marked
 * "kiln.fuse_producer_<i>", i its place in fusion order. */
enum { kMaxProducers = 16 };

/* The schedule applied to one group (payload: the execute_region): built
 * per group (tileGroup) inside this empty sequence. */
static const char kSchedule[] =
    "module attributes {transform.with_named_sequence} {\n"
    "  transform.named_sequence @kiln_fuse_group(\n"
    "      %group: !transform.any_op {transform.readonly}) {\n"
    "    transform.yield\n"
    "  }\n"
    "}\n";

static MlirWalkResult collectGroups(MlirOperation op, void *userData) {
  if (kilnOpNameStartsWith(op, "scf.execute_region") &&
      !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
          op, kilnStr("graph.fusion"))))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* Whether a linalg op has a reduction loop (it is the group's contraction:
 * conv, matmul, or a generic with a reduction iterator). */
static bool hasReduction(MlirOperation op) {
  static const char *const kContractions[] = {"linalg.conv_",
                                              "linalg.depthwise_conv_",
                                              "linalg.matmul",
                                              "linalg.batch_matmul",
                                              "linalg.batch_reduce_matmul",
                                              "linalg.matvec",
                                              "linalg.vecmat",
                                              "linalg.contract",
                                              "linalg.batch_matvec"};
  for (size_t i = 0; i < sizeof(kContractions) / sizeof(kContractions[0]); ++i)
    if (kilnOpNameStartsWith(op, kContractions[i]))
      return true;
  MlirAttribute iters =
      mlirOperationGetAttributeByName(op, kilnStr("iterator_types"));
  if (mlirAttributeIsNull(iters) || !mlirAttributeIsAArray(iters))
    return false;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(iters); ++i) {
    /* #linalg.iterator_type<reduction>: compare the printed form. */
    MlirAttribute it = mlirArrayAttrGetElement(iters, i);
    KilnStrBuf buf = {0};
    kilnStrBufAppendAttribute(&buf, it);
    bool red = strstr(kilnStrBufGet(&buf), "reduction") != NULL;
    kilnStrBufDestroy(&buf);
    if (red)
      return true;
  }
  return false;
}

/* Whether an expand_shape turns [N, C, P] into [N, C, spatial...]: only
 * the pixels are unflattened, so a tile of whole trailing rows is one
 * contiguous stretch of P. */
static bool isPixelUnflatten(MlirOperation expand) {
  MlirType from = mlirValueGetType(mlirOperationGetOperand(expand, 0));
  MlirType to = mlirValueGetType(mlirOperationGetResult(expand, 0));
  return mlirTypeIsARankedTensor(from) && mlirTypeIsARankedTensor(to) &&
         mlirShapedTypeHasStaticShape(from) &&
         mlirShapedTypeHasStaticShape(to) && mlirShapedTypeGetRank(from) == 3 &&
         mlirShapedTypeGetRank(to) > 3 &&
         mlirShapedTypeGetDimSize(from, 0) == mlirShapedTypeGetDimSize(to, 0) &&
         mlirShapedTypeGetDimSize(from, 1) == mlirShapedTypeGetDimSize(to, 1);
}

/* The op defining `v` when it is a linalg op of `body`, looking through a
 * tensor.expand_shape of `body` (an im2col conv's contraction computes
 * flattened pixels, its epilogue reads them unflattened) and then a
 * collapse_shape merging groups into channels (a grouped conv's
 * contraction computes N x G x MG x P); sets *reshaped when it looked
 * through a reshape, *groupWidth to MG through a group merge. Null
 * otherwise. */
static MlirOperation linalgProducer(MlirBlock body, MlirValue v, bool *reshaped,
                                    int64_t *groupWidth) {
  for (int hops = 0; hops < 3 && mlirValueIsAOpResult(v); ++hops) {
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!mlirBlockEqual(mlirOperationGetBlock(def), body))
      return (MlirOperation){NULL};
    if (kilnOpNameStartsWith(def, "linalg."))
      return def;
    if (kilnIsGroupMerge(def)) {
      *groupWidth = mlirShapedTypeGetDimSize(
          mlirValueGetType(mlirOperationGetOperand(def, 0)), 2);
    } else if (hops > 0 || !kilnOpNameStartsWith(def, "tensor.expand_shape") ||
               !isPixelUnflatten(def))
      return (MlirOperation){NULL};
    *reshaped = true;
    v = mlirOperationGetOperand(def, 0);
  }
  return (MlirOperation){NULL};
}

/* Sorts `ops` (all in `body`) latest first. Fused in that order, every op
 * is fused after all its consumers in the group, so no consumer outside the
 * tile loop keeps a whole copy of its result alive (an epilogue DAG such as
 * x * sigmoid(x) reads the contraction twice). */
static void sortLatestFirst(MlirBlock body, KilnOpList *ops) {
  KilnOpList sorted = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (kilnOpListContains(ops, op))
      kilnOpListPush(&sorted, op);
  for (size_t i = 0; i < sorted.len; ++i)
    ops->data[i] = sorted.data[sorted.len - 1 - i];
  kilnOpListDestroy(&sorted);
}

/* Whether `op` is a linalg.fill or a generic copying constants through
 * (a bias broadcast): cheap to compute once per user. */
static bool isConstantBroadcast(MlirOperation op) {
  if (!kilnOpNameIs(op, "linalg.fill") && !kilnOpNameIs(op, "linalg.generic"))
    return false;
  if (mlirOperationGetNumResults(op) != 1 || hasReduction(op))
    return false;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i + 1 < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirTypeIsAShaped(mlirValueGetType(v)) &&
        (!mlirValueIsAOpResult(v) ||
         !kilnOpNameIs(mlirOpResultGetOwner(v), "arith.constant")))
      return false;
  }
  if (kilnOpNameIs(op, "linalg.fill"))
    return true;
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation yield = mlirBlockGetFirstOperation(b);
  return kilnOpNameIs(yield, "linalg.yield") &&
         mlirOperationGetNumOperands(yield) == 1 &&
         mlirValueIsABlockArgument(mlirOperationGetOperand(yield, 0));
}

/* A contraction's init made outside its group (CSE merges the identical
 * bias broadcasts of several convs: all-zero biases of an untrained
 * export, or shared ones) is cloned into the group, so that each thread
 * block computes its own slice of it and the register tiles start from the
 * bias in registers (register_init.h), instead of every block copying its
 * slice of a whole bias tensor into a scratch tile (MobileNetV2's
 * projection convs with a residual Add). */
static void cloneOutsideInit(MlirBlock body, MlirOperation contraction) {
  intptr_t n = mlirOperationGetNumOperands(contraction);
  MlirValue init = mlirOperationGetOperand(contraction, n - 1);
  if (!mlirValueIsAOpResult(init))
    return;
  MlirOperation def = mlirOpResultGetOwner(init);
  if (mlirBlockEqual(mlirOperationGetBlock(def), body) ||
      !isConstantBroadcast(def))
    return;
  MlirOperation copy = mlirOperationClone(def);
  mlirBlockInsertOwnedOperationBefore(body, contraction, copy);
  mlirOperationSetOperand(contraction, n - 1, mlirOperationGetResult(copy, 0));
}

/* Collects into `producers` the linalg ops of `body` the root's tile needs:
 * from the root back through linalg ops (and expand_shapes, see
 * linalgProducer); a contraction contributes only its init (output)
 * operand, since its inputs are read whole or in windows, not tile by tile.
 * Returns whether a contraction was reached; sets *reshaped when the path
 * went through an expand_shape. */
static bool collectProducers(MlirBlock body, MlirOperation root,
                             KilnOpList *producers, bool *reshaped,
                             int64_t *groupWidth) {
  bool sawContraction = false;
  KilnOpList work = {0};
  kilnOpListPush(&work, root);
  for (size_t w = 0; w < work.len; ++w) {
    MlirOperation op = work.data[w];
    bool contraction = hasReduction(op);
    sawContraction = sawContraction || contraction;
    if (contraction)
      cloneOutsideInit(body, op);
    intptr_t n = mlirOperationGetNumOperands(op);
    for (intptr_t i = contraction ? n - 1 : 0; i < n; ++i) {
      bool viaReshape = false;
      MlirOperation def = linalgProducer(body, mlirOperationGetOperand(op, i),
                                         &viaReshape, groupWidth);
      if (mlirOperationIsNull(def) || kilnOpListContains(&work, def))
        continue;
      *reshaped = *reshaped || viaReshape;
      kilnOpListPush(&work, def);
      kilnOpListPush(producers, def);
    }
  }
  kilnOpListDestroy(&work);
  sortLatestFirst(body, producers);
  return sawContraction;
}

/* The window generic (a unit-stride im2col: all loops parallel, an input
 * read through a window) whose collapsed result is an input of
 * `contraction`, in `body`; null if none. */
static MlirOperation windowProducer(MlirBlock body, MlirOperation contraction) {
  intptr_t n = mlirOperationGetNumOperands(contraction);
  for (intptr_t i = 0; i + 1 < n; ++i) {
    MlirValue v = mlirOperationGetOperand(contraction, i);
    /* A grouped conv's [N, K, P] window matrix split into groups. */
    if (mlirValueIsAOpResult(v) &&
        kilnOpNameStartsWith(mlirOpResultGetOwner(v), "tensor.expand_shape"))
      v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
    if (!mlirValueIsAOpResult(v) ||
        !kilnOpNameStartsWith(mlirOpResultGetOwner(v), "tensor.collapse_shape"))
      continue;
    v = mlirOperationGetOperand(mlirOpResultGetOwner(v), 0);
    if (!mlirValueIsAOpResult(v))
      continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!mlirBlockEqual(mlirOperationGetBlock(def), body) ||
        !kilnOpNameStartsWith(def, "linalg.generic") || hasReduction(def) ||
        mlirOperationGetNumOperands(def) != 2)
      continue;
    MlirAttribute maps =
        mlirOperationGetAttributeByName(def, kilnStr("indexing_maps"));
    MlirAffineMap in =
        mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
    for (intptr_t r = 0; r < mlirAffineMapGetNumResults(in); ++r)
      if (!mlirAffineExprIsADim(mlirAffineMapGetResult(in, r)))
        return def;
  }
  return (MlirOperation){NULL};
}

static bool allStatic(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
    if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t))
      return false;
  }
  return true;
}

static void producerAttr(size_t i, char *buf, size_t size) {
  snprintf(buf, size, "kiln.fuse_producer_%zu", i);
}

static MlirWalkResult dropMarkers(MlirOperation op, void *userData) {
  size_t n = *(const size_t *)userData;
  mlirOperationRemoveDiscardableAttributeByName(op, kilnStr(kRootAttr));
  for (size_t i = 0; i < n; ++i) {
    char name[32];
    producerAttr(i, name, sizeof(name));
    mlirOperationRemoveDiscardableAttributeByName(op, kilnStr(name));
  }
  return MlirWalkResultAdvance;
}

/* When buildGroupSchedule swaps a tile's slices of expand_shapes with
 * them: before each fusion, also after the last, or never (a producer
 * whose slice in the tile is already its own: the window generic). */
typedef enum Bubble { kBubbleBefore, kBubbleAfterToo, kBubbleNever } Bubble;

/* Builds into `sequence` (before its yield) the schedule of one group: tile
 * the root with scf.forall by `sizes` (`tile`; otherwise the root is that
 * loop already), then fuse the `n` producers into the loop one at a time,
 * consumers first. Before each fusion (`bubble`), slices of an
 * expand_shape (an im2col conv's contraction computes flattened pixels,
 * its epilogue reads them unflattened) are swapped with it, so the tile
 * slices the contraction's result itself. */
static void buildGroupSchedule(MlirOperation sequence, bool tile, intptr_t rank,
                               const int64_t *sizes, size_t n, Bubble bubble) {
  MlirOperation end = kilnScheduleFindOp(sequence, "transform.yield");
  MlirValue group = kilnScheduleGetRoot(sequence);
  MlirValue root = kilnScheduleInsertMatchAttr(end, group, kRootAttr);
  MlirValue loop =
      tile ? mlirOperationGetResult(
                 kilnScheduleInsertForall(end, root, rank, sizes), 1)
           : root;
  for (size_t i = 0; i < n; ++i) {
    if (bubble != kBubbleNever) {
      kilnScheduleInsertPatterns(
          end, loop, "transform.apply_patterns.tensor.bubble_up_extract_slice");
      /* Tiles of two consumers of one producer (x * sigmoid(x)) each slice
       * it: merged, the producer is fused once, not once per slice. */
      kilnScheduleInsert(end, "transform.apply_cse", 1, &loop, 0,
                         (MlirType){NULL}, 0, NULL);
    }
    char name[32];
    producerAttr(i, name, sizeof(name));
    loop = kilnScheduleInsertFuse(
        end, kilnScheduleInsertMatchAttr(end, group, name), loop);
  }
  if (bubble == kBubbleAfterToo)
    kilnScheduleInsertPatterns(
        end, loop, "transform.apply_patterns.tensor.bubble_up_extract_slice");
}

/* The tile options of kiln-fuse-groups. */
typedef struct GroupTiles {
  int64_t convRows, matmulRows, convChannels, convPixels, depthwiseTasks;
  int64_t windowTiles; /* conv-window-tiles: 0 never */
} GroupTiles;

/* The tile options in `o`; false when one is out of range (the sizes not
 * positive, conv-window-tiles negative). */
static bool readGroupTiles(const KilnPassOptionValue *o, GroupTiles *tiles) {
  *tiles = (GroupTiles){o[kOptConvRows].i,       o[kOptMatmulRows].i,
                        o[kOptConvChannels].i,   o[kOptConvPixels].i,
                        o[kOptDepthwiseTasks].i, o[kOptConvWindowTiles].i};
  return tiles->convRows >= 1 && tiles->matmulRows >= 1 &&
         tiles->convChannels >= 1 && tiles->convPixels >= 1 &&
         tiles->depthwiseTasks >= 1 && tiles->windowTiles >= 0;
}

/* The tile options for `op`: a tuned workload's own (schedule_record.h)
 * when its record sets valid ones, else the pass's `given`. */
static GroupTiles ownGroupTiles(MlirOperation op,
                                const KilnPassOptionValue *options,
                                const GroupTiles *given) {
  KilnPassOptionValue values[kNumOptions];
  GroupTiles tiles;
  if (kilnScheduleRecordGetOptions(op, &kilnFuseGroupsPass, options, values) &&
      readGroupTiles(values, &tiles))
    return tiles;
  return *given;
}

/* Tile sizes by rows: conv NC[D]HW: one image, all channels, `rows` output
 * rows, whole rows; matmul [B...]MN: one batch entry, `rows` rows, all
 * columns. Zero means "not tiled". */
static void rowTileSizes(MlirType type, bool conv, int64_t rows,
                         int64_t *sizes) {
  intptr_t rowDim = conv ? 2 : mlirShapedTypeGetRank(type) - 2;
  for (intptr_t i = 0; i < rowDim; ++i)
    sizes[i] = i == 1 && conv ? 0 : 1;
  sizes[rowDim] =
      kilnDivisorAtMost(mlirShapedTypeGetDimSize(type, rowDim), rows);
}

/* Lanes of the widest register tile kiln-tile-and-vectorize builds (16;
 * a block good for 16 lanes is good for 8); how much larger than
 * conv-tile-pixels a block may grow to vectorize well. */
enum { kTileLanes = 16, kMaxPixelGrowth = 4 };

/* Whether a block of `pixels` output pixels per channel keeps at least
 * 85% of its register tiles' lanes busy, counting a remainder narrower
 * than a vector as a whole register tile (LLVM splits an odd width into
 * several pieces, a one-pixel column gathers the filter). */
static bool pixelsVectorizeWell(int64_t pixels) {
  int64_t tiles = (pixels + kTileLanes - 1) / kTileLanes;
  return 100 * pixels >= 85 * kTileLanes * tiles;
}

/* Tile sizes of a conv computed as an im2col contraction: one image, a
 * block of output channels and a block of whole output rows (the outermost
 * spatial dim) of at most `convPixels` pixels, the thread blocks
 * kiln-tile-and-vectorize would give the contraction alone (it then tiles
 * each block for registers). A 1-D conv's rows are single pixels: a block
 * of them that divides the length but is too short to vectorize well (a
 * prime length) becomes the whole length. */
static void im2colTileSizes(MlirType type, const GroupTiles *tiles,
                            int64_t *sizes) {
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t rowPixels = 1;
  for (intptr_t i = 3; i < rank; ++i)
    rowPixels *= mlirShapedTypeGetDimSize(type, i);
  int64_t rows = tiles->convPixels / rowPixels;
  sizes[0] = 1;
  sizes[1] =
      kilnDivisorAtMost(mlirShapedTypeGetDimSize(type, 1), tiles->convChannels);
  int64_t extent = mlirShapedTypeGetDimSize(type, 2);
  sizes[2] = kilnDivisorAtMost(extent, rows);
  if (rank == 3 && sizes[2] < rows / 8)
    sizes[2] = extent;
  /* A block whose pixels leave a narrow remainder after its full vectors
   * (one 17-pixel row of a 17x17 map: 16 + 1) pays a whole register tile
   * per remainder column for a few lanes of work: take the next divisor of
   * the rows whose block vectorizes well instead (all 17 rows: 289 =
   * 18 x 16 + 1), up to kMaxPixelGrowth times the pixel cap. */
  for (int64_t r = sizes[2] + 1;
       rank > 3 && !pixelsVectorizeWell(sizes[2] * rowPixels) && r <= extent &&
       r * rowPixels <= kMaxPixelGrowth * tiles->convPixels;
       ++r)
    if (extent % r == 0 && pixelsVectorizeWell(r * rowPixels)) {
      sizes[2] = r;
      break;
    }
}

/* Tile sizes of a depthwise conv: one image, a block of channels, whole
 * planes, so that each image has about `tasks` tiles. Each output channel
 * reads only its own input plane, so channel blocks share nothing, and
 * kiln-depthwise-conv then tiles every plane for registers as a whole.
 * (Row tiles with all channels give a 7x7 plane only 7 tiles of one row,
 * each a vector of 7 per channel.) */
static void depthwiseTileSizes(MlirType type, int64_t tasks, int64_t *sizes) {
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t channels = mlirShapedTypeGetDimSize(type, 1);
  int64_t block = channels / tasks;
  sizes[0] = 1;
  sizes[1] = kilnDivisorAtMost(channels, block > 1 ? block : 1);
  for (intptr_t i = 2; i < rank; ++i)
    sizes[i] = 0;
}

static bool anyDepthwise(const KilnOpList *ops) {
  for (size_t i = 0; i < ops->len; ++i)
    if (kilnOpNameStartsWith(ops->data[i], "linalg.depthwise_conv_"))
      return true;
  return false;
}

/* Tile sizes of a group-1 3-D conv: a block of output channels, and
 * whole planes or rows of one plane (kilnConv3dTileGet), enough blocks
 * for each to compute its own window columns (fuseWindow). R3D-18's 3x3x3
 * convs 64 -> 64 at 8 x 56 x 56 got one plane of 3136 pixels per tile and
 * a window tensor of 43M elements built by a loop of blocks, unfused; now
 * 4 rows (224 pixels) per tile. */
static void conv3dTileSizes(MlirType type, const GroupTiles *tiles,
                            int64_t *sizes) {
  int64_t out[3];
  for (int i = 0; i < 3; ++i)
    out[i] = mlirShapedTypeGetDimSize(type, 2 + i);
  KilnConv3dTile t =
      kilnConv3dTileGet(out, tiles->convPixels, kKilnConv3dWindowBlocks,
                        kKilnConv3dMinTilePixels);
  sizes[2] = t.depth;
  sizes[3] = t.rows == out[1] ? 0 : t.rows;
  sizes[4] = 0;
}

/* An im2col conv whose window tensor is one generic (unit strides): when
 * the image has enough row blocks (a 2-D conv: `windowTiles`, the
 * conv-window-tiles option, 0 never; a 3-D one: kKilnConv3dWindowBlocks, which
 * its tiles were cut for), each tile takes all output channels and
 * computes its own columns of the window tensor (fused as the last
 * producer), which then stay in cache for the contraction instead of the
 * whole tensor going through memory. With channel blocks each would
 * recompute the same columns: then the window tensor stays whole. A
 * grouped conv's tiles are whole groups, which read disjoint columns: each
 * computes its own whatever the tile count (`grouped`). */
static MlirOperation fuseWindow(MlirBlock body, MlirType type, int64_t *sizes,
                                const KilnOpList *producers, bool grouped,
                                int64_t windowTiles) {
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (rank != 4 && (rank != 5 || grouped))
    return (MlirOperation){NULL}; /* kilnSliceWindowRows: 2-D, 3-D convs */
  int64_t blocks = mlirShapedTypeGetDimSize(type, 2) / sizes[2];
  if (rank == 5 && sizes[3])
    blocks *= mlirShapedTypeGetDimSize(type, 3) / sizes[3];
  int64_t least = rank == 5 ? kKilnConv3dWindowBlocks : windowTiles;
  if (!grouped && (least == 0 || blocks < least))
    return (MlirOperation){NULL};
  for (size_t i = 0; i < producers->len; ++i) {
    if (!hasReduction(producers->data[i]))
      continue;
    MlirOperation window = windowProducer(body, producers->data[i]);
    if (mlirOperationIsNull(window) || !allStatic(window))
      return (MlirOperation){NULL};
    if (!grouped)
      sizes[1] = mlirShapedTypeGetDimSize(type, 1);
    return window;
  }
  return (MlirOperation){NULL};
}

/* Applies to `group` the fusion of producers [from, to) of `producers`
 * (latest first) into the scf.forall that tiles `root` by `sizes` (`tile`),
 * or into `root` itself, an scf.forall already (buildGroupSchedule).
 * Returns the schedule's result; the markers are dropped either way. */
static MlirLogicalResult fuseProducers(KilnSchedule *schedule,
                                       MlirOperation group, MlirOperation root,
                                       bool tile, intptr_t rank,
                                       const int64_t *sizes,
                                       const KilnOpList *producers, size_t from,
                                       size_t to, Bubble bubble) {
  MlirOperation sequence = kilnScheduleGetSequence(schedule, "kiln_fuse_group");
  buildGroupSchedule(sequence, tile, rank, sizes, to - from, bubble);
  MlirAttribute unit = mlirUnitAttrGet(mlirOperationGetContext(group));
  mlirOperationSetDiscardableAttributeByName(root, kilnStr(kRootAttr), unit);
  for (size_t i = from; i < to; ++i) {
    char name[32];
    producerAttr(i - from, name, sizeof(name));
    mlirOperationSetDiscardableAttributeByName(producers->data[i],
                                               kilnStr(name), unit);
  }
  MlirLogicalResult applied = kilnScheduleApply(schedule, sequence, group);
  kilnScheduleClearBefore(sequence,
                          kilnScheduleFindOp(sequence, "transform.yield"));
  size_t n = to - from;
  mlirOperationWalk(group, dropMarkers, &n, MlirWalkPreOrder);
  return applied;
}

/* The scf.forall whose result the group yields, or null. */
static MlirOperation yieldedForall(MlirOperation yield) {
  MlirValue result = mlirOperationGetOperand(yield, 0);
  if (!mlirValueIsAOpResult(result) ||
      !kilnOpNameStartsWith(mlirOpResultGetOwner(result), "scf.forall"))
    return (MlirOperation){NULL};
  return mlirOpResultGetOwner(result);
}

/* Tiles a grouped conv's image should at least have when it has that many
 * groups: groups share nothing, and 5 tiles on 2 threads leave one thread
 * idle for a fifth of the time (RegNetX's 10 groups of 16 at 14x14, 2
 * threads: 2 groups per tile 0.074 ms, 1 per tile 0.059 ms). */
enum { kMinGroupTiles = 8 };

/* Tile sizes of a grouped conv: whole groups of `groupWidth` output
 * channels, as many as fit `convChannels` (at least one group) but no more
 * than leave kMinGroupTiles tiles per image, and the rows of
 * im2colTileSizes. */
static void groupedTileSizes(MlirType type, const GroupTiles *tiles,
                             int64_t groupWidth, int64_t *sizes) {
  im2colTileSizes(type, tiles, sizes);
  int64_t groups = mlirShapedTypeGetDimSize(type, 1) / groupWidth;
  int64_t rowTiles = mlirShapedTypeGetDimSize(type, 2) / sizes[2];
  int64_t cap = tiles->convChannels / groupWidth;
  int64_t perTile = kilnDivisorAtMost(groups, cap > 1 ? cap : 1);
  while (perTile > 1 && groups / perTile * rowTiles < kMinGroupTiles)
    perTile = kilnDivisorAtMost(groups, perTile - 1);
  sizes[1] = groupWidth * perTile;
}

/* The tiling and fusion of a group whose root and `producers` qualify
 * (tileGroup). A grouped conv's contraction result reaches the tiles
 * through the collapse of its groups into channels, which no pattern
 * slices by a dynamic offset: its consumers are fused first, then its
 * slices rewritten (kilnSliceGroupedResult), then the rest is fused. */
static MlirLogicalResult tileAndFuse(KilnSchedule *schedule,
                                     MlirOperation group, MlirOperation root,
                                     intptr_t rank, const int64_t *sizes,
                                     const KilnOpList *producers,
                                     int64_t groupWidth) {
  size_t split = 0, n = producers->len;
  while (groupWidth && split < n && !hasReduction(producers->data[split]))
    ++split;
  if (!groupWidth || split == n)
    return fuseProducers(schedule, group, root, true, rank, sizes, producers, 0,
                         n, kBubbleBefore);
  MlirOperation yield = mlirBlockGetTerminator(mlirOperationGetBlock(root));
  MlirLogicalResult applied =
      fuseProducers(schedule, group, root, true, rank, sizes, producers, 0,
                    split, kBubbleAfterToo);
  MlirOperation forall = yieldedForall(yield);
  if (mlirLogicalResultIsFailure(applied) || mlirOperationIsNull(forall) ||
      !kilnSliceGroupedResult(forall))
    return applied; /* the contraction stays whole */
  return fuseProducers(schedule, group, forall, false, rank, sizes, producers,
                       split, n, kBubbleBefore);
}

/* Tiles a contraction-epilogue group in place. Returns false, changing
 * nothing, when the group does not qualify; sets *failed when the schedule
 * itself failed (it has emitted an error). */
static bool tileGroup(MlirOperation group, bool conv, const GroupTiles *tiles,
                      KilnSchedule *schedule, bool *failed) {
  MlirRegion region = mlirOperationGetRegion(group, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(body) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(body)) ||
      mlirOperationGetNumResults(group) != 1)
    return false;
  MlirOperation yield = mlirBlockGetTerminator(body);
  MlirValue out = mlirOperationGetOperand(yield, 0);
  if (!mlirValueIsAOpResult(out))
    return false;
  MlirOperation root = mlirOpResultGetOwner(out);
  MlirType type = mlirValueGetType(out);
  if (!mlirBlockEqual(mlirOperationGetBlock(root), body) ||
      !kilnOpNameStartsWith(root, "linalg.") || hasReduction(root) ||
      mlirOperationGetNumResults(root) != 1 || !allStatic(root))
    return false;
  intptr_t rank = mlirShapedTypeGetRank(type);
  if (rank < (conv ? 3 : 2) || rank > 8)
    return false;
  KilnOpList producers = {0};
  bool reshaped = false;
  int64_t groupWidth = 0;
  bool ok = collectProducers(body, root, &producers, &reshaped, &groupWidth);
  for (size_t i = 0; ok && i < producers.len; ++i)
    ok = allStatic(producers.data[i]);
  if (!ok || producers.len > kMaxProducers ||
      (groupWidth &&
       (!conv || mlirShapedTypeGetDimSize(type, 1) % groupWidth))) {
    kilnOpListDestroy(&producers);
    return false;
  }
  int64_t sizes[8] = {0};
  MlirOperation window = {NULL};
  /* An im2col conv: its contraction's pixels unflattened (2-D, 3-D) or
   * already the result's (1-D). */
  if (conv && groupWidth) {
    groupedTileSizes(type, tiles, groupWidth, sizes);
    window = fuseWindow(body, type, sizes, &producers, true, 0);
  } else if (conv && (reshaped || rank == 3)) {
    im2colTileSizes(type, tiles, sizes);
    if (rank == 5)
      conv3dTileSizes(type, tiles, sizes);
    window =
        fuseWindow(body, type, sizes, &producers, false, tiles->windowTiles);
  } else if (conv && anyDepthwise(&producers))
    depthwiseTileSizes(type, tiles->depthwiseTasks, sizes);
  else
    rowTileSizes(type, conv, conv ? tiles->convRows : tiles->matmulRows, sizes);
  MlirContext ctx = mlirOperationGetContext(group);
  if (mlirModuleIsNull(schedule->module) &&
      !kilnScheduleCreate(ctx, kSchedule, schedule)) {
    kilnOpListDestroy(&producers);
    *failed = true;
    return false;
  }
  MlirLogicalResult applied =
      tileAndFuse(schedule, group, root, rank, sizes, &producers, groupWidth);
  kilnOpListDestroy(&producers);
  if (mlirLogicalResultIsFailure(applied)) {
    *failed = true;
    return false;
  }
  MlirOperation forall = yieldedForall(yield);
  /* A strided grouped conv's tiles copy their own taps (whole groups: no
   * tap is copied twice). */
  if (groupWidth && rank == 4 && mlirOperationIsNull(window) &&
      !mlirOperationIsNull(forall))
    kilnSliceTapWindow(forall);
  if (!mlirOperationIsNull(window) && !mlirOperationIsNull(forall) &&
      kilnSliceWindowRows(forall, window)) {
    /* The same schedule, for one producer and no tiling. */
    KilnOpList one = {0};
    kilnOpListPush(&one, window);
    applied = fuseProducers(schedule, group, forall, false, rank, sizes, &one,
                            0, 1, kBubbleNever);
    kilnOpListDestroy(&one);
    if (mlirLogicalResultIsFailure(applied)) {
      *failed = true;
      return false;
    }
  }
  return true;
}

/* A conv outside any epilogue group (DenseNet's 3x3 convs, whose result
 * goes straight into the block's concat buffer) whose window tensor is one
 * generic: `contraction` computes [N, M, P] from the window matrix and its
 * only user unflattens the pixels. Null when `contraction` is not one;
 * else that window generic, and `sizes` the tiles of the contraction's
 * loops (n, m, p, k): all output channels x the row blocks of an epilogue
 * group's tile (im2colTileSizes), when the image has enough of them for
 * each tile to build its own rows of the window (fuseWindow). */
static MlirOperation loneConvWindow(MlirBlock body, MlirOperation contraction,
                                    const GroupTiles *tiles, int64_t *sizes) {
  if (!kilnOpNameStartsWith(contraction, "linalg.generic") ||
      !hasReduction(contraction) ||
      mlirOperationGetNumResults(contraction) != 1 || !allStatic(contraction))
    return (MlirOperation){NULL};
  MlirValue out = mlirOperationGetResult(contraction, 0);
  MlirOpOperand use = mlirValueGetFirstUse(out);
  if (mlirOpOperandIsNull(use) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return (MlirOperation){NULL};
  MlirOperation expand = mlirOpOperandGetOwner(use);
  if (!kilnOpNameStartsWith(expand, "tensor.expand_shape") ||
      !isPixelUnflatten(expand))
    return (MlirOperation){NULL};
  MlirType type = mlirValueGetType(mlirOperationGetResult(expand, 0));
  int64_t tile[8] = {0};
  im2colTileSizes(type, tiles, tile);
  KilnOpList self = {0};
  kilnOpListPush(&self, contraction);
  MlirOperation window =
      fuseWindow(body, type, tile, &self, false, tiles->windowTiles);
  kilnOpListDestroy(&self);
  int64_t rowPixels = mlirShapedTypeGetDimSize(type, 3);
  sizes[0] = 1;
  sizes[1] = tile[1];
  sizes[2] = tile[2] * rowPixels;
  sizes[3] = 0;
  return window;
}

/* Tiles each lone conv of `func`'s body (loneConvWindow) like an epilogue
 * group with an empty epilogue: its contraction by row blocks with its
 * init fused, then each tile's rows of the window tensor, which then stay
 * in cache for the contraction instead of a whole window tensor (14 MB for
 * a 3x3 conv over 128 channels at 56x56) going through memory. The
 * result's unflattening (and a concat's slice it is written into,
 * kiln-concat-in-place) reads the tile loop's result as it read the
 * contraction's. */
static void tileLoneConvs(MlirOperation func,
                          const KilnPassOptionValue *options,
                          const GroupTiles *tiles, KilnSchedule *schedule,
                          bool *failed) {
  MlirRegion region = mlirOperationGetRegion(func, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(body))
    return;
  KilnOpList convs = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    int64_t sizes[4];
    GroupTiles own = ownGroupTiles(op, options, tiles);
    if (!mlirOperationIsNull(loneConvWindow(body, op, &own, sizes)))
      kilnOpListPush(&convs, op);
  }
  for (size_t i = 0; i < convs.len && !*failed; ++i) {
    MlirOperation root = convs.data[i];
    int64_t sizes[4];
    GroupTiles own = ownGroupTiles(root, options, tiles);
    MlirOperation window = loneConvWindow(body, root, &own, sizes);
    if (mlirOperationIsNull(window))
      continue;
    MlirOperation expand = mlirOpOperandGetOwner(
        mlirValueGetFirstUse(mlirOperationGetResult(root, 0)));
    KilnOpList producers = {0};
    bool reshaped = false;
    int64_t groupWidth = 0;
    collectProducers(body, root, &producers, &reshaped, &groupWidth);
    if (mlirModuleIsNull(schedule->module) &&
        !kilnScheduleCreate(mlirOperationGetContext(func), kSchedule,
                            schedule)) {
      kilnOpListDestroy(&producers);
      *failed = true;
      break;
    }
    MlirLogicalResult applied =
        fuseProducers(schedule, func, root, true, 4, sizes, &producers, 0,
                      producers.len, kBubbleNever);
    kilnOpListDestroy(&producers);
    MlirValue tiled = mlirOperationGetOperand(expand, 0);
    if (mlirLogicalResultIsFailure(applied)) {
      *failed = true;
      break;
    }
    if (!mlirValueIsAOpResult(tiled) ||
        !kilnOpNameStartsWith(mlirOpResultGetOwner(tiled), "scf.forall"))
      continue;
    MlirOperation forall = mlirOpResultGetOwner(tiled);
    if (!kilnSliceWindowRows(forall, window))
      continue;
    KilnOpList one = {0};
    kilnOpListPush(&one, window);
    applied = fuseProducers(schedule, func, forall, false, 4, sizes, &one, 0, 1,
                            kBubbleNever);
    kilnOpListDestroy(&one);
    if (mlirLogicalResultIsFailure(applied))
      *failed = true;
  }
  kilnOpListDestroy(&convs);
}

/* Replaces a single-block execute_region by its body. */
static void inlineGroup(MlirOperation group) {
  MlirRegion region = mlirOperationGetRegion(group, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
    return; /* not graph-fuse's form: scf lowering handles it */
  MlirOperation yield = mlirBlockGetTerminator(body);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(group); ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(group, i),
                                  mlirOperationGetOperand(yield, i));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationEqual(op, yield);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, group);
    op = next;
  }
  mlirOperationDestroy(group);
}

static void runFuseGroups(MlirOperation op, MlirExternalPass pass,
                          const KilnPassOptionValue *options) {
  GroupTiles tiles;
  if (!readGroupTiles(options, &tiles)) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "kiln-fuse-groups: tile options must be positive "
                   "(conv-window-tiles at least 0), got "
                   "conv-tile-rows=%ld matmul-tile-rows=%ld "
                   "conv-tile-channels=%ld conv-tile-pixels=%ld "
                   "depthwise-tasks=%ld conv-window-tiles=%ld",
                   (long)tiles.convRows, (long)tiles.matmulRows,
                   (long)tiles.convChannels, (long)tiles.convPixels,
                   (long)tiles.depthwiseTasks, (long)tiles.windowTiles);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  KilnOpList groups = {0};
  mlirOperationWalk(op, collectGroups, &groups, MlirWalkPostOrder);
  KilnSchedule schedule = {{NULL}};
  bool failed = false;
  for (size_t i = 0; i < groups.len && !failed; ++i) {
    MlirOperation group = groups.data[i];
    MlirAttribute kind = mlirOperationGetDiscardableAttributeByName(
        group, kilnStr("graph.fusion"));
    if (options[kOptTile].b && mlirAttributeIsAString(kind)) {
      MlirStringRef k = mlirStringAttrGetValue(kind);
      GroupTiles own = ownGroupTiles(group, options, &tiles);
      if (kilnStringRefEquals(k, "conv_epilogue"))
        tileGroup(group, true, &own, &schedule, &failed);
      else if (kilnStringRefEquals(k, "matmul_epilogue"))
        tileGroup(group, false, &own, &schedule, &failed);
    }
    if (!failed)
      inlineGroup(group);
  }
  if (options[kOptTile].b && !failed)
    tileLoneConvs(op, options, &tiles, &schedule, &failed);
  kilnScheduleDestroy(&schedule);
  kilnOpListDestroy(&groups);
  if (failed)
    mlirExternalPassSignalFailure(pass);
}

static const KilnPassOptionSpec kOptions[] = {
    [kOptTile] = {"tile", KILN_PASS_OPTION_BOOL, "true",
                  "Tile conv/matmul epilogue groups and fuse the contraction "
                  "into the tiles (false: only inline the groups)"},
    [kOptConvRows] = {"conv-tile-rows", KILN_PASS_OPTION_INT, "1",
                      "Output rows per tile of a conv_epilogue group "
                      "whose conv is direct (conv-im2col=false)"},
    [kOptMatmulRows] = {"matmul-tile-rows", KILN_PASS_OPTION_INT, "8",
                        "Output rows per tile of a matmul_epilogue group"},
    [kOptConvChannels] = {"conv-tile-channels", KILN_PASS_OPTION_INT, "32",
                          "Output channels per tile of a conv_epilogue group "
                          "whose conv is an im2col contraction, at most"},
    [kOptConvPixels] = {"conv-tile-pixels", KILN_PASS_OPTION_INT,
                        KILN_STRINGIFY(KILN_CONV_TILE_PIXELS),
                        "Output pixels (whole rows) per tile of a "
                        "conv_epilogue group whose conv is an im2col "
                        "contraction, at most"},
    [kOptDepthwiseTasks] = {"depthwise-tasks", KILN_PASS_OPTION_INT, "16",
                            "Tiles (channel blocks) per image of a "
                            "conv_epilogue group whose conv is depthwise"},
    [kOptConvWindowTiles] = {"conv-window-tiles", KILN_PASS_OPTION_INT,
                             KILN_STRINGIFY(KILN_CONV_WINDOW_TILES),
                             "The least row blocks per image for which each "
                             "tile of a 2-D im2col conv computes its own "
                             "rows of the window tensor (with all output "
                             "channels); 0: never, the window is built "
                             "whole"},
};

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__scf__,
    mlirGetDialectHandle__linalg__,
    mlirGetDialectHandle__tensor__,
    mlirGetDialectHandle__transform__,
};

const KilnPassInfo kilnFuseGroupsPass = {
    .argument = "kiln-fuse-groups",
    .summary = "Lower graph-fuse groups: tile conv/matmul epilogues and fuse "
               "the contraction into the tiles, then inline every group",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runFuseGroups,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

void kilnConvGroupTilesAt(MlirLocation loc, int64_t *pixels,
                          int64_t *windowTiles) {
  *pixels = KILN_CONV_TILE_PIXELS;
  *windowTiles = KILN_CONV_WINDOW_TILES;
  kilnScheduleRecordGetInt(loc, kilnFuseGroupsPass.argument,
                           kOptions[kOptConvPixels].name, pixels);
  kilnScheduleRecordGetInt(loc, kilnFuseGroupsPass.argument,
                           kOptions[kOptConvWindowTiles].name, windowTiles);
}

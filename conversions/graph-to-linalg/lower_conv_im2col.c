/* Convs as im2col contractions (the CPU path of lower_conv.c, the strategy
 * of ONNX Runtime's MLAS for NCHW convs): the padded input's windows copied
 * into a window tensor (one gather with unit strides, a strided copy per
 * kernel tap otherwise), which is the K x P operand of one contraction with
 * the filter as M x K; kiln-tile-and-vectorize turns it into register-tiled
 * FMAs (docs/cpu-codegen.md), where linalg's conv ops would stay scalar
 * loops. Every rank (1-D, 2-D, 3-D) and group count. */
#include "conversions/graph-to-linalg/lower_conv_window.h"
#include "kiln/diagnostics.h"

#include <stdint.h>
#include <string.h>

#include "dialects/linalg/transforms/conv3d_tiles.h"
#include "dialects/linalg/transforms/schedule.h"

/* Largest im2col matrix (elements) built at once; a conv needing more (a
 * 3x3 over 512 channels at 56 x 56: 57 MB; a 3x3x3 over 64 channels at
 * 8 x 56 x 56: 173 MB) is computed in a loop over blocks (kilnIm2colConv). */
enum { kMaxIm2colElements = 16 << 20 };

/* smallPlane: the lanes of a register tile along the pixels (16 on
 * x86; AArch64's 8 divide them, so a plane that fills 16 fills 8), and the
 * least share of them, in percent, that must be busy (as
 * kiln-fuse-groups' pixel blocks). */
enum { kPixelLanes = 16, kBusyPercent = 85 };

enum { kCacheLineBytes = 64 };

/* The largest window matrix (K x P of one image, bytes) a channels-inner
 * contraction takes: its register tiles sweep the whole reduction without
 * cache blocks (a block would read and write the transposed accumulators
 * again), so the matrix and the tile's filter panel must stay in L2 (a
 * 3x3 conv over 512 channels at 7 x 7, 903 KB: 2.7 -> 4.9 ms). */
enum { kInnerWindowBytes = 256 << 10 };

/* The role of each dim of an im2col window tensor over `ns` spatial dims:
 * kRoleN, kRoleC, kRoleTap + i (kernel tap i), kRoleTap + ns + i (output
 * position i). Channels first: N x C x K1.. x O1..; channels last (`last`):
 * N x O1.. x K1.. x C. */
enum { kRoleN, kRoleC, kRoleTap };

static void windowRoles(intptr_t ns, bool last, intptr_t *roleOfDim) {
  intptr_t r = 2 + 2 * ns;
  roleOfDim[0] = kRoleN;
  for (intptr_t i = 0; i < ns; ++i) {
    roleOfDim[(last ? 1 : 2) + i] = last ? kRoleTap + ns + i : kRoleTap + i;
    roleOfDim[(last ? 1 : 2) + ns + i] =
        last ? kRoleTap + i : kRoleTap + ns + i;
  }
  roleOfDim[last ? r - 1 : 1] = kRoleC;
}

/* The extents of a window tensor's roles (see windowRoles). */
static void windowExtents(MlirValue x, const KilnWindow *win,
                          const int64_t *kernel, bool last, int64_t *extent) {
  intptr_t ns = win->n;
  extent[kRoleN] = kilnDim(x, 0);
  extent[kRoleC] = kilnDim(x, last ? ns + 1 : 1);
  for (intptr_t i = 0; i < ns; ++i) {
    extent[kRoleTap + i] = kernel[i];
    extent[kRoleTap + ns + i] = win->out[i];
  }
}

/* The window tensor of an im2col conv as one elementwise generic over its
 * dims (windowRoles) reading x at (o_i * s_i + k_i * d_i): one loop nest
 * (one parallel region) instead of a strided copy per kernel tap. Its
 * tiles along the innermost output position read x contiguously once the
 * taps are single steps, so kiln-tile-and-vectorize vectorizes them. */
static MlirValue windowGather(KilnBuilder *b, MlirValue x,
                              const KilnWindow *win, const int64_t *kernel,
                              bool last) {
  MlirContext ctx = b->ctx;
  intptr_t ns = win->n, r = 2 + 2 * ns;
  intptr_t roleOfDim[2 + 2 * KILN_MAX_RANK];
  int64_t extent[2 + 2 * KILN_MAX_RANK], shape[2 + 2 * KILN_MAX_RANK];
  MlirAffineExpr role[2 + 2 * KILN_MAX_RANK], out[2 + 2 * KILN_MAX_RANK];
  windowRoles(ns, last, roleOfDim);
  windowExtents(x, win, kernel, last, extent);
  for (intptr_t d = 0; d < r; ++d) {
    out[d] = mlirAffineDimExprGet(ctx, d);
    role[roleOfDim[d]] = out[d];
    shape[d] = extent[roleOfDim[d]];
  }
  MlirAffineExpr in[KILN_MAX_RANK];
  in[0] = role[kRoleN];
  in[last ? ns + 1 : 1] = role[kRoleC];
  for (intptr_t i = 0; i < ns; ++i)
    in[(last ? 1 : 2) + i] = mlirAffineAddExprGet(
        mlirAffineMulExprGet(role[kRoleTap + ns + i],
                             mlirAffineConstantExprGet(ctx, win->strides[i])),
        mlirAffineMulExprGet(role[kRoleTap + i], mlirAffineConstantExprGet(
                                                     ctx, win->dilations[i])));
  MlirAttribute maps[2] = {kilnMapExprs(ctx, r, ns + 2, in),
                           kilnMapExprs(ctx, r, r, out)};
  char iters[2 + 2 * KILN_MAX_RANK + 1];
  memset(iters, 'p', r);
  iters[r] = '\0';
  MlirValue init = kilnEmpty(b, kilnTensorType(r, shape, kilnElementType(x)));
  return mlirOperationGetResult(
      kilnGeneric(b, 1, &x, 1, &init, maps, r, iters, kilnCopyBody, NULL), 0);
}

/* tensor.extract_slice of `src` (`dest` null) or tensor.insert_slice of
 * `src` into `dest`, at `offsets` (a null value: 0), with `sizes` and
 * `steps` (null: unit strides), both of the sliced tensor's rank (`src`
 * for an extract, `dest` for an insert, which may drop unit dims). */
static MlirValue sliceAt(KilnBuilder *b, MlirValue src, MlirValue dest,
                         const MlirValue *offsets, const int64_t *sizes,
                         const int64_t *steps) {
  bool insert = !mlirValueIsNull(dest);
  intptr_t r = kilnRank(insert ? dest : src), n = 0, nDyn = 0;
  int64_t off[2 + 2 * KILN_MAX_RANK], strides[2 + 2 * KILN_MAX_RANK];
  MlirValue ops[2 + 2 + 2 * KILN_MAX_RANK];
  ops[n++] = src;
  if (insert)
    ops[n++] = dest;
  for (intptr_t i = 0; i < r; ++i) {
    strides[i] = steps ? steps[i] : 1;
    off[i] = 0;
    if (mlirValueIsNull(offsets[i]))
      continue;
    off[i] = mlirShapedTypeGetDynamicStrideOrOffset();
    ops[n++] = offsets[i];
    ++nDyn;
  }
  int32_t seg[5] = {1, 1, 0, 0, 0};
  seg[insert ? 2 : 1] = (int32_t)nDyn;
  MlirNamedAttribute attrs[4] = {
      kilnNamedAttr(b->ctx, "operandSegmentSizes",
                    mlirDenseI32ArrayGet(b->ctx, insert ? 5 : 4, seg)),
      kilnNamedAttr(b->ctx, "static_offsets",
                    mlirDenseI64ArrayGet(b->ctx, r, off)),
      kilnNamedAttr(b->ctx, "static_sizes",
                    mlirDenseI64ArrayGet(b->ctx, r, sizes)),
      kilnNamedAttr(b->ctx, "static_strides",
                    mlirDenseI64ArrayGet(b->ctx, r, strides))};
  MlirType type = insert ? mlirValueGetType(dest)
                         : kilnTensorType(r, sizes, kilnElementType(src));
  return kilnBuildOp1(b,
                      insert ? "tensor.insert_slice" : "tensor.extract_slice",
                      type, n, ops, 4, attrs);
}

static MlirValue indexOp(KilnBuilder *b, const char *name, MlirValue lhs,
                         int64_t rhs) {
  MlirValue ops[2] = {lhs, kilnConstIndex(b, rhs)};
  return kilnBuildOp1(b, name, mlirIndexTypeGet(b->ctx), 2, ops, 0, NULL);
}

/* An scf.for from 0 to `count` carrying `init`, its body empty: `inner`
 * builds into it, its block's arguments are the induction variable and
 * the carried value; the caller ends it with scf.yield. */
static MlirOperation forLoop(KilnBuilder *b, int64_t count, MlirValue init,
                             KilnBuilder *inner) {
  MlirType types[2] = {mlirIndexTypeGet(b->ctx), mlirValueGetType(init)};
  MlirLocation locs[2] = {b->loc, b->loc};
  MlirBlock body = mlirBlockCreate(2, types, locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirValue ops[4] = {kilnConstIndex(b, 0), kilnConstIndex(b, count),
                      kilnConstIndex(b, 1), init};
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.for"), b->loc);
  mlirOperationStateAddResults(&st, 1, &types[1]);
  mlirOperationStateAddOperands(&st, 4, ops);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  *inner = (KilnBuilder){b->ctx, b->loc, body, {NULL}};
  return kilnBuildInsert(b, &st);
}

/* Most kernel taps of a strided conv copied one by one into the window
 * tensor (windowTensor); ResNet's 7x7 stem has 49. More are copied by a
 * loop over the taps (tapLoop). */
enum { kMaxTapCopies = 64 };

/* How the kernel taps of a strided window are copied into the window
 * tensor `col` (windowTensor): x's slice of tap t has offsets t_i * d_i
 * along x's spatial dims (from `first`), `sizes` and `steps`; it goes to
 * col at t_i along col's dims `tapDim`, sized `tapSizes`. */
typedef struct TapCopy {
  const KilnWindow *win;
  const int64_t *kernel;
  intptr_t first, tapDim[KILN_MAX_RANK];
  int64_t sizes[KILN_MAX_RANK], steps[KILN_MAX_RANK];
  int64_t tapSizes[2 + 2 * KILN_MAX_RANK];
} TapCopy;

/* The window tensor's taps as one loop over them (scf.for): the kernel
 * position delinearized from the induction variable (the last spatial dim
 * fastest), one strided copy per iteration. One copy to analyze keeps
 * one-shot bufferization linear in the taps (an unrolled chain of n
 * copies is cubic in n: 63 s for ViT-B/16's 256), and each copy stays a
 * strided slice that the copy schedule vectorizes, where the gather
 * generic's scalar loads and index arithmetic took 71% of R3D-18's
 * 3x7x7 stem. */
static MlirValue tapLoop(KilnBuilder *b, MlirValue x, MlirValue col,
                         const TapCopy *c, int64_t taps) {
  intptr_t ns = c->win->n;
  KilnBuilder in;
  MlirOperation loop = forLoop(b, taps, col, &in);
  MlirValue rest = mlirBlockGetArgument(in.block, 0);
  MlirValue from[KILN_MAX_RANK] = {{NULL}},
            to[2 + 2 * KILN_MAX_RANK] = {{NULL}};
  for (intptr_t i = ns - 1; i >= 0; --i) {
    MlirValue t = i ? indexOp(&in, "arith.remui", rest, c->kernel[i]) : rest;
    if (i)
      rest = indexOp(&in, "arith.divui", rest, c->kernel[i]);
    to[c->tapDim[i]] = t;
    from[c->first + i] =
        c->win->dilations[i] == 1
            ? t
            : indexOp(&in, "arith.muli", t, c->win->dilations[i]);
  }
  MlirValue slice =
      sliceAt(&in, x, (MlirValue){NULL}, from, c->sizes, c->steps);
  MlirValue next = sliceAt(&in, slice, mlirBlockGetArgument(in.block, 1), to,
                           c->tapSizes, NULL);
  kilnBuildOp(&in, "scf.yield", 0, NULL, 1, &next, 0, NULL);
  return mlirOperationGetResult(loop, 0);
}

/* The window tensor of an im2col conv: the padded `x` (N x C x D.., or
 * N x D.. x C when `last`) copied tap by tap into the layout of
 * windowRoles, each kernel tap a strided slice of x; x itself for a 1x1..
 * conv with unit strides (its window matrix already). */
static MlirValue windowTensor(KilnBuilder *b, MlirValue x,
                              const KilnWindow *win, const int64_t *kernel,
                              bool last, bool gather) {
  intptr_t ns = win->n, r = 2 + 2 * ns, first = last ? 1 : 2;
  bool unitStrides = true, identity = true;
  int64_t taps = 1;
  for (intptr_t i = 0; i < ns; ++i) {
    taps *= kernel[i];
    unitStrides = unitStrides && win->strides[i] == 1;
    identity = identity && kernel[i] == 1 && win->strides[i] == 1 &&
               kilnDim(x, first + i) == win->out[i];
  }
  if (identity)
    return x;
  /* (Strided: tap by tap, each copy a strided slice, unless `gather`: one
   * kernel on a GPU, where a copy per tap would be one kernel argument
   * pair per tap.) */
  if (gather || unitStrides)
    return windowGather(b, x, win, kernel, last);
  TapCopy c = {win, kernel, first, {0}, {0}, {0}, {0}};
  intptr_t roleOfDim[2 + 2 * KILN_MAX_RANK];
  int64_t extent[2 + 2 * KILN_MAX_RANK], cs[2 + 2 * KILN_MAX_RANK],
      ones[2 + 2 * KILN_MAX_RANK];
  windowRoles(ns, last, roleOfDim);
  windowExtents(x, win, kernel, last, extent);
  for (intptr_t d = 0; d < r; ++d) {
    if (roleOfDim[d] >= kRoleTap && roleOfDim[d] < kRoleTap + ns)
      c.tapDim[roleOfDim[d] - kRoleTap] = d;
    cs[d] = c.tapSizes[d] = extent[roleOfDim[d]];
    ones[d] = 1;
  }
  /* Slices of x: all of N and C, the output's strided positions. */
  for (intptr_t i = 0; i < ns + 2; ++i) {
    c.sizes[i] = kilnDim(x, i);
    c.steps[i] = 1;
  }
  for (intptr_t i = 0; i < ns; ++i) {
    c.sizes[first + i] = win->out[i];
    c.steps[first + i] = win->strides[i];
    c.tapSizes[c.tapDim[i]] = 1;
  }
  MlirValue col = kilnEmpty(b, kilnTensorType(r, cs, kilnElementType(x)));
  if (taps > kMaxTapCopies)
    return tapLoop(b, x, col, &c, taps);
  int64_t tap[KILN_MAX_RANK] = {0};
  for (bool more = true; more;) {
    int64_t from[KILN_MAX_RANK] = {0}, to[2 + 2 * KILN_MAX_RANK] = {0};
    for (intptr_t i = 0; i < ns; ++i) {
      from[first + i] = tap[i] * win->dilations[i];
      to[c.tapDim[i]] = tap[i];
    }
    MlirValue slice = kilnExtractSlice(b, x, from, c.sizes, c.steps);
    col = kilnInsertSliceSized(b, slice, col, to, c.tapSizes, ones);
    /* The next tap, the last spatial dim fastest. */
    more = false;
    for (intptr_t i = ns - 1; i >= 0 && !more; --i) {
      more = ++tap[i] < kernel[i];
      if (!more)
        tap[i] = 0;
    }
  }
  return col;
}

/* One operand of an im2col contraction: `v` reshaped to the `rank` dims
 * `shape`, indexed by the loops `loops`. */
typedef struct MacOperand {
  MlirValue v;
  intptr_t rank;
  const int64_t *shape, *loops;
} MacOperand;

/* The contraction y += lhs * rhs of an im2col conv: y has `yRank` dims
 * `yShape`, one parallel loop each (dim i loop yLoops[i]; NULL: in order),
 * then the reduction loop k; its init is the bias broadcast along y's
 * `biasDims` (kilnConvInit, zeros without a bias); the result is reshaped
 * to `resultType`. */
static MlirValue im2colMac(KilnBuilder *b, MacOperand lhs, MacOperand rhs,
                           intptr_t yRank, const int64_t *yShape,
                           const int64_t *yLoopsOrNull, MlirValue bias,
                           intptr_t nBiasDims, const int64_t *biasDims,
                           MlirType resultType) {
  MlirType e = kilnElementType(lhs.v);
  MlirValue in[2] = {
      kilnReshape(b, lhs.v, kilnTensorType(lhs.rank, lhs.shape, e)),
      kilnReshape(b, rhs.v, kilnTensorType(rhs.rank, rhs.shape, e))};
  MlirType yType = kilnTensorType(yRank, yShape, e);
  MlirValue init = kilnConvInit(b, bias, yType, nBiasDims, biasDims);
  intptr_t nLoops = yRank + 1;
  int64_t yLoops[KILN_MAX_RANK + 2];
  char iters[KILN_MAX_RANK + 3];
  for (intptr_t i = 0; i < yRank; ++i) {
    yLoops[i] = yLoopsOrNull ? yLoopsOrNull[i] : i;
    iters[i] = 'p';
  }
  iters[yRank] = 'r';
  iters[nLoops] = '\0';
  MlirAttribute maps[3] = {kilnMapDims(b->ctx, nLoops, lhs.rank, lhs.loops),
                           kilnMapDims(b->ctx, nLoops, rhs.rank, rhs.loops),
                           kilnMapDims(b->ctx, nLoops, yRank, yLoops)};
  MlirValue y =
      mlirOperationGetResult(kilnGeneric(b, 2, in, 1, &init, maps, nLoops,
                                         iters, kilnConvMacBody, NULL),
                             0);
  return kilnReshape(b, y, resultType);
}

/* The contraction of a grouped conv (im2colBlock) on its window tensor
 * `col` (N x C x K1.. x O1.., or x itself, N x C x O1..), `ns` spatial
 * dims. The reshapes keep the group split next to the pixels rather than
 * flattening everything: col is collapsed to N x K x P, then expanded to
 * N x G x K/G x P; the result N x G x M/G x P collapsed to N x M x P, then
 * its pixels unflattened. A tile of whole groups and whole rows of the
 * result then maps to one slice of the contraction and one of the window
 * tensor (kiln-fuse-groups' grouped tiles). */
static MlirValue groupedMac(KilnBuilder *b, MlirValue col, MlirValue w,
                            MlirValue bias, int64_t group, intptr_t ns,
                            MlirType resultType) {
  MlirType e = kilnElementType(col);
  intptr_t taps = kilnRank(col) - 1 - ns; /* C and the kernel dims */
  int64_t n = kilnDim(col, 0), m = kilnDim(w, 0), k = 1, p = 1;
  for (intptr_t i = 0; i < taps; ++i)
    k *= kilnDim(col, 1 + i);
  for (intptr_t i = 0; i < ns; ++i)
    p *= kilnDim(col, 1 + taps + i);
  int64_t kg = k / group, mg = m / group;
  int64_t flat[3] = {n, k, p}, colShape[4] = {n, group, kg, p};
  intptr_t toFlat[3] = {1, taps, ns}, split[3] = {1, 2, 1};
  col = kilnReshapeGroups(b, col, kilnTensorType(3, flat, e), 3, toFlat);
  col = kilnReshapeGroups(b, col, kilnTensorType(4, colShape, e), 3, split);
  int64_t wShape[3] = {group, mg, kg}, yShape[4] = {n, group, mg, p};
  int64_t g2[2] = {group, mg}, biasDims[2] = {1, 2};
  if (!mlirValueIsNull(bias))
    bias = kilnReshape(b, bias, kilnTensorType(2, g2, e));
  /* Loops n, g, m, p, k. */
  static const int64_t wLoops[3] = {1, 2, 4}, colLoops[4] = {0, 1, 4, 3};
  MacOperand lhs = {w, 3, wShape, wLoops}, rhs = {col, 4, colShape, colLoops};
  MlirValue y = im2colMac(b, lhs, rhs, 4, yShape, NULL, bias, 2, biasDims,
                          kilnTensorType(4, yShape, e));
  int64_t yFlat[3] = {n, m, p};
  intptr_t merge[3] = {1, 2, 1}, unflatten[3] = {1, 1, ns};
  y = kilnReshapeGroups(b, y, kilnTensorType(3, yFlat, e), 3, merge);
  return kilnReshapeGroups(b, y, resultType, 3, unflatten);
}

/* Whether a conv of `pixels` output pixels per image and `channels` output
 * channels vectorizes along the channels: its pixels would leave too many
 * lanes of their register tiles idle (49 = 3 x 16 + 1 on a 7 x 7 plane:
 * the one-pixel remainder tile costs as much as a full one). */
static bool smallPlane(int64_t pixels, int64_t channels) {
  int64_t vectors = (pixels + kPixelLanes - 1) / kPixelLanes;
  return channels >= kPixelLanes &&
         100 * pixels < kBusyPercent * kPixelLanes * vectors;
}

/* The constant filter `w` (M x C x K..) transposed to K x M at compile
 * time, or a null value when `w` is not a constant. Its rows are padded
 * to an odd number of cache lines: a register tile reads one line of each
 * row per reduction step, and rows an even number of lines apart (M = 512:
 * 32 lines) fall into a few of the L1 cache's 64 sets, which then evict
 * the tile's filter panel before the next tile reads it again. */
static MlirValue transposedFilter(KilnBuilder *b, MlirValue w, int64_t k) {
  if (!mlirValueIsAOpResult(w))
    return (MlirValue){NULL};
  MlirOperation def = mlirOpResultGetOwner(w);
  if (!kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(def)),
                           "graph.constant"))
    return (MlirValue){NULL};
  int64_t m = kilnDim(w, 0);
  int64_t perLine =
      kCacheLineBytes / (mlirTypeIsAF64(kilnElementType(w)) ? 8 : 4);
  int64_t lines = (m + perLine - 1) / perLine;
  MlirAttribute t =
      kilnTransposedRows(mlirOperationGetAttributeByName(
                             def, mlirStringRefCreateFromCString("value")),
                         (lines | 1) * perLine);
  if (mlirAttributeIsNull(t))
    return (MlirValue){NULL};
  int64_t zeros[2] = {0, 0}, sizes[2] = {k, m}, ones[2] = {1, 1};
  return kilnExtractSlice(b, kilnConstantTensor(b, t), zeros, sizes, ones);
}

/* The conv of the padded `x` (N x C x D..) by `w` (M x C/G x K..) as a
 * contraction over k = (c, k1.., kn) per group: with the window matrix
 * col[n] (C*K1*..*Kn x O1*..*On), y[n] = w (M x C*K..) * col[n] for one
 * group; for G groups col[n] is G x C/G*K.. x P and the contraction gets a
 * group loop (n, g, m, p, k), which kiln-tile-and-vectorize threads over
 * groups x blocks like a batched matmul. A 1x1.. conv with unit strides
 * reads x itself. Returns a null value when col would have more than
 * `maxElements` elements. */
static MlirValue im2colBlock(KilnBuilder *b, MlirValue x, MlirValue w,
                             MlirValue bias, int64_t group,
                             const KilnWindow *win, MlirType resultType,
                             bool gather, int64_t maxElements,
                             bool channelsInner) {
  int64_t n = kilnDim(x, 0), c = kilnDim(x, 1), m = kilnDim(w, 0);
  int64_t kernel[KILN_MAX_RANK], taps = 1, p = 1;
  for (intptr_t i = 0; i < win->n; ++i) {
    kernel[i] = kilnDim(w, 2 + i);
    taps *= kernel[i];
    p *= win->out[i];
  }
  int64_t k = c * taps;
  if (n * k * p > maxElements)
    return (MlirValue){NULL};
  MlirValue col = windowTensor(b, x, win, kernel, false, gather);
  if (group > 1)
    return groupedMac(b, col, w, bias, group, win->n, resultType);
  int64_t colShape[3] = {n, k, p}, wShape[2] = {m, k}, yShape[3] = {n, m, p};
  static const int64_t channelDim = 1;
  int64_t bytes = mlirTypeIsAF64(kilnElementType(w)) ? 8 : 4;
  channelsInner =
      channelsInner && smallPlane(p, m) && k * p * bytes <= kInnerWindowBytes;
  MlirValue wt = channelsInner ? transposedFilter(b, w, k) : (MlirValue){NULL};
  if (!mlirValueIsNull(wt)) {
    /* Loops n, p, m, k: the output channels innermost, so the register
     * tiles are vectors along them (kiln-tile-and-vectorize). */
    int64_t wtShape[2] = {k, m};
    static const int64_t wtLoops[2] = {3, 2}, colInner[3] = {0, 3, 1},
                         yInner[3] = {0, 2, 1};
    MacOperand lhs = {wt, 2, wtShape, wtLoops},
               rhs = {col, 3, colShape, colInner};
    return im2colMac(b, lhs, rhs, 3, yShape, yInner, bias, 1, &channelDim,
                     resultType);
  }
  /* Loops n, m, p, k. */
  static const int64_t wLoops[2] = {1, 3}, colLoops[3] = {0, 3, 2};
  MacOperand lhs = {w, 2, wShape, wLoops}, rhs = {col, 3, colShape, colLoops};
  return im2colMac(b, lhs, rhs, 3, yShape, NULL, bias, 1, &channelDim,
                   resultType);
}

/* Elements of the window matrix one block of a big conv computes (4 MB of
 * f32): its columns are still in cache when the block's contraction reads
 * them. */
enum { kBlockElements = 1 << 20 };

/* The blocks of a big conv: `rows` positions of spatial dim `dim`, one of
 * each dim before it, all of the dims after it. */
typedef struct Blocks {
  intptr_t dim;
  int64_t rows, count;
} Blocks;

static Blocks planBlocks(const KilnWindow *win, int64_t perPixel) {
  Blocks p = {win->n - 1, 1, 1};
  int64_t trailing = 1;
  for (intptr_t i = win->n - 1; i >= 0; --i) {
    if (perPixel * trailing * win->out[i] > kBlockElements)
      break;
    trailing *= win->out[i];
    p.dim = i - 1;
  }
  if (p.dim < 0) /* all of it fits one block */
    return (Blocks){0, win->out[0], 1};
  trailing = 1;
  for (intptr_t i = p.dim + 1; i < win->n; ++i)
    trailing *= win->out[i];
  p.rows = win->out[p.dim];
  while (p.rows > 1 && (perPixel * trailing * p.rows > kBlockElements ||
                        win->out[p.dim] % p.rows))
    --p.rows;
  p.count = win->out[p.dim] / p.rows;
  for (intptr_t i = 0; i < p.dim; ++i)
    p.count *= win->out[i];
  return p;
}

/* One block of the loop of kilnIm2colConv, for iteration `iv`: its slab of
 * x, its im2col contraction, inserted into `y`. */
static MlirValue im2colLoopBody(KilnBuilder *b, MlirValue x, MlirValue w,
                                MlirValue bias, int64_t group,
                                const KilnWindow *win, const Blocks *p,
                                MlirValue iv, MlirValue y, bool gather,
                                bool channelsInner) {
  intptr_t r = win->n + 2;
  KilnWindow block = *win;
  MlirValue xOff[KILN_MAX_RANK] = {{NULL}}, yOff[KILN_MAX_RANK] = {{NULL}};
  int64_t slab[KILN_MAX_RANK] = {kilnDim(x, 0), kilnDim(x, 1)};
  int64_t yBlock[KILN_MAX_RANK] = {kilnDim(y, 0), kilnDim(y, 1)};
  /* iv delinearized over (out[0], .., out[dim - 1], out[dim] / rows). */
  MlirValue rest = iv;
  for (intptr_t i = p->dim; i >= 0; --i) {
    int64_t count = i == p->dim ? win->out[i] / p->rows : win->out[i];
    MlirValue q = i ? indexOp(b, "arith.remui", rest, count) : rest;
    if (i)
      rest = indexOp(b, "arith.divui", rest, count);
    yOff[2 + i] = i == p->dim ? indexOp(b, "arith.muli", q, p->rows) : q;
    xOff[2 + i] = win->strides[i] == 1
                      ? yOff[2 + i]
                      : indexOp(b, "arith.muli", yOff[2 + i], win->strides[i]);
  }
  for (intptr_t i = 0; i < win->n; ++i) {
    block.out[i] = i < p->dim ? 1 : i == p->dim ? p->rows : win->out[i];
    slab[2 + i] = i > p->dim ? kilnDim(x, 2 + i)
                             : (block.out[i] - 1) * win->strides[i] +
                                   kilnWindowDilatedKernel(win, i);
    yBlock[2 + i] = block.out[i];
  }
  MlirType blockType = kilnTensorType(r, yBlock, kilnElementType(y));
  MlirValue part = im2colBlock(
      b, sliceAt(b, x, (MlirValue){NULL}, xOff, slab, NULL), w, bias, group,
      &block, blockType, gather, kMaxIm2colElements, channelsInner);
  if (mlirValueIsNull(part))
    return part;
  return sliceAt(b, part, y, yOff, yBlock, NULL);
}

/* Whether the group-1 2-D or 3-D conv being lowered at `b` is the
 * contraction of a conv_epilogue fusion group whose tiles will each build
 * their own columns of its window tensor (kiln-fuse-groups' tiles: rows;
 * a 3-D conv's, kilnConv3dTileGet's blocks). Then the window is one gather
 * generic, fused into each tile: its columns stay in cache for the
 * contraction (strided reads widened), rather than tap copies of a whole
 * window tensor, which cannot be fused and go through memory (ResNet-18's
 * 7x7 stem, 1 thread: 2.54 -> 2.35 ms). Outside such a group the gather
 * would run alone, element by element: the copies stay. */
static bool fusedWindow(KilnBuilder *b, const KilnWindow *win, int64_t group) {
  if ((win->n != 2 && win->n != 3) || group != 1)
    return false;
  MlirOperation parent = mlirBlockGetParentOperation(b->block);
  if (mlirOperationIsNull(parent))
    return false;
  MlirAttribute kind = mlirOperationGetDiscardableAttributeByName(
      parent, mlirStringRefCreateFromCString("graph.fusion"));
  if (mlirAttributeIsNull(kind) || !mlirAttributeIsAString(kind) ||
      !mlirStringRefEqual(mlirStringAttrGetValue(kind),
                          mlirStringRefCreateFromCString("conv_epilogue")))
    return false;
  if (win->n == 3)
    return kilnConv3dTileGet(win->out, KILN_CONV_TILE_PIXELS,
                             kKilnConv3dWindowBlocks, kKilnConv3dMinTilePixels)
               .count >= kKilnConv3dWindowBlocks;
  /* A 2-D conv's tiles: whole output rows, at most conv-tile-pixels of
   * them, the conv's own when kiln-tune chose them. */
  int64_t pixels, windowTiles;
  kilnConvGroupTilesAt(b->loc, &pixels, &windowTiles);
  int64_t rows = pixels / win->out[1];
  return windowTiles > 0 &&
         win->out[0] / kilnDivisorAtMost(win->out[0], rows > 1 ? rows : 1) >=
             windowTiles;
}

/* Whether the conv's window is strided. */
static bool stridedWindow(const KilnWindow *win) {
  bool strided = false;
  for (intptr_t i = 0; i < win->n; ++i)
    strided = strided || win->strides[i] != 1;
  return strided;
}

/* im2colBlock for the whole conv, or, when its window matrix would be too
 * big, in a loop over blocks (planBlocks: a few MB of window matrix each),
 * each computing its slab of x's window matrix and contraction: its window
 * columns then stay in cache, where a whole matrix of 43M elements (a
 * 3x3x3 conv over 64 channels at 8 x 56 x 56) would go through memory. The
 * loop is serial; each block's contraction and window tensor are threaded
 * by kiln-tile-and-vectorize. */
MlirValue kilnIm2colConv(KilnBuilder *b, MlirValue x, MlirValue w,
                         MlirValue bias, int64_t group, const KilnWindow *win,
                         MlirType resultType, bool gather, bool channelsInner) {
  int64_t perPixel = kilnDim(x, 0) * kilnDim(x, 1), pixels = 1;
  for (intptr_t i = 0; i < win->n; ++i) {
    perPixel *= kilnDim(w, 2 + i);
    pixels *= win->out[i];
  }
  /* A 3-D conv whose epilogue tiles build their own window columns builds
   * its window only tile by tile, however big it is whole. */
  bool fused = fusedWindow(b, win, group), tiled = fused && win->n == 3;
  Blocks p = planBlocks(win, perPixel);
  if (perPixel * pixels <= kMaxIm2colElements || p.count == 1 ||
      perPixel * p.rows > kBlockElements || tiled)
    return im2colBlock(b, x, w, bias, group, win, resultType,
                       gather || (fused && stridedWindow(win)),
                       tiled ? INT64_MAX : kMaxIm2colElements, channelsInner);
  KilnBuilder inner;
  MlirOperation loop = forLoop(b, p.count, kilnEmpty(b, resultType), &inner);
  MlirBlock body = inner.block;
  MlirValue next = im2colLoopBody(
      &inner, x, w, bias, group, win, &p, mlirBlockGetArgument(body, 0),
      mlirBlockGetArgument(body, 1), gather, channelsInner);
  kilnBuildOp(&inner, "scf.yield", 0, NULL, 1, &next, 0, NULL);
  return mlirOperationGetResult(loop, 0);
}

/* The channels-last 2-D conv of the padded `x` (N x H x W x C) by `w`
 * (KH x KW x C x M) as a contraction over k = (kh, kw, c): with the window
 * matrix col[n] (OH*OW x KH*KW*C), y[n] = col[n] * w (KH*KW*C x M). The
 * output's innermost dim is M, so the vectorized dim is the channel count
 * rather than OH*OW (which is short in late stages), and each tap copy is
 * contiguous along C. Returns a null value when col would be too big. */
MlirValue kilnIm2colConvLast(KilnBuilder *b, MlirValue x, MlirValue w,
                             MlirValue bias, const KilnWindow *win,
                             MlirType resultType, bool gather) {
  int64_t n = kilnDim(x, 0), c = kilnDim(x, 3), m = kilnDim(w, 3);
  int64_t kh = kilnDim(w, 0), kw = kilnDim(w, 1);
  int64_t oh = win->out[0], ow = win->out[1];
  int64_t k = c * kh * kw, p = oh * ow;
  if (n * k * p > kMaxIm2colElements)
    return (MlirValue){NULL};
  int64_t kernel[2] = {kh, kw};
  MlirValue col = windowTensor(b, x, win, kernel, true, gather);
  int64_t colShape[3] = {n, p, k}, wShape[2] = {k, m}, yShape[3] = {n, p, m};
  /* Loops n, p, m, k. */
  static const int64_t colLoops[3] = {0, 1, 3}, wLoops[2] = {3, 2};
  static const int64_t channelDim = 2;
  MacOperand lhs = {col, 3, colShape, colLoops}, rhs = {w, 2, wShape, wLoops};
  return im2colMac(b, lhs, rhs, 3, yShape, NULL, bias, 1, &channelDim,
                   resultType);
}

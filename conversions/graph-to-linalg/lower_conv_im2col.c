/* Convs as im2col contractions (the CPU path of lower_conv.c, the strategy
 * of ONNX Runtime's MLAS for NCHW convs): the padded input's windows copied
 * into a window tensor (one gather with unit strides, a strided copy per
 * kernel tap otherwise), which is the K x P operand of one contraction with
 * the filter as M x K; kiln-tile-and-vectorize turns it into register-tiled
 * FMAs (docs/cpu-codegen.md), where linalg's conv ops would stay scalar
 * loops. Every rank (1-D, 2-D, 3-D) and group count. */
#include "conversions/graph-to-linalg/lower_conv_window.h"

#include <string.h>

/* Largest im2col matrix (elements) built at once; a conv needing more (a
 * 3x3 over 512 channels at 56 x 56: 57 MB; a 3x3x3 over 64 channels at
 * 8 x 56 x 56: 173 MB) is computed in blocks of output rows (im2colConv). */
enum { kMaxIm2colElements = 16 << 20 };

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
      kilnGeneric(b, 1, &x, 1, &init, maps, r, iters, kilnConvCopyBody, NULL),
      0);
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
  for (intptr_t i = 0; i < ns; ++i) {
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
  intptr_t roleOfDim[2 + 2 * KILN_MAX_RANK], dimOfRole[2 + 2 * KILN_MAX_RANK];
  int64_t extent[2 + 2 * KILN_MAX_RANK];
  windowRoles(ns, last, roleOfDim);
  windowExtents(x, win, kernel, last, extent);
  int64_t cs[2 + 2 * KILN_MAX_RANK], tapSizes[2 + 2 * KILN_MAX_RANK],
      ones[2 + 2 * KILN_MAX_RANK];
  for (intptr_t d = 0; d < r; ++d) {
    dimOfRole[roleOfDim[d]] = d;
    cs[d] = tapSizes[d] = extent[roleOfDim[d]];
    ones[d] = 1;
  }
  /* Slices of x: all of N and C, the output's strided positions. */
  int64_t sizes[KILN_MAX_RANK], strides[KILN_MAX_RANK];
  for (intptr_t i = 0; i < ns + 2; ++i) {
    sizes[i] = kilnDim(x, i);
    strides[i] = 1;
  }
  for (intptr_t i = 0; i < ns; ++i) {
    sizes[first + i] = win->out[i];
    strides[first + i] = win->strides[i];
    tapSizes[dimOfRole[kRoleTap + i]] = 1;
  }
  MlirValue col = kilnEmpty(b, kilnTensorType(r, cs, kilnElementType(x)));
  int64_t tap[KILN_MAX_RANK] = {0};
  for (bool more = true; more;) {
    int64_t from[KILN_MAX_RANK] = {0}, to[2 + 2 * KILN_MAX_RANK] = {0};
    for (intptr_t i = 0; i < ns; ++i) {
      from[first + i] = tap[i] * win->dilations[i];
      to[dimOfRole[kRoleTap + i]] = tap[i];
    }
    MlirValue slice = kilnExtractSlice(b, x, from, sizes, strides);
    col = kilnInsertSliceSized(b, slice, col, to, tapSizes, ones);
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

/* The conv of the padded `x` (N x C x D..) by `w` (M x C/G x K..) as a
 * contraction over k = (c, k1.., kn) per group: with the window matrix
 * col[n] (C*K1*..*Kn x O1*..*On), y[n] = w (M x C*K..) * col[n] for one
 * group; for G groups col[n] is G x C/G*K.. x P and the contraction gets a
 * group loop (n, g, m, p, k), which kiln-tile-and-vectorize threads over
 * groups x blocks like a batched matmul. A 1x1.. conv with unit strides
 * reads x itself. Returns a null value when col would be too big. */
static MlirValue im2colBlock(KilnBuilder *b, MlirValue x, MlirValue w,
                             MlirValue bias, int64_t group,
                             const KilnWindow *win, MlirType resultType,
                             bool gather) {
  MlirContext ctx = b->ctx;
  MlirType e = kilnElementType(x);
  int64_t n = kilnDim(x, 0), c = kilnDim(x, 1), m = kilnDim(w, 0);
  int64_t kernel[KILN_MAX_RANK], taps = 1, p = 1;
  for (intptr_t i = 0; i < win->n; ++i) {
    kernel[i] = kilnDim(w, 2 + i);
    taps *= kernel[i];
    p *= win->out[i];
  }
  int64_t k = c * taps;
  if (n * k * p > kMaxIm2colElements)
    return (MlirValue){NULL};
  MlirValue col = windowTensor(b, x, win, kernel, false, gather);
  if (group > 1) {
    int64_t kg = k / group, mg = m / group;
    int64_t colShape[4] = {n, group, kg, p}, wShape[3] = {group, mg, kg};
    int64_t yShape[4] = {n, group, mg, p}, g2[2] = {group, mg};
    int64_t biasDims[2] = {1, 2};
    MlirValue in[2] = {kilnReshape(b, w, kilnTensorType(3, wShape, e)),
                       kilnReshape(b, col, kilnTensorType(4, colShape, e))};
    MlirType yType = kilnTensorType(4, yShape, e);
    if (!mlirValueIsNull(bias))
      bias = kilnReshape(b, bias, kilnTensorType(2, g2, e));
    MlirValue init = kilnConvInit(b, bias, yType, 2, biasDims);
    /* Loops n, g, m, p, k. */
    MlirAffineExpr d[5];
    for (int i = 0; i < 5; ++i)
      d[i] = mlirAffineDimExprGet(ctx, i);
    MlirAffineExpr we[3] = {d[1], d[2], d[4]}, ce[4] = {d[0], d[1], d[4], d[3]},
                   ye[4] = {d[0], d[1], d[2], d[3]};
    MlirAttribute maps[3] = {kilnMapExprs(ctx, 5, 3, we),
                             kilnMapExprs(ctx, 5, 4, ce),
                             kilnMapExprs(ctx, 5, 4, ye)};
    MlirValue y =
        mlirOperationGetResult(kilnGeneric(b, 2, in, 1, &init, maps, 5, "ppppr",
                                           kilnConvMacBody, NULL),
                               0);
    return kilnReshape(b, y, resultType);
  }
  int64_t colShape[3] = {n, k, p}, wShape[2] = {m, k}, yShape[3] = {n, m, p};
  MlirValue in[2] = {kilnReshape(b, w, kilnTensorType(2, wShape, e)),
                     kilnReshape(b, col, kilnTensorType(3, colShape, e))};
  MlirType yType = kilnTensorType(3, yShape, e);
  int64_t channelDim = 1;
  MlirValue init = kilnConvInit(b, bias, yType, 1, &channelDim);
  /* Loops n, m, p, k. */
  MlirAffineExpr d[4] = {
      mlirAffineDimExprGet(ctx, 0), mlirAffineDimExprGet(ctx, 1),
      mlirAffineDimExprGet(ctx, 2), mlirAffineDimExprGet(ctx, 3)};
  MlirAffineExpr we[2] = {d[1], d[3]}, ce[3] = {d[0], d[3], d[2]},
                 ye[3] = {d[0], d[1], d[2]};
  MlirAttribute maps[3] = {kilnMapExprs(ctx, 4, 2, we),
                           kilnMapExprs(ctx, 4, 3, ce),
                           kilnMapExprs(ctx, 4, 3, ye)};
  MlirValue y = mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &init, maps, 4, "pppr", kilnConvMacBody, NULL),
      0);
  return kilnReshape(b, y, resultType);
}

/* im2colBlock for the whole conv, or, when its window matrix would be too
 * big, for blocks of output rows (the outermost spatial dim) that divide
 * them, each on its slab of x, inserted into the result. Null when even
 * one row is too big. */
MlirValue kilnIm2colConv(KilnBuilder *b, MlirValue x, MlirValue w,
                         MlirValue bias, int64_t group, const KilnWindow *win,
                         MlirType resultType, bool gather) {
  int64_t perRow = kilnDim(x, 0) * kilnDim(x, 1);
  for (intptr_t i = 0; i < win->n; ++i)
    perRow *= kilnDim(w, 2 + i) * (i ? win->out[i] : 1);
  int64_t rows = win->out[0];
  while (rows > 1 && (rows * perRow > kMaxIm2colElements || win->out[0] % rows))
    --rows;
  if (rows == win->out[0] || rows * perRow > kMaxIm2colElements)
    return im2colBlock(b, x, w, bias, group, win, resultType, gather);
  intptr_t r = win->n + 2;
  MlirType e = kilnElementType(x);
  KilnWindow block = *win;
  block.out[0] = rows;
  int64_t slab[KILN_MAX_RANK], yBlock[KILN_MAX_RANK], ones[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    slab[i] = kilnDim(x, i);
    yBlock[i] = mlirShapedTypeGetDimSize(resultType, i);
    ones[i] = 1;
  }
  slab[2] = (rows - 1) * win->strides[0] + kilnWindowDilatedKernel(win, 0);
  yBlock[2] = rows;
  MlirType blockType = kilnTensorType(r, yBlock, e);
  MlirValue y = kilnEmpty(b, resultType);
  for (int64_t row = 0; row < win->out[0]; row += rows) {
    int64_t from[KILN_MAX_RANK] = {0}, to[KILN_MAX_RANK] = {0};
    from[2] = row * win->strides[0];
    to[2] = row;
    MlirValue part = im2colBlock(b, kilnExtractSlice(b, x, from, slab, ones), w,
                                 bias, group, &block, blockType, gather);
    if (mlirValueIsNull(part))
      return part;
    y = kilnInsertSlice(b, part, y, to, ones);
  }
  return y;
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
  MlirContext ctx = b->ctx;
  MlirType e = kilnElementType(x);
  int64_t n = kilnDim(x, 0), c = kilnDim(x, 3), m = kilnDim(w, 3);
  int64_t kh = kilnDim(w, 0), kw = kilnDim(w, 1);
  int64_t oh = win->out[0], ow = win->out[1];
  int64_t k = c * kh * kw, p = oh * ow;
  if (n * k * p > kMaxIm2colElements)
    return (MlirValue){NULL};
  int64_t kernel[2] = {kh, kw};
  MlirValue col = windowTensor(b, x, win, kernel, true, gather);
  int64_t colShape[3] = {n, p, k}, wShape[2] = {k, m}, yShape[3] = {n, p, m};
  MlirValue in[2] = {kilnReshape(b, col, kilnTensorType(3, colShape, e)),
                     kilnReshape(b, w, kilnTensorType(2, wShape, e))};
  MlirType yType = kilnTensorType(3, yShape, e);
  int64_t channelDim = 2;
  MlirValue init = kilnConvInit(b, bias, yType, 1, &channelDim);
  /* Loops n, p, m, k. */
  MlirAffineExpr d[4] = {
      mlirAffineDimExprGet(ctx, 0), mlirAffineDimExprGet(ctx, 1),
      mlirAffineDimExprGet(ctx, 2), mlirAffineDimExprGet(ctx, 3)};
  MlirAffineExpr ce[3] = {d[0], d[1], d[3]}, we[2] = {d[3], d[2]},
                 ye[3] = {d[0], d[1], d[2]};
  MlirAttribute maps[3] = {kilnMapExprs(ctx, 4, 3, ce),
                           kilnMapExprs(ctx, 4, 2, we),
                           kilnMapExprs(ctx, 4, 3, ye)};
  MlirValue y = mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &init, maps, 4, "pppr", kilnConvMacBody, NULL),
      0);
  return kilnReshape(b, y, resultType);
}

/* Convolutions (conv, conv_transpose) → linalg; the family's table, which
 * also lists the pools of lower_pool.c.
 *
 * A conv pads its input (filled tensor + insert_slice) and then runs one
 * convolution with no padding: linalg's named convs where one fits exactly
 * (group 1; depthwise with one filter per channel; grouped 2-D), a
 * linalg.generic over N x G x F x O.. x C x K.. otherwise. The bias, when
 * present, is broadcast into the accumulator the conv starts from.
 *
 * A plain 2-D conv (group 1, static shapes) is lowered as im2col + matmul
 * instead, the strategy ONNX Runtime's MLAS uses for NCHW convs: one
 * contraction that kiln-tile-and-vectorize turns into register-tiled FMAs
 * (docs/cpu-codegen.md), where linalg's conv ops would stay scalar loops. */
#include "conversions/graph-to-linalg/lower_conv_window.h"
#include "conversions/graph-to-linalg/lower_tensor.h"

#include <string.h>

static MlirAffineExpr dimExpr(MlirContext ctx, intptr_t d) {
  return mlirAffineDimExprGet(ctx, d);
}

static void copyBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                     void *userData) {
  (void)b;
  (void)userData;
  yields[0] = args[0];
}

/* The accumulator of a conv with result type `type`: `bias` (a tensor
 * whose dims are `type`'s dims `biasDims`) broadcast, or zeros. */
static MlirValue convInit(KilnBuilder *b, MlirValue bias, MlirType type,
                          intptr_t nBiasDims, const int64_t *biasDims) {
  MlirType e = mlirShapedTypeGetElementType(type);
  if (mlirValueIsNull(bias))
    return kilnFilled(b, type, kilnConstFloat(b, e, 0));
  intptr_t r = mlirShapedTypeGetRank(type);
  MlirAttribute maps[2] = {kilnMapDims(b->ctx, r, nBiasDims, biasDims),
                           kilnMapIdentity(b->ctx, r)};
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', r);
  iters[r] = '\0';
  MlirValue init = kilnEmpty(b, type);
  return mlirOperationGetResult(
      kilnGeneric(b, 1, &bias, 1, &init, maps, r, iters, copyBody, NULL), 0);
}

static void macBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  MlirValue p = kilnArithNumeric(b, "mul", args[0], args[1]);
  yields[0] = kilnArithNumeric(b, "add", args[2], p);
}

/* The grouped conv as a generic over loops n, g, f, o1..on, c, k1..kn on
 * x as N x G x C/G x D.., w as G x M/G x C/G x k.. and the result as
 * N x G x M/G x O..: every map a projected permutation or a window sum. */
static MlirValue genericConv(KilnBuilder *b, MlirValue x, MlirValue w,
                             MlirValue bias, int64_t group,
                             const KilnWindow *win, MlirType resultType) {
  MlirContext ctx = b->ctx;
  intptr_t n = win->n, nLoops = 4 + 2 * n;
  MlirType e = kilnElementType(x);
  int64_t cg = kilnDim(x, 1) / group, m = kilnDim(w, 0), fg = m / group;
  int64_t xs[KILN_MAX_RANK] = {kilnDim(x, 0), group, cg};
  int64_t ws[KILN_MAX_RANK] = {group, fg, cg};
  int64_t ys[KILN_MAX_RANK] = {kilnDim(x, 0), group, fg};
  for (intptr_t i = 0; i < n; ++i) {
    xs[3 + i] = kilnDim(x, 2 + i);
    ws[3 + i] = kilnDim(w, 2 + i);
    ys[3 + i] = win->out[i];
  }
  MlirValue in[2] = {kilnReshape(b, x, kilnTensorType(n + 3, xs, e)),
                     kilnReshape(b, w, kilnTensorType(n + 3, ws, e))};
  MlirType yType = kilnTensorType(n + 3, ys, e);
  int64_t g2[2] = {group, fg}, biasDims[2] = {1, 2};
  if (!mlirValueIsNull(bias))
    bias = kilnReshape(b, bias, kilnTensorType(2, g2, e));
  MlirValue init = convInit(b, bias, yType, 2, biasDims);

  MlirAffineExpr xe[KILN_MAX_RANK], we[KILN_MAX_RANK], ye[KILN_MAX_RANK];
  xe[0] = ye[0] = dimExpr(ctx, 0);
  xe[1] = we[0] = ye[1] = dimExpr(ctx, 1);
  we[1] = ye[2] = dimExpr(ctx, 2);
  xe[2] = we[2] = dimExpr(ctx, 3 + n);
  for (intptr_t i = 0; i < n; ++i) {
    MlirAffineExpr o = dimExpr(ctx, 3 + i), k = dimExpr(ctx, 4 + n + i);
    xe[3 + i] = mlirAffineAddExprGet(
        mlirAffineMulExprGet(o,
                             mlirAffineConstantExprGet(ctx, win->strides[i])),
        mlirAffineMulExprGet(
            k, mlirAffineConstantExprGet(ctx, win->dilations[i])));
    we[3 + i] = k;
    ye[3 + i] = o;
  }
  MlirAttribute maps[3] = {kilnMapExprs(ctx, nLoops, n + 3, xe),
                           kilnMapExprs(ctx, nLoops, n + 3, we),
                           kilnMapExprs(ctx, nLoops, n + 3, ye)};
  char iters[2 * KILN_MAX_RANK + 5];
  memset(iters, 'p', 3 + n);
  memset(iters + 3 + n, 'r', 1 + n);
  iters[nLoops] = '\0';
  MlirValue y = mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &init, maps, nLoops, iters, macBody, NULL), 0);
  return kilnReshape(b, y, resultType);
}

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
    out[d] = dimExpr(ctx, d);
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
      kilnGeneric(b, 1, &x, 1, &init, maps, r, iters, copyBody, NULL), 0);
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
    MlirValue init = convInit(b, bias, yType, 2, biasDims);
    /* Loops n, g, m, p, k. */
    MlirAffineExpr d[5];
    for (int i = 0; i < 5; ++i)
      d[i] = dimExpr(ctx, i);
    MlirAffineExpr we[3] = {d[1], d[2], d[4]}, ce[4] = {d[0], d[1], d[4], d[3]},
                   ye[4] = {d[0], d[1], d[2], d[3]};
    MlirAttribute maps[3] = {kilnMapExprs(ctx, 5, 3, we),
                             kilnMapExprs(ctx, 5, 4, ce),
                             kilnMapExprs(ctx, 5, 4, ye)};
    MlirValue y = mlirOperationGetResult(
        kilnGeneric(b, 2, in, 1, &init, maps, 5, "ppppr", macBody, NULL), 0);
    return kilnReshape(b, y, resultType);
  }
  int64_t colShape[3] = {n, k, p}, wShape[2] = {m, k}, yShape[3] = {n, m, p};
  MlirValue in[2] = {kilnReshape(b, w, kilnTensorType(2, wShape, e)),
                     kilnReshape(b, col, kilnTensorType(3, colShape, e))};
  MlirType yType = kilnTensorType(3, yShape, e);
  int64_t channelDim = 1;
  MlirValue init = convInit(b, bias, yType, 1, &channelDim);
  /* Loops n, m, p, k. */
  MlirAffineExpr d[4] = {dimExpr(ctx, 0), dimExpr(ctx, 1), dimExpr(ctx, 2),
                         dimExpr(ctx, 3)};
  MlirAffineExpr we[2] = {d[1], d[3]}, ce[3] = {d[0], d[3], d[2]},
                 ye[3] = {d[0], d[1], d[2]};
  MlirAttribute maps[3] = {kilnMapExprs(ctx, 4, 2, we),
                           kilnMapExprs(ctx, 4, 3, ce),
                           kilnMapExprs(ctx, 4, 3, ye)};
  MlirValue y = mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &init, maps, 4, "pppr", macBody, NULL), 0);
  return kilnReshape(b, y, resultType);
}

/* im2colBlock for the whole conv, or, when its window matrix would be too
 * big, for blocks of output rows (the outermost spatial dim) that divide
 * them, each on its slab of x, inserted into the result. Null when even
 * one row is too big. */
static MlirValue im2colConv(KilnBuilder *b, MlirValue x, MlirValue w,
                            MlirValue bias, int64_t group,
                            const KilnWindow *win, MlirType resultType,
                            bool gather) {
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

static bool isStatic(MlirType t) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t);
}

static MlirValue convCore(KilnBuilder *b, MlirValue x, MlirValue w,
                          MlirValue bias, int64_t group, const KilnWindow *win,
                          MlirType resultType, int im2col);

/* A 1-D conv as a 2-D conv with one row: x (N x C x L) as N x C x 1 x L,
 * w (M x C/G x K) as M x C/G x 1 x K, so the 2-D kernels
 * (kiln-depthwise-conv) apply; the result reshaped back. */
static MlirValue convAsRow(KilnBuilder *b, MlirValue x, MlirValue w,
                           MlirValue bias, int64_t group, const KilnWindow *win,
                           MlirType resultType, int im2col) {
  MlirType e = kilnElementType(x);
  KilnWindow row = {.n = 2,
                    .kernel = {1, win->kernel[0]},
                    .strides = {1, win->strides[0]},
                    .dilations = {1, win->dilations[0]},
                    .in = {1, kilnDim(x, 2)},
                    .out = {1, win->out[0]}};
  int64_t xs[4] = {kilnDim(x, 0), kilnDim(x, 1), 1, kilnDim(x, 2)};
  int64_t ws[4] = {kilnDim(w, 0), kilnDim(w, 1), 1, kilnDim(w, 2)};
  int64_t ys[4] = {mlirShapedTypeGetDimSize(resultType, 0),
                   mlirShapedTypeGetDimSize(resultType, 1), 1, win->out[0]};
  MlirValue y = convCore(b, kilnReshape(b, x, kilnTensorType(4, xs, e)),
                         kilnReshape(b, w, kilnTensorType(4, ws, e)), bias,
                         group, &row, kilnTensorType(4, ys, e), im2col);
  return kilnReshape(b, y, resultType);
}

/* A conv of the already padded `x` (N x C x D..) by `w` (M x C/group x
 * k..) with the window's strides, dilations and output sizes, plus the
 * optional bias (M). With `im2col` (1: CPU) and static float shapes, every
 * conv but a depthwise one is an im2col contraction (grouped: a batch of
 * contractions over the groups), a 1-D depthwise conv a 2-D one with one
 * row; 2 (GPU: the window tensor as one gather) only for plain 2-D
 * convs. */
static MlirValue convCore(KilnBuilder *b, MlirValue x, MlirValue w,
                          MlirValue bias, int64_t group, const KilnWindow *win,
                          MlirType resultType, int im2col) {
  static const char *const kConv[] = {"linalg.conv_1d_ncw_fcw",
                                      "linalg.conv_2d_nchw_fchw",
                                      "linalg.conv_3d_ncdhw_fcdhw"};
  static const char *const kDepthwise[] = {
      "linalg.depthwise_conv_1d_ncw_cw", "linalg.depthwise_conv_2d_nchw_chw",
      "linalg.depthwise_conv_3d_ncdhw_cdhw"};
  intptr_t n = win->n;
  int64_t channels = kilnDim(x, 1), m = kilnDim(w, 0);
  bool depthwise = group > 1 && group == channels && m == channels;
  MlirType e = kilnElementType(x);
  bool fast = isStatic(mlirValueGetType(x)) && isStatic(mlirValueGetType(w)) &&
              isStatic(resultType) && kilnTypeIsFloat(e);
  if (fast && im2col == 1 && depthwise && n == 1)
    return convAsRow(b, x, w, bias, group, win, resultType, im2col);
  if (fast && ((im2col == 1 && !(depthwise && n == 2)) ||
               (im2col == 2 && group == 1 && n == 2))) {
    MlirValue y =
        im2colConv(b, x, w, bias, group, win, resultType, im2col == 2);
    if (!mlirValueIsNull(y))
      return y;
  }
  if (group > 1 && !depthwise && n != 2)
    return genericConv(b, x, w, bias, group, win, resultType);
  MlirNamedAttribute attrs[2] = {
      kilnNamedAttr(b->ctx, "strides",
                    kilnWindowI64Elements(b->ctx, n, win->strides)),
      kilnNamedAttr(b->ctx, "dilations",
                    kilnWindowI64Elements(b->ctx, n, win->dilations))};
  int64_t channelDim = 1;
  if (group == 1) {
    MlirValue in[2] = {x, w};
    MlirValue init = convInit(b, bias, resultType, 1, &channelDim);
    return kilnNamedOp(b, kConv[n - 1], 2, in, init, 2, attrs);
  }
  if (depthwise) {
    /* w is C x 1 x k..: the depthwise filter is C x k... */
    int64_t fs[KILN_MAX_RANK] = {channels};
    for (intptr_t i = 0; i < n; ++i)
      fs[1 + i] = kilnDim(w, 2 + i);
    MlirValue in[2] = {x, kilnReshape(b, w, kilnTensorType(n + 1, fs, e))};
    MlirValue init = convInit(b, bias, resultType, 1, &channelDim);
    return kilnNamedOp(b, kDepthwise[n - 1], 2, in, init, 2, attrs);
  }
  /* Grouped 2-D: linalg.conv_2d_ngchw_gfchw on x as N x G x C/G x H x W, w
   * as G x M/G x C/G x kh x kw, result N x G x M/G x OH x OW. */
  int64_t cg = channels / group, fg = m / group;
  int64_t xs[5] = {kilnDim(x, 0), group, cg, kilnDim(x, 2), kilnDim(x, 3)};
  int64_t ws[5] = {group, fg, cg, kilnDim(w, 2), kilnDim(w, 3)};
  int64_t ys[5] = {kilnDim(x, 0), group, fg, win->out[0], win->out[1]};
  MlirValue in[2] = {kilnReshape(b, x, kilnTensorType(5, xs, e)),
                     kilnReshape(b, w, kilnTensorType(5, ws, e))};
  int64_t g2[2] = {group, fg}, biasDims[2] = {1, 2};
  if (!mlirValueIsNull(bias))
    bias = kilnReshape(b, bias, kilnTensorType(2, g2, e));
  MlirValue init = convInit(b, bias, kilnTensorType(5, ys, e), 2, biasDims);
  MlirValue y =
      kilnNamedOp(b, "linalg.conv_2d_ngchw_gfchw", 2, in, init, 2, attrs);
  return kilnReshape(b, y, resultType);
}

/* The channels-last 2-D conv of the padded `x` (N x H x W x C) by `w`
 * (KH x KW x C x M) as a contraction over k = (kh, kw, c): with the window
 * matrix col[n] (OH*OW x KH*KW*C), y[n] = col[n] * w (KH*KW*C x M). The
 * output's innermost dim is M, so the vectorized dim is the channel count
 * rather than OH*OW (which is short in late stages), and each tap copy is
 * contiguous along C. Returns a null value when col would be too big. */
static MlirValue im2colConvLast(KilnBuilder *b, MlirValue x, MlirValue w,
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
  MlirValue init = convInit(b, bias, yType, 1, &channelDim);
  /* Loops n, p, m, k. */
  MlirAffineExpr d[4] = {dimExpr(ctx, 0), dimExpr(ctx, 1), dimExpr(ctx, 2),
                         dimExpr(ctx, 3)};
  MlirAffineExpr ce[3] = {d[0], d[1], d[3]}, we[2] = {d[3], d[2]},
                 ye[3] = {d[0], d[1], d[2]};
  MlirAttribute maps[3] = {kilnMapExprs(ctx, 4, 3, ce),
                           kilnMapExprs(ctx, 4, 2, we),
                           kilnMapExprs(ctx, 4, 3, ye)};
  MlirValue y = mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &init, maps, 4, "pppr", macBody, NULL), 0);
  return kilnReshape(b, y, resultType);
}

static void fmaBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  MlirValue p = kilnArithNumeric(b, "mul", args[1], args[2]);
  yields[0] = kilnArithNumeric(b, "add", args[0], p);
}

/* The channels-last depthwise 2-D conv of the padded `x` (N x H x W x C)
 * by `w` (KH x KW x 1 x C): per kernel tap, a strided slice of x times the
 * tap's C weights (broadcast) added to the accumulator. The tap updates
 * are elementwise, so linalg fuses them into one parallel loop nest whose
 * innermost loop runs over C, contiguous in every operand: LLVM vectorizes
 * it. (One generic with window maps would put the kernel loops outside
 * that channel loop, and every inner parallel loop becomes its own OpenMP
 * region.) */
static MlirValue depthwiseLast(KilnBuilder *b, MlirValue x, MlirValue w,
                               MlirValue bias, const KilnWindow *win,
                               MlirType resultType) {
  MlirContext ctx = b->ctx;
  MlirType e = kilnElementType(x);
  int64_t n = kilnDim(x, 0), c = kilnDim(x, 3);
  int64_t kh = kilnDim(w, 0), kw = kilnDim(w, 1);
  int64_t oh = win->out[0], ow = win->out[1];
  int64_t channelDim = 3;
  MlirValue acc = convInit(b, bias, resultType, 1, &channelDim);
  MlirAttribute maps[4] = {kilnMapIdentity(ctx, 4), kilnMapIdentity(ctx, 4),
                           kilnMapDims(ctx, 4, 1, &channelDim),
                           kilnMapIdentity(ctx, 4)};
  for (int64_t i = 0; i < kh; ++i) {
    for (int64_t j = 0; j < kw; ++j) {
      int64_t from[4] = {0, i * win->dilations[0], j * win->dilations[1], 0};
      int64_t sizes[4] = {n, oh, ow, c};
      int64_t strides[4] = {1, win->strides[0], win->strides[1], 1};
      int64_t wFrom[4] = {i, j, 0, 0}, wSizes[4] = {1, 1, 1, c};
      int64_t ones[4] = {1, 1, 1, 1};
      MlirValue in[3] = {
          acc, kilnExtractSlice(b, x, from, sizes, strides),
          kilnReshape(b, kilnExtractSlice(b, w, wFrom, wSizes, ones),
                      kilnTensorType(1, &c, e))};
      MlirValue init = kilnEmpty(b, resultType);
      acc = mlirOperationGetResult(
          kilnGeneric(b, 3, in, 1, &init, maps, 4, "pppp", fmaBody, NULL), 0);
    }
  }
  return acc;
}

static bool isChannelsLast(KilnLowerOp *l) {
  MlirStringRef s = kilnInferAttrString(&l->infer, "layout", "channels_first");
  return s.length == 13 && !memcmp(s.data, "channels_last", 13);
}

/* A channels-last conv (x N x D.. x C, w k.. x C/g x M, y N x O.. x M):
 * the NHWC im2col contraction where it applies, otherwise the
 * channels-first lowering between transposes (static shapes only: the
 * graph-layout pass switches static convs). */
static KilnLowerStatus lowerConvLast(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0), w = kilnLowerOperand(l, 1);
  MlirValue bias = kilnLowerOperand(l, 2);
  MlirType resultType = kilnLowerResultType(l, 0);
  if (!isStatic(mlirValueGetType(x)) || !isStatic(mlirValueGetType(w)) ||
      !isStatic(resultType))
    return kilnLowerUnsupported(
        l, "with layout \"channels_last\" needs static shapes");
  intptr_t r = kilnRank(x), n = r - 2;
  int64_t kernel[KILN_MAX_RANK],
      px[KILN_MAX_RANK] = {0, r - 1}, pw[KILN_MAX_RANK] = {r - 1, r - 2},
      py[KILN_MAX_RANK] = {0},
      firstShape[KILN_MAX_RANK] = {mlirShapedTypeGetDimSize(resultType, 0),
                                   mlirShapedTypeGetDimSize(resultType, r - 1)};
  for (intptr_t i = 0; i < n; ++i) {
    kernel[i] = kilnDim(w, i);
    px[2 + i] = 1 + i;
    pw[2 + i] = i;
    py[1 + i] = 2 + i;
    firstShape[2 + i] = mlirShapedTypeGetDimSize(resultType, 1 + i);
  }
  py[r - 1] = 1;
  MlirType e = kilnElementType(x);
  MlirValue zero = kilnConstFloat(b, e, 0);
  int64_t group = kilnInferAttrInt(&l->infer, "group", 1);
  KilnWindow win;
  if (l->convIm2col && group == 1 && n == 2 && kilnTypeIsFloat(e)) {
    kilnWindowReadAt(l, x, resultType, kernel, 1, &win);
    MlirValue padded = kilnWindowPadInputAt(b, x, &win, zero, 1);
    MlirValue y = im2colConvLast(b, padded, w, bias, &win, resultType,
                                 l->convIm2col == 2);
    if (!mlirValueIsNull(y)) {
      l->results[0] = y;
      return KILN_LOWER_OK;
    }
  }
  int64_t c = kilnDim(x, r - 1);
  if (n == 2 && group > 1 && group == c && kilnDim(w, 3) == c &&
      kilnTypeIsFloat(e)) {
    kilnWindowReadAt(l, x, resultType, kernel, 1, &win);
    MlirValue padded = kilnWindowPadInputAt(b, x, &win, zero, 1);
    l->results[0] = depthwiseLast(b, padded, w, bias, &win, resultType);
    return KILN_LOWER_OK;
  }
  MlirValue xf = kilnTensorTranspose(b, x, px);
  MlirValue wf = kilnTensorTranspose(b, w, pw);
  MlirType firstType = kilnTensorType(r, firstShape, e);
  kilnWindowRead(l, xf, firstType, kernel, &win);
  MlirValue padded = kilnWindowPadInput(b, xf, &win, zero);
  MlirValue y =
      convCore(b, padded, wf, bias, group, &win, firstType, l->convIm2col);
  l->results[0] = kilnTensorTranspose(b, y, py);
  return KILN_LOWER_OK;
}

static KilnLowerStatus lowerConv(KilnLowerOp *l) {
  if (isChannelsLast(l))
    return lowerConvLast(l);
  MlirValue x = kilnLowerOperand(l, 0), w = kilnLowerOperand(l, 1);
  MlirType resultType = kilnLowerResultType(l, 0);
  int64_t kernel[KILN_MAX_RANK];
  for (intptr_t i = 0; i + 2 < kilnRank(w); ++i)
    kernel[i] = kilnDim(w, i + 2);
  KilnWindow win;
  kilnWindowRead(l, x, resultType, kernel, &win);
  MlirValue zero = kilnConstFloat(&l->b, kilnElementType(x), 0);
  MlirValue padded = kilnWindowPadInput(&l->b, x, &win, zero);
  int64_t group = kilnInferAttrInt(&l->infer, "group", 1);
  l->results[0] = convCore(&l->b, padded, w, kilnLowerOperand(l, 2), group,
                           &win, resultType, l->convIm2col);
  return KILN_LOWER_OK;
}

/* ---- conv_transpose ------------------------------------------------------ */

static int64_t floorDiv2(int64_t v) { return v >= 0 ? v / 2 : -((1 - v) / 2); }

/* The begin padding of spatial dim i. With output_shape or SAME_*, ONNX
 * derives it from total = natural size - output size, the odd element at
 * the end (SAME_UPPER) or the beginning (otherwise); total may be negative
 * (output_shape larger than the natural size: zeros at the end). */
static int64_t transposePadBegin(const KilnWindow *w, intptr_t i,
                                 int64_t outputPadding, bool derived,
                                 int autoPad) {
  if (!derived)
    return autoPad == KILN_PAD_VALID ? 0 : w->padBegin[i];
  int64_t natural = w->strides[i] * (w->in[i] - 1) + outputPadding +
                    kilnWindowDilatedKernel(w, i);
  int64_t total = natural - w->out[i];
  return autoPad == KILN_PAD_SAME_UPPER ? floorDiv2(total)
                                        : total - floorDiv2(total);
}

/* w (C x M/G x k..) flipped in space and transposed per group to the conv
 * layout M x C/G x k..: w'[g*M/G + f, c, k] = w[g*C/G + c, f, K-1-k]. */
static MlirValue transposeWeight(KilnBuilder *b, MlirValue w, int64_t group) {
  MlirContext ctx = b->ctx;
  intptr_t n = kilnRank(w) - 2, nLoops = n + 3;
  int64_t cg = kilnDim(w, 0) / group, fg = kilnDim(w, 1);
  int64_t shape[KILN_MAX_RANK] = {group, fg, cg};
  MlirAffineExpr in[KILN_MAX_RANK];
  in[0] = mlirAffineAddExprGet(
      mlirAffineMulExprGet(dimExpr(ctx, 0), mlirAffineConstantExprGet(ctx, cg)),
      dimExpr(ctx, 2));
  in[1] = dimExpr(ctx, 1);
  for (intptr_t i = 0; i < n; ++i) {
    int64_t k = kilnDim(w, 2 + i);
    shape[3 + i] = k;
    in[2 + i] = mlirAffineAddExprGet(
        mlirAffineMulExprGet(dimExpr(ctx, 3 + i),
                             mlirAffineConstantExprGet(ctx, -1)),
        mlirAffineConstantExprGet(ctx, k - 1));
  }
  MlirType e = kilnElementType(w);
  MlirValue init = kilnEmpty(b, kilnTensorType(nLoops, shape, e));
  MlirAttribute maps[2] = {kilnMapExprs(ctx, nLoops, n + 2, in),
                           kilnMapIdentity(ctx, nLoops)};
  char iters[KILN_MAX_RANK + 4];
  memset(iters, 'p', nLoops);
  iters[nLoops] = '\0';
  MlirValue t = mlirOperationGetResult(
      kilnGeneric(b, 1, &w, 1, &init, maps, nLoops, iters, copyBody, NULL), 0);
  int64_t out[KILN_MAX_RANK] = {group * fg, cg};
  for (intptr_t i = 0; i < n; ++i)
    out[2 + i] = shape[3 + i];
  return kilnReshape(b, t, kilnTensorType(n + 2, out, e));
}

/* conv_transpose as a conv: x is spread out by the strides (insert_slice
 * with strides into zeros) with (K-1)*dilation zeros around, and the
 * window of the output cut out; then a stride-1 conv with the flipped,
 * transposed kernel. */
static KilnLowerStatus lowerConvTranspose(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0), w = kilnLowerOperand(l, 1);
  MlirType resultType = kilnLowerResultType(l, 0);
  intptr_t n = kilnRank(x) - 2, r = n + 2;
  int64_t kernel[KILN_MAX_RANK], outPad[KILN_MAX_RANK], outShape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < n; ++i)
    kernel[i] = kilnDim(w, i + 2);
  KilnWindow win;
  kilnWindowRead(l, x, resultType, kernel, &win);
  /* kilnWindowRead computed conv-style SAME pads; transposed ones differ. */
  int autoPad = kilnWindowAutoPad(l);
  bool derived = kilnInferAttrInts(&l->infer, "output_shape", outShape,
                                   KILN_MAX_RANK) == n ||
                 autoPad == KILN_PAD_SAME_UPPER ||
                 autoPad == KILN_PAD_SAME_LOWER;
  if (kilnInferAttrInts(&l->infer, "output_padding", outPad, KILN_MAX_RANK) !=
      n)
    memset(outPad, 0, sizeof(outPad));
  int64_t bufShape[KILN_MAX_RANK] = {kilnDim(x, 0), kilnDim(x, 1)};
  int64_t insOff[KILN_MAX_RANK] = {0, 0}, insStride[KILN_MAX_RANK] = {1, 1};
  int64_t cutOff[KILN_MAX_RANK] = {0, 0},
          cutSize[KILN_MAX_RANK] = {kilnDim(x, 0), kilnDim(x, 1)};
  int64_t ones[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    ones[i] = 1;
  for (intptr_t i = 0; i < n; ++i) {
    int64_t pb = transposePadBegin(&win, i, outPad[i], derived, autoPad);
    int64_t halo = (win.kernel[i] - 1) * win.dilations[i];
    int64_t shift = pb < 0 ? -pb : 0, base = halo + shift;
    int64_t need = win.out[i] + pb + shift + halo;
    int64_t hold = base + (win.in[i] - 1) * win.strides[i] + 1;
    bufShape[2 + i] = need > hold ? need : hold;
    insOff[2 + i] = base;
    insStride[2 + i] = win.strides[i];
    cutOff[2 + i] = pb + shift;
    cutSize[2 + i] = win.out[i] + halo;
    win.strides[i] = 1;
  }
  MlirType e = kilnElementType(x);
  MlirValue buf =
      kilnFilled(b, kilnTensorType(r, bufShape, e), kilnConstFloat(b, e, 0));
  buf = kilnInsertSlice(b, x, buf, insOff, insStride);
  if (memcmp(cutSize, bufShape, r * sizeof(int64_t)))
    buf = kilnExtractSlice(b, buf, cutOff, cutSize, ones);
  int64_t group = kilnInferAttrInt(&l->infer, "group", 1);
  MlirValue wt = transposeWeight(b, w, group);
  l->results[0] = convCore(b, buf, wt, kilnLowerOperand(l, 2), group, &win,
                           resultType, l->convIm2col);
  return KILN_LOWER_OK;
}

const KilnLowering kilnLowerConv[] = {
    {"conv", lowerConv},
    {"conv_transpose", lowerConvTranspose},
    {"max_pool", kilnLowerMaxPool},
    {"average_pool", kilnLowerAveragePool},
    {"global_average_pool", kilnLowerGlobalAveragePool},
    {"global_max_pool", kilnLowerGlobalMaxPool},
    {"max_unpool", kilnLowerMaxUnpool},
};
const int kilnLowerConvCount = sizeof(kilnLowerConv) / sizeof(kilnLowerConv[0]);

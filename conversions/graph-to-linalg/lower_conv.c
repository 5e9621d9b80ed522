/* Convolutions (conv, conv_transpose) → linalg; the family's table, which
 * also lists the pools of lower_pool.c.
 *
 * A conv pads its input (filled tensor + insert_slice) and then runs one
 * convolution with no padding. On the CPU path (conv-im2col) with static
 * float shapes every conv but a 2-D depthwise one is an im2col contraction
 * (lower_conv_im2col.c), a 1-D depthwise conv a 2-D one with one row;
 * otherwise linalg's named convs where one fits exactly (group 1;
 * depthwise with one filter per channel; grouped 2-D), a linalg.generic
 * over N x G x F x O.. x C x K.. for the rest. The bias, when present, is
 * broadcast into the accumulator the conv starts from. */
#include "conversions/graph-to-linalg/lower_conv_window.h"
#include "conversions/graph-to-linalg/lower_tensor.h"
#include "conversions/graph-to-linalg/lower_window_dynamic.h"
#include "support/ir_build.h"

#include <string.h>

static MlirAffineExpr dimExpr(MlirContext ctx, intptr_t d) {
  return mlirAffineDimExprGet(ctx, d);
}

MlirValue kilnConvInit(KilnBuilder *b, MlirValue bias, MlirType type,
                       intptr_t nBiasDims, const int64_t *biasDims) {
  MlirType e = mlirShapedTypeGetElementType(type);
  if (mlirValueIsNull(bias))
    return kilnFilled(b, type, kilnConstFloat(b, e, 0));
  intptr_t r = mlirShapedTypeGetRank(type);
  return kilnCopyThroughMap(b, bias,
                            kilnMapDims(b->ctx, r, nBiasDims, biasDims), type);
}

void kilnConvMacBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
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
  MlirValue init = kilnConvInit(b, bias, yType, 2, biasDims);

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
  MlirValue y =
      mlirOperationGetResult(kilnGeneric(b, 2, in, 1, &init, maps, nLoops,
                                         iters, kilnConvMacBody, NULL),
                             0);
  return kilnReshape(b, y, resultType);
}

static MlirValue convCore(KilnBuilder *b, MlirValue x, MlirValue w,
                          MlirValue bias, int64_t group, const KilnWindow *win,
                          MlirType resultType, int im2col, bool channelsInner);

/* A 1-D conv as a 2-D conv with one row: x (N x C x L) as N x C x 1 x L,
 * w (M x C/G x K) as M x C/G x 1 x K, so the 2-D kernels
 * (kiln-depthwise-conv) apply; the result reshaped back. */
static MlirValue convAsRow(KilnBuilder *b, MlirValue x, MlirValue w,
                           MlirValue bias, int64_t group, const KilnWindow *win,
                           MlirType resultType, int im2col,
                           bool channelsInner) {
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
  MlirValue y =
      convCore(b, kilnReshape(b, x, kilnTensorType(4, xs, e)),
               kilnReshape(b, w, kilnTensorType(4, ws, e)), bias, group, &row,
               kilnTensorType(4, ys, e), im2col, channelsInner);
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
                          MlirType resultType, int im2col, bool channelsInner) {
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
  bool fast = kilnTypeIsStaticTensor(mlirValueGetType(x)) &&
              kilnTypeIsStaticTensor(mlirValueGetType(w)) &&
              kilnTypeIsStaticTensor(resultType) && kilnTypeIsFloat(e);
  if (fast && im2col == 1 && depthwise && n == 1)
    return convAsRow(b, x, w, bias, group, win, resultType, im2col,
                     channelsInner);
  if (fast && ((im2col == 1 && !(depthwise && n == 2)) ||
               (im2col == 2 && group == 1 && n == 2))) {
    MlirValue y = kilnIm2colConv(b, x, w, bias, group, win, resultType,
                                 im2col == 2, channelsInner);
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
    MlirValue init = kilnConvInit(b, bias, resultType, 1, &channelDim);
    return kilnNamedOp(b, kConv[n - 1], 2, in, init, 2, attrs);
  }
  if (depthwise) {
    /* w is C x 1 x k..: the depthwise filter is C x k... */
    int64_t fs[KILN_MAX_RANK] = {channels};
    for (intptr_t i = 0; i < n; ++i)
      fs[1 + i] = kilnDim(w, 2 + i);
    MlirValue in[2] = {x, kilnReshape(b, w, kilnTensorType(n + 1, fs, e))};
    MlirValue init = kilnConvInit(b, bias, resultType, 1, &channelDim);
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
  MlirValue init = kilnConvInit(b, bias, kilnTensorType(5, ys, e), 2, biasDims);
  MlirValue y =
      kilnNamedOp(b, "linalg.conv_2d_ngchw_gfchw", 2, in, init, 2, attrs);
  return kilnReshape(b, y, resultType);
}

MlirValue kilnConvCore(KilnBuilder *b, MlirValue x, MlirValue w, MlirValue bias,
                       int64_t group, const KilnWindow *win,
                       MlirType resultType, int im2col) {
  return convCore(b, x, w, bias, group, win, resultType, im2col, false);
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
  MlirValue acc = kilnConvInit(b, bias, resultType, 1, &channelDim);
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
  if (!kilnTypeIsStaticTensor(mlirValueGetType(x)) ||
      !kilnTypeIsStaticTensor(mlirValueGetType(w)) ||
      !kilnTypeIsStaticTensor(resultType))
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
    MlirValue y = kilnIm2colConvLast(b, padded, w, bias, &win, resultType,
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
  MlirValue y = convCore(b, padded, wf, bias, group, &win, firstType,
                         l->convIm2col, l->convChannelsInner);
  l->results[0] = kilnTensorTranspose(b, y, py);
  return KILN_LOWER_OK;
}

/* The static conv of x (the op's input, or kilnLowerPerSample's batch-1
 * slice of it) into `sampleType`. */
static MlirValue convSample(KilnLowerOp *l, KilnBuilder *b, MlirValue sample,
                            MlirType sampleType) {
  MlirValue w = kilnLowerOperand(l, 1);
  int64_t kernel[KILN_MAX_RANK];
  for (intptr_t i = 0; i + 2 < kilnRank(w); ++i)
    kernel[i] = kilnDim(w, i + 2);
  KilnWindow win;
  kilnWindowRead(l, sample, sampleType, kernel, &win);
  MlirValue zero = kilnConstFloat(b, kilnElementType(sample), 0);
  MlirValue padded = kilnWindowPadInput(b, sample, &win, zero);
  return convCore(b, padded, w, kilnLowerOperand(l, 2),
                  kilnInferAttrInt(&l->infer, "group", 1), &win, sampleType,
                  l->convIm2col, l->convChannelsInner);
}

static KilnLowerStatus lowerConv(KilnLowerOp *l) {
  if (kilnLowerIsDynamic(l)) {
    if (isChannelsLast(l))
      return kilnLowerUnsupported(l, "channels-last with a dynamic shape");
    return kilnLowerOnlyBatchDynamic(l) ? kilnLowerPerSample(l, convSample)
                                        : kilnLowerConvDynamic(l);
  }
  if (isChannelsLast(l))
    return lowerConvLast(l);
  l->results[0] =
      convSample(l, &l->b, kilnLowerOperand(l, 0), kilnLowerResultType(l, 0));
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
      kilnGeneric(b, 1, &w, 1, &init, maps, nLoops, iters, kilnCopyBody, NULL),
      0);
  int64_t out[KILN_MAX_RANK] = {group * fg, cg};
  for (intptr_t i = 0; i < n; ++i)
    out[2 + i] = shape[3 + i];
  return kilnReshape(b, t, kilnTensorType(n + 2, out, e));
}

/* conv_transpose as a conv: x is spread out by the strides (insert_slice
 * with strides into zeros) with (K-1)*dilation zeros around, and the
 * window of the output cut out; then a stride-1 conv with the flipped,
 * transposed kernel. */
static MlirValue convTransposeSample(KilnLowerOp *l, KilnBuilder *b,
                                     MlirValue x, MlirType resultType) {
  MlirValue w = kilnLowerOperand(l, 1);
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
  int64_t ones[KILN_MAX_RANK], pbs[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    ones[i] = 1;
  int64_t group = kilnInferAttrInt(&l->infer, "group", 1);
  MlirType e = kilnElementType(x);
  for (intptr_t i = 0; i < n; ++i)
    pbs[i] = transposePadBegin(&win, i, outPad[i], derived, autoPad);
  if (l->convIm2col == 1 && kilnTypeIsFloat(e) &&
      kilnTypeIsStaticTensor(mlirValueGetType(x)) &&
      kilnTypeIsStaticTensor(mlirValueGetType(w)) &&
      kilnTypeIsStaticTensor(resultType)) {
    MlirValue y = kilnConvTransposePhases(b, x, transposeWeight(b, w, group),
                                          kilnLowerOperand(l, 2), group, &win,
                                          pbs, resultType);
    if (!mlirValueIsNull(y))
      return y;
  }
  for (intptr_t i = 0; i < n; ++i) {
    int64_t pb = pbs[i];
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
  MlirValue buf =
      kilnFilled(b, kilnTensorType(r, bufShape, e), kilnConstFloat(b, e, 0));
  buf = kilnInsertSlice(b, x, buf, insOff, insStride);
  if (memcmp(cutSize, bufShape, r * sizeof(int64_t)))
    buf = kilnExtractSlice(b, buf, cutOff, cutSize, ones);
  MlirValue wt = transposeWeight(b, w, group);
  return convCore(b, buf, wt, kilnLowerOperand(l, 2), group, &win, resultType,
                  l->convIm2col, false);
}

static KilnLowerStatus lowerConvTranspose(KilnLowerOp *l) {
  if (kilnLowerIsDynamic(l))
    return kilnLowerOnlyBatchDynamic(l)
               ? kilnLowerPerSample(l, convTransposeSample)
               : kilnLowerConvTransposeDynamic(l);
  l->results[0] = convTransposeSample(l, &l->b, kilnLowerOperand(l, 0),
                                      kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

const KilnLowering kilnLowerConv[] = {
    {"conv", lowerConv, KILN_LOWER_DYNAMIC},
    {"conv_transpose", lowerConvTranspose, KILN_LOWER_DYNAMIC},
    {"max_pool", kilnLowerMaxPool, KILN_LOWER_DYNAMIC},
    {"average_pool", kilnLowerAveragePool, KILN_LOWER_DYNAMIC},
    {"global_average_pool", kilnLowerGlobalAveragePool, KILN_LOWER_DYNAMIC},
    {"global_max_pool", kilnLowerGlobalMaxPool, KILN_LOWER_DYNAMIC},
    {"max_unpool", kilnLowerMaxUnpool, 0},
};
const int kilnLowerConvCount = sizeof(kilnLowerConv) / sizeof(kilnLowerConv[0]);

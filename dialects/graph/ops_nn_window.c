/* Sliding-window inference of the NN family: conv, conv_transpose,
 * max_pool, average_pool, the global pools and max_unpool. The window
 * attributes (auto_pad, kernel_shape, strides, dilations, pads, ceil_mode)
 * and the output-size arithmetic over them are shared by all of them; the
 * table entries are in ops_nn.c. kilnNNConvShape (conv_shape.h) also serves
 * the Quant family's integer convs.
 *
 * The shape rules follow the ONNX operator docs of the latest opset and
 * ONNX's own shape inference; where ONNX leaves a case open, the choice is
 * noted beside the code and in docs/graph-dialect.md. */
#include "dialects/graph/ops_nn_window.h"

#include <string.h>

#include "dialects/graph/conv_shape.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"

/* ---------------------------------------------------------------------- */
/* Integer-list attributes                                                 */
/* ---------------------------------------------------------------------- */

/* Prints an integer list as "[1, 2, 3]" into `buf` (cleared first). */
static const char *intsStr(KilnStrBuf *buf, const int64_t *v, intptr_t n) {
  kilnStrBufClear(buf);
  kilnStrBufAppend(buf, "[", 1);
  for (intptr_t i = 0; i < n; ++i)
    kilnStrBufAppendf(buf, "%s%ld", i ? ", " : "", (long)v[i]);
  kilnStrBufAppend(buf, "]", 1);
  return kilnStrBufGet(buf);
}

/* Reads i64-array attribute `name` into out[0..n), or fills it with `dflt`
 * when absent. Fails unless it has exactly n values, each >= minValue. */
static MlirLogicalResult readInts(const KilnInferContext *c, const char *name,
                                  intptr_t n, int64_t minValue, int64_t dflt,
                                  int64_t *out, bool *present) {
  int64_t v[2 * KILN_MAX_RANK];
  intptr_t len = kilnInferAttrInts(c, name, v, 2 * KILN_MAX_RANK);
  if (present)
    *present = len >= 0;
  if (len < 0) {
    for (intptr_t i = 0; i < n; ++i)
      out[i] = dflt;
    return ok();
  }
  if (len != n)
    return kilnInferError(c, "attribute '%s' must have %ld values, got %ld",
                          name, (long)n, (long)len);
  for (intptr_t i = 0; i < n; ++i) {
    if (v[i] >= minValue)
      continue;
    KilnStrBuf buf = {0};
    kilnInferError(c, "attribute '%s' must be %s, got %s", name,
                   minValue > 0 ? "positive" : "non-negative",
                   intsStr(&buf, v, n));
    kilnStrBufDestroy(&buf);
    return mlirLogicalResultFailure();
  }
  memcpy(out, v, (size_t)n * sizeof(*v));
  return ok();
}

/* ---------------------------------------------------------------------- */
/* Sliding windows: conv, conv_transpose, max_pool, average_pool           */
/* ---------------------------------------------------------------------- */

enum { PAD_NOTSET, PAD_SAME_UPPER, PAD_SAME_LOWER, PAD_VALID };
static const char *const kAutoPad[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER",
                                       "VALID", NULL};

typedef struct Window {
  intptr_t n; /* spatial rank */
  int autoPad;
  bool ceilMode;
  int64_t kernel[KILN_MAX_RANK]; /* dynamic when taken from a dynamic dim */
  int64_t strides[KILN_MAX_RANK];
  int64_t dilations[KILN_MAX_RANK];
  int64_t pads[2 * KILN_MAX_RANK]; /* all begins, then all ends (ONNX) */
} Window;

/* Reads the window attributes for n spatial dims. `weight` is the conv
 * weight (operand wi) whose dims 2.. give the kernel when kernel_shape is
 * absent, or a null type for pools (where kernel_shape is required). */
static MlirLogicalResult readWindow(const KilnInferContext *c, intptr_t n,
                                    intptr_t wi, MlirType weight, Window *w) {
  bool hasKernel, hasPads;
  w->n = n;
  if (failed(
          kilnNNReadChoice(c, "auto_pad", "NOTSET", kAutoPad, &w->autoPad)) ||
      failed(kilnNNReadFlag(c, "ceil_mode", &w->ceilMode)) ||
      failed(readInts(c, "kernel_shape", n, 1, 0, w->kernel, &hasKernel)) ||
      failed(readInts(c, "strides", n, 1, 1, w->strides, NULL)) ||
      failed(readInts(c, "dilations", n, 1, 1, w->dilations, NULL)) ||
      failed(readInts(c, "pads", 2 * n, 0, 0, w->pads, &hasPads)))
    return mlirLogicalResultFailure();
  if (mlirTypeIsNull(weight) && !hasKernel)
    return kilnInferError(c, "requires attribute 'kernel_shape'");
  for (intptr_t i = 0; !mlirTypeIsNull(weight) && i < n; ++i) {
    int64_t wd = dim(weight, i + 2);
    if (!hasKernel) {
      w->kernel[i] = wd;
    } else if (known(wd) && wd != w->kernel[i]) {
      KilnStrBuf a = {0}, b = {0};
      kilnInferError(c,
                     "attribute 'kernel_shape' %s does not match the "
                     "spatial dimensions of operand '%s' (%s)",
                     intsStr(&a, w->kernel, n), c->op->operands[wi].name,
                     kilnNNTypeStr(&b, weight));
      kilnStrBufDestroy(&a);
      kilnStrBufDestroy(&b);
      return mlirLogicalResultFailure();
    }
  }
  /* ONNX computes pads itself for SAME_* and VALID; explicit non-zero pads
   * alongside would be silently ignored by some runtimes and honoured by
   * others, so Kiln rejects the combination. */
  for (intptr_t i = 0; hasPads && w->autoPad != PAD_NOTSET && i < 2 * n; ++i)
    if (w->pads[i] != 0) {
      KilnStrBuf buf = {0};
      kilnInferError(c,
                     "attribute 'pads' %s cannot be combined with "
                     "auto_pad \"%s\"",
                     intsStr(&buf, w->pads, 2 * n), kAutoPad[w->autoPad]);
      kilnStrBufDestroy(&buf);
      return mlirLogicalResultFailure();
    }
  if (w->autoPad != PAD_NOTSET)
    memset(w->pads, 0, sizeof(w->pads));
  return ok();
}

/* Attribute values are user input: arithmetic on them is checked so that
 * overflow becomes a diagnostic rather than undefined behaviour. */
static MlirLogicalResult overflowError(const KilnInferContext *c, intptr_t i) {
  return kilnInferError(c,
                        "spatial dimension %ld: sizes computed from the "
                        "attributes overflow 64 bits",
                        (long)i);
}

/* (kernel - 1) * dilation + 1, or false on overflow. */
static bool dilatedKernel(const Window *w, intptr_t i, int64_t *k) {
  return !__builtin_mul_overflow(w->kernel[i] - 1, w->dilations[i], k) &&
         !__builtin_add_overflow(*k, 1, k);
}

/* Output size of spatial dim i of a conv/pool over an input of size `in`:
 * SAME_*: ceil(in / stride); otherwise
 * floor((in + pads - dilated kernel) / stride) + 1 (VALID: pads 0). With
 * ceil_mode and explicit pads (NOTSET) the division rounds up, but a last
 * window starting inside the end padding is dropped (ONNX's MaxPool and
 * AveragePool docs, as PyTorch). Unknown sizes stay dynamic. */
static MlirLogicalResult windowOutDim(const KilnInferContext *c,
                                      const Window *w, intptr_t i, int64_t in,
                                      int64_t *out) {
  int64_t s = w->strides[i];
  *out = dyn();
  if (!known(in))
    return ok();
  if (w->autoPad == PAD_SAME_UPPER || w->autoPad == PAD_SAME_LOWER) {
    *out = in / s + (in % s != 0);
    return ok();
  }
  if (!known(w->kernel[i]))
    return ok();
  int64_t k, padded, padBegin = w->pads[i], start;
  if (!dilatedKernel(w, i, &k) ||
      __builtin_add_overflow(in, padBegin, &padded) ||
      __builtin_add_overflow(padded, w->pads[i + w->n], &padded))
    return overflowError(c, i);
  if (padded < k)
    return kilnInferError(c,
                          "spatial dimension %ld: input size %ld plus padding "
                          "%ld is smaller than the dilated kernel size %ld",
                          (long)i, (long)in, (long)(padded - in), (long)k);
  int64_t span = padded - k;
  *out = span / s + 1;
  /* The ONNX pooling docs give VALID the same size in both modes. */
  if (w->ceilMode && w->autoPad == PAD_NOTSET && span % s != 0) {
    /* The extra window starts at (out - 1) * stride = span / s * s + s. */
    if (__builtin_mul_overflow(*out, s, &start) || start < in + padBegin)
      ++*out;
  }
  return ok();
}

/* Output size of spatial dim i of a transposed conv (ONNX ConvTranspose):
 * SAME_*: in * stride; otherwise
 * stride * (in - 1) + output_padding + dilated kernel - pads. */
static MlirLogicalResult transposeOutDim(const KilnInferContext *c,
                                         const Window *w, intptr_t i,
                                         int64_t in, int64_t outputPadding,
                                         int64_t *out) {
  int64_t s = w->strides[i];
  *out = dyn();
  if (!known(in))
    return ok();
  int64_t k, pads, o;
  if (w->autoPad == PAD_SAME_UPPER || w->autoPad == PAD_SAME_LOWER) {
    if (__builtin_mul_overflow(in, s, out))
      return overflowError(c, i);
    return ok();
  }
  if (!known(w->kernel[i]))
    return ok();
  if (!dilatedKernel(w, i, &k) ||
      __builtin_add_overflow(w->pads[i], w->pads[i + w->n], &pads) ||
      __builtin_mul_overflow(s, in - 1, &o) ||
      __builtin_add_overflow(o, outputPadding, &o) ||
      __builtin_add_overflow(o, k, &o))
    return overflowError(c, i);
  o -= pads; /* both non-negative: cannot overflow */
  if (o < 1)
    return kilnInferError(c,
                          "spatial dimension %ld: output size %ld is not "
                          "positive (input %ld, stride %ld, dilated kernel "
                          "%ld, pads %ld)",
                          (long)i, (long)o, (long)in, (long)s, (long)k,
                          (long)pads);
  *out = o;
  return ok();
}

/* Checks the optional bias operand i: 1-D, n elements, x's element type. */
static MlirLogicalResult checkBias(const KilnInferContext *c, intptr_t i,
                                   MlirType x, int64_t n) {
  if (mlirValueIsNull(kilnInferOperand(c, i)))
    return ok();
  MlirType b = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(b) || failed(kilnNNRequireSameElement(c, 0, x, i, b)))
    return mlirLogicalResultFailure();
  return kilnNNRequireVector(c, i, b, n, "one value per output channel");
}

/* The operand checks conv and conv_transpose share before their shapes:
 * x and w ranked and float, with the same element type. */
static MlirLogicalResult convOperands(const KilnInferContext *c, MlirType *x,
                                      MlirType *w) {
  *x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(*x))
    return mlirLogicalResultFailure();
  *w = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(*w) || failed(kilnNNRequireFloat(c, 0, *x)) ||
      failed(kilnNNRequireSameElement(c, 0, *x, 1, *w)))
    return mlirLogicalResultFailure();
  return ok();
}

/* The shape checks every conv shares: x (operand xi) and w (operand wi) of
 * one rank with 1 to 3 spatial dims, group >= 1. */
static MlirLogicalResult convRanks(const KilnInferContext *c, intptr_t xi,
                                   MlirType x, intptr_t wi, MlirType w,
                                   int64_t *group) {
  const char *xn = c->op->operands[xi].name, *wn = c->op->operands[wi].name;
  intptr_t r = rankOf(x);
  if (r < 3 || r > 5)
    return kilnInferError(c,
                          "operand '%s' must have rank 3, 4 or 5 (N x C x D1 "
                          "... Dn with 1 to 3 spatial dimensions), got rank "
                          "%ld",
                          xn, (long)r);
  if (rankOf(w) != r)
    return kilnInferError(c,
                          "operand '%s' must have the rank of '%s' (%ld), "
                          "got rank %ld",
                          wn, xn, (long)r, (long)rankOf(w));
  *group = kilnInferAttrInt(c, "group", 1);
  if (*group < 1)
    return kilnInferError(c, "attribute 'group' must be positive, got %ld",
                          (long)*group);
  return ok();
}

MlirLogicalResult kilnNNConvShape(const KilnInferContext *c, intptr_t xi,
                                  MlirType x, intptr_t wi, MlirType w,
                                  int64_t *shape) {
  const char *xn = c->op->operands[xi].name, *wn = c->op->operands[wi].name;
  int64_t group;
  if (failed(convRanks(c, xi, x, wi, w, &group)))
    return mlirLogicalResultFailure();
  /* W is M x C/group x k1 ... kn. */
  int64_t channels = dim(x, 1), m = dim(w, 0), perGroup = dim(w, 1);
  if (known(channels) && known(perGroup) &&
      (channels % group != 0 || channels / group != perGroup))
    return kilnInferError(c,
                          "operand '%s' has %ld channels but '%s' expects "
                          "%ld per group (%s dimension 1) times group %ld",
                          xn, (long)channels, wn, (long)perGroup, wn,
                          (long)group);
  if (known(m) && m % group != 0)
    return kilnInferError(c,
                          "output channels (%s dimension 0) %ld are not "
                          "divisible by group %ld",
                          wn, (long)m, (long)group);
  intptr_t r = rankOf(x);
  Window win;
  if (failed(readWindow(c, r - 2, wi, w, &win)))
    return mlirLogicalResultFailure();
  shape[0] = dim(x, 0);
  shape[1] = m;
  for (intptr_t i = 0; i < r - 2; ++i)
    if (failed(windowOutDim(c, &win, i, dim(x, i + 2), &shape[i + 2])))
      return mlirLogicalResultFailure();
  return ok();
}

static const char *const kConvLayouts[] = {"channels_first", "channels_last",
                                           NULL};

/* `t` (rank r) with its dims permuted: result dim i is t's dim perm[i]. */
static MlirType permutedType(MlirType t, const int64_t *perm) {
  int64_t shape[KILN_MAX_RANK];
  intptr_t r = rankOf(t);
  for (intptr_t i = 0; i < r; ++i)
    shape[i] = dim(t, perm[i]);
  return kilnInferTensorType(r, shape, elt(t));
}

/* The channels-last conv is checked as the channels-first conv it permutes
 * (x N x D.. x C as N x C x D.., w k.. x C/g x M as M x C/g x k..), so both
 * layouts follow one set of rules; its result is N x O.. x M. Dims named
 * in messages are those of the channels-first view. */
static MlirLogicalResult channelsLastShape(const KilnInferContext *c,
                                           MlirType x, MlirType w,
                                           int64_t *shape) {
  intptr_t r = rankOf(x);
  if (r < 3 || r > 5 || rankOf(w) != r)
    return kilnNNConvShape(c, 0, x, 1, w, shape); /* reports the ranks */
  int64_t px[KILN_MAX_RANK] = {0, r - 1}, pw[KILN_MAX_RANK] = {r - 1, r - 2};
  for (intptr_t i = 0; i + 2 < r; ++i) {
    px[2 + i] = 1 + i;
    pw[2 + i] = i;
  }
  int64_t first[KILN_MAX_RANK];
  if (failed(kilnNNConvShape(c, 0, permutedType(x, px), 1, permutedType(w, pw),
                             first)))
    return mlirLogicalResultFailure();
  shape[0] = first[0];
  shape[r - 1] = first[1];
  for (intptr_t i = 0; i + 2 < r; ++i)
    shape[1 + i] = first[2 + i];
  return ok();
}

MlirLogicalResult kilnNNInferConv(KilnInferContext *c) {
  MlirType x, w;
  int64_t shape[KILN_MAX_RANK];
  int layout;
  /* The bias is checked last: its length is the output channel count, which
   * is only meaningful once w's rank is known to be right. */
  if (failed(kilnNNCheckResults(c, 1, 1)) || failed(convOperands(c, &x, &w)) ||
      failed(kilnNNReadChoice(c, "layout", "channels_first", kConvLayouts,
                              &layout)))
    return mlirLogicalResultFailure();
  bool last = layout == 1;
  if (failed(last ? channelsLastShape(c, x, w, shape)
                  : kilnNNConvShape(c, 0, x, 1, w, shape)) ||
      failed(checkBias(c, 2, x, shape[last ? rankOf(x) - 1 : 1])))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = kilnInferTensorType(rankOf(x), shape, elt(x));
  return ok();
}

/* Reads conv_transpose's output_padding (each below its stride or its
 * dilation, as the ONNX docs ask) and output_shape (spatial sizes). */
static MlirLogicalResult readTransposeAttrs(const KilnInferContext *c,
                                            const Window *w, int64_t *padding,
                                            int64_t *outShape, bool *hasOut) {
  if (failed(readInts(c, "output_padding", w->n, 0, 0, padding, NULL)) ||
      failed(readInts(c, "output_shape", w->n, 1, 0, outShape, hasOut)))
    return mlirLogicalResultFailure();
  for (intptr_t i = 0; i < w->n; ++i)
    if (padding[i] >= w->strides[i] && padding[i] >= w->dilations[i]) {
      KilnStrBuf buf = {0};
      kilnInferError(c,
                     "attribute 'output_padding' %s must be smaller than "
                     "the stride or the dilation in each dimension "
                     "(dimension %ld: stride %ld, dilation %ld)",
                     intsStr(&buf, padding, w->n), (long)i, (long)w->strides[i],
                     (long)w->dilations[i]);
      kilnStrBufDestroy(&buf);
      return mlirLogicalResultFailure();
    }
  return ok();
}

MlirLogicalResult kilnNNInferConvTranspose(KilnInferContext *c) {
  MlirType x, w;
  int64_t group;
  Window win;
  if (failed(kilnNNCheckResults(c, 1, 1)) || failed(convOperands(c, &x, &w)) ||
      failed(convRanks(c, 0, x, 1, w, &group)))
    return mlirLogicalResultFailure();
  /* W is C x M/group x k1 ... kn. */
  int64_t channels = dim(x, 1), wc = dim(w, 0), perGroup = dim(w, 1);
  if (known(channels) && known(wc) && channels != wc)
    return kilnInferError(c,
                          "operand 'x' has %ld channels but 'w' expects %ld "
                          "(w dimension 0)",
                          (long)channels, (long)wc);
  if (known(channels) && channels % group != 0)
    return kilnInferError(c,
                          "input channels (x dimension 1) %ld are not "
                          "divisible by group %ld",
                          (long)channels, (long)group);
  int64_t m = dyn();
  if (known(perGroup) && __builtin_mul_overflow(perGroup, group, &m))
    return kilnInferError(c,
                          "output channels (w dimension 1 = %ld times group "
                          "%ld) overflow 64 bits",
                          (long)perGroup, (long)group);
  intptr_t r = rankOf(x), n = r - 2;
  int64_t padding[KILN_MAX_RANK], outShape[KILN_MAX_RANK];
  bool hasOut;
  if (failed(checkBias(c, 2, x, m)) || failed(readWindow(c, n, 1, w, &win)) ||
      failed(readTransposeAttrs(c, &win, padding, outShape, &hasOut)))
    return mlirLogicalResultFailure();
  int64_t shape[KILN_MAX_RANK] = {dim(x, 0), m};
  for (intptr_t i = 0; i < n; ++i) {
    /* ONNX: an explicit output_shape wins; pads are then derived from it. */
    if (hasOut)
      shape[i + 2] = outShape[i];
    else if (failed(transposeOutDim(c, &win, i, dim(x, i + 2), padding[i],
                                    &shape[i + 2])))
      return mlirLogicalResultFailure();
  }
  c->resultTypes[0] = kilnInferTensorType(r, shape, elt(x));
  return ok();
}

/* max_pool (isMax) and average_pool. */
static MlirLogicalResult inferPool(KilnInferContext *c, bool isMax) {
  if (failed(kilnNNCheckResults(c, 1, isMax ? 2 : 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(kilnNNRequireMinRank(c, 0, x, 3, "N x C x D1 ... Dn")))
    return mlirLogicalResultFailure();
  MlirType e = elt(x);
  /* ONNX MaxPool also takes int8/uint8. */
  bool byte = mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 8;
  if (!(isMax && byte) && failed(kilnNNRequireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  bool flag;
  if (failed(kilnNNReadFlag(c, isMax ? "storage_order" : "count_include_pad",
                            &flag)))
    return mlirLogicalResultFailure();
  Window win;
  intptr_t r = rankOf(x);
  if (failed(readWindow(c, r - 2, -1, (MlirType){NULL}, &win)))
    return mlirLogicalResultFailure();
  int64_t shape[KILN_MAX_RANK] = {dim(x, 0), dim(x, 1)};
  for (intptr_t i = 0; i < r - 2; ++i)
    if (failed(windowOutDim(c, &win, i, dim(x, i + 2), &shape[i + 2])))
      return mlirLogicalResultFailure();
  c->resultTypes[0] = kilnInferTensorType(r, shape, e);
  if (c->numResults > 1)
    c->resultTypes[1] =
        kilnInferTensorType(r, shape, mlirIntegerTypeGet(c->ctx, 64));
  return ok();
}

MlirLogicalResult kilnNNInferMaxPool(KilnInferContext *c) {
  return inferPool(c, true);
}

MlirLogicalResult kilnNNInferAveragePool(KilnInferContext *c) {
  return inferPool(c, false);
}

/* global_average_pool, global_max_pool: N x C x 1 ... 1. */
MlirLogicalResult kilnNNInferGlobalPool(KilnInferContext *c) {
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(kilnNNRequireMinRank(c, 0, x, 3, "N x C x D1 ... Dn")) ||
      failed(kilnNNRequireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  int64_t shape[KILN_MAX_RANK] = {dim(x, 0), dim(x, 1)};
  for (intptr_t i = 2; i < rankOf(x); ++i)
    shape[i] = 1;
  c->resultTypes[0] = kilnInferTensorType(rankOf(x), shape, elt(x));
  return ok();
}

/* ---------------------------------------------------------------------- */
/* max_unpool                                                              */
/* ---------------------------------------------------------------------- */

/* The size MaxUnpool restores for spatial dim i without output_shape:
 * (in - 1) * stride + kernel - pad_begin - pad_end, which must be
 * positive. */
static MlirLogicalResult unpoolOutDim(const KilnInferContext *c,
                                      const Window *w, intptr_t i, int64_t in,
                                      int64_t *out) {
  *out = dyn();
  if (!known(in))
    return ok();
  int64_t o;
  if (__builtin_mul_overflow(in - 1, w->strides[i], &o) ||
      __builtin_add_overflow(o, w->kernel[i], &o) ||
      __builtin_sub_overflow(o, w->pads[i], &o) ||
      __builtin_sub_overflow(o, w->pads[i + w->n], &o))
    return overflowError(c, i);
  if (o < 1)
    return kilnInferError(c,
                          "spatial dimension %ld: output size %ld is not "
                          "positive (input %ld, stride %ld, kernel %ld, pads "
                          "%ld + %ld)",
                          (long)i, (long)o, (long)in, (long)w->strides[i],
                          (long)w->kernel[i], (long)w->pads[i],
                          (long)w->pads[i + w->n]);
  *out = o;
  return ok();
}

/* A constant output_shape replaces the computed sizes; like ONNX Runtime,
 * Kiln rejects one smaller than them (the indices could not all fit). A
 * non-constant one leaves every dim unknown. */
static MlirLogicalResult unpoolOutputShape(const KilnInferContext *c,
                                           intptr_t r, int64_t *shape) {
  MlirType t = kilnInferRankedOperand(c, 2);
  if (mlirTypeIsNull(t) || failed(kilnNNRequireInt(c, 2, t, 64)) ||
      failed(kilnNNRequireVector(c, 2, t, r, "one size per dimension of x")))
    return mlirLogicalResultFailure();
  int64_t v[KILN_MAX_RANK];
  if (kilnInferConstantInts(c, 2, v, KILN_MAX_RANK) != r) {
    for (intptr_t k = 0; k < r; ++k)
      shape[k] = dyn();
    return ok();
  }
  for (intptr_t k = 0; k < r; ++k) {
    if (v[k] < 0)
      return kilnInferError(c,
                            "operand 'output_shape' value %ld for dimension "
                            "%ld is negative",
                            (long)v[k], (long)k);
    if (known(shape[k]) && v[k] < shape[k])
      return kilnInferError(c,
                            "operand 'output_shape' value %ld for dimension "
                            "%ld is smaller than the unpooled size %ld",
                            (long)v[k], (long)k, (long)shape[k]);
    shape[k] = v[k];
  }
  return ok();
}

/* max_unpool: x (float) and i (i64, x's shape) are N x C x D1 ... Dn; y is
 * N x C x O1 ... On. */
MlirLogicalResult kilnNNInferMaxUnpool(KilnInferContext *c) {
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(kilnNNRequireMinRank(c, 0, x, 3, "N x C x D1 ... Dn")) ||
      failed(kilnNNRequireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  MlirType idx = kilnInferRankedOperand(c, 1);
  intptr_t r = rankOf(x), n = r - 2;
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t k = 0; k < r; ++k)
    shape[k] = dim(x, k);
  if (mlirTypeIsNull(idx) || failed(kilnNNRequireInt(c, 1, idx, 64)) ||
      failed(kilnNNRequireShape(c, 1, idx, r, shape, "the shape of 'x'")))
    return mlirLogicalResultFailure();
  Window w = {.n = n};
  bool hasKernel;
  if (failed(readInts(c, "kernel_shape", n, 1, 0, w.kernel, &hasKernel)) ||
      failed(readInts(c, "strides", n, 1, 1, w.strides, NULL)) ||
      failed(readInts(c, "pads", 2 * n, 0, 0, w.pads, NULL)))
    return mlirLogicalResultFailure();
  if (!hasKernel)
    return kilnInferError(c, "requires attribute 'kernel_shape'");
  for (intptr_t i = 0; i < n; ++i)
    if (failed(unpoolOutDim(c, &w, i, dim(x, i + 2), &shape[i + 2])))
      return mlirLogicalResultFailure();
  if (!mlirValueIsNull(kilnInferOperand(c, 2)) &&
      failed(unpoolOutputShape(c, r, shape)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = kilnInferTensorType(r, shape, elt(x));
  return ok();
}

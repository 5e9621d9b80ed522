/* Conv window arithmetic for the Quant family's integer convolutions
 * (conv_integer, qlinear_conv): the output shape of an ONNX Conv.
 *
 * graph.conv's inference (ops_nn_window.c) does the same arithmetic but
 * exports only its whole inference function, which requires float operands
 * at fixed positions; its window helpers are static. Until the NN family
 * exports a shape-only entry point, this file repeats the rules (same
 * attributes, same checks, same messages) for operands at any position. */
#include <string.h>

#include "dialects/common/diag.h"
#include "dialects/graph/ops_quant.h"
#include "mlir-c/BuiltinTypes.h"

static bool known(int64_t d) { return !mlirShapedTypeIsDynamicSize(d); }

static const char *intsStr(KilnStrBuf *buf, const int64_t *v, intptr_t n) {
  kilnStrBufClear(buf);
  kilnStrBufAppend(buf, "[", 1);
  for (intptr_t i = 0; i < n; ++i)
    kilnStrBufAppendf(buf, "%s%ld", i ? ", " : "", (long)v[i]);
  kilnStrBufAppend(buf, "]", 1);
  return kilnStrBufGet(buf);
}

/* Reads i64-array attribute `name` into out[0..n), or `dflt` everywhere
 * when absent. Fails unless it has n values, each >= minValue. */
static MlirLogicalResult readInts(const KilnInferContext *c, const char *name,
                                  intptr_t n, int64_t minValue, int64_t dflt,
                                  int64_t *out, bool *present) {
  int64_t v[2 * KILN_MAX_RANK];
  intptr_t len = kilnInferAttrInts(c, name, v, 2 * KILN_MAX_RANK);
  *present = len >= 0;
  for (intptr_t i = 0; len < 0 && i < n; ++i)
    out[i] = dflt;
  if (len < 0)
    return mlirLogicalResultSuccess();
  if (len != n)
    return kilnInferError(c, "attribute '%s' must have %ld values, got %ld",
                          name, (long)n, (long)len);
  for (intptr_t i = 0; i < n; ++i)
    if (v[i] < minValue) {
      KilnStrBuf buf = {0};
      kilnInferError(c, "attribute '%s' must be %s, got %s", name,
                     minValue > 0 ? "positive" : "non-negative",
                     intsStr(&buf, v, n));
      kilnStrBufDestroy(&buf);
      return mlirLogicalResultFailure();
    }
  memcpy(out, v, (size_t)n * sizeof(*v));
  return mlirLogicalResultSuccess();
}

enum { PAD_NOTSET, PAD_SAME_UPPER, PAD_SAME_LOWER, PAD_VALID };
static const char *const kAutoPad[] = {"NOTSET", "SAME_UPPER", "SAME_LOWER",
                                       "VALID"};

typedef struct Window {
  intptr_t n; /* spatial rank */
  int autoPad;
  int64_t kernel[KILN_MAX_RANK];
  int64_t strides[KILN_MAX_RANK];
  int64_t dilations[KILN_MAX_RANK];
  int64_t pads[2 * KILN_MAX_RANK]; /* all begins, then all ends */
} Window;

static MlirLogicalResult readAutoPad(const KilnInferContext *c, int *out) {
  MlirStringRef v = kilnInferAttrString(c, "auto_pad", "NOTSET");
  for (int i = 0; i < 4; ++i)
    if (kilnStringRefEquals(v, kAutoPad[i])) {
      *out = i;
      return mlirLogicalResultSuccess();
    }
  return kilnInferError(c,
                        "attribute 'auto_pad' must be one of NOTSET, "
                        "SAME_UPPER, SAME_LOWER, VALID, got \"%.*s\"",
                        (int)v.length, v.data);
}

/* Reads the window attributes; the kernel defaults to w's spatial dims
 * (operand wi) and must equal them when given. */
static MlirLogicalResult readWindow(const KilnInferContext *c, intptr_t wi,
                                    MlirType w, Window *win) {
  bool hasKernel, hasPads, unused;
  intptr_t n = win->n;
  if (mlirLogicalResultIsFailure(readAutoPad(c, &win->autoPad)) ||
      mlirLogicalResultIsFailure(
          readInts(c, "kernel_shape", n, 1, 0, win->kernel, &hasKernel)) ||
      mlirLogicalResultIsFailure(
          readInts(c, "strides", n, 1, 1, win->strides, &unused)) ||
      mlirLogicalResultIsFailure(
          readInts(c, "dilations", n, 1, 1, win->dilations, &unused)) ||
      mlirLogicalResultIsFailure(
          readInts(c, "pads", 2 * n, 0, 0, win->pads, &hasPads)))
    return mlirLogicalResultFailure();
  for (intptr_t i = 0; i < n; ++i) {
    int64_t wd = mlirShapedTypeGetDimSize(w, i + 2);
    if (!hasKernel) {
      win->kernel[i] = wd;
    } else if (known(wd) && wd != win->kernel[i]) {
      KilnStrBuf a = {0}, b = {0};
      kilnStrBufAppendType(&b, w);
      kilnInferError(c,
                     "attribute 'kernel_shape' %s does not match the "
                     "spatial dimensions of operand '%s' (%s)",
                     intsStr(&a, win->kernel, n), c->op->operands[wi].name,
                     kilnStrBufGet(&b));
      kilnStrBufDestroy(&a);
      kilnStrBufDestroy(&b);
      return mlirLogicalResultFailure();
    }
  }
  /* As graph.conv: runtimes disagree on whether explicit pads or auto_pad
   * wins, so the combination is rejected. */
  for (intptr_t i = 0; hasPads && win->autoPad != PAD_NOTSET && i < 2 * n; ++i)
    if (win->pads[i] != 0) {
      KilnStrBuf buf = {0};
      kilnInferError(c,
                     "attribute 'pads' %s cannot be combined with auto_pad "
                     "\"%s\"",
                     intsStr(&buf, win->pads, 2 * n), kAutoPad[win->autoPad]);
      kilnStrBufDestroy(&buf);
      return mlirLogicalResultFailure();
    }
  if (win->autoPad != PAD_NOTSET)
    memset(win->pads, 0, sizeof(win->pads));
  return mlirLogicalResultSuccess();
}

/* SAME_*: ceil(in / stride); otherwise
 * floor((in + pads - dilated kernel) / stride) + 1. Attribute values are
 * user input, so overflow is a diagnostic. */
static MlirLogicalResult outDim(const KilnInferContext *c, const Window *w,
                                intptr_t i, int64_t in, int64_t *out) {
  int64_t s = w->strides[i], k, padded;
  *out = mlirShapedTypeGetDynamicSize();
  if (!known(in))
    return mlirLogicalResultSuccess();
  if (w->autoPad == PAD_SAME_UPPER || w->autoPad == PAD_SAME_LOWER) {
    *out = in / s + (in % s != 0);
    return mlirLogicalResultSuccess();
  }
  if (!known(w->kernel[i]))
    return mlirLogicalResultSuccess();
  if (__builtin_mul_overflow(w->kernel[i] - 1, w->dilations[i], &k) ||
      __builtin_add_overflow(k, 1, &k) ||
      __builtin_add_overflow(in, w->pads[i], &padded) ||
      __builtin_add_overflow(padded, w->pads[i + w->n], &padded))
    return kilnInferError(c,
                          "spatial dimension %ld: sizes computed from the "
                          "attributes overflow 64 bits",
                          (long)i);
  if (padded < k)
    return kilnInferError(c,
                          "spatial dimension %ld: input size %ld plus padding "
                          "%ld is smaller than the dilated kernel size %ld",
                          (long)i, (long)in, (long)(padded - in), (long)k);
  *out = (padded - k) / s + 1;
  return mlirLogicalResultSuccess();
}

/* x and w ranks, the group attribute and the channel counts. */
static MlirLogicalResult checkChannels(const KilnInferContext *c, intptr_t xi,
                                       MlirType x, intptr_t wi, MlirType w) {
  const char *xn = c->op->operands[xi].name, *wn = c->op->operands[wi].name;
  intptr_t r = mlirShapedTypeGetRank(x);
  if (r < 3 || r > 5)
    return kilnInferError(c,
                          "operand '%s' must have rank 3, 4 or 5 (N x C x D1 "
                          "... Dn with 1 to 3 spatial dimensions), got rank "
                          "%ld",
                          xn, (long)r);
  if (mlirShapedTypeGetRank(w) != r)
    return kilnInferError(c,
                          "operand '%s' must have the rank of '%s' (%ld), got "
                          "rank %ld",
                          wn, xn, (long)r, (long)mlirShapedTypeGetRank(w));
  int64_t group = kilnInferAttrInt(c, "group", 1);
  if (group < 1)
    return kilnInferError(c, "attribute 'group' must be positive, got %ld",
                          (long)group);
  int64_t channels = mlirShapedTypeGetDimSize(x, 1);
  int64_t m = mlirShapedTypeGetDimSize(w, 0);
  int64_t perGroup = mlirShapedTypeGetDimSize(w, 1);
  if (known(channels) && known(perGroup) &&
      (channels % group != 0 || channels / group != perGroup))
    return kilnInferError(c,
                          "operand '%s' has %ld channels but '%s' expects %ld "
                          "per group (dimension 1) times group %ld",
                          xn, (long)channels, wn, (long)perGroup, (long)group);
  if (known(m) && m % group != 0)
    return kilnInferError(c,
                          "output channels ('%s' dimension 0) %ld are not "
                          "divisible by group %ld",
                          wn, (long)m, (long)group);
  return mlirLogicalResultSuccess();
}

MlirLogicalResult kilnQuantConvShape(const KilnInferContext *c, intptr_t xi,
                                     MlirType x, intptr_t wi, MlirType w,
                                     int64_t *shape) {
  if (mlirLogicalResultIsFailure(checkChannels(c, xi, x, wi, w)))
    return mlirLogicalResultFailure();
  intptr_t r = mlirShapedTypeGetRank(x);
  Window win = {.n = r - 2};
  if (mlirLogicalResultIsFailure(readWindow(c, wi, w, &win)))
    return mlirLogicalResultFailure();
  shape[0] = mlirShapedTypeGetDimSize(x, 0);
  shape[1] = mlirShapedTypeGetDimSize(w, 0);
  for (intptr_t i = 0; i < win.n; ++i)
    if (mlirLogicalResultIsFailure(outDim(
            c, &win, i, mlirShapedTypeGetDimSize(x, i + 2), &shape[i + 2])))
      return mlirLogicalResultFailure();
  return mlirLogicalResultSuccess();
}

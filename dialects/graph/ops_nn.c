/* Graph ops of the NN family (convolution, pooling, normalization, resize):
 * table entries and ONNX type inference.
 *
 * The shape rules follow the ONNX operator docs of the latest opset and
 * ONNX's own shape inference; where ONNX leaves a case open, the choice is
 * noted beside the code and in docs/graph-dialect.md. */
#include <math.h>
#include <string.h>

#include "dialects/common/diag.h"
#include "dialects/graph/infer.h"
#include "dialects/graph/op_table.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ---------------------------------------------------------------------- */
/* Small helpers                                                           */
/* ---------------------------------------------------------------------- */

static MlirLogicalResult ok(void) { return mlirLogicalResultSuccess(); }
static bool failed(MlirLogicalResult r) {
  return mlirLogicalResultIsFailure(r);
}
static int64_t dyn(void) { return mlirShapedTypeGetDynamicSize(); }
static bool known(int64_t d) { return !mlirShapedTypeIsDynamicSize(d); }
static MlirType elt(MlirType t) { return mlirShapedTypeGetElementType(t); }
static int64_t dim(MlirType t, intptr_t i) {
  return mlirShapedTypeGetDimSize(t, i);
}
static intptr_t rankOf(MlirType t) { return mlirShapedTypeGetRank(t); }

static const char *operandName(const KilnInferContext *c, intptr_t i) {
  return c->op->operands[i].name;
}

static bool isFloat(MlirType t) {
  return mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) ||
         mlirTypeIsAF64(t);
}

/* Prints `t` into `buf` (cleared first) and returns the text. */
static const char *typeStr(KilnStrBuf *buf, MlirType t) {
  kilnStrBufClear(buf);
  kilnStrBufAppendType(buf, t);
  return kilnStrBufGet(buf);
}

/* Prints an integer list as "[1, 2, 3]" into `buf` (cleared first). */
static const char *intsStr(KilnStrBuf *buf, const int64_t *v, intptr_t n) {
  kilnStrBufClear(buf);
  kilnStrBufAppend(buf, "[", 1);
  for (intptr_t i = 0; i < n; ++i)
    kilnStrBufAppendf(buf, "%s%ld", i ? ", " : "", (long)v[i]);
  kilnStrBufAppend(buf, "]", 1);
  return kilnStrBufGet(buf);
}

/* Every inference function starts here: the builder lets callers ask for
 * any result count, and filling fewer types than requested would leave null
 * types for mlirOperationCreate. */
static MlirLogicalResult checkResults(const KilnInferContext *c, intptr_t lo,
                                      intptr_t hi) {
  if (c->numResults >= lo && c->numResults <= hi)
    return ok();
  if (lo == hi)
    return kilnInferError(c, "expects %ld result(s), got %ld", (long)lo,
                          (long)c->numResults);
  return kilnInferError(c, "expects %ld to %ld results, got %ld", (long)lo,
                        (long)hi, (long)c->numResults);
}

static MlirLogicalResult requireFloat(const KilnInferContext *c, intptr_t i,
                                      MlirType t) {
  if (isFloat(elt(t)))
    return ok();
  KilnStrBuf buf = {0};
  kilnInferError(c,
                 "operand '%s' must have a floating-point element type "
                 "(f16, bf16, f32 or f64), got %s",
                 operandName(c, i), typeStr(&buf, elt(t)));
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult requireSameElement(const KilnInferContext *c,
                                            intptr_t i, MlirType ti, intptr_t j,
                                            MlirType tj) {
  if (mlirTypeEqual(elt(ti), elt(tj)))
    return ok();
  KilnStrBuf a = {0}, b = {0};
  kilnInferError(c,
                 "operands '%s' and '%s' must have the same element type, "
                 "got %s and %s",
                 operandName(c, i), operandName(c, j), typeStr(&a, elt(ti)),
                 typeStr(&b, elt(tj)));
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

/* Fails unless operand i has rank >= minRank. `form` describes the layout
 * expected, e.g. "N x C x D1 ... Dn". */
static MlirLogicalResult requireMinRank(const KilnInferContext *c, intptr_t i,
                                        MlirType t, intptr_t minRank,
                                        const char *form) {
  if (rankOf(t) >= minRank)
    return ok();
  return kilnInferError(c,
                        "operand '%s' must have rank >= %ld (%s), got rank "
                        "%ld",
                        operandName(c, i), (long)minRank, form,
                        (long)rankOf(t));
}

/* Fails unless operand i is 1-D with `n` elements; `n` or the operand's
 * length may be dynamic, in which case only the rank is checked. */
static MlirLogicalResult requireVector(const KilnInferContext *c, intptr_t i,
                                       MlirType t, int64_t n,
                                       const char *what) {
  if (rankOf(t) != 1)
    return kilnInferError(c, "operand '%s' must be 1-D (%s), got rank %ld",
                          operandName(c, i), what, (long)rankOf(t));
  if (known(n) && known(dim(t, 0)) && dim(t, 0) != n)
    return kilnInferError(c,
                          "operand '%s' must have %ld elements (%s), got "
                          "%ld",
                          operandName(c, i), (long)n, what, (long)dim(t, 0));
  return ok();
}

/* Reads string attribute `name` (default `dflt`) and stores its index in the
 * NULL-terminated `choices`, failing on any other value. */
static MlirLogicalResult readChoice(const KilnInferContext *c, const char *name,
                                    const char *dflt,
                                    const char *const *choices, int *out) {
  MlirStringRef v = kilnInferAttrString(c, name, dflt);
  for (int i = 0; choices[i]; ++i)
    if (kilnStringRefEquals(v, choices[i])) {
      *out = i;
      return ok();
    }
  KilnStrBuf list = {0};
  for (int i = 0; choices[i]; ++i)
    kilnStrBufAppendf(&list, "%s%s", i ? ", " : "", choices[i]);
  kilnInferError(c, "attribute '%s' must be one of %s, got \"%.*s\"", name,
                 kilnStrBufGet(&list), (int)v.length, v.data);
  kilnStrBufDestroy(&list);
  return mlirLogicalResultFailure();
}

/* Reads a 0/1 integer attribute (ONNX's booleans), default 0. */
static MlirLogicalResult readFlag(const KilnInferContext *c, const char *name,
                                  bool *out) {
  int64_t v = kilnInferAttrInt(c, name, 0);
  if (v != 0 && v != 1)
    return kilnInferError(c, "attribute '%s' must be 0 or 1, got %ld", name,
                          (long)v);
  *out = v == 1;
  return ok();
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
 * weight whose dims 2.. give the kernel when kernel_shape is absent, or a
 * null type for pools (where kernel_shape is required). */
static MlirLogicalResult readWindow(const KilnInferContext *c, intptr_t n,
                                    MlirType weight, Window *w) {
  bool hasKernel, hasPads;
  w->n = n;
  if (failed(readChoice(c, "auto_pad", "NOTSET", kAutoPad, &w->autoPad)) ||
      failed(readFlag(c, "ceil_mode", &w->ceilMode)) ||
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
                     "spatial dimensions of operand 'w' (%s)",
                     intsStr(&a, w->kernel, n), typeStr(&b, weight));
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
  if (mlirTypeIsNull(b) || failed(requireSameElement(c, 0, x, i, b)))
    return mlirLogicalResultFailure();
  return requireVector(c, i, b, n, "one value per output channel");
}

/* The checks conv and conv_transpose share: x and w float, same element
 * type, same rank with 1 to 3 spatial dims, group >= 1. */
static MlirLogicalResult convOperands(const KilnInferContext *c, MlirType *x,
                                      MlirType *w, int64_t *group) {
  *x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(*x))
    return mlirLogicalResultFailure();
  *w = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(*w) || failed(requireFloat(c, 0, *x)) ||
      failed(requireSameElement(c, 0, *x, 1, *w)))
    return mlirLogicalResultFailure();
  intptr_t r = rankOf(*x);
  if (r < 3 || r > 5)
    return kilnInferError(c,
                          "operand 'x' must have rank 3, 4 or 5 (N x C x D1 "
                          "... Dn with 1 to 3 spatial dimensions), got rank "
                          "%ld",
                          (long)r);
  if (rankOf(*w) != r)
    return kilnInferError(c,
                          "operand 'w' must have the rank of 'x' (%ld), "
                          "got rank %ld",
                          (long)r, (long)rankOf(*w));
  *group = kilnInferAttrInt(c, "group", 1);
  if (*group < 1)
    return kilnInferError(c, "attribute 'group' must be positive, got %ld",
                          (long)*group);
  return ok();
}

static MlirLogicalResult inferConv(KilnInferContext *c) {
  MlirType x, w;
  int64_t group;
  Window win;
  if (failed(checkResults(c, 1, 1)) || failed(convOperands(c, &x, &w, &group)))
    return mlirLogicalResultFailure();
  /* W is M x C/group x k1 ... kn. */
  int64_t channels = dim(x, 1), m = dim(w, 0), perGroup = dim(w, 1);
  if (known(channels) && known(perGroup) &&
      (channels % group != 0 || channels / group != perGroup))
    return kilnInferError(c,
                          "operand 'x' has %ld channels but 'w' expects "
                          "%ld per group (w dimension 1) times group %ld",
                          (long)channels, (long)perGroup, (long)group);
  if (known(m) && m % group != 0)
    return kilnInferError(c,
                          "output channels (w dimension 0) %ld are not "
                          "divisible by group %ld",
                          (long)m, (long)group);
  intptr_t r = rankOf(x);
  if (failed(checkBias(c, 2, x, m)) || failed(readWindow(c, r - 2, w, &win)))
    return mlirLogicalResultFailure();
  int64_t shape[KILN_MAX_RANK] = {dim(x, 0), m};
  for (intptr_t i = 0; i < r - 2; ++i)
    if (failed(windowOutDim(c, &win, i, dim(x, i + 2), &shape[i + 2])))
      return mlirLogicalResultFailure();
  c->resultTypes[0] = kilnInferTensorType(r, shape, elt(x));
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

static MlirLogicalResult inferConvTranspose(KilnInferContext *c) {
  MlirType x, w;
  int64_t group;
  Window win;
  if (failed(checkResults(c, 1, 1)) || failed(convOperands(c, &x, &w, &group)))
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
  if (failed(checkBias(c, 2, x, m)) || failed(readWindow(c, n, w, &win)) ||
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
  if (failed(checkResults(c, 1, isMax ? 2 : 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(requireMinRank(c, 0, x, 3, "N x C x D1 ... Dn")))
    return mlirLogicalResultFailure();
  MlirType e = elt(x);
  /* ONNX MaxPool also takes int8/uint8. */
  bool byte = mlirTypeIsAInteger(e) && mlirIntegerTypeGetWidth(e) == 8;
  if (!(isMax && byte) && failed(requireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  bool flag;
  if (failed(readFlag(c, isMax ? "storage_order" : "count_include_pad", &flag)))
    return mlirLogicalResultFailure();
  Window win;
  intptr_t r = rankOf(x);
  if (failed(readWindow(c, r - 2, (MlirType){NULL}, &win)))
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

static MlirLogicalResult inferMaxPool(KilnInferContext *c) {
  return inferPool(c, true);
}

static MlirLogicalResult inferAveragePool(KilnInferContext *c) {
  return inferPool(c, false);
}

/* global_average_pool, global_max_pool: N x C x 1 ... 1. */
static MlirLogicalResult inferGlobalPool(KilnInferContext *c) {
  if (failed(checkResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(requireMinRank(c, 0, x, 3, "N x C x D1 ... Dn")) ||
      failed(requireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  int64_t shape[KILN_MAX_RANK] = {dim(x, 0), dim(x, 1)};
  for (intptr_t i = 2; i < rankOf(x); ++i)
    shape[i] = 1;
  c->resultTypes[0] = kilnInferTensorType(rankOf(x), shape, elt(x));
  return ok();
}

/* ---------------------------------------------------------------------- */
/* Normalization                                                           */
/* ---------------------------------------------------------------------- */

/* Checks operands first..last as per-channel vectors of `channels` values
 * with a float element type equal to operand `first`'s. */
static MlirLogicalResult checkChannelVectors(const KilnInferContext *c,
                                             intptr_t first, intptr_t last,
                                             int64_t channels) {
  MlirType head = (MlirType){NULL};
  for (intptr_t i = first; i <= last; ++i) {
    MlirType t = kilnInferRankedOperand(c, i);
    if (mlirTypeIsNull(t) || failed(requireFloat(c, i, t)) ||
        (i > first && failed(requireSameElement(c, first, head, i, t))) ||
        failed(requireVector(c, i, t, channels, "one value per channel")))
      return mlirLogicalResultFailure();
    if (i == first)
      head = t;
  }
  return ok();
}

/* BatchNormalization, inference form: Y has X's type. scale/B share one
 * float type and input_mean/input_var another (ONNX's T1 and T2). */
static MlirLogicalResult inferBatchNorm(KilnInferContext *c) {
  if (failed(checkResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) || failed(requireMinRank(c, 0, x, 1, "N x C x ...")) ||
      failed(requireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  int64_t mode = kilnInferAttrInt(c, "training_mode", 0);
  if (mode != 0)
    return kilnInferError(c,
                          "attribute 'training_mode' must be 0, got %ld "
                          "(Kiln supports the inference form only)",
                          (long)mode);
  /* ONNX: a 1-D X has a single channel. */
  int64_t channels = rankOf(x) > 1 ? dim(x, 1) : 1;
  if (failed(checkChannelVectors(c, 1, 2, channels)) ||
      failed(checkChannelVectors(c, 3, 4, channels)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = x;
  return ok();
}

static MlirLogicalResult inferInstanceNorm(KilnInferContext *c) {
  if (failed(checkResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(requireMinRank(c, 0, x, 3, "N x C x D1 ... Dn")) ||
      failed(requireFloat(c, 0, x)) ||
      failed(checkChannelVectors(c, 1, 2, dim(x, 1))))
    return mlirLogicalResultFailure();
  MlirType scale = kilnInferRankedOperand(c, 1);
  if (failed(requireSameElement(c, 0, x, 1, scale)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = x;
  return ok();
}

/* LayerNormalization: scale and B broadcast unidirectionally to the
 * normalized shape x.shape[axis:]. */
static MlirLogicalResult checkNormalizedOperand(const KilnInferContext *c,
                                                intptr_t i, MlirType x,
                                                int64_t axis) {
  if (mlirValueIsNull(kilnInferOperand(c, i)))
    return ok();
  MlirType t = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(t) || failed(requireSameElement(c, 0, x, i, t)))
    return mlirLogicalResultFailure();
  intptr_t rt = rankOf(t), normRank = rankOf(x) - axis;
  bool fits = rt <= normRank;
  for (intptr_t k = 0; fits && k < rt; ++k) {
    int64_t dt = dim(t, k), dx = dim(x, axis + normRank - rt + k);
    fits = !known(dt) || !known(dx) || dt == 1 || dt == dx;
  }
  if (fits)
    return ok();
  KilnStrBuf a = {0}, b = {0};
  kilnInferError(c,
                 "operand '%s' (%s) does not broadcast to the normalized "
                 "shape of 'x' (%s from axis %ld)",
                 operandName(c, i), typeStr(&a, t), typeStr(&b, x), (long)axis);
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult inferLayerNorm(KilnInferContext *c) {
  if (failed(checkResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) || failed(requireFloat(c, 0, x)))
    return mlirLogicalResultFailure();
  int64_t axis;
  if (failed(kilnInferNormalizeAxis(c, "attribute 'axis'",
                                    kilnInferAttrInt(c, "axis", -1), rankOf(x),
                                    &axis)))
    return mlirLogicalResultFailure();
  /* stash_type is an ONNX TensorProto data type: FLOAT, FLOAT16, DOUBLE or
   * BFLOAT16 are the float types it can name. */
  int64_t stash = kilnInferAttrInt(c, "stash_type", 1);
  if (stash != 1 && stash != 10 && stash != 11 && stash != 16)
    return kilnInferError(c,
                          "attribute 'stash_type' must be an ONNX float type "
                          "(1 = float, 10 = float16, 11 = double, 16 = "
                          "bfloat16), got %ld",
                          (long)stash);
  if (mlirValueIsNull(kilnInferOperand(c, 1)))
    return kilnInferError(c, "operand #1 ('scale') is missing");
  if (failed(checkNormalizedOperand(c, 1, x, axis)) ||
      failed(checkNormalizedOperand(c, 2, x, axis)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = x;
  return ok();
}

/* ---------------------------------------------------------------------- */
/* Resize                                                                  */
/* ---------------------------------------------------------------------- */

static const char *const kResizeMode[] = {"nearest", "linear", "cubic", NULL};
static const char *const kCoordMode[] = {"half_pixel",
                                         "half_pixel_symmetric",
                                         "pytorch_half_pixel",
                                         "align_corners",
                                         "asymmetric",
                                         "tf_crop_and_resize",
                                         NULL};
static const char *const kNearestMode[] = {
    "round_prefer_floor", "round_prefer_ceil", "floor", "ceil", NULL};
enum { POLICY_STRETCH, POLICY_NOT_LARGER, POLICY_NOT_SMALLER };
static const char *const kAspectPolicy[] = {"stretch", "not_larger",
                                            "not_smaller", NULL};

/* Like kilnInferConstantInts for f32/f64 constants (resize's scales). */
static intptr_t constantFloats(const KilnInferContext *c, intptr_t i,
                               float *out, intptr_t cap) {
  MlirValue v = kilnInferOperand(c, i);
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v))
    return -1;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(def)),
                           "graph.constant"))
    return -1;
  MlirAttribute value = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(value) || !mlirAttributeIsADenseElements(value))
    return -1;
  MlirType e = elt(mlirAttributeGetType(value));
  if (!mlirTypeIsAF32(e) && !mlirTypeIsAF64(e))
    return -1;
  bool splat = mlirDenseElementsAttrIsSplat(value);
  intptr_t n = mlirElementsAttrGetNumElements(value);
  for (intptr_t k = 0; k < n && k < cap; ++k) {
    intptr_t pos = splat ? 0 : k;
    out[k] = mlirTypeIsAF32(e)
                 ? mlirDenseElementsAttrGetFloatValue(value, pos)
                 : (float)mlirDenseElementsAttrGetDoubleValue(value, pos);
  }
  return n;
}

/* Reads resize's `axes` (default: all) into out; fails on an out-of-range
 * or repeated axis. */
static MlirLogicalResult readResizeAxes(const KilnInferContext *c,
                                        intptr_t rank, int64_t *out,
                                        intptr_t *n) {
  int64_t raw[KILN_MAX_RANK + 1];
  intptr_t len = kilnInferAttrInts(c, "axes", raw, KILN_MAX_RANK + 1);
  if (len < 0) {
    for (intptr_t i = 0; i < rank; ++i)
      out[i] = i;
    *n = rank;
    return ok();
  }
  if (len > rank)
    return kilnInferError(c,
                          "attribute 'axes' has %ld values, more than the "
                          "rank of 'x' (%ld)",
                          (long)len, (long)rank);
  for (intptr_t i = 0; i < len; ++i) {
    if (failed(kilnInferNormalizeAxis(c, "attribute 'axes' value", raw[i], rank,
                                      &out[i])))
      return mlirLogicalResultFailure();
    for (intptr_t j = 0; j < i; ++j)
      if (out[j] == out[i])
        return kilnInferError(c, "attribute 'axes' repeats axis %ld",
                              (long)out[i]);
  }
  *n = len;
  return ok();
}

/* Checks resize's optional 1-D operand i (roi, scales or sizes): 1 when
 * present, 0 when absent or empty (older ONNX exports pass an empty tensor
 * for "absent"), -1 on error. `len` is the length it must have. */
static int resizeVector(const KilnInferContext *c, intptr_t i, int64_t len,
                        bool (*eltOk)(MlirType), const char *eltName) {
  if (mlirValueIsNull(kilnInferOperand(c, i)))
    return 0;
  MlirType t = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(t))
    return -1;
  if (rankOf(t) == 1 && dim(t, 0) == 0)
    return 0;
  if (!eltOk(elt(t))) {
    KilnStrBuf buf = {0};
    kilnInferError(c, "operand '%s' must have element type %s, got %s",
                   operandName(c, i), eltName, typeStr(&buf, elt(t)));
    kilnStrBufDestroy(&buf);
    return -1;
  }
  const char *what = i == 1 ? "a start and an end per resized axis"
                            : "one value per resized axis";
  return failed(requireVector(c, i, t, len, what)) ? -1 : 1;
}

static bool isF32(MlirType t) { return mlirTypeIsAF32(t); }
static bool isI64(MlirType t) {
  return mlirTypeIsAInteger(t) && mlirIntegerTypeGetWidth(t) == 64;
}

/* Stores a computed output size, failing when it does not fit in int64
 * (huge scales or sizes are user input). */
static MlirLogicalResult storeSize(const KilnInferContext *c, double v,
                                   int64_t axis, int64_t *out) {
  if (!(v < 9223372036854775807.0))
    return kilnInferError(c, "output size %g for axis %ld overflows 64 bits", v,
                          (long)axis);
  *out = (int64_t)v;
  return ok();
}

/* Output sizes from constant `sizes` under keep_aspect_ratio_policy:
 * stretch uses them as given; not_larger/not_smaller scale every resized
 * axis by the min/max of sizes[i] / in[i] and round half up (ONNX's
 * round_int). */
static MlirLogicalResult sizesToShape(const KilnInferContext *c, MlirType x,
                                      const int64_t *axes, intptr_t n,
                                      const int64_t *sizes, int policy,
                                      int64_t *shape) {
  double scale = policy == POLICY_NOT_LARGER ? INFINITY : 0.0;
  bool allKnown = true;
  for (intptr_t i = 0; i < n; ++i) {
    int64_t in = dim(x, axes[i]);
    allKnown = allKnown && known(in) && in > 0;
    if (policy == POLICY_STRETCH)
      shape[axes[i]] = sizes[i];
    else if (allKnown)
      scale = policy == POLICY_NOT_LARGER
                  ? fmin(scale, (double)sizes[i] / (double)in)
                  : fmax(scale, (double)sizes[i] / (double)in);
  }
  for (intptr_t i = 0; policy != POLICY_STRETCH && i < n; ++i) {
    shape[axes[i]] = dyn();
    if (allKnown &&
        failed(storeSize(c, floor(scale * (double)dim(x, axes[i]) + 0.5),
                         axes[i], &shape[axes[i]])))
      return mlirLogicalResultFailure();
  }
  return ok();
}

/* Fills shape[axes[i]] from scales or sizes (constant) or makes them
 * dynamic (not a compile-time constant). */
static MlirLogicalResult resizedDims(const KilnInferContext *c, MlirType x,
                                     const int64_t *axes, intptr_t n,
                                     bool useScales, int policy,
                                     int64_t *shape) {
  float scales[KILN_MAX_RANK];
  int64_t sizes[KILN_MAX_RANK];
  intptr_t got = useScales ? constantFloats(c, 2, scales, KILN_MAX_RANK)
                           : kilnInferConstantInts(c, 3, sizes, KILN_MAX_RANK);
  if (got != n) {
    for (intptr_t i = 0; i < n; ++i)
      shape[axes[i]] = dyn();
    return ok();
  }
  for (intptr_t i = 0; i < n; ++i) {
    if (useScales && !(scales[i] > 0.0f))
      return kilnInferError(c,
                            "operand 'scales' must hold positive values, "
                            "got %g for axis %ld",
                            (double)scales[i], (long)axes[i]);
    if (!useScales && sizes[i] < 0)
      return kilnInferError(c,
                            "operand 'sizes' must hold non-negative "
                            "values, got %ld for axis %ld",
                            (long)sizes[i], (long)axes[i]);
  }
  if (!useScales)
    return sizesToShape(c, x, axes, n, sizes, policy, shape);
  /* ONNX: floor(in * scale), computed in float as ONNX and ORT do. */
  for (intptr_t i = 0; i < n; ++i) {
    int64_t in = dim(x, axes[i]);
    shape[axes[i]] = dyn();
    if (known(in) && failed(storeSize(c, floorf((float)in * scales[i]), axes[i],
                                      &shape[axes[i]])))
      return mlirLogicalResultFailure();
  }
  return ok();
}

static MlirLogicalResult inferResize(KilnInferContext *c) {
  if (failed(checkResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) || failed(requireMinRank(c, 0, x, 1, "any tensor")))
    return mlirLogicalResultFailure();
  int mode, coord, nearest, policy;
  bool antialias, excludeOutside;
  int64_t axes[KILN_MAX_RANK];
  intptr_t n;
  if (failed(readChoice(c, "mode", "nearest", kResizeMode, &mode)) ||
      failed(readChoice(c, "coordinate_transformation_mode", "half_pixel",
                        kCoordMode, &coord)) ||
      failed(readChoice(c, "nearest_mode", "round_prefer_floor", kNearestMode,
                        &nearest)) ||
      failed(readChoice(c, "keep_aspect_ratio_policy", "stretch", kAspectPolicy,
                        &policy)) ||
      failed(readFlag(c, "antialias", &antialias)) ||
      failed(readFlag(c, "exclude_outside", &excludeOutside)) ||
      failed(readResizeAxes(c, rankOf(x), axes, &n)))
    return mlirLogicalResultFailure();
  /* roi only moves sampling coordinates (tf_crop_and_resize); like ONNX's
   * shape inference and ONNX Runtime, output sizes ignore it. */
  int roi = resizeVector(c, 1, 2 * n, isFloat, "f16, bf16, f32 or f64");
  int scales = roi < 0 ? -1 : resizeVector(c, 2, n, isF32, "f32");
  int sizes = scales < 0 ? -1 : resizeVector(c, 3, n, isI64, "i64");
  if (sizes < 0)
    return mlirLogicalResultFailure();
  if (scales && sizes)
    return kilnInferError(c, "operands 'scales' and 'sizes' cannot both be "
                             "given");
  if (!scales && !sizes)
    return kilnInferError(c, "requires operand 'scales' or 'sizes'");
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < rankOf(x); ++i)
    shape[i] = dim(x, i);
  if (failed(resizedDims(c, x, axes, n, scales, policy, shape)))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = kilnInferTensorType(rankOf(x), shape, elt(x));
  return ok();
}

/* ---------------------------------------------------------------------- */
/* The table                                                               */
/* ---------------------------------------------------------------------- */

#define LEN(a) (int)(sizeof(a) / sizeof((a)[0]))
#define SPECS(a) a, LEN(a)

static const KilnOperandSpec kXWB[] = {{"x", KILN_OPERAND_SINGLE},
                                       {"w", KILN_OPERAND_SINGLE},
                                       {"b", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kX[] = {{"x", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kY[] = {{"y", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kYIndices[] = {{"y", KILN_OPERAND_SINGLE},
                                            {"indices", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kBatchNormIn[] = {
    {"x", KILN_OPERAND_SINGLE},
    {"scale", KILN_OPERAND_SINGLE},
    {"b", KILN_OPERAND_SINGLE},
    {"input_mean", KILN_OPERAND_SINGLE},
    {"input_var", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kInstanceNormIn[] = {
    {"input", KILN_OPERAND_SINGLE},
    {"scale", KILN_OPERAND_SINGLE},
    {"b", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kOutput[] = {{"output", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kLayerNormIn[] = {{"x", KILN_OPERAND_SINGLE},
                                               {"scale", KILN_OPERAND_SINGLE},
                                               {"b", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kResizeIn[] = {{"x", KILN_OPERAND_SINGLE},
                                            {"roi", KILN_OPERAND_OPTIONAL},
                                            {"scales", KILN_OPERAND_OPTIONAL},
                                            {"sizes", KILN_OPERAND_OPTIONAL}};

#define AUTO_PAD                                                               \
  {                                                                            \
    "auto_pad", KILN_ATTR_STRING, false, "\"NOTSET\"",                         \
        "NOTSET, SAME_UPPER, SAME_LOWER or VALID"                              \
  }
#define DILATIONS                                                              \
  {                                                                            \
    "dilations", KILN_ATTR_INTS, false, NULL,                                  \
        "one per spatial dimension, default 1"                                 \
  }
#define PADS                                                                   \
  {                                                                            \
    "pads", KILN_ATTR_INTS, false, NULL,                                       \
        "begins then ends per spatial dimension, default 0"                    \
  }
#define STRIDES                                                                \
  {                                                                            \
    "strides", KILN_ATTR_INTS, false, NULL,                                    \
        "one per spatial dimension, default 1"                                 \
  }
#define CEIL_MODE                                                              \
  { "ceil_mode", KILN_ATTR_INT, false, "0 : i64", "1: round output sizes up" }
#define POOL_KERNEL                                                            \
  { "kernel_shape", KILN_ATTR_INTS, true, NULL, "window size per spatial dim" }
#define EPSILON                                                                \
  {                                                                            \
    "epsilon", KILN_ATTR_FLOAT, false, "1.0e-05 : f32",                        \
        "added to the variance"                                                \
  }

static const KilnAttrSpec kConvAttrs[] = {
    AUTO_PAD,
    DILATIONS,
    {"group", KILN_ATTR_INT, false, "1 : i64", "number of channel groups"},
    {"kernel_shape", KILN_ATTR_INTS, false, NULL,
     "default: the spatial dimensions of w"},
    PADS,
    STRIDES};
static const KilnAttrSpec kConvTransposeAttrs[] = {
    AUTO_PAD,
    DILATIONS,
    {"group", KILN_ATTR_INT, false, "1 : i64", "number of channel groups"},
    {"kernel_shape", KILN_ATTR_INTS, false, NULL,
     "default: the spatial dimensions of w"},
    {"output_padding", KILN_ATTR_INTS, false, NULL,
     "added at the end of each spatial dimension, default 0"},
    {"output_shape", KILN_ATTR_INTS, false, NULL,
     "spatial output sizes; overrides pads"},
    PADS,
    STRIDES};
static const KilnAttrSpec kMaxPoolAttrs[] = {
    AUTO_PAD,
    CEIL_MODE,
    DILATIONS,
    POOL_KERNEL,
    PADS,
    {"storage_order", KILN_ATTR_INT, false, "0 : i64",
     "indices: 0 row major, 1 column major"},
    STRIDES};
static const KilnAttrSpec kAveragePoolAttrs[] = {
    AUTO_PAD,
    CEIL_MODE,
    {"count_include_pad", KILN_ATTR_INT, false, "0 : i64",
     "1: padding counts in the divisor"},
    DILATIONS,
    POOL_KERNEL,
    PADS,
    STRIDES};
static const KilnAttrSpec kBatchNormAttrs[] = {
    EPSILON,
    {"momentum", KILN_ATTR_FLOAT, false, "0.9 : f32",
     "running-statistics factor (training only)"},
    {"training_mode", KILN_ATTR_INT, false, "0 : i64",
     "must be 0: inference form"}};
static const KilnAttrSpec kInstanceNormAttrs[] = {EPSILON};
static const KilnAttrSpec kLayerNormAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "-1 : i64",
     "first normalized axis, in [-rank, rank)"},
    EPSILON,
    {"stash_type", KILN_ATTR_INT, false, "1 : i64",
     "ONNX float type of the statistics"}};
static const KilnAttrSpec kResizeAttrs[] = {
    {"antialias", KILN_ATTR_INT, false, "0 : i64",
     "1: antialiasing filter when downscaling"},
    {"axes", KILN_ATTR_INTS, false, NULL, "resized axes, default all"},
    {"coordinate_transformation_mode", KILN_ATTR_STRING, false,
     "\"half_pixel\"", "output-to-input coordinate mapping"},
    {"cubic_coeff_a", KILN_ATTR_FLOAT, false, "-0.75 : f32",
     "cubic interpolation coefficient"},
    {"exclude_outside", KILN_ATTR_INT, false, "0 : i64",
     "1: zero weights outside the input"},
    {"extrapolation_value", KILN_ATTR_FLOAT, false, "0.0 : f32",
     "value outside the input (tf_crop_and_resize)"},
    {"keep_aspect_ratio_policy", KILN_ATTR_STRING, false, "\"stretch\"",
     "stretch, not_larger or not_smaller (with sizes)"},
    {"mode", KILN_ATTR_STRING, false, "\"nearest\"",
     "nearest, linear or cubic"},
    {"nearest_mode", KILN_ATTR_STRING, false, "\"round_prefer_floor\"",
     "rounding in nearest mode"}};

const KilnGraphOpInfo kilnGraphNNOps[] = {
    {"conv", "Conv", "1-D/2-D/3-D convolution", SPECS(kXWB), SPECS(kY),
     SPECS(kConvAttrs), inferConv},
    {"conv_transpose", "ConvTranspose", "transposed convolution", SPECS(kXWB),
     SPECS(kY), SPECS(kConvTransposeAttrs), inferConvTranspose},
    {"max_pool", "MaxPool", "max pooling, optionally with argmax indices",
     SPECS(kX), SPECS(kYIndices), SPECS(kMaxPoolAttrs), inferMaxPool},
    {"average_pool", "AveragePool", "average pooling", SPECS(kX), SPECS(kY),
     SPECS(kAveragePoolAttrs), inferAveragePool},
    {"global_average_pool", "GlobalAveragePool",
     "average over all spatial dimensions", SPECS(kX), SPECS(kY), NULL, 0,
     inferGlobalPool},
    {"global_max_pool", "GlobalMaxPool", "max over all spatial dimensions",
     SPECS(kX), SPECS(kY), NULL, 0, inferGlobalPool},
    {"batch_norm", "BatchNormalization",
     "batch normalization with given statistics (inference form)",
     SPECS(kBatchNormIn), SPECS(kY), SPECS(kBatchNormAttrs), inferBatchNorm},
    {"instance_norm", "InstanceNormalization",
     "per-instance, per-channel normalization", SPECS(kInstanceNormIn),
     SPECS(kOutput), SPECS(kInstanceNormAttrs), inferInstanceNorm},
    {"layer_norm", "LayerNormalization",
     "normalization over the trailing axes from 'axis'", SPECS(kLayerNormIn),
     SPECS(kY), SPECS(kLayerNormAttrs), inferLayerNorm},
    {"resize", "Resize", "resize by scales or to sizes (interpolation)",
     SPECS(kResizeIn), SPECS(kY), SPECS(kResizeAttrs), inferResize},
};
const int kilnGraphNNOpsCount = LEN(kilnGraphNNOps);

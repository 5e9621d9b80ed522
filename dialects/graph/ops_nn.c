/* Graph ops of the NN family (convolution, pooling, normalization, resize,
 * recurrent cells, sampling): table entries and ONNX type inference. Conv,
 * pool and unpool inference (window arithmetic) lives in ops_nn_window.c,
 * normalization in ops_nn_norm.c, rnn/gru/lstm in ops_nn_recurrent.c,
 * grid_sample and roi_align in ops_nn_sample.c; this file holds the checks
 * the family shares, resize and the table.
 *
 * The shape rules follow the ONNX operator docs of the latest opset and
 * ONNX's own shape inference; where ONNX leaves a case open, the choice is
 * noted beside the code and in docs/graph-dialect.md. */
#include <math.h>

#include "dialects/graph/infer.h"
#include "dialects/graph/op_table.h"
#include "dialects/graph/ops_nn_window.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* ---------------------------------------------------------------------- */
/* Checks shared by the NN family (declared in ops_nn_window.h)            */
/* ---------------------------------------------------------------------- */

static const char *operandName(const KilnInferContext *c, intptr_t i) {
  return c->op->operands[i].name;
}

static bool isFloat(MlirType t) {
  return mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) ||
         mlirTypeIsAF64(t);
}

/* Prints `t` into `buf` (cleared first) and returns the text. */
const char *kilnNNTypeStr(KilnStrBuf *buf, MlirType t) {
  kilnStrBufClear(buf);
  kilnStrBufAppendType(buf, t);
  return kilnStrBufGet(buf);
}

/* Every inference function starts here: the builder lets callers ask for
 * any result count, and filling fewer types than requested would leave null
 * types for mlirOperationCreate. */
MlirLogicalResult kilnNNCheckResults(const KilnInferContext *c, intptr_t lo,
                                     intptr_t hi) {
  if (c->numResults >= lo && c->numResults <= hi)
    return ok();
  if (lo == hi)
    return kilnInferError(c, "expects %ld result(s), got %ld", (long)lo,
                          (long)c->numResults);
  return kilnInferError(c, "expects %ld to %ld results, got %ld", (long)lo,
                        (long)hi, (long)c->numResults);
}

MlirLogicalResult kilnNNRequireFloat(const KilnInferContext *c, intptr_t i,
                                     MlirType t) {
  if (isFloat(elt(t)))
    return ok();
  KilnStrBuf buf = {0};
  kilnInferError(c,
                 "operand '%s' must have a floating-point element type "
                 "(f16, bf16, f32 or f64), got %s",
                 operandName(c, i), kilnNNTypeStr(&buf, elt(t)));
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

MlirLogicalResult kilnNNRequireSameElement(const KilnInferContext *c,
                                           intptr_t i, MlirType ti, intptr_t j,
                                           MlirType tj) {
  if (mlirTypeEqual(elt(ti), elt(tj)))
    return ok();
  KilnStrBuf a = {0}, b = {0};
  kilnInferError(c,
                 "operands '%s' and '%s' must have the same element type, "
                 "got %s and %s",
                 operandName(c, i), operandName(c, j),
                 kilnNNTypeStr(&a, elt(ti)), kilnNNTypeStr(&b, elt(tj)));
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

/* Fails unless operand i has rank >= minRank. `form` describes the layout
 * expected, e.g. "N x C x D1 ... Dn". */
MlirLogicalResult kilnNNRequireMinRank(const KilnInferContext *c, intptr_t i,
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
MlirLogicalResult kilnNNRequireVector(const KilnInferContext *c, intptr_t i,
                                      MlirType t, int64_t n, const char *what) {
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
MlirLogicalResult kilnNNReadChoice(const KilnInferContext *c, const char *name,
                                   const char *dflt, const char *const *choices,
                                   int *out) {
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
MlirLogicalResult kilnNNReadFlag(const KilnInferContext *c, const char *name,
                                 bool *out) {
  int64_t v = kilnInferAttrInt(c, name, 0);
  if (v != 0 && v != 1)
    return kilnInferError(c, "attribute '%s' must be 0 or 1, got %ld", name,
                          (long)v);
  *out = v == 1;
  return ok();
}

/* Prints a shape as "1x?x3" into `buf` (cleared first). */
static const char *shapeStr(KilnStrBuf *buf, const int64_t *shape,
                            intptr_t rank) {
  kilnStrBufClear(buf);
  for (intptr_t k = 0; k < rank; ++k) {
    if (known(shape[k]))
      kilnStrBufAppendf(buf, "%s%ld", k ? "x" : "", (long)shape[k]);
    else
      kilnStrBufAppendf(buf, "%s?", k ? "x" : "");
  }
  return kilnStrBufGet(buf);
}

/* Fails unless operand i has rank `rank` and, where both sides are known,
 * the dims in `expect`; `form` names the dims for the message. */
MlirLogicalResult kilnNNRequireShape(const KilnInferContext *c, intptr_t i,
                                     MlirType t, intptr_t rank,
                                     const int64_t *expect, const char *form) {
  bool fits = rankOf(t) == rank;
  for (intptr_t k = 0; fits && k < rank; ++k)
    fits = !known(expect[k]) || !known(dim(t, k)) || expect[k] == dim(t, k);
  if (fits)
    return ok();
  KilnStrBuf a = {0}, b = {0};
  kilnInferError(c, "operand '%s' must be %s = %s, got %s", operandName(c, i),
                 form, shapeStr(&a, expect, rank), kilnNNTypeStr(&b, t));
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

/* Fails unless operand i has a signless integer element type of `width`
 * bits (ONNX's int32/int64 index operands). */
MlirLogicalResult kilnNNRequireInt(const KilnInferContext *c, intptr_t i,
                                   MlirType t, unsigned width) {
  MlirType e = elt(t);
  if (mlirTypeIsAInteger(e) && mlirIntegerTypeIsSignless(e) &&
      mlirIntegerTypeGetWidth(e) == width)
    return ok();
  KilnStrBuf buf = {0};
  kilnInferError(c, "operand '%s' must have element type i%u, got %s",
                 operandName(c, i), width, kilnNNTypeStr(&buf, e));
  kilnStrBufDestroy(&buf);
  return mlirLogicalResultFailure();
}

/* ---------------------------------------------------------------------- */
/* Resize                                                                  */
/* ---------------------------------------------------------------------- */

static const char *const kResizeMode[] = {"nearest", "linear", "cubic", NULL};
/* tf_half_pixel_for_nn is Resize-11/12's (removed in 13): half_pixel
 * without the -0.5, for nearest mode, as TensorFlow 1's resize_nearest. */
static const char *const kCoordMode[] = {
    "half_pixel",           "half_pixel_symmetric",
    "pytorch_half_pixel",   "align_corners",
    "asymmetric",           "tf_crop_and_resize",
    "tf_half_pixel_for_nn", NULL};
static const char *const kNearestMode[] = {
    "round_prefer_floor", "round_prefer_ceil", "floor", "ceil", NULL};
enum { POLICY_STRETCH, POLICY_NOT_LARGER, POLICY_NOT_SMALLER };
static const char *const kAspectPolicy[] = {"stretch", "not_larger",
                                            "not_smaller", NULL};

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
                   operandName(c, i), eltName, kilnNNTypeStr(&buf, elt(t)));
    kilnStrBufDestroy(&buf);
    return -1;
  }
  const char *what = i == 1 ? "a start and an end per resized axis"
                            : "one value per resized axis";
  return failed(kilnNNRequireVector(c, i, t, len, what)) ? -1 : 1;
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
  double scales64[KILN_MAX_RANK];
  float scales[KILN_MAX_RANK];
  int64_t sizes[KILN_MAX_RANK];
  intptr_t got = useScales
                     ? kilnInferConstantFloats(c, 2, scales64, KILN_MAX_RANK)
                     : kilnInferConstantInts(c, 3, sizes, KILN_MAX_RANK);
  /* Shapes follow ONNX's float32 arithmetic on the scales. */
  for (intptr_t i = 0; useScales && i < got && i < KILN_MAX_RANK; ++i)
    scales[i] = (float)scales64[i];
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
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(kilnNNRequireMinRank(c, 0, x, 1, "any tensor")))
    return mlirLogicalResultFailure();
  int mode, coord, nearest, policy;
  bool antialias, excludeOutside;
  int64_t axes[KILN_MAX_RANK];
  intptr_t n;
  if (failed(kilnNNReadChoice(c, "mode", "nearest", kResizeMode, &mode)) ||
      failed(kilnNNReadChoice(c, "coordinate_transformation_mode", "half_pixel",
                              kCoordMode, &coord)) ||
      failed(kilnNNReadChoice(c, "nearest_mode", "round_prefer_floor",
                              kNearestMode, &nearest)) ||
      failed(kilnNNReadChoice(c, "keep_aspect_ratio_policy", "stretch",
                              kAspectPolicy, &policy)) ||
      failed(kilnNNReadFlag(c, "antialias", &antialias)) ||
      failed(kilnNNReadFlag(c, "exclude_outside", &excludeOutside)) ||
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
/* ONNX's two optional statistics results have one type each op, so one
 * variadic (at most two values, checked by inference) holds them and IR
 * without them needs no resultSegmentSizes. */
static const KilnOperandSpec kBatchNormOut[] = {
    {"y", KILN_OPERAND_SINGLE}, {"running_mean_var", KILN_OPERAND_VARIADIC}};
static const KilnOperandSpec kLayerNormOut[] = {
    {"y", KILN_OPERAND_SINGLE}, {"mean_inv_std_dev", KILN_OPERAND_VARIADIC}};
static const KilnOperandSpec kRnnIn[] = {
    {"x", KILN_OPERAND_SINGLE},
    {"w", KILN_OPERAND_SINGLE},
    {"r", KILN_OPERAND_SINGLE},
    {"b", KILN_OPERAND_OPTIONAL},
    {"sequence_lens", KILN_OPERAND_OPTIONAL},
    {"initial_h", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kLstmIn[] = {
    {"x", KILN_OPERAND_SINGLE},
    {"w", KILN_OPERAND_SINGLE},
    {"r", KILN_OPERAND_SINGLE},
    {"b", KILN_OPERAND_OPTIONAL},
    {"sequence_lens", KILN_OPERAND_OPTIONAL},
    {"initial_h", KILN_OPERAND_OPTIONAL},
    {"initial_c", KILN_OPERAND_OPTIONAL},
    {"p", KILN_OPERAND_OPTIONAL}};
/* ONNX's Y is optional as well, but results are positional: an imported
 * node that wants Y_h gets Y too, so Y is always there. */
static const KilnOperandSpec kRnnOut[] = {{"y", KILN_OPERAND_SINGLE},
                                          {"y_h", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kLstmOut[] = {{"y", KILN_OPERAND_SINGLE},
                                           {"y_h", KILN_OPERAND_OPTIONAL},
                                           {"y_c", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kMaxUnpoolIn[] = {
    {"x", KILN_OPERAND_SINGLE},
    {"i", KILN_OPERAND_SINGLE},
    {"output_shape", KILN_OPERAND_OPTIONAL}};
static const KilnOperandSpec kGridSampleIn[] = {{"x", KILN_OPERAND_SINGLE},
                                                {"grid", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kRoiAlignIn[] = {
    {"x", KILN_OPERAND_SINGLE},
    {"rois", KILN_OPERAND_SINGLE},
    {"batch_indices", KILN_OPERAND_SINGLE}};
static const KilnOperandSpec kResizeIn[] = {{"x", KILN_OPERAND_SINGLE},
                                            {"roi", KILN_OPERAND_OPTIONAL},
                                            {"scales", KILN_OPERAND_OPTIONAL},
                                            {"sizes", KILN_OPERAND_OPTIONAL}};

#define AUTO_PAD                                                               \
  {"auto_pad", KILN_ATTR_STRING, false, "\"NOTSET\"",                          \
   "NOTSET, SAME_UPPER, SAME_LOWER or VALID"}
#define DILATIONS                                                              \
  {"dilations", KILN_ATTR_INTS, false, NULL,                                   \
   "one per spatial dimension, default 1"}
#define PADS                                                                   \
  {"pads", KILN_ATTR_INTS, false, NULL,                                        \
   "begins then ends per spatial dimension, default 0"}
#define STRIDES                                                                \
  {"strides", KILN_ATTR_INTS, false, NULL,                                     \
   "one per spatial dimension, default 1"}
#define CEIL_MODE                                                              \
  {"ceil_mode", KILN_ATTR_INT, false, "0 : i64", "1: round output sizes up"}
#define POOL_KERNEL                                                            \
  {"kernel_shape", KILN_ATTR_INTS, true, NULL, "window size per spatial dim"}
#define EPSILON                                                                \
  {"epsilon", KILN_ATTR_FLOAT, false, "1.0e-05 : f32", "added to the variance"}

static const KilnAttrSpec kConvAttrs[] = {
    AUTO_PAD,
    DILATIONS,
    {"group", KILN_ATTR_INT, false, "1 : i64", "number of channel groups"},
    {"kernel_shape", KILN_ATTR_INTS, false, NULL,
     "default: the spatial dimensions of w"},
    {"layout", KILN_ATTR_STRING, false, "\"channels_first\"",
     "channels_first (ONNX: x N x C x D.., w M x C/group x k.., y N x M x "
     "O..) or channels_last (x N x D.. x C, w k.. x C/group x M, y N x O.. "
     "x M; set by graph-layout)"},
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
     "1: training form (running_mean, running_var results)"}};
static const KilnAttrSpec kInstanceNormAttrs[] = {EPSILON};
static const KilnAttrSpec kLayerNormAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "-1 : i64",
     "first normalized axis, in [-rank, rank)"},
    EPSILON,
    {"stash_type", KILN_ATTR_INT, false, "1 : i64",
     "ONNX float type of the statistics"}};
static const KilnAttrSpec kLrnAttrs[] = {
    {"alpha", KILN_ATTR_FLOAT, false, "1.0e-04 : f32", "scaling parameter"},
    {"beta", KILN_ATTR_FLOAT, false, "0.75 : f32", "exponent"},
    {"bias", KILN_ATTR_FLOAT, false, "1.0 : f32", "added before the power"},
    {"size", KILN_ATTR_INT, true, NULL, "number of channels summed over"}};
static const KilnAttrSpec kMvnAttrs[] = {
    {"axes", KILN_ATTR_INTS, false, "array<i64: 0, 2, 3>",
     "axes the mean and variance are taken over"}};
#define RNN_COMMON_ATTRS                                                       \
  {"activation_alpha", KILN_ATTR_FLOATS, false, NULL,                          \
   "alpha of the activations that take one, in order"},                        \
      {"activation_beta", KILN_ATTR_FLOATS, false, NULL,                       \
       "beta of the activations that take one, in order"},                     \
      {"activations", KILN_ATTR_STRINGS, false, NULL,                          \
       "activation function names, per direction in order"},                   \
      {"clip", KILN_ATTR_FLOAT, false, NULL, "cell clip threshold (none)"},    \
      {"direction", KILN_ATTR_STRING, false, "\"forward\"",                    \
       "forward, reverse or bidirectional"},                                   \
      {"hidden_size", KILN_ATTR_INT, false, NULL,                              \
       "hidden units; default: the last dimension of r"},                      \
      {"layout", KILN_ATTR_INT, false, "0 : i64",                              \
       "0: sequence-major x/y/y_h, 1: batch-major"}
static const KilnAttrSpec kRnnAttrs[] = {RNN_COMMON_ATTRS};
static const KilnAttrSpec kGruAttrs[] = {
    RNN_COMMON_ATTRS,
    {"linear_before_reset", KILN_ATTR_INT, false, "0 : i64",
     "1: apply the linear transform before the reset gate"}};
static const KilnAttrSpec kLstmAttrs[] = {
    RNN_COMMON_ATTRS,
    {"input_forget", KILN_ATTR_INT, false, "0 : i64",
     "1: couple the input and forget gates"}};
static const KilnAttrSpec kMaxUnpoolAttrs[] = {POOL_KERNEL, PADS, STRIDES};
static const KilnAttrSpec kGridSampleAttrs[] = {
    {"align_corners", KILN_ATTR_INT, false, "0 : i64",
     "1: extreme grid values are pixel centers of the corners"},
    {"mode", KILN_ATTR_STRING, false, "\"linear\"",
     "linear, nearest or cubic (also bilinear, bicubic)"},
    {"padding_mode", KILN_ATTR_STRING, false, "\"zeros\"",
     "zeros, border or reflection"}};
static const KilnAttrSpec kRoiAlignAttrs[] = {
    {"coordinate_transformation_mode", KILN_ATTR_STRING, false,
     "\"half_pixel\"", "half_pixel or output_half_pixel"},
    {"mode", KILN_ATTR_STRING, false, "\"avg\"", "avg or max pooling"},
    {"output_height", KILN_ATTR_INT, false, "1 : i64", "pooled height"},
    {"output_width", KILN_ATTR_INT, false, "1 : i64", "pooled width"},
    {"sampling_ratio", KILN_ATTR_INT, false, "0 : i64",
     "samples per bin side; 0: adaptive"},
    {"spatial_scale", KILN_ATTR_FLOAT, false, "1.0 : f32",
     "roi coordinates to x's scale"}};
static const KilnAttrSpec kResizeAttrs[] = {
    {"antialias", KILN_ATTR_INT, false, "0 : i64",
     "1: antialiasing filter when downscaling"},
    {"axes", KILN_ATTR_INTS, false, NULL, "resized axes, default all"},
    {"coordinate_transformation_mode", KILN_ATTR_STRING, false,
     "\"half_pixel\"",
     "output-to-input coordinate mapping (also Resize-11's "
     "tf_half_pixel_for_nn)"},
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
     SPECS(kConvAttrs), kilnNNInferConv},
    {"conv_transpose", "ConvTranspose", "transposed convolution", SPECS(kXWB),
     SPECS(kY), SPECS(kConvTransposeAttrs), kilnNNInferConvTranspose},
    {"max_pool", "MaxPool", "max pooling, optionally with argmax indices",
     SPECS(kX), SPECS(kYIndices), SPECS(kMaxPoolAttrs), kilnNNInferMaxPool},
    {"average_pool", "AveragePool", "average pooling", SPECS(kX), SPECS(kY),
     SPECS(kAveragePoolAttrs), kilnNNInferAveragePool},
    {"global_average_pool", "GlobalAveragePool",
     "average over all spatial dimensions", SPECS(kX), SPECS(kY), NULL, 0,
     kilnNNInferGlobalPool},
    {"global_max_pool", "GlobalMaxPool", "max over all spatial dimensions",
     SPECS(kX), SPECS(kY), NULL, 0, kilnNNInferGlobalPool},
    {"max_unpool", "MaxUnpool", "partial inverse of max pooling",
     SPECS(kMaxUnpoolIn), SPECS(kOutput), SPECS(kMaxUnpoolAttrs),
     kilnNNInferMaxUnpool},
    {"batch_norm", "BatchNormalization",
     "batch normalization (inference or training form)", SPECS(kBatchNormIn),
     SPECS(kBatchNormOut), SPECS(kBatchNormAttrs), kilnNNInferBatchNorm},
    {"instance_norm", "InstanceNormalization",
     "per-instance, per-channel normalization", SPECS(kInstanceNormIn),
     SPECS(kOutput), SPECS(kInstanceNormAttrs), kilnNNInferInstanceNorm},
    {"layer_norm", "LayerNormalization",
     "normalization over the trailing axes from 'axis'", SPECS(kLayerNormIn),
     SPECS(kLayerNormOut), SPECS(kLayerNormAttrs), kilnNNInferLayerNorm},
    {"lrn", "LRN", "local response normalization across channels", SPECS(kX),
     SPECS(kY), SPECS(kLrnAttrs), kilnNNInferLrn},
    {"mean_variance_normalization", "MeanVarianceNormalization",
     "normalization to zero mean and unit variance over 'axes'", SPECS(kX),
     SPECS(kY), SPECS(kMvnAttrs), kilnNNInferMeanVarianceNorm},
    {"rnn", "RNN", "simple recurrent network layer", SPECS(kRnnIn),
     SPECS(kRnnOut), SPECS(kRnnAttrs), kilnNNInferRnn},
    {"gru", "GRU", "gated recurrent unit layer", SPECS(kRnnIn), SPECS(kRnnOut),
     SPECS(kGruAttrs), kilnNNInferGru},
    {"lstm", "LSTM", "long short-term memory layer", SPECS(kLstmIn),
     SPECS(kLstmOut), SPECS(kLstmAttrs), kilnNNInferLstm},
    {"grid_sample", "GridSample", "samples x at the grid's coordinates",
     SPECS(kGridSampleIn), SPECS(kY), SPECS(kGridSampleAttrs),
     kilnNNInferGridSample},
    {"roi_align", "RoiAlign", "pools regions of interest by bilinear sampling",
     SPECS(kRoiAlignIn), SPECS(kY), SPECS(kRoiAlignAttrs), kilnNNInferRoiAlign},
    {"resize", "Resize", "resize by scales or to sizes (interpolation)",
     SPECS(kResizeIn), SPECS(kY), SPECS(kResizeAttrs), inferResize},
};
const int kilnGraphNNOpsCount = LEN(kilnGraphNNOps);

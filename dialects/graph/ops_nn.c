/* Graph ops of the NN family (convolution, pooling, normalization, resize):
 * table entries and ONNX type inference. Conv and pool inference (window
 * arithmetic) lives in ops_nn_window.c; this file holds the checks the
 * family shares, normalization, resize and the table.
 *
 * The shape rules follow the ONNX operator docs of the latest opset and
 * ONNX's own shape inference; where ONNX leaves a case open, the choice is
 * noted beside the code and in docs/graph-dialect.md. */
#include <math.h>

#include "dialects/common/diag.h"
#include "dialects/graph/infer.h"
#include "dialects/graph/op_table.h"
#include "dialects/graph/ops_nn_window.h"
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
    if (mlirTypeIsNull(t) || failed(kilnNNRequireFloat(c, i, t)) ||
        (i > first && failed(kilnNNRequireSameElement(c, first, head, i, t))) ||
        failed(kilnNNRequireVector(c, i, t, channels, "one value per channel")))
      return mlirLogicalResultFailure();
    if (i == first)
      head = t;
  }
  return ok();
}

/* BatchNormalization, inference form: Y has X's type. scale/B share one
 * float type and input_mean/input_var another (ONNX's T1 and T2). */
static MlirLogicalResult inferBatchNorm(KilnInferContext *c) {
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(kilnNNRequireMinRank(c, 0, x, 1, "N x C x ...")) ||
      failed(kilnNNRequireFloat(c, 0, x)))
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
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) ||
      failed(kilnNNRequireMinRank(c, 0, x, 3, "N x C x D1 ... Dn")) ||
      failed(kilnNNRequireFloat(c, 0, x)) ||
      failed(checkChannelVectors(c, 1, 2, dim(x, 1))))
    return mlirLogicalResultFailure();
  MlirType scale = kilnInferRankedOperand(c, 1);
  if (failed(kilnNNRequireSameElement(c, 0, x, 1, scale)))
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
  if (mlirTypeIsNull(t) || failed(kilnNNRequireSameElement(c, 0, x, i, t)))
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
                 operandName(c, i), kilnNNTypeStr(&a, t), kilnNNTypeStr(&b, x),
                 (long)axis);
  kilnStrBufDestroy(&a);
  kilnStrBufDestroy(&b);
  return mlirLogicalResultFailure();
}

static MlirLogicalResult inferLayerNorm(KilnInferContext *c) {
  if (failed(kilnNNCheckResults(c, 1, 1)))
    return mlirLogicalResultFailure();
  MlirType x = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(x) || failed(kilnNNRequireFloat(c, 0, x)))
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

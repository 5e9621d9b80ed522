/* Graph ops of the Tensor family: table entries and type inference.
 *
 * Shape rules follow the latest ONNX opset. Inputs that later opsets turned
 * from attributes into inputs (reshape's shape, slice's starts/ends, ...) are
 * operands: their values are read when they come from graph.constant, and
 * otherwise the affected dims become dynamic. When not even the result rank
 * is known, the inferred type is unranked (graph-verify then accepts any
 * declared rank; the typed builders refuse, since IRDL needs ranked results).
 *
 * Index operands (shapes, axes, pads, ...) are 1-D tensors of signless i64,
 * or i32/i64 where ONNX allows both (slice's, gather's and pad's Tind). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/common/diag.h"
#include "dialects/graph/infer.h"
#include "dialects/graph/op_table.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

/*===--------------------------------------------------------------------===*
 * Helpers
 *===--------------------------------------------------------------------===*/

/* Fixed-size text for error messages; truncated when long. Returned by
 * value so several can appear in one kilnInferError call. */
typedef struct Text {
  char s[192];
} Text;

static Text textOf(const KilnStrBuf *buf) {
  Text t;
  const char *src = kilnStrBufGet(buf);
  size_t n = strlen(src);
  if (n >= sizeof(t.s))
    n = sizeof(t.s) - 4, memcpy(t.s + n, "...", 4);
  else
    t.s[n] = '\0';
  memcpy(t.s, src, n);
  return t;
}

/* "[2, ?, 3]": `?` for a dynamic dim. */
static Text intsText(const int64_t *v, intptr_t n) {
  KilnStrBuf buf = {0};
  kilnStrBufAppend(&buf, "[", 1);
  for (intptr_t i = 0; i < n; ++i) {
    if (i)
      kilnStrBufAppend(&buf, ", ", 2);
    if (mlirShapedTypeIsDynamicSize(v[i]))
      kilnStrBufAppend(&buf, "?", 1);
    else
      kilnStrBufAppendf(&buf, "%ld", (long)v[i]);
  }
  kilnStrBufAppend(&buf, "]", 1);
  Text t = textOf(&buf);
  kilnStrBufDestroy(&buf);
  return t;
}

static Text typeText(MlirType type) {
  KilnStrBuf buf = {0};
  kilnStrBufAppendType(&buf, type);
  Text t = textOf(&buf);
  kilnStrBufDestroy(&buf);
  return t;
}

static int64_t dynamicDim(void) { return mlirShapedTypeGetDynamicSize(); }
static bool isDynamic(int64_t d) { return mlirShapedTypeIsDynamicSize(d); }

/* Copies a ranked type's shape (rank <= KILN_MAX_RANK) into `dims`. */
static intptr_t shapeOf(MlirType t, int64_t *dims) {
  intptr_t r = mlirShapedTypeGetRank(t);
  for (intptr_t i = 0; i < r; ++i)
    dims[i] = mlirShapedTypeGetDimSize(t, i);
  return r;
}

static MlirType elementOf(MlirType t) {
  return mlirShapedTypeGetElementType(t);
}

static const char *operandName(const KilnInferContext *c, intptr_t i) {
  if (i < c->op->numOperands)
    return c->op->operands[i].name;
  return c->op->operands[c->op->numOperands - 1].name;
}

static void setResult(KilnInferContext *c, intptr_t i, intptr_t rank,
                      const int64_t *dims, MlirType elt) {
  c->resultTypes[i] = kilnInferTensorType(rank, dims, elt);
}

static void setAllDynamic(KilnInferContext *c, intptr_t rank, MlirType elt) {
  int64_t dims[KILN_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i)
    dims[i] = dynamicDim();
  setResult(c, 0, rank, dims, elt);
}

static bool isSignlessInt(MlirType t, unsigned width) {
  return mlirTypeIsAInteger(t) && mlirIntegerTypeIsSignless(t) &&
         mlirIntegerTypeGetWidth(t) == width;
}

/* Product of `n` dims; dynamic if any is, and an error on overflow. */
static MlirLogicalResult dimProduct(const KilnInferContext *c,
                                    const int64_t *dims, intptr_t n,
                                    int64_t *out) {
  int64_t p = 1;
  bool dyn = false;
  for (intptr_t i = 0; i < n; ++i) {
    if (isDynamic(dims[i]))
      dyn = true;
    else if (__builtin_mul_overflow(p, dims[i], &p))
      return kilnInferError(c, "element count of shape %s overflows int64",
                            intsText(dims, n).s);
  }
  *out = dyn ? dynamicDim() : p;
  return mlirLogicalResultSuccess();
}

/* The integer element type wanted of an index operand. */
typedef enum IndexKind { INDEX_I64, INDEX_I32_OR_I64 } IndexKind;

/* Checks that operand `i` is a 1-D tensor of i64 (or i32/i64) and stores its
 * static length, or -1 when dynamic, in *len. */
static MlirLogicalResult indexVector(const KilnInferContext *c, intptr_t i,
                                     IndexKind kind, intptr_t *len) {
  MlirType t = kilnInferRankedOperand(c, i);
  if (mlirTypeIsNull(t))
    return mlirLogicalResultFailure();
  MlirType elt = elementOf(t);
  bool intOk = isSignlessInt(elt, 64) ||
               (kind == INDEX_I32_OR_I64 && isSignlessInt(elt, 32));
  if (mlirShapedTypeGetRank(t) != 1 || !intOk)
    return kilnInferError(
        c, "operand '%s' must be a 1-D tensor of %s, got %s", operandName(c, i),
        kind == INDEX_I64 ? "i64" : "i32 or i64", typeText(t).s);
  int64_t d = mlirShapedTypeGetDimSize(t, 0);
  *len = isDynamic(d) ? -1 : (intptr_t)d;
  return mlirLogicalResultSuccess();
}

/* Reads exactly `n` constant integers of operand `i`; false when the value
 * is not a compile-time constant of that length. */
static bool constantInts(const KilnInferContext *c, intptr_t i, int64_t *out,
                         intptr_t n) {
  return n >= 0 && kilnInferConstantInts(c, i, out, n) == n;
}

/* Normalizes the `n` axes read from operand `name` against `rank` in place
 * ([-rank, rank) -> [0, rank)) and rejects duplicates. */
static MlirLogicalResult normalizeAxes(const KilnInferContext *c,
                                       const char *name, int64_t *axes,
                                       intptr_t n, int64_t rank) {
  int64_t orig[KILN_MAX_RANK];
  memcpy(orig, axes, (size_t)n * sizeof(int64_t));
  for (intptr_t k = 0; k < n; ++k) {
    if (axes[k] < -rank || axes[k] >= rank)
      return kilnInferError(c,
                            "operand '%s' %s has axis %ld, out of range "
                            "for rank %ld",
                            name, intsText(orig, n).s, (long)orig[k],
                            (long)rank);
    if (axes[k] < 0)
      axes[k] += rank;
    for (intptr_t j = 0; j < k; ++j)
      if (axes[j] == axes[k])
        return kilnInferError(c, "operand '%s' %s repeats axis %ld", name,
                              intsText(orig, n).s, (long)axes[k]);
  }
  return mlirLogicalResultSuccess();
}

/* Reads the constant axes of operand `i` (already checked to have static
 * length n <= KILN_MAX_RANK) and normalizes them. *known is false when they
 * are not a compile-time constant. */
static MlirLogicalResult readAxes(const KilnInferContext *c, intptr_t i,
                                  intptr_t n, int64_t rank, int64_t *axes,
                                  bool *known) {
  *known = constantInts(c, i, axes, n);
  if (!*known)
    return mlirLogicalResultSuccess();
  return normalizeAxes(c, operandName(c, i), axes, n, rank);
}

/* Fails unless `value` is one of the NULL-terminated `allowed` strings. */
static MlirLogicalResult checkEnum(const KilnInferContext *c, const char *attr,
                                   MlirStringRef value,
                                   const char *const *allowed) {
  KilnStrBuf list = {0};
  for (const char *const *a = allowed; *a; ++a) {
    if (kilnStringRefEquals(value, *a)) {
      kilnStrBufDestroy(&list);
      return mlirLogicalResultSuccess();
    }
    kilnStrBufAppendf(&list, "%s%s", a == allowed ? "" : ", ", *a);
  }
  kilnInferError(c, "attribute '%s' must be one of %s, got \"%.*s\"", attr,
                 kilnStrBufGet(&list), (int)value.length, value.data);
  kilnStrBufDestroy(&list);
  return mlirLogicalResultFailure();
}

/*===--------------------------------------------------------------------===*
 * constant, identity, shape
 *===--------------------------------------------------------------------===*/

static MlirLogicalResult inferConstant(KilnInferContext *c) {
  MlirAttribute value = kilnInferAttr(c, "value");
  if (mlirAttributeIsNull(value))
    return kilnInferError(c, "requires attribute 'value'");
  MlirType t = mlirAttributeGetType(value);
  if (!mlirTypeIsARankedTensor(t))
    return kilnInferError(c,
                          "attribute 'value' must have a ranked tensor "
                          "type, got %s",
                          typeText(t).s);
  c->resultTypes[0] = t;
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferIdentity(KilnInferContext *c) {
  MlirType t = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(t))
    return mlirLogicalResultFailure();
  c->resultTypes[0] = t;
  return mlirLogicalResultSuccess();
}

/* ONNX Shape: negative start/end count from the back, then both are clamped
 * to [0, rank]. */
static MlirLogicalResult inferShape(KilnInferContext *c) {
  MlirType data = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(data))
    return mlirLogicalResultFailure();
  int64_t r = mlirShapedTypeGetRank(data);
  int64_t start = kilnInferAttrInt(c, "start", 0);
  int64_t end = kilnInferAttrInt(c, "end", r);
  if (start < 0)
    start += r;
  if (end < 0)
    end += r;
  start = start < 0 ? 0 : start > r ? r : start;
  end = end < 0 ? 0 : end > r ? r : end;
  int64_t len = end > start ? end - start : 0;
  setResult(c, 0, 1, &len, mlirIntegerTypeGet(c->ctx, 64));
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * reshape, flatten, transpose
 *===--------------------------------------------------------------------===*/

/* Checks reshape's shape values (ONNX: at most one -1, nothing below -1,
 * 0 copies the input dim unless allowzero) and resolves 0s. */
static MlirLogicalResult reshapeDims(const KilnInferContext *c,
                                     const int64_t *in, intptr_t inRank,
                                     const int64_t *shape, intptr_t n,
                                     bool allowzero, int64_t *out,
                                     intptr_t *inferAt) {
  *inferAt = -1;
  bool hasZero = false;
  for (intptr_t i = 0; i < n; ++i) {
    int64_t v = shape[i];
    out[i] = v;
    if (v < -1)
      return kilnInferError(c,
                            "operand 'shape' %s has invalid value %ld at "
                            "index %ld (must be >= -1)",
                            intsText(shape, n).s, (long)v, (long)i);
    if (v == -1) {
      if (*inferAt >= 0)
        return kilnInferError(c, "operand 'shape' %s has more than one -1",
                              intsText(shape, n).s);
      *inferAt = i;
    }
    if (v == 0 && !allowzero) {
      if (i >= inRank)
        return kilnInferError(c,
                              "operand 'shape' %s has 0 (copy the input "
                              "dim) at index %ld, but the input has rank "
                              "%ld",
                              intsText(shape, n).s, (long)i, (long)inRank);
      out[i] = in[i];
    }
    hasZero |= v == 0;
  }
  if (allowzero && hasZero && *inferAt >= 0)
    return kilnInferError(c,
                          "operand 'shape' %s has both 0 and -1, which "
                          "allowzero = 1 forbids",
                          intsText(shape, n).s);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferReshape(KilnInferContext *c) {
  MlirType data = kilnInferRankedOperand(c, 0);
  intptr_t n;
  if (mlirTypeIsNull(data) ||
      mlirLogicalResultIsFailure(indexVector(c, 1, INDEX_I64, &n)))
    return mlirLogicalResultFailure();
  int64_t allowzero = kilnInferAttrInt(c, "allowzero", 0);
  if (allowzero != 0 && allowzero != 1)
    return kilnInferError(c, "attribute 'allowzero' must be 0 or 1, got %ld",
                          (long)allowzero);
  MlirType elt = elementOf(data);
  if (n < 0) {
    c->resultTypes[0] = mlirUnrankedTensorTypeGet(elt);
    return mlirLogicalResultSuccess();
  }
  if (n > KILN_MAX_RANK)
    return kilnInferError(c,
                          "operand 'shape' has %ld entries, above Kiln's "
                          "rank limit of %d",
                          (long)n, KILN_MAX_RANK);
  int64_t shape[KILN_MAX_RANK], in[KILN_MAX_RANK], out[KILN_MAX_RANK];
  if (!constantInts(c, 1, shape, n)) {
    setAllDynamic(c, n, elt);
    return mlirLogicalResultSuccess();
  }
  intptr_t inRank = shapeOf(data, in), inferAt;
  int64_t inCount, known;
  if (mlirLogicalResultIsFailure(
          reshapeDims(c, in, inRank, shape, n, allowzero, out, &inferAt)) ||
      mlirLogicalResultIsFailure(dimProduct(c, in, inRank, &inCount)))
    return mlirLogicalResultFailure();
  if (inferAt >= 0)
    out[inferAt] = 1;
  if (mlirLogicalResultIsFailure(dimProduct(c, out, n, &known)))
    return mlirLogicalResultFailure();
  if (inferAt >= 0) {
    out[inferAt] = dynamicDim();
    if (!isDynamic(inCount) && !isDynamic(known)) {
      if (known == 0 || inCount % known != 0)
        return kilnInferError(c,
                              "cannot reshape %s into shape %s: the -1 "
                              "dimension cannot be inferred",
                              typeText(data).s, intsText(shape, n).s);
      out[inferAt] = inCount / known;
    }
  } else if (!isDynamic(inCount) && !isDynamic(known) && inCount != known) {
    return kilnInferError(c,
                          "cannot reshape %s (%ld elements) into shape "
                          "%s (%ld elements)",
                          typeText(data).s, (long)inCount, intsText(shape, n).s,
                          (long)known);
  }
  setResult(c, 0, n, out, elt);
  return mlirLogicalResultSuccess();
}

/* ONNX Flatten: axis in [-r, r]; the result is 2-D. */
static MlirLogicalResult inferFlatten(KilnInferContext *c) {
  MlirType input = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(input))
    return mlirLogicalResultFailure();
  int64_t in[KILN_MAX_RANK], out[2];
  intptr_t r = shapeOf(input, in);
  int64_t axis = kilnInferAttrInt(c, "axis", 1);
  if (axis < -r || axis > r)
    return kilnInferError(c,
                          "attribute 'axis' %ld is out of range for rank "
                          "%ld (expected [%ld, %ld])",
                          (long)axis, (long)r, (long)-r, (long)r);
  if (axis < 0)
    axis += r;
  if (mlirLogicalResultIsFailure(dimProduct(c, in, axis, &out[0])) ||
      mlirLogicalResultIsFailure(dimProduct(c, in + axis, r - axis, &out[1])))
    return mlirLogicalResultFailure();
  setResult(c, 0, 2, out, elementOf(input));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferTranspose(KilnInferContext *c) {
  MlirType data = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(data))
    return mlirLogicalResultFailure();
  int64_t in[KILN_MAX_RANK], out[KILN_MAX_RANK], perm[KILN_MAX_RANK];
  intptr_t r = shapeOf(data, in);
  intptr_t n = kilnInferAttrInts(c, "perm", perm, KILN_MAX_RANK);
  if (n < 0) { /* ONNX default: reverse the dims. */
    for (intptr_t i = 0; i < r; ++i)
      perm[i] = r - 1 - i;
    n = r;
  }
  if (n != r)
    return kilnInferError(c,
                          "attribute 'perm' has %ld entries, but the "
                          "input has rank %ld",
                          (long)n, (long)r);
  bool seen[KILN_MAX_RANK] = {false};
  for (intptr_t i = 0; i < r; ++i) {
    if (perm[i] < 0 || perm[i] >= r || seen[perm[i]])
      return kilnInferError(c,
                            "attribute 'perm' %s is not a permutation of "
                            "[0, %ld)",
                            intsText(perm, n).s, (long)r);
    seen[perm[i]] = true;
    out[i] = in[perm[i]];
  }
  setResult(c, 0, r, out, elementOf(data));
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * concat, split
 *===--------------------------------------------------------------------===*/

static MlirLogicalResult inferConcat(KilnInferContext *c) {
  /* graph-verify passes an empty variadic as one null value. */
  if (mlirValueIsNull(kilnInferOperand(c, 0)))
    return kilnInferError(c, "requires at least one operand 'inputs'");
  MlirType first = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(first))
    return mlirLogicalResultFailure();
  int64_t out[KILN_MAX_RANK], axis;
  intptr_t r = shapeOf(first, out);
  if (mlirLogicalResultIsFailure(kilnInferNormalizeAxis(
          c, "attribute 'axis'", kilnInferAttrInt(c, "axis", 0), r, &axis)))
    return mlirLogicalResultFailure();
  MlirType elt = elementOf(first);
  for (intptr_t i = 1; i < c->numOperands; ++i) {
    MlirType t = kilnInferRankedOperand(c, i);
    if (mlirTypeIsNull(t))
      return mlirLogicalResultFailure();
    if (!mlirTypeEqual(elementOf(t), elt) || mlirShapedTypeGetRank(t) != r)
      return kilnInferError(c,
                            "operand #%ld has type %s, incompatible with "
                            "operand #0 of type %s (element type and rank "
                            "must match)",
                            (long)i, typeText(t).s, typeText(first).s);
    for (intptr_t k = 0; k < r; ++k) {
      int64_t d = mlirShapedTypeGetDimSize(t, k);
      if (k == axis) {
        if (isDynamic(d) || isDynamic(out[k]) ||
            __builtin_add_overflow(out[k], d, &out[k]))
          out[k] = dynamicDim();
      } else if (isDynamic(out[k])) {
        out[k] = d;
      } else if (!isDynamic(d) && d != out[k]) {
        return kilnInferError(c,
                              "operand #%ld has type %s, but dimension "
                              "%ld must be %ld as in the other inputs "
                              "(only axis %ld may differ)",
                              (long)i, typeText(t).s, (long)k, (long)out[k],
                              (long)axis);
      }
    }
  }
  setResult(c, 0, r, out, elt);
  return mlirLogicalResultSuccess();
}

/* Sizes along the split axis from num_outputs: ceil(d / n) each, the last
 * one smaller (ONNX Split-18). */
static MlirLogicalResult splitEvenly(const KilnInferContext *c, int64_t d,
                                     intptr_t n, int64_t *sizes) {
  for (intptr_t i = 0; i < n; ++i)
    sizes[i] = d;
  if (isDynamic(d))
    return mlirLogicalResultSuccess();
  int64_t chunk = d / n + (d % n != 0), before;
  if (__builtin_mul_overflow(chunk, (int64_t)(n - 1), &before) || before > d)
    return kilnInferError(c,
                          "cannot split a dimension of size %ld into %ld "
                          "outputs of size ceil(%ld / %ld)",
                          (long)d, (long)n, (long)d, (long)n);
  for (intptr_t i = 0; i < n; ++i)
    sizes[i] = i + 1 < n ? chunk : d - before;
  return mlirLogicalResultSuccess();
}

/* Sizes along the split axis from the 'split' operand. */
static MlirLogicalResult splitExplicitly(const KilnInferContext *c, int64_t d,
                                         intptr_t n, int64_t *sizes) {
  intptr_t len;
  if (mlirLogicalResultIsFailure(indexVector(c, 1, INDEX_I64, &len)))
    return mlirLogicalResultFailure();
  if (len >= 0 && len != n)
    return kilnInferError(c,
                          "operand 'split' has %ld entries, but the op "
                          "has %ld results",
                          (long)len, (long)n);
  if (!constantInts(c, 1, sizes, n)) {
    for (intptr_t i = 0; i < n; ++i)
      sizes[i] = dynamicDim();
    return mlirLogicalResultSuccess();
  }
  int64_t sum = 0;
  for (intptr_t i = 0; i < n; ++i)
    if (sizes[i] < 0 || __builtin_add_overflow(sum, sizes[i], &sum))
      return kilnInferError(c,
                            "operand 'split' %s must hold non-negative "
                            "sizes",
                            intsText(sizes, n).s);
  if (!isDynamic(d) && sum != d)
    return kilnInferError(c,
                          "operand 'split' %s sums to %ld, but the split "
                          "dimension has size %ld",
                          intsText(sizes, n).s, (long)sum, (long)d);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferSplit(KilnInferContext *c) {
  MlirType input = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(input))
    return mlirLogicalResultFailure();
  int64_t dims[KILN_MAX_RANK], axis;
  intptr_t r = shapeOf(input, dims), n = c->numResults;
  if (mlirLogicalResultIsFailure(kilnInferNormalizeAxis(
          c, "attribute 'axis'", kilnInferAttrInt(c, "axis", 0), r, &axis)))
    return mlirLogicalResultFailure();
  bool hasSplit = !mlirValueIsNull(kilnInferOperand(c, 1));
  bool hasNum = !mlirAttributeIsNull(kilnInferAttr(c, "num_outputs"));
  if (hasSplit == hasNum)
    return kilnInferError(c, "requires exactly one of operand 'split' and "
                             "attribute 'num_outputs'");
  if (n < 1)
    return kilnInferError(c, "requires at least one result");
  if (hasNum && kilnInferAttrInt(c, "num_outputs", 0) != n)
    return kilnInferError(c,
                          "attribute 'num_outputs' is %ld, but the op "
                          "has %ld results",
                          (long)kilnInferAttrInt(c, "num_outputs", 0), (long)n);
  int64_t *sizes = malloc((size_t)n * sizeof(int64_t));
  if (!sizes)
    abort();
  MlirLogicalResult ok = hasNum ? splitEvenly(c, dims[axis], n, sizes)
                                : splitExplicitly(c, dims[axis], n, sizes);
  if (mlirLogicalResultIsSuccess(ok)) {
    for (intptr_t i = 0; i < n; ++i) {
      dims[axis] = sizes[i];
      setResult(c, i, r, dims, elementOf(input));
    }
  }
  free(sizes);
  return ok;
}

/*===--------------------------------------------------------------------===*
 * slice, gather
 *===--------------------------------------------------------------------===*/

static int64_t clampI64(int64_t v, int64_t lo, int64_t hi) {
  return v < lo ? lo : v > hi ? hi : v;
}

/* ONNX Slice on one axis of static size `dim` (step != 0). */
static int64_t sliceLength(int64_t dim, int64_t start, int64_t end,
                           int64_t step) {
  if (dim == 0)
    return 0;
  if (start < 0)
    start += dim;
  if (end < 0)
    end += dim;
  uint64_t span, stride;
  if (step > 0) {
    start = clampI64(start, 0, dim);
    end = clampI64(end, 0, dim);
    if (end <= start)
      return 0;
    span = (uint64_t)(end - start);
    stride = (uint64_t)step;
  } else {
    start = clampI64(start, 0, dim - 1);
    end = clampI64(end, -1, dim - 1);
    if (start <= end)
      return 0;
    span = (uint64_t)(start - end);
    stride = 0 - (uint64_t)step; /* well defined for INT64_MIN too */
  }
  return (int64_t)((span - 1) / stride + 1);
}

/* The common static length of slice's index operands (-1 if unknown);
 * they must agree in length and element type. */
static MlirLogicalResult sliceOperands(const KilnInferContext *c, intptr_t *n) {
  MlirType elt = {NULL};
  intptr_t first = -1;
  *n = -1;
  for (intptr_t i = 1; i <= 4; ++i) {
    intptr_t len;
    if (i >= 3 && mlirValueIsNull(kilnInferOperand(c, i)))
      continue;
    if (mlirLogicalResultIsFailure(indexVector(c, i, INDEX_I32_OR_I64, &len)))
      return mlirLogicalResultFailure();
    MlirType t = mlirValueGetType(kilnInferOperand(c, i));
    if (mlirTypeIsNull(elt))
      elt = elementOf(t);
    else if (!mlirTypeEqual(elt, elementOf(t)))
      return kilnInferError(c,
                            "operand '%s' has type %s, but 'starts' has "
                            "element type %s",
                            operandName(c, i), typeText(t).s, typeText(elt).s);
    if (len < 0)
      continue;
    if (*n >= 0 && len != *n)
      return kilnInferError(c,
                            "operand '%s' has %ld entries, but '%s' has "
                            "%ld",
                            operandName(c, i), (long)len, operandName(c, first),
                            (long)*n);
    *n = len;
    first = i;
  }
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferSlice(KilnInferContext *c) {
  MlirType data = kilnInferRankedOperand(c, 0);
  intptr_t n;
  if (mlirTypeIsNull(data) || mlirLogicalResultIsFailure(sliceOperands(c, &n)))
    return mlirLogicalResultFailure();
  int64_t dims[KILN_MAX_RANK];
  intptr_t r = shapeOf(data, dims);
  MlirType elt = elementOf(data);
  if (n > r)
    return kilnInferError(c,
                          "operand 'starts' has %ld entries, but the "
                          "input has rank %ld",
                          (long)n, (long)r);
  int64_t axes[KILN_MAX_RANK], starts[KILN_MAX_RANK], ends[KILN_MAX_RANK],
      steps[KILN_MAX_RANK];
  bool axesKnown = n >= 0;
  if (axesKnown && mlirValueIsNull(kilnInferOperand(c, 3))) {
    for (intptr_t k = 0; k < n; ++k)
      axes[k] = k;
  } else if (axesKnown && mlirLogicalResultIsFailure(
                              readAxes(c, 3, n, r, axes, &axesKnown))) {
    return mlirLogicalResultFailure();
  }
  if (!axesKnown) { /* any dim may be sliced */
    setAllDynamic(c, r, elt);
    return mlirLogicalResultSuccess();
  }
  bool valuesKnown =
      constantInts(c, 1, starts, n) && constantInts(c, 2, ends, n);
  if (mlirValueIsNull(kilnInferOperand(c, 4)))
    for (intptr_t k = 0; k < n; ++k)
      steps[k] = 1;
  else
    valuesKnown &= constantInts(c, 4, steps, n);
  for (intptr_t k = 0; valuesKnown && k < n; ++k)
    if (steps[k] == 0)
      return kilnInferError(c, "operand 'steps' %s must not contain 0",
                            intsText(steps, n).s);
  for (intptr_t k = 0; k < n; ++k) {
    int64_t a = axes[k];
    if (!valuesKnown || isDynamic(dims[a]))
      dims[a] = dynamicDim();
    else
      dims[a] = sliceLength(dims[a], starts[k], ends[k], steps[k]);
  }
  setResult(c, 0, r, dims, elt);
  return mlirLogicalResultSuccess();
}

/* Checks constant gather indices against the gathered dim's size `s`. */
static MlirLogicalResult checkGatherIndices(const KilnInferContext *c,
                                            int64_t s) {
  intptr_t n = kilnInferConstantInts(c, 1, NULL, 0);
  if (n <= 0 || isDynamic(s))
    return mlirLogicalResultSuccess();
  int64_t *v = malloc((size_t)n * sizeof(int64_t));
  if (!v)
    abort();
  kilnInferConstantInts(c, 1, v, n);
  MlirLogicalResult ok = mlirLogicalResultSuccess();
  for (intptr_t i = 0; i < n && mlirLogicalResultIsSuccess(ok); ++i)
    if (v[i] < -s || v[i] >= s)
      ok = kilnInferError(c,
                          "index %ld in operand 'indices' is out of range "
                          "for a dimension of size %ld",
                          (long)v[i], (long)s);
  free(v);
  return ok;
}

static MlirLogicalResult inferGather(KilnInferContext *c) {
  MlirType data = kilnInferRankedOperand(c, 0);
  MlirType indices = kilnInferRankedOperand(c, 1);
  if (mlirTypeIsNull(data) || mlirTypeIsNull(indices))
    return mlirLogicalResultFailure();
  MlirType ielt = elementOf(indices);
  if (!isSignlessInt(ielt, 32) && !isSignlessInt(ielt, 64))
    return kilnInferError(c,
                          "operand 'indices' must have i32 or i64 "
                          "elements, got %s",
                          typeText(indices).s);
  int64_t in[KILN_MAX_RANK], idx[KILN_MAX_RANK], out[KILN_MAX_RANK], axis;
  intptr_t r = shapeOf(data, in), q = shapeOf(indices, idx);
  if (mlirLogicalResultIsFailure(kilnInferNormalizeAxis(
          c, "attribute 'axis'", kilnInferAttrInt(c, "axis", 0), r, &axis)))
    return mlirLogicalResultFailure();
  if (q + r - 1 > KILN_MAX_RANK)
    return kilnInferError(c, "result rank %ld is above Kiln's limit of %d",
                          (long)(q + r - 1), KILN_MAX_RANK);
  if (mlirLogicalResultIsFailure(checkGatherIndices(c, in[axis])))
    return mlirLogicalResultFailure();
  intptr_t k = 0;
  for (intptr_t i = 0; i < axis; ++i)
    out[k++] = in[i];
  for (intptr_t i = 0; i < q; ++i)
    out[k++] = idx[i];
  for (intptr_t i = axis + 1; i < r; ++i)
    out[k++] = in[i];
  setResult(c, 0, k, out, elementOf(data));
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * squeeze, unsqueeze
 *===--------------------------------------------------------------------===*/

static MlirLogicalResult inferSqueeze(KilnInferContext *c) {
  MlirType data = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(data))
    return mlirLogicalResultFailure();
  int64_t in[KILN_MAX_RANK], out[KILN_MAX_RANK], axes[KILN_MAX_RANK];
  intptr_t r = shapeOf(data, in), n = 0;
  MlirType elt = elementOf(data);
  bool drop[KILN_MAX_RANK] = {false};
  if (mlirValueIsNull(kilnInferOperand(c, 1))) {
    /* No axes: every dim of size 1 goes; a dynamic dim might be 1. */
    for (intptr_t i = 0; i < r; ++i) {
      if (isDynamic(in[i])) {
        c->resultTypes[0] = mlirUnrankedTensorTypeGet(elt);
        return mlirLogicalResultSuccess();
      }
      drop[i] = in[i] == 1;
    }
  } else {
    bool known;
    if (mlirLogicalResultIsFailure(indexVector(c, 1, INDEX_I64, &n)))
      return mlirLogicalResultFailure();
    if (n > r)
      return kilnInferError(c,
                            "operand 'axes' has %ld entries, but the "
                            "input has rank %ld",
                            (long)n, (long)r);
    if (n < 0) {
      c->resultTypes[0] = mlirUnrankedTensorTypeGet(elt);
      return mlirLogicalResultSuccess();
    }
    if (mlirLogicalResultIsFailure(readAxes(c, 1, n, r, axes, &known)))
      return mlirLogicalResultFailure();
    if (!known) {
      setAllDynamic(c, r - n, elt);
      return mlirLogicalResultSuccess();
    }
    for (intptr_t k = 0; k < n; ++k) {
      int64_t d = in[axes[k]];
      if (!isDynamic(d) && d != 1)
        return kilnInferError(c,
                              "cannot squeeze axis %ld of %s: its size "
                              "is %ld, not 1",
                              (long)axes[k], typeText(data).s, (long)d);
      drop[axes[k]] = true;
    }
  }
  n = 0;
  for (intptr_t i = 0; i < r; ++i)
    if (!drop[i])
      out[n++] = in[i];
  setResult(c, 0, n, out, elt);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferUnsqueeze(KilnInferContext *c) {
  MlirType data = kilnInferRankedOperand(c, 0);
  intptr_t n;
  if (mlirTypeIsNull(data) ||
      mlirLogicalResultIsFailure(indexVector(c, 1, INDEX_I64, &n)))
    return mlirLogicalResultFailure();
  int64_t in[KILN_MAX_RANK], out[KILN_MAX_RANK], axes[KILN_MAX_RANK];
  intptr_t r = shapeOf(data, in);
  MlirType elt = elementOf(data);
  if (n < 0) {
    c->resultTypes[0] = mlirUnrankedTensorTypeGet(elt);
    return mlirLogicalResultSuccess();
  }
  intptr_t rank = r + n;
  if (rank > KILN_MAX_RANK)
    return kilnInferError(c, "result rank %ld is above Kiln's limit of %d",
                          (long)rank, KILN_MAX_RANK);
  bool known;
  if (mlirLogicalResultIsFailure(readAxes(c, 1, n, rank, axes, &known)))
    return mlirLogicalResultFailure();
  if (!known) {
    setAllDynamic(c, rank, elt);
    return mlirLogicalResultSuccess();
  }
  bool inserted[KILN_MAX_RANK] = {false};
  for (intptr_t k = 0; k < n; ++k)
    inserted[axes[k]] = true;
  for (intptr_t i = 0, j = 0; i < rank; ++i)
    out[i] = inserted[i] ? 1 : in[j++];
  setResult(c, 0, rank, out, elt);
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * expand, tile
 *===--------------------------------------------------------------------===*/

/* ONNX Expand: the input and the shape value broadcast both ways. */
static MlirLogicalResult inferExpand(KilnInferContext *c) {
  MlirType input = kilnInferRankedOperand(c, 0);
  intptr_t n;
  if (mlirTypeIsNull(input) ||
      mlirLogicalResultIsFailure(indexVector(c, 1, INDEX_I64, &n)))
    return mlirLogicalResultFailure();
  MlirType elt = elementOf(input);
  if (n < 0) {
    c->resultTypes[0] = mlirUnrankedTensorTypeGet(elt);
    return mlirLogicalResultSuccess();
  }
  if (n > KILN_MAX_RANK)
    return kilnInferError(c,
                          "operand 'shape' has %ld entries, above Kiln's "
                          "rank limit of %d",
                          (long)n, KILN_MAX_RANK);
  int64_t in[KILN_MAX_RANK], shape[KILN_MAX_RANK], out[KILN_MAX_RANK];
  intptr_t r = shapeOf(input, in), rank = r > n ? r : n;
  bool known = constantInts(c, 1, shape, n);
  for (intptr_t k = 0; known && k < n; ++k)
    if (shape[k] < 0)
      return kilnInferError(c, "operand 'shape' %s has a negative dimension",
                            intsText(shape, n).s);
  for (intptr_t k = 0; k < rank; ++k) {
    intptr_t ia = k - (rank - r), is = k - (rank - n);
    int64_t a = ia >= 0 ? in[ia] : 1;
    if (!known) { /* a static dim other than 1 survives any shape */
      out[k] = !isDynamic(a) && a != 1 ? a : dynamicDim();
      continue;
    }
    int64_t s = is >= 0 ? shape[is] : 1;
    if (isDynamic(a))
      out[k] = s == 1 ? a : s;
    else if (a == s || a == 1 || s == 1)
      out[k] = a == 1 ? s : a;
    else
      return kilnInferError(c,
                            "input of type %s cannot be broadcast to "
                            "shape %s",
                            typeText(input).s, intsText(shape, n).s);
  }
  setResult(c, 0, rank, out, elt);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferTile(KilnInferContext *c) {
  MlirType input = kilnInferRankedOperand(c, 0);
  intptr_t n;
  if (mlirTypeIsNull(input) ||
      mlirLogicalResultIsFailure(indexVector(c, 1, INDEX_I64, &n)))
    return mlirLogicalResultFailure();
  int64_t dims[KILN_MAX_RANK], reps[KILN_MAX_RANK];
  intptr_t r = shapeOf(input, dims);
  if (n >= 0 && n != r)
    return kilnInferError(c,
                          "operand 'repeats' has %ld entries, but the "
                          "input has rank %ld",
                          (long)n, (long)r);
  bool known = constantInts(c, 1, reps, r);
  for (intptr_t k = 0; k < r; ++k) {
    if (!known) {
      dims[k] = dynamicDim();
      continue;
    }
    if (reps[k] < 0)
      return kilnInferError(c, "operand 'repeats' %s must be non-negative",
                            intsText(reps, r).s);
    if (isDynamic(dims[k]))
      continue;
    if (__builtin_mul_overflow(dims[k], reps[k], &dims[k]))
      return kilnInferError(c, "tiling %s by %s overflows int64",
                            typeText(input).s, intsText(reps, r).s);
  }
  setResult(c, 0, r, dims, elementOf(input));
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * range
 *===--------------------------------------------------------------------===*/

/* A scalar constant operand as a double (f32/f64 or any integer). */
static bool constantScalar(const KilnInferContext *c, intptr_t i, double *out) {
  int64_t v;
  if (kilnInferConstantInts(c, i, &v, 1) == 1) {
    *out = (double)v;
    return true;
  }
  MlirValue value = kilnInferOperand(c, i);
  if (!mlirValueIsAOpResult(value))
    return false;
  MlirOperation def = mlirOpResultGetOwner(value);
  if (!kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(def)),
                           "graph.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(
      def, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a) ||
      mlirElementsAttrGetNumElements(a) != 1)
    return false;
  MlirType elt = elementOf(mlirAttributeGetType(a));
  if (mlirTypeIsAF32(elt))
    *out = mlirDenseElementsAttrGetFloatValue(a, 0);
  else if (mlirTypeIsAF64(elt))
    *out = mlirDenseElementsAttrGetDoubleValue(a, 0);
  else
    return false;
  return true;
}

/* The integer length max(ceil((limit - start) / delta), 0), exactly. */
static MlirLogicalResult rangeIntLength(const KilnInferContext *c,
                                        int64_t start, int64_t limit,
                                        int64_t delta, int64_t *len) {
  int64_t diff;
  if (__builtin_sub_overflow(limit, start, &diff))
    return kilnInferError(c, "range from %ld to %ld overflows int64",
                          (long)start, (long)limit);
  if (diff == 0 || (diff > 0) != (delta > 0)) {
    *len = 0;
    return mlirLogicalResultSuccess();
  }
  uint64_t span = diff > 0 ? (uint64_t)diff : 0 - (uint64_t)diff;
  uint64_t step = delta > 0 ? (uint64_t)delta : 0 - (uint64_t)delta;
  uint64_t n = (span - 1) / step + 1;
  if (n > (uint64_t)INT64_MAX)
    return kilnInferError(c, "range length overflows int64");
  *len = (int64_t)n;
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferRange(KilnInferContext *c) {
  MlirType types[3];
  for (intptr_t i = 0; i < 3; ++i) {
    types[i] = kilnInferRankedOperand(c, i);
    if (mlirTypeIsNull(types[i]))
      return mlirLogicalResultFailure();
    if (mlirShapedTypeGetRank(types[i]) != 0)
      return kilnInferError(c,
                            "operand '%s' must be a scalar (rank 0), got "
                            "%s",
                            operandName(c, i), typeText(types[i]).s);
  }
  MlirType elt = elementOf(types[0]);
  if (!mlirTypeIsAF32(elt) && !mlirTypeIsAF64(elt) && !isSignlessInt(elt, 16) &&
      !isSignlessInt(elt, 32) && !isSignlessInt(elt, 64))
    return kilnInferError(c,
                          "operand 'start' must be f32, f64, i16, i32 or "
                          "i64, got %s",
                          typeText(types[0]).s);
  for (intptr_t i = 1; i < 3; ++i)
    if (!mlirTypeEqual(elementOf(types[i]), elt))
      return kilnInferError(c,
                            "operand '%s' has type %s, but 'start' has "
                            "type %s",
                            operandName(c, i), typeText(types[i]).s,
                            typeText(types[0]).s);
  int64_t len = dynamicDim();
  int64_t iv[3];
  double fv[3];
  bool isInt = mlirTypeIsAInteger(elt);
  bool known = true;
  for (intptr_t i = 0; i < 3; ++i)
    known &= isInt ? kilnInferConstantInts(c, i, &iv[i], 1) == 1
                   : constantScalar(c, i, &fv[i]);
  if (known && (isInt ? iv[2] == 0 : fv[2] == 0.0))
    return kilnInferError(c, "operand 'delta' must not be zero");
  if (known && isInt) {
    if (mlirLogicalResultIsFailure(
            rangeIntLength(c, iv[0], iv[1], iv[2], &len)))
      return mlirLogicalResultFailure();
  } else if (known) {
    double n = ceil((fv[1] - fv[0]) / fv[2]);
    if (!(n < 0x1p62)) /* also catches NaN and infinities */
      return kilnInferError(c,
                            "range from %g to %g by %g has no "
                            "representable length",
                            fv[0], fv[1], fv[2]);
    len = n > 0 ? (int64_t)n : 0;
  }
  setResult(c, 0, 1, &len, elt);
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * pad
 *===--------------------------------------------------------------------===*/

static MlirLogicalResult checkPadConstant(const KilnInferContext *c,
                                          MlirType data) {
  if (mlirValueIsNull(kilnInferOperand(c, 2)))
    return mlirLogicalResultSuccess();
  MlirType t = kilnInferRankedOperand(c, 2);
  if (mlirTypeIsNull(t))
    return mlirLogicalResultFailure();
  /* ONNX wants a scalar; exporters also write a one-element 1-D tensor. */
  bool scalar =
      mlirShapedTypeGetRank(t) == 0 ||
      (mlirShapedTypeGetRank(t) == 1 && mlirShapedTypeGetDimSize(t, 0) == 1);
  if (!scalar || !mlirTypeEqual(elementOf(t), elementOf(data)))
    return kilnInferError(c,
                          "operand 'constant_value' must be a scalar of "
                          "the input's element type, got %s for input %s",
                          typeText(t).s, typeText(data).s);
  return mlirLogicalResultSuccess();
}

/* Pads axes[k] of `dims` by pads[k] before and pads[k + n] after. */
static MlirLogicalResult padDims(const KilnInferContext *c, int64_t *dims,
                                 const int64_t *axes, const int64_t *pads,
                                 intptr_t n) {
  for (intptr_t k = 0; k < n; ++k) {
    int64_t d = dims[axes[k]];
    if (isDynamic(d))
      continue;
    int64_t out;
    if (__builtin_add_overflow(d, pads[k], &out) ||
        __builtin_add_overflow(out, pads[k + n], &out) || out < 0)
      return kilnInferError(c,
                            "padding axis %ld of size %ld by %ld before "
                            "and %ld after gives an invalid size",
                            (long)axes[k], (long)d, (long)pads[k],
                            (long)pads[k + n]);
    dims[axes[k]] = out;
  }
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferPad(KilnInferContext *c) {
  static const char *const kModes[] = {"constant", "reflect", "edge", "wrap",
                                       NULL};
  MlirType data = kilnInferRankedOperand(c, 0);
  intptr_t numPads, n = -1;
  if (mlirTypeIsNull(data) ||
      mlirLogicalResultIsFailure(indexVector(c, 1, INDEX_I64, &numPads)) ||
      mlirLogicalResultIsFailure(checkPadConstant(c, data)) ||
      mlirLogicalResultIsFailure(checkEnum(
          c, "mode", kilnInferAttrString(c, "mode", "constant"), kModes)))
    return mlirLogicalResultFailure();
  int64_t dims[KILN_MAX_RANK], axes[KILN_MAX_RANK], pads[2 * KILN_MAX_RANK];
  intptr_t r = shapeOf(data, dims);
  MlirType elt = elementOf(data);
  bool hasAxes = !mlirValueIsNull(kilnInferOperand(c, 3)), known = true;
  if (hasAxes) {
    if (mlirLogicalResultIsFailure(indexVector(c, 3, INDEX_I32_OR_I64, &n)))
      return mlirLogicalResultFailure();
    if (n > r)
      return kilnInferError(c,
                            "operand 'axes' has %ld entries, but the "
                            "input has rank %ld",
                            (long)n, (long)r);
    if (n >= 0 &&
        mlirLogicalResultIsFailure(readAxes(c, 3, n, r, axes, &known)))
      return mlirLogicalResultFailure();
  } else {
    n = r;
    for (intptr_t k = 0; k < r; ++k)
      axes[k] = k;
  }
  if (n >= 0 && numPads >= 0 && numPads != 2 * n)
    return kilnInferError(c,
                          "operand 'pads' has %ld entries, expected %ld "
                          "(2 per padded axis)",
                          (long)numPads, (long)(2 * n));
  if (n < 0 || !known) { /* which axes are padded is unknown */
    setAllDynamic(c, r, elt);
    return mlirLogicalResultSuccess();
  }
  if (!constantInts(c, 1, pads, 2 * n)) {
    for (intptr_t k = 0; k < n; ++k)
      dims[axes[k]] = dynamicDim();
  } else if (mlirLogicalResultIsFailure(padDims(c, dims, axes, pads, n))) {
    return mlirLogicalResultFailure();
  }
  setResult(c, 0, r, dims, elt);
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * depth_to_space, space_to_depth
 *===--------------------------------------------------------------------===*/

/* Reads the NCHW input and a positive blocksize. */
static MlirLogicalResult blockOperand(const KilnInferContext *c,
                                      MlirType *input, int64_t *dims,
                                      int64_t *b) {
  *input = kilnInferRankedOperand(c, 0);
  if (mlirTypeIsNull(*input))
    return mlirLogicalResultFailure();
  if (mlirShapedTypeGetRank(*input) != 4)
    return kilnInferError(c,
                          "operand 'input' must have rank 4 (N x C x H x "
                          "W), got %s",
                          typeText(*input).s);
  shapeOf(*input, dims);
  *b = kilnInferAttrInt(c, "blocksize", 0);
  if (*b <= 0)
    return kilnInferError(c,
                          "attribute 'blocksize' must be positive, got "
                          "%ld",
                          (long)*b);
  return mlirLogicalResultSuccess();
}

/* dims[i] *= f for a static dim, failing on overflow. */
static MlirLogicalResult scaleDim(const KilnInferContext *c, int64_t *dims,
                                  int i, int64_t f) {
  if (!isDynamic(dims[i]) && __builtin_mul_overflow(dims[i], f, &dims[i]))
    return kilnInferError(c, "dimension %d overflows int64", i);
  return mlirLogicalResultSuccess();
}

/* dims[i] /= f for a static dim, failing unless divisible. */
static MlirLogicalResult divideDim(const KilnInferContext *c, MlirType input,
                                   int64_t *dims, int i, int64_t f) {
  if (isDynamic(dims[i]))
    return mlirLogicalResultSuccess();
  if (dims[i] % f != 0)
    return kilnInferError(c, "dimension %d of %s is not divisible by %ld", i,
                          typeText(input).s, (long)f);
  dims[i] /= f;
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferDepthToSpace(KilnInferContext *c) {
  static const char *const kModes[] = {"DCR", "CRD", NULL};
  MlirType input;
  int64_t dims[4], b, bb;
  if (mlirLogicalResultIsFailure(blockOperand(c, &input, dims, &b)) ||
      mlirLogicalResultIsFailure(
          checkEnum(c, "mode", kilnInferAttrString(c, "mode", "DCR"), kModes)))
    return mlirLogicalResultFailure();
  if (__builtin_mul_overflow(b, b, &bb))
    return kilnInferError(c, "attribute 'blocksize' %ld is too large", (long)b);
  if (mlirLogicalResultIsFailure(divideDim(c, input, dims, 1, bb)) ||
      mlirLogicalResultIsFailure(scaleDim(c, dims, 2, b)) ||
      mlirLogicalResultIsFailure(scaleDim(c, dims, 3, b)))
    return mlirLogicalResultFailure();
  setResult(c, 0, 4, dims, elementOf(input));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferSpaceToDepth(KilnInferContext *c) {
  MlirType input;
  int64_t dims[4], b, bb;
  if (mlirLogicalResultIsFailure(blockOperand(c, &input, dims, &b)))
    return mlirLogicalResultFailure();
  if (__builtin_mul_overflow(b, b, &bb))
    return kilnInferError(c, "attribute 'blocksize' %ld is too large", (long)b);
  if (mlirLogicalResultIsFailure(divideDim(c, input, dims, 2, b)) ||
      mlirLogicalResultIsFailure(divideDim(c, input, dims, 3, b)) ||
      mlirLogicalResultIsFailure(scaleDim(c, dims, 1, bb)))
    return mlirLogicalResultFailure();
  setResult(c, 0, 4, dims, elementOf(input));
  return mlirLogicalResultSuccess();
}

/*===--------------------------------------------------------------------===*
 * The table
 *===--------------------------------------------------------------------===*/

#define S KILN_OPERAND_SINGLE
#define O KILN_OPERAND_OPTIONAL
#define V KILN_OPERAND_VARIADIC

static const KilnOperandSpec kInput[] = {{"input", S}};
static const KilnOperandSpec kData[] = {{"data", S}};
static const KilnOperandSpec kOutput[] = {{"output", S}};
static const KilnOperandSpec kReshapeIn[] = {{"data", S}, {"shape", S}};
static const KilnOperandSpec kReshapeOut[] = {{"reshaped", S}};
static const KilnOperandSpec kTransposed[] = {{"transposed", S}};
static const KilnOperandSpec kConcatIn[] = {{"inputs", V}};
static const KilnOperandSpec kConcatOut[] = {{"concat_result", S}};
static const KilnOperandSpec kSplitIn[] = {{"input", S}, {"split", O}};
static const KilnOperandSpec kSplitOut[] = {{"outputs", V}};
static const KilnOperandSpec kSliceIn[] = {
    {"data", S}, {"starts", S}, {"ends", S}, {"axes", O}, {"steps", O}};
static const KilnOperandSpec kGatherIn[] = {{"data", S}, {"indices", S}};
static const KilnOperandSpec kSqueezeIn[] = {{"data", S}, {"axes", O}};
static const KilnOperandSpec kSqueezed[] = {{"squeezed", S}};
static const KilnOperandSpec kUnsqueezeIn[] = {{"data", S}, {"axes", S}};
static const KilnOperandSpec kExpanded[] = {{"expanded", S}};
static const KilnOperandSpec kExpandIn[] = {{"input", S}, {"shape", S}};
static const KilnOperandSpec kTileIn[] = {{"input", S}, {"repeats", S}};
static const KilnOperandSpec kShapeOut[] = {{"shape", S}};
static const KilnOperandSpec kRangeIn[] = {
    {"start", S}, {"limit", S}, {"delta", S}};
static const KilnOperandSpec kPadIn[] = {
    {"data", S}, {"pads", S}, {"constant_value", O}, {"axes", O}};

static const KilnAttrSpec kConstantAttrs[] = {
    {"value", KILN_ATTR_TENSOR, true, NULL, "the tensor; sets the result type"},
};
static const KilnAttrSpec kReshapeAttrs[] = {
    {"allowzero", KILN_ATTR_INT, false, "0 : i64",
     "1: a 0 in 'shape' is a zero dim, not a copy of the input dim"},
};
static const KilnAttrSpec kFlattenAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "1 : i64",
     "dims before it form the first result dim; in [-r, r]"},
};
static const KilnAttrSpec kTransposeAttrs[] = {
    {"perm", KILN_ATTR_INTS, false, NULL,
     "result dim i is input dim perm[i]; default reverses the dims"},
};
static const KilnAttrSpec kConcatAttrs[] = {
    {"axis", KILN_ATTR_INT, true, NULL, "axis to concatenate on"},
};
static const KilnAttrSpec kSplitAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "0 : i64", "axis to split"},
    {"num_outputs", KILN_ATTR_INT, false, NULL,
     "split into this many near-equal parts (instead of 'split')"},
};
static const KilnAttrSpec kGatherAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "0 : i64", "axis to gather on"},
};
static const KilnAttrSpec kShapeAttrs[] = {
    {"start", KILN_ATTR_INT, false, "0 : i64", "first dim to include"},
    {"end", KILN_ATTR_INT, false, NULL,
     "one past the last dim to include; default: the rank"},
};
static const KilnAttrSpec kPadAttrs[] = {
    {"mode", KILN_ATTR_STRING, false, "\"constant\"",
     "constant, reflect, edge or wrap"},
};
static const KilnAttrSpec kDepthToSpaceAttrs[] = {
    {"blocksize", KILN_ATTR_INT, true, NULL, "block edge, > 0"},
    {"mode", KILN_ATTR_STRING, false, "\"DCR\"",
     "DCR (depth-column-row) or CRD (column-row-depth)"},
};
static const KilnAttrSpec kSpaceToDepthAttrs[] = {
    {"blocksize", KILN_ATTR_INT, true, NULL, "block edge, > 0"},
};

#define OPERANDS(a) a, COUNT(a)
#define NO_ATTRS NULL, 0

const KilnGraphOpInfo kilnGraphTensorOps[] = {
    {"constant", "Constant", "A constant tensor", NULL, 0, OPERANDS(kOutput),
     OPERANDS(kConstantAttrs), inferConstant},
    {"identity", "Identity", "The input, unchanged", OPERANDS(kInput),
     OPERANDS(kOutput), NO_ATTRS, inferIdentity},
    {"reshape", "Reshape", "Reshape to the shape operand's value",
     OPERANDS(kReshapeIn), OPERANDS(kReshapeOut), OPERANDS(kReshapeAttrs),
     inferReshape},
    {"flatten", "Flatten", "Reshape to 2-D around an axis", OPERANDS(kInput),
     OPERANDS(kOutput), OPERANDS(kFlattenAttrs), inferFlatten},
    {"transpose", "Transpose", "Permute the dims", OPERANDS(kData),
     OPERANDS(kTransposed), OPERANDS(kTransposeAttrs), inferTranspose},
    {"concat", "Concat", "Concatenate tensors along an axis",
     OPERANDS(kConcatIn), OPERANDS(kConcatOut), OPERANDS(kConcatAttrs),
     inferConcat},
    {"split", "Split", "Split a tensor into parts along an axis",
     OPERANDS(kSplitIn), OPERANDS(kSplitOut), OPERANDS(kSplitAttrs),
     inferSplit},
    {"slice", "Slice", "Strided slice along some axes", OPERANDS(kSliceIn),
     OPERANDS(kOutput), NO_ATTRS, inferSlice},
    {"gather", "Gather", "Gather entries of an axis by index",
     OPERANDS(kGatherIn), OPERANDS(kOutput), OPERANDS(kGatherAttrs),
     inferGather},
    {"squeeze", "Squeeze", "Remove dims of size 1", OPERANDS(kSqueezeIn),
     OPERANDS(kSqueezed), NO_ATTRS, inferSqueeze},
    {"unsqueeze", "Unsqueeze", "Insert dims of size 1", OPERANDS(kUnsqueezeIn),
     OPERANDS(kExpanded), NO_ATTRS, inferUnsqueeze},
    {"expand", "Expand", "Broadcast to a shape (both ways)",
     OPERANDS(kExpandIn), OPERANDS(kOutput), NO_ATTRS, inferExpand},
    {"tile", "Tile", "Repeat the input along each axis", OPERANDS(kTileIn),
     OPERANDS(kOutput), NO_ATTRS, inferTile},
    {"shape", "Shape", "The input's shape as a 1-D i64 tensor", OPERANDS(kData),
     OPERANDS(kShapeOut), OPERANDS(kShapeAttrs), inferShape},
    {"range", "Range", "start, start + delta, ... up to limit (excluded)",
     OPERANDS(kRangeIn), OPERANDS(kOutput), NO_ATTRS, inferRange},
    {"pad", "Pad", "Pad (or crop, with negative pads) some axes",
     OPERANDS(kPadIn), OPERANDS(kOutput), OPERANDS(kPadAttrs), inferPad},
    {"depth_to_space", "DepthToSpace", "Move channel blocks into H and W",
     OPERANDS(kInput), OPERANDS(kOutput), OPERANDS(kDepthToSpaceAttrs),
     inferDepthToSpace},
    {"space_to_depth", "SpaceToDepth", "Move H and W blocks into channels",
     OPERANDS(kInput), OPERANDS(kOutput), OPERANDS(kSpaceToDepthAttrs),
     inferSpaceToDepth},
};
const int kilnGraphTensorOpsCount = COUNT(kilnGraphTensorOps);

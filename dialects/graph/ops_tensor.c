/* Graph ops of the Tensor family: the table, the helpers the family's files
 * share (ops_tensor_index.h), and type inference for the ops that rearrange
 * one tensor. Concat, split, slice, gather, range and pad are inferred in
 * ops_tensor_index.c, the element-indexing ops in ops_tensor_data.c and the
 * ops with data-dependent shapes in ops_tensor_dynamic.c.
 *
 * Shape rules follow the latest ONNX opset. Inputs that later opsets turned
 * from attributes into inputs (reshape's shape, slice's starts/ends, ...) are
 * operands: their values are read when they come from graph.constant, and
 * otherwise the affected dims become dynamic. When not even the result rank
 * is known, the inferred type is unranked (graph-verify then accepts any
 * declared rank; the typed builders refuse, since IRDL needs ranked results).
 *
 * The helpers the family's files share are in ops_tensor_common.c.
 *
 * Index operands (shapes, axes, pads, ...) are 1-D tensors of signless i64,
 * or i32/i64 where ONNX allows both (slice's, gather's and pad's Tind). */

#include "dialects/graph/const_eval.h"
#include "dialects/graph/infer.h"
#include "dialects/graph/op_table.h"
#include "dialects/graph/ops_tensor_index.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#define COUNT(a) (int)(sizeof(a) / sizeof((a)[0]))

/*===--------------------------------------------------------------------===*
 * Helpers
 *===--------------------------------------------------------------------===*/

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
                            kilnTensorIntsText(dims, n).s);
  }
  *out = dyn ? dynamicDim() : p;
  return mlirLogicalResultSuccess();
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
                          kilnTensorTypeText(t).s);
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
                            kilnTensorIntsText(shape, n).s, (long)v, (long)i);
    if (v == -1) {
      if (*inferAt >= 0)
        return kilnInferError(c, "operand 'shape' %s has more than one -1",
                              kilnTensorIntsText(shape, n).s);
      *inferAt = i;
    }
    if (v == 0 && !allowzero) {
      if (i >= inRank)
        return kilnInferError(c,
                              "operand 'shape' %s has 0 (copy the input "
                              "dim) at index %ld, but the input has rank "
                              "%ld",
                              kilnTensorIntsText(shape, n).s, (long)i,
                              (long)inRank);
      out[i] = in[i];
    }
    hasZero |= v == 0;
  }
  if (allowzero && hasZero && *inferAt >= 0)
    return kilnInferError(c,
                          "operand 'shape' %s has both 0 and -1, which "
                          "allowzero = 1 forbids",
                          kilnTensorIntsText(shape, n).s);
  return mlirLogicalResultSuccess();
}

/* Reshape to a shape computed at run time: the dims known at compile time
 * where its entries are (kilnGraphEvalPartialInts: a Concat of the input's
 * dynamic dims and constants such as a head count and size, as dynamic-axes
 * exports build it). A known positive entry is that dim, a known 0 copies
 * the input's dim; -1 and unknown entries are dynamic (the lowering reads
 * the shape at run time and checks the element count). */
static MlirLogicalResult partialReshape(KilnInferContext *c, MlirType data,
                                        intptr_t n, bool allowzero) {
  int64_t shape[KILN_MAX_RANK], out[KILN_MAX_RANK];
  if (kilnGraphEvalPartialInts(kilnInferOperand(c, 1), shape, KILN_MAX_RANK) !=
      n) {
    kilnTensorSetAllDynamic(c, n, elementOf(data));
    return mlirLogicalResultSuccess();
  }
  intptr_t inRank = mlirShapedTypeGetRank(data);
  for (intptr_t i = 0; i < n; ++i) {
    int64_t v = shape[i];
    out[i] = dynamicDim();
    if (v == KILN_GRAPH_EVAL_UNKNOWN || v == -1)
      continue;
    if (v < -1)
      return kilnInferError(c,
                            "operand 'shape' has invalid value %ld at index "
                            "%ld (must be >= -1)",
                            (long)v, (long)i);
    if (v > 0 || allowzero)
      out[i] = v;
    else if (i < inRank)
      out[i] = mlirShapedTypeGetDimSize(data, i);
  }
  setResult(c, 0, n, out, elementOf(data));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferReshape(KilnInferContext *c) {
  MlirType data = kilnInferRankedOperand(c, 0);
  intptr_t n;
  if (mlirTypeIsNull(data) || mlirLogicalResultIsFailure(kilnTensorIndexVector(
                                  c, 1, KILN_TENSOR_INDEX_I64, &n)))
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
  if (!constantInts(c, 1, shape, n))
    return partialReshape(c, data, n, allowzero != 0);
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
                              kilnTensorTypeText(data).s,
                              kilnTensorIntsText(shape, n).s);
      out[inferAt] = inCount / known;
    }
  } else if (!isDynamic(inCount) && !isDynamic(known) && inCount != known) {
    return kilnInferError(c,
                          "cannot reshape %s (%ld elements) into shape "
                          "%s (%ld elements)",
                          kilnTensorTypeText(data).s, (long)inCount,
                          kilnTensorIntsText(shape, n).s, (long)known);
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
                            kilnTensorIntsText(perm, n).s, (long)r);
    seen[perm[i]] = true;
    out[i] = in[perm[i]];
  }
  setResult(c, 0, r, out, elementOf(data));
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
    if (mlirLogicalResultIsFailure(
            kilnTensorIndexVector(c, 1, KILN_TENSOR_INDEX_I64, &n)))
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
    if (mlirLogicalResultIsFailure(
            kilnTensorReadAxes(c, 1, n, r, axes, &known)))
      return mlirLogicalResultFailure();
    if (!known) {
      kilnTensorSetAllDynamic(c, r - n, elt);
      return mlirLogicalResultSuccess();
    }
    for (intptr_t k = 0; k < n; ++k) {
      int64_t d = in[axes[k]];
      if (!isDynamic(d) && d != 1)
        return kilnInferError(c,
                              "cannot squeeze axis %ld of %s: its size "
                              "is %ld, not 1",
                              (long)axes[k], kilnTensorTypeText(data).s,
                              (long)d);
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
  if (mlirTypeIsNull(data) || mlirLogicalResultIsFailure(kilnTensorIndexVector(
                                  c, 1, KILN_TENSOR_INDEX_I64, &n)))
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
  if (mlirLogicalResultIsFailure(
          kilnTensorReadAxes(c, 1, n, rank, axes, &known)))
    return mlirLogicalResultFailure();
  if (!known) {
    kilnTensorSetAllDynamic(c, rank, elt);
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
  if (mlirTypeIsNull(input) || mlirLogicalResultIsFailure(kilnTensorIndexVector(
                                   c, 1, KILN_TENSOR_INDEX_I64, &n)))
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
                            kilnTensorIntsText(shape, n).s);
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
                            kilnTensorTypeText(input).s,
                            kilnTensorIntsText(shape, n).s);
  }
  setResult(c, 0, rank, out, elt);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferTile(KilnInferContext *c) {
  MlirType input = kilnInferRankedOperand(c, 0);
  intptr_t n;
  if (mlirTypeIsNull(input) || mlirLogicalResultIsFailure(kilnTensorIndexVector(
                                   c, 1, KILN_TENSOR_INDEX_I64, &n)))
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
                            kilnTensorIntsText(reps, r).s);
    if (isDynamic(dims[k]))
      continue;
    if (__builtin_mul_overflow(dims[k], reps[k], &dims[k]))
      return kilnInferError(c, "tiling %s by %s overflows int64",
                            kilnTensorTypeText(input).s,
                            kilnTensorIntsText(reps, r).s);
  }
  setResult(c, 0, r, dims, elementOf(input));
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
                          kilnTensorTypeText(*input).s);
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
                          kilnTensorTypeText(input).s, (long)f);
  dims[i] /= f;
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult inferDepthToSpace(KilnInferContext *c) {
  static const char *const kModes[] = {"DCR", "CRD", NULL};
  MlirType input;
  int64_t dims[4], b, bb;
  if (mlirLogicalResultIsFailure(blockOperand(c, &input, dims, &b)) ||
      mlirLogicalResultIsFailure(kilnTensorCheckEnum(
          c, "mode", kilnInferAttrString(c, "mode", "DCR"), kModes)))
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
static const KilnOperandSpec kConcatIn[] = {{"a", S}, {"b", S}};
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

static const KilnOperandSpec kIndexedIn[] = {{"data", S}, {"indices", S}};
static const KilnOperandSpec kScatterIn[] = {
    {"data", S}, {"indices", S}, {"updates", S}};
static const KilnOperandSpec kTriluIn[] = {{"input", S}, {"k", O}};
static const KilnOperandSpec kSizeOut[] = {{"size", S}};
static const KilnOperandSpec kOneHotIn[] = {
    {"indices", S}, {"depth", S}, {"values", S}};
static const KilnOperandSpec kReverseSequenceIn[] = {{"input", S},
                                                     {"sequence_lens", S}};
static const KilnOperandSpec kX[] = {{"x", S}};
static const KilnOperandSpec kY[] = {{"y", S}};
static const KilnOperandSpec kCompressIn[] = {{"input", S}, {"condition", S}};
static const KilnOperandSpec kUniqueOut[] = {
    {"y", S}, {"indices", O}, {"inverse_indices", O}, {"counts", O}};
static const KilnOperandSpec kNmsIn[] = {{"boxes", S},
                                         {"scores", S},
                                         {"max_output_boxes_per_class", O},
                                         {"iou_threshold", O},
                                         {"score_threshold", O}};
static const KilnOperandSpec kNmsOut[] = {{"selected_indices", S}};

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
     "split into this many equal parts (instead of 'split')"},
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
static const KilnAttrSpec kGatherNDAttrs[] = {
    {"batch_dims", KILN_ATTR_INT, false, "0 : i64",
     "leading dims shared by data and indices; < min(rank)"},
};
static const KilnAttrSpec kScatterElementsAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "0 : i64", "axis to scatter on"},
    {"reduction", KILN_ATTR_STRING, false, "\"none\"",
     "none, add, mul, max or min: how updates combine with data"},
};
static const KilnAttrSpec kScatterNDAttrs[] = {
    {"reduction", KILN_ATTR_STRING, false, "\"none\"",
     "none, add, mul, max or min: how updates combine with data"},
};
static const KilnAttrSpec kTriluAttrs[] = {
    {"upper", KILN_ATTR_INT, false, "1 : i64",
     "1: keep the upper triangle; 0: the lower"},
};
static const KilnAttrSpec kConstantOfShapeAttrs[] = {
    {"value", KILN_ATTR_TENSOR, false, NULL,
     "the one-element fill value and element type; default f32 0"},
};
static const KilnAttrSpec kEyeLikeAttrs[] = {
    {"dtype", KILN_ATTR_TYPE, false, NULL,
     "result element type; default the input's"},
    {"k", KILN_ATTR_INT, false, "0 : i64",
     "diagonal: 0 main, > 0 above, < 0 below"},
};
static const KilnAttrSpec kOneHotAttrs[] = {
    {"axis", KILN_ATTR_INT, false, "-1 : i64",
     "where the depth dim goes; in [-r-1, r]"},
};
static const KilnAttrSpec kReverseSequenceAttrs[] = {
    {"batch_axis", KILN_ATTR_INT, false, "1 : i64", "batch axis: 0 or 1"},
    {"time_axis", KILN_ATTR_INT, false, "0 : i64",
     "time axis: 1 or 0, not batch_axis"},
};
static const KilnAttrSpec kCompressAttrs[] = {
    {"axis", KILN_ATTR_INT, false, NULL,
     "axis to select slices on; default: the flattened input"},
};
static const KilnAttrSpec kUniqueAttrs[] = {
    {"axis", KILN_ATTR_INT, false, NULL,
     "unique slices along this axis; default: unique elements, flattened"},
    {"sorted", KILN_ATTR_INT, false, "1 : i64",
     "1: ascending order; 0: order of first occurrence"},
};
static const KilnAttrSpec kNmsAttrs[] = {
    {"center_point_box", KILN_ATTR_INT, false, "0 : i64",
     "0: boxes are [y1, x1, y2, x2]; 1: [x_center, y_center, w, h]"},
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
    {"concat", "Concat", "Concatenate two tensors along an axis",
     OPERANDS(kConcatIn), OPERANDS(kConcatOut), OPERANDS(kConcatAttrs),
     kilnTensorInferConcat},
    {"split", "Split", "Split a tensor into equal parts along an axis",
     OPERANDS(kSplitIn), OPERANDS(kSplitOut), OPERANDS(kSplitAttrs),
     kilnTensorInferSplit},
    {"slice", "Slice", "Strided slice along some axes", OPERANDS(kSliceIn),
     OPERANDS(kOutput), NO_ATTRS, kilnTensorInferSlice},
    {"gather", "Gather", "Gather entries of an axis by index",
     OPERANDS(kGatherIn), OPERANDS(kOutput), OPERANDS(kGatherAttrs),
     kilnTensorInferGather},
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
     OPERANDS(kRangeIn), OPERANDS(kOutput), NO_ATTRS, kilnTensorInferRange},
    {"pad", "Pad", "Pad (or crop, with negative pads) some axes",
     OPERANDS(kPadIn), OPERANDS(kOutput), OPERANDS(kPadAttrs),
     kilnTensorInferPad},
    {"depth_to_space", "DepthToSpace", "Move channel blocks into H and W",
     OPERANDS(kInput), OPERANDS(kOutput), OPERANDS(kDepthToSpaceAttrs),
     inferDepthToSpace},
    {"space_to_depth", "SpaceToDepth", "Move H and W blocks into channels",
     OPERANDS(kInput), OPERANDS(kOutput), OPERANDS(kSpaceToDepthAttrs),
     inferSpaceToDepth},
    {"gather_elements", "GatherElements",
     "Gather single elements along an axis", OPERANDS(kIndexedIn),
     OPERANDS(kOutput), OPERANDS(kGatherAttrs), kilnTensorInferGatherElements},
    {"gather_nd", "GatherND", "Gather slices by N-D index tuples",
     OPERANDS(kIndexedIn), OPERANDS(kOutput), OPERANDS(kGatherNDAttrs),
     kilnTensorInferGatherND},
    {"scatter_elements", "ScatterElements",
     "Write (or combine) single elements along an axis", OPERANDS(kScatterIn),
     OPERANDS(kOutput), OPERANDS(kScatterElementsAttrs),
     kilnTensorInferScatterElements},
    {"scatter_nd", "ScatterND", "Write (or combine) slices at N-D indices",
     OPERANDS(kScatterIn), OPERANDS(kOutput), OPERANDS(kScatterNDAttrs),
     kilnTensorInferScatterND},
    {"trilu", "Trilu", "Upper or lower triangle of the last two dims",
     OPERANDS(kTriluIn), OPERANDS(kOutput), OPERANDS(kTriluAttrs),
     kilnTensorInferTrilu},
    {"constant_of_shape", "ConstantOfShape",
     "A tensor of the given shape filled with one value", OPERANDS(kInput),
     OPERANDS(kOutput), OPERANDS(kConstantOfShapeAttrs),
     kilnTensorInferConstantOfShape},
    {"size", "Size", "The element count as an i64 scalar", OPERANDS(kData),
     OPERANDS(kSizeOut), NO_ATTRS, kilnTensorInferSize},
    {"eye_like", "EyeLike", "Ones on a diagonal, zeros elsewhere (2-D)",
     OPERANDS(kInput), OPERANDS(kOutput), OPERANDS(kEyeLikeAttrs),
     kilnTensorInferEyeLike},
    {"one_hot", "OneHot", "One-hot encoding along a new axis",
     OPERANDS(kOneHotIn), OPERANDS(kOutput), OPERANDS(kOneHotAttrs),
     kilnTensorInferOneHot},
    {"reverse_sequence", "ReverseSequence",
     "Reverse the first sequence_lens[b] time steps of each batch entry",
     OPERANDS(kReverseSequenceIn), OPERANDS(kY),
     OPERANDS(kReverseSequenceAttrs), kilnTensorInferReverseSequence},
    {"non_zero", "NonZero", "Coordinates of the non-zero elements",
     OPERANDS(kX), OPERANDS(kY), NO_ATTRS, kilnTensorInferNonZero},
    {"compress", "Compress", "Slices (or elements) where condition is true",
     OPERANDS(kCompressIn), OPERANDS(kOutput), OPERANDS(kCompressAttrs),
     kilnTensorInferCompress},
    {"unique", "Unique", "Unique elements or slices, with their positions",
     OPERANDS(kX), OPERANDS(kUniqueOut), OPERANDS(kUniqueAttrs),
     kilnTensorInferUnique},
    {"non_max_suppression", "NonMaxSuppression",
     "Boxes kept by non-maximum suppression, as [batch, class, box] rows",
     OPERANDS(kNmsIn), OPERANDS(kNmsOut), OPERANDS(kNmsAttrs),
     kilnTensorInferNonMaxSuppression},
};
const int kilnGraphTensorOpsCount = COUNT(kilnGraphTensorOps);

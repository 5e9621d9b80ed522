/* Indexing tensor ops: gather, scatter, one_hot, ... (ops_tensor_index.c,
 * ops_tensor_data.c) → linalg, tensor and scf.
 *
 * Gathers are linalg.generic ops whose body reads the data tensor with
 * tensor.extract at coordinates computed from linalg.index and the index
 * values. Every index read from a tensor is wrapped (negative counts from
 * the end) and then clamped into the dim, so out-of-range indices in the
 * input give some element of the data instead of an out-of-bounds access:
 * generated code must never fault.
 *
 * Scatters cannot be a linalg.generic (the writes go to data-dependent
 * places), so they are one scf.for over the updates that carries the result
 * tensor: tensor.extract the update (and the current value, to combine),
 * tensor.insert it. Bufferization copies the data once into the result.
 *
 * non_zero, unique, compress and non_max_suppression, whose result shapes
 * depend on the data, are in lower_data_dependent.c. */
#include <string.h>

#include "conversions/graph-to-linalg/lower.h"
#include "support/ir_build.h"

/* ---- Small builders ------------------------------------------------------ */

static MlirType indexType(KilnBuilder *b) { return mlirIndexTypeGet(b->ctx); }

MlirValue kilnIndexElementToIndex(KilnBuilder *b, MlirValue v) {
  MlirValue i = kilnToSignless(b, v);
  if (kilnTypeIsFloat(mlirValueGetType(i)))
    i = kilnConvertScalar(b, i, mlirIntegerTypeGet(b->ctx, 64), false);
  return kilnConvertScalar(b, i, indexType(b), false);
}

/* An index element (any integer type) as an `index` in [0, size): negative
 * values count from the end, then the value is clamped (size > 0).
 * kiln-runtime-checks reports the values this changes (runtime_checks.c). */
/* Index element v wrapped (negative: from the end) and clamped into
 * [0, size - 1]; `dynamicSize` (an index value from outside the body)
 * replaces `size` when the dim is dynamic. */
static MlirValue clampIndexTo(KilnBuilder *b, MlirValue v, int64_t size,
                              MlirValue dynamicSize) {
  bool dynamic = !mlirValueIsNull(dynamicSize);
  MlirValue i = kilnIndexElementToIndex(b, v);
  MlirValue zero = kilnConstIndex(b, 0);
  MlirValue n = dynamic ? dynamicSize : kilnConstIndex(b, size);
  MlirValue wrapped = kilnArith2(b, "arith.addi", i, n);
  i = kilnSelect(b, kilnCmpI(b, "slt", i, zero), wrapped, i);
  i = kilnArith2(b, "arith.maxsi", i, zero);
  MlirValue last = dynamic
                       ? kilnArith2(b, "arith.subi", n, kilnConstIndex(b, 1))
                       : kilnConstIndex(b, size - 1);
  return kilnArith2(b, "arith.minsi", i, last);
}

static MlirValue clampIndex(KilnBuilder *b, MlirValue v, int64_t size) {
  return clampIndexTo(b, v, size, (MlirValue){NULL});
}

/* The row-major coordinates of flat index `iv` in a static `shape`. */
static void delinearize(KilnBuilder *b, MlirValue iv, intptr_t rank,
                        const int64_t *shape, MlirValue *coords) {
  for (intptr_t j = rank - 1; j > 0; --j) {
    MlirValue d = kilnConstIndex(b, shape[j]);
    coords[j] = kilnArith2(b, "arith.remui", iv, d);
    iv = kilnArith2(b, "arith.divui", iv, d);
  }
  if (rank > 0)
    coords[0] = iv;
}

static void shapeOf(MlirValue t, int64_t *shape) {
  for (intptr_t j = 0; j < kilnRank(t); ++j)
    shape[j] = kilnDim(t, j);
}

/* Whether `t` has an element and a zero-size dim `size` would be indexed. */
static bool indexesEmptyDim(MlirType resultType, int64_t size) {
  return size == 0 && kilnTypeIsStaticTensor(resultType) &&
         kilnNumElements(resultType) > 0;
}

/* ---- gather -------------------------------------------------------------- */

typedef struct Gather {
  MlirValue data;
  int64_t axis, q, size;
  MlirValue dynamicSize; /* the axis' size when it is dynamic, else null */
} Gather;

static void gatherBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  const Gather *g = userData;
  intptr_t r = kilnRank(g->data);
  MlirValue coords[KILN_MAX_RANK];
  for (intptr_t j = 0; j < r; ++j)
    coords[j] = j < g->axis ? kilnLinalgIndex(b, j)
                : j == g->axis
                    ? clampIndexTo(b, args[0], g->size, g->dynamicSize)
                    : kilnLinalgIndex(b, j - 1 + g->q);
  yields[0] = kilnExtract(b, g->data, r, coords);
}

/* Gather or GatherElements (the same on 1-D data) of a shape vector at
 * constant indices, as a shape vector (lower.h); false for anything else. */
static bool gatherShapeVector(KilnLowerOp *l, MlirValue data,
                              MlirType resultType) {
  if (!kilnIsShapeVector(resultType) ||
      !kilnIsShapeVector(mlirValueGetType(data)) || kilnRank(data) != 1)
    return false;
  int64_t at[KILN_MAX_RANK];
  intptr_t n = kilnNumElements(resultType);
  if (kilnInferConstantInts(&l->infer, 1, at, KILN_MAX_RANK) != n)
    return false;
  int64_t size = kilnDim(data, 0);
  for (intptr_t k = 0; k < n; ++k)
    if (at[k] < -size || at[k] >= size)
      return false; /* the general lowering's checks report it */
  MlirValue elements[KILN_MAX_RANK];
  for (intptr_t k = 0; k < n; ++k)
    elements[k] =
        kilnShapeVectorElement(&l->b, data, at[k] < 0 ? at[k] + size : at[k]);
  l->results[0] = kilnShapeVectorFrom(&l->b, resultType, elements);
  return true;
}

static KilnLowerStatus lowerGather(KilnLowerOp *l) {
  MlirValue data = kilnLowerOperand(l, 0), indices = kilnLowerOperand(l, 1);
  MlirType resultType = kilnLowerResultType(l, 0);
  Gather g = {data, 0, kilnRank(indices), 0, {NULL}};
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", 0), kilnRank(data),
                     &g.axis))
    return KILN_LOWER_ERROR;
  g.size = kilnDim(data, g.axis);
  if (gatherShapeVector(l, data, resultType))
    return KILN_LOWER_OK;
  if (mlirShapedTypeIsDynamicSize(g.size))
    g.dynamicSize = kilnDimValue(&l->b, data, g.axis);
  if (indexesEmptyDim(resultType, g.size))
    return kilnLowerUnsupported(l, "gathers from an empty axis");
  intptr_t n = mlirShapedTypeGetRank(resultType);
  int64_t dims[KILN_MAX_RANK];
  for (intptr_t j = 0; j < g.q; ++j)
    dims[j] = g.axis + j;
  MlirAttribute maps[2] = {kilnMapDims(l->b.ctx, n, g.q, dims),
                           kilnMapIdentity(l->b.ctx, n)};
  char iters[KILN_MAX_RANK * 2 + 1];
  memset(iters, 'p', n);
  iters[n] = '\0';
  /* data's dims before the axis, the indices', data's after it */
  MlirValue sizes[KILN_MAX_RANK];
  for (intptr_t j = 0; j < n; ++j)
    if (mlirShapedTypeIsDynamicDim(resultType, j))
      sizes[j] = j < g.axis         ? kilnDimValue(&l->b, data, j)
                 : j < g.axis + g.q ? kilnDimValue(&l->b, indices, j - g.axis)
                                    : kilnDimValue(&l->b, data, j - g.q + 1);
  MlirValue init = kilnEmptySized(&l->b, resultType, sizes);
  l->results[0] = mlirOperationGetResult(
      kilnGeneric(&l->b, 1, &indices, 1, &init, maps, n, iters, gatherBody, &g),
      0);
  return KILN_LOWER_OK;
}

/* ---- gather_elements ----------------------------------------------------- */

static void gatherElementsBody(KilnBuilder *b, const MlirValue *args,
                               MlirValue *yields, void *userData) {
  const Gather *g = userData;
  intptr_t r = kilnRank(g->data);
  MlirValue coords[KILN_MAX_RANK];
  for (intptr_t j = 0; j < r; ++j)
    coords[j] = j == g->axis ? clampIndexTo(b, args[0], g->size, g->dynamicSize)
                             : kilnLinalgIndex(b, j);
  yields[0] = kilnExtract(b, g->data, r, coords);
}

/* Indices of rank r whose dims other than `axis` fit in data's. */
static bool indicesFit(MlirValue data, MlirValue indices, int64_t axis) {
  if (kilnRank(indices) != kilnRank(data))
    return false;
  for (intptr_t j = 0; j < kilnRank(data); ++j)
    if (j != axis && !mlirShapedTypeIsDynamicSize(kilnDim(indices, j)) &&
        !mlirShapedTypeIsDynamicSize(kilnDim(data, j)) &&
        kilnDim(indices, j) > kilnDim(data, j))
      return false;
  return true;
}

static KilnLowerStatus lowerGatherElements(KilnLowerOp *l) {
  MlirValue data = kilnLowerOperand(l, 0), indices = kilnLowerOperand(l, 1);
  MlirType resultType = kilnLowerResultType(l, 0);
  Gather g = {data, 0, 0, 0, {NULL}};
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", 0), kilnRank(data),
                     &g.axis))
    return KILN_LOWER_ERROR;
  g.size = kilnDim(data, g.axis);
  if (gatherShapeVector(l, data, resultType))
    return KILN_LOWER_OK;
  if (mlirShapedTypeIsDynamicSize(g.size))
    g.dynamicSize = kilnDimValue(&l->b, data, g.axis);
  if (!indicesFit(data, indices, g.axis))
    return kilnLowerError(l, "'indices' must have the rank of 'data' and "
                             "no larger dims outside the axis");
  if (indexesEmptyDim(resultType, g.size))
    return kilnLowerUnsupported(l, "gathers from an empty axis");
  l->results[0] =
      kilnElementwise(&l->b, 1, &indices, resultType, gatherElementsBody, &g);
  return KILN_LOWER_OK;
}

/* ---- gather_nd ----------------------------------------------------------- */

typedef struct GatherND {
  MlirValue data, indices;
  int64_t batch, k;
} GatherND;

/* Reads index tuple entry j at the outer coordinates `outer` (q - 1 of
 * them), clamped into data dim `size`. */
static MlirValue tupleEntry(KilnBuilder *b, MlirValue indices,
                            const MlirValue *outer, int64_t j, int64_t size) {
  intptr_t q = kilnRank(indices);
  MlirValue coords[KILN_MAX_RANK];
  memcpy(coords, outer, (q - 1) * sizeof(MlirValue));
  coords[q - 1] = kilnConstIndex(b, j);
  return clampIndex(b, kilnExtract(b, indices, q, coords), size);
}

static void gatherNDBody(KilnBuilder *b, const MlirValue *args,
                         MlirValue *yields, void *userData) {
  (void)args;
  const GatherND *g = userData;
  intptr_t r = kilnRank(g->data), q = kilnRank(g->indices);
  MlirValue outer[KILN_MAX_RANK], coords[KILN_MAX_RANK];
  for (intptr_t j = 0; j < q - 1; ++j)
    outer[j] = kilnLinalgIndex(b, j);
  for (intptr_t j = 0; j < g->batch; ++j)
    coords[j] = outer[j];
  for (int64_t j = 0; j < g->k; ++j)
    coords[g->batch + j] =
        tupleEntry(b, g->indices, outer, j, kilnDim(g->data, g->batch + j));
  for (intptr_t j = g->batch + g->k; j < r; ++j)
    coords[j] = kilnLinalgIndex(b, q - 1 + j - g->batch - g->k);
  yields[0] = kilnExtract(b, g->data, r, coords);
}

static KilnLowerStatus lowerGatherND(KilnLowerOp *l) {
  GatherND g = {kilnLowerOperand(l, 0), kilnLowerOperand(l, 1),
                kilnInferAttrInt(&l->infer, "batch_dims", 0), 0};
  MlirType resultType = kilnLowerResultType(l, 0);
  intptr_t r = kilnRank(g.data), q = kilnRank(g.indices);
  if (q < 1 || g.batch < 0 || g.batch >= q || g.batch >= r)
    return kilnLowerError(l, "invalid ranks or 'batch_dims'");
  g.k = kilnDim(g.indices, q - 1);
  if (g.batch + g.k > r)
    return kilnLowerError(l, "index tuples are longer than 'data' has dims");
  for (int64_t j = 0; j < g.k; ++j)
    if (indexesEmptyDim(resultType, kilnDim(g.data, g.batch + j)))
      return kilnLowerUnsupported(l, "gathers from an empty dim");
  intptr_t n = mlirShapedTypeGetRank(resultType);
  MlirAttribute map = kilnMapIdentity(l->b.ctx, n);
  char iters[KILN_MAX_RANK * 2 + 1];
  memset(iters, 'p', n);
  iters[n] = '\0';
  MlirValue init = kilnEmpty(&l->b, resultType);
  l->results[0] = mlirOperationGetResult(
      kilnGeneric(&l->b, 0, NULL, 1, &init, &map, n, iters, gatherNDBody, &g),
      0);
  return KILN_LOWER_OK;
}

/* ---- scatter_elements, scatter_nd ---------------------------------------- */

typedef enum Reduction {
  RED_NONE,
  RED_ADD,
  RED_MUL,
  RED_MAX,
  RED_MIN
} Reduction;

static bool readReduction(KilnLowerOp *l, MlirType elt, Reduction *out) {
  static const char *const kNames[] = {"none", "add", "mul", "max", "min"};
  MlirStringRef s = kilnInferAttrString(&l->infer, "reduction", "none");
  for (int i = 0; i < 5; ++i)
    if (s.length == strlen(kNames[i]) && !memcmp(s.data, kNames[i], s.length))
      *out = (Reduction)i;
  if (*out != RED_NONE && mlirTypeIsAInteger(elt) &&
      mlirIntegerTypeGetWidth(elt) == 1) {
    kilnLowerUnsupported(l, "reduction '%.*s' on bool elements", (int)s.length,
                         s.data);
    return false;
  }
  return true;
}

/* cur (op) upd, on elements of type `elt` (maybe unsigned). */
static MlirValue combine(KilnBuilder *b, Reduction red, MlirValue cur,
                         MlirValue upd) {
  static const char *const kOps[] = {NULL, "add", "mul", "max", "min"};
  if (red == RED_NONE)
    return upd;
  MlirType elt = mlirValueGetType(cur);
  bool u = kilnTypeIsUnsignedInt(elt);
  MlirValue x = kilnToSignless(b, cur), y = kilnToSignless(b, upd), z;
  if (u && (red == RED_MAX || red == RED_MIN))
    z = kilnArith2(b, red == RED_MAX ? "arith.maxui" : "arith.minui", x, y);
  else
    z = kilnArithNumeric(b, kOps[red], x, y);
  return kilnFromSignless(b, z, elt);
}

typedef struct Scatter {
  MlirValue indices, updates;
  int64_t axis; /* scatter_elements */
  int64_t k;    /* scatter_nd: index tuple length */
  int64_t size; /* scatter_elements: data dim at axis */
  Reduction red;
  const int64_t *dataShape;
} Scatter;

static MlirValue scatterStore(KilnBuilder *b, const Scatter *s, MlirValue acc,
                              const MlirValue *u, const MlirValue *t) {
  intptr_t r = kilnRank(acc);
  MlirValue upd = kilnExtract(b, s->updates, kilnRank(s->updates), u);
  if (s->red != RED_NONE)
    upd = combine(b, s->red, kilnExtract(b, acc, r, t), upd);
  return kilnInsert(b, upd, acc, r, t);
}

static void scatterElementsBody(KilnBuilder *b, MlirValue iv, MlirValue acc,
                                MlirValue *next, void *userData) {
  const Scatter *s = userData;
  intptr_t r = kilnRank(s->indices);
  int64_t shape[KILN_MAX_RANK];
  MlirValue u[KILN_MAX_RANK], t[KILN_MAX_RANK];
  shapeOf(s->indices, shape);
  delinearize(b, iv, r, shape, u);
  memcpy(t, u, r * sizeof(MlirValue));
  t[s->axis] = clampIndex(b, kilnExtract(b, s->indices, r, u), s->size);
  *next = scatterStore(b, s, acc, u, t);
}

static bool sameShape(MlirValue a, MlirValue b) {
  if (kilnRank(a) != kilnRank(b))
    return false;
  for (intptr_t j = 0; j < kilnRank(a); ++j)
    if (kilnDim(a, j) != kilnDim(b, j))
      return false;
  return true;
}

static KilnLowerStatus lowerScatterElements(KilnLowerOp *l) {
  MlirValue data = kilnLowerOperand(l, 0);
  Scatter s = {
      kilnLowerOperand(l, 1), kilnLowerOperand(l, 2), 0, 0, 0, RED_NONE, NULL};
  if (!readReduction(l, kilnElementType(data), &s.red))
    return KILN_LOWER_UNSUPPORTED;
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", 0), kilnRank(data),
                     &s.axis))
    return KILN_LOWER_ERROR;
  if (!indicesFit(data, s.indices, s.axis) || !sameShape(s.indices, s.updates))
    return kilnLowerError(l, "'indices' and 'updates' must have one shape, "
                             "of the rank of 'data', no larger outside the "
                             "axis");
  s.size = kilnDim(data, s.axis);
  int64_t n = kilnNumElements(mlirValueGetType(s.indices));
  if (n > 0 && s.size == 0)
    return kilnLowerUnsupported(l, "scatters into an empty axis");
  l->results[0] = n ? kilnForLoop(&l->b, kilnConstIndex(&l->b, n), data,
                                  scatterElementsBody, &s)
                    : data;
  return KILN_LOWER_OK;
}

static void scatterNDBody(KilnBuilder *b, MlirValue iv, MlirValue acc,
                          MlirValue *next, void *userData) {
  const Scatter *s = userData;
  intptr_t ru = kilnRank(s->updates), q = kilnRank(s->indices);
  intptr_t r = kilnRank(acc);
  int64_t shape[KILN_MAX_RANK];
  MlirValue u[KILN_MAX_RANK], t[KILN_MAX_RANK];
  shapeOf(s->updates, shape);
  delinearize(b, iv, ru, shape, u);
  for (int64_t j = 0; j < s->k; ++j)
    t[j] = tupleEntry(b, s->indices, u, j, s->dataShape[j]);
  for (intptr_t j = s->k; j < r; ++j)
    t[j] = u[q - 1 + j - s->k];
  *next = scatterStore(b, s, acc, u, t);
}

/* updates' shape must be indices.shape[:-1] + data.shape[k:]. */
static bool scatterNDShapes(MlirValue data, MlirValue indices,
                            MlirValue updates, int64_t k) {
  intptr_t q = kilnRank(indices), r = kilnRank(data);
  if (q < 1 || k > r || kilnRank(updates) != q - 1 + r - k)
    return false;
  for (intptr_t j = 0; j < q - 1; ++j)
    if (kilnDim(updates, j) != kilnDim(indices, j))
      return false;
  for (intptr_t j = k; j < r; ++j)
    if (kilnDim(updates, q - 1 + j - k) != kilnDim(data, j))
      return false;
  return true;
}

static KilnLowerStatus lowerScatterND(KilnLowerOp *l) {
  MlirValue data = kilnLowerOperand(l, 0);
  Scatter s = {
      kilnLowerOperand(l, 1), kilnLowerOperand(l, 2), 0, 0, 0, RED_NONE, NULL};
  if (!readReduction(l, kilnElementType(data), &s.red))
    return KILN_LOWER_UNSUPPORTED;
  intptr_t q = kilnRank(s.indices);
  s.k = q ? kilnDim(s.indices, q - 1) : 0;
  if (!scatterNDShapes(data, s.indices, s.updates, s.k))
    return kilnLowerError(l, "'updates' must have shape indices.shape[:-1] "
                             "+ data.shape[k:]");
  int64_t dataShape[KILN_MAX_RANK];
  shapeOf(data, dataShape);
  s.dataShape = dataShape;
  int64_t n = kilnNumElements(mlirValueGetType(s.updates));
  for (int64_t j = 0; j < s.k; ++j)
    if (n > 0 && dataShape[j] == 0)
      return kilnLowerUnsupported(l, "scatters into an empty dim");
  l->results[0] =
      n ? kilnForLoop(&l->b, kilnConstIndex(&l->b, n), data, scatterNDBody, &s)
        : data;
  return KILN_LOWER_OK;
}

/* ---- one_hot ------------------------------------------------------------- */

typedef struct OneHot {
  MlirValue off, on; /* signless scalars */
  MlirType resultElt;
  int64_t axis, depth;
  bool indexUnsigned;
} OneHot;

static void oneHotBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  const OneHot *o = userData;
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  /* ONNX casts the indices to int64 (float: toward zero). */
  MlirValue i =
      kilnConvertScalar(b, kilnToSignless(b, args[0]), i64, o->indexUnsigned);
  MlirValue zero = kilnConstInt(b, i64, 0);
  MlirValue wrapped =
      kilnArith2(b, "arith.addi", i, kilnConstInt(b, i64, o->depth));
  i = kilnSelect(b, kilnCmpI(b, "slt", i, zero), wrapped, i);
  MlirValue pos = kilnConvertScalar(b, kilnLinalgIndex(b, o->axis), i64, false);
  MlirValue v = kilnSelect(b, kilnCmpI(b, "eq", i, pos), o->on, o->off);
  yields[0] = kilnFromSignless(b, v, o->resultElt);
}

static KilnLowerStatus lowerOneHot(KilnLowerOp *l) {
  MlirValue indices = kilnLowerOperand(l, 0), values = kilnLowerOperand(l, 2);
  MlirType resultType = kilnLowerResultType(l, 0);
  intptr_t n = mlirShapedTypeGetRank(resultType);
  OneHot o = {{NULL}, {NULL}, mlirShapedTypeGetElementType(resultType),
              0,      0,      kilnTypeIsUnsignedInt(kilnElementType(indices))};
  if (!kilnLowerAxis(l, kilnInferAttrInt(&l->infer, "axis", -1), n, &o.axis))
    return KILN_LOWER_ERROR;
  if (kilnNumElements(mlirValueGetType(values)) != 2)
    return kilnLowerError(l, "'values' must hold two elements");
  o.depth = mlirShapedTypeGetDimSize(resultType, o.axis);
  /* values is [off, on] as 1-D (or any shape of two elements). */
  int64_t two = 2;
  MlirValue flat = kilnReshape(
      &l->b, values, kilnTensorType(1, &two, kilnElementType(values)));
  MlirValue c0 = kilnConstIndex(&l->b, 0), c1 = kilnConstIndex(&l->b, 1);
  o.off = kilnToSignless(&l->b, kilnExtract(&l->b, flat, 1, &c0));
  o.on = kilnToSignless(&l->b, kilnExtract(&l->b, flat, 1, &c1));
  int64_t dims[KILN_MAX_RANK];
  for (intptr_t j = 0, m = 0; j < n; ++j)
    if (j != o.axis)
      dims[m++] = j;
  MlirAttribute maps[2] = {kilnMapDims(l->b.ctx, n, n - 1, dims),
                           kilnMapIdentity(l->b.ctx, n)};
  char iters[KILN_MAX_RANK + 2];
  memset(iters, 'p', n);
  iters[n] = '\0';
  MlirValue init = kilnEmpty(&l->b, resultType);
  l->results[0] = mlirOperationGetResult(
      kilnGeneric(&l->b, 1, &indices, 1, &init, maps, n, iters, oneHotBody, &o),
      0);
  return KILN_LOWER_OK;
}

const KilnLowering kilnLowerTensorIndex[] = {
    {"gather", lowerGather, KILN_LOWER_DYNAMIC},
    {"gather_elements", lowerGatherElements, KILN_LOWER_DYNAMIC},
    {"gather_nd", lowerGatherND, 0},
    {"scatter_elements", lowerScatterElements, 0},
    {"scatter_nd", lowerScatterND, 0},
    {"one_hot", lowerOneHot, 0},
};
const int kilnLowerTensorIndexCount =
    sizeof(kilnLowerTensorIndex) / sizeof(kilnLowerTensorIndex[0]);

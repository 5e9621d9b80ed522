/* The per-sample model (docs/dynamic-shapes.md): a function whose inputs
 * are dynamic only in their batch dim, and whose every op that reads the
 * batch computes each sample from that sample alone (a CNN; a Transformer
 * over a static sequence), runs as one loop over the samples around a
 * static batch-1 copy of the model:
 *
 *   func @main(%x: tensor<?x3x224x224xf32>) -> tensor<?x1000xf32>
 *     %n = tensor.dim %x, 0
 *     %y = scf.for %i = 0 to %n iter_args(%acc = tensor.empty(%n)) {
 *       %s = tensor.extract_slice %x[%i, 0, 0, 0] [1, 3, 224, 224]
 *       ... the model's graph ops on tensor<1x...> ...
 *       %a = tensor.insert_slice %out into %acc[%i, 0] [1, 1000]
 *       scf.yield %a
 *     }
 *     return %y
 *
 * The graph ops in the loop are static, so they lower and are scheduled
 * exactly as in a library compiled for batch 1: a conv's bias and ReLU
 * fused into its tiles, one buffer plan. Ops that read no batched value
 * (weights, shape arithmetic) stay before the loop. Batched inputs must
 * agree on the batch at run time (checked). A function with an op that
 * mixes samples or whose batch dim the rules below cannot follow (Shape,
 * a reduction over the batch, a transpose moving it) keeps the per-op
 * lowering, and so does one whose products have few rows per sample (an
 * MLP on [batch, features]: per sample, each product would be a
 * matrix-vector product re-reading its weights). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower.h"
#include "dialects/linalg/transforms/schedule.h"
#include "kiln/diagnostics.h"
#include "kiln/passes.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "support/ir_build.h"
#include "support/op_list.h"

/* Whether `t` is a batched type: ranked, at least 2-D (a 1-D "batch" would
 * be a loop over single elements), only dim 0 dynamic. */
static bool isBatchedType(MlirType t) {
  if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) < 2 ||
      !mlirShapedTypeIsDynamicDim(t, 0))
    return false;
  for (intptr_t i = 1; i < mlirShapedTypeGetRank(t); ++i)
    if (mlirShapedTypeIsDynamicDim(t, i))
      return false;
  return true;
}

static bool nameIs(MlirStringRef name, const char *s) {
  return kilnStringRefEquals(name, s);
}

static bool nameIn(MlirStringRef name, const char *const *names) {
  for (; *names; ++names)
    if (nameIs(name, *names))
      return true;
  return false;
}

/* The product of dims [from, to) of `t` (static there). */
static int64_t dimsProduct(MlirType t, intptr_t from, intptr_t to) {
  int64_t n = 1;
  for (intptr_t i = from; i < to; ++i)
    n *= mlirShapedTypeGetDimSize(t, i);
  return n;
}

/* Axis attribute `name` (default `dflt`) of `op`, against rank `r`, is not
 * the batch. */
static bool axisIsNotBatch(MlirOperation op, const char *name, int64_t dflt,
                           intptr_t r) {
  int64_t axis = kilnOpGetIntAttr(op, name, dflt);
  if (axis < 0)
    axis += r;
  return axis > 0 && axis < r;
}

/* Ops whose only data operand is operand 0 and which compute sample n of
 * their result from sample n of it (their other operands are weights). */
static const char *const kSampleWindowOps[] = {"conv",
                                               "conv_transpose",
                                               "max_pool",
                                               "average_pool",
                                               "lp_pool",
                                               "global_average_pool",
                                               "global_max_pool",
                                               "global_lp_pool",
                                               "batch_normalization",
                                               "instance_normalization",
                                               "lrn",
                                               "dropout",
                                               "identity",
                                               "depth_to_space",
                                               "space_to_depth",
                                               NULL};

/* Reshapes: sample n stays sample n when the elements per sample agree. */
static const char *const kReshapeOps[] = {"reshape", "flatten", "squeeze",
                                          "unsqueeze", NULL};

static bool isBatchedValue(MlirValue v, const KilnOpList *batchedOps,
                           MlirBlock body) {
  if (mlirValueIsABlockArgument(v))
    return mlirBlockEqual(mlirBlockArgumentGetOwner(v), body) &&
           isBatchedType(mlirValueGetType(v));
  return kilnOpListContains(batchedOps, mlirOpResultGetOwner(v));
}

/* Whether graph op `op`, which reads a batched value (`batched[k]` for
 * operand k), computes sample n of every result from sample n of its
 * batched operands alone, its results batched. */
static bool isSampleSeparable(MlirOperation op, const bool *batched) {
  intptr_t nOps = mlirOperationGetNumOperands(op);
  intptr_t nRes = mlirOperationGetNumResults(op);
  if (mlirOperationGetNumRegions(op) != 0 || nRes < 1)
    return false;
  MlirType out = mlirValueGetType(mlirOperationGetResult(op, 0));
  for (intptr_t i = 0; i < nRes; ++i)
    if (!isBatchedType(mlirValueGetType(mlirOperationGetResult(op, i))))
      return false;
  intptr_t r = mlirShapedTypeGetRank(out);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  name.data += 6; /* "graph." */
  name.length -= 6;
  bool onlyFirst = true;
  for (intptr_t k = 1; k < nOps; ++k)
    onlyFirst = onlyFirst && !batched[k];
  unsigned flags = kilnLowerFlags(op);
  if (flags & (KILN_LOWER_PER_SAMPLE | KILN_LOWER_PER_SAMPLE_FIRST)) {
    if ((flags & KILN_LOWER_PER_SAMPLE_FIRST) && !onlyFirst)
      return false;
    /* numpy broadcasting: a static operand of the result's rank must be
     * 1 along the batch. */
    for (intptr_t k = 0; k < nOps; ++k) {
      MlirType t = mlirValueGetType(mlirOperationGetOperand(op, k));
      if (batched[k]
              ? mlirShapedTypeGetRank(t) != r
              : (mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) == r &&
                 mlirShapedTypeGetDimSize(t, 0) != 1))
        return false;
    }
    return true;
  }
  if (!batched[0])
    return nameIs(name, "gather") && nOps == 2 && batched[1] &&
           kilnOpGetIntAttr(op, "axis", 0) == 0;
  MlirType in = mlirValueGetType(mlirOperationGetOperand(op, 0));
  if (nameIn(name, kSampleWindowOps))
    return onlyFirst;
  if (nameIn(name, kReshapeOps))
    return onlyFirst && dimsProduct(in, 1, mlirShapedTypeGetRank(in)) ==
                            dimsProduct(out, 1, r);
  if (nameIs(name, "softmax") || nameIs(name, "log_softmax") ||
      nameIs(name, "hardmax") || nameIs(name, "layer_normalization"))
    return onlyFirst && axisIsNotBatch(op, "axis", -1, r);
  if (nameIs(name, "gather"))
    return onlyFirst &&
           axisIsNotBatch(op, "axis", 0, mlirShapedTypeGetRank(in));
  if (nameIs(name, "concat")) {
    for (intptr_t k = 0; k < nOps; ++k)
      if (!batched[k])
        return false;
    return axisIsNotBatch(op, "axis", 0, r);
  }
  if (nameIs(name, "transpose")) {
    MlirAttribute perm = mlirOperationGetAttributeByName(op, kilnStr("perm"));
    return onlyFirst && !mlirAttributeIsNull(perm) &&
           mlirAttributeIsADenseI64Array(perm) &&
           mlirDenseArrayGetNumElements(perm) == r &&
           mlirDenseI64ArrayGetElement(perm, 0) == 0;
  }
  if (nameIs(name, "gemm")) {
    if (!onlyFirst || kilnOpGetIntAttr(op, "transA", 0) != 0)
      return false;
    if (nOps < 3)
      return true;
    MlirType c = mlirValueGetType(mlirOperationGetOperand(op, 2));
    return mlirShapedTypeGetRank(c) < 2 || mlirShapedTypeGetDimSize(c, 0) == 1;
  }
  if (nameIs(name, "matmul")) {
    MlirType b = mlirValueGetType(mlirOperationGetOperand(op, 1));
    if (batched[1])
      return r >= 3 && mlirShapedTypeGetRank(in) == r &&
             mlirShapedTypeGetRank(b) == r;
    return mlirShapedTypeGetRank(b) <= 2 && mlirShapedTypeGetRank(in) >= 2;
  }
  return false;
}

/* A product per sample needs this many rows for its static schedule to
 * beat the dynamic one's tiles over the whole batch: one row (a Gemm on
 * [batch, features], an MLP) is a matrix-vector product per sample that
 * re-reads the weights for every row. */
enum { kMinSampleRows = 16 };

/* The multiply-adds per sample of product `op` (conv, conv_transpose,
 * matmul, gemm; 0 for other ops), and in *rows the rows of its matrix
 * product per sample. */
static int64_t sampleMacs(MlirOperation op, MlirStringRef name, int64_t *rows) {
  MlirType out = mlirValueGetType(mlirOperationGetResult(op, 0));
  MlirType in = mlirValueGetType(mlirOperationGetOperand(op, 0));
  intptr_t r = mlirShapedTypeGetRank(out), ri = mlirShapedTypeGetRank(in);
  if (nameIs(name, "conv") || nameIs(name, "conv_transpose")) {
    MlirType w = mlirValueGetType(mlirOperationGetOperand(op, 1));
    bool transposed = nameIs(name, "conv_transpose");
    MlirType rowsOf = transposed ? in : out;
    *rows = dimsProduct(rowsOf, 2, mlirShapedTypeGetRank(rowsOf));
    return dimsProduct(rowsOf, 1, mlirShapedTypeGetRank(rowsOf)) *
           dimsProduct(w, 1, mlirShapedTypeGetRank(w));
  }
  if (nameIs(name, "matmul") || nameIs(name, "gemm")) {
    *rows = r >= 3 ? dimsProduct(out, 1, r - 1) : 1;
    int64_t k = nameIs(name, "gemm") && kilnOpGetIntAttr(op, "transA", 0)
                    ? mlirShapedTypeGetDimSize(in, 0)
                    : mlirShapedTypeGetDimSize(in, ri - 1);
    return dimsProduct(out, 1, r) * k;
  }
  *rows = 0;
  return 0;
}

typedef struct Plan {
  MlirBlock body;
  KilnOpList batchedOps; /* graph ops reading a batched value, in order */
  /* Multiply-adds per sample of the products with enough rows, and of the
   * others. */
  int64_t rowsWork, thinWork;
} Plan;

/* Fills `plan` for func `func`; false when the per-sample model does not
 * apply. */
static bool planFunction(MlirOperation func, Plan *plan) {
  MlirRegion region = mlirOperationGetRegion(func, 0);
  MlirBlock body = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
    return false;
  plan->body = body;
  bool anyBatchedArg = false;
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(body); ++i) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(body, i));
    if (isBatchedType(t))
      anyBatchedArg = true;
    else if (mlirTypeIsAShaped(t) && !kilnTypeIsStaticTensor(t))
      return false; /* a dynamic dim other than the batch */
  }
  if (!anyBatchedArg)
    return false;
  bool batched[64];
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    intptr_t n = mlirOperationGetNumOperands(op);
    if (nameIs(name, "func.return")) {
      for (intptr_t k = 0; k < n; ++k) {
        MlirValue v = mlirOperationGetOperand(op, k);
        if (!isBatchedValue(v, &plan->batchedOps, body) &&
            !kilnTypeIsStaticTensor(mlirValueGetType(v)))
          return false;
      }
      break;
    }
    bool isGraph = name.length > 6 && !memcmp(name.data, "graph.", 6);
    if (mlirOperationGetNumRegions(op) != 0 || n > 64)
      return false;
    bool any = false;
    for (intptr_t k = 0; k < n; ++k) {
      batched[k] = isBatchedValue(mlirOperationGetOperand(op, k),
                                  &plan->batchedOps, body);
      any = any || batched[k];
    }
    if (!any) {
      /* Batch-independent: stays before the loop; its results must not
       * be dynamic (they would depend on a dim the loop hides). */
      for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
        if (!kilnTypeIsStaticTensor(
                mlirValueGetType(mlirOperationGetResult(op, i))) &&
            mlirTypeIsAShaped(mlirValueGetType(mlirOperationGetResult(op, i))))
          return false;
      continue;
    }
    if (!isGraph || !isSampleSeparable(op, batched))
      return false;
    int64_t rows,
        macs = sampleMacs(op, (MlirStringRef){name.data + 6, name.length - 6},
                          &rows);
    if (rows >= kMinSampleRows)
      plan->rowsWork += macs;
    else
      plan->thinWork += macs;
    kilnOpListPush(&plan->batchedOps, op);
  }
  /* Worth it where the static schedules see real matrices: most of the
   * work in products of many rows per sample (convs, a transformer's
   * products over a static sequence). */
  return plan->rowsWork > 0 && plan->rowsWork >= 4 * plan->thinWork;
}

/* Input `i` of func `func` for messages: its ONNX name quoted, or its
 * position. */
static void inputName(MlirOperation func, intptr_t i, char *out, size_t cap) {
  MlirAttribute args =
      mlirOperationGetAttributeByName(func, kilnStr("arg_attrs"));
  MlirAttribute name = {NULL};
  if (!mlirAttributeIsNull(args) && mlirAttributeIsAArray(args) &&
      i < mlirArrayAttrGetNumElements(args)) {
    MlirAttribute dict = mlirArrayAttrGetElement(args, i);
    if (mlirAttributeIsADictionary(dict))
      name = mlirDictionaryAttrGetElementByName(dict, kilnStr("onnx.name"));
  }
  if (!mlirAttributeIsNull(name) && mlirAttributeIsAString(name)) {
    MlirStringRef s = mlirStringAttrGetValue(name);
    snprintf(out, cap, "%ld ('%.*s')", (long)i, (int)s.length, s.data);
  } else {
    snprintf(out, cap, "%ld", (long)i);
  }
}

/* `t` with dim 0 made 1. */
static MlirType sampleType(MlirType t) {
  intptr_t r = mlirShapedTypeGetRank(t);
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i)
    shape[i] = i ? mlirShapedTypeGetDimSize(t, i) : 1;
  return kilnTensorType(r, shape, mlirShapedTypeGetElementType(t));
}

/* The [i, 0, ...] sample of batched `x`, or the offsets of one. */
static void sampleAt(KilnBuilder *b, MlirValue x, MlirValue i, MlirValue *at,
                     MlirValue *sizes) {
  for (intptr_t d = 0; d < kilnRank(x); ++d) {
    at[d] = d ? kilnConstIndex(b, 0) : i;
    sizes[d] = kilnConstIndex(b, d ? kilnDim(x, d) : 1);
  }
}

typedef struct Rewrite {
  const Plan *plan;
  MlirOperation ret;
  /* Value map: old batched values -> their samples in the loop. */
  MlirValue *from, *to;
  intptr_t len, cap;
} Rewrite;

static void mapValue(Rewrite *rw, MlirValue from, MlirValue to) {
  if (rw->len == rw->cap) {
    rw->cap = rw->cap ? 2 * rw->cap : 64;
    rw->from = realloc(rw->from, rw->cap * sizeof(MlirValue));
    rw->to = realloc(rw->to, rw->cap * sizeof(MlirValue));
    if (!rw->from || !rw->to)
      abort();
  }
  rw->from[rw->len] = from;
  rw->to[rw->len++] = to;
}

static MlirValue lookup(const Rewrite *rw, MlirValue v) {
  for (intptr_t i = rw->len - 1; i >= 0; --i)
    if (mlirValueEqual(rw->from[i], v))
      return rw->to[i];
  return v;
}

/* The loop body: the samples of the batched inputs, the batched ops cloned
 * on them with batch-1 result types, each batched result returned inserted
 * into its accumulator. */
static void sampleLoopBody(KilnBuilder *b, MlirValue i, const MlirValue *acc,
                           MlirValue *next, void *userData) {
  Rewrite *rw = userData;
  MlirBlock body = rw->plan->body;
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(body); ++a) {
    MlirValue arg = mlirBlockGetArgument(body, a);
    if (!isBatchedType(mlirValueGetType(arg)))
      continue;
    MlirValue at[KILN_MAX_RANK], sizes[KILN_MAX_RANK];
    int64_t strides[KILN_MAX_RANK];
    sampleAt(b, arg, i, at, sizes);
    for (intptr_t d = 0; d < kilnRank(arg); ++d)
      strides[d] = 1;
    mapValue(rw, arg, kilnExtractSliceAt(b, arg, at, sizes, strides));
  }
  const KilnOpList *ops = &rw->plan->batchedOps;
  for (size_t k = 0; k < ops->len; ++k) {
    MlirOperation clone = mlirOperationClone(ops->data[k]);
    for (intptr_t o = 0; o < mlirOperationGetNumOperands(clone); ++o)
      mlirOperationSetOperand(clone, o,
                              lookup(rw, mlirOperationGetOperand(clone, o)));
    for (intptr_t r = 0; r < mlirOperationGetNumResults(clone); ++r) {
      MlirValue res = mlirOperationGetResult(clone, r);
      mlirValueSetType(res, sampleType(mlirValueGetType(res)));
      mapValue(rw, mlirOperationGetResult(ops->data[k], r), res);
    }
    if (mlirOperationIsNull(b->before))
      mlirBlockAppendOwnedOperation(b->block, clone);
    else
      mlirBlockInsertOwnedOperationBefore(b->block, b->before, clone);
  }
  intptr_t n = 0;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(rw->ret); ++k) {
    MlirValue v = mlirOperationGetOperand(rw->ret, k);
    MlirValue s = lookup(rw, v);
    if (mlirValueEqual(s, v))
      continue; /* batch-independent */
    MlirValue at[KILN_MAX_RANK], sizes[KILN_MAX_RANK];
    sampleAt(b, v, i, at, sizes);
    next[n] = kilnInsertSliceAt(b, s, acc[n], at);
    ++n;
  }
}

bool kilnLowerModelPerSample(MlirOperation func) {
  Plan plan = {0};
  bool applies = planFunction(func, &plan);
  MlirOperation ret =
      applies ? mlirBlockGetTerminator(plan.body) : (MlirOperation){NULL};
  Rewrite rw = {&plan, ret, NULL, NULL, 0, 0};
  MlirValue init[KILN_MAX_CARRIED], results[KILN_MAX_CARRIED];
  intptr_t nOut = 0;
  for (intptr_t k = 0; applies && k < mlirOperationGetNumOperands(ret); ++k) {
    MlirValue v = mlirOperationGetOperand(ret, k);
    if (kilnTypeIsStaticTensor(mlirValueGetType(v)))
      continue;
    applies = nOut < KILN_MAX_CARRIED;
    if (applies)
      init[nOut++] = v; /* replaced by its accumulator below */
  }
  if (!applies || !nOut) {
    kilnOpListDestroy(&plan.batchedOps);
    return false;
  }
  KilnBuilder b = {mlirOperationGetContext(func), mlirOperationGetLocation(ret),
                   plan.body, ret};
  /* The batch: the first batched input's; the others must agree. */
  MlirValue n = {NULL};
  intptr_t first = -1;
  for (intptr_t a = 0; a < mlirBlockGetNumArguments(plan.body); ++a) {
    MlirValue arg = mlirBlockGetArgument(plan.body, a);
    if (!isBatchedType(mlirValueGetType(arg)))
      continue;
    MlirValue dim = kilnDimValue(&b, arg, 0);
    if (mlirValueIsNull(n)) {
      n = dim;
      first = a;
      continue;
    }
    char message[512], one[128], other[128];
    inputName(func, first, one, sizeof(one));
    inputName(func, a, other, sizeof(other));
    snprintf(message, sizeof(message),
             "input %s has another batch size (dim 0) than input %s: the "
             "model runs sample by sample and takes one batch size for "
             "every input",
             other, one);
    kilnAssertEqual(&b, dim, n, message);
  }
  for (intptr_t k = 0; k < nOut; ++k) {
    MlirValue sizes[KILN_MAX_RANK] = {n};
    init[k] = kilnEmptySized(&b, mlirValueGetType(init[k]), sizes);
  }
  kilnForLoopN(&b, kilnConstIndex(&b, 0), n, nOut, init, sampleLoopBody, &rw,
               results);
  mlirOperationSetDiscardableAttributeByName(mlirOpResultGetOwner(results[0]),
                                             kilnStr(KILN_SAMPLE_LOOP_ATTR),
                                             mlirUnitAttrGet(b.ctx));
  /* Each result as a full-size slice that states its dims: nothing
   * resolves the dims of an scf.for's results, and the shape function
   * would keep the whole loop (a second run of the model) to read them. */
  intptr_t j = 0;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(ret); ++k) {
    if (kilnTypeIsStaticTensor(
            mlirValueGetType(mlirOperationGetOperand(ret, k))))
      continue;
    MlirValue y = results[j++], at[KILN_MAX_RANK], sizes[KILN_MAX_RANK];
    int64_t strides[KILN_MAX_RANK];
    sampleAt(&b, y, kilnConstIndex(&b, 0), at, sizes);
    sizes[0] = n;
    for (intptr_t d = 0; d < kilnRank(y); ++d)
      strides[d] = 1;
    mlirOperationSetOperand(ret, k,
                            kilnExtractSliceAt(&b, y, at, sizes, strides));
  }
  for (size_t k = plan.batchedOps.len; k-- > 0;)
    mlirOperationDestroy(plan.batchedOps.data[k]);
  kilnOpListDestroy(&plan.batchedOps);
  free(rw.from);
  free(rw.to);
  return true;
}

static void runGraphPerSample(MlirOperation func, MlirExternalPass pass,
                              const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  kilnLowerModelPerSample(func);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__scf__,
    mlirGetDialectHandle__tensor__,
};

/* In the graph pipelines before graph-fuse, whose groups then form inside
 * the loop as in a batch-1 model; convert-graph-to-linalg applies it too
 * (a function it already rewrote reads its inputs through slices: the
 * second application finds no batched graph op and changes nothing). */
const KilnPassInfo kilnGraphPerSamplePass = {
    .argument = "graph-per-sample",
    .summary = "Run a model whose only dynamic dim is the batch as one loop "
               "over its samples around a static batch-1 copy",
    .anchor = "func.func",
    .run = runGraphPerSample,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

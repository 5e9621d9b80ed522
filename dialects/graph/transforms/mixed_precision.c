/* graph-mixed-precision: runs an f32 model in f16 or bf16 the way PyTorch's
 * autocast does (docs/mixed-precision.md), with three classes of ops:
 *
 *   low     matmul, gemm, conv, conv_transpose, einsum: every f32 float
 *           input is rounded to the low type (constants once, at compile
 *           time: the library stores the weights in the low type), the
 *           product is formed from those values in f32 (products of two
 *           f16/bf16 values are exact in f32: what a tensor core's f32
 *           accumulation computes), and its result is rounded to the low
 *           type:
 *             %w = graph.constant dense<...> : tensor<KxNxbf16>
 *             %a = graph.cast(%x) {to = bf16}     (unless %x is low already)
 *             %y = graph.matmul(graph.cast(%a) {to = f32},
 *                               graph.cast(%w) {to = f32}) : f32
 *             %r = graph.cast(%y) {to = bf16}
 *   follow  elementwise arithmetic, activations, comparisons, data movement,
 *           max pools and max/min reductions: when every non-constant float
 *           input is low (and one is), the op runs in the low type, its f32
 *           constant inputs rounded to it; otherwise in f32.
 *   f32     everything else: softmax and log-softmax, the normalizations,
 *           sums, means and other accumulating reductions, exp, log, pow,
 *           reciprocal, average pools, ops with regions, ops this list does
 *           not know: low inputs are cast back to f32 first.
 *
 * The function's signature does not change: inputs arrive in f32 and
 * outputs leave in f32 (a low result is cast back before the return).
 * Values that are f16 or bf16 in the model itself are left alone. */
#include "kiln/passes.h"

#include <string.h>

#include "dialects/graph/fold_tensor.h"
#include "dialects/graph/transforms/dce.h"
#include "kiln/diagnostics.h"
#include "kiln/graph_builder.h"
#include "kiln/graph_tensor.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/op_list.h"

enum { OPT_PRECISION, NUM_OPTIONS };

/* Marks, while the pass runs, the ops whose float results it made low and
 * the casts it inserted: only their low results are the pass's. */
#define MARK "graph.mixed_precision"

/* Weights are converted whatever their size. */
#define NO_LIMIT INTPTR_MAX

typedef struct Rewriter {
  MlirContext ctx;
  MlirType low; /* f16 or bf16 */
  MlirType f32;
  /* Each f32 constant converted so far (from[i]) and its low copy (to[i]):
   * a weight read by several ops is stored once. */
  KilnOpList from, to;
} Rewriter;

static const char *const kLowOps[] = {"matmul",         "gemm",   "conv",
                                      "conv_transpose", "einsum", NULL};

/* Follow ops: every float operand carries the op's data type. */
static const char *const kFollowOps[] = {"add",
                                         "sub",
                                         "mul",
                                         "div",
                                         "neg",
                                         "abs",
                                         "sqrt",
                                         "tanh",
                                         "sigmoid",
                                         "relu",
                                         "leaky_relu",
                                         "elu",
                                         "hard_sigmoid",
                                         "clip",
                                         "erf",
                                         "floor",
                                         "ceil",
                                         "round",
                                         "min",
                                         "max",
                                         "where",
                                         "equal",
                                         "less",
                                         "greater",
                                         "less_or_equal",
                                         "greater_or_equal",
                                         "sign",
                                         "sin",
                                         "cos",
                                         "selu",
                                         "softsign",
                                         "thresholded_relu",
                                         "shrink",
                                         "celu",
                                         "hard_swish",
                                         "gelu",
                                         "prelu",
                                         "identity",
                                         "reshape",
                                         "flatten",
                                         "transpose",
                                         "concat",
                                         "split",
                                         "slice",
                                         "gather",
                                         "squeeze",
                                         "unsqueeze",
                                         "expand",
                                         "tile",
                                         "pad",
                                         "depth_to_space",
                                         "space_to_depth",
                                         "gather_elements",
                                         "gather_nd",
                                         "trilu",
                                         "reverse_sequence",
                                         "max_pool",
                                         "global_max_pool",
                                         "reduce_max",
                                         "reduce_min",
                                         "argmax",
                                         "argmin",
                                         "hardmax",
                                         "top_k",
                                         NULL};

/* Follow ops whose other float operands keep their type (Resize's roi and
 * scales, Dropout's ratio): only operand 0 follows. */
static const char *const kFollowFirstOps[] = {"dropout", "resize", NULL};

static bool nameIs(MlirOperation op, const char *graphName) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  size_t len = strlen(graphName);
  return n.length == 6 + len && !memcmp(n.data, "graph.", 6) &&
         !memcmp(n.data + 6, graphName, len);
}

static bool nameIn(MlirOperation op, const char *const *names) {
  for (int i = 0; names[i]; ++i)
    if (nameIs(op, names[i]))
      return true;
  return false;
}

static bool hasElementType(MlirValue v, MlirType elt) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsARankedTensor(t) &&
         mlirTypeEqual(mlirShapedTypeGetElementType(t), elt);
}

static bool isMarked(MlirOperation op) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(MARK)));
}

static void mark(Rewriter *r, MlirOperation op) {
  mlirOperationSetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(MARK), mlirUnitAttrGet(r->ctx));
}

/* A low value this pass made (a model's own f16/bf16 values are not). */
static bool isOurLow(const Rewriter *r, MlirValue v) {
  return mlirValueIsAOpResult(v) && hasElementType(v, r->low) &&
         isMarked(mlirOpResultGetOwner(v));
}

static bool isF32(const Rewriter *r, MlirValue v) {
  return hasElementType(v, r->f32);
}

static MlirOperation constantDef(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return (MlirOperation){NULL};
  MlirOperation def = mlirOpResultGetOwner(v);
  return nameIs(def, "constant") ? def : (MlirOperation){NULL};
}

static MlirType withElement(MlirType t, MlirType elt) {
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[KILN_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i)
    shape[i] = mlirShapedTypeGetDimSize(t, i);
  return mlirRankedTensorTypeGet(rank, shape, elt, mlirAttributeGetNull());
}

/* `x` cast to `to`, built before `before`; the cast is marked. */
static MlirValue castBefore(Rewriter *r, MlirOperation before, MlirValue x,
                            MlirType to) {
  KilnGraphBuilder *b = kilnGraphBuilderCreate(
      r->ctx, mlirOperationGetBlock(before), mlirOperationGetLocation(before));
  kilnGraphBuilderSetInsertionPointBefore(b, before);
  MlirNamedAttribute attr = kilnGraphAttrType(b, "to", to);
  MlirValue y = kilnGraphBuilderCreateValue(b, "cast", &x, 1, &attr, 1);
  kilnGraphBuilderDestroy(b);
  if (!mlirValueIsNull(y))
    mark(r, mlirOpResultGetOwner(y));
  return y;
}

/* The low copy of the f32 constant `c` (rounded to nearest even), built
 * once; null when its value cannot be read. */
static MlirValue lowConstant(Rewriter *r, MlirOperation c) {
  for (size_t i = 0; i < r->from.len; ++i)
    if (mlirOperationEqual(r->from.data[i], c))
      return mlirOperationGetResult(r->to.data[i], 0);
  MlirAttribute value = kilnFoldConstantValue(mlirOperationGetResult(c, 0));
  KilnFoldTensor t;
  if (mlirAttributeIsNull(value) || !kilnFoldTensorRead(value, NO_LIMIT, &t))
    return (MlirValue){NULL};
  t.type = withElement(t.type, r->low);
  t.elt = r->low;
  for (intptr_t i = 0; i < t.n; ++i)
    t.data[i].f = kilnFoldRoundFloat(r->low, t.data[i].f);
  MlirAttribute lowValue = kilnFoldTensorToAttr(&t);
  kilnFoldTensorDestroy(&t);
  KilnGraphBuilder *b = kilnGraphBuilderCreate(r->ctx, mlirOperationGetBlock(c),
                                               mlirOperationGetLocation(c));
  kilnGraphBuilderSetInsertionPointBefore(b, c);
  MlirNamedAttribute attr = mlirNamedAttributeGet(
      mlirIdentifierGet(r->ctx, mlirStringRefCreateFromCString("value")),
      lowValue);
  MlirOperation lc =
      kilnGraphBuilderCreateOp(b, "constant", NULL, 0, &attr, 1, -1);
  kilnGraphBuilderDestroy(b);
  if (mlirOperationIsNull(lc))
    return (MlirValue){NULL};
  mark(r, lc);
  kilnOpListPush(&r->from, c);
  kilnOpListPush(&r->to, lc);
  return mlirOperationGetResult(lc, 0);
}

/* Operand i of `op` (f32) in the low type: a constant's low copy or a cast. */
static bool lowerOperand(Rewriter *r, MlirOperation op, intptr_t i) {
  MlirValue x = mlirOperationGetOperand(op, i);
  MlirOperation c = constantDef(x);
  MlirValue y =
      mlirOperationIsNull(c) ? castBefore(r, op, x, r->low) : lowConstant(r, c);
  if (mlirValueIsNull(y))
    return false;
  mlirOperationSetOperand(op, i, y);
  return true;
}

/* A conv's explicit padding moved before the cast to f32: the low input
 * padded with zeros in the low type, the conv's pads zero. Then the
 * product's im2col reads the low values directly (the GPU's tensor cores
 * take them), not an f32 copy of the padded input. Grouped convs (not
 * products on the GPU) and auto_pad convs are left as they are. */
static bool padInLowType(Rewriter *r, MlirOperation conv) {
  MlirAttribute pads = mlirOperationGetAttributeByName(
      conv, mlirStringRefCreateFromCString("pads"));
  MlirAttribute autoPad = mlirOperationGetAttributeByName(
      conv, mlirStringRefCreateFromCString("auto_pad"));
  MlirAttribute group = mlirOperationGetAttributeByName(
      conv, mlirStringRefCreateFromCString("group"));
  if (mlirAttributeIsNull(pads) || !mlirAttributeIsADenseI64Array(pads) ||
      (!mlirAttributeIsNull(group) && (!mlirAttributeIsAInteger(group) ||
                                       mlirIntegerAttrGetValueInt(group) != 1)))
    return true;
  if (!mlirAttributeIsNull(autoPad) &&
      (!mlirAttributeIsAString(autoPad) ||
       !kilnStringRefEquals(mlirStringAttrGetValue(autoPad), "NOTSET")))
    return true;
  MlirValue x = mlirOperationGetOperand(conv, 0);
  intptr_t n = mlirDenseArrayGetNumElements(pads) / 2;
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(x));
  if (rank != n + 2 || rank > KILN_MAX_RANK)
    return true;
  int64_t padsAll[2 * KILN_MAX_RANK] = {0}, zeros[2 * KILN_MAX_RANK] = {0};
  bool any = false;
  for (intptr_t i = 0; i < n; ++i) {
    padsAll[2 + i] = mlirDenseI64ArrayGetElement(pads, i);
    padsAll[rank + 2 + i] = mlirDenseI64ArrayGetElement(pads, n + i);
    any |= padsAll[2 + i] || padsAll[rank + 2 + i];
  }
  if (!any)
    return true;
  KilnGraphBuilder *b = kilnGraphBuilderCreate(
      r->ctx, mlirOperationGetBlock(conv), mlirOperationGetLocation(conv));
  kilnGraphBuilderSetInsertionPointBefore(b, conv);
  MlirValue padsValue = kilnGraphBuildConstantInts(b, padsAll, 2 * rank);
  MlirValue padded = mlirValueIsNull(padsValue)
                         ? padsValue
                         : kilnGraphBuildPad(b, x, padsValue, (MlirValue){NULL},
                                             (MlirValue){NULL}, "constant");
  kilnGraphBuilderDestroy(b);
  if (mlirValueIsNull(padded))
    return false;
  mark(r, mlirOpResultGetOwner(padded));
  mlirOperationSetOperand(conv, 0, padded);
  mlirOperationSetAttributeByName(conv, mlirStringRefCreateFromCString("pads"),
                                  mlirDenseI64ArrayGet(r->ctx, 2 * n, zeros));
  return true;
}

/* A low op: f32 inputs rounded to the low type here, cast back to f32 by
 * fixInputs (the product in f32), the result rounded after it. */
static bool rewriteLow(Rewriter *r, MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1 ||
      !isF32(r, mlirOperationGetResult(op, 0)))
    return true;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (isF32(r, mlirOperationGetOperand(op, i)) && !lowerOperand(r, op, i))
      return false;
  if (nameIs(op, "conv") && isOurLow(r, mlirOperationGetOperand(op, 0)) &&
      !padInLowType(r, op))
    return false;
  MlirValue y = mlirOperationGetResult(op, 0);
  MlirOperation next = mlirOperationGetNextInBlock(op);
  MlirValue rounded = castBefore(r, next, y, r->low);
  if (mlirValueIsNull(rounded))
    return false;
  mlirValueReplaceAllUsesExcept(
      y, rounded, 1, (MlirOperation[]){mlirOpResultGetOwner(rounded)});
  return true;
}

/* A follow op runs low when its data inputs (all, or the first only) are
 * ours or f32 constants, one at least ours; its f32 results then become
 * low. */
static bool rewriteFollow(Rewriter *r, MlirOperation op, bool firstOnly) {
  intptr_t n = firstOnly ? 1 : mlirOperationGetNumOperands(op);
  bool anyLow = false;
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue x = mlirOperationGetOperand(op, i);
    if (isOurLow(r, x))
      anyLow = true;
    else if (isF32(r, x) && mlirOperationIsNull(constantDef(x)))
      return true; /* an f32 activation: the op stays f32 */
  }
  if (!anyLow)
    return true;
  for (intptr_t i = 0; i < n; ++i)
    if (isF32(r, mlirOperationGetOperand(op, i)) && !lowerOperand(r, op, i))
      return false;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirValue y = mlirOperationGetResult(op, i);
    if (isF32(r, y))
      mlirValueSetType(y, withElement(mlirValueGetType(y), r->low));
  }
  mark(r, op);
  return true;
}

static MlirWalkResult collectAll(MlirOperation op, void *userData) {
  kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* Every unmarked op reading one of our low values (an f32 op, a low op's
 * product, a return, an op in a nested region) reads it cast to f32. */
static bool fixInputs(Rewriter *r, MlirOperation root) {
  KilnOpList ops = {0};
  mlirOperationWalk(root, collectAll, &ops, MlirWalkPreOrder);
  bool ok = true;
  for (size_t k = 0; ok && k < ops.len; ++k) {
    MlirOperation op = ops.data[k];
    if (isMarked(op))
      continue;
    for (intptr_t i = 0; ok && i < mlirOperationGetNumOperands(op); ++i) {
      MlirValue x = mlirOperationGetOperand(op, i);
      if (!isOurLow(r, x))
        continue;
      MlirValue y = castBefore(r, op, x, r->f32);
      ok = !mlirValueIsNull(y);
      if (ok)
        mlirOperationSetOperand(op, i, y);
    }
  }
  kilnOpListDestroy(&ops);
  return ok;
}

static MlirWalkResult unmark(MlirOperation op, void *userData) {
  (void)userData;
  mlirOperationRemoveDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(MARK));
  return MlirWalkResultAdvance;
}

static bool rewriteFunction(Rewriter *r, MlirOperation func) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  KilnOpList ops = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    kilnOpListPush(&ops, op);
  bool ok = true;
  for (size_t k = 0; ok && k < ops.len; ++k) {
    MlirOperation op = ops.data[k];
    if (nameIn(op, kLowOps))
      ok = rewriteLow(r, op);
    else if (nameIn(op, kFollowOps))
      ok = rewriteFollow(r, op, false);
    else if (nameIn(op, kFollowFirstOps))
      ok = rewriteFollow(r, op, true);
  }
  kilnOpListDestroy(&ops);
  ok = ok && fixInputs(r, func);
  /* The f32 weights replaced by their low copies. */
  KilnOpList dead = {0};
  for (size_t i = 0; i < r->from.len; ++i)
    kilnOpListPush(&dead, r->from.data[i]);
  kilnGraphDCEEraseUnused(&dead);
  kilnOpListDestroy(&dead);
  mlirOperationWalk(func, unmark, NULL, MlirWalkPreOrder);
  return ok;
}

static void runMixedPrecision(MlirOperation func, MlirExternalPass pass,
                              const KilnPassOptionValue *options) {
  const char *p = options[OPT_PRECISION].s ? options[OPT_PRECISION].s : "";
  MlirContext ctx = mlirOperationGetContext(func);
  Rewriter r = {.ctx = ctx, .f32 = mlirF32TypeGet(ctx)};
  if (!strcmp(p, "fp32"))
    return;
  if (!strcmp(p, "fp16"))
    r.low = mlirF16TypeGet(ctx);
  else if (!strcmp(p, "bf16"))
    r.low = mlirBF16TypeGet(ctx);
  else {
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "graph-mixed-precision: precision '%s': expected fp32, "
                   "fp16 or bf16",
                   p);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  if (mlirRegionIsNull(mlirOperationGetRegion(func, 0)) ||
      mlirBlockIsNull(
          mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0)))) {
    return; /* a declaration */
  }
  bool ok = rewriteFunction(&r, func);
  kilnOpListDestroy(&r.from);
  kilnOpListDestroy(&r.to);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnPassOptionSpec kOptions[NUM_OPTIONS] = {
    [OPT_PRECISION] = {"precision", KILN_PASS_OPTION_STRING, "fp32",
                       "Compute precision: fp32 (unchanged), fp16 or bf16"},
};

const KilnPassInfo kilnGraphMixedPrecisionPass = {
    .argument = "graph-mixed-precision",
    .summary = "Run an f32 model in f16 or bf16 as autocast does (products "
               "formed in f32, statistics in f32)",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = NUM_OPTIONS,
    .run = runMixedPrecision,
    .pipeline = NULL,
};

/* kiln-shard-plan: a sharding plan as `shard` dialect annotations, for
 * MLIR's sharding-propagation and shard-partition (docs/scale-out.md).
 *
 * Runs on linalg on tensors. With plan=dp:N or tp:N, each public function
 * becomes (N ranks on a 1-D grid):
 *
 *   shard.grid @kiln_grid(shape = N)
 *   func.func @main(%x: tensor<BxK>,
 *                   %w: tensor<KxF> {kiln.weight = dense<...>}, ...) {
 *     %whole = shard.sharding @kiln_grid split_axes = [[]]
 *     %x0 = shard.shard %x to %whole
 *     %x1 = shard.shard %x0 to [[0]] annotate_for_users     dp: the batch
 *     %w0 = shard.shard %w to [[], [0]]                     tp: a split weight
 *     ...
 *     %y = shard.shard %r to %whole annotate_for_users      results whole
 *     return %y
 *
 * Weights (tensor constants that are not splats, taken through the
 * static reshapes the lowering puts after the flat constants it stores)
 * become arguments whose value is kept in `kiln.weight`: shard-partition
 * splits arguments, not constants. kiln-shard-bind-weights turns them back into
 * constants after it, each rank reading only its slice. The signature otherwise
 * stays whole: every rank receives the whole inputs and returns the whole
 * results.
 *
 * dp:N splits every input along its first dim (the batch), which must be
 * divisible by N; weights are whole on every rank.
 *
 * tp:N splits the weights of products (linalg.generic with a reduction
 * loop, a weight operand it reduces over and an activation; the shard
 * pipeline generalizes named ops first), Megatron-style, following the
 * data in op order: a product whose activations are whole has its weight
 * split along its first non-unit dim indexed by a parallel loop of the
 * result that no activation reads (its output features: columns, or the
 * heads of an [E, H, D] attention projection), and its result along that
 * loop. Any
 * generic whose split operands agree on one loop keeps it: a parallel
 * loop splits its result (elementwise ops, softmax, the attention
 * products over heads) and the weights it indexes (a bias); a reduction
 * loop splits the weights it indexes by rows (input features), and the
 * partial results are all-reduced. A weight used split two ways or also
 * whole stays whole; an i1 constant (a mask) too. The split dim must be
 * divisible by N.
 *
 * plan-file=FILE (plan_file.h) adds a hand-written plan's entries: a
 * product that comes from a named ONNX node, or reads a named initializer,
 * is split as the entry says (columns: as above; rows: its weight's first
 * reduction loop, the partial sums all-reduced; whole), whatever its
 * operands' splits (propagation reshards them). An entry that names no
 * product is an error. */
#include "kiln/passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/shard/transforms/gather.h"
#include "dialects/shard/transforms/plan_file.h"
#include "dialects/shard/transforms/shard_plan.h"
#include "dialects/shard/transforms/weight_bytes.h"
#include "kiln/diagnostics.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/Shard.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { OPT_PLAN, OPT_PLAN_FILE, NUM_OPTIONS };

/* `#shard<axisarray[...]>` splitting dim `dim` of a rank-`rank` tensor
 * over grid axis 0 (dim -1: whole). */
static MlirAttribute splitAxes(MlirContext ctx, intptr_t rank, intptr_t dim) {
  KilnStrBuf text = {0};
  kilnStrBufAppendf(&text, "#shard<axisarray[");
  for (intptr_t d = 0; d < rank || d == 0; ++d)
    kilnStrBufAppendf(&text, "%s[%s]", d ? ", " : "", d == dim ? "0" : "");
  kilnStrBufAppendf(&text, "]>");
  MlirAttribute a = mlirAttributeParseGet(ctx, kilnStr(kilnStrBufGet(&text)));
  kilnStrBufDestroy(&text);
  return a;
}

/* `%s = shard.sharding @kiln_grid split_axes = ...` and `shard.shard %v to
 * %s`, before `before`; returns the shard's result. */
static MlirValue insertShard(MlirOperation before, MlirValue v, intptr_t dim,
                             bool forUsers) {
  MlirContext ctx = mlirOperationGetContext(before);
  intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(v));
  MlirType shardingType = mlirTypeParseGet(ctx, kilnStr("!shard.sharding"));
  MlirNamedAttribute attrs[5] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("grid")),
          mlirFlatSymbolRefAttrGet(ctx, kilnStr(KILN_SHARD_GRID))),
      kilnSegmentSizesAttr(ctx, 2, (const int32_t[]){0, 0}),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("split_axes")),
                            splitAxes(ctx, rank, dim)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("static_halo_sizes")),
          mlirDenseI64ArrayGet(ctx, 0, NULL)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("static_sharded_dims_offsets")),
          mlirDenseI64ArrayGet(ctx, 0, NULL)),
  };
  MlirValue sharding =
      mlirOperationGetResult(kilnInsertOp(before, "shard.sharding", 0, NULL, 1,
                                          &shardingType, 5, attrs),
                             0);
  MlirValue ops[2] = {v, sharding};
  MlirType type = mlirValueGetType(v);
  MlirNamedAttribute mark = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("annotate_for_users")),
      mlirUnitAttrGet(ctx));
  return mlirOperationGetResult(kilnInsertOp(before, "shard.shard", 2, ops, 1,
                                             &type, forUsers ? 1 : 0, &mark),
                                0);
}

static MlirAttribute funcType(MlirOperation f) {
  return mlirOperationGetAttributeByName(f, kilnStr("function_type"));
}

/* Appends an argument of `type` carrying {kiln.weight = value}. */
static MlirValue addWeightArg(MlirOperation f, MlirType type,
                              MlirAttribute value, MlirLocation loc) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  MlirValue arg = mlirBlockAddArgument(entry, type, loc);
  MlirType ft = mlirTypeAttrGetValue(funcType(f));
  intptr_t nIn = mlirFunctionTypeGetNumInputs(ft);
  intptr_t nOut = mlirFunctionTypeGetNumResults(ft);
  MlirType *ins = kilnXCalloc((size_t)nIn + 1, sizeof(MlirType));
  MlirType *outs = kilnXCalloc((size_t)nOut, sizeof(MlirType));
  for (intptr_t i = 0; i < nIn; ++i)
    ins[i] = mlirFunctionTypeGetInput(ft, i);
  ins[nIn] = type;
  for (intptr_t i = 0; i < nOut; ++i)
    outs[i] = mlirFunctionTypeGetResult(ft, i);
  mlirOperationSetAttributeByName(
      f, kilnStr("function_type"),
      mlirTypeAttrGet(mlirFunctionTypeGet(ctx, nIn + 1, ins, nOut, outs)));
  free(ins);
  free(outs);
  /* arg_attrs: one dictionary per argument. */
  MlirAttribute old = mlirOperationGetAttributeByName(f, kilnStr("arg_attrs"));
  MlirAttribute *dicts = kilnXCalloc((size_t)nIn + 1, sizeof(MlirAttribute));
  for (intptr_t i = 0; i < nIn; ++i)
    dicts[i] = !mlirAttributeIsNull(old) && i < mlirArrayAttrGetNumElements(old)
                   ? mlirArrayAttrGetElement(old, i)
                   : mlirDictionaryAttrGet(ctx, 0, NULL);
  MlirNamedAttribute w = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr(KILN_SHARD_WEIGHT_ATTR)), value);
  dicts[nIn] = mlirDictionaryAttrGet(ctx, 1, &w);
  mlirOperationSetAttributeByName(f, kilnStr("arg_attrs"),
                                  mlirArrayAttrGet(ctx, nIn + 1, dicts));
  free(dicts);
  return arg;
}

static MlirWalkResult collectWeights(MlirOperation op, void *userData) {
  if (!kilnOpNameIs(op, "arith.constant"))
    return MlirWalkResultAdvance;
  /* Readable weights, and other tensor constants that are not splats (an
   * i1 mask): MLIR partitions splat constants only; these stay whole. */
  MlirAttribute value = mlirOperationGetAttributeByName(op, kilnStr("value"));
  size_t size;
  MlirType t = mlirAttributeGetType(value);
  if (kilnWeightBytes(value, &size) ||
      (mlirAttributeIsADenseElements(value) &&
       !mlirDenseElementsAttrIsSplat(value) && kilnTypeIsStaticTensor(t) &&
       mlirShapedTypeGetRank(t) >= 1))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* The value a weight is used as from `v`: through the static reshapes
 * that use only it (the lowering stores weights flat and reshapes them),
 * `v` itself otherwise. */
static MlirValue weightEnd(MlirValue v) {
  for (;;) {
    MlirOpOperand u = mlirValueGetFirstUse(v);
    if (mlirOpOperandIsNull(u) ||
        !mlirOpOperandIsNull(mlirOpOperandGetNextUse(u)) ||
        !kilnIsStaticTensorReshape(mlirOpOperandGetOwner(u)))
      return v;
    v = mlirOperationGetResult(mlirOpOperandGetOwner(u), 0);
  }
}

/* Erases `op` and, up its chain of reshapes, every op left unused. */
static void eraseChain(MlirOperation op) {
  while (!mlirOperationIsNull(op) && mlirOpOperandIsNull(mlirValueGetFirstUse(
                                         mlirOperationGetResult(op, 0)))) {
    MlirOperation up = {NULL};
    if (mlirOperationGetNumOperands(op) == 1) {
      MlirValue src = mlirOperationGetOperand(op, 0);
      if (mlirValueIsAOpResult(src))
        up = mlirOpResultGetOwner(src);
    }
    mlirOperationDestroy(op);
    op = up;
  }
}

/* The weight constants of `f` (through their reshapes), each now an
 * argument; returns how many arguments `f` had before. */
static intptr_t liftWeights(MlirOperation f) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  intptr_t before = mlirBlockGetNumArguments(entry);
  KilnOpList constants = {0};
  mlirOperationWalk(f, collectWeights, &constants, MlirWalkPreOrder);
  for (size_t i = 0; i < constants.len; ++i) {
    MlirOperation c = constants.data[i];
    MlirAttribute value = mlirOperationGetAttributeByName(c, kilnStr("value"));
    MlirValue r = mlirOperationGetResult(c, 0);
    /* Each use's weight value: a reshape's chain end, or the constant. */
    KilnOpList ends = {0};
    for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      MlirOperation owner = mlirOpOperandGetOwner(u);
      MlirOperation end = kilnIsStaticTensorReshape(owner)
                              ? mlirOpResultGetOwner(
                                    weightEnd(mlirOperationGetResult(owner, 0)))
                              : c;
      if (!kilnOpListContains(&ends, end))
        kilnOpListPush(&ends, end);
    }
    for (size_t k = 0; k < ends.len; ++k) {
      MlirValue v = mlirOperationGetResult(ends.data[k], 0);
      MlirAttribute w = kilnWeightReshaped(value, mlirValueGetType(v));
      if (mlirAttributeIsNull(w))
        continue;
      MlirValue arg =
          addWeightArg(f, mlirValueGetType(v), w, mlirOperationGetLocation(c));
      mlirValueReplaceAllUsesOfWith(v, arg);
      if (!mlirOperationEqual(ends.data[k], c))
        eraseChain(ends.data[k]);
    }
    kilnOpListDestroy(&ends);
    if (mlirOpOperandIsNull(mlirValueGetFirstUse(r)))
      mlirOperationDestroy(c);
  }
  kilnOpListDestroy(&constants);
  return before;
}

/* tp: the dim of each weight argument its ops split (kWhole: whole), by
 * the rule above, and the dim of each op's result the plan splits.
 * `split` is indexed by argument number. */
enum { kNone = -1, kWhole = -2, kMaxOperands = 64, kMaxLoops = 64 };

typedef struct TensorPlan {
  MlirBlock entry;
  intptr_t firstWeight;
  intptr_t *split;     /* per argument: a dim, kNone (unused), kWhole */
  bool *usedWhole;     /* per argument: some op uses it unsplit */
  bool *lookedUp;      /* per argument: an embedding lookup reads it */
  KilnOpList splitOps; /* ops whose result is split... */
  intptr_t *splitDims; /* ...along this dim */
  bool ok;
  int ranks;
  const KilnShardPlanFile *file; /* a hand-written plan's entries, or NULL */
} TensorPlan;

/* The dim along which the plan splits `v`, or -1. */
static intptr_t splitDimOf(const TensorPlan *tp, MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return -1;
  MlirOperation owner = mlirOpResultGetOwner(v);
  for (size_t i = 0; i < tp->splitOps.len; ++i)
    if (mlirOperationEqual(tp->splitOps.data[i], owner))
      return tp->splitDims[i];
  return -1;
}

static void markSplit(TensorPlan *tp, MlirOperation op, intptr_t dim) {
  kilnOpListPush(&tp->splitOps, op);
  tp->splitDims =
      realloc(tp->splitDims, tp->splitOps.len * sizeof(*tp->splitDims));
  if (!tp->splitDims)
    abort();
  tp->splitDims[tp->splitOps.len - 1] = dim;
}

/* The weight argument number of `v`, or -1. */
static intptr_t weightArg(const TensorPlan *tp, MlirValue v) {
  if (!mlirValueIsABlockArgument(v) ||
      !mlirBlockEqual(mlirBlockArgumentGetOwner(v), tp->entry))
    return -1;
  intptr_t n = mlirBlockArgumentGetArgNumber(v);
  return n >= tp->firstWeight ? n : -1;
}

/* The position of loop `loop` among `m`'s results (plain dims), or -1. */
static intptr_t positionOf(MlirAffineMap m, intptr_t loop) {
  for (intptr_t d = 0; d < mlirAffineMapGetNumResults(m); ++d) {
    MlirAffineExpr e = mlirAffineMapGetResult(m, d);
    if (mlirAffineExprIsADim(e) && mlirAffineDimExprGetPosition(e) == loop)
      return d;
  }
  return -1;
}

/* Splits weight `w` along `dim` for `op` (a reduction loop: its rows, the
 * input features; else its columns); false after the error for a size
 * the ranks do not divide. A weight split two ways stays whole. */
static bool splitWeight(TensorPlan *tp, MlirOperation op, intptr_t w,
                        intptr_t dim, bool rows) {
  MlirType t = mlirValueGetType(mlirBlockGetArgument(tp->entry, w));
  int64_t size = mlirShapedTypeGetDimSize(t, dim);
  if (size % tp->ranks) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "kiln-shard-plan: tp:%d: this product's weight has %lld "
                   "%s, not divisible by %d (keep the product whole with a "
                   "hand-written plan's entry NAME whole, --shard-plan)",
                   tp->ranks, (long long)size,
                   rows ? "input features (rows)" : "output features (columns)",
                   tp->ranks);
    tp->ok = false;
    return false;
  }
  tp->split[w] = tp->split[w] == kNone || tp->split[w] == dim ? dim : kWhole;
  return true;
}

/* A product's column split: its first weight dim indexed by a parallel
 * loop of the result that no activation reads (an output feature:
 * heads before head dims, as weights are laid out), a unit dim (the
 * reshape propagation's) passed over; -1 if none. */
static intptr_t columnLoop(const TensorPlan *tp, MlirOperation op,
                           intptr_t weight, intptr_t numInputs,
                           const char *kinds) {
  MlirAffineMap wm = kilnLinalgIndexingMap(op, weight);
  MlirAffineMap out = kilnLinalgIndexingMap(op, numInputs);
  MlirType wt = mlirValueGetType(mlirOperationGetOperand(op, weight));
  for (intptr_t d = 0; d < mlirAffineMapGetNumResults(wm); ++d) {
    MlirAffineExpr e = mlirAffineMapGetResult(wm, d);
    if (!mlirAffineExprIsADim(e) || mlirShapedTypeGetDimSize(wt, d) == 1)
      continue;
    intptr_t l = mlirAffineDimExprGetPosition(e);
    bool readElsewhere = false; /* by an activation (weights split too) */
    for (intptr_t i = 0; i < numInputs && !readElsewhere; ++i)
      readElsewhere = i != weight &&
                      weightArg(tp, mlirOperationGetOperand(op, i)) < 0 &&
                      positionOf(kilnLinalgIndexingMap(op, i), l) >= 0;
    if (kinds[l] == 'p' && !readElsewhere && positionOf(out, l) >= 0)
      return l;
  }
  return -1;
}

/* Whether operand `i` of `op` is indexed by a loop of kind `kind`. */
static bool readsLoopOfKind(MlirOperation op, intptr_t i, const char *kinds,
                            char kind) {
  MlirAffineMap m = kilnLinalgIndexingMap(op, i);
  for (intptr_t d = 0; d < mlirAffineMapGetNumResults(m); ++d) {
    MlirAffineExpr e = mlirAffineMapGetResult(m, d);
    if (mlirAffineExprIsADim(e) &&
        kinds[mlirAffineDimExprGetPosition(e)] == kind)
      return true;
  }
  return false;
}

/* The hand-written plan's entry for product `op`: the entry naming the
 * node it comes from, else one naming a weight it reads; NULL if none. */
static KilnShardPlanEntry *entryFor(const TensorPlan *tp, MlirOperation op) {
  if (!tp->file)
    return NULL;
  KilnShardPlanEntry *e =
      kilnShardPlanFileLookup(tp->file, mlirOperationGetLocation(op));
  for (intptr_t i = 0; !e && i + 1 < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (weightArg(tp, v) >= 0)
      e = kilnShardPlanFileLookup(tp->file, mlirValueGetLocation(v));
  }
  return e;
}

/* The loop an entry splits product `op` along (its `rows`: the first
 * reduction loop the weight reads; `columns`: columnLoop), -1 after the
 * error when there is none. */
static intptr_t entryLoop(TensorPlan *tp, MlirOperation op,
                          const KilnShardPlanEntry *e, intptr_t weight,
                          intptr_t numInputs, const char *kinds) {
  intptr_t loop = -1;
  if (e->split == KILN_SHARD_SPLIT_COLUMNS) {
    loop = columnLoop(tp, op, weight, numInputs, kinds);
  } else {
    MlirAffineMap wm = kilnLinalgIndexingMap(op, weight);
    for (intptr_t d = 0; d < mlirAffineMapGetNumResults(wm) && loop < 0; ++d) {
      MlirAffineExpr x = mlirAffineMapGetResult(wm, d);
      if (mlirAffineExprIsADim(x) &&
          kinds[mlirAffineDimExprGetPosition(x)] == 'r')
        loop = mlirAffineDimExprGetPosition(x);
    }
  }
  if (loop < 0) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "kiln-shard-plan: %s:%d: '%s %s': this product's weight "
                   "has no %s dim to split",
                   tp->file->path, e->line, e->name,
                   kilnShardSplitName(e->split),
                   e->split == KILN_SHARD_SPLIT_COLUMNS ? "output-feature"
                                                        : "input-feature");
    tp->ok = false;
  }
  return loop;
}

/* An entry's product reads its activations as the entry has them: whole,
 * or (rows) split along `loop`. Propagation then reshards the
 * activations, not the weights the entry places. */
static void annotateActivations(const TensorPlan *tp, MlirOperation op,
                                intptr_t loop) {
  for (intptr_t i = 0; i + 1 < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (weightArg(tp, v) >= 0 || !mlirTypeIsARankedTensor(mlirValueGetType(v)))
      continue;
    intptr_t dim =
        loop < 0 ? -1 : positionOf(kilnLinalgIndexingMap(op, i), loop);
    mlirOperationSetOperand(op, i, insertShard(op, v, dim, true));
  }
}

/* Plans one linalg.generic (ops are visited in order, so its operands'
 * splits are known). */
static void planGeneric(TensorPlan *tp, MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  intptr_t numInputs = n - 1;
  intptr_t loops = mlirAffineMapGetNumDims(kilnLinalgIndexingMap(op, 0));
  char kinds[kMaxLoops];
  if (mlirOperationGetNumResults(op) != 1 || n > kMaxOperands ||
      loops > kMaxLoops || !kilnLinalgIteratorKinds(op, kinds, loops))
    goto whole;
  /* The loop its split inputs are split along (one, or none planned). */
  intptr_t loop = -1, firstWeight = -1;
  bool activations = false, twoWays = false;
  for (intptr_t i = 0; i < numInputs; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (weightArg(tp, v) >= 0) {
      /* The product's weight is one it reduces over (not a mask or a
       * bias beside the contraction). */
      if (firstWeight < 0 && readsLoopOfKind(op, i, kinds, 'r'))
        firstWeight = i;
      continue;
    }
    activations |= mlirTypeIsARankedTensor(mlirValueGetType(v));
    intptr_t dim = splitDimOf(tp, v);
    if (dim < 0)
      continue;
    MlirAffineExpr e =
        mlirAffineMapGetResult(kilnLinalgIndexingMap(op, i), dim);
    intptr_t l = mlirAffineExprIsADim(e) ? mlirAffineDimExprGetPosition(e) : -2;
    twoWays |= l == -2 || (loop >= 0 && loop != l);
    loop = l;
  }
  bool product = firstWeight >= 0 && activations && memchr(kinds, 'r', loops);
  KilnShardPlanEntry *entry = product ? entryFor(tp, op) : NULL;
  if (entry) {
    entry->used = true;
    if (entry->split == KILN_SHARD_SPLIT_WHOLE) {
      annotateActivations(tp, op, -1);
      goto whole;
    }
    loop = entryLoop(tp, op, entry, firstWeight, numInputs, kinds);
    if (loop < 0)
      return;
    annotateActivations(tp, op,
                        entry->split == KILN_SHARD_SPLIT_ROWS ? loop : -1);
  } else if (twoWays) {
    goto whole; /* split two ways: propagation reshards */
  }
  bool rows = loop >= 0 && kinds[loop] == 'r';
  if (loop < 0 && product)
    loop = columnLoop(tp, op, firstWeight, numInputs, kinds);
  if (loop < 0)
    goto whole;
  for (intptr_t i = 0; i < numInputs; ++i) {
    intptr_t w = weightArg(tp, mlirOperationGetOperand(op, i));
    if (w < 0)
      continue;
    intptr_t dim = positionOf(kilnLinalgIndexingMap(op, i), loop);
    if (dim < 0 || !kilnWeightElementBytes(mlirValueGetType(
                       mlirOperationGetOperand(op, i)))) /* i1: whole */
      tp->usedWhole[w] = true;
    else if (!splitWeight(tp, op, w, dim, rows))
      return;
  }
  intptr_t outDim = positionOf(kilnLinalgIndexingMap(op, numInputs), loop);
  if (!rows && outDim >= 0)
    markSplit(tp, op, outDim);
  return;
whole:
  for (intptr_t i = 0; i < n; ++i) {
    intptr_t w = weightArg(tp, mlirOperationGetOperand(op, i));
    if (w >= 0)
      tp->usedWhole[w] = true;
  }
}

static MlirWalkResult planOp(MlirOperation op, void *userData) {
  TensorPlan *tp = userData;
  if (kilnOpNameIs(op, "linalg.generic")) {
    planGeneric(tp, op);
    return tp->ok ? MlirWalkResultAdvance : MlirWalkResultInterrupt;
  }
  /* An embedding lookup's table: split by rows if nothing else reads it. */
  intptr_t table = -1;
  MlirOperation parent = mlirOperationGetParentOperation(op);
  if (mlirOperationEqual(kilnShardLookupExtract(parent), op))
    table = weightArg(tp, mlirOperationGetOperand(op, 0));
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    intptr_t w = weightArg(tp, mlirOperationGetOperand(op, i));
    if (w >= 0 && i == 0 && w == table)
      tp->lookedUp[w] = true;
    else if (w >= 0)
      tp->usedWhole[w] = true;
  }
  return MlirWalkResultAdvance;
}

/* Marks the tables of embedding lookups that nothing else reads, whose
 * rows the ranks divide, with KILN_SHARD_LOOKUP_ROWS_ATTR. */
static void markLookupTables(MlirOperation f, const TensorPlan *tp) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirAttribute old = mlirOperationGetAttributeByName(f, kilnStr("arg_attrs"));
  intptr_t n = mlirBlockGetNumArguments(tp->entry);
  if (mlirAttributeIsNull(old) || mlirArrayAttrGetNumElements(old) != n)
    return;
  MlirAttribute *dicts = kilnXCalloc((size_t)n, sizeof(MlirAttribute));
  for (intptr_t i = 0; i < n; ++i) {
    dicts[i] = mlirArrayAttrGetElement(old, i);
    MlirType t = mlirValueGetType(mlirBlockGetArgument(tp->entry, i));
    if (!tp->lookedUp[i] || tp->usedWhole[i] || tp->split[i] != kNone ||
        !kilnWeightElementBytes(t) ||
        mlirShapedTypeGetDimSize(t, 0) % tp->ranks)
      continue;
    intptr_t k = mlirDictionaryAttrGetNumElements(dicts[i]);
    MlirNamedAttribute *entries =
        kilnXCalloc((size_t)k + 1, sizeof(MlirNamedAttribute));
    for (intptr_t e = 0; e < k; ++e)
      entries[e] = mlirDictionaryAttrGetElement(dicts[i], e);
    entries[k] = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, kilnStr(KILN_SHARD_LOOKUP_ROWS_ATTR)),
        mlirUnitAttrGet(ctx));
    dicts[i] = mlirDictionaryAttrGet(ctx, k + 1, entries);
    free(entries);
  }
  mlirOperationSetAttributeByName(f, kilnStr("arg_attrs"),
                                  mlirArrayAttrGet(ctx, n, dicts));
  free(dicts);
}

/* dp: every input's first dim divisible by the ranks. */
static bool checkBatch(MlirOperation f, intptr_t numInputs, int ranks) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  for (intptr_t i = 0; i < numInputs; ++i) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(entry, i));
    if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) < 1)
      continue;
    int64_t b = mlirShapedTypeGetDimSize(t, 0);
    if (mlirShapedTypeIsDynamicDim(t, 0) || b % ranks) {
      char text[64];
      if (mlirShapedTypeIsDynamicDim(t, 0))
        snprintf(text, sizeof(text), "a dynamic batch");
      else
        snprintf(text, sizeof(text), "a batch of %lld", (long long)b);
      kilnEmitErrorf(mlirOperationGetLocation(f),
                     "kiln-shard-plan: dp:%d: input #%d has %s, not "
                     "divisible by %d (compile it with a batch that is)",
                     ranks, (int)i, text, ranks);
      return false;
    }
  }
  return true;
}

static MlirWalkResult collectEmpties(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "tensor.empty"))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* Gives each use of a tensor.empty its own, and erases unused ones: the outputs
 * of unrelated ops that bufferization would share otherwise tie their shardings
 * together in propagation (a batch-split op's output and a whole one's). */
static void unshareEmpties(MlirOperation f) {
  KilnOpList empties = {0};
  mlirOperationWalk(f, collectEmpties, &empties, MlirWalkPreOrder);
  for (size_t i = 0; i < empties.len; ++i) {
    MlirOperation e = empties.data[i];
    MlirValue r = mlirOperationGetResult(e, 0);
    MlirOpOperand u = mlirValueGetFirstUse(r);
    if (mlirOpOperandIsNull(u)) {
      /* shard-partition crashes on a result without a sharding. */
      mlirOperationDestroy(e);
      continue;
    }
    u = mlirOpOperandGetNextUse(u); /* the first use keeps the original */
    while (!mlirOpOperandIsNull(u)) {
      MlirOpOperand next = mlirOpOperandGetNextUse(u);
      MlirOperation owner = mlirOpOperandGetOwner(u);
      MlirOperation c = mlirOperationClone(e);
      mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(e),
                                          mlirOperationGetNextInBlock(e), c);
      mlirOperationSetOperand(owner, mlirOpOperandGetOperandNumber(u),
                              mlirOperationGetResult(c, 0));
      u = next;
    }
  }
  kilnOpListDestroy(&empties);
}

/* Annotates `f` for `plan`; false after an error. */
static bool planFunction(MlirOperation f, const KilnShardPlan *plan,
                         const KilnShardPlanFile *file) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  intptr_t numInputs = liftWeights(f);
  unshareEmpties(f);
  if (plan->kind == KILN_SHARD_DATA && !checkBatch(f, numInputs, plan->ranks))
    return false;
  intptr_t numArgs = mlirBlockGetNumArguments(entry);
  TensorPlan tp = {.entry = entry,
                   .firstWeight = numInputs,
                   .split = kilnXCalloc((size_t)numArgs + 1, sizeof(intptr_t)),
                   .usedWhole = kilnXCalloc((size_t)numArgs + 1, sizeof(bool)),
                   .lookedUp = kilnXCalloc((size_t)numArgs + 1, sizeof(bool)),
                   .ok = true,
                   .ranks = plan->ranks,
                   .file = file};
  for (intptr_t i = 0; i < numArgs; ++i)
    tp.split[i] = kNone;
  if (plan->kind == KILN_SHARD_TENSOR) {
    mlirOperationWalk(f, planOp, &tp, MlirWalkPreOrder);
    if (tp.ok)
      markLookupTables(f, &tp);
  }
  kilnOpListDestroy(&tp.splitOps);
  free(tp.splitDims);
  for (intptr_t i = 0; i < numArgs; ++i)
    if (tp.usedWhole[i] || tp.split[i] < 0)
      tp.split[i] = -1;
  free(tp.usedWhole);
  free(tp.lookedUp);
  if (!tp.ok) {
    free(tp.split);
    return false;
  }
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  for (intptr_t i = 0; i < numArgs; ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    if (!mlirTypeIsARankedTensor(t) || mlirShapedTypeGetRank(t) < 1)
      continue;
    bool input = i < numInputs;
    MlirValue v = insertShard(first, arg, input ? -1 : tp.split[i], false);
    MlirOperation keep = mlirOpResultGetOwner(v);
    if (input && plan->kind == KILN_SHARD_DATA)
      v = insertShard(first, v, 0, true);
    mlirValueReplaceAllUsesExcept(arg, v, 1, &keep);
  }
  free(tp.split);
  /* Every result whole. */
  MlirOperation ret = mlirBlockGetTerminator(entry);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); ++i) {
    MlirValue r = mlirOperationGetOperand(ret, i);
    MlirType t = mlirValueGetType(r);
    if (mlirTypeIsARankedTensor(t) && mlirShapedTypeGetRank(t) >= 1)
      mlirOperationSetOperand(ret, i, insertShard(ret, r, -1, true));
  }
  return true;
}

/* Reads plan-file into `file` and picks the plan (the `plan` option's,
 * else the file's) into `text` and `plan`; false after an error. */
static bool readPlan(MlirOperation module, const KilnPassOptionValue *options,
                     KilnShardPlanFile *file, const char **text,
                     KilnShardPlan *plan) {
  MlirLocation loc = mlirOperationGetLocation(module);
  const char *path = options[OPT_PLAN_FILE].s;
  *text = options[OPT_PLAN].s ? options[OPT_PLAN].s : "";
  if (path && *path) {
    char error[512];
    if (!kilnShardPlanFileRead(path, file, error, sizeof(error))) {
      kilnEmitErrorf(loc, "kiln-shard-plan: %s", error);
      return false;
    }
    if (!**text && file->hasPlan)
      *text = file->planText;
    else if (!**text) {
      kilnEmitErrorf(loc,
                     "kiln-shard-plan: %s has no 'plan tp:N' line and no "
                     "plan was given",
                     path);
      return false;
    }
  }
  if (!kilnShardPlanParse(*text, plan)) {
    kilnEmitErrorf(loc,
                   "kiln-shard-plan: plan '%s': expected dp:N or tp:N, N "
                   "from 2 to 4096",
                   *text);
    return false;
  }
  if (file->numEntries && plan->kind != KILN_SHARD_TENSOR) {
    kilnEmitErrorf(loc,
                   "kiln-shard-plan: %s:%d: entries split products: they "
                   "need a tp plan, not %s",
                   path, file->entries[0].line, *text);
    return false;
  }
  return true;
}

typedef struct NameSearch {
  const KilnShardPlanFile *file;
  const KilnShardPlanEntry *entry;
  MlirOperation found;
} NameSearch;

static MlirWalkResult findNamed(MlirOperation op, void *userData) {
  NameSearch *s = userData;
  if (kilnShardPlanFileLookup(s->file, mlirOperationGetLocation(op)) !=
      s->entry)
    return MlirWalkResultAdvance;
  s->found = op;
  return MlirWalkResultInterrupt;
}

/* Every entry of a hand-written plan named some product; false after the
 * error for the first that did not (a misspelt name must not pass). */
static bool checkEntriesUsed(MlirOperation module,
                             const KilnShardPlanFile *file) {
  for (size_t i = 0; i < file->numEntries; ++i) {
    const KilnShardPlanEntry *e = &file->entries[i];
    if (e->used)
      continue;
    NameSearch s = {file, e, {NULL}};
    mlirOperationWalk(module, findNamed, &s, MlirWalkPreOrder);
    if (!mlirOperationIsNull(s.found))
      kilnEmitErrorf(mlirOperationGetLocation(s.found),
                     "kiln-shard-plan: %s:%d: '%s' is not a product with a "
                     "weight (a MatMul, Gemm or Conv of an initializer): "
                     "only those are split by a plan",
                     file->path, e->line, e->name);
    else
      kilnEmitErrorf(mlirOperationGetLocation(module),
                     "kiln-shard-plan: %s:%d: no ONNX node or initializer "
                     "named '%s' is left in the model",
                     file->path, e->line, e->name);
    return false;
  }
  return true;
}

static void runShardPlan(MlirOperation module, MlirExternalPass pass,
                         const KilnPassOptionValue *options) {
  KilnShardPlanFile file = {0};
  const char *text;
  KilnShardPlan plan;
  if (!readPlan(module, options, &file, &text, &plan)) {
    kilnShardPlanFileDestroy(&file);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  KilnOpList funcs = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute name =
        mlirOperationGetAttributeByName(op, kilnStr("sym_name"));
    if (!mlirAttributeIsNull(name) &&
        kilnStringRefEquals(mlirStringAttrGetValue(name), KILN_SHARD_GRID)) {
      kilnEmitErrorf(mlirOperationGetLocation(op),
                     "kiln-shard-plan: the module already has a symbol "
                     "@" KILN_SHARD_GRID " (sharded twice?)");
      mlirExternalPassSignalFailure(pass);
      kilnOpListDestroy(&funcs);
      kilnShardPlanFileDestroy(&file);
      return;
    }
    if (kilnFuncIsPublicDefinition(op))
      kilnOpListPush(&funcs, op);
  }
  int64_t shape = plan.ranks;
  /* Private: once convert-shard-to-mpi has replaced its uses,
   * symbol-dce erases it (the LLVM translation knows no shard ops). */
  MlirNamedAttribute gridAttrs[3] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("sym_name")),
                            mlirStringAttrGet(ctx, kilnStr(KILN_SHARD_GRID))),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("shape")),
                            mlirDenseI64ArrayGet(ctx, 1, &shape)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("sym_visibility")),
                            mlirStringAttrGet(ctx, kilnStr("private"))),
  };
  MlirOperationState st = mlirOperationStateGet(
      kilnStr("shard.grid"), mlirOperationGetLocation(module));
  mlirOperationStateAddAttributes(&st, 3, gridAttrs);
  mlirBlockInsertOwnedOperation(body, 0, mlirOperationCreate(&st));
  mlirOperationSetAttributeByName(module, kilnStr(KILN_SHARD_PLAN_ATTR),
                                  mlirStringAttrGet(ctx, kilnStr(text)));
  bool ok = true;
  for (size_t i = 0; i < funcs.len && ok; ++i)
    ok = planFunction(funcs.data[i], &plan, file.path ? &file : NULL);
  ok = ok && checkEntriesUsed(module, &file);
  kilnOpListDestroy(&funcs);
  kilnShardPlanFileDestroy(&file);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnPassOptionSpec kOptions[NUM_OPTIONS] = {
    [OPT_PLAN] = {"plan", KILN_PASS_OPTION_STRING, "",
                  "dp:N (inputs split along their batch dim) or tp:N "
                  "(matrix products' weights split, Megatron-style) over N "
                  "ranks (default: plan-file's)"},
    [OPT_PLAN_FILE] = {"plan-file", KILN_PASS_OPTION_STRING, "",
                       "A hand-written plan: its `plan` line and how the "
                       "products of named ONNX nodes or initializers are "
                       "split (docs/scale-out.md#hand-written-plans)"},
};

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__func__, mlirGetDialectHandle__shard__};

const KilnPassInfo kilnShardPlanPass = {
    .argument = "kiln-shard-plan",
    .summary = "Annotate public functions with a sharding plan (dp:N, tp:N) "
               "for sharding-propagation and shard-partition; weights "
               "become arguments",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = NUM_OPTIONS,
    .run = runShardPlan,
    .dependentDialects = kDialects,
    .numDependentDialects = 2,
};

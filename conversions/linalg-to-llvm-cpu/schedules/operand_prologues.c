/* kiln-hoist-operand-prologues: the elementwise work a contraction does on
 * one of its operands inside its reduction is computed once, into a tensor
 * of its own, before it (docs/cpu-codegen.md).
 *
 * linalg-fuse-elementwise-ops fuses an elementwise producer into every
 * consumer, contractions included (the shard pipeline runs it to fold the
 * head reshapes and transposes into the products): attention's scores
 * after partition read the queries and keys with their biases added in
 * the reduction,
 *
 *   %s = linalg.generic ins(%bq, %q, %bk, %k) outs(%acc)   // loops b h i j d
 *     ^(%bq_, %q_, %bk_, %k_, %a):  (%q_ + %bq_) * (%k_ + %bk_) + %a
 *
 * so every step adds both biases again (three ops per multiply-add), and
 * the keys, [b, j, h, d], are read across the vectors' loop j: the CPU
 * schedules split such a reduction into 16-lane partial sums, a tensor 16
 * times the scores' size. Each side of the multiply computed from more than
 * its bare operand becomes its own all-parallel generic over that side's
 * loops, laid out as the side's widest operand is, with the output's
 * innermost loop (the one the register tiles vectorize) moved innermost:
 *
 *   %qb = linalg.generic ins(%bq, %q) -> tensor<b x i x h x d>    // q + bq
 *   %kt = linalg.generic ins(%bk, %k) -> tensor<b x h x d x j>    // k + bk
 *   %s  = linalg.generic ins(%qb, %kt) outs(%acc)  ^(%x, %y, %a): x * y + a
 *
 * a product the register tiles take as any batched matmul. The work moves
 * from once per reduction step and output to once per element.
 *
 * Candidates: linalg.generic ops on static float tensors with one output,
 * a reduction loop, and projected-permutation maps, whose body yields
 * `acc + x * y` (acc the init's argument, read there only) where x and y
 * are computed from disjoint sets of inputs by arith and math ops, and
 * each side that is not a bare input has an input reading all of that
 * side's loops. */
#include "kiln/diagnostics.h"
#include "kiln/passes.h"

#include <stdlib.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kMaxLoops = 12, kMaxInputs = 16, kMaxBodyOps = 64 };

/* One side of the multiply: the value `x`, the inputs it reads (a bitmask
 * of input numbers), its loops in the layout it is materialized with. */
typedef struct Side {
  MlirValue x;
  uint32_t inputs;
  intptr_t nLoops;
  intptr_t loop[kMaxLoops]; /* tensor dim -> contraction loop */
} Side;

typedef struct Candidate {
  MlirOperation op, mul, add;
  intptr_t nInputs, nLoops;
  Side side[2];
} Candidate;

/* The inputs (bitmask) value `v` of `body` depends on; false when it
 * depends on the init's argument `acc`, on linalg.index, or on an op other
 * than arith and math. */
static bool inputsOf(MlirValue v, MlirBlock body, intptr_t nInputs,
                     uint32_t *mask, int *budget) {
  if (--*budget < 0)
    return false;
  if (mlirValueIsABlockArgument(v)) {
    if (!mlirBlockEqual(mlirBlockArgumentGetOwner(v), body))
      return true; /* an enclosing region's value: no input */
    intptr_t n = mlirBlockArgumentGetArgNumber(v);
    if (n >= nInputs)
      return false;
    *mask |= (uint32_t)1 << n;
    return true;
  }
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!mlirBlockEqual(mlirOperationGetBlock(def), body))
    return true; /* a constant from outside the body */
  if ((!kilnOpNameStartsWith(def, "arith.") &&
       !kilnOpNameStartsWith(def, "math.")) ||
      mlirOperationGetNumRegions(def) != 0)
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); ++i)
    if (!inputsOf(mlirOperationGetOperand(def, i), body, nInputs, mask, budget))
      return false;
  return true;
}

/* The layout of side `s` of `c`: the loops of its widest input (one that
 * reads every loop the side's inputs read), `vec` moved innermost. False
 * when no input reads them all. */
static bool sideLayout(const Candidate *c, Side *s, intptr_t vec) {
  bool reads[kMaxLoops] = {false};
  for (intptr_t i = 0; i < c->nInputs; ++i) {
    if (!(s->inputs & ((uint32_t)1 << i)))
      continue;
    MlirAffineMap map = kilnLinalgIndexingMap(c->op, i);
    for (intptr_t r = 0; r < mlirAffineMapGetNumResults(map); ++r)
      reads[mlirAffineDimExprGetPosition(mlirAffineMapGetResult(map, r))] =
          true;
  }
  intptr_t n = 0;
  for (intptr_t d = 0; d < c->nLoops; ++d)
    n += reads[d];
  for (intptr_t i = 0; i < c->nInputs; ++i) {
    MlirAffineMap map = kilnLinalgIndexingMap(c->op, i);
    if (!(s->inputs & ((uint32_t)1 << i)) ||
        mlirAffineMapGetNumResults(map) != n)
      continue;
    s->nLoops = 0;
    bool hasVec = false;
    for (intptr_t r = 0; r < n; ++r) {
      intptr_t d = mlirAffineDimExprGetPosition(mlirAffineMapGetResult(map, r));
      if (d == vec)
        hasVec = true;
      else
        s->loop[s->nLoops++] = d;
    }
    if (hasVec)
      s->loop[s->nLoops++] = vec;
    return true;
  }
  return false;
}

/* Whether `op` is a candidate (file comment) with a prologue to hoist. */
static bool readCandidate(MlirOperation op, Candidate *c) {
  c->op = op;
  MlirAttribute segs =
      mlirOperationGetAttributeByName(op, kilnStr("operandSegmentSizes"));
  if (!kilnOpNameIs(op, "linalg.generic") || mlirAttributeIsNull(segs) ||
      mlirDenseI32ArrayGetElement(segs, 1) != 1 ||
      mlirOperationGetNumResults(op) != 1)
    return false;
  c->nInputs = mlirDenseI32ArrayGetElement(segs, 0);
  if (c->nInputs < 2 || c->nInputs > kMaxInputs)
    return false;
  MlirAffineMap outMap = kilnLinalgIndexingMap(op, c->nInputs);
  c->nLoops = mlirAffineMapGetNumDims(outMap);
  char kinds[kMaxLoops + 1];
  if (c->nLoops > kMaxLoops || mlirAffineMapGetNumResults(outMap) < 1 ||
      !kilnLinalgIteratorKinds(op, kinds, c->nLoops))
    return false;
  kinds[c->nLoops] = '\0';
  if (!strchr(kinds, 'r'))
    return false;
  for (intptr_t i = 0; i <= c->nInputs; ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (!kilnTypeIsStaticTensor(t) ||
        !mlirTypeIsAFloat(mlirShapedTypeGetElementType(t)) ||
        !mlirAffineMapIsProjectedPermutation(kilnLinalgIndexingMap(op, i)))
      return false;
  }
  /* yield (acc + x * y), acc read there only. */
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  MlirOperation yield = mlirBlockGetTerminator(body);
  MlirValue acc = mlirBlockGetArgument(body, c->nInputs);
  MlirValue sum = mlirOperationGetOperand(yield, 0);
  if (!mlirValueIsAOpResult(sum))
    return false;
  c->add = mlirOpResultGetOwner(sum);
  if (!kilnOpNameIs(c->add, "arith.addf") ||
      !mlirBlockEqual(mlirOperationGetBlock(c->add), body))
    return false;
  int accAt = mlirValueEqual(mlirOperationGetOperand(c->add, 0), acc) ? 0 : 1;
  MlirValue prod = mlirOperationGetOperand(c->add, 1 - accAt);
  if (!mlirValueEqual(mlirOperationGetOperand(c->add, accAt), acc) ||
      !mlirValueIsAOpResult(prod) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(mlirValueGetFirstUse(acc))))
    return false;
  c->mul = mlirOpResultGetOwner(prod);
  if (!kilnOpNameIs(c->mul, "arith.mulf") ||
      !mlirBlockEqual(mlirOperationGetBlock(c->mul), body))
    return false;
  /* The value map of the copies (buildSideBody) holds this many. */
  intptr_t nOps = 0;
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    ++nOps;
  if (nOps > kMaxBodyOps)
    return false;
  bool prologue = false;
  uint32_t all = 0;
  int budget = 4 * kMaxBodyOps;
  for (int k = 0; k < 2; ++k) {
    Side *s = &c->side[k];
    s->x = mlirOperationGetOperand(c->mul, k);
    s->inputs = 0;
    if (!inputsOf(s->x, body, c->nInputs, &s->inputs, &budget) || !s->inputs ||
        (s->inputs & all))
      return false;
    all |= s->inputs;
    prologue = prologue || !mlirValueIsABlockArgument(s->x);
  }
  intptr_t vec = mlirAffineDimExprGetPosition(
      mlirAffineMapGetResult(outMap, mlirAffineMapGetNumResults(outMap) - 1));
  for (int k = 0; k < 2; ++k)
    if (!sideLayout(c, &c->side[k], vec))
      return false;
  return prologue && all == ((uint32_t)1 << c->nInputs) - 1;
}

/* The map from `nLoops` loops to `s`'s tensor dims. */
static MlirAttribute sideMap(MlirContext ctx, intptr_t nLoops, const Side *s,
                             const intptr_t *renumber) {
  MlirAffineExpr e[kMaxLoops];
  for (intptr_t j = 0; j < s->nLoops; ++j)
    e[j] =
        mlirAffineDimExprGet(ctx, renumber ? renumber[s->loop[j]] : s->loop[j]);
  return mlirAffineMapAttrGet(mlirAffineMapGet(ctx, nLoops, 0, s->nLoops, e));
}

/* Values of the contraction's body and their copies in a new body. */
typedef struct ValueMap {
  MlirValue from[kMaxBodyOps + kMaxInputs + 2],
      to[kMaxBodyOps + kMaxInputs + 2];
  int n;
} ValueMap;

static MlirValue lookup(const ValueMap *m, MlirValue v) {
  for (int i = 0; i < m->n; ++i)
    if (mlirValueEqual(m->from[i], v))
      return m->to[i];
  return v; /* from outside the body */
}

static void bind(ValueMap *m, MlirValue from, MlirValue to) {
  if (m->n < kMaxBodyOps + kMaxInputs + 2) {
    m->from[m->n] = from;
    m->to[m->n++] = to;
  }
}

/* Clones into `b`'s block the ops of the old body that side `x` is
 * computed by, in order, their operands mapped through `m`. */
static void cloneSide(KilnBuilder *b, MlirBlock oldBody, MlirValue x,
                      ValueMap *m) {
  if (mlirValueIsABlockArgument(x) ||
      !mlirBlockEqual(mlirOperationGetBlock(mlirOpResultGetOwner(x)),
                      oldBody) ||
      !mlirValueEqual(lookup(m, x), x))
    return; /* from outside, or cloned already */
  MlirOperation def = mlirOpResultGetOwner(x);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); ++i)
    cloneSide(b, oldBody, mlirOperationGetOperand(def, i), m);
  MlirOperation copy = mlirOperationClone(def);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(copy); ++i)
    mlirOperationSetOperand(copy, i,
                            lookup(m, mlirOperationGetOperand(def, i)));
  mlirBlockAppendOwnedOperation(b->block, copy);
  for (intptr_t i = 0; i < mlirOperationGetNumResults(def); ++i)
    bind(m, mlirOperationGetResult(def, i), mlirOperationGetResult(copy, i));
}

typedef struct SideBody {
  const Candidate *c;
  const Side *s;
} SideBody;

/* The hoisted side's body: its inputs' arguments, then the ops computing
 * x. */
static void buildSideBody(KilnBuilder *b, const MlirValue *args,
                          MlirValue *yields, void *userData) {
  const SideBody *sb = userData;
  MlirBlock oldBody =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(sb->c->op, 0));
  ValueMap m = {.n = 0};
  intptr_t a = 0;
  for (intptr_t i = 0; i < sb->c->nInputs; ++i)
    if (sb->s->inputs & ((uint32_t)1 << i))
      bind(&m, mlirBlockGetArgument(oldBody, i), args[a++]);
  cloneSide(b, oldBody, sb->s->x, &m);
  yields[0] = lookup(&m, sb->s->x);
}

/* The new contraction's body: acc + x * y with the old multiply's and
 * add's flags (clones of them). */
static void buildProductBody(KilnBuilder *b, const MlirValue *args,
                             MlirValue *yields, void *userData) {
  const Candidate *c = userData;
  MlirOperation mul = mlirOperationClone(c->mul);
  mlirOperationSetOperand(mul, 0, args[0]);
  mlirOperationSetOperand(mul, 1, args[1]);
  mlirBlockAppendOwnedOperation(b->block, mul);
  MlirOperation add = mlirOperationClone(c->add);
  MlirBlock oldBody = mlirRegionGetFirstBlock(mlirOperationGetRegion(c->op, 0));
  MlirValue acc = mlirBlockGetArgument(oldBody, c->nInputs);
  for (intptr_t i = 0; i < 2; ++i)
    mlirOperationSetOperand(
        add, i,
        mlirValueEqual(mlirOperationGetOperand(c->add, i), acc)
            ? args[2]
            : mlirOperationGetResult(mul, 0));
  mlirBlockAppendOwnedOperation(b->block, add);
  yields[0] = mlirOperationGetResult(add, 0);
}

/* Side `s` of `c` as its own tensor, built before the contraction (or the
 * bare input when it is one). */
static MlirValue hoistSide(KilnBuilder *b, const Candidate *c, const Side *s) {
  if (mlirValueIsABlockArgument(s->x))
    return mlirOperationGetOperand(c->op, mlirBlockArgumentGetArgNumber(s->x));
  intptr_t renumber[kMaxLoops];
  int64_t shape[kMaxLoops];
  for (intptr_t j = 0; j < s->nLoops; ++j)
    renumber[s->loop[j]] = j;
  MlirValue inputs[kMaxInputs];
  MlirAttribute maps[kMaxInputs + 1];
  intptr_t n = 0;
  for (intptr_t i = 0; i < c->nInputs; ++i) {
    if (!(s->inputs & ((uint32_t)1 << i)))
      continue;
    MlirValue in = mlirOperationGetOperand(c->op, i);
    MlirAffineMap map = kilnLinalgIndexingMap(c->op, i);
    Side read = {.nLoops = mlirAffineMapGetNumResults(map)};
    for (intptr_t r = 0; r < read.nLoops; ++r) {
      read.loop[r] =
          mlirAffineDimExprGetPosition(mlirAffineMapGetResult(map, r));
      shape[renumber[read.loop[r]]] =
          mlirShapedTypeGetDimSize(mlirValueGetType(in), r);
    }
    maps[n] = sideMap(b->ctx, s->nLoops, &read, renumber);
    inputs[n++] = in;
  }
  Side identity = {.nLoops = s->nLoops};
  for (intptr_t j = 0; j < s->nLoops; ++j)
    identity.loop[j] = j;
  maps[n] = sideMap(b->ctx, s->nLoops, &identity, NULL);
  MlirValue init = kilnEmpty(
      b, mlirRankedTensorTypeGet(s->nLoops, shape, mlirValueGetType(s->x),
                                 mlirAttributeGetNull()));
  char kinds[kMaxLoops + 1];
  memset(kinds, 'p', s->nLoops);
  kinds[s->nLoops] = '\0';
  SideBody sb = {c, s};
  MlirOperation g = kilnGeneric(b, n, inputs, 1, &init, maps, s->nLoops, kinds,
                                buildSideBody, &sb);
  return mlirOperationGetResult(g, 0);
}

static void hoist(const Candidate *c) {
  MlirContext ctx = mlirOperationGetContext(c->op);
  KilnBuilder b = {ctx, mlirOperationGetLocation(c->op),
                   mlirOperationGetBlock(c->op), c->op};
  MlirValue ins[2] = {hoistSide(&b, c, &c->side[0]),
                      hoistSide(&b, c, &c->side[1])};
  MlirAttribute maps[3];
  for (int k = 0; k < 2; ++k) {
    const Side *s = &c->side[k];
    if (mlirValueIsABlockArgument(s->x))
      maps[k] =
          mlirArrayAttrGetElement(mlirLinalgGetIndexingMapsAttribute(c->op),
                                  mlirBlockArgumentGetArgNumber(s->x));
    else
      maps[k] = sideMap(ctx, c->nLoops, s, NULL);
  }
  maps[2] = mlirArrayAttrGetElement(mlirLinalgGetIndexingMapsAttribute(c->op),
                                    c->nInputs);
  char kinds[kMaxLoops + 1];
  kilnLinalgIteratorKinds(c->op, kinds, c->nLoops);
  kinds[c->nLoops] = '\0';
  MlirValue init = mlirOperationGetOperand(c->op, c->nInputs);
  MlirOperation product = kilnGeneric(&b, 2, ins, 1, &init, maps, c->nLoops,
                                      kinds, buildProductBody, (void *)c);
  for (intptr_t i = 0; i < mlirOperationGetNumDiscardableAttributes(c->op);
       ++i) {
    MlirNamedAttribute a = mlirOperationGetDiscardableAttribute(c->op, i);
    mlirOperationSetDiscardableAttributeByName(
        product, mlirIdentifierStr(a.name), a.attribute);
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(c->op, 0),
                                mlirOperationGetResult(product, 0));
  mlirOperationDestroy(c->op);
}

static void runHoistOperandPrologues(MlirOperation func, MlirExternalPass pass,
                                     const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  KilnOpList generics = {0};
  kilnOpListCollectNamed(&generics, func, "linalg.generic", MlirWalkPreOrder);
  for (size_t i = 0; i < generics.len; ++i) {
    Candidate c;
    if (readCandidate(generics.data[i], &c))
      hoist(&c);
  }
  kilnOpListDestroy(&generics);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__linalg__,
    mlirGetDialectHandle__tensor__,
};

const KilnPassInfo kilnHoistOperandProloguesPass = {
    .argument = "kiln-hoist-operand-prologues",
    .summary = "Compute the elementwise work a contraction does on one "
               "operand inside its reduction once, into a tensor of its own "
               "laid out for the register tiles",
    .anchor = "func.func",
    .run = runHoistOperandPrologues,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

/* kiln-split-reductions: row reductions as vector-wide partial results
 * (docs/cpu-codegen.md).
 *
 * A reduction over the innermost, contiguous dims of its input (a global
 * average pool over H x W, softmax's max and sum over the last axis, layer
 * norm's mean and variance, ReduceMean over trailing axes) leaves every
 * output element with a serial chain over one contiguous row: scalar code,
 * each step waiting for the last. Split, the row of R elements is read as
 * R / L steps of L lanes into L partial results per output, a reduction
 * whose innermost dim is parallel, which kiln-tile-and-vectorize tiles
 * like a contraction (register tiles of rows x L lanes, the partial
 * results in vector registers across the steps); the L partials and the
 * R % L remaining elements are then combined into the original output:
 *
 *   %r = linalg.generic {(p, r1, r2) reduction over r1, r2}
 *          ins(%x : tensor<PxAxB>) outs(%init : tensor<P>)   combine(out, f(x))
 * becomes, with R = A B = q L + rem:
 *   %c    = tensor.collapse_shape %x : PxAxB -> PxR
 *   %main = tensor.expand_shape (tensor.extract_slice %c [0, 0] [P, q L])
 *             : P x qL -> P x q x L
 *   %part = linalg.generic {(p, k, j): k reduction, j parallel}
 *             ins(%main) outs(fill(identity) : tensor<PxL>)  combine(out, f(x))
 *   %acc  = linalg.generic {(p, j): j reduction} ins(%part) outs(%init)
 *             combine(out, part)
 *   %r    = linalg.generic {(p, t): t reduction}
 *             ins(tensor.extract_slice %c [0, q L] [P, rem]) outs(%acc)
 *             combine(out, f(x))                      (only when rem > 0)
 *
 * Inputs that do not read the reduced dims (softmax's row maximum in its
 * sum) are read as before. Candidates: linalg.generic on static float
 * tensors, maps that are projected permutations, one output, a body
 * combine(out, f(ins)) with combine one of addf, mulf, maximumf, minimumf,
 * maxnumf, minnumf (associative and commutative: the split reorders the
 * combination, for addf and mulf within rounding), every reduction loop
 * among the trailing dims of the inputs that read them, in one order, and
 * rows of at least `min-length` elements. Ops inside thread blocks
 * (scf.forall) are left alone. */
#include "kiln/passes.h"

#include <math.h>
#include <stdint.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower.h"
#include "dialects/linalg/transforms/schedule.h"
#include "kiln/diagnostics.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"
#include "support/schedule_record.h"

extern const KilnPassInfo kilnSplitReductionsPass;

enum { kOptLanes, kOptMinLength, kNumOptions };

enum { kMaxLoops = 12, kMaxInputs = 16 };

/* A reduction the pass splits, read from its linalg.generic. */
typedef struct RowReduction {
  MlirOperation op;
  intptr_t nLoops, nInputs;
  char iterators[kMaxLoops + 1];
  int64_t extent[kMaxLoops];
  /* Per operand (inputs, then the output): its map's results as loops. */
  intptr_t rank[kMaxInputs + 1];
  intptr_t dims[kMaxInputs + 1][kMaxLoops];
  bool row[kMaxInputs]; /* reads the reduced loops as its trailing dims */
  intptr_t runLen;      /* the reduced loops */
  int64_t length;       /* their extents' product: one row; -1: dynamic */
  bool anyDynamic;      /* some operand has a dynamic dim */
  const char *combine;  /* the body's combining op */
} RowReduction;

static const char *const kCombiners[] = {"arith.addf",     "arith.mulf",
                                         "arith.maximumf", "arith.minimumf",
                                         "arith.maxnumf",  "arith.minnumf"};

/* The combining op's name when the body is combine(out, f(ins)): the
 * output's block argument read once, by the op whose result is yielded. */
static const char *bodyCombiner(MlirOperation op, intptr_t nInputs) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(body) || mlirBlockGetNumArguments(body) != nInputs + 1)
    return NULL;
  MlirValue out = mlirBlockGetArgument(body, nInputs);
  MlirOpOperand use = mlirValueGetFirstUse(out);
  if (mlirOpOperandIsNull(use) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return NULL;
  MlirOperation combine = mlirOpOperandGetOwner(use);
  MlirOperation yield = mlirBlockGetTerminator(body);
  if (mlirOperationGetNumOperands(yield) != 1 ||
      mlirOperationGetNumOperands(combine) != 2 ||
      !mlirValueEqual(mlirOperationGetOperand(yield, 0),
                      mlirOperationGetResult(combine, 0)) ||
      mlirValueEqual(mlirOperationGetOperand(combine, 0),
                     mlirOperationGetOperand(combine, 1)))
    return NULL;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(combine));
  for (size_t i = 0; i < sizeof(kCombiners) / sizeof(kCombiners[0]); ++i)
    if (kilnStringRefEquals(name, kCombiners[i]))
      return kCombiners[i];
  return NULL;
}

/* Reads operand `o`'s map into r->dims[o]; false unless it is a projected
 * permutation over a float tensor of matching extents (a loop's extent
 * stays -1 while no operand has it static). */
static bool readOperand(RowReduction *r, MlirAttribute maps, intptr_t o) {
  MlirValue v = mlirOperationGetOperand(r->op, o);
  MlirType t = mlirValueGetType(v);
  MlirAffineMap map =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, o));
  if (!mlirTypeIsARankedTensor(t) ||
      !mlirTypeIsAFloat(mlirShapedTypeGetElementType(t)) ||
      mlirAffineMapGetNumDims(map) != r->nLoops ||
      mlirAffineMapGetNumSymbols(map) != 0 ||
      !mlirAffineMapIsProjectedPermutation(map) ||
      mlirAffineMapGetNumResults(map) != mlirShapedTypeGetRank(t))
    return false;
  r->rank[o] = mlirAffineMapGetNumResults(map);
  for (intptr_t i = 0; i < r->rank[o]; ++i) {
    intptr_t d = mlirAffineDimExprGetPosition(mlirAffineMapGetResult(map, i));
    int64_t e = mlirShapedTypeGetDimSize(t, i);
    r->dims[o][i] = d;
    if (mlirShapedTypeIsDynamicSize(e)) {
      r->anyDynamic = true;
      continue;
    }
    if (r->extent[d] >= 0 && r->extent[d] != e)
      return false;
    r->extent[d] = e;
  }
  return true;
}

/* Whether input `i` reads the reduced loops as its trailing dims, in the
 * order of `run` (set from the first such input when runLen is 0). */
static bool readsRowLast(RowReduction *r, intptr_t i, intptr_t *run) {
  intptr_t nReduced = 0;
  for (intptr_t d = 0; d < r->nLoops; ++d)
    nReduced += r->iterators[d] == 'r';
  intptr_t rank = r->rank[i];
  if (rank < nReduced)
    return false;
  for (intptr_t k = 0; k < nReduced; ++k) {
    intptr_t d = r->dims[i][rank - nReduced + k];
    if (r->iterators[d] != 'r' || (r->runLen && run[k] != d))
      return false;
  }
  if (!r->runLen) {
    for (intptr_t k = 0; k < nReduced; ++k)
      run[k] = r->dims[i][rank - nReduced + k];
    r->runLen = nReduced;
  }
  return true;
}

/* Reads `op` into `r`; false unless it is a row reduction to split. */
static bool analyze(MlirOperation op, int64_t minLength, RowReduction *r) {
  memset(r, 0, sizeof(*r));
  r->op = op;
  if (!kilnOpNameIs(op, "linalg.generic") ||
      mlirOperationGetNumResults(op) != 1 || kilnHasForallAncestor(op))
    return false;
  MlirAttribute maps =
      mlirOperationGetAttributeByName(op, kilnStr("indexing_maps"));
  intptr_t nOperands = mlirOperationGetNumOperands(op);
  if (mlirAttributeIsNull(maps) || nOperands < 2 ||
      nOperands > kMaxInputs + 1 ||
      mlirArrayAttrGetNumElements(maps) != nOperands)
    return false;
  r->nInputs = nOperands - 1;
  r->nLoops = mlirAffineMapGetNumDims(
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0)));
  if (r->nLoops < 1 || r->nLoops > kMaxLoops ||
      !kilnLinalgIteratorKinds(op, r->iterators, r->nLoops))
    return false;
  for (intptr_t d = 0; d < r->nLoops; ++d)
    r->extent[d] = -1;
  for (intptr_t o = 0; o < nOperands; ++o)
    if (!readOperand(r, maps, o))
      return false;
  r->combine = bodyCombiner(op, r->nInputs);
  if (!r->combine)
    return false;
  intptr_t run[kMaxLoops];
  bool anyRow = false;
  for (intptr_t i = 0; i < r->nInputs; ++i) {
    r->row[i] = readsRowLast(r, i, run);
    anyRow = anyRow || r->row[i];
    if (r->row[i])
      continue;
    for (intptr_t k = 0; k < r->rank[i]; ++k)
      if (r->iterators[r->dims[i][k]] == 'r')
        return false; /* reads a reduced dim, but not as a row */
  }
  if (!anyRow || !r->runLen)
    return false;
  r->length = 1;
  for (intptr_t k = 0; k < r->runLen; ++k)
    r->length = r->extent[run[k]] < 0 || r->length < 0
                    ? -1
                    : r->length * r->extent[run[k]];
  /* A row of dynamic length is taken to be long (a sequence's). */
  return r->length < 0 || r->length >= minLength;
}

/* ---- The rewrite ---------------------------------------------------------
 */

/* The identity of `combine` for element type `elt`. */
static MlirValue identity(KilnBuilder *b, const char *combine, MlirType elt) {
  if (!strcmp(combine, "arith.addf"))
    return kilnConstFloat(b, elt, 0.0);
  if (!strcmp(combine, "arith.mulf"))
    return kilnConstFloat(b, elt, 1.0);
  if (!strcmp(combine, "arith.maximumf") || !strcmp(combine, "arith.maxnumf"))
    return kilnConstFloat(b, elt, -INFINITY);
  return kilnConstFloat(b, elt, INFINITY);
}

/* Input `x` with its last `runLen` dims collapsed into one: [..., R]
 * (`length` R, or -1: dynamic). */
static MlirValue collapseRow(KilnBuilder *b, MlirValue x, intptr_t runLen,
                             int64_t length) {
  if (runLen == 1)
    return x;
  intptr_t rank = kilnRank(x), lead = rank - runLen;
  int64_t shape[kMaxLoops];
  intptr_t groups[kMaxLoops];
  for (intptr_t i = 0; i < lead; ++i) {
    shape[i] = kilnDim(x, i);
    groups[i] = 1;
  }
  shape[lead] = length < 0 ? mlirShapedTypeGetDynamicSize() : length;
  groups[lead] = runLen;
  MlirNamedAttribute attr = kilnNamedAttr(
      b->ctx, "reassociation", kilnReassociationGet(b->ctx, lead + 1, groups));
  return kilnBuildOp1(b, "tensor.collapse_shape",
                      kilnTensorType(lead + 1, shape, kilnElementType(x)), 1,
                      &x, 1, &attr);
}

/* Columns [from, from + n) of the rows of `c` ([..., R]); constant
 * bounds give a static slice. */
static MlirValue rowSlice(KilnBuilder *b, MlirValue c, MlirValue from,
                          MlirValue n) {
  intptr_t rank = kilnRank(c);
  int64_t f, len, strides[kMaxLoops];
  if (kilnConstantIndexValue(from, &f) && kilnConstantIndexValue(n, &len) &&
      f == 0 && len == kilnDim(c, rank - 1))
    return c;
  MlirValue offsets[kMaxLoops], sizes[kMaxLoops];
  for (intptr_t i = 0; i < rank; ++i) {
    bool last = i == rank - 1;
    offsets[i] = last ? from : kilnConstIndex(b, 0);
    sizes[i] = last ? n : kilnDimValue(b, c, i);
    strides[i] = 1;
  }
  return kilnExtractSliceAt(b, c, offsets, sizes, strides);
}

/* Rows [..., q L] of `main` as [..., q, L]; `q` a value (constant when
 * static). */
static MlirValue splitRow(KilnBuilder *b, MlirValue main, MlirValue q,
                          int64_t lanes) {
  intptr_t rank = kilnRank(main);
  int64_t shape[kMaxLoops + 1], steps;
  intptr_t groups[kMaxLoops];
  MlirValue sizes[kMaxLoops + 1];
  for (intptr_t i = 0; i + 1 < rank; ++i) {
    shape[i] = kilnDim(main, i);
    sizes[i] = kilnDimValue(b, main, i);
    groups[i] = 1;
  }
  shape[rank - 1] = kilnConstantIndexValue(q, &steps)
                        ? steps
                        : mlirShapedTypeGetDynamicSize();
  sizes[rank - 1] = q;
  shape[rank] = lanes;
  sizes[rank] = kilnConstIndex(b, lanes);
  groups[rank - 1] = 2;
  return kilnReshapeGroupsSized(
      b, main, kilnTensorType(rank + 1, shape, kilnElementType(main)), rank,
      groups, sizes);
}

static void placeholderBody(KilnBuilder *b, const MlirValue *args,
                            MlirValue *yields, void *userData) {
  (void)b;
  yields[0] = args[*(const intptr_t *)userData];
}

/* A linalg.generic over `nLoops` loops with `r->op`'s body (moved from a
 * clone: the block arguments' types are the original's). */
static MlirValue genericWithBody(KilnBuilder *b, const RowReduction *r,
                                 const MlirValue *inputs, MlirValue init,
                                 const MlirAttribute *maps, intptr_t nLoops,
                                 const char *iterators) {
  intptr_t outArg = r->nInputs;
  MlirOperation op = kilnGeneric(b, r->nInputs, inputs, 1, &init, maps, nLoops,
                                 iterators, placeholderBody, &outArg);
  MlirOperation clone = mlirOperationClone(r->op);
  mlirRegionTakeBody(mlirOperationGetRegion(op, 0),
                     mlirOperationGetRegion(clone, 0));
  mlirOperationDestroy(clone);
  return mlirOperationGetResult(op, 0);
}

static void combineBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  yields[0] = kilnArith2(b, (const char *)userData, args[1], args[0]);
}

/* The map of operand `o` in a loop space where the original loop d is
 * newLoop[d] and the reduced run is replaced by `nTail` loops from
 * `tail` on (rows) or dropped (other operands). */
static MlirAttribute remap(const RowReduction *r, intptr_t o,
                           const intptr_t *newLoop, intptr_t nLoops,
                           intptr_t tail, intptr_t nTail, bool extraLane) {
  int64_t dims[kMaxLoops + 2];
  intptr_t n = 0;
  for (intptr_t i = 0; i < r->rank[o]; ++i)
    if (r->iterators[r->dims[o][i]] != 'r')
      dims[n++] = newLoop[r->dims[o][i]];
  if (o < r->nInputs && r->row[o])
    for (intptr_t t = 0; t < nTail; ++t)
      dims[n++] = tail + t;
  if (extraLane)
    dims[n++] = nLoops - 1;
  return kilnMapDims(mlirOperationGetContext(r->op), nLoops, n, dims);
}

static void split(const RowReduction *r, int64_t lanes) {
  MlirContext ctx = mlirOperationGetContext(r->op);
  KilnBuilder b = {ctx, mlirOperationGetLocation(r->op),
                   mlirOperationGetBlock(r->op), r->op};
  intptr_t nIn = r->nInputs, out = nIn;
  MlirValue init = mlirOperationGetOperand(r->op, out);
  MlirType elt = kilnElementType(init);

  /* The kept loops, renumbered from 0; then k (steps), j (lanes). */
  intptr_t newLoop[kMaxLoops], m = 0;
  char iters[kMaxLoops + 3];
  for (intptr_t d = 0; d < r->nLoops; ++d)
    if (r->iterators[d] != 'r') {
      newLoop[d] = m;
      iters[m++] = 'p';
    }

  /* R = q L + rem: constants, or values of the first row input's R. */
  MlirValue q = {NULL}, qL = {NULL}, rem = {NULL};
  bool anyRem = r->length < 0 || r->length % lanes;
  if (r->length >= 0) {
    q = kilnConstIndex(&b, r->length / lanes);
    qL = kilnConstIndex(&b, r->length / lanes * lanes);
    rem = kilnConstIndex(&b, r->length % lanes);
  }
  MlirValue mains[kMaxInputs], tails[kMaxInputs];
  for (intptr_t i = 0; i < nIn; ++i) {
    MlirValue x = mlirOperationGetOperand(r->op, i);
    if (!r->row[i]) {
      mains[i] = tails[i] = x;
      continue;
    }
    MlirValue c = collapseRow(&b, x, r->runLen, r->length);
    if (mlirValueIsNull(q)) {
      MlirValue len = kilnDimValue(&b, c, kilnRank(c) - 1);
      MlirValue l = kilnConstIndex(&b, lanes);
      q = kilnArith2(&b, "arith.divui", len, l);
      qL = kilnArith2(&b, "arith.muli", q, l);
      rem = kilnArith2(&b, "arith.subi", len, qL);
    }
    mains[i] =
        splitRow(&b, rowSlice(&b, c, kilnConstIndex(&b, 0), qL), q, lanes);
    tails[i] = anyRem ? rowSlice(&b, c, qL, rem) : c;
  }

  /* Partial results: [kept output dims..., L]. */
  intptr_t outRank = r->rank[out];
  int64_t partShape[kMaxLoops + 1];
  MlirValue partSizes[kMaxLoops + 1];
  for (intptr_t i = 0; i < outRank; ++i) {
    partShape[i] = kilnDim(init, i);
    partSizes[i] = kilnDimValue(&b, init, i);
  }
  partShape[outRank] = lanes;
  MlirValue partInit =
      kilnFill(&b, identity(&b, r->combine, elt),
               kilnEmptySized(&b, kilnTensorType(outRank + 1, partShape, elt),
                              partSizes));
  MlirAttribute maps[kMaxInputs + 1];
  for (intptr_t o = 0; o <= nIn; ++o)
    maps[o] = remap(r, o, newLoop, m + 2, m, 2, o == out);
  iters[m] = 'r';
  iters[m + 1] = 'p';
  iters[m + 2] = '\0';
  MlirValue part = genericWithBody(&b, r, mains, partInit, maps, m + 2, iters);

  /* The lanes combined into the original output. */
  MlirAttribute laneMaps[2] = {kilnMapIdentity(ctx, outRank + 1),
                               kilnMapIdentity(ctx, outRank + 1)};
  int64_t outDims[kMaxLoops];
  for (intptr_t i = 0; i < outRank; ++i)
    outDims[i] = i;
  laneMaps[1] = kilnMapDims(ctx, outRank + 1, outRank, outDims);
  char laneIters[kMaxLoops + 2];
  memset(laneIters, 'p', outRank);
  laneIters[outRank] = 'r';
  laneIters[outRank + 1] = '\0';
  MlirValue acc = mlirOperationGetResult(
      kilnGeneric(&b, 1, &part, 1, &init, laneMaps, outRank + 1, laneIters,
                  combineBody, (void *)r->combine),
      0);

  /* The rows' last R % L elements. */
  if (anyRem) {
    for (intptr_t o = 0; o <= nIn; ++o)
      maps[o] = remap(r, o, newLoop, m + 1, m, 1, false);
    iters[m] = 'r';
    iters[m + 1] = '\0';
    acc = genericWithBody(&b, r, tails, acc, maps, m + 1, iters);
  }
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(r->op, 0), acc);
  mlirOperationDestroy(r->op);
}

static void runSplitReductions(MlirOperation func, MlirExternalPass pass,
                               const KilnPassOptionValue *opt) {
  int64_t lanes = opt[kOptLanes].i, minLength = opt[kOptMinLength].i;
  if (lanes < 2 || minLength < 1) {
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "kiln-split-reductions: lanes must be at least 2 and "
                   "min-length at least 1, got lanes=%ld min-length=%ld",
                   (long)lanes, (long)minLength);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  KilnOpList generics = {0};
  kilnOpListCollectNamed(&generics, func, "linalg.generic", MlirWalkPostOrder);
  for (size_t i = 0; i < generics.len; ++i) {
    /* A tuned workload's own lanes (schedule_record.h). */
    KilnPassOptionValue own[kNumOptions];
    int64_t l = lanes, m = minLength;
    if (kilnScheduleRecordGetOptions(generics.data[i], &kilnSplitReductionsPass,
                                     opt, own) &&
        own[kOptLanes].i >= 2 && own[kOptMinLength].i >= 1) {
      l = own[kOptLanes].i;
      m = own[kOptMinLength].i;
    }
    RowReduction r;
    if (analyze(generics.data[i], m < 2 * l ? 2 * l : m, &r))
      split(&r, l);
  }
  kilnOpListDestroy(&generics);
}

static const KilnPassOptionSpec kOptions[] = {
    [kOptLanes] = {"lanes", KILN_PASS_OPTION_INT, "16",
                   "Partial results per output (a vector's lanes); at least "
                   "2"},
    [kOptMinLength] = {"min-length", KILN_PASS_OPTION_INT, "32",
                       "Shortest row split (at least 2 x lanes)"},
};

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__linalg__,
    mlirGetDialectHandle__tensor__,
};

const KilnPassInfo kilnSplitReductionsPass = {
    .argument = "kiln-split-reductions",
    .summary = "Split reductions over contiguous rows into vector-wide "
               "partial results, then combine them",
    .anchor = "func.func",
    .run = runSplitReductions,
    .options = kOptions,
    .numOptions = kNumOptions,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

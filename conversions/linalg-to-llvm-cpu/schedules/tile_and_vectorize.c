/* kiln-tile-and-vectorize: register-tiled, vectorized contractions for CPUs
 * (docs/cpu-codegen.md).
 *
 * Every contraction on static f32/f64 tensors whose maps are projected
 * permutations (linalg.matmul, batch_matmul, and the generics of
 * graph-to-linalg: convolutions as im2col matmuls, batched matmuls with
 * broadcast operands) is tiled in two levels with the transform dialect:
 *
 *  1. threads: scf.forall over blocks of output rows and columns (each
 *     batch entry its own block), which scf-forall-to-parallel and
 *     convert-scf-to-openmp turn into OpenMP work sharing. Ops already
 *     inside an scf.forall (kiln-fuse-groups' tiles) skip this level.
 *  2. registers: scf.for over `rows` x `vector-size` output tiles with the
 *     reduction loops innermost, one step each; loops whose extent the tile
 *     does not divide are peeled, so every tile has a static shape.
 *
 * Each register tile is then vectorized on its own (never the whole
 * function: docs/cpu-codegen.md). With its unit dims dropped (a batch
 * entry, a reduction step of one) a tile is an outer product: a broadcast
 * column of the left operand times a row of the right one, added to the
 * accumulator with contractible arith ops, which LLVM emits as `rows`
 * broadcast-FMAs on `vector-size`-wide vectors per reduction step. The
 * accumulator is hoisted out of the reduction loop, so it stays in
 * registers. Ops that do not qualify are left to the scalar loops of
 * convert-linalg-to-parallel-loops. A later run first starts the
 * accumulators of the tiles it finds from their bias or fill in
 * registers (register_init.h). */
#define _DEFAULT_SOURCE /* sysconf(_SC_LEVEL1_DCACHE_SIZE) */
#include "kiln/passes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conversions/linalg-to-llvm-cpu/schedules/buffer_accumulators.h"
#include "conversions/linalg-to-llvm-cpu/schedules/epilogue_registers.h"
#include "conversions/linalg-to-llvm-cpu/schedules/register_init.h"
#include "dialects/linalg/transforms/schedule.h"
#include "kiln/diagnostics.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/Dialect/Transform.h"
#include "mlir-c/Dialect/Vector.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"
#include "support/schedule_record.h"
#include "llvm-c/Core.h"
#include "llvm-c/TargetMachine.h"

extern const KilnPassInfo kilnTileAndVectorizePass;

enum {
  kOptVectorSize,
  kOptRows,
  kOptThreadRows,
  kOptThreadCols,
  kOptMinWork,
  kOptLoopThreadWork,
  kOptReductionBlock,
  kOptContractions,
  kOptElementwise,
  kOptColumnsOuter,
  kOptWideVectorSize,
  kOptTargetTriple,
  kOptTargetFeatures,
  kNumOptions
};

/* Options up to here are tile sizes and must be positive. */
enum { kNumSizeOptions = kOptContractions };

/* Elements of one row per parallel task of an elementwise op, at most. */
enum { kElementwiseTaskCols = 4096 };

enum { kMaxLoops = KILN_TILE_MAX_LOOPS, kMaxOperands = 32 };

/* Rounds of accumulator hoisting: the register tile sits in a slice of a
 * slice (its unit dims dropped) of the loop's iter_arg; each round moves
 * one read/write pair out of the reduction loop. */
enum { kHoistRounds = 3 };

/* kOpAttr marks the op being tiled (the tile schedule matches it); its
 * tiles then carry kTileAttr until they are vectorized. */
static const char *const kOpAttr = "kiln.tv_op";
static const char *const kTileAttr = "kiln.tv_tile";
/* kInitAttr marks the producer of the tiled contraction's init, fused into
 * its thread blocks. */
static const char *const kInitAttr = "kiln.tv_init";
/* kHoistAttr marks the loops whose invariant subsets are hoisted: those
 * carrying only vectors and static tensors (a register tile's reduction,
 * its row and column loops). A loop over a dynamic extent (a dynamic
 * elementwise row, a peeled remainder) is left out: comparing its slices
 * of dynamic sizes takes the value-bounds analysis seconds per loop (the
 * dynamic-axes encoder compiled in 80 s), and it has no accumulator to
 * keep in registers. */
static const char *const kHoistAttr = "kiln.tv_hoist";

/* The vector lowering applied to the function once every tile is
 * vectorized. Two pattern sets, because reduction_to_contract must see the
 * multi_reductions before lower_multi_reduction expands them. Not here:
 * lower_broadcast and lower_shape_cast, which with canonicalization never
 * finish on some tiles (docs/mlir22-notes.md); convert-vector-to-llvm
 * lowers those ops. */
static const char kSchedule[] =
    "module attributes {transform.with_named_sequence} {\n"
    /* Per op: the tiling and peeling are inserted before the yield. */
    "  transform.named_sequence @kiln_tile(\n"
    "      %root: !transform.any_op {transform.readonly}) {\n"
    "    transform.yield\n"
    "  }\n"
    /* Per innermost loop of a register tile: drop the tile's unit dims
     * (batch and reduction steps of one), so the tile is a 2-D
     * multiply-add of a broadcast column and a broadcast row, and
     * vectorize it. On buffers the linalg rewrite leaves the tile whole
     * (docs/mlir22-notes.md): the vectors' unit dims are dropped after
     * vectorizing instead. */
    "  transform.named_sequence @kiln_vectorize_tile(\n"
    "      %loop: !transform.any_op {transform.readonly}) {\n"
    "    %ops = transform.structured.match\n"
    "        interface{LinalgOp} in %loop\n"
    "        : (!transform.any_op) -> !transform.any_op\n"
    "    %generic = transform.structured.generalize %ops\n"
    "        : (!transform.any_op) -> !transform.any_op\n"
    "    transform.apply_patterns to %loop {\n"
    "      transform.apply_patterns.linalg.fold_unit_extent_dims_via_slices\n"
    "      transform.apply_patterns.canonicalization\n"
    "    } : !transform.any_op\n"
    "    %tile = transform.structured.match\n"
    "        interface{LinalgOp} in %loop\n"
    "        : (!transform.any_op) -> !transform.any_op\n"
    "    transform.structured.vectorize %tile : !transform.any_op\n"
    "    transform.apply_patterns to %loop {\n"
    "      transform.apply_patterns.vector.drop_unit_dims_with_shape_cast\n"
    "    } : !transform.any_op\n"
    "    transform.yield\n"
    "  }\n"
    /* Also folds the tile sizes (affine.min of a loop's induction
     * variable) its loop's bounds decide: a narrow remainder's tiles
     * (KilnTilePlan.narrow) are peeled before their bounds are static. */
    "  transform.named_sequence @kiln_canonicalize(\n"
    "      %f: !transform.any_op {transform.readonly}) {\n"
    "    transform.apply_patterns to %f {\n"
    "      transform.apply_patterns.canonicalization\n"
    "      transform.apply_patterns.scf.for_loop_canonicalization\n"
    "    } : !transform.any_op\n"
    "    transform.yield\n"
    "  }\n"
    /* On the function, a few times (each round hoists one level of the
     * nested slices): keep each accumulator tile in registers across
     * its reduction loop, read before it and written after it. The
     * canonicalization drops the iter_args hoisting leaves unused. */
    "  transform.named_sequence @kiln_hoist_accumulators(\n"
    "      %f: !transform.any_op {transform.readonly}) {\n"
    "    %loops = transform.structured.match ops{[\"scf.for\"]}\n"
    "        attributes{kiln.tv_hoist} in %f\n"
    "        : (!transform.any_op) -> !transform.any_op\n"
    "    transform.loop.hoist_loop_invariant_subsets %loops\n"
    "        : !transform.any_op\n"
    "    transform.apply_patterns to %f {\n"
    "      transform.apply_patterns.canonicalization\n"
    "    } : !transform.any_op\n"
    "    transform.yield\n"
    "  }\n"
    /* Once, on the function: what remains of multi-step reductions.
     * Not here: lower_broadcast and lower_shape_cast, which with
     * canonicalization never finish on some tiles (docs/mlir22-notes.md);
     * convert-vector-to-scf and convert-vector-to-llvm lower those. */
    /* On a bufferized function: loop-invariant views (a register tile's
     * subview of its accumulator) out of their loops, before
     * kilnHoistBufferAccumulators looks for them there. */
    "  transform.named_sequence @kiln_licm(\n"
    "      %f: !transform.any_op {transform.readonly}) {\n"
    "    %loops = transform.structured.match ops{[\"scf.for\"]} in %f\n"
    "        : (!transform.any_op) -> !transform.any_op\n"
    "    transform.apply_licm to %loops : !transform.any_op\n"
    "    transform.yield\n"
    "  }\n"
    "  transform.named_sequence @kiln_lower_vectors(\n"
    "      %f: !transform.any_op {transform.readonly}) {\n"
    "    transform.apply_patterns to %f {\n"
    "      transform.apply_patterns.vector.reduction_to_contract\n"
    "      transform.apply_patterns.vector.cast_away_vector_leading_one_dim\n"
    "    } : !transform.any_op\n"
    "    transform.apply_patterns to %f {\n"
    "      transform.apply_patterns.vector.lower_contraction\n"
    "          lowering_strategy = \"outerproduct\"\n"
    "      transform.apply_patterns.vector.lower_outerproduct\n"
    "      transform.apply_patterns.vector.lower_multi_reduction\n"
    "          lowering_strategy = \"innerparallel\"\n"
    "    } : !transform.any_op\n"
    "    transform.yield\n"
    "  }\n"
    "}\n";

/* The loop nest of a structured op with indexing maps. */
typedef struct LoopNest {
  intptr_t nLoops;
  int64_t size[kMaxLoops];
  bool reduction[kMaxLoops]; /* absent from the output map */
  intptr_t outRank;
  intptr_t outLoop[kMaxLoops]; /* output dim -> loop */
  bool window;                 /* an input is read through a window (oh + kh) */
  bool dynamic[kMaxLoops];     /* of a size known only at run time */
  uint32_t readers[kMaxLoops]; /* the inputs that read the loop as a dim */
} LoopNest;

/* The extent a dynamic loop is assumed to have when weighing an op's work:
 * a model's dynamic dims (batch, sequence) are rarely small. */
enum { kAssumedDynamicExtent = 1024 };

static bool isVectorizableElement(MlirType t) {
  return mlirTypeIsAF32(t) || mlirTypeIsAF64(t);
}

/* Whether every op of the body is scalar arith/math on the body's own
 * values and constants: the vectorizer widens those one for one. */
static bool bodyIsVectorizable(MlirOperation op) {
  if (mlirOperationGetNumRegions(op) != 1)
    return false;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(body))
    return false;
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o)) {
    /* An unused index (the fill tensor.pad bufferizes to reads none). */
    if (kilnOpNameIs(o, "linalg.index") &&
        mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(o, 0))))
      continue;
    if (!kilnOpNameStartsWith(o, "arith.") &&
        !kilnOpNameStartsWith(o, "math.") &&
        !kilnOpNameStartsWith(o, "linalg.yield"))
      return false;
    if (mlirOperationGetNumRegions(o) != 0)
      return false;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(o); ++i) {
      MlirValue v = mlirOperationGetOperand(o, i);
      MlirBlock owner = mlirValueIsABlockArgument(v)
                            ? mlirBlockArgumentGetOwner(v)
                            : mlirOperationGetBlock(mlirOpResultGetOwner(v));
      /* Scalars from outside the body (constants) are broadcast. */
      if (!mlirBlockEqual(owner, body) &&
          (mlirValueIsABlockArgument(v) ||
           !kilnOpNameStartsWith(mlirOpResultGetOwner(v), "arith.constant")))
        return false;
      if (!isVectorizableElement(mlirValueGetType(v)) &&
          !mlirTypeIsAInteger(mlirValueGetType(v)))
        return false;
    }
  }
  return true;
}

/* Whether `e` is a sum of dims times constants and constants. */
static bool isLinear(MlirAffineExpr e) {
  if (mlirAffineExprIsADim(e) || mlirAffineExprIsAConstant(e))
    return true;
  if (!mlirAffineExprIsAAdd(e) && !mlirAffineExprIsAMul(e))
    return false;
  MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(e);
  MlirAffineExpr r = mlirAffineBinaryOpExprGetRHS(e);
  if (mlirAffineExprIsAMul(e))
    return (mlirAffineExprIsAConstant(l) && isLinear(r)) ||
           (mlirAffineExprIsAConstant(r) && isLinear(l));
  return isLinear(l) && isLinear(r);
}

/* The coefficient of dim `d` in linear expression `e`. */
static int64_t coefficient(MlirAffineExpr e, intptr_t d) {
  if (mlirAffineExprIsADim(e))
    return mlirAffineDimExprGetPosition(e) == d;
  if (mlirAffineExprIsAConstant(e))
    return 0;
  MlirAffineExpr l = mlirAffineBinaryOpExprGetLHS(e);
  MlirAffineExpr r = mlirAffineBinaryOpExprGetRHS(e);
  if (mlirAffineExprIsAAdd(e))
    return coefficient(l, d) + coefficient(r, d);
  if (mlirAffineExprIsAConstant(l))
    return mlirAffineConstantExprGetValue(l) * coefficient(r, d);
  return mlirAffineConstantExprGetValue(r) * coefficient(l, d);
}

/* Whether every window read of `op` (an input map result that is not a
 * plain dim) moves by one element per step of loop `vec` or not at all:
 * once the other loops are single steps, a vector along `vec` is then a
 * contiguous stretch of the input. */
static bool windowsContiguousAlong(MlirOperation op, intptr_t vec) {
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(op);
  intptr_t n = mlirArrayAttrGetNumElements(maps);
  for (intptr_t o = 0; o + 1 < n; ++o) {
    MlirAffineMap map =
        mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, o));
    intptr_t results = mlirAffineMapGetNumResults(map);
    for (intptr_t r = 0; r < results; ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, r);
      if (mlirAffineExprIsADim(e))
        continue;
      int64_t k = coefficient(e, vec);
      /* Only the innermost dim of the operand may move with `vec`. */
      if (k != 0 && (k != 1 || r != results - 1))
        return false;
    }
  }
  return true;
}

/* Reads the loop nest of `op` from its indexing maps; false when the op is
 * not a structured op on static f32/f64 tensors whose maps are all
 * projected permutations, with one output, or several with the same map
 * and no reduction (a recurrent cell's H, C and Y). */
static bool readLoopNest(MlirOperation op, LoopNest *nest) {
  /* On buffers the op has no result; on tensors one per output. */
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(op);
  MlirAttribute segs =
      mlirOperationGetAttributeByName(op, kilnStr("operandSegmentSizes"));
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps) ||
      mlirAttributeIsNull(segs) || !mlirAttributeIsADenseI32Array(segs) ||
      mlirDenseArrayGetNumElements(segs) != 2)
    return false;
  intptr_t nOut = mlirDenseI32ArrayGetElement(segs, 1);
  if (nOut < 1 || mlirOperationGetNumResults(op) > nOut)
    return false;
  intptr_t nOperands = mlirOperationGetNumOperands(op);
  intptr_t firstOut = nOperands - nOut;
  if (nOperands > kMaxOperands ||
      mlirArrayAttrGetNumElements(maps) != nOperands)
    return false;
  memset(nest, 0, sizeof(*nest));
  for (intptr_t i = 0; i < kMaxLoops; ++i)
    nest->size[i] = -1;
  bool inOutput[kMaxLoops] = {false};
  for (intptr_t o = 0; o < nOperands; ++o) {
    MlirAttribute mapAttr = mlirArrayAttrGetElement(maps, o);
    if (!mlirAttributeIsAAffineMap(mapAttr))
      return false;
    MlirAffineMap map = mlirAffineMapAttrGetValue(mapAttr);
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, o));
    intptr_t nDims = mlirAffineMapGetNumDims(map);
    if (nDims > kMaxLoops || (o > 0 && nDims != nest->nLoops) ||
        mlirAffineMapGetNumSymbols(map) != 0)
      return false;
    nest->nLoops = nDims;
    /* A scalar input (linalg.fill's value) is broadcast to every point. */
    if (isVectorizableElement(t) && o < firstOut &&
        mlirAffineMapGetNumResults(map) == 0)
      continue;
    if (!(mlirTypeIsARankedTensor(t) || mlirTypeIsAMemRef(t)) ||
        !isVectorizableElement(mlirShapedTypeGetElementType(t)) ||
        mlirAffineMapGetNumResults(map) != mlirShapedTypeGetRank(t))
      return false;
    bool isOutput = o == firstOut;
    if (o > firstOut &&
        !mlirAffineMapEqual(map, mlirAffineMapAttrGetValue(
                                     mlirArrayAttrGetElement(maps, firstOut))))
      return false;
    for (intptr_t r = 0; r < mlirAffineMapGetNumResults(map); ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, r);
      if (!mlirAffineExprIsADim(e)) {
        /* An input read through a window (oh + kh): allowed if linear;
         * the loops' extents come from the other operands. */
        if (isOutput || !isLinear(e))
          return false;
        nest->window = true;
        continue;
      }
      intptr_t d = mlirAffineDimExprGetPosition(e);
      if (o < firstOut)
        nest->readers[d] |= (uint32_t)1 << o;
      int64_t extent = mlirShapedTypeGetDimSize(t, r);
      if (mlirShapedTypeIsDynamicDim(t, r))
        nest->dynamic[d] = true;
      else if (nest->size[d] >= 0 && nest->size[d] != extent)
        return false;
      else
        nest->size[d] = extent;
      if (isOutput) {
        if (inOutput[d])
          return false;
        inOutput[d] = true;
        nest->outLoop[nest->outRank++] = d;
      }
    }
  }
  bool anyDynamic = false, anyReduction = false;
  bool onBuffers = mlirTypeIsAMemRef(
      mlirValueGetType(mlirOperationGetOperand(op, firstOut)));
  for (intptr_t d = 0; d < nest->nLoops; ++d) {
    /* A dim static in one operand is that size in the others. */
    nest->dynamic[d] = nest->dynamic[d] && nest->size[d] < 0;
    if (nest->dynamic[d])
      nest->size[d] = kAssumedDynamicExtent;
    if (nest->size[d] < 1)
      return false; /* a loop no operand bounds, or an empty one */
    nest->reduction[d] = !inOutput[d];
    if (nest->reduction[d] && nOut > 1)
      return false;
    anyDynamic = anyDynamic || nest->dynamic[d];
    anyReduction = anyReduction || nest->reduction[d];
  }
  /* Dynamic sizes on buffers only: on tensors the tiles' slices of dynamic
   * sizes cost bufferization's subset analysis seconds per op (value
   * bounds; the dynamic-axes encoder compiled in 50 s). */
  if (anyDynamic && !onBuffers)
    return false;
  if (!anyDynamic || !anyReduction)
    return true;
  /* A reduction with dynamic sizes: only with its vectorized dim static
   * (kiln-split-reductions' partial results: a dynamic row in steps of a
   * static vector; graph-to-linalg gives products of dynamic shapes static
   * tiles). */
  intptr_t lastParallel = -1;
  for (intptr_t d = 0; d < nest->nLoops; ++d)
    if (!nest->reduction[d])
      lastParallel = d;
  return nest->outRank >= 1 &&
         !nest->dynamic[nest->outLoop[nest->outRank - 1]] &&
         !nest->dynamic[lastParallel];
}

/* The cache level of a contraction: a long reduction is split into blocks
 * of at most `reduction-block` steps, a loop around the register tiles, so
 * the stretch of the right operand one column of register tiles reads (the
 * block times the vector width) stays in L1 and the thread block's panels
 * of both operands in L2 while the register tiles sweep them. Blocks divide
 * the reduction (no remainder to peel); one shorter than half the limit
 * would only add loop overhead, and then the reduction is not split. */
static void planReductionBlock(const LoopNest *nest,
                               const KilnPassOptionValue *opt,
                               KilnTilePlan *plan) {
  int64_t cap = opt[kOptReductionBlock].i;
  intptr_t reduction = -1;
  for (intptr_t d = 0; d < nest->nLoops; ++d) {
    if (!nest->reduction[d] || nest->size[d] == 1)
      continue;
    if (reduction >= 0)
      return; /* several reduction loops: left whole */
    reduction = d;
  }
  if (!cap || reduction < 0 || nest->dynamic[reduction] ||
      nest->size[reduction] <= cap)
    return;
  int64_t block = kilnDivisorAtMost(nest->size[reduction], cap);
  if (2 * block < cap)
    return;
  plan->cache[reduction] = block;
}

/* The loops a contraction's register tiles vectorize along (*vec) and
 * stack as rows (*row; -1: none): the output's innermost dim and the dim
 * before it; or, when the loop order puts a parallel loop after the
 * innermost dim's (an im2col conv on a small plane, loops n, p, m, k:
 * graph-to-linalg put its output channels innermost), that loop, with
 * the innermost dim's as the rows: the vectorizer's vectors follow the
 * loop order, so the accumulator is pixels x channels, written to the
 * channels x pixels output transposed. */
static void contractionTileLoops(const LoopNest *nest, intptr_t *vec,
                                 intptr_t *row) {
  *vec = nest->outLoop[nest->outRank - 1];
  *row = nest->outRank >= 2 ? nest->outLoop[nest->outRank - 2] : -1;
  intptr_t last = -1;
  for (intptr_t d = 0; d < nest->nLoops; ++d)
    if (!nest->reduction[d])
      last = d;
  if (last > *vec) {
    *row = *vec;
    *vec = last;
    return;
  }
  /* The rows of an outer product are points of the broadcast operand: a
   * row loop that the vectors' operand reads too (heads of a projection
   * whose output is split [tokens, heads, 32]; a batch dim between the
   * rows and the columns) would load a vector of it per row. An outer
   * output loop of more than one step that inputs read and the vectors'
   * operand does not is taken instead (the tokens, not a unit batch). */
  if (*row < 0 || !(nest->readers[*row] & nest->readers[*vec]))
    return;
  for (intptr_t i = nest->outRank - 2; i >= 0; --i) {
    intptr_t d = nest->outLoop[i];
    if (d != *vec && nest->size[d] > 1 && nest->readers[d] &&
        !(nest->readers[d] & nest->readers[*vec])) {
      *row = d;
      return;
    }
  }
}

/* Whether a contraction's register tiles take the wide width
 * (wide-vector-size: two vectors per row on AVX-512, 16 accumulators)
 * for a block of `cols` x `rows` outputs: full-height tiles, at least two
 * wide tiles per row, and the same remainder single vectors leave (196 =
 * 6 x 32 + 4 as 12 x 16 + 4; not 250 = 7 x 32 + 26, a 26-lane remainder
 * LLVM assembles lane by lane, against 15 x 16 + 10). kiln-tune's logs of
 * 11 models chose two vectors for 73 of the 112 workloads it sped up by 5%
 * or more (bench/tune_knobs.py; docs/kiln-tune.md). */
static bool wideTileFits(const KilnPassOptionValue *opt, int64_t cols,
                         int64_t rows) {
  int64_t wide = opt[kOptWideVectorSize].i, v = opt[kOptVectorSize].i;
  return wide > v && rows >= opt[kOptRows].i && cols >= 2 * wide &&
         cols % wide == cols % v;
}

/* Tile sizes for an op with a reduction (see the file comment). */
static void planContraction(const LoopNest *nest, bool serial,
                            const KilnPassOptionValue *opt,
                            KilnTilePlan *plan) {
  intptr_t vec, row;
  contractionTileLoops(nest, &vec, &row);
  int64_t extent[kMaxLoops];
  for (intptr_t d = 0; d < nest->nLoops; ++d) {
    int64_t size = nest->size[d];
    int64_t t = 0;
    if (!serial && !nest->reduction[d]) {
      if (d == vec || d == row) {
        int64_t cap = opt[d == vec ? kOptThreadCols : kOptThreadRows].i;
        int64_t reg = opt[d == vec ? kOptVectorSize : kOptRows].i;
        /* Split only into blocks that still hold several register tiles;
         * a dynamic dim into blocks of whole register tiles (the last
         * block partial). */
        if (nest->dynamic[d])
          t = cap / reg * reg;
        else
          t = size > cap ? kilnDivisorAtMost(size, cap) : 0;
        if (t && t < 2 * reg)
          t = 0;
      } else if (size > 1) {
        t = 1;
      }
    }
    plan->threads[d] = t;
    extent[d] = t ? t : size;
  }
  /* A single output row (a matrix-vector product: batch-1 Gemm, MLPs)
   * spends the accumulator registers along the row instead: `rows`
   * vectors side by side, so each reduction step reads a long contiguous
   * stretch of the matrix rather than one vector per matrix row. */
  int64_t width = opt[kOptVectorSize].i;
  if (row < 0 || extent[row] == 1)
    width *= opt[kOptRows].i;
  else if (wideTileFits(opt, extent[vec], extent[row]))
    width = opt[kOptWideVectorSize].i;
  for (intptr_t d = 0; d < nest->nLoops; ++d) {
    int64_t e = extent[d];
    int64_t t = 1;
    if (d == vec)
      t = e < width ? e : width;
    else if (d == row)
      t = e < opt[kOptRows].i ? e : opt[kOptRows].i;
    plan->regs[d] = t == e ? 0 : t; /* one tile: no loop */
  }
  /* A wide matrix-vector tile's remainder of a vector or more is tiled
   * again by single vectors. */
  int64_t vector = opt[kOptVectorSize].i;
  if (width > vector && plan->regs[vec] && !nest->dynamic[vec] &&
      extent[vec] % plan->regs[vec] >= vector) {
    plan->narrow[vec] = vector;
    plan->marker = kOpAttr;
  }
  /* Channels innermost (the output's innermost dim stacked as rows): each
   * cache block would read and write the accumulators transposed. */
  if (row != nest->outLoop[nest->outRank - 1])
    planReductionBlock(nest, opt, plan);
  /* columns-outer: the register tiles swept column strip by column strip
   * (the vector loop outside the row loop), so the strip of the right
   * operand one column of tiles reads stays in L1 across the rows, the
   * left operand's rows streaming instead. */
  if (opt[kOptColumnsOuter].b && row >= 0 && row < vec && plan->regs[row] &&
      plan->regs[vec] && !plan->narrow[vec]) {
    plan->hasInterchange = true;
    for (intptr_t d = 0; d < nest->nLoops; ++d)
      plan->interchange[d] = d == row ? vec : d == vec ? row : d;
  }
  /* Rows of dynamic extent (a split reduction's rows in a thread block
   * over the sequence) leave fewer than `rows` rows: tiled again one row
   * at a time, each a static tile. As one tile of dynamic height they were
   * scalar loops, which LLVM vectorized across the reduction steps with
   * gathers and scatters. */
  if (row >= 0 && nest->dynamic[row] && plan->regs[row] > 1 &&
      !plan->hasInterchange && !plan->narrow[vec]) {
    plan->narrow[row] = 1;
    plan->marker = kOpAttr;
  }
}

/* Tile sizes for an elementwise op: one task per row (blocks of long
 * rows), one vector per register tile along the innermost output dim. A
 * dynamic innermost dim gets blocks of kElementwiseTaskCols (the last one
 * partial) and its register tiles are peeled: every vector but a row's
 * remainder is a static tile. */
static void planElementwise(const LoopNest *nest, bool serial,
                            const KilnPassOptionValue *opt,
                            KilnTilePlan *plan) {
  intptr_t vec = nest->outLoop[nest->outRank - 1];
  int64_t v = opt[kOptVectorSize].i;
  for (intptr_t d = 0; d < nest->nLoops; ++d) {
    int64_t size = nest->size[d], t = 0;
    if (!serial && d == vec && nest->dynamic[d]) {
      t = kElementwiseTaskCols;
    } else if (!serial && d == vec && size > kElementwiseTaskCols) {
      t = kilnDivisorAtMost(size, kElementwiseTaskCols);
      if (t < 2 * v)
        t = 0;
    } else if (!serial && d != vec && size > 1) {
      t = 1;
    }
    plan->threads[d] = t;
    int64_t e = t ? t : size;
    int64_t r = d == vec ? (e < v ? e : v) : 1;
    plan->regs[d] = r == e ? 0 : r;
  }
}

/* Chooses the tile sizes of `nest` (see the file comment); false when the
 * op is not worth tiling or not of a kind the options select. `inForall`:
 * the op is in a thread block; `inLoop`: it is in a sequential loop (a
 * recurrent op's time steps), so it runs once per iteration, and a thread
 * level would fork and join threads once per iteration: it gets one only
 * when its work reaches `loop-thread-work`. */
static bool planTiles(const LoopNest *nest, bool inForall, bool inLoop,
                      const KilnPassOptionValue *opt, KilnTilePlan *plan) {
  memset(plan, 0, sizeof(*plan));
  plan->nLoops = nest->nLoops;
  bool anyReduction = false;
  int64_t work = 1;
  for (intptr_t d = 0; d < nest->nLoops; ++d) {
    anyReduction = anyReduction || nest->reduction[d];
    work = work > INT64_MAX / nest->size[d] ? INT64_MAX : work * nest->size[d];
  }
  /* Inside a thread block or a loop the op runs once per block or
   * iteration: its size alone does not say it is too small to be worth
   * tiling. */
  if (nest->outRank < 1 || (!inForall && !inLoop && work < opt[kOptMinWork].i))
    return false;
  bool serial = inForall || (inLoop && work < opt[kOptLoopThreadWork].i);
  bool anyDynamic = false;
  for (intptr_t d = 0; d < nest->nLoops; ++d)
    anyDynamic = anyDynamic || nest->dynamic[d];
  if (anyReduction) {
    /* Reductions of dynamic shape are tiled on buffers (readLoopNest), in
     * the elementwise run after bufferization. */
    if (!opt[kOptContractions].b && !anyDynamic)
      return false;
    planContraction(nest, serial, opt, plan);
  } else {
    /* Rows shorter than a quarter vector would be mostly padding. */
    if (!opt[kOptElementwise].b ||
        4 * nest->size[nest->outLoop[nest->outRank - 1]] <
            opt[kOptVectorSize].i)
      return false;
    planElementwise(nest, serial, opt, plan);
  }
  for (intptr_t d = 0; d < nest->nLoops; ++d) {
    int64_t e = plan->threads[d] ? plan->threads[d] : nest->size[d];
    plan->peel[d] =
        plan->regs[d] > 1 && (e % plan->regs[d] != 0 || nest->dynamic[d]);
  }
  return true;
}

static bool hasThreadLevel(const KilnTilePlan *plan) {
  for (intptr_t d = 0; d < plan->nLoops; ++d)
    if (plan->threads[d])
      return true;
  return false;
}

/* The op computing the init (output) operand of contraction `op` when it
 * can be fused into the contraction's thread blocks: an elementwise linalg
 * op of the same block (the bias broadcast or fill its accumulators start
 * from). Null otherwise. */
static MlirOperation fusableInitProducer(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirValue init = mlirOperationGetOperand(op, n - 1);
  if (!mlirValueIsAOpResult(init))
    return (MlirOperation){NULL};
  MlirOperation def = mlirOpResultGetOwner(init);
  LoopNest nest;
  if (!mlirBlockEqual(mlirOperationGetBlock(def), mlirOperationGetBlock(op)) ||
      !kilnOpNameStartsWith(def, "linalg.") ||
      mlirOperationGetNumResults(def) != 1 || !readLoopNest(def, &nest))
    return (MlirOperation){NULL};
  for (intptr_t d = 0; d < nest.nLoops; ++d)
    if (nest.reduction[d])
      return (MlirOperation){NULL};
  /* Shared with other ops (CSE merges equal bias broadcasts): this
   * contraction gets its own copy, which fusion then computes in each
   * block's slice of the output, in place, rather than in a scratch
   * buffer per block. */
  MlirOpOperand use = mlirValueGetFirstUse(init);
  if (!mlirOpOperandIsNull(mlirOpOperandGetNextUse(use))) {
    MlirOperation clone = mlirOperationClone(def);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, clone);
    mlirOperationSetOperand(op, n - 1, mlirOperationGetResult(clone, 0));
    def = clone;
  }
  return def;
}

/* Inserts into the @kiln_tile sequence, before `end` (its yield), the
 * tiling and peeling for `plan` of the op marked kOpAttr, fusing the op
 * marked kInitAttr (if any) into its thread blocks. The sequence's root is
 * the function. The peeled tiles get static shapes from one
 * canonicalization once every op is tiled (@kiln_canonicalize): one per op
 * cost seconds on ResNet-18. */
static void buildTileSequence(MlirOperation seq, MlirOperation end,
                              const KilnTilePlan *plan, bool fuseInit) {
  MlirValue root = kilnScheduleGetRoot(seq);
  MlirValue target = kilnScheduleInsertMatchAttr(end, root, kOpAttr);
  MlirValue init = fuseInit ? kilnScheduleInsertMatchAttr(end, root, kInitAttr)
                            : (MlirValue){NULL};
  kilnScheduleInsertTiling(end, target, plan, init);
}

/* The index of the first tile size option out of range, -1 if none:
 * vector-size, rows and reduction-block may be 0 (chosen for the target),
 * reduction-block -1 (no cache level). */
static int firstBadSize(const KilnPassOptionValue *options) {
  for (int i = 0; i < kNumSizeOptions; ++i) {
    int64_t least = i == kOptReductionBlock                ? -1
                    : i == kOptVectorSize || i == kOptRows ? 0
                                                           : 1;
    if (options[i].i < least)
      return i;
  }
  return options[kOptWideVectorSize].i < -1 ? kOptWideVectorSize : -1;
}

static bool resolveOptions(KilnPassOptionValue *options);

typedef struct Candidate {
  MlirOperation op;
  LoopNest nest;
  KilnTilePlan plan;
} Candidate;

typedef struct CollectState {
  MlirOperation func;
  const KilnPassOptionValue *options;
  Candidate *items;
  size_t len, cap;
} CollectState;

/* Whether `op` works on tensors and overwrites one of its inputs in place
 * (kiln-tile-outputs-in-place made its init that input). Its tiles would
 * read the input before the loop and write the loop's copy of it, which
 * bufferization can only resolve with a scratch buffer: such an op is left
 * whole until it works on buffers (the run after bufferization). */
static bool overwritesInput(MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  intptr_t nOut = mlirOperationGetNumResults(op);
  if (nOut < 1 || n <= nOut)
    return false;
  for (intptr_t o = n - nOut; o < n; ++o)
    for (intptr_t i = 0; i < n - nOut; ++i)
      if (mlirValueEqual(mlirOperationGetOperand(op, i),
                         mlirOperationGetOperand(op, o)))
        return true;
  return false;
}

/* Whether an input of `op` is read through a window over two or more
 * loops, one of them dynamic (o * s + k * d with o dynamic): the tiles of
 * such an op failed to vectorize (the window columns of a 1-D conv of
 * dynamic length, kernel 5: "Attempted to vectorize, but failed"). A
 * broadcast's constant index or a window over static loops is fine. */
static bool hasDynamicWindow(MlirOperation op, const LoopNest *nest) {
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(op);
  for (intptr_t o = 0; o + 1 < mlirArrayAttrGetNumElements(maps); ++o) {
    MlirAffineMap map =
        mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, o));
    for (intptr_t r = 0; r < mlirAffineMapGetNumResults(map); ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, r);
      if (mlirAffineExprIsADim(e))
        continue;
      int loops = 0;
      bool dynamic = false;
      for (intptr_t d = 0; d < nest->nLoops; ++d)
        if (coefficient(e, d) != 0) {
          ++loops;
          dynamic |= nest->dynamic[d];
        }
      if (loops > 1 && dynamic)
        return true;
    }
  }
  return false;
}

/* A window op (see LoopNest) is tiled only when it is elementwise, its
 * windows are contiguous along the vectorized loop, and none spans a
 * dynamic loop (hasDynamicWindow: those are left to the scalar loops). */
static bool windowOpIsTileable(MlirOperation op, const LoopNest *nest) {
  if (nest->outRank < 1) /* a 0-d result: nothing to vectorize along */
    return false;
  if (hasDynamicWindow(op, nest))
    return false;
  for (intptr_t d = 0; d < nest->nLoops; ++d)
    if (nest->reduction[d])
      return false;
  return windowsContiguousAlong(op, nest->outLoop[nest->outRank - 1]);
}

static MlirWalkResult collectCandidates(MlirOperation op, void *userData) {
  CollectState *s = userData;
  if (!kilnOpNameStartsWith(op, "linalg."))
    return MlirWalkResultAdvance;
  if (overwritesInput(op))
    return MlirWalkResultSkip;
  Candidate c = {.op = op};
  /* A tuned workload's own option values (schedule_record.h). */
  KilnPassOptionValue options[kNumOptions];
  if (kilnScheduleRecordGetOptions(op, &kilnTileAndVectorizePass, s->options,
                                   options)) {
    if (options[kOptVectorSize].i != s->options[kOptVectorSize].i)
      options[kOptWideVectorSize].i = -1; /* the record's vector size */
    if (!resolveOptions(options))
      memcpy(options, s->options, sizeof(options));
  }
  /* Wide tiles are counted in f32 lanes: f64 ones would take all 32
   * registers for accumulators. The last operand is the output, a tensor
   * or (on buffers) a memref. */
  intptr_t n = mlirOperationGetNumOperands(op);
  MlirType out = n ? mlirValueGetType(mlirOperationGetOperand(op, n - 1))
                   : (MlirType){NULL};
  if (n && mlirTypeIsAShaped(out) &&
      mlirTypeIsAF64(mlirShapedTypeGetElementType(out)))
    options[kOptWideVectorSize].i = -1;
  if (!readLoopNest(op, &c.nest) || !bodyIsVectorizable(op) ||
      (c.nest.window && !windowOpIsTileable(op, &c.nest)) ||
      !planTiles(&c.nest, kilnHasForallAncestor(op),
                 kilnHasSequentialLoopAncestor(op), options, &c.plan))
    return MlirWalkResultSkip;
  if (s->len == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 16;
    Candidate *items = realloc(s->items, cap * sizeof(*items));
    if (!items)
      abort();
    s->items = items;
    s->cap = cap;
  }
  s->items[s->len++] = c;
  return MlirWalkResultSkip;
}

/* A string option's value ("" when unset). */
static MlirStringRef optionString(const KilnPassOptionValue *options, int i) {
  return kilnStr(options[i].s ? options[i].s : "");
}

static bool contains(MlirStringRef s, const char *needle) {
  size_t n = strlen(needle);
  for (size_t i = 0; i + n <= s.length; ++i)
    if (!memcmp(s.data + i, needle, n))
      return true;
  return false;
}

static bool startsWith(MlirStringRef s, const char *prefix) {
  size_t n = strlen(prefix);
  return s.length >= n && !memcmp(s.data, prefix, n);
}

/* The register tile for the target (the options target-triple and
 * target-features, which the CPU pipelines pass on; without them, this
 * machine):
 * accumulators that fill about half the vector registers. AVX-512: 32
 * zmm, 8 rows x 16 lanes = 8 registers, or two vectors wide (`wide`, 16
 * registers) where the block allows (wideTileFits); AVX2 and other x86:
 * 16 ymm, 6 rows x 16 lanes = 12; AArch64 NEON: 32 q registers, 8 x 8 =
 * 16; else 4 x 8. */
static void targetTile(const KilnPassOptionValue *options, int64_t *rows,
                       int64_t *width, int64_t *wide) {
  MlirStringRef triple = optionString(options, kOptTargetTriple);
  MlirStringRef features = optionString(options, kOptTargetFeatures);
  char *hostTriple = NULL, *hostFeatures = NULL;
  if (!triple.length) {
    hostTriple = LLVMGetDefaultTargetTriple();
    hostFeatures = LLVMGetHostCPUFeatures();
    triple = kilnStr(hostTriple);
    features = kilnStr(hostFeatures);
  }
  *wide = -1;
  if (contains(features, "+avx512f")) {
    *rows = 8;
    *width = 16;
    *wide = 32; /* 8 x 2 zmm accumulators, of 32 registers */
  } else if (startsWith(triple, "x86_64") || startsWith(triple, "i686") ||
             startsWith(triple, "i386")) {
    *rows = 6;
    *width = 16;
  } else if (startsWith(triple, "aarch64") || startsWith(triple, "arm64")) {
    *rows = 8;
    *width = 8;
  } else {
    *rows = 4;
    *width = 8;
  }
  if (hostTriple)
    LLVMDisposeMessage(hostTriple);
  if (hostFeatures)
    LLVMDisposeMessage(hostFeatures);
}

/* The L1 data cache of the target, in bytes: this machine's (sysconf)
 * when compiling for it, else a common 32 KiB. */
static int64_t targetL1Bytes(const KilnPassOptionValue *options) {
  enum { kDefaultL1 = 32 * 1024 };
  MlirStringRef triple = optionString(options, kOptTargetTriple);
  bool host = !triple.length;
  if (!host) {
    char *hostTriple = LLVMGetDefaultTargetTriple();
    host = triple.length == strlen(hostTriple) &&
           !memcmp(triple.data, hostTriple, triple.length);
    LLVMDisposeMessage(hostTriple);
  }
#ifdef _SC_LEVEL1_DCACHE_SIZE
  if (host) {
    long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE);
    if (l1 >= 4096 && l1 <= (1 << 22))
      return l1;
  }
#endif
  return kDefaultL1;
}

/* Checks the tile options and replaces their target-dependent values (0,
 * and reduction-block -1; see kOptions) by what they stand for, in place;
 * false when a size is out of range. Values already resolved stay as they
 * are, so a schedule record's options (copied from resolved ones) can be
 * resolved again. */
static bool resolveOptions(KilnPassOptionValue *options) {
  if (firstBadSize(options) >= 0)
    return false;
  int64_t rows, width, wide;
  targetTile(options, &rows, &width, &wide);
  if (!options[kOptRows].i)
    options[kOptRows].i = rows;
  if (!options[kOptVectorSize].i)
    options[kOptVectorSize].i = width;
  if (!options[kOptWideVectorSize].i)
    options[kOptWideVectorSize].i = wide;
  /* The cache level's block: a column of register tiles reads `block`
   * rows of `vector-size` f32s of the right operand; half of L1 holds
   * them (32 KiB, 16 lanes: 256). */
  if (!options[kOptReductionBlock].i)
    options[kOptReductionBlock].i =
        targetL1Bytes(options) / (2 * 4 * options[kOptVectorSize].i);
  else if (options[kOptReductionBlock].i < 0)
    options[kOptReductionBlock].i = 0;
  return true;
}

/* Marks an scf.for carrying only vectors and static tensors kHoistAttr. */
static MlirWalkResult markHoistedLoop(MlirOperation op, void *userData) {
  (void)userData;
  if (!kilnOpNameIs(op, "scf.for"))
    return MlirWalkResultAdvance;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
    if (mlirTypeIsAShaped(t) && !mlirShapedTypeHasStaticShape(t))
      return MlirWalkResultAdvance;
  }
  mlirOperationSetDiscardableAttributeByName(
      op, kilnStr(kHoistAttr), mlirUnitAttrGet(mlirOperationGetContext(op)));
  return MlirWalkResultAdvance;
}

/* Drops kTileAttr from a tile with an operand of dynamic shape (the
 * remainder of a dynamic loop, peeled off its static tiles). */
static MlirWalkResult untagDynamicTile(MlirOperation op, void *userData) {
  (void)userData;
  if (mlirAttributeIsNull(
          mlirOperationGetDiscardableAttributeByName(op, kilnStr(kTileAttr))))
    return MlirWalkResultAdvance;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, i));
    if (mlirTypeIsAShaped(t) && !mlirShapedTypeHasStaticShape(t)) {
      mlirOperationRemoveDiscardableAttributeByName(op, kilnStr(kTileAttr));
      break;
    }
  }
  return MlirWalkResultAdvance;
}

/* ---- loop nests LLVM keeps rolled ---------------------------------------
 *
 * The register tiles are unrolled here already (their vectors); a loop
 * around other loops (the rows and columns of register tiles around their
 * reduction loop, rows of vectors, peeled remainders) gains nothing from
 * LLVM's full unrolling, which copies the whole nest inside it once per
 * iteration: a product tile of 2 x 4 register tiles became 8 copies of
 * its reduction loop. Such loops are marked
 *   scf.for ... { scf.for ... } {loop_annotation = #llvm.loop_annotation<
 *                                  unroll = #llvm.loop_unroll<disable = true>>}
 * which scf-to-cf and the LLVM translation carry to the loop's back edge
 * (`!llvm.loop`, docs/mlir22-notes.md). Measured: the dynamic-axes encoder
 * compiles 12-20% faster, ResNet-18 up to 14%, no model runs slower. */

static MlirWalkResult findNestedLoop(MlirOperation op, void *userData) {
  MlirOperation *outer = userData;
  if (kilnOpNameIs(op, "scf.for") && !mlirOperationEqual(op, *outer)) {
    *outer = (MlirOperation){NULL};
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static MlirWalkResult markLoopNest(MlirOperation op, void *userData) {
  if (!kilnOpNameIs(op, "scf.for"))
    return MlirWalkResultAdvance;
  MlirOperation outer = op;
  mlirOperationWalk(op, findNestedLoop, &outer, MlirWalkPreOrder);
  if (mlirOperationIsNull(outer)) /* it holds a loop */
    mlirOperationSetDiscardableAttributeByName(op, kilnStr("loop_annotation"),
                                               *(MlirAttribute *)userData);
  return MlirWalkResultAdvance;
}

static void keepLoopNestsRolled(MlirOperation func) {
  MlirAttribute noUnroll =
      mlirAttributeParseGet(mlirOperationGetContext(func),
                            kilnStr("#llvm.loop_annotation<unroll = "
                                    "#llvm.loop_unroll<disable = true>>"));
  mlirOperationWalk(func, markLoopNest, &noUnroll, MlirWalkPreOrder);
}

static MlirWalkResult findTensor(MlirOperation op, void *userData) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    if (mlirTypeIsATensor(mlirValueGetType(mlirOperationGetResult(op, i)))) {
      *(bool *)userData = true;
      return MlirWalkResultInterrupt;
    }
  return MlirWalkResultAdvance;
}

/* Whether `func` is bufferized (the run after bufferization): no op in it
 * makes a tensor, and no argument is one. */
static bool isBufferized(MlirOperation func) {
  MlirType type = mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(func, kilnStr("function_type")));
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(type); ++i)
    if (mlirTypeIsATensor(mlirFunctionTypeGetInput(type, i)))
      return false;
  bool tensor = false;
  mlirOperationWalk(func, findTensor, &tensor, MlirWalkPreOrder);
  return !tensor;
}

static void runTileAndVectorize(MlirOperation func, MlirExternalPass pass,
                                const KilnPassOptionValue *given) {
  KilnPassOptionValue options[kNumOptions];
  memcpy(options, given, sizeof(options));
  /* A vector size given is the one used: no wide tiles. */
  if (given[kOptVectorSize].i)
    options[kOptWideVectorSize].i = -1;
  if (!resolveOptions(options)) {
    int bad = firstBadSize(given);
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "kiln-tile-and-vectorize: tile options must be "
                   "positive (vector-size, rows, reduction-block and "
                   "wide-vector-size: 0 for the target's; reduction-block "
                   "-1: none; wide-vector-size -1: never), got %ld",
                   (long)given[bad].i);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  /* Contractions vectorized by an earlier run (the first, before
   * elementwise fusion and kiln-tile-outputs-in-place) start their
   * accumulators from their bias or fill in registers. */
  kilnInitAccumulatorsInRegisters(func);
  /* On buffers (the run after bufferization): conv and matmul epilogues
   * that would be a second pass over their thread block are applied to
   * the register tiles before their store. */
  if (options[kOptElementwise].b)
    kilnApplyEpiloguesInRegisters(func);
  CollectState s = {.func = func, .options = options};
  mlirOperationWalk(func, collectCandidates, &s, MlirWalkPreOrder);
  if (!s.len) {
    free(s.items);
    return;
  }
  MlirContext ctx = mlirOperationGetContext(func);
  KilnSchedule schedule;
  bool ok = kilnScheduleCreate(ctx, kSchedule, &schedule);
  MlirOperation tileSeq = {NULL}, tileEnd = {NULL}, vectorizeSeq = {NULL},
                hoistSeq = {NULL}, lowerSeq = {NULL}, canonicalizeSeq = {NULL};
  if (ok) {
    tileSeq = kilnScheduleGetSequence(&schedule, "kiln_tile");
    tileEnd = kilnScheduleFindOp(tileSeq, "transform.yield");
    vectorizeSeq = kilnScheduleGetSequence(&schedule, "kiln_vectorize_tile");
    hoistSeq = kilnScheduleGetSequence(&schedule, "kiln_hoist_accumulators");
    canonicalizeSeq = kilnScheduleGetSequence(&schedule, "kiln_canonicalize");
    lowerSeq = kilnScheduleGetSequence(&schedule, "kiln_lower_vectors");
  }
  MlirAttribute unit = mlirUnitAttrGet(ctx);
  for (size_t i = 0; ok && i < s.len; ++i) {
    Candidate *c = &s.items[i];
    kilnMarkContract(c->op);
    mlirOperationSetDiscardableAttributeByName(c->op, kilnStr(kOpAttr), unit);
    MlirOperation init = {NULL};
    if (c->nest.nLoops && !kilnHasForallAncestor(c->op) &&
        hasThreadLevel(&c->plan))
      init = fusableInitProducer(c->op);
    if (!mlirOperationIsNull(init))
      mlirOperationSetDiscardableAttributeByName(init, kilnStr(kInitAttr),
                                                 unit);
    buildTileSequence(tileSeq, tileEnd, &c->plan, !mlirOperationIsNull(init));
    /* The schedule's payload is the op's parent (the function, or the
     * thread block it is in): its matches walk only that, not the whole
     * function once per op. */
    MlirOperation scope = mlirOperationGetParentOperation(c->op);
    ok = mlirLogicalResultIsSuccess(
        kilnScheduleApply(&schedule, tileSeq, scope));
    if (!mlirOperationIsNull(init))
      kilnScheduleDropAttr(scope, kInitAttr);
    kilnScheduleClearBefore(tileSeq, tileEnd);
    kilnScheduleRetag(scope, kOpAttr, kTileAttr);
  }
  if (ok)
    ok = mlirLogicalResultIsSuccess(
        kilnScheduleApply(&schedule, canonicalizeSeq, func));
  /* Vectorize each register tile within its innermost loop; a dynamic
   * dim's remainder tiles stay loops. */
  mlirOperationWalk(func, untagDynamicTile, NULL, MlirWalkPreOrder);
  KilnOpList loops = {0};
  kilnScheduleCollectTileLoops(func, kTileAttr, &loops);
  for (size_t i = 0; ok && i < loops.len; ++i)
    ok = mlirLogicalResultIsSuccess(
        kilnScheduleApply(&schedule, vectorizeSeq, loops.data[i]));
  kilnOpListDestroy(&loops);
  for (int round = 0; ok && round < kHoistRounds; ++round) {
    mlirOperationWalk(func, markHoistedLoop, NULL, MlirWalkPreOrder);
    ok = mlirLogicalResultIsSuccess(
        kilnScheduleApply(&schedule, hoistSeq, func));
  }
  kilnScheduleDropAttr(func, kHoistAttr);
  if (ok)
    ok = mlirLogicalResultIsSuccess(
        kilnScheduleApply(&schedule, lowerSeq, func));
  /* After bufferization, the tiles vectorized here (dynamic products and
   * row reductions) keep their accumulators in registers too. */
  if (ok && isBufferized(func)) {
    ok = mlirLogicalResultIsSuccess(kilnScheduleApply(
        &schedule, kilnScheduleGetSequence(&schedule, "kiln_licm"), func));
    if (ok)
      kilnHoistBufferAccumulators(func);
  }
  if (!mlirModuleIsNull(schedule.module))
    kilnScheduleDestroy(&schedule);
  free(s.items);
  if (ok)
    keepLoopNestsRolled(func);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnPassOptionSpec kOptions[] = {
    [kOptVectorSize] = {"vector-size", KILN_PASS_OPTION_INT, "0",
                        "Elements per vector along the output's innermost "
                        "dim (the register tile's width); 0: the target's "
                        "(16 on x86, 8 on AArch64)"},
    [kOptRows] = {"rows", KILN_PASS_OPTION_INT, "0",
                  "Output rows per register tile (accumulator vectors); "
                  "0: the target's (8 with AVX-512, 6 on other x86, 8 on "
                  "AArch64)"},
    [kOptThreadRows] = {"thread-rows", KILN_PASS_OPTION_INT, "32",
                        "Output rows per parallel task, at most"},
    [kOptThreadCols] = {"thread-cols", KILN_PASS_OPTION_INT, "256",
                        "Output columns per parallel task, at most"},
    [kOptMinWork] = {"min-work", KILN_PASS_OPTION_INT, "4096",
                     "Smallest iteration space (product of the loop "
                     "extents) worth tiling"},
    [kOptLoopThreadWork] = {"loop-thread-work", KILN_PASS_OPTION_INT, "131072",
                            "Least iteration space (product of the loop "
                            "extents) of an op inside a sequential loop "
                            "(scf.for, scf.while) that gets a thread "
                            "level: threads fork and join once per "
                            "iteration"},
    [kOptReductionBlock] = {"reduction-block", KILN_PASS_OPTION_INT, "0",
                            "Reduction steps per cache block of a "
                            "contraction, at most; 0: from the target's L1 "
                            "data cache (half of it holds a block of "
                            "vector-size columns: 256 for 32 KiB and 16 "
                            "lanes); -1: the reduction is not split"},
    [kOptContractions] = {"contractions", KILN_PASS_OPTION_BOOL, "true",
                          "Tile and vectorize ops with reduction loops"},
    [kOptElementwise] = {"elementwise", KILN_PASS_OPTION_BOOL, "false",
                         "Tile and vectorize elementwise ops (all loops "
                         "parallel); run after elementwise fusion"},
    [kOptWideVectorSize] = {"wide-vector-size", KILN_PASS_OPTION_INT, "0",
                            "Register tile width of a contraction whose "
                            "block has full-height rows of at least two "
                            "such tiles and no worse a remainder, when "
                            "vector-size is the target's; 0: the target's "
                            "(32 with AVX-512: 16 accumulators); -1: never"},
    [kOptColumnsOuter] = {"columns-outer", KILN_PASS_OPTION_BOOL, "false",
                          "Sweep a contraction's register tiles column "
                          "strip by column strip (the vector loop outside "
                          "the row loop) rather than row by row"},
    [kOptTargetTriple] = {"target-triple", KILN_PASS_OPTION_STRING, "",
                          "LLVM triple the code is for (the register tile "
                          "and the cache block are its); empty: this "
                          "machine"},
    [kOptTargetFeatures] = {"target-features", KILN_PASS_OPTION_STRING, "",
                            "LLVM CPU features of target-triple's CPU "
                            "(+avx512f gives AVX-512 tiles)"},
};

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__scf__,    mlirGetDialectHandle__linalg__,
    mlirGetDialectHandle__tensor__, mlirGetDialectHandle__transform__,
    mlirGetDialectHandle__vector__,
};

const KilnPassInfo kilnTileAndVectorizePass = {
    .argument = "kiln-tile-and-vectorize",
    .summary = "Tile contractions for threads and registers, vectorize each "
               "register tile and lower it to FMAs",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runTileAndVectorize,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

/* kiln-depthwise-conv: vectorized depthwise convolutions for CPUs
 * (docs/cpu-codegen.md; findings in docs/mlir22-notes.md, "Depthwise
 * convolutions").
 *
 * graph-to-linalg lowers a Conv with group = channels to
 * linalg.depthwise_conv_2d_nchw_chw on a padded input. Each such op on
 * static f32/f64 tensors is tiled in two levels with the transform dialect,
 * keeping the NCHW layout: vectorizing along the output row needs no
 * transposes, while an NHWC kernel (channels as the vector) pays two
 * activation transposes per layer. Measured on MobileNetV2's 144 x 56 x 56
 * layer (1 thread): one transpose 0.44 ms, this whole layer 0.64 ms (its
 * padding copy 0.35 ms of it), the conv alone about 0.1 ms.
 *
 *  1. threads: scf.forall over batch entries and blocks of channels, which
 *     scf-forall-to-parallel and convert-scf-to-openmp turn into OpenMP
 *     work sharing. Ops already inside an scf.forall skip this level.
 *  2. registers: scf.for over channels, then `rows` x `vector-size` output
 *     tiles (output rows x output columns), then the kernel taps kh and kw,
 *     one step each; output loops the tile does not divide are peeled, so
 *     every tile has a static shape.
 *
 * Each register tile, with its unit dims dropped, is an elementwise
 * multiply-add: a rows x columns window of the input times one broadcast
 * filter tap, added to the accumulator. With stride 1 the window's rows
 * are contiguous; with stride s the window is taken as a strided slice, so
 * the tile's maps become identities too. Each tile is vectorized on its own
 * (never the whole function: docs/cpu-codegen.md) and the accumulator is
 * hoisted out of the tap loops, so it stays in registers across the taps.
 * The conv's elementwise producers (the fill of the padded input, the zero
 * or bias initial value) get the same tiles and are vectorized too; the
 * padding copy itself is left as one copy.
 * Ops that do not qualify (dynamic shapes, other element types) are left
 * to convert-linalg-to-parallel-loops. graph-to-linalg gives this pass
 * 1-D depthwise convs as 2-D ones with one row, and lowers 3-D ones as
 * grouped im2col contractions. */
#include "kiln/passes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/linalg-to-llvm-cpu/schedules/masked_remainders.h"
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

extern const KilnPassInfo kilnDepthwiseConvPass;

enum {
  kOptVectorSize,
  kOptRows,
  kOptThreadChannels,
  kOptStridedRows,
  kNumOptions
};

/* The loops of linalg.depthwise_conv_2d_nchw_chw, in the op's order. */
enum { kN, kOH, kOW, kC, kKH, kKW, kNumLoops };
/* The loops of an elementwise producer (NCHW result). */
enum { kEwN, kEwC, kEwH, kEwW, kEwLoops };

/* Rounds of accumulator hoisting: the register tile sits in a slice of a
 * slice (its unit dims dropped) of the tap loops' iter_arg; each round
 * moves one read/write pair out of one loop. */
enum { kHoistRounds = 4 };

static const char *const kOpAttr = "kiln.dw_op";
static const char *const kTileAttr = "kiln.dw_tile";
/* The conv's elementwise producers: the fill of the padded input and the
 * accumulator's initial value (zeros or the broadcast bias). The copy of
 * the input into the padded tensor is left as it is: tiled on tensors, a
 * copy's tiles fold into slices, which bufferize to one memref.copy per
 * tile, each lowered to a nested parallel loop. */
static const char *const kEwAttr = "kiln.dw_ew";
/* The conv's accumulator init (zeros or the broadcast bias), fused into
 * the conv's thread blocks but not tiled for registers: each block's init
 * stays one elementwise op, from which kiln-tile-and-vectorize starts the
 * register tiles' accumulators in registers (kilnInitAccumulatorsInRegisters)
 * instead of storing it over the block and reading it back, each row's read
 * behind the store of the row before, which a masked store (a remainder row
 * widened, masked_remainders.h) cannot forward. */
static const char *const kInitAttr = "kiln.dw_init";

static const char kSchedule[] =
    "module attributes {transform.with_named_sequence} {\n"
    /* Per op: the tiling and peeling are inserted before the yield. */
    "  transform.named_sequence @kiln_dw_tile(\n"
    "      %root: !transform.any_op {transform.readonly}) {\n"
    "    transform.yield\n"
    "  }\n"
    /* Per innermost loop of a register tile: drop the tile's unit dims
     * (batch, channel, taps), leaving a rows x columns multiply-add. */
    "  transform.named_sequence @kiln_dw_fold_tile(\n"
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
    "    transform.yield\n"
    "  }\n"
    "  transform.named_sequence @kiln_dw_vectorize_tile(\n"
    "      %loop: !transform.any_op {transform.readonly}) {\n"
    "    %tile = transform.structured.match\n"
    "        interface{LinalgOp} in %loop\n"
    "        : (!transform.any_op) -> !transform.any_op\n"
    "    transform.structured.vectorize %tile : !transform.any_op\n"
    "    transform.yield\n"
    "  }\n"
    /* On the function, a few times: keep each accumulator tile in
     * registers across the tap loops, read before and written after. */
    "  transform.named_sequence @kiln_dw_hoist_accumulators(\n"
    "      %f: !transform.any_op {transform.readonly}) {\n"
    "    %loops = transform.structured.match ops{[\"scf.for\"]} in %f\n"
    "        : (!transform.any_op) -> !transform.any_op\n"
    "    transform.loop.hoist_loop_invariant_subsets %loops\n"
    "        : !transform.any_op\n"
    "    transform.apply_patterns to %f {\n"
    "      transform.apply_patterns.canonicalization\n"
    "    } : !transform.any_op\n"
    "    transform.yield\n"
    "  }\n"
    "}\n";

static MlirNamedAttribute namedAttr(MlirContext ctx, const char *name,
                                    MlirAttribute attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr(name)), attr);
}

static bool isStaticFloatTensor(MlirType t, MlirType elem) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t) &&
         mlirTypeEqual(mlirShapedTypeGetElementType(t), elem);
}

/* The op's loop extents, when it is a depthwise 2-D NCHW conv this pass
 * handles: static shapes, one float type (f32 or f64) throughout, a body
 * the vectorizer widens (checked by the named op's verifier). */
static bool readSizes(MlirOperation op, int64_t size[kNumLoops]) {
  if (!kilnOpNameStartsWith(op, "linalg.depthwise_conv_2d_nchw_chw") ||
      mlirOperationGetNumOperands(op) != 3 ||
      mlirOperationGetNumResults(op) != 1)
    return false;
  MlirType in = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType filter = mlirValueGetType(mlirOperationGetOperand(op, 1));
  MlirType out = mlirValueGetType(mlirOperationGetOperand(op, 2));
  if (!mlirTypeIsARankedTensor(out))
    return false;
  MlirType elem = mlirShapedTypeGetElementType(out);
  if ((!mlirTypeIsAF32(elem) && !mlirTypeIsAF64(elem)) ||
      !isStaticFloatTensor(in, elem) || !isStaticFloatTensor(filter, elem) ||
      !isStaticFloatTensor(out, elem) || mlirShapedTypeGetRank(out) != 4 ||
      mlirShapedTypeGetRank(filter) != 3)
    return false;
  size[kN] = mlirShapedTypeGetDimSize(out, 0);
  size[kC] = mlirShapedTypeGetDimSize(out, 1);
  size[kOH] = mlirShapedTypeGetDimSize(out, 2);
  size[kOW] = mlirShapedTypeGetDimSize(out, 3);
  size[kKH] = mlirShapedTypeGetDimSize(filter, 1);
  size[kKW] = mlirShapedTypeGetDimSize(filter, 2);
  for (int d = 0; d < kNumLoops; ++d)
    if (size[d] < 1)
      return false;
  return true;
}

static bool nameIs(MlirOperation op, const char *name) {
  MlirStringRef n = mlirIdentifierStr(mlirOperationGetName(op));
  return n.length == strlen(name) && !memcmp(n.data, name, n.length);
}

/* Whether every op of the body is scalar arith on the body's values. */
static bool bodyIsArith(MlirOperation op) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  if (mlirBlockIsNull(body))
    return false;
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    if ((!kilnOpNameStartsWith(o, "arith.") && !nameIs(o, "linalg.yield")) ||
        mlirOperationGetNumRegions(o) != 0)
      return false;
  return true;
}

/* The loop extents of an elementwise producer this pass tiles with its
 * conv: linalg.fill, or a linalg.generic with an identity
 * output map (so all loops are parallel) and an arith body, with a static
 * 4-D f32/f64 result. */
static bool readElementwise(MlirOperation op, int64_t size[kEwLoops]) {
  bool generic = nameIs(op, "linalg.generic");
  if ((!generic && !nameIs(op, "linalg.fill")) ||
      mlirOperationGetNumResults(op) != 1)
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (!mlirTypeIsARankedTensor(t) || !mlirShapedTypeHasStaticShape(t) ||
      mlirShapedTypeGetRank(t) != kEwLoops)
    return false;
  MlirType elem = mlirShapedTypeGetElementType(t);
  if (!mlirTypeIsAF32(elem) && !mlirTypeIsAF64(elem))
    return false;
  for (int d = 0; d < kEwLoops; ++d)
    if ((size[d] = mlirShapedTypeGetDimSize(t, d)) < 1)
      return false;
  if (!generic)
    return true;
  MlirAttribute maps =
      mlirOperationGetAttributeByName(op, kilnStr("indexing_maps"));
  intptr_t n = mlirArrayAttrGetNumElements(maps);
  MlirAffineMap out =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, n - 1));
  return mlirAffineMapIsIdentity(out) && mlirAffineMapGetNumDims(out) == 4 &&
         bodyIsArith(op);
}

static MlirOperation producer(MlirValue v) {
  return mlirValueIsAOpResult(v) ? mlirOpResultGetOwner(v)
                                 : (MlirOperation){NULL};
}

/* Marks the conv's producer for tiling with it: the padded input's fill.
 * (Its accumulator init is fused into its thread blocks: kInitAttr.) */
static void markProducers(MlirOperation conv) {
  MlirAttribute unit = mlirUnitAttrGet(mlirOperationGetContext(conv));
  int64_t size[kEwLoops];
  MlirOperation pad = producer(mlirOperationGetOperand(conv, 0));
  if (mlirOperationIsNull(pad) || !nameIs(pad, "tensor.insert_slice"))
    return;
  MlirOperation fill = producer(mlirOperationGetOperand(pad, 1));
  if (!mlirOperationIsNull(fill) && nameIs(fill, "linalg.fill") &&
      readElementwise(fill, size))
    mlirOperationSetDiscardableAttributeByName(fill, kilnStr(kEwAttr), unit);
}

static int64_t minI64(int64_t a, int64_t b) { return a < b ? a : b; }

/* Register loops outermost first: channels, rows, columns, taps. */
static const int64_t kInterchange[kNumLoops] = {kN, kC, kOH, kOW, kKH, kKW};
static const int64_t kEwInterchange[kEwLoops] = {kEwN, kEwC, kEwH, kEwW};

/* Tasks are batch entries times blocks of `thread-channels` channels: each
 * task then reads whole planes of input and filter. Register tiles are
 * `rows` x `vector-size` outputs of one channel, one tap per step.
 * `size` holds the loop extents; `n`, `c`, `h`, `w` name the batch,
 * channel, row and column loops (any other loop gets register tiles of
 * one: the taps). */
static void planTiles(intptr_t nLoops, const int64_t *size, int n, int c, int h,
                      int w, bool inForall, const KilnPassOptionValue *opt,
                      KilnTilePlan *plan) {
  memset(plan, 0, sizeof(*plan));
  plan->nLoops = nLoops;
  int64_t extent[kNumLoops];
  memcpy(extent, size, nLoops * sizeof(extent[0]));
  if (!inForall) {
    plan->threads[n] = size[n] > 1 ? 1 : 0;
    plan->threads[c] =
        size[c] > opt[kOptThreadChannels].i ? opt[kOptThreadChannels].i : 0;
    for (intptr_t d = 0; d < nLoops; ++d)
      if (plan->threads[d])
        extent[d] = plan->threads[d];
  }
  for (intptr_t d = 0; d < nLoops; ++d) {
    int64_t reg = 1;
    if (d == h)
      reg = minI64(extent[d], opt[kOptRows].i);
    else if (d == w)
      reg = minI64(extent[d], opt[kOptVectorSize].i);
    plan->regs[d] = reg == extent[d] ? 0 : reg; /* one tile: no loop */
    plan->peel[d] = plan->regs[d] && extent[d] % plan->regs[d] != 0;
  }
}

/* Whether the conv has a column stride above 1. */
static bool isStrided(MlirOperation conv) {
  MlirAttribute strides =
      mlirOperationGetAttributeByName(conv, kilnStr("strides"));
  return !mlirAttributeIsNull(strides) &&
         mlirDenseElementsAttrGetInt64Value(strides, 1) > 1;
}

/* A strided conv's register tiles: kiln-widen-strided-reads (after
 * bufferization) reads each row of their stride-2 windows as two
 * contiguous vectors and a shuffle. `strided-rows` rows (independent
 * accumulators) when a row is one vector or less; single rows when it is
 * several, whose independent tiles the core already overlaps, and where
 * 4 rows measured slower (1 thread: 96 x 112^2 -> 56^2, 0.298 vs 0.310 ms;
 * 144 x 56^2 -> 28^2, 0.129 vs 0.131 ms; but 576 x 14^2 -> 7^2, 0.044 ->
 * 0.039 ms and 5x5 240 x 28^2 -> 14^2, 0.147 -> 0.138 ms with 4). */
static void planDepthwise(MlirOperation conv, const int64_t size[kNumLoops],
                          bool inForall, const KilnPassOptionValue *opt,
                          KilnTilePlan *plan) {
  KilnPassOptionValue options[kNumOptions];
  memcpy(options, opt, sizeof(options));
  if (isStrided(conv))
    options[kOptRows].i =
        size[kOW] <= opt[kOptVectorSize].i ? opt[kOptStridedRows].i : 1;
  planTiles(kNumLoops, size, kN, kC, kOH, kOW, inForall, options, plan);
  plan->hasInterchange = true;
  memcpy(plan->interchange, kInterchange, sizeof(kInterchange));
}

static void planElementwise(const int64_t size[kEwLoops], bool inForall,
                            const KilnPassOptionValue *opt,
                            KilnTilePlan *plan) {
  planTiles(kEwLoops, size, kEwN, kEwC, kEwH, kEwW, inForall, opt, plan);
  plan->hasInterchange = true;
  memcpy(plan->interchange, kEwInterchange, sizeof(kEwInterchange));
}

/* Inserts into @kiln_dw_tile, before `end` (its yield), the tiling and
 * peeling for `plan` (fusing the op marked kInitAttr into the thread
 * blocks when `fuseInit`), then a canonicalization so the peeled tiles get
 * static shapes. The sequence's root is the function. */
static void buildTileSequence(MlirOperation seq, MlirOperation end,
                              const KilnTilePlan *plan, bool fuseInit) {
  MlirValue root = kilnScheduleGetRoot(seq);
  MlirValue init = fuseInit ? kilnScheduleInsertMatchAttr(end, root, kInitAttr)
                            : (MlirValue){NULL};
  kilnScheduleInsertTiling(end, kilnScheduleInsertMatchAttr(end, root, kOpAttr),
                           plan, init);
  kilnScheduleInsertCanonicalize(end, root);
}

/* The conv's accumulator init to fuse into its thread blocks: a fill or
 * an elementwise generic (readElementwise) used only by the conv, when
 * the conv gets thread blocks; else null. */
static MlirOperation fusableInit(MlirOperation conv, const KilnTilePlan *plan) {
  bool threads = false;
  for (intptr_t d = 0; d < plan->nLoops; ++d)
    threads = threads || plan->threads[d];
  MlirValue out = mlirOperationGetOperand(conv, 2);
  MlirOperation init = producer(out);
  int64_t size[kEwLoops];
  MlirOpOperand use = mlirValueGetFirstUse(out);
  if (!threads || mlirOperationIsNull(init) || !readElementwise(init, size) ||
      mlirOpOperandIsNull(use) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return (MlirOperation){NULL};
  return init;
}

/* The stride of a tile map's result: 1 for `d`, s for `d * s`; 0 for any
 * other form. `*dim` is the dim's position. */
static int64_t resultStride(MlirAffineExpr e, intptr_t *dim) {
  if (mlirAffineExprIsADim(e)) {
    *dim = mlirAffineDimExprGetPosition(e);
    return 1;
  }
  if (!mlirAffineExprIsAMul(e))
    return 0;
  MlirAffineExpr lhs = mlirAffineBinaryOpExprGetLHS(e);
  MlirAffineExpr rhs = mlirAffineBinaryOpExprGetRHS(e);
  if (!mlirAffineExprIsADim(lhs) || !mlirAffineExprIsAConstant(rhs))
    return 0;
  *dim = mlirAffineDimExprGetPosition(lhs);
  int64_t s = mlirAffineConstantExprGetValue(rhs);
  return s > 0 ? s : 0;
}

static MlirOperation buildStridedSlice(MlirValue source, intptr_t rank,
                                       const int64_t *sizes,
                                       const int64_t *strides) {
  MlirType srcType = mlirValueGetType(source);
  MlirContext ctx = mlirTypeGetContext(srcType);
  int64_t zeros[kNumLoops] = {0};
  int32_t segs[4] = {1, 0, 0, 0};
  MlirNamedAttribute attrs[4] = {
      namedAttr(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 4, segs)),
      namedAttr(ctx, "static_offsets", mlirDenseI64ArrayGet(ctx, rank, zeros)),
      namedAttr(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, rank, sizes)),
      namedAttr(ctx, "static_strides",
                mlirDenseI64ArrayGet(ctx, rank, strides))};
  MlirType type = mlirRankedTensorTypeGet(rank, sizes,
                                          mlirShapedTypeGetElementType(srcType),
                                          mlirAttributeGetNull());
  MlirOperationState state = mlirOperationStateGet(
      kilnStr("tensor.extract_slice"), mlirLocationUnknownGet(ctx));
  mlirOperationStateAddOperands(&state, 1, &source);
  mlirOperationStateAddResults(&state, 1, &type);
  mlirOperationStateAddAttributes(&state, 4, attrs);
  return mlirOperationCreate(&state);
}

/* Makes the input map of a folded tile (`generic`) an identity: a strided
 * conv's window `d0 * s, d1 * s` becomes a strided slice of the window.
 * False when the tile has another form (it is then left unvectorized). */
static bool makeIdentityInput(MlirOperation generic) {
  if (!nameIs(generic, "linalg.generic"))
    return false;
  MlirAttribute maps =
      mlirOperationGetAttributeByName(generic, kilnStr("indexing_maps"));
  bool projected = true;
  for (intptr_t i = 0; i < mlirArrayAttrGetNumElements(maps); ++i)
    projected = projected &&
                mlirAffineMapIsProjectedPermutation(mlirAffineMapAttrGetValue(
                    mlirArrayAttrGetElement(maps, i)));
  if (projected)
    return true; /* the producers' tiles, stride-1 conv tiles */
  if (mlirOperationGetNumOperands(generic) != 3)
    return false;
  MlirAffineMap inMap =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 0));
  MlirAffineMap outMap =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, 2));
  MlirType outType = mlirValueGetType(mlirOperationGetOperand(generic, 2));
  intptr_t rank = mlirAffineMapGetNumResults(inMap);
  intptr_t nDims = mlirAffineMapGetNumDims(inMap);
  if (!mlirAffineMapIsIdentity(outMap) || rank != nDims || rank > kNumLoops ||
      !mlirTypeIsARankedTensor(outType))
    return false;
  int64_t sizes[kNumLoops], strides[kNumLoops];
  MlirAffineExpr dims[kNumLoops];
  bool strided = false;
  MlirContext ctx = mlirOperationGetContext(generic);
  for (intptr_t r = 0; r < rank; ++r) {
    intptr_t d = -1;
    strides[r] = resultStride(mlirAffineMapGetResult(inMap, r), &d);
    if (!strides[r] || d != r)
      return false;
    strided = strided || strides[r] > 1;
    sizes[r] = mlirShapedTypeGetDimSize(outType, r);
    dims[r] = mlirAffineDimExprGet(ctx, r);
  }
  if (!strided)
    return true;
  MlirOperation slice = buildStridedSlice(mlirOperationGetOperand(generic, 0),
                                          rank, sizes, strides);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(generic), generic,
                                      slice);
  mlirOperationSetOperand(generic, 0, mlirOperationGetResult(slice, 0));
  MlirAttribute newMaps[3] = {
      mlirAffineMapAttrGet(mlirAffineMapGet(ctx, nDims, 0, rank, dims)),
      mlirArrayAttrGetElement(maps, 1), mlirArrayAttrGetElement(maps, 2)};
  mlirOperationSetAttributeByName(generic, kilnStr("indexing_maps"),
                                  mlirArrayAttrGet(ctx, 3, newMaps));
  return true;
}

/* Makes every tile in a loop vectorizable (makeIdentityInput); `userData`
 * is a bool, cleared when one is not. */
static MlirWalkResult prepareTiles(MlirOperation op, void *userData) {
  if (!kilnOpNameStartsWith(op, "linalg."))
    return MlirWalkResultAdvance;
  if (!makeIdentityInput(op))
    *(bool *)userData = false;
  return MlirWalkResultSkip; /* not its body */
}

static MlirWalkResult collectProducers(MlirOperation op, void *userData) {
  if (mlirOperationRemoveDiscardableAttributeByName(op, kilnStr(kEwAttr)))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

static MlirWalkResult collectCandidates(MlirOperation op, void *userData) {
  int64_t size[kNumLoops];
  if (readSizes(op, size))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

typedef struct Sequences {
  KilnSchedule schedule;
  MlirOperation tile, tileEnd, fold, vectorize, hoist;
} Sequences;

static bool loadSequences(MlirContext ctx, Sequences *s) {
  if (!kilnScheduleCreate(ctx, kSchedule, &s->schedule))
    return false;
  s->tile = kilnScheduleGetSequence(&s->schedule, "kiln_dw_tile");
  s->tileEnd = kilnScheduleFindOp(s->tile, "transform.yield");
  s->fold = kilnScheduleGetSequence(&s->schedule, "kiln_dw_fold_tile");
  s->vectorize =
      kilnScheduleGetSequence(&s->schedule, "kiln_dw_vectorize_tile");
  s->hoist =
      kilnScheduleGetSequence(&s->schedule, "kiln_dw_hoist_accumulators");
  return true;
}

static bool apply(Sequences *s, MlirOperation seq, MlirOperation payload) {
  return mlirLogicalResultIsSuccess(
      kilnScheduleApply(&s->schedule, seq, payload));
}

/* Tiles `op` (marked with kOpAttr) by `plan`, fusing `init` (when not
 * null) into its thread blocks; its tiles get kTileAttr. */
static bool tileOne(MlirOperation func, MlirOperation op, MlirOperation init,
                    const KilnTilePlan *plan, Sequences *s) {
  MlirAttribute unit = mlirUnitAttrGet(mlirOperationGetContext(op));
  mlirOperationSetDiscardableAttributeByName(op, kilnStr(kOpAttr), unit);
  if (!mlirOperationIsNull(init))
    mlirOperationSetDiscardableAttributeByName(init, kilnStr(kInitAttr), unit);
  buildTileSequence(s->tile, s->tileEnd, plan, !mlirOperationIsNull(init));
  bool ok = apply(s, s->tile, func);
  kilnScheduleClearBefore(s->tile, s->tileEnd);
  kilnScheduleRetag(func, kOpAttr, kTileAttr);
  if (!mlirOperationIsNull(init))
    kilnScheduleDropAttr(func, kInitAttr);
  return ok;
}

static bool optionsArePositive(const KilnPassOptionValue *options) {
  for (int i = 0; i < kNumOptions; ++i)
    if (options[i].i < 1)
      return false;
  return true;
}

/* Tiles the convs' elementwise producers, then each conv. */
static bool tileAll(MlirOperation func, const KilnOpList *convs,
                    const KilnPassOptionValue *options, Sequences *s) {
  for (size_t i = 0; i < convs->len; ++i)
    markProducers(convs->data[i]);
  KilnOpList producers = {0};
  mlirOperationWalk(func, collectProducers, &producers, MlirWalkPreOrder);
  bool ok = true;
  for (size_t i = 0; ok && i < producers.len; ++i) {
    int64_t size[kEwLoops];
    KilnTilePlan plan;
    MlirOperation op = producers.data[i];
    if (!readElementwise(op, size))
      continue;
    planElementwise(size, kilnHasForallAncestor(op), options, &plan);
    ok = tileOne(func, op, (MlirOperation){NULL}, &plan, s);
  }
  kilnOpListDestroy(&producers);
  for (size_t i = 0; ok && i < convs->len; ++i) {
    int64_t size[kNumLoops];
    KilnTilePlan plan;
    MlirOperation op = convs->data[i];
    readSizes(op, size);
    /* A tuned workload's own rows and thread channels
     * (schedule_record.h); vector-size stays the pass's, which the
     * remainder masks below use. */
    KilnPassOptionValue own[kNumOptions];
    if (!kilnScheduleRecordGetOptions(op, &kilnDepthwiseConvPass, options,
                                      own) ||
        !optionsArePositive(own))
      memcpy(own, options, sizeof(own));
    own[kOptVectorSize] = options[kOptVectorSize];
    planDepthwise(op, size, kilnHasForallAncestor(op), own, &plan);
    kilnMarkContract(op);
    ok = tileOne(func, op, fusableInit(op, &plan), &plan, s);
  }
  return ok;
}

/* Tiles everything, then folds and vectorizes each register tile in its
 * innermost loop, and hoists the accumulators. */
static bool tileAndVectorize(MlirOperation func, const KilnOpList *ops,
                             const KilnPassOptionValue *options, Sequences *s) {
  bool ok = tileAll(func, ops, options, s);
  KilnOpList loops = {0};
  kilnScheduleCollectTileLoops(func, kTileAttr, &loops);
  for (size_t i = 0; ok && i < loops.len; ++i) {
    ok = apply(s, s->fold, loops.data[i]);
    bool vectorizable = true;
    mlirOperationWalk(loops.data[i], prepareTiles, &vectorizable,
                      MlirWalkPreOrder);
    if (ok && vectorizable)
      ok = apply(s, s->vectorize, loops.data[i]);
    if (ok && vectorizable)
      kilnMaskRemainderVectors(loops.data[i], options[kOptVectorSize].i);
  }
  kilnOpListDestroy(&loops);
  for (int round = 0; ok && round < kHoistRounds; ++round)
    ok = apply(s, s->hoist, func);
  return ok;
}

static void runDepthwiseConv(MlirOperation func, MlirExternalPass pass,
                             const KilnPassOptionValue *options) {
  if (!optionsArePositive(options)) {
    int bad = 0;
    while (options[bad].i >= 1)
      ++bad;
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "kiln-depthwise-conv: tile options must be positive, "
                   "got %ld",
                   (long)options[bad].i);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  KilnOpList ops = {0};
  mlirOperationWalk(func, collectCandidates, &ops, MlirWalkPreOrder);
  if (!ops.len)
    return;
  Sequences s;
  bool ok = loadSequences(mlirOperationGetContext(func), &s);
  if (ok)
    ok = tileAndVectorize(func, &ops, options, &s);
  kilnScheduleDestroy(&s.schedule);
  kilnOpListDestroy(&ops);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnPassOptionSpec kOptions[] = {
    [kOptVectorSize] = {"vector-size", KILN_PASS_OPTION_INT, "16",
                        "Output columns per register tile (the vector "
                        "width)"},
    [kOptRows] = {"rows", KILN_PASS_OPTION_INT, "4",
                  "Output rows per register tile (accumulator vectors)"},
    [kOptThreadChannels] = {"thread-channels", KILN_PASS_OPTION_INT, "8",
                            "Channels per parallel task, at most"},
    [kOptStridedRows] =
        {"strided-rows", KILN_PASS_OPTION_INT, "4",
         "Output rows per register tile of a strided conv whose "
         "rows fit one vector"},
};

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__scf__,    mlirGetDialectHandle__linalg__,
    mlirGetDialectHandle__tensor__, mlirGetDialectHandle__transform__,
    mlirGetDialectHandle__vector__,
};

const KilnPassInfo kilnDepthwiseConvPass = {
    .argument = "kiln-depthwise-conv",
    .summary = "Tile 2-D NCHW depthwise convolutions for threads and "
               "registers and vectorize each register tile along the "
               "output rows",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runDepthwiseConv,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

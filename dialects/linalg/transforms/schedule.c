/* Transform-dialect schedules applied from C (schedule.h). */
#include "dialects/linalg/transforms/schedule.h"

#include "kiln/diagnostics.h"
#include "support/ir_build.h"

#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Transform.h"
#include "mlir-c/Dialect/Transform/Interpreter.h"

bool kilnScheduleCreate(MlirContext ctx, const char *text,
                        KilnSchedule *schedule) {
  schedule->module = mlirModuleCreateParse(ctx, kilnStr(text));
  return !mlirModuleIsNull(schedule->module);
}

void kilnScheduleDestroy(KilnSchedule *schedule) {
  if (!mlirModuleIsNull(schedule->module))
    mlirModuleDestroy(schedule->module);
  schedule->module.ptr = NULL;
}

typedef struct {
  const char *opName;
  const char *symName; /* NULL: any */
  MlirOperation found;
} FindState;

static MlirWalkResult findOp(MlirOperation op, void *userData) {
  FindState *s = userData;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length != strlen(s->opName) ||
      memcmp(name.data, s->opName, name.length))
    return MlirWalkResultAdvance;
  if (s->symName) {
    MlirAttribute sym =
        mlirOperationGetAttributeByName(op, kilnStr("sym_name"));
    if (mlirAttributeIsNull(sym) || !mlirAttributeIsAString(sym))
      return MlirWalkResultAdvance;
    MlirStringRef v = mlirStringAttrGetValue(sym);
    if (v.length != strlen(s->symName) || memcmp(v.data, s->symName, v.length))
      return MlirWalkResultAdvance;
  }
  s->found = op;
  return MlirWalkResultInterrupt;
}

MlirOperation kilnScheduleGetSequence(KilnSchedule *schedule,
                                      const char *name) {
  FindState s = {"transform.named_sequence", name, {NULL}};
  mlirOperationWalk(mlirModuleGetOperation(schedule->module), findOp, &s,
                    MlirWalkPreOrder);
  return s.found;
}

MlirOperation kilnScheduleFindOp(MlirOperation sequence, const char *name) {
  FindState s = {name, NULL, {NULL}};
  mlirOperationWalk(sequence, findOp, &s, MlirWalkPreOrder);
  return s.found;
}

MlirLogicalResult kilnScheduleApply(KilnSchedule *schedule,
                                    MlirOperation sequence,
                                    MlirOperation payload) {
  MlirTransformOptions options = mlirTransformOptionsCreate();
  MlirLogicalResult result = mlirTransformApplyNamedSequence(
      payload, sequence, mlirModuleGetOperation(schedule->module), options);
  mlirTransformOptionsDestroy(options);
  return result;
}

static MlirBlock sequenceBody(MlirOperation sequence) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(sequence, 0));
}

MlirValue kilnScheduleGetRoot(MlirOperation sequence) {
  return mlirBlockGetArgument(sequenceBody(sequence), 0);
}

MlirOperation kilnScheduleInsert(MlirOperation before, const char *name,
                                 intptr_t nOperands, const MlirValue *operands,
                                 intptr_t nResults, MlirType resultType,
                                 intptr_t nAttrs,
                                 const MlirNamedAttribute *attrs) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirOperationState state =
      mlirOperationStateGet(kilnStr(name), mlirLocationUnknownGet(ctx));
  mlirOperationStateAddOperands(&state, nOperands, operands);
  if (mlirTypeIsNull(resultType))
    resultType = mlirTransformAnyOpTypeGet(ctx);
  for (intptr_t i = 0; i < nResults; ++i)
    mlirOperationStateAddResults(&state, 1, &resultType);
  mlirOperationStateAddAttributes(&state, nAttrs, attrs);
  MlirOperation op = mlirOperationCreate(&state);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before,
                                      op);
  return op;
}

MlirValue kilnInsertOpBefore(MlirOperation before, const char *name,
                             intptr_t nOperands, const MlirValue *operands,
                             MlirType resultType, intptr_t nAttrs,
                             const MlirNamedAttribute *attrs) {
  return mlirOperationGetResult(kilnInsertOp(before, name, nOperands, operands,
                                             1, &resultType, nAttrs, attrs),
                                0);
}

int64_t kilnDivisorAtMost(int64_t n, int64_t cap) {
  int64_t d = cap < n ? cap : n;
  while (d > 1 && n % d)
    --d;
  return d < 1 ? 1 : d;
}

MlirAttribute kilnReassociationGet(MlirContext ctx, intptr_t nGroups,
                                   const intptr_t *groupSizes) {
  enum { kMaxDims = 16 };
  MlirAttribute groups[kMaxDims], dims[kMaxDims];
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  intptr_t d = 0;
  for (intptr_t g = 0; g < nGroups && g < kMaxDims; ++g) {
    intptr_t first = d;
    for (intptr_t i = 0; i < groupSizes[g] && d < kMaxDims; ++i, ++d)
      dims[d] = mlirIntegerAttrGet(i64, d);
    groups[g] = mlirArrayAttrGet(ctx, d - first, &dims[first]);
  }
  return mlirArrayAttrGet(ctx, nGroups < kMaxDims ? nGroups : kMaxDims, groups);
}

void kilnScheduleClearBefore(MlirOperation sequence, MlirOperation term) {
  MlirBlock body = sequenceBody(sequence);
  /* Back to front, as later ops use earlier results: the C API has no
   * previous-op getter, so erase the last non-terminator until none. */
  for (;;) {
    MlirOperation first = mlirBlockGetFirstOperation(body), last = {NULL};
    for (MlirOperation op = first; !mlirOperationEqual(op, term);
         op = mlirOperationGetNextInBlock(op))
      last = op;
    if (mlirOperationIsNull(last))
      return;
    mlirOperationDestroy(last);
  }
}

static MlirNamedAttribute namedAttr(MlirContext ctx, const char *name,
                                    MlirAttribute attr) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr(name)), attr);
}

void kilnScheduleInsertPatterns(MlirOperation end, MlirValue target,
                                const char *patterns) {
  MlirContext ctx = mlirOperationGetContext(end);
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirRegion region = mlirRegionCreate();
  MlirBlock block = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState inner = mlirOperationStateGet(kilnStr(patterns), loc);
  mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&inner));
  MlirOperationState state =
      mlirOperationStateGet(kilnStr("transform.apply_patterns"), loc);
  mlirOperationStateAddOperands(&state, 1, &target);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(end), end,
                                      mlirOperationCreate(&state));
}

void kilnScheduleInsertCanonicalize(MlirOperation end, MlirValue target) {
  kilnScheduleInsertPatterns(end, target,
                             "transform.apply_patterns.canonicalization");
}

MlirValue kilnScheduleInsertMatchAttr(MlirOperation end, MlirValue root,
                                      const char *attrName) {
  MlirContext ctx = mlirOperationGetContext(end);
  MlirNamedAttribute marker = namedAttr(ctx, attrName, mlirUnitAttrGet(ctx));
  MlirNamedAttribute match =
      namedAttr(ctx, "op_attrs", mlirDictionaryAttrGet(ctx, 1, &marker));
  return mlirOperationGetResult(
      kilnScheduleInsert(end, "transform.structured.match", 1, &root, 1,
                         (MlirType){NULL}, 1, &match),
      0);
}

MlirOperation kilnScheduleInsertPeel(MlirOperation end, MlirValue loop) {
  MlirContext ctx = mlirOperationGetContext(end);
  MlirType forType = mlirTransformOperationTypeGet(ctx, kilnStr("scf.for"));
  MlirValue forLoop = mlirOperationGetResult(
      kilnScheduleInsert(end, "transform.cast", 1, &loop, 1, forType, 0, NULL),
      0);
  MlirNamedAttribute attrs[2] = {
      namedAttr(ctx, "peel_front", mlirBoolAttrGet(ctx, 0)),
      namedAttr(ctx, "fail_if_already_divisible", mlirBoolAttrGet(ctx, 0))};
  return kilnScheduleInsert(end, "transform.loop.peel", 1, &forLoop, 2,
                            (MlirType){NULL}, 2, attrs);
}

/* tile_using_for of `target` by `sizes` (0: not tiled); returns the op. */
static MlirOperation insertTileUsingFor(MlirOperation end, MlirValue target,
                                        intptr_t n, const int64_t *sizes,
                                        const int64_t *interchange) {
  MlirContext ctx = mlirOperationGetContext(end);
  intptr_t nLoops = 0;
  for (intptr_t d = 0; d < n; ++d)
    nLoops += sizes[d] != 0;
  int scalable[KILN_TILE_MAX_LOOPS] = {0};
  MlirNamedAttribute attrs[3] = {
      namedAttr(ctx, "static_sizes", mlirDenseI64ArrayGet(ctx, n, sizes)),
      namedAttr(ctx, "scalable_sizes", mlirDenseBoolArrayGet(ctx, n, scalable)),
      interchange ? namedAttr(ctx, "interchange",
                              mlirDenseI64ArrayGet(ctx, n, interchange))
                  : (MlirNamedAttribute){0}};
  return kilnScheduleInsert(end, "transform.structured.tile_using_for", 1,
                            &target, 1 + nLoops, (MlirType){NULL},
                            interchange ? 3 : 2, attrs);
}

/* The register level of a plan with a narrow remainder along loop `wide`
 * (KilnTilePlan.narrow): tile `wide` alone, peel it; the main part gets the
 * other register loops, the remainder the narrow size along `wide` (peeled
 * again) and the other register loops, the reduction loops innermost in
 * both. */
static void insertNarrowRemainderTiling(MlirOperation end, MlirValue target,
                                        const KilnTilePlan *plan,
                                        intptr_t wide) {
  intptr_t n = plan->nLoops;
  int64_t first[KILN_TILE_MAX_LOOPS] = {0}, mainSizes[KILN_TILE_MAX_LOOPS],
          remSizes[KILN_TILE_MAX_LOOPS];
  first[wide] = plan->regs[wide];
  memcpy(mainSizes, plan->regs, sizeof(mainSizes));
  memcpy(remSizes, plan->regs, sizeof(remSizes));
  mainSizes[wide] = 0;
  remSizes[wide] = plan->narrow[wide];
  MlirOperation tile = insertTileUsingFor(end, target, n, first, NULL);
  MlirOperation peel =
      kilnScheduleInsertPeel(end, mlirOperationGetResult(tile, 1));
  MlirValue main = kilnScheduleInsertMatchAttr(
      end, mlirOperationGetResult(peel, 0), plan->marker);
  insertTileUsingFor(end, main, n, mainSizes, NULL);
  MlirValue rem = kilnScheduleInsertMatchAttr(
      end, mlirOperationGetResult(peel, 1), plan->marker);
  MlirOperation remTile = insertTileUsingFor(end, rem, n, remSizes, NULL);
  if (plan->narrow[wide] == 1)
    return; /* single steps: nothing to peel */
  /* The narrow loop's place among the remainder's loops (in dim order). */
  intptr_t place = 0;
  for (intptr_t d = 0; d < wide; ++d)
    place += remSizes[d] != 0;
  kilnScheduleInsertPeel(end, mlirOperationGetResult(remTile, 1 + place));
}

MlirOperation kilnScheduleInsertForall(MlirOperation end, MlirValue target,
                                       intptr_t n, const int64_t *sizes) {
  MlirContext ctx = mlirOperationGetContext(end);
  int32_t segs[5] = {1, 0, 0, 0, 0};
  MlirNamedAttribute attrs[2] = {
      namedAttr(ctx, "operandSegmentSizes", mlirDenseI32ArrayGet(ctx, 5, segs)),
      namedAttr(ctx, "static_tile_sizes", mlirDenseI64ArrayGet(ctx, n, sizes))};
  return kilnScheduleInsert(end, "transform.structured.tile_using_forall", 1,
                            &target, 2, (MlirType){NULL}, 2, attrs);
}

MlirValue kilnScheduleInsertFuse(MlirOperation end, MlirValue producers,
                                 MlirValue loop) {
  MlirValue operands[2] = {producers, loop};
  return mlirOperationGetResult(
      kilnScheduleInsert(end, "transform.structured.fuse_into_containing_op", 2,
                         operands, 2, (MlirType){NULL}, 0, NULL),
      1);
}

void kilnScheduleInsertTiling(MlirOperation end, MlirValue target,
                              const KilnTilePlan *plan, MlirValue producers) {
  intptr_t n = plan->nLoops;
  bool forall = false;
  for (intptr_t d = 0; d < n; ++d)
    forall = forall || plan->threads[d];
  if (forall) {
    MlirOperation tile =
        kilnScheduleInsertForall(end, target, n, plan->threads);
    target = mlirOperationGetResult(tile, 0);
    if (!mlirValueIsNull(producers))
      kilnScheduleInsertFuse(end, producers, mlirOperationGetResult(tile, 1));
  }
  bool cache = false;
  for (intptr_t d = 0; d < n; ++d)
    cache = cache || plan->cache[d];
  if (cache)
    target = mlirOperationGetResult(
        insertTileUsingFor(end, target, n, plan->cache, NULL), 0);
  for (intptr_t d = 0; d < n; ++d)
    if (plan->narrow[d] && plan->marker && !plan->hasInterchange) {
      insertNarrowRemainderTiling(end, target, plan, d);
      return;
    }
  /* The tiled loops in nesting order: tile_using_for returns them so. */
  intptr_t nLoops = 0;
  int64_t loopDim[KILN_TILE_MAX_LOOPS];
  for (intptr_t i = 0; i < n; ++i) {
    int64_t d = plan->hasInterchange ? plan->interchange[i] : i;
    if (plan->regs[d])
      loopDim[nLoops++] = d;
  }
  if (!nLoops)
    return;
  MlirOperation tile =
      insertTileUsingFor(end, target, n, plan->regs,
                         plan->hasInterchange ? plan->interchange : NULL);
  for (intptr_t i = nLoops - 1; i >= 0; --i)
    if (plan->peel[loopDim[i]])
      kilnScheduleInsertPeel(end, mlirOperationGetResult(tile, 1 + i));
}

typedef struct Retag {
  const char *from, *to;
} Retag;

static MlirWalkResult retag(MlirOperation op, void *userData) {
  const Retag *r = userData;
  if (mlirOperationRemoveDiscardableAttributeByName(op, kilnStr(r->from)))
    mlirOperationSetDiscardableAttributeByName(
        op, kilnStr(r->to), mlirUnitAttrGet(mlirOperationGetContext(op)));
  return MlirWalkResultAdvance;
}

void kilnScheduleRetag(MlirOperation root, const char *from, const char *to) {
  Retag r = {from, to};
  mlirOperationWalk(root, retag, &r, MlirWalkPreOrder);
}

static MlirWalkResult dropAttr(MlirOperation op, void *userData) {
  mlirOperationRemoveDiscardableAttributeByName(op, kilnStr(userData));
  return MlirWalkResultAdvance;
}

void kilnScheduleDropAttr(MlirOperation root, const char *attr) {
  mlirOperationWalk(root, dropAttr, (void *)attr, MlirWalkPreOrder);
}

typedef struct TileLoops {
  const char *attr;
  KilnOpList *loops;
} TileLoops;

static MlirWalkResult collectTileLoop(MlirOperation op, void *userData) {
  TileLoops *t = userData;
  if (!mlirOperationRemoveDiscardableAttributeByName(op, kilnStr(t->attr)))
    return MlirWalkResultAdvance;
  MlirOperation loop = mlirOperationGetParentOperation(op);
  if (kilnOpNameStartsWith(loop, "scf.for") &&
      !kilnOpListContains(t->loops, loop))
    kilnOpListPush(t->loops, loop);
  return MlirWalkResultAdvance;
}

void kilnScheduleCollectTileLoops(MlirOperation root, const char *attr,
                                  KilnOpList *loops) {
  TileLoops t = {attr, loops};
  mlirOperationWalk(root, collectTileLoop, &t, MlirWalkPreOrder);
}

bool kilnHasForallAncestor(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if (kilnOpNameStartsWith(p, "scf.forall"))
      return true;
  return false;
}

bool kilnHasSequentialLoopAncestor(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if ((kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(p)),
                             "scf.for") &&
         mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
             p, kilnStr(KILN_SAMPLE_LOOP_ATTR)))) ||
        kilnOpNameStartsWith(p, "scf.while"))
      return true;
  return false;
}

void kilnMarkContract(MlirOperation op) {
  MlirContext ctx = mlirOperationGetContext(op);
  MlirAttribute contract =
      mlirAttributeParseGet(ctx, kilnStr("#arith.fastmath<contract>"));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (MlirOperation o = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    if (kilnOpNameStartsWith(o, "arith.mulf") ||
        kilnOpNameStartsWith(o, "arith.addf"))
      mlirOperationSetAttributeByName(o, kilnStr("fastmath"), contract);
}

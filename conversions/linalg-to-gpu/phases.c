/* kiln-gpu-launch-phases: turns the block and thread-phase loops of
 * kiln-gpu-tile-contractions into GPU kernels (docs/gpu-codegen.md,
 * "Contractions").
 *
 * Each `scf.execute_region` marked `kiln.gpu.block_size = T` holds (after
 * canonicalization, which may drop the grid loop's unit dims or the whole
 * loop) allocas marked `kiln.gpu.shared` and `kiln.gpu.private`, at most
 * one grid loop (the scf.parallel holding the others) and thread phases
 * (one-dimensional scf.parallel loops over thread ids, in program order,
 * maybe inside scf.for / scf.if). It becomes one gpu.launch of T threads
 * per block:
 *  - the grid loop's dims (innermost first) become the block ids x, y, z;
 *  - each phase becomes its body with thread id x for its index, under
 *    `scf.if (tid < bound)` when its bound is smaller than T, followed by
 *    a gpu.barrier when it accesses a shared buffer (so between any two
 *    phases that exchange data through shared memory there is a barrier,
 *    also across the iterations of an enclosing loop);
 *  - stores outside every phase (block-level code) run in thread 0 only;
 *  - the shared allocas become workgroup attributions of the launch
 *    (`#gpu.address_space<workgroup>`), the private ones (indexed
 *    [tid, ...] only) allocas of the thread's own slice inside the kernel,
 *    which LLVM keeps in registers (every other index is a constant).
 *
 * Runs in linalg-to-gpu where convert-parallel-loops-to-gpu runs (whose
 * kernels cannot hold barriers), not in gpu-on-cpu: there the loops run
 * sequentially, which is the phases' meaning. */
#include "kiln/passes.h"

#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

static const char *const kBlockSizeAttr = "kiln.gpu.block_size";

enum { kMaxShared = 8 };

static MlirBlock body(MlirOperation op) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
}

typedef struct Parts {
  KilnOpList loops, shared, priv, scopes;
} Parts;

static bool isMarkedAlloca(MlirOperation op, const char *mark) {
  return kilnOpNameIs(op, "memref.alloca") &&
         !mlirAttributeIsNull(
             mlirOperationGetAttributeByName(op, kilnStr(mark)));
}

static void pushOnce(KilnOpList *list, MlirOperation op) {
  if (!kilnOpListContains(list, op))
    kilnOpListPush(list, op);
}

/* Collects the region's loops and scopes, and the marked allocas it uses
 * (canonicalization may have hoisted them out of the region). */
static MlirWalkResult collectParts(MlirOperation op, void *userData) {
  Parts *p = userData;
  if (kilnOpNameIs(op, "scf.parallel"))
    kilnOpListPush(&p->loops, op);
  else if (kilnOpNameIs(op, "memref.alloca_scope"))
    kilnOpListPush(&p->scopes, op);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v))
      continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (isMarkedAlloca(def, "kiln.gpu.shared"))
      pushOnce(&p->shared, def);
    else if (isMarkedAlloca(def, "kiln.gpu.private"))
      pushOnce(&p->priv, def);
  }
  return MlirWalkResultAdvance;
}

static MlirWalkResult findNested(MlirOperation op, void *userData) {
  MlirOperation *outer = userData;
  if (!mlirOperationEqual(op, *outer) && kilnOpNameIs(op, "scf.parallel")) {
    *outer = (MlirOperation){NULL};
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static bool holdsParallel(MlirOperation loop) {
  MlirOperation probe = loop;
  mlirOperationWalk(loop, findNested, &probe, MlirWalkPreOrder);
  return mlirOperationIsNull(probe);
}

typedef struct UsesShared {
  const MlirValue *shared;
  size_t n;
  bool found;
} UsesShared;

static MlirWalkResult findSharedUse(MlirOperation op, void *userData) {
  UsesShared *u = userData;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    for (size_t s = 0; s < u->n; ++s)
      if (mlirValueEqual(mlirOperationGetOperand(op, i), u->shared[s])) {
        u->found = true;
        return MlirWalkResultInterrupt;
      }
  return MlirWalkResultAdvance;
}

/* The memref type `t` in workgroup memory. */
static MlirType workgroupType(MlirType t) {
  MlirContext ctx = mlirTypeGetContext(t);
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[16];
  for (intptr_t i = 0; i < rank && i < 16; ++i)
    shape[i] = mlirShapedTypeGetDimSize(t, i);
  MlirAttribute space =
      mlirAttributeParseGet(ctx, kilnStr("#gpu.address_space<workgroup>"));
  return mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank, shape,
                           mlirAttributeGetNull(), space);
}

/* An empty gpu.launch of grid × (threads, 1, 1) with the given workgroup
 * buffers, before `before`; returns it. */
static MlirOperation insertLaunch(MlirOperation before, const int64_t grid[3],
                                  int64_t threads, const MlirType *wg,
                                  intptr_t nWg) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirLocation loc = mlirOperationGetLocation(before);
  MlirValue sizes[6];
  for (int i = 0; i < 3; ++i)
    sizes[i] = kilnInsertIndexConstant(before, grid[i]);
  sizes[3] = kilnInsertIndexConstant(before, threads);
  sizes[4] = sizes[5] = kilnInsertIndexConstant(before, 1);
  MlirType types[12 + kMaxShared];
  MlirLocation locs[12 + kMaxShared];
  for (intptr_t i = 0; i < 12 + nWg; ++i) {
    types[i] = i < 12 ? mlirIndexTypeGet(ctx) : wg[i - 12];
    locs[i] = loc;
  }
  MlirBlock block = mlirBlockCreate(12 + nWg, types, locs);
  MlirOperationState term =
      mlirOperationStateGet(kilnStr("gpu.terminator"), loc);
  mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&term));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirNamedAttribute attrs[2] = {
      kilnSegmentSizesAttr(ctx, 11,
                           (const int32_t[]){0, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("workgroup_attributions")),
          mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), nWg))};
  MlirOperationState st = mlirOperationStateGet(kilnStr("gpu.launch"), loc);
  mlirOperationStateAddOperands(&st, 6, sizes);
  mlirOperationStateAddAttributes(&st, 2, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation launch = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before,
                                      launch);
  return launch;
}

/* Replaces private alloca `alloca` (memref<T x S>) by an alloca of S at
 * `at`, each access dropping its first (thread) index. */
static void privatize(MlirOperation alloca, MlirOperation at) {
  MlirType t = mlirValueGetType(mlirOperationGetResult(alloca, 0));
  intptr_t rank = mlirShapedTypeGetRank(t);
  int64_t shape[16];
  for (intptr_t i = 1; i < rank && i < 16; ++i)
    shape[i - 1] = mlirShapedTypeGetDimSize(t, i);
  MlirType slice =
      mlirMemRefTypeGet(mlirShapedTypeGetElementType(t), rank - 1, shape,
                        mlirAttributeGetNull(), mlirAttributeGetNull());
  MlirNamedAttribute seg = kilnSegmentSizesAttr(mlirOperationGetContext(at), 2,
                                                (const int32_t[]){0, 0});
  MlirValue mine = mlirOperationGetResult(
      kilnInsertOp(at, "memref.alloca", 0, NULL, 1, &slice, 1, &seg), 0);
  MlirValue old = mlirOperationGetResult(alloca, 0);
  KilnOpList users = {0};
  kilnOpListCollectUsers(&users, old);
  for (size_t i = 0; i < users.len; ++i) {
    MlirOperation op = users.data[i];
    /* load: (memref, tid, idx...); store: (value, memref, tid, idx...). */
    intptr_t mem = kilnOpNameIs(op, "memref.store") ? 1 : 0;
    intptr_t n = mlirOperationGetNumOperands(op);
    MlirValue ops[20];
    intptr_t k = 0;
    for (intptr_t j = 0; j < n && k < 20; ++j)
      if (j != mem + 1)
        ops[k++] = j == mem ? mine : mlirOperationGetOperand(op, j);
    mlirOperationSetOperands(op, k, ops);
  }
  kilnOpListDestroy(&users);
  mlirOperationDestroy(alloca);
}

/* Whether every use of private alloca `alloca` is a load or store indexed
 * first by the iv of the thread loop around it. */
static bool privateUsesOk(MlirOperation alloca) {
  MlirValue v = mlirOperationGetResult(alloca, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation op = mlirOpOperandGetOwner(u);
    intptr_t mem = kilnOpNameIs(op, "memref.store")  ? 1
                   : kilnOpNameIs(op, "memref.load") ? 0
                                                     : -1;
    if (mem < 0 || mlirOpOperandGetOperandNumber(u) != mem ||
        mlirOperationGetNumOperands(op) < mem + 2)
      return false;
    MlirValue tid = mlirOperationGetOperand(op, mem + 1);
    if (!mlirValueIsABlockArgument(tid))
      return false;
    MlirOperation loop =
        mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(tid));
    if (!kilnOpNameIs(loop, "scf.parallel"))
      return false;
  }
  return true;
}

typedef struct Sink {
  MlirOperation launch, at;
  KilnOpList from, to; /* constants outside -> their copies inside */
} Sink;

static MlirWalkResult sinkConstants(MlirOperation op, void *userData) {
  Sink *s = userData;
  if (mlirOperationEqual(op, s->launch))
    return MlirWalkResultAdvance; /* its sizes stay on the host */
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v))
      continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (!kilnOpNameIs(def, "arith.constant"))
      continue;
    MlirOperation p = mlirOperationGetParentOperation(def);
    while (!mlirOperationIsNull(p) && !mlirOperationEqual(p, s->launch))
      p = mlirOperationGetParentOperation(p);
    if (!mlirOperationIsNull(p))
      continue; /* already inside */
    MlirOperation copy = {NULL};
    for (size_t j = 0; j < s->from.len && mlirOperationIsNull(copy); ++j)
      if (mlirOperationEqual(s->from.data[j], def))
        copy = s->to.data[j];
    if (mlirOperationIsNull(copy)) {
      copy = mlirOperationClone(def);
      mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(s->at), s->at,
                                          copy);
      kilnOpListPush(&s->from, def);
      kilnOpListPush(&s->to, copy);
    }
    mlirOperationSetOperand(op, i, mlirOperationGetResult(copy, 0));
  }
  return MlirWalkResultAdvance;
}

/* Copies the constants the kernel uses into it: kernel-outlining would
 * pass them as arguments, and the private buffers' indices must be
 * constants inside the kernel for LLVM to keep them in registers. */
static void sinkConstantsInto(MlirOperation launch) {
  Sink s = {.launch = launch, .at = mlirBlockGetFirstOperation(body(launch))};
  mlirOperationWalk(launch, sinkConstants, &s, MlirWalkPreOrder);
  kilnOpListDestroy(&s.from);
  kilnOpListDestroy(&s.to);
}

/* The stores outside every phase (block-level code, as a phase of one
 * thread becomes once canonicalization inlines its single iteration): the
 * block runs them once, so on the GPU one thread must. */
typedef struct BlockStores {
  const KilnOpList *phases;
  KilnOpList stores;
} BlockStores;

static MlirWalkResult findBlockStores(MlirOperation op, void *userData) {
  BlockStores *b = userData;
  if (kilnOpListContains(b->phases, op))
    return MlirWalkResultSkip;
  if (kilnOpNameIs(op, "memref.store") || kilnOpNameIs(op, "memref.atomic_rmw"))
    kilnOpListPush(&b->stores, op);
  return MlirWalkResultAdvance;
}

/* Moves `op` into `scf.if (tid < 1)`. */
static void guardThreadZero(MlirOperation op, MlirValue tid) {
  MlirOperation end = kilnInsertIfLess(op, tid, kilnInsertIndexConstant(op, 1));
  mlirOperationMoveBefore(op, end);
}

/* Converts one marked region; false after an error. */
static bool launchRegion(MlirOperation region, int64_t threads) {
  MlirLocation loc = mlirOperationGetLocation(region);
  Parts p = {0};
  mlirOperationWalk(region, collectParts, &p, MlirWalkPreOrder);
  bool ok = false;
  MlirOperation grid = {NULL};
  KilnOpList phases = {0};
  for (size_t i = 0; i < p.loops.len; ++i) {
    if (mlirOperationIsNull(grid) && holdsParallel(p.loops.data[i]))
      grid = p.loops.data[i];
    else
      kilnOpListPush(&phases, p.loops.data[i]);
  }
  int64_t gridSize[3] = {1, 1, 1};
  intptr_t nGrid = 0;
  if (!mlirOperationIsNull(grid)) {
    nGrid = mlirOperationGetNumOperands(grid) / 3;
    if (nGrid > 3 || mlirOperationGetNumResults(grid))
      goto bad;
    for (intptr_t d = 0; d < nGrid; ++d) {
      int64_t lb, ub, step;
      if (!kilnConstantIndexValue(mlirOperationGetOperand(grid, d), &lb) ||
          !kilnConstantIndexValue(mlirOperationGetOperand(grid, nGrid + d),
                                  &ub) ||
          !kilnConstantIndexValue(mlirOperationGetOperand(grid, 2 * nGrid + d),
                                  &step) ||
          lb != 0 || step != 1)
        goto bad;
      gridSize[nGrid - 1 - d] = ub;
    }
    /* CUDA's limits: 2^31 - 1 blocks in x, 65535 in y and z. */
    if (gridSize[0] > 2147483647 || gridSize[1] > 65535 ||
        gridSize[2] > 65535) {
      kilnEmitErrorf(loc,
                     "kiln-gpu-launch-phases: a grid of %lld x %lld x %lld "
                     "blocks exceeds CUDA's limits (2^31-1 x 65535 x 65535)",
                     (long long)gridSize[0], (long long)gridSize[1],
                     (long long)gridSize[2]);
      goto done;
    }
  }
  for (size_t i = 0; i < phases.len; ++i) {
    MlirOperation ph = phases.data[i];
    int64_t lb, ub, step;
    if (mlirOperationGetNumOperands(ph) != 3 ||
        mlirOperationGetNumResults(ph) ||
        !kilnConstantIndexValue(mlirOperationGetOperand(ph, 0), &lb) ||
        !kilnConstantIndexValue(mlirOperationGetOperand(ph, 1), &ub) ||
        !kilnConstantIndexValue(mlirOperationGetOperand(ph, 2), &step) ||
        lb != 0 || step != 1 || ub > threads)
      goto bad;
  }
  for (size_t i = 0; i < p.priv.len; ++i)
    if (!privateUsesOk(p.priv.data[i]))
      goto bad;
  if (p.shared.len > kMaxShared)
    goto bad;

  MlirType wg[kMaxShared];
  for (size_t i = 0; i < p.shared.len; ++i)
    wg[i] = workgroupType(
        mlirValueGetType(mlirOperationGetResult(p.shared.data[i], 0)));
  MlirOperation launch =
      insertLaunch(region, gridSize, threads, wg, (intptr_t)p.shared.len);
  MlirBlock kernel = body(launch);
  MlirOperation end = mlirBlockGetTerminator(kernel);
  kilnMoveBlockOpsBefore(body(region), end);
  for (size_t i = 0; i < p.scopes.len; ++i) {
    kilnMoveBlockOpsBefore(body(p.scopes.data[i]), p.scopes.data[i]);
    mlirOperationDestroy(p.scopes.data[i]);
  }
  if (!mlirOperationIsNull(grid)) {
    for (intptr_t d = 0; d < nGrid; ++d)
      mlirValueReplaceAllUsesOfWith(
          mlirBlockGetArgument(body(grid), d),
          mlirBlockGetArgument(kernel, nGrid - 1 - d));
    kilnMoveBlockOpsBefore(body(grid), grid);
    mlirOperationDestroy(grid);
  }
  MlirValue sharedArgs[kMaxShared];
  for (size_t i = 0; i < p.shared.len; ++i) {
    sharedArgs[i] = mlirBlockGetArgument(kernel, 12 + (intptr_t)i);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(p.shared.data[i], 0),
                                  sharedArgs[i]);
    mlirOperationDestroy(p.shared.data[i]);
  }
  MlirValue tid = mlirBlockGetArgument(kernel, 3);
  BlockStores blockStores = {&phases, {0}};
  mlirOperationWalk(launch, findBlockStores, &blockStores, MlirWalkPreOrder);
  for (size_t i = 0; i < blockStores.stores.len; ++i)
    guardThreadZero(blockStores.stores.data[i], tid);
  kilnOpListDestroy(&blockStores.stores);
  for (size_t i = 0; i < phases.len; ++i) {
    MlirOperation ph = phases.data[i];
    UsesShared u = {sharedArgs, p.shared.len, false};
    mlirOperationWalk(ph, findSharedUse, &u, MlirWalkPreOrder);
    int64_t ub;
    kilnConstantIndexValue(mlirOperationGetOperand(ph, 1), &ub);
    MlirOperation at = ph;
    if (ub < threads) /* scf.if (tid < ub) { <body> } */
      at = kilnInsertIfLess(ph, tid, mlirOperationGetOperand(ph, 1));
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body(ph), 0), tid);
    kilnMoveBlockOpsBefore(body(ph), at);
    if (u.found)
      kilnInsertOp(ph, "gpu.barrier", 0, NULL, 0, NULL, 0, NULL);
    mlirOperationDestroy(ph);
  }
  for (size_t i = 0; i < p.priv.len; ++i)
    privatize(p.priv.data[i], mlirBlockGetFirstOperation(kernel));
  mlirOperationDestroy(region);
  sinkConstantsInto(launch);
  ok = true;
  goto done;
bad:
  kilnEmitErrorf(loc, "kiln-gpu-launch-phases: the region is not in phases "
                      "form (one grid loop of constant bounds, thread loops "
                      "from 0 to at most the block size, step 1, private "
                      "buffers indexed by the thread first)");
done:
  kilnOpListDestroy(&phases);
  kilnOpListDestroy(&p.loops);
  kilnOpListDestroy(&p.shared);
  kilnOpListDestroy(&p.priv);
  kilnOpListDestroy(&p.scopes);
  return ok;
}

static MlirWalkResult collectRegions(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "scf.execute_region") &&
      !mlirAttributeIsNull(
          mlirOperationGetAttributeByName(op, kilnStr(kBlockSizeAttr)))) {
    kilnOpListPush(userData, op);
    return MlirWalkResultSkip;
  }
  return MlirWalkResultAdvance;
}

static void runLaunchPhases(MlirOperation func, MlirExternalPass pass,
                            const KilnPassOptionValue *options) {
  (void)options;
  KilnOpList regions = {0};
  mlirOperationWalk(func, collectRegions, &regions, MlirWalkPreOrder);
  bool ok = true;
  for (size_t i = 0; i < regions.len && ok; ++i) {
    MlirOperation r = regions.data[i];
    MlirAttribute t =
        mlirOperationGetAttributeByName(r, kilnStr(kBlockSizeAttr));
    int64_t threads =
        mlirAttributeIsAInteger(t) ? mlirIntegerAttrGetValueInt(t) : 0;
    if (threads < 1 || threads > 1024 || mlirOperationGetNumResults(r) != 0) {
      kilnEmitErrorf(mlirOperationGetLocation(r),
                     "kiln-gpu-launch-phases: %s must be an integer in "
                     "[1, 1024] on a region without results",
                     kBlockSizeAttr);
      ok = false;
      break;
    }
    ok = launchRegion(r, threads);
  }
  kilnOpListDestroy(&regions);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__scf__, mlirGetDialectHandle__gpu__,
    mlirGetDialectHandle__memref__};

const KilnPassInfo kilnGpuLaunchPhasesPass = {
    .argument = "kiln-gpu-launch-phases",
    .summary = "Turn block and thread-phase loops (kiln-gpu-tile-"
               "contractions) into gpu.launch kernels with workgroup "
               "memory, private accumulators and barriers",
    .anchor = "func.func",
    .run = runLaunchPhases,
    .dependentDialects = kDialects,
    .numDependentDialects = 3,
};

/* kiln-gpu-map-loops: maps the host function's loops onto GPU blocks and
 * threads (docs/gpu-codegen.md).
 *
 * Runs after convert-linalg-to-parallel-loops, when each linalg op is one
 * scf.parallel over its parallel dims (its reduction dims are scf.for loops
 * inside). Each top-level scf.parallel becomes a one-dimensional grid:
 * blocks × threads cover the loop's iteration space linearized with the
 * innermost dim fastest, so neighbouring threads touch neighbouring
 * elements (coalesced accesses) whatever the op's rank; each thread
 * delinearizes its index and runs the loop body once, under a bounds
 * check. The block size is chosen per loop: 256 threads, fewer (a multiple
 * of the warp size) for small loops. Host code that is not a loop (a 0-d
 * op's loads and stores, a loop over reduction dims only) is wrapped into a
 * one-thread grid, because every buffer lives in device memory.
 *
 * The loops keep `mapping` attributes for convert-parallel-loops-to-gpu,
 * which turns them into gpu.launch ops. */
#include "kiln/passes.h"

#include <stdio.h>
#include <string.h>

#include "dialects/common/diag.h"
#include "dialects/common/op_list.h"
#include "dialects/linalg/transforms/gpu_util.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/IR.h"

enum { kOptThreads, kNumOptions };

enum { kWarp = 32, kMaxDims = 16 };

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static MlirAttribute mappingAttr(MlirContext ctx, const char *processor) {
  char text[160];
  snprintf(text, sizeof(text),
           "[#gpu.loop_dim_map<processor = %s, map = (d0) -> (d0), "
           "bound = (d0) -> (d0)>]",
           processor);
  return mlirAttributeParseGet(ctx, str(text));
}

/* Inserts `scf.parallel (%i) = (0) to (ub) step (1)` mapped to
 * `processor` before `before`; returns the loop. Its body holds only the
 * scf.reduce terminator. */
static MlirOperation insertMappedLoop(MlirOperation before, int64_t ub,
                                      const char *processor) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirLocation loc = mlirOperationGetLocation(before);
  MlirValue bounds[3] = {kilnGpuIndexConstant(before, 0),
                         kilnGpuIndexConstant(before, ub),
                         kilnGpuIndexConstant(before, 1)};
  MlirType index = mlirIndexTypeGet(ctx);
  MlirBlock body = mlirBlockCreate(1, &index, &loc);
  MlirOperationState reduce = mlirOperationStateGet(str("scf.reduce"), loc);
  mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&reduce));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirNamedAttribute attrs[2] = {
      kilnGpuSegmentsAttr(ctx, 4, (const int32_t[]){1, 1, 1, 0}),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, str("mapping")),
                            mappingAttr(ctx, processor))};
  MlirOperationState st = mlirOperationStateGet(str("scf.parallel"), loc);
  mlirOperationStateAddOperands(&st, 3, bounds);
  mlirOperationStateAddAttributes(&st, 2, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation loop = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before,
                                      loop);
  return loop;
}

static MlirBlock loopBody(MlirOperation loop) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(loop, 0));
}

/* A grid of `blocks` × `threads` before `before`. Returns the innermost
 * block's terminator (insert the thread's work before it) and the linear
 * thread index in *linear. */
static MlirOperation insertGrid(MlirOperation before, int64_t blocks,
                                int64_t threads, MlirValue *linear) {
  MlirOperation outer = insertMappedLoop(before, blocks, "block_x");
  MlirOperation outerEnd = mlirBlockGetTerminator(loopBody(outer));
  MlirOperation inner = insertMappedLoop(outerEnd, threads, "thread_x");
  MlirOperation end = mlirBlockGetTerminator(loopBody(inner));
  MlirValue b = mlirBlockGetArgument(loopBody(outer), 0);
  MlirValue t = mlirBlockGetArgument(loopBody(inner), 0);
  MlirType index = mlirValueGetType(b);
  MlirValue mulOps[2] = {b, kilnGpuIndexConstant(end, threads)};
  MlirValue scaled = mlirOperationGetResult(
      kilnGpuInsertOp(end, "arith.muli", 2, mulOps, 1, &index, 0, NULL), 0);
  MlirValue addOps[2] = {scaled, t};
  *linear = mlirOperationGetResult(
      kilnGpuInsertOp(end, "arith.addi", 2, addOps, 1, &index, 0, NULL), 0);
  return end;
}

/* `scf.if (linear < total) {}` before `before`; returns its then-block's
 * terminator. */
static MlirOperation insertBoundsCheck(MlirOperation before, MlirValue linear,
                                       int64_t total) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirLocation loc = mlirOperationGetLocation(before);
  MlirValue cmpOps[2] = {linear, kilnGpuIndexConstant(before, total)};
  MlirType i1 = mlirIntegerTypeGet(ctx, 1);
  MlirNamedAttribute pred = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, str("predicate")),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 6 /* ult */));
  MlirValue cond = mlirOperationGetResult(
      kilnGpuInsertOp(before, "arith.cmpi", 2, cmpOps, 1, &i1, 1, &pred), 0);
  MlirBlock then = mlirBlockCreate(0, NULL, NULL);
  MlirOperationState yield = mlirOperationStateGet(str("scf.yield"), loc);
  MlirOperation end = mlirOperationCreate(&yield);
  mlirBlockAppendOwnedOperation(then, end);
  MlirRegion regions[2] = {mlirRegionCreate(), mlirRegionCreate()};
  mlirRegionAppendOwnedBlock(regions[0], then);
  MlirOperationState st = mlirOperationStateGet(str("scf.if"), loc);
  mlirOperationStateAddOperands(&st, 1, &cond);
  mlirOperationStateAddOwnedRegions(&st, 2, regions);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(before), before,
                                      mlirOperationCreate(&st));
  return end;
}

/* The constant value of an index operand, false if it is not one. */
static bool constantIndex(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!kilnGpuOpIs(def, "arith.constant"))
    return false;
  MlirAttribute value = mlirOperationGetAttributeByName(def, str("value"));
  if (!mlirAttributeIsAInteger(value))
    return false;
  *out = mlirIntegerAttrGetValueInt(value);
  return true;
}

/* Moves every op of `from` but its terminator before `before`. */
static void moveBody(MlirBlock from, MlirOperation before) {
  MlirOperation op = mlirBlockGetFirstOperation(from);
  MlirOperation term = mlirBlockGetTerminator(from);
  while (!mlirOperationIsNull(op) && !mlirOperationEqual(op, term)) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationMoveBefore(op, before);
    op = next;
  }
}

static int64_t threadsFor(int64_t total, int64_t maxThreads) {
  int64_t t = (total + kWarp - 1) / kWarp * kWarp;
  return t < maxThreads ? t : maxThreads;
}

/* Maps one top-level scf.parallel; false after an error. */
static bool mapLoop(MlirOperation loop, int64_t maxThreads) {
  intptr_t n = mlirOperationGetNumOperands(loop) / 3;
  if (mlirOperationGetNumResults(loop) || n > kMaxDims ||
      mlirOperationGetNumOperands(loop) != 3 * n) {
    kilnEmitErrorf(mlirOperationGetLocation(loop),
                   "kiln-gpu-map-loops: parallel reductions cannot be mapped "
                   "to the GPU yet");
    return false;
  }
  int64_t lb[kMaxDims], step[kMaxDims], trips[kMaxDims], total = 1;
  for (intptr_t d = 0; d < n; ++d) {
    int64_t ub;
    if (!constantIndex(mlirOperationGetOperand(loop, d), &lb[d]) ||
        !constantIndex(mlirOperationGetOperand(loop, n + d), &ub) ||
        !constantIndex(mlirOperationGetOperand(loop, 2 * n + d), &step[d]) ||
        step[d] <= 0) {
      kilnEmitErrorf(mlirOperationGetLocation(loop),
                     "kiln-gpu-map-loops: a loop with dynamic bounds cannot "
                     "be mapped to the GPU yet");
      return false;
    }
    trips[d] = ub > lb[d] ? (ub - lb[d] + step[d] - 1) / step[d] : 0;
    total *= trips[d];
  }
  if (total == 0) {
    mlirOperationDestroy(loop);
    return true;
  }
  int64_t threads = threadsFor(total, maxThreads);
  MlirValue linear;
  MlirOperation end =
      insertGrid(loop, (total + threads - 1) / threads, threads, &linear);
  if (total % threads)
    end = insertBoundsCheck(end, linear, total);
  MlirBlock body = loopBody(loop);
  MlirType index = mlirValueGetType(linear);
  MlirValue rest = linear;
  for (intptr_t d = n - 1; d >= 0; --d) {
    MlirValue iv;
    if (trips[d] == 1) {
      iv = kilnGpuIndexConstant(end, lb[d]);
    } else {
      MlirValue tripCount = kilnGpuIndexConstant(end, trips[d]);
      MlirValue ops[2] = {rest, tripCount};
      iv = d ? mlirOperationGetResult(kilnGpuInsertOp(end, "arith.remui", 2,
                                                      ops, 1, &index, 0, NULL),
                                      0)
             : rest;
      if (d)
        rest = mlirOperationGetResult(
            kilnGpuInsertOp(end, "arith.divui", 2, ops, 1, &index, 0, NULL), 0);
      if (step[d] != 1) {
        MlirValue mul[2] = {iv, kilnGpuIndexConstant(end, step[d])};
        iv = mlirOperationGetResult(
            kilnGpuInsertOp(end, "arith.muli", 2, mul, 1, &index, 0, NULL), 0);
      }
      if (lb[d]) {
        MlirValue add[2] = {iv, kilnGpuIndexConstant(end, lb[d])};
        iv = mlirOperationGetResult(
            kilnGpuInsertOp(end, "arith.addi", 2, add, 1, &index, 0, NULL), 0);
      }
    }
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, d), iv);
  }
  moveBody(body, end);
  mlirOperationDestroy(loop);
  return true;
}

/* Ops that compute on buffer contents: outside a kernel they would read
 * device memory from the host. */
static bool isHostCompute(MlirOperation op) {
  static const char *const kNames[] = {"scf.for",      "scf.if",
                                       "scf.while",    "memref.load",
                                       "memref.store", "memref.atomic_rmw"};
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i)
    if (kilnGpuOpIs(op, kNames[i]))
      return true;
  return false;
}

/* Pure scalar ops that may sit between compute ops of one run. */
static bool isScalar(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  bool arith = name.length > 6 && !strncmp(name.data, "arith.", 6) &&
               !kilnGpuOpIs(op, "arith.constant");
  bool math = name.length > 5 && !strncmp(name.data, "math.", 5);
  return arith || math;
}

/* Whether a result of an op in [first, last] is used after `last`. */
static bool runEscapes(MlirOperation first, MlirOperation last) {
  for (MlirOperation op = first;; op = mlirOperationGetNextInBlock(op)) {
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r)
      for (MlirOpOperand u =
               mlirValueGetFirstUse(mlirOperationGetResult(op, r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
        MlirOperation user = mlirOpOperandGetOwner(u);
        /* Find the user's ancestor in the run's block. */
        MlirBlock block = mlirOperationGetBlock(first);
        while (!mlirOperationIsNull(user) &&
               !mlirBlockEqual(mlirOperationGetBlock(user), block))
          user = mlirOperationGetParentOperation(user);
        if (mlirOperationIsNull(user))
          return true;
        bool inside = false;
        for (MlirOperation o = first;; o = mlirOperationGetNextInBlock(o)) {
          if (mlirOperationEqual(o, user))
            inside = true;
          if (inside || mlirOperationEqual(o, last))
            break;
        }
        if (!inside)
          return true;
      }
    if (mlirOperationEqual(op, last))
      return false;
  }
}

/* Wraps the ops [first, last] of one block into a one-thread grid. */
static bool wrapRun(MlirOperation first, MlirOperation last) {
  if (runEscapes(first, last)) {
    kilnEmitErrorf(mlirOperationGetLocation(first),
                   "kiln-gpu-map-loops: host computation whose results are "
                   "used later cannot be moved to the GPU");
    return false;
  }
  MlirOperation after = mlirOperationGetNextInBlock(last);
  MlirValue linear;
  MlirOperation end = insertGrid(after, 1, 1, &linear);
  for (MlirOperation op = first;;) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    bool done = mlirOperationEqual(op, last);
    mlirOperationMoveBefore(op, end);
    if (done)
      break;
    op = next;
  }
  return true;
}

static bool mapBlock(MlirBlock block, int64_t maxThreads) {
  KilnOpList loops = {0};
  bool ok = true;
  MlirOperation runFirst = {NULL}, runLast = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op) && ok;) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (kilnGpuOpIs(op, "scf.parallel"))
      kilnOpListPush(&loops, op);
    bool compute = isHostCompute(op);
    if (compute || (!mlirOperationIsNull(runFirst) && isScalar(op))) {
      if (mlirOperationIsNull(runFirst))
        runFirst = op;
      if (compute)
        runLast = op;
    } else if (!mlirOperationIsNull(runFirst)) {
      ok = wrapRun(runFirst, runLast);
      runFirst = runLast = (MlirOperation){NULL};
    }
    op = next;
  }
  for (size_t i = 0; i < loops.len && ok; ++i)
    ok = mapLoop(loops.data[i], maxThreads);
  kilnOpListDestroy(&loops);
  return ok;
}

static void runMapLoops(MlirOperation func, MlirExternalPass pass,
                        const KilnPassOptionValue *options) {
  int64_t maxThreads = options[kOptThreads].i;
  if (maxThreads < 1 || maxThreads > 1024) {
    kilnEmitErrorf(mlirOperationGetLocation(func),
                   "kiln-gpu-map-loops: threads=%lld: must be in [1, 1024]",
                   (long long)maxThreads);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  bool ok = true;
  MlirRegion region = mlirOperationGetRegion(func, 0);
  for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b) && ok;
       b = mlirBlockGetNextInRegion(b))
    ok = mapBlock(b, maxThreads);
  if (!ok)
    mlirExternalPassSignalFailure(pass);
}

static const KilnPassOptionSpec kOptions[kNumOptions] = {
    [kOptThreads] = {"threads", KILN_PASS_OPTION_INT, "256",
                     "Threads per block for loops with at least that many "
                     "iterations (smaller loops: the iteration count rounded "
                     "up to a multiple of 32)"},
};

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__scf__, mlirGetDialectHandle__gpu__};

const KilnPassInfo kilnGpuMapLoopsPass = {
    .argument = "kiln-gpu-map-loops",
    .summary = "Map each top-level parallel loop onto a 1-D grid of GPU "
               "blocks and threads; host computation onto one thread",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runMapLoops,
    .dependentDialects = kDialects,
    .numDependentDialects = 2,
};

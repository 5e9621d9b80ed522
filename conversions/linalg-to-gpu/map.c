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

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kOptThreads, kNumOptions };

enum { kWarp = 32, kMaxDims = 16 };

static MlirAttribute mappingAttr(MlirContext ctx, const char *processor) {
  char text[160];
  snprintf(text, sizeof(text),
           "[#gpu.loop_dim_map<processor = %s, map = (d0) -> (d0), "
           "bound = (d0) -> (d0)>]",
           processor);
  return mlirAttributeParseGet(ctx, kilnStr(text));
}

/* Inserts `scf.parallel (%i) = (0) to (ub) step (1)` mapped to
 * `processor` before `before`; returns the loop. Its body holds only the
 * scf.reduce terminator. */
static MlirOperation insertMappedLoop(MlirOperation before, int64_t ub,
                                      const char *processor) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirLocation loc = mlirOperationGetLocation(before);
  MlirValue bounds[3] = {kilnInsertIndexConstant(before, 0),
                         kilnInsertIndexConstant(before, ub),
                         kilnInsertIndexConstant(before, 1)};
  MlirType index = mlirIndexTypeGet(ctx);
  MlirBlock body = mlirBlockCreate(1, &index, &loc);
  MlirOperationState reduce = mlirOperationStateGet(kilnStr("scf.reduce"), loc);
  mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&reduce));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirNamedAttribute attrs[2] = {
      kilnSegmentSizesAttr(ctx, 4, (const int32_t[]){1, 1, 1, 0}),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("mapping")),
                            mappingAttr(ctx, processor))};
  MlirOperationState st = mlirOperationStateGet(kilnStr("scf.parallel"), loc);
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
  MlirValue mulOps[2] = {b, kilnInsertIndexConstant(end, threads)};
  MlirValue scaled = mlirOperationGetResult(
      kilnInsertOp(end, "arith.muli", 2, mulOps, 1, &index, 0, NULL), 0);
  MlirValue addOps[2] = {scaled, t};
  *linear = mlirOperationGetResult(
      kilnInsertOp(end, "arith.addi", 2, addOps, 1, &index, 0, NULL), 0);
  return end;
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
    if (!kilnConstantIndexValue(mlirOperationGetOperand(loop, d), &lb[d]) ||
        !kilnConstantIndexValue(mlirOperationGetOperand(loop, n + d), &ub) ||
        !kilnConstantIndexValue(mlirOperationGetOperand(loop, 2 * n + d),
                                &step[d]) ||
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
    end = kilnInsertIfLess(end, linear, kilnInsertIndexConstant(end, total));
  MlirBlock body = loopBody(loop);
  MlirType index = mlirValueGetType(linear);
  MlirValue rest = linear;
  for (intptr_t d = n - 1; d >= 0; --d) {
    MlirValue iv;
    if (trips[d] == 1) {
      iv = kilnInsertIndexConstant(end, lb[d]);
    } else {
      MlirValue tripCount = kilnInsertIndexConstant(end, trips[d]);
      MlirValue ops[2] = {rest, tripCount};
      iv = d ? mlirOperationGetResult(
                   kilnInsertOp(end, "arith.remui", 2, ops, 1, &index, 0, NULL),
                   0)
             : rest;
      if (d)
        rest = mlirOperationGetResult(
            kilnInsertOp(end, "arith.divui", 2, ops, 1, &index, 0, NULL), 0);
      if (step[d] != 1) {
        MlirValue mul[2] = {iv, kilnInsertIndexConstant(end, step[d])};
        iv = mlirOperationGetResult(
            kilnInsertOp(end, "arith.muli", 2, mul, 1, &index, 0, NULL), 0);
      }
      if (lb[d]) {
        MlirValue add[2] = {iv, kilnInsertIndexConstant(end, lb[d])};
        iv = mlirOperationGetResult(
            kilnInsertOp(end, "arith.addi", 2, add, 1, &index, 0, NULL), 0);
      }
    }
    mlirValueReplaceAllUsesOfWith(mlirBlockGetArgument(body, d), iv);
  }
  kilnMoveBlockOpsBefore(body, end);
  mlirOperationDestroy(loop);
  return true;
}

/* Ops that write buffers or loop over them: outside a kernel they would
 * touch device memory from the host. */
static bool isHostCompute(MlirOperation op) {
  static const char *const kNames[] = {"scf.for", "scf.if", "scf.while",
                                       "memref.store", "memref.atomic_rmw"};
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i)
    if (kilnOpNameIs(op, kNames[i]))
      return true;
  return false;
}

/* Pure scalar ops, which may sit between the compute ops of one run: they
 * stay on the host (a kernel receives their values). */
static bool isScalar(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return (name.length > 6 && !strncmp(name.data, "arith.", 6)) ||
         (name.length > 5 && !strncmp(name.data, "math.", 5)) ||
         (name.length > 6 && !strncmp(name.data, "index.", 6));
}

/* Whether `op` (in `block`) is one of the run's compute ops `run`. */
static bool inRun(MlirOperation op, MlirBlock block, const KilnOpList *run) {
  while (!mlirOperationIsNull(op) &&
         !mlirBlockEqual(mlirOperationGetBlock(op), block))
    op = mlirOperationGetParentOperation(op);
  return !mlirOperationIsNull(op) && kilnOpListContains(run, op);
}

/* Moves the compute ops `run` (of one block, in order) into a one-thread
 * grid placed after the last; false after an error when one of their
 * results is used outside them. */
static bool wrapRun(const KilnOpList *run) {
  MlirBlock block = mlirOperationGetBlock(run->data[0]);
  for (size_t i = 0; i < run->len; ++i)
    for (intptr_t r = 0; r < mlirOperationGetNumResults(run->data[i]); ++r)
      for (MlirOpOperand u =
               mlirValueGetFirstUse(mlirOperationGetResult(run->data[i], r));
           !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
        if (!inRun(mlirOpOperandGetOwner(u), block, run)) {
          kilnEmitErrorf(mlirOperationGetLocation(run->data[i]),
                         "kiln-gpu-map-loops: host computation whose results "
                         "are used later cannot be moved to the GPU");
          return false;
        }
  MlirOperation after = mlirOperationGetNextInBlock(run->data[run->len - 1]);
  MlirValue linear;
  MlirOperation end = insertGrid(after, 1, 1, &linear);
  for (size_t i = 0; i < run->len; ++i)
    mlirOperationMoveBefore(run->data[i], end);
  return true;
}

/* A load on the host (of a scalar a later op needs: a loop bound, a
 * condition) reads a buffer the host cannot see: the element is copied by
 * a one-thread kernel into a scalar buffer, that buffer into a host one
 * (a copy marked like kiln-gpu-stage-io's), which the load then reads. */
static void loadThroughHost(MlirOperation load) {
  MlirContext ctx = mlirOperationGetContext(load);
  MlirValue result = mlirOperationGetResult(load, 0);
  MlirAttribute noLayout = mlirAttributeGetNull();
  MlirType scalar =
      mlirMemRefTypeGet(mlirValueGetType(result), 0, NULL, noLayout, noLayout);
  MlirNamedAttribute seg =
      kilnSegmentSizesAttr(ctx, 2, (const int32_t[]){0, 0});
  MlirOperation next = mlirOperationGetNextInBlock(load);
  MlirValue device = mlirOperationGetResult(
      kilnInsertOp(load, "memref.alloc", 0, NULL, 1, &scalar, 1, &seg), 0);
  MlirValue storeOps[2] = {result, device};
  MlirOperation store =
      kilnInsertOp(next, "memref.store", 2, storeOps, 0, NULL, 0, NULL);
  MlirValue host = mlirOperationGetResult(
      kilnInsertOp(next, "memref.alloca", 0, NULL, 1, &scalar, 1, &seg), 0);
  MlirValue copyOps[2] = {device, host};
  MlirNamedAttribute mark = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("kiln.gpu.transfer")),
      mlirUnitAttrGet(ctx));
  kilnInsertOp(next, "memref.copy", 2, copyOps, 0, NULL, 1, &mark);
  MlirValue hostValue = mlirOperationGetResult(
      kilnInsertOp(next, "memref.load", 1, &host, 1,
                   (MlirType[]){mlirValueGetType(result)}, 0, NULL),
      0);
  kilnInsertOp(next, "memref.dealloc", 1, &device, 0, NULL, 0, NULL);
  mlirValueReplaceAllUsesOfWith(result, hostValue);
  mlirOperationSetOperand(store, 0, result);
  /* The device-side load and store form their own run. */
  MlirValue linear;
  MlirOperation end =
      insertGrid(mlirOperationGetNextInBlock(store), 1, 1, &linear);
  mlirOperationMoveBefore(load, end);
  mlirOperationMoveBefore(store, end);
}

static MlirWalkResult findParallel(MlirOperation op, void *userData) {
  if (!kilnOpNameIs(op, "scf.parallel"))
    return MlirWalkResultAdvance;
  *(bool *)userData = true;
  return MlirWalkResultInterrupt;
}

/* Control flow around parallel loops (an ONNX Loop, Scan or If) stays on
 * the host; its body is mapped like the function's. */
static bool isHostControl(MlirOperation op) {
  if (!kilnOpNameIs(op, "scf.for") && !kilnOpNameIs(op, "scf.if") &&
      !kilnOpNameIs(op, "scf.while"))
    return false;
  bool found = false;
  mlirOperationWalk(op, findParallel, &found, MlirWalkPreOrder);
  return found;
}

static bool mapBlock(MlirBlock block, int64_t maxThreads);

static bool mapRegions(MlirOperation op, int64_t maxThreads) {
  bool ok = true;
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op) && ok; ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b) && ok; b = mlirBlockGetNextInRegion(b))
      ok = mapBlock(b, maxThreads);
  return ok;
}

static bool mapBlock(MlirBlock block, int64_t maxThreads) {
  KilnOpList loops = {0}, loads = {0}, run = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (kilnOpNameIs(op, "memref.load"))
      kilnOpListPush(&loads, op);
  for (size_t i = 0; i < loads.len; ++i)
    loadThroughHost(loads.data[i]);
  bool ok = true;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op) && ok;) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    /* (Not the one-thread grids loadThroughHost made above: mapped
     * already; mapping one again nests a second thread_x loop, which
     * convert-parallel-loops-to-gpu leaves on the host.) */
    if (kilnOpNameIs(op, "scf.parallel") &&
        mlirAttributeIsNull(
            mlirOperationGetAttributeByName(op, kilnStr("mapping"))))
      kilnOpListPush(&loops, op);
    bool control = isHostControl(op);
    if (control) {
      if (run.len)
        ok = wrapRun(&run);
      kilnOpListClear(&run);
      ok = ok && mapRegions(op, maxThreads);
    } else if (isHostCompute(op)) {
      kilnOpListPush(&run, op);
    } else if (run.len && !isScalar(op) &&
               !kilnOpNameIs(op, "arith.constant")) {
      ok = wrapRun(&run);
      kilnOpListClear(&run);
    }
    op = next;
  }
  for (size_t i = 0; i < loops.len && ok; ++i)
    ok = mapLoop(loops.data[i], maxThreads);
  kilnOpListDestroy(&loops);
  kilnOpListDestroy(&loads);
  kilnOpListDestroy(&run);
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
    mlirGetDialectHandle__scf__, mlirGetDialectHandle__gpu__,
    mlirGetDialectHandle__memref__};

const KilnPassInfo kilnGpuMapLoopsPass = {
    .argument = "kiln-gpu-map-loops",
    .summary = "Map each top-level parallel loop onto a 1-D grid of GPU "
               "blocks and threads; host computation onto one thread",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runMapLoops,
    .dependentDialects = kDialects,
    .numDependentDialects = 3,
};

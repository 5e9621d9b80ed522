/* kiln-memory-plan: the most heap memory one run of a public function
 * holds at once (memory_plan.h), so that a model whose buffers cannot fit
 * the machine is refused when it is loaded, with the figure, instead of
 * being killed for memory (or crashing on a failed allocation) midway.
 *
 * After one-shot bufferization and buffer-deallocation-pipeline every
 * buffer a function allocates is a memref.alloc, freed by a memref.dealloc
 * of that value:
 *
 *   %a = memref.alloc() : memref<1x64x112x112xf32>    live += 3.2 MB
 *   scf.forall (%i) in (8) {
 *     %t = memref.alloc() : memref<1x64x224xf32>      live += 8 x 57 KB
 *     ...
 *     memref.dealloc %t                               live -= 8 x 57 KB
 *   }
 *   memref.dealloc %a                                 live -= 3.2 MB
 *
 * Walking the function in program order, the plan is the largest `live`
 * seen. An allocation inside a parallel loop (a thread block's scratch)
 * counts once per iteration, as every iteration may run at once; one in a
 * sequential loop counts once (it is freed in its iteration). Allocations
 * of dynamic sizes have no size to count and are left out; the caller's
 * inputs and outputs are not the model's to allocate. The module gets the
 * largest plan of its public functions. */
#include "conversions/linalg-to-llvm-cpu/memory_plan.h"

#include <stdint.h>
#include <stdlib.h>

#include "kiln/passes.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/shape.h"

/* The buffers allocated and not yet freed, with the bytes each counts. */
typedef struct Live {
  MlirValue *values;
  int64_t *bytes;
  size_t count, capacity;
  int64_t total, peak;
} Live;

static int64_t saturatingMul(int64_t a, int64_t b) {
  return a && b > INT64_MAX / a ? INT64_MAX : a * b;
}

static int64_t saturatingAdd(int64_t a, int64_t b) {
  return a > INT64_MAX - b ? INT64_MAX : a + b;
}

/* The bytes of a statically shaped memref, -1 for a dynamic one. */
static int64_t memrefBytes(MlirType t) {
  if (!mlirTypeIsAMemRef(t) || !mlirShapedTypeHasStaticShape(t))
    return -1;
  return kilnShapedByteSize(t);
}

static void allocate(Live *l, MlirValue v, int64_t bytes) {
  if (l->count == l->capacity) {
    l->capacity = l->capacity ? 2 * l->capacity : 64;
    l->values = realloc(l->values, l->capacity * sizeof(*l->values));
    l->bytes = realloc(l->bytes, l->capacity * sizeof(*l->bytes));
    if (!l->values || !l->bytes)
      abort();
  }
  l->values[l->count] = v;
  l->bytes[l->count++] = bytes;
  l->total = saturatingAdd(l->total, bytes);
  if (l->total > l->peak)
    l->peak = l->total;
}

static void release(Live *l, MlirValue v) {
  for (size_t i = l->count; i-- > 0;) {
    if (!mlirValueEqual(l->values[i], v))
      continue;
    l->total -= l->bytes[i];
    l->values[i] = l->values[--l->count];
    l->bytes[i] = l->bytes[l->count];
    return;
  }
}

/* The iterations of an scf.forall with static bounds (1 otherwise: its
 * scratch then counts once). */
static int64_t forallIterations(MlirOperation op) {
  static const char *const kBounds[3] = {"staticLowerBound", "staticUpperBound",
                                         "staticStep"};
  MlirAttribute b[3];
  for (int i = 0; i < 3; ++i) {
    b[i] = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString(kBounds[i]));
    if (mlirAttributeIsNull(b[i]) || !mlirAttributeIsADenseI64Array(b[i]))
      return 1;
  }
  int64_t n = 1;
  for (intptr_t d = 0; d < mlirDenseArrayGetNumElements(b[0]); ++d) {
    int64_t lo = mlirDenseI64ArrayGetElement(b[0], d);
    int64_t hi = mlirDenseI64ArrayGetElement(b[1], d);
    int64_t step = mlirDenseI64ArrayGetElement(b[2], d);
    if (lo == INT64_MIN || hi == INT64_MIN || step <= 0 || hi <= lo)
      return 1; /* dynamic (kDynamic) or empty */
    n = saturatingMul(n, (hi - lo + step - 1) / step);
  }
  return n;
}

static void walkRegions(MlirOperation op, int64_t copies, Live *l);

static void walkOp(MlirOperation op, int64_t copies, Live *l) {
  if (kilnOpNameIs(op, "memref.alloc")) {
    MlirValue v = mlirOperationGetResult(op, 0);
    int64_t bytes = memrefBytes(mlirValueGetType(v));
    if (bytes >= 0)
      allocate(l, v, saturatingMul(bytes, copies));
  } else if (kilnOpNameIs(op, "memref.dealloc")) {
    release(l, mlirOperationGetOperand(op, 0));
  } else if (mlirOperationGetNumRegions(op)) {
    walkRegions(op,
                kilnOpNameIs(op, "scf.forall")
                    ? saturatingMul(copies, forallIterations(op))
                    : copies,
                l);
  }
}

static void walkRegions(MlirOperation op, int64_t copies, Live *l) {
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
        walkOp(o, copies, l);
}

static void runMemoryPlan(MlirOperation module, MlirExternalPass pass,
                          const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  int64_t plan = 0;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!kilnFuncIsPublicDefinition(f))
      continue;
    Live l = {0};
    walkRegions(f, 1, &l);
    if (l.peak > plan)
      plan = l.peak;
    free(l.values);
    free(l.bytes);
  }
  MlirContext ctx = mlirOperationGetContext(module);
  mlirOperationSetDiscardableAttributeByName(
      module, mlirStringRefCreateFromCString(KILN_MEMORY_PLAN_ATTR),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), plan));
}

const KilnPassInfo kilnMemoryPlanPass = {
    .argument = "kiln-memory-plan",
    .summary = "Record the most heap memory a run of the module holds at "
               "once (kiln.memory_plan)",
    .anchor = "builtin.module",
    .run = runMemoryPlan,
};

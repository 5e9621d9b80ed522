/* kiln-recompute-masks: a boolean elementwise op read by several linalg
 * ops is computed again in each of them (docs/cpu-codegen.md).
 *
 * The CPU schedules vectorize f32 and f64 tensors only, so a boolean
 * tensor in memory is written and read element by element. A boolean
 * elementwise op with one reader is fused into it by
 * linalg-fuse-elementwise-ops and never stored; one with several readers
 * is not (fusing would compute it twice). A mask is cheap to compute
 * twice: a causal mask `table[:T, :T] == 0` that CSE made one value for a
 * decoder's every layer was stored once and read by each layer's Where
 * lane by lane (0.12 ms a layer at 1 x 128, the decoder's largest kernel).
 *
 *   %m = linalg.generic {parallel..} ins(%t) outs(%e : tensor<..xi1>)
 *   %a = linalg.generic ins(%m, %x) ...      %a = linalg.generic ins(%m, %x)
 *   %b = linalg.generic ins(%m, %y) ...  ->  %m2 = (a copy of %m's op)
 *                                            %b = linalg.generic ins(%m2, %y)
 *
 * Candidates: linalg.generic ops with parallel loops only, one result of
 * i1 elements, no reads of their init in the body, whose every use is an
 * input of another linalg op. Every reader but one gets its own copy,
 * placed right before it. */
#include "kiln/diagnostics.h"
#include "kiln/passes.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kMaxLoops = 12 };

/* Whether `use`'s owner reads it as an input of a structured linalg op
 * (its first operand segment). */
static bool isLinalgInput(MlirOpOperand use) {
  MlirOperation user = mlirOpOperandGetOwner(use);
  if (!kilnOpNameStartsWith(user, "linalg."))
    return false;
  MlirAttribute segs =
      mlirOperationGetAttributeByName(user, kilnStr("operandSegmentSizes"));
  return !mlirAttributeIsNull(segs) && mlirAttributeIsADenseI32Array(segs) &&
         mlirDenseArrayGetNumElements(segs) == 2 &&
         mlirOpOperandGetOperandNumber(use) <
             (unsigned)mlirDenseI32ArrayGetElement(segs, 0);
}

/* Whether `op` is a candidate (file comment) with two or more readers. */
static bool isSharedMask(MlirOperation op) {
  char kinds[kMaxLoops + 1];
  if (!kilnOpNameIs(op, "linalg.generic") ||
      mlirOperationGetNumResults(op) != 1)
    return false;
  MlirAttribute iterators =
      mlirOperationGetAttributeByName(op, kilnStr("iterator_types"));
  intptr_t loops = mlirAttributeIsNull(iterators)
                       ? -1
                       : mlirArrayAttrGetNumElements(iterators);
  if (loops < 0 || loops > kMaxLoops ||
      !kilnLinalgIteratorKinds(op, kinds, loops))
    return false;
  for (intptr_t i = 0; i < loops; ++i)
    if (kinds[i] != 'p')
      return false;
  MlirValue result = mlirOperationGetResult(op, 0);
  MlirType t = mlirValueGetType(result);
  if (!mlirTypeIsARankedTensor(t))
    return false;
  MlirType e = mlirShapedTypeGetElementType(t);
  if (!mlirTypeIsAInteger(e) || mlirIntegerTypeGetWidth(e) != 1)
    return false;
  /* The body must not read the init (its last block argument). */
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  intptr_t n = mlirBlockGetNumArguments(body);
  if (n < 1 || !mlirOpOperandIsNull(
                   mlirValueGetFirstUse(mlirBlockGetArgument(body, n - 1))))
    return false;
  int readers = 0;
  for (MlirOpOperand u = mlirValueGetFirstUse(result); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    if (!isLinalgInput(u))
      return false;
    ++readers;
  }
  return readers > 1;
}

/* Gives every reader of `op`'s result but the first in its use list its
 * own copy. */
static void recompute(MlirOperation op) {
  MlirValue result = mlirOperationGetResult(op, 0);
  KilnOpList readers = {0};
  kilnOpListCollectUsers(&readers, result);
  for (size_t i = 1; i < readers.len; ++i) {
    MlirOperation reader = readers.data[i];
    if (mlirOperationEqual(reader, readers.data[0]) ||
        (i > 1 && mlirOperationEqual(reader, readers.data[i - 1])))
      continue; /* one reader, two operands: already given its copy */
    MlirOperation copy = mlirOperationClone(op);
    mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(reader), reader,
                                        copy);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(reader); ++k)
      if (mlirValueEqual(mlirOperationGetOperand(reader, k), result))
        mlirOperationSetOperand(reader, k, mlirOperationGetResult(copy, 0));
  }
  kilnOpListDestroy(&readers);
}

static void runRecomputeMasks(MlirOperation func, MlirExternalPass pass,
                              const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  KilnOpList generics = {0};
  kilnOpListCollectNamed(&generics, func, "linalg.generic", MlirWalkPreOrder);
  for (size_t i = 0; i < generics.len; ++i)
    if (isSharedMask(generics.data[i]))
      recompute(generics.data[i]);
  kilnOpListDestroy(&generics);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__linalg__,
};

const KilnPassInfo kilnRecomputeMasksPass = {
    .argument = "kiln-recompute-masks",
    .summary = "Compute a boolean elementwise op read by several linalg ops "
               "again in each reader, so each fuses it (booleans in memory "
               "are not vectorized)",
    .anchor = "func.func",
    .run = runRecomputeMasks,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

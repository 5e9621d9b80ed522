/* kiln-gpu-merge-kernels: one kernel module per model (docs/gpu-codegen.md).
 *
 * gpu-kernel-outlining makes a gpu.module per kernel, each holding a
 * gpu.func named like its function (`main_graph_kernel` in every one). Each
 * module becomes its own PTX module, which the driver JIT-compiles and
 * loads separately when the model loads: MobileNetV2 has 161. This pass
 * moves every kernel into the first module, renamed after the module it
 * came from (unique), and points each gpu.launch_func at its new name. Other
 * symbols the modules hold (functions outlined by convert-math-to-funcs,
 * the same in every module that has them) are moved once.
 *
 * It also aligns every kernel's workgroup buffers to 16 bytes (their
 * `llvm.align`, which convert-gpu-to-nvvm gives the buffer's global;
 * outlining leaves them at their element's alignment): ldmatrix reads
 * rows of 16 bytes. */
#include "kiln/passes.h"

#include <stdlib.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

static MlirStringRef symbolName(MlirOperation op) {
  MlirAttribute name = mlirOperationGetAttributeByName(op, kilnStr("sym_name"));
  return mlirAttributeIsAString(name) ? mlirStringAttrGetValue(name)
                                      : (MlirStringRef){NULL, 0};
}

static MlirBlock moduleBody(MlirOperation gpuModule) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(gpuModule, 0));
}

/* Whether `block` defines the symbol `name`. */
static bool defines(MlirBlock block, MlirStringRef name) {
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (mlirStringRefEqual(symbolName(op), name))
      return true;
  return false;
}

static bool isKernel(MlirOperation op) {
  return kilnOpNameIs(op, "gpu.func") &&
         !mlirAttributeIsNull(
             mlirOperationGetAttributeByName(op, kilnStr("gpu.kernel")));
}

/* The module's only kernel, or null when it has none or several. */
static MlirOperation onlyKernel(MlirOperation gpuModule) {
  MlirOperation kernel = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(moduleBody(gpuModule));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (isKernel(op)) {
      if (!mlirOperationIsNull(kernel))
        return (MlirOperation){NULL};
      kernel = op;
    }
  return kernel;
}

/* Moves `from`'s ops into `into` (before its terminator, if it has one).
 * Symbols `into` already defines are left behind (and erased with
 * `from`). */
static void moveContents(MlirOperation from, MlirOperation into) {
  MlirBlock src = moduleBody(from), dst = moduleBody(into);
  MlirOperation end = mlirBlockGetTerminator(dst);
  for (MlirOperation op = mlirBlockGetFirstOperation(src);
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    MlirStringRef name = symbolName(op);
    if (name.data && !defines(dst, name)) {
      mlirOperationRemoveFromParent(op);
      if (mlirOperationIsNull(end))
        mlirBlockAppendOwnedOperation(dst, op);
      else
        mlirBlockInsertOwnedOperationBefore(dst, end, op);
    }
    op = next;
  }
}

static void alignWorkgroupBuffers(MlirOperation kernel) {
  MlirAttribute count = mlirOperationGetAttributeByName(
      kernel, kilnStr("workgroup_attributions"));
  if (!mlirAttributeIsAInteger(count) || mlirIntegerAttrGetValueInt(count) <= 0)
    return;
  intptr_t n = (intptr_t)mlirIntegerAttrGetValueInt(count);
  MlirContext ctx = mlirOperationGetContext(kernel);
  MlirNamedAttribute align = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("llvm.align")),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 16));
  MlirAttribute dict = mlirDictionaryAttrGet(ctx, 1, &align);
  MlirAttribute *each = malloc((size_t)n * sizeof(*each));
  if (!each)
    return;
  for (intptr_t i = 0; i < n; ++i)
    each[i] = dict;
  mlirOperationSetAttributeByName(kernel, kilnStr("workgroup_attrib_attrs"),
                                  mlirArrayAttrGet(ctx, n, each));
  free(each);
}

static MlirWalkResult collectLaunches(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "gpu.module"))
    return MlirWalkResultSkip;
  if (kilnOpNameIs(op, "gpu.launch_func"))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* Points `launch` (@M::@kernel) at @target::@M. */
static void retarget(MlirOperation launch, MlirStringRef target) {
  MlirContext ctx = mlirOperationGetContext(launch);
  MlirAttribute kernel =
      mlirOperationGetAttributeByName(launch, kilnStr("kernel"));
  MlirStringRef module = mlirSymbolRefAttrGetRootReference(kernel);
  MlirAttribute nested = mlirFlatSymbolRefAttrGet(ctx, module);
  mlirOperationSetAttributeByName(
      launch, kilnStr("kernel"), mlirSymbolRefAttrGet(ctx, target, 1, &nested));
}

static void runMergeKernels(MlirOperation module, MlirExternalPass pass,
                            const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  MlirBlock body = mlirModuleGetBody(mlirModuleFromOperation(module));
  KilnOpList modules = {0}, launches = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (kilnOpNameIs(op, "gpu.module")) {
      kilnOpListPush(&modules, op);
      for (MlirOperation k = mlirBlockGetFirstOperation(moduleBody(op));
           !mlirOperationIsNull(k); k = mlirOperationGetNextInBlock(k))
        if (isKernel(k))
          alignWorkgroupBuffers(k);
    }
  /* Each kernel is renamed after its module (unique); a module with
   * several kernels (not what outlining makes) leaves everything as it is. */
  bool mergeable = modules.len > 1;
  for (size_t i = 0; i < modules.len && mergeable; ++i)
    mergeable = !mlirOperationIsNull(onlyKernel(modules.data[i]));
  if (mergeable) {
    MlirContext ctx = mlirOperationGetContext(module);
    for (size_t i = 0; i < modules.len; ++i)
      mlirOperationSetAttributeByName(
          onlyKernel(modules.data[i]), kilnStr("sym_name"),
          mlirStringAttrGet(ctx, symbolName(modules.data[i])));
    MlirOperation into = modules.data[0];
    mlirOperationWalk(module, collectLaunches, &launches, MlirWalkPreOrder);
    MlirStringRef target = symbolName(into);
    for (size_t i = 0; i < launches.len; ++i)
      retarget(launches.data[i], target);
    for (size_t i = 1; i < modules.len; ++i) {
      moveContents(modules.data[i], into);
      mlirOperationDestroy(modules.data[i]);
    }
  }
  kilnOpListDestroy(&modules);
  kilnOpListDestroy(&launches);
}

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__gpu__};

const KilnPassInfo kilnGpuMergeKernelsPass = {
    .argument = "kiln-gpu-merge-kernels",
    .summary = "Move every outlined GPU kernel into one gpu.module (one PTX "
               "module per model), its workgroup buffers 16-byte aligned",
    .anchor = "builtin.module",
    .run = runMergeKernels,
    .dependentDialects = kDialects,
    .numDependentDialects = 1,
};

/* Running a lowered module with MLIR's ExecutionEngine.
 *
 * After buffer-results-to-out-params the entry is
 *   void _mlir_ciface_ENTRY(MemRef *in0, ..., MemRef *out0, ...)
 * with MemRef = {T *allocated, *aligned; int64_t offset, sizes[R],
 * strides[R]} (rank 0: no sizes or strides). The runtime's tensors are
 * dense and row-major, so each descriptor points at a tensor's data with
 * offset 0 and contiguous strides. */
#include "tools/kiln-run/execute.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "conversions/graph-to-linalg/runtime_checks.h"
#include "dialects/common/diag.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/ExecutionEngine.h"
#include "pipelines/memory_plan.h"
#include "runtime/model.h"
#include "runtime/model_abi.h"
#include "tools/kiln-run/options.h"

/* A descriptor of `t` (runtime/model_abi.h), malloc'd. */
static KilnMemRefDesc *descCreate(KilnTensor *t) {
  int64_t rank = kilnTensorGetRank(t);
  KilnMemRefDesc *d = malloc(kilnMemRefDescSize(rank));
  if (!d)
    abort();
  kilnMemRefDescFill(d, kilnTensorGetData(t), rank, kilnTensorGetDims(t));
  return d;
}

/* Whether the run passed kiln-runtime-checks' checks (runtime_checks.h):
 * otherwise prints the failed check's message. */
static bool checksPassed(MlirModule module, MlirExecutionEngine jit) {
  const int32_t *status = mlirExecutionEngineLookup(
      jit, mlirStringRefCreateFromCString(KILN_CHECK_STATUS_SYMBOL));
  if (!status || *status == 0)
    return true;
  MlirAttribute messages = mlirOperationGetDiscardableAttributeByName(
      mlirModuleGetOperation(module),
      mlirStringRefCreateFromCString(KILN_RUNTIME_CHECKS_ATTR));
  intptr_t i = *status - 1;
  bool known = !mlirAttributeIsNull(messages) &&
               mlirAttributeIsAArray(messages) && i >= 0 &&
               i < mlirArrayAttrGetNumElements(messages);
  KilnStrBuf text = {0};
  if (known) {
    MlirStringRef m =
        mlirStringAttrGetValue(mlirArrayAttrGetElement(messages, i));
    kilnStrBufAppend(&text, m.data, m.length);
  }
  KilnStatus *s =
      kilnModelCheckFailure(*status, known ? kilnStrBufGet(&text) : NULL);
  kilnRunError("%s", kilnStatusGetMessage(s));
  kilnStatusDestroy(s);
  kilnStrBufDestroy(&text);
  return false;
}

/* Whether the module's memory plan (pipelines/memory_plan.h) fits this
 * machine, as the runtime checks a model library's at load; otherwise
 * prints why. */
static bool memoryPlanFits(MlirModule module) {
  MlirAttribute plan = mlirOperationGetDiscardableAttributeByName(
      mlirModuleGetOperation(module),
      mlirStringRefCreateFromCString(KILN_MEMORY_PLAN_ATTR));
  if (mlirAttributeIsNull(plan) || !mlirAttributeIsAInteger(plan))
    return true;
  KilnStatus *s = kilnModelCheckMemoryPlan(mlirIntegerAttrGetValueInt(plan));
  if (s)
    kilnRunError("%s", kilnStatusGetMessage(s));
  kilnStatusDestroy(s);
  return !s;
}

bool kilnRunInvoke(MlirModule module, const char *entry, const char *libompPath,
                   KilnTensor *const *inputs, int numInputs,
                   KilnTensor *const *outputs, int numOutputs) {
  if (!memoryPlanFits(module))
    return false;
  MlirStringRef libs[1];
  int numLibs = 0;
  if (libompPath)
    libs[numLibs++] = mlirStringRefCreateFromCString(libompPath);
  MlirExecutionEngine jit =
      mlirExecutionEngineCreate(module, /*optLevel=*/2, numLibs, libs,
                                /*enableObjectDump=*/false,
                                /*enablePIC=*/false);
  if (mlirExecutionEngineIsNull(jit)) {
    fprintf(stderr, "kiln-run: error: the JIT could not compile the "
                    "lowered module\n");
    return false;
  }
  int n = numInputs + numOutputs;
  KilnMemRefDesc **descs = calloc((size_t)(n ? n : 1), sizeof(*descs));
  void **args = calloc((size_t)(n ? n : 1), sizeof(*args));
  if (!descs || !args)
    abort();
  for (int i = 0; i < n; ++i) {
    descs[i] = descCreate(i < numInputs ? inputs[i] : outputs[i - numInputs]);
    args[i] = &descs[i]; /* packed: a pointer to each argument */
  }
  bool ok = mlirLogicalResultIsSuccess(mlirExecutionEngineInvokePacked(
      jit, mlirStringRefCreateFromCString(entry), args));
  if (!ok)
    fprintf(stderr,
            "kiln-run: error: cannot call '_mlir_ciface_%s' in the "
            "compiled module\n",
            entry);
  else
    ok = checksPassed(module, jit);
  for (int i = 0; i < n; ++i)
    free(descs[i]);
  free(descs);
  free(args);
  mlirExecutionEngineDestroy(jit);
  return ok;
}

/* libFuzzer harness: MLIR text -> parse -> graph-verify -> a graph pipeline.
 *
 * Mirrors what kiln-opt does with an input file, minus the printing of
 * diagnostics: bad input must end in a failure, never in a crash, a hang or
 * a sanitizer report. One context serves every input (creating one costs
 * tens of milliseconds); each input's module is destroyed after use.
 *
 * Environment switches for a run:
 *   KILN_FUZZ_STRICT=1        also trap when the pipeline fails on a module
 *                             that parsed and passed graph-verify: Kiln's
 *                             passes should not produce IR the verifier
 *                             rejects.
 *   KILN_FUZZ_UNREGISTERED=1  accept unknown ops (kiln-opt's
 *                             --allow-unregistered-dialect), so graph ops
 *                             meet regions and side effects of every kind. */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/verify.h"
#include "kiln/kiln.h"
#include "kiln/passes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char kPipeline[] =
    "builtin.module(func.func(graph-verify,graph-cse,canonicalize),graph-dce)";

static MlirContext ctx;
static MlirPassManager pm;
static bool strict;

static MlirLogicalResult swallowDiagnostic(MlirDiagnostic d, void *userData) {
  (void)d;
  (void)userData;
  return mlirLogicalResultSuccess();
}

/* Exercises the printer on the result without keeping the text. */
static void discardText(MlirStringRef text, void *userData) {
  *(size_t *)userData += text.length;
}

static bool envIsOn(const char *name) {
  const char *value = getenv(name);
  return value && value[0] == '1';
}

/* Sets up the context and the pass manager once; traps if that fails, since
 * nothing could be fuzzed. */
static void initialize(void) {
  ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx))
    __builtin_trap();
  /* One thread: runs are deterministic and the 2-core machine stays free
   * for the fuzzer itself. */
  mlirContextEnableMultithreading(ctx, false);
  mlirContextAttachDiagnosticHandler(ctx, swallowDiagnostic, NULL, NULL);
  MlirStringRef anchor = mlirStringRefCreateFromCString("builtin.module");
  pm = mlirPassManagerCreateOnOperation(ctx, anchor);
  if (mlirLogicalResultIsFailure(kilnPipelineAppend(
          mlirPassManagerGetAsOpPassManager(pm), anchor,
          mlirStringRefCreate(kPipeline, sizeof(kPipeline) - 1), NULL, NULL)))
    __builtin_trap();
  strict = envIsOn("KILN_FUZZ_STRICT");
  mlirContextSetAllowUnregisteredDialects(ctx,
                                          envIsOn("KILN_FUZZ_UNREGISTERED"));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (mlirContextIsNull(ctx))
    initialize();
  /* The parser wants the bytes it reads to stay put; libFuzzer's buffer is
   * exactly `size` bytes with no terminator, so copy and terminate it. */
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(text, size));
  if (mlirModuleIsNull(module))
    goto done;
  MlirOperation op = mlirModuleGetOperation(module);
  if (mlirLogicalResultIsFailure(kilnGraphVerify(op)))
    goto destroy;
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op))) {
    if (strict)
      __builtin_trap();
    goto destroy;
  }
  size_t printed = 0;
  mlirOperationPrint(op, discardText, &printed);
destroy:
  mlirModuleDestroy(module);
done:
  free(text);
  return 0;
}

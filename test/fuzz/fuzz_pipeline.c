/* libFuzzer harness: arbitrary text -> kilnPipelineAppend.
 *
 * Kiln's pipeline parser takes user text (kiln-opt --pass-pipeline) and
 * hands upstream elements to MLIR verbatim; neither step may crash on bad
 * text. The pipeline is built, not run. */
#include <stdint.h>
#include <stdlib.h>

#include "kiln/kiln.h"
#include "kiln/passes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static MlirContext ctx;

static MlirLogicalResult swallowDiagnostic(MlirDiagnostic d, void *userData) {
  (void)d;
  (void)userData;
  return mlirLogicalResultSuccess();
}

/* Reads the whole error message, as kiln-opt would print it. */
static void countError(MlirStringRef msg, void *userData) {
  *(size_t *)userData += msg.length;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (mlirContextIsNull(ctx)) {
    ctx = kilnContextCreate();
    if (mlirContextIsNull(ctx))
      __builtin_trap();
    mlirContextEnableMultithreading(ctx, false);
    mlirContextAttachDiagnosticHandler(ctx, swallowDiagnostic, NULL, NULL);
  }
  MlirStringRef anchor = mlirStringRefCreateFromCString("builtin.module");
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, anchor);
  size_t errorLength = 0;
  /* The parser takes a length, so libFuzzer's unterminated bytes do. */
  kilnPipelineAppend(mlirPassManagerGetAsOpPassManager(pm), anchor,
                     mlirStringRefCreate((const char *)data, size), countError,
                     &errorLength);
  mlirPassManagerDestroy(pm);
  return 0;
}

/* libFuzzer harness: bytes -> kilnOnnxImportBuffer -> verify -> print.
 *
 * Does what kiln-compile --emit=graph does with a model file, minus the
 * diagnostics: protobuf decoding, the opset checks, initializer and
 * attribute conversion, op creation and shape inference, then MLIR's
 * verifier and graph-verify over the result. A corrupt or hostile model
 * must end in a null module or a failed verification, never in a crash, a
 * hang, a huge allocation or a sanitizer report. One context serves every
 * input; each input's module is destroyed after use. */
#include <stdint.h>
#include <stdlib.h>

#include "dialects/graph/verify.h"
#include "kiln/kiln.h"
#include "kiln/onnx.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static MlirContext ctx;

static MlirLogicalResult swallowDiagnostic(MlirDiagnostic d, void *userData) {
  (void)d;
  (void)userData;
  return mlirLogicalResultSuccess();
}

/* Exercises the printer on the result without keeping the text. */
static void discardText(MlirStringRef text, void *userData) {
  *(size_t *)userData += text.length;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (mlirContextIsNull(ctx)) {
    ctx = kilnContextCreate();
    if (mlirContextIsNull(ctx))
      __builtin_trap();
    /* One thread: runs are deterministic and the 2-core machine stays free
     * for the fuzzer itself. */
    mlirContextEnableMultithreading(ctx, false);
    mlirContextAttachDiagnosticHandler(ctx, swallowDiagnostic, NULL, NULL);
  }
  MlirModule module = kilnOnnxImportBuffer(ctx, data, size, "fuzz.onnx");
  if (mlirModuleIsNull(module))
    return 0;
  MlirOperation op = mlirModuleGetOperation(module);
  if (mlirOperationVerify(op) &&
      mlirLogicalResultIsSuccess(kilnGraphVerify(op))) {
    size_t printed = 0;
    mlirOperationPrint(op, discardText, &printed);
  }
  mlirModuleDestroy(module);
  return 0;
}

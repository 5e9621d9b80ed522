/* libFuzzer harness: kiln-opt --split-input-file --verify-diagnostics.
 *
 * The annotation scanner (expected-error@+1 {{...}}, -re patterns) and the
 * input splitter read the raw test file, comments included, so they see
 * text no MLIR parser has checked. Per input: split, then for each chunk
 * scan annotations, parse, run graph-verify, and match diagnostics. Finish
 * prints mismatches to stderr: run with -close_fd_mask=2 to keep logs
 * small, and reproduce artifacts without it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/verify.h"
#include "kiln/kiln.h"
#include "mlir-c/IR.h"
#include "tools/kiln-opt/split_input.h"
#include "tools/kiln-opt/verify_diagnostics.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static MlirContext ctx;

static void checkChunk(const KilnInputChunk *chunk) {
  KilnDiagVerifier *v = kilnDiagVerifierCreate("fuzz.mlir", chunk->data,
                                               chunk->length, chunk->firstLine);
  if (!v)
    return;
  MlirDiagnosticHandlerID id = kilnDiagVerifierAttach(v, ctx);
  MlirModule module = mlirModuleCreateParse(
      ctx, mlirStringRefCreate(chunk->data, chunk->length));
  if (!mlirModuleIsNull(module)) {
    kilnGraphVerify(mlirModuleGetOperation(module));
    mlirModuleDestroy(module);
  }
  mlirContextDetachDiagnosticHandler(ctx, id);
  kilnDiagVerifierFinish(v);
  kilnDiagVerifierDestroy(v);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (mlirContextIsNull(ctx)) {
    ctx = kilnContextCreate();
    if (mlirContextIsNull(ctx))
      __builtin_trap();
    mlirContextEnableMultithreading(ctx, false);
  }
  /* Copy so that reads past `size` are caught and the bytes are stable. */
  char *text = malloc(size + 1);
  if (!text)
    return 0;
  memcpy(text, data, size);
  text[size] = '\0';
  KilnInputChunk *chunks = NULL;
  intptr_t n = kilnSplitInput(text, size, NULL, &chunks);
  for (intptr_t i = 0; i < n; ++i)
    checkChunk(&chunks[i]);
  free(chunks);
  free(text);
  return 0;
}

/* Creating MLIR contexts set up for Kiln. */
#include "kiln/kiln.h"

#include <threads.h>

#include "kiln/graph.h"
#include "kiln/passes.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/RegisterEverything.h"

const char *kilnGetVersion(void) { return KILN_VERSION_STRING; }

static once_flag upstreamPassesOnce = ONCE_FLAG_INIT;

static void registerUpstreamPassesOnce(void) { mlirRegisterAllPasses(); }

void kilnRegisterUpstreamPasses(void) {
  call_once(&upstreamPassesOnce, registerUpstreamPassesOnce);
}

MlirContext kilnContextCreate(void) {
  kilnRegisterUpstreamPasses();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx =
      mlirContextCreateWithRegistry(registry, /*threadingEnabled=*/true);
  mlirDialectRegistryDestroy(registry);
  /* gpu-module-to-binary translates kernels to LLVM IR inside a pass. */
  mlirRegisterAllLLVMTranslations(ctx);
  /* Loading every dialect costs time and memory; load only what Kiln's
   * IR always contains. Other dialects load on demand when parsed. */
  mlirDialectHandleLoadDialect(mlirGetDialectHandle__func__(), ctx);
  if (mlirLogicalResultIsFailure(kilnGraphDialectLoad(ctx))) {
    mlirContextDestroy(ctx);
    return (MlirContext){NULL};
  }
  return ctx;
}

void kilnContextDestroy(MlirContext ctx) {
  if (!mlirContextIsNull(ctx))
    mlirContextDestroy(ctx);
}

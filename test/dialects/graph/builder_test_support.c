/* Set-up shared by the typed-builder unit tests; see the header. */
#include "builder_test_support.h"

#include <stdio.h>
#include <stdlib.h>

#include "kiln/kiln.h"
#include "mlir-c/Diagnostics.h"

static void printToStderr(MlirStringRef s, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s", (int)s.length, s.data);
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  fprintf(stderr, "diagnostic: ");
  mlirLocationPrint(mlirDiagnosticGetLocation(d), printToStderr, NULL);
  fprintf(stderr, ": ");
  mlirDiagnosticPrint(d, printToStderr, NULL);
  fprintf(stderr, "\n");
  return mlirLogicalResultSuccess();
}

MlirContext kilnTestContextCreate(void) {
  MlirContext ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx)) {
    fprintf(stderr, "kilnContextCreate failed\n");
    return ctx;
  }
  /* Destroying the context drops the handler: no detach needed. */
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  return ctx;
}

void kilnTestContextDestroy(MlirContext ctx) { kilnContextDestroy(ctx); }

KilnTestFixture kilnTestBegin(MlirContext ctx, const char *name,
                              const char *args, const char *body) {
  fprintf(stderr, "TEST: %s\n", name);
  char text[2048];
  int len =
      snprintf(text, sizeof(text), "func.func @%s(%s) {\n%s\nfunc.return }",
               name, args, body ? body : "");
  KilnTestFixture f = {ctx, {NULL}, {NULL}, NULL};
  if (len < 0 || (size_t)len >= sizeof(text)) {
    fprintf(stderr, "test %s: function text too long\n", name);
    abort();
  }
  f.module = mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(f.module)) {
    fprintf(stderr, "test %s: the function does not parse\n", name);
    abort();
  }
  MlirOperation func = mlirBlockGetFirstOperation(mlirModuleGetBody(f.module));
  f.body = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirLocation loc = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString("model.onnx"), 3, 1);
  f.b = kilnGraphBuilderCreate(ctx, f.body, loc);
  kilnGraphBuilderSetInsertionPointBefore(f.b, mlirBlockGetTerminator(f.body));
  return f;
}

MlirValue kilnTestArg(const KilnTestFixture *f, intptr_t i) {
  return mlirBlockGetArgument(f->body, i);
}

void kilnTestPrintType(MlirValue v) {
  if (mlirValueIsNull(v))
    fprintf(stderr, "null");
  else
    mlirTypePrint(mlirValueGetType(v), printToStderr, NULL);
}

void kilnTestShow(const char *label, MlirValue v) {
  fprintf(stderr, "%s: ", label);
  kilnTestPrintType(v);
  fprintf(stderr, "\n");
}

static intptr_t countOps(MlirBlock block) {
  intptr_t n = 0;
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    ++n;
  return n;
}

void kilnTestEnd(KilnTestFixture *f, unsigned flags) {
  MlirOperation m = mlirModuleGetOperation(f->module);
  if (flags & KILN_TEST_PRINT_OPS)
    fprintf(stderr, "ops: %ld\n", (long)countOps(f->body));
  fprintf(stderr, "verify: %s\n",
          mlirOperationVerify(m) ? "success" : "failure");
  if (flags & KILN_TEST_PRINT_MODULE) {
    mlirOperationPrint(m, printToStderr, NULL);
    fprintf(stderr, "\n");
  }
  kilnGraphBuilderDestroy(f->b);
  mlirModuleDestroy(f->module);
}

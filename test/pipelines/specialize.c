/* Tests of kilnModuleMergeSpecialized (pipelines/backend/specialize.c) on
 * small LLVM-dialect modules; specialize.test checks what each TEST
 * prints. The weights are 4 KiB resources whose bytes the test registers
 * (support/resource_data.h), as the lowering registers a model's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/compile.h"
#include "kiln/kiln.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "support/resource_data.h"

enum { kWeight = 1024 }; /* f32 elements: 4 KiB */

/* Three weights' bytes: A, B and C. */
static float gBytes[3][kWeight];

static void printOut(MlirStringRef s, void *userData) {
  fwrite(s.data, 1, s.length, (FILE *)userData);
}

static MlirModule parse(MlirContext ctx, const char *text) {
  MlirModule m =
      mlirModuleCreateParse(ctx, mlirStringRefCreateFromCString(text));
  if (mlirModuleIsNull(m)) {
    fprintf(stderr, "cannot parse:\n%s\n", text);
    exit(1);
  }
  return m;
}

/* Registers the bytes of each weight global of `m`: a global's `kiln.bytes`
 * attribute says which of gBytes (0 = A, 1 = B, 2 = C). */
static void registerWeights(MlirModule m) {
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute which = mlirOperationGetDiscardableAttributeByName(
        op, mlirStringRefCreateFromCString("kiln.bytes"));
    if (mlirAttributeIsNull(which))
      continue;
    MlirAttribute value = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("value"));
    kilnResourceDataRegister(value, gBytes[mlirIntegerAttrGetValueInt(which)],
                             sizeof(gBytes[0]));
  }
}

static KilnModelSignature *signature(MlirContext ctx, const char *type) {
  char text[512];
  snprintf(text, sizeof(text),
           "func.func @main_graph(%%x: %s) -> %s {\n"
           "  return %%x : %s\n"
           "}\n",
           type, type, type);
  MlirModule m = parse(ctx, text);
  KilnModelSignature *s = kilnModelSignatureCreate(m);
  mlirModuleDestroy(m);
  return s;
}

/* A lowered module: the weight globals `globals` (text), a function per
 * use (`uses`: "NAME:GLOBAL,..."), malloc, a status word and the C
 * interface entry; `attrs` are the module's attributes. */
static MlirModule lowered(MlirContext ctx, const char *attrs,
                          const char *globals, const char *uses) {
  char text[8192];
  int n = snprintf(text, sizeof(text), "module attributes {%s} {\n%s", attrs,
                   globals);
  char copy[512];
  snprintf(copy, sizeof(copy), "%s", uses);
  for (char *use = strtok(copy, ","); use; use = strtok(NULL, ",")) {
    char *colon = strchr(use, ':');
    *colon = '\0';
    n += snprintf(text + n, sizeof(text) - (size_t)n,
                  "  llvm.func @%s() -> !llvm.ptr {\n"
                  "    %%0 = llvm.mlir.addressof @%s : !llvm.ptr\n"
                  "    llvm.return %%0 : !llvm.ptr\n"
                  "  }\n",
                  use, colon + 1);
  }
  snprintf(text + n, sizeof(text) - (size_t)n,
           "  llvm.func @malloc(i64) -> !llvm.ptr\n"
           "  llvm.mlir.global external @kiln_check_status(0 : i32) : i32\n"
           "  llvm.func @_mlir_ciface_main_graph(%%a: !llvm.ptr, "
           "%%b: !llvm.ptr) {\n"
           "    %%c = llvm.mlir.constant(8 : i64) : i64\n"
           "    %%0 = llvm.call @malloc(%%c) : (i64) -> !llvm.ptr\n"
           "    llvm.return\n"
           "  }\n"
           "}\n");
  MlirModule m = parse(ctx, text);
  registerWeights(m);
  return m;
}

/* A weight global NAME holding gBytes[WHICH]. */
#define WEIGHT(name, which)                                                    \
  "  llvm.mlir.global private constant @" name "(dense_resource<blob_" name    \
  "> : tensor<1024xf32>) {alignment = 64 : i64, "                              \
  "kiln.bytes = " #which " : i64} : !llvm.array<1024 x f32>\n"

static void printEntry(const KilnSpecializedEntry *e) {
  printf("entry %s status %s first-check %d description '%s' dims", e->entry,
         e->statusSymbol ? e->statusSymbol : "-", e->firstCheck,
         e->description);
  for (intptr_t i = 0; i < e->numDims; ++i)
    printf(" in%ld.d%lld=%lld", (long)e->dims[i].input,
           (long long)e->dims[i].dim, (long long)e->dims[i].size);
  printf("\n");
}

/* The generic module's weight @w_0 has bytes A and @w bytes B; the
 * specialized one names A @w and has its own @w_0 (bytes C). @use_a must
 * end up on the generic @w_0, @use_c on the renamed @"s1.w_0". */
static void testNamesakes(MlirContext ctx) {
  printf("TEST: namesakes\n");
  MlirModule generic = lowered(
      ctx, "kiln.runtime_checks = [\"generic check\"], kiln.memory_plan = 100",
      WEIGHT("w_0", 0) WEIGHT("w", 1), "use_gen:w_0");
  MlirModule spec =
      lowered(ctx,
              "kiln.runtime_checks = [\"spec check 1\", \"spec check 2\"], "
              "kiln.memory_plan = 500",
              WEIGHT("w", 0) WEIGHT("w_0", 2), "use_a:w,use_c:w_0");
  KilnModelSignature *g = signature(ctx, "tensor<?x4xf32>");
  KilnModelSignature *s = signature(ctx, "tensor<2x4xf32>");
  KilnSpecializedEntry e;
  MlirLogicalResult r =
      kilnModuleMergeSpecialized(generic, g, spec, s, "s1.", "batch=2", &e);
  printf("merged: %d\n", mlirLogicalResultIsSuccess(r));
  printEntry(&e);
  mlirOperationPrint(mlirModuleGetOperation(generic), printOut, stdout);
  printf("\n");
  kilnSpecializedEntryDestroy(&e);
  kilnModelSignatureDestroy(g);
  kilnModelSignatureDestroy(s);
  mlirModuleDestroy(spec);
  mlirModuleDestroy(generic);
}

/* A specialization that fixes no dynamic dim, and one whose signature
 * differs elsewhere: errors, the generic module untouched. */
static void testErrors(MlirContext ctx) {
  printf("TEST: errors\n");
  const char *types[2] = {"tensor<?x4xf32>", "tensor<2x5xf32>"};
  for (int i = 0; i < 2; ++i) {
    MlirModule generic = lowered(ctx, "", WEIGHT("w", 0), "use:w");
    MlirModule spec = lowered(ctx, "", WEIGHT("w", 0), "use:w");
    KilnModelSignature *g = signature(ctx, "tensor<?x4xf32>");
    KilnModelSignature *s = signature(ctx, types[i]);
    KilnSpecializedEntry e;
    MlirLogicalResult r =
        kilnModuleMergeSpecialized(generic, g, spec, s, "s1.", "batch=2", &e);
    printf("merged: %d, entry %s\n", mlirLogicalResultIsSuccess(r),
           e.entry ? e.entry : "-");
    mlirOperationPrint(mlirModuleGetOperation(generic), printOut, stdout);
    printf("\n");
    kilnModelSignatureDestroy(g);
    kilnModelSignatureDestroy(s);
    mlirModuleDestroy(spec);
    mlirModuleDestroy(generic);
  }
}

static MlirLogicalResult printDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  printf("diagnostic: ");
  mlirDiagnosticPrint(d, printOut, stdout);
  printf("\n");
  return mlirLogicalResultSuccess();
}

int main(void) {
  for (int w = 0; w < 3; ++w)
    for (int i = 0; i < kWeight; ++i)
      gBytes[w][i] = (float)(w * kWeight + i);
  MlirContext ctx = kilnContextCreate();
  mlirContextAttachDiagnosticHandler(ctx, printDiagnostic, NULL, NULL);
  testNamesakes(ctx);
  testErrors(ctx);
  kilnContextDestroy(ctx);
  return 0;
}

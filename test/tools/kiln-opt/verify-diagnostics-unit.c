/* Unit test of kiln-opt's input splitter and diagnostic verifier. Prints to
 * stderr; verify-diagnostics-unit.test checks the output with FileCheck. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/RegisterEverything.h"
#include "tools/kiln-opt/split_input.h"
#include "tools/kiln-opt/verify_diagnostics.h"

//===----------------------------------------------------------------------===//
// Splitter
//===----------------------------------------------------------------------===//

static void printChunks(const char *text, const char *marker) {
  KilnInputChunk *chunks = NULL;
  intptr_t n = kilnSplitInput(text, strlen(text), marker, &chunks);
  fprintf(stderr, "chunks: %ld\n", (long)n);
  for (intptr_t i = 0; i < n; ++i) {
    fprintf(stderr, "chunk %ld line %d: \"", (long)i, chunks[i].firstLine);
    for (size_t k = 0; k < chunks[i].length; ++k) {
      char c = chunks[i].data[k];
      fputs(c == '\n' ? "\\n" : c == '\r' ? "\\r" : (char[]){c, 0}, stderr);
    }
    fputs("\"\n", stderr);
  }
  free(chunks);
}

static void testSplit(void) {
  fprintf(stderr, "TEST: split_basic\n");
  printChunks("a\n// -----\nb\nc\n \t// -----  \nd", NULL);
  fprintf(stderr, "TEST: split_no_marker\n");
  printChunks("a\nb\n", NULL);
  fprintf(stderr, "TEST: split_near_miss\n");
  printChunks("a\n// ------\n// ----- x\n//-----\nb\n", NULL);
  fprintf(stderr, "TEST: split_edges\n");
  printChunks("// -----\nx\n// -----\n", NULL);
  fprintf(stderr, "TEST: split_empty\n");
  printChunks("", NULL);
  fprintf(stderr, "TEST: split_custom_marker\n");
  printChunks("a\n#--\nb\n// -----\n", "#--");
  fprintf(stderr, "TEST: split_crlf\n");
  printChunks("a\r\n// -----\r\nb", "");
  fprintf(stderr, "TEST: split_bad_args\n");
  KilnInputChunk *chunks = (KilnInputChunk *)1;
  fprintf(stderr, "null buf: %ld %d\n",
          (long)kilnSplitInput(NULL, 3, NULL, &chunks), chunks == NULL);
  fprintf(stderr, "null out: %ld\n", (long)kilnSplitInput("a", 1, NULL, NULL));
}

//===----------------------------------------------------------------------===//
// Verifier
//===----------------------------------------------------------------------===//

/// Verifies `text` as a chunk starting at file line `firstLine`: parses it
/// (padded as kiln-opt does) or, when `extra` is given, lets `extra` emit
/// the diagnostics instead.
static void runCase(MlirContext ctx, const char *text, int firstLine,
                    void (*extra)(MlirContext, KilnDiagVerifier *)) {
  KilnDiagVerifier *v =
      kilnDiagVerifierCreate("input.mlir", text, strlen(text), firstLine);
  fprintf(stderr, "expected: %ld\n", (long)kilnDiagVerifierGetNumExpected(v));
  MlirDiagnosticHandlerID id = kilnDiagVerifierAttach(v, ctx);
  size_t len = strlen(text) + (size_t)firstLine;
  char *padded = malloc(len);
  memset(padded, '\n', (size_t)firstLine - 1);
  memcpy(padded + firstLine - 1, text, strlen(text) + 1);
  if (extra) {
    extra(ctx, v);
  } else {
    MlirOperation op =
        mlirOperationCreateParse(ctx, mlirStringRefCreateFromCString(padded),
                                 mlirStringRefCreateFromCString("input.mlir"));
    if (!mlirOperationIsNull(op))
      mlirOperationDestroy(op);
  }
  mlirContextDetachDiagnosticHandler(ctx, id);
  MlirLogicalResult r = kilnDiagVerifierFinish(v);
  fprintf(stderr, "result: %s\n",
          mlirLogicalResultIsSuccess(r) ? "success" : "failure");
  kilnDiagVerifierDestroy(v);
  free(padded);
}

#define RETURN_MISMATCH                                                        \
  "func.func @f() -> i32 {\n"                                                  \
  "  %c = arith.constant 1 : i64\n"

static const char *const kSameLine =
    RETURN_MISMATCH "  return %c : i64 // expected-error {{type of return}}\n"
                    "}\n";
static const char *const kPlus =
    RETURN_MISMATCH "  // expected-error@+1 {{doesn't match function result}}\n"
                    "  return %c : i64\n}\n";
static const char *const kBelow =
    "func.func @f(%a: i32) -> i64 {\n"
    "  // expected-error@below {{expects different type than prior uses}}\n"
    "  // expected-note@-2 {{prior use here}}\n"
    "  %0 = arith.addi %a, %b : i64\n"
    "  %b = arith.constant 1 : i32\n"
    "  return %0 : i64\n}\n";
static const char *const kMinus =
    RETURN_MISMATCH "  return %c : i64\n"
                    "  // expected-error@-1 {{type of return}}\n}\n";
static const char *const kAbove =
    "func.func @f(%a: i32) -> i64 {\n"
    "  %0 = arith.addi %a, %b : i64\n"
    "  // expected-note@-2 {{prior use here}}\n"
    "  // expected-error@above {{expects different type than prior uses}}\n"
    "  %b = arith.constant 1 : i32\n"
    "  return %0 : i64\n}\n";
static const char *const kNotes =
    "func.func @f(%a: i32) -> i64 {\n"
    "  // expected-error@+1 {{expects different type than prior uses}}\n"
    "  %0 = arith.addi %a, %b : i64\n"
    "  %b = arith.constant 1 : i32\n"
    "  return %0 : i64\n}\n"
    "// expected-note@-6 {{prior use here}}\n";
static const char *const kNoteMissing =
    RETURN_MISMATCH "  return %c : i64 // expected-error {{type of return}}\n"
                    "}\n// expected-note@-1 {{no such note}}\n";
static const char *const kUnexpected = RETURN_MISMATCH "  return %c : i64\n}\n";
static const char *const kMissing = "// expected-error@+1 {{never emitted}}\n"
                                    "func.func @ok() {\n  return\n}\n";
static const char *const kWrongLine =
    RETURN_MISMATCH "  // expected-error@+2 {{type of return}}\n"
                    "  return %c : i64\n}\n";
static const char *const kRegex = RETURN_MISMATCH
    "  // expected-error-re@+1 {{operand {{[0-9]+}} ('i64') doesn't}}\n"
    "  return %c : i64\n}\n";
static const char *const kMalformed =
    "// expected-error no braces\n"
    "// expected-error@above {{nothing above}}\n"
    "// expected-warning@sideways {{x}}\n"
    "// expected-remark@+ {{x}}\n"
    "// expected-note {{unterminated\n"
    "// expected-error@-9 {{before the start}}\n"
    "// expected-error@+9 {{after the end}}\n"
    "// expected-error-re {{bad {{[}}}}\n"
    "// expected-error-re {{open {{x}}\n"
    "func.func @ok() {\n  return\n}\n"
    "// expected-errors and expected-error-reports are plain words\n"
    "// expected-warning@below {{dangling}}\n";

static void emitUnknown(MlirContext ctx, KilnDiagVerifier *v) {
  (void)v;
  mlirEmitError(mlirLocationUnknownGet(ctx), "lost in space");
}

static void recordSeverities(MlirContext ctx, KilnDiagVerifier *v) {
  MlirLocation l1 = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString("input.mlir"), 1, 4);
  MlirLocation l2 = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString("input.mlir"), 2, 1);
  kilnDiagVerifierRecord(v, MlirDiagnosticWarning, l1, "a warning here");
  kilnDiagVerifierRecord(v, MlirDiagnosticRemark, l1, "a remark here");
  kilnDiagVerifierRecord(v, MlirDiagnosticWarning, l2, "wrong severity");
}
static const char *const kSeverities =
    "%x = // expected-warning {{warning}}\n"
    "// expected-remark@-1 {{remark here}}\n"
    "// expected-error@-1 {{wrong severity}}\n";

/// Nested locations resolve to their first file:line:col, as in MLIR.
static void recordNestedLocs(MlirContext ctx, KilnDiagVerifier *v) {
  MlirStringRef file = mlirStringRefCreateFromCString("input.mlir");
  MlirLocation l3 = mlirLocationFileLineColGet(ctx, file, 3, 1);
  MlirLocation l4 = mlirLocationFileLineColGet(ctx, file, 4, 1);
  MlirLocation name =
      mlirLocationNameGet(ctx, mlirStringRefCreateFromCString("node"), l3);
  kilnDiagVerifierRecord(v, MlirDiagnosticError, name, "from a name");
  kilnDiagVerifierRecord(v, MlirDiagnosticError,
                         mlirLocationCallSiteGet(l4, l3), "from a call");
  MlirLocation parts[2] = {mlirLocationUnknownGet(ctx), name};
  kilnDiagVerifierRecord(
      v, MlirDiagnosticError,
      mlirLocationFusedGet(ctx, 2, parts, (MlirAttribute){NULL}),
      "from a fusion");
  kilnDiagVerifierRecord(
      v, MlirDiagnosticError,
      mlirLocationNameGet(ctx, mlirStringRefCreateFromCString("bare"),
                          mlirLocationUnknownGet(ctx)),
      "no file at all");
  kilnDiagVerifierRecord(
      v, MlirDiagnosticError,
      mlirLocationFileLineColGet(
          ctx, mlirStringRefCreateFromCString("other.mlir"), 3, 1),
      "from another file");
  kilnDiagVerifierRecord(v, MlirDiagnosticError,
                         mlirLocationFileLineColGet(
                             ctx, mlirStringRefCreateFromCString("-"), 4, 1),
                         "from an unnamed source");
}
static const char *const kNested = "\n\n"
                                   "// expected-error {{from a name}}\n"
                                   "// expected-error {{from a call}}\n"
                                   "// expected-error@-2 {{from a fusion}}\n"
                                   "// expected-error@-2 {{unnamed source}}\n";

/// Chunk of a split file: annotations and diagnostics use file lines.
static const char *const kChunk =
    RETURN_MISMATCH "  return %c : i64 // expected-error {{type of return}}\n"
                    "  // expected-error@-4 {{before the start}}\n}\n";

static void testVerifier(MlirContext ctx) {
  fprintf(stderr, "TEST: same_line\n");
  runCase(ctx, kSameLine, 1, NULL);
  fprintf(stderr, "TEST: plus\n");
  runCase(ctx, kPlus, 1, NULL);
  fprintf(stderr, "TEST: below\n");
  runCase(ctx, kBelow, 1, NULL);
  fprintf(stderr, "TEST: minus\n");
  runCase(ctx, kMinus, 1, NULL);
  fprintf(stderr, "TEST: above\n");
  runCase(ctx, kAbove, 1, NULL);
  fprintf(stderr, "TEST: notes\n");
  runCase(ctx, kNotes, 1, NULL);
  fprintf(stderr, "TEST: negative_note_missing\n");
  runCase(ctx, kNoteMissing, 1, NULL);
  fprintf(stderr, "TEST: negative_unexpected\n");
  runCase(ctx, kUnexpected, 1, NULL);
  fprintf(stderr, "TEST: negative_missing\n");
  runCase(ctx, kMissing, 1, NULL);
  fprintf(stderr, "TEST: negative_wrong_line\n");
  runCase(ctx, kWrongLine, 1, NULL);
  fprintf(stderr, "TEST: regex\n");
  runCase(ctx, kRegex, 1, NULL);
  fprintf(stderr, "TEST: negative_malformed\n");
  runCase(ctx, kMalformed, 1, NULL);
  fprintf(stderr, "TEST: unknown_loc\n");
  runCase(ctx, "// expected-error@unknown {{lost in}}\n", 1, emitUnknown);
  fprintf(stderr, "TEST: negative_unknown_loc\n");
  runCase(ctx, "// expected-error {{lost in}}\n", 1, emitUnknown);
  fprintf(stderr, "TEST: severities\n");
  runCase(ctx, kSeverities, 1, recordSeverities);
  fprintf(stderr, "TEST: nested_locations\n");
  runCase(ctx, kNested, 1, recordNestedLocs);
  fprintf(stderr, "TEST: chunk_lines\n");
  runCase(ctx, kChunk, 10, NULL);
}

/// The verifier may outlive its context or be destroyed while attached.
static void testLifetimes(void) {
  fprintf(stderr, "TEST: lifetimes\n");
  MlirContext ctx = mlirContextCreate();
  KilnDiagVerifier *a = kilnDiagVerifierCreate("x", "", 0, 1);
  KilnDiagVerifier *b = kilnDiagVerifierCreate(NULL, NULL, 0, 0);
  kilnDiagVerifierAttach(a, ctx);
  kilnDiagVerifierAttach(b, ctx);
  kilnDiagVerifierAttach(b, ctx); /* re-attaching replaces the handler */
  kilnDiagVerifierDestroy(b);     /* detaches itself */
  mlirContextDestroy(ctx);        /* releases a's handler */
  fprintf(stderr, "finish a: %s\n",
          mlirLogicalResultIsSuccess(kilnDiagVerifierFinish(a)) ? "success"
                                                                : "failure");
  kilnDiagVerifierDestroy(a);
  kilnDiagVerifierDestroy(NULL);
  fprintf(stderr, "create bad: %d\n",
          kilnDiagVerifierCreate("x", NULL, 5, 1) == NULL);
}

int main(void) {
  testSplit();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  mlirRegisterAllDialects(registry);
  MlirContext ctx = mlirContextCreate();
  mlirContextAppendDialectRegistry(ctx, registry);
  mlirDialectRegistryDestroy(registry);
  testVerifier(ctx);
  mlirContextDestroy(ctx);
  testLifetimes();
  return 0;
}

/* Tests of the compiler session API (kiln/session.h): each TEST prints
 * what the calls return, the messages (severity, location, text) and the
 * stages begun; session.test checks them. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kiln/session.h"

static void printMessage(const char *severity, const char *location,
                         const char *text, void *userData) {
  (void)userData;
  fprintf(stderr, "message: %s [%s] %s\n", severity, location ? location : "-",
          text);
}

static void printStage(const char *stage, void *userData) {
  (void)userData;
  fprintf(stderr, "stage: %s\n", stage);
}

static void countBytes(MlirStringRef text, void *userData) {
  *(size_t *)userData += text.length;
}

/* Appends to the NUL-terminated buffer in `userData` (4 KB is plenty for
 * the checks below, which only look at its start). */
static void keepStart(MlirStringRef text, void *userData) {
  char *buf = userData;
  size_t n = strlen(buf), room = 4095 - n;
  memcpy(buf + n, text.data, text.length < room ? text.length : room);
  buf[n + (text.length < room ? text.length : room)] = 0;
}

static KilnSession *createSession(const char *target) {
  KilnSessionOptions o = {.target = {.target = target, .optLevel = 2},
                          .onMessage = printMessage,
                          .onStage = printStage};
  return kilnSessionCreate(&o);
}

static const char kAdd[] =
    "func.func @main_graph(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {\n"
    "  %0 = \"graph.add\"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>)"
    " -> tensor<2x3xf32>\n"
    "  %1 = \"graph.add\"(%x, %x) : (tensor<2x3xf32>, tensor<2x3xf32>)"
    " -> tensor<2x3xf32>\n"
    "  %2 = \"graph.mul\"(%0, %1) : (tensor<2x3xf32>, tensor<2x3xf32>)"
    " -> tensor<2x3xf32>\n"
    "  return %2 : tensor<2x3xf32>\n"
    "}\n";

static const char kDynamic[] =
    "func.func @main_graph(%x: tensor<?x3x2x2xf32>) -> tensor<?x3x2x2xf32> "
    "{\n"
    "  %0 = \"graph.lrn\"(%x) {size = 3 : i64} : (tensor<?x3x2x2xf32>) -> "
    "tensor<?x3x2x2xf32>\n"
    "  return %0 : tensor<?x3x2x2xf32>\n"
    "}\n";

static KilnInvocation *parsed(KilnSession *s, const char *text) {
  KilnInvocation *inv = kilnInvocationCreate(s);
  fprintf(stderr, "parse: %d\n",
          kilnInvocationParseText(inv, text, strlen(text), "test.mlir"));
  return inv;
}

static void testStageNames(void) {
  fprintf(stderr, "TEST: stage_names\n");
  KilnStage st = KILN_STAGE_NONE;
  for (int i = KILN_STAGE_NONE; i <= KILN_STAGE_LLVM; ++i)
    fprintf(stderr, "%s ", kilnStageGetName((KilnStage)i));
  fprintf(stderr, "\nparse linalg: %d %d; parse none: %d; parse NULL: %d\n",
          kilnStageParse("linalg", &st), st == KILN_STAGE_LINALG,
          kilnStageParse("none", &st), kilnStageParse(NULL, &st));
}

static void testBadTarget(void) {
  fprintf(stderr, "TEST: bad_target\n");
  KilnSession *s = createSession("riscv64-linux-gnu");
  fprintf(stderr, "session: %s\n", s ? "created" : "NULL");
  kilnSessionDestroy(s);
}

static void testStages(void) {
  fprintf(stderr, "TEST: stages\n");
  KilnSession *s = createSession(NULL);
  KilnInvocation *inv = parsed(s, kAdd);
  fprintf(stderr, "at %s\n", kilnStageGetName(kilnInvocationGetStage(inv)));
  fprintf(stderr, "graph: %d\n", kilnInvocationRunUntil(inv, KILN_STAGE_GRAPH));
  char text[4096] = "";
  kilnInvocationPrintModule(inv, false, keepStart, text);
  /* The target reaches the passes as pipeline parameters, not through
   * the module. */
  fprintf(stderr, "target in the module: %d; adds merged: %d\n",
          strstr(text, "kiln.target") != NULL,
          strstr(text, "graph.add") == strrchr(text, 'a') - 6 ||
              strstr(strstr(text, "graph.add") + 1, "graph.add") == NULL);
  fprintf(stderr, "again: %d\n", kilnInvocationRunUntil(inv, KILN_STAGE_GRAPH));
  fprintf(stderr, "linalg: %d\n",
          kilnInvocationRunUntil(inv, KILN_STAGE_LINALG));
  text[0] = 0;
  kilnInvocationPrintModule(inv, false, keepStart, text);
  fprintf(stderr, "linalg ops: %d\n", strstr(text, "linalg.") != NULL);
  fprintf(stderr, "back to graph: %d (error %d)\n",
          kilnInvocationRunUntil(inv, KILN_STAGE_GRAPH),
          kilnInvocationGetError(inv));
  fprintf(stderr, "gpu on a CPU target: %d (error %d)\n",
          kilnInvocationRunUntil(inv, KILN_STAGE_GPU),
          kilnInvocationGetError(inv));
  size_t bytes = 0;
  fprintf(stderr, "code after linalg: %d\n",
          kilnInvocationEmitCode(inv, KILN_COMPILE_EMIT_LLVM_IR, countBytes,
                                 &bytes));
  fprintf(stderr, "kernels on a CPU target: %d (error %d)\n",
          kilnInvocationEmitKernels(inv, countBytes, &bytes),
          kilnInvocationGetError(inv));
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(s);
}

static void testPipelines(void) {
  fprintf(stderr, "TEST: pipelines\n");
  KilnSession *s = createSession(NULL);
  KilnInvocation *inv = kilnInvocationCreate(s);
  fprintf(stderr, "no module: %d (error %d)\n",
          kilnInvocationRunPipeline(inv, "graph-cse"),
          kilnInvocationGetError(inv));
  kilnInvocationParseText(inv, kAdd, strlen(kAdd), "test.mlir");
  fprintf(stderr, "cse: %d\n",
          kilnInvocationRunPipeline(
              inv, "builtin.module(func.func(graph-cse),graph-dce)"));
  char text[4096] = "";
  kilnInvocationPrintModule(inv, false, keepStart, text);
  fputs(text, stderr);
  fprintf(stderr, "\nunknown: %d (error %d)\n",
          kilnInvocationRunPipeline(inv, "no-such-pass"),
          kilnInvocationGetError(inv));
  fprintf(stderr, "stage: %s\n", kilnStageGetName(kilnInvocationGetStage(inv)));
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(s);
}

static void testBadModels(const char *dir) {
  fprintf(stderr, "TEST: bad_models\n");
  KilnSession *s = createSession(NULL);
  KilnInvocation *inv = parsed(s, "func.func @f() {\n  %0 = \"graph.add\"() "
                                  ": () -> tensor<f32>\n  return\n}\n");
  fprintf(stderr, "error %d, stage %s\n", kilnInvocationGetError(inv),
          kilnStageGetName(kilnInvocationGetStage(inv)));
  char path[4096];
  snprintf(path, sizeof(path), "%s/missing.mlir", dir);
  fprintf(stderr, "missing: %d\n", kilnInvocationParseSource(inv, path));
  fprintf(stderr, "onnx garbage: %d\n",
          kilnInvocationImportOnnx(inv, "\x08\x07garbage", 9, "bad.onnx"));
  fprintf(stderr, "stage after failures: %s\n",
          kilnStageGetName(kilnInvocationGetStage(inv)));
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(s);
}

static void testCode(const char *dir) {
  fprintf(stderr, "TEST: code\n");
  KilnSession *s = createSession(NULL);
  KilnInvocation *inv = parsed(s, kAdd);
  char text[4096] = "";
  fprintf(
      stderr, "llvm ir: %d\n",
      kilnInvocationEmitCode(inv, KILN_COMPILE_EMIT_LLVM_IR, keepStart, text));
  fprintf(stderr, "has the ABI: %d\n",
          strstr(text, "kiln_model_metadata") != NULL ||
              strstr(text, "kiln_model_run") != NULL);
  char lib[4096];
  snprintf(lib, sizeof(lib), "%s/add.so", dir);
  kilnInvocationParseText(inv, kAdd, strlen(kAdd), "test.mlir");
  fprintf(stderr, "library: %d, exists: %d\n",
          kilnInvocationWriteLibrary(inv, lib), access(lib, R_OK) == 0);
  snprintf(lib, sizeof(lib), "%s/no/such/dir/add.so", dir);
  kilnInvocationParseText(inv, kAdd, strlen(kAdd), "test.mlir");
  fprintf(stderr, "unwritable: %d, exists: %d\n",
          kilnInvocationWriteLibrary(inv, lib), access(lib, F_OK) == 0);
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(s);
}

/* The library streamed (kilnInvocationEmitLibrary) is the one written. */
static void testEmitLibrary(const char *dir) {
  fprintf(stderr, "TEST: emit_library\n");
  KilnSession *s = createSession(NULL);
  KilnInvocation *inv = parsed(s, kAdd);
  size_t streamed = 0;
  fprintf(stderr, "emitted: %d\n",
          kilnInvocationEmitLibrary(inv, countBytes, &streamed));
  char lib[4096];
  snprintf(lib, sizeof(lib), "%s/add.so", dir);
  FILE *f = fopen(lib, "rb");
  long written = -1;
  if (f && fseek(f, 0, SEEK_END) == 0)
    written = ftell(f);
  if (f)
    fclose(f);
  fprintf(stderr, "same size as the written one: %d\n",
          written > 0 && (size_t)written == streamed);
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(s);
}

static KilnTensor *tensor2x3(const float *values) {
  int64_t dims[2] = {2, 3};
  KilnTensor *t = NULL;
  kilnStatusDestroy(kilnTensorCreate(KILN_ELEMENT_TYPE_F32, 2, dims, &t));
  if (values)
    memcpy(kilnTensorGetData(t), values, 6 * sizeof(float));
  return t;
}

/* Running a lowered module in the JIT (kilnInvocationExecute): kAdd is
 * (x + x) * (x + x) = 4x^2; then the errors (a memory plan over the limit
 * and a failed run-time check: test/tools/kiln-run). */
static void testExecute(void) {
  fprintf(stderr, "TEST: execute\n");
  KilnSession *s = createSession(NULL);
  KilnInvocation *inv = kilnInvocationCreate(s);
  const float x[6] = {0, 1, -2, 0.5f, 3, -1};
  KilnTensor *in = tensor2x3(x), *out = tensor2x3(NULL);
  fprintf(stderr, "no module: %d (error %d)\n",
          kilnInvocationExecute(inv, "main_graph", &in, 1, &out, 1),
          (int)kilnInvocationGetError(inv));
  kilnInvocationParseText(inv, kAdd, strlen(kAdd), "test.mlir");
  fprintf(stderr, "llvm: %d\n", kilnInvocationRunUntil(inv, KILN_STAGE_LLVM));
  fprintf(stderr, "ran: %d\n",
          kilnInvocationExecute(inv, "main_graph", &in, 1, &out, 1));
  for (int i = 0; i < 6; ++i)
    fprintf(stderr, "%g%s", kilnTensorGetElementAsDouble(out, i),
            i < 5 ? " " : "\n");
  fprintf(stderr, "no entry: %d (error %d)\n",
          kilnInvocationExecute(inv, NULL, &in, 1, &out, 1),
          (int)kilnInvocationGetError(inv));
  fprintf(stderr, "no such entry: %d (error %d)\n",
          kilnInvocationExecute(inv, "nothing", &in, 1, &out, 1),
          (int)kilnInvocationGetError(inv));
  kilnTensorDestroy(in);
  kilnTensorDestroy(out);
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(s);
}

/* An output sized by data (kilnInvocationOutputDims, then
 * kilnInvocationExecute): NonZero of a 2x3 input with 3 non-zeros gives
 * [2, 3]; the query keeps the compiled module for the run. */
static const char kNonZero[] =
    "func.func @main_graph(%x: tensor<2x3xf32>) -> tensor<2x?xi64> {\n"
    "  %0 = \"graph.non_zero\"(%x) : (tensor<2x3xf32>) -> tensor<2x?xi64>\n"
    "  return %0 : tensor<2x?xi64>\n"
    "}\n";

static void testOutputDims(void) {
  fprintf(stderr, "TEST: output_dims\n");
  KilnSession *s = createSession(NULL);
  KilnInvocation *inv = kilnInvocationCreate(s);
  const float x[6] = {0, 1, -2, 0, 0, 3};
  KilnTensor *in = tensor2x3(x), *out = NULL;
  int64_t dims[2] = {-1, -1}, rank = 2, *rows[1] = {dims};
  fprintf(stderr, "no module: %d (error %d)\n",
          kilnInvocationOutputDims(inv, &in, 1, rows, &rank, 1),
          (int)kilnInvocationGetError(inv));
  kilnInvocationParseText(inv, kNonZero, strlen(kNonZero), "test.mlir");
  fprintf(stderr, "llvm: %d\n", kilnInvocationRunUntil(inv, KILN_STAGE_LLVM));
  fprintf(stderr, "dims: %d: %lld x %lld\n",
          kilnInvocationOutputDims(inv, &in, 1, rows, &rank, 1),
          (long long)dims[0], (long long)dims[1]);
  kilnStatusDestroy(kilnTensorCreate(KILN_ELEMENT_TYPE_I64, 2, dims, &out));
  fprintf(stderr, "ran: %d\n",
          kilnInvocationExecute(inv, "main_graph", &in, 1, &out, 1));
  for (int i = 0; i < 6; ++i)
    fprintf(stderr, "%g%s", kilnTensorGetElementAsDouble(out, i),
            i < 5 ? " " : "\n");
  kilnTensorDestroy(in);
  kilnTensorDestroy(out);
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(s);
}

static void testDynamic(void) {
  fprintf(stderr, "TEST: dynamic\n");
  KilnSession *s = createSession(NULL);
  KilnInvocation *inv = parsed(s, kDynamic);
  fprintf(stderr, "linalg: %d\n",
          kilnInvocationRunUntil(inv, KILN_STAGE_LINALG));
  size_t bytes = 0;
  fprintf(
      stderr, "code after linalg: %d (error %d)\n",
      kilnInvocationEmitCode(inv, KILN_COMPILE_EMIT_ASM, countBytes, &bytes),
      kilnInvocationGetError(inv));
  kilnInvocationParseText(inv, kDynamic, strlen(kDynamic), "test.mlir");
  fprintf(
      stderr, "code from import: %d (error %d)\n",
      kilnInvocationEmitCode(inv, KILN_COMPILE_EMIT_ASM, countBytes, &bytes),
      kilnInvocationGetError(inv));
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(s);
}

/* Two public functions and no @main_graph: no entry, so no signature; the
 * graph still lowers, and code from past the graph stage is refused. */
static const char kNoEntry[] =
    "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
    "  %0 = \"graph.relu\"(%x) : (tensor<2xf32>) -> tensor<2xf32>\n"
    "  return %0 : tensor<2xf32>\n"
    "}\n"
    "func.func @g(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
    "  return %x : tensor<2xf32>\n"
    "}\n";

static void testLostSignature(void) {
  fprintf(stderr, "TEST: lost_signature\n");
  KilnSession *s = createSession(NULL);
  KilnInvocation *inv = parsed(s, kNoEntry);
  fprintf(stderr, "linalg: %d\n",
          kilnInvocationRunUntil(inv, KILN_STAGE_LINALG));
  size_t bytes = 0;
  fprintf(
      stderr, "code: %d (error %d)\n",
      kilnInvocationEmitCode(inv, KILN_COMPILE_EMIT_OBJECT, countBytes, &bytes),
      kilnInvocationGetError(inv));
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(s);
}

static void testTuningLog(const char *dir) {
  fprintf(stderr, "TEST: tuning_log\n");
  char path[4096];
  snprintf(path, sizeof(path), "%s/missing.tune", dir);
  KilnSessionOptions o = {
      .target = {.optLevel = 1}, .tuningLog = path, .onMessage = printMessage};
  KilnSession *s = kilnSessionCreate(&o);
  KilnInvocation *inv = parsed(s, kAdd);
  fprintf(stderr, "graph: %d (error %d)\n",
          kilnInvocationRunUntil(inv, KILN_STAGE_GRAPH),
          kilnInvocationGetError(inv));
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(s);
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: kiln-test-session SCRATCH-DIR\n");
    return 2;
  }
  testStageNames();
  testBadTarget();
  testStages();
  testPipelines();
  testBadModels(argv[1]);
  testCode(argv[1]);
  testEmitLibrary(argv[1]);
  testExecute();
  testOutputDims();
  testDynamic();
  testLostSignature();
  testTuningLog(argv[1]);
  return 0;
}

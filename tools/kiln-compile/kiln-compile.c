/* kiln-compile: compiles an ONNX model. So far it only imports it into the
 * graph dialect (--emit=graph), verifies the result and prints it. */

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/common/diag.h"
#include "dialects/graph/verify.h"
#include "kiln/kiln.h"
#include "kiln/onnx.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "tools/common/tool_io.h"

static const char *kProg = "kiln-compile";

static void usage(FILE *out) {
  fprintf(
      out,
      "usage: %s MODEL.onnx --emit=graph [-o OUT.mlir]\n"
      "       (MODEL.onnx '-' reads the model from stdin)\n"
      "\n"
      "Imports an ONNX model into Kiln's graph dialect, verifies it and\n"
      "prints it (generic MLIR form).\n"
      "\n"
      "  --emit=graph     output the graph dialect (the only stage so far)\n"
      "  --input-shape=NAME=D0xD1x...\n"
      "                   fix the symbolic/unknown dims of graph input NAME\n"
      "                   (e.g. x=1x3x224x224); repeatable\n"
      "  -o, --output=F   write to F (replaced only on success; default\n"
      "                   stdout)\n"
      "  --mlir-print-debuginfo\n"
      "                   print each op's location: the ONNX node's name\n"
      "                   and op type, in the model file\n"
      "  -h, --help       show this help\n"
      "      --version    show the version\n",
      kProg);
}

static void toolError(const char *fmt, const char *arg) {
  fprintf(stderr, "%s: error: ", kProg);
  fprintf(stderr, fmt, arg);
  fputc('\n', stderr);
}

/* Prints `FILE: NODE: error: MSG` for importer locations (NameLoc around
 * FILE:0:0, see kiln/onnx.h), `FILE:LINE:COL: ...` for others. */
static void printDiagnostic(MlirDiagnostic d) {
  const char *sevName =
      kilnDiagnosticSeverityGetName(mlirDiagnosticGetSeverity(d));
  MlirLocation loc = mlirDiagnosticGetLocation(d);
  KilnStrBuf where = {0}, msg = {0};
  if (mlirLocationIsAName(loc)) {
    MlirStringRef name = mlirIdentifierStr(mlirLocationNameGetName(loc));
    KilnSourcePos pos;
    if (kilnLocationGetSourcePos(loc, &pos))
      kilnStrBufAppendf(&where, "%.*s: ", (int)pos.file.length, pos.file.data);
    kilnStrBufAppendf(&where, "%.*s", (int)name.length, name.data);
  } else {
    KilnSourcePos pos;
    if (kilnLocationGetSourcePos(loc, &pos) && pos.line == 0)
      kilnStrBufAppendf(&where, "%.*s", (int)pos.file.length, pos.file.data);
    else
      mlirLocationPrint(loc, kilnStrBufCallback, &where);
  }
  mlirDiagnosticPrint(d, kilnStrBufCallback, &msg);
  fprintf(stderr, "%s: %s: %s\n", kilnStrBufGet(&where), sevName,
          kilnStrBufGet(&msg));
  kilnStrBufDestroy(&where);
  kilnStrBufDestroy(&msg);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); ++i)
    printDiagnostic(mlirDiagnosticGetNote(d, i));
}

static MlirLogicalResult handleDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  printDiagnostic(d);
  return mlirLogicalResultSuccess();
}

typedef struct Options {
  const char *input;
  const char *output;
  const char *emit;
  KilnOnnxInputShape *shapes; /* owns each dims array (names are argv) */
  intptr_t numShapes;
  bool debugInfo; /* --mlir-print-debuginfo: print each op's location */
} Options;

static void optionsDestroy(Options *o) {
  for (intptr_t i = 0; i < o->numShapes; ++i)
    free((int64_t *)o->shapes[i].dims);
  free(o->shapes);
}

/* Parses "NAME=D0xD1x..." (NAME up to the last '=') into *out, allocating
 * its dims. Returns false after printing what is malformed. */
static bool parseInputShape(char *text, KilnOnnxInputShape *out) {
  char *eq = strrchr(text, '=');
  const char *why = NULL;
  if (!eq || eq == text)
    why = "expected NAME=D0xD1x...";
  else if (!eq[1])
    why = "no dimensions after '='";
  int64_t *dims = NULL;
  intptr_t rank = 0;
  for (const char *p = eq ? eq + 1 : ""; !why && *p; ++rank) {
    if (*p < '0' || *p > '9') {
      why = "dimensions must be non-negative integers separated by 'x'";
      break;
    }
    char *end;
    errno = 0;
    long long v = strtoll(p, &end, 10);
    if (errno == ERANGE) {
      why = "a dimension is out of range";
      break;
    }
    if (*end && (*end != 'x' || !end[1])) {
      why = "dimensions must be non-negative integers separated by 'x'";
      break;
    }
    int64_t *grown = realloc(dims, (size_t)(rank + 1) * sizeof(int64_t));
    if (!grown)
      abort();
    dims = grown;
    dims[rank] = v;
    p = *end ? end + 1 : end;
  }
  if (why) {
    fprintf(stderr, "%s: error: --input-shape '%s': %s\n", kProg, text, why);
    free(dims);
    return false;
  }
  *eq = '\0'; /* the name ends here; argv strings may be modified */
  *out = (KilnOnnxInputShape){.name = text, .dims = dims, .rank = rank};
  return true;
}

/* Parses argv; returns -1 to go on, else the exit code. */
static int parseArgs(int argc, char **argv, Options *o) {
  enum { kVersion = 256, kEmit, kInputShape, kDebugInfo };
  static const struct option longOpts[] = {
      {"emit", required_argument, NULL, kEmit},
      {"input-shape", required_argument, NULL, kInputShape},
      {"output", required_argument, NULL, 'o'},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, kVersion},
      {"mlir-print-debuginfo", no_argument, NULL, kDebugInfo},
      {NULL, 0, NULL, 0}};
  int c;
  while ((c = getopt_long(argc, argv, "o:h", longOpts, NULL)) != -1) {
    switch (c) {
    case kEmit:
      o->emit = optarg;
      break;
    case kInputShape:
      /* At most one per argument: argc bounds the array. */
      if (!o->shapes && !(o->shapes = calloc((size_t)argc, sizeof(*o->shapes))))
        abort();
      if (!parseInputShape(optarg, &o->shapes[o->numShapes]))
        return 1;
      ++o->numShapes;
      break;
    case 'o':
      o->output = optarg;
      break;
    case kDebugInfo:
      o->debugInfo = true;
      break;
    case 'h':
      usage(stdout);
      return 0;
    case kVersion:
      printf("%s %s\n", kProg, kilnGetVersion());
      return 0;
    default:
      usage(stderr);
      return 1;
    }
  }
  if (optind != argc - 1) {
    toolError("%s", optind >= argc ? "no input model given"
                                   : "exactly one input model is expected");
    return 1;
  }
  o->input = argv[optind];
  if (!o->emit) {
    toolError("%s", "--emit=graph is required");
    return 1;
  }
  if (strcmp(o->emit, "graph") != 0) {
    toolError("--emit=%s: only --emit=graph is supported so far", o->emit);
    return 1;
  }
  return -1;
}

/* Prints `op` to `path`; false after reporting a write failure. */
static bool writeModule(MlirOperation op, const char *path, bool debugInfo) {
  /* Streamed, not buffered: a model's weights print as megabytes of hex,
   * and a second copy in memory would double the tool's peak. */
  KilnToolOutput out;
  if (!kilnToolOutputOpen(&out, path)) {
    toolError("cannot write '%s'", path);
    return false;
  }
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsEnableDebugInfo(flags, debugInfo, /*prettyForm=*/false);
  mlirOperationPrintWithFlags(op, flags, kilnToolOutputCallback, &out);
  mlirOpPrintingFlagsDestroy(flags);
  kilnToolOutputWrite(&out, "\n", 1);
  if (!kilnToolOutputCommit(&out, path)) {
    toolError("cannot write '%s'", path);
    return false;
  }
  return true;
}

/* Imports the model at `path`, or from stdin for "-" (through the buffer
 * API: such a model has no directory for external data). */
static MlirModule importModel(MlirContext ctx, const char *path,
                              const KilnOnnxImportOptions *opts) {
  if (strcmp(path, "-") != 0)
    return kilnOnnxImportFileWithOptions(ctx, path, opts);
  KilnStrBuf buf = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
    kilnStrBufAppend(&buf, chunk, n);
  MlirModule module = {NULL};
  if (ferror(stdin))
    toolError("%s", "cannot read the model from stdin");
  else
    module = kilnOnnxImportBufferWithOptions(ctx, buf.data ? buf.data : "",
                                             buf.len, "<stdin>", opts);
  kilnStrBufDestroy(&buf);
  return module;
}

int main(int argc, char **argv) {
  Options o = {.output = "-"};
  int rc = parseArgs(argc, argv, &o);
  if (rc >= 0) {
    optionsDestroy(&o);
    return rc;
  }
  MlirContext ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx)) {
    toolError("%s", "cannot set up the MLIR context");
    optionsDestroy(&o);
    return 1;
  }
  mlirContextAttachDiagnosticHandler(ctx, handleDiagnostic, NULL, NULL);
  rc = 1;
  KilnOnnxImportOptions importOpts = {.inputShapes = o.shapes,
                                      .numInputShapes = o.numShapes};
  MlirModule module = importModel(ctx, o.input, &importOpts);
  if (mlirModuleIsNull(module))
    goto out;
  MlirOperation op = mlirModuleGetOperation(module);
  if (!mlirOperationVerify(op) ||
      mlirLogicalResultIsFailure(kilnGraphVerify(op)))
    goto out_module;
  if (writeModule(op, o.output, o.debugInfo))
    rc = 0;
out_module:
  mlirModuleDestroy(module);
out:
  kilnContextDestroy(ctx);
  optionsDestroy(&o);
  return rc;
}

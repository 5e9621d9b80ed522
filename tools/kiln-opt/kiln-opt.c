/* kiln-opt: Kiln's mlir-opt. Parses MLIR (graph dialect and upstream),
 * runs a pass pipeline mixing Kiln and upstream passes, prints the result.
 * Drives the lit tests. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "kiln/graph.h"
#include "kiln/kiln.h"
#include "kiln/passes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tools/common/tool_io.h"
#include "tools/kiln-opt/diag_printer.h"
#include "tools/kiln-opt/nesting_limit.h"
#include "tools/kiln-opt/options.h"
#include "tools/kiln-opt/pipeline_text.h"
#include "tools/kiln-opt/reproducer.h"
#include "tools/kiln-opt/split_input.h"
#include "tools/kiln-opt/test_dialect.h"
#include "tools/kiln-opt/verify_diagnostics.h"

static const char *kProg = "kiln-opt";

static void pipelineError(MlirStringRef msg, void *userData) {
  (void)userData;
  kilnPrintToolError(kProg, "invalid pass pipeline: %.*s", (int)msg.length,
                     msg.data);
}

/* Printing and bytecode flags for the output (and IR dumps). */
static MlirOpPrintingFlags createPrintingFlags(const KilnOptOptions *o) {
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (o->printGeneric)
    mlirOpPrintingFlagsPrintGenericOpForm(flags);
  if (o->printDebug || o->prettyDebug)
    mlirOpPrintingFlagsEnableDebugInfo(flags, true, o->prettyDebug);
  if (o->printLocalScope)
    mlirOpPrintingFlagsUseLocalScope(flags);
  if (o->skipRegions)
    mlirOpPrintingFlagsSkipRegions(flags);
  if (o->useNameLocAsPrefix)
    mlirOpPrintingFlagsPrintNameLocAsPrefix(flags);
  if (o->elideElementsLimit >= 0)
    mlirOpPrintingFlagsElideLargeElementsAttrs(flags, o->elideElementsLimit);
  if (o->elideResourceLimit >= 0)
    mlirOpPrintingFlagsElideLargeResourceString(flags, o->elideResourceLimit);
  return flags;
}

/* Builds the pass manager for `op` (the root of a chunk); NULL on a bad
 * pipeline (reported). As in mlir-opt, a pipeline anchored on another op
 * than the root is an error at the root. */
static MlirPassManager createPassManager(MlirContext ctx,
                                         const KilnOptOptions *o,
                                         MlirOperation op, KilnStrBuf *text) {
  MlirStringRef root = mlirIdentifierStr(mlirOperationGetName(op));
  KilnStrBuf err = {0};
  MlirPassManager pm = {NULL};
  if (mlirLogicalResultIsFailure(
          kilnOptBuildPipeline(ctx, o, root, text, &err))) {
    kilnEmitErrorf(mlirLocationUnknownGet(ctx), "%s", kilnStrBufGet(&err));
    goto done;
  }
  MlirStringRef anchor =
      kilnOptPipelineAnchor(mlirStringRefCreate(text->data, text->len));
  bool any = kilnStringRefEquals(anchor, "any");
  if (!any && !mlirStringRefEqual(anchor, root)) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "can't run '%.*s' pass manager on '%.*s' op",
                   (int)anchor.length, anchor.data, (int)root.length,
                   root.data);
    goto done;
  }
  pm = mlirPassManagerCreateOnOperation(ctx, any ? anchor : root);
  if (mlirLogicalResultIsFailure(kilnPipelineAppend(
          mlirPassManagerGetAsOpPassManager(pm), any ? anchor : root,
          mlirStringRefCreate(text->data, text->len), pipelineError, NULL))) {
    mlirPassManagerDestroy(pm);
    pm = (MlirPassManager){NULL};
    goto done;
  }
  if (o->dumpPassPipeline)
    kilnOptDumpPipeline(mlirPassManagerGetAsOpPassManager(pm));
  mlirPassManagerEnableVerifier(pm, o->verifyEach);
  if (o->timing)
    mlirPassManagerEnableTiming(pm);
  if (o->statistics)
    mlirPassManagerEnableStatistics(pm, o->statistics == 2
                                            ? MLIR_PASS_DISPLAY_MODE_LIST
                                            : MLIR_PASS_DISPLAY_MODE_PIPELINE);
  if (o->printBefore || o->printAfter || o->printAfterChange ||
      o->printAfterFailure) {
    MlirOpPrintingFlags flags = createPrintingFlags(o);
    mlirPassManagerEnableIRPrinting(
        pm, o->printBefore,
        o->printAfter || o->printAfterChange || o->printAfterFailure,
        o->printModuleScope, o->printAfterChange, o->printAfterFailure, flags,
        mlirStringRefCreateFromCString(o->printTreeDir ? o->printTreeDir : ""));
    mlirOpPrintingFlagsDestroy(flags);
  }
done:
  kilnStrBufDestroy(&err);
  return pm;
}

/* Where the parser gives up without a word (custom syntax for graph ops,
 * which IRDL cannot parse), point at the first such op. Reported through the
 * context, so --verify-diagnostics sees it like any other error. */
static void reportSilentParseFailure(MlirContext ctx, const char *fileName,
                                     const char *text, size_t length,
                                     int firstLine) {
  int line = firstLine;
  const char *s = text, *end = text + length;
  MlirStringRef file = mlirStringRefCreateFromCString(fileName);
  while (s < end) {
    const char *e = memchr(s, '\n', (size_t)(end - s));
    if (!e)
      e = end;
    const char *hit = NULL;
    for (const char *q = s; q + 6 <= e && !hit; ++q)
      if (!memcmp(q, "graph.", 6) && (q == s || q[-1] == ' ' || q[-1] == '='))
        hit = q;
    if (hit) {
      kilnEmitErrorf(
          mlirLocationFileLineColGet(ctx, file, (unsigned)line,
                                     (unsigned)(hit - s) + 1),
          "cannot parse '%.*s': graph ops must be written in generic form, "
          "e.g. %%0 = \"graph.relu\"(%%x) : (tensor<4xf32>) -> "
          "tensor<4xf32>",
          (int)(e - hit), hit);
      return;
    }
    s = e + 1;
    ++line;
  }
  kilnEmitErrorf(mlirLocationFileLineColGet(ctx, file, (unsigned)firstLine, 1),
                 "failed to parse the input");
}

/* Gives a parser-made location the input's name: mlirModuleCreateParse
 * takes no source name, so its locations say "-". */
static MlirLocation nameLocation(MlirContext ctx, MlirLocation loc,
                                 MlirStringRef fileName) {
  if (!mlirLocationIsAFileLineColRange(loc))
    return loc;
  MlirStringRef file =
      mlirIdentifierStr(mlirLocationFileLineColRangeGetFilename(loc));
  if (!kilnLocationFileIsUnnamed(file))
    return loc;
  /* The parser makes start-only locations; keep them so (bytecode and
   * location equality tell a range ending where it starts apart). */
  if (mlirLocationFileLineColRangeGetStartLine(loc) ==
          mlirLocationFileLineColRangeGetEndLine(loc) &&
      mlirLocationFileLineColRangeGetStartColumn(loc) ==
          mlirLocationFileLineColRangeGetEndColumn(loc))
    return mlirLocationFileLineColGet(
        ctx, fileName, (unsigned)mlirLocationFileLineColRangeGetStartLine(loc),
        (unsigned)mlirLocationFileLineColRangeGetStartColumn(loc));
  return mlirLocationFileLineColRangeGet(
      ctx, fileName, mlirLocationFileLineColRangeGetStartLine(loc),
      mlirLocationFileLineColRangeGetStartColumn(loc),
      mlirLocationFileLineColRangeGetEndLine(loc),
      mlirLocationFileLineColRangeGetEndColumn(loc));
}

typedef struct RenameState {
  MlirContext ctx;
  MlirStringRef fileName;
} RenameState;

static MlirWalkResult renameCallback(MlirOperation op, void *userData) {
  RenameState *st = userData;
  mlirOperationSetLocation(
      op, nameLocation(st->ctx, mlirOperationGetLocation(op), st->fileName));
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      for (intptr_t a = 0; a < mlirBlockGetNumArguments(b); ++a) {
        MlirValue arg = mlirBlockGetArgument(b, a);
        mlirBlockArgumentSetLocation(
            arg,
            nameLocation(st->ctx, mlirValueGetLocation(arg), st->fileName));
      }
  }
  return MlirWalkResultAdvance;
}

/* Parses a chunk the way mlir-opt does: a lone builtin.module is the
 * result, anything else is wrapped in one (with --no-implicit-module, the
 * single top-level op is the root). mlirOperationCreateParse would name the
 * source but accepts only a single top-level op, so the module parser is
 * used and the file name filled in afterwards. Diagnostics from parsing
 * itself carry "-"; the printers treat it as the input's. */
static MlirOperation parseChunk(MlirContext ctx, const KilnOptOptions *o,
                                const KilnStrBuf *text) {
  MlirStringRef source = mlirStringRefCreate(text->data, text->len);
  MlirStringRef fileName = mlirStringRefCreateFromCString(o->input);
  if (o->noImplicitModule)
    return mlirOperationCreateParse(ctx, source, fileName);
  MlirModule module = mlirModuleCreateParse(ctx, source);
  if (mlirModuleIsNull(module))
    return (MlirOperation){NULL};
  MlirOperation op = mlirModuleGetOperation(module);
  RenameState st = {ctx, fileName};
  mlirOperationWalk(op, renameCallback, &st, MlirWalkPreOrder);
  return op;
}

/* mlir-opt gives the module it wraps around a chunk after the first the
 * location where the chunk's buffer starts: just after the split marker. */
static void locateImplicitModule(MlirContext ctx, const char *fileName,
                                 MlirOperation op, const KilnInputChunk *chunk,
                                 const char *buf) {
  MlirLocation loc = mlirOperationGetLocation(op);
  KilnSourcePos pos;
  if (!kilnLocationGetSourcePos(loc, &pos) || pos.line != 0)
    return; /* a module written in the input */
  /* The marker line ends at chunk->data[-1] (its newline). */
  const char *end = chunk->data - 1, *start = end;
  while (start > buf && start[-1] != '\n')
    --start;
  int markerLength = (int)(end - start);
  mlirOperationSetLocation(
      op, mlirLocationFileLineColGet(
              ctx, mlirStringRefCreateFromCString(fileName),
              (unsigned)(chunk->firstLine - 1), (unsigned)markerLength + 1));
}

/* Appends the op to `out` as text or bytecode. */
static void printResult(const KilnOptOptions *o, MlirOperation op,
                        KilnStrBuf *out) {
  if (o->emitBytecode) {
    MlirBytecodeWriterConfig config = mlirBytecodeWriterConfigCreate();
    if (o->bytecodeVersion >= 0)
      mlirBytecodeWriterConfigDesiredEmitVersion(config, o->bytecodeVersion);
    mlirOperationWriteBytecodeWithConfig(op, config, kilnStrBufCallback, out);
    mlirBytecodeWriterConfigDestroy(config);
    return;
  }
  MlirOpPrintingFlags flags = createPrintingFlags(o);
  mlirOperationPrintWithFlags(op, flags, kilnStrBufCallback, out);
  mlirOpPrintingFlagsDestroy(flags);
  kilnStrBufAppend(out, "\n", 1);
}

/* Parses, verifies, transforms and prints one chunk. Returns 0 on success.
 * `printer` is already attached. */
static int processChunk(MlirContext ctx, const KilnOptOptions *o,
                        KilnDiagPrinter *printer, const KilnInputChunk *chunk,
                        KilnStrBuf *out) {
  int line = 0, col = 0;
  if (!kilnNestingWithinLimit(chunk->data, chunk->length, KILN_OPT_MAX_NESTING,
                              &line, &col)) {
    kilnEmitErrorf(mlirLocationFileLineColGet(
                       ctx, mlirStringRefCreateFromCString(o->input),
                       (unsigned)(chunk->firstLine + line - 1), (unsigned)col),
                   "input nests deeper than %d brackets and regions; "
                   "kiln-opt refuses it (MLIR's parser would overflow the "
                   "stack)",
                   KILN_OPT_MAX_NESTING);
    return 1;
  }
  /* Pad with newlines so locations carry whole-file line numbers. */
  KilnStrBuf text = {0};
  for (int i = 1; i < chunk->firstLine; ++i)
    kilnStrBufAppend(&text, "\n", 1);
  kilnStrBufAppend(&text, chunk->data, chunk->length);

  int errorsBefore = printer->numErrors;
  int rc = 1;
  MlirPassManager pm = {NULL};
  KilnStrBuf reproducerInput = {0}, pipeline = {0};
  bool testOps =
      !o->allowUnregistered && kilnOptNamesTestOps(chunk->data, chunk->length);
  if (testOps)
    mlirContextSetAllowUnregisteredDialects(ctx, true);
  MlirOperation op = parseChunk(ctx, o, &text);
  if (testOps && !mlirOperationIsNull(op) &&
      mlirLogicalResultIsFailure(kilnOptCheckOnlyTestOpsUnregistered(ctx, op)))
    goto done;
  if (mlirOperationIsNull(op)) {
    if (printer->numErrors == errorsBefore)
      reportSilentParseFailure(ctx, o->input, chunk->data, chunk->length,
                               chunk->firstLine);
    goto done;
  }
  if (chunk->firstLine > 1 && !o->noImplicitModule)
    locateImplicitModule(ctx, o->input, op, chunk, printer->buf);
  if (!o->noGraphVerify && mlirLogicalResultIsFailure(kilnGraphVerify(op)))
    goto done;
  pm = createPassManager(ctx, o, op, &pipeline);
  if (mlirPassManagerIsNull(pm))
    goto done;
  if (o->crashReproducer || o->generateReproducer)
    kilnReproducerCapture(op, &reproducerInput);
  if (o->generateReproducer &&
      mlirLogicalResultIsFailure(kilnReproducerWrite(
          o->generateReproducer, &reproducerInput,
          mlirStringRefCreate(pipeline.data, pipeline.len), o)))
    goto done;
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op))) {
    if (o->crashReproducer &&
        mlirLogicalResultIsSuccess(kilnReproducerWrite(
            o->crashReproducer, &reproducerInput,
            mlirStringRefCreate(pipeline.data, pipeline.len), o)))
      kilnEmitErrorf(mlirOperationGetLocation(op),
                     "Failures have been detected while processing an MLIR "
                     "pass pipeline; reproducer generated at `%s`",
                     o->crashReproducer);
    if (printer->numErrors == errorsBefore)
      kilnEmitErrorf(mlirOperationGetLocation(op), KILN_SILENT_PIPELINE_FAILURE
                     " (run with --mlir-print-ir-after-failure to see the "
                     "IR it left)");
    goto done;
  }
  printResult(o, op, out);
  rc = 0;
done:
  if (!mlirPassManagerIsNull(pm))
    mlirPassManagerDestroy(pm);
  if (!mlirOperationIsNull(op))
    mlirOperationDestroy(op);
  if (testOps)
    mlirContextSetAllowUnregisteredDialects(ctx, false);
  kilnStrBufDestroy(&reproducerInput);
  kilnStrBufDestroy(&pipeline);
  kilnStrBufDestroy(&text);
  return rc;
}

/* Runs every chunk; returns the process exit status. Under
 * --verify-diagnostics, as in mlir-opt, each chunk's unexpected diagnostics
 * are reported when it is done and the expectations nothing matched at the
 * end. Without it, mlir-opt-22 still reads the annotations and reports each
 * as not produced (on stderr, the exit status unchanged): so does kiln-opt. */
static int run(MlirContext ctx, const KilnOptOptions *o, const char *buf,
               size_t length, KilnStrBuf *out) {
  KilnInputChunk whole = {buf, length, 1};
  KilnInputChunk *chunks = &whole;
  intptr_t numChunks = 1;
  if (o->splitMarker)
    numChunks = kilnSplitInput(buf, length, o->splitMarker, &chunks);
  if (numChunks < 0) {
    kilnPrintToolError(kProg, "cannot split '%s' into chunks", o->input);
    return 1;
  }
  KilnDiagVerifier **verifiers = calloc((size_t)numChunks, sizeof(*verifiers));
  if (!verifiers)
    abort();
  KilnDiagPrinter printer = {o->input, buf, length, 0, o->verifyDiagnostics};
  int status = 0;
  for (intptr_t i = 0; i < numChunks; ++i) {
    verifiers[i] = kilnDiagVerifierCreate(
        o->input, chunks[i].data, chunks[i].length, chunks[i].firstLine);
    MlirDiagnosticHandlerID verifierId = 0;
    if (o->verifyDiagnostics)
      verifierId = kilnDiagVerifierAttach(verifiers[i], ctx);
    MlirDiagnosticHandlerID printerId = kilnDiagPrinterAttach(&printer, ctx);
    int rc = processChunk(ctx, o, &printer, &chunks[i], out);
    mlirContextDetachDiagnosticHandler(ctx, printerId);
    if (o->verifyDiagnostics) {
      mlirContextDetachDiagnosticHandler(ctx, verifierId);
      rc = mlirLogicalResultIsSuccess(kilnDiagVerifierFinishSeen(verifiers[i]))
               ? 0
               : 1;
    }
    status |= rc;
    if (i + 1 < numChunks)
      kilnStrBufAppendf(out, "%s\n", o->outputSplitMarker);
  }
  for (intptr_t i = 0; i < numChunks; ++i) {
    bool matched = mlirLogicalResultIsSuccess(
        kilnDiagVerifierFinishExpected(verifiers[i]));
    if (o->verifyDiagnostics && !matched)
      status = 1;
    kilnDiagVerifierDestroy(verifiers[i]);
  }
  free(verifiers);
  if (chunks != &whole)
    free(chunks);
  return status;
}

/* Checks the pipeline builds on a builtin.module pass manager (reporting
 * errors) before any input is processed, as mlir-opt does while reading its
 * flags. */
static bool validatePipeline(MlirContext ctx, const KilnOptOptions *o) {
  MlirStringRef root = mlirStringRefCreateFromCString("builtin.module");
  KilnStrBuf text = {0}, err = {0};
  bool ok = false;
  if (mlirLogicalResultIsFailure(
          kilnOptBuildPipeline(ctx, o, root, &text, &err))) {
    fprintf(stderr, "<unknown>:0: error: %s\n", kilnStrBufGet(&err));
    goto done;
  }
  MlirStringRef anchor =
      kilnOptPipelineAnchor(mlirStringRefCreate(text.data, text.len));
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, anchor);
  ok = mlirLogicalResultIsSuccess(kilnPipelineAppend(
      mlirPassManagerGetAsOpPassManager(pm), anchor,
      mlirStringRefCreate(text.data, text.len), pipelineError, NULL));
  mlirPassManagerDestroy(pm);
done:
  kilnStrBufDestroy(&text);
  kilnStrBufDestroy(&err);
  return ok;
}

int main(int argc, char **argv) {
  KilnOptOptions o;
  int status = kilnOptParseOptions(argc, argv, &o);
  if (status >= 0) {
    kilnOptOptionsDestroy(&o);
    return status;
  }
  status = 1;
  MlirContext ctx = {NULL};
  KilnStrBuf out = {0};
  size_t length = 0;
  char *buf = kilnToolReadFile(o.input, &length);
  if (!buf) {
    kilnPrintToolError(kProg, "cannot open input file '%s': %s", o.input,
                       strerror(errno));
    goto done;
  }
  if (o.runReproducer &&
      mlirLogicalResultIsFailure(kilnReproducerLoad(buf, length, &o)))
    goto done;
  if (o.pipelineFlag && o.numPassFlags > 0) {
    fprintf(stderr, "<unknown>:0: error: '-pass-pipeline' option can't be "
                    "used with individual pass options\n");
    goto done;
  }
  ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx)) {
    kilnPrintToolError(kProg, "cannot set up the MLIR context");
    goto done;
  }
  mlirContextSetAllowUnregisteredDialects(ctx, o.allowUnregistered);
  /* MLIR aborts when IR printing is set up on a multithreaded context. */
  if (o.disableThreading || o.printBefore || o.printAfter ||
      o.printAfterChange || o.printAfterFailure)
    mlirContextEnableMultithreading(ctx, false);
  if (!validatePipeline(ctx, &o))
    goto done;
  status = run(ctx, &o, buf, length, &out);
  /* A file is written only when everything succeeded, so nothing half-done
   * lands on disk; stdout gets what the chunks that succeeded printed, as
   * from mlir-opt. */
  bool toStdout = !strcmp(o.output, "-");
  if ((status == 0 || (toStdout && out.len > 0)) &&
      kilnToolWriteFileAtomically(o.output, kilnStrBufGet(&out), out.len) !=
          0) {
    kilnPrintToolError(kProg, "cannot write '%s': %s", o.output,
                       strerror(errno));
    status = 1;
  }
done:
  kilnContextDestroy(ctx);
  kilnStrBufDestroy(&out);
  kilnOptOptionsDestroy(&o);
  free(buf);
  return status;
}

/* kiln-opt: Kiln's mlir-opt. Parses MLIR (graph dialect and upstream),
 * runs a pass pipeline mixing Kiln and upstream passes, prints the result.
 * Drives the lit tests. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/common/diag.h"
#include "dialects/graph/verify.h"
#include "kiln/kiln.h"
#include "kiln/passes.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tools/common/tool_io.h"
#include "tools/kiln-opt/diag_printer.h"
#include "tools/kiln-opt/options.h"
#include "tools/kiln-opt/split_input.h"
#include "tools/kiln-opt/verify_diagnostics.h"

static const char *kProg = "kiln-opt";

static void pipelineError(MlirStringRef msg, void *userData) {
  (void)userData;
  kilnPrintToolError(kProg, "invalid pass pipeline: %.*s", (int)msg.length,
                     msg.data);
}

/* Builds the pass manager for an op named `anchor`; NULL on a bad pipeline
 * (reported). */
static MlirPassManager createPassManager(MlirContext ctx,
                                         const KilnOptOptions *o,
                                         MlirStringRef anchor) {
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, anchor);
  if (mlirLogicalResultIsFailure(kilnPipelineAppend(
          mlirPassManagerGetAsOpPassManager(pm), anchor,
          mlirStringRefCreate(o->pipeline.data, o->pipeline.len), pipelineError,
          NULL))) {
    mlirPassManagerDestroy(pm);
    return (MlirPassManager){NULL};
  }
  mlirPassManagerEnableVerifier(pm, true);
  if (o->timing)
    mlirPassManagerEnableTiming(pm);
  if (o->printBefore || o->printAfter || o->printAfterChange) {
    MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
    mlirPassManagerEnableIRPrinting(
        pm, o->printBefore, o->printAfter || o->printAfterChange,
        /*printModuleScope=*/true, o->printAfterChange,
        /*printAfterOnlyOnFailure=*/false, flags, mlirStringRefCreate(NULL, 0));
    mlirOpPrintingFlagsDestroy(flags);
  }
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
 * result, anything else is wrapped in one. mlirOperationCreateParse would
 * name the source but accepts only a single top-level op, so the module
 * parser is used and the file name filled in afterwards. Diagnostics from
 * parsing itself carry "-"; the printers treat it as the input's. */
static MlirOperation parseChunk(MlirContext ctx, const char *fileName,
                                const KilnStrBuf *text) {
  MlirModule module =
      mlirModuleCreateParse(ctx, mlirStringRefCreate(text->data, text->len));
  if (mlirModuleIsNull(module))
    return (MlirOperation){NULL};
  MlirOperation op = mlirModuleGetOperation(module);
  RenameState st = {ctx, mlirStringRefCreateFromCString(fileName)};
  mlirOperationWalk(op, renameCallback, &st, MlirWalkPreOrder);
  return op;
}

/* Parses, verifies, transforms and prints one chunk. Returns 0 on success.
 * `printer` is already attached. */
static int processChunk(MlirContext ctx, const KilnOptOptions *o,
                        KilnDiagPrinter *printer, const KilnInputChunk *chunk,
                        KilnStrBuf *out) {
  /* Pad with newlines so locations carry whole-file line numbers. */
  KilnStrBuf text = {0};
  for (int i = 1; i < chunk->firstLine; ++i)
    kilnStrBufAppend(&text, "\n", 1);
  kilnStrBufAppend(&text, chunk->data, chunk->length);

  int errorsBefore = printer->numErrors;
  int rc = 1;
  MlirPassManager pm = {NULL};
  MlirOperation op = parseChunk(ctx, o->input, &text);
  if (mlirOperationIsNull(op)) {
    if (printer->numErrors == errorsBefore)
      reportSilentParseFailure(ctx, o->input, chunk->data, chunk->length,
                               chunk->firstLine);
    goto done;
  }
  if (!o->noGraphVerify && mlirLogicalResultIsFailure(kilnGraphVerify(op)))
    goto done;
  pm = createPassManager(ctx, o, mlirIdentifierStr(mlirOperationGetName(op)));
  if (mlirPassManagerIsNull(pm))
    goto done;
  if (mlirLogicalResultIsFailure(mlirPassManagerRunOnOp(pm, op)))
    goto done;
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  if (o->printGeneric)
    mlirOpPrintingFlagsPrintGenericOpForm(flags);
  if (o->printDebug)
    mlirOpPrintingFlagsEnableDebugInfo(flags, true, false);
  mlirOperationPrintWithFlags(op, flags, kilnStrBufCallback, out);
  mlirOpPrintingFlagsDestroy(flags);
  kilnStrBufAppend(out, "\n", 1);
  rc = 0;
done:
  if (!mlirPassManagerIsNull(pm))
    mlirPassManagerDestroy(pm);
  if (!mlirOperationIsNull(op))
    mlirOperationDestroy(op);
  kilnStrBufDestroy(&text);
  return rc;
}

/* Runs every chunk; returns the process exit status. */
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
  KilnDiagPrinter printer = {o->input, buf, length, 0, o->verifyDiagnostics};
  int status = 0;
  for (intptr_t i = 0; i < numChunks; ++i) {
    KilnDiagVerifier *verifier = NULL;
    MlirDiagnosticHandlerID verifierId = 0;
    if (o->verifyDiagnostics) {
      verifier = kilnDiagVerifierCreate(o->input, chunks[i].data,
                                        chunks[i].length, chunks[i].firstLine);
      verifierId = kilnDiagVerifierAttach(verifier, ctx);
    }
    MlirDiagnosticHandlerID printerId = kilnDiagPrinterAttach(&printer, ctx);
    int rc = processChunk(ctx, o, &printer, &chunks[i], out);
    mlirContextDetachDiagnosticHandler(ctx, printerId);
    if (verifier) {
      mlirContextDetachDiagnosticHandler(ctx, verifierId);
      rc = mlirLogicalResultIsSuccess(kilnDiagVerifierFinish(verifier)) ? 0 : 1;
      kilnDiagVerifierDestroy(verifier);
    }
    status |= rc;
    if (i + 1 < numChunks)
      kilnStrBufAppend(out, "// -----\n", 9);
  }
  if (chunks != &whole)
    free(chunks);
  return status;
}

int main(int argc, char **argv) {
  KilnOptOptions o;
  int status = kilnOptParseOptions(argc, argv, &o);
  if (status >= 0) {
    kilnStrBufDestroy(&o.pipeline);
    return status;
  }
  status = 1;
  MlirContext ctx = {NULL};
  KilnStrBuf out = {0};
  size_t length = 0;
  char *buf = kilnToolReadFile(o.input, &length);
  if (!buf) {
    kilnPrintToolError(kProg, "cannot read '%s': %s", o.input, strerror(errno));
    goto done;
  }
  ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx)) {
    kilnPrintToolError(kProg, "cannot set up the MLIR context");
    goto done;
  }
  mlirContextSetAllowUnregisteredDialects(ctx, o.allowUnregistered);
  /* MLIR aborts when IR printing is set up on a multithreaded context. */
  if (o.printBefore || o.printAfter || o.printAfterChange)
    mlirContextEnableMultithreading(ctx, false);
  if (!kilnOptValidatePipeline(ctx, &o))
    goto done;
  status = run(ctx, &o, buf, length, &out);
  /* With -verify-diagnostics the output is secondary; still, write it only
   * when everything succeeded, so nothing half-done lands on disk. */
  if (status == 0 && !o.verifyDiagnostics &&
      kilnToolWriteFileAtomically(o.output, kilnStrBufGet(&out), out.len) !=
          0) {
    kilnPrintToolError(kProg, "cannot write '%s': %s", o.output,
                       strerror(errno));
    status = 1;
  }
done:
  kilnContextDestroy(ctx);
  kilnStrBufDestroy(&out);
  kilnStrBufDestroy(&o.pipeline);
  free(buf);
  return status;
}

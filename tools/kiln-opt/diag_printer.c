#include "tools/kiln-opt/diag_printer.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "kiln/diagnostics.h"

void kilnPrintToolError(const char *prog, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "%s: error: ", prog);
  vfprintf(stderr, fmt, ap);
  fputc('\n', stderr);
  va_end(ap);
}

/* Prints line `line` of the input and a caret under column `col`. Long
 * lines (a generated file may have one of megabytes) are cut to a window
 * around the column. */
static void printExcerpt(const KilnDiagPrinter *p, int line, int col) {
  enum { kWindow = 80 };
  const char *s = p->buf, *end = p->buf + p->length;
  for (int l = 1; l < line && s < end; ++l) {
    const char *nl = memchr(s, '\n', (size_t)(end - s));
    s = nl ? nl + 1 : end;
  }
  if (s >= end)
    return;
  const char *e = memchr(s, '\n', (size_t)(end - s));
  e = e ? e : end;
  int caret = col > 0 ? col - 1 : 0;
  const char *from = s, *to = e;
  if (caret > kWindow && e - s > 2 * kWindow) {
    from = s + caret - kWindow;
    caret = kWindow + 3;
    fputs("...", stderr);
  }
  if (to - from > 2 * kWindow)
    to = from + 2 * kWindow;
  /* Control bytes (garbage input) would garble the terminal: show '.'. */
  for (const char *q = from; q < to; ++q)
    fputc((unsigned char)*q < 0x20 && *q != '\t' ? '.' : *q, stderr);
  fprintf(stderr, "%s\n%*s^\n", to < e ? "..." : "", caret, "");
}

static void printOne(const KilnDiagPrinter *p, MlirDiagnostic d) {
  KilnSourcePos pos;
  KilnStrBuf msg = {0};
  mlirDiagnosticPrint(d, kilnStrBufCallback, &msg);
  const char *sev = kilnDiagnosticSeverityGetName(mlirDiagnosticGetSeverity(d));
  if (kilnLocationGetSourcePos(mlirDiagnosticGetLocation(d), &pos)) {
    /* Locations made while parsing name no file: they are the input's. */
    bool inInput = kilnLocationFileIsUnnamed(pos.file) ||
                   kilnStringRefEquals(pos.file, p->fileName);
    if (inInput)
      pos.file = mlirStringRefCreateFromCString(p->fileName);
    fprintf(stderr, "%.*s:%d:%d: %s: %s\n", (int)pos.file.length, pos.file.data,
            pos.line, pos.col, sev, kilnStrBufGet(&msg));
    if (p->buf && inInput)
      printExcerpt(p, pos.line, pos.col);
  } else if (mlirLocationEqual(mlirDiagnosticGetLocation(d),
                               mlirLocationUnknownGet(mlirLocationGetContext(
                                   mlirDiagnosticGetLocation(d))))) {
    fprintf(stderr, "<unknown>:0: %s: %s\n", sev, kilnStrBufGet(&msg));
  } else {
    KilnStrBuf loc = {0};
    mlirLocationPrint(mlirDiagnosticGetLocation(d), kilnStrBufCallback, &loc);
    fprintf(stderr, "%s: %s: %s\n", kilnStrBufGet(&loc), sev,
            kilnStrBufGet(&msg));
    kilnStrBufDestroy(&loc);
  }
  kilnStrBufDestroy(&msg);
  intptr_t notes = mlirDiagnosticGetNumNotes(d);
  for (intptr_t i = 0; i < notes; ++i)
    printOne(p, mlirDiagnosticGetNote(d, i));
}

static MlirLogicalResult handle(MlirDiagnostic d, void *userData) {
  KilnDiagPrinter *p = userData;
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError)
    ++p->numErrors;
  if (p->forward)
    return mlirLogicalResultFailure(); /* not handled: pass it on */
  printOne(p, d);
  return mlirLogicalResultSuccess();
}

MlirDiagnosticHandlerID kilnDiagPrinterAttach(KilnDiagPrinter *p,
                                              MlirContext ctx) {
  return mlirContextAttachDiagnosticHandler(ctx, handle, p, NULL);
}

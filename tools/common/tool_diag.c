#include "tools/common/tool_diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/common/diag.h"
#include "runtime/printable_text.h"

void kilnToolPrintMessage(const char *program, const char *severity,
                          const char *location, const char *text) {
  char *w = kilnPrintableTextCreate(location ? location : program);
  char *m = kilnPrintableTextCreate(text);
  if (!location && !strcmp(severity, "remark"))
    fprintf(stderr, "%s: %s\n", w, m);
  else
    fprintf(stderr, "%s: %s: %s\n", w, severity, m);
  free(w);
  free(m);
}

void kilnToolPrintDiagnostic(MlirDiagnostic d) {
  KilnStrBuf where = {0}, msg = {0};
  kilnStrBufAppendLocation(&where, mlirDiagnosticGetLocation(d));
  mlirDiagnosticPrint(d, kilnStrBufCallback, &msg);
  kilnToolPrintMessage(
      NULL, kilnDiagnosticSeverityGetName(mlirDiagnosticGetSeverity(d)),
      kilnStrBufGet(&where), kilnStrBufGet(&msg));
  kilnStrBufDestroy(&where);
  kilnStrBufDestroy(&msg);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); ++i)
    kilnToolPrintDiagnostic(mlirDiagnosticGetNote(d, i));
}

#include "tools/common/tool_diag.h"

#include <stdio.h>
#include <stdlib.h>

#include "dialects/common/diag.h"
#include "runtime/printable_text.h"

void kilnToolPrintDiagnostic(MlirDiagnostic d) {
  KilnStrBuf where = {0}, msg = {0};
  kilnStrBufAppendLocation(&where, mlirDiagnosticGetLocation(d));
  mlirDiagnosticPrint(d, kilnStrBufCallback, &msg);
  char *w = kilnPrintableTextCreate(kilnStrBufGet(&where));
  char *m = kilnPrintableTextCreate(kilnStrBufGet(&msg));
  fprintf(stderr, "%s: %s: %s\n", w,
          kilnDiagnosticSeverityGetName(mlirDiagnosticGetSeverity(d)), m);
  free(w);
  free(m);
  kilnStrBufDestroy(&where);
  kilnStrBufDestroy(&msg);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); ++i)
    kilnToolPrintDiagnostic(mlirDiagnosticGetNote(d, i));
}

#include "tools/common/tool_diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln_runtime.h"

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

/* Prints diagnostics like mlir-opt: `FILE:LINE:COL: error: MSG`, the source
 * line and a caret when the location points into the input. */
#ifndef KILN_TOOLS_KILN_OPT_DIAG_PRINTER_H
#define KILN_TOOLS_KILN_OPT_DIAG_PRINTER_H

#include <stddef.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"

typedef struct KilnDiagPrinter {
  const char *fileName; /* the input's name, to match locations against */
  const char *buf;      /* the whole input, for source excerpts */
  size_t length;
  int numErrors; /* counted, also when `forward` is set */
  /* When true, diagnostics are only counted and passed on unhandled (to the
   * -verify-diagnostics handler attached before this one). */
  int forward;
} KilnDiagPrinter;

/// Attaches `p` (which must outlive the handler) to `ctx`.
MlirDiagnosticHandlerID kilnDiagPrinterAttach(KilnDiagPrinter *p,
                                              MlirContext ctx);

/// Prints a tool-level error `PROG: error: MSG` to stderr.
void kilnPrintToolError(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif

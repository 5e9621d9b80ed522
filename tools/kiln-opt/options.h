/* kiln-opt's command line. */
#ifndef KILN_TOOLS_KILN_OPT_OPTIONS_H
#define KILN_TOOLS_KILN_OPT_OPTIONS_H

#include <stdbool.h>

#include "dialects/common/diag.h"
#include "mlir-c/IR.h"

typedef struct KilnOptOptions {
  const char *input;   /* "-" = stdin */
  const char *output;  /* "-" = stdout */
  KilnStrBuf pipeline; /* --pass-pipeline text, or the --PASS flags joined */
  const char *splitMarker; /* NULL: no splitting */
  int verifyDiagnostics;
  int printBefore, printAfter, printAfterChange, printGeneric, printDebug;
  int timing;
  int allowUnregistered;
  int noGraphVerify;
} KilnOptOptions;

/// Parses argv into `o` (which the caller releases with
/// kilnStrBufDestroy(&o->pipeline)). Returns -1 to go on, or the exit status
/// when done already (--help, --version, --list-passes, a bad flag).
int kilnOptParseOptions(int argc, char **argv, KilnOptOptions *o);

/// Checks the pipeline builds on a builtin.module pass manager (reporting
/// errors) before any input is processed.
bool kilnOptValidatePipeline(MlirContext ctx, const KilnOptOptions *o);

#endif

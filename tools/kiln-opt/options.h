/* kiln-opt's command line: mlir-opt's generic flags, Kiln's own, and each
 * pass name as a flag. */
#ifndef KILN_TOOLS_KILN_OPT_OPTIONS_H
#define KILN_TOOLS_KILN_OPT_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/diagnostics.h"
#include "mlir-c/IR.h"

/// One `--PASS[=OPTIONS]` flag, in command-line order. Both strings borrow
/// from argv.
typedef struct KilnOptPassFlag {
  const char *name; /* not NUL-terminated at the '=': use nameLength */
  size_t nameLength;
  const char *options; /* NULL without '=' */
} KilnOptPassFlag;

typedef struct KilnOptOptions {
  const char *input;  /* "-" = stdin */
  const char *output; /* "-" = stdout */
  /* --pass-pipeline text (anchored, as mlir-opt requires); NULL when the
   * pipeline comes from pass flags. */
  const char *pipelineFlag;
  KilnOptPassFlag *passFlags; /* owned array */
  int numPassFlags;
  KilnStrBuf reproducerPipeline; /* --run-reproducer: pipelineFlag text */
  const char *splitMarker;       /* NULL: no splitting */
  const char *outputSplitMarker; /* between the chunks' outputs */
  int verifyDiagnostics;
  int printBefore, printAfter, printAfterChange, printAfterFailure;
  int printModuleScope;
  const char *printTreeDir;
  int printGeneric, printDebug, prettyDebug, printLocalScope, skipRegions;
  int useNameLocAsPrefix;
  int64_t elideElementsLimit; /* -1: no eliding */
  int64_t elideResourceLimit; /* -1: no eliding */
  int timing;
  int statistics; /* 0 off, 1 pipeline display, 2 list display */
  int disableThreading;
  int verifyEach; /* default on, as in mlir-opt */
  int emitBytecode;
  int64_t bytecodeVersion; /* -1: the current version */
  int dumpPassPipeline;
  int allowUnregistered;
  int noImplicitModule;
  const char *crashReproducer;    /* --mlir-pass-pipeline-crash-reproducer */
  const char *generateReproducer; /* --mlir-generate-reproducer */
  int runReproducer;
  int noGraphVerify;
} KilnOptOptions;

/// Parses argv into `o` (which the caller releases with kilnOptOptionsDestroy).
/// Returns -1 to go on, or the exit status when done already (--help,
/// --version, --list-passes, a bad flag).
int kilnOptParseOptions(int argc, char **argv, KilnOptOptions *o);

/// Releases what kilnOptParseOptions allocated in `o`.
void kilnOptOptionsDestroy(KilnOptOptions *o);

#endif

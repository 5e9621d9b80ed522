/* kiln-opt's --verify-diagnostics: mlir-opt's -verify-diagnostics in C.
 *
 * A test file states the diagnostics it expects beside the IR:
 *
 *   %0 = "test.op"() : () -> i32  // expected-error {{message part}}
 *   // expected-warning@+1 {{...}}     the next line (@-N: N lines up)
 *   // expected-note@above {{...}}     the last line without an annotation
 *   // expected-remark@below {{...}}   the next line without an annotation
 *   // expected-error@unknown {{...}}  a diagnostic without a file location
 *   // expected-error-re {{literal {{regex}} literal}}
 *
 * As in MLIR, a diagnostic matches an expectation when it is on the expected
 * line, has the same severity and its message contains the text (or matches
 * the -re pattern, a POSIX extended regex inside each inner {{...}}). Notes
 * attached to a diagnostic are checked like diagnostics. One expectation may
 * match several diagnostics. Text that does not parse as an annotation (no
 * {{...}}, a bad @ designator) is skipped as by MLIR, with a warning that
 * does not fail the run; an annotation whose line is outside the checked
 * chunk, or a dangling @below/@above, fails it (MLIR reports those as not
 * produced), as does a bad -re pattern. The "see current operation"
 * notes MLIR attaches to op errors are ignored (mlir-opt turns them off under
 * -verify-diagnostics; the C API cannot), and locations in the unnamed
 * source "-" that MLIR's string parsers use count as this file.
 *
 * Use: Create (per chunk), Attach to the context, parse and run passes, Finish
 * (prints mismatches to stderr), detach or Destroy. */
#ifndef KILN_TOOLS_KILN_OPT_VERIFY_DIAGNOSTICS_H
#define KILN_TOOLS_KILN_OPT_VERIFY_DIAGNOSTICS_H

#include <stddef.h>
#include <stdint.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

typedef struct KilnDiagVerifier KilnDiagVerifier;

/// Scans `buf` (one chunk, whose first line is line `firstLine` of file
/// `fileName`) for expected-* annotations. Copies what it keeps: `fileName`
/// and `buf` may be released afterwards. Malformed annotations are recorded
/// and reported by kilnDiagVerifierFinish. Returns NULL only when memory runs
/// out. Release with kilnDiagVerifierDestroy.
KilnDiagVerifier *kilnDiagVerifierCreate(const char *fileName, const char *buf,
                                         size_t length, int firstLine);
/// Detaches the verifier from its context if still attached, then frees it.
/// NULL is a no-op.
void kilnDiagVerifierDestroy(KilnDiagVerifier *v);

/// Attaches a diagnostic handler to `ctx` that records every diagnostic and
/// its notes (severity, location resolved to a line, message) instead of
/// printing it. Returns the handler id for mlirContextDetachDiagnosticHandler.
/// A verifier is attached to at most one context at a time; attaching again
/// detaches the previous handler.
MlirDiagnosticHandlerID kilnDiagVerifierAttach(KilnDiagVerifier *v,
                                               MlirContext ctx);

/// Records a diagnostic as if the context had emitted it: for tools that
/// report their own errors (say, a parse that failed silently) under
/// verification.
void kilnDiagVerifierRecord(KilnDiagVerifier *v,
                            MlirDiagnosticSeverity severity, MlirLocation loc,
                            const char *message);

/// Returns the number of well-formed expectations found in the buffer.
intptr_t kilnDiagVerifierGetNumExpected(const KilnDiagVerifier *v);

/// Checks the recorded diagnostics against the expectations: each expected one
/// must have been seen (on its line, with the same severity, with a message
/// containing its text), each seen one must have been expected. Prints each
/// mismatch and each malformed annotation to stderr in mlir-opt's style:
///   FILE:LINE:COL: error: unexpected error: MSG
///   FILE:LINE:COL: error: expected error "MSG" was not produced
/// (the latter at the annotation). Returns success only if everything matched.
MlirLogicalResult kilnDiagVerifierFinish(KilnDiagVerifier *v);

/// Finish in two halves, for mlir-opt's order over split chunks (each
/// chunk's unexpected diagnostics when it is done, every chunk's missing
/// ones at the end): the malformed annotations and unexpected diagnostics,
/// then the expectations nothing matched.
MlirLogicalResult kilnDiagVerifierFinishSeen(KilnDiagVerifier *v);
MlirLogicalResult kilnDiagVerifierFinishExpected(KilnDiagVerifier *v);

#endif

/* How the model tools (kiln-compile, kiln-run) print the messages of a
 * compiler session (kiln/session.h): a diagnostic as "LOCATION: SEVERITY:
 * MESSAGE", its notes after it the same way; an importer location (a
 * NameLoc around FILE:0:0, see kiln/onnx.h) reads "FILE: NODE", others
 * "FILE:LINE:COL". Locations and messages quote the model's node and
 * tensor names, so both are made printable first
 * (kilnPrintableTextCreate, kiln/kiln_runtime.h). kiln-opt prints as mlir-opt
 * does instead (tools/kiln-opt/diag_printer.h). */
#ifndef KILN_TOOLS_COMMON_TOOL_DIAG_H
#define KILN_TOOLS_COMMON_TOOL_DIAG_H

/// Prints one message of a compiler session (kiln/session.h) to stderr: a
/// diagnostic (with a `location`) as "LOCATION: SEVERITY: TEXT", a remark
/// as "PROGRAM: TEXT", others as "PROGRAM: SEVERITY: TEXT".
void kilnToolPrintMessage(const char *program, const char *severity,
                          const char *location, const char *text);

#endif

/* What the command lines of Kiln's model tools share (kiln-compile,
 * kiln-run, kiln-run-module, kiln-classify): one exit-code table, --version,
 * and the check that a model file is one. kiln-opt is the exception: it
 * exits as mlir-opt does (0 or 1), being a drop-in for it.
 *
 * libc and libkiln_runtime only: kiln-run-module links no MLIR. */
#ifndef KILN_TOOLS_COMMON_TOOL_CLI_H
#define KILN_TOOLS_COMMON_TOOL_CLI_H

#include <stdarg.h>
#include <stdbool.h>

/// The exit codes of every model tool (docs/tools.md#exit-codes; the
/// conformance runner depends on them).
enum {
  kExitPass = 0,        /* done; every expected output matches */
  kExitMismatch = 1,    /* an output differs from its expected file */
  kExitUsage = 2,       /* bad flags, or a missing/unusable input file */
  kExitUnsupported = 3, /* the model needs something Kiln lacks */
  kExitCompile = 4      /* any other compile or run error */
};

/// The table above as --help prints it (ends with a newline).
extern const char kilnToolExitCodeHelp[];

/// Prints "PROGRAM: error: MESSAGE" and a newline to stderr, the message
/// printf-formatted and made printable (kilnPrintableTextCreate: messages
/// quote names from models and libraries). Every tool's error printer.
void kilnToolError(const char *program, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void kilnToolErrorV(const char *program, const char *fmt, va_list ap)
    __attribute__((format(printf, 2, 0)));

/// Prints "PROGRAM VERSION" to stdout, for --version.
void kilnToolPrintVersion(const char *program);

/// Does a diagnostic say Kiln does not support something? (exit 3)
bool kilnToolIsUnsupportedMessage(const char *msg);

/// Checks that `path` is a readable regular file and not one of the
/// formats people give a model compiler by mistake (a PyTorch checkpoint,
/// a NumPy array, a Keras/TFLite/GGUF/safetensors file; a shared library
/// too unless `libraryIsModel`). Otherwise prints "PROGRAM: error: ..."
/// saying what the file is and what to do, and returns false (exit 2).
bool kilnToolCheckModelFile(const char *program, const char *path,
                            bool libraryIsModel);

#endif

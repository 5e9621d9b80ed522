/* Diagnostics and the text they are built from: the support library that
 * Kiln's compiler, its tools and programs that use MLIR's C API beside
 * Kiln's share (implemented in support/diagnostics.c).
 *
 * MLIR hands text to callbacks in fragments (MlirStringCallback); KilnStrBuf
 * accumulates them. Errors are emitted at real locations through the
 * context's diagnostic engine, never printed directly (only tools/ print).
 * Locations are resolved to source positions as Kiln's tools print them. */
#ifndef KILN_DIAGNOSTICS_H
#define KILN_DIAGNOSTICS_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A growable, always NUL-terminated byte buffer. Zero-initialize to start;
/// release with kilnStrBufDestroy.
typedef struct KilnStrBuf {
  char *data;
  size_t len;
  size_t cap;
} KilnStrBuf;

/// Appends `n` bytes. Aborts on allocation failure (out of memory is not a
/// user error Kiln can report meaningfully).
void kilnStrBufAppend(KilnStrBuf *buf, const char *s, size_t n);
/// Appends printf-formatted text.
void kilnStrBufAppendf(KilnStrBuf *buf, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void kilnStrBufAppendv(KilnStrBuf *buf, const char *fmt, va_list ap);
/// Returns the contents ("" when empty); borrowed, valid until next append.
const char *kilnStrBufGet(const KilnStrBuf *buf);
void kilnStrBufClear(KilnStrBuf *buf);
void kilnStrBufDestroy(KilnStrBuf *buf);

/// MlirStringCallback appending each fragment to the KilnStrBuf in userData.
void kilnStrBufCallback(MlirStringRef fragment, void *userData);

/// Emits an error diagnostic at `loc` with printf-formatted text.
/// What a tool says when a pass pipeline fails without a diagnostic (some
/// upstream passes do: shard-partition on an op it cannot partition), so
/// that it never fails in silence; the tool adds how to see more.
#define KILN_SILENT_PIPELINE_FAILURE                                           \
  "the pass pipeline failed: a pass signalled failure without a diagnostic"

void kilnEmitErrorf(MlirLocation loc, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/// "error", "warning", "note" or "remark", as MLIR's tools print them.
const char *kilnDiagnosticSeverityGetName(MlirDiagnosticSeverity severity);

/// Appends the textual form of a type / attribute to `buf`.
void kilnStrBufAppendType(KilnStrBuf *buf, MlirType type);
void kilnStrBufAppendAttribute(KilnStrBuf *buf, MlirAttribute attr);
/// Appends where `loc` points, as Kiln's tools print it: `FILE: NODE` for
/// importer locations (a NameLoc around FILE:0:0, see kiln/onnx.h),
/// `FILE:LINE:COL` for text, `FILE` when the line is unknown, else MLIR's
/// own form.
void kilnStrBufAppendLocation(KilnStrBuf *buf, MlirLocation loc);

/// Compares an MlirStringRef with a NUL-terminated string.
int kilnStringRefEquals(MlirStringRef ref, const char *s);
/// calloc that aborts when memory runs out (never a user error here); zero
/// elements still allocate one byte, so the result is never NULL.
void *kilnXCalloc(size_t count, size_t size);
/// A malloc'd copy of `s` (NULL for NULL); aborts when memory runs out.
char *kilnStrDup(const char *s);
/// Whether the string `s` ends with `suffix`.
bool kilnStrHasSuffix(const char *s, const char *suffix);

/// `s` as an MlirStringRef (borrowed: `s` must outlive its uses).
static inline MlirStringRef kilnStr(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

/// A location resolved to a source position. `file` is borrowed from the
/// context (valid while it lives); line/col are 1-based, 0 when unknown.
typedef struct KilnSourcePos {
  MlirStringRef file;
  int line;
  int col;
} KilnSourcePos;

/// Finds the file position a location points at: through NameLoc children,
/// a CallSite's callee, and a Fused loc's first located member. Returns false
/// (pos zeroed) for unknown locations.
bool kilnLocationGetSourcePos(MlirLocation loc, KilnSourcePos *pos);

/// True for the file names MLIR's string parsers give locations when no
/// source name is passed ("" or "-"): such text came from the tool's input.
bool kilnLocationFileIsUnnamed(MlirStringRef file);

#ifdef __cplusplus
}
#endif

#endif

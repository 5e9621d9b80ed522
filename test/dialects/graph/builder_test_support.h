/* Set-up shared by the typed-builder unit tests (builders-*.c).
 *
 * A test parses a function whose arguments (and optional body ops) are the
 * operands, builds ops into it with the typed builders, shows each result
 * type and ends by verifying (and printing) the module. Everything prints to
 * stderr, which the builders-*.test files read with FileCheck; the context's
 * diagnostic handler prints every diagnostic with its location, so error
 * cases show their message. */
#ifndef KILN_TEST_DIALECTS_GRAPH_BUILDER_TEST_SUPPORT_H
#define KILN_TEST_DIALECTS_GRAPH_BUILDER_TEST_SUPPORT_H

#include <stdint.h>

#include "kiln/graph_builder.h"
#include "mlir-c/IR.h"

typedef struct KilnTestFixture {
  MlirContext ctx;     /* borrowed */
  MlirModule module;   /* owned, released by kilnTestEnd */
  MlirBlock body;      /* the function's entry block */
  KilnGraphBuilder *b; /* owned, released by kilnTestEnd */
} KilnTestFixture;

/// Creates a Kiln context with a handler that prints each diagnostic as
/// "diagnostic: <location>: <message>". Returns a null context (after
/// printing why) on failure. Destroy with kilnTestContextDestroy.
MlirContext kilnTestContextCreate(void);
/// Destroys a context made by kilnTestContextCreate; null is a no-op.
void kilnTestContextDestroy(MlirContext ctx);

/// Prints "TEST: <name>", parses
/// `func.func @<name>(<args>) { <body> func.return }` (`body` may be NULL)
/// and returns a fixture whose builder inserts before the return, at
/// location model.onnx:3:1. Aborts when the text does not parse: the test
/// itself is wrong. Release with kilnTestEnd.
KilnTestFixture kilnTestBegin(MlirContext ctx, const char *name,
                              const char *args, const char *body);

/// The function's i-th argument.
MlirValue kilnTestArg(const KilnTestFixture *f, intptr_t i);

/// Prints a value's type, or "null" for a null value (a failed build).
void kilnTestPrintType(MlirValue v);
/// Prints "<label>: <type>" or "<label>: null" and a newline.
void kilnTestShow(const char *label, MlirValue v);

/// What kilnTestEnd prints besides "verify: success|failure".
enum {
  /* "ops: <n>" first: the body's op count shows that failed builds
   * inserted nothing. */
  KILN_TEST_PRINT_OPS = 1u,
  /* The whole module, after verifying it. */
  KILN_TEST_PRINT_MODULE = 2u
};

/// Verifies the module and prints what `flags` asks for, then releases the
/// fixture's builder and module.
void kilnTestEnd(KilnTestFixture *f, unsigned flags);

#endif

/* Unit tests for kilnPipelineAppend: each TEST prints the pipeline MLIR
 * ends up with (or the error message); pipeline-parser.test checks them. */
#include <stdio.h>
#include <string.h>

#include "kiln/kiln.h"
#include "kiln/passes.h"
#include "mlir-c/Pass.h"

static void printChunk(MlirStringRef s, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s", (int)s.length, s.data);
}

/* Parses `text` into a fresh module pass manager and prints the result. */
static void check(MlirContext ctx, const char *name, const char *text) {
  fprintf(stderr, "TEST: %s\n", name);
  MlirStringRef anchor = mlirStringRefCreateFromCString("builtin.module");
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, anchor);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  if (mlirLogicalResultIsSuccess(
          kilnPipelineAppend(opm, anchor, mlirStringRefCreateFromCString(text),
                             printChunk, NULL))) {
    fprintf(stderr, "ok: ");
    mlirPrintPassPipeline(opm, printChunk, NULL);
  } else {
    fprintf(stderr, "\nfailed");
  }
  fprintf(stderr, "\n");
  mlirPassManagerDestroy(pm);
}

int main(void) {
  MlirContext ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  check(ctx, "empty", "");
  check(ctx, "anchored_empty", "builtin.module()");
  check(ctx, "kiln_pass", "graph-verify");
  check(ctx, "unwrap_outer_anchor", "builtin.module(graph-verify)");
  check(
      ctx, "mixed_nested",
      "builtin.module(func.func(graph-verify, canonicalize{max-iterations=3}),"
      " cse)");
  check(ctx, "upstream_options",
        "func.func(canonicalize{max-iterations=4 "
        "test-convergence=true})");
  check(ctx, "two_anchors_not_unwrapped",
        "builtin.module(cse),builtin.module(canonicalize)");
  check(ctx, "kiln_pass_options",
        "func.func(graph-verify{require-static-shapes max-errors=3}, cse)");
  check(ctx, "kiln_pass_quoted_and_spaced_options",
        "graph-verify{ require-static-shapes='true'   max-errors=0x10 }");
  check(ctx, "kiln_pass_bad_int", "graph-verify{max-errors=3x}");
  check(ctx, "kiln_pass_missing_value", "graph-verify{max-errors}");
  check(ctx, "named_pipeline", "builtin.module(graph-cleanup, cse)");
  check(ctx, "named_pipeline_nested", "func.func(graph-cleanup)");
  check(ctx, "named_pipeline_options", "graph-cleanup{x=1}");
  check(ctx, "unknown_pass", "builtin.module(func.func(graph-verifyy))");
  check(ctx, "unknown_pass_far", "zzzzzz-qqqq");
  check(ctx, "kiln_pass_bad_option", "graph-verify{foo=1}");
  check(ctx, "upstream_bad_option", "canonicalize{max-iteration=3}");
  check(ctx, "upstream_bad_value", "canonicalize{max-iterations=many}");
  check(ctx, "missing_paren", "builtin.module(func.func(cse)");
  check(ctx, "unbalanced_brace", "canonicalize{max-iterations=3");
  check(ctx, "empty_element", "cse,,canonicalize");
  check(ctx, "trailing_garbage", "cse) x");
  check(ctx, "bad_character", "cse;canonicalize");
  check(ctx, "pipeline_parameters",
        "linalg-tile-and-fuse{target-triple=aarch64-unknown-linux-gnu "
        "target-features=+neon}");
  check(ctx, "nested_pipeline_parameters",
        "linalg-to-llvm-cpu{target-triple=aarch64-unknown-linux-gnu}");
  check(ctx, "own_option_wins",
        "func.func(kiln-tile-and-vectorize{rows=4}),"
        "linalg-tile-and-fuse{target-features=+avx512f}");
  check(ctx, "unknown_parameter", "linalg-tile-and-fuse{rows=4}");
  check(ctx, "parameterless_pipeline", "graph-cleanup{x=1}");
  kilnContextDestroy(ctx);
  return 0;
}

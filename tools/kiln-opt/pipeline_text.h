/* The pipeline kiln-opt runs, built as mlir-opt builds it: an anchored
 * --pass-pipeline taken as written, or pass flags in order, each pass that
 * is restricted to another op nested under that op (mlir-opt's implicit
 * nesting), and --dump-pass-pipeline's pretty form. */
#ifndef KILN_TOOLS_KILN_OPT_PIPELINE_TEXT_H
#define KILN_TOOLS_KILN_OPT_PIPELINE_TEXT_H

#include "kiln/diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tools/kiln-opt/options.h"

/// Writes to `out` the anchored pipeline for a root op named `root`
/// ("builtin.module(...)"). On a --pass-pipeline without an outer anchor,
/// writes mlir-opt's message to `err` and fails.
MlirLogicalResult kilnOptBuildPipeline(MlirContext ctx, const KilnOptOptions *o,
                                       MlirStringRef root, KilnStrBuf *out,
                                       KilnStrBuf *err);

/// The outer anchor of an anchored pipeline text (borrowed from `text`).
MlirStringRef kilnOptPipelineAnchor(MlirStringRef text);

/// Prints `pm` to stderr as mlir-opt --dump-pass-pipeline does:
/// "Pass Manager with N passes:" and the pipeline, one element a line.
void kilnOptDumpPipeline(MlirOpPassManager pm);

#endif

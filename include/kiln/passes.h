/* Kiln's pass registry and pipeline parser.
 *
 * MLIR's C API cannot register a pass by name, so upstream pipeline text
 * never sees Kiln's passes. Kiln keeps its own registry (name, summary,
 * typed options, run function) and its own parser for MLIR's pipeline
 * syntax: Kiln elements are constructed here, everything else is handed to
 * MLIR verbatim. Named pipelines are registry entries that expand to text. */
#ifndef KILN_PASSES_H
#define KILN_PASSES_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum KilnPassOptionKind {
  KILN_PASS_OPTION_BOOL,
  KILN_PASS_OPTION_INT,
  KILN_PASS_OPTION_STRING
} KilnPassOptionKind;

typedef struct KilnPassOptionSpec {
  const char *name; /* "max-iterations" */
  KilnPassOptionKind kind;
  const char *defaultValue; /* textual: "true", "10", "" */
  const char *help;
} KilnPassOptionSpec;

/// A parsed option value. `s` is owned by the pass that holds it.
typedef struct KilnPassOptionValue {
  bool b;
  int64_t i;
  char *s;
} KilnPassOptionValue;

/// Returns the handle of a dialect a pass creates ops of
/// (mlirGetDialectHandle__linalg__, ...).
typedef MlirDialectHandle (*KilnDialectHandleGetter)(void);

/// Runs a Kiln pass on `op`; `options` is indexed like the pass's specs.
/// Signal failure with mlirExternalPassSignalFailure after emitting an error.
typedef void (*KilnPassRunFn)(MlirOperation op, MlirExternalPass pass,
                              const KilnPassOptionValue *options);

typedef struct KilnPassInfo {
  const char *argument; /* name in pipelines: "graph-dce" */
  const char *summary;  /* one line */
  /* The op the pass runs on ("func.func", "builtin.module"), or NULL for an
   * any-op pass. */
  const char *anchor;
  const KilnPassOptionSpec *options;
  int numOptions;
  KilnPassRunFn run; /* NULL for a named pipeline */
  /* For a named pipeline: the pipeline elements it expands to (without an
   * outer anchor, e.g. "func.func(graph-verify),graph-dce"). NULL for a
   * pass. */
  const char *pipeline;
  /* Dialects whose ops the pass creates: MLIR loads them before the pass
   * manager runs (loading during a multithreaded run is not allowed). */
  const KilnDialectHandleGetter *dependentDialects;
  int numDependentDialects;
} KilnPassInfo;

/// The registry: every Kiln pass and named pipeline, in listing order.
intptr_t kilnPassRegistryGetCount(void);
const KilnPassInfo *kilnPassRegistryGetAt(intptr_t i);
/// Looks a pass or named pipeline up by argument; NULL if not Kiln's.
const KilnPassInfo *kilnPassRegistryLookup(MlirStringRef argument);

/// The named pipeline of graph optimizations at -O`level`, "graph-O0" to
/// "graph-O3" (a static string); NULL for a level outside 0..3. The tools
/// run it between import and lowering.
const char *kilnGraphOptPipelineName(int level);
/// The pipeline text of the named pipeline `gpu-to-nvvm` with its
/// nvvm-attach-target options and then its gpu-module-to-binary options
/// replaced by `%s` (a printf format with two), for tools that compile for
/// another GPU architecture or binary format.
const char *kilnGpuToNvvmPipelineFormat(void);

/// An upstream pass as listed by Debian's mlir-opt at build time.
typedef struct KilnUpstreamPassInfo {
  const char *argument;
  const char *summary;
  bool isPipeline;
  /* Its option names, space-separated ("" for none). */
  const char *options;
} KilnUpstreamPassInfo;
intptr_t kilnUpstreamPassGetCount(void);
const KilnUpstreamPassInfo *kilnUpstreamPassGetAt(intptr_t i);

/// Creates the MLIR pass for a registry entry that is a pass (not a named
/// pipeline) with the given option text ("key=value key2=value", no braces;
/// NULL or "" for defaults). Returns a null pass and appends a message to
/// `error` (an MlirStringCallback target) on a bad option.
MlirPass kilnPassCreate(const KilnPassInfo *info, MlirStringRef optionText,
                        MlirStringCallback errorCallback, void *userData);

/// Parses pipeline text in MLIR's syntax and appends it to `pm`.
///
/// `text` is either elements for `pm` ("func.func(graph-cse),graph-dce") or
/// a single anchored pipeline whose anchor names `pm`'s own op
/// ("builtin.module(...)"), which is unwrapped. Kiln elements with
/// `{options}` are constructed from the registry; upstream elements are
/// passed to MLIR. On failure, reports one message through `errorCallback`
/// (with the pipeline text and a caret under the offending element, and
/// close names for an unknown pass) and leaves `pm` partially filled.
MlirLogicalResult kilnPipelineAppend(MlirOpPassManager pm,
                                     MlirStringRef anchorName,
                                     MlirStringRef text,
                                     MlirStringCallback errorCallback,
                                     void *userData);

/// Registers every upstream pass with MLIR's global registry (once per
/// process; thread-safe).
void kilnRegisterUpstreamPasses(void);

#ifdef __cplusplus
}
#endif

#endif

/* Kiln's compiler session API, in the spirit of IREE's compiler embedding
 * API: a session holds the options of a compilation (target, CPU, -O
 * level, input shapes, tuning log, GPU architecture) and an MLIR context;
 * an invocation takes one model through the named stages
 *
 *   import ─► graph ─► linalg ─┬────────────► llvm ─► code / library
 *   (parse    (graph-ON,       │ (CPU)        (LLVM dialect)
 *    or ONNX)  tuning log)     └─► gpu ──────┘ (--target=cuda: kernels
 *                                               outlined, then compiled)
 *
 * and hands out any stage's module or output. kiln-compile and kiln-run
 * are thin users of it, and so is the Python package (docs/python.md).
 *
 * Messages: every diagnostic of the session's context, and every other
 * problem (a file that cannot be read, a pipeline that cannot be built, a
 * tuning log's warnings), goes to the session's message callback, one
 * complete message per call. Ownership follows mlir-c: Create/Destroy
 * pairs, Get borrows; destroying NULL is a no-op. */
#ifndef KILN_SESSION_H
#define KILN_SESSION_H

#include <stdbool.h>
#include <stddef.h>

#include "kiln/compile.h"
#include "kiln/kiln_runtime.h"
#include "kiln/onnx.h"
#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct KilnSession KilnSession;
typedef struct KilnInvocation KilnInvocation;

/// The stages of an invocation, in order (kilnInvocationRunUntil).
typedef enum KilnStage {
  KILN_STAGE_NONE,   /* no module yet */
  KILN_STAGE_IMPORT, /* parsed or imported, verified */
  KILN_STAGE_GRAPH,  /* after graph-ON and the tuning log's records */
  KILN_STAGE_LINALG, /* after graph-to-linalg (with run-time checks) */
  KILN_STAGE_GPU,    /* --target=cuda: linalg mapped to GPU kernels */
  KILN_STAGE_LLVM    /* the LLVM dialect (cuda: kernels compiled) */
} KilnStage;

/// The stage called `name` ("import", "graph", "linalg", "gpu", "llvm");
/// false for another name.
bool kilnStageParse(const char *name, KilnStage *stage /* OUT */);
/// The stage's name ("import", ...); "none" for KILN_STAGE_NONE.
const char *kilnStageGetName(KilnStage stage);

/// Receives one message. `location` is the place a diagnostic names
/// ("model.onnx:conv1 (Conv)"), NULL for messages that are not
/// diagnostics; `severity` is "error", "warning", "note" (a diagnostic's
/// note, after it) or "remark" (a report, such as how many workloads a
/// tuning log scheduled). The text may hold any bytes the model does.
typedef void (*KilnSessionMessageFn)(const char *severity, const char *location,
                                     const char *text, void *userData);

/// Static fast paths of a dynamic model library (kiln-compile
/// --specialize): the sizes of one named input dim to compile code for.
/// The library holds a fast path for every combination of one size per
/// named dim (at most KILN_MAX_SPECIALIZATIONS), each run when the inputs
/// have its sizes; other inputs run the generic code.
typedef struct KilnSpecializedSizes {
  const char *name; /* an input dim's name (its ONNX dim_param) */
  const int64_t *sizes;
  intptr_t numSizes;
} KilnSpecializedSizes;

/// The most fast paths a library holds: each is a whole compilation.
#define KILN_MAX_SPECIALIZATIONS 16

/// Session options; zero-initialize, then set what you need.
typedef struct KilnSessionOptions {
  KilnTargetOptions target; /* optLevel 0..3 */
  /* Static shapes for symbolic or unknown input dims (copied). */
  const KilnOnnxInputShape *inputShapes;
  intptr_t numInputShapes;
  /* Sizes for named input dims, every input's (copied; kiln/onnx.h). */
  const KilnOnnxDimBinding *dims;
  intptr_t numDims;
  /* Input dims nothing sizes: an error, or dynamic (kiln/onnx.h). */
  KilnOnnxDynamicDims dynamicDims;
  /* Static fast paths of a dynamic ONNX model's library or code, each
   * imported and compiled again with its dims sized (copied; CPU targets,
   * not with `profile`). */
  const KilnSpecializedSizes *specialize;
  intptr_t numSpecialize;
  const char *tuningLog; /* a kiln-tune log, or NULL (copied) */
  /* Compute precision of an f32 model: NULL or "fp32" (as exported),
   * "fp16" or "bf16" (graph-mixed-precision; copied) */
  const char *precision;
  /* A sharding plan, "tp:N" or "dp:N" (docs/scale-out.md), or NULL: the
   * library runs as N MPI processes (host CPU targets; copied). */
  const char *shard;
  /* A hand-written sharding plan's file (docs/scale-out.md#hand-written-plans)
   * or NULL; its `plan` line is the plan when `shard` is NULL (copied). */
  const char *shardPlanFile;
  bool noRuntimeChecks; /* no kiln-runtime-checks before graph-to-linalg */
  bool profile;         /* per-op timers (kiln-instrument-ops; CPU) */
  bool timePasses;      /* MLIR's pass timing report, on stderr */
  bool cubin;           /* cuda: kernels as cubin (the CUDA toolkit's) */
  bool gpuTf32;         /* cuda: f32 products on tensor cores in TF32 */
  unsigned jobs;        /* code generation threads; 0: one per CPU, <= 8 */
  KilnSessionMessageFn onMessage; /* NULL: messages are dropped */
  KilnCompileStageFn onStage;     /* as each stage begins; may be NULL */
  void *userData;                 /* for both */
} KilnSessionOptions;

/// Creates a session: validates the target (a bad target, CPU or level is
/// reported as one "error" message and gives NULL) and sets up an MLIR
/// context for Kiln with the session's diagnostic handler. Destroy with
/// kilnSessionDestroy, after its invocations.
KilnSession *kilnSessionCreate(const KilnSessionOptions *options);

/// sizeof(KilnSessionOptions): bindings that mirror the struct (the Python
/// package's ctypes) check theirs against it when they load libkiln.
size_t kilnSessionOptionsGetSize(void);
/// Whether `name` is a compute precision the options take: "fp32", "fp16"
/// or "bf16" (kiln-compile checks its flag with it; kiln-run's parser,
/// shared with the runtime-only kiln-run-module, keeps its own list).
bool kilnSessionPrecisionIsKnown(const char *name);
void kilnSessionDestroy(KilnSession *session);
/// The session's context (borrowed).
MlirContext kilnSessionGetContext(const KilnSession *session);
/// The session's target (borrowed).
const KilnTarget *kilnSessionGetTarget(const KilnSession *session);

/// Why an invocation's last call failed.
typedef enum KilnInvocationError {
  KILN_INVOCATION_OK,
  /* the model does not compile: diagnostics said why */
  KILN_INVOCATION_ERROR_COMPILE,
  /* the request or an input other than the model is wrong: the tuning
   * log, a pipeline's text, a stage out of order or not of the target */
  KILN_INVOCATION_ERROR_USAGE,
  /* kilnInvocationExecute: the model ran and failed (a run-time check), or
   * its memory plan does not fit this machine */
  KILN_INVOCATION_ERROR_RUN
} KilnInvocationError;

/// Creates an invocation of `session` (no module yet). Destroy with
/// kilnInvocationDestroy.
KilnInvocation *kilnInvocationCreate(KilnSession *session);
void kilnInvocationDestroy(KilnInvocation *invocation);
/// Why the last call that returned false failed.
KilnInvocationError kilnInvocationGetError(const KilnInvocation *invocation);

/// Loads the model at `path`: MLIR text for a name ending in ".mlir", else
/// an ONNX model ("-": an ONNX model read from stdin) imported with the
/// session's input shapes; then verifies it (the graph ops by Kiln's
/// rules). Replaces any module the invocation had. Stage: import. False
/// after messages.
bool kilnInvocationParseSource(KilnInvocation *invocation, const char *path);
/// As kilnInvocationParseSource for the ONNX model at `path`, with the
/// inputs `values[0, numValues)` made constants (kiln/onnx.h; their element
/// types from the session's context; read during the call only).
bool kilnInvocationImportOnnxFile(KilnInvocation *invocation, const char *path,
                                  const KilnOnnxInputValue *values,
                                  intptr_t numValues);
/// As kilnInvocationParseSource for MLIR text in memory; `name` names it in
/// diagnostics.
bool kilnInvocationParseText(KilnInvocation *invocation, const char *text,
                             size_t length, const char *name);
/// As kilnInvocationParseSource for an ONNX model in memory (no external
/// data: there is no directory to read it from).
bool kilnInvocationImportOnnx(KilnInvocation *invocation, const void *data,
                              size_t length, const char *name);

/// Runs the stages after the invocation's up to `stage` (nothing if it is
/// there already; false for an earlier stage, and for the gpu stage on a
/// CPU target). False after messages. The session's target reaches the
/// passes as the CPU pipelines' parameters (target-triple,
/// target-features) and the tuning log's records are matched against it;
/// nothing about the target is written into the module.
bool kilnInvocationRunUntil(KilnInvocation *invocation, KilnStage stage);
/// Runs a textual pass pipeline ("builtin.module(func.func(graph-cse))" or
/// "graph-cse,canonicalize", Kiln's and upstream passes; kiln-opt's
/// syntax) on the module; the stage is unchanged. False after messages.
bool kilnInvocationRunPipeline(KilnInvocation *invocation,
                               const char *pipeline);
/// The stage the module is at. After a failed stage or pipeline the module
/// is as the failing pass left it (the stage is unchanged): parse or
/// import again to start over.
KilnStage kilnInvocationGetStage(const KilnInvocation *invocation);
/// The module (borrowed; null before a successful parse or import).
MlirModule kilnInvocationGetModule(const KilnInvocation *invocation);

/// Prints the module as MLIR text (with each op's location when
/// `debugInfo`), in fragments.
void kilnInvocationPrintModule(const KilnInvocation *invocation, bool debugInfo,
                               MlirStringCallback callback, void *userData);

/// Runs the invocation to the llvm stage and generates `kind` (LLVM IR,
/// assembly or one object) for the model library ABI, passed to
/// `callback` in fragments. The model's signature is recorded on the way
/// (before graph-to-linalg; kilnInvocationRunUntil records it when it can,
/// silently): an invocation past the graph stage without one is refused.
/// False after messages.
bool kilnInvocationEmitCode(KilnInvocation *invocation, KilnCompileEmit kind,
                            MlirStringCallback callback, void *userData);
/// As kilnInvocationEmitCode for a whole model library, generated on the
/// session's `jobs` threads and linked at `path` (created or replaced; on
/// failure nothing is left there). Write to a path of your own and rename
/// it into place to publish it atomically.
bool kilnInvocationWriteLibrary(KilnInvocation *invocation, const char *path);
/// As kilnInvocationWriteLibrary, linked in the session's private
/// temporary directory ($TMPDIR, else /tmp) and passed to `callback` in
/// pieces (of 1 MiB) instead: for a destination that is not a file the
/// caller may rename over (stdout, a pipe), or one it publishes itself.
bool kilnInvocationEmitLibrary(KilnInvocation *invocation,
                               MlirStringCallback callback, void *userData);
/// --target=cuda: runs to the llvm stage and passes the kernels' PTX (each
/// kernel module after a "// ---- gpu.binary @NAME" line) or, with the
/// session's `cubin`, the one kernel module's cubin, to `callback`.
bool kilnInvocationEmitKernels(KilnInvocation *invocation,
                               MlirStringCallback callback, void *userData);

/// Runs the model in this process: compiles the module, which must be in
/// the LLVM dialect with the C interface of its public function `entry`
/// (after kilnInvocationRunUntil(KILN_STAGE_LLVM) on a CPU target, or a
/// pipeline such as `cpu`), with MLIR's JIT, then calls `entry` with
/// `inputs` and `outputs` (host tensors of the entry's element types and
/// shapes, in its order: the caller checks them; outputs are written in
/// place). As a model library does, it refuses a model whose memory plan
/// does not fit this machine and reports a failed run-time check. OpenMP
/// loops run on LLVM's libomp, whose thread count OMP_NUM_THREADS sets
/// when it is first loaded. False after messages.
bool kilnInvocationExecute(KilnInvocation *invocation, const char *entry,
                           KilnTensor *const *inputs, intptr_t numInputs,
                           KilnTensor *const *outputs, intptr_t numOutputs);

/// Before kilnInvocationExecute, for an entry with a dynamic dim (a
/// data-dependent output's, such as NonZero's): runs the module's shape
/// function (kiln-shape-function, in the `cpu` pipeline) on `inputs` and
/// writes output j's `ranks[j]` dims to dims[j], as a library's
/// kiln_model_output_dims does (query, then run). The compiled module is
/// kept for the kilnInvocationExecute that follows. False after messages:
/// a failed shape check is KILN_INVOCATION_ERROR_RUN; a module without a
/// shape function (a static one, or another pipeline's) is
/// KILN_INVOCATION_ERROR_USAGE.
bool kilnInvocationOutputDims(KilnInvocation *invocation,
                              KilnTensor *const *inputs, intptr_t numInputs,
                              int64_t *const *dims, const int64_t *ranks,
                              intptr_t numOutputs);

#ifdef __cplusplus
}
#endif

#endif

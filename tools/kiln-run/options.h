/* kiln-run's command line and the helpers its two paths share: the JIT
 * path (kiln-run.c, .onnx/.mlir) and the library path (run_library.c,
 * model.so through libkiln_runtime), which kiln-run-module is alone
 * (kiln-run-module.c). Internal to these tools. */
#ifndef KILN_TOOLS_KILN_RUN_OPTIONS_H
#define KILN_TOOLS_KILN_RUN_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/kiln_runtime.h"
#include "tools/common/tool_cli.h"

/// A --input or --expected: NAME=FILE or a bare FILE (name NULL).
typedef struct TensorArg {
  char *name;       /* points into argv, or NULL */
  const char *path; /* into argv */
  KilnTensor *tensor;
  char *ownedName; /* a bare input's name, once the model says it */
  int slot;        /* the argument or result it binds to; -1 unmatched */
  bool bound;      /* an input compiled into the model as a constant */
} TensorArg;

typedef struct Options {
  const char *model;
  TensorArg *inputs, *expected; /* argc entries each at most */
  int numInputs, numExpected;
  double rtol, atol; /* < 0: not given, the output type's default */
  const char *outputDir;
  bool printOutput, verbose;
  bool summary;  /* --summary: describe the library, run nothing */
  int threads;   /* 0: OpenMP's default */
  int benchmark; /* timed runs after the checked one; 0: none */
  int repeat;    /* runs whose last one is checked; 0 or 1: one */
  bool allRanks; /* sharded models: every MPI rank prints and writes */
  int optLevel;  /* -O0..-O3 (graph-ON before lowering); -1: not given */
  /* --pipeline: the named pipeline from the graph dialect to the LLVM
   * dialect (default "cpu"), e.g. gpu-on-cpu to check the GPU schedules
   * numerically on the CPU. */
  const char *pipeline;
  const char *tuningLog;   /* --tuning-log: kiln-tune's records */
  const char *precision;   /* --precision: fp32, fp16 or bf16 */
  bool profile;            /* --profile: per-op times (profiled .so) */
  const char *profileJson; /* --profile-json FILE: a Chrome trace too */
} Options;

/// A fresh Options: tolerances by output type (kilnRunDefaultTolerance),
/// no -O level given.
#define KILN_RUN_OPTIONS_INIT {.rtol = -1, .atol = -1, .optLevel = -1}

/// Parses argv into *o (libraryOnly: kiln-run-module's flags, no -O or
/// --pipeline); returns -1 to go on, else the exit code.
int kilnRunParseArgs(int argc, char **argv, Options *o, bool libraryOnly);

/// Frees what kilnRunParseArgs and kilnRunLoadTensors allocated.
void kilnRunOptionsDestroy(Options *o);

/// Reads every file of `args` (.npy, else ONNX TensorProto); false after
/// printing an error. Sets kilnRunDataUnsupported when a file needs a
/// feature Kiln lacks (string tensors, ...) rather than being malformed.
bool kilnRunLoadTensors(TensorArg *args, int n, const char *what);
extern bool kilnRunDataUnsupported;

/// "kiln-run" or "kiln-run-module", for messages.
extern const char *kilnRunProgram;

/// Prints "PROGRAM: error: " and the formatted message to stderr.
void kilnRunError(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

bool kilnRunHasSuffix(const char *s, const char *suffix);

/// Matches `args` to the `count` slots named `names`: by name, or by
/// position for a bare file; sets each one's `slot`. Returns false after
/// printing an error.
bool kilnRunMatchSlots(TensorArg *args, int n, char **names, intptr_t count,
                       const char *what);

/// Writes DIR/NAME.npy per output, NAME with unsafe characters as '_'.
/// Returns false after printing an error.
bool kilnRunWriteOutputs(const char *dir, char **names, intptr_t count,
                         KilnTensor **outputs);

/// Is `path` a model library: named *.so, or an ELF file?
bool kilnRunIsLibrary(const char *path);

/// Runs the model library o->model through libkiln_runtime: binds and
/// checks the files, runs, prints/saves/compares the outputs and, with
/// --benchmark, times more runs. Returns the exit code.
int kilnRunLibrary(const Options *o);

#endif

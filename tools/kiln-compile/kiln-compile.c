/* kiln-compile: compiles an ONNX model (or a .mlir module in the graph
 * dialect or linalg on tensors) ahead of time, by default to a model
 * library (model.so, the ABI of docs/kiln-compile.md); --emit stops at an
 * earlier stage and prints it. Stages: import, graph optimizations at the
 * -O level (the named pipeline graph-ON), graph → linalg, linalg →
 * LLVM dialect (the `cpu` pipeline's two halves), translation to LLVM IR,
 * LLVM optimization, code generation, link. */
#define _POSIX_C_SOURCE 200809L /* mkdtemp, fileno */

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "conversions/llvm-to-object/gpu.h"
#include "dialects/common/diag.h"
#include "dialects/graph/verify.h"
#include "dialects/linalg/transforms/profile_nodes.h"
#include "kiln/compile.h"
#include "kiln/kiln.h"
#include "kiln/onnx.h"
#include "kiln/passes.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "tools/common/tool_cli.h"
#include "tools/common/tool_diag.h"
#include "tools/common/tool_io.h"
#include "tools/common/tool_tuning.h"

static const char *kProg = "kiln-compile";

static void usage(FILE *out) {
  fprintf(
      out,
      "usage: %s MODEL.onnx|MODEL.mlir [-o OUT] [options]\n"
      "       (MODEL '-' reads an ONNX model from stdin)\n"
      "\n"
      "Compiles a model ahead of time into a model library (a shared\n"
      "object that libkiln_runtime and kiln-run load), or stops at an\n"
      "earlier stage with --emit.\n"
      "\n"
      "  --emit=STAGE     graph | linalg | gpu | llvm-dialect (MLIR text),\n"
      "                   ptx, cubin, llvm-ir, asm, obj, lib (default:\n"
      "                   lib); gpu, ptx, cubin with --target=cuda only\n"
      "  -O0 .. -O3       optimization level: graph passes (the graph-ON\n"
      "                   pipeline) and LLVM's level (default -O3)\n"
      "  --target=T       host (default), x86-64-v3, aarch64-linux-gnu, or\n"
      "                   an x86_64/aarch64 Linux LLVM triple; cuda:\n"
      "                   kernels for an NVIDIA GPU, host code for this\n"
      "                   machine\n"
      "  --gpu-arch=SM    with --target=cuda: sm_70 ... sm_120 (default\n"
      "                   sm_90)\n"
      "  --gpu-binary=F   with --target=cuda: kernels embedded as ptx\n"
      "                   (default; compiled by the driver at load) or\n"
      "                   cubin (assembled now by the CUDA toolkit's ptxas)\n"
      "  --cpu=NAME       CPU to tune and select instructions for: native\n"
      "                   (the host's, default for host), generic,\n"
      "                   x86-64-v2/v3/v4, skylake, znver3, cortex-a76,\n"
      "                   neoverse-n1, apple-m1, ...\n"
      "  -j N, --jobs=N   generate code on N threads (model libraries;\n"
      "                   default and 0: one per CPU, at most 8; 1: none)\n"
      "  --input-shape=NAME=D0xD1x...\n"
      "                   fix the symbolic/unknown dims of graph input NAME\n"
      "                   (e.g. x=1x3x224x224); repeatable\n"
      "  -o, --output=F   write to F (replaced only on success; default\n"
      "                   stdout)\n"
      "  -q, --quiet      no progress report\n"
      "  --profile        time each ONNX node group of the model when it\n"
      "                   runs (kiln-run MODEL.so --profile; CPU targets)\n"
      "  --no-runtime-checks\n"
      "                   no checks of gather/scatter indices when the\n"
      "                   model runs (an out-of-range index then reads a\n"
      "                   clamped one instead of failing the run)\n"
      "  --tuning-log=F   schedule each workload the log of kiln-tune has\n"
      "                   a record for as it found best (CPU targets)\n"
      "  --time-passes    print each stage's and each MLIR pass's time\n"
      "  --mlir-print-debuginfo\n"
      "                   print each op's location (MLIR outputs)\n"
      "  -h, --help       show this help\n"
      "      --version    show the version\n"
      "\n"
      "On a terminal, each stage is reported with its time on stderr.\n"
      "\n"
      "%s",
      kProg, kilnToolExitCodeHelp);
}

static void breakProgressLine(void);

static void toolError(const char *fmt, const char *arg) {
  breakProgressLine();
  kilnToolError(kProg, fmt, arg);
}

/* Prints "cannot VERB 'PATH': strerror(errno)". */
static void toolFileError(const char *verb, const char *path) {
  int err = errno;
  breakProgressLine();
  kilnToolError(kProg, "cannot %s '%s': %s", verb, path, strerror(err));
}

/* Whether an error said Kiln does not support something: the exit code
 * is then kExitUnsupported, as kiln-run's. */
static bool gSawUnsupported;

static MlirLogicalResult handleDiagnostic(MlirDiagnostic d, void *userData) {
  (void)userData;
  breakProgressLine();
  kilnToolPrintDiagnostic(d);
  if (mlirDiagnosticGetSeverity(d) == MlirDiagnosticError) {
    KilnStrBuf msg = {0};
    mlirDiagnosticPrint(d, kilnStrBufCallback, &msg);
    gSawUnsupported |= kilnToolIsUnsupportedMessage(kilnStrBufGet(&msg));
    kilnStrBufDestroy(&msg);
  }
  return mlirLogicalResultSuccess();
}

typedef enum Emit {
  kEmitGraph,
  kEmitLinalg,
  kEmitGpu, /* --target=cuda: after kernel outlining */
  kEmitLLVMDialect,
  kEmitPtx,   /* --target=cuda: the kernels' PTX */
  kEmitCubin, /* --target=cuda: the kernels' cubin (the CUDA toolkit's) */
  kEmitLLVMIR,
  kEmitAsm,
  kEmitObj,
  kEmitLib
} Emit;

static const char *const kEmitNames[] = {
    "graph", "linalg",  "gpu", "llvm-dialect", "ptx",
    "cubin", "llvm-ir", "asm", "obj",          "lib"};

typedef struct Options {
  const char *input;
  const char *output;
  Emit emit;
  KilnOnnxInputShape *shapes; /* owns each dims array (names are argv) */
  intptr_t numShapes;
  KilnTargetOptions target;
  bool debugInfo;        /* --mlir-print-debuginfo: print each op's location */
  bool quiet;            /* -q */
  bool timePasses;       /* --time-passes */
  unsigned jobs;         /* --jobs: code generation threads, 0 = auto */
  KilnStrBuf recorded;   /* the options that affect code, for the metadata */
  bool cubin;            /* --gpu-binary=cubin (or --emit=cubin) */
  bool profile;          /* --profile: per-op timers (kiln-instrument-ops) */
  bool noRuntimeChecks;  /* --no-runtime-checks: no kiln-runtime-checks */
  const char *tuningLog; /* --tuning-log: kiln-tune's records */
} Options;

static void optionsDestroy(Options *o) {
  for (intptr_t i = 0; i < o->numShapes; ++i)
    free((int64_t *)o->shapes[i].dims);
  free(o->shapes);
  kilnStrBufDestroy(&o->recorded);
}

static bool parseEmit(const char *text, Emit *out) {
  for (int i = 0; i <= kEmitLib; ++i)
    if (!strcmp(text, kEmitNames[i])) {
      *out = (Emit)i;
      return true;
    }
  toolError("--emit=%s: expected graph, linalg, gpu, llvm-dialect, ptx, "
            "cubin, llvm-ir, asm, obj or lib",
            text);
  return false;
}

static bool parseOptLevel(const char *text, int *out) {
  if (text[0] < '0' || text[0] > '3' || text[1]) {
    toolError("-O%s: expected -O0, -O1, -O2 or -O3", text);
    return false;
  }
  *out = text[0] - '0';
  return true;
}

/* Parses --jobs: 0 (one per CPU) or 1..kMaxJobs. The value does not
 * change the code, so it is not recorded in the metadata. */
enum { kMaxJobs = 256, kAutoMaxJobs = 8 };
static bool parseJobs(const char *text, unsigned *out) {
  char *end;
  errno = 0;
  long v = text[0] >= '0' && text[0] <= '9' ? strtol(text, &end, 10) : -1;
  if (v < 0 || *end || errno == ERANGE || v > kMaxJobs) {
    fprintf(stderr,
            "%s: error: --jobs='%s': expected a number of threads from 1 "
            "to %d, or 0 for one per CPU (at most %d)\n",
            kProg, text, kMaxJobs, kAutoMaxJobs);
    return false;
  }
  *out = (unsigned)v;
  return true;
}

/* The number of code generation threads: --jobs, else one per online
 * CPU, at most kAutoMaxJobs. (kilnCompileToObjects also caps it at the
 * module's function definitions.) */
static unsigned resolveJobs(unsigned requested) {
  if (requested)
    return requested;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  return cpus < 1 ? 1 : cpus > kAutoMaxJobs ? kAutoMaxJobs : (unsigned)cpus;
}

/* The `options` metadata record: -ON and the input shapes. */
static void recordOptions(Options *o) {
  kilnStrBufAppendf(&o->recorded, "-O%d", o->target.optLevel);
  for (intptr_t i = 0; i < o->numShapes; ++i) {
    kilnStrBufAppendf(&o->recorded, " --input-shape=%s=", o->shapes[i].name);
    for (intptr_t d = 0; d < o->shapes[i].rank; ++d)
      kilnStrBufAppendf(&o->recorded, "%s%lld", d ? "x" : "",
                        (long long)o->shapes[i].dims[d]);
  }
}

/* Parses "NAME=D0xD1x..." (NAME up to the last '=') into *out, allocating
 * its dims. Returns false after printing what is malformed. */
static bool parseInputShape(char *text, KilnOnnxInputShape *out) {
  char *eq = strrchr(text, '=');
  const char *why = NULL;
  if (!eq || eq == text)
    why = "expected NAME=D0xD1x...";
  else if (!eq[1])
    why = "no dimensions after '='";
  int64_t *dims = NULL;
  intptr_t rank = 0;
  for (const char *p = eq ? eq + 1 : ""; !why && *p; ++rank) {
    if (*p < '0' || *p > '9') {
      why = "dimensions must be non-negative integers separated by 'x'";
      break;
    }
    char *end;
    errno = 0;
    long long v = strtoll(p, &end, 10);
    if (errno == ERANGE) {
      why = "a dimension is out of range";
      break;
    }
    if (*end && (*end != 'x' || !end[1])) {
      why = "dimensions must be non-negative integers separated by 'x'";
      break;
    }
    int64_t *grown = realloc(dims, (size_t)(rank + 1) * sizeof(int64_t));
    if (!grown)
      abort();
    dims = grown;
    dims[rank] = v;
    p = *end ? end + 1 : end;
  }
  if (why) {
    fprintf(stderr, "%s: error: --input-shape '%s': %s\n", kProg, text, why);
    free(dims);
    return false;
  }
  *eq = '\0'; /* the name ends here; argv strings may be modified */
  *out = (KilnOnnxInputShape){.name = text, .dims = dims, .rank = rank};
  return true;
}

static bool hasSuffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* Parses argv; returns -1 to go on, else the exit code. */
static int parseArgs(int argc, char **argv, Options *o) {
  enum {
    kVersion = 256,
    kEmit,
    kInputShape,
    kDebugInfo,
    kTarget,
    kCPU,
    kTimePasses,
    kJobs,
    kRunThreads,
    kGpuArch,
    kGpuBinary,
    kProfile,
    kNoRuntimeChecks,
    kTuningLog
  };
  static const struct option longOpts[] = {
      {"emit", required_argument, NULL, kEmit},
      {"input-shape", required_argument, NULL, kInputShape},
      {"output", required_argument, NULL, 'o'},
      {"target", required_argument, NULL, kTarget},
      {"cpu", required_argument, NULL, kCPU},
      {"gpu-arch", required_argument, NULL, kGpuArch},
      {"gpu-binary", required_argument, NULL, kGpuBinary},
      {"quiet", no_argument, NULL, 'q'},
      {"time-passes", no_argument, NULL, kTimePasses},
      {"profile", no_argument, NULL, kProfile},
      {"no-runtime-checks", no_argument, NULL, kNoRuntimeChecks},
      {"tuning-log", required_argument, NULL, kTuningLog},
      {"jobs", required_argument, NULL, kJobs},
      {"threads", optional_argument, NULL, kRunThreads},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, kVersion},
      {"mlir-print-debuginfo", no_argument, NULL, kDebugInfo},
      {NULL, 0, NULL, 0}};
  int c;
  while ((c = getopt_long(argc, argv, "o:hqO:j:", longOpts, NULL)) != -1) {
    switch (c) {
    case kEmit:
      if (!parseEmit(optarg, &o->emit))
        return kExitUsage;
      break;
    case kInputShape:
      /* At most one per argument: argc bounds the array. */
      if (!o->shapes && !(o->shapes = calloc((size_t)argc, sizeof(*o->shapes))))
        abort();
      if (!parseInputShape(optarg, &o->shapes[o->numShapes]))
        return kExitUsage;
      ++o->numShapes;
      break;
    case 'o':
      o->output = optarg;
      break;
    case 'O':
      if (!parseOptLevel(optarg, &o->target.optLevel))
        return kExitUsage;
      break;
    case kTarget:
      o->target.target = optarg;
      break;
    case kCPU:
      o->target.cpu = optarg;
      break;
    case kGpuArch:
      o->target.gpuArch = optarg;
      break;
    case kGpuBinary:
      if (strcmp(optarg, "ptx") && strcmp(optarg, "cubin")) {
        toolError("--gpu-binary=%s: expected ptx or cubin", optarg);
        return kExitUsage;
      }
      o->cubin = !strcmp(optarg, "cubin");
      break;
    case 'q':
      o->quiet = true;
      break;
    case kTimePasses:
      o->timePasses = true;
      break;
    case kProfile:
      o->profile = true;
      break;
    case kNoRuntimeChecks:
      o->noRuntimeChecks = true;
      break;
    case kTuningLog:
      o->tuningLog = optarg;
      break;
    case kJobs:
    case 'j':
      if (!parseJobs(optarg, &o->jobs))
        return kExitUsage;
      break;
    case kRunThreads:
      /* One meaning per flag name across the tools: --threads is the
       * number of threads a model runs on (kiln-run). */
      toolError("%s", "--threads is the number of threads a model runs on "
                      "(kiln-run --threads N); the threads that generate "
                      "code are --jobs=N (-j N)");
      return kExitUsage;
    case kDebugInfo:
      o->debugInfo = true;
      break;
    case 'h':
      usage(stdout);
      return kExitPass;
    case kVersion:
      kilnToolPrintVersion(kProg);
      return kExitPass;
    default:
      usage(stderr);
      return kExitUsage;
    }
  }
  if (optind != argc - 1) {
    toolError("%s", optind >= argc ? "no input model given"
                                   : "exactly one input model is expected");
    return kExitUsage;
  }
  o->input = argv[optind];
  if (o->numShapes && hasSuffix(o->input, ".mlir")) {
    toolError("%s", "--input-shape applies to ONNX models only");
    return kExitUsage;
  }
  bool cuda = o->target.target && !strcmp(o->target.target, "cuda");
  if ((o->emit == kEmitGpu || o->emit == kEmitPtx || o->emit == kEmitCubin) &&
      !cuda) {
    toolError("--emit=%s needs --target=cuda", kEmitNames[o->emit]);
    return kExitUsage;
  }
  if (o->cubin && !cuda) {
    toolError("%s", "--gpu-binary=cubin needs --target=cuda");
    return kExitUsage;
  }
  if (o->profile && cuda) {
    toolError("%s", "--profile is not supported for the GPU yet (--target="
                    "cuda): profile the model on the CPU");
    return kExitUsage;
  }
  if (o->emit == kEmitCubin)
    o->cubin = true;
  if (o->cubin && o->emit == kEmitPtx) {
    toolError("%s", "--emit=ptx writes PTX, so --gpu-binary=cubin does not "
                    "apply");
    return kExitUsage;
  }
  if ((o->emit >= kEmitObj || o->emit == kEmitCubin) &&
      !strcmp(o->output, "-") && isatty(1)) {
    toolError("--emit=%s writes binary data: give an output file with -o",
              kEmitNames[o->emit]);
    return kExitUsage;
  }
  recordOptions(o);
  if (o->cubin)
    kilnStrBufAppendf(&o->recorded, " --gpu-binary=cubin");
  if (o->profile)
    kilnStrBufAppendf(&o->recorded, " --profile");
  if (o->noRuntimeChecks)
    kilnStrBufAppendf(&o->recorded, " --no-runtime-checks");
  return -1;
}

/* ---- progress ---------------------------------------------------------- */

/* Stage-by-stage progress on stderr. On a terminal each stage's name shows
 * while it runs and its time is added when it ends; with --time-passes
 * (whose pass reports interleave) each line is printed whole at the end. */
typedef struct Progress {
  bool on, live;
  bool lineOpen;     /* a stage name is on screen without its time */
  const char *stage; /* the stage running, NULL if none */
  double start, first;
} Progress;

/* The tool's progress, so that error messages can end an open line. */
static Progress *gProgress;

static void breakProgressLine(void) {
  if (gProgress && gProgress->lineOpen) {
    fputc('\n', stderr);
    gProgress->lineOpen = false;
  }
}

static double nowSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Ends the running stage: prints its time (nothing after a failure). */
static void progressEnd(Progress *p, bool ok) {
  if (p->on && p->stage && ok) {
    double t = nowSeconds() - p->start;
    if (!p->lineOpen)
      fprintf(stderr, "%s: %-30s", kProg, p->stage);
    fprintf(stderr, "%8.2f s\n", t);
    p->lineOpen = false;
  }
  breakProgressLine();
  p->stage = NULL;
}

static void progressBegin(const char *stage, void *userData) {
  Progress *p = userData;
  progressEnd(p, true);
  p->stage = stage;
  p->start = nowSeconds();
  if (p->on && p->live) {
    fprintf(stderr, "%s: %-30s", kProg, stage);
    fflush(stderr);
    p->lineOpen = true;
  }
}

static void progressFinish(Progress *p) {
  progressEnd(p, true);
  if (p->on)
    fprintf(stderr, "%s: %-30s%8.2f s\n", kProg, "total",
            nowSeconds() - p->first);
}

/* Prints `op` to `path`; false after reporting a write failure. */
static bool writeModule(MlirOperation op, const char *path, bool debugInfo) {
  /* Streamed, not buffered: a model's weights print as megabytes of hex,
   * and a second copy in memory would double the tool's peak. */
  KilnToolOutput out;
  if (!kilnToolOutputOpen(&out, path)) {
    toolError("cannot write '%s'", path);
    return false;
  }
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsEnableDebugInfo(flags, debugInfo, /*prettyForm=*/false);
  mlirOperationPrintWithFlags(op, flags, kilnToolOutputCallback, &out);
  mlirOpPrintingFlagsDestroy(flags);
  kilnToolOutputWrite(&out, "\n", 1);
  if (!kilnToolOutputCommit(&out, path)) {
    toolError("cannot write '%s'", path);
    return false;
  }
  return true;
}

/* Imports the model at `path`, or from stdin for "-" (through the buffer
 * API: such a model has no directory for external data). */
static MlirModule importModel(MlirContext ctx, const char *path,
                              const KilnOnnxImportOptions *opts) {
  if (strcmp(path, "-") != 0)
    return kilnOnnxImportFileWithOptions(ctx, path, opts);
  KilnStrBuf buf = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
    kilnStrBufAppend(&buf, chunk, n);
  MlirModule module = {NULL};
  if (ferror(stdin))
    toolError("%s", "cannot read the model from stdin");
  else
    module = kilnOnnxImportBufferWithOptions(ctx, buf.data ? buf.data : "",
                                             buf.len, "<stdin>", opts);
  kilnStrBufDestroy(&buf);
  return module;
}

/* ---- stages -------------------------------------------------------------- */

/* Runs the named Kiln pipeline on `module`; false after diagnostics. */
static bool runPipeline(MlirModule module, const char *pipeline, bool timing) {
  MlirContext ctx = mlirModuleGetContext(module);
  MlirPassManager pm = mlirPassManagerCreate(ctx);
  if (timing)
    mlirPassManagerEnableTiming(pm);
  KilnStrBuf err = {0};
  bool ok = false;
  if (mlirLogicalResultIsFailure(kilnPipelineAppend(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString("builtin.module"),
          mlirStringRefCreateFromCString(pipeline), kilnStrBufCallback, &err)))
    toolError("cannot build the pipeline: %s", kilnStrBufGet(&err));
  else
    ok = mlirLogicalResultIsSuccess(
        mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)));
  kilnStrBufDestroy(&err);
  mlirPassManagerDestroy(pm); /* prints the timing report */
  return ok;
}

static MlirModule loadModel(MlirContext ctx, const Options *o) {
  if (!hasSuffix(o->input, ".mlir")) {
    KilnOnnxImportOptions importOpts = {.inputShapes = o->shapes,
                                        .numInputShapes = o->numShapes};
    return importModel(ctx, o->input, &importOpts);
  }
  size_t length;
  char *text = kilnToolReadFile(o->input, &length);
  if (!text) {
    toolFileError("read", o->input);
    return (MlirModule){NULL};
  }
  free(text);
  /* Parsed from the file so that diagnostics name it. */
  MlirModule module = mlirModuleCreateParseFromFile(
      ctx, mlirStringRefCreateFromCString(o->input));
  if (mlirModuleIsNull(module))
    toolError("cannot parse '%s'", o->input);
  return module;
}

/* Copies the file at `path` to `output` in pieces (a library holds the
 * weights: reading it whole would double the peak) and publishes it; false
 * after reporting. */
static bool publishFile(const char *path, const char *output) {
  FILE *in = fopen(path, "rb");
  KilnToolOutput out;
  if (!in || !kilnToolOutputOpen(&out, output)) {
    if (in)
      fclose(in);
    toolFileError("write", output);
    return false;
  }
  char *chunk = malloc(1 << 20);
  if (!chunk)
    abort();
  size_t n;
  while ((n = fread(chunk, 1, 1 << 20, in)) > 0)
    kilnToolOutputWrite(&out, chunk, n);
  bool ok = !ferror(in);
  free(chunk);
  fclose(in);
  if (ok)
    ok = kilnToolOutputCommit(&out, output);
  else
    kilnToolOutputDiscard(&out);
  if (!ok)
    toolFileError("write", output);
  return ok;
}

/* The objects of one compilation (one per code generation partition),
 * each written to `dir` as it arrives so that none waits in memory. */
typedef struct Objects {
  KilnStrBuf dir;
  KilnStrBuf *paths; /* [index]; empty for an index not yet received */
  unsigned count;
  bool failed; /* an object could not be written (reported) */
} Objects;

/* Creates the private temporary directory of `objs`; false after
 * reporting. */
static bool objectsCreate(Objects *objs) {
  const char *tmp = getenv("TMPDIR");
  *objs = (Objects){0};
  kilnStrBufAppendf(&objs->dir, "%s/kiln-compile-XXXXXX",
                    tmp && *tmp ? tmp : "/tmp");
  if (mkdtemp(objs->dir.data))
    return true;
  toolFileError("create the temporary directory", objs->dir.data);
  kilnStrBufDestroy(&objs->dir);
  return false;
}

static void collectObject(unsigned index, MlirStringRef object,
                          void *userData) {
  Objects *objs = userData;
  if (index >= objs->count) {
    KilnStrBuf *grown = realloc(objs->paths, (index + 1) * sizeof(KilnStrBuf));
    if (!grown)
      abort();
    memset(grown + objs->count, 0,
           (index + 1 - objs->count) * sizeof(KilnStrBuf));
    objs->paths = grown;
    objs->count = index + 1;
  }
  KilnStrBuf *path = &objs->paths[index];
  kilnStrBufAppendf(path, "%s/model.%u.o", objs->dir.data, index);
  if (!objs->failed &&
      kilnToolWriteFileAtomically(path->data, object.data, object.length)) {
    toolFileError("write", path->data);
    objs->failed = true;
  }
}

/* Removes the objects and their directory. */
static void objectsDestroy(Objects *objs) {
  for (unsigned i = 0; i < objs->count; ++i) {
    if (objs->paths[i].data)
      unlink(objs->paths[i].data);
    kilnStrBufDestroy(&objs->paths[i]);
  }
  free(objs->paths);
  if (objs->dir.data)
    rmdir(objs->dir.data);
  kilnStrBufDestroy(&objs->dir);
}

/* Links the objects into a library in their directory and publishes it at
 * o->output; nothing is left behind either way. */
static bool linkLibrary(const KilnTarget *target, const Objects *objects,
                        const Options *o, Progress *progress) {
  unsigned n = objects->count;
  const char **argv = calloc(n ? n : 1, sizeof(char *));
  if (!argv)
    abort();
  for (unsigned i = 0; i < n; ++i)
    argv[i] = objects->paths[i].data ? objects->paths[i].data : "";
  KilnStrBuf lib = {0}, err = {0};
  kilnStrBufAppendf(&lib, "%s/model.so", objects->dir.data);
  progressBegin("link", progress);
  bool ok = false;
  if (mlirLogicalResultIsFailure(kilnLinkSharedLibrary(
          target, argv, n, lib.data, kilnStrBufCallback, &err)))
    toolError("%s", kilnStrBufGet(&err));
  else
    ok = publishFile(lib.data, o->output);
  unlink(lib.data);
  kilnStrBufDestroy(&err);
  kilnStrBufDestroy(&lib);
  free(argv);
  return ok;
}

/* LLVM dialect → the requested LLVM-level output; false after reporting.
 * A library's code is generated on o->jobs threads (resolved); the
 * other outputs are one module's. */
static bool compileLLVM(MlirModule module, const KilnTarget *target,
                        const KilnModelSignature *sig, const Options *o,
                        Progress *progress) {
  KilnCompileEmit kind = o->emit == kEmitLLVMIR ? KILN_COMPILE_EMIT_LLVM_IR
                         : o->emit == kEmitAsm  ? KILN_COMPILE_EMIT_ASM
                                                : KILN_COMPILE_EMIT_OBJECT;
  KilnCompileOptions co = {.target = target,
                           .signature = sig,
                           .recordedOptions = kilnStrBufGet(&o->recorded),
                           .emit = kind,
                           .onStage = progressBegin,
                           .stageUserData = progress};
  KilnStrBuf out = {0}, err = {0};
  bool ok;
  if (o->emit == kEmitLib) {
    Objects objects;
    if (!objectsCreate(&objects))
      return false;
    ok = mlirLogicalResultIsSuccess(
        kilnCompileToObjects(module, &co, resolveJobs(o->jobs), collectObject,
                             &objects, kilnStrBufCallback, &err));
    if (!ok)
      toolError("%s", kilnStrBufGet(&err));
    else
      ok = !objects.failed && linkLibrary(target, &objects, o, progress);
    objectsDestroy(&objects);
  } else {
    ok = mlirLogicalResultIsSuccess(kilnCompileToObject(
        module, &co, kilnStrBufCallback, &out, kilnStrBufCallback, &err));
    if (!ok) {
      toolError("%s", kilnStrBufGet(&err));
    } else if (kilnToolWriteFileAtomically(o->output, out.data ? out.data : "",
                                           out.len) != 0) {
      toolFileError("write", o->output);
      ok = false;
    }
  }
  kilnStrBufDestroy(&out);
  kilnStrBufDestroy(&err);
  return ok;
}

/* ---- the CUDA target ----------------------------------------------------- */

/* linalg → outlined kernels, then (unless --emit=gpu) kernels → PTX and host
 * code → LLVM dialect; false after diagnostics. */
static bool lowerForGpu(MlirModule module, const KilnTarget *target,
                        const Options *o, Progress *progress) {
  progressBegin("map linalg to GPU kernels", progress);
  if (!runPipeline(module, "linalg-to-gpu", o->timePasses))
    return false;
  if (o->emit == kEmitGpu)
    return true;
  KilnStrBuf toolkit = {0}, why = {0};
  if (o->cubin && !kilnGpuFindToolkit(&toolkit, &why)) {
    toolError("cubin kernels need the CUDA toolkit's ptxas: %s",
              kilnStrBufGet(&why));
    kilnStrBufDestroy(&why);
    return false;
  }
  progressBegin(o->cubin ? "compile kernels to cubin"
                         : "compile kernels to PTX",
                progress);
  KilnStrBuf pipeline = {0};
  kilnGpuPipelineAppend(&pipeline, target, o->cubin ? toolkit.data : NULL);
  bool ok = runPipeline(module, kilnStrBufGet(&pipeline), o->timePasses);
  kilnStrBufDestroy(&pipeline);
  kilnStrBufDestroy(&toolkit);
  kilnStrBufDestroy(&why);
  return ok;
}

static void appendPtx(MlirStringRef name, MlirStringRef ptx, void *userData) {
  KilnStrBuf *out = userData;
  kilnStrBufAppendf(out, "// ---- gpu.binary @%.*s\n", (int)name.length,
                    name.data);
  kilnStrBufAppend(out, ptx.data, ptx.length);
  if (ptx.length && ptx.data[ptx.length - 1] != '\n')
    kilnStrBufAppend(out, "\n", 1);
}

/* --emit=ptx: every kernel module's PTX, each after a "// ---- gpu.binary
 * @NAME" line (one PTX module each: ptxas takes them one at a time). */
static bool writePtx(MlirModule module, const char *path) {
  KilnStrBuf text = {0};
  kilnGpuForEachBinary(module, appendPtx, &text);
  bool ok = kilnToolWriteFileAtomically(path, text.data ? text.data : "",
                                        text.len) == 0;
  if (!ok)
    toolFileError("write", path);
  kilnStrBufDestroy(&text);
  return ok;
}

static void keepObject(MlirStringRef name, MlirStringRef object,
                       void *userData) {
  (void)name;
  KilnStrBuf *out = userData;
  kilnStrBufClear(out);
  kilnStrBufAppend(out, object.data, object.length);
}

/* --emit=cubin: the kernel module's cubin (kiln-gpu-merge-kernels leaves
 * one). */
static bool writeCubin(MlirModule module, const char *path) {
  KilnStrBuf bin = {0};
  unsigned n = kilnGpuForEachBinary(module, keepObject, &bin);
  bool ok = n == 1;
  if (!ok)
    toolError("%s", n ? "the model has several kernel modules: --emit=cubin "
                        "writes one"
                      : "the model has no GPU kernels: no cubin to write");
  else if (kilnToolWriteFileAtomically(path, bin.data, bin.len) != 0) {
    toolFileError("write", path);
    ok = false;
  }
  kilnStrBufDestroy(&bin);
  return ok;
}

/* kiln.target_triple, kiln.target_cpu and kiln.target_features on the
 * module: what the CPU schedules and tuning logs read. */
static void setTargetAttributes(MlirOperation module,
                                const KilnTarget *target) {
  MlirContext ctx = mlirOperationGetContext(module);
  const char *names[] = {"kiln.target_triple", "kiln.target_cpu",
                         "kiln.target_features"};
  const char *values[] = {kilnTargetGetTriple(target), kilnTargetGetCPU(target),
                          kilnTargetGetFeatures(target)};
  for (int i = 0; i < 3; ++i)
    mlirOperationSetDiscardableAttributeByName(
        module, mlirStringRefCreateFromCString(names[i]),
        mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(values[i])));
}

/* A --tuning-log that could not be used: exit code kExitUsage. */
static bool gBadTuningLog;

/* Import through lowering, stopping at o->emit; false after reporting. */
static bool compile(MlirContext ctx, const Options *o, const KilnTarget *target,
                    Progress *progress) {
  progressBegin("import", progress);
  MlirModule module = loadModel(ctx, o);
  if (mlirModuleIsNull(module))
    return false;
  MlirOperation op = mlirModuleGetOperation(module);
  KilnModelSignature *sig = NULL;
  bool ok = false;
  if (!mlirOperationVerify(op) ||
      mlirLogicalResultIsFailure(kilnGraphVerify(op)))
    goto out;
  /* The CPU schedules size their register tiles for the target, and a
   * tuning log's records apply to one target. */
  if (!kilnTargetGetGpuArch(target))
    setTargetAttributes(op, target);
  progressBegin("optimize graph", progress);
  if (!runPipeline(module, kilnGraphOptPipelineName(o->target.optLevel),
                   o->timePasses))
    goto out;
  if (o->tuningLog) {
    breakProgressLine();
    if (!kilnToolApplyTuningLog(kProg, o->tuningLog, module,
                                o->timePasses || !o->quiet)) {
      gBadTuningLog = true;
      goto out;
    }
  }
  if (o->emit == kEmitGraph) {
    progressEnd(progress, true);
    ok = writeModule(op, o->output, o->debugInfo);
    goto out;
  }
  if (o->emit >= kEmitLLVMIR && !(sig = kilnModelSignatureCreate(module)))
    goto out;
  bool gpu = kilnTargetGetGpuArch(target) != NULL;
  progressBegin("lower graph to linalg", progress);
  /* Run-time checks on the CPU only, so far (runtime_checks.c). */
  if (!runPipeline(module,
                   gpu                  ? "graph-to-linalg-gpu"
                   : o->noRuntimeChecks ? "graph-to-linalg"
                                        : "kiln-runtime-checks,graph-to-linalg",
                   o->timePasses))
    goto out;
  if (o->emit == kEmitLinalg) {
    progressEnd(progress, true);
    ok = writeModule(op, o->output, o->debugInfo);
    goto out;
  }
  if (gpu) {
    if (!lowerForGpu(module, target, o, progress))
      goto out;
    if (o->emit == kEmitGpu || o->emit == kEmitLLVMDialect ||
        o->emit == kEmitPtx || o->emit == kEmitCubin) {
      progressEnd(progress, true);
      ok = o->emit == kEmitPtx     ? writePtx(module, o->output)
           : o->emit == kEmitCubin ? writeCubin(module, o->output)
                                   : writeModule(op, o->output, o->debugInfo);
      goto out;
    }
    KilnStrBuf err = {0};
    if (!kilnGpuCheckLinked(module, kilnStrBufCallback, &err)) {
      toolError("%s", kilnStrBufGet(&err));
      kilnStrBufDestroy(&err);
      goto out;
    }
  } else {
    progressBegin("lower linalg to LLVM dialect", progress);
    /* kiln-profile-nodes and kiln-instrument-ops act on marked modules. */
    if (o->profile)
      mlirOperationSetDiscardableAttributeByName(
          op, mlirStringRefCreateFromCString(KILN_PROFILE_ATTR),
          mlirUnitAttrGet(ctx));
    if (!runPipeline(module, "linalg-to-llvm-cpu", o->timePasses))
      goto out;
    if (o->emit == kEmitLLVMDialect) {
      progressEnd(progress, true);
      ok = writeModule(op, o->output, o->debugInfo);
      goto out;
    }
  }
  ok = compileLLVM(module, target, sig, o, progress);
out:
  progressEnd(progress, ok);
  kilnModelSignatureDestroy(sig);
  mlirModuleDestroy(module);
  return ok;
}

static void appendMessage(MlirStringRef s, void *userData) {
  kilnStrBufAppend(userData, s.data, s.length);
}

int main(int argc, char **argv) {
  Options o = {.output = "-", .emit = kEmitLib, .target = {.optLevel = 3}};
  int rc = parseArgs(argc, argv, &o);
  if (rc >= 0) {
    optionsDestroy(&o);
    return rc;
  }
  /* The target is checked first: a bad --target or --cpu fails fast,
   * whatever the stage. */
  KilnStrBuf err = {0};
  KilnTarget *target = kilnTargetCreate(&o.target, appendMessage, &err);
  if (!target) {
    toolError("%s", kilnStrBufGet(&err));
    kilnStrBufDestroy(&err);
    optionsDestroy(&o);
    return kExitUsage;
  }
  kilnStrBufDestroy(&err);
  if (strcmp(o.input, "-") && !kilnToolCheckModelFile(kProg, o.input, false)) {
    kilnTargetDestroy(target);
    optionsDestroy(&o);
    return kExitUsage;
  }
  MlirContext ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx)) {
    toolError("%s", "cannot set up the MLIR context");
    kilnTargetDestroy(target);
    optionsDestroy(&o);
    return kExitCompile;
  }
  mlirContextAttachDiagnosticHandler(ctx, handleDiagnostic, NULL, NULL);
  Progress progress = {.on = o.timePasses || (!o.quiet && isatty(2)),
                       .live = !o.timePasses,
                       .first = nowSeconds()};
  gProgress = &progress;
  rc = compile(ctx, &o, target, &progress) ? kExitPass
       : gBadTuningLog                     ? kExitUsage
       : gSawUnsupported                   ? kExitUnsupported
                                           : kExitCompile;
  if (rc == kExitPass)
    progressFinish(&progress);
  gProgress = NULL;
  kilnContextDestroy(ctx);
  kilnTargetDestroy(target);
  optionsDestroy(&o);
  return rc;
}

/* kiln-compile: compiles an ONNX model (or a .mlir module in the graph
 * dialect or linalg on tensors) ahead of time, by default to a model
 * library (model.so, the ABI of docs/kiln-compile.md); --emit stops at an
 * earlier stage and prints it. The stages are the compiler session's
 * (kiln/session.h): import, graph optimizations at the -O level (the named
 * pipeline graph-ON), graph → linalg, linalg → LLVM dialect (the `cpu`
 * pipeline's two halves), translation to LLVM IR, LLVM optimization, code
 * generation, link; this file parses the command line, prints progress and
 * messages and writes the output. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime */

#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "dialects/shard/transforms/shard_plan.h"
#include "kiln/diagnostics.h"
#include "kiln/kiln_runtime.h"
#include "kiln/session.h"
#include "tools/common/tool_cli.h"
#include "tools/common/tool_diag.h"
#include "tools/common/tool_io.h"

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
      "  --precision=P    fp32 (default: as exported), fp16 or bf16: an f32\n"
      "                   model's weights and compute in that type, as\n"
      "                   PyTorch's autocast (products accumulated and\n"
      "                   softmax/normalization statistics kept in f32;\n"
      "                   inputs and outputs stay f32)\n"
      "  --shard=PLAN     tp:N or dp:N: a library that runs as N MPI\n"
      "                   processes (mpirun -np N kiln-run ...), the\n"
      "                   products' weights split Megatron-style (tp) or\n"
      "                   the batch (dp); docs/scale-out.md\n"
      "  --shard-plan=F   a hand-written plan: how named ONNX nodes'\n"
      "                   products are split (columns, rows, whole),\n"
      "                   and the plan (`plan tp:N`) when --shard is\n"
      "                   not given\n"
      "",
      kProg);
  /* Two strings: C guarantees 4095 characters to a literal. */
  fprintf(
      out,
      "  --target=T       host (default), x86-64-v3, aarch64-linux-gnu, or\n"
      "                   an x86_64/aarch64 Linux LLVM triple; cuda:\n"
      "                   kernels for an NVIDIA GPU, host code for this\n"
      "                   machine\n"
      "  --gpu-arch=SM    with --target=cuda: sm_70 ... sm_120 (default\n"
      "                   sm_90)\n"
      "  --gpu-tf32       with --target=cuda: f32 products on tensor cores\n"
      "                   in TF32 (10-bit mantissas; off by default, as\n"
      "                   in PyTorch)\n"
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
      "                   (e.g. x=1x3x224x224; a dim '?' stays dynamic:\n"
      "                   x=?x3x224x224); repeatable\n"
      "  --dim=NAME=N     size every input dim named NAME in the model (its\n"
      "                   ONNX dim_param, e.g. batch=8); repeatable\n"
      "  --input-value=NAME=FILE\n"
      "                   make graph input NAME a constant of the tensor in\n"
      "                   FILE (.npy or ONNX .pb), e.g. a shape that\n"
      "                   decides others; repeatable\n"
      "  --dynamic        keep the input dims that no --input-shape or\n"
      "                   --dim sizes dynamic: the library takes any size\n"
      "                   there at run time (docs/dynamic-shapes.md);\n"
      "                   --dynamic=all: every input dim not given\n"
      "                   (testing shape-generic code)\n"
      "  --specialize=NAME=N[,N...]\n"
      "                   with --dynamic: add code compiled for each size\n"
      "                   of input dim NAME, which the library runs when\n"
      "                   its inputs have it (the generic code otherwise);\n"
      "                   repeated for other dims, every combination\n"
      "                   (at most 16)\n"
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
      kilnToolExitCodeHelp);
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
/* Whether remarks (the tuning log's report) are printed: not with -q,
 * unless --time-passes. */
static bool gShowRemarks;

static void printMessage(const char *severity, const char *location,
                         const char *text, void *userData) {
  (void)userData;
  if (!location && !strcmp(severity, "remark") && !gShowRemarks)
    return;
  breakProgressLine();
  kilnToolPrintMessage(kProg, severity, location, text);
  if (location && !strcmp(severity, "error"))
    gSawUnsupported |= kilnToolIsUnsupportedMessage(text);
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
  KilnOnnxDimBinding *dims; /* names are argv */
  intptr_t numDims;
  KilnOnnxDynamicDims dynamicDims; /* --dynamic[=all] */
  /* --specialize NAME=N,M,...: each flag's dim (argv) and sizes (owned) */
  KilnSpecializedSizes *specialize;
  intptr_t numSpecialize;
  /* --input-value NAME=FILE: the inputs made constants (names are argv) */
  const char **valueNames;
  KilnTensor **values;
  intptr_t numValues;
  KilnTargetOptions target;
  bool debugInfo;        /* --mlir-print-debuginfo: print each op's location */
  bool quiet;            /* -q */
  bool timePasses;       /* --time-passes */
  unsigned jobs;         /* --jobs: code generation threads, 0 = auto */
  bool cubin;            /* --gpu-binary=cubin (or --emit=cubin) */
  bool gpuTf32;          /* --gpu-tf32 */
  bool profile;          /* --profile: per-op timers (kiln-instrument-ops) */
  bool noRuntimeChecks;  /* --no-runtime-checks: no kiln-runtime-checks */
  const char *tuningLog; /* --tuning-log: kiln-tune's records */
  const char *precision; /* --precision: fp32, fp16 or bf16 */
  const char *shard;     /* --shard: tp:N or dp:N */
  const char *shardPlan; /* --shard-plan: a plan file */
} Options;

static void optionsDestroy(Options *o) {
  for (intptr_t i = 0; i < o->numSpecialize; ++i)
    free((int64_t *)o->specialize[i].sizes);
  free(o->specialize);
  for (intptr_t i = 0; i < o->numShapes; ++i)
    free((int64_t *)o->shapes[i].dims);
  free(o->shapes);
  free(o->dims);
  for (intptr_t i = 0; i < o->numValues; ++i)
    kilnTensorDestroy(o->values[i]);
  free(o->values);
  free(o->valueNames);
}

/* Reads the tensor of "--input-value NAME=FILE" (.npy, else an ONNX
 * TensorProto) into o; false after printing why. */
static bool parseInputValue(char *text, Options *o) {
  char *eq = strchr(text, '=');
  if (!eq || eq == text || !eq[1]) {
    fprintf(stderr, "%s: error: --input-value '%s': expected NAME=FILE\n",
            kProg, text);
    return false;
  }
  *eq = '\0';
  const char *path = eq + 1;
  KilnTensor *t = NULL;
  KilnStatus *s = kilnStrHasSuffix(path, ".npy")
                      ? kilnTensorReadNpyFile(path, &t)
                      : kilnTensorReadPbFile(path, &t);
  if (s) {
    fprintf(stderr, "%s: error: --input-value %s=%s: %s\n", kProg, text, path,
            kilnStatusGetMessage(s));
    kilnStatusDestroy(s);
    return false;
  }
  o->valueNames[o->numValues] = text;
  o->values[o->numValues++] = t;
  return true;
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
    char *end;
    long long v;
    errno = 0;
    if (*p == '?') { /* a dynamic dim */
      v = -1;
      end = (char *)p + 1;
    } else if (*p < '0' || *p > '9') {
      why = "dimensions must be non-negative integers or '?' separated by "
            "'x'";
      break;
    } else {
      v = strtoll(p, &end, 10);
    }
    if (errno == ERANGE) {
      why = "a dimension is out of range";
      break;
    }
    if (*end && (*end != 'x' || !end[1])) {
      why = "dimensions must be non-negative integers or '?' separated by "
            "'x'";
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

/* Parses "NAME=N" (NAME up to the last '=') into *out. Returns false after
 * printing what is malformed. */
static bool parseDimBinding(char *text, KilnOnnxDimBinding *out) {
  char *eq = strrchr(text, '=');
  char *end = NULL;
  long long v = -1;
  if (eq && eq != text && eq[1] >= '0' && eq[1] <= '9') {
    errno = 0;
    v = strtoll(eq + 1, &end, 10);
  }
  if (!end || *end || errno == ERANGE) {
    fprintf(stderr,
            "%s: error: --dim '%s': expected NAME=N, N a non-negative "
            "integer\n",
            kProg, text);
    return false;
  }
  *eq = '\0'; /* the name ends here; argv strings may be modified */
  *out = (KilnOnnxDimBinding){.name = text, .size = v};
  return true;
}

static KilnStage moduleStage(Emit emit);

/* Parses "NAME=N,M,..." into *out (its sizes malloc'd); false after
 * printing what is malformed. */
static bool parseSpecialize(char *text, KilnSpecializedSizes *out) {
  char *eq = strrchr(text, '=');
  int64_t *sizes = NULL;
  *out = (KilnSpecializedSizes){0};
  bool ok = eq && eq != text && eq[1];
  for (char *p = ok ? eq + 1 : NULL; ok && p;) {
    char *end = NULL;
    errno = 0;
    long long v = *p >= '0' && *p <= '9' ? strtoll(p, &end, 10) : -1;
    ok = end && (*end == ',' || !*end) && errno != ERANGE;
    if (!ok)
      break;
    sizes = realloc(sizes, (size_t)(out->numSizes + 1) * sizeof(*sizes));
    if (!sizes)
      abort();
    sizes[out->numSizes++] = v;
    p = *end ? end + 1 : NULL;
  }
  if (!ok) {
    fprintf(stderr,
            "%s: error: --specialize '%s': expected NAME=N[,N...], N "
            "non-negative integers\n",
            kProg, text);
    free(sizes);
    *out = (KilnSpecializedSizes){0};
    return false;
  }
  *eq = '\0'; /* the name ends here; argv strings may be modified */
  *out = (KilnSpecializedSizes){text, sizes, out->numSizes};
  return true;
}

/* Parses argv; returns -1 to go on, else the exit code. */
static int parseArgs(int argc, char **argv, Options *o) {
  enum {
    kVersion = 256,
    kEmit,
    kInputShape,
    kDim,
    kDynamic,
    kInputValue,
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
    kTuningLog,
    kSpecialize,
    kPrecision,
    kShard,
    kShardPlan,
    kGpuTf32
  };
  static const struct option longOpts[] = {
      {"emit", required_argument, NULL, kEmit},
      {"input-shape", required_argument, NULL, kInputShape},
      {"dim", required_argument, NULL, kDim},
      {"dynamic", optional_argument, NULL, kDynamic},
      {"specialize", required_argument, NULL, kSpecialize},
      {"input-value", required_argument, NULL, kInputValue},
      {"output", required_argument, NULL, 'o'},
      {"target", required_argument, NULL, kTarget},
      {"cpu", required_argument, NULL, kCPU},
      {"gpu-arch", required_argument, NULL, kGpuArch},
      {"gpu-binary", required_argument, NULL, kGpuBinary},
      {"gpu-tf32", no_argument, NULL, kGpuTf32},
      {"quiet", no_argument, NULL, 'q'},
      {"time-passes", no_argument, NULL, kTimePasses},
      {"profile", no_argument, NULL, kProfile},
      {"no-runtime-checks", no_argument, NULL, kNoRuntimeChecks},
      {"tuning-log", required_argument, NULL, kTuningLog},
      {"precision", required_argument, NULL, kPrecision},
      {"shard", required_argument, NULL, kShard},
      {"shard-plan", required_argument, NULL, kShardPlan},
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
    case kDim:
      if (!o->dims && !(o->dims = calloc((size_t)argc, sizeof(*o->dims))))
        abort();
      if (!parseDimBinding(optarg, &o->dims[o->numDims]))
        return kExitUsage;
      ++o->numDims;
      break;
    case kSpecialize:
      if (!o->specialize &&
          !(o->specialize = calloc((size_t)argc, sizeof(*o->specialize))))
        abort();
      if (!parseSpecialize(optarg, &o->specialize[o->numSpecialize]))
        return kExitUsage;
      ++o->numSpecialize;
      break;
    case kInputValue:
      if (!o->values &&
          (!(o->values = calloc((size_t)argc, sizeof(*o->values))) ||
           !(o->valueNames = calloc((size_t)argc, sizeof(*o->valueNames)))))
        abort();
      if (!parseInputValue(optarg, o))
        return kExitUsage;
      break;
    case kDynamic:
      if (optarg && strcmp(optarg, "all")) {
        toolError("--dynamic='%s': expected --dynamic or --dynamic=all",
                  optarg);
        return kExitUsage;
      }
      o->dynamicDims =
          optarg ? KILN_ONNX_DIMS_ALL_DYNAMIC : KILN_ONNX_DIMS_DYNAMIC;
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
    case kGpuTf32:
      o->gpuTf32 = true;
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
    case kPrecision:
      if (!kilnSessionPrecisionIsKnown(optarg)) {
        toolError("--precision=%s: expected fp32, fp16 or bf16", optarg);
        return kExitUsage;
      }
      o->precision = optarg;
      break;
    case kShard: {
      KilnShardPlan plan;
      if (!kilnShardPlanParse(optarg, &plan)) {
        toolError("--shard=%s: expected tp:N or dp:N, N from 2 to 4096",
                  optarg);
        return kExitUsage;
      }
      o->shard = optarg;
      break;
    }
    case kShardPlan:
      o->shardPlan = optarg;
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
  if ((o->numShapes || o->numDims || o->dynamicDims || o->numValues ||
       o->numSpecialize) &&
      kilnStrHasSuffix(o->input, ".mlir")) {
    toolError("%s", o->numShapes   ? "--input-shape applies to ONNX models only"
                    : o->numDims   ? "--dim applies to ONNX models only"
                    : o->numValues ? "--input-value applies to ONNX models only"
                    : o->dynamicDims
                        ? "--dynamic applies to ONNX models only"
                        : "--specialize applies to ONNX models only");
    return kExitUsage;
  }
  if (o->numSpecialize && moduleStage(o->emit) != KILN_STAGE_NONE) {
    toolError("--specialize adds fast paths to generated code; --emit=%s "
              "shows the generic path only (leave --specialize out)",
              kEmitNames[o->emit]);
    return kExitUsage;
  }
  bool cuda = o->target.target && !strcmp(o->target.target, "cuda");
  if ((o->emit == kEmitGpu || o->emit == kEmitPtx || o->emit == kEmitCubin) &&
      !cuda) {
    toolError("--emit=%s needs --target=cuda", kEmitNames[o->emit]);
    return kExitUsage;
  }
  if (o->gpuTf32 && !cuda) {
    toolError("%s", "--gpu-tf32 needs --target=cuda");
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

/* Writes the invocation's module to `path`; false after reporting a write
 * failure. Streamed, not buffered: a model's weights print as megabytes of
 * hex, and a second copy in memory would double the tool's peak. */
static bool writeModule(const KilnInvocation *inv, const char *path,
                        bool debugInfo) {
  KilnToolOutput out;
  if (!kilnToolOutputOpen(&out, path)) {
    toolError("cannot write '%s'", path);
    return false;
  }
  kilnInvocationPrintModule(inv, debugInfo, kilnToolOutputCallback, &out);
  kilnToolOutputWrite(&out, "\n", 1);
  if (!kilnToolOutputCommit(&out, path)) {
    toolError("cannot write '%s'", path);
    return false;
  }
  return true;
}

/* Generates the library and streams it to `output` ("-", a device, or a
 * file replaced only when complete). */
static bool writeLibrary(KilnInvocation *inv, const char *output) {
  KilnToolOutput out;
  if (!kilnToolOutputOpen(&out, output)) {
    toolFileError("write", output);
    return false;
  }
  if (!kilnInvocationEmitLibrary(inv, kilnToolOutputCallback, &out)) {
    kilnToolOutputDiscard(&out);
    return false;
  }
  if (!kilnToolOutputCommit(&out, output)) {
    toolFileError("write", output);
    return false;
  }
  return true;
}

/* An output written whole at the end (LLVM IR, assembly, an object, the
 * kernels): collected, then written atomically. */
static bool writeCollected(const KilnStrBuf *text, const char *output) {
  if (kilnToolWriteFileAtomically(output, text->data ? text->data : "",
                                  text->len) == 0)
    return true;
  toolFileError("write", output);
  return false;
}

/* The stage --emit stops at, for the outputs that are modules. */
static KilnStage moduleStage(Emit emit) {
  switch (emit) {
  case kEmitGraph:
    return KILN_STAGE_GRAPH;
  case kEmitLinalg:
    return KILN_STAGE_LINALG;
  case kEmitGpu:
    return KILN_STAGE_GPU;
  case kEmitLLVMDialect:
    return KILN_STAGE_LLVM;
  default:
    return KILN_STAGE_NONE;
  }
}

/* Parses or imports the model, with the --input-value tensors as
 * constants; false after reporting. */
static bool loadModel(KilnInvocation *inv, MlirContext ctx, const Options *o) {
  if (!o->numValues)
    return kilnInvocationParseSource(inv, o->input);
  KilnOnnxInputValue *values = calloc((size_t)o->numValues, sizeof(*values));
  if (!values)
    abort();
  for (intptr_t i = 0; i < o->numValues; ++i)
    values[i] = kilnToolInputValueOf(ctx, o->valueNames[i], o->values[i]);
  bool ok = kilnInvocationImportOnnxFile(inv, o->input, values, o->numValues);
  free(values);
  return ok;
}

/* The model through the session's stages to o->emit; false after
 * reporting. */
static bool compile(KilnInvocation *inv, MlirContext ctx, const Options *o,
                    Progress *progress) {
  if (!loadModel(inv, ctx, o))
    return false;
  KilnStage stage = moduleStage(o->emit);
  bool ok;
  if (stage != KILN_STAGE_NONE) {
    ok = kilnInvocationRunUntil(inv, stage);
    progressEnd(progress, ok);
    return ok && writeModule(inv, o->output, o->debugInfo);
  }
  KilnStrBuf out = {0};
  if (o->emit == kEmitPtx || o->emit == kEmitCubin) {
    ok = kilnInvocationEmitKernels(inv, kilnStrBufCallback, &out);
    progressEnd(progress, ok);
    ok = ok && writeCollected(&out, o->output);
  } else if (o->emit == kEmitLib) {
    ok = writeLibrary(inv, o->output);
  } else {
    KilnCompileEmit kind = o->emit == kEmitLLVMIR ? KILN_COMPILE_EMIT_LLVM_IR
                           : o->emit == kEmitAsm  ? KILN_COMPILE_EMIT_ASM
                                                  : KILN_COMPILE_EMIT_OBJECT;
    ok = kilnInvocationEmitCode(inv, kind, kilnStrBufCallback, &out) &&
         writeCollected(&out, o->output);
  }
  kilnStrBufDestroy(&out);
  return ok;
}

int main(int argc, char **argv) {
  Options o = {.output = "-", .emit = kEmitLib, .target = {.optLevel = 3}};
  int rc = parseArgs(argc, argv, &o);
  if (rc >= 0) {
    optionsDestroy(&o);
    return rc;
  }
  gShowRemarks = o.timePasses || !o.quiet;
  Progress progress = {.on = o.timePasses || (!o.quiet && isatty(2)),
                       .live = !o.timePasses,
                       .first = nowSeconds()};
  /* The session checks the target first: a bad --target or --cpu fails
   * fast, whatever the stage. */
  KilnSessionOptions so = {.target = o.target,
                           .inputShapes = o.shapes,
                           .numInputShapes = o.numShapes,
                           .dims = o.dims,
                           .numDims = o.numDims,
                           .dynamicDims = o.dynamicDims,
                           .specialize = o.specialize,
                           .numSpecialize = o.numSpecialize,
                           .tuningLog = o.tuningLog,
                           .noRuntimeChecks = o.noRuntimeChecks,
                           .precision = o.precision,
                           .shard = o.shard,
                           .shardPlanFile = o.shardPlan,
                           .gpuTf32 = o.gpuTf32,
                           .profile = o.profile,
                           .timePasses = o.timePasses,
                           .cubin = o.cubin,
                           .jobs = o.jobs,
                           .onMessage = printMessage,
                           .onStage = progressBegin,
                           .userData = &progress};
  KilnSession *session = kilnSessionCreate(&so);
  if (!session) {
    optionsDestroy(&o);
    return kExitUsage;
  }
  if (strcmp(o.input, "-") && !kilnToolCheckModelFile(kProg, o.input, false)) {
    kilnSessionDestroy(session);
    optionsDestroy(&o);
    return kExitUsage;
  }
  gProgress = &progress;
  KilnInvocation *inv = kilnInvocationCreate(session);
  bool ok = compile(inv, kilnSessionGetContext(session), &o, &progress);
  progressEnd(&progress, ok);
  rc = ok                                                           ? kExitPass
       : kilnInvocationGetError(inv) == KILN_INVOCATION_ERROR_USAGE ? kExitUsage
       : gSawUnsupported ? kExitUnsupported
                         : kExitCompile;
  if (rc == kExitPass)
    progressFinish(&progress);
  gProgress = NULL;
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(session);
  optionsDestroy(&o);
  return rc;
}

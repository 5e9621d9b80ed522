/* kiln-run's command line and the helpers both of its programs share:
 * kiln-run (compiles and runs, or runs a library) and kiln-run-module (runs
 * a library through libkiln_runtime only, no MLIR). Uses libc and the
 * runtime alone, so that kiln-run-module links nothing else. */
#define _POSIX_C_SOURCE 200809L

#include "tools/kiln-run/options.h"

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *kilnRunProgram = "kiln-run";

void kilnRunError(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kilnToolErrorV(kilnRunProgram, fmt, ap);
  va_end(ap);
}

/* ---- command line ----------------------------------------------------- */

/* The library runner takes the same flags minus the compiling ones. */
/* --output-dir is checked before the model runs: a run of minutes must
 * not end in "cannot write". */
static bool isWritableDirectory(const char *dir) {
  struct stat st;
  if (stat(dir, &st) != 0) {
    kilnRunError("--output-dir '%s': %s", dir, strerror(errno));
    return false;
  }
  if (!S_ISDIR(st.st_mode)) {
    kilnRunError("--output-dir '%s': not a directory", dir);
    return false;
  }
  if (access(dir, W_OK | X_OK) != 0) {
    kilnRunError("--output-dir '%s': %s", dir, strerror(errno));
    return false;
  }
  return true;
}

static void usage(FILE *out, bool libraryOnly) {
  if (libraryOnly)
    fprintf(out,
            "usage: kiln-run-module MODEL.so [--input NAME=FILE]... "
            "[--expected NAME=FILE]...\n"
            "                [--rtol R] [--atol A] [--output-dir DIR] "
            "[--print-output]\n"
            "                [--threads N] [--benchmark N] [--verbose]\n"
            "                [--profile] [--profile-json FILE]\n"
            "\n"
            "Loads MODEL.so made by kiln-compile (any target) through\n"
            "libkiln_runtime alone, runs it and compares its outputs: for\n"
            "machines that run models but have no compiler installed.\n");
  else
    fprintf(
        out,
        "usage: kiln-run MODEL [--input NAME=FILE]... "
        "[--expected NAME=FILE]...\n"
        "                [--rtol R] [--atol A] [--output-dir DIR] "
        "[--print-output]\n"
        "                [-O0..-O3] [--threads N] [--benchmark N] "
        "[--verbose]\n"
        "                [--profile] [--profile-json FILE]\n"
        "\n"
        "Compiles MODEL (.onnx, or .mlir in the graph dialect or linalg on\n"
        "tensors) for this CPU, or loads MODEL.so made by kiln-compile,\n"
        "runs it and compares its outputs.\n");
  fprintf(out,
          "FILE is an ONNX TensorProto (.pb) or NumPy (.npy) file; a bare\n"
          "FILE binds to the inputs/outputs in order.\n"
          "\n"
          "  --input NAME=FILE     a model input (repeatable)\n"
          "  --expected NAME=FILE  an expected output (repeatable)\n"
          "  --rtol R, --atol A    tolerance |got-exp| <= A + R*|exp|\n"
          "                        (defaults: 1e-3 and 1e-5 for f32/f64,\n"
          "                        1e-2 and 1e-3 for f16/bf16)\n"
          "  --output-dir DIR      write each output as DIR/NAME.npy\n"
          "  --print-output        print the outputs (big ones truncated)\n"
          "  --summary             %sprint what the library holds (target,\n"
          "                        options, inputs and outputs with their\n"
          "                        named dims, memory plan); run nothing\n",
          libraryOnly ? "" : "(.so models) ");
  if (!libraryOnly)
    fprintf(
        out,
        "  -O0 .. -O3            optimization level when compiling: graph\n"
        "                        passes (graph-ON) and LLVM (default -O3)\n");
  fprintf(out, "  --threads N           OpenMP threads (default: all cores)\n");
  if (!libraryOnly)
    fprintf(out,
            "  --pipeline NAME       the named pipeline lowering the graph\n"
            "                        dialect to LLVM (default cpu; gpu-on-cpu\n"
            "                        runs the GPU schedules on the CPU)\n"
            "  --tuning-log FILE     schedule each workload kiln-tune's log\n"
            "                        has a record for as it found best\n"
            "  --precision P         fp32 (default), fp16 or bf16: compute\n"
            "                        an f32 model in that type, as\n"
            "                        kiln-compile --precision\n");
  fprintf(
      out,
      "  --repeat N            %srun N times; check, print and\n"
      "                        write the last run's outputs (a CUDA\n"
      "                        model replays its runs as a CUDA graph\n"
      "                        from the second)\n"
      "  --benchmark N         %safter the checked run, time\n"
      "                        N more runs after a warm-up; print the\n"
      "                        latency and throughput\n"
      "  --profile             %stime each op of a library built\n"
      "                        with kiln-compile --profile over N runs\n"
      "                        (--benchmark N, default 20); print the\n"
      "                        median per op, sorted\n"
      "  --profile-json FILE   --profile, and write the run of median\n"
      "                        time as a Chrome trace (Perfetto)\n"
      "  --verbose             say what %s does\n"
      "  -h, --help            show this help\n"
      "      --version         show the version\n"
      "\n"
      "%s",
      libraryOnly ? "" : "(.so models) ", libraryOnly ? "" : "(.so models) ",
      libraryOnly ? "" : "(.so models) ", kilnRunProgram, kilnToolExitCodeHelp);
}

static void parseTensorArg(char *text, TensorArg *out) {
  /* NAME=FILE splits at the first '=' unless that would leave no file. */
  char *eq = strchr(text, '=');
  *out = (TensorArg){.path = text, .slot = -1};
  if (eq && eq != text && eq[1]) {
    *eq = '\0';
    out->name = text;
    out->path = eq + 1;
  }
}

static bool parseDouble(const char *flag, const char *text, double *out) {
  char *end = NULL;
  errno = 0;
  *out = strtod(text, &end);
  if (!*text || *end || errno == ERANGE || !(*out >= 0)) {
    kilnRunError("%s '%s': expected a non-negative number", flag, text);
    return false;
  }
  return true;
}

/* `text` as an integer from 1 to `max` into `*out`; false, with an error
 * naming `flag`, otherwise. */
static bool parseCount(const char *flag, const char *text, long max, int *out) {
  char *end = NULL;
  long n = strtol(text, &end, 10);
  if (!*text || *end || n < 1 || n > max) {
    kilnRunError("%s '%s': expected an integer from 1 to %ld", flag, text, max);
    return false;
  }
  *out = (int)n;
  return true;
}

/* Parses argv into *o; returns -1 to go on, else the exit code. */
int kilnRunParseArgs(int argc, char **argv, Options *o, bool libraryOnly) {
  kilnRunProgram = libraryOnly ? "kiln-run-module" : "kiln-run";
  enum {
    kInput = 256,
    kExpected,
    kRtol,
    kAtol,
    kOutDir,
    kPrint,
    kSummary,
    kThreads,
    kBenchmark,
    kRepeat,
    kAllRanks,
    kPipeline,
    kTuningLog,
    kPrecision,
    kProfile,
    kProfileJson,
    kVersion
  };
  /* kiln-run-module's table is this one from the fourth entry: no
   * --pipeline, --tuning-log or --precision (nothing is compiled). */
  static const struct option longOpts[] = {
      {"pipeline", required_argument, NULL, kPipeline},
      {"tuning-log", required_argument, NULL, kTuningLog},
      {"precision", required_argument, NULL, kPrecision},
      {"input", required_argument, NULL, kInput},
      {"expected", required_argument, NULL, kExpected},
      {"rtol", required_argument, NULL, kRtol},
      {"atol", required_argument, NULL, kAtol},
      {"output-dir", required_argument, NULL, kOutDir},
      {"print-output", no_argument, NULL, kPrint},
      {"summary", no_argument, NULL, kSummary},
      {"threads", required_argument, NULL, kThreads},
      {"benchmark", required_argument, NULL, kBenchmark},
      {"repeat", required_argument, NULL, kRepeat},
      {"all-ranks", no_argument, NULL, kAllRanks},
      {"profile", no_argument, NULL, kProfile},
      {"profile-json", required_argument, NULL, kProfileJson},
      {"verbose", no_argument, NULL, 'v'},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, kVersion},
      {NULL, 0, NULL, 0}};
  o->inputs = calloc((size_t)argc, sizeof(TensorArg));
  o->expected = calloc((size_t)argc, sizeof(TensorArg));
  if (!o->inputs || !o->expected)
    abort();
  int c;
  while ((c = getopt_long(argc, argv, libraryOnly ? "hv" : "hvO:",
                          libraryOnly ? longOpts + 3 : longOpts, NULL)) != -1) {
    switch (c) {
    case kInput:
      parseTensorArg(optarg, &o->inputs[o->numInputs++]);
      break;
    case kExpected:
      parseTensorArg(optarg, &o->expected[o->numExpected++]);
      break;
    case kRtol:
      if (!parseDouble("--rtol", optarg, &o->rtol))
        return kExitUsage;
      break;
    case kAtol:
      if (!parseDouble("--atol", optarg, &o->atol))
        return kExitUsage;
      break;
    case kOutDir:
      if (!isWritableDirectory(optarg))
        return kExitUsage;
      o->outputDir = optarg;
      break;
    case kPrint:
      o->printOutput = true;
      break;
    case kSummary:
      o->summary = true;
      break;
    case kThreads:
      if (!parseCount("--threads", optarg, 4096, &o->threads))
        return kExitUsage;
      break;
    case kBenchmark:
      if (!parseCount("--benchmark", optarg, 1000000, &o->benchmark))
        return kExitUsage;
      break;
    case kAllRanks:
      o->allRanks = true;
      break;
    case kRepeat:
      if (!parseCount("--repeat", optarg, 1000000, &o->repeat))
        return kExitUsage;
      break;
    case 'O':
      if (optarg[0] < '0' || optarg[0] > '3' || optarg[1]) {
        kilnRunError("-O%s: expected -O0, -O1, -O2 or -O3", optarg);
        return kExitUsage;
      }
      o->optLevel = optarg[0] - '0';
      break;
    case kPipeline:
      o->pipeline = optarg;
      break;
    case kTuningLog:
      o->tuningLog = optarg;
      break;
    case kPrecision:
      if (strcmp(optarg, "fp32") && strcmp(optarg, "fp16") &&
          strcmp(optarg, "bf16")) {
        kilnRunError("--precision '%s': expected fp32, fp16 or bf16", optarg);
        return kExitUsage;
      }
      o->precision = optarg;
      break;
    case kProfile:
      o->profile = true;
      break;
    case kProfileJson:
      o->profile = true;
      o->profileJson = optarg;
      break;
    case 'v':
      o->verbose = true;
      break;
    case 'h':
      usage(stdout, libraryOnly);
      return kExitPass;
    case kVersion:
      kilnToolPrintVersion(kilnRunProgram);
      return kExitPass;
    default:
      usage(stderr, libraryOnly);
      return kExitUsage;
    }
  }
  if (optind != argc - 1) {
    kilnRunError("%s", optind >= argc ? "no model given"
                                      : "exactly one model is expected");
    return kExitUsage;
  }
  o->model = argv[optind];
  return -1;
}

bool kilnRunHasSuffix(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && !strcmp(s + n - m, suffix);
}

/* Set when a data file failed to load because of a feature Kiln does not
 * support (string tensors, ...) rather than because it is malformed. */
bool kilnRunDataUnsupported;

/* Reads every --input and --expected file; false after an error. */
bool kilnRunLoadTensors(TensorArg *args, int n, const char *what) {
  for (int i = 0; i < n; ++i) {
    KilnStatus *s = kilnRunHasSuffix(args[i].path, ".npy")
                        ? kilnTensorReadNpyFile(args[i].path, &args[i].tensor)
                        : kilnTensorReadPbFile(args[i].path, &args[i].tensor);
    if (s) {
      kilnRunDataUnsupported |=
          kilnToolIsUnsupportedMessage(kilnStatusGetMessage(s));
      if (args[i].name)
        kilnRunError("%s '%s': %s", what, args[i].name,
                     kilnStatusGetMessage(s));
      else
        kilnRunError("%s #%d: %s", what, i, kilnStatusGetMessage(s));
      kilnStatusDestroy(s);
      return false;
    }
  }
  return true;
}

/* Matches `args` to the `count` slots named `names`: by name, or by
 * position for a bare file. Returns false after an error. */
bool kilnRunMatchSlots(TensorArg *args, int n, char **names, intptr_t count,
                       const char *what) {
  for (int i = 0; i < n; ++i) {
    TensorArg *a = &args[i];
    if (a->bound)
      continue;
    if (!a->name) {
      a->slot = i < count ? i : -1;
    } else {
      for (intptr_t k = 0; k < count && a->slot < 0; ++k)
        if (!strcmp(names[k], a->name))
          a->slot = (int)k;
    }
    if (a->slot < 0) {
      char list[1024] = "none";
      size_t used = 0;
      for (intptr_t k = 0; k < count && used < sizeof(list); ++k) {
        int w = snprintf(list + used, sizeof(list) - used, "%s'%s'",
                         k ? ", " : "", names[k]);
        used += w > 0 ? (size_t)w : sizeof(list);
      }
      if (a->name)
        kilnRunError("the model has no %s named '%s' (its %ss: %s)", what,
                     a->name, what, list);
      else
        kilnRunError("%s #%d is one too many: the model has %lld %ss", what, i,
                     (long long)count, what);
      return false;
    }
    for (int j = 0; j < i; ++j)
      if (!args[j].bound && args[j].slot == a->slot) {
        kilnRunError("%s '%s' is given twice", what, names[a->slot]);
        return false;
      }
  }
  return true;
}

/* Writes DIR/NAME.npy per output, NAME with unsafe characters as '_'. */
bool kilnRunWriteOutputs(const char *dir, char **names, intptr_t count,
                         KilnTensor **outputs) {
  for (intptr_t k = 0; k < count; ++k) {
    const char *n = names[k];
    size_t size = strlen(dir) + strlen(n) + sizeof("/output.npy");
    char *path = malloc(size);
    if (!path)
      abort();
    size_t len = (size_t)snprintf(path, size, "%s/", dir);
    for (size_t i = 0; n[i]; ++i) {
      char c = n[i];
      if (!isalnum((unsigned char)c) && c != '-' && c != '_' &&
          (c != '.' || i == 0))
        c = '_';
      path[len++] = c;
    }
    snprintf(path + len, size - len, "%s.npy", *n ? "" : "output");
    KilnStatus *s = kilnTensorWriteNpyFile(outputs[k], path);
    free(path);
    if (s) {
      kilnRunError("%s", kilnStatusGetMessage(s));
      kilnStatusDestroy(s);
      return false;
    }
  }
  return true;
}

void kilnRunOptionsDestroy(Options *o) {
  for (int i = 0; i < o->numInputs; ++i) {
    kilnTensorDestroy(o->inputs[i].tensor);
    free(o->inputs[i].ownedName);
  }
  for (int i = 0; i < o->numExpected; ++i)
    kilnTensorDestroy(o->expected[i].tensor);
  free(o->inputs);
  free(o->expected);
}

/* A missing or unreadable model is a usage error (exit 2), not a compile
 * error. */

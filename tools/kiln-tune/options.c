/* kiln-tune's command line (options.h). */
#include "tools/kiln-tune/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tools/common/tool_cli.h"

const char kProg[] = "kiln-tune";

void tuneError(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  kilnToolErrorV(kProg, fmt, ap);
  va_end(ap);
}

static void usage(FILE *f) {
  fprintf(
      f,
      "usage: %s MODEL -o LOG [--trials N] [--time-budget T] [--target T]\n"
      "                 [--cpu C] [--threads N] [--jobs J] [--resume]\n"
      "                 [--strategy annealing|random] [--seed S]\n"
      "                 [--workers local|mpi]\n"
      "       %s MODEL --list-tasks [--target T] [--cpu C]\n"
      "       mpirun -np N %s MODEL -o LOG --workers mpi [options]\n"
      "\n"
      "Tunes the schedule of each workload of MODEL (.onnx, or .mlir in\n"
      "the graph dialect) on this machine and appends every measurement\n"
      "to LOG (JSON lines); kiln-compile --tuning-log LOG uses the best.\n"
      "\n"
      "  -o, --output=LOG   the tuning log (must not exist, unless\n"
      "                     --resume)\n"
      "  --resume           continue LOG: its measurements are not repeated\n"
      "  --input-shape=NAME=D0xD1x...\n"
      "                     fix an ONNX input's dynamic dims, as for\n"
      "                     kiln-compile (repeatable)\n"
      "  --dim=NAME=N       size the input dims named NAME, as for\n"
      "                     kiln-compile (repeatable)\n"
      "  --list-tasks       print each workload's key, count and knobs;\n"
      "                     tune nothing\n"
      "  --trials=N         candidates per workload, the default schedule\n"
      "                     included (default 32)\n"
      "  --time-budget=T    stop after T (e.g. 90s, 10m, 1h); shared out\n"
      "                     over the workloads\n"
      "  --target, --cpu    as kiln-compile's (default: this machine)\n"
      "  --threads=N        threads the model will run on (default: all)\n"
      "  -j N, --jobs=N     candidates compiled at once (default 2)\n"
      "  --workers=W        where candidates are measured: local (this\n"
      "                     machine; default) or mpi (under mpirun, with\n"
      "                     at least 2 processes: rank 0 tunes and logs,\n"
      "                     ranks 1..N-1 each compile and time one\n"
      "                     candidate at a time on their own machine)\n"
      "  --strategy=S       annealing (a cost model guides the search;\n"
      "                     default) or random\n"
      "  --seed=S           the search's random seed (default 1)\n"
      "  -h, --help         show this help\n"
      "      --version      show the version\n"
      "\n"
      "%s",
      kProg, kProg, kProg, kilnToolExitCodeHelp);
}

/* "90", "90s", "10m", "1h" -> seconds; false if malformed. */
static bool parseDuration(const char *s, double *out) {
  char *end;
  errno = 0;
  double v = strtod(s, &end);
  if (errno || end == s || !(v > 0) || v > 1e7)
    return false;
  if (!strcmp(end, "") || !strcmp(end, "s"))
    *out = v;
  else if (!strcmp(end, "m"))
    *out = 60 * v;
  else if (!strcmp(end, "h"))
    *out = 3600 * v;
  else
    return false;
  return true;
}

static bool parseInt(const char *s, long lo, long hi, long *out) {
  char *end;
  errno = 0;
  long v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi)
    return false;
  *out = v;
  return true;
}

/* Returns -1 to go on, else the exit code. */
int tuneParseArgs(int argc, char **argv, Options *o) {
  enum {
    kVersion = 256,
    kTrials,
    kBudget,
    kTarget,
    kCPU,
    kThreads,
    kResume,
    kStrategy,
    kSeed,
    kListTasks,
    kInputShape,
    kDim,
    kWorkers
  };
  static const struct option longOpts[] = {
      {"output", required_argument, NULL, 'o'},
      {"trials", required_argument, NULL, kTrials},
      {"time-budget", required_argument, NULL, kBudget},
      {"target", required_argument, NULL, kTarget},
      {"cpu", required_argument, NULL, kCPU},
      {"threads", required_argument, NULL, kThreads},
      {"jobs", required_argument, NULL, 'j'},
      {"resume", no_argument, NULL, kResume},
      {"strategy", required_argument, NULL, kStrategy},
      {"seed", required_argument, NULL, kSeed},
      {"list-tasks", no_argument, NULL, kListTasks},
      {"input-shape", required_argument, NULL, kInputShape},
      {"dim", required_argument, NULL, kDim},
      {"workers", required_argument, NULL, kWorkers},
      {"help", no_argument, NULL, 'h'},
      {"version", no_argument, NULL, kVersion},
      {NULL, 0, NULL, 0}};
  int c;
  long v;
  while ((c = getopt_long(argc, argv, "o:j:h", longOpts, NULL)) != -1) {
    switch (c) {
    case 'o':
      o->output = optarg;
      break;
    case kTrials:
      if (!parseInt(optarg, 1, 100000, &v)) {
        tuneError("--trials '%s': expected an integer from 1 to 100000",
                  optarg);
        return kExitUsage;
      }
      o->trials = (int)v;
      break;
    case kBudget:
      if (!parseDuration(optarg, &o->budget)) {
        tuneError("--time-budget '%s': expected a duration such as 90s, 10m or "
                  "1h",
                  optarg);
        return kExitUsage;
      }
      break;
    case kTarget:
      o->target = optarg;
      break;
    case kCPU:
      o->cpu = optarg;
      break;
    case kThreads:
      if (!parseInt(optarg, 1, 1024, &v)) {
        tuneError("--threads '%s': expected an integer from 1 to 1024", optarg);
        return kExitUsage;
      }
      o->threads = (int)v;
      break;
    case 'j':
      if (!parseInt(optarg, 1, kMaxJobs, &v)) {
        tuneError("--jobs '%s': expected an integer from 1 to %d", optarg,
                  kMaxJobs);
        return kExitUsage;
      }
      o->jobs = (int)v;
      break;
    case kResume:
      o->resume = true;
      break;
    case kListTasks:
      o->listTasks = true;
      break;
    case kInputShape:
    case kDim:
      /* At most one per argument: 2 x argc bounds the array. kiln-compile
       * checks the text. */
      if (!o->shapeArgs &&
          !(o->shapeArgs = calloc((size_t)argc * 2, sizeof(*o->shapeArgs))))
        abort();
      o->shapeArgs[o->numShapeArgs++] = c == kDim ? "--dim" : "--input-shape";
      o->shapeArgs[o->numShapeArgs++] = optarg;
      break;
    case kStrategy:
      if (!kilnSearchStrategyParse(optarg, &o->strategy)) {
        tuneError("--strategy '%s': expected annealing or random", optarg);
        return kExitUsage;
      }
      break;
    case kWorkers:
      if (strcmp(optarg, "local") && strcmp(optarg, "mpi")) {
        tuneError("--workers '%s': expected local or mpi", optarg);
        return kExitUsage;
      }
      o->workers = strcmp(optarg, "mpi") ? kWorkersLocal : kWorkersMpi;
      break;
    case kSeed:
      if (!parseInt(optarg, 0, 1L << 62, &v)) {
        tuneError("--seed '%s': expected a non-negative integer", optarg);
        return kExitUsage;
      }
      o->seed = (uint64_t)v;
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
    tuneError("%s", optind >= argc ? "no input model given"
                                   : "exactly one input model is expected");
    return kExitUsage;
  }
  o->model = argv[optind];
  if (!o->output && !o->listTasks) {
    tuneError("%s", "no log given: -o LOG");
    return kExitUsage;
  }
  if (o->target && !strcmp(o->target, "cuda")) {
    tuneError("%s",
              "--target=cuda: kiln-tune tunes CPU schedules only, so far");
    return kExitUnsupported;
  }
  return -1;
}

void tuneOptionsDestroy(Options *o) {
  free(o->shapeArgs);
  o->shapeArgs = NULL;
}

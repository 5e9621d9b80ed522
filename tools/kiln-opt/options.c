/* kiln-opt's flags: mlir-opt's names (single or double dash), plus each
 * pass name as a flag (`--graph-dce`, `--canonicalize="max-iterations=3"`). */
#include "tools/kiln-opt/options.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/kiln.h"
#include "kiln/passes.h"
#include "mlir-c/Pass.h"
#include "tools/kiln-opt/diag_printer.h"

enum {
  OPT_PIPELINE = 256,
  OPT_SPLIT,
  OPT_VERIFY_DIAGNOSTICS,
  OPT_LIST_PASSES,
  OPT_PRINT_BEFORE,
  OPT_PRINT_AFTER,
  OPT_PRINT_AFTER_CHANGE,
  OPT_PRINT_GENERIC,
  OPT_PRINT_DEBUGINFO,
  OPT_TIMING,
  OPT_ALLOW_UNREGISTERED,
  OPT_NO_GRAPH_VERIFY,
  OPT_VERSION,
  OPT_HELP,
};

static const struct option kLongOptions[] = {
    {"pass-pipeline", required_argument, NULL, OPT_PIPELINE},
    {"split-input-file", optional_argument, NULL, OPT_SPLIT},
    {"verify-diagnostics", no_argument, NULL, OPT_VERIFY_DIAGNOSTICS},
    {"list-passes", no_argument, NULL, OPT_LIST_PASSES},
    {"mlir-print-ir-before-all", no_argument, NULL, OPT_PRINT_BEFORE},
    {"mlir-print-ir-after-all", no_argument, NULL, OPT_PRINT_AFTER},
    {"mlir-print-ir-after-change", no_argument, NULL, OPT_PRINT_AFTER_CHANGE},
    {"mlir-print-op-generic", no_argument, NULL, OPT_PRINT_GENERIC},
    {"mlir-print-debuginfo", no_argument, NULL, OPT_PRINT_DEBUGINFO},
    {"mlir-timing", no_argument, NULL, OPT_TIMING},
    {"allow-unregistered-dialect", no_argument, NULL, OPT_ALLOW_UNREGISTERED},
    {"no-graph-verify", no_argument, NULL, OPT_NO_GRAPH_VERIFY},
    {"version", no_argument, NULL, OPT_VERSION},
    {"help", no_argument, NULL, OPT_HELP},
    {NULL, 0, NULL, 0},
};

static void printUsage(FILE *f) {
  fprintf(f, "OVERVIEW: Kiln optimizer driver: runs pass pipelines on MLIR "
             "files\n\n"
             "USAGE: kiln-opt [options] [input-file|-]\n\n"
             "OPTIONS:\n"
             "  -o FILE                      Output file (default: stdout)\n"
             "  --pass-pipeline=PIPELINE     Textual pipeline, e.g.\n"
             "                               'builtin.module(func.func("
             "graph-cse,canonicalize),graph-dce)'\n"
             "  --PASS[=\"OPTIONS\"]           Append one pass (any Kiln or "
             "upstream pass name)\n"
             "  --split-input-file[=MARKER]  Process chunks separated by "
             "'// -----' separately\n"
             "  --verify-diagnostics         Check expected-error/warning/"
             "note/remark annotations\n"
             "  --list-passes                List Kiln and upstream passes "
             "with descriptions\n"
             "  --mlir-print-ir-before-all   Print the IR before every pass\n"
             "  --mlir-print-ir-after-all    Print the IR after every pass\n"
             "  --mlir-print-ir-after-change Print the IR after passes that "
             "changed it\n"
             "  --mlir-print-op-generic      Print ops in generic form\n"
             "  --mlir-print-debuginfo       Print locations\n"
             "  --mlir-timing                Report per-pass execution times\n"
             "  --allow-unregistered-dialect Accept ops of unknown dialects\n"
             "  --no-graph-verify            Skip graph-verify after parsing\n"
             "  --version                    Print the version\n"
             "  --help                       Print this help\n");
}

static void printOption(const KilnPassOptionSpec *spec) {
  static const char *const kinds[] = {"bool", "int", "string"};
  printf("      --%s=<%s>  %s (default: %s)\n", spec->name, kinds[spec->kind],
         spec->help, spec->defaultValue ? spec->defaultValue : "");
}

static void listPasses(void) {
  for (int pipelines = 0; pipelines < 2; ++pipelines) {
    printf("Kiln %s:\n", pipelines ? "pipelines" : "passes");
    for (intptr_t i = 0; i < kilnPassRegistryGetCount(); ++i) {
      const KilnPassInfo *info = kilnPassRegistryGetAt(i);
      if ((info->pipeline != NULL) != pipelines)
        continue;
      printf("  %-40s %s\n", info->argument, info->summary);
      for (int k = 0; k < info->numOptions; ++k)
        printOption(&info->options[k]);
    }
  }
  for (int pipelines = 0; pipelines < 2; ++pipelines) {
    printf("Upstream MLIR %s:\n", pipelines ? "pipelines" : "passes");
    for (intptr_t i = 0; i < kilnUpstreamPassGetCount(); ++i) {
      const KilnUpstreamPassInfo *info = kilnUpstreamPassGetAt(i);
      if (info->isPipeline == pipelines)
        printf("  %-40s %s\n", info->argument, info->summary);
    }
  }
}

/* Is `name` (n bytes) a Kiln or upstream pass or pipeline? */
static bool isPassName(const char *name, size_t n) {
  MlirStringRef ref = mlirStringRefCreate(name, n);
  if (kilnPassRegistryLookup(ref))
    return true;
  for (intptr_t i = 0; i < kilnUpstreamPassGetCount(); ++i) {
    const char *cand = kilnUpstreamPassGetAt(i)->argument;
    if (strlen(cand) == n && !memcmp(cand, name, n))
      return true;
  }
  return false;
}

/* Moves `--PASS[=OPTS]` arguments out of argv into `pipeline` (as
 * `PASS{OPTS}` elements). Returns the new argc. Stops at "--". */
static int extractPassFlags(int argc, char **argv, KilnStrBuf *pipeline) {
  int kept = 1;
  bool rest = false;
  for (int i = 1; i < argc; ++i) {
    char *a = argv[i];
    rest = rest || strcmp(a, "--") == 0;
    const char *name = a + (a[0] == '-' ? (a[1] == '-' ? 2 : 1) : 0);
    size_t n = strcspn(name, "=");
    if (!rest && a[0] == '-' && name != a && n > 0 && isPassName(name, n)) {
      if (pipeline->len)
        kilnStrBufAppend(pipeline, ",", 1);
      kilnStrBufAppend(pipeline, name, n);
      if (name[n] == '=')
        kilnStrBufAppendf(pipeline, "{%s}", name + n + 1);
      continue;
    }
    argv[kept++] = a;
  }
  return kept;
}

int kilnOptParseOptions(int argc, char **argv, KilnOptOptions *o) {
  memset(o, 0, sizeof(*o));
  o->input = "-";
  o->output = "-";
  KilnStrBuf passFlags = {0};
  argc = extractPassFlags(argc, argv, &passFlags);
  const char *pipelineFlag = NULL;
  int c, status = -1;
  opterr = 0;
  while (status < 0 &&
         (c = getopt_long_only(argc, argv, "o:", kLongOptions, NULL)) != -1) {
    switch (c) {
    case 'o':
      o->output = optarg;
      break;
    case OPT_PIPELINE:
      pipelineFlag = optarg;
      break;
    case OPT_SPLIT:
      o->splitMarker = optarg ? optarg : "// -----";
      break;
    case OPT_VERIFY_DIAGNOSTICS:
      o->verifyDiagnostics = 1;
      break;
    case OPT_LIST_PASSES:
      listPasses();
      status = 0;
      break;
    case OPT_PRINT_BEFORE:
      o->printBefore = 1;
      break;
    case OPT_PRINT_AFTER:
      o->printAfter = 1;
      break;
    case OPT_PRINT_AFTER_CHANGE:
      o->printAfterChange = 1;
      break;
    case OPT_PRINT_GENERIC:
      o->printGeneric = 1;
      break;
    case OPT_PRINT_DEBUGINFO:
      o->printDebug = 1;
      break;
    case OPT_TIMING:
      o->timing = 1;
      break;
    case OPT_ALLOW_UNREGISTERED:
      o->allowUnregistered = 1;
      break;
    case OPT_NO_GRAPH_VERIFY:
      o->noGraphVerify = 1;
      break;
    case OPT_VERSION:
      printf("Kiln kiln-opt version %s (MLIR 22)\n", kilnGetVersion());
      status = 0;
      break;
    case OPT_HELP:
      printUsage(stdout);
      status = 0;
      break;
    default:
      kilnPrintToolError("kiln-opt",
                         "unknown or malformed option '%s' "
                         "(see --help; passes are listed by --list-passes)",
                         argv[optind - 1]);
      status = 2;
    }
  }
  if (status < 0 && optind < argc - 1) {
    kilnPrintToolError("kiln-opt", "more than one input file ('%s', '%s')",
                       argv[optind], argv[optind + 1]);
    status = 2;
  }
  if (status < 0 && optind < argc)
    o->input = argv[optind];
  if (status < 0 && pipelineFlag && passFlags.len) {
    kilnPrintToolError("kiln-opt", "--pass-pipeline cannot be combined with "
                                   "individual pass flags");
    status = 2;
  }
  if (pipelineFlag)
    kilnStrBufAppend(&o->pipeline, pipelineFlag, strlen(pipelineFlag));
  else
    kilnStrBufAppend(&o->pipeline, kilnStrBufGet(&passFlags), passFlags.len);
  kilnStrBufDestroy(&passFlags);
  return status;
}

static void reportPipelineError(MlirStringRef msg, void *userData) {
  (void)userData;
  kilnPrintToolError("kiln-opt", "invalid pass pipeline: %.*s", (int)msg.length,
                     msg.data);
}

bool kilnOptValidatePipeline(MlirContext ctx, const KilnOptOptions *o) {
  MlirStringRef anchor = mlirStringRefCreateFromCString("builtin.module");
  MlirPassManager pm = mlirPassManagerCreateOnOperation(ctx, anchor);
  MlirLogicalResult ok =
      kilnPipelineAppend(mlirPassManagerGetAsOpPassManager(pm), anchor,
                         mlirStringRefCreate(o->pipeline.data, o->pipeline.len),
                         reportPipelineError, NULL);
  mlirPassManagerDestroy(pm);
  return mlirLogicalResultIsSuccess(ok);
}

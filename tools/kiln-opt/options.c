/* kiln-opt's flags: mlir-opt's names (single or double dash), plus each
 * pass name as a flag (`--graph-dce`, `--canonicalize="max-iterations=3"`).
 *
 * Every generic flag mlir-opt-22 lists either works as there or, where
 * MLIR's C API offers no way to do it, is refused with the reason (never
 * silently ignored); docs/kiln-opt.md lists both. */
#include "tools/kiln-opt/options.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/graph.h"
#include "kiln/kiln.h"
#include "kiln/passes.h"
#include "kiln/suggest.h"
#include "mlir-c/Pass.h"
#include "tools/kiln-opt/diag_printer.h"

static const char *kProg = "kiln-opt";

enum {
  OPT_PIPELINE = 256,
  OPT_SPLIT,
  OPT_OUTPUT_SPLIT,
  OPT_VERIFY_DIAGNOSTICS,
  OPT_LIST_PASSES,
  OPT_PRINT_BEFORE,
  OPT_PRINT_AFTER,
  OPT_PRINT_AFTER_CHANGE,
  OPT_PRINT_AFTER_FAILURE,
  OPT_PRINT_MODULE_SCOPE,
  OPT_PRINT_TREE_DIR,
  OPT_PRINT_GENERIC,
  OPT_PRINT_DEBUGINFO,
  OPT_PRETTY_DEBUGINFO,
  OPT_PRINT_LOCAL_SCOPE,
  OPT_SKIP_REGIONS,
  OPT_NAMELOC_PREFIX,
  OPT_ELIDE_ELEMENTS,
  OPT_ELIDE_RESOURCES,
  OPT_TIMING,
  OPT_TIMING_DISPLAY,
  OPT_STATISTICS,
  OPT_STATISTICS_DISPLAY,
  OPT_DISABLE_THREADING,
  OPT_VERIFY_EACH,
  OPT_EMIT_BYTECODE,
  OPT_BYTECODE_VERSION,
  OPT_DUMP_PIPELINE,
  OPT_ALLOW_UNREGISTERED,
  OPT_NO_IMPLICIT_MODULE,
  OPT_CRASH_REPRODUCER,
  OPT_GENERATE_REPRODUCER,
  OPT_RUN_REPRODUCER,
  OPT_NO_GRAPH_VERIFY,
  OPT_EMIT_IRDL,
  OPT_VERSION,
  OPT_HELP,
  OPT_UNSUPPORTED,
};

/* Boolean flags take an optional value, as LLVM's cl::opt<bool> does
 * (`--verify-each=false`). */
static const struct option kLongOptions[] = {
    {"pass-pipeline", required_argument, NULL, OPT_PIPELINE},
    {"split-input-file", optional_argument, NULL, OPT_SPLIT},
    {"output-split-marker", required_argument, NULL, OPT_OUTPUT_SPLIT},
    {"verify-diagnostics", optional_argument, NULL, OPT_VERIFY_DIAGNOSTICS},
    {"list-passes", no_argument, NULL, OPT_LIST_PASSES},
    {"mlir-print-ir-before-all", optional_argument, NULL, OPT_PRINT_BEFORE},
    {"mlir-print-ir-after-all", optional_argument, NULL, OPT_PRINT_AFTER},
    {"mlir-print-ir-after-change", optional_argument, NULL,
     OPT_PRINT_AFTER_CHANGE},
    {"mlir-print-ir-after-failure", optional_argument, NULL,
     OPT_PRINT_AFTER_FAILURE},
    {"mlir-print-ir-module-scope", optional_argument, NULL,
     OPT_PRINT_MODULE_SCOPE},
    {"mlir-print-ir-tree-dir", required_argument, NULL, OPT_PRINT_TREE_DIR},
    {"mlir-print-op-generic", optional_argument, NULL, OPT_PRINT_GENERIC},
    {"mlir-print-debuginfo", optional_argument, NULL, OPT_PRINT_DEBUGINFO},
    {"mlir-pretty-debuginfo", optional_argument, NULL, OPT_PRETTY_DEBUGINFO},
    {"mlir-print-local-scope", optional_argument, NULL, OPT_PRINT_LOCAL_SCOPE},
    {"mlir-print-skip-regions", optional_argument, NULL, OPT_SKIP_REGIONS},
    {"mlir-use-nameloc-as-prefix", optional_argument, NULL, OPT_NAMELOC_PREFIX},
    {"mlir-elide-elementsattrs-if-larger", required_argument, NULL,
     OPT_ELIDE_ELEMENTS},
    {"mlir-elide-resource-strings-if-larger", required_argument, NULL,
     OPT_ELIDE_RESOURCES},
    {"mlir-timing", optional_argument, NULL, OPT_TIMING},
    {"mlir-timing-display", required_argument, NULL, OPT_TIMING_DISPLAY},
    {"mlir-pass-statistics", optional_argument, NULL, OPT_STATISTICS},
    {"mlir-pass-statistics-display", required_argument, NULL,
     OPT_STATISTICS_DISPLAY},
    {"mlir-disable-threading", optional_argument, NULL, OPT_DISABLE_THREADING},
    {"verify-each", optional_argument, NULL, OPT_VERIFY_EACH},
    {"emit-bytecode", optional_argument, NULL, OPT_EMIT_BYTECODE},
    {"emit-bytecode-version", required_argument, NULL, OPT_BYTECODE_VERSION},
    {"dump-pass-pipeline", optional_argument, NULL, OPT_DUMP_PIPELINE},
    {"allow-unregistered-dialect", optional_argument, NULL,
     OPT_ALLOW_UNREGISTERED},
    {"no-implicit-module", optional_argument, NULL, OPT_NO_IMPLICIT_MODULE},
    {"mlir-pass-pipeline-crash-reproducer", required_argument, NULL,
     OPT_CRASH_REPRODUCER},
    {"mlir-generate-reproducer", required_argument, NULL,
     OPT_GENERATE_REPRODUCER},
    {"run-reproducer", optional_argument, NULL, OPT_RUN_REPRODUCER},
    {"no-graph-verify", no_argument, NULL, OPT_NO_GRAPH_VERIFY},
    {"emit-irdl", no_argument, NULL, OPT_EMIT_IRDL},
    {"version", no_argument, NULL, OPT_VERSION},
    {"help", no_argument, NULL, OPT_HELP},
    /* Refused below with a reason (kUnsupported). */
    {"mlir-print-ir-before", required_argument, NULL, OPT_UNSUPPORTED},
    {"mlir-print-ir-after", required_argument, NULL, OPT_UNSUPPORTED},
    {"mlir-print-value-users", optional_argument, NULL, OPT_UNSUPPORTED},
    {"mlir-print-unique-ssa-ids", optional_argument, NULL, OPT_UNSUPPORTED},
    {"mlir-print-elementsattrs-with-hex-if-larger", required_argument, NULL,
     OPT_UNSUPPORTED},
    {"mlir-print-op-on-diagnostic", optional_argument, NULL, OPT_UNSUPPORTED},
    {"mlir-print-stacktrace-on-diagnostic", optional_argument, NULL,
     OPT_UNSUPPORTED},
    {"mlir-disable-diagnostic-notes", optional_argument, NULL, OPT_UNSUPPORTED},
    {"mlir-diagnostic-verbosity-level", required_argument, NULL,
     OPT_UNSUPPORTED},
    {"mlir-pass-pipeline-local-reproducer", optional_argument, NULL,
     OPT_UNSUPPORTED},
    {"mlir-output-format", required_argument, NULL, OPT_UNSUPPORTED},
    {"mlir-debug-counter", required_argument, NULL, OPT_UNSUPPORTED},
    {"mlir-print-debug-counter", optional_argument, NULL, OPT_UNSUPPORTED},
    {"mlir-enable-debugger-hook", optional_argument, NULL, OPT_UNSUPPORTED},
    {"mlir-very-unsafe-disable-verifier-on-parsing", optional_argument, NULL,
     OPT_UNSUPPORTED},
    {"verify-roundtrip", optional_argument, NULL, OPT_UNSUPPORTED},
    {"verify-region-info", optional_argument, NULL, OPT_UNSUPPORTED},
    {"elide-resource-data-from-bytecode", optional_argument, NULL,
     OPT_UNSUPPORTED},
    {"show-dialects", optional_argument, NULL, OPT_UNSUPPORTED},
    {"irdl-file", required_argument, NULL, OPT_UNSUPPORTED},
    {"load-pass-plugin", required_argument, NULL, OPT_UNSUPPORTED},
    {"load-dialect-plugin", required_argument, NULL, OPT_UNSUPPORTED},
    {"log-actions-to", required_argument, NULL, OPT_UNSUPPORTED},
    {"log-mlir-actions-filter", required_argument, NULL, OPT_UNSUPPORTED},
    {NULL, 0, NULL, 0},
};

/* Why each refused mlir-opt flag is refused (docs/kiln-opt.md repeats
 * this). Matched by prefix so related flags share a reason. */
static const struct {
  const char *prefix;
  const char *reason;
} kUnsupported[] = {
    {"mlir-print-ir-before", "MLIR's C API prints the IR around all passes "
                             "or none; use --mlir-print-ir-before-all"},
    {"mlir-print-ir-after", "MLIR's C API prints the IR around all passes or "
                            "none; use --mlir-print-ir-after-all"},
    {"mlir-print-", "MLIR's C API has no printing flag for it"},
    {"mlir-disable-diagnostic-notes",
     "MLIR's C API cannot configure the context's diagnostic output"},
    {"mlir-diagnostic-verbosity-level",
     "MLIR's C API cannot configure the context's diagnostic output"},
    {"mlir-pass-pipeline-local-reproducer",
     "kiln-opt writes whole-pipeline reproducers only"},
    {"mlir-output-format", "MLIR's C API times passes in text form only"},
    {"mlir-debug-counter", "debug counters are C++-only"},
    {"mlir-enable-debugger-hook", "the action debugger is C++-only"},
    {"mlir-very-unsafe", "MLIR's C API parser always verifies"},
    {"verify-r", "MLIR's C API cannot verify region info or round-trip "
                 "internally; pipe the output through kiln-opt again"},
    {"elide-resource-data",
     "MLIR's C API bytecode writer cannot elide resources"},
    {"show-dialects", "MLIR's C API cannot list the registered dialects"},
    {"irdl-file", "Kiln's dialects are built in; IRDL files are not loaded "
                  "at run time"},
    {"load-", "plugins are C++ libraries; Kiln's passes are built in"},
    {"log-", "action logging is C++-only"},
};

static void printUsage(FILE *f) {
  fprintf(
      f,
      "OVERVIEW: Kiln optimizer driver: runs pass pipelines on MLIR files\n\n"
      "USAGE: kiln-opt [options] [input-file|-]\n\n"
      "OPTIONS:\n"
      "  -o FILE                      Output file (default: stdout)\n"
      "  --pass-pipeline=PIPELINE     Anchored textual pipeline, e.g.\n"
      "                               'builtin.module(func.func("
      "graph-cse,canonicalize),graph-dce)'\n"
      "  --PASS[=\"OPTIONS\"]           Append one pass (any Kiln or "
      "upstream pass name); passes\n"
      "                               on other ops nest implicitly, as in "
      "mlir-opt\n"
      "  --split-input-file[=MARKER]  Process chunks separated by "
      "'// -----' separately\n"
      "  --output-split-marker=TEXT   Marker between the chunks' outputs\n"
      "  --verify-diagnostics         Check expected-error/warning/"
      "note/remark annotations\n"
      "  --list-passes                List Kiln and upstream passes "
      "with descriptions\n"
      "  --dump-pass-pipeline         Print the pipeline to stderr before "
      "running it\n"
      "  --verify-each[=BOOL]         Verify after each pass (default "
      "true)\n"
      "  --mlir-disable-threading     Run single-threaded\n"
      "  --mlir-print-ir-before-all, --mlir-print-ir-after-all,\n"
      "  --mlir-print-ir-after-change, --mlir-print-ir-after-failure,\n"
      "  --mlir-print-ir-module-scope, --mlir-print-ir-tree-dir=DIR\n"
      "                               Print the IR around passes\n"
      "  --mlir-print-op-generic, --mlir-print-debuginfo, "
      "--mlir-pretty-debuginfo,\n"
      "  --mlir-print-local-scope, --mlir-print-skip-regions,\n"
      "  --mlir-use-nameloc-as-prefix,\n"
      "  --mlir-elide-elementsattrs-if-larger=N,\n"
      "  --mlir-elide-resource-strings-if-larger=N\n"
      "                               Output form\n"
      "  --emit-bytecode, --emit-bytecode-version=N\n"
      "                               Write MLIR bytecode\n"
      "  --mlir-timing, --mlir-pass-statistics[-display=list|pipeline]\n"
      "                               Per-pass time and statistics reports\n"
      "  --mlir-pass-pipeline-crash-reproducer=FILE\n"
      "                               On a failing pass, write the input "
      "and pipeline to FILE\n"
      "  --mlir-generate-reproducer=FILE  Always write such a file\n"
      "  --run-reproducer             Run the pipeline stored in the "
      "input\n"
      "  --allow-unregistered-dialect Accept ops of unknown dialects\n"
      "  --no-implicit-module         Use the single top-level op as the "
      "root\n"
      "  --no-graph-verify            Skip graph-verify after parsing\n"
      "  --emit-irdl                  Print the graph dialect's IRDL "
      "definition\n"
      "                               (mlir-opt-22 --irdl-file=FILE reads "
      "graph IR)\n"
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

/* Moves `--PASS[=OPTS]` arguments out of argv into o->passFlags. Returns
 * the new argc. Stops at "--". */
static int extractPassFlags(int argc, char **argv, KilnOptOptions *o) {
  int kept = 1;
  bool rest = false;
  o->passFlags = calloc((size_t)argc, sizeof(*o->passFlags));
  if (!o->passFlags)
    abort();
  for (int i = 1; i < argc; ++i) {
    char *a = argv[i];
    rest = rest || strcmp(a, "--") == 0;
    const char *name = a + (a[0] == '-' ? (a[1] == '-' ? 2 : 1) : 0);
    size_t n = strcspn(name, "=");
    if (!rest && a[0] == '-' && name != a && n > 0 && isPassName(name, n)) {
      KilnOptPassFlag *f = &o->passFlags[o->numPassFlags++];
      f->name = name;
      f->nameLength = n;
      f->options = name[n] == '=' ? name + n + 1 : NULL;
      continue;
    }
    argv[kept++] = a;
  }
  return kept;
}

/* The value of a boolean flag: absent means true; LLVM's spellings. */
static bool parseBool(const char *flag, const char *v, int *out) {
  if (!v || !strcmp(v, "true") || !strcmp(v, "TRUE") || !strcmp(v, "True") ||
      !strcmp(v, "1")) {
    *out = 1;
    return true;
  }
  if (!strcmp(v, "false") || !strcmp(v, "FALSE") || !strcmp(v, "False") ||
      !strcmp(v, "0")) {
    *out = 0;
    return true;
  }
  fprintf(stderr,
          "%s: for the --%s option: '%s' is invalid value for boolean "
          "argument! Try 0 or 1\n",
          kProg, flag, v);
  return false;
}

static bool parseCount(const char *flag, const char *v, int64_t *out) {
  char *end = NULL;
  errno = 0;
  long long x = strtoll(v, &end, 0);
  if (!*v || *end || errno == ERANGE || x < 0) {
    fprintf(stderr,
            "%s: for the --%s option: '%s' value invalid for uint "
            "argument!\n",
            kProg, flag, v);
    return false;
  }
  *out = x;
  return true;
}

/* mlir-opt's words for an unknown flag, with the closest known flag or
 * pass name. */
static void reportUnknownFlag(const char *arg) {
  int dashes = arg[0] == '-' ? (arg[1] == '-' ? 2 : 1) : 0;
  const char *name = arg + dashes;
  size_t n = strcspn(name, "=");
  fprintf(stderr, "%s: Unknown command line argument '%s'.  Try: '%s --help'\n",
          kProg, arg, kProg);
  KilnSuggester s;
  kilnSuggesterInit(&s, name, n);
  for (const struct option *opt = kLongOptions; opt->name; ++opt)
    if (opt->val != OPT_UNSUPPORTED)
      kilnSuggesterConsider(&s, opt->name);
  for (intptr_t i = 0; i < kilnPassRegistryGetCount(); ++i)
    kilnSuggesterConsider(&s, kilnPassRegistryGetAt(i)->argument);
  for (intptr_t i = 0; i < kilnUpstreamPassGetCount(); ++i)
    kilnSuggesterConsider(&s, kilnUpstreamPassGetAt(i)->argument);
  if (s.count > 0)
    fprintf(stderr, "%s: Did you mean '%.*s%s'?\n", kProg, dashes, "--",
            s.best[0]);
}

static void reportUnsupported(const char *arg) {
  const char *name = arg + (arg[0] == '-' ? (arg[1] == '-' ? 2 : 1) : 0);
  size_t n = strcspn(name, "=");
  for (size_t i = 0; i < sizeof(kUnsupported) / sizeof(kUnsupported[0]); ++i)
    if (!strncmp(name, kUnsupported[i].prefix,
                 strlen(kUnsupported[i].prefix))) {
      kilnPrintToolError(kProg,
                         "'--%.*s' is not supported by kiln-opt: %s "
                         "(docs/kiln-opt.md)",
                         (int)n, name, kUnsupported[i].reason);
      return;
    }
  kilnPrintToolError(kProg, "'--%.*s' is not supported by kiln-opt", (int)n,
                     name);
}

/* Applies one recognized flag; returns -1 to go on or an exit status. */
static int applyFlag(int c, const char *flag, KilnOptOptions *o) {
  bool ok = true;
  switch (c) {
  case 'o':
    o->output = optarg;
    break;
  case OPT_PIPELINE:
    o->pipelineFlag = optarg;
    break;
  case OPT_SPLIT:
    o->splitMarker = optarg && *optarg ? optarg : "// -----";
    break;
  case OPT_OUTPUT_SPLIT:
    o->outputSplitMarker = optarg;
    break;
  case OPT_VERIFY_DIAGNOSTICS:
    if (optarg && strcmp(optarg, "all") != 0) {
      kilnPrintToolError(kProg,
                         "'--verify-diagnostics=%s' is not supported by "
                         "kiln-opt: every diagnostic is checked (=all)",
                         optarg);
      return 1;
    }
    o->verifyDiagnostics = 1;
    break;
  case OPT_LIST_PASSES:
    listPasses();
    return 0;
  case OPT_PRINT_BEFORE:
    ok = parseBool(flag, optarg, &o->printBefore);
    break;
  case OPT_PRINT_AFTER:
    ok = parseBool(flag, optarg, &o->printAfter);
    break;
  case OPT_PRINT_AFTER_CHANGE:
    ok = parseBool(flag, optarg, &o->printAfterChange);
    break;
  case OPT_PRINT_AFTER_FAILURE:
    ok = parseBool(flag, optarg, &o->printAfterFailure);
    break;
  case OPT_PRINT_MODULE_SCOPE:
    ok = parseBool(flag, optarg, &o->printModuleScope);
    break;
  case OPT_PRINT_TREE_DIR:
    o->printTreeDir = optarg;
    break;
  case OPT_PRINT_GENERIC:
    ok = parseBool(flag, optarg, &o->printGeneric);
    break;
  case OPT_PRINT_DEBUGINFO:
    ok = parseBool(flag, optarg, &o->printDebug);
    break;
  case OPT_PRETTY_DEBUGINFO:
    ok = parseBool(flag, optarg, &o->prettyDebug);
    break;
  case OPT_PRINT_LOCAL_SCOPE:
    ok = parseBool(flag, optarg, &o->printLocalScope);
    break;
  case OPT_SKIP_REGIONS:
    ok = parseBool(flag, optarg, &o->skipRegions);
    break;
  case OPT_NAMELOC_PREFIX:
    ok = parseBool(flag, optarg, &o->useNameLocAsPrefix);
    break;
  case OPT_ELIDE_ELEMENTS:
    ok = parseCount(flag, optarg, &o->elideElementsLimit);
    break;
  case OPT_ELIDE_RESOURCES:
    ok = parseCount(flag, optarg, &o->elideResourceLimit);
    break;
  case OPT_TIMING:
    ok = parseBool(flag, optarg, &o->timing);
    break;
  case OPT_TIMING_DISPLAY:
    if (strcmp(optarg, "list") != 0) {
      kilnPrintToolError(kProg,
                         "'--mlir-timing-display=%s' is not supported by "
                         "kiln-opt: MLIR's C API reports timing as a list",
                         optarg);
      return 1;
    }
    break;
  case OPT_STATISTICS:
    ok = parseBool(flag, optarg, &o->statistics);
    break;
  case OPT_STATISTICS_DISPLAY:
    if (!strcmp(optarg, "list") || !strcmp(optarg, "pipeline")) {
      o->statistics = !strcmp(optarg, "list") ? 2 : 1;
      break;
    }
    fprintf(stderr, "%s: for the --%s option: Cannot find option named '%s'!\n",
            kProg, flag, optarg);
    return 1;
  case OPT_DISABLE_THREADING:
    ok = parseBool(flag, optarg, &o->disableThreading);
    break;
  case OPT_VERIFY_EACH:
    ok = parseBool(flag, optarg, &o->verifyEach);
    break;
  case OPT_EMIT_BYTECODE:
    ok = parseBool(flag, optarg, &o->emitBytecode);
    break;
  case OPT_BYTECODE_VERSION:
    ok = parseCount(flag, optarg, &o->bytecodeVersion);
    break;
  case OPT_DUMP_PIPELINE:
    ok = parseBool(flag, optarg, &o->dumpPassPipeline);
    break;
  case OPT_ALLOW_UNREGISTERED:
    ok = parseBool(flag, optarg, &o->allowUnregistered);
    break;
  case OPT_NO_IMPLICIT_MODULE:
    ok = parseBool(flag, optarg, &o->noImplicitModule);
    break;
  case OPT_CRASH_REPRODUCER:
    o->crashReproducer = optarg;
    break;
  case OPT_GENERATE_REPRODUCER:
    o->generateReproducer = optarg;
    break;
  case OPT_RUN_REPRODUCER:
    ok = parseBool(flag, optarg, &o->runReproducer);
    break;
  case OPT_NO_GRAPH_VERIFY:
    o->noGraphVerify = 1;
    break;
  case OPT_EMIT_IRDL:
    /* For upstream tools: mlir-opt-22 --irdl-file=graph.irdl.mlir parses
     * and verifies graph IR (without Kiln's verifiers and folders). */
    fputs(kilnGraphDialectGetIRDLSource(), stdout);
    return 0;
  case OPT_VERSION:
    printf("Kiln kiln-opt version %s (MLIR 22)\n", kilnGetVersion());
    return 0;
  case OPT_HELP:
    printUsage(stdout);
    return 0;
  default:
    return 1;
  }
  return ok ? -1 : 1;
}

int kilnOptParseOptions(int argc, char **argv, KilnOptOptions *o) {
  memset(o, 0, sizeof(*o));
  o->input = "-";
  o->output = "-";
  o->outputSplitMarker = "// -----";
  o->verifyEach = 1;
  o->elideElementsLimit = -1;
  o->elideResourceLimit = -1;
  o->bytecodeVersion = -1;
  argc = extractPassFlags(argc, argv, o);
  int c, longIndex, status = -1;
  opterr = 0;
  while (status < 0 &&
         (longIndex = -1, c = getopt_long_only(argc, argv, ":o:", kLongOptions,
                                               &longIndex)) != -1) {
    /* getopt accepts unique prefixes ("--verify-diag"); mlir-opt does
     * not, and a prefix may be a typo: only whole names count. */
    if (longIndex >= 0) {
      const char *arg =
          argv[optind - 1 - (optarg && optarg == argv[optind - 1])];
      const char *name = arg + (arg[1] == '-' ? 2 : 1);
      if (strcspn(name, "=") != strlen(kLongOptions[longIndex].name)) {
        reportUnknownFlag(arg);
        status = 1;
        continue;
      }
    }
    if (c == OPT_UNSUPPORTED) {
      reportUnsupported(argv[optind - 1]);
      status = 1;
    } else if (c == '?' || c == ':') {
      /* A known flag missing its value comes here too. */
      const char *arg = argv[optind - 1];
      if (c == ':')
        kilnPrintToolError(kProg, "option '%s' needs a value", arg);
      else
        reportUnknownFlag(arg);
      status = 1;
    } else {
      status =
          applyFlag(c, longIndex >= 0 ? kLongOptions[longIndex].name : "o", o);
    }
  }
  if (status < 0 && optind < argc - 1) {
    fprintf(stderr,
            "%s: Too many positional arguments specified!\n"
            "Can specify at most 1 positional arguments: See: %s --help\n",
            kProg, kProg);
    status = 1;
  }
  if (status < 0 && optind < argc)
    o->input = argv[optind];
  return status;
}

void kilnOptOptionsDestroy(KilnOptOptions *o) {
  free(o->passFlags);
  o->passFlags = NULL;
  kilnStrBufDestroy(&o->reproducerPipeline);
}

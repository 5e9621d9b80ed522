/* kiln-apply-tuning{log=PATH}: attaches the best record of each workload
 * in a tuning log to the workload's ops (include/kiln/tuning.h), for
 * pipelines written by hand:
 *
 *   kiln-opt m.mlir --pass-pipeline='builtin.module(graph-O3,
 *       kiln-apply-tuning{log=m.tune},cpu)'
 *
 * Run it on the graph dialect after graph-fuse (the groups are the
 * workloads). The tools (kiln-compile/kiln-run --tuning-log) do the same
 * through the C API and also print the log's warnings; a pass cannot
 * (MLIR's C API emits errors only), so here skipped records are silent
 * and the module records how many workloads were tuned in
 * `kiln.tuned_workloads`. A log that cannot be read, or a record with a
 * knob out of range, fails the pass. */
#include "kiln/passes.h"

#include "kiln/diagnostics.h"
#include "kiln/tuning.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

enum {
  kOptLog,
  kOptTargetTriple,
  kOptTargetCpu,
  kOptTargetFeatures,
  kNumOptions
};

static void runApplyTuning(MlirOperation op, MlirExternalPass pass,
                           const KilnPassOptionValue *options) {
  const char *path = options[kOptLog].s;
  MlirLocation loc = mlirOperationGetLocation(op);
  if (!path || !*path) {
    kilnEmitErrorf(loc, "kiln-apply-tuning: give the log: "
                        "kiln-apply-tuning{log=PATH}");
    mlirExternalPassSignalFailure(pass);
    return;
  }
  KilnTuningTarget target;
  kilnTuningTargetCreate(options[kOptTargetTriple].s, options[kOptTargetCpu].s,
                         options[kOptTargetFeatures].s, &target);
  KilnStrBuf error = {0};
  KilnTuningLog *log =
      kilnTuningLogLoad(path, &target, NULL, NULL, kilnStrBufCallback, &error);
  kilnTuningTargetDestroy(&target);
  if (!log) {
    kilnEmitErrorf(loc, "kiln-apply-tuning: %s", kilnStrBufGet(&error));
    kilnStrBufDestroy(&error);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  kilnStrBufDestroy(&error);
  intptr_t tuned = kilnTuningLogApply(log, op, NULL);
  kilnTuningLogDestroy(log);
  MlirContext ctx = mlirOperationGetContext(op);
  mlirOperationSetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString("kiln.tuned_workloads"),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), tuned));
}

static const KilnPassOptionSpec kOptions[] = {
    [kOptLog] = {"log", KILN_PASS_OPTION_STRING, "",
                 "The tuning log (JSON lines written by kiln-tune)"},
    [kOptTargetTriple] = {"target-triple", KILN_PASS_OPTION_STRING, "",
                          "LLVM triple the records must be for; empty: "
                          "this machine (its triple, CPU and features)"},
    [kOptTargetCpu] = {"target-cpu", KILN_PASS_OPTION_STRING, "generic",
                       "CPU the records must be for, with target-triple"},
    [kOptTargetFeatures] = {"target-features", KILN_PASS_OPTION_STRING, "",
                            "CPU features the records must be for, with "
                            "target-triple"},
};

const KilnPassInfo kilnApplyTuningPass = {
    .argument = "kiln-apply-tuning",
    .summary = "Attach the best schedule record of each workload in a "
               "tuning log (kiln-tune) to the workload's ops",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = kNumOptions,
    .run = runApplyTuning,
};

/* --tuning-log for the tools (tool_tuning.h). */
#include "tools/common/tool_tuning.h"

#include <stdio.h>

#include "dialects/common/diag.h"
#include "kiln/tuning.h"

typedef struct Printer {
  const char *prog;
  const char *severity;
} Printer;

static void printMessage(MlirStringRef message, void *userData) {
  const Printer *p = userData;
  fprintf(stderr, "%s: %s: %.*s\n", p->prog, p->severity, (int)message.length,
          message.data);
}

bool kilnToolApplyTuningLog(const char *prog, const char *path,
                            MlirModule module, bool report) {
  KilnTuningTarget target;
  kilnTuningTargetCreateForModule(module, &target);
  Printer warning = {prog, "warning"}, error = {prog, "error"};
  KilnTuningLog *log = kilnTuningLogLoad(path, &target, printMessage, &warning,
                                         printMessage, &error);
  kilnTuningTargetDestroy(&target);
  if (!log)
    return false;
  intptr_t numWorkloads = 0;
  intptr_t tuned =
      kilnTuningLogApply(log, mlirModuleGetOperation(module), &numWorkloads);
  kilnTuningLogDestroy(log);
  if (report)
    fprintf(stderr,
            "%s: tuning log: %ld of %ld workloads use tuned schedules\n", prog,
            (long)tuned, (long)numWorkloads);
  return true;
}

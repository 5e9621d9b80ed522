/* kiln-run-module: runs a model library made by kiln-compile (any target:
 * CPU, or CUDA on a machine with an NVIDIA driver) through libkiln_runtime
 * alone, with kiln-run's flags for the data files, tolerances and
 * --benchmark. It links no MLIR or LLVM: it is what a machine that runs
 * models but has no compiler installed needs (a GPU server, a device),
 * as IREE's iree-run-module is beside iree-compile. Exit codes as
 * kiln-run's. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "tools/kiln-run/options.h"

static bool isRegularFile(const char *path) {
  struct stat st;
  if (stat(path, &st) != 0) {
    kilnRunError("cannot open model '%s': %s", path, strerror(errno));
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    kilnRunError("model '%s' is not a regular file", path);
    return false;
  }
  return true;
}

int main(int argc, char **argv) {
  Options o = {.rtol = 1e-3, .atol = 1e-7, .optLevel = -1};
  int rc = kilnRunParseArgs(argc, argv, &o, true);
  if (rc < 0 && !isRegularFile(o.model))
    rc = kExitUsage;
  if (rc < 0 && !kilnRunIsLibrary(o.model)) {
    kilnRunError("'%s' is not a model library: compile it with "
                 "kiln-compile, or run it with kiln-run",
                 o.model);
    rc = kExitUsage;
  }
  if (rc < 0 &&
      (!kilnRunLoadTensors(o.inputs, o.numInputs, "input") ||
       !kilnRunLoadTensors(o.expected, o.numExpected, "expected output")))
    rc = kilnRunDataUnsupported ? kExitUnsupported : kExitUsage;
  if (rc < 0)
    rc = kilnRunLibrary(&o);
  kilnRunOptionsDestroy(&o);
  return rc;
}

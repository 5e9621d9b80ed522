/* kiln-run-module: runs a model library made by kiln-compile (any target:
 * CPU, or CUDA on a machine with an NVIDIA driver) through libkiln_runtime
 * alone, with kiln-run's flags for the data files, tolerances and
 * --benchmark. It links no MLIR or LLVM: it is what a machine that runs
 * models but has no compiler installed needs (a GPU server, a device),
 * as IREE's iree-run-module is beside iree-compile. Exit codes as
 * kiln-run's. */
#include "tools/kiln-run/options.h"

int main(int argc, char **argv) {
  Options o = KILN_RUN_OPTIONS_INIT;
  int rc = kilnRunParseArgs(argc, argv, &o, true);
  if (rc < 0 && !kilnToolCheckModelFile(kilnRunProgram, o.model, true))
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

/* Linking an object into a model library. LLVM's C API has no linker, so
 * the clang driver runs ld.lld (both found at build time): the driver knows
 * the system's library paths and libgcc, and lld links every target. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "dialects/common/diag.h"
#include "kiln/compile.h"
#include "runtime/library_digest.h"

#ifndef KILN_CLANG_PATH
#define KILN_CLANG_PATH "clang-22"
#endif
#ifndef KILN_LLD_PATH
#define KILN_LLD_PATH ""
#endif
#ifndef KILN_LIBOMP_DIR
#define KILN_LIBOMP_DIR "/usr/lib/llvm-22/lib"
#endif

extern char **environ;

enum { kFixedArgs = 24 };

/* Fills argv (kFixedArgs + numObjects + 1 entries) for the link; returns
 * the count. `bufs` holds formatted arguments and must outlive argv. */
static int linkArgs(const KilnTarget *t, const char *const *objs,
                    unsigned numObjects, const char *lib, char bufs[2][512],
                    char **argv) {
  int n = 0;
  argv[n++] = (char *)KILN_CLANG_PATH;
  snprintf(bufs[0], 512, "--target=%s", kilnTargetGetTriple(t));
  argv[n++] = bufs[0];
  argv[n++] = (char *)"-shared";
  /* No C runtime start files; libraries are named below. */
  argv[n++] = (char *)"-nostdlib";
  if (*KILN_LLD_PATH) {
    snprintf(bufs[1], 512, "--ld-path=%s", KILN_LLD_PATH);
    argv[n++] = bufs[1];
  } else {
    argv[n++] = (char *)"-fuse-ld=lld";
  }
  argv[n++] = (char *)"-o";
  argv[n++] = (char *)lib;
  for (unsigned i = 0; i < numObjects; ++i)
    argv[n++] = (char *)objs[i];
  /* A CUDA model's host code calls mgpu* and kiln_gpu_constant_*: the shim
   * defines them (hidden) over the table the runtime fills at load. */
  if (kilnTargetGetGpuArch(t))
    argv[n++] = (char *)KILN_GPU_SHIM_PATH;
  argv[n++] = (char *)"-Wl,--build-id";
  if (kilnTargetIsHostArch(t)) {
    /* Host libraries must resolve now (-z defs) so that a missing runtime
     * symbol is a compile error, not a load error; --as-needed keeps the
     * dependencies to what the code calls. libgcc is static (soft-float
     * and integer helpers). */
    argv[n++] = (char *)"-Wl,-z,defs";
    argv[n++] = (char *)"-Wl,--as-needed";
    argv[n++] = (char *)"-L" KILN_LIBOMP_DIR;
    argv[n++] = (char *)"-Wl,-rpath," KILN_LIBOMP_DIR;
    argv[n++] = (char *)"-lomp";
    argv[n++] = (char *)"-lm";
    argv[n++] = (char *)"-lc";
    argv[n++] = (char *)"-lgcc";
  }
  argv[n] = NULL;
  return n;
}

MlirLogicalResult
kilnLinkSharedLibrary(const KilnTarget *target, const char *const *objectPaths,
                      unsigned numObjects, const char *libraryPath,
                      MlirStringCallback errorCallback, void *userData) {
  char bufs[2][512];
  char **argv = calloc(kFixedArgs + numObjects + 1, sizeof(char *));
  if (!argv)
    abort();
  linkArgs(target, objectPaths, numObjects, libraryPath, bufs, argv);
  KilnStrBuf msg = {0};
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
  int status = 0;
  if (rc != 0) {
    kilnStrBufAppendf(&msg, "cannot run the linker driver '%s': %s", argv[0],
                      strerror(rc));
  } else {
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
      ;
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      kilnStrBufAppendf(&msg, "linking '%s' failed:", libraryPath);
      for (char **a = argv; *a; ++a)
        kilnStrBufAppendf(&msg, " %s", *a);
    }
  }
  /* Every library carries its integrity digest, checked at each load. */
  int sealError = msg.len ? 0 : kilnLibraryDigestAppend(libraryPath);
  if (sealError)
    kilnStrBufAppendf(&msg, "cannot add the integrity digest to '%s': %s",
                      libraryPath, strerror(sealError));
  bool ok = msg.len == 0;
  if (!ok)
    errorCallback(mlirStringRefCreate(msg.data, msg.len), userData);
  kilnStrBufDestroy(&msg);
  free(argv);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

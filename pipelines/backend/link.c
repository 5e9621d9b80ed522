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
#include <unistd.h>

#include "kiln/compile.h"
#include "kiln/diagnostics.h"
#include "runtime/library_digest.h"
#include "support/temp_dir.h"

#ifndef KILN_CLANG_PATH
#define KILN_CLANG_PATH "clang-22"
#endif
#ifndef KILN_LLD_PATH
#define KILN_LLD_PATH ""
#endif
#ifndef KILN_LIBOMP_DIR
#define KILN_LIBOMP_DIR "/usr/lib/llvm-22/lib"
#endif
#ifndef KILN_INSTALL_LIBDIR
#define KILN_INSTALL_LIBDIR "lib"
#endif

extern char **environ;

enum { kFixedArgs = 24, kArgBytes = 4096 };

/* The GPU shim archive CUDA model libraries link: where an installed tree
 * has it, beside the running program's libraries (BIN/../LIBDIR/kiln/,
 * cmake/KilnInstall.cmake), else the build tree's. */
static const char *gpuShimPath(char buf[kArgBytes]) {
  char exe[kArgBytes];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
  char *slash = n > 0 ? (exe[n] = 0, strrchr(exe, '/')) : NULL;
  if (slash) {
    *slash = 0;
    int len = snprintf(buf, kArgBytes, "%s/../%s/kiln/libkiln_gpu_shim.a", exe,
                       KILN_INSTALL_LIBDIR);
    if (len > 0 && len < kArgBytes && access(buf, R_OK) == 0)
      return buf;
  }
  return KILN_GPU_SHIM_PATH;
}

/* The clang driver's flag choosing the linker: ld.lld by the path found at
 * build time, else by name. Written into `buf`, which it returns. */
static char *linkerFlag(char buf[kArgBytes]) {
  if (*KILN_LLD_PATH)
    snprintf(buf, kArgBytes, "--ld-path=%s", KILN_LLD_PATH);
  else
    snprintf(buf, kArgBytes, "-fuse-ld=lld");
  return buf;
}

/* Fills argv (kFixedArgs + numObjects + 1 entries) for the link; returns
 * the count. `bufs` holds formatted arguments and must outlive argv. */
static int linkArgs(const KilnTarget *t, const char *const *objs,
                    unsigned numObjects, const char *const *libs,
                    unsigned numLibs, const char *lib, char bufs[3][kArgBytes],
                    char **libArgs, char **argv) {
  int n = 0;
  argv[n++] = (char *)KILN_CLANG_PATH;
  snprintf(bufs[0], kArgBytes, "--target=%s", kilnTargetGetTriple(t));
  argv[n++] = bufs[0];
  argv[n++] = (char *)"-shared";
  /* No C runtime start files; libraries are named below. */
  argv[n++] = (char *)"-nostdlib";
  argv[n++] = linkerFlag(bufs[1]);
  argv[n++] = (char *)"-o";
  argv[n++] = (char *)lib;
  for (unsigned i = 0; i < numObjects; ++i)
    argv[n++] = (char *)objs[i];
  /* A CUDA model's host code calls mgpu* and kiln_gpu_constant_*: the shim
   * defines them (hidden) over the table the runtime fills at load. */
  if (kilnTargetGetGpuArch(t))
    argv[n++] = (char *)gpuShimPath(bufs[2]);
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
    for (unsigned i = 0; i < numLibs; ++i) {
      size_t len = strlen(libs[i]) + 3;
      libArgs[i] = malloc(len);
      if (!libArgs[i])
        abort();
      snprintf(libArgs[i], len, "-l%s", libs[i]);
      argv[n++] = libArgs[i];
    }
    argv[n++] = (char *)"-lm";
    argv[n++] = (char *)"-lc";
    argv[n++] = (char *)"-lgcc";
  }
  argv[n] = NULL;
  return n;
}

/* Runs argv[0] (a path or a name on PATH) and waits; on failure appends
 * why to `msg`, naming `what`. */
static void runProgram(char **argv, const char *what, KilnStrBuf *msg) {
  pid_t pid;
  int rc = posix_spawnp(&pid, argv[0], NULL, NULL, argv, environ);
  if (rc != 0) {
    kilnStrBufAppendf(msg, "cannot run the linker driver '%s': %s", argv[0],
                      strerror(rc));
    return;
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
    ;
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    kilnStrBufAppendf(msg, "%s failed:", what);
    for (char **a = argv; *a; ++a)
      kilnStrBufAppendf(msg, " %s", *a);
  }
}

/* The shared libraries a cross-compiled model library needs at load. */
static const char *const kCrossNeeded[] = {"libomp.so.5", "libm.so.6",
                                           "libc.so.6"};
enum { kNumCrossNeeded = sizeof(kCrossNeeded) / sizeof(kCrossNeeded[0]) };

/* A cross-compiled library cannot link the target's libraries (this
 * machine has none), so its symbols stay undefined; linking it against
 * empty stand-ins with their sonames, made in `dir`, records them as its
 * DT_NEEDED entries, so that loading it on the target brings libomp in
 * (libkiln_runtime itself does not link it). */
static void makeCrossStubs(const KilnTarget *t, const char *dir,
                           char stubs[kNumCrossNeeded][kArgBytes],
                           KilnStrBuf *msg) {
  char target[kArgBytes], soname[kArgBytes], ld[kArgBytes];
  snprintf(target, sizeof(target), "--target=%s", kilnTargetGetTriple(t));
  linkerFlag(ld);
  for (int i = 0; i < kNumCrossNeeded && !msg->len; ++i) {
    snprintf(stubs[i], kArgBytes, "%s/%s", dir, kCrossNeeded[i]);
    snprintf(soname, sizeof(soname), "-Wl,-soname,%s", kCrossNeeded[i]);
    char *argv[] = {(char *)KILN_CLANG_PATH,
                    target,
                    (char *)"-shared",
                    (char *)"-nostdlib",
                    ld,
                    soname,
                    (char *)"-o",
                    stubs[i],
                    (char *)"-x",
                    (char *)"c",
                    (char *)"/dev/null",
                    NULL};
    runProgram(argv, "making a stand-in for the target's libraries", msg);
  }
}

MlirLogicalResult
kilnLinkSharedLibrary(const KilnTarget *target, const char *const *objectPaths,
                      unsigned numObjects, const char *const *libraries,
                      unsigned numLibraries, const char *libraryPath,
                      MlirStringCallback errorCallback, void *userData) {
  char bufs[3][kArgBytes];
  char **argv =
      calloc(kFixedArgs + numObjects + numLibraries + 1, sizeof(char *));
  char **libArgs = calloc(numLibraries + 1, sizeof(char *));
  if (!argv || !libArgs)
    abort();
  int n = linkArgs(target, objectPaths, numObjects, libraries, numLibraries,
                   libraryPath, bufs, libArgs, argv);
  KilnStrBuf msg = {0};
  KilnStrBuf stubDir = {0};
  char stubs[kNumCrossNeeded][kArgBytes] = {{0}};
  bool cross = !kilnTargetIsHostArch(target);
  if (cross) {
    if (!kilnTempDirCreate("kiln-link", &stubDir))
      kilnStrBufAppendf(&msg, "cannot make the temporary directory '%s': %s",
                        stubDir.data, strerror(errno));
    else
      makeCrossStubs(target, stubDir.data, stubs, &msg);
    for (int i = 0; i < kNumCrossNeeded; ++i)
      argv[n++] = stubs[i];
  }
  if (!msg.len) {
    char what[kArgBytes];
    snprintf(what, sizeof(what), "linking '%s'", libraryPath);
    runProgram(argv, what, &msg);
  }
  if (cross) {
    for (int i = 0; i < kNumCrossNeeded; ++i)
      if (stubs[i][0])
        unlink(stubs[i]);
    rmdir(stubDir.data);
  }
  kilnStrBufDestroy(&stubDir);
  /* Every library carries its integrity digest, checked at each load. */
  int sealError = msg.len ? 0 : kilnLibraryDigestAppend(libraryPath);
  if (sealError)
    kilnStrBufAppendf(&msg, "cannot add the integrity digest to '%s': %s",
                      libraryPath, strerror(sealError));
  bool ok = msg.len == 0;
  if (!ok)
    errorCallback(mlirStringRefCreate(msg.data, msg.len), userData);
  kilnStrBufDestroy(&msg);
  for (unsigned i = 0; i < numLibraries; ++i)
    free(libArgs[i]);
  free(libArgs);
  free(argv);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* The CUDA target's compile steps around the `gpu-to-nvvm` pipeline
 * (docs/gpu-codegen.md): its pass text for the target's architecture, the
 * CUDA toolkit's libdevice (math functions), and the PTX of the compiled
 * kernels for --emit=ptx and for checks. */
#define _POSIX_C_SOURCE 200809L

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kiln/compile.h"
#include "kiln/diagnostics.h"
#include "kiln/passes.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/GPU.h"
#include "pipelines/backend/gpu.h"
#include "pipelines/backend/target.h"

/* libdevice.10.bc under a CUDA toolkit root, written to `out`. */
static bool libdeviceUnder(const char *root, const char *rel, KilnStrBuf *out) {
  if (!root || !*root)
    return false;
  kilnStrBufClear(out);
  kilnStrBufAppendf(out, "%s/%s", root, rel);
  return access(out->data, R_OK) == 0;
}

bool kilnGpuFindLibdevice(KilnStrBuf *path) {
  static const char kRel[] = "nvvm/libdevice/libdevice.10.bc";
  /* KILN_LIBDEVICE names the file itself (and only it is tried). */
  const char *given = getenv("KILN_LIBDEVICE");
  if (given) {
    kilnStrBufClear(path);
    kilnStrBufAppendf(path, "%s", given);
    if (*given && access(given, R_OK) == 0)
      return true;
    kilnStrBufClear(path);
    return false;
  }
  if (libdeviceUnder(getenv("CUDA_HOME"), kRel, path) ||
      libdeviceUnder(getenv("CUDA_PATH"), kRel, path) ||
      libdeviceUnder("/usr/local/cuda", kRel, path) ||
      /* Debian's nvidia-cuda-toolkit package. */
      libdeviceUnder("/usr/lib/nvidia-cuda-toolkit",
                     "libdevice/libdevice.10.bc", path))
    return true;
  kilnStrBufClear(path);
  return false;
}

/* Whether `root`/bin/ptxas is an executable. */
static bool hasPtxas(const char *root) {
  KilnStrBuf path = {0};
  kilnStrBufAppendf(&path, "%s/bin/ptxas", root);
  bool ok = access(path.data, X_OK) == 0;
  kilnStrBufDestroy(&path);
  return ok;
}

bool kilnGpuFindToolkit(KilnStrBuf *root, KilnStrBuf *why) {
  kilnStrBufClear(root);
  /* A variable that is set decides: no quiet fallback past it. */
  static const char *const kVars[] = {"CUDA_HOME", "CUDA_PATH"};
  for (int i = 0; i < 2; ++i) {
    const char *v = getenv(kVars[i]);
    if (!v || !*v)
      continue;
    if (hasPtxas(v)) {
      kilnStrBufAppendf(root, "%s", v);
      return true;
    }
    kilnStrBufAppendf(why, "%s=%s has no bin/ptxas", kVars[i], v);
    return false;
  }
  if (hasPtxas("/usr/local/cuda")) {
    kilnStrBufAppendf(root, "/usr/local/cuda");
    return true;
  }
  /* ptxas on PATH: the toolkit is two levels up (ROOT/bin/ptxas). */
  const char *path = getenv("PATH");
  for (const char *p = path ? path : ""; *p;) {
    size_t n = strcspn(p, ":");
    KilnStrBuf dir = {0};
    kilnStrBufAppend(&dir, p, n);
    KilnStrBuf exe = {0};
    kilnStrBufAppendf(&exe, "%s/ptxas", n ? dir.data : ".");
    bool found = n && access(exe.data, X_OK) == 0;
    if (found) {
      char *slash = strrchr(dir.data, '/');
      if (slash && slash != dir.data)
        *slash = '\0';
      kilnStrBufAppendf(root, "%s", dir.data);
    }
    kilnStrBufDestroy(&exe);
    kilnStrBufDestroy(&dir);
    if (found)
      return true;
    p += n + (p[n] == ':');
  }
  kilnStrBufAppendf(why, "no CUDA toolkit found (no ptxas in CUDA_HOME, "
                         "CUDA_PATH, /usr/local/cuda or PATH)");
  return false;
}

void kilnGpuPipelineAppend(KilnStrBuf *pipeline, const KilnTarget *target,
                           const char *toolkit) {
  KilnStrBuf attach = {0}, libdevice = {0};
  kilnStrBufAppendf(
      &attach, "chip=%s features=%s O=%d", kilnTargetGetGpuArch(target),
      kilnTargetGetGpuFeatures(target), kilnTargetGetOptLevel(target));
  /* Pipeline options end at a space or brace: such a path cannot be given. */
  if (kilnGpuFindLibdevice(&libdevice) && !strpbrk(libdevice.data, " {}"))
    kilnStrBufAppendf(&attach, " l=%s", libdevice.data);
  KilnStrBuf binary = {0};
  if (toolkit)
    kilnStrBufAppendf(&binary, "format=bin toolkit=%s", toolkit);
  else
    kilnStrBufAppendf(&binary, "format=isa");
  kilnStrBufAppendf(pipeline, kilnGpuToNvvmPipelineFormat(), attach.data,
                    binary.data);
  kilnStrBufDestroy(&binary);
  kilnStrBufDestroy(&attach);
  kilnStrBufDestroy(&libdevice);
}

typedef struct PtxWalk {
  KilnGpuBinaryFn fn;
  void *userData;
  unsigned count;
} PtxWalk;

static MlirWalkResult visitBinary(MlirOperation op, void *userData) {
  PtxWalk *w = userData;
  if (!kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(op)),
                           "gpu.binary"))
    return MlirWalkResultAdvance;
  MlirAttribute objects = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("objects"));
  MlirAttribute name = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("sym_name"));
  for (intptr_t i = 0; mlirAttributeIsAArray(objects) &&
                       i < mlirArrayAttrGetNumElements(objects);
       ++i) {
    MlirAttribute obj = mlirArrayAttrGetElement(objects, i);
    if (!mlirAttributeIsAGPUObjectAttr(obj))
      continue;
    w->fn(mlirStringAttrGetValue(name), mlirGPUObjectAttrGetObject(obj),
          w->userData);
    ++w->count;
  }
  return MlirWalkResultSkip;
}

unsigned kilnGpuForEachBinary(MlirModule module, KilnGpuBinaryFn fn,
                              void *userData) {
  PtxWalk w = {fn, userData, 0};
  mlirOperationWalk(mlirModuleGetOperation(module), visitBinary, &w,
                    MlirWalkPreOrder);
  return w.count;
}

/* Collects the names of the libdevice functions a PTX module declares
 * (".extern .func (...) __nv_expf(...)"): they are unresolved. */
static void collectExterns(MlirStringRef name, MlirStringRef ptx,
                           void *userData) {
  (void)name;
  KilnStrBuf *missing = userData;
  const char *end = ptx.data + ptx.length;
  for (const char *p = ptx.data; p < end;) {
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *lineEnd = nl ? nl : end;
    const char *fn = NULL;
    if (!strncmp(p, ".extern .func", 13))
      for (const char *q = p; q + 5 <= lineEnd && !fn; ++q)
        if (!strncmp(q, "__nv_", 5))
          fn = q;
    if (fn) {
      size_t len = strcspn(fn, " (\n");
      char callee[64];
      snprintf(callee, sizeof(callee), "%.*s", (int)len, fn);
      if (!missing->data || !strstr(missing->data, callee))
        kilnStrBufAppendf(missing, "%s%s", missing->len ? ", " : "", callee);
    }
    p = lineEnd + 1;
  }
}

bool kilnGpuCheckLinked(MlirModule module, MlirStringCallback errorCallback,
                        void *userData) {
  KilnStrBuf missing = {0};
  kilnGpuForEachBinary(module, collectExterns, &missing);
  bool ok = missing.len == 0;
  if (!ok) {
    KilnStrBuf msg = {0};
    kilnStrBufAppendf(
        &msg,
        "the GPU kernels call CUDA libdevice math functions (%s), but no "
        "libdevice.10.bc was found: install the CUDA toolkit or set "
        "CUDA_HOME to its root",
        missing.data);
    errorCallback(mlirStringRefCreate(msg.data, msg.len), userData);
    kilnStrBufDestroy(&msg);
  }
  kilnStrBufDestroy(&missing);
  return ok;
}

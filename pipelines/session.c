/* The compiler session API (include/kiln/session.h): the stages of a
 * compilation, in one place for every tool and binding. */
#define _POSIX_C_SOURCE 200809L

#include "kiln/session.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "conversions/graph-to-linalg/runtime_checks.h"
#include "conversions/linalg-to-llvm-cpu/memory_plan.h"
#include "conversions/linalg-to-llvm-cpu/profile_nodes.h"
#include "dialects/graph/verify.h"
#include "dialects/shard/transforms/plan_file.h"
#include "dialects/shard/transforms/shard_plan.h"
#include "kiln/diagnostics.h"
#include "kiln/kiln.h"
#include "kiln/passes.h"
#include "kiln/tuning.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/ExecutionEngine.h"
#include "mlir-c/Pass.h"
#include "pipelines/backend/gpu.h"
#include "runtime/model.h"
#include "runtime/model_abi.h"
#include "support/temp_dir.h"

/* One fast path: sizes for some named input dims. */
typedef struct Specialization {
  KilnOnnxDimBinding *dims; /* names borrowed from the session's copies */
  intptr_t numDims;
} Specialization;

struct KilnSession {
  KilnSessionOptions options; /* strings and shapes below are copies */
  KilnOnnxInputShape *shapes;
  KilnOnnxDimBinding *dims;
  KilnSpecializedSizes *specialize;
  /* The combinations of `specialize`'s sizes (expandSpecialize). */
  Specialization *specializations;
  intptr_t numSpecializations;
  KilnStrBuf recorded; /* the `options` metadata record */
  KilnTarget *target;
  MlirContext ctx;
  intptr_t numErrors; /* error diagnostics so far */
};

/* The ONNX model an invocation imported, kept when its session
 * specializes, to import it again with each specialization's dims. */
typedef struct Source {
  char *path;                 /* a file, or NULL: */
  KilnStrBuf bytes;           /* a model in memory, */
  char *name;                 /* named so in diagnostics */
  KilnOnnxInputValue *values; /* copies, the data too */
  intptr_t numValues;
} Source;

struct KilnInvocation {
  KilnSession *session;
  MlirModule module;
  KilnStage stage;
  KilnModelSignature *signature; /* recorded before graph-to-linalg */
  KilnInvocationError error;
  Source source; /* path and bytes NULL: none (or not kept) */
  /* The session's specializations, merged into the module (at the llvm
   * stage) when code is first generated. */
  KilnSpecializedEntry *specialized;
  intptr_t numSpecialized;
  bool merged;
  /* The module compiled by kilnInvocationOutputDims, kept for the
   * kilnInvocationExecute that follows it; null otherwise. */
  MlirExecutionEngine jit;
};

static const char *const kStageNames[] = {"none",   "import", "graph",
                                          "linalg", "gpu",    "llvm"};

bool kilnStageParse(const char *name, KilnStage *stage) {
  for (int i = KILN_STAGE_IMPORT; i <= KILN_STAGE_LLVM; ++i)
    if (name && !strcmp(name, kStageNames[i])) {
      *stage = (KilnStage)i;
      return true;
    }
  return false;
}

const char *kilnStageGetName(KilnStage stage) {
  return stage >= KILN_STAGE_NONE && stage <= KILN_STAGE_LLVM
             ? kStageNames[stage]
             : "?";
}

/* ---- messages ------------------------------------------------------------ */

static void message(const KilnSession *s, const char *severity,
                    const char *location, const char *text) {
  if (s->options.onMessage)
    s->options.onMessage(severity, location, text, s->options.userData);
}

static void messagef(const KilnSession *s, const char *severity,
                     const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void messagef(const KilnSession *s, const char *severity,
                     const char *fmt, ...) {
  KilnStrBuf text = {0};
  va_list ap;
  va_start(ap, fmt);
  kilnStrBufAppendv(&text, fmt, ap);
  va_end(ap);
  message(s, severity, NULL, kilnStrBufGet(&text));
  kilnStrBufDestroy(&text);
}

static void sendDiagnostic(const KilnSession *s, MlirDiagnostic d) {
  KilnStrBuf where = {0}, text = {0};
  kilnStrBufAppendLocation(&where, mlirDiagnosticGetLocation(d));
  mlirDiagnosticPrint(d, kilnStrBufCallback, &text);
  message(s, kilnDiagnosticSeverityGetName(mlirDiagnosticGetSeverity(d)),
          kilnStrBufGet(&where), kilnStrBufGet(&text));
  kilnStrBufDestroy(&where);
  kilnStrBufDestroy(&text);
  for (intptr_t i = 0; i < mlirDiagnosticGetNumNotes(d); ++i)
    sendDiagnostic(s, mlirDiagnosticGetNote(d, i));
}

static MlirLogicalResult handleDiagnostic(MlirDiagnostic d, void *userData) {
  KilnSession *s = userData;
  s->numErrors += mlirDiagnosticGetSeverity(d) == MlirDiagnosticError;
  sendDiagnostic(s, d);
  return mlirLogicalResultSuccess();
}

/* Swallows diagnostics (attached above the session's handler while a step
 * whose failure is not an error runs). */
static MlirLogicalResult dropDiagnostic(MlirDiagnostic d, void *userData) {
  (void)d;
  (void)userData;
  return mlirLogicalResultSuccess();
}

static void appendText(MlirStringRef s, void *userData) {
  kilnStrBufAppend(userData, s.data, s.length);
}

/* ---- sessions ------------------------------------------------------------ */

/* The `options` metadata record: the options that change the code, as
 * kiln-compile's flags. */
static void recordOptions(KilnSession *s) {
  kilnStrBufAppendf(&s->recorded, "-O%d", s->options.target.optLevel);
  for (intptr_t i = 0; i < s->options.numInputShapes; ++i) {
    const KilnOnnxInputShape *shape = &s->shapes[i];
    kilnStrBufAppendf(&s->recorded,
                      " --input-shape=%s=", shape->name ? shape->name : "");
    for (intptr_t d = 0; d < shape->rank; ++d) {
      if (shape->dims[d] < 0)
        kilnStrBufAppendf(&s->recorded, "%s?", d ? "x" : "");
      else
        kilnStrBufAppendf(&s->recorded, "%s%lld", d ? "x" : "",
                          (long long)shape->dims[d]);
    }
  }
  for (intptr_t i = 0; i < s->options.numDims; ++i)
    kilnStrBufAppendf(&s->recorded, " --dim=%s=%lld",
                      s->dims[i].name ? s->dims[i].name : "",
                      (long long)s->dims[i].size);
  if (s->options.dynamicDims == KILN_ONNX_DIMS_DYNAMIC)
    kilnStrBufAppendf(&s->recorded, " --dynamic");
  else if (s->options.dynamicDims == KILN_ONNX_DIMS_ALL_DYNAMIC)
    kilnStrBufAppendf(&s->recorded, " --dynamic=all");
  if (s->options.cubin)
    kilnStrBufAppendf(&s->recorded, " --gpu-binary=cubin");
  if (s->options.gpuTf32)
    kilnStrBufAppendf(&s->recorded, " --gpu-tf32");
  if (s->options.profile)
    kilnStrBufAppendf(&s->recorded, " --profile");
  if (s->options.noRuntimeChecks)
    kilnStrBufAppendf(&s->recorded, " --no-runtime-checks");
  if (strcmp(s->options.precision, "fp32"))
    kilnStrBufAppendf(&s->recorded, " --precision=%s", s->options.precision);
  if (s->options.shard)
    kilnStrBufAppendf(&s->recorded, " --shard=%s", s->options.shard);
  if (s->options.shardPlanFile)
    kilnStrBufAppendf(&s->recorded, " --shard-plan=%s",
                      s->options.shardPlanFile);
}

/* Copies the options' strings and input shapes into `s`. */
static void copyOptions(KilnSession *s, const KilnSessionOptions *o) {
  s->options = *o;
  s->options.target.target = kilnStrDup(o->target.target);
  s->options.target.cpu = kilnStrDup(o->target.cpu);
  s->options.target.gpuArch = kilnStrDup(o->target.gpuArch);
  s->options.tuningLog = kilnStrDup(o->tuningLog);
  s->options.precision = kilnStrDup(o->precision ? o->precision : "fp32");
  s->options.shard = o->shard && *o->shard ? kilnStrDup(o->shard) : NULL;
  s->options.shardPlanFile = o->shardPlanFile && *o->shardPlanFile
                                 ? kilnStrDup(o->shardPlanFile)
                                 : NULL;
  intptr_t n = o->numInputShapes > 0 ? o->numInputShapes : 0;
  s->shapes = kilnXCalloc((size_t)n, sizeof(*s->shapes));
  for (intptr_t i = 0; i < n; ++i) {
    const KilnOnnxInputShape *from = &o->inputShapes[i];
    int64_t *dims = kilnXCalloc((size_t)from->rank, sizeof(int64_t));
    if (from->rank > 0)
      memcpy(dims, from->dims, (size_t)from->rank * sizeof(int64_t));
    s->shapes[i] = (KilnOnnxInputShape){.name = kilnStrDup(from->name),
                                        .dims = dims,
                                        .rank = from->rank,
                                        .position = from->position};
  }
  s->options.inputShapes = s->shapes;
  s->options.numInputShapes = n;
  intptr_t numDims = o->numDims > 0 ? o->numDims : 0;
  s->dims = kilnXCalloc((size_t)numDims, sizeof(*s->dims));
  for (intptr_t i = 0; i < numDims; ++i)
    s->dims[i] = (KilnOnnxDimBinding){.name = kilnStrDup(o->dims[i].name),
                                      .size = o->dims[i].size};
  s->options.dims = s->dims;
  s->options.numDims = numDims;
  intptr_t numSpecialize = o->numSpecialize > 0 ? o->numSpecialize : 0;
  s->specialize = kilnXCalloc((size_t)numSpecialize, sizeof(*s->specialize));
  for (intptr_t i = 0; i < numSpecialize; ++i) {
    const KilnSpecializedSizes *from = &o->specialize[i];
    intptr_t count = from->numSizes > 0 ? from->numSizes : 0;
    int64_t *sizes = kilnXCalloc((size_t)count + 1, sizeof(int64_t));
    if (count)
      memcpy(sizes, from->sizes, (size_t)count * sizeof(int64_t));
    s->specialize[i] =
        (KilnSpecializedSizes){kilnStrDup(from->name), sizes, count};
  }
  s->options.specialize = s->specialize;
  s->options.numSpecialize = numSpecialize;
}

void kilnSessionDestroy(KilnSession *s) {
  if (!s)
    return;
  if (!mlirContextIsNull(s->ctx))
    kilnContextDestroy(s->ctx);
  kilnTargetDestroy(s->target);
  for (intptr_t i = 0; i < s->options.numInputShapes; ++i) {
    free((char *)s->shapes[i].name);
    free((int64_t *)s->shapes[i].dims);
  }
  free(s->shapes);
  for (intptr_t i = 0; i < s->options.numDims; ++i)
    free((char *)s->dims[i].name);
  free(s->dims);
  for (intptr_t i = 0; i < s->options.numSpecialize; ++i) {
    free((char *)s->specialize[i].name);
    free((int64_t *)s->specialize[i].sizes);
  }
  free(s->specialize);
  for (intptr_t i = 0; i < s->numSpecializations; ++i)
    free(s->specializations[i].dims);
  free(s->specializations);
  free((char *)s->options.target.target);
  free((char *)s->options.target.cpu);
  free((char *)s->options.target.gpuArch);
  free((char *)s->options.tuningLog);
  free((char *)s->options.precision);
  free((char *)s->options.shard);
  free((char *)s->options.shardPlanFile);
  kilnStrBufDestroy(&s->recorded);
  free(s);
}

/* Whether the fast paths can be compiled with the other options, and
 * how they combine; reports the first reason they cannot. */
static bool checkSpecialize(const KilnSession *s) {
  const KilnSessionOptions *o = &s->options;
  if (!o->numSpecialize)
    return true;
  const char *why =
      o->dynamicDims == KILN_ONNX_DIMS_STATIC
          ? "--specialize adds fast paths to a library with dynamic dims: "
            "add --dynamic"
      : kilnTargetGetGpuArch(s->target)
          ? "--specialize: the CUDA target compiles static shapes only"
      : o->profile ? "--specialize and --profile together are not supported"
                   : NULL;
  if (why) {
    message(s, "error", NULL, why);
    return false;
  }
  intptr_t combinations = 1;
  for (intptr_t i = 0; i < o->numSpecialize; ++i) {
    const KilnSpecializedSizes *f = &o->specialize[i];
    const char *name = f->name ? f->name : "";
    bool sized = false, repeated = false;
    for (intptr_t k = 0; k < o->numDims; ++k)
      sized |= o->dims[k].name && !strcmp(o->dims[k].name, name);
    for (intptr_t k = 0; k < i; ++k)
      repeated |= o->specialize[k].name && !strcmp(o->specialize[k].name, name);
    for (intptr_t k = 0; k < f->numSizes; ++k) {
      why = f->sizes[k] < 0 ? "a negative size" : why;
      for (intptr_t j = 0; j < k; ++j)
        why = f->sizes[j] == f->sizes[k] ? "a size given twice" : why;
    }
    if (!*name || !f->numSizes || sized || repeated || why) {
      messagef(s, "error", "--specialize '%s': %s", name,
               !*name         ? "a dim needs a name"
               : !f->numSizes ? "no sizes given"
               : sized        ? "--dim sizes this dim already"
               : repeated     ? "the dim is given twice (list its sizes "
                                "once: NAME=N,M)"
                              : why);
      return false;
    }
    combinations *= f->numSizes;
    if (combinations > KILN_MAX_SPECIALIZATIONS) {
      messagef(s, "error", "--specialize asks for more than %d fast paths",
               KILN_MAX_SPECIALIZATIONS);
      return false;
    }
  }
  return true;
}

/* The fast paths: every combination of one size per specialized dim, the
 * last dim's sizes varying fastest. */
static void expandSpecialize(KilnSession *s) {
  const KilnSessionOptions *o = &s->options;
  intptr_t n = o->numSpecialize ? 1 : 0, k = o->numSpecialize;
  for (intptr_t i = 0; i < k; ++i)
    n *= o->specialize[i].numSizes;
  s->specializations = kilnXCalloc((size_t)n + 1, sizeof(Specialization));
  for (intptr_t c = 0; c < n; ++c) {
    KilnOnnxDimBinding *dims = kilnXCalloc((size_t)k, sizeof(*dims));
    intptr_t rest = c;
    for (intptr_t i = k - 1; i >= 0; --i) {
      const KilnSpecializedSizes *f = &o->specialize[i];
      dims[i] = (KilnOnnxDimBinding){f->name, f->sizes[rest % f->numSizes]};
      rest /= f->numSizes;
    }
    s->specializations[c] = (Specialization){dims, k};
  }
  s->numSpecializations = n;
}

bool kilnSessionPrecisionIsKnown(const char *name) {
  return name && (!strcmp(name, "fp32") || !strcmp(name, "fp16") ||
                  !strcmp(name, "bf16"));
}

/* A hand-written plan's file: readable and well formed (kiln-shard-plan
 * reads it again for its entries), the plan when no other is given. */
static bool checkShardPlanFile(KilnSession *s) {
  const char *path = s->options.shardPlanFile;
  if (!path)
    return true;
  if (strchr(path, '\'')) { /* it goes into pipeline text, quoted */
    messagef(s, "error", "--shard-plan=%s: a path with a quote", path);
    return false;
  }
  KilnShardPlanFile file;
  char error[512];
  bool ok = kilnShardPlanFileRead(path, &file, error, sizeof(error));
  if (!ok)
    messagef(s, "error", "%s", error);
  else if (!s->options.shard && !file.hasPlan)
    messagef(s, "error",
             "%s: no 'plan tp:N' line: give one there or --shard=tp:N", path);
  else if (!s->options.shard)
    s->options.shard = kilnStrDup(file.planText);
  ok = ok && s->options.shard;
  kilnShardPlanFileDestroy(&file);
  return ok;
}

/* A sharding plan (docs/scale-out.md): valid, for the host CPU (the
 * library links this machine's Open MPI), not with profiles or the
 * static fast paths of a dynamic model. */
static bool checkShard(KilnSession *s) {
  if (!checkShardPlanFile(s))
    return false;
  const char *plan = s->options.shard;
  KilnShardPlan parsed;
  if (!plan)
    return true;
  if (!kilnShardPlanParse(plan, &parsed)) {
    messagef(s, "error",
             "shard plan '%s': expected dp:N or tp:N, N from 2 "
             "to 4096",
             plan);
    return false;
  }
  if (kilnTargetGetGpuArch(s->target) || !kilnTargetIsHostArch(s->target)) {
    messagef(s, "error",
             "--shard=%s: sharded models are compiled for this "
             "machine's CPU (they link its Open MPI); not for "
             "GPUs or other architectures yet",
             plan);
    return false;
  }
  if (s->options.profile || s->options.numSpecialize) {
    messagef(s, "error", "--shard=%s cannot be combined with %s", plan,
             s->options.profile ? "--profile" : "--specialize");
    return false;
  }
  return true;
}

size_t kilnSessionOptionsGetSize(void) { return sizeof(KilnSessionOptions); }

KilnSession *kilnSessionCreate(const KilnSessionOptions *options) {
  KilnSession *s = kilnXCalloc(1, sizeof(*s));
  copyOptions(s, options);
  recordOptions(s);
  KilnStrBuf err = {0};
  s->target = kilnTargetCreate(&s->options.target, appendText, &err);
  if (!s->target) {
    message(s, "error", NULL, kilnStrBufGet(&err));
    kilnStrBufDestroy(&err);
    kilnSessionDestroy(s);
    return NULL;
  }
  kilnStrBufDestroy(&err);
  const char *p = s->options.precision;
  if (!kilnSessionPrecisionIsKnown(p)) {
    messagef(s, "error", "precision '%s': expected fp32, fp16 or bf16", p);
    kilnSessionDestroy(s);
    return NULL;
  }
  if (!checkSpecialize(s) || !checkShard(s)) {
    kilnSessionDestroy(s);
    return NULL;
  }
  expandSpecialize(s);
  s->ctx = kilnContextCreate();
  if (mlirContextIsNull(s->ctx)) {
    message(s, "error", NULL, "cannot set up the MLIR context");
    kilnSessionDestroy(s);
    return NULL;
  }
  mlirContextAttachDiagnosticHandler(s->ctx, handleDiagnostic, s, NULL);
  return s;
}

MlirContext kilnSessionGetContext(const KilnSession *s) { return s->ctx; }

const KilnTarget *kilnSessionGetTarget(const KilnSession *s) {
  return s->target;
}

static bool isGpu(const KilnSession *s) {
  return kilnTargetGetGpuArch(s->target) != NULL;
}

static void stage(const KilnSession *s, const char *name) {
  if (s->options.onStage)
    s->options.onStage(name, s->options.userData);
}

/* ---- invocations: loading --------------------------------------------------
 */

KilnInvocation *kilnInvocationCreate(KilnSession *session) {
  KilnInvocation *inv = kilnXCalloc(1, sizeof(*inv));
  inv->session = session;
  return inv;
}

static void dropJit(KilnInvocation *inv) {
  if (!mlirExecutionEngineIsNull(inv->jit))
    mlirExecutionEngineDestroy(inv->jit);
  inv->jit = (MlirExecutionEngine){NULL};
}

static void dropSource(Source *src) {
  free(src->path);
  kilnStrBufDestroy(&src->bytes);
  free(src->name);
  for (intptr_t i = 0; i < src->numValues; ++i) {
    free((char *)src->values[i].name);
    free((int64_t *)src->values[i].dims);
    free((void *)src->values[i].data);
  }
  free(src->values);
  *src = (Source){0};
}

/* Keeps what `inv` imports, with copies of `values`, when its session
 * specializes. */
static void keepSource(KilnInvocation *inv, const char *path, const void *data,
                       size_t length, const char *name,
                       const KilnOnnxInputValue *values, intptr_t numValues) {
  if (!inv->session->numSpecializations)
    return;
  Source *src = &inv->source;
  src->path = kilnStrDup(path);
  if (!path)
    kilnStrBufAppend(&src->bytes, data, length);
  src->name = kilnStrDup(name);
  src->values = kilnXCalloc((size_t)numValues, sizeof(*src->values));
  for (intptr_t i = 0; i < numValues; ++i) {
    const KilnOnnxInputValue *v = &values[i];
    int64_t *dims = kilnXCalloc((size_t)v->rank + 1, sizeof(int64_t));
    if (v->rank > 0)
      memcpy(dims, v->dims, (size_t)v->rank * sizeof(int64_t));
    void *bytes = kilnXCalloc(v->byteSize + 1, 1);
    if (v->byteSize)
      memcpy(bytes, v->data, v->byteSize);
    src->values[i] = *v;
    src->values[i].name = kilnStrDup(v->name);
    src->values[i].dims = dims;
    src->values[i].data = bytes;
  }
  src->numValues = numValues;
}

static void dropSpecialized(KilnInvocation *inv) {
  for (intptr_t i = 0; i < inv->numSpecialized; ++i)
    kilnSpecializedEntryDestroy(&inv->specialized[i]);
  free(inv->specialized);
  inv->specialized = NULL;
  inv->numSpecialized = 0;
  inv->merged = false;
}

static void dropModule(KilnInvocation *inv) {
  dropJit(inv);
  dropSpecialized(inv);
  dropSource(&inv->source);
  kilnModelSignatureDestroy(inv->signature);
  inv->signature = NULL;
  if (!mlirModuleIsNull(inv->module))
    mlirModuleDestroy(inv->module);
  inv->module = (MlirModule){NULL};
  inv->stage = KILN_STAGE_NONE;
}

void kilnInvocationDestroy(KilnInvocation *inv) {
  if (!inv)
    return;
  dropModule(inv);
  free(inv);
}

KilnInvocationError kilnInvocationGetError(const KilnInvocation *inv) {
  return inv->error;
}

static bool fail(KilnInvocation *inv, KilnInvocationError error) {
  inv->error = error;
  return false;
}

/* Takes `module` (null after diagnostics) as the invocation's, verified. */
static bool adopt(KilnInvocation *inv, MlirModule module) {
  dropModule(inv);
  inv->error = KILN_INVOCATION_OK;
  if (mlirModuleIsNull(module))
    return fail(inv, KILN_INVOCATION_ERROR_COMPILE);
  inv->module = module;
  MlirOperation op = mlirModuleGetOperation(module);
  if (!mlirOperationVerify(op) ||
      mlirLogicalResultIsFailure(kilnGraphVerify(op))) {
    dropModule(inv);
    return fail(inv, KILN_INVOCATION_ERROR_COMPILE);
  }
  inv->stage = KILN_STAGE_IMPORT;
  return true;
}

static KilnOnnxImportOptions importOptions(const KilnSession *s) {
  return (KilnOnnxImportOptions){.inputShapes = s->options.inputShapes,
                                 .numInputShapes = s->options.numInputShapes,
                                 .dims = s->options.dims,
                                 .numDims = s->options.numDims,
                                 .dynamicDims = s->options.dynamicDims};
}

static bool importFile(KilnInvocation *inv, const char *path,
                       const KilnOnnxInputValue *values, intptr_t numValues) {
  KilnOnnxImportOptions opts = importOptions(inv->session);
  opts.inputValues = values;
  opts.numInputValues = numValues;
  if (!adopt(inv,
             kilnOnnxImportFileWithOptions(inv->session->ctx, path, &opts)))
    return false;
  keepSource(inv, path, NULL, 0, path, values, numValues);
  return true;
}

bool kilnInvocationImportOnnxFile(KilnInvocation *inv, const char *path,
                                  const KilnOnnxInputValue *values,
                                  intptr_t numValues) {
  stage(inv->session, "import");
  return importFile(inv, path, values, numValues);
}

/* The ONNX model on stdin, imported through the buffer API (such a model
 * has no directory for external data). */
static bool importStdin(KilnInvocation *inv) {
  KilnStrBuf buf = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), stdin)) > 0)
    kilnStrBufAppend(&buf, chunk, n);
  bool ok;
  if (ferror(stdin)) {
    message(inv->session, "error", NULL, "cannot read the model from stdin");
    dropModule(inv);
    ok = fail(inv, KILN_INVOCATION_ERROR_COMPILE);
  } else {
    ok = kilnInvocationImportOnnx(inv, buf.data ? buf.data : "", buf.len,
                                  "<stdin>");
  }
  kilnStrBufDestroy(&buf);
  return ok;
}

bool kilnInvocationParseSource(KilnInvocation *inv, const char *path) {
  KilnSession *s = inv->session;
  stage(s, "import");
  if (!strcmp(path, "-"))
    return importStdin(inv);
  if (!kilnStrHasSuffix(path, ".mlir"))
    return importFile(inv, path, NULL, 0);
  /* Read first, so that an unreadable file (or a directory) is named with
   * its reason rather than as a parse failure. */
  FILE *f = fopen(path, "rb");
  int err = f ? 0 : errno;
  char c;
  if (f && fread(&c, 1, 1, f) == 0 && ferror(f))
    err = errno ? errno : EIO;
  if (f)
    fclose(f);
  if (err) {
    messagef(s, "error", "cannot read '%s': %s", path, strerror(err));
    dropModule(inv);
    return fail(inv, KILN_INVOCATION_ERROR_COMPILE);
  }
  /* Parsed from the file so that diagnostics name it. */
  MlirModule module = mlirModuleCreateParseFromFile(
      s->ctx, mlirStringRefCreateFromCString(path));
  if (mlirModuleIsNull(module))
    messagef(s, "error", "cannot parse '%s'", path);
  return adopt(inv, module);
}

bool kilnInvocationParseText(KilnInvocation *inv, const char *text,
                             size_t length, const char *name) {
  stage(inv->session, "import");
  MlirModule module = mlirModuleCreateParse(inv->session->ctx,
                                            mlirStringRefCreate(text, length));
  if (mlirModuleIsNull(module))
    messagef(inv->session, "error", "cannot parse '%s'", name);
  return adopt(inv, module);
}

bool kilnInvocationImportOnnx(KilnInvocation *inv, const void *data,
                              size_t length, const char *name) {
  KilnOnnxImportOptions opts = importOptions(inv->session);
  if (!adopt(inv, kilnOnnxImportBufferWithOptions(inv->session->ctx, data,
                                                  length, name, &opts)))
    return false;
  keepSource(inv, NULL, data, length, name, NULL, 0);
  return true;
}

/* ---- invocations: stages ----------------------------------------------- */

bool kilnInvocationRunPipeline(KilnInvocation *inv, const char *pipeline) {
  KilnSession *s = inv->session;
  inv->error = KILN_INVOCATION_OK;
  dropJit(inv); /* compiled from the module this changes */
  if (mlirModuleIsNull(inv->module)) {
    message(s, "error", NULL, "no module: parse or import a model first");
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  }
  MlirPassManager pm = mlirPassManagerCreate(s->ctx);
  if (s->options.timePasses)
    mlirPassManagerEnableTiming(pm);
  KilnStrBuf err = {0};
  bool ok = false;
  if (mlirLogicalResultIsFailure(kilnPipelineAppend(
          mlirPassManagerGetAsOpPassManager(pm),
          mlirStringRefCreateFromCString("builtin.module"),
          mlirStringRefCreateFromCString(pipeline), appendText, &err))) {
    messagef(s, "error", "cannot build the pipeline: %s", kilnStrBufGet(&err));
    inv->error = KILN_INVOCATION_ERROR_USAGE;
  } else {
    intptr_t errorsBefore = s->numErrors;
    ok = mlirLogicalResultIsSuccess(
        mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(inv->module)));
    if (!ok)
      inv->error = KILN_INVOCATION_ERROR_COMPILE;
    if (!ok && s->numErrors == errorsBefore)
      messagef(s, "error", KILN_SILENT_PIPELINE_FAILURE " (pipeline: %s)",
               pipeline);
  }
  kilnStrBufDestroy(&err);
  mlirPassManagerDestroy(pm); /* prints the timing report */
  return ok;
}

/* Where a tuning log's messages of one severity go. */
typedef struct TuningSink {
  const KilnSession *session;
  const char *severity;
} TuningSink;

static void tuningMessage(MlirStringRef text, void *userData) {
  const TuningSink *sink = userData;
  KilnStrBuf buf = {0};
  kilnStrBufAppend(&buf, text.data, text.length);
  message(sink->session, sink->severity, NULL, kilnStrBufGet(&buf));
  kilnStrBufDestroy(&buf);
}

/* Attaches the tuning log's records to the module's workloads. */
static bool applyTuningLog(KilnInvocation *inv) {
  KilnSession *s = inv->session;
  KilnTuningTarget target;
  kilnTuningTargetCreate(kilnTargetGetTriple(s->target),
                         kilnTargetGetCPU(s->target),
                         kilnTargetGetFeatures(s->target), &target);
  TuningSink warning = {s, "warning"}, error = {s, "error"};
  KilnTuningLog *log =
      kilnTuningLogLoad(s->options.tuningLog, &target, tuningMessage, &warning,
                        tuningMessage, &error);
  kilnTuningTargetDestroy(&target);
  if (!log)
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  intptr_t numWorkloads = 0;
  intptr_t tuned = kilnTuningLogApply(log, mlirModuleGetOperation(inv->module),
                                      &numWorkloads);
  kilnTuningLogDestroy(log);
  messagef(s, "remark", "tuning log: %ld of %ld workloads use tuned schedules",
           (long)tuned, (long)numWorkloads);
  return true;
}

/* Records the model's signature, as the metadata describes it, before
 * graph-to-linalg rewrites it; `required`: a failure is an error (with
 * its diagnostics), else it is silent and only code generation will
 * miss the signature. */
static bool recordSignature(KilnInvocation *inv, bool required) {
  if (inv->signature)
    return true;
  MlirDiagnosticHandlerID quiet = {0};
  if (!required)
    quiet = mlirContextAttachDiagnosticHandler(inv->session->ctx,
                                               dropDiagnostic, NULL, NULL);
  inv->signature = kilnModelSignatureCreate(inv->module);
  if (!required)
    mlirContextDetachDiagnosticHandler(inv->session->ctx, quiet);
  if (inv->signature && kilnModelSignatureIsDynamic(inv->signature))
    mlirOperationSetAttributeByName(
        kilnModelFindEntry(mlirModuleGetOperation(inv->module)),
        mlirStringRefCreateFromCString(KILN_DYNAMIC_SIGNATURE_ATTR),
        mlirUnitAttrGet(inv->session->ctx));
  return inv->signature || !required ? true
                                     : fail(inv, KILN_INVOCATION_ERROR_COMPILE);
}

/* The CUDA target's schedules take static shapes only: a dynamic dim of
 * the entry's inputs or outputs is refused before lowering, naming it. */
static bool checkStaticForGpu(KilnInvocation *inv) {
  MlirOperation entry = kilnModelFindEntry(mlirModuleGetOperation(inv->module));
  if (mlirOperationIsNull(entry))
    return true;
  MlirType fnType = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
      entry, mlirStringRefCreateFromCString("function_type")));
  intptr_t numInputs = mlirFunctionTypeGetNumInputs(fnType);
  intptr_t n = numInputs + mlirFunctionTypeGetNumResults(fnType);
  for (intptr_t i = 0; i < n; ++i) {
    bool result = i >= numInputs;
    MlirType t = result ? mlirFunctionTypeGetResult(fnType, i - numInputs)
                        : mlirFunctionTypeGetInput(fnType, i);
    if (!mlirTypeIsAShaped(t) || mlirShapedTypeHasStaticShape(t))
      continue;
    char *name =
        kilnModelValueNameCreate(entry, result, result ? i - numInputs : i);
    KilnStrBuf type = {0};
    kilnStrBufAppendType(&type, t);
    kilnEmitErrorf(mlirOperationGetLocation(entry),
                   "unsupported: %s '%s' has the dynamic shape %s; the CUDA "
                   "target compiles static shapes only (size its dims with "
                   "--input-shape or --dim)",
                   result ? "output" : "input", name, kilnStrBufGet(&type));
    kilnStrBufDestroy(&type);
    free(name);
    return fail(inv, KILN_INVOCATION_ERROR_COMPILE);
  }
  return true;
}

/* linalg → LLVM dialect through the GPU kernels: compiled to PTX or cubin. */
static bool lowerGpuKernels(KilnInvocation *inv) {
  KilnSession *s = inv->session;
  KilnStrBuf toolkit = {0}, why = {0};
  if (s->options.cubin && !kilnGpuFindToolkit(&toolkit, &why)) {
    messagef(s, "error", "cubin kernels need the CUDA toolkit's ptxas: %s",
             kilnStrBufGet(&why));
    kilnStrBufDestroy(&why);
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  }
  stage(s, s->options.cubin ? "compile kernels to cubin"
                            : "compile kernels to PTX");
  KilnStrBuf pipeline = {0};
  kilnGpuPipelineAppend(&pipeline, s->target,
                        s->options.cubin ? toolkit.data : NULL);
  bool ok = kilnInvocationRunPipeline(inv, kilnStrBufGet(&pipeline));
  kilnStrBufDestroy(&pipeline);
  kilnStrBufDestroy(&toolkit);
  kilnStrBufDestroy(&why);
  return ok;
}

/* Runs the named CPU pipeline `name` for the session's target (its
 * parameters, which reach the CPU schedules). */
static bool runCpuPipeline(KilnInvocation *inv, const char *name) {
  const KilnTarget *t = inv->session->target;
  KilnStrBuf pipeline = {0};
  kilnStrBufAppendf(&pipeline, "%s{target-triple=%s target-features=%s}", name,
                    kilnTargetGetTriple(t), kilnTargetGetFeatures(t));
  bool ok = kilnInvocationRunPipeline(inv, kilnStrBufGet(&pipeline));
  kilnStrBufDestroy(&pipeline);
  return ok;
}

/* linalg-to-gpu with tensor cores from sm_80 (mma.sync's m16n8k16 and
 * TF32 forms) and TF32 products when asked for. */
static bool runLinalgToGpu(KilnInvocation *inv) {
  const KilnSession *s = inv->session;
  const char *arch = kilnTargetGetGpuArch(s->target);
  bool mma = arch && !strncmp(arch, "sm_", 3) && atoi(arch + 3) >= 80;
  KilnStrBuf pipeline = {0};
  kilnStrBufAppendf(&pipeline, "linalg-to-gpu{mma=%s tf32=%s}",
                    mma ? "nvvm" : "none",
                    s->options.gpuTf32 ? "true" : "false");
  bool ok = kilnInvocationRunPipeline(inv, kilnStrBufGet(&pipeline));
  kilnStrBufDestroy(&pipeline);
  return ok;
}

/* The graph-ON pipeline of the session's level and precision. */
static bool runGraphPipeline(KilnInvocation *inv) {
  const KilnSession *s = inv->session;
  KilnStrBuf pipeline = {0};
  kilnStrBufAppendf(&pipeline, "%s{precision=%s}",
                    kilnGraphOptPipelineName(s->options.target.optLevel),
                    s->options.precision);
  bool ok = kilnInvocationRunPipeline(inv, kilnStrBufGet(&pipeline));
  kilnStrBufDestroy(&pipeline);
  return ok;
}

/* The session's sharding plan on linalg on tensors (docs/scale-out.md):
 * the shard pipeline, its collectives to MPI calls on Open MPI's ABI (the
 * module's DLTI entry) on the world communicator (the runtime runs the
 * library only on the plan's number of processes) lowered to LLVM right
 * away (buffer deallocation, later, refuses the mpi ops themselves), the
 * grid dropped. */
static bool shardModule(KilnInvocation *inv) {
  KilnSession *s = inv->session;
  MlirOperation op = mlirModuleGetOperation(inv->module);
  stage(s, "shard over processes");
  MlirStringRef dlti = mlirStringRefCreateFromCString("dlti.map");
  if (!mlirAttributeIsNull(mlirOperationGetAttributeByName(op, dlti))) {
    message(s, "error", NULL,
            "--shard: the module already has a DLTI map (the MPI "
            "implementation goes there)");
    inv->error = KILN_INVOCATION_ERROR_COMPILE;
    return false;
  }
  mlirOperationSetAttributeByName(
      op, dlti,
      mlirAttributeParseGet(s->ctx, mlirStringRefCreateFromCString(
                                        "#dlti.map<\"MPI:Implementation\" = "
                                        "\"OpenMPI\">")));
  KilnStrBuf pipeline = {0};
  kilnStrBufAppendf(&pipeline, "shard{plan=%s", s->options.shard);
  if (s->options.shardPlanFile)
    kilnStrBufAppendf(&pipeline, " plan-file='%s'", s->options.shardPlanFile);
  kilnStrBufAppendf(&pipeline, "},convert-shard-to-mpi,symbol-dce,"
                               "canonicalize,kiln-mpi-world-grid,canonicalize,"
                               "convert-to-llvm{filter-dialects=mpi}");
  bool ok = kilnInvocationRunPipeline(inv, kilnStrBufGet(&pipeline));
  kilnStrBufDestroy(&pipeline);
  return ok;
}

/* The pipeline from the graph to linalg on tensors for `s`. Run-time
 * checks on the CPU only, so far (runtime_checks.c); a sharded model's
 * ops whole (MLIR's sharding takes linalg ops, not the loops of a tiled
 * fusion group or of a strided conv's window copies). */
static const char *graphToLinalgPipeline(const KilnSession *s) {
#define KILN_WHOLE_OPS "graph-to-linalg{tile=false im2col-gather=true}"
  static const char *const kCpu[2][2] = {
      {"kiln-runtime-checks,graph-to-linalg",
       "kiln-runtime-checks," KILN_WHOLE_OPS},
      {"graph-to-linalg", KILN_WHOLE_OPS},
  };
#undef KILN_WHOLE_OPS
  if (isGpu(s))
    return "graph-to-linalg-gpu";
  return kCpu[s->options.noRuntimeChecks ? 1 : 0][s->options.shard ? 1 : 0];
}

/* Runs the stage after the invocation's; `needSignature`: code will be
 * generated, so the signature must be recorded. */
static bool advance(KilnInvocation *inv, bool needSignature) {
  KilnSession *s = inv->session;
  MlirOperation op = mlirModuleGetOperation(inv->module);
  switch (inv->stage) {
  case KILN_STAGE_IMPORT:
    stage(s, "optimize graph");
    if (!runGraphPipeline(inv))
      return false;
    if (s->options.tuningLog && !applyTuningLog(inv))
      return false;
    inv->stage = KILN_STAGE_GRAPH;
    return true;
  case KILN_STAGE_GRAPH:
    if (!recordSignature(inv, needSignature) ||
        (isGpu(s) && !checkStaticForGpu(inv)))
      return false;
    stage(s, "lower graph to linalg");
    if (!kilnInvocationRunPipeline(inv, graphToLinalgPipeline(s)))
      return false;
    if (s->options.shard && !shardModule(inv))
      return false;
    inv->stage = KILN_STAGE_LINALG;
    return true;
  case KILN_STAGE_LINALG:
    if (isGpu(s)) {
      stage(s, "map linalg to GPU kernels");
      if (!runLinalgToGpu(inv))
        return false;
      inv->stage = KILN_STAGE_GPU;
      return true;
    }
    stage(s, "lower linalg to LLVM dialect");
    /* kiln-profile-nodes and kiln-instrument-ops act on marked modules. */
    if (s->options.profile)
      mlirOperationSetDiscardableAttributeByName(
          op, mlirStringRefCreateFromCString(KILN_PROFILE_ATTR),
          mlirUnitAttrGet(s->ctx));
    if (!runCpuPipeline(inv, "linalg-to-llvm-cpu") ||
        (s->options.shard &&
         !kilnInvocationRunPipeline(inv, "kiln-openmpi-fixups")))
      return false;
    inv->stage = KILN_STAGE_LLVM;
    return true;
  case KILN_STAGE_GPU:
    if (!lowerGpuKernels(inv))
      return false;
    inv->stage = KILN_STAGE_LLVM;
    return true;
  default:
    return false;
  }
}

static bool runUntil(KilnInvocation *inv, KilnStage target,
                     bool needSignature) {
  KilnSession *s = inv->session;
  inv->error = KILN_INVOCATION_OK;
  if (mlirModuleIsNull(inv->module)) {
    message(s, "error", NULL, "no module: parse or import a model first");
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  }
  if (target == KILN_STAGE_GPU && !isGpu(s)) {
    message(s, "error", NULL, "the gpu stage needs --target=cuda");
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  }
  if (target < inv->stage) {
    messagef(s, "error", "the module is at the %s stage, past %s",
             kilnStageGetName(inv->stage), kilnStageGetName(target));
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  }
  while (inv->stage < target)
    if (!advance(inv, needSignature))
      return false;
  return true;
}

bool kilnInvocationRunUntil(KilnInvocation *inv, KilnStage target) {
  return runUntil(inv, target, false);
}

KilnStage kilnInvocationGetStage(const KilnInvocation *inv) {
  return inv->stage;
}

MlirModule kilnInvocationGetModule(const KilnInvocation *inv) {
  return inv->module;
}

void kilnInvocationPrintModule(const KilnInvocation *inv, bool debugInfo,
                               MlirStringCallback callback, void *userData) {
  if (mlirModuleIsNull(inv->module))
    return;
  MlirOpPrintingFlags flags = mlirOpPrintingFlagsCreate();
  mlirOpPrintingFlagsEnableDebugInfo(flags, debugInfo, /*prettyForm=*/false);
  mlirOperationPrintWithFlags(mlirModuleGetOperation(inv->module), flags,
                              callback, userData);
  mlirOpPrintingFlagsDestroy(flags);
}

/* ---- invocations: code ------------------------------------------------- */

/* The session's dims and specialization `spec`'s, as one "batch=1 seq=8"
 * text (into `text`) and a binding list (returned; free it). */
static KilnOnnxDimBinding *specializedDims(const KilnSession *s,
                                           const Specialization *spec,
                                           KilnStrBuf *text) {
  intptr_t n = s->options.numDims;
  KilnOnnxDimBinding *dims =
      kilnXCalloc((size_t)(n + spec->numDims), sizeof(*dims));
  if (n)
    memcpy(dims, s->dims, (size_t)n * sizeof(*dims));
  for (intptr_t j = 0; j < spec->numDims; ++j) {
    dims[n + j] = spec->dims[j];
    kilnStrBufAppendf(text, "%s%s=%lld", j ? " " : "",
                      spec->dims[j].name ? spec->dims[j].name : "",
                      (long long)spec->dims[j].size);
  }
  return dims;
}

/* Imports the invocation's model again with `spec`'s dims, lowers it to
 * the llvm stage and merges it into the module as fast path `index`
 * (kilnModuleMergeSpecialized); false after messages. */
static bool mergeSpecialization(KilnInvocation *inv, intptr_t index,
                                const Specialization *spec) {
  KilnSession *s = inv->session;
  KilnStrBuf text = {0}, prefix = {0};
  KilnOnnxImportOptions opts = importOptions(s);
  KilnOnnxDimBinding *dims = specializedDims(s, spec, &text);
  opts.dims = dims;
  opts.numDims = s->options.numDims + spec->numDims;
  opts.inputValues = inv->source.values;
  opts.numInputValues = inv->source.numValues;
  messagef(s, "remark", "compiling the fast path %s", kilnStrBufGet(&text));
  stage(s, "import");
  KilnInvocation *child = kilnInvocationCreate(s);
  const Source *src = &inv->source;
  bool ok =
      adopt(child,
            src->path ? kilnOnnxImportFileWithOptions(s->ctx, src->path, &opts)
                      : kilnOnnxImportBufferWithOptions(s->ctx, src->bytes.data,
                                                        src->bytes.len,
                                                        src->name, &opts));
  ok = ok && runUntil(child, KILN_STAGE_LLVM, true);
  if (!ok)
    messagef(s, "note", "in the fast path %s (--specialize)",
             kilnStrBufGet(&text));
  KilnSpecializedEntry *entry = &inv->specialized[index];
  kilnStrBufAppendf(&prefix, "s%ld.", (long)index + 1);
  ok = ok && mlirLogicalResultIsSuccess(kilnModuleMergeSpecialized(
                 inv->module, inv->signature, child->module, child->signature,
                 kilnStrBufGet(&prefix), kilnStrBufGet(&text), entry));
  if (ok)
    inv->numSpecialized = index + 1;
  else
    inv->error = child->error ? child->error : KILN_INVOCATION_ERROR_COMPILE;
  kilnInvocationDestroy(child);
  kilnStrBufDestroy(&prefix);
  kilnStrBufDestroy(&text);
  free(dims);
  return ok;
}

/* Once, at the llvm stage: the session's specializations merged into the
 * module; false after messages. */
static bool mergeSpecializations(KilnInvocation *inv) {
  const KilnSession *s = inv->session;
  intptr_t n = s->numSpecializations;
  if (!n || inv->merged)
    return true;
  if (!inv->source.path && !inv->source.bytes.data) {
    message(s, "error", NULL,
            "--specialize needs an ONNX model (it imports the model again "
            "for each fast path)");
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  }
  inv->merged = true;
  inv->specialized = kilnXCalloc((size_t)n, sizeof(*inv->specialized));
  for (intptr_t i = 0; i < n; ++i)
    if (!mergeSpecialization(inv, i, &s->specializations[i]))
      return false;
  return true;
}

/* Runs to the llvm stage for code generation; false after messages. */
static bool readyForCode(KilnInvocation *inv) {
  KilnSession *s = inv->session;
  if (inv->stage > KILN_STAGE_GRAPH && !inv->signature &&
      !mlirModuleIsNull(inv->module)) {
    messagef(s, "error",
             "the module is at the %s stage, and its signature could not be "
             "recorded before graph-to-linalg (generate code from the graph "
             "stage or earlier to see why)",
             kilnStageGetName(inv->stage));
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  }
  if (!runUntil(inv, KILN_STAGE_LLVM, true) || !mergeSpecializations(inv))
    return false;
  KilnStrBuf err = {0};
  if (isGpu(s) && !kilnGpuCheckLinked(inv->module, appendText, &err)) {
    message(s, "error", NULL, kilnStrBufGet(&err));
    kilnStrBufDestroy(&err);
    return fail(inv, KILN_INVOCATION_ERROR_COMPILE);
  }
  return true;
}

static KilnCompileOptions compileOptions(const KilnInvocation *inv,
                                         KilnCompileEmit kind) {
  const KilnSession *s = inv->session;
  return (KilnCompileOptions){.target = s->target,
                              .signature = inv->signature,
                              .recordedOptions = kilnStrBufGet(&s->recorded),
                              .emit = kind,
                              .onStage = s->options.onStage,
                              .stageUserData = s->options.userData,
                              .specialized = inv->specialized,
                              .numSpecialized = inv->numSpecialized};
}

bool kilnInvocationEmitCode(KilnInvocation *inv, KilnCompileEmit kind,
                            MlirStringCallback callback, void *userData) {
  if (!readyForCode(inv))
    return false;
  KilnCompileOptions co = compileOptions(inv, kind);
  KilnStrBuf err = {0};
  bool ok = mlirLogicalResultIsSuccess(kilnCompileToObject(
      inv->module, &co, callback, userData, appendText, &err));
  if (!ok) {
    message(inv->session, "error", NULL, kilnStrBufGet(&err));
    inv->error = KILN_INVOCATION_ERROR_COMPILE;
  }
  kilnStrBufDestroy(&err);
  return ok;
}

/* The number of code generation threads: the session's jobs, else one per
 * online CPU, at most kAutoMaxJobs. (kilnCompileToObjects also caps it at
 * the module's function definitions.) */
enum { kAutoMaxJobs = 8 };
static unsigned resolveJobs(unsigned requested) {
  if (requested)
    return requested;
  long cpus = sysconf(_SC_NPROCESSORS_ONLN);
  return cpus < 1 ? 1 : cpus > kAutoMaxJobs ? kAutoMaxJobs : (unsigned)cpus;
}

/* The objects of one compilation (one per code generation partition),
 * each written to `dir` as it arrives so that none waits in memory. */
typedef struct Objects {
  KilnStrBuf dir;
  KilnStrBuf *paths; /* [index]; empty for an index not yet received */
  unsigned count;
  int writeErrno; /* an object could not be written: its errno */
  KilnStrBuf failedPath;
  KilnStrBuf library; /* a library linked in `dir`, or empty */
} Objects;

static bool objectsCreate(Objects *objs, const KilnSession *s) {
  *objs = (Objects){0};
  if (kilnTempDirCreate("kiln-compile", &objs->dir))
    return true;
  messagef(s, "error", "cannot create the temporary directory '%s': %s",
           objs->dir.data, strerror(errno));
  kilnStrBufDestroy(&objs->dir);
  return false;
}

static bool writeFile(const char *path, const char *data, size_t length) {
  FILE *f = fopen(path, "wb");
  if (!f)
    return false;
  bool ok = fwrite(data, 1, length, f) == length;
  return fclose(f) == 0 && ok;
}

static void collectObject(unsigned index, MlirStringRef object,
                          void *userData) {
  Objects *objs = userData;
  if (index >= objs->count) {
    KilnStrBuf *grown = realloc(objs->paths, (index + 1) * sizeof(KilnStrBuf));
    if (!grown)
      abort();
    memset(grown + objs->count, 0,
           (index + 1 - objs->count) * sizeof(KilnStrBuf));
    objs->paths = grown;
    objs->count = index + 1;
  }
  KilnStrBuf *path = &objs->paths[index];
  kilnStrBufAppendf(path, "%s/model.%u.o", objs->dir.data, index);
  if (!objs->writeErrno && !writeFile(path->data, object.data, object.length)) {
    objs->writeErrno = errno ? errno : EIO;
    kilnStrBufAppendf(&objs->failedPath, "%s", path->data);
  }
}

/* Removes the objects and their directory. */
static void objectsDestroy(Objects *objs) {
  for (unsigned i = 0; i < objs->count; ++i) {
    if (objs->paths[i].data)
      unlink(objs->paths[i].data);
    kilnStrBufDestroy(&objs->paths[i]);
  }
  free(objs->paths);
  if (objs->library.data)
    unlink(objs->library.data);
  kilnStrBufDestroy(&objs->library);
  if (objs->dir.data)
    rmdir(objs->dir.data);
  kilnStrBufDestroy(&objs->dir);
  kilnStrBufDestroy(&objs->failedPath);
}

/* Links the objects into a library at `path`. */
static bool linkObjects(KilnInvocation *inv, const Objects *objects,
                        const char *path) {
  KilnSession *s = inv->session;
  unsigned n = objects->count;
  const char **argv = calloc(n ? n : 1, sizeof(char *));
  if (!argv)
    abort();
  for (unsigned i = 0; i < n; ++i)
    argv[i] = objects->paths[i].data ? objects->paths[i].data : "";
  KilnStrBuf err = {0};
  stage(s, "link");
  const char *mpi[] = {"mpi"};
  bool ok = mlirLogicalResultIsSuccess(
      kilnLinkSharedLibrary(s->target, argv, n, mpi, s->options.shard ? 1 : 0,
                            path, appendText, &err));
  if (!ok) {
    message(s, "error", NULL, kilnStrBufGet(&err));
    inv->error = KILN_INVOCATION_ERROR_COMPILE;
  }
  kilnStrBufDestroy(&err);
  free(argv);
  return ok;
}

/* Generates the objects into `objects` (created here; the caller destroys
 * it) and links them into a library at `path` (NULL: "model.so" in the
 * objects' directory, which `objects` then removes). On failure nothing is
 * left at `path`. */
static bool buildLibrary(KilnInvocation *inv, Objects *objects,
                         const char *path) {
  KilnSession *s = inv->session;
  if (!objectsCreate(objects, s))
    return fail(inv, KILN_INVOCATION_ERROR_COMPILE);
  if (!path) {
    kilnStrBufAppendf(&objects->library, "%s/model.so", objects->dir.data);
    path = objects->library.data;
  }
  KilnCompileOptions co = compileOptions(inv, KILN_COMPILE_EMIT_OBJECT);
  KilnStrBuf err = {0};
  bool ok = mlirLogicalResultIsSuccess(
      kilnCompileToObjects(inv->module, &co, resolveJobs(s->options.jobs),
                           collectObject, objects, appendText, &err));
  if (!ok) {
    message(s, "error", NULL, kilnStrBufGet(&err));
    inv->error = KILN_INVOCATION_ERROR_COMPILE;
  } else if (objects->writeErrno) {
    messagef(s, "error", "cannot write '%s': %s",
             kilnStrBufGet(&objects->failedPath),
             strerror(objects->writeErrno));
    ok = fail(inv, KILN_INVOCATION_ERROR_COMPILE);
  } else {
    ok = linkObjects(inv, objects, path);
  }
  if (!ok)
    unlink(path);
  kilnStrBufDestroy(&err);
  return ok;
}

bool kilnInvocationWriteLibrary(KilnInvocation *inv, const char *path) {
  if (!readyForCode(inv))
    return false;
  Objects objects;
  bool ok = buildLibrary(inv, &objects, path);
  objectsDestroy(&objects);
  return ok;
}

/* Passes the file at `path` to `callback` in pieces of 1 MiB. */
static bool streamFile(const char *path, MlirStringCallback callback,
                       void *userData) {
  FILE *f = fopen(path, "rb");
  if (!f)
    return false;
  enum { kChunk = 1 << 20 };
  char *chunk = kilnXCalloc(kChunk, 1);
  size_t n;
  while ((n = fread(chunk, 1, kChunk, f)) > 0)
    callback(mlirStringRefCreate(chunk, n), userData);
  bool ok = !ferror(f);
  free(chunk);
  fclose(f);
  return ok;
}

bool kilnInvocationEmitLibrary(KilnInvocation *inv, MlirStringCallback callback,
                               void *userData) {
  if (!readyForCode(inv))
    return false;
  Objects objects;
  bool ok = buildLibrary(inv, &objects, NULL);
  if (ok) {
    const char *path = objects.library.data;
    ok = streamFile(path, callback, userData);
    if (!ok) {
      messagef(inv->session, "error", "cannot read '%s': %s", path,
               strerror(errno));
      fail(inv, KILN_INVOCATION_ERROR_COMPILE);
    }
  }
  objectsDestroy(&objects);
  return ok;
}

typedef struct KernelOutput {
  MlirStringCallback callback;
  void *userData;
} KernelOutput;

static void emitPtx(MlirStringRef name, MlirStringRef ptx, void *userData) {
  const KernelOutput *out = userData;
  KilnStrBuf header = {0};
  kilnStrBufAppendf(&header, "// ---- gpu.binary @%.*s\n", (int)name.length,
                    name.data);
  out->callback(mlirStringRefCreate(header.data, header.len), out->userData);
  out->callback(ptx, out->userData);
  if (ptx.length && ptx.data[ptx.length - 1] != '\n')
    out->callback(mlirStringRefCreate("\n", 1), out->userData);
  kilnStrBufDestroy(&header);
}

static void keepObject(MlirStringRef name, MlirStringRef object,
                       void *userData) {
  (void)name;
  KilnStrBuf *out = userData;
  kilnStrBufClear(out);
  kilnStrBufAppend(out, object.data, object.length);
}

bool kilnInvocationEmitKernels(KilnInvocation *inv, MlirStringCallback callback,
                               void *userData) {
  KilnSession *s = inv->session;
  if (!isGpu(s)) {
    message(s, "error", NULL, "GPU kernels need --target=cuda");
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  }
  if (!runUntil(inv, KILN_STAGE_LLVM, false))
    return false;
  if (!s->options.cubin) {
    KernelOutput out = {callback, userData};
    kilnGpuForEachBinary(inv->module, emitPtx, &out);
    return true;
  }
  /* kiln-gpu-merge-kernels leaves one kernel module. */
  KilnStrBuf bin = {0};
  unsigned n = kilnGpuForEachBinary(inv->module, keepObject, &bin);
  if (n == 1)
    callback(mlirStringRefCreate(bin.data, bin.len), userData);
  else
    message(s, "error", NULL,
            n ? "the model has several kernel modules: --emit=cubin writes one"
              : "the model has no GPU kernels: no cubin to write");
  kilnStrBufDestroy(&bin);
  return n == 1 ? true : fail(inv, KILN_INVOCATION_ERROR_COMPILE);
}

/* ---- running in this process --------------------------------------------- */

/* Whether the module's memory plan (memory_plan.h) fits this machine, as
 * the runtime checks a model library's at load; otherwise says why. */
static bool memoryPlanFits(const KilnSession *s, MlirModule module) {
  MlirAttribute plan = mlirOperationGetDiscardableAttributeByName(
      mlirModuleGetOperation(module), kilnStr(KILN_MEMORY_PLAN_ATTR));
  if (mlirAttributeIsNull(plan) || !mlirAttributeIsAInteger(plan))
    return true;
  KilnStatus *status =
      kilnModelCheckMemoryPlan(mlirIntegerAttrGetValueInt(plan));
  if (status)
    message(s, "error", NULL, kilnStatusGetMessage(status));
  kilnStatusDestroy(status);
  return !status;
}

/* Whether the run passed kiln-runtime-checks' checks (runtime_checks.h);
 * otherwise reports the failed check as the runtime does. */
static bool checksPassed(const KilnSession *s, MlirModule module,
                         MlirExecutionEngine jit) {
  const int32_t *code =
      mlirExecutionEngineLookup(jit, kilnStr(KILN_CHECK_STATUS_SYMBOL));
  if (!code || *code == 0)
    return true;
  MlirAttribute messages = mlirOperationGetDiscardableAttributeByName(
      mlirModuleGetOperation(module), kilnStr(KILN_RUNTIME_CHECKS_ATTR));
  intptr_t i = *code - 1;
  bool known = !mlirAttributeIsNull(messages) &&
               mlirAttributeIsAArray(messages) && i >= 0 &&
               i < mlirArrayAttrGetNumElements(messages);
  KilnStrBuf text = {0};
  if (known) {
    MlirStringRef m =
        mlirStringAttrGetValue(mlirArrayAttrGetElement(messages, i));
    kilnStrBufAppend(&text, m.data, m.length);
  }
  KilnStatus *status =
      kilnModelCheckFailure(*code, known ? kilnStrBufGet(&text) : NULL);
  message(s, "error", NULL, kilnStatusGetMessage(status));
  kilnStatusDestroy(status);
  kilnStrBufDestroy(&text);
  return false;
}

/* Calls _mlir_ciface_ENTRY(in0*, ..., out0*, ...) through the engine's
 * packed interface (a pointer to each argument: here each descriptor's
 * address, runtime/model_abi.h). */
static bool callEntry(const KilnSession *s, MlirExecutionEngine jit,
                      const char *entry, KilnTensor *const *inputs,
                      intptr_t numInputs, KilnTensor *const *outputs,
                      intptr_t numOutputs) {
  size_t n = (size_t)(numInputs + numOutputs);
  KilnTensor **all = kilnXCalloc(n, sizeof(*all));
  for (intptr_t i = 0; i < numInputs + numOutputs; ++i)
    all[i] = i < numInputs ? inputs[i] : outputs[i - numInputs];
  void **descs = kilnXCalloc(n, sizeof(*descs));
  void **args = kilnXCalloc(n, sizeof(*args));
  char *storage = kilnMemRefDescsCreate(all, n, descs);
  for (size_t i = 0; i < n; ++i)
    args[i] = &descs[i];
  bool ok = mlirLogicalResultIsSuccess(
      mlirExecutionEngineInvokePacked(jit, kilnStr(entry), args));
  if (!ok)
    messagef(s, "error", "cannot call '_mlir_ciface_%s' in the compiled module",
             entry);
  free(storage);
  free(descs);
  free(args);
  free(all);
  return ok;
}

/* The JIT of the lowered module: the one kilnInvocationOutputDims kept, or
 * a new one (after the memory plan's check). Null after messages. */
static MlirExecutionEngine jitGet(KilnInvocation *inv) {
  KilnSession *s = inv->session;
  if (!mlirExecutionEngineIsNull(inv->jit))
    return inv->jit;
  if (!memoryPlanFits(s, inv->module)) {
    fail(inv, KILN_INVOCATION_ERROR_RUN);
    return inv->jit;
  }
  MlirStringRef libomp = kilnStr(KILN_LIBOMP_PATH);
  inv->jit = mlirExecutionEngineCreate(inv->module, /*optLevel=*/2, 1, &libomp,
                                       /*enableObjectDump=*/false,
                                       /*enablePIC=*/false);
  if (mlirExecutionEngineIsNull(inv->jit)) {
    message(s, "error", NULL, "the JIT could not compile the lowered module");
    fail(inv, KILN_INVOCATION_ERROR_COMPILE);
  }
  return inv->jit;
}

static bool checkModule(KilnInvocation *inv, bool hasEntry) {
  if (!mlirModuleIsNull(inv->module) && hasEntry)
    return true;
  message(inv->session, "error", NULL,
          mlirModuleIsNull(inv->module) ? "no module to run"
                                        : "no entry function to call");
  return fail(inv, KILN_INVOCATION_ERROR_USAGE);
}

bool kilnInvocationOutputDims(KilnInvocation *inv, KilnTensor *const *inputs,
                              intptr_t numInputs, int64_t *const *dims,
                              const int64_t *ranks, intptr_t numOutputs) {
  KilnSession *s = inv->session;
  if (!checkModule(inv, true))
    return false;
  MlirExecutionEngine jit = jitGet(inv);
  if (mlirExecutionEngineIsNull(jit))
    return false;
  if (!mlirExecutionEngineLookupPacked(jit, kilnStr(KILN_SHAPE_FUNCTION))) {
    message(s, "error", NULL,
            "unsupported: dynamic output dims and no shape function "
            "(" KILN_SHAPE_FUNCTION ") to size them: this pipeline does not "
            "derive one");
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  }
  int64_t n = 0;
  for (intptr_t j = 0; j < numOutputs; ++j)
    n += ranks[j];
  KilnTensor *buf = NULL;
  KilnStatus *status = kilnTensorCreate(KILN_ELEMENT_TYPE_I64, 1, &n, &buf);
  if (status) {
    message(s, "error", NULL, kilnStatusGetMessage(status));
    kilnStatusDestroy(status);
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  }
  KilnTensor *out[1] = {buf};
  bool ok = callEntry(s, jit, KILN_SHAPE_FUNCTION, inputs, numInputs, out, 1);
  const int64_t *values = kilnTensorGetConstData(buf);
  for (intptr_t j = 0, k = 0; ok && j < numOutputs; k += ranks[j++])
    memcpy(dims[j], values + k, (size_t)ranks[j] * sizeof(int64_t));
  kilnTensorDestroy(buf);
  if (!ok)
    return fail(inv, KILN_INVOCATION_ERROR_USAGE);
  return checksPassed(s, inv->module, jit) ||
         fail(inv, KILN_INVOCATION_ERROR_RUN);
}

bool kilnInvocationExecute(KilnInvocation *inv, const char *entry,
                           KilnTensor *const *inputs, intptr_t numInputs,
                           KilnTensor *const *outputs, intptr_t numOutputs) {
  KilnSession *s = inv->session;
  if (!checkModule(inv, entry != NULL))
    return false;
  MlirExecutionEngine jit = jitGet(inv);
  if (mlirExecutionEngineIsNull(jit))
    return false;
  KilnInvocationError error = KILN_INVOCATION_OK;
  if (!callEntry(s, jit, entry, inputs, numInputs, outputs, numOutputs))
    error = KILN_INVOCATION_ERROR_COMPILE;
  else if (!checksPassed(s, inv->module, jit))
    error = KILN_INVOCATION_ERROR_RUN;
  dropJit(inv);
  return error == KILN_INVOCATION_OK ? true : fail(inv, error);
}

/* kiln-run: compiles a model in-process for the host CPU (pipeline `cpu`),
 * runs it with MLIR's ExecutionEngine on tensors read from .pb/.npy files
 * and compares its outputs with expected ones; a model library (model.so)
 * runs through libkiln_runtime instead (run_library.c). See
 * docs/kiln-run.md.
 *
 * Exit codes (the conformance runner depends on them): 0 every expected
 * output matches; 1 a wrong result; 2 usage or bad input/expected files;
 * 3 unsupported (a diagnostic says "unsupported"); 4 other compile or run
 * errors. */
#define _POSIX_C_SOURCE 200809L /* setenv */

#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>

#include "kiln/compile.h"
#include "kiln/diagnostics.h"
#include "kiln/session.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "tools/common/tool_cli.h"
#include "tools/common/tool_diag.h"
#include "tools/common/tool_io.h"
#include "tools/kiln-run/compare.h"
#include "tools/kiln-run/options.h"

/* ---- messages --------------------------------------------------------- */

typedef struct DiagState {
  bool unsupported; /* an error said "unsupported" */
  bool inputShape;  /* an error was about the input shapes we passed */
  bool verbose;     /* -v: remarks (the tuning log's report) too */
} DiagState;

/* The compiler session's messages (kiln/session.h), printed as
 * kiln-compile prints them. */
static void printMessage(const char *severity, const char *location,
                         const char *text, void *userData) {
  DiagState *st = userData;
  if (!location && !strcmp(severity, "remark") && !st->verbose)
    return;
  if (location && !strcmp(severity, "error")) {
    st->unsupported |= kilnToolIsUnsupportedMessage(text);
    st->inputShape |=
        !strncmp(text, "input shape", 11) || !strncmp(text, "input value", 11);
  }
  kilnToolPrintMessage(kilnRunProgram, severity, location, text);
}

static int compileFailure(const DiagState *st) {
  return st->unsupported ? kExitUnsupported : kExitCompile;
}

/* ---- the model -------------------------------------------------------- */

/* The entry's signature, recorded before lowering rewrites it. */
typedef struct Signature {
  char *entry; /* symbol name */
  intptr_t numArgs, numResults;
  MlirType *argTypes, *resultTypes;
  char **argNames, **resultNames; /* onnx.name, else argN / resultN */
} Signature;

static void signatureDestroy(Signature *s) {
  for (intptr_t i = 0; i < s->numArgs; ++i)
    free(s->argNames[i]);
  for (intptr_t i = 0; i < s->numResults; ++i)
    free(s->resultNames[i]);
  free(s->argNames);
  free(s->resultNames);
  free(s->argTypes);
  free(s->resultTypes);
  free(s->entry);
  *s = (Signature){0};
}

static char *copyRef(MlirStringRef s) {
  char *c = malloc(s.length + 1);
  if (!c)
    abort();
  memcpy(c, s.data, s.length);
  c[s.length] = '\0';
  return c;
}

static void signatureInit(Signature *s, MlirOperation func) {
  MlirType fnType = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("function_type")));
  s->entry = copyRef(mlirStringAttrGetValue(mlirOperationGetAttributeByName(
      func, mlirStringRefCreateFromCString("sym_name"))));
  s->numArgs = mlirFunctionTypeGetNumInputs(fnType);
  s->numResults = mlirFunctionTypeGetNumResults(fnType);
  s->argTypes = calloc((size_t)s->numArgs + 1, sizeof(MlirType));
  s->resultTypes = calloc((size_t)s->numResults + 1, sizeof(MlirType));
  s->argNames = calloc((size_t)s->numArgs + 1, sizeof(char *));
  s->resultNames = calloc((size_t)s->numResults + 1, sizeof(char *));
  if (!s->argTypes || !s->resultTypes || !s->argNames || !s->resultNames)
    abort();
  for (intptr_t i = 0; i < s->numArgs; ++i) {
    s->argTypes[i] = mlirFunctionTypeGetInput(fnType, i);
    s->argNames[i] = kilnModelValueNameCreate(func, false, i);
  }
  for (intptr_t i = 0; i < s->numResults; ++i) {
    s->resultTypes[i] = mlirFunctionTypeGetResult(fnType, i);
    s->resultNames[i] = kilnModelValueNameCreate(func, true, i);
  }
}

static bool isStaticTensor(MlirType t) {
  return mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t);
}

static MlirWalkResult findDynamic(MlirOperation op, void *userData) {
  bool *dynamic = userData;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, i));
    if (mlirTypeIsAShaped(t) && !isStaticTensor(t)) {
      *dynamic = true;
      return MlirWalkResultInterrupt;
    }
  }
  return MlirWalkResultAdvance;
}

static bool hasDynamicShapes(MlirOperation func) {
  bool dynamic = false;
  mlirOperationWalk(func, findDynamic, &dynamic, MlirWalkPreOrder);
  return dynamic;
}

static bool isIntegerInput(const KilnTensor *t) {
  KilnElementType e = kilnTensorGetElementType(t);
  return e == KILN_ELEMENT_TYPE_I32 || e == KILN_ELEMENT_TYPE_I64;
}

/* Inputs that may decide shapes: integer tensors (shapes, axes, pads,
 * repeats, k) and small float tensors (OneHot's depth, Range's limits and
 * Resize's scales may be floats). */
enum { kMaxBoundFloats = 16 };

static bool isBindableInput(const KilnTensor *t) {
  KilnElementType e = kilnTensorGetElementType(t);
  int64_t n = 1;
  for (int64_t d = 0; d < kilnTensorGetRank(t); ++d)
    n *= kilnTensorGetDims(t)[d];
  return isIntegerInput(t) ||
         ((e == KILN_ELEMENT_TYPE_F32 || e == KILN_ELEMENT_TYPE_F64) &&
          n <= kMaxBoundFloats);
}

/* A compilation of the model: its session and invocation. */
typedef struct Compilation {
  KilnSession *session;
  KilnInvocation *inv;
} Compilation;

static void compilationDestroy(Compilation *c) {
  kilnInvocationDestroy(c->inv);
  kilnSessionDestroy(c->session);
  *c = (Compilation){0};
}

/* Starts a compilation for the host at -O (default 3) with the tuning log
 * and loads the model: an ONNX model with each input's shape from its
 * file (with `bind`, every bindable input becomes a constant of its
 * file's value), else MLIR text. False after messages. */
static bool startCompilation(Compilation *c, Options *o, DiagState *diags,
                             bool bind) {
  KilnOnnxInputShape *shapes =
      calloc((size_t)o->numInputs + 1, sizeof(*shapes));
  KilnOnnxInputValue *values =
      calloc((size_t)o->numInputs + 1, sizeof(*values));
  if (!shapes || !values)
    abort();
  intptr_t numShapes = 0, numValues = 0;
  for (int i = 0; i < o->numInputs; ++i) {
    TensorArg *a = &o->inputs[i];
    a->bound = bind && a->name && isBindableInput(a->tensor);
    if (!a->bound)
      shapes[numShapes++] =
          (KilnOnnxInputShape){.name = a->name,
                               .dims = kilnTensorGetDims(a->tensor),
                               .rank = (intptr_t)kilnTensorGetRank(a->tensor),
                               .position = i};
  }
  bool onnx = kilnRunHasSuffix(o->model, ".onnx");
  KilnSessionOptions so = {
      .target = {.optLevel = o->optLevel < 0 ? 3 : o->optLevel},
      .inputShapes = onnx ? shapes : NULL,
      .numInputShapes = onnx ? numShapes : 0,
      .tuningLog = o->tuningLog,
      .precision = o->precision,
      .onMessage = printMessage,
      .userData = diags};
  c->session = kilnSessionCreate(&so);
  bool ok = false;
  if (c->session) {
    MlirContext ctx = kilnSessionGetContext(c->session);
    for (int i = 0; i < o->numInputs; ++i) {
      KilnTensor *t = o->inputs[i].tensor;
      if (o->inputs[i].bound)
        values[numValues++] = kilnToolInputValueOf(ctx, o->inputs[i].name, t);
    }
    c->inv = kilnInvocationCreate(c->session);
    ok = onnx
             ? kilnInvocationImportOnnxFile(c->inv, o->model, values, numValues)
             : kilnInvocationParseSource(c->inv, o->model);
  }
  free(shapes);
  free(values);
  return ok;
}

/* Names each bare input after the argument at its position. */
static void nameBareInputs(Options *o, const Signature *sig) {
  for (int i = 0; i < o->numInputs; ++i)
    if (!o->inputs[i].name && i < sig->numArgs)
      o->inputs[i].name = o->inputs[i].ownedName = kilnStrDup(sig->argNames[i]);
}

/* Loads the model into a compilation and its entry's signature into *sig;
 * returns -1 on success, else the exit code. */
static int loadModel(Compilation *c, Options *o, DiagState *diags,
                     Signature *sig) {
  if (!startCompilation(c, o, diags, false))
    return diags->inputShape ? kExitUsage : compileFailure(diags);
  MlirOperation module =
      mlirModuleGetOperation(kilnInvocationGetModule(c->inv));
  MlirOperation entry = kilnModelFindEntry(module);
  if (mlirOperationIsNull(entry)) {
    kilnRunError("'%s' has no @main_graph and not exactly one public function",
                 o->model);
    return kExitUsage;
  }
  signatureInit(sig, entry);
  if (!kilnRunHasSuffix(o->model, ".onnx"))
    return -1;
  nameBareInputs(o, sig);
  bool anyBindable = false;
  for (int i = 0; i < o->numInputs; ++i)
    anyBindable |= isBindableInput(o->inputs[i].tensor);
  if (!hasDynamicShapes(entry) || !anyBindable)
    return -1;
  /* Shapes that depend on input values (Reshape's shape, Slice's starts,
   * TopK's k, OneHot's depth, ...): specialize the model to this run's
   * integer inputs and float scalars. */
  if (o->verbose)
    fprintf(stderr, "kiln-run: the model has dynamic shapes; binding its "
                    "integer and small float inputs as constants\n");
  compilationDestroy(c);
  signatureDestroy(sig);
  if (!startCompilation(c, o, diags, true))
    return diags->inputShape ? kExitUsage : compileFailure(diags);
  signatureInit(sig, kilnModelFindEntry(mlirModuleGetOperation(
                         kilnInvocationGetModule(c->inv))));
  return -1;
}

/* ---- binding files to arguments and results --------------------------- */

static void appendShape(KilnStrBuf *b, KilnElementType type, int64_t rank,
                        const int64_t *dims) {
  kilnStrBufAppendf(b, "%s[", kilnElementTypeGetName(type));
  for (int64_t d = 0; d < rank; ++d)
    kilnStrBufAppendf(b, "%s%lld", d ? "x" : "", (long long)dims[d]);
  kilnStrBufAppendf(b, "]");
}

/* Does tensor `t` fit `type` (element type, rank, static dims)? On a
 * mismatch writes both to *why. */
static bool tensorFits(const KilnTensor *t, MlirType type, KilnStrBuf *why) {
  KilnElementType want;
  bool ok = mlirTypeIsARankedTensor(type) &&
            kilnModelElementTypeOf(mlirShapedTypeGetElementType(type), &want) &&
            want == kilnTensorGetElementType(t) &&
            mlirShapedTypeGetRank(type) == kilnTensorGetRank(t);
  for (int64_t d = 0; ok && d < kilnTensorGetRank(t); ++d)
    ok = mlirShapedTypeIsDynamicDim(type, (intptr_t)d) ||
         mlirShapedTypeGetDimSize(type, (intptr_t)d) == kilnTensorGetDims(t)[d];
  if (!ok) {
    kilnStrBufAppendf(why, "the file holds ");
    appendShape(why, kilnTensorGetElementType(t), kilnTensorGetRank(t),
                kilnTensorGetDims(t));
    kilnStrBufAppendf(why, ", the model wants ");
    kilnStrBufAppendType(why, type);
  }
  return ok;
}

/* Orders the inputs by argument and checks each one's type and shape. */
/* ONNX's test data stores bfloat16 tensors as uint16 (numpy has no
 * bfloat16): a u16 file for a bf16 slot is taken bit for bit. */
static void adoptBf16Bits(KilnTensor **t, MlirType slotType) {
  if (kilnTensorGetElementType(*t) != KILN_ELEMENT_TYPE_U16 ||
      !mlirTypeIsARankedTensor(slotType) ||
      !mlirTypeIsABF16(mlirShapedTypeGetElementType(slotType)))
    return;
  KilnTensor *bf16 = NULL;
  KilnStatus *s =
      kilnTensorCreate(KILN_ELEMENT_TYPE_BF16, kilnTensorGetRank(*t),
                       kilnTensorGetDims(*t), &bf16);
  if (s) {
    kilnStatusDestroy(s);
    return;
  }
  memcpy(kilnTensorGetData(bf16), kilnTensorGetConstData(*t),
         kilnTensorGetByteSize(*t));
  kilnTensorDestroy(*t);
  *t = bf16;
}

static bool bindInputs(Options *o, const Signature *sig, KilnTensor **args) {
  if (!kilnRunMatchSlots(o->inputs, o->numInputs, sig->argNames, sig->numArgs,
                         "input"))
    return false;
  for (int i = 0; i < o->numInputs; ++i)
    if (!o->inputs[i].bound) {
      adoptBf16Bits(&o->inputs[i].tensor, sig->argTypes[o->inputs[i].slot]);
      args[o->inputs[i].slot] = o->inputs[i].tensor;
    }
  for (intptr_t k = 0; k < sig->numArgs; ++k) {
    if (!args[k]) {
      kilnRunError("no file given for input '%s' (--input %s=FILE)",
                   sig->argNames[k], sig->argNames[k]);
      return false;
    }
    KilnStrBuf why = {0};
    bool fits = tensorFits(args[k], sig->argTypes[k], &why);
    if (!fits)
      kilnRunError("input '%s' has the wrong type or shape: %s",
                   sig->argNames[k], kilnStrBufGet(&why));
    kilnStrBufDestroy(&why);
    if (!fits)
      return false;
  }
  return true;
}

/* Whether kiln-run can hold each result: a ranked tensor of a runtime
 * element type (dynamic dims are sized by the shape function before the
 * run); false (exit 3) after an error otherwise. */
static bool outputsSupported(const Signature *sig) {
  for (intptr_t k = 0; k < sig->numResults; ++k) {
    MlirType t = sig->resultTypes[k];
    KilnElementType elem;
    if (!mlirTypeIsARankedTensor(t) ||
        !kilnModelElementTypeOf(mlirShapedTypeGetElementType(t), &elem)) {
      KilnStrBuf b = {0};
      kilnStrBufAppendType(&b, t);
      kilnRunError("unsupported: output '%s' has type %s; kiln-run needs "
                   "ranked tensors of plain element types",
                   sig->resultNames[k], kilnStrBufGet(&b));
      kilnStrBufDestroy(&b);
      return false;
    }
  }
  return true;
}

/* The GPU schedules (--pipeline=gpu-on-cpu) take what the CUDA target
 * takes: static shapes only (it refuses dynamic ones before lowering,
 * session.c); false (exit 3) after an error for an input or output of
 * dynamic shape. */
static bool staticForGpuSchedules(const Options *o, const Signature *sig) {
  /* The pipeline with or without parameters (gpu-on-cpu{tf32=true}). */
  const char *gpu = "gpu-on-cpu";
  size_t n = strlen(gpu);
  if (!o->pipeline || strncmp(o->pipeline, gpu, n) ||
      (o->pipeline[n] && o->pipeline[n] != '{'))
    return true;
  for (intptr_t k = 0; k < sig->numArgs + sig->numResults; ++k) {
    bool result = k >= sig->numArgs;
    MlirType t = result ? sig->resultTypes[k - sig->numArgs] : sig->argTypes[k];
    if (!mlirTypeIsAShaped(t) || mlirShapedTypeHasStaticShape(t))
      continue;
    KilnStrBuf b = {0};
    kilnStrBufAppendType(&b, t);
    kilnRunError("unsupported: %s '%s' has the dynamic shape %s; the GPU "
                 "schedules take static shapes only, as the CUDA target",
                 result ? "output" : "input",
                 result ? sig->resultNames[k - sig->numArgs] : sig->argNames[k],
                 kilnStrBufGet(&b));
    kilnStrBufDestroy(&b);
    return false;
  }
  return true;
}

/* Creates a zeroed tensor per result, of the static dims of its type or,
 * where it has a dynamic dim, of the dims the lowered module's shape
 * function gives for `args` (a data-dependent output: NonZero's). */
static bool createOutputs(Compilation *c, const Signature *sig,
                          KilnTensor **args, KilnTensor **outputs) {
  intptr_t n = sig->numResults;
  int64_t *ranks = calloc((size_t)n + 1, sizeof(*ranks));
  int64_t (*dims)[KILN_TENSOR_MAX_RANK] = calloc((size_t)n + 1, sizeof(*dims));
  int64_t **rows = calloc((size_t)n + 1, sizeof(*rows));
  if (!ranks || !dims || !rows)
    abort();
  bool dynamic = false, ok = true;
  for (intptr_t k = 0; k < n; ++k) {
    MlirType t = sig->resultTypes[k];
    ranks[k] = mlirShapedTypeGetRank(t);
    rows[k] = dims[k];
    for (int64_t d = 0; d < ranks[k] && d < KILN_TENSOR_MAX_RANK; ++d)
      dims[k][d] = mlirShapedTypeGetDimSize(t, (intptr_t)d);
    dynamic |= !mlirShapedTypeHasStaticShape(t);
  }
  if (dynamic)
    ok = kilnInvocationOutputDims(c->inv, args, sig->numArgs, rows, ranks, n);
  for (intptr_t k = 0; ok && k < n; ++k) {
    KilnElementType elem;
    kilnModelElementTypeOf(mlirShapedTypeGetElementType(sig->resultTypes[k]),
                           &elem);
    KilnStatus *s = kilnTensorCreate(elem, ranks[k], dims[k], &outputs[k]);
    if (s) {
      kilnRunError("output '%s': %s", sig->resultNames[k],
                   kilnStatusGetMessage(s));
      kilnStatusDestroy(s);
      ok = false;
    } else {
      kilnTensorSetName(outputs[k], sig->resultNames[k]);
    }
  }
  free(rows);
  free(dims);
  free(ranks);
  return ok;
}

/* ---- compiling, running, checking ------------------------------------- */

/* Optimizes the graph at the session's -O level, applies --tuning-log and
 * lowers with the `cpu` pipeline (or `lowering`, --pipeline); -1 on
 * success, else the exit code. */
static int lower(Compilation *c, const char *lowering, const DiagState *diags) {
  if (kilnInvocationRunUntil(c->inv, KILN_STAGE_GRAPH) &&
      kilnInvocationRunPipeline(c->inv, lowering ? lowering : "cpu"))
    return -1;
  return kilnInvocationGetError(c->inv) == KILN_INVOCATION_ERROR_USAGE
             ? kExitUsage
             : compileFailure(diags);
}

static bool sameDims(const KilnTensor *a, const KilnTensor *b) {
  return kilnTensorGetRank(a) == kilnTensorGetRank(b) &&
         !memcmp(kilnTensorGetDims(a), kilnTensorGetDims(b),
                 (size_t)kilnTensorGetRank(a) * sizeof(int64_t));
}

/* Compares each expected file with its output; the exit code. */
static int checkOutputs(Options *o, const Signature *sig,
                        KilnTensor **outputs) {
  int rc = kExitPass;
  for (int i = 0; i < o->numExpected; ++i) {
    TensorArg *e = &o->expected[i];
    const char *name = sig->resultNames[e->slot];
    KilnStrBuf why = {0};
    adoptBf16Bits(&e->tensor, sig->resultTypes[e->slot]);
    if (!tensorFits(e->tensor, sig->resultTypes[e->slot], &why)) {
      fprintf(stderr, "kiln-run: output '%s' does not match: expected %s\n",
              name, kilnStrBufGet(&why) + strlen("the file holds "));
      rc = kExitMismatch;
    } else if (!sameDims(outputs[e->slot], e->tensor)) {
      /* a dynamic dim, sized by the shape function */
      KilnStrBuf want = {0}, got = {0};
      appendShape(&want, kilnTensorGetElementType(e->tensor),
                  kilnTensorGetRank(e->tensor), kilnTensorGetDims(e->tensor));
      appendShape(&got, kilnTensorGetElementType(outputs[e->slot]),
                  kilnTensorGetRank(outputs[e->slot]),
                  kilnTensorGetDims(outputs[e->slot]));
      fprintf(stderr,
              "kiln-run: output '%s' does not match: expected %s, the model "
              "gives %s\n",
              name, kilnStrBufGet(&want), kilnStrBufGet(&got));
      kilnStrBufDestroy(&want);
      kilnStrBufDestroy(&got);
      rc = kExitMismatch;
    } else if (!kilnRunCompare(name, outputs[e->slot], e->tensor, o->rtol,
                               o->atol)) {
      rc = kExitMismatch;
    }
    kilnStrBufDestroy(&why);
  }
  return rc;
}

/* Compiles and runs the loaded model; the exit code. */
static double nowSeconds(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int compileAndRun(Compilation *c, Options *o, const DiagState *diags,
                         const Signature *sig) {
  KilnTensor **args = calloc((size_t)sig->numArgs + 1, sizeof(*args));
  KilnTensor **outputs = calloc((size_t)sig->numResults + 1, sizeof(*outputs));
  if (!args || !outputs)
    abort();
  int rc = kExitUsage;
  if (!bindInputs(o, sig, args) ||
      !kilnRunMatchSlots(o->expected, o->numExpected, sig->resultNames,
                         sig->numResults, "output"))
    goto out;
  rc = kExitUnsupported;
  if (!outputsSupported(sig) || !staticForGpuSchedules(o, sig))
    goto out;
  double t0 = nowSeconds();
  if ((rc = lower(c, o->pipeline, diags)) >= 0)
    goto out;
  double t1 = nowSeconds();
  if (o->threads > 0) {
    /* libomp reads it when the JIT loads it, below. */
    char n[16];
    snprintf(n, sizeof(n), "%d", o->threads);
    setenv("OMP_NUM_THREADS", n, 1);
  }
  rc = kExitCompile;
  if (!createOutputs(c, sig, args, outputs)) {
    if (kilnInvocationGetError(c->inv) == KILN_INVOCATION_ERROR_USAGE)
      rc = kExitUnsupported; /* a pipeline without a shape function */
    goto out;
  }
  if (!kilnInvocationExecute(c->inv, sig->entry, args, sig->numArgs, outputs,
                             sig->numResults))
    goto out;
  if (o->verbose)
    fprintf(stderr,
            "kiln-run: lowered to LLVM in %.2f s; JIT-compiled and ran in "
            "%.2f s\n",
            t1 - t0, nowSeconds() - t1);
  for (intptr_t k = 0; o->printOutput && k < sig->numResults; ++k)
    kilnRunPrint(sig->resultNames[k], outputs[k], 64);
  rc = kExitUsage;
  if (o->outputDir && !kilnRunWriteOutputs(o->outputDir, sig->resultNames,
                                           sig->numResults, outputs))
    goto out;
  rc = checkOutputs(o, sig, outputs);
  if (rc == kExitPass)
    kilnRunReportUnchecked(o, o->model, sig->numResults);
out:
  for (intptr_t k = 0; k < sig->numResults; ++k)
    kilnTensorDestroy(outputs[k]);
  free(outputs);
  free(args);
  return rc;
}

/* The exit code when a data file could not be read: 3 when the file needs
 * something Kiln does not support, or when the model itself does not import
 * (test data for sequences and optionals is not a TensorProto; the model
 * is the real reason). Otherwise 2: a bad file. */
static int unreadableDataExit(const Options *o) {
  if (kilnRunDataUnsupported)
    return kExitUnsupported;
  if (!kilnRunHasSuffix(o->model, ".onnx"))
    return kExitUsage;
  DiagState diags = {0};
  KilnSessionOptions so = {
      .target = {.optLevel = 3}, .onMessage = printMessage, .userData = &diags};
  KilnSession *session = kilnSessionCreate(&so);
  if (!session)
    return kExitUsage;
  KilnInvocation *inv = kilnInvocationCreate(session);
  int rc = kilnInvocationParseSource(inv, o->model) ? kExitUsage
                                                    : compileFailure(&diags);
  kilnInvocationDestroy(inv);
  kilnSessionDestroy(session);
  return rc;
}

int main(int argc, char **argv) {
  Options o = KILN_RUN_OPTIONS_INIT;
  int rc = kilnRunParseArgs(argc, argv, &o, false);
  if (rc < 0 && !kilnToolCheckModelFile(kilnRunProgram, o.model, true))
    rc = kExitUsage;
  if (rc < 0 &&
      (!kilnRunLoadTensors(o.inputs, o.numInputs, "input") ||
       !kilnRunLoadTensors(o.expected, o.numExpected, "expected output")))
    rc = unreadableDataExit(&o);
  if (rc < 0 && kilnRunIsLibrary(o.model)) {
    /* The same command line works for a model and its library; -O only
     * means something when kiln-run compiles. */
    if (o.optLevel >= 0)
      fprintf(stderr,
              "kiln-run: warning: -O%d has no effect on a model library "
              "(kiln-compile chose its level)\n",
              o.optLevel);
    if (o.precision)
      fprintf(stderr,
              "kiln-run: warning: --precision=%s has no effect on a model "
              "library (kiln-compile chose its precision)\n",
              o.precision);
    rc = kilnRunLibrary(&o);
  } else if (rc < 0 && o.summary) {
    kilnRunError("--summary describes a model library: build one with "
                 "kiln-compile %s -o MODEL.so and describe that",
                 o.model);
    rc = kExitUsage;
  } else if (rc < 0 && o.profile) {
    kilnRunError("--profile needs a model library: build one with "
                 "kiln-compile --profile %s -o MODEL.so and run that",
                 o.model);
    rc = kExitUsage;
  } else if (rc < 0 && (o.benchmark || o.repeat)) {
    kilnRunError("%s needs a compiled model (.so from kiln-compile)",
                 o.benchmark ? "--benchmark" : "--repeat");
    rc = kExitUsage;
  }
  if (rc >= 0) {
    kilnRunOptionsDestroy(&o);
    return rc;
  }
  DiagState diags = {.verbose = o.verbose};
  Compilation c = {0};
  Signature sig = {0};
  rc = loadModel(&c, &o, &diags, &sig);
  if (rc < 0)
    rc = compileAndRun(&c, &o, &diags, &sig);
  signatureDestroy(&sig);
  compilationDestroy(&c);
  kilnRunOptionsDestroy(&o);
  return rc;
}

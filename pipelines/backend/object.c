/* LLVM dialect → LLVM IR → optimized IR → assembly or object code, with the
 * model library ABI added in LLVM IR:
 *   const char kiln_model_metadata[];   text records, see compile.h
 *   int kiln_model_run(void **args);    calls _mlir_ciface_ENTRY(args...)
 *                                       (or the first fast path whose dims
 *                                       the inputs have: --specialize,
 *                                       specialize.c); 0, or the number of
 *                                       the run-time check that failed
 *                                       (`check` records)
 *   int kiln_model_output_dims(void **inputs, int64_t **outputDims);
 *                                       with dynamic dims: the outputs'
 *                                       dims (kiln-shape-function)
 *   const KilnModelWeightRows kiln_model_weight_rows[];
 *                                       a sharded model's rank-major
 *                                       weights (model_abi.h)
 * Everything else is made internal, so the library exports just these
 * and the optimizer may inline the entry into kiln_model_run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/graph-to-linalg/runtime_checks.h"
#include "conversions/linalg-to-llvm-cpu/memory_plan.h"
#include "conversions/linalg-to-llvm-cpu/profile_nodes.h"
#include "dialects/shard/transforms/shard_plan.h"
#include "kiln/diagnostics.h"
#include "kiln/kiln.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/RegisterEverything.h"
#include "mlir-c/Target/LLVMIR.h"
#include "pipelines/backend/target.h"
#include "runtime/model_abi.h"
#include "support/resource_data.h"
#include "llvm-c/Analysis.h"
#include "llvm-c/Core.h"
#include "llvm-c/Transforms/PassBuilder.h"

static void stage(const KilnCompileOptions *o, const char *name) {
  if (o->onStage)
    o->onStage(name, o->stageUserData);
}

/* The full metadata text: the ABI header, the target, the signature,
 * the module's `records` (moduleRecords: memory plan, run-time checks)
 * and, for a profiled model (`profile` NULL otherwise), its `profile`
 * records (kiln-instrument-ops). */
static void buildMetadata(KilnStrBuf *b, const KilnCompileOptions *o,
                          const char *records, const char *profile) {
  const KilnTarget *t = o->target;
  const char *features = kilnTargetGetFeatures(t);
  kilnStrBufAppendf(b, "kiln-model %d\nkiln-version %s\n",
                    KILN_MODEL_ABI_VERSION, KILN_VERSION_STRING);
  kilnStrBufAppendf(b, "target %s\ncpu %s\nfeatures %s\n",
                    kilnTargetGetTriple(t), kilnTargetGetCPU(t),
                    *features ? features : "-");
  if (kilnTargetGetGpuArch(t))
    kilnStrBufAppendf(b, "gpu cuda %s\n", kilnTargetGetGpuArch(t));
  if (o->recordedOptions)
    kilnStrBufAppendf(b, "options %s\n", o->recordedOptions);
  else
    kilnStrBufAppendf(b, "options -O%d\n", kilnTargetGetOptLevel(t));
  kilnStrBufAppendf(b, "%s", kilnModelSignatureGetRecords(o->signature));
  for (intptr_t k = 0; k < o->numSpecialized; ++k)
    kilnStrBufAppendf(b, "specialization %s\n", o->specialized[k].description);
  kilnStrBufAppendf(b, "%s", records);
  if (profile) {
    unsigned n = 0;
    for (const char *p = profile; (p = strchr(p, '\n')); ++p)
      ++n;
    kilnStrBufAppendf(b, "profile %u\n%s", n, profile);
  }
}

/* The `profile-op` records of a module that kiln-instrument-ops
 * instrumented ("" if it found nothing to time), NULL for a module that
 * does not ask for a profile. Borrowed from the module. */
static const char *profileRecords(MlirModule module, KilnStrBuf *copy) {
  MlirOperation op = mlirModuleGetOperation(module);
  if (mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
          op, mlirStringRefCreateFromCString(KILN_PROFILE_ATTR))))
    return NULL;
  MlirAttribute records = mlirOperationGetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(KILN_PROFILE_RECORDS_ATTR));
  if (!mlirAttributeIsNull(records) && mlirAttributeIsAString(records)) {
    MlirStringRef s = mlirStringAttrGetValue(records);
    kilnStrBufAppend(copy, s.data, s.length);
  }
  return kilnStrBufGet(copy);
}

/* The records the lowering left on the module: the `memory BYTES` record
 * of kiln-memory-plan, the `shard PLAN` record of kiln-shard-plan, then
 * the `check N MESSAGE` records of kiln-runtime-checks' messages (one line
 * each: a newline in a node name becomes a space); "" for none. */
static const char *moduleRecords(MlirModule module, KilnStrBuf *out) {
  MlirOperation op = mlirModuleGetOperation(module);
  MlirAttribute shard = mlirOperationGetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(KILN_SHARD_PLAN_ATTR));
  if (!mlirAttributeIsNull(shard) && mlirAttributeIsAString(shard)) {
    MlirStringRef plan = mlirStringAttrGetValue(shard);
    kilnStrBufAppendf(out, "shard %.*s\n", (int)plan.length, plan.data);
  }
  MlirAttribute plan = mlirOperationGetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(KILN_MEMORY_PLAN_ATTR));
  if (!mlirAttributeIsNull(plan) && mlirAttributeIsAInteger(plan))
    kilnStrBufAppendf(out, "memory %lld\n",
                      (long long)mlirIntegerAttrGetValueInt(plan));
  MlirAttribute messages = mlirOperationGetDiscardableAttributeByName(
      op, mlirStringRefCreateFromCString(KILN_RUNTIME_CHECKS_ATTR));
  intptr_t n = !mlirAttributeIsNull(messages) && mlirAttributeIsAArray(messages)
                   ? mlirArrayAttrGetNumElements(messages)
                   : 0;
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute m = mlirArrayAttrGetElement(messages, i);
    if (!mlirAttributeIsAString(m))
      continue;
    MlirStringRef text = mlirStringAttrGetValue(m);
    kilnStrBufAppendf(out, "check %ld ", (long)(i + 1));
    size_t start = out->len;
    kilnStrBufAppend(out, text.data, text.length);
    for (size_t j = start; j < out->len; ++j)
      if (out->data[j] == '\n' || out->data[j] == '\r')
        out->data[j] = ' ';
    kilnStrBufAppend(out, "\n", 1);
  }
  return out->data ? out->data : "";
}

/* Exports kiln-instrument-ops' counter table through the constant pointer
 * `kiln_model_profile`. The table itself stays internal: with parallel
 * code generation it is shared between partitions as a hidden symbol,
 * which an exported one could not be (its uses would need the GOT). */
static void exportProfileCounters(LLVMModuleRef m) {
  LLVMValueRef counters = LLVMGetNamedGlobal(m, "kiln.profile.counters");
  if (!counters || LLVMIsDeclaration(counters))
    return;
  LLVMValueRef p = LLVMAddGlobal(m, LLVMTypeOf(counters), "kiln_model_profile");
  LLVMSetInitializer(p, counters);
  LLVMSetGlobalConstant(p, true);
  LLVMSetLinkage(p, LLVMExternalLinkage);
}

/* A sharded model's rank-major weight globals (kilnResourceDataSetRankRows
 * on their values), read from the MLIR module before its weights are
 * detached: one per element type of the split weights, so a few; past
 * kMaxWeightRows the rest are not listed (their ranks keep every page they
 * map, as without the table). */
enum { kMaxWeightRows = 16 };
typedef struct WeightRows {
  size_t n;
  char *names[kMaxWeightRows];
  size_t rowBytes[kMaxWeightRows], usedBytes[kMaxWeightRows];
} WeightRows;

static void weightRowsCollect(MlirModule module, WeightRows *rows) {
  *rows = (WeightRows){0};
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op) && rows->n < kMaxWeightRows;
       op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute value = mlirOperationGetAttributeByName(op, kilnStr("value"));
    MlirAttribute name =
        mlirOperationGetAttributeByName(op, kilnStr("sym_name"));
    size_t row, used;
    if (!mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                            kilnStr("llvm.mlir.global")) ||
        mlirAttributeIsNull(value) || mlirAttributeIsNull(name) ||
        !kilnResourceDataGetRankRows(value, &row, &used))
      continue;
    MlirStringRef text = mlirStringAttrGetValue(name);
    char *copy = kilnXCalloc(text.length + 1, 1);
    memcpy(copy, text.data, text.length);
    rows->names[rows->n] = copy;
    rows->rowBytes[rows->n] = row;
    rows->usedBytes[rows->n++] = used;
  }
}

static void weightRowsDestroy(WeightRows *rows) {
  for (size_t i = 0; i < rows->n; ++i)
    free(rows->names[i]);
}

/* Exports `rows` as kiln_model_weight_rows (model_abi.h): one
 * KilnModelWeightRows per global, then a null entry. Nothing for a model
 * without them. */
static void exportWeightRows(LLVMModuleRef m, const WeightRows *rows) {
  if (!rows->n)
    return;
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef fields[3] = {ptr, i64, i64};
  LLVMTypeRef entry = LLVMStructTypeInContext(ctx, fields, 3, false);
  LLVMValueRef *entries = kilnXCalloc(rows->n + 1, sizeof(LLVMValueRef));
  for (size_t i = 0; i <= rows->n; ++i) {
    LLVMValueRef g = i < rows->n ? LLVMGetNamedGlobal(m, rows->names[i]) : NULL;
    LLVMValueRef v[3] = {g ? g : LLVMConstNull(ptr),
                         LLVMConstInt(i64, g ? rows->rowBytes[i] : 0, false),
                         LLVMConstInt(i64, g ? rows->usedBytes[i] : 0, false)};
    entries[i] = LLVMConstNamedStruct(entry, v, 3);
  }
  LLVMValueRef init = LLVMConstArray2(entry, entries, rows->n + 1);
  free(entries);
  LLVMValueRef table =
      LLVMAddGlobal(m, LLVMTypeOf(init), KILN_MODEL_WEIGHT_ROWS_SYMBOL);
  LLVMSetInitializer(table, init);
  LLVMSetGlobalConstant(table, true);
  LLVMSetLinkage(table, LLVMExternalLinkage);
}

/* Counts the input/output records: the entry's parameter count after
 * buffer-results-to-out-params. */
/* Adds kiln_model_output_dims(void **inputs, int64_t **outputDims) over
 * kiln-shape-function's function, when the module has one: it passes the
 * input descriptors and a descriptor of a stack buffer for every output's
 * dims (memref<Nxi64>), then copies output j's dims to outputDims[j] and
 * returns the status word of the shape checks (0 when they passed). */
static void addOutputDims(LLVMModuleRef m, const KilnModelSignature *sig,
                          LLVMValueRef status) {
  LLVMValueRef callee =
      LLVMGetNamedFunction(m, "_mlir_ciface_" KILN_SHAPE_FUNCTION);
  if (!callee || LLVMIsDeclaration(callee))
    return;
  intptr_t numInputs = kilnModelSignatureGetNumInputs(sig);
  intptr_t numOutputs = kilnModelSignatureGetNumOutputs(sig);
  int64_t n = 0;
  for (intptr_t j = 0; j < numOutputs; ++j)
    n += kilnModelSignatureGetOutputRank(sig, j);
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMTypeRef params[2] = {ptr, ptr};
  LLVMValueRef fn = LLVMAddFunction(m, "kiln_model_output_dims",
                                    LLVMFunctionType(i32, params, 2, 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, ""));
  /* The memref<Nxi64> descriptor: allocated, aligned, offset, size,
   * stride. */
  LLVMTypeRef one = LLVMArrayType2(i64, 1);
  LLVMTypeRef descFields[5] = {ptr, ptr, i64, one, one};
  LLVMTypeRef descType = LLVMStructTypeInContext(ctx, descFields, 5, 0);
  LLVMTypeRef bufType = LLVMArrayType2(i64, (uint64_t)(n ? n : 1));
  LLVMValueRef buf = LLVMBuildAlloca(b, bufType, "dims");
  LLVMValueRef desc = LLVMBuildAlloca(b, descType, "desc");
  LLVMValueRef fields[5] = {buf, buf, LLVMConstInt(i64, 0, false),
                            LLVMConstInt(i64, (unsigned long long)n, false),
                            LLVMConstInt(i64, 1, false)};
  for (unsigned f = 0; f < 5; ++f) {
    LLVMValueRef at = LLVMBuildStructGEP2(b, descType, desc, f, "");
    if (f >= 3)
      at = LLVMBuildStructGEP2(b, one, at, 0, "");
    LLVMBuildStore(b, fields[f], at);
  }
  LLVMValueRef *args = calloc((size_t)numInputs + 2, sizeof(*args));
  if (!args)
    abort();
  for (intptr_t i = 0; i < numInputs; ++i) {
    LLVMValueRef idx = LLVMConstInt(i64, (unsigned long long)i, false);
    LLVMValueRef slot = LLVMBuildGEP2(b, ptr, LLVMGetParam(fn, 0), &idx, 1, "");
    args[i] = LLVMBuildLoad2(b, ptr, slot, "");
  }
  args[numInputs] = desc;
  if (status)
    LLVMBuildStore(b, LLVMConstInt(i32, 0, false), status);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(callee), callee, args,
                 (unsigned)numInputs + 1, "");
  free(args);
  int64_t k = 0;
  for (intptr_t j = 0; j < numOutputs; ++j) {
    LLVMValueRef idx = LLVMConstInt(i64, (unsigned long long)j, false);
    LLVMValueRef row = LLVMBuildLoad2(
        b, ptr, LLVMBuildGEP2(b, ptr, LLVMGetParam(fn, 1), &idx, 1, ""), "");
    for (int64_t d = 0; d < kilnModelSignatureGetOutputRank(sig, j); ++d, ++k) {
      LLVMValueRef at[2] = {LLVMConstInt(i64, 0, false),
                            LLVMConstInt(i64, (unsigned long long)k, false)};
      LLVMValueRef v =
          LLVMBuildLoad2(b, i64, LLVMBuildGEP2(b, bufType, buf, at, 2, ""), "");
      LLVMValueRef di = LLVMConstInt(i64, (unsigned long long)d, false);
      LLVMBuildStore(b, v, LLVMBuildGEP2(b, i64, row, &di, 1, ""));
    }
  }
  LLVMBuildRet(b, status ? LLVMBuildLoad2(b, i32, status, "")
                         : LLVMConstInt(i32, 0, false));
  LLVMDisposeBuilder(b);
}

/* Makes every definition internal: only the ABI symbols stay exported. */
static void internalize(LLVMModuleRef m) {
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f; f = LLVMGetNextFunction(f))
    if (!LLVMIsDeclaration(f))
      LLVMSetLinkage(f, LLVMInternalLinkage);
  for (LLVMValueRef g = LLVMGetFirstGlobal(m); g; g = LLVMGetNextGlobal(g))
    if (!LLVMIsDeclaration(g))
      LLVMSetLinkage(g, LLVMInternalLinkage);
}

/* Replaces the global constructor (or destructor) list `list` by an
 * exported function `name` that calls them in order. MLIR's GPU lowering
 * loads (unloads) the kernel modules in global constructors (destructors);
 * as constructors they would run inside dlopen, before the runtime has
 * connected the library to the CUDA driver (runtime/gpu.c), so the runtime
 * calls `name` itself. Without a list, `name` does nothing. */
static void exportConstructors(LLVMModuleRef m, const char *list,
                               const char *name) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef voidFn =
      LLVMFunctionType(LLVMVoidTypeInContext(ctx), NULL, 0, false);
  LLVMValueRef fn = LLVMAddFunction(m, name, voidFn);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, fn, ""));
  LLVMValueRef g = LLVMGetNamedGlobal(m, list);
  LLVMValueRef init = g ? LLVMGetInitializer(g) : NULL;
  int n = init ? LLVMGetNumOperands(init) : 0;
  for (int i = 0; i < n; ++i) {
    /* { i32 priority, ptr function, ptr data } */
    LLVMValueRef ctor = LLVMGetOperand(LLVMGetOperand(init, (unsigned)i), 1);
    LLVMBuildCall2(b, voidFn, ctor, NULL, 0, "");
  }
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  if (g)
    LLVMDeleteGlobal(g);
}

/* The status word global `name` of kiln-runtime-checks, or NULL. */
static LLVMValueRef statusWord(LLVMModuleRef m, const char *name) {
  LLVMValueRef status = name ? LLVMGetNamedGlobal(m, name) : NULL;
  return status && !LLVMIsDeclaration(status) ? status : NULL;
}

/* At `b`'s block of kiln_model_run `run`: when the inputs' dims are the
 * fast path `e`'s, call its entry with `args` and return its status (its
 * check numbers shifted past the ones before it); else go on in a new
 * block, where `b` is left. False after reporting. */
static bool addSpecializedCall(LLVMModuleRef m, LLVMBuilderRef b,
                               LLVMValueRef run, const KilnSpecializedEntry *e,
                               LLVMValueRef *args, unsigned numArgs,
                               MlirStringCallback err, void *errUd) {
  LLVMValueRef callee = LLVMGetNamedFunction(m, e->entry);
  if (!callee || LLVMIsDeclaration(callee) ||
      LLVMCountParams(callee) != numArgs) {
    kilnCompileReport(err, errUd,
                      "internal error: the specialization %s has no entry "
                      "%s taking %u memref descriptors",
                      e->description, e->entry, numArgs);
    return false;
  }
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  LLVMTypeRef i1 = LLVMInt1TypeInContext(ctx);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  /* KilnMemRefDesc: two pointers and the offset, then sizes[rank]. */
  LLVMValueRef match = LLVMConstInt(i1, 1, false);
  for (intptr_t j = 0; j < e->numDims; ++j) {
    const KilnSpecializedDim *d = &e->dims[j];
    LLVMValueRef at = LLVMConstInt(i64, 3 + (unsigned long long)d->dim, false);
    LLVMValueRef size = LLVMBuildLoad2(
        b, i64, LLVMBuildGEP2(b, i64, args[d->input], &at, 1, ""), "");
    LLVMValueRef eq =
        LLVMBuildICmp(b, LLVMIntEQ, size,
                      LLVMConstInt(i64, (unsigned long long)d->size, 0), "");
    match = LLVMBuildAnd(b, match, eq, "");
  }
  LLVMBasicBlockRef call = LLVMAppendBasicBlockInContext(ctx, run, "");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(ctx, run, "");
  LLVMBuildCondBr(b, match, call, next);
  LLVMPositionBuilderAtEnd(b, call);
  LLVMValueRef status = statusWord(m, e->statusSymbol);
  LLVMValueRef zero = LLVMConstInt(i32, 0, false);
  if (status)
    LLVMBuildStore(b, zero, status);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(callee), callee, args, numArgs, "");
  if (status) {
    LLVMValueRef failed = LLVMBuildLoad2(b, i32, status, "");
    LLVMValueRef shifted = LLVMBuildAdd(
        b, failed, LLVMConstInt(i32, (unsigned long long)e->firstCheck, 0), "");
    LLVMBuildRet(
        b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, failed, zero, ""),
                           zero, shifted, ""));
  } else {
    LLVMBuildRet(b, zero);
  }
  LLVMPositionBuilderAtEnd(b, next);
  return true;
}

/* Adds kiln_model_metadata and kiln_model_run; false after reporting. */
static bool addAbiSymbols(LLVMModuleRef m, const KilnCompileOptions *o,
                          const char *records, const char *profile,
                          const WeightRows *rows, MlirStringCallback err,
                          void *errUd) {
  const char *entry = kilnModelSignatureGetEntry(o->signature);
  KilnStrBuf ciface = {0};
  kilnStrBufAppendf(&ciface, "_mlir_ciface_%s", entry);
  LLVMValueRef callee = LLVMGetNamedFunction(m, kilnStrBufGet(&ciface));
  unsigned numArgs = (unsigned)(kilnModelSignatureGetNumInputs(o->signature) +
                                kilnModelSignatureGetNumOutputs(o->signature));
  LLVMTypeRef calleeType = callee ? LLVMGlobalGetValueType(callee) : NULL;
  bool ok = callee && !LLVMIsDeclaration(callee) &&
            LLVMCountParamTypes(calleeType) == numArgs;
  if (!ok) {
    kilnCompileReport(
        err, errUd,
        "the lowered module has no definition of %s taking %u memref "
        "descriptors (one per input and output); was it lowered with "
        "linalg-to-llvm-cpu?",
        kilnStrBufGet(&ciface), numArgs);
    kilnStrBufDestroy(&ciface);
    return false;
  }
  kilnStrBufDestroy(&ciface);
  bool gpu = kilnTargetGetGpuArch(o->target) != NULL;
  if (gpu) {
    exportConstructors(m, "llvm.global_ctors", "kiln.gpu.load");
    exportConstructors(m, "llvm.global_dtors", "kiln.gpu.unload");
  }
  internalize(m);
  /* A model's own (now internal) symbol of an ABI name steps aside, so
   * that the ABI symbols get their exact names. */
  for (const char *const *name = kilnModelAbiSymbols; *name; ++name) {
    LLVMValueRef clash = LLVMGetNamedFunction(m, *name);
    if (!clash)
      clash = LLVMGetNamedGlobal(m, *name);
    if (clash && !LLVMIsDeclaration(clash))
      LLVMSetValueName2(clash, "kiln.model.renamed", 18);
  }

  LLVMContextRef ctx = LLVMGetModuleContext(m);
  KilnStrBuf text = {0};
  buildMetadata(&text, o, records, profile);
  LLVMValueRef init =
      LLVMConstStringInContext2(ctx, text.data, text.len, /*NoNul=*/false);
  LLVMValueRef meta = LLVMAddGlobal(m, LLVMTypeOf(init), "kiln_model_metadata");
  LLVMSetInitializer(meta, init);
  LLVMSetGlobalConstant(meta, true);
  LLVMSetLinkage(meta, LLVMExternalLinkage);
  kilnStrBufDestroy(&text);
  if (profile)
    exportProfileCounters(m);
  exportWeightRows(m, rows);
  if (gpu) {
    /* Built internal above (named apart from any model symbol), exported
     * now under their ABI names. */
    LLVMValueRef load = LLVMGetNamedFunction(m, "kiln.gpu.load");
    LLVMValueRef unload = LLVMGetNamedFunction(m, "kiln.gpu.unload");
    LLVMSetValueName2(load, "kiln_model_gpu_load", 19);
    LLVMSetValueName2(unload, "kiln_model_gpu_unload", 21);
    LLVMSetLinkage(load, LLVMExternalLinkage);
    LLVMSetLinkage(unload, LLVMExternalLinkage);
    /* kiln-gpu-device-memory's function uploading every constant, which
     * the runtime calls at load (a model without constants has none). */
    LLVMValueRef upload = LLVMGetNamedFunction(m, "kiln_gpu_upload_constants");
    if (upload && !LLVMIsDeclaration(upload)) {
      LLVMSetValueName2(upload, "kiln_model_gpu_upload", 21);
      LLVMSetLinkage(upload, LLVMExternalLinkage);
    }
  }

  LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(ctx);
  LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
  LLVMValueRef run =
      LLVMAddFunction(m, "kiln_model_run", LLVMFunctionType(i32, &ptr, 1, 0));
  LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, run, ""));
  LLVMValueRef *args = calloc(numArgs + 1, sizeof(*args));
  if (!args)
    abort();
  for (unsigned i = 0; i < numArgs; ++i) {
    LLVMValueRef idx = LLVMConstInt(i64, i, false);
    LLVMValueRef slot =
        LLVMBuildGEP2(b, ptr, LLVMGetParam(run, 0), &idx, 1, "");
    args[i] = LLVMBuildLoad2(b, ptr, slot, "");
  }
  for (intptr_t k = 0; ok && k < o->numSpecialized; ++k)
    ok = addSpecializedCall(m, b, run, &o->specialized[k], args, numArgs, err,
                            errUd);
  /* kiln-runtime-checks' status word: zeroed before the run, returned. */
  LLVMValueRef status = statusWord(m, KILN_CHECK_STATUS_SYMBOL);
  if (status)
    LLVMBuildStore(b, LLVMConstInt(i32, 0, false), status);
  LLVMBuildCall2(b, calleeType, callee, args, numArgs, "");
  LLVMBuildRet(b, status ? LLVMBuildLoad2(b, i32, status, "")
                         : LLVMConstInt(i32, 0, false));
  free(args);
  LLVMDisposeBuilder(b);
  addOutputDims(m, o->signature, status);
  return ok;
}

/* Sets the CPU and features on every definition, so the optimizer's cost
 * models see the same target as the back end. */
static void setTargetAttributes(LLVMModuleRef m, const KilnTarget *t) {
  LLVMContextRef ctx = LLVMGetModuleContext(m);
  const char *cpu = kilnTargetGetCPU(t), *features = kilnTargetGetFeatures(t);
  for (LLVMValueRef f = LLVMGetFirstFunction(m); f;
       f = LLVMGetNextFunction(f)) {
    if (LLVMIsDeclaration(f))
      continue;
    LLVMAddAttributeAtIndex(
        f, LLVMAttributeFunctionIndex,
        LLVMCreateStringAttribute(ctx, "target-cpu", 10, cpu, strlen(cpu)));
    if (*features)
      LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                              LLVMCreateStringAttribute(ctx, "target-features",
                                                        15, features,
                                                        strlen(features)));
  }
}

/* Verifies and optimizes `m`; false after reporting. */
static bool optimize(LLVMModuleRef m, LLVMTargetMachineRef tm, int level,
                     MlirStringCallback err, void *errUd) {
  char *why = NULL;
  if (LLVMVerifyModule(m, LLVMReturnStatusAction, &why)) {
    kilnCompileReport(err, errUd, "internal error: invalid LLVM IR: %s", why);
    LLVMDisposeMessage(why);
    return false;
  }
  LLVMDisposeMessage(why);
  /* mergefunc first: the layers of a model lower to identical kernels
   * (their weights reach the OpenMP bodies through captured pointers), and
   * merging them before the optimizer spares it and the back end most of
   * their work; the pipeline's own mergefunc then merges what became
   * identical. */
  char passes[32];
  snprintf(passes, sizeof(passes), "mergefunc,default<O%d>", level);
  LLVMPassBuilderOptionsRef pbo = LLVMCreatePassBuilderOptions();
  LLVMPassBuilderOptionsSetMergeFunctions(pbo, 1);
  LLVMErrorRef e = LLVMRunPasses(m, passes, tm, pbo);
  LLVMDisposePassBuilderOptions(pbo);
  if (e) {
    char *msg = LLVMGetErrorMessage(e);
    kilnCompileReport(err, errUd, "LLVM optimization failed: %s", msg);
    LLVMDisposeErrorMessage(msg);
    return false;
  }
  return true;
}

/* Passes the requested output of `m` to `out`; false after reporting. */
static bool emit(LLVMModuleRef m, LLVMTargetMachineRef tm, KilnCompileEmit kind,
                 MlirStringCallback out, void *outUd, MlirStringCallback err,
                 void *errUd) {
  if (kind == KILN_COMPILE_EMIT_LLVM_IR) {
    char *text = LLVMPrintModuleToString(m);
    out(mlirStringRefCreateFromCString(text), outUd);
    LLVMDisposeMessage(text);
    return true;
  }
  if (kind == KILN_COMPILE_EMIT_OBJECT)
    kilnRetypeDataAsBytes(m);
  char *why = NULL;
  LLVMMemoryBufferRef buf = NULL;
  if (LLVMTargetMachineEmitToMemoryBuffer(
          tm, m,
          kind == KILN_COMPILE_EMIT_ASM ? LLVMAssemblyFile : LLVMObjectFile,
          &why, &buf)) {
    kilnCompileReport(err, errUd, "code generation failed: %s", why ? why : "");
    LLVMDisposeMessage(why);
    return false;
  }
  out(mlirStringRefCreate(LLVMGetBufferStart(buf), LLVMGetBufferSize(buf)),
      outUd);
  LLVMDisposeMemoryBuffer(buf);
  return true;
}

/* The LLVM IR of one compilation, optimized, and its target machine. */
typedef struct Optimized {
  LLVMContextRef ctx;
  LLVMModuleRef module;
  LLVMTargetMachineRef tm;
} Optimized;

static void optimizedDestroy(Optimized *r) {
  if (r->tm)
    LLVMDisposeTargetMachine(r->tm);
  if (r->module)
    LLVMDisposeModule(r->module);
  LLVMContextDispose(r->ctx);
}

/* Translates `module`, adds the ABI and optimizes it into *r (always
 * destroy it); false after reporting. */
static bool translateAndOptimize(MlirModule module,
                                 const KilnCompileOptions *options,
                                 const WeightRows *rows, Optimized *r,
                                 MlirStringCallback err, void *errUd) {
  const KilnTarget *target = options->target;
  MlirOperation op = mlirModuleGetOperation(module);
  stage(options, "translate to LLVM IR");
  mlirRegisterAllLLVMTranslations(mlirOperationGetContext(op));
  *r = (Optimized){.ctx = LLVMContextCreate()};
  r->module = mlirTranslateModuleToLLVMIR(op, r->ctx);
  if (!r->module) {
    kilnCompileReport(
        err, errUd,
        "cannot translate the module to LLVM IR (is it fully lowered to "
        "the LLVM dialect?)");
    return false;
  }
  r->tm = kilnTargetCreateMachine(target);
  LLVMSetTarget(r->module, kilnTargetGetTriple(target));
  LLVMTargetDataRef layout = LLVMCreateTargetDataLayout(r->tm);
  LLVMSetModuleDataLayout(r->module, layout);
  LLVMDisposeTargetData(layout);
  KilnStrBuf profile = {0}, records = {0};
  bool ok = addAbiSymbols(r->module, options, moduleRecords(module, &records),
                          profileRecords(module, &profile), rows, err, errUd);
  kilnStrBufDestroy(&profile);
  kilnStrBufDestroy(&records);
  if (!ok)
    return false;
  setTargetAttributes(r->module, target);
  stage(options, "optimize LLVM IR");
  return optimize(r->module, r->tm, kilnTargetGetOptLevel(target), err, errUd);
}

MlirLogicalResult
kilnCompileToObject(MlirModule module, const KilnCompileOptions *options,
                    MlirStringCallback outputCallback, void *outputUserData,
                    MlirStringCallback errorCallback, void *errorUserData) {
  WeightRows rows;
  weightRowsCollect(module, &rows);
  Optimized r;
  bool ok = translateAndOptimize(module, options, &rows, &r, errorCallback,
                                 errorUserData);
  weightRowsDestroy(&rows);
  if (ok) {
    if (options->emit != KILN_COMPILE_EMIT_LLVM_IR)
      stage(options, "generate code");
    ok = emit(r.module, r.tm, options->emit, outputCallback, outputUserData,
              errorCallback, errorUserData);
  }
  optimizedDestroy(&r);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

MlirLogicalResult
kilnCompileToObjects(MlirModule module, const KilnCompileOptions *options,
                     unsigned numThreads, KilnCompileObjectFn objectCallback,
                     void *objectUserData, MlirStringCallback errorCallback,
                     void *errorUserData) {
  /* The weights are translated as declarations and written into the
   * objects from their MLIR buffers: the LLVM constants would copy them
   * (CPU targets; a CUDA module uploads its constants itself). */
  WeightRows rows;
  weightRowsCollect(module, &rows);
  KilnDetachedData *detached =
      kilnTargetGetGpuArch(options->target)
          ? NULL
          : kilnDetachedDataCreate(module, kKilnLargeDataBytes);
  Optimized r;
  bool ok = translateAndOptimize(module, options, &rows, &r, errorCallback,
                                 errorUserData);
  weightRowsDestroy(&rows);
  kilnDetachedDataRestore(detached);
  if (ok) {
    stage(options, "generate code");
    LLVMModuleRef m = r.module;
    r.module = NULL; /* consumed */
    ok = kilnSplitCodegen(m, r.tm, options->target, detached, numThreads,
                          objectCallback, objectUserData, errorCallback,
                          errorUserData);
  }
  optimizedDestroy(&r);
  kilnDetachedDataDestroy(detached);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

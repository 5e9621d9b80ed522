/* Device memory for the GPU pipeline (docs/gpu-codegen.md).
 *
 * The entry function keeps its host ABI (caller-allocated host buffers,
 * docs/runtime.md) while every kernel reads and writes device memory.
 * Two passes arrange that around the upstream buffer passes:
 *
 * kiln-gpu-stage-io (right after bufferization, results still returned):
 * each argument of a public function is copied into a new buffer before
 * its first use, and each returned buffer is copied into a new buffer that
 * is returned instead. Both copies carry `kiln.gpu.transfer`. The returned
 * copy is a static allocation, so buffer-results-to-out-params turns it
 * into the caller's output buffer: the copy then writes the host output.
 *
 * kiln-gpu-device-memory (after buffer deallocation): every host-side
 * memref.alloc / dealloc becomes gpu.alloc / gpu.dealloc, the marked copies
 * and plain identity-layout copies become gpu.memcpy, and each constant
 * (memref.get_global) becomes a call to the runtime's
 * `kiln_gpu_constant_<type>`, which returns the device copy of the
 * constant, uploaded once and kept while the model is loaded; the same
 * calls in `kiln_gpu_upload_constants()` (exported as
 * kiln_model_gpu_upload, called by the runtime at load) upload them all
 * before the first run. All of these are later made asynchronous on one
 * stream by gpu-async-region. Buffer accesses in host code (the
 * deallocation helpers of loops carrying buffers) are refused. */
#include "kiln/passes.h"

#include <stdio.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/Dialect/GPU.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

static const char *const kTransferAttr = "kiln.gpu.transfer";

/* A copy `src` → new allocation of `src`'s type, before `before`. Returns
 * the allocation. */
static MlirValue insertStagingCopy(MlirOperation before, MlirValue src) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType type = mlirValueGetType(src);
  MlirNamedAttribute seg =
      kilnSegmentSizesAttr(ctx, 2, (const int32_t[]){0, 0});
  MlirOperation alloc =
      kilnInsertOp(before, "memref.alloc", 0, NULL, 1, &type, 1, &seg);
  MlirValue operands[2] = {src, mlirOperationGetResult(alloc, 0)};
  MlirNamedAttribute mark = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr(kTransferAttr)), mlirUnitAttrGet(ctx));
  kilnInsertOp(before, "memref.copy", 2, operands, 0, NULL, 1, &mark);
  return operands[1];
}

static void stageFunction(MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    if (!mlirTypeIsAMemRef(mlirValueGetType(arg)))
      continue;
    MlirValue staged = insertStagingCopy(first, arg);
    /* Every use but the staging copy (the allocation's only use so far)
     * now reads the staged buffer. */
    MlirOperation copy = mlirOpOperandGetOwner(mlirValueGetFirstUse(staged));
    mlirValueReplaceAllUsesOfWith(arg, staged);
    mlirOperationSetOperand(copy, 0, arg);
  }
  MlirOperation ret = mlirBlockGetTerminator(entry);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(ret); ++i) {
    MlirValue v = mlirOperationGetOperand(ret, i);
    if (mlirTypeIsAMemRef(mlirValueGetType(v)))
      mlirOperationSetOperand(ret, i, insertStagingCopy(ret, v));
  }
}

static void runStageIO(MlirOperation module, MlirExternalPass pass,
                       const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  MlirBlock body = mlirModuleGetBody(mlirModuleFromOperation(module));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (kilnFuncIsPublicDefinition(op))
      stageFunction(op);
}

static const KilnDialectHandleGetter kMemRefDialect[] = {
    mlirGetDialectHandle__memref__};

const KilnPassInfo kilnGpuStageIOPass = {
    .argument = "kiln-gpu-stage-io",
    .summary = "Copy a public function's argument and result buffers "
               "through marked staging buffers (GPU pipeline)",
    .anchor = "builtin.module",
    .run = runStageIO,
    .dependentDialects = kMemRefDialect,
    .numDependentDialects = 1,
};

//===----------------------------------------------------------------------===//
// kiln-gpu-device-memory
//===----------------------------------------------------------------------===//

typedef struct DeviceOps {
  KilnOpList allocs, deallocs, copies, globals;
} DeviceOps;

static MlirWalkResult collectDeviceOps(MlirOperation op, void *userData) {
  DeviceOps *ops = userData;
  if (kilnOpNameIs(op, "gpu.module") || kilnOpNameIs(op, "gpu.launch"))
    return MlirWalkResultSkip;
  if (kilnOpNameIs(op, "memref.alloc"))
    kilnOpListPush(&ops->allocs, op);
  else if (kilnOpNameIs(op, "memref.dealloc"))
    kilnOpListPush(&ops->deallocs, op);
  else if (kilnOpNameIs(op, "memref.copy"))
    kilnOpListPush(&ops->copies, op);
  else if (kilnOpNameIs(op, "memref.get_global"))
    kilnOpListPush(&ops->globals, op);
  return MlirWalkResultAdvance;
}

static void replaceOp(MlirOperation old, MlirOperation replacement) {
  if (mlirOperationGetNumResults(old))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(old, 0),
                                  mlirOperationGetResult(replacement, 0));
  mlirOperationDestroy(old);
}

static void rewriteAlloc(MlirOperation alloc) {
  MlirContext ctx = mlirOperationGetContext(alloc);
  intptr_t nDyn = mlirOperationGetNumOperands(alloc);
  MlirValue dyn[16];
  for (intptr_t i = 0; i < nDyn && i < 16; ++i)
    dyn[i] = mlirOperationGetOperand(alloc, i);
  MlirType type = mlirValueGetType(mlirOperationGetResult(alloc, 0));
  MlirNamedAttribute seg = kilnSegmentSizesAttr(
      ctx, 3, (const int32_t[]){0, (int32_t)(nDyn < 16 ? nDyn : 16), 0});
  replaceOp(alloc, kilnInsertOp(alloc, "gpu.alloc", nDyn < 16 ? nDyn : 16, dyn,
                                1, &type, 1, &seg));
}

static void rewriteDealloc(MlirOperation dealloc) {
  MlirValue buf = mlirOperationGetOperand(dealloc, 0);
  replaceOp(dealloc,
            kilnInsertOp(dealloc, "gpu.dealloc", 1, &buf, 0, NULL, 0, NULL));
}

/* A copy between identity-layout buffers (the staging copies, and plain
 * copies bufferization made) is one gpu.memcpy; a strided one was turned
 * into a kernel by kiln-memref-copy-to-linalg. */
static void rewriteCopy(MlirOperation copy) {
  MlirValue src = mlirOperationGetOperand(copy, 0);
  MlirValue dst = mlirOperationGetOperand(copy, 1);
  if (!mlirAffineMapIsIdentity(
          mlirMemRefTypeGetAffineMap(mlirValueGetType(src))) ||
      !mlirAffineMapIsIdentity(
          mlirMemRefTypeGetAffineMap(mlirValueGetType(dst))))
    return;
  MlirValue operands[2] = {dst, src};
  replaceOp(copy,
            kilnInsertOp(copy, "gpu.memcpy", 2, operands, 0, NULL, 0, NULL));
}

/* The suffix of the runtime's constant function for `element`, or NULL
 * when the runtime has none. */
static const char *constantSuffix(MlirType element) {
  if (mlirTypeIsAF16(element))
    return "f16";
  if (mlirTypeIsABF16(element))
    return "bf16";
  if (mlirTypeIsAF32(element))
    return "f32";
  if (mlirTypeIsAF64(element))
    return "f64";
  if (mlirTypeIsAInteger(element)) {
    switch (mlirIntegerTypeGetWidth(element)) {
    case 1:
      return "i1";
    case 8:
      return "i8";
    case 16:
      return "i16";
    case 32:
      return "i32";
    case 64:
      return "i64";
    }
  }
  return NULL;
}

/* The declaration `func.func private @name(memref<?xT>) -> memref<?xT>`
 * with the C interface, created at the end of `module` if missing. */
static void declareConstantFunction(MlirOperation module, const char *name,
                                    MlirType flatType) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirBlock body = mlirModuleGetBody(mlirModuleFromOperation(module));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym =
        mlirOperationGetAttributeByName(op, kilnStr("sym_name"));
    if (!mlirAttributeIsNull(sym) &&
        kilnStringRefEquals(mlirStringAttrGetValue(sym), name))
      return;
  }
  MlirType fnType = mlirFunctionTypeGet(ctx, 1, &flatType, 1, &flatType);
  MlirNamedAttribute attrs[] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("sym_name")),
                            mlirStringAttrGet(ctx, kilnStr(name))),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("function_type")),
                            mlirTypeAttrGet(fnType)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("sym_visibility")),
                            mlirStringAttrGet(ctx, kilnStr("private"))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("llvm.emit_c_interface")),
          mlirUnitAttrGet(ctx)),
  };
  MlirOperationState st = mlirOperationStateGet(
      kilnStr("func.func"), mlirOperationGetLocation(module));
  mlirOperationStateAddAttributes(&st, 4, attrs);
  MlirRegion region = mlirRegionCreate();
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  mlirBlockAppendOwnedOperation(body, mlirOperationCreate(&st));
}

/* memref.reinterpret_cast of `src` to `type` (static shape, identity
 * strides, offset 0), before `before`. */
static MlirValue reinterpret(MlirOperation before, MlirValue src,
                             MlirType type) {
  MlirContext ctx = mlirOperationGetContext(before);
  intptr_t rank = mlirShapedTypeGetRank(type);
  int64_t sizes[16], strides[16], offset = 0;
  int64_t stride = 1;
  for (intptr_t d = rank - 1; d >= 0; --d) {
    sizes[d] = mlirShapedTypeGetDimSize(type, d);
    strides[d] = stride;
    stride *= sizes[d];
  }
  MlirNamedAttribute attrs[] = {
      kilnSegmentSizesAttr(ctx, 4, (const int32_t[]){1, 0, 0, 0}),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_offsets")),
                            mlirDenseI64ArrayGet(ctx, 1, &offset)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_sizes")),
                            mlirDenseI64ArrayGet(ctx, rank, sizes)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_strides")),
                            mlirDenseI64ArrayGet(ctx, rank, strides)),
  };
  MlirOperation op = kilnInsertOp(before, "memref.reinterpret_cast", 1, &src, 1,
                                  &type, 4, attrs);
  return mlirOperationGetResult(op, 0);
}

/* Inserts, before `before`, the runtime call giving the device copy of the
 * constant `host` (a get_global result): the constant flattened to
 * memref<?xT>, `kiln_gpu_constant_T` called on it. Returns the call's
 * result (the device copy, flat), or a null value after an error for an
 * element type the runtime lacks. */
static MlirValue insertConstantCall(MlirOperation module, MlirOperation before,
                                    MlirValue host, MlirLocation loc) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType type = mlirValueGetType(host);
  MlirType element = mlirShapedTypeGetElementType(type);
  const char *suffix = constantSuffix(element);
  if (!suffix || !mlirShapedTypeHasStaticShape(type) ||
      mlirShapedTypeGetRank(type) > 16) {
    KilnStrBuf msg = {0};
    kilnStrBufAppendType(&msg, type);
    kilnEmitErrorf(loc,
                   "kiln-gpu-device-memory: constants of type %s cannot be "
                   "placed in device memory yet",
                   kilnStrBufGet(&msg));
    kilnStrBufDestroy(&msg);
    return (MlirValue){NULL};
  }
  char name[64];
  snprintf(name, sizeof(name), "kiln_gpu_constant_%s", suffix);
  int64_t n = 1;
  for (intptr_t d = 0; d < mlirShapedTypeGetRank(type); ++d)
    n *= mlirShapedTypeGetDimSize(type, d);
  MlirAttribute noLayout = mlirAttributeGetNull();
  MlirType flat = mlirMemRefTypeGet(element, 1, &n, noLayout, noLayout);
  int64_t dynSize = mlirShapedTypeGetDynamicSize();
  MlirType dynFlat =
      mlirMemRefTypeGet(element, 1, &dynSize, noLayout, noLayout);
  declareConstantFunction(module, name, dynFlat);
  MlirValue v = reinterpret(before, host, flat);
  v = mlirOperationGetResult(
      kilnInsertOp(before, "memref.cast", 1, &v, 1, &dynFlat, 0, NULL), 0);
  MlirNamedAttribute callee =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("callee")),
                            mlirFlatSymbolRefAttrGet(ctx, kilnStr(name)));
  return mlirOperationGetResult(
      kilnInsertOp(before, "func.call", 1, &v, 1, &dynFlat, 1, &callee), 0);
}

/* get_global @w : memref<AxBxT> becomes
 *   %flat = reinterpret_cast %host to memref<NxT>; %dyn = memref.cast
 *   %dev = call @kiln_gpu_constant_T(%dyn); %r = reinterpret_cast to AxBxT
 * and every use of the constant reads %r. False after an error. */
static bool rewriteGlobal(MlirOperation module, MlirOperation get) {
  MlirValue host = mlirOperationGetResult(get, 0);
  MlirOperation next = mlirOperationGetNextInBlock(get);
  MlirValue flat =
      insertConstantCall(module, next, host, mlirOperationGetLocation(get));
  if (mlirValueIsNull(flat))
    return false;
  /* The ops just inserted, from the flattening cast on, use `host`. */
  MlirOperation first = mlirOperationGetNextInBlock(get);
  MlirValue device = reinterpret(next, flat, mlirValueGetType(host));
  mlirValueReplaceAllUsesOfWith(host, device);
  mlirOperationSetOperand(first, 0, host);
  return true;
}

/* `kiln_gpu_upload_constants()`: calls the runtime for every constant
 * `globals` read, so that the runtime (calling it at model load, as
 * kiln_model_gpu_upload) uploads the weights once, before the first run.
 * The entry's own calls then find them uploaded. */
static void buildUploadFunction(MlirOperation module,
                                const KilnOpList *globals) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirType fnType = mlirFunctionTypeGet(ctx, 0, NULL, 0, NULL);
  MlirNamedAttribute attrs[] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("sym_name")),
          mlirStringAttrGet(ctx, kilnStr("kiln_gpu_upload_constants"))),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("function_type")),
                            mlirTypeAttrGet(fnType)),
  };
  MlirBlock entry = mlirBlockCreate(0, NULL, NULL);
  MlirOperationState ret = mlirOperationStateGet(kilnStr("func.return"), loc);
  MlirOperation end = mlirOperationCreate(&ret);
  mlirBlockAppendOwnedOperation(entry, end);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, entry);
  MlirOperationState st = mlirOperationStateGet(kilnStr("func.func"), loc);
  mlirOperationStateAddAttributes(&st, 2, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  mlirBlockAppendOwnedOperation(
      mlirModuleGetBody(mlirModuleFromOperation(module)),
      mlirOperationCreate(&st));
  KilnOpList seen = {0}; /* one get_global per symbol */
  for (size_t i = 0; i < globals->len; ++i) {
    MlirAttribute sym =
        mlirOperationGetAttributeByName(globals->data[i], kilnStr("name"));
    bool dup = false;
    for (size_t j = 0; j < seen.len && !dup; ++j)
      dup = mlirAttributeEqual(
          sym, mlirOperationGetAttributeByName(seen.data[j], kilnStr("name")));
    if (dup)
      continue;
    kilnOpListPush(&seen, globals->data[i]);
    MlirOperation get = mlirOperationClone(globals->data[i]);
    mlirBlockInsertOwnedOperationBefore(entry, end, get);
    insertConstantCall(module, end, mlirOperationGetResult(get, 0),
                       mlirOperationGetLocation(get));
  }
  kilnOpListDestroy(&seen);
}

/* Sets *userData when `op` reads or writes a buffer. */
static MlirWalkResult findBufferAccess(MlirOperation op, void *userData) {
  if (!kilnOpNameIs(op, "memref.load") && !kilnOpNameIs(op, "memref.store"))
    return MlirWalkResultAdvance;
  *(bool *)userData = true;
  return MlirWalkResultInterrupt;
}

typedef struct HostCalls {
  MlirSymbolTable table; /* the module's */
  MlirOperation bad;     /* the first call of a buffer-accessing helper */
} HostCalls;

static MlirWalkResult findHostCalls(MlirOperation op, void *userData) {
  HostCalls *h = userData;
  if (!kilnOpNameIs(op, "func.call"))
    return MlirWalkResultAdvance;
  MlirAttribute callee = mlirOperationGetAttributeByName(op, kilnStr("callee"));
  MlirOperation fn =
      mlirSymbolTableLookup(h->table, mlirFlatSymbolRefAttrGetValue(callee));
  bool accesses = false;
  if (!mlirOperationIsNull(fn))
    mlirOperationWalk(fn, findBufferAccess, &accesses, MlirWalkPreOrder);
  if (!accesses)
    return MlirWalkResultAdvance;
  h->bad = op;
  return MlirWalkResultInterrupt;
}

/* Host helpers that read buffers (buffer deallocation's run-time ownership
 * tracking, which loops carrying tensors from one iteration to the next
 * need: ONNX Loop, Scan) would read device memory on the host. Returns
 * false after an error at the first call of one. */
static bool checkHostHelpers(MlirOperation module) {
  HostCalls h = {mlirSymbolTableCreate(module), {NULL}};
  MlirBlock body = mlirModuleGetBody(mlirModuleFromOperation(module));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op) && mlirOperationIsNull(h.bad);
       op = mlirOperationGetNextInBlock(op))
    if (kilnFuncIsPublicDefinition(op))
      mlirOperationWalk(op, findHostCalls, &h, MlirWalkPreOrder);
  mlirSymbolTableDestroy(h.table);
  if (mlirOperationIsNull(h.bad))
    return true;
  /* The call has no location of its own: name the loop before it (the
   * ONNX Loop or Scan node), if any. */
  MlirLocation loc = mlirOperationGetLocation(h.bad);
  for (MlirOperation op =
           mlirBlockGetFirstOperation(mlirOperationGetBlock(h.bad));
       !mlirOperationEqual(op, h.bad); op = mlirOperationGetNextInBlock(op))
    if (kilnOpNameIs(op, "scf.for") || kilnOpNameIs(op, "scf.while"))
      loc = mlirOperationGetLocation(op);
  kilnEmitErrorf(loc,
                 "kiln-gpu-device-memory: this model needs host code that "
                 "reads buffers (run-time buffer ownership, as for a loop "
                 "carrying tensors from one iteration to the next: ONNX Loop "
                 "or Scan), which the GPU path does not support yet");
  return false;
}

/* Whether every use of the host buffer `v` (a public function's argument,
 * or a view of one) is a gpu.memcpy: anything else would make a kernel or
 * the host code touch a buffer of the wrong space. */
static bool onlyTransfers(MlirValue v) {
  static const char *const kViews[] = {"memref.subview", "memref.expand_shape",
                                       "memref.collapse_shape", "memref.cast",
                                       "memref.reinterpret_cast"};
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (kilnOpNameIs(user, "gpu.memcpy"))
      continue;
    bool view = false;
    for (size_t i = 0; i < sizeof(kViews) / sizeof(kViews[0]); ++i)
      view |= kilnOpNameIs(user, kViews[i]);
    if (!view || !onlyTransfers(mlirOperationGetResult(user, 0)))
      return false;
  }
  return true;
}

/* The invariant the kernels rely on: host buffers are only copied. A
 * violation is a bug in the passes before (an unstaged access), reported
 * here rather than as a crash on the GPU. */
static bool checkHostBuffers(MlirOperation module) {
  MlirBlock body = mlirModuleGetBody(mlirModuleFromOperation(module));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (!kilnFuncIsPublicDefinition(op))
      continue;
    MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
    for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
      MlirValue arg = mlirBlockGetArgument(entry, i);
      if (mlirTypeIsAMemRef(mlirValueGetType(arg)) && !onlyTransfers(arg)) {
        kilnEmitErrorf(mlirOperationGetLocation(op),
                       "kiln-gpu-device-memory: argument #%d is a host buffer "
                       "used other than by a host/device copy (internal "
                       "error: an unstaged access)",
                       (int)i);
        return false;
      }
    }
  }
  return true;
}

static void runDeviceMemory(MlirOperation module, MlirExternalPass pass,
                            const KilnPassOptionValue *options) {
  (void)options;
  if (!checkHostHelpers(module)) {
    mlirExternalPassSignalFailure(pass);
    return;
  }
  DeviceOps ops = {0};
  MlirBlock body = mlirModuleGetBody(mlirModuleFromOperation(module));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (kilnOpNameIs(op, "func.func"))
      mlirOperationWalk(op, collectDeviceOps, &ops, MlirWalkPreOrder);
  bool ok = true;
  /* Constants first (get_global has no operands): gpu-async-region makes
   * the host wait for the stream before each call, so the calls go before
   * the first asynchronous op. */
  for (size_t i = ops.globals.len; i-- > 0;) {
    MlirOperation get = ops.globals.data[i];
    MlirBlock block = mlirOperationGetBlock(get);
    mlirOperationMoveBefore(get, mlirBlockGetFirstOperation(block));
  }
  if (ops.globals.len)
    buildUploadFunction(module, &ops.globals);
  for (size_t i = 0; i < ops.globals.len && ok; ++i)
    ok = rewriteGlobal(module, ops.globals.data[i]);
  for (size_t i = 0; i < ops.allocs.len && ok; ++i)
    rewriteAlloc(ops.allocs.data[i]);
  for (size_t i = 0; i < ops.deallocs.len && ok; ++i)
    rewriteDealloc(ops.deallocs.data[i]);
  for (size_t i = 0; i < ops.copies.len && ok; ++i)
    rewriteCopy(ops.copies.data[i]);
  kilnOpListDestroy(&ops.allocs);
  kilnOpListDestroy(&ops.deallocs);
  kilnOpListDestroy(&ops.copies);
  kilnOpListDestroy(&ops.globals);
  if (!ok || !checkHostBuffers(module))
    mlirExternalPassSignalFailure(pass);
}

static const KilnDialectHandleGetter kDeviceDialects[] = {
    mlirGetDialectHandle__memref__, mlirGetDialectHandle__gpu__,
    mlirGetDialectHandle__func__};

const KilnPassInfo kilnGpuDeviceMemoryPass = {
    .argument = "kiln-gpu-device-memory",
    .summary = "Allocate host-side buffers in device memory, copies as "
               "gpu.memcpy, constants through the runtime (GPU pipeline)",
    .anchor = "builtin.module",
    .run = runDeviceMemory,
    .dependentDialects = kDeviceDialects,
    .numDependentDialects = 3,
};

/* kiln-instrument-ops: timers around each ONNX node group of the model's
 * entry function, for kiln-compile --profile (docs/kiln-compile.md,
 * "Profiling"), in the spirit of onnx-mlir's --instrument-ops and TVM's
 * debug executor.
 *
 * Runs on buffers (after bufferization and deallocation, before the loops
 * become OpenMP regions). The entry's top-level ops are cut into records:
 * a record is a run of consecutive ops whose locations (their own and
 * those of the ops nested in them) name overlapping sets of ONNX nodes, so
 * a fused group, whose tile loop holds every member's ops, is one record
 * listing them all. Ops that name no node or only move pointers (allocs,
 * views, constants, deallocs) join the record around them. Between two
 * records the pass reads a clock once:
 *
 *   %t0 = func.call @kiln.profile.now() : () -> i64
 *   ... record 0 ...
 *   %t1 = func.call @kiln.profile.now() : () -> i64
 *   func.call @kiln.profile.record(%c0, %t0, %t1) : (index, i64, i64) -> ()
 *   ... record 1 ...
 *
 * so the records cover the whole function; a last record N (the number of
 * records) times the function from its first clock read to its last.
 * @kiln.profile.now reads CLOCK_MONOTONIC through libc's clock_gettime, in
 * nanoseconds; @kiln.profile.record adds the time and a run to row K of
 * the table @kiln.profile.counters (memref<(N+1)x4xi64>: total ns, runs,
 * the last run's ns, the last run's start), which the model library
 * exports as `kiln_model_profile`. The calls are ordinary ops between the
 * top-level ops: later passes keep each record's ops between its calls.
 *
 * The records' description, one metadata line each (docs/runtime.md),
 * goes into the module attribute `kiln.profile.records`:
 *   profile-op K FLOPS RANK D0 ... NNODES TYPE1 NAME1 TYPE2 NAME2 ...
 * with the FLOPs and output type kiln-profile-nodes recorded per node
 * (each node's FLOPs counted in its first record; RANK '-' when unknown)
 * and names escaped (%25 %20 %0A %0D). Nothing happens unless the module
 * carries `kiln.profile`; functions other than the entry are left alone. */
#include "kiln/passes.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/common/diag.h"
#include "dialects/common/ir_build.h"
#include "dialects/linalg/transforms/profile_nodes.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static const char *const kNow = "kiln.profile.now";
static const char *const kRecord = "kiln.profile.record";
static const char *const kCounters = "kiln.profile.counters";
static const char *const kClock = "clock_gettime";

/* ---- records ----------------------------------------------------------------
 */

typedef struct Keys {
  MlirStringRef *data; /* borrowed from the context's identifiers */
  size_t len, cap;
} Keys;

static bool keysContain(const Keys *k, MlirStringRef key) {
  for (size_t i = 0; i < k->len; ++i)
    if (mlirStringRefEqual(k->data[i], key))
      return true;
  return false;
}

static void keysAdd(Keys *k, MlirStringRef key) {
  if (keysContain(k, key))
    return;
  if (k->len == k->cap) {
    k->cap = k->cap ? 2 * k->cap : 4;
    k->data = realloc(k->data, k->cap * sizeof(MlirStringRef));
    if (!k->data)
      abort();
  }
  k->data[k->len++] = key;
}

static void addKey(MlirStringRef key, void *userData) {
  keysAdd(userData, key);
}

static MlirWalkResult collectKeys(MlirOperation op, void *userData) {
  kilnProfileForEachNode(mlirOperationGetLocation(op), addKey, userData);
  return MlirWalkResultAdvance;
}

typedef struct Record {
  Keys keys;         /* in order of first appearance */
  MlirOperation end; /* its last op that names a node */
} Record;

typedef struct Records {
  Record *data;
  size_t len, cap;
} Records;

static void recordsDestroy(Records *r) {
  for (size_t i = 0; i < r->len; ++i)
    free(r->data[i].keys.data);
  free(r->data);
}

/* Ops that compute nothing worth a timer of their own: they join the
 * record around them. */
static bool movesPointersOnly(MlirOperation op) {
  static const char *const kNames[] = {
      "memref.alloc",   "memref.alloca",           "memref.dealloc",
      "memref.subview", "memref.expand_shape",     "memref.collapse_shape",
      "memref.cast",    "memref.reinterpret_cast", "memref.get_global",
      "memref.view",    "memref.assume_alignment", "affine.apply",
      "ub.poison"};
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i)
    if (kilnOpNameIs(op, kNames[i]))
      return true;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return mlirOperationGetNumRegions(op) == 0 &&
         ((name.length > 6 && !memcmp(name.data, "arith.", 6)) ||
          (name.length > 6 && !memcmp(name.data, "index.", 6)));
}

static bool overlaps(const Keys *a, const Keys *b) {
  for (size_t i = 0; i < b->len; ++i)
    if (keysContain(a, b->data[i]))
      return true;
  return false;
}

/* Cuts the body of `entry` into records. */
static void formRecords(MlirBlock body, Records *out) {
  Keys keys = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    if (movesPointersOnly(op) ||
        mlirOperationIsNull(mlirOperationGetNextInBlock(op)) /* terminator */)
      continue;
    keys.len = 0;
    mlirOperationWalk(op, collectKeys, &keys, MlirWalkPreOrder);
    if (!keys.len)
      continue;
    Record *last = out->len ? &out->data[out->len - 1] : NULL;
    if (!last || !overlaps(&last->keys, &keys)) {
      if (out->len == out->cap) {
        out->cap = out->cap ? 2 * out->cap : 16;
        out->data = realloc(out->data, out->cap * sizeof(Record));
        if (!out->data)
          abort();
      }
      last = &out->data[out->len++];
      *last = (Record){0};
    }
    for (size_t i = 0; i < keys.len; ++i)
      keysAdd(&last->keys, keys.data[i]);
    last->end = op;
  }
  free(keys.data);
}

/* ---- helper functions and the table -----------------------------------------
 */

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute value) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, str(name)), value);
}

/* A private func.func `name` of `type` at the start of `module`, with an
 * entry block when `withBody`; returns it. */
static MlirOperation addFunc(MlirOperation module, const char *name,
                             MlirType type, bool withBody) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirNamedAttribute attrs[3] = {
      named(ctx, "sym_name", mlirStringAttrGet(ctx, str(name))),
      named(ctx, "function_type", mlirTypeAttrGet(type)),
      named(ctx, "sym_visibility", mlirStringAttrGet(ctx, str("private")))};
  MlirRegion region = mlirRegionCreate();
  if (withBody) {
    intptr_t n = mlirFunctionTypeGetNumInputs(type);
    MlirType args[4];
    MlirLocation locs[4];
    for (intptr_t i = 0; i < n && i < 4; ++i) {
      args[i] = mlirFunctionTypeGetInput(type, i);
      locs[i] = loc;
    }
    mlirRegionAppendOwnedBlock(region, mlirBlockCreate(n, args, locs));
  }
  MlirOperationState st = mlirOperationStateGet(str("func.func"), loc);
  mlirOperationStateAddAttributes(&st, 3, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation func = mlirOperationCreate(&st);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  mlirBlockInsertOwnedOperation(top, 0, func);
  return func;
}

static MlirBlock funcBody(MlirOperation func) {
  return mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
}

/* Appends op `name` to `block` (before nothing: at its end). */
static MlirOperation append(MlirBlock block, const char *name, intptr_t nOps,
                            const MlirValue *ops, intptr_t nRes,
                            const MlirType *res, intptr_t nAttrs,
                            const MlirNamedAttribute *attrs) {
  MlirContext ctx = mlirOperationGetContext(mlirBlockGetParentOperation(block));
  MlirOperationState st =
      mlirOperationStateGet(str(name), mlirLocationUnknownGet(ctx));
  mlirOperationStateAddOperands(&st, nOps, ops);
  mlirOperationStateAddResults(&st, nRes, res);
  mlirOperationStateAddAttributes(&st, nAttrs, attrs);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(block, op);
  return op;
}

static MlirValue appendConstant(MlirBlock block, MlirType type, int64_t v) {
  MlirContext ctx = mlirTypeGetContext(type);
  MlirNamedAttribute value = named(ctx, "value", mlirIntegerAttrGet(type, v));
  return mlirOperationGetResult(
      append(block, "arith.constant", 0, NULL, 1, &type, 1, &value), 0);
}

static MlirValue appendBinary(MlirBlock block, const char *name, MlirValue a,
                              MlirValue b) {
  MlirValue ops[2] = {a, b};
  MlirType t = mlirValueGetType(a);
  return mlirOperationGetResult(append(block, name, 2, ops, 1, &t, 0, NULL), 0);
}

static MlirOperation appendCall(MlirBlock block, const char *callee,
                                intptr_t nOps, const MlirValue *ops,
                                intptr_t nRes, const MlirType *res,
                                MlirContext ctx) {
  MlirNamedAttribute attr =
      named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, str(callee)));
  MlirOperationState st =
      mlirOperationStateGet(str("func.call"), mlirLocationUnknownGet(ctx));
  mlirOperationStateAddOperands(&st, nOps, ops);
  mlirOperationStateAddResults(&st, nRes, res);
  mlirOperationStateAddAttributes(&st, 1, &attr);
  MlirOperation op = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(block, op);
  return op;
}

/* @kiln.profile.now() -> i64: CLOCK_MONOTONIC in ns. The timespec lives
 * in a stack buffer whose address goes to clock_gettime. */
static void buildNow(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType i32 = mlirIntegerTypeGet(ctx, 32), i64 = mlirIntegerTypeGet(ctx, 64);
  MlirType index = mlirIndexTypeGet(ctx), ptr = mlirLLVMPointerTypeGet(ctx, 0);
  MlirType clockArgs[2] = {i32, ptr};
  addFunc(module, kClock, mlirFunctionTypeGet(ctx, 2, clockArgs, 1, &i32),
          false);
  MlirOperation now =
      addFunc(module, kNow, mlirFunctionTypeGet(ctx, 0, NULL, 1, &i64), true);
  MlirBlock b = funcBody(now);
  int64_t two = 2;
  MlirType bufType =
      mlirMemRefTypeContiguousGet(i64, 1, &two, mlirAttributeGetNull());
  MlirNamedAttribute seg =
      kilnSegmentSizesAttr(ctx, 2, (const int32_t[]){0, 0});
  MlirValue buf = mlirOperationGetResult(
      append(b, "memref.alloca", 0, NULL, 1, &bufType, 1, &seg), 0);
  MlirValue addr = mlirOperationGetResult(
      append(b, "memref.extract_aligned_pointer_as_index", 1, &buf, 1, &index,
             0, NULL),
      0);
  MlirValue addr64 = mlirOperationGetResult(
      append(b, "arith.index_cast", 1, &addr, 1, &i64, 0, NULL), 0);
  MlirValue p = mlirOperationGetResult(
      append(b, "llvm.inttoptr", 1, &addr64, 1, &ptr, 0, NULL), 0);
  MlirValue args[2] = {appendConstant(b, i32, 1 /* CLOCK_MONOTONIC */), p};
  appendCall(b, kClock, 2, args, 1, &i32, ctx);
  MlirValue parts[2];
  for (int i = 0; i < 2; ++i) {
    MlirValue at[2] = {buf, appendConstant(b, index, i)};
    parts[i] = mlirOperationGetResult(
        append(b, "memref.load", 2, at, 1, &i64, 0, NULL), 0);
  }
  MlirValue ns = appendBinary(b, "arith.addi",
                              appendBinary(b, "arith.muli", parts[0],
                                           appendConstant(b, i64, 1000000000)),
                              parts[1]);
  append(b, "func.return", 1, &ns, 0, NULL, 0, NULL);
}

/* @kiln.profile.counters: `rows` x 4 i64, zero at load. */
static MlirType buildCounters(MlirOperation module, int64_t rows) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  int64_t shape[2] = {rows, 4};
  MlirType type =
      mlirMemRefTypeContiguousGet(i64, 2, shape, mlirAttributeGetNull());
  MlirType tensor =
      mlirRankedTensorTypeGet(2, shape, i64, mlirAttributeGetNull());
  MlirNamedAttribute attrs[5] = {
      named(ctx, "sym_name", mlirStringAttrGet(ctx, str(kCounters))),
      named(ctx, "sym_visibility", mlirStringAttrGet(ctx, str("private"))),
      named(ctx, "type", mlirTypeAttrGet(type)),
      named(ctx, "initial_value",
            mlirDenseElementsAttrSplatGet(tensor, mlirIntegerAttrGet(i64, 0))),
      named(ctx, "alignment",
            mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 64))};
  MlirOperationState st =
      mlirOperationStateGet(str("memref.global"), mlirLocationUnknownGet(ctx));
  mlirOperationStateAddAttributes(&st, 5, attrs);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  mlirBlockInsertOwnedOperation(top, 0, mlirOperationCreate(&st));
  return type;
}

/* @kiln.profile.record(%row: index, %t0: i64, %t1: i64): row += (t1 - t0,
 * 1 run, last t1 - t0, last start t0). Called from the entry function's
 * top level only (between parallel regions), so plain loads and stores. */
static void buildRecord(MlirOperation module, MlirType countersType) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64), index = mlirIndexTypeGet(ctx);
  MlirType args[3] = {index, i64, i64};
  MlirOperation fn = addFunc(module, kRecord,
                             mlirFunctionTypeGet(ctx, 3, args, 0, NULL), true);
  MlirBlock b = funcBody(fn);
  MlirValue row = mlirBlockGetArgument(b, 0);
  MlirValue t0 = mlirBlockGetArgument(b, 1), t1 = mlirBlockGetArgument(b, 2);
  MlirNamedAttribute global =
      named(ctx, "name", mlirFlatSymbolRefAttrGet(ctx, str(kCounters)));
  MlirValue table = mlirOperationGetResult(
      append(b, "memref.get_global", 0, NULL, 1, &countersType, 1, &global), 0);
  MlirValue dt = appendBinary(b, "arith.subi", t1, t0);
  MlirValue fields[4];
  for (int i = 0; i < 4; ++i)
    fields[i] = appendConstant(b, index, i);
  MlirValue one = appendConstant(b, i64, 1);
  for (int i = 0; i < 2; ++i) { /* total += dt, runs += 1 */
    MlirValue at[3] = {table, row, fields[i]};
    MlirValue old = mlirOperationGetResult(
        append(b, "memref.load", 3, at, 1, &i64, 0, NULL), 0);
    MlirValue sum = appendBinary(b, "arith.addi", old, i ? one : dt);
    MlirValue store[4] = {sum, table, row, fields[i]};
    append(b, "memref.store", 4, store, 0, NULL, 0, NULL);
  }
  MlirValue lastNs[4] = {dt, table, row, fields[2]};
  append(b, "memref.store", 4, lastNs, 0, NULL, 0, NULL);
  MlirValue lastStart[4] = {t0, table, row, fields[3]};
  append(b, "memref.store", 4, lastStart, 0, NULL, 0, NULL);
  append(b, "func.return", 0, NULL, 0, NULL, 0, NULL);
}

/* ---- calls in the entry -----------------------------------------------------
 */

static MlirValue insertNow(MlirOperation before) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirNamedAttribute callee =
      named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, str(kNow)));
  return mlirOperationGetResult(
      kilnInsertOp(before, "func.call", 0, NULL, 1, &i64, 1, &callee), 0);
}

static void insertRecord(MlirOperation before, int64_t row, MlirValue t0,
                         MlirValue t1) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirValue args[3] = {kilnInsertIndexConstant(before, row), t0, t1};
  MlirNamedAttribute callee =
      named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, str(kRecord)));
  kilnInsertOp(before, "func.call", 3, args, 0, NULL, 1, &callee);
}

/* ---- the metadata lines -----------------------------------------------------
 */

typedef struct NodeFacts {
  int64_t flops;
  MlirType type; /* null if unknown */
} NodeFacts;

static NodeFacts nodeFacts(MlirAttribute nodes, MlirStringRef key) {
  NodeFacts f = {0, {NULL}};
  if (mlirAttributeIsNull(nodes) || !mlirAttributeIsADictionary(nodes))
    return f;
  MlirAttribute d = mlirDictionaryAttrGetElementByName(nodes, key);
  if (mlirAttributeIsNull(d) || !mlirAttributeIsADictionary(d))
    return f;
  MlirAttribute flops = mlirDictionaryAttrGetElementByName(d, str("flops"));
  MlirAttribute type = mlirDictionaryAttrGetElementByName(d, str("type"));
  if (!mlirAttributeIsNull(flops) && mlirAttributeIsAInteger(flops))
    f.flops = mlirIntegerAttrGetValueInt(flops);
  if (!mlirAttributeIsNull(type) && mlirAttributeIsAType(type))
    f.type = mlirTypeAttrGetValue(type);
  return f;
}

static void appendEscaped(KilnStrBuf *b, const char *s, size_t n) {
  for (size_t i = 0; i < n; ++i) {
    char c = s[i];
    if (c == '%' || c == ' ' || c == '\n' || c == '\r' || c == '\t')
      kilnStrBufAppendf(b, "%%%02X", (unsigned)(unsigned char)c);
    else
      kilnStrBufAppend(b, &c, 1);
  }
}

/* " TYPE NAME" of the node key "NAME (TYPE)". */
static void appendNode(KilnStrBuf *b, MlirStringRef key) {
  size_t open = key.length - 1;
  while (open > 0 && key.data[open] != '(')
    --open;
  kilnStrBufAppend(b, " ", 1);
  appendEscaped(b, key.data + open + 1, key.length - open - 2);
  kilnStrBufAppend(b, " ", 1);
  appendEscaped(b, key.data, open - 1);
}

static void appendLine(KilnStrBuf *b, size_t k, const Record *r,
                       MlirAttribute nodes, Keys *counted) {
  int64_t flops = 0;
  MlirType out = {NULL};
  for (size_t i = 0; i < r->keys.len; ++i) {
    NodeFacts f = nodeFacts(nodes, r->keys.data[i]);
    if (!keysContain(counted, r->keys.data[i])) {
      flops += f.flops;
      keysAdd(counted, r->keys.data[i]);
    }
    if (!mlirTypeIsNull(f.type))
      out = f.type;
  }
  kilnStrBufAppendf(b, "profile-op %zu %lld", k, (long long)flops);
  if (!mlirTypeIsNull(out) && mlirTypeIsAShaped(out) &&
      mlirShapedTypeHasStaticShape(out)) {
    intptr_t rank = mlirShapedTypeGetRank(out);
    kilnStrBufAppendf(b, " %lld", (long long)rank);
    for (intptr_t d = 0; d < rank; ++d)
      kilnStrBufAppendf(b, " %lld",
                        (long long)mlirShapedTypeGetDimSize(out, d));
  } else {
    kilnStrBufAppend(b, " -", 2);
  }
  kilnStrBufAppendf(b, " %zu", r->keys.len);
  for (size_t i = 0; i < r->keys.len; ++i)
    appendNode(b, r->keys.data[i]);
  kilnStrBufAppend(b, "\n", 1);
}

static void setRecordsAttr(MlirOperation module, const Records *records) {
  MlirAttribute nodes = mlirOperationGetDiscardableAttributeByName(
      module, str(KILN_PROFILE_NODES_ATTR));
  KilnStrBuf text = {0};
  Keys counted = {0};
  for (size_t k = 0; k < records->len; ++k)
    appendLine(&text, k, &records->data[k], nodes, &counted);
  free(counted.data);
  MlirContext ctx = mlirOperationGetContext(module);
  mlirOperationSetDiscardableAttributeByName(
      module, str(KILN_PROFILE_RECORDS_ATTR),
      mlirStringAttrGet(ctx, mlirStringRefCreate(text.data, text.len)));
  kilnStrBufDestroy(&text);
}

/* ---- the pass ---------------------------------------------------------------
 */

static void runInstrumentOps(MlirOperation module, MlirExternalPass pass,
                             const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  MlirOperation entry = kilnProfileFindEntry(module);
  if (!kilnProfileIsRequested(module) || mlirOperationIsNull(entry))
    return;
  MlirBlock body = funcBody(entry);
  Records records = {0};
  formRecords(body, &records);
  if (!records.len) {
    recordsDestroy(&records);
    return;
  }
  MlirType countersType = buildCounters(module, (int64_t)records.len + 1);
  buildRecord(module, countersType);
  buildNow(module);
  MlirValue start = insertNow(mlirBlockGetFirstOperation(body));
  MlirValue t = start;
  for (size_t k = 0; k < records.len; ++k) {
    MlirOperation next = mlirOperationGetNextInBlock(records.data[k].end);
    if (k + 1 == records.len)
      next = mlirBlockGetTerminator(body);
    MlirValue t1 = insertNow(next);
    insertRecord(next, (int64_t)k, t, t1);
    t = t1;
  }
  insertRecord(mlirBlockGetTerminator(body), (int64_t)records.len, start, t);
  setRecordsAttr(module, &records);
  recordsDestroy(&records);
}

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__llvm__};

const KilnPassInfo kilnInstrumentOpsPass = {
    .argument = "kiln-instrument-ops",
    .summary = "Time each ONNX node group of the entry function (modules "
               "marked kiln.profile)",
    .anchor = "builtin.module",
    .run = runInstrumentOps,
    .dependentDialects = kDialects,
    .numDependentDialects = 1,
};

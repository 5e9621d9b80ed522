/* kiln-instrument-ops: timers around each ONNX node group of the model's
 * entry function, for kiln-compile --profile (docs/kiln-compile.md,
 * "Profiling"), in the spirit of onnx-mlir's --instrument-ops and TVM's
 * debug executor.
 *
 * Runs on buffers (after bufferization and deallocation, before the loops
 * become OpenMP regions). The entry's top-level ops are cut into segments:
 * a segment is a run of consecutive ops whose locations (their own and
 * those of the ops nested in them) name overlapping sets of ONNX nodes, so
 * a fused group, whose tile loop holds every member's ops, is one segment
 * listing them all. Ops that name no node or only move pointers (allocs,
 * views, constants, deallocs) join the segment around them. Segments that
 * share a node form one record (a conv's padded input is cleared before
 * its producer writes into it, apart from the conv's own group). Between
 * two segments the pass reads a clock once:
 *
 *   %t0 = func.call @kiln.profile.now() : () -> i64
 *   ... segment 0 (record 0) ...
 *   %t1 = func.call @kiln.profile.now() : () -> i64
 *   func.call @kiln.profile.record(%c0, %t0, %t0, %t1)
 *       : (index, i64, i64, i64) -> ()
 *   ... segment 1 ...
 *
 * so the segments cover the whole function; a last row N (the number of
 * records) times the function from its first clock read to its last.
 * @kiln.profile.now reads CLOCK_MONOTONIC through libc's clock_gettime, in
 * nanoseconds; @kiln.profile.record adds a segment's time to its record's
 * row of the table @kiln.profile.counters (memref<(N+1)x5xi64>: total ns,
 * runs, the last run's ns and start, and the start of the run that last
 * touched the row), which the model library exports through the pointer
 * `kiln_model_profile`. The calls are ordinary ops between the top-level
 * ops: later passes keep each segment's ops between its calls.
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

#include "conversions/linalg-to-llvm-cpu/profile_nodes.h"
#include "kiln/compile.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "support/ir_build.h"

static const char *const kNow = "kiln.profile.now";
static const char *const kRecord = "kiln.profile.record";
static const char *const kCounters = "kiln.profile.counters";
static const char *const kClock = "clock_gettime";
/* A counter row: total ns, runs, the last run's ns, its start, and the
 * start of the run that last touched the row. */
enum { kFields = 5 };

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

/* An ONNX Constant node does its work at compile time; its location still
 * shows on the ops its value was folded into (a Clip's generic fused with
 * the broadcast of its bound), where it would join every user into one
 * record. */
static bool isConstantNode(MlirStringRef key) {
  static const char kSuffix[] = " (Constant)";
  size_t n = sizeof(kSuffix) - 1;
  return key.length > n && !memcmp(key.data + key.length - n, kSuffix, n);
}

static void addKey(MlirStringRef key, void *userData) {
  if (!isConstantNode(key))
    keysAdd(userData, key);
}

/* Constants name the node that made them, not the work of the op using
 * them: they would join unrelated groups into one record. */
static bool isConstant(MlirOperation op) {
  return kilnOpNameIs(op, "arith.constant") ||
         kilnOpNameIs(op, "memref.get_global") || kilnOpNameIs(op, "ub.poison");
}

static MlirWalkResult collectKeys(MlirOperation op, void *userData) {
  if (isConstant(op))
    return MlirWalkResultAdvance;
  kilnProfileForEachNode(mlirOperationGetLocation(op), addKey, userData);
  return MlirWalkResultAdvance;
}

/* A segment: consecutive ops timed between two clock reads. Segments
 * that share a node are one record (a conv's padding may be written before
 * its producer runs, apart from the conv's group). */
typedef struct Record {
  Keys keys;         /* in order of first appearance */
  MlirOperation end; /* its last op that names a node */
  size_t record;     /* the record it belongs to (its first segment's) */
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

/* Cuts the body of `entry` into segments. */
static void formSegments(MlirBlock body, Records *out) {
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

static size_t findRoot(Records *segs, size_t i) {
  while (segs->data[i].record != i)
    i = segs->data[i].record = segs->data[segs->data[i].record].record;
  return i;
}

/* Joins segments that share a node into records, then gathers each
 * record's keys (in segment order) into its first segment; returns the
 * number of records, numbering them in order of their first segment
 * (segment i's `record` becomes that number). */
static size_t joinSegments(Records *segs) {
  for (size_t i = 0; i < segs->len; ++i)
    segs->data[i].record = i;
  for (size_t i = 0; i < segs->len; ++i)
    for (size_t j = 0; j < i; ++j)
      if (overlaps(&segs->data[j].keys, &segs->data[i].keys)) {
        size_t a = findRoot(segs, j), b = findRoot(segs, i);
        segs->data[a > b ? a : b].record = a < b ? a : b;
      }
  size_t *root = malloc((segs->len ? segs->len : 1) * sizeof(size_t));
  size_t *number = malloc((segs->len ? segs->len : 1) * sizeof(size_t));
  if (!root || !number)
    abort();
  for (size_t i = 0; i < segs->len; ++i)
    root[i] = findRoot(segs, i);
  size_t n = 0;
  for (size_t i = 0; i < segs->len; ++i) {
    if (root[i] == i)
      number[i] = n++;
    else
      for (size_t k = 0; k < segs->data[i].keys.len; ++k)
        keysAdd(&segs->data[root[i]].keys, segs->data[i].keys.data[k]);
  }
  for (size_t i = 0; i < segs->len; ++i)
    segs->data[i].record = number[root[i]];
  free(root);
  free(number);
  return n;
}

/* ---- helper functions and the table -----------------------------------------
 */

static MlirNamedAttribute named(MlirContext ctx, const char *name,
                                MlirAttribute value) {
  return mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr(name)), value);
}

/* A private func.func `name` of `type` at the start of `module`, with an
 * entry block when `withBody`; returns it. */
static MlirOperation addFunc(MlirOperation module, const char *name,
                             MlirType type, bool withBody) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirLocation loc = mlirLocationUnknownGet(ctx);
  MlirNamedAttribute attrs[3] = {
      named(ctx, "sym_name", mlirStringAttrGet(ctx, kilnStr(name))),
      named(ctx, "function_type", mlirTypeAttrGet(type)),
      named(ctx, "sym_visibility", mlirStringAttrGet(ctx, kilnStr("private")))};
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
  MlirOperationState st = mlirOperationStateGet(kilnStr("func.func"), loc);
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
      mlirOperationStateGet(kilnStr(name), mlirLocationUnknownGet(ctx));
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
      named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, kilnStr(callee)));
  MlirOperationState st =
      mlirOperationStateGet(kilnStr("func.call"), mlirLocationUnknownGet(ctx));
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

/* @kiln.profile.counters: `rows` x kFields i64, zero at load. */
static MlirType buildCounters(MlirOperation module, int64_t rows) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  int64_t shape[2] = {rows, kFields};
  MlirType type =
      mlirMemRefTypeContiguousGet(i64, 2, shape, mlirAttributeGetNull());
  MlirType tensor =
      mlirRankedTensorTypeGet(2, shape, i64, mlirAttributeGetNull());
  MlirNamedAttribute attrs[5] = {
      named(ctx, "sym_name", mlirStringAttrGet(ctx, kilnStr(kCounters))),
      named(ctx, "sym_visibility", mlirStringAttrGet(ctx, kilnStr("private"))),
      named(ctx, "type", mlirTypeAttrGet(type)),
      named(ctx, "initial_value",
            mlirDenseElementsAttrSplatGet(tensor, mlirIntegerAttrGet(i64, 0))),
      named(ctx, "alignment",
            mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 64))};
  MlirOperationState st = mlirOperationStateGet(kilnStr("memref.global"),
                                                mlirLocationUnknownGet(ctx));
  mlirOperationStateAddAttributes(&st, 5, attrs);
  MlirBlock top = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  mlirBlockInsertOwnedOperation(top, 0, mlirOperationCreate(&st));
  return type;
}

/* @kiln.profile.record(%row: index, %run: i64, %t0: i64, %t1: i64) adds
 * t1 - t0 to row `row`: its total and its time in the run that started at
 * `run`. A row a run has not touched yet (its field 4, the start of the
 * run that last touched it, differs) counts one more run and restarts its
 * last-run time and start; so a record timed in several segments sums
 * them. Branch-free selects; called from the entry function's top level
 * only (between parallel regions), so plain loads and stores. */
static void buildRecord(MlirOperation module, MlirType countersType) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64), index = mlirIndexTypeGet(ctx);
  MlirType i1 = mlirIntegerTypeGet(ctx, 1);
  MlirType args[4] = {index, i64, i64, i64};
  MlirOperation fn = addFunc(module, kRecord,
                             mlirFunctionTypeGet(ctx, 4, args, 0, NULL), true);
  MlirBlock b = funcBody(fn);
  MlirValue row = mlirBlockGetArgument(b, 0), run = mlirBlockGetArgument(b, 1);
  MlirValue t0 = mlirBlockGetArgument(b, 2), t1 = mlirBlockGetArgument(b, 3);
  MlirNamedAttribute global =
      named(ctx, "name", mlirFlatSymbolRefAttrGet(ctx, kilnStr(kCounters)));
  MlirValue table = mlirOperationGetResult(
      append(b, "memref.get_global", 0, NULL, 1, &countersType, 1, &global), 0);
  MlirValue dt = appendBinary(b, "arith.subi", t1, t0);
  MlirValue field[kFields], old[kFields];
  for (int i = 0; i < kFields; ++i) {
    field[i] = appendConstant(b, index, i);
    MlirValue at[3] = {table, row, field[i]};
    old[i] = mlirOperationGetResult(
        append(b, "memref.load", 3, at, 1, &i64, 0, NULL), 0);
  }
  MlirNamedAttribute ne =
      named(ctx, "predicate", mlirIntegerAttrGet(i64, 1 /* ne */));
  MlirValue cmp[2] = {old[4], run};
  MlirValue fresh = mlirOperationGetResult(
      append(b, "arith.cmpi", 2, cmp, 1, &i1, 1, &ne), 0);
  MlirValue zero = appendConstant(b, i64, 0);
  MlirValue sel[3] = {fresh, zero, old[2]};
  MlirValue lastBase = mlirOperationGetResult(
      append(b, "arith.select", 3, sel, 1, &i64, 0, NULL), 0);
  MlirValue selStart[3] = {fresh, t0, old[3]};
  MlirValue newValue[kFields] = {
      appendBinary(b, "arith.addi", old[0], dt),
      appendBinary(
          b, "arith.addi", old[1],
          mlirOperationGetResult(
              append(b, "arith.extui", 1, &fresh, 1, &i64, 0, NULL), 0)),
      appendBinary(b, "arith.addi", lastBase, dt),
      mlirOperationGetResult(
          append(b, "arith.select", 3, selStart, 1, &i64, 0, NULL), 0),
      run};
  for (int i = 0; i < kFields; ++i) {
    MlirValue store[4] = {newValue[i], table, row, field[i]};
    append(b, "memref.store", 4, store, 0, NULL, 0, NULL);
  }
  append(b, "func.return", 0, NULL, 0, NULL, 0, NULL);
}

/* ---- calls in the entry -----------------------------------------------------
 */

static MlirValue insertNow(MlirOperation before) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirNamedAttribute callee =
      named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, kilnStr(kNow)));
  return mlirOperationGetResult(
      kilnInsertOp(before, "func.call", 0, NULL, 1, &i64, 1, &callee), 0);
}

static void insertRecord(MlirOperation before, int64_t row, MlirValue run,
                         MlirValue t0, MlirValue t1) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirValue args[4] = {kilnInsertIndexConstant(before, row), run, t0, t1};
  MlirNamedAttribute callee =
      named(ctx, "callee", mlirFlatSymbolRefAttrGet(ctx, kilnStr(kRecord)));
  kilnInsertOp(before, "func.call", 4, args, 0, NULL, 1, &callee);
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
  MlirAttribute flops = mlirDictionaryAttrGetElementByName(d, kilnStr("flops"));
  MlirAttribute type = mlirDictionaryAttrGetElementByName(d, kilnStr("type"));
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

/* One line per record, from the first segment of each (which holds the
 * record's keys). */
static void setRecordsAttr(MlirOperation module, const Records *segs) {
  MlirAttribute nodes = mlirOperationGetDiscardableAttributeByName(
      module, kilnStr(KILN_PROFILE_NODES_ATTR));
  KilnStrBuf text = {0};
  Keys counted = {0};
  for (size_t i = 0, k = 0; i < segs->len; ++i)
    if (segs->data[i].record == k)
      appendLine(&text, k++, &segs->data[i], nodes, &counted);
  free(counted.data);
  MlirContext ctx = mlirOperationGetContext(module);
  mlirOperationSetDiscardableAttributeByName(
      module, kilnStr(KILN_PROFILE_RECORDS_ATTR),
      mlirStringAttrGet(ctx, mlirStringRefCreate(text.data, text.len)));
  kilnStrBufDestroy(&text);
}

/* ---- the pass ---------------------------------------------------------------
 */

static void runInstrumentOps(MlirOperation module, MlirExternalPass pass,
                             const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  MlirOperation entry = kilnModelFindEntry(module);
  if (!kilnProfileIsRequested(module) || mlirOperationIsNull(entry))
    return;
  MlirBlock body = funcBody(entry);
  Records segs = {0};
  formSegments(body, &segs);
  size_t numRecords = joinSegments(&segs);
  if (!numRecords) {
    recordsDestroy(&segs);
    return;
  }
  MlirType countersType = buildCounters(module, (int64_t)numRecords + 1);
  buildRecord(module, countersType);
  buildNow(module);
  MlirValue start = insertNow(mlirBlockGetFirstOperation(body));
  MlirValue t = start;
  for (size_t i = 0; i < segs.len; ++i) {
    MlirOperation next = i + 1 == segs.len
                             ? mlirBlockGetTerminator(body)
                             : mlirOperationGetNextInBlock(segs.data[i].end);
    MlirValue t1 = insertNow(next);
    insertRecord(next, (int64_t)segs.data[i].record, start, t, t1);
    t = t1;
  }
  insertRecord(mlirBlockGetTerminator(body), (int64_t)numRecords, start, start,
               t);
  setRecordsAttr(module, &segs);
  recordsDestroy(&segs);
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

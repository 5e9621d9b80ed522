/* kiln-runtime-checks: run-time errors for what ONNX defines as errors in
 * data, instead of silent wrong answers. Runs on graph IR, after the graph
 * optimizations and before convert-graph-to-linalg (kiln-compile's CPU
 * path and the `cpu` pipeline; kiln-compile --no-runtime-checks leaves it
 * out).
 *
 * Gather, GatherElements, GatherND, ScatterElements and ScatterND read or
 * write at positions taken from their `indices` input, which ONNX requires
 * in [-s, s-1] for the dim s they index. The lowerings clamp every index
 * into range (generated code must never fault), so an out-of-range index
 * gave some other element, silently. Before each such op whose indices are
 * not a constant, this pass checks them all (one reduction over the
 * indices, small next to the op) and records the failure of check N in the
 * module's status word:
 *
 *   memref.global @kiln_check_status : memref<i32> = dense<0>
 *   module attributes {kiln.runtime_checks = ["ids (Gather): ...", ...]}
 *   ...
 *   %zero = linalg.fill ins(%c0_i32) outs(tensor.empty() : tensor<i32>)
 *   %bad = linalg.generic {iterator_types = [reduction, ...]}
 *       ins(%indices) outs(%zero) {   // acc |= (i < -s || i >= s)
 *   %flag = tensor.extract %bad[]
 *   scf.if (%flag != 0) {
 *     %g = memref.get_global @kiln_check_status
 *     store N into %g unless an earlier check failed
 *   }
 *   %out = graph.gather(%data, %indices) ...   // unchanged, clamped
 *
 * The model library's `kiln_model_run` zeroes the word before a run and
 * returns it (pipelines/backend/object.c); the runtime turns N
 * into an error naming the ONNX node from the library's `check N TEXT`
 * metadata records (the attribute's strings), and kiln-run's JIT path reads
 * the word and the attribute itself. Outputs of a run that fails a check
 * are not to be used. GPU targets do not run these checks yet. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower.h"
#include "conversions/graph-to-linalg/runtime_checks.h"
#include "conversions/linalg-to-llvm-cpu/profile_nodes.h"
#include "kiln/diagnostics.h"
#include "kiln/passes.h"
#include "mlir-c/Dialect/Arith.h"
#include "mlir-c/Dialect/Linalg.h"
#include "mlir-c/Dialect/MemRef.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/Dialect/Tensor.h"
#include "support/ir_build.h"
#include "support/op_list.h"

/* The indices of one checked op: which dim of `data` each index element
 * indexes, by the position of the element (one bound for all, or one per
 * entry of an index tuple along the last dim). */
typedef struct IndexBounds {
  const char *what; /* "Gather", ... for the message */
  int64_t bounds[KILN_MAX_RANK];
  int64_t dataDims[KILN_MAX_RANK]; /* the data dim each bound is */
  intptr_t numBounds;              /* 1, or the tuple length */
} IndexBounds;

/* The bounds of `op`'s indices, or false for an op this pass does not
 * check (not an indexing op, dynamic shapes, constant indices, or
 * attributes the lowering will refuse anyway). */
static bool indexBoundsOf(MlirOperation op, IndexBounds *out) {
  bool gather = kilnOpNameIs(op, "graph.gather");
  bool elements = kilnOpNameIs(op, "graph.gather_elements") ||
                  kilnOpNameIs(op, "graph.scatter_elements");
  bool nd = kilnOpNameIs(op, "graph.gather_nd") ||
            kilnOpNameIs(op, "graph.scatter_nd");
  if ((!gather && !elements && !nd) || mlirOperationGetNumOperands(op) < 2)
    return false;
  MlirValue data = mlirOperationGetOperand(op, 0);
  MlirValue indices = mlirOperationGetOperand(op, 1);
  if (!mlirTypeIsARankedTensor(mlirValueGetType(data)) ||
      !mlirTypeIsARankedTensor(mlirValueGetType(indices)))
    return false;
  MlirOperation def = mlirOpResultGetOwner(indices);
  if (mlirValueIsAOpResult(indices) && kilnOpNameIs(def, "graph.constant"))
    return false; /* folded or checked by the graph passes */
  intptr_t r = kilnRank(data), q = kilnRank(indices);
  if (!nd) {
    int64_t axis = kilnOpGetIntAttr(op, "axis", 0);
    if (axis < 0)
      axis += r;
    if (axis < 0 || axis >= r)
      return false;
    out->numBounds = 1;
    out->bounds[0] = kilnDim(data, axis);
    out->dataDims[0] = axis;
    return true;
  }
  int64_t batch = kilnOpGetIntAttr(op, "batch_dims", 0);
  int64_t k = q ? kilnDim(indices, q - 1) : 0;
  if (q < 1 || mlirShapedTypeIsDynamicSize(k) || batch < 0 || batch + k > r ||
      k > KILN_MAX_RANK)
    return false;
  out->numBounds = (intptr_t)k;
  for (int64_t j = 0; j < k; ++j) {
    out->bounds[j] = kilnDim(data, batch + j);
    out->dataDims[j] = batch + j;
  }
  return true;
}

/* ---- the check ------------------------------------------------------------
 */

typedef struct CheckBody {
  const IndexBounds *bounds;
  intptr_t rank; /* of the indices */
  /* The bounds that are dims of dynamic size, read before the check (null
   * for static ones). */
  MlirValue dynamicBounds[KILN_MAX_RANK];
} CheckBody;

static MlirValue boundValue(KilnBuilder *b, const CheckBody *c, intptr_t t) {
  return mlirValueIsNull(c->dynamicBounds[t])
             ? kilnConstIndex(b, c->bounds->bounds[t])
             : c->dynamicBounds[t];
}

/* acc |= (i < -s || i >= s), with s the bound of this element's position. */
static void checkBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                      void *userData) {
  const CheckBody *c = userData;
  MlirValue i = kilnIndexElementToIndex(b, args[0]);
  MlirValue s = boundValue(b, c, 0);
  if (c->bounds->numBounds > 1) {
    MlirValue j = kilnLinalgIndex(b, c->rank - 1);
    for (intptr_t t = 1; t < c->bounds->numBounds; ++t)
      s = kilnSelect(b, kilnCmpI(b, "eq", j, kilnConstIndex(b, t)),
                     boundValue(b, c, t), s);
  }
  MlirValue negS = kilnArith2(b, "arith.subi", kilnConstIndex(b, 0), s);
  MlirValue bad = kilnArith2(b, "arith.ori", kilnCmpI(b, "slt", i, negS),
                             kilnCmpI(b, "sge", i, s));
  MlirType i32 = mlirIntegerTypeGet(b->ctx, 32);
  yields[0] =
      kilnArith2(b, "arith.ori", args[1], kilnConvertScalar(b, bad, i32, true));
}

/* scf.if %cond { ...then... } with an empty then block returned. */
static MlirBlock buildIf(KilnBuilder *b, MlirValue cond) {
  MlirRegion thenRegion = mlirRegionCreate(), elseRegion = mlirRegionCreate();
  MlirBlock then = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(thenRegion, then);
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.if"), b->loc);
  mlirOperationStateAddOperands(&st, 1, &cond);
  MlirRegion regions[2] = {thenRegion, elseRegion};
  mlirOperationStateAddOwnedRegions(&st, 2, regions);
  kilnBuildInsert(b, &st);
  KilnBuilder inner = {b->ctx, b->loc, then, {NULL}};
  kilnBuildOp(&inner, "scf.yield", 0, NULL, 0, NULL, 0, NULL);
  return then;
}

/* Inside `then`: the status word becomes `id` unless a check before this
 * one already failed (the first failure is the root cause). */
static void buildRecordFailure(KilnBuilder *b, MlirBlock then, int64_t id) {
  KilnBuilder in = {b->ctx, b->loc, then,
                    mlirBlockGetFirstOperation(then)}; /* before yield */
  MlirType i32 = mlirIntegerTypeGet(b->ctx, 32);
  MlirType word = mlirMemRefTypeGet(i32, 0, NULL, mlirAttributeGetNull(),
                                    mlirAttributeGetNull());
  MlirNamedAttribute name = kilnNamedAttr(
      b->ctx, "name",
      mlirFlatSymbolRefAttrGet(
          b->ctx, mlirStringRefCreateFromCString(KILN_CHECK_STATUS_SYMBOL)));
  MlirValue g = kilnBuildOp1(&in, "memref.get_global", word, 0, NULL, 1, &name);
  MlirValue cur = kilnBuildOp1(&in, "memref.load", i32, 1, &g, 0, NULL);
  MlirValue zero = kilnConstInt(&in, i32, 0);
  MlirValue next = kilnSelect(&in, kilnCmpI(&in, "eq", cur, zero),
                              kilnConstInt(&in, i32, id), cur);
  MlirValue ops[2] = {next, g};
  kilnBuildOp(&in, "memref.store", 0, NULL, 2, ops, 0, NULL);
}

/* Builds check `id` of `op`'s indices before `op`. */
static void buildCheck(MlirOperation op, const IndexBounds *bounds,
                       int64_t id) {
  MlirContext ctx = mlirOperationGetContext(op);
  KilnBuilder b = {ctx, mlirOperationGetLocation(op), mlirOperationGetBlock(op),
                   op};
  MlirValue indices = mlirOperationGetOperand(op, 1);
  intptr_t q = kilnRank(indices);
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirValue init =
      kilnFilled(&b, kilnTensorType(0, NULL, i32), kilnConstInt(&b, i32, 0));
  MlirAttribute maps[2] = {kilnMapIdentity(ctx, q),
                           kilnMapDims(ctx, q, 0, NULL)};
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'r', (size_t)q);
  iters[q] = '\0';
  CheckBody body = {bounds, q, {{NULL}}};
  MlirValue data = mlirOperationGetOperand(op, 0);
  for (intptr_t t = 0; t < bounds->numBounds; ++t)
    if (mlirShapedTypeIsDynamicSize(bounds->bounds[t]))
      body.dynamicBounds[t] = kilnDimValue(&b, data, bounds->dataDims[t]);
  MlirValue acc = mlirOperationGetResult(
      kilnGeneric(&b, 1, &indices, 1, &init, maps, q, iters, checkBody, &body),
      0);
  MlirValue flag = kilnBuildOp1(&b, "tensor.extract", i32, 1, &acc, 0, NULL);
  MlirValue failed = kilnCmpI(&b, "ne", flag, kilnConstInt(&b, i32, 0));
  MlirBlock then = buildIf(&b, failed);
  mlirOperationSetDiscardableAttributeByName(
      mlirBlockGetParentOperation(then),
      mlirStringRefCreateFromCString(KILN_DATA_CHECK_ATTR),
      mlirUnitAttrGet(ctx));
  buildRecordFailure(&b, then, id);
}

/* ---- messages and the module's parts ---------------------------------------
 */

static void takeFirstNode(MlirStringRef key, void *userData) {
  KilnStrBuf *buf = userData;
  if (!buf->len)
    kilnStrBufAppend(buf, key.data, key.length);
}

/* "NAME (OpType): index out of range: ..." for check of `op`. */
static void appendMessage(KilnStrBuf *msg, MlirOperation op,
                          const IndexBounds *bounds) {
  kilnProfileForEachNode(mlirOperationGetLocation(op), takeFirstNode, msg);
  if (!msg->len) {
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
    kilnStrBufAppendf(msg, "'%.*s'", (int)name.length, name.data);
  }
  kilnStrBufAppendf(msg, ": an index is out of range: ONNX requires indices "
                         "in [-s, s-1] for");
  for (intptr_t t = 0; t < bounds->numBounds; ++t) {
    if (mlirShapedTypeIsDynamicSize(bounds->bounds[t]))
      kilnStrBufAppendf(msg, "%s s = data dim %" PRId64, t ? "," : "",
                        bounds->dataDims[t]);
    else
      kilnStrBufAppendf(msg, "%s s = %" PRId64 " (data dim %" PRId64 ")",
                        t ? "," : "", bounds->bounds[t], bounds->dataDims[t]);
  }
}

/* memref.global @kiln_check_status : memref<i32> = dense<0>, at the start
 * of the module. */
static void buildStatusWord(MlirOperation module) {
  MlirContext ctx = mlirOperationGetContext(module);
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  MlirType word = mlirMemRefTypeGet(i32, 0, NULL, mlirAttributeGetNull(),
                                    mlirAttributeGetNull());
  MlirAttribute zero = mlirDenseElementsAttrInt32Get(
      mlirRankedTensorTypeGet(0, NULL, i32, mlirAttributeGetNull()), 1,
      (int32_t[]){0});
  MlirNamedAttribute attrs[3] = {
      kilnNamedAttr(ctx, "sym_name",
                    mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(
                                               KILN_CHECK_STATUS_SYMBOL))),
      kilnNamedAttr(ctx, "type", mlirTypeAttrGet(word)),
      kilnNamedAttr(ctx, "initial_value", zero)};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  KilnBuilder b = {ctx, mlirLocationUnknownGet(ctx), body,
                   mlirBlockGetFirstOperation(body)};
  kilnBuildOp(&b, "memref.global", 0, NULL, 0, NULL, 3, attrs);
}

static MlirWalkResult collectChecked(MlirOperation op, void *userData) {
  IndexBounds unused;
  if (indexBoundsOf(op, &unused))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

static void runRuntimeChecks(MlirOperation module, MlirExternalPass pass,
                             const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  MlirContext ctx = mlirOperationGetContext(module);
  MlirStringRef attrName =
      mlirStringRefCreateFromCString(KILN_RUNTIME_CHECKS_ATTR);
  if (!mlirAttributeIsNull(
          mlirOperationGetDiscardableAttributeByName(module, attrName)))
    return; /* already checked (the pass ran twice) */
  KilnOpList ops = {0};
  mlirOperationWalk(module, collectChecked, &ops, MlirWalkPreOrder);
  if (!ops.len) {
    kilnOpListDestroy(&ops);
    return;
  }
  MlirAttribute *messages = malloc(ops.len * sizeof(*messages));
  if (!messages)
    abort();
  for (size_t i = 0; i < ops.len; ++i) {
    IndexBounds bounds;
    indexBoundsOf(ops.data[i], &bounds);
    buildCheck(ops.data[i], &bounds, (int64_t)i + 1);
    KilnStrBuf msg = {0};
    appendMessage(&msg, ops.data[i], &bounds);
    messages[i] = mlirStringAttrGet(
        ctx, mlirStringRefCreate(kilnStrBufGet(&msg), msg.len));
    kilnStrBufDestroy(&msg);
  }
  buildStatusWord(module);
  mlirOperationSetDiscardableAttributeByName(
      module, attrName, mlirArrayAttrGet(ctx, (intptr_t)ops.len, messages));
  free(messages);
  kilnOpListDestroy(&ops);
}

/* ---- kiln-shape-checks -------------------------------------------------
 *
 * The lowerings of dynamic shapes assert the equalities of dims their code
 * relies on (cf.assert, kilnAssertEqual in graph-to-linalg). This pass
 * makes each assert a run-time check of the same kind as the ones above,
 * numbered after them, its message the assert's prefixed with the ONNX
 * node:
 *
 *   cf.assert %eq, "inputs that broadcast together have ..."
 * becomes
 *   %failed = arith.xori %eq, %true
 *   scf.if %failed { store N into @kiln_check_status unless set }
 *
 * so that a failing check fails the run with a message instead of ending
 * the process. Shape checks are not marked KILN_DATA_CHECK_ATTR: the
 * library's shape function keeps them and runs them before every run
 * (kiln-shape-function), so the code never runs on shapes it cannot take.
 * (Not left out by --no-runtime-checks: the code relies on them.) */

/* "NODE (OpType): MSG" for the assert `op`. */
static MlirAttribute assertMessage(MlirOperation op) {
  KilnStrBuf msg = {0};
  kilnProfileForEachNode(mlirOperationGetLocation(op), takeFirstNode, &msg);
  MlirStringRef text = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("msg")));
  kilnStrBufAppendf(&msg, "%s%.*s", msg.len ? ": " : "", (int)text.length,
                    text.data);
  MlirAttribute attr =
      mlirStringAttrGet(mlirOperationGetContext(op),
                        mlirStringRefCreate(kilnStrBufGet(&msg), msg.len));
  kilnStrBufDestroy(&msg);
  return attr;
}

static void runShapeChecks(MlirOperation module, MlirExternalPass pass,
                           const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  KilnOpList asserts = {0};
  kilnOpListCollectNamed(&asserts, module, "cf.assert", MlirWalkPreOrder);
  if (!asserts.len) {
    kilnOpListDestroy(&asserts);
    return;
  }
  MlirContext ctx = mlirOperationGetContext(module);
  MlirStringRef attrName =
      mlirStringRefCreateFromCString(KILN_RUNTIME_CHECKS_ATTR);
  MlirAttribute earlier =
      mlirOperationGetDiscardableAttributeByName(module, attrName);
  intptr_t n0 =
      mlirAttributeIsNull(earlier) ? 0 : mlirArrayAttrGetNumElements(earlier);
  MlirAttribute *messages =
      kilnXCalloc((size_t)n0 + asserts.len, sizeof(MlirAttribute));
  for (intptr_t i = 0; i < n0; ++i)
    messages[i] = mlirArrayAttrGetElement(earlier, i);
  if (mlirAttributeIsNull(earlier))
    buildStatusWord(module);
  for (size_t k = 0; k < asserts.len; ++k) {
    MlirOperation op = asserts.data[k];
    messages[n0 + (intptr_t)k] = assertMessage(op);
    KilnBuilder b = {ctx, mlirOperationGetLocation(op),
                     mlirOperationGetBlock(op), op};
    MlirValue ok = mlirOperationGetOperand(op, 0);
    MlirValue failed = kilnArith2(
        &b, "arith.xori", ok, kilnConstInt(&b, mlirIntegerTypeGet(ctx, 1), 1));
    buildRecordFailure(&b, buildIf(&b, failed), n0 + (int64_t)k + 1);
    mlirOperationDestroy(op);
  }
  mlirOperationSetDiscardableAttributeByName(
      module, attrName,
      mlirArrayAttrGet(ctx, n0 + (intptr_t)asserts.len, messages));
  free(messages);
  kilnOpListDestroy(&asserts);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__arith__,  mlirGetDialectHandle__linalg__,
    mlirGetDialectHandle__tensor__, mlirGetDialectHandle__scf__,
    mlirGetDialectHandle__memref__,
};

const KilnPassInfo kilnRuntimeChecksPass = {
    .argument = "kiln-runtime-checks",
    .summary = "Check gather/scatter indices at run time: an out-of-range "
               "index fails the run, naming the ONNX node",
    .anchor = "builtin.module",
    .run = runRuntimeChecks,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

const KilnPassInfo kilnShapeChecksPass = {
    .argument = "kiln-shape-checks",
    .summary = "Turn the shape asserts of dynamic-shape lowerings into "
               "run-time checks (a failed one fails the run, naming the "
               "ONNX node)",
    .anchor = "builtin.module",
    .run = runShapeChecks,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

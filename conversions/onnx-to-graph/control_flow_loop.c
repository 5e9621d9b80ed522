/* ONNX Loop -> scf.for or scf.while (control_flow_internal.h).
 *
 * ONNX runs `for (i = 0; i < M && cond; ++i) cond, v... = body(i, cond,
 * v...)`, either bound optional. The exact form:
 *   - scf.for %iv = 0 to M when M is a constant and the condition cannot
 *     end the loop early (no cond input, or a constant true one that the
 *     body passes through unchanged): the body's cond output is ignored;
 *   - otherwise scf.while over (i : i64, cond : i1, carried...), its
 *     before-region testing `i < M && cond` (the bounds given).
 * Scan outputs (values stacked per iteration) need M: they are tensors of
 * [max(M, 0), ...] filled with tensor.insert_slice, and when the condition
 * can stop the loop early cut to the iterations run (tensor.extract_slice).
 * A loop bounded by its condition alone cannot stack outputs: error. */
#include <stdlib.h>
#include <string.h>

#include "conversions/onnx-to-graph/control_flow_internal.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* What the body's block starts with. */
typedef struct LoopPrep {
  bool useFor; /* block args: (index iv) or (i64 i, i1 cond) */
  MlirLocation loc;
} LoopPrep;

/* The body's iteration number and condition inputs as rank-0 tensors. */
static void prepareLoop(void *data, MlirBlock block, MlirValue *inputs) {
  const LoopPrep *p = data;
  MlirContext ctx = mlirLocationGetContext(p->loc);
  MlirValue iter = mlirBlockGetArgument(block, 0);
  if (p->useFor)
    iter =
        kilnOnnxCfIndexCast(block, p->loc, iter, mlirIntegerTypeGet(ctx, 64));
  inputs[0] = kilnOnnxCfScalarTensor(block, p->loc, iter);
  MlirValue cond = p->useFor ? kilnOnnxCfIntConst(block, p->loc,
                                                  mlirIntegerTypeGet(ctx, 1), 1)
                             : mlirBlockGetArgument(block, 1);
  inputs[1] = kilnOnnxCfScalarTensor(block, p->loc, cond);
}

/* True if body output 0 (cond) is body input 1 (cond) or an Identity of
 * it: the body never changes the condition. */
static bool passesCondThrough(const Onnx__GraphProto *g) {
  const char *in = g->input[1]->name, *out = g->output[0]->name;
  if (!in || !out)
    return false;
  if (strcmp(in, out) == 0)
    return true;
  for (size_t i = 0; i < g->n_node; ++i) {
    const Onnx__NodeProto *nd = g->node[i];
    if (nd->n_output == 1 && strcmp(nd->output[0], out) == 0)
      return strcmp(nd->op_type, "Identity") == 0 && nd->n_input == 1 &&
             strcmp(nd->input[0], in) == 0;
  }
  return false;
}

/* Checks Loop's signature and operands; false after an error. */
static bool checkLoop(const KilnOnnxControlFlow *cf, const Onnx__NodeProto *n,
                      const Onnx__GraphProto *g, const MlirValue *operands,
                      MlirLocation loc) {
  if (n->n_input < 2) {
    kilnEmitErrorf(loc, "Loop takes at least 2 inputs (M and cond, either "
                        "may be empty)");
    return false;
  }
  size_t nCarried = n->n_input - 2;
  if (g->n_input != nCarried + 2 || g->n_output < nCarried + 1 ||
      n->n_output > g->n_output - 1) {
    kilnEmitErrorf(loc,
                   "Loop with %zu loop-carried values needs a body of %zu "
                   "inputs and at least %zu outputs, and at most one node "
                   "output per body output after the first; it has %zu "
                   "inputs and %zu outputs, and the node %zu outputs",
                   nCarried, nCarried + 2, nCarried + 1, g->n_input,
                   g->n_output, n->n_output);
    return false;
  }
  if (mlirValueIsNull(operands[0]) && mlirValueIsNull(operands[1])) {
    kilnEmitErrorf(loc, "Loop has neither a trip count M nor a condition: "
                        "it would never end");
    return false;
  }
  if ((!mlirValueIsNull(operands[0]) &&
       !kilnOnnxCfCheckScalar(operands[0], 64, "Loop's trip count M", loc)) ||
      (!mlirValueIsNull(operands[1]) &&
       !kilnOnnxCfCheckScalar(operands[1], 1, "Loop's condition", loc)))
    return false;
  MlirType i64 = mlirRankedTensorTypeGet(
      0, NULL, mlirIntegerTypeGet(cf->ctx, 64), mlirAttributeGetNull());
  MlirType i1 = mlirRankedTensorTypeGet(0, NULL, mlirIntegerTypeGet(cf->ctx, 1),
                                        mlirAttributeGetNull());
  if (!kilnOnnxCfCheckInput(cf->ctx, g->input[0], i64, "Loop", loc) ||
      !kilnOnnxCfCheckInput(cf->ctx, g->input[1], i1, "Loop", loc))
    return false;
  for (size_t k = 0; k < nCarried; ++k) {
    MlirValue v = operands[2 + k];
    if (mlirValueIsNull(v)) {
      kilnEmitErrorf(loc, "Loop's loop-carried input #%zu is empty", k);
      return false;
    }
    if (!kilnOnnxCfCheckInput(cf->ctx, g->input[2 + k], mlirValueGetType(v),
                              "Loop", loc))
      return false;
  }
  if (g->n_output > nCarried + 1 && mlirValueIsNull(operands[0])) {
    kilnEmitErrorf(loc, "Loop with scan outputs needs a trip count M (the "
                        "stacked outputs' size); a loop bounded only by its "
                        "condition is not supported");
    return false;
  }
  return true;
}

/* Checks the body's scan outputs have static shapes; false after an error. */
static bool checkScanOutputs(const Onnx__GraphProto *g, size_t first,
                             const MlirValue *outputs, MlirLocation loc) {
  for (size_t j = first; j < g->n_output; ++j) {
    MlirType t = mlirValueGetType(outputs[j]);
    if (mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t) &&
        mlirShapedTypeGetRank(t) < KILN_ONNX_CF_MAX_RANK)
      continue;
    KilnStrBuf text = {0};
    kilnStrBufAppendType(&text, t);
    kilnEmitErrorf(loc,
                   "Loop scan output '%s' is %s; Kiln stacks only outputs "
                   "of static shape",
                   g->output[j]->name ? g->output[j]->name : "",
                   kilnStrBufGet(&text));
    kilnStrBufDestroy(&text);
    return false;
  }
  return true;
}

/* Everything one Loop is built from. */
typedef struct Loop {
  const KilnOnnxControlFlow *cf;
  MlirLocation loc;
  bool useFor, hasCond;
  int64_t constM;
  size_t nCarried, nScan;
  MlirType *types;   /* carried then scan-buffer types */
  MlirValue *inits;  /* carried inits then scan buffers */
  MlirValue *yields; /* what the body yields after (i, cond) */
  MlirValue count;   /* index: the size of the scan buffers */
} Loop;

/* Allocates the scan buffers in the enclosing block and appends their
 * block arguments and tensor.insert_slice to the body. */
static void addScanBuffers(Loop *l, MlirBlock body, const MlirValue *outputs,
                           MlirValue m) {
  MlirBlock outer = l->cf->block;
  MlirType index = mlirIndexTypeGet(l->cf->ctx);
  if (l->nScan) {
    if (l->useFor) {
      l->count = kilnOnnxCfIndex(outer, l->loc, l->constM > 0 ? l->constM : 0);
    } else {
      MlirValue mi = kilnOnnxCfExtractFirst(outer, l->loc, m);
      MlirValue zero =
          kilnOnnxCfIntConst(outer, l->loc, mlirValueGetType(mi), 0);
      mi = kilnOnnxCfBinary(outer, l->loc, "maxsi", mi, zero);
      l->count = kilnOnnxCfIndexCast(outer, l->loc, mi, index);
    }
  }
  MlirValue iv = mlirBlockGetArgument(body, 0);
  if (!l->useFor && l->nScan)
    iv = kilnOnnxCfIndexCast(body, l->loc, iv, index);
  for (size_t j = 0; j < l->nScan; ++j) {
    MlirValue out = outputs[1 + l->nCarried + j];
    int64_t size = l->useFor ? (l->constM > 0 ? l->constM : 0)
                             : mlirShapedTypeGetDynamicSize();
    MlirType t = kilnOnnxCfInsertDim(mlirValueGetType(out), 0, size);
    size_t k = l->nCarried + j;
    l->types[k] = t;
    l->inits[k] = kilnOnnxCfEmpty(outer, l->loc, t, &l->count, !l->useFor);
    MlirValue buf = mlirBlockAddArgument(body, t, l->loc);
    l->yields[k] = kilnOnnxCfInsertAt(body, l->loc, out, buf, 0, iv);
  }
}

/* scf.for %iv = 0 to M step 1 iter_args(carried..., buffers...). */
static MlirOperation createFor(Loop *l, MlirBlock body) {
  kilnOnnxCfTerminate(body, l->loc, "scf.yield", l->yields,
                      (intptr_t)(l->nCarried + l->nScan));
  MlirBlock outer = l->cf->block;
  size_t n = l->nCarried + l->nScan;
  MlirValue *operands = kilnXCalloc(n + 3, sizeof(MlirValue));
  operands[0] = kilnOnnxCfIndex(outer, l->loc, 0);
  operands[1] = kilnOnnxCfIndex(outer, l->loc, l->constM > 0 ? l->constM : 0);
  operands[2] = kilnOnnxCfIndex(outer, l->loc, 1);
  memcpy(operands + 3, l->inits, n * sizeof(MlirValue));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirOperation op =
      kilnOnnxCfCreate(outer, l->loc, "scf.for", operands, (intptr_t)n + 3,
                       l->types, (intptr_t)n, NULL, 0, &region, 1);
  free(operands);
  return op;
}

/* scf.while (i, cond, carried..., buffers...): the before-region tests
 * i < M && cond; the body (after-region) yields i + 1 and the new cond. */
static MlirOperation createWhile(Loop *l, MlirBlock body, MlirValue m,
                                 MlirValue cond, MlirValue condOut) {
  MlirContext ctx = l->cf->ctx;
  MlirBlock outer = l->cf->block;
  size_t n = l->nCarried + l->nScan + 2;
  MlirType *types = kilnXCalloc(n, sizeof(MlirType));
  MlirLocation *locs = kilnXCalloc(n, sizeof(MlirLocation));
  MlirValue *vals = kilnXCalloc(n + 1, sizeof(MlirValue));
  types[0] = mlirIntegerTypeGet(ctx, 64);
  types[1] = mlirIntegerTypeGet(ctx, 1);
  memcpy(types + 2, l->types, (n - 2) * sizeof(MlirType));
  for (size_t i = 0; i < n; ++i)
    locs[i] = l->loc;
  /* The body: i + 1, the new condition, the carried values, buffers. */
  MlirValue i = mlirBlockGetArgument(body, 0);
  vals[0] = kilnOnnxCfBinary(body, l->loc, "addi", i,
                             kilnOnnxCfIntConst(body, l->loc, types[0], 1));
  vals[1] = l->hasCond ? kilnOnnxCfExtractFirst(body, l->loc, condOut)
                       : mlirBlockGetArgument(body, 1);
  memcpy(vals + 2, l->yields, (n - 2) * sizeof(MlirValue));
  kilnOnnxCfTerminate(body, l->loc, "scf.yield", vals, (intptr_t)n);
  /* The test. */
  MlirBlock before = mlirBlockCreate((intptr_t)n, types, locs);
  MlirValue go = mlirBlockGetArgument(before, 1);
  if (!mlirValueIsNull(m)) {
    MlirValue lt =
        kilnOnnxCfLessThan(before, l->loc, mlirBlockGetArgument(before, 0),
                           kilnOnnxCfExtractFirst(outer, l->loc, m));
    go = l->hasCond ? kilnOnnxCfBinary(before, l->loc, "andi", lt, go) : lt;
  }
  vals[0] = go;
  for (size_t k = 0; k < n; ++k)
    vals[k + 1] = mlirBlockGetArgument(before, (intptr_t)k);
  kilnOnnxCfTerminate(before, l->loc, "scf.condition", vals, (intptr_t)n + 1);
  /* The initial values. */
  vals[0] = kilnOnnxCfIntConst(outer, l->loc, types[0], 0);
  vals[1] = l->hasCond ? kilnOnnxCfExtractFirst(outer, l->loc, cond)
                       : kilnOnnxCfIntConst(outer, l->loc, types[1], 1);
  memcpy(vals + 2, l->inits, (n - 2) * sizeof(MlirValue));
  MlirRegion regions[2] = {mlirRegionCreate(), mlirRegionCreate()};
  mlirRegionAppendOwnedBlock(regions[0], before);
  mlirRegionAppendOwnedBlock(regions[1], body);
  MlirOperation op =
      kilnOnnxCfCreate(outer, l->loc, "scf.while", vals, (intptr_t)n, types,
                       (intptr_t)n, NULL, 0, regions, 2);
  free(types);
  free(locs);
  free(vals);
  return op;
}

/* Maps the loop's results to the node's outputs: carried values, then the
 * scan buffers, cut to the iterations run when cond may stop early. */
static void mapResults(Loop *l, const Onnx__NodeProto *n, MlirOperation op,
                       MlirValue *results) {
  intptr_t first = l->useFor ? 0 : 2;
  MlirValue ran = {NULL};
  if (!l->useFor && l->hasCond && l->nScan)
    ran =
        kilnOnnxCfIndexCast(l->cf->block, l->loc, mlirOperationGetResult(op, 0),
                            mlirIndexTypeGet(l->cf->ctx));
  for (size_t k = 0; k < n->n_output; ++k) {
    results[k] = mlirOperationGetResult(op, first + (intptr_t)k);
    if (k >= l->nCarried && !mlirValueIsNull(ran))
      results[k] = kilnOnnxCfTakeLeading(l->cf->block, l->loc, results[k], ran);
  }
}

bool kilnOnnxCfBuildLoop(const KilnOnnxControlFlow *cf,
                         const Onnx__NodeProto *n, MlirLocation loc,
                         const MlirValue *operands, MlirValue *results) {
  static const char *const kAttrs[] = {"body", NULL};
  const Onnx__GraphProto *g = kilnOnnxCfCheckAttrs(n, kAttrs, loc)
                                  ? kilnOnnxCfGraphAttr(n, "body", loc)
                                  : NULL;
  if (!g || !checkLoop(cf, n, g, operands, loc))
    return false;
  Loop l = {.cf = cf, .loc = loc, .nCarried = n->n_input - 2};
  l.nScan = g->n_output - 1 - l.nCarried;
  l.hasCond = !mlirValueIsNull(operands[1]);
  int64_t c;
  l.useFor = kilnOnnxCfConstInt(operands[0], &l.constM) &&
             (!l.hasCond || (kilnOnnxCfConstInt(operands[1], &c) && c &&
                             passesCondThrough(g)));
  l.types = kilnXCalloc(l.nCarried + l.nScan, sizeof(MlirType));
  l.inits = kilnXCalloc(l.nCarried + l.nScan, sizeof(MlirValue));
  l.yields = kilnXCalloc(l.nCarried + l.nScan, sizeof(MlirValue));
  MlirValue *outputs = kilnXCalloc(g->n_output, sizeof(MlirValue));
  for (size_t k = 0; k < l.nCarried; ++k)
    l.types[k] = mlirValueGetType(operands[2 + k]);
  MlirType lead[2] = {mlirIndexTypeGet(cf->ctx), {NULL}};
  if (!l.useFor) {
    lead[0] = mlirIntegerTypeGet(cf->ctx, 64);
    lead[1] = mlirIntegerTypeGet(cf->ctx, 1);
  }
  LoopPrep prep = {l.useFor, loc};
  KilnOnnxCfBody spec = {g,
                         "Loop",
                         loc,
                         lead,
                         l.useFor ? 1 : 2,
                         2,
                         1,
                         (intptr_t)l.nCarried,
                         prepareLoop,
                         &prep};
  MlirBlock body = kilnOnnxCfImportBody(cf, &spec, l.types, outputs);
  bool ok = !mlirBlockIsNull(body);
  if (ok && (!checkScanOutputs(g, 1 + l.nCarried, outputs, loc) ||
             (l.hasCond && !l.useFor &&
              !kilnOnnxCfCheckScalar(outputs[0], 1,
                                     "Loop body's condition output", loc)))) {
    mlirBlockDestroy(body);
    ok = false;
  }
  if (ok) {
    for (size_t k = 0; k < l.nCarried; ++k) {
      l.inits[k] = kilnOnnxCfCast(cf->block, loc, operands[2 + k], l.types[k]);
      l.yields[k] = outputs[1 + k];
    }
    addScanBuffers(&l, body, outputs, operands[0]);
    MlirOperation op =
        l.useFor ? createFor(&l, body)
                 : createWhile(&l, body, operands[0], operands[1], outputs[0]);
    mapResults(&l, n, op, results);
  }
  free(l.types);
  free(l.inits);
  free(l.yields);
  free(outputs);
  return ok;
}

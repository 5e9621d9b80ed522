/* ONNX Scan -> scf.for (control_flow_internal.h).
 *
 * Scan-9+: `scf.for %iv = 0 to S iter_args(states..., stacked...)`, S the
 * length of the scan axis. Each iteration takes slice iv (S-1-iv when
 * reversed) of every scan input with tensor.extract_slice along its
 * scan_input_axes entry, runs the body, and puts each scan output into
 * its stacked result with tensor.insert_slice along scan_output_axes.
 * Scan-8 adds a batch axis 0 to every state, input and output (and an
 * optional sequence_lens input, which Kiln refuses): an outer scf.for over
 * the batch runs the Scan-9 loop on each batch entry. Scan inputs and
 * outputs need static shapes. */
#include <stdlib.h>
#include <string.h>

#include "conversions/onnx-to-graph/control_flow_internal.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"

/* One Scan-9 loop over already-checked values. */
typedef struct Scan {
  const Onnx__GraphProto *g;
  MlirLocation loc;
  size_t nState, nIn, nOut;
  int64_t *inAxes, *inDirs, *outAxes, *outDirs; /* axes normalized */
  int64_t length;                               /* S */
  const MlirValue *scans;                       /* the nIn scan inputs */
} Scan;

/* iv, or S - 1 - iv when `reverse`: the slice an iteration handles. */
static MlirValue sliceIndex(const Scan *s, MlirBlock block, bool reverse) {
  MlirValue iv = mlirBlockGetArgument(block, 0);
  if (!reverse)
    return iv;
  MlirValue last = kilnOnnxCfIndex(block, s->loc, s->length - 1);
  return kilnOnnxCfBinary(block, s->loc, "subi", last, iv);
}

static void prepareScan(void *data, MlirBlock block, MlirValue *inputs) {
  const Scan *s = data;
  for (size_t j = 0; j < s->nIn; ++j)
    inputs[s->nState + j] =
        kilnOnnxCfExtractAt(block, s->loc, s->scans[j], s->inAxes[j],
                            sliceIndex(s, block, s->inDirs[j]));
}

/* Normalizes `axis` into [0, rank); false after an error. */
static bool normalizeAxis(int64_t *axis, int64_t rank, const char *what,
                          const char *name, MlirLocation loc) {
  if (*axis < -rank || *axis >= rank) {
    kilnEmitErrorf(loc, "Scan %s of '%s' is %lld, outside [%lld, %lld]", what,
                   name, (long long)*axis, (long long)-rank,
                   (long long)(rank - 1));
    return false;
  }
  if (*axis < 0)
    *axis += rank;
  return true;
}

/* Checks a value Scan stacks or slices has a static shape of rank in
 * [minRank, max]; false after an error. */
static bool checkStatic(MlirValue v, intptr_t minRank, const char *what,
                        const char *name, MlirLocation loc) {
  MlirType t = mlirValueGetType(v);
  if (mlirTypeIsARankedTensor(t) && mlirShapedTypeHasStaticShape(t) &&
      mlirShapedTypeGetRank(t) >= minRank &&
      mlirShapedTypeGetRank(t) < KILN_ONNX_CF_MAX_RANK)
    return true;
  KilnStrBuf text = {0};
  kilnStrBufAppendType(&text, t);
  kilnEmitErrorf(loc, "Scan %s '%s' is %s; Kiln needs a static shape%s here",
                 what, name, kilnStrBufGet(&text),
                 minRank ? " of rank >= 1" : "");
  kilnStrBufDestroy(&text);
  return false;
}

/* Checks the scan inputs and finds S; false after an error. */
static bool checkScanInputs(Scan *s, const Onnx__NodeProto *n, size_t first) {
  for (size_t j = 0; j < s->nIn; ++j) {
    const char *name = n->input[first + j];
    if (!checkStatic(s->scans[j], 1, "input", name, s->loc) ||
        !normalizeAxis(&s->inAxes[j],
                       mlirShapedTypeGetRank(mlirValueGetType(s->scans[j])),
                       "input axis", name, s->loc))
      return false;
    int64_t len =
        mlirShapedTypeGetDimSize(mlirValueGetType(s->scans[j]), s->inAxes[j]);
    if (j > 0 && len != s->length) {
      kilnEmitErrorf(s->loc,
                     "Scan input '%s' has %lld entries along its scan axis, "
                     "but the first scan input %lld",
                     name, (long long)len, (long long)s->length);
      return false;
    }
    s->length = len;
  }
  return true;
}

/* Builds the scf.for of `s` at the end of `outer` from the initial
 * `states`; stores states then stacked outputs in `results`. */
static bool buildScanLoop(const KilnOnnxControlFlow *cf, Scan *s,
                          MlirBlock outer, const MlirValue *states,
                          MlirValue *results) {
  size_t nRes = s->nState + s->nOut;
  MlirType *types = kilnXCalloc(nRes, sizeof(MlirType));
  MlirValue *vals = kilnXCalloc(nRes + 3, sizeof(MlirValue));
  MlirValue *outputs = kilnXCalloc(s->g->n_output, sizeof(MlirValue));
  for (size_t k = 0; k < s->nState; ++k)
    types[k] = mlirValueGetType(states[k]);
  MlirType lead = mlirIndexTypeGet(cf->ctx);
  KilnOnnxCfBody spec = {s->g,        "Scan", s->loc, &lead,
                         1,           0,      0,      (intptr_t)s->nState,
                         prepareScan, s};
  KilnOnnxControlFlow inner = *cf;
  inner.block = outer;
  MlirBlock body = kilnOnnxCfImportBody(&inner, &spec, types, outputs);
  bool ok = !mlirBlockIsNull(body);
  for (size_t j = 0; ok && j < s->nOut; ++j) {
    MlirValue out = outputs[s->nState + j];
    const char *name = s->g->output[s->nState + j]->name;
    name = name ? name : "";
    ok = checkStatic(out, 0, "body output", name, s->loc) &&
         normalizeAxis(&s->outAxes[j],
                       mlirShapedTypeGetRank(mlirValueGetType(out)) + 1,
                       "output axis", name, s->loc);
  }
  if (!ok) {
    if (!mlirBlockIsNull(body))
      mlirBlockDestroy(body);
    goto out;
  }
  vals[0] = kilnOnnxCfIndex(outer, s->loc, 0);
  vals[1] = kilnOnnxCfIndex(outer, s->loc, s->length);
  vals[2] = kilnOnnxCfIndex(outer, s->loc, 1);
  for (size_t k = 0; k < s->nState; ++k)
    vals[3 + k] = kilnOnnxCfCast(outer, s->loc, states[k], types[k]);
  for (size_t j = 0; j < s->nOut; ++j) {
    MlirValue out = outputs[s->nState + j];
    MlirType t =
        kilnOnnxCfInsertDim(mlirValueGetType(out), s->outAxes[j], s->length);
    types[s->nState + j] = t;
    vals[3 + s->nState + j] = kilnOnnxCfEmpty(outer, s->loc, t, NULL, 0);
    MlirValue buf = mlirBlockAddArgument(body, t, s->loc);
    outputs[s->nState + j] =
        kilnOnnxCfInsertAt(body, s->loc, out, buf, s->outAxes[j],
                           sliceIndex(s, body, s->outDirs[j]));
  }
  kilnOnnxCfTerminate(body, s->loc, "scf.yield", outputs, (intptr_t)nRes);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirOperation op =
      kilnOnnxCfCreate(outer, s->loc, "scf.for", vals, (intptr_t)nRes + 3,
                       types, (intptr_t)nRes, NULL, 0, &region, 1);
  for (size_t k = 0; k < nRes; ++k)
    results[k] = mlirOperationGetResult(op, (intptr_t)k);
out:
  free(types);
  free(vals);
  free(outputs);
  return ok;
}

/* Reads INTS attribute `name` of `n` into `out` (count entries, default
 * `dflt` each); false after an error. */
static bool readInts(const Onnx__NodeProto *n, const char *name, size_t count,
                     int64_t dflt, int64_t *out, MlirLocation loc) {
  const Onnx__AttributeProto *a = kilnOnnxCfAttr(n, name);
  for (size_t i = 0; i < count; ++i)
    out[i] = a ? 0 : dflt;
  if (!a)
    return true;
  if (a->n_ints != count) {
    kilnEmitErrorf(loc, "Scan attribute '%s' has %zu entries, expected %zu",
                   name, a->n_ints, count);
    return false;
  }
  for (size_t i = 0; i < count; ++i) {
    out[i] = a->ints[i];
    if (strstr(name, "directions") && out[i] != 0 && out[i] != 1) {
      kilnEmitErrorf(loc,
                     "Scan attribute '%s' entry %zu is %lld; directions "
                     "are 0 (forward) or 1 (reverse)",
                     name, i, (long long)out[i]);
      return false;
    }
  }
  return true;
}

/* Checks the counts and reads num_scan_inputs; false after an error. */
static bool checkCounts(const Onnx__NodeProto *n, const Onnx__GraphProto *g,
                        size_t numLead, Scan *s) {
  const Onnx__AttributeProto *a = kilnOnnxCfAttr(n, "num_scan_inputs");
  if (!a || !a->has_i || a->i < 1) {
    kilnEmitErrorf(s->loc, "Scan needs the INT attribute 'num_scan_inputs' "
                           "(at least 1)");
    return false;
  }
  size_t nIn = (size_t)a->i;
  if (n->n_input < numLead + nIn || g->n_input != n->n_input - numLead ||
      g->n_output < n->n_input - numLead - nIn || n->n_output > g->n_output) {
    kilnEmitErrorf(s->loc,
                   "Scan with %zu inputs (%zu scanned) does not fit its body "
                   "of %zu inputs and %zu outputs, or its %zu outputs",
                   n->n_input, nIn, g->n_input, g->n_output, n->n_output);
    return false;
  }
  s->nIn = nIn;
  s->nState = n->n_input - numLead - nIn;
  s->nOut = g->n_output - s->nState;
  return true;
}

/* Scan-8's batch loop around the Scan-9 loop; see the file comment. */
static bool buildBatched(const KilnOnnxControlFlow *cf, Scan *s,
                         const Onnx__NodeProto *n, const MlirValue *operands,
                         MlirValue *results);

bool kilnOnnxCfBuildScan(const KilnOnnxControlFlow *cf,
                         const Onnx__NodeProto *n, MlirLocation loc,
                         const MlirValue *operands, MlirValue *results) {
  static const char *const kAttrs9[] = {"body",
                                        "num_scan_inputs",
                                        "scan_input_axes",
                                        "scan_input_directions",
                                        "scan_output_axes",
                                        "scan_output_directions",
                                        NULL};
  static const char *const kAttrs8[] = {"body", "num_scan_inputs", "directions",
                                        NULL};
  bool v8 = cf->opset < 9;
  Scan s = {.loc = loc};
  s.g = kilnOnnxCfCheckAttrs(n, v8 ? kAttrs8 : kAttrs9, loc)
            ? kilnOnnxCfGraphAttr(n, "body", loc)
            : NULL;
  if (!s.g || !checkCounts(n, s.g, v8, &s))
    return false;
  for (size_t i = 0; i < n->n_input; ++i)
    if (mlirValueIsNull(operands[i]) && !(v8 && i == 0)) {
      kilnEmitErrorf(loc, "Scan input #%zu is empty", i);
      return false;
    }
  s.inAxes = kilnXCalloc(s.nIn, sizeof(int64_t));
  s.inDirs = kilnXCalloc(s.nIn, sizeof(int64_t));
  s.outAxes = kilnXCalloc(s.nOut, sizeof(int64_t));
  s.outDirs = kilnXCalloc(s.nOut, sizeof(int64_t));
  bool ok;
  if (v8) {
    ok = readInts(n, "directions", s.nIn, 0, s.inDirs, loc) &&
         buildBatched(cf, &s, n, operands, results);
  } else {
    s.scans = operands + s.nState;
    ok = readInts(n, "scan_input_axes", s.nIn, 0, s.inAxes, loc) &&
         readInts(n, "scan_input_directions", s.nIn, 0, s.inDirs, loc) &&
         readInts(n, "scan_output_axes", s.nOut, 0, s.outAxes, loc) &&
         readInts(n, "scan_output_directions", s.nOut, 0, s.outDirs, loc) &&
         checkScanInputs(&s, n, s.nState);
    for (size_t k = 0; ok && k < s.nState; ++k)
      ok = kilnOnnxCfCheckInput(cf->ctx, s.g->input[k],
                                mlirValueGetType(operands[k]), "Scan", loc);
    MlirValue *res = kilnXCalloc(s.nState + s.nOut, sizeof(MlirValue));
    ok = ok && buildScanLoop(cf, &s, cf->block, operands, res);
    for (size_t i = 0; ok && i < n->n_output; ++i)
      results[i] = res[i];
    free(res);
  }
  free(s.inAxes);
  free(s.inDirs);
  free(s.outAxes);
  free(s.outDirs);
  return ok;
}

/* Scan-8: checks the batch dims and slices entry %b of each state and
 * scan input into `states` / `scans` inside `block`. */
static bool sliceBatch(Scan *s, const Onnx__NodeProto *n,
                       const MlirValue *operands, MlirBlock block,
                       MlirValue *states, MlirValue *scans, int64_t *batch) {
  MlirValue b = mlirBlockGetArgument(block, 0);
  for (size_t i = 1; i < n->n_input; ++i) {
    if (!checkStatic(operands[i], i > s->nState ? 2 : 1, "input", n->input[i],
                     s->loc))
      return false;
    int64_t d = mlirShapedTypeGetDimSize(mlirValueGetType(operands[i]), 0);
    if (i > 1 && d != *batch) {
      kilnEmitErrorf(s->loc,
                     "Scan input '%s' has batch size %lld, but the "
                     "first input %lld",
                     n->input[i], (long long)d, (long long)*batch);
      return false;
    }
    *batch = d;
    MlirValue slice = kilnOnnxCfExtractAt(block, s->loc, operands[i], 0, b);
    if (i <= s->nState)
      states[i - 1] = slice;
    else
      scans[i - 1 - s->nState] = slice;
  }
  return true;
}

static bool buildBatched(const KilnOnnxControlFlow *cf, Scan *s,
                         const Onnx__NodeProto *n, const MlirValue *operands,
                         MlirValue *results) {
  if (!mlirValueIsNull(operands[0])) {
    kilnEmitErrorf(s->loc, "Scan-8's sequence_lens input is not supported "
                           "(leave it empty: every sequence has full length)");
    return false;
  }
  size_t nRes = s->nState + s->nOut;
  MlirValue *states = kilnXCalloc(s->nState, sizeof(MlirValue));
  MlirValue *scans = kilnXCalloc(s->nIn, sizeof(MlirValue));
  MlirValue *inner = kilnXCalloc(nRes, sizeof(MlirValue));
  MlirType *types = kilnXCalloc(nRes, sizeof(MlirType));
  MlirValue *vals = kilnXCalloc(nRes + 3, sizeof(MlirValue));
  MlirType index = mlirIndexTypeGet(cf->ctx);
  MlirBlock block = mlirBlockCreate(1, &index, &s->loc);
  int64_t batch = 0;
  s->scans = scans;
  bool ok = sliceBatch(s, n, operands, block, states, scans, &batch) &&
            checkScanInputs(s, n, 1 + s->nState) &&
            buildScanLoop(cf, s, block, states, inner);
  for (size_t k = 0; ok && k < nRes; ++k)
    ok = checkStatic(inner[k], 0, "result", k < n->n_output ? n->output[k] : "",
                     s->loc);
  if (!ok) {
    mlirBlockDestroy(block);
    goto out;
  }
  MlirValue b = mlirBlockGetArgument(block, 0);
  vals[0] = kilnOnnxCfIndex(cf->block, s->loc, 0);
  vals[1] = kilnOnnxCfIndex(cf->block, s->loc, batch);
  vals[2] = kilnOnnxCfIndex(cf->block, s->loc, 1);
  for (size_t k = 0; k < nRes; ++k) {
    types[k] = kilnOnnxCfInsertDim(mlirValueGetType(inner[k]), 0, batch);
    vals[3 + k] = kilnOnnxCfEmpty(cf->block, s->loc, types[k], NULL, 0);
    MlirValue buf = mlirBlockAddArgument(block, types[k], s->loc);
    inner[k] = kilnOnnxCfInsertAt(block, s->loc, inner[k], buf, 0, b);
  }
  kilnOnnxCfTerminate(block, s->loc, "scf.yield", inner, (intptr_t)nRes);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperation op =
      kilnOnnxCfCreate(cf->block, s->loc, "scf.for", vals, (intptr_t)nRes + 3,
                       types, (intptr_t)nRes, NULL, 0, &region, 1);
  for (size_t i = 0; i < n->n_output; ++i)
    results[i] = mlirOperationGetResult(op, (intptr_t)i);
out:
  free(states);
  free(scans);
  free(inner);
  free(types);
  free(vals);
  return ok;
}

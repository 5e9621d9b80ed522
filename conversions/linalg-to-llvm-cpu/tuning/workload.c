/* Workloads: what kiln-tune measures and kiln-apply-tuning schedules
 * (include/kiln/tuning.h).
 *
 * The key is a 64-bit FNV-1a hash of a canonical text of the workload, one
 * line per op in block order:
 *
 *   group conv_epilogue
 *   graph.conv(in0:tensor<1x64x56x56xf32>, const:tensor<64x64x3x3xf32>,
 *              const:tensor<64xf32>) {dilations = ..., ...}
 *              -> tensor<1x64x56x56xf32>
 *   graph.add(%0, in1:tensor<1x64x56x56xf32>) -> tensor<1x64x56x56xf32>
 *   graph.relu(%1) -> tensor<1x64x56x56xf32>
 *   yield %2
 *
 * Values from outside are numbered by first use (`inK`), constants named by
 * type only (the schedule does not depend on the weights' values), results
 * of the workload's own ops by position (`%N`); attributes are printed in
 * their (sorted) dictionary order, leaving out those equal to their ONNX
 * default (an export that spells out `dilations = [1, 1]` and `group = 1`
 * and one that does not give the same key). Locations and ONNX names are left
 * out, so identical layers share a key within and across models. */
#include "kiln/tuning.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/op_table.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/hash.h"
#include "support/ir_build.h"
#include "support/op_list.h"

/* Ops that reduce rows of their input: what kiln-split-reductions splits
 * and kiln-tile-and-vectorize tiles like a contraction. */
static bool isReduction(MlirOperation op) {
  static const char *const kNames[] = {"graph.softmax",
                                       "graph.log_softmax",
                                       "graph.layer_norm",
                                       "graph.instance_norm",
                                       "graph.global_average_pool",
                                       "graph.global_max_pool",
                                       "graph.mean_variance_normalization"};
  if (kilnOpNameStartsWith(op, "graph.reduce_"))
    return true;
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i)
    if (kilnOpNameIs(op, kNames[i]))
      return true;
  return false;
}

static bool isAnchor(MlirOperation op) {
  return kilnOpNameIs(op, "graph.conv") || kilnOpNameIs(op, "graph.matmul") ||
         kilnOpNameIs(op, "graph.gemm") || isReduction(op);
}

static bool isConstant(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  return kilnOpNameIs(def, "graph.constant") ||
         kilnOpNameIs(def, "arith.constant");
}

/* The group's string kind, or a null ref when `op` is not a group. */
static MlirStringRef groupKind(MlirOperation op) {
  if (!kilnOpNameIs(op, "scf.execute_region"))
    return (MlirStringRef){NULL, 0};
  MlirAttribute kind =
      mlirOperationGetDiscardableAttributeByName(op, kilnStr("graph.fusion"));
  if (mlirAttributeIsNull(kind) || !mlirAttributeIsAString(kind))
    return (MlirStringRef){NULL, 0};
  return mlirStringAttrGetValue(kind);
}

/* The anchor of a group (its first conv/matmul/gemm), null if none. */
static MlirOperation groupAnchor(MlirOperation group) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(group, 0));
  if (mlirBlockIsNull(body) || !mlirBlockIsNull(mlirBlockGetNextInRegion(body)))
    return (MlirOperation){NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (isAnchor(op))
      return op;
  return (MlirOperation){NULL};
}

static KilnWorkloadKind anchorKind(MlirOperation anchor) {
  if (isReduction(anchor))
    return KILN_WORKLOAD_REDUCTION;
  if (!kilnOpNameIs(anchor, "graph.conv"))
    return KILN_WORKLOAD_MATMUL;
  int64_t group = kilnOpGetIntAttr(anchor, "group", 1);
  if (group == 1)
    return KILN_WORKLOAD_CONV;
  MlirType w = mlirValueGetType(mlirOperationGetOperand(anchor, 1));
  if (mlirShapedTypeHasRank(w) && mlirShapedTypeGetRank(w) >= 2 &&
      mlirShapedTypeGetDimSize(w, 1) == 1)
    return KILN_WORKLOAD_DEPTHWISE_CONV;
  return KILN_WORKLOAD_GROUPED_CONV;
}

/* The ops of a workload, in block order (a lone op: itself). */
static void collectMembers(MlirOperation op, KilnOpList *members) {
  if (!kilnOpNameIs(op, "scf.execute_region")) {
    kilnOpListPush(members, op);
    return;
  }
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (MlirOperation m = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(m); m = mlirOperationGetNextInBlock(m))
    kilnOpListPush(members, m);
}

/* The index of the member defining `v` and its result number, or -1. */
static intptr_t memberIndex(const KilnOpList *members, MlirValue v,
                            intptr_t *resultNo) {
  if (!mlirValueIsAOpResult(v))
    return -1;
  MlirOperation def = mlirOpResultGetOwner(v);
  for (size_t i = 0; i < members->len; ++i)
    if (mlirOperationEqual(members->data[i], def)) {
      *resultNo = mlirOpResultGetResultNumber(v);
      return (intptr_t)i;
    }
  return -1;
}

/* Outside values read by the workload, in order of first use (constants
 * excluded). */
static void collectInputs(const KilnOpList *members, MlirValue **inputs,
                          size_t *numInputs) {
  size_t cap = 8, n = 0;
  MlirValue *vs = malloc(cap * sizeof(*vs));
  if (!vs)
    abort();
  for (size_t i = 0; i < members->len; ++i) {
    MlirOperation op = members->data[i];
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); ++k) {
      MlirValue v = mlirOperationGetOperand(op, k);
      intptr_t r;
      if (memberIndex(members, v, &r) >= 0 || isConstant(v))
        continue;
      bool seen = false;
      for (size_t j = 0; j < n && !seen; ++j)
        seen = mlirValueEqual(vs[j], v);
      if (seen)
        continue;
      if (n == cap) {
        cap *= 2;
        vs = realloc(vs, cap * sizeof(*vs));
        if (!vs)
          abort();
      }
      vs[n++] = v;
    }
  }
  *inputs = vs;
  *numInputs = n;
}

static void appendValue(KilnStrBuf *buf, const KilnOpList *members,
                        const MlirValue *inputs, size_t numInputs,
                        MlirValue v) {
  intptr_t r;
  intptr_t m = memberIndex(members, v, &r);
  if (m >= 0) {
    kilnStrBufAppendf(buf, "%%%ld#%ld", (long)m, (long)r);
    return;
  }
  if (isConstant(v)) {
    kilnStrBufAppendf(buf, "const:");
  } else {
    size_t k = 0;
    while (k < numInputs && !mlirValueEqual(inputs[k], v))
      ++k;
    kilnStrBufAppendf(buf, "in%zu:", k);
  }
  kilnStrBufAppendType(buf, mlirValueGetType(v));
}

/* The canonical text of the workload (see the file comment). */
static void canonicalText(MlirOperation op, KilnStrBuf *buf) {
  KilnOpList members = {0};
  collectMembers(op, &members);
  MlirValue *inputs;
  size_t numInputs;
  collectInputs(&members, &inputs, &numInputs);
  MlirStringRef kind = groupKind(op);
  if (kind.data)
    kilnStrBufAppendf(buf, "group %.*s\n", (int)kind.length, kind.data);
  for (size_t i = 0; i < members.len; ++i) {
    MlirOperation m = members.data[i];
    MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(m));
    kilnStrBufAppendf(buf, "%.*s(", (int)name.length, name.data);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(m); ++k) {
      if (k)
        kilnStrBufAppendf(buf, ", ");
      appendValue(buf, &members, inputs, numInputs,
                  mlirOperationGetOperand(m, k));
    }
    kilnStrBufAppendf(buf, ")");
    const KilnGraphOpInfo *info = kilnGraphOpLookup(name);
    for (intptr_t a = 0; a < mlirOperationGetNumAttributes(m); ++a) {
      MlirNamedAttribute na = mlirOperationGetAttribute(m, a);
      MlirStringRef an = mlirIdentifierStr(na.name);
      const KilnAttrSpec *spec = info ? kilnGraphOpFindAttr(info, an) : NULL;
      if (spec && kilnGraphAttrIsDefault(spec, na.attribute))
        continue;
      kilnStrBufAppendf(buf, " %.*s=", (int)an.length, an.data);
      kilnStrBufAppendAttribute(buf, na.attribute);
    }
    kilnStrBufAppendf(buf, " ->");
    for (intptr_t r = 0; r < mlirOperationGetNumResults(m); ++r) {
      kilnStrBufAppendf(buf, " ");
      kilnStrBufAppendType(buf, mlirValueGetType(mlirOperationGetResult(m, r)));
    }
    kilnStrBufAppendf(buf, "\n");
  }
  free(inputs);
  kilnOpListDestroy(&members);
}

/* "conv_epilogue: conv 1x64x56x56 * 64x64x3x3 -> 1x64x56x56 + add, relu" */
static void describe(MlirOperation op, MlirOperation anchor, KilnStrBuf *buf) {
  MlirStringRef kind = groupKind(op);
  if (kind.data)
    kilnStrBufAppendf(buf, "%.*s: ", (int)kind.length, kind.data);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(anchor));
  kilnStrBufAppendf(buf, "%.*s", (int)name.length - 6, name.data + 6);
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(anchor) && k < 2; ++k) {
    MlirType t = mlirValueGetType(mlirOperationGetOperand(anchor, k));
    kilnStrBufAppendf(buf, k ? " * " : " ");
    if (!mlirShapedTypeHasRank(t))
      continue;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d)
      kilnStrBufAppendf(buf, d ? "x%ld" : "%ld",
                        (long)mlirShapedTypeGetDimSize(t, d));
  }
  int64_t group = kilnOpGetIntAttr(anchor, "group", 1);
  if (group > 1)
    kilnStrBufAppendf(buf, " groups %ld", (long)group);
  if (!kind.data)
    return;
  KilnOpList members = {0};
  collectMembers(op, &members);
  const char *sep = " +";
  for (size_t i = 0; i < members.len; ++i) {
    MlirOperation m = members.data[i];
    if (mlirOperationEqual(m, anchor) || kilnOpNameIs(m, "scf.yield"))
      continue;
    MlirStringRef mn = mlirIdentifierStr(mlirOperationGetName(m));
    bool graph = mn.length > 6 && !memcmp(mn.data, "graph.", 6);
    kilnStrBufAppendf(buf, "%s %.*s", sep, (int)mn.length - (graph ? 6 : 0),
                      mn.data + (graph ? 6 : 0));
    sep = ",";
  }
  kilnOpListDestroy(&members);
}

typedef struct WalkState {
  KilnWorkloadFn fn;
  void *userData;
  intptr_t count;
} WalkState;

static void visit(WalkState *s, MlirOperation op, MlirOperation anchor) {
  KilnStrBuf text = {0}, description = {0};
  canonicalText(op, &text);
  describe(op, anchor, &description);
  char key[17];
  snprintf(key, sizeof(key), "%016llx",
           (unsigned long long)kilnFnv1aString(kilnStrBufGet(&text)));
  KilnWorkload w = {.op = op,
                    .key = key,
                    .description = kilnStrBufGet(&description),
                    .kind = anchorKind(anchor)};
  ++s->count;
  if (s->fn)
    s->fn(&w, s->userData);
  kilnStrBufDestroy(&text);
  kilnStrBufDestroy(&description);
}

static MlirWalkResult walkWorkloads(MlirOperation op, void *userData) {
  WalkState *s = userData;
  if (groupKind(op).data) {
    MlirOperation anchor = groupAnchor(op);
    if (!mlirOperationIsNull(anchor)) {
      visit(s, op, anchor);
      return MlirWalkResultSkip;
    }
    return MlirWalkResultAdvance;
  }
  if (isAnchor(op))
    visit(s, op, op);
  return MlirWalkResultAdvance;
}

intptr_t kilnWorkloadsWalk(MlirOperation root, KilnWorkloadFn fn,
                           void *userData) {
  WalkState s = {fn, userData, 0};
  mlirOperationWalk(root, walkWorkloads, &s, MlirWalkPreOrder);
  return s.count;
}

/* Points every operand of `op` and the ops nested in it that reads
 * `from[i]` at `to[i]` instead (the clone of a workload still reads the
 * model's values). */
static void remapOperands(MlirOperation op, const MlirValue *from,
                          const MlirValue *to, size_t n) {
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); ++k) {
    MlirValue v = mlirOperationGetOperand(op, k);
    for (size_t i = 0; i < n; ++i)
      if (mlirValueEqual(v, from[i])) {
        mlirOperationSetOperand(op, k, to[i]);
        break;
      }
  }
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      for (MlirOperation o = mlirBlockGetFirstOperation(b);
           !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
        remapOperands(o, from, to, n);
}

/* The constants the workload's ops read (their defining ops, once each). */
static void collectConstants(const KilnOpList *members, KilnOpList *consts) {
  for (size_t i = 0; i < members->len; ++i) {
    MlirOperation op = members->data[i];
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(op); ++k) {
      MlirValue v = mlirOperationGetOperand(op, k);
      if (isConstant(v) && !kilnOpListContains(consts, mlirOpResultGetOwner(v)))
        kilnOpListPush(consts, mlirOpResultGetOwner(v));
    }
  }
}

MlirModule kilnWorkloadCreateKernelModule(const KilnWorkload *workload) {
  MlirOperation op = workload->op;
  MlirContext ctx = mlirOperationGetContext(op);
  MlirLocation loc = mlirOperationGetLocation(op);
  KilnOpList members = {0}, consts = {0};
  collectMembers(op, &members);
  collectConstants(&members, &consts);
  MlirValue *inputs;
  size_t numInputs;
  collectInputs(&members, &inputs, &numInputs);
  intptr_t numResults = mlirOperationGetNumResults(op);
  MlirType *types = malloc((numInputs + numResults + 1) * sizeof(*types));
  MlirLocation *locs = malloc((numInputs + 1) * sizeof(*locs));
  size_t numMapped = numInputs + consts.len;
  MlirValue *from = malloc((numMapped + 1) * sizeof(*from));
  MlirValue *to = malloc((numMapped + 1) * sizeof(*to));
  if (!types || !locs || !from || !to)
    abort();
  for (size_t i = 0; i < numInputs; ++i) {
    types[i] = mlirValueGetType(inputs[i]);
    locs[i] = loc;
  }
  for (intptr_t r = 0; r < numResults; ++r)
    types[numInputs + r] = mlirValueGetType(mlirOperationGetResult(op, r));

  MlirModule module = mlirModuleCreateEmpty(loc);
  MlirBlock block = mlirBlockCreate((intptr_t)numInputs, types, locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState st = mlirOperationStateGet(kilnStr("func.func"), loc);
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("sym_name")),
                            mlirStringAttrGet(ctx, kilnStr("main_graph"))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("function_type")),
          mlirTypeAttrGet(mlirFunctionTypeGet(ctx, (intptr_t)numInputs, types,
                                              numResults, types + numInputs))),
  };
  mlirOperationStateAddAttributes(&st, 2, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation func = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), func);

  for (size_t i = 0; i < numInputs; ++i) {
    from[i] = inputs[i];
    to[i] = mlirBlockGetArgument(block, (intptr_t)i);
  }
  for (size_t i = 0; i < consts.len; ++i) {
    MlirOperation c = mlirOperationClone(consts.data[i]);
    mlirBlockAppendOwnedOperation(block, c);
    from[numInputs + i] = mlirOperationGetResult(consts.data[i], 0);
    to[numInputs + i] = mlirOperationGetResult(c, 0);
  }
  MlirOperation clone = mlirOperationClone(op);
  mlirBlockAppendOwnedOperation(block, clone);
  remapOperands(clone, from, to, numMapped);
  MlirValue *results = malloc((numResults + 1) * sizeof(*results));
  if (!results)
    abort();
  for (intptr_t r = 0; r < numResults; ++r)
    results[r] = mlirOperationGetResult(clone, r);
  MlirOperationState ret = mlirOperationStateGet(kilnStr("func.return"), loc);
  mlirOperationStateAddOperands(&ret, numResults, results);
  mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&ret));

  free(results);
  free(from);
  free(to);
  free(types);
  free(locs);
  free(inputs);
  kilnOpListDestroy(&consts);
  kilnOpListDestroy(&members);
  return module;
}

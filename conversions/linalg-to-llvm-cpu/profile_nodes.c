/* kiln-profile-nodes: the facts a profile reports per ONNX node, taken
 * while the model is linalg on tensors (start of linalg-to-llvm-cpu),
 * where they are still plain to read: each node's FLOPs and its output
 * type. kiln-instrument-ops, which times the bufferized ops, reads them
 * back (docs/kiln-compile.md, "Profiling").
 *
 * FLOPs count 2 x the multiply-accumulates of contractions (convs,
 * matmuls, im2col products: linalg ops with a reduction loop and a
 * multiply in their body) from their static loop ranges, times the trip
 * counts of the tile loops around them (fusion groups are already tiled
 * here); other ops count 0. A node's output type is the tensor its last
 * top-level op produces (through reshapes), so a fused group's members
 * all get the group's output. Nothing happens unless the module carries
 * `kiln.profile`. */
#include "conversions/linalg-to-llvm-cpu/profile_nodes.h"

#include <stdlib.h>
#include <string.h>

#include "kiln/compile.h"
#include "kiln/diagnostics.h"
#include "kiln/passes.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Linalg.h"
#include "support/ir_build.h"

/* "NAME (OpType)": the importer's node locations (kilnOnnxNodeLoc), as
 * opposed to its value locations (a bare tensor name). */
static bool isNodeKey(MlirStringRef s) {
  if (s.length < 4 || s.data[s.length - 1] != ')')
    return false;
  for (size_t i = s.length - 1; i-- > 0;)
    if (s.data[i] == '(')
      return i > 0 && s.data[i - 1] == ' ' && i + 2 < s.length;
  return false;
}

void kilnProfileForEachNode(MlirLocation loc, KilnProfileNodeFn fn,
                            void *userData) {
  for (int depth = 0; depth < 64 && !mlirLocationIsNull(loc); ++depth) {
    if (mlirLocationIsAName(loc)) {
      MlirStringRef name = mlirIdentifierStr(mlirLocationNameGetName(loc));
      if (isNodeKey(name)) {
        fn(name, userData);
        return;
      }
      loc = mlirLocationNameGetChildLoc(loc);
    } else if (mlirLocationIsACallSite(loc)) {
      loc = mlirLocationCallSiteGetCallee(loc);
    } else if (mlirLocationIsAFused(loc)) {
      unsigned n = mlirLocationFusedGetNumLocations(loc);
      MlirLocation *parts = malloc((n ? n : 1) * sizeof(*parts));
      if (!parts)
        abort();
      mlirLocationFusedGetLocations(loc, parts);
      for (unsigned i = 0; i < n; ++i)
        kilnProfileForEachNode(parts[i], fn, userData);
      free(parts);
      return;
    } else {
      return;
    }
  }
}

bool kilnProfileIsRequested(MlirOperation module) {
  return !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
      module, kilnStr(KILN_PROFILE_ATTR)));
}

/* ---- the per-node table ---------------------------------------------------
 */

typedef struct Node {
  MlirStringRef key; /* borrowed from the context's identifiers */
  int64_t flops;
  MlirType type; /* null until a top-level op names the node */
} Node;

typedef struct Nodes {
  Node *data;
  size_t len, cap;
  MlirType current; /* the output type of the top-level op being visited */
} Nodes;

static Node *lookup(Nodes *t, MlirStringRef key) {
  for (size_t i = t->len; i-- > 0;)
    if (mlirStringRefEqual(t->data[i].key, key))
      return &t->data[i];
  if (t->len == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 64;
    t->data = realloc(t->data, t->cap * sizeof(Node));
    if (!t->data)
      abort();
  }
  t->data[t->len] = (Node){.key = key};
  return &t->data[t->len++];
}

static void setType(MlirStringRef key, void *userData) {
  Nodes *t = userData;
  Node *n = lookup(t, key);
  if (!mlirTypeIsNull(t->current))
    n->type = t->current;
}

/* ---- FLOPs ------------------------------------------------------------------
 */

/* The static trip count of a tile loop, 1 for other region ops, -1 when
 * unknown. */
static int64_t tripCount(MlirOperation op) {
  if (kilnOpNameIs(op, "scf.for")) {
    int64_t lb, ub, step;
    if (!kilnConstantIndexValue(mlirOperationGetOperand(op, 0), &lb) ||
        !kilnConstantIndexValue(mlirOperationGetOperand(op, 1), &ub) ||
        !kilnConstantIndexValue(mlirOperationGetOperand(op, 2), &step) ||
        step <= 0)
      return -1;
    return ub > lb ? (ub - lb + step - 1) / step : 0;
  }
  if (!kilnOpNameIs(op, "scf.forall"))
    return 1;
  MlirAttribute lbs =
      mlirOperationGetAttributeByName(op, kilnStr("staticLowerBound"));
  MlirAttribute ubs =
      mlirOperationGetAttributeByName(op, kilnStr("staticUpperBound"));
  MlirAttribute steps =
      mlirOperationGetAttributeByName(op, kilnStr("staticStep"));
  if (mlirAttributeIsNull(lbs) || mlirAttributeIsNull(ubs) ||
      mlirAttributeIsNull(steps))
    return -1;
  int64_t trips = 1;
  for (intptr_t i = 0; i < mlirDenseArrayGetNumElements(ubs); ++i) {
    int64_t lb = mlirDenseI64ArrayGetElement(lbs, i);
    int64_t ub = mlirDenseI64ArrayGetElement(ubs, i);
    int64_t step = mlirDenseI64ArrayGetElement(steps, i);
    if (lb == mlirShapedTypeGetDynamicSize() ||
        ub == mlirShapedTypeGetDynamicSize() || step <= 0)
      return -1;
    trips *= ub > lb ? (ub - lb + step - 1) / step : 0;
  }
  return trips;
}

static bool bodyMultiplies(MlirOperation op) {
  if (mlirOperationGetNumRegions(op) != 1)
    return false;
  MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (MlirOperation o = mlirBlockIsNull(b) ? (MlirOperation){NULL}
                                            : mlirBlockGetFirstOperation(b);
       !mlirOperationIsNull(o); o = mlirOperationGetNextInBlock(o))
    if (kilnOpNameIs(o, "arith.mulf") || kilnOpNameIs(o, "arith.muli"))
      return true;
  return false;
}

enum { kMaxLoops = 16 };

/* 2 x the iteration space of a linalg contraction with static loop
 * ranges; 0 for other ops. */
static int64_t contractionFlops(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length < 7 || memcmp(name.data, "linalg.", 7) || !bodyMultiplies(op))
    return 0;
  MlirAttribute maps = mlirLinalgGetIndexingMapsAttribute(op);
  if (mlirAttributeIsNull(maps) || !mlirAttributeIsAArray(maps))
    return 0;
  intptr_t numMaps = mlirArrayAttrGetNumElements(maps);
  if (numMaps < 2 || numMaps > mlirOperationGetNumOperands(op))
    return 0;
  MlirAffineMap out =
      mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, numMaps - 1));
  intptr_t loops = mlirAffineMapGetNumDims(out);
  if (loops > kMaxLoops)
    return 0;
  int64_t ranges[kMaxLoops];
  bool inOutput[kMaxLoops] = {false};
  for (intptr_t d = 0; d < loops; ++d)
    ranges[d] = -1;
  for (intptr_t m = 0; m < numMaps; ++m) {
    MlirAffineMap map =
        mlirAffineMapAttrGetValue(mlirArrayAttrGetElement(maps, m));
    MlirType t = mlirValueGetType(mlirOperationGetOperand(op, m));
    if (!mlirTypeIsAShaped(t) || !mlirShapedTypeHasRank(t))
      continue;
    for (intptr_t r = 0; r < mlirAffineMapGetNumResults(map); ++r) {
      MlirAffineExpr e = mlirAffineMapGetResult(map, r);
      if (!mlirAffineExprIsADim(e))
        continue;
      intptr_t d = mlirAffineDimExprGetPosition(e);
      int64_t size = mlirShapedTypeGetDimSize(t, r);
      if (d < loops && size >= 0)
        ranges[d] = size;
      if (d < loops && m == numMaps - 1)
        inOutput[d] = true;
    }
  }
  bool reduces = false;
  int64_t flops = 2;
  for (intptr_t d = 0; d < loops; ++d) {
    if (ranges[d] < 0)
      return 0;
    reduces |= !inOutput[d];
    flops *= ranges[d];
  }
  return reduces ? flops : 0;
}

/* The product of the trip counts of the loops between `op` and the
 * top-level op `top`; -1 when one is unknown. */
static int64_t tileMultiplier(MlirOperation op, MlirOperation top) {
  int64_t mult = 1;
  for (MlirOperation p = op; !mlirOperationEqual(p, top);) {
    p = mlirOperationGetParentOperation(p);
    if (mlirOperationIsNull(p))
      return -1;
    int64_t trips = tripCount(p);
    if (trips < 0)
      return -1;
    mult *= trips;
  }
  return mult;
}

typedef struct FlopWalk {
  Nodes *nodes;
  MlirOperation top;
} FlopWalk;

typedef struct FirstNode {
  MlirStringRef key;
} FirstNode;

static void keepFirst(MlirStringRef key, void *userData) {
  FirstNode *f = userData;
  if (!f->key.data)
    f->key = key;
}

static MlirWalkResult countFlops(MlirOperation op, void *userData) {
  FlopWalk *w = userData;
  int64_t flops = contractionFlops(op);
  if (flops <= 0)
    return MlirWalkResultAdvance;
  int64_t mult = tileMultiplier(op, w->top);
  FirstNode first = {{NULL, 0}};
  kilnProfileForEachNode(mlirOperationGetLocation(op), keepFirst, &first);
  if (mult > 0 && first.key.data)
    lookup(w->nodes, first.key)->flops += flops * mult;
  return MlirWalkResultAdvance;
}

/* ---- output types -----------------------------------------------------------
 */

/* `v`, followed through the expand_shapes that are its only use (a
 * contraction lowered on collapsed dims gets its ONNX rank back); not
 * through collapses, which prepare the next op's operands. */
static MlirType outputType(MlirValue v) {
  for (int i = 0; i < 16; ++i) {
    MlirOpOperand use = mlirValueGetFirstUse(v);
    if (mlirOpOperandIsNull(use) ||
        !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
      break;
    MlirOperation user = mlirOpOperandGetOwner(use);
    if (!kilnOpNameIs(user, "tensor.expand_shape"))
      break;
    v = mlirOperationGetResult(user, 0);
  }
  return mlirValueGetType(v);
}

static MlirWalkResult nameNodes(MlirOperation op, void *userData) {
  kilnProfileForEachNode(mlirOperationGetLocation(op), setType, userData);
  return MlirWalkResultAdvance;
}

/* ---- the pass -------------------------------------------------------------
 */

static MlirAttribute nodesAttr(MlirContext ctx, const Nodes *t) {
  MlirNamedAttribute *entries =
      malloc((t->len ? t->len : 1) * sizeof(MlirNamedAttribute));
  if (!entries)
    abort();
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  for (size_t i = 0; i < t->len; ++i) {
    /* A node seen only in ops without a tensor result (a shape check)
     * has no output type. */
    bool typed = !mlirTypeIsNull(t->data[i].type);
    MlirNamedAttribute fields[2] = {
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("flops")),
                              mlirIntegerAttrGet(i64, t->data[i].flops))};
    if (typed)
      fields[1] = mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("type")),
                                        mlirTypeAttrGet(t->data[i].type));
    entries[i] = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, t->data[i].key),
        mlirDictionaryAttrGet(ctx, typed ? 2 : 1, fields));
  }
  MlirAttribute dict = mlirDictionaryAttrGet(ctx, (intptr_t)t->len, entries);
  free(entries);
  return dict;
}

static void runProfileNodes(MlirOperation module, MlirExternalPass pass,
                            const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  MlirOperation entry = kilnModelFindEntry(module);
  if (!kilnProfileIsRequested(module) || mlirOperationIsNull(entry))
    return;
  Nodes nodes = {0};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(entry, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    nodes.current = (MlirType){NULL};
    if (mlirOperationGetNumResults(op) > 0 &&
        mlirTypeIsARankedTensor(
            mlirValueGetType(mlirOperationGetResult(op, 0))))
      nodes.current = outputType(mlirOperationGetResult(op, 0));
    mlirOperationWalk(op, nameNodes, &nodes, MlirWalkPreOrder);
    FlopWalk w = {&nodes, op};
    mlirOperationWalk(op, countFlops, &w, MlirWalkPreOrder);
  }
  mlirOperationSetDiscardableAttributeByName(
      module, kilnStr(KILN_PROFILE_NODES_ATTR),
      nodesAttr(mlirOperationGetContext(module), &nodes));
  free(nodes.data);
}

const KilnPassInfo kilnProfileNodesPass = {
    .argument = "kiln-profile-nodes",
    .summary = "Record each ONNX node's FLOPs and output type for "
               "kiln-instrument-ops (modules marked kiln.profile)",
    .anchor = "builtin.module",
    .run = runProfileNodes,
};

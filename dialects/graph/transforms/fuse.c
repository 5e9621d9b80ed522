/* graph-fuse: groups graph ops into fusion groups (docs/graph-fuse.md).
 *
 * A group is an `scf.execute_region -> (T) no_inline { graph ops; scf.yield }`
 * with a discardable `graph.fusion` attribute naming its kind:
 *   conv_epilogue / matmul_epilogue: a graph.conv (graph.matmul, graph.gemm)
 *     and the DAG of its consumers: elementwise ops of the same result type
 *     that read members and otherwise only smaller operands (bias, scale,
 *     clip bounds: broadcast), plus at most one residual graph.add of a
 *     same-shape tensor; a chain (bias, relu) or a DAG such as SiLU's
 *     x * sigmoid(x).
 *   reduction: a graph.reduce_* op and the tree of elementwise ops feeding
 *     its data operand.
 *   elementwise: a maximal tree of elementwise and broadcast (graph.expand)
 *     ops.
 * In the style of TVM's FuseOps, greedily: contraction anchors first (in
 * program order), then reductions, then elementwise trees (in reverse
 * program order, so a tree grows from its last op). Every use of a member
 * except the group's last op (its root) is inside the group; so the
 * group's external inputs cannot depend on its outputs. An explicit check
 * guards that invariant anyway. All members need static shapes; ops stay in
 * their block; no op joins two groups; groups of one op are not made.
 * kiln-fuse-groups (dialects/linalg/transforms) lowers the groups. */
#include "kiln/passes.h"
#include "support/ir_build.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/SCF.h"
#include "mlir-c/IR.h"
#include "support/op_list.h"
#include "support/shape.h"

enum {
  kOptMaxGroupSize,
  kOptKinds,
};

enum {
  kKindConv = 1,
  kKindMatmul = 2,
  kKindElementwise = 4,
  kKindReduction = 8,
};

static const char *const kElementwiseOps[] = {
    "add", "sub", "mul", "div", "pow", "neg", "abs", "sqrt", "reciprocal",
    "exp", "log", "tanh", "sigmoid", "relu", "leaky_relu", "elu",
    "hard_sigmoid", "clip", "erf", "floor", "ceil", "round", "min", "max",
    "where", "equal", "less", "greater", "not", "and", "or", "cast", "mod",
    "xor", "sign", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
    "asinh", "acosh", "atanh", "selu", "softplus", "softsign",
    "thresholded_relu", "shrink", "celu", "hard_swish", "mish", "gelu", "prelu",
    "less_or_equal", "greater_or_equal",
    /* broadcast */
    "expand"};

static const char *const kReductionOps[] = {
    "reduce_sum",         "reduce_mean",      "reduce_max", "reduce_min",
    "reduce_prod",        "reduce_l2",        "reduce_l1",  "reduce_log_sum",
    "reduce_log_sum_exp", "reduce_sum_square"};

/* ---- A pointer map (open addressing) ------------------------------------ */

typedef struct PtrMap {
  const void **keys;
  size_t *vals;
  size_t cap, len; /* cap is a power of two */
} PtrMap;

static size_t ptrHash(const void *p, size_t cap) {
  uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
  return (size_t)(h >> 17) & (cap - 1);
}

/* The value of `p`, or SIZE_MAX when absent. */
static size_t ptrMapGet(const PtrMap *m, const void *p) {
  if (!m->cap)
    return SIZE_MAX;
  for (size_t i = ptrHash(p, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (!m->keys[i])
      return SIZE_MAX;
    if (m->keys[i] == p)
      return m->vals[i];
  }
}

static void ptrMapPut(PtrMap *m, const void *p, size_t v);

static void ptrMapGrow(PtrMap *m) {
  size_t cap = m->cap ? 2 * m->cap : 256;
  PtrMap bigger = {calloc(cap, sizeof(void *)), calloc(cap, sizeof(size_t)),
                   cap, 0};
  if (!bigger.keys || !bigger.vals)
    abort();
  for (size_t i = 0; i < m->cap; ++i)
    if (m->keys[i])
      ptrMapPut(&bigger, m->keys[i], m->vals[i]);
  free(m->keys);
  free(m->vals);
  *m = bigger;
}

static void ptrMapPut(PtrMap *m, const void *p, size_t v) {
  if (2 * (m->len + 1) > m->cap)
    ptrMapGrow(m);
  size_t i = ptrHash(p, m->cap);
  while (m->keys[i] && m->keys[i] != p)
    i = (i + 1) & (m->cap - 1);
  if (!m->keys[i]) {
    m->keys[i] = p;
    ++m->len;
  }
  m->vals[i] = v;
}

static void ptrMapDestroy(PtrMap *m) {
  free(m->keys);
  free(m->vals);
}

/* ---- Op classification --------------------------------------------------- */

static bool graphOpIn(MlirOperation op, const char *const *names, size_t n) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length <= 6 || memcmp(name.data, "graph.", 6))
    return false;
  name.data += 6;
  name.length -= 6;
  for (size_t i = 0; i < n; ++i)
    if (kilnStringRefEquals(name, names[i]))
      return true;
  return false;
}

#define GRAPH_OP_IN(op, table)                                                 \
  graphOpIn(op, table, sizeof(table) / sizeof(table[0]))

static bool isElementwise(MlirOperation op) {
  return GRAPH_OP_IN(op, kElementwiseOps);
}

static bool isReduction(MlirOperation op) {
  return GRAPH_OP_IN(op, kReductionOps);
}

/* The group kind an anchor op starts, or 0. */
static int anchorKind(MlirOperation op) {
  static const char *const kConv[] = {"conv"};
  static const char *const kMatmul[] = {"matmul", "gemm"};
  if (GRAPH_OP_IN(op, kConv))
    return kKindConv;
  if (GRAPH_OP_IN(op, kMatmul))
    return kKindMatmul;
  return 0;
}

/* One result; every operand and the result a static tensor. */
static bool hasStaticShapes(MlirOperation op) {
  if (mlirOperationGetNumResults(op) != 1 ||
      !kilnTypeIsStaticTensor(mlirValueGetType(mlirOperationGetResult(op, 0))))
    return false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i)
    if (!kilnTypeIsStaticTensor(
            mlirValueGetType(mlirOperationGetOperand(op, i))))
      return false;
  return true;
}

/* The op using `v`'s only use (one operand of one op), or null. */
static MlirOperation soleUser(MlirValue v) {
  MlirOpOperand use = mlirValueGetFirstUse(v);
  if (mlirOpOperandIsNull(use) ||
      !mlirOpOperandIsNull(mlirOpOperandGetNextUse(use)))
    return (MlirOperation){NULL};
  return mlirOpOperandGetOwner(use);
}

/* ---- Groups -------------------------------------------------------------- */

/* A group's members; the root is found by position. */
typedef KilnOpList Group;

typedef struct Fuser {
  MlirContext ctx;
  MlirBlock block;
  KilnOpList order; /* the block's ops at the start, in order */
  PtrMap position;  /* op -> index in `order` */
  PtrMap *grouped;  /* ops already in a group (any block) */
  int64_t maxSize;
  int kinds;
} Fuser;

/* Position of `op` in the block's original order, SIZE_MAX if not there. */
static size_t positionOf(const Fuser *f, MlirOperation op) {
  return ptrMapGet(&f->position, op.ptr);
}

/* Whether `v` depends on a member of `g`: a backward search over the ops of
 * the block at or after position `from` (earlier ops cannot depend on
 * members). Gives up (answers yes, the safe answer) after a bounded number
 * of steps. */
static bool dependsOnGroup(const Fuser *f, const Group *g, MlirValue v,
                           size_t from) {
  enum { kMaxSteps = 256 };
  MlirValue stack[kMaxSteps];
  size_t top = 0, steps = 0;
  stack[top++] = v;
  while (top) {
    MlirValue x = stack[--top];
    if (!mlirValueIsAOpResult(x))
      continue;
    MlirOperation def = mlirOpResultGetOwner(x);
    if (kilnOpListContains(g, def))
      return true;
    if (!mlirBlockEqual(mlirOperationGetBlock(def), f->block))
      continue; /* defined above: cannot use a member */
    size_t pos = positionOf(f, def);
    if (pos == SIZE_MAX || pos < from)
      continue;
    for (intptr_t i = 0; i < mlirOperationGetNumOperands(def); ++i) {
      if (++steps >= kMaxSteps || top == kMaxSteps)
        return true;
      stack[top++] = mlirOperationGetOperand(def, i);
    }
  }
  return false;
}

/* Whether adding `op` to `g` keeps the group acyclic: none of op's inputs
 * from outside the group depends on a member. */
static bool keepsAcyclic(const Fuser *f, const Group *g, MlirOperation op) {
  size_t from = SIZE_MAX;
  for (size_t i = 0; i < g->len; ++i) {
    size_t p = positionOf(f, g->data[i]);
    if (p < from)
      from = p;
  }
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirValueIsAOpResult(v) &&
        kilnOpListContains(g, mlirOpResultGetOwner(v)))
      continue;
    if (dependsOnGroup(f, g, v, from))
      return false;
  }
  return true;
}

static bool available(const Fuser *f, MlirOperation op) {
  return !mlirOperationIsNull(op) &&
         mlirBlockEqual(mlirOperationGetBlock(op), f->block) &&
         ptrMapGet(f->grouped, op.ptr) == SIZE_MAX && hasStaticShapes(op);
}

/* Whether `op` may join epilogue group `g` (anchored on g->data[0]): an
 * elementwise op with the anchor's result type that reads at least one
 * member, whose other operands are smaller (broadcast parameters) or,
 * once per group, a same-shape tensor added by a graph.add (the residual).
 * Sets *residual when `op` would be that add. */
static bool extendsEpilogue(const Group *g, MlirOperation op, bool hasResidual,
                            bool *residual) {
  if (!isElementwise(op) || GRAPH_OP_IN(op, ((const char *[]){"expand"})))
    return false;
  MlirType t = mlirValueGetType(mlirOperationGetResult(g->data[0], 0));
  if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(op, 0)), t))
    return false;
  bool readsMember = false;
  *residual = false;
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirValueIsAOpResult(v) &&
        kilnOpListContains(g, mlirOpResultGetOwner(v))) {
      readsMember = true;
      continue;
    }
    if (kilnNumElements(mlirValueGetType(v)) < kilnNumElements(t))
      continue;
    if (*residual || hasResidual || !GRAPH_OP_IN(op, ((const char *[]){"add"})))
      return false;
    *residual = true;
  }
  return readsMember;
}

/* Whether some use of a member of `g`'s result is outside `g`; sets *open
 * to the last such member (in `g`'s order). Counts them. */
static size_t openMembers(const Group *g, MlirOperation *open) {
  size_t count = 0;
  for (size_t m = 0; m < g->len; ++m) {
    MlirValue v = mlirOperationGetResult(g->data[m], 0);
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u))
      if (!kilnOpListContains(g, mlirOpOperandGetOwner(u))) {
        *open = g->data[m];
        ++count;
        break;
      }
  }
  return count;
}

/* Moves `g`'s members (in block order) into a new execute_region placed
 * where the root (the last member) was. */
static void wrapGroup(Fuser *f, Group *g, const char *kind) {
  /* Sort members into block order. */
  for (size_t i = 1; i < g->len; ++i)
    for (size_t j = i;
         j > 0 && positionOf(f, g->data[j - 1]) > positionOf(f, g->data[j]);
         --j) {
      MlirOperation t = g->data[j];
      g->data[j] = g->data[j - 1];
      g->data[j - 1] = t;
    }
  MlirOperation root = g->data[g->len - 1];
  MlirValue rootResult = mlirOperationGetResult(root, 0);
  MlirLocation loc = mlirOperationGetLocation(root);
  MlirType type = mlirValueGetType(rootResult);

  MlirRegion region = mlirRegionCreate();
  MlirBlock body = mlirBlockCreate(0, NULL, NULL);
  mlirRegionAppendOwnedBlock(region, body);
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(f->ctx,
                            mlirStringRefCreateFromCString("no_inline")),
          mlirUnitAttrGet(f->ctx)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(f->ctx,
                            mlirStringRefCreateFromCString("graph.fusion")),
          mlirStringAttrGet(f->ctx, mlirStringRefCreateFromCString(kind))),
  };
  MlirOperationState state = mlirOperationStateGet(
      mlirStringRefCreateFromCString("scf.execute_region"), loc);
  mlirOperationStateAddResults(&state, 1, &type);
  mlirOperationStateAddOwnedRegions(&state, 1, &region);
  mlirOperationStateAddAttributes(&state, 2, attrs);
  MlirOperation exec = mlirOperationCreate(&state);
  mlirBlockInsertOwnedOperationBefore(f->block, root, exec);
  mlirValueReplaceAllUsesOfWith(rootResult, mlirOperationGetResult(exec, 0));

  MlirOperationState yieldState =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.yield"), loc);
  mlirOperationStateAddOperands(&yieldState, 1, &rootResult);
  MlirOperation yield = mlirOperationCreate(&yieldState);
  mlirBlockAppendOwnedOperation(body, yield);
  for (size_t i = 0; i < g->len; ++i) {
    mlirOperationMoveBefore(g->data[i], yield);
    ptrMapPut(f->grouped, g->data[i].ptr, 1);
  }
}

/* Absorbs the single-use elementwise producers of `g`'s members (operand
 * `onlyOperand` of the first member when >= 0, else all operands). */
static void absorbProducers(Fuser *f, Group *g, intptr_t onlyOperand) {
  for (size_t m = 0; m < g->len && (int64_t)g->len < f->maxSize; ++m) {
    MlirOperation member = g->data[m];
    intptr_t n = mlirOperationGetNumOperands(member);
    for (intptr_t i = 0; i < n && (int64_t)g->len < f->maxSize; ++i) {
      if (m == 0 && onlyOperand >= 0 && i != onlyOperand)
        continue;
      MlirValue v = mlirOperationGetOperand(member, i);
      if (!mlirValueIsAOpResult(v))
        continue;
      MlirOperation p = mlirOpResultGetOwner(v);
      if (!available(f, p) || !isElementwise(p) || kilnOpListContains(g, p) ||
          !mlirOperationEqual(soleUser(v), member) || !keepsAcyclic(f, g, p))
        continue;
      kilnOpListPush(g, p);
    }
  }
}

/* The next op to add to epilogue group `g`: the first (in block order)
 * user of a member that extends the epilogue and keeps the group acyclic;
 * null if none. */
static MlirOperation nextEpilogueOp(const Fuser *f, const Group *g,
                                    bool hasResidual, bool *residual) {
  MlirOperation best = {NULL};
  size_t bestPos = SIZE_MAX;
  for (size_t m = 0; m < g->len; ++m) {
    MlirValue v = mlirOperationGetResult(g->data[m], 0);
    for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      MlirOperation user = mlirOpOperandGetOwner(u);
      bool isResidual;
      size_t pos = positionOf(f, user);
      if (pos >= bestPos || !available(f, user) ||
          kilnOpListContains(g, user) ||
          !extendsEpilogue(g, user, hasResidual, &isResidual) ||
          !keepsAcyclic(f, g, user))
        continue;
      best = user;
      bestPos = pos;
      *residual = isResidual;
    }
  }
  return best;
}

/* Grows an epilogue group from `anchor`: elementwise consumers of the
 * members, one at a time in block order, so that a DAG such as SiLU's
 * x * sigmoid(x) or hard-swish's x * hard_sigmoid(x) joins as well as a
 * chain. The group kept is the longest prefix whose only member read from
 * outside is its last one (the root): every other member's uses are inside
 * the group. */
static void fuseAnchor(Fuser *f, MlirOperation anchor, int kind) {
  Group g = {0};
  kilnOpListPush(&g, anchor);
  bool hasResidual = false;
  size_t keep = 1;
  while ((int64_t)g.len < f->maxSize) {
    bool residual = false;
    MlirOperation next = nextEpilogueOp(f, &g, hasResidual, &residual);
    if (mlirOperationIsNull(next))
      break;
    kilnOpListPush(&g, next);
    hasResidual = hasResidual || residual;
    MlirOperation open = {NULL};
    if (openMembers(&g, &open) == 1 && mlirOperationEqual(open, next))
      keep = g.len;
  }
  g.len = keep;
  if (g.len > 1) {
    wrapGroup(f, &g, kind == kKindConv ? "conv_epilogue" : "matmul_epilogue");
  }
  kilnOpListDestroy(&g);
}

static void fuseTree(Fuser *f, MlirOperation root, bool reduction) {
  Group g = {0};
  kilnOpListPush(&g, root);
  absorbProducers(f, &g, reduction ? 0 : -1);
  if (g.len > 1) {
    wrapGroup(f, &g, reduction ? "reduction" : "elementwise");
  }
  kilnOpListDestroy(&g);
}

/* Whether `op` is a group an earlier run made: its members stay as they
 * are (a second run must not nest groups in it; kiln-tune compiles one
 * group of an optimized graph as a model of its own). */
static bool isFusionGroup(MlirOperation op) {
  return kilnOpNameIs(op, "scf.execute_region") &&
         !mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
             op, mlirStringRefCreateFromCString("graph.fusion")));
}

/* Groups the ops of `block`, then visits nested blocks of its ops (ONNX
 * If/Loop bodies), but not the groups just made nor earlier ones. */
static void fuseBlock(const Fuser *outer, MlirBlock block) {
  Fuser f = {.ctx = outer->ctx,
             .block = block,
             .grouped = outer->grouped,
             .maxSize = outer->maxSize,
             .kinds = outer->kinds};
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    ptrMapPut(&f.position, op.ptr, f.order.len);
    kilnOpListPush(&f.order, op);
  }
  for (size_t i = 0; i < f.order.len; ++i) {
    MlirOperation op = f.order.data[i];
    int kind = anchorKind(op);
    if ((kind & f.kinds) && available(&f, op))
      fuseAnchor(&f, op, kind);
  }
  if (f.kinds & kKindReduction)
    for (size_t i = 0; i < f.order.len; ++i) {
      MlirOperation op = f.order.data[i];
      if (isReduction(op) && available(&f, op))
        fuseTree(&f, op, true);
    }
  if (f.kinds & kKindElementwise)
    for (size_t i = f.order.len; i-- > 0;) {
      MlirOperation op = f.order.data[i];
      if (isElementwise(op) && available(&f, op))
        fuseTree(&f, op, false);
    }
  for (size_t i = 0; i < f.order.len; ++i) {
    MlirOperation op = f.order.data[i];
    if (ptrMapGet(f.grouped, op.ptr) != SIZE_MAX || isFusionGroup(op))
      continue;
    for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
      for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
           !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
        fuseBlock(&f, b);
  }
  ptrMapDestroy(&f.position);
  kilnOpListDestroy(&f.order);
}

/* Parses the `kinds` option ("conv_epilogue,elementwise,..."). */
static bool parseKinds(const char *text, int *out) {
  static const struct {
    const char *name;
    int bit;
  } kNames[] = {{"conv_epilogue", kKindConv},
                {"matmul_epilogue", kKindMatmul},
                {"elementwise", kKindElementwise},
                {"reduction", kKindReduction}};
  *out = 0;
  const char *p = text;
  while (*p) {
    size_t n = strcspn(p, ",");
    bool found = false;
    for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i)
      if (strlen(kNames[i].name) == n && !memcmp(kNames[i].name, p, n)) {
        *out |= kNames[i].bit;
        found = true;
      }
    if (!found && n > 0)
      return false;
    p += n;
    if (*p == ',')
      ++p;
  }
  return true;
}

static void runGraphFuse(MlirOperation op, MlirExternalPass pass,
                         const KilnPassOptionValue *options) {
  int64_t maxSize = options[kOptMaxGroupSize].i;
  const char *kindsText = options[kOptKinds].s ? options[kOptKinds].s : "";
  int kinds = 0;
  if (maxSize < 2) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "graph-fuse: max-group-size must be at least 2, got %ld",
                   (long)maxSize);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  if (!parseKinds(kindsText, &kinds)) {
    kilnEmitErrorf(mlirOperationGetLocation(op),
                   "graph-fuse: unknown group kind in kinds='%s' (expected "
                   "a comma-separated list of conv_epilogue, "
                   "matmul_epilogue, elementwise, reduction)",
                   kindsText);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  PtrMap grouped = {0};
  Fuser f = {.ctx = mlirOperationGetContext(op),
             .grouped = &grouped,
             .maxSize = maxSize,
             .kinds = kinds};
  for (intptr_t r = 0; r < mlirOperationGetNumRegions(op); ++r)
    for (MlirBlock b = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, r));
         !mlirBlockIsNull(b); b = mlirBlockGetNextInRegion(b))
      fuseBlock(&f, b);
  ptrMapDestroy(&grouped);
}

static const KilnPassOptionSpec kOptions[] = {
    [kOptMaxGroupSize] = {"max-group-size", KILN_PASS_OPTION_INT, "16",
                          "Most ops in one group (at least 2)"},
    [kOptKinds] = {"kinds", KILN_PASS_OPTION_STRING,
                   "conv_epilogue,matmul_epilogue,elementwise,reduction",
                   "Comma-separated group kinds to form"},
};

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__scf__,
};

const KilnPassInfo kilnGraphFusePass = {
    .argument = "graph-fuse",
    .summary = "Group a conv/matmul with its epilogue, elementwise chains and "
               "reductions with their producers into scf.execute_region "
               "fusion groups",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = sizeof(kOptions) / sizeof(kOptions[0]),
    .run = runGraphFuse,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

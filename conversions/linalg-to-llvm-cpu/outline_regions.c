/* kiln-outline-regions: moves the loop nests of each function, a few at a
 * time, into private functions of their own, before convert-scf-to-openmp.
 *
 * Why: the translation to LLVM IR outlines every omp.parallel region with
 * LLVM's CodeExtractor, whose analysis cache scans the whole enclosing
 * function once per region. A model lowers to one function holding every
 * layer's loops, so that cost grows with the square of the model's size
 * (4 s of DenseNet-121's 23 s). With at most `regions` loop nests per
 * function it grows linearly; the functions are marked noinline, so LLVM's
 * inliner does not rebuild the big function either.
 *
 * A group is a run of consecutive ops of the function's block holding at
 * most `regions` ops with regions (loops, ifs), cut at:
 *  - calls (func.call, func.call_indirect, llvm.call): the pass never moves
 *    a call nor groups across one, so calls that time the ops between them
 *    (a profiling pass) stay in the function, between the same ops;
 *  - memref.alloca: a stack buffer must live in the frame of the function
 *    that uses it after the group;
 *  - the terminator.
 * Constant-like ops (no operands, no regions: arith.constant,
 * memref.get_global, ub.poison, ...) are moved to the top of the block
 * first and cloned into each group that uses them, so a group's loop
 * bounds stay constants. Values defined before a group and used in it
 * become the new function's arguments; values defined in it and used after
 * it (buffers allocated there) become its results. Runs without a loop
 * nest stay where they are.
 *
 * The input: func.func ops with one block each (the memref/scf level after
 * bufferization); functions with more blocks are left alone. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kiln/passes.h"

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Func.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kOptRegions };

/* A growable list of values, kept in first-seen order. */
typedef struct ValueList {
  MlirValue *data;
  size_t len, cap;
} ValueList;

static void valueListAdd(ValueList *l, MlirValue v) {
  for (size_t i = 0; i < l->len; ++i)
    if (mlirValueEqual(l->data[i], v))
      return;
  if (l->len == l->cap) {
    l->cap = l->cap ? 2 * l->cap : 16;
    l->data = realloc(l->data, l->cap * sizeof(*l->data));
    if (!l->data)
      abort();
  }
  l->data[l->len++] = v;
}

static bool isCall(MlirOperation op) {
  return kilnOpNameIs(op, "func.call") ||
         kilnOpNameIs(op, "func.call_indirect") ||
         kilnOpNameIs(op, "llvm.call");
}

/* Ops with neither operands nor regions and one result that names a
 * constant: cheaper to clone into every group than to pass. */
static bool isConstantLike(MlirOperation op) {
  static const char *const kNames[] = {"arith.constant",  "memref.get_global",
                                       "ub.poison",       "llvm.mlir.constant",
                                       "llvm.mlir.zero",  "llvm.mlir.addressof",
                                       "llvm.mlir.undef", "llvm.mlir.poison"};
  if (mlirOperationGetNumOperands(op) || mlirOperationGetNumRegions(op) ||
      mlirOperationGetNumResults(op) != 1)
    return false;
  for (size_t i = 0; i < sizeof(kNames) / sizeof(kNames[0]); ++i)
    if (kilnOpNameIs(op, kNames[i]))
      return true;
  return false;
}

/* The ancestor of `op` (or `op`) whose parent is `func`; null if `op` is
 * not inside `func`. */
static MlirOperation topLevelAncestor(MlirOperation op, MlirOperation func) {
  for (;;) {
    MlirOperation parent = mlirOperationGetParentOperation(op);
    if (mlirOperationIsNull(parent))
      return parent;
    if (mlirOperationEqual(parent, func))
      return op;
    op = parent;
  }
}

/* The op of `func`'s block that defines `v` or holds its definition; null
 * for `func`'s own arguments. */
static MlirOperation definingTopLevelOp(MlirValue v, MlirOperation func) {
  MlirOperation owner;
  if (mlirValueIsAOpResult(v)) {
    owner = mlirOpResultGetOwner(v);
  } else {
    owner = mlirBlockGetParentOperation(mlirBlockArgumentGetOwner(v));
    if (mlirOperationEqual(owner, func))
      return (MlirOperation){NULL};
  }
  return topLevelAncestor(owner, func);
}

/* A group under construction: its ops, in block order, sorted copies of
 * their handles for membership tests, and its values in and out. */
typedef struct Group {
  KilnOpList ops;
  void **sorted;
  ValueList in, constants, out;
} Group;

static int comparePtr(const void *a, const void *b) {
  uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;
  return (x > y) - (x < y);
}

static bool groupHas(const Group *g, MlirOperation op) {
  return !mlirOperationIsNull(op) &&
         bsearch(&op.ptr, g->sorted, g->ops.len, sizeof(void *), comparePtr);
}

typedef struct Capture {
  Group *group;
  MlirOperation func;
} Capture;

/* Records the operands of `op` defined outside the group. */
static MlirWalkResult captureOperands(MlirOperation op, void *userData) {
  Capture *c = userData;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirOperation def = definingTopLevelOp(v, c->func);
    if (groupHas(c->group, def))
      continue;
    if (!mlirOperationIsNull(def) && isConstantLike(def))
      valueListAdd(&c->group->constants, v);
    else
      valueListAdd(&c->group->in, v);
  }
  return MlirWalkResultAdvance;
}

/* Fills the group's lists: values in (arguments, constants) and out. */
static void analyzeGroup(Group *g, MlirOperation func) {
  g->sorted = malloc(g->ops.len * sizeof(void *));
  if (!g->sorted)
    abort();
  for (size_t i = 0; i < g->ops.len; ++i)
    g->sorted[i] = g->ops.data[i].ptr;
  qsort(g->sorted, g->ops.len, sizeof(void *), comparePtr);
  Capture c = {g, func};
  for (size_t i = 0; i < g->ops.len; ++i) {
    MlirOperation op = g->ops.data[i];
    mlirOperationWalk(op, captureOperands, &c, MlirWalkPreOrder);
    for (intptr_t r = 0; r < mlirOperationGetNumResults(op); ++r) {
      MlirValue v = mlirOperationGetResult(op, r);
      for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
           u = mlirOpOperandGetNextUse(u))
        if (!groupHas(g, topLevelAncestor(mlirOpOperandGetOwner(u), func))) {
          valueListAdd(&g->out, v);
          break;
        }
    }
  }
}

/* Points the uses of `from` that are inside `scope` (or, if `outside`, the
 * ones that are not) at `to`. */
static void redirectUses(MlirValue from, MlirValue to, MlirOperation scope,
                         bool outside) {
  KilnOpList owners = {0};
  size_t cap = 0, n = 0;
  intptr_t *numbers = NULL;
  for (MlirOpOperand u = mlirValueGetFirstUse(from); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation owner = mlirOpOperandGetOwner(u);
    if (kilnOpIsInside(owner, scope) == outside)
      continue;
    if (n == cap) {
      cap = cap ? 2 * cap : 8;
      numbers = realloc(numbers, cap * sizeof(*numbers));
      if (!numbers)
        abort();
    }
    kilnOpListPush(&owners, owner);
    numbers[n++] = mlirOpOperandGetOperandNumber(u);
  }
  for (size_t i = 0; i < n; ++i)
    mlirOperationSetOperand(owners.data[i], numbers[i], to);
  free(numbers);
  kilnOpListDestroy(&owners);
}

static void typesOf(const ValueList *l, MlirType *types) {
  for (size_t i = 0; i < l->len; ++i)
    types[i] = mlirValueGetType(l->data[i]);
}

/* The private, noinline function `@NAME_part` (renamed by the symbol table
 * if taken) of type (in) -> (out) for a group of `func`, placed after
 * `after`; its block is empty. */
static MlirOperation createPart(MlirOperation func, MlirOperation after,
                                MlirSymbolTable symbols, const Group *g,
                                MlirLocation loc) {
  MlirContext ctx = mlirOperationGetContext(func);
  size_t nIn = g->in.len, nOut = g->out.len;
  MlirType *types = malloc((nIn + nOut + 1) * sizeof(MlirType));
  MlirLocation *locs = malloc((nIn + 1) * sizeof(MlirLocation));
  if (!types || !locs)
    abort();
  typesOf(&g->in, types);
  typesOf(&g->out, types + nIn);
  for (size_t i = 0; i < nIn; ++i)
    locs[i] = loc;
  MlirStringRef name = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
      func, mlirSymbolTableGetSymbolAttributeName()));
  size_t len = name.length + sizeof("_part");
  char *partName = malloc(len);
  if (!partName)
    abort();
  snprintf(partName, len, "%.*s_part", (int)name.length, name.data);
  MlirAttribute noinline = mlirStringAttrGet(ctx, kilnStr("noinline"));
  MlirNamedAttribute attrs[4] = {
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirSymbolTableGetSymbolAttributeName()),
          mlirStringAttrGet(ctx, kilnStr(partName))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, mlirSymbolTableGetVisibilityAttributeName()),
          mlirStringAttrGet(ctx, kilnStr("private"))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("function_type")),
          mlirTypeAttrGet(mlirFunctionTypeGet(ctx, (intptr_t)nIn, types,
                                              (intptr_t)nOut, types + nIn))),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("passthrough")),
                            mlirArrayAttrGet(ctx, 1, &noinline))};
  MlirOperationState st = mlirOperationStateGet(kilnStr("func.func"), loc);
  mlirOperationStateAddAttributes(&st, 4, attrs);
  MlirRegion body = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(body, mlirBlockCreate((intptr_t)nIn, types, locs));
  mlirOperationStateAddOwnedRegions(&st, 1, &body);
  MlirOperation part = mlirOperationCreate(&st);
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(func), after, part);
  mlirSymbolTableInsert(symbols, part); /* renames it if the name is taken */
  free(partName);
  free(locs);
  free(types);
  return part;
}

/* Moves the group's ops into a new function, placed after `after`, and
 * calls it in their place. Returns the function. */
static MlirOperation outlineGroup(MlirOperation func, MlirOperation after,
                                  MlirSymbolTable symbols, Group *g) {
  MlirContext ctx = mlirOperationGetContext(func);
  MlirOperation first = g->ops.data[0];
  MlirLocation loc = mlirOperationGetLocation(first);
  MlirOperation part = createPart(func, after, symbols, g, loc);
  MlirBlock block = mlirRegionGetFirstBlock(mlirOperationGetRegion(part, 0));

  MlirType *outTypes = malloc((g->out.len + 1) * sizeof(MlirType));
  if (!outTypes)
    abort();
  typesOf(&g->out, outTypes);
  MlirAttribute callee = mlirFlatSymbolRefAttrGet(
      ctx, mlirStringAttrGetValue(mlirOperationGetAttributeByName(
               part, mlirSymbolTableGetSymbolAttributeName())));
  MlirNamedAttribute calleeAttr =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("callee")), callee);
  MlirOperation call =
      kilnInsertOp(first, "func.call", (intptr_t)g->in.len, g->in.data,
                   (intptr_t)g->out.len, outTypes, 1, &calleeAttr);
  free(outTypes);

  for (size_t i = 0; i < g->ops.len; ++i) {
    mlirOperationRemoveFromParent(g->ops.data[i]);
    mlirBlockAppendOwnedOperation(block, g->ops.data[i]);
  }
  MlirOperationState st = mlirOperationStateGet(kilnStr("func.return"), loc);
  mlirOperationStateAddOperands(&st, (intptr_t)g->out.len, g->out.data);
  mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&st));

  for (size_t i = 0; i < g->in.len; ++i)
    redirectUses(g->in.data[i], mlirBlockGetArgument(block, (intptr_t)i), part,
                 false);
  for (size_t i = 0; i < g->constants.len; ++i) {
    MlirValue c = g->constants.data[i];
    MlirOperation clone = mlirOperationClone(mlirOpResultGetOwner(c));
    mlirBlockInsertOwnedOperation(block, 0, clone);
    redirectUses(c, mlirOperationGetResult(clone, 0), part, false);
  }
  for (size_t i = 0; i < g->out.len; ++i)
    redirectUses(g->out.data[i], mlirOperationGetResult(call, (intptr_t)i),
                 part, true);
  return part;
}

static void groupReset(Group *g) {
  kilnOpListClear(&g->ops);
  free(g->sorted);
  g->sorted = NULL;
  g->in.len = g->constants.len = g->out.len = 0;
}

/* Outlines `group` if it holds a loop nest, the new function after
 * *last (then *last is it), and empties the group. */
static void flushGroup(MlirOperation func, MlirSymbolTable symbols, Group *g,
                       int64_t numRegions, MlirOperation *last) {
  if (numRegions > 0) {
    analyzeGroup(g, func);
    *last = outlineGroup(func, *last, symbols, g);
  }
  groupReset(g);
}

/* Whether the group must end before `op`, which then stays in place. */
static bool staysInPlace(MlirOperation op) {
  return isCall(op) || kilnOpNameIs(op, "memref.alloca") ||
         mlirOperationIsNull(mlirOperationGetNextInBlock(op));
}

static void outlineFunction(MlirOperation func, MlirSymbolTable symbols,
                            int64_t maxRegions) {
  MlirRegion region = mlirOperationGetRegion(func, 0);
  MlirBlock block = mlirRegionGetFirstBlock(region);
  if (mlirBlockIsNull(block) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(block)))
    return;
  /* Constants first (in their order), so that runs of the other ops are
   * contiguous. */
  MlirOperation next, firstOther = {NULL};
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (!isConstantLike(op)) {
      if (mlirOperationIsNull(firstOther))
        firstOther = op;
    } else if (!mlirOperationIsNull(firstOther)) {
      mlirOperationMoveBefore(op, firstOther);
    }
  }
  Group g = {0};
  int64_t numRegions = 0;
  MlirOperation last = func; /* the functions in the order of their calls */
  for (MlirOperation op = mlirBlockGetFirstOperation(block);
       !mlirOperationIsNull(op); op = next) {
    next = mlirOperationGetNextInBlock(op);
    if (isConstantLike(op))
      continue;
    if (staysInPlace(op)) {
      flushGroup(func, symbols, &g, numRegions, &last);
      numRegions = 0;
      continue;
    }
    bool hasRegions = mlirOperationGetNumRegions(op) > 0;
    if (hasRegions && numRegions == maxRegions) {
      flushGroup(func, symbols, &g, numRegions, &last);
      numRegions = 0;
    }
    kilnOpListPush(&g.ops, op);
    numRegions += hasRegions;
  }
  flushGroup(func, symbols, &g, numRegions, &last);
  kilnOpListDestroy(&g.ops);
  free(g.in.data);
  free(g.constants.data);
  free(g.out.data);
}

static void runOutlineRegions(MlirOperation module, MlirExternalPass pass,
                              const KilnPassOptionValue *options) {
  int64_t maxRegions = options[kOptRegions].i;
  if (maxRegions < 1) {
    kilnEmitErrorf(mlirOperationGetLocation(module),
                   "kiln-outline-regions: 'regions' must be positive, got "
                   "%ld",
                   (long)maxRegions);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  /* The functions first: the pass adds functions to the module. */
  KilnOpList funcs = {0};
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (kilnOpNameIs(op, "func.func"))
      kilnOpListPush(&funcs, op);
  MlirSymbolTable symbols = mlirSymbolTableCreate(module);
  for (size_t i = 0; i < funcs.len; ++i)
    outlineFunction(funcs.data[i], symbols, maxRegions);
  mlirSymbolTableDestroy(symbols);
  kilnOpListDestroy(&funcs);
}

static const KilnPassOptionSpec kOptions[] = {
    [kOptRegions] = {"regions", KILN_PASS_OPTION_INT, "4",
                     "Most ops with regions (loop nests) per outlined "
                     "function"},
};

static const KilnDialectHandleGetter kFuncDialect[] = {
    mlirGetDialectHandle__func__};

const KilnPassInfo kilnOutlineRegionsPass = {
    .argument = "kiln-outline-regions",
    .summary = "Move a function's loop nests, a few at a time, into private "
               "noinline functions",
    .anchor = "builtin.module",
    .options = kOptions,
    .numOptions = 1,
    .run = runOutlineRegions,
    .dependentDialects = kFuncDialect,
    .numDependentDialects = 1,
};

/* graph-dce: erases graph ops whose results are all unused.
 *
 * Upstream DCE cannot do this: IRDL ops carry no memory-effect interface, so
 * MLIR treats every graph op as side-effecting. Kiln knows better: every op
 * of the graph dialect is pure. Ops of other dialects are never touched.
 *
 * One pass reaches a fixed point with a worklist: the ops that are dead at
 * the start are erased, and erasing an op pushes each graph op that defined
 * one of its operands once that op has lost its last use. Uses only ever
 * decrease, so an op enters the worklist at most once and is never touched
 * after it has been destroyed. */
#include "kiln/passes.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/IR.h"

/* A growable stack of operations. */
typedef struct OpStack {
  MlirOperation *data;
  size_t len;
  size_t cap;
} OpStack;

static void opStackPush(OpStack *s, MlirOperation op) {
  if (s->len == s->cap) {
    size_t cap = s->cap ? 2 * s->cap : 64;
    MlirOperation *data = realloc(s->data, cap * sizeof(*data));
    if (!data)
      abort(); /* out of memory is not a user error */
    s->data = data;
    s->cap = cap;
  }
  s->data[s->len++] = op;
}

/* An op DCE may erase: a graph op without regions. A graph op holding a
 * region could hold ops of other dialects, which are not known to be pure. */
static bool isErasable(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length > 6 && memcmp(name.data, "graph.", 6) == 0 &&
         mlirOperationGetNumRegions(op) == 0;
}

static bool hasNoUses(MlirOperation op) {
  intptr_t n = mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < n; ++i)
    if (!mlirOpOperandIsNull(
            mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return false;
  return true;
}

typedef struct CollectState {
  MlirOperation root;
  OpStack *worklist;
} CollectState;

static MlirWalkResult collectDead(MlirOperation op, void *userData) {
  CollectState *st = userData;
  if (!mlirOperationEqual(op, st->root) && isErasable(op) && hasNoUses(op))
    opStackPush(st->worklist, op);
  return MlirWalkResultAdvance;
}

static int comparePtr(const void *a, const void *b) {
  const void *pa = ((const MlirOperation *)a)->ptr;
  const void *pb = ((const MlirOperation *)b)->ptr;
  return pa < pb ? -1 : pa > pb;
}

/* Destroys `op` and pushes the defining ops of its operands that it leaves
 * without uses. `defs` is scratch space. An operand used twice by `op` must
 * not push its definition twice (it would be destroyed twice): the
 * candidates are sorted and deduplicated first. */
static void eraseAndPushOperands(MlirOperation op, OpStack *worklist,
                                 OpStack *defs) {
  defs->len = 0;
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (!mlirValueIsAOpResult(v))
      continue;
    MlirOperation def = mlirOpResultGetOwner(v);
    if (isErasable(def))
      opStackPush(defs, def);
  }
  mlirOperationDestroy(op);
  if (defs->len > 1)
    qsort(defs->data, defs->len, sizeof(*defs->data), comparePtr);
  for (size_t i = 0; i < defs->len; ++i) {
    if (i > 0 && defs->data[i].ptr == defs->data[i - 1].ptr)
      continue;
    if (hasNoUses(defs->data[i]))
      opStackPush(worklist, defs->data[i]);
  }
}

static void runGraphDCE(MlirOperation op, MlirExternalPass pass,
                        const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  OpStack worklist = {0};
  OpStack defs = {0};
  /* Collect first, erase afterwards: the walk must not see freed ops. */
  CollectState st = {op, &worklist};
  mlirOperationWalk(op, collectDead, &st, MlirWalkPostOrder);
  while (worklist.len > 0)
    eraseAndPushOperands(worklist.data[--worklist.len], &worklist, &defs);
  free(defs.data);
  free(worklist.data);
}

const KilnPassInfo kilnGraphDCEPass = {
    .argument = "graph-dce",
    .summary = "Erase graph ops whose results are unused",
    .anchor = NULL,
    .options = NULL,
    .numOptions = 0,
    .run = runGraphDCE,
    .pipeline = NULL,
};

/* graph-dce: erases graph ops whose results are all unused.
 *
 * Upstream DCE cannot do this: IRDL ops carry no memory-effect interface, so
 * MLIR treats every graph op as side-effecting. Kiln knows better: every op
 * of the graph dialect is pure. Ops of other dialects are never touched.
 *
 * One pass reaches a fixed point with a worklist: the ops that are dead at
 * the start are erased, and erasing an op pushes each graph op that defined
 * one of its operands once that op has lost its last use
 * (kilnGraphDCEEraseUnused, which graph-simplify uses too). */
#include "dialects/graph/transforms/dce.h"

#include <stdlib.h>
#include <string.h>

#include "kiln/passes.h"

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

static int comparePtr(const void *a, const void *b) {
  const void *pa = ((const MlirOperation *)a)->ptr;
  const void *pb = ((const MlirOperation *)b)->ptr;
  return pa < pb ? -1 : pa > pb;
}

void kilnGraphDCEPushOperandDefs(KilnOpList *list, MlirOperation op) {
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    if (mlirValueIsAOpResult(v) && isErasable(mlirOpResultGetOwner(v)))
      kilnOpListPush(list, mlirOpResultGetOwner(v));
  }
}

/* Sorts and deduplicates list[from..len), then keeps the ops without uses.
 * An op used twice by an erased op is pushed twice and must not be
 * destroyed twice. */
static void keepUniqueUnused(KilnOpList *list, size_t from) {
  MlirOperation *d = list->data + from;
  size_t n = list->len - from, k = 0;
  if (n > 1)
    qsort(d, n, sizeof(*d), comparePtr);
  for (size_t i = 0; i < n; ++i)
    if ((i == 0 || d[i].ptr != d[i - 1].ptr) && hasNoUses(d[i]))
      d[k++] = d[i];
  list->len = from + k;
}

/* The list is a worklist of distinct unused ops. Erasing one pushes the
 * definitions of its operands that it leaves unused. None of them was in
 * the list already (it had a use, by the erased op), and uses only ever
 * decrease, so an op enters the list at most once and is never touched
 * after it has been destroyed. */
void kilnGraphDCEEraseUnused(KilnOpList *list) {
  keepUniqueUnused(list, 0);
  while (list->len > 0) {
    MlirOperation op = list->data[--list->len];
    size_t mark = list->len;
    kilnGraphDCEPushOperandDefs(list, op);
    mlirOperationDestroy(op);
    keepUniqueUnused(list, mark);
  }
}

typedef struct CollectState {
  MlirOperation root;
  KilnOpList *worklist;
} CollectState;

static MlirWalkResult collectDead(MlirOperation op, void *userData) {
  CollectState *st = userData;
  if (!mlirOperationEqual(op, st->root) && isErasable(op) && hasNoUses(op))
    kilnOpListPush(st->worklist, op);
  return MlirWalkResultAdvance;
}

static void runGraphDCE(MlirOperation op, MlirExternalPass pass,
                        const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  KilnOpList worklist = {0};
  /* Collect first, erase afterwards: the walk must not see freed ops. */
  CollectState st = {op, &worklist};
  mlirOperationWalk(op, collectDead, &st, MlirWalkPostOrder);
  kilnGraphDCEEraseUnused(&worklist);
  kilnOpListDestroy(&worklist);
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

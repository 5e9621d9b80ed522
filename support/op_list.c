#include "support/op_list.h"

#include <stdlib.h>

#include "support/ir_build.h"

void kilnOpListPush(KilnOpList *list, MlirOperation op) {
  if (list->len == list->cap) {
    size_t cap = list->cap ? 2 * list->cap : 16;
    MlirOperation *data = realloc(list->data, cap * sizeof(*data));
    if (!data)
      abort(); /* out of memory is not a user error */
    list->data = data;
    list->cap = cap;
  }
  list->data[list->len++] = op;
}

bool kilnOpListContains(const KilnOpList *list, MlirOperation op) {
  for (size_t i = 0; i < list->len; ++i)
    if (mlirOperationEqual(list->data[i], op))
      return true;
  return false;
}

void kilnOpListClear(KilnOpList *list) { list->len = 0; }

void kilnOpListDestroy(KilnOpList *list) {
  free(list->data);
  *list = (KilnOpList){0};
}

typedef struct NamedWalk {
  KilnOpList *list;
  const char *name;
} NamedWalk;

static MlirWalkResult collectNamed(MlirOperation op, void *userData) {
  NamedWalk *w = userData;
  if (kilnOpNameIs(op, w->name))
    kilnOpListPush(w->list, op);
  return MlirWalkResultAdvance;
}

void kilnOpListCollectNamed(KilnOpList *list, MlirOperation root,
                            const char *name, MlirWalkOrder order) {
  NamedWalk w = {list, name};
  mlirOperationWalk(root, collectNamed, &w, order);
}

void kilnOpListCollectUsers(KilnOpList *list, MlirValue value) {
  for (MlirOpOperand u = mlirValueGetFirstUse(value); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u))
    kilnOpListPush(list, mlirOpOperandGetOwner(u));
}

#include "dialects/common/op_list.h"

#include <stdlib.h>

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

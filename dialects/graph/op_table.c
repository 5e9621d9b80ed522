/* Lookup over the graph dialect's op table (the entries live per family in
 * ops_*.c). */
#include "dialects/graph/op_table.h"

#include <string.h>

#include "dialects/common/diag.h"

typedef struct Family {
  const KilnGraphOpInfo *ops;
  const int *count;
} Family;

static const Family kFamilies[] = {
    {kilnGraphElementwiseOps, &kilnGraphElementwiseOpsCount},
    {kilnGraphTensorOps, &kilnGraphTensorOpsCount},
    {kilnGraphNNOps, &kilnGraphNNOpsCount},
    {kilnGraphReductionOps, &kilnGraphReductionOpsCount},
    {kilnGraphQuantOps, &kilnGraphQuantOpsCount},
};
enum { kNumFamilies = sizeof(kFamilies) / sizeof(kFamilies[0]) };

intptr_t kilnGraphOpGetCount(void) {
  intptr_t n = 0;
  for (int f = 0; f < kNumFamilies; ++f)
    n += *kFamilies[f].count;
  return n;
}

const KilnGraphOpInfo *kilnGraphOpGetAt(intptr_t i) {
  for (int f = 0; f < kNumFamilies; ++f) {
    if (i < *kFamilies[f].count)
      return &kFamilies[f].ops[i];
    i -= *kFamilies[f].count;
  }
  return NULL;
}

const KilnGraphOpInfo *kilnGraphOpLookup(MlirStringRef name) {
  if (name.length > 6 && memcmp(name.data, "graph.", 6) == 0) {
    name.data += 6;
    name.length -= 6;
  }
  intptr_t n = kilnGraphOpGetCount();
  for (intptr_t i = 0; i < n; ++i) {
    const KilnGraphOpInfo *op = kilnGraphOpGetAt(i);
    if (kilnStringRefEquals(name, op->name))
      return op;
  }
  return NULL;
}

const KilnAttrSpec *kilnGraphOpFindAttr(const KilnGraphOpInfo *op,
                                        MlirStringRef name) {
  for (int i = 0; i < op->numAttrs; ++i)
    if (kilnStringRefEquals(name, op->attrs[i].name))
      return &op->attrs[i];
  return NULL;
}

/* Lookup over the graph dialect's op table (the entries live per family in
 * ops_*.c). */
#include "dialects/graph/op_table.h"

#include <string.h>

#include "mlir-c/BuiltinAttributes.h"

#include "kiln/diagnostics.h"

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

/* ONNX's per-element defaults of the window attributes, one rule for every
 * op that has them (Conv, ConvTranspose, the pools, QLinearConv, ...). */
static const struct {
  const char *name;
  int64_t each;
} kEachDefaults[] = {
    {"strides", 1}, {"dilations", 1}, {"pads", 0}, {"output_padding", 0}};

bool kilnGraphAttrIsDefault(const KilnAttrSpec *spec, MlirAttribute value) {
  if (spec->defaultValue) {
    MlirAttribute d = mlirAttributeParseGet(
        mlirAttributeGetContext(value),
        mlirStringRefCreateFromCString(spec->defaultValue));
    return !mlirAttributeIsNull(d) && mlirAttributeEqual(d, value);
  }
  if (spec->kind != KILN_ATTR_INTS || !mlirAttributeIsADenseI64Array(value))
    return false;
  for (size_t i = 0; i < sizeof kEachDefaults / sizeof kEachDefaults[0]; ++i) {
    if (strcmp(spec->name, kEachDefaults[i].name) != 0)
      continue;
    intptr_t n = mlirDenseArrayGetNumElements(value);
    for (intptr_t k = 0; k < n; ++k)
      if (mlirDenseI64ArrayGetElement(value, k) != kEachDefaults[i].each)
        return false;
    return n > 0;
  }
  return false;
}

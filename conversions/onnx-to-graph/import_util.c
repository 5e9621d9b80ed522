/* The importer's name map and locations (import_util.h). */
#include "conversions/onnx-to-graph/import_util.h"

#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/hash.h"

struct KilnOnnxNameSlot {
  const char *name; /* NULL: empty slot */
  const void *value;
};

static struct KilnOnnxNameSlot *findSlot(struct KilnOnnxNameSlot *slots,
                                         size_t cap, const char *name) {
  size_t i = (size_t)kilnFnv1aString(name) & (cap - 1);
  while (slots[i].name && strcmp(slots[i].name, name) != 0)
    i = (i + 1) & (cap - 1);
  return &slots[i];
}

void kilnOnnxNameMapPut(KilnOnnxNameMap *m, const char *name,
                        const void *value) {
  if (2 * (m->count + 1) > m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 64;
    struct KilnOnnxNameSlot *slots = calloc(cap, sizeof(*slots));
    if (!slots)
      abort();
    for (size_t i = 0; i < m->cap; ++i)
      if (m->slots[i].name)
        *findSlot(slots, cap, m->slots[i].name) = m->slots[i];
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
  }
  struct KilnOnnxNameSlot *s = findSlot(m->slots, m->cap, name);
  if (!s->name)
    ++m->count;
  s->name = name;
  s->value = value;
}

const void *kilnOnnxNameMapGet(const KilnOnnxNameMap *m, const char *name) {
  if (!m->cap)
    return NULL;
  struct KilnOnnxNameSlot *s = findSlot(m->slots, m->cap, name);
  return s->name ? s->value : NULL;
}

void kilnOnnxNameMapDestroy(KilnOnnxNameMap *m) {
  free(m->slots);
  *m = (KilnOnnxNameMap){0};
}

MlirLocation kilnOnnxNodeLoc(MlirLocation fileLoc, const Onnx__NodeProto *n,
                             size_t index) {
  KilnStrBuf name = {0};
  if (n->name && *n->name)
    kilnStrBufAppendf(&name, "%s (%s)", n->name, n->op_type);
  else
    kilnStrBufAppendf(&name, "#%zu (%s)", index, n->op_type);
  MlirLocation loc =
      mlirLocationNameGet(mlirLocationGetContext(fileLoc),
                          mlirStringRefCreate(name.data, name.len), fileLoc);
  kilnStrBufDestroy(&name);
  return loc;
}

MlirLocation kilnOnnxValueLoc(MlirLocation fileLoc, const char *name) {
  /* protobuf-c leaves an absent name NULL. */
  return mlirLocationNameGet(mlirLocationGetContext(fileLoc),
                             mlirStringRefCreateFromCString(name ? name : ""),
                             fileLoc);
}

MlirNamedAttribute kilnOnnxNamedAttr(MlirContext ctx, const char *name,
                                     MlirAttribute value) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name)), value);
}

MlirAttribute kilnOnnxI64VectorAttr(MlirContext ctx, const int64_t *v,
                                    intptr_t n) {
  int64_t len = n;
  MlirType type = mlirRankedTensorTypeGet(1, &len, mlirIntegerTypeGet(ctx, 64),
                                          mlirAttributeGetNull());
  return mlirDenseElementsAttrInt64Get(type, n, v);
}

MlirValue kilnOnnxBuildConstant(KilnGraphBuilder *b, MlirAttribute value) {
  MlirNamedAttribute attr =
      kilnOnnxNamedAttr(kilnGraphBuilderGetContext(b), "value", value);
  return kilnGraphBuilderCreateValue(b, "constant", NULL, 0, &attr, 1);
}

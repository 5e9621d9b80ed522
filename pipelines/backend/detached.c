/* Detaching large constants from an LLVM-dialect module for the
 * translation (see detached.h). */
#include "pipelines/backend/detached.h"
#include "kiln/diagnostics.h"

#include <stdlib.h>
#include <string.h>

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/LLVM.h"
#include "support/resource_data.h"

typedef struct Entry {
  MlirOperation op;
  MlirAttribute value, linkage; /* linkage: null if the op had none */
  char *name;
  const void *data;
  size_t size;
} Entry;

struct KilnDetachedData {
  Entry *entries;
  size_t count, capacity;
};

/* The registered bytes of `op`'s value if `op` is a constant global that
 * may be detached, else NULL. */
static const void *detachable(MlirOperation op, size_t minBytes, size_t *size) {
  if (!mlirStringRefEqual(mlirIdentifierStr(mlirOperationGetName(op)),
                          kilnStr("llvm.mlir.global")))
    return NULL;
  MlirAttribute value = mlirOperationGetAttributeByName(op, kilnStr("value"));
  if (mlirAttributeIsNull(value) ||
      !mlirAttributeIsADenseResourceElements(value) ||
      mlirAttributeIsNull(
          mlirOperationGetAttributeByName(op, kilnStr("constant"))))
    return NULL;
  /* Without an explicit alignment, LLVM would align a definition by its
   * initializer's size, which a declaration lacks. */
  MlirAttribute align =
      mlirOperationGetAttributeByName(op, kilnStr("alignment"));
  if (mlirAttributeIsNull(align) || !mlirAttributeIsAInteger(align) ||
      mlirIntegerAttrGetValueInt(align) <= 0)
    return NULL;
  const void *data = kilnResourceDataLookup(value, size);
  return data && *size >= minBytes ? data : NULL;
}

/* The alignment asked for the global's bytes (kilnResourceDataSetAlignment),
 * where it is more than the global's. */
static void raiseAlignment(MlirOperation op) {
  size_t want = kilnResourceDataGetAlignment(
      mlirOperationGetAttributeByName(op, kilnStr("value")));
  MlirAttribute align =
      mlirOperationGetAttributeByName(op, kilnStr("alignment"));
  if (want > (size_t)mlirIntegerAttrGetValueInt(align))
    mlirOperationSetAttributeByName(
        op, kilnStr("alignment"),
        mlirIntegerAttrGet(mlirAttributeGetType(align), (int64_t)want));
}

static void append(KilnDetachedData *d, Entry e) {
  if (d->count == d->capacity) {
    d->capacity = d->capacity ? 2 * d->capacity : 64;
    d->entries = realloc(d->entries, d->capacity * sizeof(Entry));
    if (!d->entries)
      abort();
  }
  d->entries[d->count++] = e;
}

KilnDetachedData *kilnDetachedDataCreate(MlirModule module, size_t minBytes) {
  KilnDetachedData *d = calloc(1, sizeof(*d));
  if (!d)
    abort();
  MlirContext ctx = mlirModuleGetContext(module);
  MlirAttribute external = mlirLLVMLinkageAttrGet(ctx, MlirLLVMLinkageExternal);
  MlirBlock body = mlirModuleGetBody(module);
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    size_t size;
    const void *data = detachable(op, minBytes, &size);
    if (!data)
      continue;
    MlirStringRef sym = mlirStringAttrGetValue(mlirOperationGetAttributeByName(
        op, mlirSymbolTableGetSymbolAttributeName()));
    char *name = malloc(sym.length + 1);
    if (!name)
      abort();
    memcpy(name, sym.data, sym.length);
    name[sym.length] = 0;
    raiseAlignment(op);
    append(d, (Entry){op, mlirOperationGetAttributeByName(op, kilnStr("value")),
                      mlirOperationGetAttributeByName(op, kilnStr("linkage")),
                      name, data, size});
    mlirOperationRemoveAttributeByName(op, kilnStr("value"));
    mlirOperationSetAttributeByName(op, kilnStr("linkage"), external);
  }
  return d;
}

void kilnDetachedDataRestore(KilnDetachedData *d) {
  for (size_t i = 0; d && i < d->count; ++i) {
    Entry *e = &d->entries[i];
    mlirOperationSetAttributeByName(e->op, kilnStr("value"), e->value);
    if (mlirAttributeIsNull(e->linkage))
      mlirOperationRemoveAttributeByName(e->op, kilnStr("linkage"));
    else
      mlirOperationSetAttributeByName(e->op, kilnStr("linkage"), e->linkage);
  }
}

void kilnDetachedDataDestroy(KilnDetachedData *d) {
  if (!d)
    return;
  for (size_t i = 0; i < d->count; ++i)
    free(d->entries[i].name);
  free(d->entries);
  free(d);
}

size_t kilnDetachedDataCount(const KilnDetachedData *d) {
  return d ? d->count : 0;
}

const char *kilnDetachedDataGetName(const KilnDetachedData *d, size_t i) {
  return d->entries[i].name;
}

const void *kilnDetachedDataGetBytes(const KilnDetachedData *d, size_t i,
                                     size_t *size) {
  *size = d->entries[i].size;
  return d->entries[i].data;
}

/* Static fast paths in a dynamic model's library (kiln-compile
 * --specialize, kilnModuleMergeSpecialized in compile.h).
 *
 * The model is compiled once with its dynamic dims (the generic entry)
 * and once per specialization with some of them fixed (batch=1). Each
 * compilation is lowered to the LLVM dialect on its own, so a fast path
 * gets exactly the schedules a static library would. Then a specialized
 * module's definitions move into the generic one under a prefix:
 *
 *   llvm.func @_mlir_ciface_main_graph(...)          the generic entry
 *   llvm.func @main_graph_part_3(...)
 *   llvm.func @"s1._mlir_ciface_main_graph"(...)     batch=1
 *   llvm.func @"s1.main_graph_part_3"(...)
 *   llvm.mlir.global @"s1.kiln_check_status"         its checks' status
 *   llvm.func @malloc(i64) -> !llvm.ptr              declarations: one copy
 *   llvm.mlir.global @__constant_64x64xf32           weights: one copy when
 *                                                    the bytes are equal
 *
 * and kiln_model_run (object.c) compares the input dims with each fast
 * path's before it falls back to the generic entry. */
#include <stdlib.h>
#include <string.h>

#include "conversions/graph-to-linalg/runtime_checks.h"
#include "conversions/linalg-to-llvm-cpu/memory_plan.h"
#include "kiln/compile.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "pipelines/backend/detached.h"
#include "support/ir_build.h"
#include "support/op_list.h"
#include "support/resource_data.h"

static MlirStringRef symbolName(MlirOperation op) {
  MlirAttribute a = mlirOperationGetAttributeByName(
      op, mlirSymbolTableGetSymbolAttributeName());
  return !mlirAttributeIsNull(a) && mlirAttributeIsAString(a)
             ? mlirStringAttrGetValue(a)
             : mlirStringRefCreate(NULL, 0);
}

/* An external function or global: it keeps its name, and one copy of it
 * stays in the merged module. */
static bool isDeclaration(MlirOperation op) {
  bool func = kilnOpNameIs(op, "llvm.func");
  if (!func && !kilnOpNameIs(op, "llvm.mlir.global"))
    return false;
  MlirRegion body = mlirOperationGetRegion(op, 0);
  if (!mlirBlockIsNull(mlirRegionGetFirstBlock(body)))
    return false;
  return func || mlirAttributeIsNull(
                     mlirOperationGetAttributeByName(op, kilnStr("value")));
}

/* A weight: a constant global whose value's bytes Kiln registered, as
 * large as the ones code generation detaches. NULL otherwise. */
static const void *weightBytes(MlirOperation op, size_t *size, int64_t *align) {
  if (!kilnOpNameIs(op, "llvm.mlir.global") ||
      mlirAttributeIsNull(
          mlirOperationGetAttributeByName(op, kilnStr("constant"))))
    return NULL;
  MlirAttribute value = mlirOperationGetAttributeByName(op, kilnStr("value"));
  if (mlirAttributeIsNull(value) ||
      !mlirAttributeIsADenseResourceElements(value))
    return NULL;
  MlirAttribute a = mlirOperationGetAttributeByName(op, kilnStr("alignment"));
  *align = !mlirAttributeIsNull(a) && mlirAttributeIsAInteger(a)
               ? mlirIntegerAttrGetValueInt(a)
               : 0;
  const void *data = kilnResourceDataLookup(value, size);
  return data && *size >= kKilnLargeDataBytes ? data : NULL;
}

/* The global of `weights` (ops of the generic module) with the bytes of
 * `op` and at least its alignment; null if none. */
static MlirOperation equalWeight(const KilnOpList *weights, MlirOperation op) {
  size_t size, otherSize;
  int64_t align, otherAlign;
  const void *data = weightBytes(op, &size, &align);
  for (size_t i = 0; data && i < weights->len; ++i) {
    const void *other = weightBytes(weights->data[i], &otherSize, &otherAlign);
    if (otherSize == size && otherAlign >= align && !memcmp(other, data, size))
      return weights->data[i];
  }
  return (MlirOperation){NULL};
}

static void renameSymbol(MlirOperation moduleOp, MlirOperation op,
                         MlirStringRef from, MlirStringRef to) {
  mlirSymbolTableReplaceAllSymbolUses(from, to, moduleOp);
  mlirOperationSetAttributeByName(
      op, mlirSymbolTableGetSymbolAttributeName(),
      mlirStringAttrGet(mlirOperationGetContext(op), to));
}

/* Renames, shares or drops each top-level op of `spec` as the top comment
 * says; false after emitting an error. (The prefix keeps every renamed
 * symbol apart from `module`'s: the shared weights' names stay free.) */
static bool prepareSymbols(MlirModule module, MlirModule spec,
                           const char *prefix) {
  MlirOperation moduleOp = mlirModuleGetOperation(module);
  MlirOperation specOp = mlirModuleGetOperation(spec);
  MlirSymbolTable symbols = mlirSymbolTableCreate(moduleOp);
  KilnOpList weights = {0}, ops = {0};
  size_t size;
  int64_t align;
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(module));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (weightBytes(op, &size, &align))
      kilnOpListPush(&weights, op);
  for (MlirOperation op = mlirBlockGetFirstOperation(mlirModuleGetBody(spec));
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    kilnOpListPush(&ops, op);
  bool ok = true;
  KilnStrBuf renamed = {0};
  for (size_t i = 0; ok && i < ops.len; ++i) {
    MlirOperation op = ops.data[i];
    MlirStringRef name = symbolName(op);
    if (!name.data) {
      MlirStringRef opName = mlirIdentifierStr(mlirOperationGetName(op));
      kilnEmitErrorf(mlirOperationGetLocation(op),
                     "unsupported: a specialized module with a top-level "
                     "'%.*s' op",
                     (int)opName.length, opName.data);
      ok = false;
      break;
    }
    if (isDeclaration(op)) {
      if (!mlirOperationIsNull(mlirSymbolTableLookup(symbols, name)))
        mlirOperationDestroy(op);
      ops.data[i] = (MlirOperation){NULL};
      continue;
    }
    kilnStrBufClear(&renamed);
    kilnStrBufAppendf(&renamed, "%s%.*s", prefix, (int)name.length, name.data);
    MlirStringRef to = mlirStringRefCreate(renamed.data, renamed.len);
    if (!mlirOperationIsNull(mlirSymbolTableLookup(symbols, to))) {
      kilnEmitErrorf(mlirOperationGetLocation(op),
                     "internal error: the specialized symbol '%s' exists "
                     "already",
                     kilnStrBufGet(&renamed));
      ok = false;
      break;
    }
    renameSymbol(specOp, op, name, to);
  }
  /* Shared after every rename: a use redirected to the generic module's
   * name must not be caught by the rename of a namesake. */
  for (size_t i = 0; ok && i < ops.len; ++i) {
    MlirOperation op = ops.data[i];
    MlirOperation shared = mlirOperationIsNull(op) ? (MlirOperation){NULL}
                                                   : equalWeight(&weights, op);
    if (mlirOperationIsNull(shared))
      continue;
    mlirSymbolTableReplaceAllSymbolUses(symbolName(op), symbolName(shared),
                                        specOp);
    mlirOperationDestroy(op);
  }
  kilnStrBufDestroy(&renamed);
  kilnOpListDestroy(&ops);
  kilnOpListDestroy(&weights);
  mlirSymbolTableDestroy(symbols);
  return ok;
}

static MlirAttribute moduleAttr(MlirModule m, const char *name) {
  return mlirOperationGetDiscardableAttributeByName(mlirModuleGetOperation(m),
                                                    kilnStr(name));
}

static intptr_t numChecks(MlirAttribute checks) {
  return mlirAttributeIsNull(checks) || !mlirAttributeIsAArray(checks)
             ? 0
             : mlirArrayAttrGetNumElements(checks);
}

/* The run-time checks' messages appended, the larger memory plan kept;
 * returns the number of `module`'s checks before. */
static int32_t mergeModuleAttrs(MlirModule module, MlirModule spec) {
  MlirContext ctx = mlirModuleGetContext(module);
  MlirOperation op = mlirModuleGetOperation(module);
  MlirAttribute checks = moduleAttr(module, KILN_RUNTIME_CHECKS_ATTR);
  MlirAttribute more = moduleAttr(spec, KILN_RUNTIME_CHECKS_ATTR);
  intptr_t n = numChecks(checks), m = numChecks(more);
  if (m) {
    MlirAttribute *all = kilnXCalloc((size_t)(n + m), sizeof(*all));
    for (intptr_t i = 0; i < n; ++i)
      all[i] = mlirArrayAttrGetElement(checks, i);
    for (intptr_t i = 0; i < m; ++i)
      all[n + i] = mlirArrayAttrGetElement(more, i);
    mlirOperationSetDiscardableAttributeByName(
        op, kilnStr(KILN_RUNTIME_CHECKS_ATTR),
        mlirArrayAttrGet(ctx, n + m, all));
    free(all);
  }
  MlirAttribute plan = moduleAttr(module, KILN_MEMORY_PLAN_ATTR);
  MlirAttribute specPlan = moduleAttr(spec, KILN_MEMORY_PLAN_ATTR);
  if (!mlirAttributeIsNull(specPlan) && mlirAttributeIsAInteger(specPlan) &&
      (mlirAttributeIsNull(plan) || !mlirAttributeIsAInteger(plan) ||
       mlirIntegerAttrGetValueInt(plan) < mlirIntegerAttrGetValueInt(specPlan)))
    mlirOperationSetDiscardableAttributeByName(
        op, kilnStr(KILN_MEMORY_PLAN_ATTR), specPlan);
  return (int32_t)n;
}

/* The dims `spec` fixes of `generic`'s dynamic input dims, into `entry`;
 * false after emitting an error at `loc`. */
static bool fixedDims(MlirLocation loc, const KilnModelSignature *generic,
                      const KilnModelSignature *spec, const char *description,
                      KilnSpecializedEntry *entry) {
  intptr_t numInputs = kilnModelSignatureGetNumInputs(generic);
  bool same = numInputs == kilnModelSignatureGetNumInputs(spec) &&
              kilnModelSignatureGetNumOutputs(generic) ==
                  kilnModelSignatureGetNumOutputs(spec);
  size_t capacity = 0;
  for (intptr_t i = 0; same && i < numInputs; ++i) {
    int64_t rank, specRank;
    const int64_t *dims = kilnModelSignatureGetInputDims(generic, i, &rank);
    const int64_t *fixed = kilnModelSignatureGetInputDims(spec, i, &specRank);
    same = rank == specRank;
    for (int64_t d = 0; same && d < rank; ++d) {
      if (dims[d] >= 0) {
        same = fixed[d] == dims[d];
        continue;
      }
      if (fixed[d] < 0)
        continue;
      if ((size_t)entry->numDims == capacity) {
        capacity = capacity ? 2 * capacity : 4;
        entry->dims = realloc(entry->dims, capacity * sizeof(*entry->dims));
        if (!entry->dims)
          abort();
      }
      entry->dims[entry->numDims++] =
          (KilnSpecializedDim){.input = i, .dim = d, .size = fixed[d]};
    }
  }
  if (!same)
    kilnEmitErrorf(loc,
                   "internal error: the specialization %s changed the "
                   "model's signature beyond its dynamic dims",
                   description);
  else if (!entry->numDims)
    kilnEmitErrorf(loc,
                   "the specialization %s fixes none of the model's dynamic "
                   "input dims",
                   description);
  return same && entry->numDims;
}

MlirLogicalResult kilnModuleMergeSpecialized(
    MlirModule module, const KilnModelSignature *signature,
    MlirModule specialized, const KilnModelSignature *specializedSignature,
    const char *prefix, const char *description, KilnSpecializedEntry *entry) {
  *entry = (KilnSpecializedEntry){0};
  MlirLocation loc = mlirOperationGetLocation(mlirModuleGetOperation(module));
  if (!fixedDims(loc, signature, specializedSignature, description, entry) ||
      !prepareSymbols(module, specialized, prefix)) {
    kilnSpecializedEntryDestroy(entry);
    return mlirLogicalResultFailure();
  }
  KilnStrBuf b = {0};
  kilnStrBufAppendf(&b, "%s_mlir_ciface_%s", prefix,
                    kilnModelSignatureGetEntry(specializedSignature));
  entry->entry = b.data;
  MlirSymbolTable specSymbols =
      mlirSymbolTableCreate(mlirModuleGetOperation(specialized));
  b = (KilnStrBuf){0};
  kilnStrBufAppendf(&b, "%s%s", prefix, KILN_CHECK_STATUS_SYMBOL);
  if (!mlirOperationIsNull(mlirSymbolTableLookup(
          specSymbols, mlirStringRefCreate(b.data, b.len))))
    entry->statusSymbol = b.data;
  else
    kilnStrBufDestroy(&b);
  mlirSymbolTableDestroy(specSymbols);
  entry->firstCheck = mergeModuleAttrs(module, specialized);
  entry->description = kilnStrDup(description);
  MlirBlock to = mlirModuleGetBody(module);
  for (MlirOperation op =
           mlirBlockGetFirstOperation(mlirModuleGetBody(specialized));
       !mlirOperationIsNull(op);) {
    MlirOperation next = mlirOperationGetNextInBlock(op);
    mlirOperationRemoveFromParent(op);
    mlirBlockAppendOwnedOperation(to, op);
    op = next;
  }
  return mlirLogicalResultSuccess();
}

void kilnSpecializedEntryDestroy(KilnSpecializedEntry *entry) {
  free(entry->entry);
  free(entry->statusSymbol);
  free(entry->dims);
  free(entry->description);
  *entry = (KilnSpecializedEntry){0};
}

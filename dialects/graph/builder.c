/* KilnGraphBuilder: creates graph ops with inferred result types. */
#include "kiln/graph_builder.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/graph/infer.h"
#include "dialects/graph/op_check.h"
#include "dialects/graph/op_table.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

/* Upper bound on operands/results of one graph op built here. */
#define KILN_MAX_OPERANDS 1024

struct KilnGraphBuilder {
  MlirContext ctx;
  MlirBlock block;
  MlirOperation before; /* null: append */
  MlirLocation loc;
};

KilnGraphBuilder *kilnGraphBuilderCreate(MlirContext ctx, MlirBlock block,
                                         MlirLocation loc) {
  KilnGraphBuilder *b = calloc(1, sizeof(*b));
  if (!b)
    return NULL;
  b->ctx = ctx;
  b->block = block;
  b->loc = loc;
  return b;
}

void kilnGraphBuilderDestroy(KilnGraphBuilder *b) { free(b); }

void kilnGraphBuilderSetLocation(KilnGraphBuilder *b, MlirLocation loc) {
  b->loc = loc;
}

void kilnGraphBuilderSetInsertionPointBefore(KilnGraphBuilder *b,
                                             MlirOperation op) {
  b->before = op;
}

MlirContext kilnGraphBuilderGetContext(const KilnGraphBuilder *b) {
  return b->ctx;
}

MlirLocation kilnGraphBuilderGetLocation(const KilnGraphBuilder *b) {
  return b->loc;
}

/* Counts the declared operands (or results) that are not SINGLE. */
static int countNonSingle(const KilnOperandSpec *specs, int n) {
  int k = 0;
  for (int i = 0; i < n; ++i)
    k += specs[i].kind != KILN_OPERAND_SINGLE;
  return k;
}

/* Checks operand count/presence against the op's declared operands and
 * fills the segment sizes (one per declared operand). */
static MlirLogicalResult checkOperands(const KilnGraphOpInfo *op,
                                       const MlirValue *operands,
                                       intptr_t numOperands, MlirLocation loc,
                                       int32_t *segments) {
  intptr_t pos = 0;
  for (int i = 0; i < op->numOperands; ++i) {
    const KilnOperandSpec *spec = &op->operands[i];
    if (spec->kind == KILN_OPERAND_VARIADIC) {
      segments[i] = (int32_t)(numOperands - pos);
      for (; pos < numOperands; ++pos)
        if (mlirValueIsNull(operands[pos])) {
          kilnEmitErrorf(loc, "'graph.%s' op operand #%ld of '%s' is null",
                         op->name, (long)pos, spec->name);
          return mlirLogicalResultFailure();
        }
      continue;
    }
    bool present = pos < numOperands && !mlirValueIsNull(operands[pos]);
    if (!present && spec->kind == KILN_OPERAND_SINGLE) {
      kilnEmitErrorf(loc, "'graph.%s' op requires operand '%s'", op->name,
                     spec->name);
      return mlirLogicalResultFailure();
    }
    segments[i] = present;
    ++pos;
  }
  if (pos < numOperands) {
    kilnEmitErrorf(loc, "'graph.%s' op takes at most %d operands, got %ld",
                   op->name, op->numOperands, (long)numOperands);
    return mlirLogicalResultFailure();
  }
  return mlirLogicalResultSuccess();
}

/* The number of results built when the caller does not say. */
static intptr_t defaultResultCount(const KilnGraphOpInfo *op) {
  intptr_t n = 0;
  for (int i = 0; i < op->numResults; ++i)
    n += op->results[i].kind == KILN_OPERAND_SINGLE;
  return n;
}

static MlirNamedAttribute segmentAttr(MlirContext ctx, const char *name,
                                      const int32_t *sizes, int n) {
  MlirIdentifier id =
      mlirIdentifierGet(ctx, mlirStringRefCreateFromCString(name));
  return mlirNamedAttributeGet(id, mlirDenseI32ArrayGet(ctx, n, sizes));
}

/* Result segment sizes: SINGLE results take one, the rest are filled in
 * order from what remains (optional ones take at most one). */
static void resultSegments(const KilnGraphOpInfo *op, intptr_t numResults,
                           int32_t *segments) {
  intptr_t left = numResults - defaultResultCount(op);
  for (int i = 0; i < op->numResults; ++i) {
    if (op->results[i].kind == KILN_OPERAND_SINGLE) {
      segments[i] = 1;
    } else if (op->results[i].kind == KILN_OPERAND_OPTIONAL) {
      segments[i] = left > 0;
      left -= segments[i];
    } else {
      segments[i] = (int32_t)(left > 0 ? left : 0);
      left = 0;
    }
  }
}

static MlirOperation
createChecked(KilnGraphBuilder *b, const KilnGraphOpInfo *op,
              const MlirValue *operands, intptr_t numOperands,
              const MlirNamedAttribute *attrs, intptr_t numAttrs,
              intptr_t numResults, MlirType *resultTypes) {
  int32_t segments[64] = {0};
  if (mlirLogicalResultIsFailure(
          checkOperands(op, operands, numOperands, b->loc, segments)) ||
      mlirLogicalResultIsFailure(
          kilnGraphCheckAttrs(op, attrs, numAttrs, b->loc)))
    return (MlirOperation){NULL};

  KilnInferContext ic = {b->ctx, b->loc,   op,         operands,   numOperands,
                         attrs,  numAttrs, numResults, resultTypes};
  if (mlirLogicalResultIsFailure(op->infer(&ic)))
    return (MlirOperation){NULL};

  KilnStrBuf name = {0};
  kilnStrBufAppendf(&name, "graph.%s", op->name);
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreate(name.data, name.len), b->loc);
  for (intptr_t i = 0; i < numOperands; ++i)
    if (!mlirValueIsNull(operands[i]))
      mlirOperationStateAddOperands(&st, 1, &operands[i]);
  mlirOperationStateAddResults(&st, numResults, resultTypes);
  mlirOperationStateAddAttributes(&st, numAttrs, attrs);
  if (countNonSingle(op->operands, op->numOperands) > 1) {
    MlirNamedAttribute seg =
        segmentAttr(b->ctx, "operandSegmentSizes", segments, op->numOperands);
    mlirOperationStateAddAttributes(&st, 1, &seg);
  }
  if (countNonSingle(op->results, op->numResults) > 1) {
    int32_t rseg[64] = {0};
    resultSegments(op, numResults, rseg);
    MlirNamedAttribute seg =
        segmentAttr(b->ctx, "resultSegmentSizes", rseg, op->numResults);
    mlirOperationStateAddAttributes(&st, 1, &seg);
  }
  MlirOperation created = mlirOperationCreate(&st);
  kilnStrBufDestroy(&name);
  if (mlirOperationIsNull(created))
    return created;
  if (mlirOperationIsNull(b->before))
    mlirBlockAppendOwnedOperation(b->block, created);
  else
    mlirBlockInsertOwnedOperationBefore(b->block, b->before, created);
  return created;
}

MlirOperation kilnGraphBuilderCreateOp(KilnGraphBuilder *b, const char *opName,
                                       const MlirValue *operands,
                                       intptr_t numOperands,
                                       const MlirNamedAttribute *attrs,
                                       intptr_t numAttrs, intptr_t numResults) {
  const KilnGraphOpInfo *op =
      kilnGraphOpLookup(mlirStringRefCreateFromCString(opName));
  if (!op) {
    kilnEmitErrorf(b->loc, "unknown graph op '%s'", opName);
    return (MlirOperation){NULL};
  }
  if (numResults < 0)
    numResults = defaultResultCount(op);
  if (numResults > KILN_MAX_OPERANDS || numOperands > KILN_MAX_OPERANDS ||
      op->numOperands > 64 || op->numResults > 64) {
    kilnEmitErrorf(b->loc, "'graph.%s' op has too many operands or results",
                   op->name);
    return (MlirOperation){NULL};
  }
  MlirType *types = calloc((size_t)numResults + 1, sizeof(MlirType));
  if (!types)
    abort();
  MlirOperation created = createChecked(b, op, operands, numOperands, attrs,
                                        numAttrs, numResults, types);
  free(types);
  return created;
}

MlirValue kilnGraphBuilderCreateValue(KilnGraphBuilder *b, const char *opName,
                                      const MlirValue *operands,
                                      intptr_t numOperands,
                                      const MlirNamedAttribute *attrs,
                                      intptr_t numAttrs) {
  MlirOperation op = kilnGraphBuilderCreateOp(b, opName, operands, numOperands,
                                              attrs, numAttrs, -1);
  if (mlirOperationIsNull(op) || mlirOperationGetNumResults(op) < 1)
    return (MlirValue){NULL};
  return mlirOperationGetResult(op, 0);
}

static MlirNamedAttribute named(KilnGraphBuilder *b, const char *name,
                                MlirAttribute value) {
  return mlirNamedAttributeGet(
      mlirIdentifierGet(b->ctx, mlirStringRefCreateFromCString(name)), value);
}

MlirNamedAttribute kilnGraphAttrInt(KilnGraphBuilder *b, const char *name,
                                    int64_t value) {
  return named(b, name,
               mlirIntegerAttrGet(mlirIntegerTypeGet(b->ctx, 64), value));
}

MlirNamedAttribute kilnGraphAttrFloat(KilnGraphBuilder *b, const char *name,
                                      float value) {
  return named(b, name,
               mlirFloatAttrDoubleGet(b->ctx, mlirF32TypeGet(b->ctx), value));
}

MlirNamedAttribute kilnGraphAttrString(KilnGraphBuilder *b, const char *name,
                                       const char *value) {
  return named(
      b, name,
      mlirStringAttrGet(b->ctx, mlirStringRefCreateFromCString(value)));
}

MlirNamedAttribute kilnGraphAttrInts(KilnGraphBuilder *b, const char *name,
                                     const int64_t *values, intptr_t n) {
  return named(b, name, mlirDenseI64ArrayGet(b->ctx, n, values));
}

MlirNamedAttribute kilnGraphAttrFloats(KilnGraphBuilder *b, const char *name,
                                       const float *values, intptr_t n) {
  return named(b, name, mlirDenseF32ArrayGet(b->ctx, n, values));
}

MlirNamedAttribute kilnGraphAttrStrings(KilnGraphBuilder *b, const char *name,
                                        const char *const *values, intptr_t n) {
  MlirAttribute *elems = malloc((n > 0 ? (size_t)n : 1) * sizeof(*elems));
  if (!elems)
    abort();
  for (intptr_t i = 0; i < n; ++i)
    elems[i] =
        mlirStringAttrGet(b->ctx, mlirStringRefCreateFromCString(values[i]));
  MlirNamedAttribute attr = named(b, name, mlirArrayAttrGet(b->ctx, n, elems));
  free(elems);
  return attr;
}

MlirNamedAttribute kilnGraphAttrType(KilnGraphBuilder *b, const char *name,
                                     MlirType type) {
  return named(b, name, mlirTypeAttrGet(type));
}

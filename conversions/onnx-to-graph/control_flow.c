/* ONNX control flow: dispatch, If, and what Loop and Scan share
 * (control_flow.h, control_flow_internal.h).
 *
 * If becomes
 *   %c = tensor.extract %cond[...] : tensor<...xi1>
 *   %r:N = scf.if %c -> (...) { then_branch; scf.yield } else { ... }
 * Branch outputs that differ only in static dims yield the joined type
 * (those dims dynamic, through tensor.cast); other differences are errors.
 *
 * Subgraphs are imported by the importer itself (KilnOnnxSubgraphFn), into
 * blocks that become regions only once the whole op is known, so a failed
 * import leaves nothing behind in the enclosing block's op list. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/onnx-to-graph/control_flow_internal.h"
#include "conversions/onnx-to-graph/onnx_tensor.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

bool kilnOnnxIsControlFlowOp(const char *opType) {
  return strcmp(opType, "If") == 0 || strcmp(opType, "Loop") == 0 ||
         strcmp(opType, "Scan") == 0;
}

/* ---- attributes -------------------------------------------------------- */

const Onnx__AttributeProto *kilnOnnxCfAttr(const Onnx__NodeProto *n,
                                           const char *name) {
  for (size_t i = 0; i < n->n_attribute; ++i)
    if (n->attribute[i]->name && strcmp(n->attribute[i]->name, name) == 0)
      return n->attribute[i];
  return NULL;
}

bool kilnOnnxCfCheckAttrs(const Onnx__NodeProto *n, const char *const *known,
                          MlirLocation loc) {
  for (size_t i = 0; i < n->n_attribute; ++i) {
    const char *name = n->attribute[i]->name ? n->attribute[i]->name : "";
    const char *const *k = known;
    while (*k && strcmp(*k, name) != 0)
      ++k;
    if (!*k) {
      kilnEmitErrorf(loc, "attribute '%s' of %s is not supported", name,
                     n->op_type);
      return false;
    }
  }
  return true;
}

const Onnx__GraphProto *kilnOnnxCfGraphAttr(const Onnx__NodeProto *n,
                                            const char *name,
                                            MlirLocation loc) {
  const Onnx__AttributeProto *a = kilnOnnxCfAttr(n, name);
  if (!a) {
    kilnEmitErrorf(loc, "%s needs the graph attribute '%s'", n->op_type, name);
    return NULL;
  }
  if (!a->g || (a->has_type &&
                a->type != ONNX__ATTRIBUTE_PROTO__ATTRIBUTE_TYPE__GRAPH)) {
    kilnEmitErrorf(loc, "attribute '%s' of %s must be a graph", name,
                   n->op_type);
    return NULL;
  }
  return a->g;
}

bool kilnOnnxCfConstInt(MlirValue v, int64_t *out) {
  if (mlirValueIsNull(v) || !mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  if (!kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(def)),
                           "graph.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(def, kilnStr("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsADenseElements(a) ||
      mlirElementsAttrGetNumElements(a) != 1)
    return false;
  MlirType elem = mlirShapedTypeGetElementType(mlirAttributeGetType(a));
  if (mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 1)
    *out = mlirDenseElementsAttrGetBoolValue(a, 0);
  else if (mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == 64)
    *out = mlirDenseElementsAttrGetInt64Value(a, 0);
  else
    return false;
  return true;
}

static const char *typeKindName(Onnx__TypeProto__ValueCase c) {
  switch (c) {
  case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
    return "sequence";
  case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
    return "optional";
  case ONNX__TYPE_PROTO__VALUE_MAP_TYPE:
    return "map";
  case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
    return "sparse tensor";
  default:
    return "non-tensor";
  }
}

/* Emits "OP body input 'NAME' is declared as WHAT, but receives TYPE". */
static bool inputMismatch(const char *opType, const char *name,
                          const char *what, MlirType actual, MlirLocation loc) {
  KilnStrBuf text = {0};
  kilnStrBufAppendType(&text, actual);
  kilnEmitErrorf(loc, "%s subgraph input '%s' is declared %s, but receives %s",
                 opType, name, what, kilnStrBufGet(&text));
  kilnStrBufDestroy(&text);
  return false;
}

bool kilnOnnxCfCheckInput(MlirContext ctx, const Onnx__ValueInfoProto *vi,
                          MlirType actual, const char *opType,
                          MlirLocation loc) {
  const char *name = vi->name ? vi->name : "";
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case == ONNX__TYPE_PROTO__VALUE__NOT_SET)
    return true; /* untyped: the operand's type it is */
  if (tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE) {
    kilnEmitErrorf(loc,
                   "%s subgraph input '%s' has a %s type; Kiln imports "
                   "tensors only (sequence, optional and map values are not "
                   "supported)",
                   opType, name, typeKindName(tp->value_case));
    return false;
  }
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  if (tt->has_elem_type && tt->elem_type != 0) {
    MlirType elem = kilnOnnxElementType(ctx, tt->elem_type);
    if (mlirTypeIsNull(elem) ||
        !mlirTypeEqual(elem, mlirShapedTypeGetElementType(actual))) {
      char scratch[32], what[64];
      snprintf(what, sizeof(what), "with element type %s",
               kilnOnnxDataTypeName(tt->elem_type, scratch));
      return inputMismatch(opType, name, what, actual, loc);
    }
  }
  if (!tt->shape)
    return true;
  if ((intptr_t)tt->shape->n_dim != mlirShapedTypeGetRank(actual)) {
    char what[64];
    snprintf(what, sizeof(what), "with rank %zu", tt->shape->n_dim);
    return inputMismatch(opType, name, what, actual, loc);
  }
  for (size_t i = 0; i < tt->shape->n_dim; ++i) {
    const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
    int64_t got = mlirShapedTypeGetDimSize(actual, (intptr_t)i);
    if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
        d->dim_value >= 0 && !mlirShapedTypeIsDynamicSize(got) &&
        got != d->dim_value) {
      char what[96];
      snprintf(what, sizeof(what), "with dimension %zu of size %lld", i,
               (long long)d->dim_value);
      return inputMismatch(opType, name, what, actual, loc);
    }
  }
  return true;
}

/* ---- subgraphs --------------------------------------------------------- */

/* `t` with the static dims `vi` declares where `t`'s are dynamic; `t`
 * itself if `vi` declares no tensor shape of t's rank. (The importer has
 * already checked that the declared dims do not conflict.) */
static MlirType refinedType(const Onnx__ValueInfoProto *vi, MlirType t) {
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
      !tp->tensor_type->shape || !mlirTypeIsARankedTensor(t))
    return t;
  const Onnx__TensorShapeProto *shape = tp->tensor_type->shape;
  intptr_t rank = mlirShapedTypeGetRank(t);
  if ((intptr_t)shape->n_dim != rank || rank > KILN_ONNX_CF_MAX_RANK)
    return t;
  int64_t dims[KILN_ONNX_CF_MAX_RANK];
  for (intptr_t i = 0; i < rank; ++i) {
    const Onnx__TensorShapeProto__Dimension *d = shape->dim[i];
    dims[i] = mlirShapedTypeGetDimSize(t, i);
    if (mlirShapedTypeIsDynamicSize(dims[i]) &&
        d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
        d->dim_value >= 0)
      dims[i] = d->dim_value;
  }
  return mlirRankedTensorTypeGet(rank, dims, mlirShapedTypeGetElementType(t),
                                 mlirAttributeGetNull());
}

bool kilnOnnxCfImportSubgraph(const KilnOnnxControlFlow *cf,
                              const Onnx__GraphProto *g, MlirBlock block,
                              const MlirValue *inputs, MlirValue *outputs,
                              MlirLocation loc) {
  if (!cf->importSubgraph(cf->importer, g, block, inputs, outputs))
    return false;
  /* Shapes inference leaves dynamic (a Slice at the iteration number)
   * may be declared static: trust the declaration, as stacking scan
   * outputs and keeping carried values static need it. */
  for (size_t i = 0; i < g->n_output; ++i)
    outputs[i] =
        kilnOnnxCfCast(block, loc, outputs[i],
                       refinedType(g->output[i], mlirValueGetType(outputs[i])));
  return true;
}

/* ---- loop bodies ------------------------------------------------------- */

/* The number of static dims of `types`: a bound on how often carried types
 * can be relaxed (each relaxation makes at least one dim dynamic). */
static intptr_t numStaticDims(const MlirType *types, intptr_t n) {
  intptr_t count = 0;
  for (intptr_t i = 0; i < n; ++i)
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(types[i]); ++d)
      count +=
          !mlirShapedTypeIsDynamicSize(mlirShapedTypeGetDimSize(types[i], d));
  return count;
}

/* One import of the body with `carried` as the carried types; relaxes
 * `carried` where the body's outputs differ. Sets *changed when it did. */
static MlirBlock importBodyOnce(const KilnOnnxControlFlow *cf,
                                const KilnOnnxCfBody *body, MlirType *carried,
                                MlirValue *outputs, bool *changed) {
  const Onnx__GraphProto *g = body->graph;
  intptr_t nArgs = body->numLead + body->numCarried;
  MlirType *types = kilnXCalloc((size_t)nArgs, sizeof(MlirType));
  MlirLocation *locs = kilnXCalloc((size_t)nArgs, sizeof(MlirLocation));
  MlirValue *inputs = kilnXCalloc(g->n_input, sizeof(MlirValue));
  for (intptr_t i = 0; i < nArgs; ++i) {
    types[i] =
        i < body->numLead ? body->leadTypes[i] : carried[i - body->numLead];
    locs[i] = body->loc;
  }
  MlirBlock block = mlirBlockCreate(nArgs, types, locs);
  for (intptr_t k = 0; k < body->numCarried; ++k)
    inputs[body->carriedIn + k] =
        mlirBlockGetArgument(block, body->numLead + k);
  body->prepare(body->prepareData, block, inputs);
  bool ok = kilnOnnxCfImportSubgraph(cf, g, block, inputs, outputs, body->loc);
  *changed = false;
  for (intptr_t k = 0; ok && k < body->numCarried; ++k) {
    MlirType out = mlirValueGetType(outputs[body->carriedOut + k]);
    MlirType joined = kilnOnnxCfJoinTypes(carried[k], out);
    if (mlirTypeIsNull(joined)) {
      KilnStrBuf a = {0}, b = {0};
      kilnStrBufAppendType(&a, out);
      kilnStrBufAppendType(&b, carried[k]);
      const char *name = g->output[body->carriedOut + k]->name;
      kilnEmitErrorf(body->loc,
                     "%s body output '%s' is %s, but the loop-carried value "
                     "it updates is %s (they must agree in element type and "
                     "rank)",
                     body->opType, name ? name : "", kilnStrBufGet(&a),
                     kilnStrBufGet(&b));
      kilnStrBufDestroy(&a);
      kilnStrBufDestroy(&b);
      ok = false;
    } else if (!mlirTypeEqual(joined, carried[k])) {
      carried[k] = joined;
      *changed = true;
    }
  }
  if (!ok || *changed) {
    mlirBlockDestroy(block);
    block = (MlirBlock){NULL};
  }
  free(types);
  free(locs);
  free(inputs);
  return block;
}

MlirBlock kilnOnnxCfImportBody(const KilnOnnxControlFlow *cf,
                               const KilnOnnxCfBody *body, MlirType *carried,
                               MlirValue *outputs) {
  intptr_t tries = numStaticDims(carried, body->numCarried) + 1;
  for (intptr_t t = 0; t < tries; ++t) {
    bool changed;
    MlirBlock block = importBodyOnce(cf, body, carried, outputs, &changed);
    if (!mlirBlockIsNull(block)) {
      for (intptr_t k = 0; k < body->numCarried; ++k) {
        MlirValue *v = &outputs[body->carriedOut + k];
        *v = kilnOnnxCfCast(block, body->loc, *v, carried[k]);
      }
      return block;
    }
    if (!changed)
      return block; /* an error was reported */
  }
  /* Unreachable: each retry adds a dynamic dim, and the last is stable. */
  kilnEmitErrorf(body->loc, "%s body: loop-carried types do not settle",
                 body->opType);
  return (MlirBlock){NULL};
}

/* ---- If ---------------------------------------------------------------- */

bool kilnOnnxCfCheckScalar(MlirValue v, unsigned width, const char *what,
                           MlirLocation loc) {
  MlirType t = mlirValueGetType(v);
  bool ok = mlirTypeIsARankedTensor(t) &&
            mlirShapedTypeGetRank(t) <= KILN_ONNX_CF_MAX_RANK;
  MlirType elem = ok ? mlirShapedTypeGetElementType(t) : (MlirType){NULL};
  ok = ok && mlirTypeIsAInteger(elem) && mlirIntegerTypeGetWidth(elem) == width;
  for (intptr_t i = 0; ok && i < mlirShapedTypeGetRank(t); ++i) {
    int64_t d = mlirShapedTypeGetDimSize(t, i);
    ok = d == 1 || mlirShapedTypeIsDynamicSize(d);
  }
  if (!ok) {
    KilnStrBuf text = {0};
    kilnStrBufAppendType(&text, t);
    kilnEmitErrorf(loc, "%s must be a tensor of one %s, not %s", what,
                   width == 1 ? "bool" : "int64", kilnStrBufGet(&text));
    kilnStrBufDestroy(&text);
  }
  return ok;
}

/* The joined result types of If's branches, casting branch outputs to them
 * where needed; false after an error naming the output. */
static bool joinBranches(const Onnx__NodeProto *n,
                         const Onnx__GraphProto *thenG, MlirLocation loc,
                         MlirBlock thenB, MlirBlock elseB, MlirValue *thenOut,
                         MlirValue *elseOut, MlirType *types) {
  for (size_t i = 0; i < thenG->n_output; ++i) {
    MlirType a = mlirValueGetType(thenOut[i]);
    MlirType b = mlirValueGetType(elseOut[i]);
    types[i] = kilnOnnxCfJoinTypes(a, b);
    if (mlirTypeIsNull(types[i])) {
      const char *name = i < n->n_output ? n->output[i] : "";
      KilnStrBuf ta = {0}, tb = {0};
      kilnStrBufAppendType(&ta, a);
      kilnStrBufAppendType(&tb, b);
      kilnEmitErrorf(loc,
                     "If output #%zu ('%s') is %s in then_branch but %s in "
                     "else_branch; branch outputs must agree in element type "
                     "and rank",
                     i, name, kilnStrBufGet(&ta), kilnStrBufGet(&tb));
      kilnStrBufDestroy(&ta);
      kilnStrBufDestroy(&tb);
      return false;
    }
    thenOut[i] = kilnOnnxCfCast(thenB, loc, thenOut[i], types[i]);
    elseOut[i] = kilnOnnxCfCast(elseB, loc, elseOut[i], types[i]);
  }
  return true;
}

/* Checks If's signature; false after an error. */
static bool checkIf(const Onnx__NodeProto *n, const Onnx__GraphProto *thenG,
                    const Onnx__GraphProto *elseG, const MlirValue *operands,
                    MlirLocation loc) {
  if (n->n_input != 1 || mlirValueIsNull(operands[0])) {
    kilnEmitErrorf(loc, "If takes exactly one input, the condition");
    return false;
  }
  if (!kilnOnnxCfCheckScalar(operands[0], 1, "If's condition", loc))
    return false;
  if (thenG->n_input || elseG->n_input) {
    kilnEmitErrorf(loc,
                   "If branches take no inputs (then_branch has %zu, "
                   "else_branch %zu)",
                   thenG->n_input, elseG->n_input);
    return false;
  }
  if (thenG->n_output != elseG->n_output || n->n_output > thenG->n_output) {
    kilnEmitErrorf(loc,
                   "If has %zu outputs, then_branch %zu and else_branch %zu; "
                   "they must agree",
                   n->n_output, thenG->n_output, elseG->n_output);
    return false;
  }
  return true;
}

static bool buildIf(const KilnOnnxControlFlow *cf, const Onnx__NodeProto *n,
                    MlirLocation loc, const MlirValue *operands,
                    MlirValue *results) {
  static const char *const kAttrs[] = {"then_branch", "else_branch", NULL};
  if (!kilnOnnxCfCheckAttrs(n, kAttrs, loc))
    return false;
  const Onnx__GraphProto *thenG = kilnOnnxCfGraphAttr(n, "then_branch", loc);
  const Onnx__GraphProto *elseG =
      thenG ? kilnOnnxCfGraphAttr(n, "else_branch", loc) : NULL;
  if (!elseG || !checkIf(n, thenG, elseG, operands, loc))
    return false;
  size_t nOut = thenG->n_output;
  MlirBlock thenB = mlirBlockCreate(0, NULL, NULL);
  MlirBlock elseB = mlirBlockCreate(0, NULL, NULL);
  MlirValue *thenOut = kilnXCalloc(nOut, sizeof(MlirValue));
  MlirValue *elseOut = kilnXCalloc(nOut, sizeof(MlirValue));
  MlirType *types = kilnXCalloc(nOut, sizeof(MlirType));
  bool ok = kilnOnnxCfImportSubgraph(cf, thenG, thenB, NULL, thenOut, loc) &&
            kilnOnnxCfImportSubgraph(cf, elseG, elseB, NULL, elseOut, loc) &&
            joinBranches(n, thenG, loc, thenB, elseB, thenOut, elseOut, types);
  if (!ok) {
    mlirBlockDestroy(thenB);
    mlirBlockDestroy(elseB);
    goto out;
  }
  kilnOnnxCfTerminate(thenB, loc, "scf.yield", thenOut, (intptr_t)nOut);
  kilnOnnxCfTerminate(elseB, loc, "scf.yield", elseOut, (intptr_t)nOut);
  MlirRegion regions[2] = {mlirRegionCreate(), mlirRegionCreate()};
  mlirRegionAppendOwnedBlock(regions[0], thenB);
  mlirRegionAppendOwnedBlock(regions[1], elseB);
  MlirValue c = kilnOnnxCfExtractFirst(cf->block, loc, operands[0]);
  MlirOperation op = kilnOnnxCfCreate(cf->block, loc, "scf.if", &c, 1, types,
                                      (intptr_t)nOut, NULL, 0, regions, 2);
  for (size_t i = 0; i < n->n_output; ++i)
    results[i] = mlirOperationGetResult(op, (intptr_t)i);
out:
  free(thenOut);
  free(elseOut);
  free(types);
  return ok;
}

/* ---- dispatch ---------------------------------------------------------- */

/* Loads the dialects control flow builds in; false after an error. */
static bool loadDialects(MlirContext ctx, MlirLocation loc) {
  static const char *const kDialects[] = {"scf", "tensor", "arith"};
  for (size_t i = 0; i < sizeof(kDialects) / sizeof(kDialects[0]); ++i)
    if (mlirDialectIsNull(
            mlirContextGetOrLoadDialect(ctx, kilnStr(kDialects[i])))) {
      kilnEmitErrorf(loc,
                     "the %s dialect is not registered in this context "
                     "(create it with kilnContextCreate)",
                     kDialects[i]);
      return false;
    }
  return true;
}

bool kilnOnnxBuildControlFlow(const KilnOnnxControlFlow *cf,
                              const Onnx__NodeProto *n, MlirLocation loc,
                              const MlirValue *operands, MlirValue *results) {
  if (!loadDialects(cf->ctx, loc))
    return false;
  if (strcmp(n->op_type, "If") == 0)
    return buildIf(cf, n, loc, operands, results);
  if (strcmp(n->op_type, "Loop") == 0)
    return kilnOnnxCfBuildLoop(cf, n, loc, operands, results);
  return kilnOnnxCfBuildScan(cf, n, loc, operands, results);
}

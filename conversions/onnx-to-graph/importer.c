/* The ONNX importer: ModelProto (protobuf-c) -> graph dialect.
 *
 * Import runs in three steps, each failing with located errors before any
 * later one starts: (1) parse and check that every node is an op Kiln knows,
 * reporting all unknown ones at once; (2) build func.func @main_graph from
 * the graph inputs, whose shapes must be static; (3) add initializers as
 * graph.constant, then each node in order through the generic graph
 * builder, which infers result types by ONNX's shape rules. */
#include "kiln/onnx.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/onnx-to-graph/onnx_attr.h"
#include "conversions/onnx-to-graph/onnx_tensor.h"
#include "conversions/onnx-to-graph/opset_compat.h"
#include "dialects/common/diag.h"
#include "dialects/graph/op_table.h"
#include "kiln/graph.h"
#include "kiln/graph_builder.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx.pb-c.h"

/* ---- name -> value map (open addressing; keys borrowed from the model) -- */

typedef struct ValueSlot {
  const char *name; /* NULL: empty slot */
  MlirValue value;
} ValueSlot;

typedef struct ValueMap {
  ValueSlot *slots;
  size_t cap; /* a power of two, kept at least twice the count */
  size_t count;
} ValueMap;

static size_t hashName(const char *s) {
  size_t h = 1469598103934665603u; /* FNV-1a */
  for (; *s; ++s)
    h = (h ^ (unsigned char)*s) * 1099511628211u;
  return h;
}

static ValueSlot *findSlot(ValueSlot *slots, size_t cap, const char *name) {
  size_t i = hashName(name) & (cap - 1);
  while (slots[i].name && strcmp(slots[i].name, name) != 0)
    i = (i + 1) & (cap - 1);
  return &slots[i];
}

static void valueMapPut(ValueMap *m, const char *name, MlirValue v) {
  if (2 * (m->count + 1) > m->cap) {
    size_t cap = m->cap ? 2 * m->cap : 64;
    ValueSlot *slots = calloc(cap, sizeof(ValueSlot));
    if (!slots)
      abort();
    for (size_t i = 0; i < m->cap; ++i)
      if (m->slots[i].name)
        *findSlot(slots, cap, m->slots[i].name) = m->slots[i];
    free(m->slots);
    m->slots = slots;
    m->cap = cap;
  }
  ValueSlot *s = findSlot(m->slots, m->cap, name);
  if (!s->name)
    ++m->count;
  s->name = name;
  s->value = v;
}

/* The value named `name`, or a null value. */
static MlirValue valueMapGet(const ValueMap *m, const char *name) {
  if (!m->cap)
    return (MlirValue){NULL};
  ValueSlot *s = findSlot(m->slots, m->cap, name);
  return s->name ? s->value : (MlirValue){NULL};
}

/* ---- the importer ------------------------------------------------------ */

typedef struct Importer {
  MlirContext ctx;
  const char *fileName;
  MlirLocation fileLoc; /* FILE:0:0 */
  const Onnx__ModelProto *model;
  const Onnx__GraphProto *graph;
  const KilnOnnxImportOptions *opts; /* never NULL */
  long long opset;                   /* of the default domain */
  ValueMap values;
  KilnGraphBuilder *b;
} Importer;

static MlirStringRef str(const char *s) {
  return mlirStringRefCreateFromCString(s);
}

static bool isDefaultDomain(const char *domain) {
  return !domain || !*domain || strcmp(domain, "ai.onnx") == 0;
}

/* The opset version the model imports for `domain`, or -1. */
static long long opsetVersion(const Onnx__ModelProto *m, const char *domain) {
  for (size_t i = 0; i < m->n_opset_import; ++i) {
    const Onnx__OperatorSetIdProto *o = m->opset_import[i];
    bool same = isDefaultDomain(domain)
                    ? isDefaultDomain(o->domain)
                    : o->domain && strcmp(o->domain, domain) == 0;
    if (same && o->has_version)
      return (long long)o->version;
  }
  return -1;
}

/* NameLoc("NAME (OpType)", FILE:0:0); "#INDEX" for an unnamed node. */
static MlirLocation nodeLoc(const Importer *im, size_t index) {
  const Onnx__NodeProto *n = im->graph->node[index];
  KilnStrBuf name = {0};
  if (n->name && *n->name)
    kilnStrBufAppendf(&name, "%s (%s)", n->name, n->op_type);
  else
    kilnStrBufAppendf(&name, "#%zu (%s)", index, n->op_type);
  MlirLocation loc = mlirLocationNameGet(
      im->ctx, mlirStringRefCreate(name.data, name.len), im->fileLoc);
  kilnStrBufDestroy(&name);
  return loc;
}

/* The graph op implementing ONNX op `opType`, or NULL. */
static const KilnGraphOpInfo *lookupOnnxOp(const char *opType) {
  intptr_t n = kilnGraphOpGetCount();
  for (intptr_t i = 0; i < n; ++i) {
    const KilnGraphOpInfo *op = kilnGraphOpGetAt(i);
    if (strcmp(op->onnxName, opType) == 0)
      return op;
  }
  return NULL;
}

/* Step 1: reports every node whose op Kiln does not know; true if none. */
static bool checkOpsSupported(const Importer *im) {
  bool ok = true;
  for (size_t i = 0; i < im->graph->n_node; ++i) {
    const Onnx__NodeProto *n = im->graph->node[i];
    if (isDefaultDomain(n->domain) && lookupOnnxOp(n->op_type))
      continue;
    const char *domain = n->domain && *n->domain ? n->domain : "ai.onnx";
    long long opset = opsetVersion(im->model, n->domain);
    char opsetText[32] = "no opset imported";
    if (opset >= 0)
      snprintf(opsetText, sizeof(opsetText), "opset %lld", opset);
    kilnEmitErrorf(nodeLoc(im, i), "unsupported ONNX op '%s' (domain '%s', %s)",
                   n->op_type, domain, opsetText);
    ok = false;
  }
  return ok;
}

static bool isInitializer(const Onnx__GraphProto *g, const char *name) {
  for (size_t i = 0; i < g->n_initializer; ++i)
    if (g->initializer[i]->name && strcmp(g->initializer[i]->name, name) == 0)
      return true;
  return false;
}

/* The input shape the options give for graph input `name`, or NULL. */
static const KilnOnnxInputShape *findInputShape(const Importer *im,
                                                const char *name) {
  for (intptr_t i = 0; i < im->opts->numInputShapes; ++i)
    if (strcmp(im->opts->inputShapes[i].name, name) == 0)
      return &im->opts->inputShapes[i];
  return NULL;
}

static bool isGraphInput(const Onnx__GraphProto *g, const char *name) {
  for (size_t i = 0; i < g->n_input; ++i)
    if (g->input[i]->name && strcmp(g->input[i]->name, name) == 0)
      return !isInitializer(g, name);
  return false;
}

/* Checks the options' input shapes against the graph before import:
 * each must name a distinct graph input and have no negative dim. */
static bool checkInputShapes(const Importer *im) {
  bool ok = true;
  for (intptr_t i = 0; i < im->opts->numInputShapes; ++i) {
    const KilnOnnxInputShape *s = &im->opts->inputShapes[i];
    if (!s->name || !isGraphInput(im->graph, s->name)) {
      kilnEmitErrorf(im->fileLoc,
                     "input shape given for '%s', which is not a graph "
                     "input of the model",
                     s->name ? s->name : "(null)");
      ok = false;
      continue;
    }
    if (findInputShape(im, s->name) != s) {
      kilnEmitErrorf(im->fileLoc, "input shape given twice for '%s'", s->name);
      ok = false;
    }
    for (intptr_t d = 0; d < s->rank; ++d)
      if (s->dims[d] < 0) {
        kilnEmitErrorf(im->fileLoc,
                       "input shape for '%s': dimension %lld is negative",
                       s->name, (long long)d);
        ok = false;
        break;
      }
  }
  return ok;
}

/* Dim `i` of graph input `name` (`d` in the model, `want` from the
 * options or NULL) into *out; false after an error at `loc`. */
static bool inputDim(const char *name, size_t i,
                     const Onnx__TensorShapeProto__Dimension *d,
                     const KilnOnnxInputShape *want, MlirLocation loc,
                     int64_t *out) {
  bool known =
      d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
      d->dim_value >= 0;
  if (known && want && want->dims[i] != d->dim_value) {
    kilnEmitErrorf(loc,
                   "input shape for '%s': dimension %zu is %lld, but the "
                   "model fixes it to %lld",
                   name, i, (long long)want->dims[i], (long long)d->dim_value);
    return false;
  }
  if (known || want) {
    *out = known ? d->dim_value : want->dims[i];
    return true;
  }
  bool named =
      d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
  kilnEmitErrorf(loc,
                 "graph input '%s' has dynamic dimension %zu%s%s%s; Kiln "
                 "needs static input shapes (specialize it with --input-shape "
                 "%s=D0xD1x...)",
                 name, i, named ? " ('" : "", named ? d->dim_param : "",
                 named ? "')" : "", name);
  return false;
}

/* The static tensor type of graph input `vi`; null after an error. */
static MlirType inputType(const Importer *im, const Onnx__ValueInfoProto *vi) {
  MlirLocation loc = mlirLocationNameGet(im->ctx, str(vi->name), im->fileLoc);
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
      !tp->tensor_type->has_elem_type) {
    kilnEmitErrorf(loc, "graph input '%s' is not a tensor of known type",
                   vi->name);
    return (MlirType){NULL};
  }
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  MlirType elem = kilnOnnxElementType(im->ctx, tt->elem_type);
  if (mlirTypeIsNull(elem)) {
    char scratch[32];
    kilnEmitErrorf(loc,
                   "graph input '%s' has element type %s, which Kiln "
                   "does not import",
                   vi->name, kilnOnnxDataTypeName(tt->elem_type, scratch));
    return (MlirType){NULL};
  }
  if (!tt->shape) {
    kilnEmitErrorf(loc, "graph input '%s' has no shape", vi->name);
    return (MlirType){NULL};
  }
  size_t rank = tt->shape->n_dim;
  const KilnOnnxInputShape *want = findInputShape(im, vi->name);
  if (want && want->rank != (intptr_t)rank) {
    kilnEmitErrorf(loc,
                   "input shape for '%s' has rank %lld, but the model's "
                   "input has rank %zu",
                   vi->name, (long long)want->rank, rank);
    return (MlirType){NULL};
  }
  int64_t *dims = malloc((rank ? rank : 1) * sizeof(int64_t));
  if (!dims)
    abort();
  MlirType type = {NULL};
  for (size_t i = 0; i < rank; ++i)
    if (!inputDim(vi->name, i, tt->shape->dim[i], want, loc, &dims[i]))
      goto out;
  type = mlirRankedTensorTypeGet((intptr_t)rank, dims, elem,
                                 mlirAttributeGetNull());
out:
  free(dims);
  return type;
}

/* Step 2: creates func.func @main_graph in `module` with one argument per
 * non-initializer graph input (mapped by name); its function_type gets the
 * results later. Returns the entry block, or a null block after errors. */
static MlirBlock createMainFunc(Importer *im, MlirModule module,
                                MlirOperation *funcOut) {
  const Onnx__GraphProto *g = im->graph;
  size_t cap = g->n_input ? g->n_input : 1;
  MlirType *types = malloc(cap * sizeof(MlirType));
  MlirLocation *locs = malloc(cap * sizeof(MlirLocation));
  const char **names = malloc(cap * sizeof(char *));
  if (!types || !locs || !names)
    abort();
  intptr_t n = 0;
  bool ok = true;
  for (size_t i = 0; i < g->n_input; ++i) {
    const Onnx__ValueInfoProto *vi = g->input[i];
    if (!vi->name || isInitializer(g, vi->name)) /* IR v3 lists weights */
      continue;
    types[n] = inputType(im, vi);
    ok &= !mlirTypeIsNull(types[n]);
    locs[n] = mlirLocationNameGet(im->ctx, str(vi->name), im->fileLoc);
    names[n++] = vi->name;
  }
  MlirBlock block = {NULL};
  if (!ok)
    goto out;
  block = mlirBlockCreate(n, types, locs);
  for (intptr_t i = 0; i < n; ++i)
    valueMapPut(&im->values, names[i], mlirBlockGetArgument(block, i));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState st = mlirOperationStateGet(str("func.func"), im->fileLoc);
  MlirNamedAttribute attrs[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(im->ctx, str("sym_name")),
                            mlirStringAttrGet(im->ctx, str("main_graph"))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(im->ctx, str("function_type")),
          mlirTypeAttrGet(mlirFunctionTypeGet(im->ctx, n, types, 0, NULL))),
  };
  mlirOperationStateAddAttributes(&st, 2, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  *funcOut = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), *funcOut);
out:
  free(types);
  free(locs);
  free(names);
  return block;
}

/* Step 3a: every initializer becomes a graph.constant. */
static bool importInitializers(Importer *im) {
  const Onnx__GraphProto *g = im->graph;
  for (size_t i = 0; i < g->n_initializer; ++i) {
    const Onnx__TensorProto *t = g->initializer[i];
    const char *name = t->name ? t->name : "";
    MlirLocation loc = mlirLocationNameGet(im->ctx, str(name), im->fileLoc);
    KilnStrBuf what = {0};
    kilnStrBufAppendf(&what, "initializer '%s'", name);
    MlirAttribute value = kilnOnnxTensorToAttr(im->ctx, t, loc, what.data);
    kilnStrBufDestroy(&what);
    if (mlirAttributeIsNull(value))
      return false;
    kilnGraphBuilderSetLocation(im->b, loc);
    MlirNamedAttribute attr =
        mlirNamedAttributeGet(mlirIdentifierGet(im->ctx, str("value")), value);
    MlirValue v =
        kilnGraphBuilderCreateValue(im->b, "constant", NULL, 0, &attr, 1);
    if (mlirValueIsNull(v))
      return false;
    valueMapPut(&im->values, name, v);
  }
  return true;
}

/* Converts node `n`'s attributes for `op` into `attrs` (n->n_attribute
 * slots). Attributes the op table does not list are errors: dropping one
 * could silently change the computation. */
static bool convertNodeAttrs(const Importer *im, const Onnx__NodeProto *n,
                             const KilnGraphOpInfo *op, MlirLocation loc,
                             const bool *consumed, MlirNamedAttribute *attrs,
                             intptr_t *numAttrs) {
  *numAttrs = 0;
  for (size_t i = 0; i < n->n_attribute; ++i) {
    const Onnx__AttributeProto *a = n->attribute[i];
    if (consumed[i])
      continue; /* became an operand (opset_compat.h) */
    const char *name = a->name ? a->name : "";
    const KilnAttrSpec *spec = kilnGraphOpFindAttr(op, str(name));
    if (!spec) {
      kilnEmitErrorf(loc, "attribute '%s' of %s is not supported", name,
                     n->op_type);
      return false;
    }
    if (!kilnOnnxConvertAttr(im->ctx, spec, a, loc, &attrs[*numAttrs]))
      return false;
    ++*numAttrs;
  }
  return true;
}

/* Builds the graph op(s) for one node from its operands. N-ary Min, Max and
 * Concat become left-leaning chains of the binary graph ops (see
 * docs/graph-dialect.md); a one-input one is its input. Returns a null op
 * when the node maps to its input; *result is its first result. */
static bool buildNode(Importer *im, const Onnx__NodeProto *n,
                      const KilnGraphOpInfo *op, MlirValue *operands,
                      intptr_t nIn, MlirNamedAttribute *attrs, intptr_t nAttrs,
                      MlirOperation *built) {
  bool chain = strcmp(op->onnxName, "Min") == 0 ||
               strcmp(op->onnxName, "Max") == 0 ||
               strcmp(op->onnxName, "Concat") == 0;
  *built = (MlirOperation){NULL};
  if (!chain || nIn == 2 || nIn == 0) {
    *built = kilnGraphBuilderCreateOp(im->b, op->name, operands, nIn, attrs,
                                      nAttrs, (intptr_t)n->n_output);
    return !mlirOperationIsNull(*built);
  }
  MlirValue acc = operands[0];
  for (intptr_t i = 1; i < nIn; ++i) {
    MlirValue pair[2] = {acc, operands[i]};
    *built =
        kilnGraphBuilderCreateOp(im->b, op->name, pair, 2, attrs, nAttrs, 1);
    if (mlirOperationIsNull(*built))
      return false;
    acc = mlirOperationGetResult(*built, 0);
  }
  if (nIn == 1 && n->n_output >= 1 && *n->output[0])
    valueMapPut(&im->values, n->output[0], acc);
  return true;
}

/* Step 3b: imports node `index`. */
static bool importNode(Importer *im, size_t index) {
  const Onnx__NodeProto *n = im->graph->node[index];
  const KilnGraphOpInfo *op = lookupOnnxOp(n->op_type);
  MlirLocation loc = nodeLoc(im, index);
  kilnGraphBuilderSetLocation(im->b, loc);
  /* Attributes of older opsets that became inputs may add operands. */
  intptr_t nIn = (intptr_t)n->n_input;
  intptr_t compatMax = kilnOnnxCompatMaxOperand(n->op_type, im->opset);
  if (compatMax + 1 > nIn)
    nIn = compatMax + 1;
  size_t nAttr = n->n_attribute ? n->n_attribute : 1;
  MlirValue *operands =
      calloc((size_t)nIn ? (size_t)nIn : 1, sizeof(MlirValue));
  MlirNamedAttribute *attrs = calloc(nAttr, sizeof(MlirNamedAttribute));
  bool *consumed = calloc(nAttr, sizeof(bool));
  if (!operands || !attrs || !consumed)
    abort();
  bool ok = false;
  for (size_t i = 0; i < n->n_input; ++i) {
    if (!*n->input[i])
      continue; /* absent optional input: a null value */
    operands[i] = valueMapGet(&im->values, n->input[i]);
    if (mlirValueIsNull(operands[i])) {
      kilnEmitErrorf(loc,
                     "input '%s' is not defined before this node (no "
                     "graph input, initializer or earlier node output)",
                     n->input[i]);
      goto out;
    }
  }
  MlirOperation built;
  intptr_t nAttrs = 0;
  if (!kilnOnnxCompatApply(im->b, n, im->opset, loc, operands, consumed) ||
      !convertNodeAttrs(im, n, op, loc, consumed, attrs, &nAttrs))
    goto out;
  /* Slots added for attributes the node lacks stay absent operands. */
  while (nIn > (intptr_t)n->n_input && mlirValueIsNull(operands[nIn - 1]))
    --nIn;
  if (!buildNode(im, n, op, operands, nIn, attrs, nAttrs, &built))
    goto out;
  if (!mlirOperationIsNull(built)) {
    intptr_t numResults = mlirOperationGetNumResults(built);
    for (size_t i = 0; i < n->n_output && (intptr_t)i < numResults; ++i)
      if (*n->output[i])
        valueMapPut(&im->values, n->output[i],
                    mlirOperationGetResult(built, (intptr_t)i));
  }
  ok = true;
out:
  free(operands);
  free(attrs);
  free(consumed);
  return ok;
}

/* Step 3c: func.return of the graph outputs; sets the function type. */
static bool finishMainFunc(Importer *im, MlirOperation func, MlirBlock block) {
  const Onnx__GraphProto *g = im->graph;
  size_t cap = g->n_output ? g->n_output : 1;
  MlirValue *results = malloc(cap * sizeof(MlirValue));
  MlirType *types = malloc(cap * sizeof(MlirType));
  if (!results || !types)
    abort();
  bool ok = true;
  for (size_t i = 0; i < g->n_output; ++i) {
    const char *name = g->output[i]->name ? g->output[i]->name : "";
    results[i] = valueMapGet(&im->values, name);
    if (mlirValueIsNull(results[i])) {
      kilnEmitErrorf(mlirLocationNameGet(im->ctx, str(name), im->fileLoc),
                     "graph output '%s' is not produced by any node, input "
                     "or initializer",
                     name);
      ok = false;
      continue;
    }
    types[i] = mlirValueGetType(results[i]);
  }
  if (ok) {
    MlirOperationState st =
        mlirOperationStateGet(str("func.return"), im->fileLoc);
    mlirOperationStateAddOperands(&st, (intptr_t)g->n_output, results);
    mlirBlockAppendOwnedOperation(block, mlirOperationCreate(&st));
    intptr_t nArgs = mlirBlockGetNumArguments(block);
    MlirType *argTypes = malloc((nArgs ? nArgs : 1) * sizeof(MlirType));
    if (!argTypes)
      abort();
    for (intptr_t i = 0; i < nArgs; ++i)
      argTypes[i] = mlirValueGetType(mlirBlockGetArgument(block, i));
    MlirType fnType = mlirFunctionTypeGet(im->ctx, nArgs, argTypes,
                                          (intptr_t)g->n_output, types);
    mlirOperationSetAttributeByName(func, str("function_type"),
                                    mlirTypeAttrGet(fnType));
    free(argTypes);
  }
  free(results);
  free(types);
  return ok;
}

/* Steps 2 and 3 into a fresh module; a null module after errors. */
static MlirModule importGraph(Importer *im) {
  MlirModule module = mlirModuleCreateEmpty(im->fileLoc);
  MlirOperation func = {NULL};
  MlirBlock block = createMainFunc(im, module, &func);
  bool ok = !mlirBlockIsNull(block);
  if (ok) {
    im->b = kilnGraphBuilderCreate(im->ctx, block, im->fileLoc);
    ok = importInitializers(im);
    for (size_t i = 0; ok && i < im->graph->n_node; ++i)
      ok = importNode(im, i);
    ok = ok && finishMainFunc(im, func, block);
    kilnGraphBuilderDestroy(im->b);
    im->b = NULL;
  }
  if (!ok) {
    mlirModuleDestroy(module);
    return (MlirModule){NULL};
  }
  return module;
}

/* Checks the default-domain opset against the range Kiln implements. */
static bool checkOpset(Importer *im) {
  im->opset = opsetVersion(im->model, "");
  if (im->opset < 0) {
    kilnEmitErrorf(im->fileLoc,
                   "the model imports no opset of the default ONNX "
                   "domain; Kiln supports opsets %d to %d",
                   KILN_ONNX_MIN_OPSET, KILN_ONNX_MAX_OPSET);
    return false;
  }
  if (im->opset < KILN_ONNX_MIN_OPSET || im->opset > KILN_ONNX_MAX_OPSET) {
    kilnEmitErrorf(im->fileLoc,
                   "unsupported ONNX opset %lld for the default domain; "
                   "Kiln supports opsets %d to %d",
                   im->opset, KILN_ONNX_MIN_OPSET, KILN_ONNX_MAX_OPSET);
    return false;
  }
  return true;
}

MlirModule kilnOnnxImportBuffer(MlirContext ctx, const void *data, size_t len,
                                const char *name) {
  return kilnOnnxImportBufferWithOptions(ctx, data, len, name, NULL);
}

MlirModule
kilnOnnxImportBufferWithOptions(MlirContext ctx, const void *data, size_t len,
                                const char *name,
                                const KilnOnnxImportOptions *options) {
  static const KilnOnnxImportOptions kDefaults = {0};
  Importer im = {
      .ctx = ctx, .fileName = name, .opts = options ? options : &kDefaults};
  im.fileLoc = mlirLocationFileLineColGet(ctx, str(name), 0, 0);
  MlirModule module = {NULL};
  if (mlirLogicalResultIsFailure(kilnGraphDialectLoad(ctx)))
    return module;
  if (mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, str("func")))) {
    kilnEmitErrorf(im.fileLoc, "the func dialect is not registered in this "
                               "context (create it with kilnContextCreate)");
    return module;
  }
  Onnx__ModelProto *model =
      onnx__model_proto__unpack(NULL, len, (const uint8_t *)data);
  if (!model) {
    kilnEmitErrorf(im.fileLoc,
                   "'%s' is not a valid ONNX model (protobuf "
                   "decoding failed: truncated or corrupt file?)",
                   name);
    return module;
  }
  im.model = model;
  im.graph = model->graph;
  if (!im.graph) {
    kilnEmitErrorf(im.fileLoc,
                   "'%s' is not a valid ONNX model (it has no "
                   "graph)",
                   name);
  } else if (checkOpset(&im) && checkInputShapes(&im) &&
             checkOpsSupported(&im)) {
    module = importGraph(&im);
  }
  free(im.values.slots);
  onnx__model_proto__free_unpacked(model, NULL);
  return module;
}

MlirModule kilnOnnxImportFile(MlirContext ctx, const char *path) {
  return kilnOnnxImportFileWithOptions(ctx, path, NULL);
}

MlirModule kilnOnnxImportFileWithOptions(MlirContext ctx, const char *path,
                                         const KilnOnnxImportOptions *options) {
  MlirLocation loc = mlirLocationFileLineColGet(ctx, str(path), 0, 0);
  FILE *f = fopen(path, "rb");
  if (!f) {
    kilnEmitErrorf(loc, "cannot open '%s': %s", path, strerror(errno));
    return (MlirModule){NULL};
  }
  KilnStrBuf buf = {0};
  char chunk[65536];
  size_t n;
  while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
    kilnStrBufAppend(&buf, chunk, n);
  bool failed = ferror(f) != 0;
  fclose(f);
  MlirModule module = {NULL};
  if (failed)
    kilnEmitErrorf(loc, "cannot read '%s'", path);
  else
    module = kilnOnnxImportBufferWithOptions(ctx, buf.data ? buf.data : "",
                                             buf.len, path, options);
  kilnStrBufDestroy(&buf);
  return module;
}

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
  int64_t *dims = malloc((rank ? rank : 1) * sizeof(int64_t));
  if (!dims)
    abort();
  MlirType type = {NULL};
  for (size_t i = 0; i < rank; ++i) {
    const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
    if (d->value_case != ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE ||
        d->dim_value < 0) {
      bool named =
          d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM;
      kilnEmitErrorf(loc,
                     "graph input '%s' has dynamic dimension %zu%s%s%s; "
                     "Kiln needs static input shapes",
                     vi->name, i, named ? " ('" : "", named ? d->dim_param : "",
                     named ? "')" : "");
      goto out;
    }
    dims[i] = d->dim_value;
  }
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
                             MlirNamedAttribute *attrs) {
  for (size_t i = 0; i < n->n_attribute; ++i) {
    const Onnx__AttributeProto *a = n->attribute[i];
    const char *name = a->name ? a->name : "";
    const KilnAttrSpec *spec = kilnGraphOpFindAttr(op, str(name));
    if (!spec) {
      kilnEmitErrorf(loc, "attribute '%s' of %s is not supported", name,
                     n->op_type);
      return false;
    }
    if (!kilnOnnxConvertAttr(im->ctx, spec, a, loc, &attrs[i]))
      return false;
  }
  return true;
}

/* Builds the graph op(s) for one node from its operands. N-ary Min, Max and
 * Concat become left-leaning chains of the binary graph ops (see
 * docs/graph-dialect.md); a one-input one is its input. Returns a null op
 * when the node maps to its input; *result is its first result. */
static bool buildNode(Importer *im, const Onnx__NodeProto *n,
                      const KilnGraphOpInfo *op, MlirValue *operands,
                      MlirNamedAttribute *attrs, MlirOperation *built) {
  intptr_t nIn = (intptr_t)n->n_input, nAttrs = (intptr_t)n->n_attribute;
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
  MlirValue *operands = calloc(n->n_input ? n->n_input : 1, sizeof(MlirValue));
  MlirNamedAttribute *attrs =
      calloc(n->n_attribute ? n->n_attribute : 1, sizeof(MlirNamedAttribute));
  if (!operands || !attrs)
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
  if (!convertNodeAttrs(im, n, op, loc, attrs) ||
      !buildNode(im, n, op, operands, attrs, &built))
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

MlirModule kilnOnnxImportBuffer(MlirContext ctx, const void *data, size_t len,
                                const char *name) {
  Importer im = {.ctx = ctx, .fileName = name};
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
  } else if (checkOpsSupported(&im)) {
    module = importGraph(&im);
  }
  free(im.values.slots);
  onnx__model_proto__free_unpacked(model, NULL);
  return module;
}

MlirModule kilnOnnxImportFile(MlirContext ctx, const char *path) {
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
    module = kilnOnnxImportBuffer(ctx, buf.data ? buf.data : "", buf.len, path);
  kilnStrBufDestroy(&buf);
  return module;
}

/* The ONNX importer: ModelProto (protobuf-c) -> graph dialect.
 *
 * Import runs in three steps, each failing with located errors before any
 * later one starts: (1) parse, check names and node order (topo_sort.h) and
 * that every node is an op Kiln knows, reporting all unknown ones at once;
 * (2) build func.func @main_graph from the graph inputs, whose shapes must
 * be static; (3) add initializers as graph.constant, then each node in
 * topological order through the graph builder (composite.h), which infers
 * result types by ONNX's shape rules, and check the types the model
 * declares against them.
 *
 * Memory: a model file is mapped, not read, and unpacked by wire_scan.h,
 * which drops the file's pages behind each initializer once protobuf-c
 * has copied it out, so the weights are held about once; each
 * initializer's bytes then move into MLIR (onnx_tensor.h) and leave the
 * message. */
#define _POSIX_C_SOURCE 200809L /* mmap, fstat */

#include "kiln/onnx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conversions/onnx-to-graph/composite.h"
#include "conversions/onnx-to-graph/control_flow.h"
#include "conversions/onnx-to-graph/import_util.h"
#include "conversions/onnx-to-graph/input_dims.h"
#include "conversions/onnx-to-graph/onnx_attr.h"
#include "conversions/onnx-to-graph/onnx_tensor.h"
#include "conversions/onnx-to-graph/opset_compat.h"
#include "conversions/onnx-to-graph/topo_sort.h"
#include "conversions/onnx-to-graph/wire_scan.h"
#include "dialects/graph/op_table.h"
#include "kiln/diagnostics.h"
#include "kiln/graph.h"
#include "kiln/graph_builder.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "onnx.pb-c.h"
#include "support/shape.h"

/* ---- the importer ------------------------------------------------------ */

typedef struct Importer {
  MlirContext ctx;
  const char *fileName;
  const char *baseDir;  /* external data directory; NULL: from memory */
  MlirLocation fileLoc; /* FILE:0:0 */
  const Onnx__ModelProto *model;
  Onnx__GraphProto *graph; /* initializers' data moves out as imported */
  const KilnOnnxImportOptions *opts; /* never NULL */
  long long opset;                   /* of the default domain */
  KilnOnnxNameMap values;            /* name -> MlirValue.ptr */
  KilnGraphBuilder *b;
  MlirBlock block; /* where `b` appends: the function's or a subgraph's */
  /* Inside subgraphs (depth > 0), every name put records the value it
   * replaced, so leaving the subgraph restores the enclosing scope: ONNX
   * subgraphs see outer names, and their own names shadow them. */
  int depth;
  struct Shadowed {
    const char *name;
    const void *previous;
  } *undo;
  size_t undoLen, undoCap;
} Importer;

static void valueMapPut(Importer *im, const char *name, MlirValue v) {
  if (im->depth > 0) {
    if (im->undoLen == im->undoCap) {
      im->undoCap = im->undoCap ? 2 * im->undoCap : 64;
      im->undo = realloc(im->undo, im->undoCap * sizeof(*im->undo));
      if (!im->undo)
        abort();
    }
    im->undo[im->undoLen++] =
        (struct Shadowed){name, kilnOnnxNameMapGet(&im->values, name)};
  }
  kilnOnnxNameMapPut(&im->values, name, v.ptr);
}

/* Restores the names put since the undo log had `mark` entries. */
static void valueMapPopTo(Importer *im, size_t mark) {
  while (im->undoLen > mark) {
    --im->undoLen;
    kilnOnnxNameMapPut(&im->values, im->undo[im->undoLen].name,
                       im->undo[im->undoLen].previous);
  }
}

/* The value named `name`, or a null value. */
static MlirValue valueMapGet(const Importer *im, const char *name) {
  return (MlirValue){kilnOnnxNameMapGet(&im->values, name)};
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

static MlirLocation nodeLoc(const Importer *im, size_t index) {
  return kilnOnnxNodeLoc(im->fileLoc, im->graph->node[index], index);
}

/* Step 1: reports every node whose op Kiln does not know; true if none. */
static bool checkOpsSupported(const Importer *im) {
  bool ok = true;
  for (size_t i = 0; i < im->graph->n_node; ++i) {
    const Onnx__NodeProto *n = im->graph->node[i];
    if (isDefaultDomain(n->domain) &&
        (kilnOnnxLookupOp(n->op_type) || kilnOnnxIsControlFlowOp(n->op_type)))
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
      if (s->dims[d] < -1) { /* -1: dynamic */
        kilnEmitErrorf(im->fileLoc,
                       "input shape for '%s': dimension %lld is negative",
                       s->name, (long long)d);
        ok = false;
        break;
      }
  }
  return ok;
}

/* The value the options bind to graph input `name`, or NULL. */
static const KilnOnnxInputValue *findInputValue(const Importer *im,
                                                const char *name) {
  for (intptr_t i = 0; i < im->opts->numInputValues; ++i)
    if (im->opts->inputValues[i].name &&
        strcmp(im->opts->inputValues[i].name, name) == 0)
      return &im->opts->inputValues[i];
  return NULL;
}

static const Onnx__ValueInfoProto *findGraphInput(const Onnx__GraphProto *g,
                                                  const char *name) {
  for (size_t i = 0; i < g->n_input; ++i)
    if (g->input[i]->name && strcmp(g->input[i]->name, name) == 0)
      return isInitializer(g, name) ? NULL : g->input[i];
  return NULL;
}

/* Checks one bound value against its graph input `vi`. */
static bool checkInputValue(const Importer *im, const KilnOnnxInputValue *v,
                            const Onnx__ValueInfoProto *vi) {
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
      !tp->tensor_type->has_elem_type || !tp->tensor_type->shape ||
      mlirTypeIsNull(v->elementType) ||
      !mlirTypeEqual(kilnOnnxElementType(im->ctx, tp->tensor_type->elem_type),
                     v->elementType)) {
    kilnEmitErrorf(im->fileLoc,
                   "input value for '%s' does not have the input's element "
                   "type",
                   v->name);
    return false;
  }
  const Onnx__TensorShapeProto *shape = tp->tensor_type->shape;
  if (v->rank != (intptr_t)shape->n_dim) {
    kilnEmitErrorf(im->fileLoc,
                   "input value for '%s' has rank %lld, but the model's "
                   "input has rank %zu",
                   v->name, (long long)v->rank, shape->n_dim);
    return false;
  }
  uint64_t count = 1;
  for (intptr_t d = 0; d < v->rank; ++d) {
    const Onnx__TensorShapeProto__Dimension *dim = shape->dim[d];
    bool known =
        dim->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE;
    if (v->dims[d] < 0 || (known && dim->dim_value != v->dims[d])) {
      kilnEmitErrorf(im->fileLoc,
                     "input value for '%s': dimension %lld is %lld, which "
                     "the model's input does not allow",
                     v->name, (long long)d, (long long)v->dims[d]);
      return false;
    }
    count *= (uint64_t)v->dims[d];
  }
  if (count * (size_t)kilnElementByteSize(v->elementType) != v->byteSize ||
      (!v->data && v->byteSize)) {
    kilnEmitErrorf(im->fileLoc,
                   "input value for '%s' has %zu bytes of data, which do not "
                   "match its shape and element type",
                   v->name, v->byteSize);
    return false;
  }
  return true;
}

/* Checks the options' input values: each names a distinct graph input
 * and fits its type. */
static bool checkInputValues(const Importer *im) {
  bool ok = true;
  for (intptr_t i = 0; i < im->opts->numInputValues; ++i) {
    const KilnOnnxInputValue *v = &im->opts->inputValues[i];
    const Onnx__ValueInfoProto *vi =
        v->name ? findGraphInput(im->graph, v->name) : NULL;
    if (!vi) {
      kilnEmitErrorf(im->fileLoc,
                     "input value given for '%s', which is not a graph "
                     "input of the model",
                     v->name ? v->name : "(null)");
      ok = false;
    } else if (findInputValue(im, v->name) != v) {
      kilnEmitErrorf(im->fileLoc, "input value given twice for '%s'", v->name);
      ok = false;
    } else {
      ok &= checkInputValue(im, v, vi);
    }
  }
  return ok;
}

/* The name of the graph input at `position` among those that are not
 * initializers (the order of @main_graph's arguments), or NULL. */
static const char *inputNameAt(const Onnx__GraphProto *g, intptr_t position) {
  for (size_t i = 0; i < g->n_input; ++i) {
    const char *name = g->input[i]->name;
    if (!name || isInitializer(g, name))
      continue;
    if (position-- == 0)
      return name;
  }
  return NULL;
}

/* Copies the options' input shapes into *copy (malloc'd) with the names of
 * those given by position filled in; false after an error. */
static bool resolveInputPositions(const Importer *im,
                                  KilnOnnxInputShape **copy) {
  intptr_t n = im->opts->numInputShapes;
  *copy = malloc((size_t)(n ? n : 1) * sizeof(**copy));
  if (!*copy)
    abort();
  bool ok = true;
  for (intptr_t i = 0; i < n; ++i) {
    (*copy)[i] = im->opts->inputShapes[i];
    if ((*copy)[i].name)
      continue;
    (*copy)[i].name = (*copy)[i].position >= 0
                          ? inputNameAt(im->graph, (*copy)[i].position)
                          : NULL;
    if (!(*copy)[i].name) {
      kilnEmitErrorf(im->fileLoc,
                     "input shape given for input #%lld, but the model has "
                     "fewer inputs",
                     (long long)(*copy)[i].position);
      ok = false;
    }
  }
  return ok;
}

/* Step 3a': each bound graph input becomes a graph.constant. */
static bool importInputValues(Importer *im) {
  for (intptr_t i = 0; i < im->opts->numInputValues; ++i) {
    const KilnOnnxInputValue *v = &im->opts->inputValues[i];
    MlirType type = mlirRankedTensorTypeGet(v->rank, v->dims, v->elementType,
                                            mlirAttributeGetNull());
    MlirAttribute value;
    if (mlirTypeIsAInteger(v->elementType) &&
        mlirIntegerTypeGetWidth(v->elementType) == 1) {
      /* i1 storage is not one byte per element: go through ints. */
      size_t count = v->byteSize;
      int *bits = malloc((count ? count : 1) * sizeof(int));
      if (!bits)
        abort();
      for (size_t k = 0; k < count; ++k)
        bits[k] = ((const unsigned char *)v->data)[k] != 0;
      value = mlirDenseElementsAttrBoolGet(type, (intptr_t)count, bits);
      free(bits);
    } else {
      value = mlirDenseElementsAttrRawBufferGet(type, v->byteSize, v->data);
    }
    if (mlirAttributeIsNull(value)) {
      kilnEmitErrorf(im->fileLoc, "cannot make a constant of input '%s'",
                     v->name);
      return false;
    }
    kilnGraphBuilderSetLocation(im->b, kilnOnnxValueLoc(im->fileLoc, v->name));
    MlirNamedAttribute attr = mlirNamedAttributeGet(
        mlirIdentifierGet(im->ctx, kilnStr("value")), value);
    MlirValue c =
        kilnGraphBuilderCreateValue(im->b, "constant", NULL, 0, &attr, 1);
    if (mlirValueIsNull(c))
      return false;
    valueMapPut(im, v->name, c);
  }
  return true;
}

/* "a sequence" etc. for the ONNX types Kiln does not model; NULL for
 * tensors and unset types. */
static const char *nonTensorKind(Onnx__TypeProto__ValueCase c) {
  switch (c) {
  case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE:
    return "a sequence";
  case ONNX__TYPE_PROTO__VALUE_MAP_TYPE:
    return "a map";
  case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE:
    return "an optional";
  case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
    return "a sparse tensor";
  default:
    return NULL;
  }
}

/* The static tensor type of graph input `vi` (its dims sized by `sizes`);
 * null after an error. */
static MlirType inputType(const Importer *im, KilnInputDims *sizes,
                          const Onnx__ValueInfoProto *vi) {
  MlirLocation loc =
      mlirLocationNameGet(im->ctx, kilnStr(vi->name), im->fileLoc);
  const Onnx__TypeProto *tp = vi->type;
  const char *kind = tp ? nonTensorKind(tp->value_case) : NULL;
  if (kind) {
    kilnEmitErrorf(loc,
                   "graph input '%s' is %s, which Kiln does not support "
                   "(tensors only)",
                   vi->name, kind);
    return (MlirType){NULL};
  }
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
    if (!kilnInputDimsResolve(sizes, vi->name, i, tt->shape->dim[i], want, loc,
                              &dims[i]))
      goto out;
  type = mlirRankedTensorTypeGet((intptr_t)rank, dims, elem,
                                 mlirAttributeGetNull());
out:
  free(dims);
  return type;
}

/* Records the sizes that an input shape or value (`dims[rank]`) gives
 * graph input `vi`'s named dims, so that a shared name's size reaches
 * every input whatever their order; false after an error. A rank mismatch
 * is inputType's or checkInputValues' to report. */
static bool recordGivenDims(const Importer *im, KilnInputDims *sizes,
                            const Onnx__ValueInfoProto *vi, const int64_t *dims,
                            intptr_t rank) {
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
      !tp->tensor_type->shape || tp->tensor_type->shape->n_dim != (size_t)rank)
    return true;
  const Onnx__TensorShapeProto *shape = tp->tensor_type->shape;
  KilnOnnxInputShape given = {.name = vi->name, .dims = dims, .rank = rank};
  MlirLocation loc =
      mlirLocationNameGet(im->ctx, kilnStr(vi->name), im->fileLoc);
  for (size_t i = 0; i < shape->n_dim; ++i) {
    int64_t size;
    if (shape->dim[i]->value_case ==
            ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
        !kilnInputDimsResolve(sizes, vi->name, i, shape->dim[i], &given, loc,
                              &size))
      return false;
  }
  return true;
}

/* The input dims' sizes from the options' shapes, values and bindings
 * (input_dims.h); NULL after errors. */
static KilnInputDims *inputDimsCreate(const Importer *im) {
  const Onnx__GraphProto *g = im->graph;
  KilnInputDims *sizes = kilnInputDimsCreate(im->opts, im->fileLoc);
  bool ok = sizes != NULL;
  for (size_t i = 0; ok && i < g->n_input; ++i) {
    const Onnx__ValueInfoProto *vi = g->input[i];
    if (!vi->name || isInitializer(g, vi->name))
      continue;
    const KilnOnnxInputValue *value = findInputValue(im, vi->name);
    const KilnOnnxInputShape *shape = findInputShape(im, vi->name);
    if (value)
      ok = recordGivenDims(im, sizes, vi, value->dims, value->rank);
    else if (shape)
      ok = recordGivenDims(im, sizes, vi, shape->dims, shape->rank);
  }
  if (ok)
    return sizes;
  kilnInputDimsDestroy(sizes);
  return NULL;
}

/* The attributes of a graph input or output on the function argument or
 * result (func arg_attrs / res_attrs): {onnx.name = NAME} keeps its ONNX
 * name, and, when its ONNX shape names a dim (dim_param),
 * onnx.dim_names = ["batch", "", ...] keeps the names ("" for a dim
 * without one), which the model library records. */
static MlirAttribute valueAttrs(MlirContext ctx, const Onnx__ValueInfoProto *vi,
                                const char *name) {
  MlirNamedAttribute entries[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("onnx.name")),
                            mlirStringAttrGet(ctx, kilnStr(name)))};
  intptr_t n = 1;
  const Onnx__TypeProto *tp = vi ? vi->type : NULL;
  const Onnx__TensorShapeProto *shape =
      tp && tp->value_case == ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE
          ? tp->tensor_type->shape
          : NULL;
  bool named = false;
  for (size_t d = 0; shape && d < shape->n_dim; ++d)
    named |= shape->dim[d]->value_case ==
                 ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
             shape->dim[d]->dim_param && *shape->dim[d]->dim_param;
  if (named) {
    MlirAttribute *dims = kilnXCalloc(shape->n_dim, sizeof(MlirAttribute));
    for (size_t d = 0; d < shape->n_dim; ++d) {
      const Onnx__TensorShapeProto__Dimension *dim = shape->dim[d];
      bool has = dim->value_case ==
                     ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
                 dim->dim_param;
      dims[d] = mlirStringAttrGet(ctx, kilnStr(has ? dim->dim_param : ""));
    }
    entries[n++] = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, kilnStr("onnx.dim_names")),
        mlirArrayAttrGet(ctx, (intptr_t)shape->n_dim, dims));
    free(dims);
  }
  return mlirDictionaryAttrGet(ctx, n, entries);
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
  MlirAttribute *names = malloc(cap * sizeof(MlirAttribute));
  if (!types || !locs || !names)
    abort();
  intptr_t n = 0;
  KilnInputDims *sizes = inputDimsCreate(im);
  bool ok = sizes != NULL;
  for (size_t i = 0; sizes && i < g->n_input; ++i) {
    const Onnx__ValueInfoProto *vi = g->input[i];
    if (!vi->name || isInitializer(g, vi->name) || /* IR v3 lists weights */
        findInputValue(im, vi->name))
      continue;
    types[n] = inputType(im, sizes, vi);
    ok &= !mlirTypeIsNull(types[n]);
    locs[n] = kilnOnnxValueLoc(im->fileLoc, vi->name);
    names[n++] = valueAttrs(im->ctx, vi, vi->name);
  }
  /* Even after other errors: a misspelt binding explains them. */
  ok = sizes && kilnInputDimsFinish(sizes, im->fileLoc) && ok;
  kilnInputDimsDestroy(sizes);
  MlirBlock block = {NULL};
  if (!ok)
    goto out;
  block = mlirBlockCreate(n, types, locs);
  for (intptr_t i = 0, k = 0; i < (intptr_t)g->n_input; ++i)
    if (g->input[i]->name && !isInitializer(g, g->input[i]->name) &&
        !findInputValue(im, g->input[i]->name))
      valueMapPut(im, g->input[i]->name, mlirBlockGetArgument(block, k++));
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState st =
      mlirOperationStateGet(kilnStr("func.func"), im->fileLoc);
  MlirNamedAttribute attrs[3] = {
      mlirNamedAttributeGet(mlirIdentifierGet(im->ctx, kilnStr("sym_name")),
                            mlirStringAttrGet(im->ctx, kilnStr("main_graph"))),
      mlirNamedAttributeGet(
          mlirIdentifierGet(im->ctx, kilnStr("function_type")),
          mlirTypeAttrGet(mlirFunctionTypeGet(im->ctx, n, types, 0, NULL))),
      mlirNamedAttributeGet(mlirIdentifierGet(im->ctx, kilnStr("arg_attrs")),
                            mlirArrayAttrGet(im->ctx, n, names)),
  };
  mlirOperationStateAddAttributes(&st, 3, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  *funcOut = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(mlirModuleGetBody(module), *funcOut);
out:
  free(types);
  free(locs);
  free(names);
  return block;
}

/* Step 3a: every initializer becomes a graph.constant. Its data moves into
 * the attribute and out of the message (kilnOnnxTensorTakeToAttr). */
static bool importInitializers(Importer *im) {
  Onnx__GraphProto *g = im->graph;
  for (size_t i = 0; i < g->n_initializer; ++i) {
    Onnx__TensorProto *t = g->initializer[i];
    const char *name = t->name ? t->name : "";
    MlirLocation loc = kilnOnnxValueLoc(im->fileLoc, name);
    KilnStrBuf what = {0};
    kilnStrBufAppendf(&what, "initializer '%s'", name);
    /* A subgraph may be imported more than once (a loop body whose
     * carried shapes get relaxed): its initializers are copied, not
     * taken. */
    MlirAttribute value =
        im->depth > 0
            ? kilnOnnxTensorToAttr(im->ctx, t, im->baseDir, loc, what.data)
            : kilnOnnxTensorTakeToAttr(im->ctx, t, im->baseDir, loc, what.data);
    kilnStrBufDestroy(&what);
    if (mlirAttributeIsNull(value))
      return false;
    kilnGraphBuilderSetLocation(im->b, loc);
    MlirNamedAttribute attr = mlirNamedAttributeGet(
        mlirIdentifierGet(im->ctx, kilnStr("value")), value);
    MlirValue v =
        kilnGraphBuilderCreateValue(im->b, "constant", NULL, 0, &attr, 1);
    if (mlirValueIsNull(v))
      return false;
    valueMapPut(im, name, v);
  }
  return true;
}

/* Converts node `n`'s attributes for `op` into `attrs` (after the *numAttrs
 * already there). Attributes the op table does not list are errors:
 * dropping one could silently change the computation. */
static bool convertNodeAttrs(const Importer *im, const Onnx__NodeProto *n,
                             const KilnGraphOpInfo *op, MlirLocation loc,
                             const bool *consumed, MlirNamedAttribute *attrs,
                             intptr_t *numAttrs) {
  if (kilnOnnxReadsOwnAttrs(n->op_type))
    return true;
  for (size_t i = 0; i < n->n_attribute; ++i) {
    const Onnx__AttributeProto *a = n->attribute[i];
    if (consumed[i])
      continue; /* handled by opset_compat.h */
    const char *name = a->name ? a->name : "";
    const KilnAttrSpec *spec = kilnGraphOpFindAttr(op, kilnStr(name));
    if (!spec) {
      kilnEmitErrorf(loc, "attribute '%s' of %s is not supported", name,
                     n->op_type);
      return false;
    }
    if (!kilnOnnxConvertAttr(im->ctx, spec, a, im->baseDir, loc,
                             &attrs[*numAttrs]))
      return false;
    ++*numAttrs;
  }
  return true;
}

/* Collects node `n`'s operands (by ONNX position) into `operands`; false
 * after reporting an undefined input. */
static bool gatherOperands(const Importer *im, const Onnx__NodeProto *n,
                           MlirLocation loc, MlirValue *operands) {
  for (size_t i = 0; i < n->n_input; ++i) {
    if (!*n->input[i])
      continue; /* absent optional input: a null value */
    operands[i] = valueMapGet(im, n->input[i]);
    if (mlirValueIsNull(operands[i])) {
      kilnEmitErrorf(loc,
                     "input '%s' is not defined (no graph input, "
                     "initializer or node output has this name)",
                     n->input[i]);
      return false;
    }
  }
  return true;
}

static bool importSubgraph(void *importer, const Onnx__GraphProto *g,
                           MlirBlock block, const MlirValue *inputs,
                           MlirValue *outputs);

/* Imports If, Loop or Scan node `n` (control_flow.h). */
static bool importControlFlowNode(Importer *im, const Onnx__NodeProto *n,
                                  MlirLocation loc) {
  size_t nIn = n->n_input ? n->n_input : 1;
  size_t nOut = n->n_output ? n->n_output : 1;
  MlirValue *operands = calloc(nIn, sizeof(MlirValue));
  MlirValue *results = calloc(nOut, sizeof(MlirValue));
  if (!operands || !results)
    abort();
  KilnOnnxControlFlow cf = {im->ctx, im->block, im->opset, importSubgraph, im};
  bool ok = gatherOperands(im, n, loc, operands) &&
            kilnOnnxBuildControlFlow(&cf, n, loc, operands, results);
  for (size_t i = 0; ok && i < n->n_output; ++i)
    if (*n->output[i] && !mlirValueIsNull(results[i]))
      valueMapPut(im, n->output[i], results[i]);
  free(operands);
  free(results);
  return ok;
}

/* Step 3b: imports node `index`. */
static bool importNode(Importer *im, size_t index) {
  const Onnx__NodeProto *n = im->graph->node[index];
  MlirLocation loc = nodeLoc(im, index);
  if (kilnOnnxIsControlFlowOp(n->op_type))
    return importControlFlowNode(im, n, loc);
  const KilnGraphOpInfo *op = kilnOnnxLookupOp(n->op_type);
  kilnGraphBuilderSetLocation(im->b, loc);
  /* Attributes of older opsets that became inputs may add operands. */
  intptr_t nIn = (intptr_t)n->n_input;
  intptr_t compatMax = kilnOnnxCompatMaxOperand(n->op_type, im->opset);
  if (compatMax + 1 > nIn)
    nIn = compatMax + 1;
  size_t nAttr = n->n_attribute + 1, nOut = n->n_output ? n->n_output : 1;
  MlirValue *operands = calloc(nIn ? (size_t)nIn : 1, sizeof(MlirValue));
  MlirValue *results = calloc(nOut, sizeof(MlirValue));
  MlirNamedAttribute *attrs = calloc(nAttr, sizeof(MlirNamedAttribute));
  bool *consumed = calloc(nAttr, sizeof(bool));
  if (!operands || !results || !attrs || !consumed)
    abort();
  bool ok = false;
  intptr_t nAttrs = 0;
  if (!gatherOperands(im, n, loc, operands) ||
      !kilnOnnxCompatApply(im->b, n, im->opset, loc, operands, consumed, attrs,
                           &nAttrs) ||
      !convertNodeAttrs(im, n, op, loc, consumed, attrs, &nAttrs))
    goto out;
  /* Slots added for attributes the node lacks stay absent operands. */
  while (nIn > (intptr_t)n->n_input && mlirValueIsNull(operands[nIn - 1]))
    --nIn;
  if (!kilnOnnxBuildNode(im->b, op, n, im->opset, operands, nIn, attrs, nAttrs,
                         results))
    goto out;
  for (size_t i = 0; i < n->n_output; ++i)
    if (*n->output[i] && !mlirValueIsNull(results[i]))
      valueMapPut(im, n->output[i], results[i]);
  ok = true;
out:
  free(operands);
  free(results);
  free(attrs);
  free(consumed);
  return ok;
}

/* Appends the tensor type a value_info declares, `?` for unknown dims. */
static bool declaredType(const Importer *im, const Onnx__ValueInfoProto *vi,
                         MlirType *out) {
  const Onnx__TypeProto *tp = vi->type;
  if (!tp || tp->value_case != ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE ||
      !tp->tensor_type->has_elem_type)
    return false;
  const Onnx__TypeProto__Tensor *tt = tp->tensor_type;
  MlirType elem = kilnOnnxElementType(im->ctx, tt->elem_type);
  if (mlirTypeIsNull(elem) || (tt->shape && tt->shape->n_dim > 64))
    return false;
  if (!tt->shape) {
    *out = mlirUnrankedTensorTypeGet(elem);
    return true;
  }
  int64_t dims[64];
  for (size_t i = 0; i < tt->shape->n_dim; ++i) {
    const Onnx__TensorShapeProto__Dimension *d = tt->shape->dim[i];
    bool known =
        d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
        d->dim_value >= 0;
    dims[i] = known ? d->dim_value : mlirShapedTypeGetDynamicSize();
  }
  *out = mlirRankedTensorTypeGet((intptr_t)tt->shape->n_dim, dims, elem,
                                 mlirAttributeGetNull());
  return true;
}

/* Checks value `v` against the type `vi` declares for it: the element type
 * and every static dim must agree. `what` is "graph output" or
 * "value_info". False after an error naming both types. */
static bool checkDeclared(const Importer *im, const Onnx__ValueInfoProto *vi,
                          MlirValue v, const char *what) {
  MlirType want, got = mlirValueGetType(v);
  if (!declaredType(im, vi, &want) || !mlirTypeIsARankedTensor(got))
    return true;
  bool ok = mlirTypeEqual(mlirShapedTypeGetElementType(want),
                          mlirShapedTypeGetElementType(got));
  if (ok && mlirTypeIsARankedTensor(want)) {
    ok = mlirShapedTypeGetRank(want) == mlirShapedTypeGetRank(got);
    for (intptr_t i = 0; ok && i < mlirShapedTypeGetRank(want); ++i) {
      int64_t a = mlirShapedTypeGetDimSize(want, i);
      int64_t b = mlirShapedTypeGetDimSize(got, i);
      ok = mlirShapedTypeIsDynamicSize(a) || mlirShapedTypeIsDynamicSize(b) ||
           a == b;
    }
  }
  if (!ok) {
    KilnStrBuf text = {0};
    kilnStrBufAppendType(&text, want);
    kilnStrBufAppend(&text, " but is computed as ", 20);
    kilnStrBufAppendType(&text, got);
    /* An unnamed graph output is the empty name (finishMainFunc). */
    const char *name = vi->name ? vi->name : "";
    kilnEmitErrorf(kilnOnnxValueLoc(im->fileLoc, name),
                   "%s '%s' is declared as %s", what, name, text.data);
    kilnStrBufDestroy(&text);
  }
  return ok;
}

/* Checks every value_info entry whose value was imported. */
static bool checkValueInfos(const Importer *im) {
  bool ok = true;
  for (size_t i = 0; i < im->graph->n_value_info; ++i) {
    const Onnx__ValueInfoProto *vi = im->graph->value_info[i];
    MlirValue v = vi->name ? valueMapGet(im, vi->name) : (MlirValue){NULL};
    if (!mlirValueIsNull(v))
      ok &= checkDeclared(im, vi, v, "value");
  }
  return ok;
}

/* Step 3c: func.return of the graph outputs; sets the function type and
 * the outputs' names. */
static bool finishMainFunc(Importer *im, MlirOperation func, MlirBlock block) {
  const Onnx__GraphProto *g = im->graph;
  size_t cap = g->n_output ? g->n_output : 1;
  MlirValue *results = malloc(cap * sizeof(MlirValue));
  MlirType *types = malloc(cap * sizeof(MlirType));
  MlirAttribute *names = malloc(cap * sizeof(MlirAttribute));
  if (!results || !types || !names)
    abort();
  bool ok = true;
  for (size_t i = 0; i < g->n_output; ++i) {
    const char *name = g->output[i]->name ? g->output[i]->name : "";
    results[i] = valueMapGet(im, name);
    names[i] = valueAttrs(im->ctx, g->output[i], name);
    if (mlirValueIsNull(results[i])) {
      kilnEmitErrorf(kilnOnnxValueLoc(im->fileLoc, name),
                     "graph output '%s' is not produced by any node, input "
                     "or initializer",
                     name);
      ok = false;
      continue;
    }
    ok &= checkDeclared(im, g->output[i], results[i], "graph output");
    types[i] = mlirValueGetType(results[i]);
  }
  if (ok) {
    MlirOperationState st =
        mlirOperationStateGet(kilnStr("func.return"), im->fileLoc);
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
    mlirOperationSetAttributeByName(func, kilnStr("function_type"),
                                    mlirTypeAttrGet(fnType));
    mlirOperationSetAttributeByName(
        func, kilnStr("res_attrs"),
        mlirArrayAttrGet(im->ctx, (intptr_t)g->n_output, names));
    free(argTypes);
  }
  free(results);
  free(types);
  free(names);
  return ok;
}

/* Imports `im->graph`'s initializers and nodes into the builder's block,
 * in `order`: the main graph's and each subgraph's. */
static bool importGraphBody(Importer *im, const size_t *order) {
  if (!importInitializers(im))
    return false;
  for (size_t i = 0; i < im->graph->n_node; ++i)
    if (!importNode(im, order[i]))
      return false;
  return checkValueInfos(im);
}

/* Binds subgraph `g`'s inputs, imports its body and looks up its outputs
 * (checked against their declared types); false after errors. */
static bool importSubgraphBody(Importer *im, const MlirValue *inputs,
                               MlirValue *outputs) {
  const Onnx__GraphProto *g = im->graph;
  size_t *order = kilnOnnxSortNodes(g, im->fileLoc);
  bool ok = order && checkOpsSupported(im);
  for (size_t i = 0; ok && i < g->n_input; ++i)
    if (g->input[i]->name)
      valueMapPut(im, g->input[i]->name, inputs[i]);
  ok = ok && importGraphBody(im, order);
  for (size_t i = 0; ok && i < g->n_output; ++i) {
    const char *name = g->output[i]->name ? g->output[i]->name : "";
    outputs[i] = valueMapGet(im, name);
    if (mlirValueIsNull(outputs[i])) {
      kilnEmitErrorf(kilnOnnxValueLoc(im->fileLoc, name),
                     "subgraph '%s': output '%s' is not defined (no "
                     "subgraph input, initializer, node output or outer "
                     "value has this name)",
                     g->name ? g->name : "", name);
      ok = false;
    } else {
      ok = checkDeclared(im, g->output[i], outputs[i], "subgraph output");
    }
  }
  free(order);
  return ok;
}

/* KilnOnnxSubgraphFn: imports `g` into `block` in a scope of its own. */
static bool importSubgraph(void *importer, const Onnx__GraphProto *g,
                           MlirBlock block, const MlirValue *inputs,
                           MlirValue *outputs) {
  Importer *im = importer;
  Onnx__GraphProto *outerGraph = im->graph;
  KilnGraphBuilder *outerB = im->b;
  MlirBlock outerBlock = im->block;
  size_t mark = im->undoLen;
  /* Only read: importInitializers copies a subgraph's initializers. */
  im->graph = (Onnx__GraphProto *)g;
  im->block = block;
  im->b = kilnGraphBuilderCreate(im->ctx, block, im->fileLoc);
  ++im->depth;
  bool ok = importSubgraphBody(im, inputs, outputs);
  --im->depth;
  valueMapPopTo(im, mark);
  kilnGraphBuilderDestroy(im->b);
  im->b = outerB;
  im->block = outerBlock;
  im->graph = outerGraph;
  return ok;
}

/* Steps 2 and 3 into a fresh module; a null module after errors. */
static MlirModule importGraph(Importer *im, const size_t *order) {
  MlirModule module = mlirModuleCreateEmpty(im->fileLoc);
  MlirOperation func = {NULL};
  MlirBlock block = createMainFunc(im, module, &func);
  bool ok = !mlirBlockIsNull(block);
  if (ok) {
    im->b = kilnGraphBuilderCreate(im->ctx, block, im->fileLoc);
    im->block = block;
    ok = importInputValues(im) && importGraphBody(im, order) &&
         finishMainFunc(im, func, block);
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
                   "domain; Kiln supports opsets %d to %d (models of other "
                   "domains only are unsupported)",
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

/* Unpacks a serialized ModelProto (dropping the pages of `data`, a file
 * mapping, as it goes with `release`); NULL after an error at `fileLoc`. */
static Onnx__ModelProto *unpackModel(const void *data, size_t len, bool release,
                                     const char *name, MlirLocation fileLoc) {
  Onnx__ModelProto *model =
      kilnOnnxUnpackModel((const uint8_t *)data, len, release);
  if (!model)
    kilnEmitErrorf(fileLoc,
                   "'%s' is not a valid ONNX model (protobuf "
                   "decoding failed: truncated or corrupt file?)",
                   name);
  return model;
}

/* Imports an unpacked model, which it frees. */
static MlirModule importModel(MlirContext ctx, Onnx__ModelProto *model,
                              const char *name, const char *baseDir,
                              const KilnOnnxImportOptions *options) {
  static const KilnOnnxImportOptions kDefaults = {0};
  Importer im = {.ctx = ctx,
                 .fileName = name,
                 .baseDir = baseDir,
                 .opts = options ? options : &kDefaults,
                 .model = model,
                 .graph = model->graph};
  im.fileLoc = mlirLocationFileLineColGet(ctx, kilnStr(name), 0, 0);
  MlirModule module = {NULL};
  size_t *order = NULL;
  KilnOnnxInputShape *shapes = NULL;
  KilnOnnxImportOptions resolved = *im.opts;
  if (!im.graph) {
    kilnEmitErrorf(im.fileLoc,
                   "'%s' is not a valid ONNX model (it has no "
                   "graph)",
                   name);
  } else if (checkOpset(&im) && resolveInputPositions(&im, &shapes)) {
    resolved.inputShapes = shapes;
    im.opts = &resolved;
    if (checkInputShapes(&im) && checkInputValues(&im) &&
        (order = kilnOnnxSortNodes(im.graph, im.fileLoc)) &&
        checkOpsSupported(&im))
      module = importGraph(&im, order);
  }
  free(order);
  free(shapes);
  kilnOnnxNameMapDestroy(&im.values);
  free(im.undo);
  onnx__model_proto__free_unpacked(model, NULL);
  return module;
}

/* Loads the dialects the importer builds; false after an error. */
static bool loadDialects(MlirContext ctx, const char *name) {
  if (mlirLogicalResultIsFailure(kilnGraphDialectLoad(ctx)))
    return false;
  if (mlirDialectIsNull(mlirContextGetOrLoadDialect(ctx, kilnStr("func")))) {
    kilnEmitErrorf(mlirLocationFileLineColGet(ctx, kilnStr(name), 0, 0),
                   "the func dialect is not registered in this "
                   "context (create it with kilnContextCreate)");
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
  if (!loadDialects(ctx, name))
    return (MlirModule){NULL};
  Onnx__ModelProto *model =
      unpackModel(data, len, false, name,
                  mlirLocationFileLineColGet(ctx, kilnStr(name), 0, 0));
  return model ? importModel(ctx, model, name, NULL, options)
               : (MlirModule){NULL};
}

MlirModule kilnOnnxImportFile(MlirContext ctx, const char *path) {
  return kilnOnnxImportFileWithOptions(ctx, path, NULL);
}

/* The directory part of `path` ("." for a bare file name), malloc'd. */
static char *directoryOf(const char *path) {
  const char *slash = strrchr(path, '/');
  KilnStrBuf dir = {0};
  if (!slash)
    kilnStrBufAppend(&dir, ".", 1);
  else
    kilnStrBufAppend(&dir, path, slash == path ? 1 : (size_t)(slash - path));
  return dir.data;
}

MlirModule kilnOnnxImportFileWithOptions(MlirContext ctx, const char *path,
                                         const KilnOnnxImportOptions *options) {
  MlirLocation loc = mlirLocationFileLineColGet(ctx, kilnStr(path), 0, 0);
  if (!loadDialects(ctx, path))
    return (MlirModule){NULL};
  int fd = open(path, O_RDONLY);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    kilnEmitErrorf(loc, "cannot open '%s': %s", path,
                   fd < 0 ? strerror(errno) : "not a regular file");
    if (fd >= 0)
      close(fd);
    return (MlirModule){NULL};
  }
  /* Mapped rather than read, so the bytes can leave memory as soon as
   * protobuf-c has copied them out. */
  size_t len = (size_t)st.st_size;
  void *data = len ? mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0) : NULL;
  close(fd);
  if (data == MAP_FAILED) {
    kilnEmitErrorf(loc, "cannot read '%s': %s", path, strerror(errno));
    return (MlirModule){NULL};
  }
  Onnx__ModelProto *model =
      unpackModel(data ? data : "", len, data != NULL, path, loc);
  if (data)
    munmap(data, len);
  if (!model)
    return (MlirModule){NULL};
  char *dir = directoryOf(path);
  MlirModule module = importModel(ctx, model, path, dir, options);
  free(dir);
  return module;
}

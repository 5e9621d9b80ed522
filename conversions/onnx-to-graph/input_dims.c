/* The sizes of the graph inputs' dimensions (input_dims.h). */
#include "conversions/onnx-to-graph/input_dims.h"

#include <stdlib.h>
#include <string.h>

#include "kiln/diagnostics.h"
#include "kiln/suggest.h"
#include "mlir-c/BuiltinTypes.h"

/* A dim name with its size: bound by the options (input NULL) or fixed by
 * the first input dim that had one. */
typedef struct Named {
  const char *name; /* borrowed from the options or the model */
  int64_t size;     /* -1: seen, no size yet */
  const char *input;
  size_t dim;
  bool bound; /* from a binding */
  bool used;  /* a binding some input dim has */
} Named;

struct KilnInputDims {
  Named *names;
  size_t count, cap;
  KilnOnnxDynamicDims dynamic;
};

static Named *find(KilnInputDims *s, const char *name) {
  for (size_t i = 0; i < s->count; ++i)
    if (!strcmp(s->names[i].name, name))
      return &s->names[i];
  return NULL;
}

static Named *add(KilnInputDims *s, const char *name) {
  if (s->count == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 8;
    Named *grown = realloc(s->names, s->cap * sizeof(Named));
    if (!grown)
      abort();
    s->names = grown;
  }
  Named *n = &s->names[s->count++];
  *n = (Named){.name = name, .size = -1};
  return n;
}

KilnInputDims *kilnInputDimsCreate(const KilnOnnxImportOptions *options,
                                   MlirLocation loc) {
  KilnInputDims *s = kilnXCalloc(1, sizeof(KilnInputDims));
  s->dynamic = options->dynamicDims;
  bool ok = true;
  for (intptr_t i = 0; i < options->numDims; ++i) {
    const KilnOnnxDimBinding *b = &options->dims[i];
    if (!b->name || !*b->name || b->size < 0) {
      if (!b->name || !*b->name)
        kilnEmitErrorf(loc, "a dimension binding has no name");
      else
        kilnEmitErrorf(loc, "dimension '%s' is bound to the negative size %lld",
                       b->name, (long long)b->size);
      ok = false;
      continue;
    }
    Named *earlier = find(s, b->name);
    if (earlier && earlier->size != b->size) {
      kilnEmitErrorf(loc, "dimension '%s' is bound twice, to %lld and %lld",
                     b->name, (long long)earlier->size, (long long)b->size);
      ok = false;
    } else if (!earlier) {
      Named *n = add(s, b->name);
      n->size = b->size;
      n->bound = true;
    }
  }
  if (ok)
    return s;
  kilnInputDimsDestroy(s);
  return NULL;
}

void kilnInputDimsDestroy(KilnInputDims *s) {
  if (!s)
    return;
  free(s->names);
  free(s);
}

/* Where a shared name's size came from, for a message. */
static void appendOrigin(KilnStrBuf *buf, const Named *n) {
  if (n->bound)
    kilnStrBufAppendf(buf, "'%s' is bound to %lld", n->name,
                      (long long)n->size);
  else
    kilnStrBufAppendf(buf,
                      "input '%s' gives '%s' (its dimension %zu) the "
                      "size %lld; inputs that share a dimension name share "
                      "its size",
                      n->input, n->name, n->dim, (long long)n->size);
}

bool kilnInputDimsResolve(KilnInputDims *s, const char *input, size_t i,
                          const Onnx__TensorShapeProto__Dimension *d,
                          const KilnOnnxInputShape *given, MlirLocation loc,
                          int64_t *out) {
  /* A given size of -1 (`?`) keeps the dim dynamic, whatever the model. */
  bool givenDynamic = given && given->dims[i] < 0;
  if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE &&
      d->dim_value >= 0) {
    if (givenDynamic) {
      *out = mlirShapedTypeGetDynamicSize();
      return true;
    }
    if (given && given->dims[i] != d->dim_value) {
      kilnEmitErrorf(loc,
                     "input shape for '%s': dimension %zu is %lld, but the "
                     "model fixes it to %lld",
                     input, i, (long long)given->dims[i],
                     (long long)d->dim_value);
      return false;
    }
    *out = given || s->dynamic != KILN_ONNX_DIMS_ALL_DYNAMIC
               ? d->dim_value
               : mlirShapedTypeGetDynamicSize();
    return true;
  }
  const char *name =
      d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM &&
              d->dim_param && *d->dim_param
          ? d->dim_param
          : NULL;
  Named *n = name ? find(s, name) : NULL;
  if (name && !n)
    n = add(s, name);
  int64_t size = given ? given->dims[i] : -1;
  if (n && n->size >= 0 && size >= 0 && size != n->size) {
    KilnStrBuf why = {0};
    appendOrigin(&why, n);
    kilnEmitErrorf(loc,
                   "input shape for '%s': dimension %zu ('%s') is %lld, but "
                   "%s",
                   input, i, name, (long long)size, kilnStrBufGet(&why));
    kilnStrBufDestroy(&why);
    return false;
  }
  if (n) {
    n->used |= n->bound;
    if (size < 0)
      size = n->size;
    else if (n->size < 0)
      *n = (Named){.name = name, .size = size, .input = input, .dim = i};
  }
  if (size >= 0 || givenDynamic || s->dynamic != KILN_ONNX_DIMS_STATIC) {
    *out = size >= 0 ? size : mlirShapedTypeGetDynamicSize();
    return true;
  }
  if (name)
    kilnEmitErrorf(loc,
                   "graph input '%s' has dynamic dimension %zu ('%s'); Kiln "
                   "needs static input shapes (bind the name with --dim "
                   "%s=SIZE, specialize the input with --input-shape "
                   "%s=D0xD1x..., or keep it dynamic with --dynamic)",
                   input, i, name, name, input);
  else
    kilnEmitErrorf(loc,
                   "graph input '%s' has dynamic dimension %zu; Kiln needs "
                   "static input shapes (specialize it with --input-shape "
                   "%s=D0xD1x..., or keep it dynamic with --dynamic)",
                   input, i, input);
  return false;
}

bool kilnInputDimsFinish(KilnInputDims *s, MlirLocation loc) {
  bool ok = true;
  for (size_t i = 0; i < s->count; ++i) {
    const Named *b = &s->names[i];
    if (!b->bound || b->used)
      continue;
    KilnSuggester suggest;
    kilnSuggesterInit(&suggest, b->name, strlen(b->name));
    KilnStrBuf names = {0}, text = {0};
    for (size_t k = 0; k < s->count; ++k)
      if (!s->names[k].bound || s->names[k].used) {
        kilnSuggesterConsider(&suggest, s->names[k].name);
        kilnStrBufAppendf(&names, "%s'%s'", names.len ? ", " : "",
                          s->names[k].name);
      }
    kilnStrBufAppendf(&text,
                      "dimension '%s' is bound, but no graph input has a "
                      "dimension of that name",
                      b->name);
    kilnSuggesterAppend(&suggest, &text);
    kilnStrBufAppendf(&text, " (%s%s)",
                      names.len ? "the inputs' dimension names: "
                                : "the inputs have no named dimensions",
                      kilnStrBufGet(&names));
    kilnEmitErrorf(loc, "%s", kilnStrBufGet(&text));
    kilnStrBufDestroy(&names);
    kilnStrBufDestroy(&text);
    ok = false;
  }
  return ok;
}

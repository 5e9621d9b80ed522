/* Node order and name checks (topo_sort.h). */
#include "conversions/onnx-to-graph/topo_sort.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "conversions/onnx-to-graph/import_util.h"
#include "kiln/diagnostics.h"

/* Producer map values are node pointers into g->node (`&g->node[i]`), or
 * this marker for graph inputs and initializers. */
static const char kGraphValue;

static size_t *allocIndices(size_t n) {
  size_t *p = calloc(n ? n : 1, sizeof(size_t));
  if (!p)
    abort();
  return p;
}

/* Appends "NAME (OpType)", or "#INDEX (OpType)" for an unnamed node. */
static void appendNode(KilnStrBuf *buf, const Onnx__GraphProto *g, size_t i) {
  const Onnx__NodeProto *n = g->node[i];
  if (n->name && *n->name)
    kilnStrBufAppendf(buf, "%s (%s)", n->name, n->op_type);
  else
    kilnStrBufAppendf(buf, "#%zu (%s)", i, n->op_type);
}

/* Records graph inputs and initializers; false after duplicate errors. */
static bool mapGraphValues(const Onnx__GraphProto *g, MlirLocation fileLoc,
                           KilnOnnxNameMap *producers) {
  bool ok = true;
  KilnOnnxNameMap inits = {0};
  for (size_t i = 0; i < g->n_initializer; ++i) {
    const char *name = g->initializer[i]->name;
    if (!name)
      continue;
    if (kilnOnnxNameMapGet(&inits, name)) {
      kilnEmitErrorf(kilnOnnxValueLoc(fileLoc, name),
                     "initializer '%s' is defined twice", name);
      ok = false;
    }
    kilnOnnxNameMapPut(&inits, name, &kGraphValue);
    kilnOnnxNameMapPut(producers, name, &kGraphValue);
  }
  KilnOnnxNameMap inputs = {0};
  for (size_t i = 0; i < g->n_input; ++i) {
    const char *name = g->input[i]->name;
    if (!name)
      continue;
    if (kilnOnnxNameMapGet(&inputs, name)) {
      kilnEmitErrorf(kilnOnnxValueLoc(fileLoc, name),
                     "graph input '%s' is listed twice", name);
      ok = false;
    }
    kilnOnnxNameMapPut(&inputs, name, &kGraphValue);
    kilnOnnxNameMapPut(producers, name, &kGraphValue);
  }
  kilnOnnxNameMapDestroy(&inits);
  kilnOnnxNameMapDestroy(&inputs);
  return ok;
}

/* Records node outputs; false after errors. */
static bool mapNodeOutputs(const Onnx__GraphProto *g, MlirLocation fileLoc,
                           KilnOnnxNameMap *producers) {
  bool ok = true;
  for (size_t i = 0; i < g->n_node; ++i) {
    const Onnx__NodeProto *n = g->node[i];
    if (!n->op_type || !*n->op_type) {
      kilnEmitErrorf(fileLoc, "node #%zu has no op_type", i);
      ok = false;
      continue;
    }
    for (size_t k = 0; k < n->n_output; ++k) {
      const char *out = n->output[k];
      if (!*out)
        continue; /* an optional output left out */
      const void *prev = kilnOnnxNameMapGet(producers, out);
      if (prev == &kGraphValue) {
        kilnEmitErrorf(kilnOnnxNodeLoc(fileLoc, n, i),
                       "output '%s' shadows a graph input or initializer "
                       "of the same name",
                       out);
        ok = false;
      } else if (prev) {
        size_t j = (size_t)((Onnx__NodeProto *const *)prev - g->node);
        KilnStrBuf other = {0};
        appendNode(&other, g, j);
        kilnEmitErrorf(kilnOnnxNodeLoc(fileLoc, n, i),
                       "value '%s' is also produced by node %s; ONNX "
                       "values have one producer",
                       out, other.data);
        kilnStrBufDestroy(&other);
        ok = false;
      } else {
        kilnOnnxNameMapPut(producers, out, &g->node[i]);
      }
    }
  }
  return ok;
}

/* The node producing input `k` of node `n`, or -1 (a graph value, an absent
 * input or an undefined name). */
static long producerOf(const Onnx__GraphProto *g, const KilnOnnxNameMap *p,
                       const Onnx__NodeProto *n, size_t k) {
  const void *v = *n->input[k] ? kilnOnnxNameMapGet(p, n->input[k]) : NULL;
  if (!v || v == &kGraphValue)
    return -1;
  return (long)((Onnx__NodeProto *const *)v - g->node);
}

/* A binary min-heap of node indices, so Kahn's order prefers file order. */
typedef struct Heap {
  size_t *items;
  size_t len;
} Heap;

static void heapPush(Heap *h, size_t v) {
  size_t i = h->len++;
  while (i && h->items[(i - 1) / 2] > v) {
    h->items[i] = h->items[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h->items[i] = v;
}

static size_t heapPop(Heap *h) {
  size_t top = h->items[0], last = h->items[--h->len], i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= h->len)
      break;
    if (c + 1 < h->len && h->items[c + 1] < h->items[c])
      ++c;
    if (h->items[c] >= last)
      break;
    h->items[i] = h->items[c];
    i = c;
  }
  if (h->len)
    h->items[i] = last;
  return top;
}

/* Reports one cycle among the nodes Kahn's algorithm could not order
 * (pending[i] > 0): walk to pending producers until a node repeats. */
static void reportCycle(const Onnx__GraphProto *g, const KilnOnnxNameMap *p,
                        const size_t *pending, MlirLocation fileLoc) {
  size_t *seenAt = allocIndices(g->n_node); /* step + 1, 0: not seen */
  size_t *path = allocIndices(g->n_node);
  size_t u = 0, steps = 0;
  while (!pending[u])
    ++u;
  while (!seenAt[u]) {
    seenAt[u] = ++steps;
    path[steps - 1] = u;
    const Onnx__NodeProto *n = g->node[u];
    for (size_t k = 0; k < n->n_input; ++k) {
      long j = producerOf(g, p, n, k);
      if (j >= 0 && pending[j]) {
        u = (size_t)j;
        break;
      }
    }
  }
  /* path[seenAt[u]-1 ..] is the cycle, each node consuming the next. */
  KilnStrBuf text = {0};
  for (size_t s = steps; s-- > seenAt[u] - 1;) {
    appendNode(&text, g, path[s]);
    kilnStrBufAppend(&text, " -> ", 4);
  }
  appendNode(&text, g, path[steps - 1]);
  kilnEmitErrorf(
      kilnOnnxNodeLoc(fileLoc, g->node[path[steps - 1]], path[steps - 1]),
      "the graph has a cycle: %s", text.data);
  kilnStrBufDestroy(&text);
  free(seenAt);
  free(path);
}

/* Kahn's algorithm; returns the order or NULL after reporting a cycle. */
static size_t *kahn(const Onnx__GraphProto *g, const KilnOnnxNameMap *p,
                    MlirLocation fileLoc) {
  size_t n = g->n_node, done = 0;
  size_t *pending = allocIndices(n), *order = allocIndices(n);
  size_t *numUsers = allocIndices(n + 1), *users;
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < g->node[i]->n_input; ++k) {
      long j = producerOf(g, p, g->node[i], k);
      if (j >= 0)
        ++pending[i], ++numUsers[j + 1];
    }
  for (size_t i = 0; i < n; ++i) /* prefix sums: users of j start here */
    numUsers[i + 1] += numUsers[i];
  users = allocIndices(numUsers[n]);
  size_t *fill = allocIndices(n);
  for (size_t i = 0; i < n; ++i)
    for (size_t k = 0; k < g->node[i]->n_input; ++k) {
      long j = producerOf(g, p, g->node[i], k);
      if (j >= 0)
        users[numUsers[j] + fill[j]++] = i;
    }
  Heap ready = {allocIndices(n), 0};
  for (size_t i = 0; i < n; ++i)
    if (!pending[i])
      heapPush(&ready, i);
  while (ready.len) {
    size_t u = heapPop(&ready);
    order[done++] = u;
    for (size_t e = numUsers[u]; e < numUsers[u + 1]; ++e)
      if (--pending[users[e]] == 0)
        heapPush(&ready, users[e]);
  }
  if (done < n) {
    reportCycle(g, p, pending, fileLoc);
    free(order);
    order = NULL;
  }
  free(ready.items);
  free(fill);
  free(users);
  free(numUsers);
  free(pending);
  return order;
}

/* True if every node's producers come before it in file order. */
static bool isSorted(const Onnx__GraphProto *g, const KilnOnnxNameMap *p) {
  for (size_t i = 0; i < g->n_node; ++i)
    for (size_t k = 0; k < g->node[i]->n_input; ++k)
      if (producerOf(g, p, g->node[i], k) >= (long)i)
        return false;
  return true;
}

size_t *kilnOnnxSortNodes(const Onnx__GraphProto *g, MlirLocation fileLoc) {
  KilnOnnxNameMap producers = {0};
  size_t *order = NULL;
  bool ok = mapGraphValues(g, fileLoc, &producers);
  ok = mapNodeOutputs(g, fileLoc, &producers) && ok;
  if (ok && isSorted(g, &producers)) {
    order = allocIndices(g->n_node);
    for (size_t i = 0; i < g->n_node; ++i)
      order[i] = i;
  } else if (ok) {
    order = kahn(g, &producers, fileLoc);
  }
  kilnOnnxNameMapDestroy(&producers);
  return order;
}

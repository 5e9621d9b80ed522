/* graph-cse: merges identical graph ops.
 *
 * Upstream CSE skips IRDL ops (no memory-effect interface, so they look
 * side-effecting). Every graph op is pure, so two graph ops with the same
 * name, operands (in order), attribute dictionary and result types compute
 * the same values, and the later one can take the earlier one's results when
 * the earlier one dominates it. Ops of other dialects are never merged, and
 * neither are ops with regions.
 *
 * Dominance is tracked structurally, as in MLIR's own CSE: a scoped hash
 * table holds the ops that dominate the current op. Each block opens a
 * scope, so ops later in a block see earlier ones, ops in a nested region
 * see the enclosing blocks' ops that precede the region's op, and sibling
 * regions and sibling blocks of a multi-block region never see each other
 * (conservative: an entry block does dominate its successors).
 *
 * Lookups are O(1): models have 10^4-10^5 ops. Everything in MLIR that the
 * key compares is uniqued (identifiers, types, attributes) or an SSA value,
 * so keys are hashed and compared by pointer. */
#include "kiln/passes.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mlir-c/IR.h"

/* One op known to dominate the current position. Entries live in insertion
 * order in one array, which is also the undo log of the scopes. */
typedef struct Entry {
  MlirOperation op;
  uint64_t hash;
  intptr_t next; /* next entry in the same bucket, or -1 */
} Entry;

/* A scoped hash table with chaining. New entries go to the head of their
 * bucket; scopes are popped in reverse insertion order, so the entry being
 * removed is always the head of its bucket and removal is O(1). */
typedef struct ScopedTable {
  Entry *entries;
  size_t len, cap;
  intptr_t *buckets; /* head entry index, or -1 */
  size_t numBuckets; /* a power of two */
} ScopedTable;

static void *xrealloc(void *p, size_t n) {
  void *q = realloc(p, n);
  if (!q)
    abort(); /* out of memory is not a user error */
  return q;
}

static uint64_t mix(uint64_t h, const void *p) {
  /* A multiply-xorshift step (from splitmix64); MLIR pointers are aligned,
   * so their low bits alone would hash badly. */
  h ^= (uint64_t)(uintptr_t)p;
  h *= 0x9e3779b97f4a7c15ull;
  return h ^ (h >> 29);
}

/* Graph ops are IRDL ops, which have no properties: their whole attribute
 * dictionary is "discardable" attributes, sorted by name. */
static intptr_t numAttrs(MlirOperation op) {
  return mlirOperationGetNumDiscardableAttributes(op);
}

static MlirNamedAttribute getAttr(MlirOperation op, intptr_t i) {
  return mlirOperationGetDiscardableAttribute(op, i);
}

static uint64_t hashOp(MlirOperation op) {
  uint64_t h = mix(0, mlirOperationGetName(op).ptr);
  intptr_t n = mlirOperationGetNumOperands(op);
  for (intptr_t i = 0; i < n; ++i)
    h = mix(h, mlirOperationGetOperand(op, i).ptr);
  n = numAttrs(op);
  for (intptr_t i = 0; i < n; ++i) {
    MlirNamedAttribute a = getAttr(op, i);
    h = mix(mix(h, a.name.ptr), a.attribute.ptr);
  }
  n = mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < n; ++i)
    h = mix(h, mlirValueGetType(mlirOperationGetResult(op, i)).ptr);
  return h;
}

/* Dictionaries are sorted by name, so comparing the entries in order
 * compares the dictionaries. */
static bool sameAttributes(MlirOperation a, MlirOperation b) {
  intptr_t n = numAttrs(a);
  if (n != numAttrs(b))
    return false;
  for (intptr_t i = 0; i < n; ++i) {
    MlirNamedAttribute x = getAttr(a, i);
    MlirNamedAttribute y = getAttr(b, i);
    if (!mlirIdentifierEqual(x.name, y.name) ||
        !mlirAttributeEqual(x.attribute, y.attribute))
      return false;
  }
  return true;
}

static bool sameOp(MlirOperation a, MlirOperation b) {
  if (!mlirIdentifierEqual(mlirOperationGetName(a), mlirOperationGetName(b)))
    return false;
  intptr_t n = mlirOperationGetNumOperands(a);
  if (n != mlirOperationGetNumOperands(b))
    return false;
  for (intptr_t i = 0; i < n; ++i)
    if (!mlirValueEqual(mlirOperationGetOperand(a, i),
                        mlirOperationGetOperand(b, i)))
      return false;
  n = mlirOperationGetNumResults(a);
  if (n != mlirOperationGetNumResults(b))
    return false;
  for (intptr_t i = 0; i < n; ++i)
    if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(a, i)),
                       mlirValueGetType(mlirOperationGetResult(b, i))))
      return false;
  return sameAttributes(a, b);
}

static void tableRehash(ScopedTable *t, size_t numBuckets) {
  t->buckets = xrealloc(t->buckets, numBuckets * sizeof(*t->buckets));
  t->numBuckets = numBuckets;
  for (size_t i = 0; i < numBuckets; ++i)
    t->buckets[i] = -1;
  /* Relinking in insertion order keeps the newest entry at each head. */
  for (size_t i = 0; i < t->len; ++i) {
    size_t b = t->entries[i].hash & (numBuckets - 1);
    t->entries[i].next = t->buckets[b];
    t->buckets[b] = (intptr_t)i;
  }
}

static MlirOperation tableLookup(const ScopedTable *t, MlirOperation op,
                                 uint64_t hash) {
  if (t->numBuckets == 0)
    return (MlirOperation){NULL};
  for (intptr_t i = t->buckets[hash & (t->numBuckets - 1)]; i >= 0;
       i = t->entries[i].next)
    if (t->entries[i].hash == hash && sameOp(t->entries[i].op, op))
      return t->entries[i].op;
  return (MlirOperation){NULL};
}

static void tableInsert(ScopedTable *t, MlirOperation op, uint64_t hash) {
  if (t->len == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 256;
    t->entries = xrealloc(t->entries, t->cap * sizeof(*t->entries));
  }
  t->entries[t->len++] = (Entry){op, hash, -1};
  if (t->len > t->numBuckets / 2) {
    tableRehash(t, t->numBuckets ? 2 * t->numBuckets : 512);
    return; /* the rehash linked the new entry */
  }
  size_t b = hash & (t->numBuckets - 1);
  t->entries[t->len - 1].next = t->buckets[b];
  t->buckets[b] = (intptr_t)(t->len - 1);
}

/* Pops entries until `mark` remain: leaves the scope opened at `mark`. */
static void tablePopTo(ScopedTable *t, size_t mark) {
  while (t->len > mark) {
    Entry *e = &t->entries[--t->len];
    t->buckets[e->hash & (t->numBuckets - 1)] = e->next;
  }
}

static bool isGraphOp(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  return name.length > 6 && memcmp(name.data, "graph.", 6) == 0;
}

/* Whether ops in `op`'s regions may use values defined outside `op`. The C
 * API cannot ask for the IsolatedFromAbove trait, so only ops known to be
 * transparent let the outer scope in: scf and affine control flow (where
 * ONNX If/Loop/Scan land) and graph ops (IRDL ops have no traits at all).
 * Any other op's regions (func.func, builtin.module, gpu.module...) start
 * from an empty scope, which can only miss merges, never break IR. */
static bool seesOuterScope(MlirOperation op) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  static const char *const kPrefixes[] = {"scf.", "affine.", "graph."};
  for (size_t i = 0; i < sizeof(kPrefixes) / sizeof(kPrefixes[0]); ++i) {
    size_t n = strlen(kPrefixes[i]);
    if (name.length > n && memcmp(name.data, kPrefixes[i], n) == 0)
      return true;
  }
  return false;
}

/* A region-free graph op: the only kind merged. */
static bool isCandidate(MlirOperation op) {
  return isGraphOp(op) && mlirOperationGetNumRegions(op) == 0 &&
         mlirOperationGetNumSuccessors(op) == 0;
}

/* Replaces `op` by `existing` if it has one in the table, else records it.
 * Returns true if `op` was destroyed. */
static bool visitCandidate(ScopedTable *t, MlirOperation op) {
  uint64_t hash = hashOp(op);
  MlirOperation existing = tableLookup(t, op, hash);
  if (mlirOperationIsNull(existing)) {
    tableInsert(t, op, hash);
    return false;
  }
  intptr_t n = mlirOperationGetNumResults(op);
  for (intptr_t i = 0; i < n; ++i)
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, i),
                                  mlirOperationGetResult(existing, i));
  mlirOperationDestroy(op);
  return true;
}

static void visitRegions(ScopedTable *t, MlirOperation op);

/* Visits one block in a new scope nested in the current one. */
static void visitBlock(ScopedTable *t, MlirBlock block) {
  size_t mark = t->len;
  MlirOperation op = mlirBlockGetFirstOperation(block);
  while (!mlirOperationIsNull(op)) {
    /* Step first: visiting may destroy `op`. */
    MlirOperation next = mlirOperationGetNextInBlock(op);
    if (!isCandidate(op) || !visitCandidate(t, op))
      visitRegions(t, op);
    op = next;
  }
  tablePopTo(t, mark);
}

/* Visits each block of each region of `op` with `t` as the outer scope.
 * Recursion depth is the region nesting depth of the IR. */
static void visitBlocksOf(ScopedTable *t, MlirOperation op) {
  intptr_t numRegions = mlirOperationGetNumRegions(op);
  for (intptr_t r = 0; r < numRegions; ++r) {
    MlirRegion region = mlirOperationGetRegion(op, r);
    for (MlirBlock b = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(b);
         b = mlirBlockGetNextInRegion(b))
      visitBlock(t, b);
  }
}

static void tableDestroy(ScopedTable *t) {
  free(t->entries);
  free(t->buckets);
}

/* Visits the regions of an op nested in the root. An isolated op's regions
 * see nothing outside it: they get a table of their own. */
static void visitRegions(ScopedTable *t, MlirOperation op) {
  if (mlirOperationGetNumRegions(op) == 0)
    return;
  if (seesOuterScope(op)) {
    visitBlocksOf(t, op);
    return;
  }
  ScopedTable isolated = {0};
  visitBlocksOf(&isolated, op);
  tableDestroy(&isolated);
}

static void runGraphCSE(MlirOperation op, MlirExternalPass pass,
                        const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  /* The root's regions see nothing outside it, whatever the root is. */
  ScopedTable table = {0};
  visitBlocksOf(&table, op);
  tableDestroy(&table);
}

const KilnPassInfo kilnGraphCSEPass = {
    .argument = "graph-cse",
    .summary = "Merge identical graph ops where the first dominates the rest",
    .anchor = NULL,
    .options = NULL,
    .numOptions = 0,
    .run = runGraphCSE,
    .pipeline = NULL,
};

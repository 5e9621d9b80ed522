/* Unit tests for the pass registry: lookups, listing invariants, option
 * parsing through kilnPassCreate. Checked by registry.test. */
#include <stdio.h>
#include <string.h>

#include "kiln/kiln.h"
#include "kiln/passes.h"
#include "mlir-c/Pass.h"

static void printChunk(MlirStringRef s, void *userData) {
  (void)userData;
  fprintf(stderr, "%.*s", (int)s.length, s.data);
}

/* Every entry is well formed and found by its own name. */
static void testEntries(void) {
  fprintf(stderr, "TEST: entries\n");
  int bad = 0;
  for (intptr_t i = 0; i < kilnPassRegistryGetCount(); ++i) {
    const KilnPassInfo *info = kilnPassRegistryGetAt(i);
    MlirStringRef name = mlirStringRefCreateFromCString(info->argument);
    bad += kilnPassRegistryLookup(name) != info;
    bad += !info->summary || !*info->summary;
    bad += (info->run == NULL) == (info->pipeline == NULL);
  }
  fprintf(stderr, "entries: %ld, malformed: %d\n",
          (long)kilnPassRegistryGetCount(), bad);
  fprintf(stderr, "lookup unknown: %s\n",
          kilnPassRegistryLookup(mlirStringRefCreateFromCString("nope"))
              ? "found"
              : "null");
  fprintf(stderr, "lookup graph-verify: %s\n",
          kilnPassRegistryLookup(mlirStringRefCreateFromCString("graph-verify"))
              ? "found"
              : "null");
}

/* The upstream list is non-trivial, has no test passes, and every listed
 * pass is one the C API can actually build. */
static void testUpstream(MlirContext ctx) {
  fprintf(stderr, "TEST: upstream\n");
  intptr_t n = kilnUpstreamPassGetCount(), unusable = 0, tests = 0;
  for (intptr_t i = 0; i < n; ++i) {
    const KilnUpstreamPassInfo *info = kilnUpstreamPassGetAt(i);
    tests += strncmp(info->argument, "test-", 5) == 0;
    MlirPassManager pm = mlirPassManagerCreate(ctx);
    if (mlirLogicalResultIsFailure(mlirOpPassManagerAddPipeline(
            mlirPassManagerGetAsOpPassManager(pm),
            mlirStringRefCreateFromCString(info->argument), printChunk,
            NULL))) {
      fprintf(stderr, "\nunusable: %s\n", info->argument);
      ++unusable;
    }
    mlirPassManagerDestroy(pm);
  }
  fprintf(stderr, "upstream over 250: %s, test passes: %ld, unusable: %ld\n",
          n > 250 ? "yes" : "no", (long)tests, (long)unusable);
}

static void testCreate(void) {
  fprintf(stderr, "TEST: create\n");
  const KilnPassInfo *verify =
      kilnPassRegistryLookup(mlirStringRefCreateFromCString("graph-verify"));
  MlirPass p =
      kilnPassCreate(verify, mlirStringRefCreate(NULL, 0), printChunk, NULL);
  fprintf(stderr, "default: %s\n", p.ptr ? "ok" : "null");
  /* A pass that is never added to a manager is still ours to free: hand it
   * to a manager so its destructor runs. */
  MlirPass bad = kilnPassCreate(
      verify, mlirStringRefCreateFromCString("bogus=1"), printChunk, NULL);
  fprintf(stderr, "\nbad option: %s\n", bad.ptr ? "ok" : "null");
  if (p.ptr) {
    MlirContext ctx = kilnContextCreate();
    MlirPassManager pm = mlirPassManagerCreate(ctx);
    mlirPassManagerAddOwnedPass(pm, p);
    mlirPassManagerDestroy(pm);
    kilnContextDestroy(ctx);
  }
}

int main(void) {
  MlirContext ctx = kilnContextCreate();
  if (mlirContextIsNull(ctx))
    return 1;
  testEntries();
  testUpstream(ctx);
  testCreate();
  kilnContextDestroy(ctx);
  return 0;
}

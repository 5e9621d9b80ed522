/* Kiln passes as MLIR external passes.
 *
 * The pass state (entry + option values) is immutable once built; clones get
 * deep copies, so passes run safely in parallel on functions. */
#include "pipelines/external_pass.h"
#include "kiln/diagnostics.h"

#include <stdlib.h>
#include <string.h>

typedef struct PassState {
  const KilnPassInfo *info;
  KilnPassOptionValue *values; /* info->numOptions entries */
} PassState;

static PassState *stateCreate(const KilnPassInfo *info,
                              const KilnPassOptionValue *values) {
  PassState *st = calloc(1, sizeof(*st));
  if (!st)
    abort();
  st->info = info;
  if (info->numOptions > 0) {
    st->values = calloc((size_t)info->numOptions, sizeof(*st->values));
    if (!st->values)
      abort();
    for (int i = 0; i < info->numOptions; ++i) {
      st->values[i] = values[i];
      st->values[i].s = kilnStrDup(values[i].s);
    }
  }
  return st;
}

static void stateDestroy(PassState *st) {
  for (int i = 0; st && i < st->info->numOptions; ++i)
    free(st->values[i].s);
  if (st)
    free(st->values);
  free(st);
}

static void passConstruct(void *userData) { (void)userData; }

static void passDestruct(void *userData) { stateDestroy(userData); }

static void *passClone(void *userData) {
  PassState *st = userData;
  return stateCreate(st->info, st->values);
}

static void passRun(MlirOperation op, MlirExternalPass pass, void *userData) {
  PassState *st = userData;
  st->info->run(op, pass, st->values);
}

MlirPass kilnExternalPassCreate(const KilnPassInfo *info,
                                const KilnPassOptionValue *values) {
  PassState *st = stateCreate(info, values);
  MlirExternalPassCallbacks callbacks = {passConstruct, passDestruct, NULL,
                                         passClone, passRun};
  /* The entry's address is unique per pass kind: a stable TypeID. */
  MlirTypeID id = mlirTypeIDCreate(info);
  MlirStringRef anchor =
      mlirStringRefCreateFromCString(info->anchor ? info->anchor : "");
  MlirStringRef arg = mlirStringRefCreateFromCString(info->argument);
  MlirDialectHandle handles[16];
  intptr_t numHandles = 0;
  for (int i = 0; i < info->numDependentDialects && numHandles < 16; ++i)
    handles[numHandles++] = info->dependentDialects[i]();
  return mlirCreateExternalPass(id, arg, arg,
                                mlirStringRefCreateFromCString(info->summary),
                                anchor, numHandles, handles, callbacks, st);
}

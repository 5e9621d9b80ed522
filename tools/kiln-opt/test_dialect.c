#include "tools/kiln-opt/test_dialect.h"

#include <string.h>

#include "kiln/diagnostics.h"

bool kilnOptNamesTestOps(const char *text, size_t length) {
  static const char kPrefix[] = "\"test.";
  size_t n = sizeof(kPrefix) - 1;
  for (size_t i = 0; i + n <= length; ++i)
    if (!memcmp(text + i, kPrefix, n))
      return true;
  return false;
}

typedef struct Search {
  MlirContext ctx;
  MlirOperation found;
} Search;

static MlirWalkResult findForeign(MlirOperation op, void *userData) {
  Search *s = userData;
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (mlirContextIsRegisteredOperation(s->ctx, name) ||
      (name.length > 5 && !memcmp(name.data, "test.", 5)))
    return MlirWalkResultAdvance;
  s->found = op;
  return MlirWalkResultInterrupt;
}

MlirLogicalResult kilnOptCheckOnlyTestOpsUnregistered(MlirContext ctx,
                                                      MlirOperation root) {
  Search s = {ctx, {NULL}};
  mlirOperationWalk(root, findForeign, &s, MlirWalkPreOrder);
  if (mlirOperationIsNull(s.found))
    return mlirLogicalResultSuccess();
  /* mlir-opt's parser points just past the quoted op name. */
  MlirLocation loc = mlirOperationGetLocation(s.found);
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(s.found));
  KilnSourcePos pos;
  if (kilnLocationGetSourcePos(loc, &pos))
    loc = mlirLocationFileLineColGet(ctx, pos.file, (unsigned)pos.line,
                                     (unsigned)(pos.col + name.length + 2));
  kilnEmitErrorf(loc, "operation being parsed with an unregistered dialect. "
                      "If this is intended, please use "
                      "-allow-unregistered-dialect with the MLIR tool used");
  return mlirLogicalResultFailure();
}

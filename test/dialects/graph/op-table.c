/* Checks that the C op table (dialects/graph/ops_*.c) and the IRDL
 * definition (graph.irdl.mlir) describe the same ops with the same operand
 * and result names and kinds. Prints one line per disagreement; op-table.test
 * expects none. */
#include <stdio.h>
#include <string.h>

#include "dialects/common/diag.h"
#include "dialects/graph/op_table.h"
#include "kiln/graph.h"
#include "kiln/kiln.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Dialect/IRDL.h"

static int problems = 0;

static const char *kindWord(KilnOperandKind k) {
  return k == KILN_OPERAND_SINGLE     ? "single"
         : k == KILN_OPERAND_OPTIONAL ? "optional"
                                      : "variadic";
}

/* Compares an irdl.operands / irdl.results op with the table's specs. */
static void compareList(const char *opName, const char *what,
                        MlirOperation list, const KilnOperandSpec *specs,
                        int n) {
  MlirAttribute names = mlirOperationGetAttributeByName(
      list, mlirStringRefCreateFromCString("names"));
  MlirAttribute var = mlirOperationGetAttributeByName(
      list, mlirStringRefCreateFromCString("variadicity"));
  intptr_t count =
      mlirAttributeIsNull(names) ? 0 : mlirArrayAttrGetNumElements(names);
  if (count != n) {
    fprintf(stderr, "MISMATCH %s: %d %s in table, %ld in IRDL\n", opName, n,
            what, (long)count);
    ++problems;
    return;
  }
  /* The variadicity array prints as [ single,  optional, ...]. */
  KilnStrBuf printed = {0};
  kilnStrBufAppendAttribute(&printed, var);
  /* Skip "#irdl<variadicity_array[": its name contains "variadic". */
  const char *cursor = strchr(kilnStrBufGet(&printed), '[');
  cursor = cursor ? cursor : kilnStrBufGet(&printed);
  for (int i = 0; i < n; ++i) {
    MlirStringRef name =
        mlirStringAttrGetValue(mlirArrayAttrGetElement(names, i));
    if (!kilnStringRefEquals(name, specs[i].name)) {
      fprintf(stderr, "MISMATCH %s: %s #%d is '%s' in table, '%.*s' in IRDL\n",
              opName, what, i, specs[i].name, (int)name.length, name.data);
      ++problems;
    }
    const char *words[] = {"single", "optional", "variadic"};
    const char *first = NULL;
    int kind = -1;
    for (int k = 0; k < 3; ++k) {
      const char *at = strstr(cursor, words[k]);
      if (at && (!first || at < first)) {
        first = at;
        kind = k;
      }
    }
    if (kind != (int)specs[i].kind) {
      fprintf(stderr, "MISMATCH %s: %s '%s' is %s in table, %s in IRDL\n",
              opName, what, specs[i].name, kindWord(specs[i].kind),
              kind < 0 ? "?" : words[kind]);
      ++problems;
    }
    if (first)
      cursor = first + strlen(words[kind]);
  }
  kilnStrBufDestroy(&printed);
}

static MlirOperation findChild(MlirOperation op, const char *name) {
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(op, 0));
  for (MlirOperation c = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(c); c = mlirOperationGetNextInBlock(c))
    if (kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(c)), name))
      return c;
  return (MlirOperation){NULL};
}

int main(void) {
  MlirContext ctx = kilnContextCreate();
  MlirModule defs = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(kilnGraphDialectGetIRDLSource()));
  MlirOperation dialect = mlirBlockGetFirstOperation(mlirModuleGetBody(defs));
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(dialect, 0));
  int irdlOps = 0;
  fprintf(stderr, "TEST: irdl_ops_in_table\n");
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute sym = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    MlirStringRef name = mlirStringAttrGetValue(sym);
    ++irdlOps;
    const KilnGraphOpInfo *info = kilnGraphOpLookup(name);
    if (!info) {
      fprintf(stderr, "MISSING in table: %.*s\n", (int)name.length, name.data);
      ++problems;
      continue;
    }
    MlirOperation operands = findChild(op, "irdl.operands");
    MlirOperation results = findChild(op, "irdl.results");
    if (!mlirOperationIsNull(operands))
      compareList(info->name, "operand", operands, info->operands,
                  info->numOperands);
    else if (info->numOperands)
      fprintf(stderr, "MISMATCH %s: no irdl.operands\n", info->name),
          ++problems;
    if (!mlirOperationIsNull(results))
      compareList(info->name, "result", results, info->results,
                  info->numResults);
  }
  fprintf(stderr, "TEST: table_ops_in_irdl\n");
  if (irdlOps != kilnGraphOpGetCount()) {
    fprintf(stderr, "COUNT table %ld vs IRDL %d\n", (long)kilnGraphOpGetCount(),
            irdlOps);
    ++problems;
  }
  for (intptr_t i = 0; i < kilnGraphOpGetCount(); ++i)
    if (!kilnGraphOpGetAt(i)->infer) {
      fprintf(stderr, "NO INFERENCE: %s\n", kilnGraphOpGetAt(i)->name);
      ++problems;
    }
  fprintf(stderr, "ops: %d, problems: %d\n", irdlOps, problems);
  mlirModuleDestroy(defs);
  kilnContextDestroy(ctx);
  return problems != 0;
}

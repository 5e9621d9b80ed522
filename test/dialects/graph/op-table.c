/* Checks that the C op table (dialects/graph/ops_*.c) and the IRDL
 * definition (graph.irdl.mlir) describe the same ops with the same operand
 * and result names and kinds. Prints one line per disagreement; op-table.test
 * expects none. */
#include <stdio.h>
#include <string.h>

#include "dialects/graph/op_table.h"
#include "kiln/diagnostics.h"
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

/* Expects kilnGraphAttrIsDefault(op's attr, text) to be `want`. */
static void checkDefault(MlirContext ctx, const char *op, const char *attr,
                         const char *text, bool want) {
  const KilnGraphOpInfo *info =
      kilnGraphOpLookup(mlirStringRefCreateFromCString(op));
  const KilnAttrSpec *spec =
      info ? kilnGraphOpFindAttr(info, mlirStringRefCreateFromCString(attr))
           : NULL;
  MlirAttribute value =
      mlirAttributeParseGet(ctx, mlirStringRefCreateFromCString(text));
  if (!spec || mlirAttributeIsNull(value) ||
      kilnGraphAttrIsDefault(spec, value) != want) {
    fprintf(stderr, "DEFAULT %s %s = %s: expected %s\n", op, attr, text,
            want ? "default" : "not default");
    ++problems;
  }
}

/* Every textual default parses, and defaults are recognized whether the
 * table states them (group, auto_pad) or ONNX's per-element rule does. */
static void checkDefaults(MlirContext ctx) {
  fprintf(stderr, "TEST: attr_defaults\n");
  for (intptr_t i = 0; i < kilnGraphOpGetCount(); ++i) {
    const KilnGraphOpInfo *op = kilnGraphOpGetAt(i);
    for (int a = 0; a < op->numAttrs; ++a)
      if (op->attrs[a].defaultValue &&
          mlirAttributeIsNull(mlirAttributeParseGet(
              ctx,
              mlirStringRefCreateFromCString(op->attrs[a].defaultValue)))) {
        fprintf(stderr, "BAD DEFAULT %s %s\n", op->name, op->attrs[a].name);
        ++problems;
      }
  }
  checkDefault(ctx, "conv", "group", "1 : i64", true);
  checkDefault(ctx, "conv", "group", "2 : i64", false);
  checkDefault(ctx, "conv", "auto_pad", "\"NOTSET\"", true);
  checkDefault(ctx, "conv", "auto_pad", "\"VALID\"", false);
  checkDefault(ctx, "conv", "dilations", "array<i64: 1, 1>", true);
  checkDefault(ctx, "conv", "dilations", "array<i64: 1, 2>", false);
  checkDefault(ctx, "conv", "strides", "array<i64: 1, 1, 1>", true);
  checkDefault(ctx, "conv", "pads", "array<i64: 0, 0, 0, 0>", true);
  checkDefault(ctx, "conv", "pads", "array<i64: 0, 1, 0, 1>", false);
  checkDefault(ctx, "conv", "kernel_shape", "array<i64: 1, 1>", false);
  checkDefault(ctx, "max_pool", "strides", "array<i64: 1, 1>", true);
  checkDefault(ctx, "conv_transpose", "output_padding", "array<i64: 0, 0>",
               true);
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
  checkDefaults(ctx);
  fprintf(stderr, "ops: %d, problems: %d\n", irdlOps, problems);
  mlirModuleDestroy(defs);
  kilnContextDestroy(ctx);
  return problems != 0;
}

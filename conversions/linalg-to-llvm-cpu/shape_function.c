/* kiln-shape-function: the model library's shape function, derived from
 * the model itself.
 *
 * A library whose entry has a dynamic dim (an input's or an output's)
 * needs `kiln_model_output_dims` (docs/runtime.md): given the inputs, the
 * dims of every output, before the run (query, then run). This pass, on
 * linalg on tensors right after graph-to-linalg, clones the entry and
 * makes the clone return the outputs' dims instead of the outputs:
 *
 *   func.func @main_graph(%x: tensor<?x64xf32>) -> tensor<?x32xf32> {
 *     ... %y = linalg.matmul ins(%x, %w) outs(%init : tensor<?x32xf32>)
 *     return %y
 *   }
 *   func.func @kiln_output_dims(%x: tensor<?x64xf32>) -> tensor<2xi64> {
 *     ... (the entry's body, cloned)
 *     %d0 = tensor.dim %y, %c0          // static dims: constants
 *     %dims = tensor.from_elements %d0_i64, %c32_i64 : tensor<2xi64>
 *     return %dims
 *   }
 *
 * (every output's dims in order, static ones included). The canonicalizer
 * that follows resolves each tensor.dim of an op's result to the sizes the
 * op was built with (ReifyRankedShapedTypeOpInterface: a linalg op's init,
 * tensor.empty's operands) and erases the computation the dims do not need;
 * what stays is the dim arithmetic, and whatever data a data-dependent size
 * needs (NonZero's count). The run-time checks of shapes stay too: a failed
 * one is the shape function's return value, so the runtime refuses the
 * inputs before the run. The checks of data (gather indices, marked
 * KILN_DATA_CHECK_ATTR by kiln-runtime-checks) are erased from the clone:
 * they belong to the run, and keeping them would keep the whole model.
 *
 * The back end wraps the clone's C interface as kiln_model_output_dims
 * (pipelines/backend/object.c). One source of truth: the dims come from
 * the same IR as the computation, so they cannot disagree with it. */
#include <stdlib.h>
#include <string.h>

#include "conversions/graph-to-linalg/runtime_checks.h"
#include "kiln/compile.h"
#include "kiln/passes.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

static bool typeIsStatic(MlirType t) {
  return !mlirTypeIsAShaped(t) || mlirShapedTypeHasStaticShape(t);
}

/* Whether `fnType` has a dim of dynamic size in an input or a result. */
static bool hasDynamicDim(MlirType fnType) {
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumInputs(fnType); ++i)
    if (!typeIsStatic(mlirFunctionTypeGetInput(fnType, i)))
      return true;
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumResults(fnType); ++i)
    if (!typeIsStatic(mlirFunctionTypeGetResult(fnType, i)))
      return true;
  return false;
}

static MlirOperation build(MlirOperation before, const char *name,
                           MlirType resultType, intptr_t nOperands,
                           const MlirValue *operands, intptr_t nAttrs,
                           const MlirNamedAttribute *attrs) {
  return kilnInsertOp(before, name, nOperands, operands,
                      mlirTypeIsNull(resultType) ? 0 : 1, &resultType, nAttrs,
                      attrs);
}

/* `value`'s dim `d` as i64, before `ret`. */
static MlirValue dimAsI64(MlirOperation ret, MlirValue value, intptr_t d) {
  MlirContext ctx = mlirOperationGetContext(ret);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirType type = mlirValueGetType(value);
  int64_t size = mlirShapedTypeGetDimSize(type, d);
  if (!mlirShapedTypeIsDynamicSize(size)) {
    MlirNamedAttribute v = mlirNamedAttributeGet(
        mlirIdentifierGet(ctx, mlirStringRefCreateFromCString("value")),
        mlirIntegerAttrGet(i64, size));
    return mlirOperationGetResult(
        build(ret, "arith.constant", i64, 0, NULL, 1, &v), 0);
  }
  MlirValue ops[2] = {value, kilnInsertIndexConstant(ret, d)};
  MlirValue dim = mlirOperationGetResult(
      build(ret, "tensor.dim", mlirIndexTypeGet(ctx), 2, ops, 0, NULL), 0);
  return mlirOperationGetResult(
      build(ret, "arith.index_cast", i64, 1, &dim, 0, NULL), 0);
}

static MlirWalkResult collectDataChecks(MlirOperation op, void *userData) {
  if (!mlirAttributeIsNull(mlirOperationGetDiscardableAttributeByName(
          op, mlirStringRefCreateFromCString(KILN_DATA_CHECK_ATTR))))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* Turns the clone `fn` of the entry into the shape function: its return
 * gives the outputs' dims as one tensor<Nxi64>. */
static void returnDims(MlirOperation fn) {
  MlirContext ctx = mlirOperationGetContext(fn);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirOperation ret = mlirBlockGetTerminator(body);
  intptr_t numResults = mlirOperationGetNumOperands(ret);
  KilnOpList dims = {0}; /* the i64 values, as their defining ops */
  for (intptr_t i = 0; i < numResults; ++i) {
    MlirValue result = mlirOperationGetOperand(ret, i);
    intptr_t rank = mlirShapedTypeGetRank(mlirValueGetType(result));
    for (intptr_t d = 0; d < rank; ++d)
      kilnOpListPush(&dims, mlirOpResultGetOwner(dimAsI64(ret, result, d)));
  }
  MlirValue *elements = calloc(dims.len + 1, sizeof(MlirValue));
  if (!elements)
    abort();
  for (size_t k = 0; k < dims.len; ++k)
    elements[k] = mlirOperationGetResult(dims.data[k], 0);
  int64_t n = (int64_t)dims.len;
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  MlirType dimsType =
      mlirRankedTensorTypeGet(1, &n, i64, mlirAttributeGetNull());
  MlirValue all =
      mlirOperationGetResult(build(ret, "tensor.from_elements", dimsType,
                                   (intptr_t)dims.len, elements, 0, NULL),
                             0);
  free(elements);
  kilnOpListDestroy(&dims);
  build(ret, "func.return", (MlirType){NULL}, 1, &all, 0, NULL);
  mlirOperationDestroy(ret);

  MlirType fnType = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString("function_type")));
  intptr_t numInputs = mlirFunctionTypeGetNumInputs(fnType);
  MlirType *inputs = calloc((size_t)numInputs + 1, sizeof(MlirType));
  if (!inputs)
    abort();
  for (intptr_t i = 0; i < numInputs; ++i)
    inputs[i] = mlirFunctionTypeGetInput(fnType, i);
  mlirOperationSetAttributeByName(
      fn, mlirStringRefCreateFromCString("function_type"),
      mlirTypeAttrGet(
          mlirFunctionTypeGet(ctx, numInputs, inputs, 1, &dimsType)));
  free(inputs);
  mlirOperationRemoveAttributeByName(
      fn, mlirStringRefCreateFromCString("res_attrs"));
  mlirOperationSetAttributeByName(
      fn, mlirStringRefCreateFromCString("sym_name"),
      mlirStringAttrGet(ctx,
                        mlirStringRefCreateFromCString(KILN_SHAPE_FUNCTION)));

  KilnOpList checks = {0};
  mlirOperationWalk(fn, collectDataChecks, &checks, MlirWalkPreOrder);
  for (size_t k = 0; k < checks.len; ++k)
    mlirOperationDestroy(checks.data[k]);
  kilnOpListDestroy(&checks);
}

static void runShapeFunction(MlirOperation module, MlirExternalPass pass,
                             const KilnPassOptionValue *options) {
  (void)options;
  MlirOperation entry = kilnModelFindEntry(module);
  if (mlirOperationIsNull(entry))
    return; /* nothing to size: the signature reports a missing entry */
  MlirType fnType = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
      entry, mlirStringRefCreateFromCString("function_type")));
  if (!hasDynamicDim(fnType) &&
      mlirAttributeIsNull(mlirOperationGetAttributeByName(
          entry, mlirStringRefCreateFromCString(KILN_DYNAMIC_SIGNATURE_ATTR))))
    return;
  MlirBlock moduleBody =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(moduleBody);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
    MlirAttribute name = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("sym_name"));
    if (!mlirAttributeIsNull(name) &&
        mlirStringRefEqual(mlirStringAttrGetValue(name),
                           mlirStringRefCreateFromCString(KILN_SHAPE_FUNCTION)))
      return; /* the pass ran before */
  }
  for (intptr_t i = 0; i < mlirFunctionTypeGetNumResults(fnType); ++i)
    if (!mlirTypeIsARankedTensor(mlirFunctionTypeGetResult(fnType, i))) {
      mlirEmitError(mlirOperationGetLocation(entry),
                    "kiln-shape-function: every result of a model with "
                    "dynamic dims must be a ranked tensor");
      mlirExternalPassSignalFailure(pass);
      return;
    }
  MlirOperation clone = mlirOperationClone(entry);
  mlirBlockInsertOwnedOperationAfter(moduleBody, entry, clone);
  returnDims(clone);
}

const KilnPassInfo kilnShapeFunctionPass = {
    .argument = "kiln-shape-function",
    .summary = "Derive the library's shape function (the outputs' dims for "
               "given inputs) from a model entry with dynamic dims",
    .anchor = "builtin.module",
    .run = runShapeFunction,
};

/* kiln-shard-bind-weights: the weights kiln-shard-plan made arguments,
 * constants again after shard-partition (docs/scale-out.md).
 *
 * shard-partition gives each weight argument the type of one rank's
 * slice. A weight whole on every rank becomes its constant again. A split
 * one (tp) becomes a constant holding every rank's slice, stacked, from
 * which each rank takes its own:
 *
 *   %all = arith.constant dense<...> : tensor<N x S0 x S1>   slice r at [r]
 *   %r = shard.process_linear_index on @kiln_grid : index
 *   %w = tensor.extract_slice %all[%r, 0, 0] [1, S0, S1] [1, 1, 1]
 *            : tensor<N x S0 x S1> to tensor<S0 x S1>
 *
 * so a rank reads only its slice of the library's weights. The arguments
 * and their kiln.weight values are removed: the signature is the model's
 * again. */
#include "kiln/passes.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/shard/transforms/shard_plan.h"
#include "dialects/shard/transforms/weight_bytes.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Shard.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"

enum { kMaxRank = 16 };

static MlirValue insertConstant(MlirOperation before, MlirAttribute value) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType t = mlirAttributeGetType(value);
  MlirNamedAttribute v =
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("value")), value);
  return mlirOperationGetResult(
      kilnInsertOp(before, "arith.constant", 0, NULL, 1, &t, 1, &v), 0);
}

/* The one dim along which `local` is a 1/N slice of `whole`, or -1 (-2:
 * not such a slice). */
static intptr_t splitDim(MlirType whole, MlirType local, int64_t *ranks) {
  intptr_t rank = mlirShapedTypeGetRank(whole), dim = -1;
  if (rank != mlirShapedTypeGetRank(local) || rank > kMaxRank)
    return -2;
  for (intptr_t d = 0; d < rank; ++d) {
    int64_t w = mlirShapedTypeGetDimSize(whole, d);
    int64_t l = mlirShapedTypeGetDimSize(local, d);
    if (w == l)
      continue;
    if (dim >= 0 || l <= 0 || w % l)
      return -2;
    dim = d;
    *ranks = w / l;
  }
  return dim;
}

/* `whole`'s slices along `dim` stacked: [ranks x local shape]; null if its
 * bytes cannot be read. */
static MlirAttribute stackSlices(MlirAttribute whole, MlirType local,
                                 intptr_t dim, int64_t ranks) {
  MlirType wt = mlirAttributeGetType(whole);
  size_t size;
  const char *src = kilnWeightBytes(whole, &size);
  if (!src)
    return mlirAttributeGetNull();
  intptr_t rank = mlirShapedTypeGetRank(wt);
  size_t outer = 1, inner = kilnWeightElementBytes(wt);
  for (intptr_t d = 0; d < dim; ++d)
    outer *= (size_t)mlirShapedTypeGetDimSize(wt, d);
  for (intptr_t d = dim + 1; d < rank; ++d)
    inner *= (size_t)mlirShapedTypeGetDimSize(wt, d);
  size_t wholeDim = (size_t)mlirShapedTypeGetDimSize(wt, dim);
  size_t part = (size_t)mlirShapedTypeGetDimSize(local, dim);
  char *dst = kilnXCalloc(size ? size : 1, 1);
  for (size_t r = 0; r < (size_t)ranks; ++r)
    for (size_t o = 0; o < outer; ++o)
      memcpy(dst + ((r * outer + o) * part) * inner,
             src + (o * wholeDim + r * part) * inner, part * inner);
  int64_t shape[kMaxRank + 1] = {ranks};
  for (intptr_t d = 0; d < rank; ++d)
    shape[d + 1] = mlirShapedTypeGetDimSize(local, d);
  MlirType stacked =
      mlirRankedTensorTypeGet(rank + 1, shape, mlirShapedTypeGetElementType(wt),
                              mlirAttributeGetNull());
  MlirAttribute a = kilnWeightFromBytes(stacked, dst, size);
  free(dst);
  return a;
}

/* Rank r's slice of the stacked constant `all` (tensor.extract_slice). */
static MlirValue insertRankSlice(MlirOperation before, MlirValue all,
                                 MlirType local) {
  MlirContext ctx = mlirOperationGetContext(before);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirNamedAttribute grid = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("grid")),
      mlirFlatSymbolRefAttrGet(ctx, kilnStr(KILN_SHARD_GRID)));
  MlirValue r =
      mlirOperationGetResult(kilnInsertOp(before, "shard.process_linear_index",
                                          0, NULL, 1, &index, 1, &grid),
                             0);
  intptr_t rank = mlirShapedTypeGetRank(local);
  int64_t offsets[kMaxRank + 1], sizes[kMaxRank + 1], strides[kMaxRank + 1];
  offsets[0] = mlirShapedTypeGetDynamicSize(), sizes[0] = 1, strides[0] = 1;
  for (intptr_t d = 0; d < rank; ++d) {
    offsets[d + 1] = 0;
    sizes[d + 1] = mlirShapedTypeGetDimSize(local, d);
    strides[d + 1] = 1;
  }
  MlirNamedAttribute attrs[4] = {
      kilnSegmentSizesAttr(ctx, 4, (const int32_t[]){1, 1, 0, 0}),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_offsets")),
                            mlirDenseI64ArrayGet(ctx, rank + 1, offsets)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_sizes")),
                            mlirDenseI64ArrayGet(ctx, rank + 1, sizes)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_strides")),
                            mlirDenseI64ArrayGet(ctx, rank + 1, strides)),
  };
  MlirValue ops[2] = {all, r};
  return mlirOperationGetResult(
      kilnInsertOp(before, "tensor.extract_slice", 2, ops, 1, &local, 4, attrs),
      0);
}

/* Removes the arguments marked in `drop` from `f` (block, type, attrs). */
static void dropArguments(MlirOperation f, const bool *drop) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  MlirType ft = mlirTypeAttrGetValue(
      mlirOperationGetAttributeByName(f, kilnStr("function_type")));
  intptr_t nIn = mlirFunctionTypeGetNumInputs(ft);
  intptr_t nOut = mlirFunctionTypeGetNumResults(ft);
  MlirAttribute oldAttrs =
      mlirOperationGetAttributeByName(f, kilnStr("arg_attrs"));
  MlirType *ins = kilnXCalloc((size_t)nIn + 1, sizeof(MlirType));
  MlirType *outs = kilnXCalloc((size_t)nOut + 1, sizeof(MlirType));
  MlirAttribute *dicts = kilnXCalloc((size_t)nIn + 1, sizeof(MlirAttribute));
  intptr_t kept = 0;
  for (intptr_t i = 0; i < nIn; ++i) {
    if (drop[i])
      continue;
    ins[kept] = mlirFunctionTypeGetInput(ft, i);
    dicts[kept++] = !mlirAttributeIsNull(oldAttrs) &&
                            i < mlirArrayAttrGetNumElements(oldAttrs)
                        ? mlirArrayAttrGetElement(oldAttrs, i)
                        : mlirDictionaryAttrGet(ctx, 0, NULL);
  }
  for (intptr_t i = nIn - 1; i >= 0; --i)
    if (drop[i])
      mlirBlockEraseArgument(entry, (unsigned)i);
  for (intptr_t i = 0; i < nOut; ++i)
    outs[i] = mlirFunctionTypeGetResult(ft, i);
  mlirOperationSetAttributeByName(
      f, kilnStr("function_type"),
      mlirTypeAttrGet(mlirFunctionTypeGet(ctx, kept, ins, nOut, outs)));
  mlirOperationSetAttributeByName(f, kilnStr("arg_attrs"),
                                  mlirArrayAttrGet(ctx, kept, dicts));
  free(ins);
  free(outs);
  free(dicts);
}

/* Binds `f`'s weight arguments; false after an error. */
static bool bindFunction(MlirOperation f) {
  MlirAttribute argAttrs =
      mlirOperationGetAttributeByName(f, kilnStr("arg_attrs"));
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  intptr_t n = mlirBlockGetNumArguments(entry);
  if (mlirAttributeIsNull(argAttrs) || !n)
    return true;
  bool *drop = kilnXCalloc((size_t)n, sizeof(bool));
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  bool ok = true;
  for (intptr_t i = 0; i < n && i < mlirArrayAttrGetNumElements(argAttrs);
       ++i) {
    MlirAttribute whole = mlirDictionaryAttrGetElementByName(
        mlirArrayAttrGetElement(argAttrs, i), kilnStr(KILN_SHARD_WEIGHT_ATTR));
    if (mlirAttributeIsNull(whole))
      continue;
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType local = mlirValueGetType(arg);
    MlirType wt = mlirAttributeGetType(whole);
    MlirValue bound;
    if (mlirTypeEqual(local, wt)) {
      bound = insertConstant(first, whole);
    } else {
      int64_t ranks = 0;
      intptr_t dim = splitDim(wt, local, &ranks);
      MlirAttribute all = dim < 0 ? mlirAttributeGetNull()
                                  : stackSlices(whole, local, dim, ranks);
      if (mlirAttributeIsNull(all)) {
        kilnEmitErrorf(mlirOperationGetLocation(f),
                       "kiln-shard-bind-weights: weight argument #%d was "
                       "partitioned into a slice that is not one dim split "
                       "evenly (or its bytes cannot be read)",
                       (int)i);
        ok = false;
        break;
      }
      bound = insertRankSlice(first, insertConstant(first, all), local);
    }
    mlirValueReplaceAllUsesOfWith(arg, bound);
    drop[i] = true;
  }
  if (ok)
    dropArguments(f, drop);
  free(drop);
  return ok;
}

static void runBindWeights(MlirOperation module, MlirExternalPass pass,
                           const KilnPassOptionValue *options) {
  (void)options;
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  for (MlirOperation op = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (kilnOpNameIs(op, "func.func") && !bindFunction(op)) {
      mlirExternalPassSignalFailure(pass);
      return;
    }
}

static const KilnDialectHandleGetter kDialects[] = {
    mlirGetDialectHandle__tensor__, mlirGetDialectHandle__shard__};

const KilnPassInfo kilnShardBindWeightsPass = {
    .argument = "kiln-shard-bind-weights",
    .summary = "Turn the weight arguments kiln-shard-plan made back into "
               "constants after shard-partition, each rank reading its "
               "slice",
    .anchor = "builtin.module",
    .run = runBindWeights,
    .dependentDialects = kDialects,
    .numDependentDialects = 2,
};

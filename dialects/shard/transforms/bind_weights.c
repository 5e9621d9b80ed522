/* kiln-shard-bind-weights: the weights kiln-shard-plan made arguments,
 * constants again after shard-partition (docs/scale-out.md).
 *
 * shard-partition gives each weight argument the type of one rank's
 * slice. A weight whole on every rank becomes its constant again. The
 * split ones (tp) of each element type become one constant, a row per
 * rank holding all of that rank's slices, from which each rank takes its
 * own:
 *
 *   %all = arith.constant dense<...> : tensor<N x M x f32>   row r: rank r's
 *   %r = shard.process_linear_index on @kiln_grid : index
 *   %f = tensor.extract_slice %all[%r, OFFSET] [1, S0*S1] [1, 1]
 *            : tensor<N x M x f32> to tensor<S0*S1 x f32>
 *   %w = tensor.expand_shape %f [[0, 1]] output_shape [S0, S1]
 *
 * so a rank reads only its slices of the library's weights, and they are
 * contiguous: each row is padded to 2 MiB (64 KiB when a rank's slices
 * are under 1 MiB) and the constant aligned to that, so no page a rank
 * touches holds another rank's weights (the kernel maps a file's pages in
 * folios of up to 2 MiB; a weight's slices interleaved with another
 * rank's would make both resident). The rows are recorded with the
 * constant (kilnResourceDataSetRankRows): the library lists them as
 * kiln_model_weight_rows, and at set-up each rank unmaps what it maps
 * beyond its row (runtime/shard.c). The arguments and their kiln.weight
 * values are removed: the signature is the model's again.
 *
 * A table kiln-shard-plan marked for its embedding lookups (gather.h) is
 * split by rows the same way; each lookup reads the rank's rows, zero for
 * ids outside them, and an all-reduce sums the ranks' results:
 *
 *   %l = arith.subi %id, (r * V/N)          in the lookup's body
 *   %in = arith.cmpi ult, %l, V/N
 *   %x = tensor.extract %rows[select(%in, %l, 0), %j]
 *   linalg.yield select(%in, %x, 0.0)
 *   ...
 *   %e = shard.all_reduce %lookup on @kiln_grid grid_axes = [0] */
#include "kiln/passes.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/shard/transforms/gather.h"
#include "dialects/shard/transforms/shard_plan.h"
#include "dialects/shard/transforms/weight_bytes.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Shard.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"
#include "support/resource_data.h"

enum { kMaxRank = 16 };

/* Each slice starts 64-byte aligned in its row; rows are padded to
 * kLargePage (kSmallPage when a rank's slices are under kLargeRow). */
enum {
  kSliceAlign = 64,
  kSmallPage = 64 << 10,
  kLargePage = 2 << 20,
  kLargeRow = 1 << 20
};

/* A weight split by the partition: its argument, whole value, one rank's
 * type, and where its slices go. */
typedef struct SplitWeight {
  intptr_t arg;
  MlirAttribute whole;
  MlirType local;
  intptr_t dim;
  int64_t ranks;
  size_t offset; /* bytes into each rank's row */
  bool lookup; /* a table split for its lookups (KILN_SHARD_LOOKUP_ROWS_ATTR) */
} SplitWeight;

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

/* Copies each rank's slice of `w` to its offset in that rank's row of
 * `rows` (`rowBytes` apart). */
static void placeSlices(const SplitWeight *w, const char *src, char *rows,
                        size_t rowBytes) {
  MlirType wt = mlirAttributeGetType(w->whole);
  intptr_t rank = mlirShapedTypeGetRank(wt);
  size_t outer = 1, inner = kilnWeightElementBytes(wt);
  for (intptr_t d = 0; d < w->dim; ++d)
    outer *= (size_t)mlirShapedTypeGetDimSize(wt, d);
  for (intptr_t d = w->dim + 1; d < rank; ++d)
    inner *= (size_t)mlirShapedTypeGetDimSize(wt, d);
  size_t wholeDim = (size_t)mlirShapedTypeGetDimSize(wt, w->dim);
  size_t part = (size_t)mlirShapedTypeGetDimSize(w->local, w->dim);
  for (size_t r = 0; r < (size_t)w->ranks; ++r)
    for (size_t o = 0; o < outer; ++o)
      memcpy(rows + r * rowBytes + w->offset + o * part * inner,
             src + (o * wholeDim + r * part) * inner, part * inner);
}

/* The rows of the split weights `ws` (one element type): their offsets
 * set, the constant [ranks x row] with its alignment asked for; null if a
 * weight's bytes cannot be read. */
static MlirAttribute rankRows(SplitWeight *ws, size_t n) {
  size_t elem = kilnWeightElementBytes(ws[0].local), used = 0;
  for (size_t i = 0; i < n; ++i) {
    ws[i].offset = used;
    used += (kilnWeightTypeBytes(ws[i].local) + kSliceAlign - 1) / kSliceAlign *
            kSliceAlign;
  }
  size_t page = used >= kLargeRow ? kLargePage : kSmallPage;
  size_t rowBytes = (used + page - 1) / page * page;
  size_t ranks = (size_t)ws[0].ranks;
  char *rows = kilnWeightBufferCreate(ranks * rowBytes);
  for (size_t i = 0; i < n; ++i) {
    size_t size;
    const char *src = kilnWeightBytes(ws[i].whole, &size);
    if (!src ||
        size != kilnWeightTypeBytes(mlirAttributeGetType(ws[i].whole))) {
      free(rows);
      return mlirAttributeGetNull();
    }
    placeSlices(&ws[i], src, rows, rowBytes);
  }
  int64_t shape[2] = {(int64_t)ranks, (int64_t)(rowBytes / elem)};
  MlirType t = mlirRankedTensorTypeGet(
      2, shape, mlirShapedTypeGetElementType(ws[0].local),
      mlirAttributeGetNull());
  MlirAttribute a = kilnWeightFromOwnedBuffer(t, rows, ranks * rowBytes);
  if (!mlirAttributeIsNull(a)) {
    kilnResourceDataSetAlignment(a, page);
    kilnResourceDataSetRankRows(a, rowBytes, used);
  }
  return a;
}

/* Rank r's slice of weight `w` in `rows` (its row r): the flat slice,
 * reshaped to the weight's local type. */
static MlirValue insertRankSlice(MlirOperation before, MlirValue rows,
                                 MlirValue r, const SplitWeight *w) {
  MlirContext ctx = mlirOperationGetContext(before);
  size_t elem = kilnWeightElementBytes(w->local);
  int64_t count = (int64_t)(kilnWeightTypeBytes(w->local) / elem);
  MlirType flat =
      mlirRankedTensorTypeGet(1, &count, mlirShapedTypeGetElementType(w->local),
                              mlirAttributeGetNull());
  int64_t offsets[2] = {mlirShapedTypeGetDynamicSize(),
                        (int64_t)(w->offset / elem)};
  int64_t sizes[2] = {1, count}, strides[2] = {1, 1};
  MlirNamedAttribute attrs[4] = {
      kilnSegmentSizesAttr(ctx, 4, (const int32_t[]){1, 1, 0, 0}),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_offsets")),
                            mlirDenseI64ArrayGet(ctx, 2, offsets)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_sizes")),
                            mlirDenseI64ArrayGet(ctx, 2, sizes)),
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("static_strides")),
                            mlirDenseI64ArrayGet(ctx, 2, strides)),
  };
  MlirValue ops[2] = {rows, r};
  MlirValue slice = mlirOperationGetResult(
      kilnInsertOp(before, "tensor.extract_slice", 2, ops, 1, &flat, 4, attrs),
      0);
  intptr_t rank = mlirShapedTypeGetRank(w->local);
  if (rank == 1)
    return slice;
  MlirAttribute all[kMaxRank];
  for (intptr_t d = 0; d < rank; ++d)
    all[d] = mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), d);
  MlirAttribute group = mlirArrayAttrGet(ctx, rank, all);
  int64_t shape[kMaxRank];
  for (intptr_t d = 0; d < rank; ++d)
    shape[d] = mlirShapedTypeGetDimSize(w->local, d);
  MlirNamedAttribute reshape[2] = {
      mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("reassociation")),
                            mlirArrayAttrGet(ctx, 1, &group)),
      mlirNamedAttributeGet(
          mlirIdentifierGet(ctx, kilnStr("static_output_shape")),
          mlirDenseI64ArrayGet(ctx, rank, shape)),
  };
  MlirType local = w->local;
  return mlirOperationGetResult(kilnInsertOp(before, "tensor.expand_shape", 1,
                                             &slice, 1, &local, 2, reshape),
                                0);
}

static MlirValue insertArith(MlirOperation before, const char *name,
                             MlirValue a, MlirValue b, MlirType t,
                             intptr_t nAttrs, const MlirNamedAttribute *attrs) {
  MlirValue ops[2] = {a, b};
  return mlirOperationGetResult(
      kilnInsertOp(before, name, 2, ops, 1, &t, nAttrs, attrs), 0);
}

static MlirValue insertSelect(MlirOperation before, MlirValue c, MlirValue a,
                              MlirValue b) {
  MlirValue ops[3] = {c, a, b};
  MlirType t = mlirValueGetType(a);
  return mlirOperationGetResult(
      kilnInsertOp(before, "arith.select", 3, ops, 1, &t, 0, NULL), 0);
}

/* Lookup `extract` of the whole table reads rank `r`'s rows `local`
 * instead: the element for an id in them, zero otherwise (above). */
static void maskLookup(MlirOperation extract, MlirValue local, MlirValue r) {
  MlirContext ctx = mlirOperationGetContext(extract);
  MlirType index = mlirIndexTypeGet(ctx), i1 = mlirIntegerTypeGet(ctx, 1);
  MlirValue rows = kilnInsertIndexConstant(
      extract, mlirShapedTypeGetDimSize(mlirValueGetType(local), 0));
  MlirValue first = insertArith(extract, "arith.muli", r, rows, index, 0, NULL);
  MlirValue row =
      insertArith(extract, "arith.subi", mlirOperationGetOperand(extract, 1),
                  first, index, 0, NULL);
  MlirNamedAttribute ult = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("predicate")),
      mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 64), 6 /* ult */));
  MlirValue in = insertArith(extract, "arith.cmpi", row, rows, i1, 1, &ult);
  intptr_t n = mlirOperationGetNumOperands(extract);
  MlirValue ops[kMaxRank + 1];
  ops[0] = local;
  ops[1] = insertSelect(extract, in, row, kilnInsertIndexConstant(extract, 0));
  for (intptr_t i = 2; i < n && i <= kMaxRank; ++i)
    ops[i] = mlirOperationGetOperand(extract, i);
  MlirType elem = mlirValueGetType(mlirOperationGetResult(extract, 0));
  MlirValue x = mlirOperationGetResult(
      kilnInsertOp(extract, "tensor.extract", n, ops, 1, &elem, 0, NULL), 0);
  MlirNamedAttribute zero = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("value")),
      mlirTypeIsAFloat(elem) ? mlirFloatAttrDoubleGet(ctx, elem, 0.0)
                             : mlirIntegerAttrGet(elem, 0));
  MlirValue z = mlirOperationGetResult(
      kilnInsertOp(extract, "arith.constant", 0, NULL, 1, &elem, 1, &zero), 0);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(extract, 0),
                                insertSelect(extract, in, x, z));
  mlirOperationDestroy(extract);
}

/* The lookups of table argument `arg` read rank `r`'s rows `local`, their
 * results summed over the ranks; false after the error for another use. */
static bool splitLookups(MlirOperation f, MlirValue arg, MlirValue local,
                         MlirValue r) {
  MlirContext ctx = mlirOperationGetContext(f);
  KilnOpList users = {0};
  kilnOpListCollectUsers(&users, arg);
  bool ok = true;
  for (size_t i = 0; i < users.len && ok; ++i) {
    MlirOperation extract = users.data[i];
    MlirOperation lookup = mlirOperationGetParentOperation(extract);
    if (!mlirOperationEqual(kilnShardLookupExtract(lookup), extract)) {
      kilnEmitErrorf(mlirOperationGetLocation(extract),
                     "kiln-shard-bind-weights: a table split for embedding "
                     "lookups is read by an op that is not one");
      ok = false;
      break;
    }
    maskLookup(extract, local, r);
    MlirValue result = mlirOperationGetResult(lookup, 0);
    MlirType t = mlirValueGetType(result);
    int16_t axis = 0;
    MlirNamedAttribute attrs[2] = {
        mlirNamedAttributeGet(
            mlirIdentifierGet(ctx, kilnStr("grid")),
            mlirFlatSymbolRefAttrGet(ctx, kilnStr(KILN_SHARD_GRID))),
        mlirNamedAttributeGet(mlirIdentifierGet(ctx, kilnStr("grid_axes")),
                              mlirDenseI16ArrayGet(ctx, 1, &axis)),
    };
    MlirOperation sum =
        kilnInsertOp(mlirOperationGetNextInBlock(lookup), "shard.all_reduce", 1,
                     &result, 1, &t, 2, attrs);
    mlirValueReplaceAllUsesExcept(result, mlirOperationGetResult(sum, 0), 1,
                                  &sum);
  }
  kilnOpListDestroy(&users);
  return ok;
}

/* Binds the split weights `ws`: one constant of rows per element type. */
static bool bindSplit(MlirOperation f, SplitWeight *ws, size_t n) {
  MlirContext ctx = mlirOperationGetContext(f);
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(f, 0));
  MlirOperation first = mlirBlockGetFirstOperation(entry);
  MlirType index = mlirIndexTypeGet(ctx);
  MlirNamedAttribute grid = mlirNamedAttributeGet(
      mlirIdentifierGet(ctx, kilnStr("grid")),
      mlirFlatSymbolRefAttrGet(ctx, kilnStr(KILN_SHARD_GRID)));
  MlirValue r = n ? mlirOperationGetResult(
                        kilnInsertOp(first, "shard.process_linear_index", 0,
                                     NULL, 1, &index, 1, &grid),
                        0)
                  : (MlirValue){NULL};
  /* Sorted into runs of one element type (and rank count), in place. */
  for (size_t done = 0; done < n;) {
    size_t end = done + 1;
    for (size_t i = done + 1; i < n; ++i)
      if (mlirTypeEqual(mlirShapedTypeGetElementType(ws[i].local),
                        mlirShapedTypeGetElementType(ws[done].local)) &&
          ws[i].ranks == ws[done].ranks) {
        SplitWeight t = ws[end];
        ws[end++] = ws[i];
        ws[i] = t;
      }
    MlirAttribute all = rankRows(ws + done, end - done);
    if (mlirAttributeIsNull(all)) {
      kilnEmitErrorf(mlirOperationGetLocation(f),
                     "kiln-shard-bind-weights: the bytes of weight argument "
                     "#%d cannot be read",
                     (int)ws[done].arg);
      return false;
    }
    MlirValue rows = insertConstant(first, all);
    for (size_t i = done; i < end; ++i) {
      MlirValue arg = mlirBlockGetArgument(entry, ws[i].arg);
      MlirValue local = insertRankSlice(first, rows, r, &ws[i]);
      if (!ws[i].lookup)
        mlirValueReplaceAllUsesOfWith(arg, local);
      else if (!splitLookups(f, arg, local, r))
        return false;
    }
    done = end;
  }
  return true;
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

/* For a table marked for its lookups (its argument's attributes `dict`),
 * the ranks of the module's plan; 0 otherwise. */
static int64_t lookupRanks(MlirOperation f, MlirAttribute dict) {
  if (mlirAttributeIsNull(mlirDictionaryAttrGetElementByName(
          dict, kilnStr(KILN_SHARD_LOOKUP_ROWS_ATTR))))
    return 0;
  MlirOperation module = mlirOperationGetParentOperation(f);
  MlirAttribute text =
      mlirOperationGetAttributeByName(module, kilnStr(KILN_SHARD_PLAN_ATTR));
  KilnShardPlan plan;
  if (mlirAttributeIsNull(text) || !mlirAttributeIsAString(text))
    return 0;
  MlirStringRef s = mlirStringAttrGetValue(text);
  char buf[32];
  if (s.length >= sizeof(buf))
    return 0;
  memcpy(buf, s.data, s.length);
  buf[s.length] = '\0';
  return kilnShardPlanParse(buf, &plan) ? plan.ranks : 0;
}

/* `whole`'s type with dim 0 divided by `ranks`. */
static MlirType rowsOf(MlirType whole, int64_t ranks) {
  intptr_t rank = mlirShapedTypeGetRank(whole);
  int64_t shape[kMaxRank];
  for (intptr_t d = 0; d < rank && d < kMaxRank; ++d)
    shape[d] = mlirShapedTypeGetDimSize(whole, d) / (d ? 1 : ranks);
  return mlirRankedTensorTypeGet(
      rank, shape, mlirShapedTypeGetElementType(whole), mlirAttributeGetNull());
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
  SplitWeight *split = kilnXCalloc((size_t)n, sizeof(SplitWeight));
  size_t numSplit = 0;
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
    drop[i] = true;
    int64_t ranks = lookupRanks(f, mlirArrayAttrGetElement(argAttrs, i));
    if (ranks) {
      split[numSplit++] =
          (SplitWeight){i, whole, rowsOf(wt, ranks), 0, ranks, 0, true};
      continue;
    }
    if (mlirTypeEqual(local, wt)) {
      mlirValueReplaceAllUsesOfWith(arg, insertConstant(first, whole));
      continue;
    }
    intptr_t dim = splitDim(wt, local, &ranks);
    if (dim < 0 || !kilnWeightElementBytes(local)) {
      kilnEmitErrorf(mlirOperationGetLocation(f),
                     "kiln-shard-bind-weights: weight argument #%d was "
                     "partitioned into a slice that is not one dim split "
                     "evenly",
                     (int)i);
      ok = false;
      break;
    }
    split[numSplit++] = (SplitWeight){i, whole, local, dim, ranks, 0, false};
  }
  ok = ok && bindSplit(f, split, numSplit);
  if (ok)
    dropArguments(f, drop);
  free(split);
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

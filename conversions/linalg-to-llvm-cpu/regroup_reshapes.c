/* kiln-regroup-reshapes: a tensor.reshape whose new shape only regroups
 * its source's dims becomes tensor.expand_shape or tensor.collapse_shape.
 *
 * A dynamic-shape lowering reshapes with tensor.reshape wherever it cannot
 * tell at that point which dims group together: a model's
 * `x.view(B, T, 4, 32)` reads B and T back from Shape ops, and only after
 * kiln-unify-dims are they known to be the source's own dims. But
 * tensor.reshape bufferizes to a copy unless its source is an
 * identity-layout buffer, and most sources are views: a product's output
 * rows, one of Q, K and V sliced out of a packed projection. An expand or
 * a collapse reads such views in place:
 *
 *   %s = tensor.extract_slice %qkv[0, 0, 128] [%b, %t, 128] [1, 1, 1]
 *   %shape = tensor.from_elements %b, %t, %c4, %c32 : tensor<4xindex>
 *   %r = tensor.reshape %s(%shape)
 *          : (tensor<?x?x128xf32>, tensor<4xindex>) -> tensor<?x?x4x32xf32>
 * becomes
 *   %r = tensor.expand_shape %s [[0], [1], [2, 3]]
 *          output_shape [%b, %t, 4, 32]
 *
 * A group is proven when the product of its dims equals the dim it makes
 * or comes from as a product of the same factors: index constants and the
 * values that name dims (named_dims.h), through arith.muli and affine.apply
 * of products (`%n = affine.apply s0 * s1 ()[%b, %t]`, the rows of a
 * collapsed [b, t, 384]). Equal products are an identity of the values,
 * so the regrouping holds for every size, zero included. A reshape that
 * both splits and merges dims, or whose sizes are not proven products,
 * stays (its element-count assert guards it at run time). A reshape whose
 * every group is one dim to one dim is its source (through tensor.cast
 * where the static dims differ).
 *
 * Run after kiln-unify-dims, cse and canonicalize. */
#include "kiln/passes.h"

#include "conversions/graph-to-linalg/lower.h"
#include "conversions/linalg-to-llvm-cpu/named_dims.h"
#include "kiln/diagnostics.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/Tensor.h"
#include "support/ir_build.h"
#include "support/op_list.h"

enum { kMaxFactors = 16, kMaxDepth = 16, kMaxRank = KILN_MAX_RANK };

/* A product of a positive constant and values (a multiset). */
typedef struct Product {
  int64_t constant;
  MlirValue factors[kMaxFactors];
  int n;
} Product;

static bool multiplyConstant(Product *p, int64_t c) {
  return c > 0 && !__builtin_mul_overflow(p->constant, c, &p->constant);
}

static bool multiplyValue(Product *p, MlirValue v, int depth);

/* An affine product of the apply's operands (dims, then symbols). */
static bool multiplyExpr(Product *p, MlirAffineExpr e, MlirOperation apply,
                         intptr_t numDims, int depth) {
  if (mlirAffineExprIsAConstant(e))
    return multiplyConstant(p, mlirAffineConstantExprGetValue(e));
  if (mlirAffineExprIsAMul(e))
    return multiplyExpr(p, mlirAffineBinaryOpExprGetLHS(e), apply, numDims,
                        depth) &&
           multiplyExpr(p, mlirAffineBinaryOpExprGetRHS(e), apply, numDims,
                        depth);
  intptr_t k;
  if (mlirAffineExprIsADim(e))
    k = mlirAffineDimExprGetPosition(e);
  else if (mlirAffineExprIsASymbol(e))
    k = numDims + mlirAffineSymbolExprGetPosition(e);
  else
    return false;
  return k < mlirOperationGetNumOperands(apply) &&
         multiplyValue(p, mlirOperationGetOperand(apply, k), depth + 1);
}

/* p *= v, v split into its factors where it is a product. */
static bool multiplyValue(Product *p, MlirValue v, int depth) {
  int64_t c;
  if (kilnConstantIndexValue(v, &c))
    return multiplyConstant(p, c);
  if (depth < kMaxDepth && mlirValueIsAOpResult(v)) {
    MlirOperation op = mlirOpResultGetOwner(v);
    if (kilnOpNameIs(op, "arith.muli"))
      return multiplyValue(p, mlirOperationGetOperand(op, 0), depth + 1) &&
             multiplyValue(p, mlirOperationGetOperand(op, 1), depth + 1);
    if (kilnOpNameIs(op, "affine.apply")) {
      MlirAffineMap map = mlirAffineMapAttrGetValue(
          mlirOperationGetAttributeByName(op, kilnStr("map")));
      if (mlirAffineMapGetNumResults(map) == 1)
        return multiplyExpr(p, mlirAffineMapGetResult(map, 0), op,
                            mlirAffineMapGetNumDims(map), depth);
    }
  }
  if (p->n == kMaxFactors)
    return false;
  p->factors[p->n++] = v;
  return true;
}

/* Whether every factor of `a` is one of `b`'s (as a multiset) and a's
 * constant divides b's; `equal` says whether they are the same product. */
static bool divides(const Product *a, const Product *b, bool *equal) {
  bool used[kMaxFactors] = {false};
  for (int i = 0; i < a->n; ++i) {
    int j = 0;
    while (j < b->n &&
           (used[j] || !mlirValueEqual(a->factors[i], b->factors[j])))
      ++j;
    if (j == b->n)
      return false;
    used[j] = true;
  }
  if (b->constant % a->constant != 0)
    return false;
  *equal = a->n == b->n && a->constant == b->constant;
  return true;
}

/* Dim `d` of `t` as a product: its static size, or the value `size` names
 * it with. */
static bool dimProduct(MlirType t, intptr_t d, MlirValue size, Product *p) {
  *p = (Product){.constant = 1};
  return mlirShapedTypeIsDynamicDim(t, d)
             ? !mlirValueIsNull(size) && multiplyValue(p, size, 0)
             : multiplyConstant(p, mlirShapedTypeGetDimSize(t, d));
}

/* Splits `big`'s dims into `nSmall` runs of consecutive dims, run g's
 * product equal to small[g], trailing 1s joining the last run; each run's
 * length goes to runs[g]. */
static bool groupRuns(const Product *big, intptr_t nBig, const Product *small,
                      intptr_t nSmall, intptr_t *runs) {
  intptr_t j = 0;
  for (intptr_t g = 0; g < nSmall; ++g) {
    Product acc = {.constant = 1};
    intptr_t first = j;
    for (bool equal = false; !equal;) {
      if (j == nBig || !multiplyConstant(&acc, big[j].constant) ||
          acc.n + big[j].n > kMaxFactors)
        return false;
      for (int k = 0; k < big[j].n; ++k)
        acc.factors[acc.n++] = big[j].factors[k];
      ++j;
      if (!divides(&acc, &small[g], &equal))
        return false;
    }
    if (g == nSmall - 1)
      while (j < nBig && big[j].n == 0 && big[j].constant == 1)
        ++j;
    runs[g] = j - first;
  }
  return j == nBig;
}

/* Whether each run of `big`'s dims is dynamic exactly where the dim of
 * `small` it makes is (the reshape ops' type rule), and, for a collapse,
 * the static products match `small`'s static sizes. */
static bool runsMatchTypes(MlirType big, MlirType small, const intptr_t *runs) {
  intptr_t d = 0;
  for (intptr_t g = 0; g < mlirShapedTypeGetRank(small); ++g) {
    bool dynamic = false;
    for (intptr_t k = 0; k < runs[g]; ++k, ++d)
      dynamic |= mlirShapedTypeIsDynamicDim(big, d);
    if (dynamic != mlirShapedTypeIsDynamicDim(small, g))
      return false;
  }
  return true;
}

/* The reshape as an expand, a collapse or its source; false where the
 * shape does not regroup the source's dims (file comment). */
static bool regroup(MlirOperation reshape) {
  MlirValue src = mlirOperationGetOperand(reshape, 0);
  MlirValue shape = mlirOperationGetOperand(reshape, 1);
  MlirValue result = mlirOperationGetResult(reshape, 0);
  MlirType from = mlirValueGetType(src), to = mlirValueGetType(result);
  if (!mlirValueIsAOpResult(shape) ||
      !kilnOpNameIs(mlirOpResultGetOwner(shape), "tensor.from_elements") ||
      !mlirTypeIsARankedTensor(from) || !mlirTypeIsARankedTensor(to))
    return false;
  MlirOperation elements = mlirOpResultGetOwner(shape);
  intptr_t m = mlirShapedTypeGetRank(from), n = mlirShapedTypeGetRank(to);
  if (m == 0 || n == 0 || m > kMaxRank || n > kMaxRank ||
      mlirOperationGetNumOperands(elements) != n)
    return false;
  Product s[kMaxRank], t[kMaxRank];
  for (intptr_t j = 0; j < n; ++j)
    if (!mlirTypeIsAIndex(
            mlirValueGetType(mlirOperationGetOperand(elements, j))) ||
        !dimProduct(to, j, mlirOperationGetOperand(elements, j), &t[j]))
      return false;
  for (intptr_t i = 0; i < m; ++i) {
    /* A source dim no producer names may still be read as `tensor.dim`
     * among the new sizes. */
    MlirValue size = kilnNamedDim(src, i);
    for (intptr_t j = 0; j < n && mlirValueIsNull(size); ++j)
      if (mlirShapedTypeIsDynamicDim(from, i) &&
          kilnIsDimOf(mlirOperationGetOperand(elements, j), src, i))
        size = mlirOperationGetOperand(elements, j);
    if (!dimProduct(from, i, size, &s[i]))
      return false;
  }
  /* Equal ranks regroup only one to one: a cast where static dims differ
   * (their products proven equal). */
  intptr_t runs[kMaxRank];
  bool expand = n >= m;
  if (expand ? !groupRuns(t, n, s, m, runs) ||
                   (n > m && !runsMatchTypes(to, from, runs))
             : !groupRuns(s, m, t, n, runs) || !runsMatchTypes(from, to, runs))
    return false;
  KilnBuilder b = {mlirOperationGetContext(reshape),
                   mlirOperationGetLocation(reshape),
                   mlirOperationGetBlock(reshape), reshape};
  /* The new dynamic sizes are the shape's elements (an expand's
   * output_shape; a collapse reads none). */
  MlirValue sizes[kMaxRank];
  for (intptr_t j = 0; j < n; ++j)
    sizes[j] = mlirOperationGetOperand(elements, j);
  MlirValue regrouped =
      n == m ? kilnCastTo(&b, src, to)
             : kilnReshapeGroupsSized(&b, src, to, expand ? m : n, runs, sizes);
  mlirValueReplaceAllUsesOfWith(result, regrouped);
  mlirOperationDestroy(reshape);
  return true;
}

static void runRegroupReshapes(MlirOperation func, MlirExternalPass pass,
                               const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  KilnOpList reshapes = {0};
  kilnOpListCollectNamed(&reshapes, func, "tensor.reshape", MlirWalkPreOrder);
  for (size_t i = 0; i < reshapes.len; ++i)
    regroup(reshapes.data[i]);
  kilnOpListDestroy(&reshapes);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__tensor__,
};

const KilnPassInfo kilnRegroupReshapesPass = {
    .argument = "kiln-regroup-reshapes",
    .summary = "Rewrite tensor.reshape whose new shape regroups its source's "
               "dims (proven products of the same sizes) as "
               "tensor.expand_shape or tensor.collapse_shape",
    .anchor = "func.func",
    .run = runRegroupReshapes,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

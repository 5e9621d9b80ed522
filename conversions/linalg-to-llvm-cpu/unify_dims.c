/* kiln-unify-dims: dims the model makes equal become one SSA value, so
 * the canonicalizer folds the run-time comparisons of dynamic dims, and the
 * scf.if branches that stretch an operand whose dim is 1 (broadcasting,
 * conversions/graph-to-linalg/build.c), away; the elementwise ops around
 * them then fuse.
 *
 * Four rules, on the entry function at the tensor level:
 *
 *  - Input dims that share an ONNX name (onnx.dim_names: `batch` of ids and
 *    of mask) are one size: every `tensor.dim` of a later input's named dim
 *    becomes the first input's, and an assert (a run-time check after
 *    kiln-shape-checks, which the shape function runs before every run)
 *    states the equality, as the runtime also checks it.
 *
 *  - A broadcast's result size between dynamic dims a and b,
 *
 *      %size = arith.select (arith.cmpi eq, %a, %c1), %b, %a
 *
 *    is %a when %b is 1 whenever %a is, and %b when %a is 1 whenever %b
 *    is: one dim is then never stretched to the other, so the dims that
 *    pass the broadcast's checks are equal or both 1 (and the checks, now
 *    of one dim against the other, fail exactly where they failed). The
 *    implication is evaluated with the one dim := 1 through integer and
 *    index arithmetic, comparisons, selects and casts, from constants and
 *    that dim itself (any other op leaves the select alone). The common
 *    cases are slices of a table sized by the input: position embeddings
 *    pos[:seq] of a 384-row table, whose length min(max(seq, 0), 384) is 1
 *    when seq is 1, added to the tokens' embeddings; a causal mask
 *    bias[:, :, :seq, :seq] applied to the attention scores.
 *
 *  - A dim d asserted to be the broadcast's size s or 1, where d is 1 only
 *    when s is (a table sliced to the sequence, clamped to the table's
 *    length), is s: the branch that would stretch a 1 goes, and d's uses
 *    but the assert's become s (the assert keeps its check).
 *
 *  - A slice that takes all of its source (offsets 0, strides 1, every size
 *    the value the source's producer names as that dim: a tensor.empty's
 *    size, through the linalg ops and foralls that wrote it, a reshape's
 *    shape element) is its source. Broadcasting slices each operand to
 *    the broadcast's size; once the rules above made those sizes the
 *    operands' own, the slices stand whole between elementwise ops that
 *    linalg-fuse-elementwise-ops then fuses (the encoder: 22 fewer
 *    kernels).
 *
 * And a size (a dim, or arithmetic on dims) tested against a negative
 * value, as a reshape's `-1` entries and a slice's negative bounds are, is
 * not: the test folds. (Upstream int-range-optimizations would infer this,
 * but crashes on a zero-element constant: docs/mlir22-notes.md.)
 *
 * Run after resolve-ranked-shaped-type-result-dims, canonicalize and cse,
 * so that dims read from the same tensor are one value. */
#include "kiln/passes.h"

#include <string.h>

#include "conversions/graph-to-linalg/lower.h"
#include "conversions/linalg-to-llvm-cpu/named_dims.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/ControlFlow.h"
#include "mlir-c/Dialect/Tensor.h"
#include "mlir-c/IR.h"
#include "support/ir_build.h"
#include "support/op_list.h"

/* How many ops deep %b's computation is followed. */
enum { kMaxDepth = 24 };

/* arith.cmpi predicates (the attribute's integer values). */
enum { kEq, kNe, kSlt, kSle, kSgt, kSge, kUlt, kUle, kUgt, kUge };

static bool valueWhenOne(MlirValue v, MlirValue x, int depth, int64_t *out);

static bool operandWhenOne(MlirOperation op, intptr_t i, MlirValue x, int depth,
                           int64_t *out) {
  return valueWhenOne(mlirOperationGetOperand(op, i), x, depth, out);
}

static bool compare(int64_t predicate, int64_t l, int64_t r, int64_t *out) {
  uint64_t ul = (uint64_t)l, ur = (uint64_t)r;
  switch (predicate) {
  case kEq:
    *out = l == r;
    break;
  case kNe:
    *out = l != r;
    break;
  case kSlt:
    *out = l < r;
    break;
  case kSle:
    *out = l <= r;
    break;
  case kSgt:
    *out = l > r;
    break;
  case kSge:
    *out = l >= r;
    break;
  case kUlt:
    *out = ul < ur;
    break;
  case kUle:
    *out = ul <= ur;
    break;
  case kUgt:
    *out = ul > ur;
    break;
  case kUge:
    *out = ul >= ur;
    break;
  default:
    return false;
  }
  return true;
}

/* A two-operand arith op on known values; false for others and on
 * overflow or division by zero. */
static bool binary(MlirOperation op, int64_t l, int64_t r, int64_t *out) {
  if (kilnOpNameIs(op, "arith.addi"))
    return !__builtin_add_overflow(l, r, out);
  if (kilnOpNameIs(op, "arith.subi"))
    return !__builtin_sub_overflow(l, r, out);
  if (kilnOpNameIs(op, "arith.muli"))
    return !__builtin_mul_overflow(l, r, out);
  if (kilnOpNameIs(op, "arith.maxsi"))
    return *out = l > r ? l : r, true;
  if (kilnOpNameIs(op, "arith.minsi"))
    return *out = l < r ? l : r, true;
  if (kilnOpNameIs(op, "arith.andi"))
    return *out = l & r, true;
  if (kilnOpNameIs(op, "arith.ori"))
    return *out = l | r, true;
  if (r == 0 || (l == INT64_MIN && r == -1))
    return false;
  if (kilnOpNameIs(op, "arith.divsi"))
    return *out = l / r, true;
  if (kilnOpNameIs(op, "arith.ceildivsi"))
    return *out = l / r + ((l % r != 0) && ((l < 0) == (r < 0))), true;
  if (kilnOpNameIs(op, "arith.floordivsi"))
    return *out = l / r - ((l % r != 0) && ((l < 0) != (r < 0))), true;
  return false;
}

/* The value of the integer or index scalar `v` when `x` is 1 (i1 values as
 * 0 or 1), if it follows from constants and `x` alone. */
static bool valueWhenOne(MlirValue v, MlirValue x, int depth, int64_t *out) {
  if (mlirValueEqual(v, x))
    return *out = 1, true;
  if (kilnConstantIndexValue(v, out)) {
    if (mlirTypeIsAInteger(mlirValueGetType(v)) &&
        mlirIntegerTypeGetWidth(mlirValueGetType(v)) == 1)
      *out = *out != 0;
    return true;
  }
  if (depth >= kMaxDepth || !mlirValueIsAOpResult(v))
    return false;
  MlirOperation op = mlirOpResultGetOwner(v);
  int64_t l, r, c;
  if (kilnOpNameIs(op, "arith.index_cast") || kilnOpNameIs(op, "arith.extsi"))
    return operandWhenOne(op, 0, x, depth + 1, out);
  if (kilnOpNameIs(op, "arith.select"))
    return operandWhenOne(op, 0, x, depth + 1, &c) &&
           operandWhenOne(op, c ? 1 : 2, x, depth + 1, out);
  if (mlirOperationGetNumOperands(op) != 2 ||
      !operandWhenOne(op, 0, x, depth + 1, &l) ||
      !operandWhenOne(op, 1, x, depth + 1, &r))
    return false;
  if (kilnOpNameIs(op, "arith.cmpi"))
    return compare(kilnOpGetIntAttr(op, "predicate", -1), l, r, out);
  return binary(op, l, r, out);
}

/* ---- Broadcast sizes ---------------------------------------------------- */

/* `v` as `arith.cmpi eq, %l, %r`: its operands, or false. */
static bool isEquality(MlirValue v, MlirValue *l, MlirValue *r) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation cmp = mlirOpResultGetOwner(v);
  if (!kilnOpNameIs(cmp, "arith.cmpi") ||
      kilnOpGetIntAttr(cmp, "predicate", -1) != kEq)
    return false;
  *l = mlirOperationGetOperand(cmp, 0);
  *r = mlirOperationGetOperand(cmp, 1);
  return true;
}

/* `select` is `arith.select (arith.cmpi eq, %a, 1), %b, %a` (either order
 * of the comparison's operands): *a is %a. */
static bool isBroadcastSize(MlirOperation select, MlirValue *a) {
  MlirValue ops[2];
  if (!isEquality(mlirOperationGetOperand(select, 0), &ops[0], &ops[1]))
    return false;
  *a = mlirOperationGetOperand(select, 2);
  int64_t one;
  for (intptr_t i = 0; i < 2; ++i)
    if (mlirValueEqual(ops[i], *a) &&
        kilnConstantIndexValue(ops[1 - i], &one) && one == 1)
      return true;
  return false;
}

static MlirWalkResult collectSelects(MlirOperation op, void *userData) {
  if (kilnOpNameIs(op, "arith.select") &&
      mlirTypeIsAIndex(mlirValueGetType(mlirOperationGetResult(op, 0))))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* ---- Tests of sizes against negative values --------------------------------
 */

/* Whether the index or integer scalar `v` is never negative: a tensor's
 * dim, a constant >= 0, or sums, products, quotients, maxima, minima and
 * selects of such values (sizes do not reach 2^63). */
static bool nonNegative(MlirValue v, int depth) {
  int64_t c;
  if (kilnConstantIndexValue(v, &c))
    return c >= 0;
  if (depth >= kMaxDepth || !mlirValueIsAOpResult(v))
    return false;
  MlirOperation op = mlirOpResultGetOwner(v);
  if (kilnOpNameIs(op, "tensor.dim"))
    return true;
  if (kilnOpNameIs(op, "arith.index_cast") || kilnOpNameIs(op, "arith.extsi"))
    return nonNegative(mlirOperationGetOperand(op, 0), depth + 1);
  if (kilnOpNameIs(op, "arith.select"))
    return nonNegative(mlirOperationGetOperand(op, 1), depth + 1) &&
           nonNegative(mlirOperationGetOperand(op, 2), depth + 1);
  if (kilnOpNameIs(op, "arith.maxsi"))
    return nonNegative(mlirOperationGetOperand(op, 0), depth + 1) ||
           nonNegative(mlirOperationGetOperand(op, 1), depth + 1);
  static const char *const kBoth[] = {
      "arith.addi",  "arith.muli",      "arith.minsi",     "arith.divsi",
      "arith.divui", "arith.ceildivsi", "arith.floordivsi"};
  for (size_t i = 0; i < sizeof kBoth / sizeof kBoth[0]; ++i)
    if (kilnOpNameIs(op, kBoth[i]))
      return nonNegative(mlirOperationGetOperand(op, 0), depth + 1) &&
             nonNegative(mlirOperationGetOperand(op, 1), depth + 1);
  return false;
}

/* `arith.cmpi pred, %size, %c` of a size that is never negative against a
 * constant below 0 (a reshape's test for -1), or below or at 0 for slt and
 * sge (a slice bound's test for a negative start), as a constant; false
 * when the comparison is not one of these. */
static bool sizeTestValue(MlirOperation cmp, bool *out) {
  int64_t c, pred = kilnOpGetIntAttr(cmp, "predicate", -1);
  MlirValue l = mlirOperationGetOperand(cmp, 0),
            r = mlirOperationGetOperand(cmp, 1);
  if (!kilnConstantIndexValue(r, &c) || !nonNegative(l, 0))
    return false;
  if (c < 0 && (pred == kEq || pred == kNe || pred == kSlt || pred == kSle ||
                pred == kSgt || pred == kSge))
    return *out = pred == kNe || pred == kSgt || pred == kSge, true;
  if (c == 0 && (pred == kSlt || pred == kSge))
    return *out = pred == kSge, true;
  return false;
}

/* Folds the comparisons sizeTestValue decides (the canonicalizer then
 * folds the selects they feed). */
static void foldSizeTests(MlirOperation func) {
  KilnOpList tests = {0};
  kilnOpListCollectNamed(&tests, func, "arith.cmpi", MlirWalkPreOrder);
  for (size_t i = 0; i < tests.len; ++i) {
    MlirOperation cmp = tests.data[i];
    bool value;
    if (!sizeTestValue(cmp, &value))
      continue;
    KilnBuilder b = {mlirOperationGetContext(cmp),
                     mlirOperationGetLocation(cmp), mlirOperationGetBlock(cmp),
                     cmp};
    MlirValue c = kilnConstInt(&b, mlirIntegerTypeGet(b.ctx, 1), value);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(cmp, 0), c);
  }
  kilnOpListDestroy(&tests);
}

/* Numpy's size `a == 1 ? b : a` as the dim it always is (file comment). */
static void unifyBroadcastSizes(MlirOperation func) {
  KilnOpList selects = {0};
  mlirOperationWalk(func, collectSelects, &selects, MlirWalkPreOrder);
  for (size_t i = 0; i < selects.len; ++i) {
    MlirOperation select = selects.data[i];
    MlirValue a;
    if (!isBroadcastSize(select, &a))
      continue;
    MlirValue other = mlirOperationGetOperand(select, 1);
    int64_t v;
    if (valueWhenOne(other, a, 0, &v) && v == 1)
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(select, 0), a);
    else if (valueWhenOne(a, other, 0, &v) && v == 1)
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(select, 0), other);
  }
  kilnOpListDestroy(&selects);
}

/* ---- Stretches that cannot happen ------------------------------------------
 *
 * A dynamic operand dim d broadcast to the result's size s is asserted to
 * be s or 1 (kilnBroadcastDynamicOnes, conversions/graph-to-linalg/
 * build.c), and read through an scf.if whose other branch stretches a 1:
 *
 *   %eq = arith.cmpi eq, %d, %s
 *   %one = arith.cmpi eq, %d, %c1
 *   cf.assert (arith.ori %eq, %one)
 *   %x = scf.if %eq { x } else { x with its 1s stretched to s }
 *
 * Where d is 1 only when s is (d is s clamped to a table's length,
 * max(min(s, 256), 0): a causal mask or position table sliced to the
 * sequence), the assert leaves d == s: the test is true and d is s
 * everywhere but in the assert, which keeps its check (that the sequence
 * fits the table) for the shape function to run before every run. */

/* Whether `v` == 1 implies `x` == 1: v is always one of its leaves
 * through selects, minima, maxima and casts, and every leaf is x, a
 * constant other than 1, or a constant not above 0 minus a size (never 1:
 * a range's length negated). */
static bool oneOnlyWith(MlirValue v, MlirValue x, int depth) {
  int64_t c;
  if (mlirValueEqual(v, x))
    return true;
  if (kilnConstantIndexValue(v, &c))
    return c != 1;
  if (depth >= kMaxDepth || !mlirValueIsAOpResult(v))
    return false;
  MlirOperation op = mlirOpResultGetOwner(v);
  if (kilnOpNameIs(op, "arith.subi"))
    return kilnConstantIndexValue(mlirOperationGetOperand(op, 0), &c) &&
           c <= 0 && nonNegative(mlirOperationGetOperand(op, 1), depth + 1);
  if (kilnOpNameIs(op, "arith.index_cast") || kilnOpNameIs(op, "arith.extsi"))
    return oneOnlyWith(mlirOperationGetOperand(op, 0), x, depth + 1);
  intptr_t first;
  if (kilnOpNameIs(op, "arith.select"))
    first = 1;
  else if (kilnOpNameIs(op, "arith.maxsi") || kilnOpNameIs(op, "arith.minsi") ||
           kilnOpNameIs(op, "arith.maxui") || kilnOpNameIs(op, "arith.minui"))
    first = 0;
  else
    return false;
  return oneOnlyWith(mlirOperationGetOperand(op, first), x, depth + 1) &&
         oneOnlyWith(mlirOperationGetOperand(op, first + 1), x, depth + 1);
}

/* Replaces every use of `from` by `to` but those by the ops in `keep`
 * (null ops skipped) and those `to` does not dominate (in the same block,
 * before `to`'s definition). */
static void replaceUsesExcept(MlirValue from, MlirValue to,
                              const MlirOperation *keep, int nKeep) {
  MlirOperation def = mlirValueIsAOpResult(to) ? mlirOpResultGetOwner(to)
                                               : (MlirOperation){NULL};
  KilnOpList users = {0};
  kilnOpListCollectUsers(&users, from);
  for (size_t i = 0; i < users.len; ++i) {
    MlirOperation user = users.data[i];
    bool kept = false;
    for (int k = 0; k < nKeep; ++k)
      kept |=
          !mlirOperationIsNull(keep[k]) && mlirOperationEqual(user, keep[k]);
    /* The user, or the op holding it, in def's block. */
    MlirOperation at = user;
    while (
        !mlirOperationIsNull(def) && !mlirOperationIsNull(at) &&
        !mlirBlockEqual(mlirOperationGetBlock(at), mlirOperationGetBlock(def)))
      at = mlirOperationGetParentOperation(at);
    if (kept || (!mlirOperationIsNull(def) &&
                 (mlirOperationIsNull(at) || mlirOperationEqual(at, def) ||
                  !mlirOperationIsBeforeInBlock(def, at))))
      continue;
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(user); ++k)
      if (mlirValueEqual(mlirOperationGetOperand(user, k), from))
        mlirOperationSetOperand(user, k, to);
  }
  kilnOpListDestroy(&users);
}

/* The asserts of the function's entry block of the form above whose d is
 * 1 only when s is: d becomes s, the test true (file comment). */
static void dropImpossibleStretches(MlirOperation func) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(func, 0));
  if (mlirBlockIsNull(entry)) /* a declaration */
    return;
  KilnOpList asserts = {0};
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op))
    if (kilnOpNameIs(op, "cf.assert"))
      kilnOpListPush(&asserts, op);
  for (size_t i = 0; i < asserts.len; ++i) {
    MlirValue cond = mlirOperationGetOperand(asserts.data[i], 0);
    if (!mlirValueIsAOpResult(cond) ||
        !kilnOpNameIs(mlirOpResultGetOwner(cond), "arith.ori"))
      continue;
    MlirOperation ori = mlirOpResultGetOwner(cond);
    for (intptr_t k = 0; k < 2; ++k) {
      MlirValue eq = mlirOperationGetOperand(ori, k),
                one = mlirOperationGetOperand(ori, 1 - k);
      MlirValue d, s, d1, c1;
      int64_t c;
      if (!isEquality(eq, &d, &s) || !isEquality(one, &d1, &c1) ||
          !mlirValueEqual(d, d1) || !kilnConstantIndexValue(c1, &c) || c != 1 ||
          mlirValueEqual(d, s) || !oneOnlyWith(d, s, 0))
        continue;
      MlirOperation eqOp = mlirOpResultGetOwner(eq),
                    oneOp = mlirOpResultGetOwner(one);
      KilnBuilder b = {
          mlirOperationGetContext(func), mlirOperationGetLocation(eqOp),
          mlirOperationGetBlock(eqOp), mlirOperationGetNextInBlock(eqOp)};
      MlirValue yes = kilnConstInt(&b, mlirIntegerTypeGet(b.ctx, 1), 1);
      MlirOperation keepEq[1] = {ori};
      replaceUsesExcept(eq, yes, keepEq, 1);
      MlirOperation keepD[2] = {eqOp, oneOp};
      replaceUsesExcept(d, s, keepD, 2);
      break;
    }
  }
  kilnOpListDestroy(&asserts);
}

/* ---- Whole slices ------------------------------------------------------- */

/* Whether `slice` (tensor.extract_slice) takes all of its source: offsets
 * 0, strides 1, each size the source's dim, the same type. Numpy's
 * broadcasting slices every operand to the broadcast's size; once the
 * sizes are unified these slices are whole, and they sit between the
 * elementwise ops that linalg-fuse-elementwise-ops would otherwise fuse. */
static bool isWholeSlice(MlirOperation slice) {
  MlirValue src = mlirOperationGetOperand(slice, 0);
  MlirType t = mlirValueGetType(src);
  if (!mlirTypeEqual(t, mlirValueGetType(mlirOperationGetResult(slice, 0))))
    return false;
  MlirAttribute offsets =
      mlirOperationGetAttributeByName(slice, kilnStr("static_offsets"));
  MlirAttribute sizes =
      mlirOperationGetAttributeByName(slice, kilnStr("static_sizes"));
  MlirAttribute strides =
      mlirOperationGetAttributeByName(slice, kilnStr("static_strides"));
  intptr_t r = mlirShapedTypeGetRank(t);
  if (mlirAttributeIsNull(offsets) || mlirAttributeIsNull(sizes) ||
      mlirAttributeIsNull(strides) || mlirDenseArrayGetNumElements(sizes) != r)
    return false;
  MlirValue result = mlirOperationGetResult(slice, 0);
  for (intptr_t i = 0; i < r; ++i) {
    if (mlirDenseI64ArrayGetElement(offsets, i) != 0 ||
        mlirDenseI64ArrayGetElement(strides, i) != 1)
      return false;
    int64_t size = mlirDenseI64ArrayGetElement(sizes, i);
    if (mlirShapedTypeIsDynamicSize(size)
            ? !kilnIsDimOf(kilnNamedDim(result, i), src, i)
            : size != mlirShapedTypeGetDimSize(t, i))
      return false;
  }
  return true;
}

/* Replaces whole slices by their sources (the canonicalizer erases them). */
static void dropWholeSlices(MlirOperation func) {
  KilnOpList slices = {0};
  kilnOpListCollectNamed(&slices, func, "tensor.extract_slice",
                         MlirWalkPreOrder);
  for (size_t i = 0; i < slices.len; ++i)
    if (isWholeSlice(slices.data[i]))
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(slices.data[i], 0),
                                    mlirOperationGetOperand(slices.data[i], 0));
  kilnOpListDestroy(&slices);
}

/* ---- Named input dims ---------------------------------------------------- */

/* The string attribute `name` of argument `i`'s attribute dictionary. */
static MlirAttribute argAttr(MlirOperation func, intptr_t i, const char *name) {
  MlirAttribute all =
      mlirOperationGetAttributeByName(func, kilnStr("arg_attrs"));
  if (mlirAttributeIsNull(all) || !mlirAttributeIsAArray(all) ||
      i >= mlirArrayAttrGetNumElements(all))
    return (MlirAttribute){NULL};
  MlirAttribute dict = mlirArrayAttrGetElement(all, i);
  return mlirAttributeIsADictionary(dict)
             ? mlirDictionaryAttrGetElementByName(dict, kilnStr(name))
             : (MlirAttribute){NULL};
}

/* The ONNX name of dim `d` of argument `i` (empty when unnamed). */
static MlirStringRef dimName(MlirOperation func, intptr_t i, intptr_t d) {
  MlirAttribute names = argAttr(func, i, "onnx.dim_names");
  if (mlirAttributeIsNull(names) || !mlirAttributeIsAArray(names) ||
      d >= mlirArrayAttrGetNumElements(names) ||
      !mlirAttributeIsAString(mlirArrayAttrGetElement(names, d)))
    return mlirStringRefCreate(NULL, 0);
  return mlirStringAttrGetValue(mlirArrayAttrGetElement(names, d));
}

static MlirStringRef argName(MlirOperation func, intptr_t i) {
  MlirAttribute name = argAttr(func, i, "onnx.name");
  return !mlirAttributeIsNull(name) && mlirAttributeIsAString(name)
             ? mlirStringAttrGetValue(name)
             : kilnStr("?");
}

/* `tensor.dim %tensor, d`. */
static MlirValue buildDim(KilnBuilder *b, MlirValue tensor, int64_t d) {
  MlirValue ops[2] = {tensor, kilnConstIndex(b, d)};
  return kilnBuildOp1(b, "tensor.dim", mlirIndexTypeGet(b->ctx), 2, ops, 0,
                      NULL);
}

typedef struct DimUses {
  MlirValue arg;
  int64_t dim;
  KilnOpList ops; /* the tensor.dim ops reading it */
} DimUses;

static MlirWalkResult collectArgDims(MlirOperation op, void *userData) {
  DimUses *u = userData;
  int64_t d;
  if (kilnOpNameIs(op, "tensor.dim") &&
      mlirValueEqual(mlirOperationGetOperand(op, 0), u->arg) &&
      kilnConstantIndexValue(mlirOperationGetOperand(op, 1), &d) && d == u->dim)
    kilnOpListPush(&u->ops, op);
  return MlirWalkResultAdvance;
}

/* Every `tensor.dim` of argument `i`'s dim `d` becomes `canonical`, after
 * an assert at the entry that they are equal. */
static void unifyArgDim(MlirOperation func, MlirBlock entry, intptr_t i,
                        intptr_t d, intptr_t j, intptr_t e,
                        MlirValue canonical) {
  DimUses u = {mlirBlockGetArgument(entry, i), d, {0}};
  mlirOperationWalk(func, collectArgDims, &u, MlirWalkPreOrder);
  if (u.ops.len) {
    MlirContext ctx = mlirOperationGetContext(func);
    /* After `canonical`, which the assert reads. */
    KilnBuilder b = {
        ctx, mlirOperationGetLocation(func), entry,
        mlirOperationGetNextInBlock(mlirOpResultGetOwner(canonical))};
    MlirValue own = buildDim(&b, u.arg, d);
    MlirStringRef name = dimName(func, i, d), a = argName(func, i),
                  c = argName(func, j);
    KilnStrBuf msg = {0};
    kilnStrBufAppendf(&msg,
                      "input '%.*s' dim %ld ('%.*s') differs from input "
                      "'%.*s' dim %ld, which shares its name",
                      (int)a.length, a.data, (long)d, (int)name.length,
                      name.data, (int)c.length, c.data, (long)e);
    MlirValue eq = kilnCmpI(&b, "eq", own, canonical);
    MlirNamedAttribute attr = kilnNamedAttr(
        ctx, "msg",
        mlirStringAttrGet(ctx,
                          mlirStringRefCreate(kilnStrBufGet(&msg), msg.len)));
    kilnBuildOp(&b, "cf.assert", 0, NULL, 1, &eq, 1, &attr);
    kilnStrBufDestroy(&msg);
    for (size_t k = 0; k < u.ops.len; ++k)
      mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(u.ops.data[k], 0),
                                    canonical);
  }
  kilnOpListDestroy(&u.ops);
}

/* The first named dynamic dim of each name stands for the later ones. */
static void unifyNamedDims(MlirOperation func) {
  MlirRegion body = mlirOperationGetRegion(func, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry) ||
      mlirAttributeIsNull(
          mlirOperationGetAttributeByName(func, kilnStr("arg_attrs"))))
    return;
  intptr_t n = mlirBlockGetNumArguments(entry);
  for (intptr_t i = 1; i < n; ++i) {
    MlirType t = mlirValueGetType(mlirBlockGetArgument(entry, i));
    if (!mlirTypeIsARankedTensor(t))
      continue;
    for (intptr_t d = 0; d < mlirShapedTypeGetRank(t); ++d) {
      MlirStringRef name = dimName(func, i, d);
      if (!name.length || !mlirShapedTypeIsDynamicDim(t, d))
        continue;
      bool done = false;
      for (intptr_t j = 0; j < i && !done; ++j) {
        MlirType tj = mlirValueGetType(mlirBlockGetArgument(entry, j));
        if (!mlirTypeIsARankedTensor(tj))
          continue;
        for (intptr_t e = 0; e < mlirShapedTypeGetRank(tj) && !done; ++e) {
          MlirStringRef other = dimName(func, j, e);
          if (!mlirShapedTypeIsDynamicDim(tj, e) ||
              !mlirStringRefEqual(name, other))
            continue;
          KilnBuilder b = {mlirOperationGetContext(func),
                           mlirOperationGetLocation(func), entry,
                           mlirBlockGetFirstOperation(entry)};
          unifyArgDim(func, entry, i, d, j, e,
                      buildDim(&b, mlirBlockGetArgument(entry, j), e));
          done = true;
        }
      }
    }
  }
}

/* ---- The pass ------------------------------------------------------------ */

static void runUnifyDims(MlirOperation func, MlirExternalPass pass,
                         const KilnPassOptionValue *options) {
  (void)pass;
  (void)options;
  unifyNamedDims(func);
  foldSizeTests(func);
  unifyBroadcastSizes(func);
  dropImpossibleStretches(func);
  dropWholeSlices(func);
}

static const KilnDialectHandleGetter kDependentDialects[] = {
    mlirGetDialectHandle__cf__,
    mlirGetDialectHandle__tensor__,
};

const KilnPassInfo kilnUnifyDimsPass = {
    .argument = "kiln-unify-dims",
    .summary = "Make dims the model makes equal one value: input dims that "
               "share an ONNX name, a broadcast's size that is always its "
               "first operand's; drop slices that take all of their source",
    .anchor = "func.func",
    .run = runUnifyDims,
    .dependentDialects = kDependentDialects,
    .numDependentDialects =
        sizeof(kDependentDialects) / sizeof(kDependentDialects[0]),
};

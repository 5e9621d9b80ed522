/* graph-layout: runs 2-D convolutions channels-last where that is faster
 * on CPU, and cancels the layout changes between neighbouring ops
 * (docs/graph-layout.md).
 *
 * A channels-first conv lowers to an im2col contraction whose vectorized
 * dim is OH*OW; in late stages (7x7, 14x14) that dim is short and mostly
 * peeled remainders while the channel count M is large. The channels-last
 * conv (graph.conv layout = "channels_last") vectorizes over M instead.
 *
 * Rewrites, in order:
 *  1. switch: a chosen conv(x, w, b) becomes
 *     transpose(conv_cl(transpose(x), w'), NHWC -> NCHW), where w' is w in
 *     KH x KW x C x M order: transposed here, at compile time, when w is a
 *     graph.constant (else a graph.transpose, which the lowering runs);
 *  2. sink: an elementwise op whose tensor operands are transposes with
 *     one perm (and scalars) is applied before the transpose instead, so
 *     the transpose after a switched conv moves past its relu, clip or
 *     residual add;
 *  3. cancel: a transpose of a transpose becomes one transpose, or none
 *     when the perms compose to the identity.
 * Sinking and cancelling run to a fixed point, so a chain of switched convs
 * with elementwise ops between them stays channels-last with transposes
 * only where the chain meets other ops. */
#include "kiln/passes.h"

#include <stdlib.h>
#include <string.h>

#include "dialects/graph/fold_tensor.h"
#include "dialects/graph/transforms/dce.h"
#include "dialects/graph/transforms/simplify.h"
#include "kiln/diagnostics.h"
#include "kiln/graph_builder.h"
#include "kiln/graph_tensor.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/op_list.h"

enum {
  OPT_CONVS,
  OPT_MAX_SPATIAL,
  OPT_MAX_KERNEL,
  OPT_MIN_CHANNELS,
  OPT_DEPTHWISE,
  NUM_OPTIONS
};

enum { kModeAuto, kModeAll, kModeNone };

typedef struct Layout {
  int mode;
  int64_t maxSpatial, maxKernel, minChannels;
  bool depthwise;  /* option: depthwise convs are candidates too */
  KilnOpList dead; /* ops that lost a use: erased at the end if unused */
} Layout;

/* NCHW -> NHWC, NHWC -> NCHW, and the weight M x C x KH x KW -> KH x KW x
 * C x M. */
static const int64_t kToLast[4] = {0, 2, 3, 1}, kToFirst[4] = {0, 3, 1, 2},
                     kWeightToLast[4] = {2, 3, 1, 0};

static int64_t dimOf(MlirValue v, intptr_t i) {
  return mlirShapedTypeGetDimSize(mlirValueGetType(v), i);
}

/* `t` with its dims permuted: result dim i is t's dim perm[i]. */
static MlirType permuted(MlirType t, const int64_t *perm, intptr_t rank) {
  int64_t shape[16];
  for (intptr_t i = 0; i < rank; ++i)
    shape[i] = mlirShapedTypeGetDimSize(t, perm[i]);
  return mlirRankedTensorTypeGet(rank, shape, mlirShapedTypeGetElementType(t),
                                 mlirAttributeGetNull());
}

static KilnGraphBuilder *builderBefore(MlirOperation op) {
  KilnGraphBuilder *b = kilnGraphBuilderCreate(mlirOperationGetContext(op),
                                               mlirOperationGetBlock(op),
                                               mlirOperationGetLocation(op));
  kilnGraphBuilderSetInsertionPointBefore(b, op);
  return b;
}

/* ---- 1. switching convs --------------------------------------------------
 */

/* Whether `conv` is depthwise: one group per channel, one filter each. */
static bool isDepthwise(MlirOperation conv, int64_t group) {
  MlirValue x = mlirOperationGetOperand(conv, 0);
  MlirValue w = mlirOperationGetOperand(conv, 1);
  return group > 1 && dimOf(x, 1) == group && dimOf(w, 0) == group &&
         dimOf(w, 1) == 1;
}

static int64_t groupOf(MlirOperation conv) {
  MlirAttribute group = mlirOperationGetAttributeByName(conv, kilnStr("group"));
  if (mlirAttributeIsNull(group))
    return 1;
  return mlirAttributeIsAInteger(group) ? mlirIntegerAttrGetValueInt(group) : 0;
}

/* A conv the channels-last lowering serves well: 2-D, static float
 * shapes, channels-first, one group (an NHWC im2col contraction) or
 * depthwise (per-tap updates vectorized over channels). */
static bool isCandidate(const Layout *s, MlirOperation conv) {
  if (!kilnSimplifyIsOp(conv, "conv") || mlirOperationGetNumResults(conv) != 1)
    return false;
  MlirAttribute layout =
      mlirOperationGetAttributeByName(conv, kilnStr("layout"));
  if (!mlirAttributeIsNull(layout) &&
      (!mlirAttributeIsAString(layout) ||
       !kilnStringRefEquals(mlirStringAttrGetValue(layout), "channels_first")))
    return false;
  MlirType x = mlirValueGetType(mlirOperationGetOperand(conv, 0));
  MlirType w = mlirValueGetType(mlirOperationGetOperand(conv, 1));
  MlirType y = mlirValueGetType(mlirOperationGetResult(conv, 0));
  if (!kilnSimplifyIsStatic(x) || !kilnSimplifyIsStatic(w) ||
      !kilnSimplifyIsStatic(y) || mlirShapedTypeGetRank(x) != 4 ||
      mlirShapedTypeGetRank(w) != 4 ||
      !mlirTypeIsAFloat(mlirShapedTypeGetElementType(x)))
    return false;
  int64_t group = groupOf(conv);
  return group == 1 || (s->depthwise && isDepthwise(conv, group));
}

/* The cost rule, from timing both layouts on the bench models' conv
 * shapes (docs/graph-layout.md): channels-last wins for 1x1 kernels
 * (10-30% faster) and for depthwise convs (vectorized over channels
 * instead of scalar loops over kernel taps), and loses for 3x3 group-1
 * kernels, whose K x M weight matrix streams through the cache once per
 * row of output tiles; M must fill vectors. */
static bool shouldSwitch(const Layout *s, MlirOperation conv) {
  if (s->mode == kModeNone || !isCandidate(s, conv))
    return false;
  if (s->mode == kModeAll)
    return true;
  MlirValue y = mlirOperationGetResult(conv, 0);
  MlirValue w = mlirOperationGetOperand(conv, 1);
  bool depthwise = groupOf(conv) > 1;
  return dimOf(y, 2) * dimOf(y, 3) <= s->maxSpatial &&
         (depthwise || dimOf(w, 2) * dimOf(w, 3) <= s->maxKernel) &&
         dimOf(y, 1) >= s->minChannels;
}

/* w (M x C x KH x KW) as KH x KW x C x M: a new constant when w is a
 * readable graph.constant, else a graph.transpose. */
static MlirValue weightToLast(KilnGraphBuilder *b, MlirValue w) {
  KilnFoldTensor in, out;
  MlirType type = permuted(mlirValueGetType(w), kWeightToLast, 4);
  MlirAttribute value = kilnFoldConstantValue(w);
  if (mlirAttributeIsNull(value) || !kilnFoldTensorRead(value, INTPTR_MAX, &in))
    return kilnGraphBuildTranspose(b, w, kWeightToLast, 4);
  if (!kilnFoldTensorCreate(type, INTPTR_MAX, &out)) {
    kilnFoldTensorDestroy(&in);
    return kilnGraphBuildTranspose(b, w, kWeightToLast, 4);
  }
  int64_t m = in.shape[0], c = in.shape[1], kh = in.shape[2], kw = in.shape[3];
  for (int64_t o = 0; o < m; ++o)
    for (int64_t i = 0; i < c; ++i)
      for (int64_t y = 0; y < kh; ++y)
        for (int64_t x = 0; x < kw; ++x)
          out.data[((y * kw + x) * c + i) * m + o] =
              in.data[((o * c + i) * kh + y) * kw + x];
  MlirValue result = kilnGraphBuildConstant(b, kilnFoldTensorToAttr(&out));
  kilnFoldTensorDestroy(&in);
  kilnFoldTensorDestroy(&out);
  return result;
}

/* Records the op defining `v` as possibly dead. */
static void noteUseLost(Layout *s, MlirValue v) {
  if (mlirValueIsAOpResult(v))
    kilnOpListPush(&s->dead, mlirOpResultGetOwner(v));
}

/* Replaces conv by transpose(conv_cl(transpose(x), w')). The conv is
 * cloned, so its other attributes and the bias stay as they are. */
static bool switchConv(Layout *s, MlirOperation conv) {
  MlirValue x = mlirOperationGetOperand(conv, 0);
  MlirValue w = mlirOperationGetOperand(conv, 1);
  MlirValue y = mlirOperationGetResult(conv, 0);
  KilnGraphBuilder *b = builderBefore(conv);
  MlirValue xl = kilnGraphBuildTranspose(b, x, kToLast, 4);
  MlirValue wl = weightToLast(b, w);
  if (mlirValueIsNull(xl) || mlirValueIsNull(wl)) {
    kilnGraphBuilderDestroy(b);
    return false;
  }
  MlirOperation clone = mlirOperationClone(conv);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(conv), conv, clone);
  mlirOperationSetOperand(clone, 0, xl);
  mlirOperationSetOperand(clone, 1, wl);
  MlirContext ctx = mlirOperationGetContext(conv);
  mlirOperationSetAttributeByName(
      clone, kilnStr("layout"),
      mlirStringAttrGet(ctx, kilnStr("channels_last")));
  MlirValue yl = mlirOperationGetResult(clone, 0);
  mlirValueSetType(yl, permuted(mlirValueGetType(y), kToLast, 4));
  MlirValue back = kilnGraphBuildTranspose(b, yl, kToFirst, 4);
  kilnGraphBuilderDestroy(b);
  if (mlirValueIsNull(back))
    return false;
  mlirValueReplaceAllUsesOfWith(y, back);
  kilnOpListPush(&s->dead, conv);
  noteUseLost(s, w);
  return true;
}

/* ---- 2. and 3. moving and cancelling transposes ---------------------------
 */

/* Reads a graph.transpose's perm (rank <= 16); -1 when it has none (this
 * pass leaves perm-less transposes alone) or an unusual one. */
static intptr_t readPerm(MlirOperation t, int64_t *p) {
  if (mlirAttributeIsNull(mlirOperationGetAttributeByName(t, kilnStr("perm"))))
    return -1;
  return kilnSimplifyReadPerm(t, p);
}

/* transpose(transpose(x, q), p) -> transpose(x, q o p), or x itself. */
static bool cancelPair(Layout *s, MlirOperation op) {
  int64_t p[16], q[16], c[16];
  intptr_t rank = readPerm(op, p);
  MlirOperation inner =
      kilnSimplifyDef(mlirOperationGetOperand(op, 0), "transpose");
  if (rank < 0 || mlirOperationIsNull(inner) || readPerm(inner, q) != rank)
    return false;
  bool identity = true;
  for (intptr_t i = 0; i < rank; ++i) {
    c[i] = q[p[i]];
    identity = identity && c[i] == i;
  }
  MlirValue x = mlirOperationGetOperand(inner, 0);
  MlirValue r = mlirOperationGetResult(op, 0);
  if (!identity) {
    KilnGraphBuilder *b = builderBefore(op);
    x = kilnGraphBuildTranspose(b, x, c, rank);
    kilnGraphBuilderDestroy(b);
  }
  if (mlirValueIsNull(x) ||
      !mlirTypeEqual(mlirValueGetType(x), mlirValueGetType(r)))
    return false;
  mlirValueReplaceAllUsesOfWith(r, x);
  kilnOpListPush(&s->dead, op);
  return true;
}

/* Elementwise ops with one result whose value at an index depends only on
 * the operands at that index (after broadcasting). */
static bool isElementwise(MlirOperation op) {
  static const char *const kNames[] = {
      "add",  "sub",          "mul",      "div",        "pow",
      "neg",  "abs",          "sqrt",     "reciprocal", "exp",
      "log",  "tanh",         "sigmoid",  "relu",       "leaky_relu",
      "elu",  "hard_sigmoid", "clip",     "erf",        "floor",
      "ceil", "round",        "min",      "max",        "sign",
      "selu", "softplus",     "softsign", "celu",       "hard_swish",
      "mish", "gelu",         "identity", "cast",       NULL};
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length < 7 || memcmp(name.data, "graph.", 6) != 0 ||
      mlirOperationGetNumResults(op) != 1 ||
      mlirOperationGetNumRegions(op) != 0)
    return false;
  MlirStringRef bare = {name.data + 6, name.length - 6};
  for (int i = 0; kNames[i]; ++i)
    if (kilnStringRefEquals(bare, kNames[i]))
      return true;
  return false;
}

/* A tensor of at most one element: it broadcasts the same way in any
 * layout. */
static bool isScalarLike(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return kilnSimplifyIsStatic(t) && mlirShapedTypeGetRank(t) <= 1 &&
         (mlirShapedTypeGetRank(t) == 0 || mlirShapedTypeGetDimSize(t, 0) == 1);
}

/* The perm that the tensor operands of elementwise `op` share as
 * transposes, all of `op`'s result type; scalar-like operands may sit
 * among them. Returns the rank, or -1. */
static intptr_t sharedPerm(MlirOperation op, int64_t *perm) {
  MlirType rt = mlirValueGetType(mlirOperationGetResult(op, 0));
  intptr_t rank = -1;
  int64_t p[16];
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirOperation t = kilnSimplifyDef(v, "transpose");
    if (mlirOperationIsNull(t)) {
      if (!isScalarLike(v))
        return -1;
      continue;
    }
    intptr_t r = readPerm(t, p);
    if (r < 0 || !kilnSimplifyIsStatic(mlirValueGetType(v)) ||
        !mlirShapedTypeHasStaticShape(rt) || mlirShapedTypeGetRank(rt) != r ||
        mlirShapedTypeGetRank(mlirValueGetType(v)) != r)
      return -1;
    for (intptr_t d = 0; d < r; ++d)
      if (mlirShapedTypeGetDimSize(rt, d) !=
          mlirShapedTypeGetDimSize(mlirValueGetType(v), d))
        return -1;
    if (rank >= 0 && (r != rank || memcmp(p, perm, r * sizeof(*p))))
      return -1;
    rank = r;
    memcpy(perm, p, r * sizeof(*p));
  }
  return rank;
}

/* op(transpose(a, p), transpose(b, p), scalars) ->
 * transpose(op(a, b, scalars), p). The op is cloned (its attributes and
 * optional operands kept) and given the un-transposed shape. */
static bool sink(Layout *s, MlirOperation op) {
  int64_t perm[16], inverse[16];
  if (!isElementwise(op))
    return false;
  intptr_t rank = sharedPerm(op, perm);
  if (rank < 0)
    return false;
  for (intptr_t i = 0; i < rank; ++i)
    inverse[perm[i]] = i;
  MlirOperation clone = mlirOperationClone(op);
  mlirBlockInsertOwnedOperationBefore(mlirOperationGetBlock(op), op, clone);
  for (intptr_t i = 0; i < mlirOperationGetNumOperands(op); ++i) {
    MlirValue v = mlirOperationGetOperand(op, i);
    MlirOperation t = kilnSimplifyDef(v, "transpose");
    if (!mlirOperationIsNull(t)) {
      mlirOperationSetOperand(clone, i, mlirOperationGetOperand(t, 0));
      kilnOpListPush(&s->dead, t);
    }
  }
  MlirValue r = mlirOperationGetResult(op, 0);
  MlirValue cr = mlirOperationGetResult(clone, 0);
  mlirValueSetType(cr, permuted(mlirValueGetType(r), inverse, rank));
  KilnGraphBuilder *b = builderBefore(op);
  MlirValue back = kilnGraphBuildTranspose(b, cr, perm, rank);
  kilnGraphBuilderDestroy(b);
  if (mlirValueIsNull(back) ||
      !mlirTypeEqual(mlirValueGetType(back), mlirValueGetType(r))) {
    /* Cannot happen for a verified graph; undo rather than miscompile. */
    if (!mlirValueIsNull(back))
      mlirOperationDestroy(mlirOpResultGetOwner(back));
    mlirOperationDestroy(clone);
    return false;
  }
  mlirValueReplaceAllUsesOfWith(r, back);
  kilnOpListPush(&s->dead, op);
  return true;
}

/* ---- driver --------------------------------------------------------------
 */

static bool isUsed(MlirOperation op) {
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    if (!mlirOpOperandIsNull(
            mlirValueGetFirstUse(mlirOperationGetResult(op, i))))
      return true;
  return false;
}

static MlirWalkResult collect(MlirOperation op, void *userData) {
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  if (name.length > 6 && memcmp(name.data, "graph.", 6) == 0)
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

/* One forward sweep of sinking and cancelling; ops are only replaced, never
 * erased, during it, so every listed op stays alive. A transpose sunk past
 * an op lands before that op's users, so one sweep carries it down a
 * whole chain. Returns whether anything changed. */
static bool sweep(Layout *s, MlirOperation root) {
  KilnOpList ops = {0};
  mlirOperationWalk(root, collect, &ops, MlirWalkPreOrder);
  bool changed = false;
  for (size_t i = 0; i < ops.len; ++i) {
    MlirOperation op = ops.data[i];
    if (!isUsed(op))
      continue;
    if (kilnSimplifyIsOp(op, "transpose"))
      changed |= cancelPair(s, op);
    else
      changed |= sink(s, op);
  }
  kilnOpListDestroy(&ops);
  return changed;
}

/* Sweeps are bounded: each one sinks transposes or removes them, and a
 * graph has finitely many ops, but a bound keeps a bug from hanging. */
enum { kMaxSweeps = 16 };

static void runLayout(MlirOperation root, MlirExternalPass pass,
                      const KilnPassOptionValue *options) {
  static const char *const kModes[] = {"auto", "all", "none", NULL};
  Layout s = {.mode = -1,
              .maxSpatial = options[OPT_MAX_SPATIAL].i,
              .maxKernel = options[OPT_MAX_KERNEL].i,
              .depthwise = options[OPT_DEPTHWISE].b,
              .minChannels = options[OPT_MIN_CHANNELS].i};
  const char *convs = options[OPT_CONVS].s ? options[OPT_CONVS].s : "";
  for (int i = 0; kModes[i]; ++i)
    if (!strcmp(convs, kModes[i]))
      s.mode = i;
  if (s.mode < 0) {
    kilnEmitErrorf(mlirOperationGetLocation(root),
                   "graph-layout: option 'convs' must be auto, all or none, "
                   "got '%s'",
                   convs);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  const char *negative = s.maxSpatial < 0    ? "max-spatial"
                         : s.maxKernel < 0   ? "max-kernel"
                         : s.minChannels < 0 ? "min-channels"
                                             : NULL;
  if (negative) {
    kilnEmitErrorf(mlirOperationGetLocation(root),
                   "graph-layout: option '%s' must be non-negative, got %lld",
                   negative,
                   (long long)options[s.maxSpatial < 0  ? OPT_MAX_SPATIAL
                                      : s.maxKernel < 0 ? OPT_MAX_KERNEL
                                                        : OPT_MIN_CHANNELS]
                       .i);
    mlirExternalPassSignalFailure(pass);
    return;
  }
  KilnOpList convOps = {0};
  mlirOperationWalk(root, collect, &convOps, MlirWalkPreOrder);
  for (size_t i = 0; i < convOps.len; ++i)
    if (shouldSwitch(&s, convOps.data[i]))
      switchConv(&s, convOps.data[i]);
  kilnOpListDestroy(&convOps);
  for (int i = 0; i < kMaxSweeps && sweep(&s, root); ++i)
    ;
  kilnGraphDCEEraseUnused(&s.dead);
  kilnOpListDestroy(&s.dead);
}

static const KilnPassOptionSpec kOptions[NUM_OPTIONS] = {
    [OPT_CONVS] = {"convs", KILN_PASS_OPTION_STRING, "auto",
                   "Which convs run channels-last: auto (the cost rule: "
                   "max-spatial, min-channels), all (every 2-D single-group "
                   "conv with static shapes) or none"},
    [OPT_MAX_SPATIAL] = {"max-spatial", KILN_PASS_OPTION_INT, "1073741824",
                         "auto: switch a conv whose output plane OH*OW has "
                         "at most this many elements"},
    [OPT_MAX_KERNEL] = {"max-kernel", KILN_PASS_OPTION_INT, "1",
                        "auto: ... and, unless depthwise, whose kernel "
                        "KH*KW has at most this many taps"},
    [OPT_MIN_CHANNELS] = {"min-channels", KILN_PASS_OPTION_INT, "16",
                          "auto: ... and at least this many output "
                          "channels"},
    [OPT_DEPTHWISE] = {"depthwise", KILN_PASS_OPTION_BOOL, "true",
                       "Depthwise convs are candidates too (channels-last "
                       "they vectorize over channels)"},
};

const KilnPassInfo kilnGraphLayoutPass = {
    .argument = "graph-layout",
    .summary = "Run 2-D convs channels-last where faster on CPU and cancel "
               "the transposes between neighbouring ops",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = NUM_OPTIONS,
    .run = runLayout,
    .pipeline = NULL,
};

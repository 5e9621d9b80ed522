/* graph-fold-batchnorm: folds inference-form batch normalization into the
 * weights and bias of the conv (or gemm, or 2-D matmul) before it.
 *
 *   y = (z - mean) / sqrt(var + eps) * scale + B,  z = conv(x, W, b)
 *     = conv(x, W * s, (b - mean) * s + B)          s = scale / sqrt(var+eps)
 *
 * with s and the new bias per output channel (axis 1 of z). Conditions:
 * the batch_norm has one result and training_mode 0; scale, B, mean and
 * var are graph.constant vectors of z's channel count; W (and b when
 * present) are graph.constant; z has no other use; all share one float
 * element type. For gemm (y = alpha * A * B' + beta * C) the channels are
 * the columns of the 2-D result: B' is scaled per column (transB honoured)
 * and C becomes the per-column vector (beta * C - mean) * s + B with
 * beta = 1; C must be absent, a scalar or a per-column vector. A 2-D
 * matmul with a constant B becomes such a gemm.
 *
 * With standalone=true, a batch_norm not preceded by a foldable op but
 * with constant parameters becomes x * s + t (graph.mul, graph.add) with
 * t = B - mean * s, both [C, 1, ..., 1] constants.
 *
 * New parameters are computed in double and rounded once to the element
 * type. The batch_norm and the op folded into it are erased; the old
 * weight constants are left for graph-dce. */
#include "kiln/passes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "dialects/graph/fold_eval.h"
#include "kiln/diagnostics.h"
#include "kiln/graph_builder.h"
#include "kiln/graph_tensor.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "support/op_list.h"

enum { OPT_GEMM, OPT_STANDALONE, NUM_OPTIONS };

/* Weights are read whatever their size: the rewrite replaces them. */
#define NO_LIMIT INTPTR_MAX

typedef struct Channels {
  int64_t c;
  MlirType elt;
  double *s; /* scale / sqrt(var + eps) */
  double *t; /* B - mean * s */
} Channels;

static bool opIs(MlirOperation op, const char *name) {
  return kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(op)), name);
}

static bool hasOneUse(MlirValue v) {
  MlirOpOperand use = mlirValueGetFirstUse(v);
  return !mlirOpOperandIsNull(use) &&
         mlirOpOperandIsNull(mlirOpOperandGetNextUse(use));
}

static void channelsDestroy(Channels *ch) {
  free(ch->s);
  free(ch->t);
}

/* Reads the batch_norm's constant parameters into per-channel s and t. */
static bool readChannels(MlirOperation bn, Channels *ch) {
  memset(ch, 0, sizeof(*ch));
  MlirAttribute training = mlirOperationGetAttributeByName(
      bn, mlirStringRefCreateFromCString("training_mode"));
  if (mlirOperationGetNumResults(bn) != 1 ||
      mlirOperationGetNumOperands(bn) != 5 ||
      (!mlirAttributeIsNull(training) && mlirAttributeIsAInteger(training) &&
       mlirIntegerAttrGetValueInt(training) != 0))
    return false;
  MlirType yt = mlirValueGetType(mlirOperationGetResult(bn, 0));
  if (!mlirTypeIsARankedTensor(yt) || mlirShapedTypeGetRank(yt) < 2 ||
      mlirShapedTypeIsDynamicDim(yt, 1))
    return false;
  ch->c = mlirShapedTypeGetDimSize(yt, 1);
  ch->elt = mlirShapedTypeGetElementType(yt);
  if (mlirTypeIsAInteger(ch->elt))
    return false;
  KilnFoldTensor p[4]; /* scale, B, mean, var */
  memset(p, 0, sizeof(p));
  bool ok = true;
  for (int k = 0; ok && k < 4; ++k) {
    MlirValue v = mlirOperationGetOperand(bn, k + 1);
    ok = kilnFoldTensorRead(kilnFoldConstantValue(v), NO_LIMIT, &p[k]) &&
         p[k].n == ch->c && mlirTypeEqual(p[k].elt, ch->elt);
  }
  if (ok) {
    MlirAttribute e = mlirOperationGetAttributeByName(
        bn, mlirStringRefCreateFromCString("epsilon"));
    double eps = !mlirAttributeIsNull(e) && mlirAttributeIsAFloat(e)
                     ? mlirFloatAttrGetValueDouble(e)
                     : 1e-5;
    size_t bytes = (size_t)(ch->c ? ch->c : 1) * sizeof(double);
    ch->s = malloc(bytes);
    ch->t = malloc(bytes);
    if (!ch->s || !ch->t)
      abort();
    for (int64_t i = 0; i < ch->c; ++i) {
      ch->s[i] = p[0].data[i].f / sqrt(p[3].data[i].f + eps);
      ch->t[i] = p[1].data[i].f - p[2].data[i].f * ch->s[i];
    }
  }
  for (int k = 0; k < 4; ++k)
    kilnFoldTensorDestroy(&p[k]);
  return ok;
}

/* A graph.constant of `t` built before `before`. */
static MlirValue buildConstant(KilnGraphBuilder *b, const KilnFoldTensor *t) {
  return kilnGraphBuildConstant(b, kilnFoldTensorToAttr(t));
}

/* The attributes of `op` except operandSegmentSizes and `drop` (may be
 * NULL), into `out` (capacity `cap`); returns the count. */
static intptr_t copyAttrs(MlirOperation op, const char *drop,
                          MlirNamedAttribute *out, intptr_t cap) {
  intptr_t n = 0;
  for (intptr_t i = 0; i < mlirOperationGetNumAttributes(op) && n < cap; ++i) {
    MlirNamedAttribute a = mlirOperationGetAttribute(op, i);
    MlirStringRef name = mlirIdentifierStr(a.name);
    if (kilnStringRefEquals(name, "operandSegmentSizes") ||
        (drop && kilnStringRefEquals(name, drop)))
      continue;
    out[n++] = a;
  }
  return n;
}

/* The per-channel bias vector [C] of type elt: bias0[c] * s + t, where
 * bias0 is `scaled` * the constant `bias` (a scalar or [C]), or 0. */
static bool newBias(const Channels *ch, MlirValue bias, double scaled,
                    KilnFoldTensor *out) {
  int64_t shape[1] = {ch->c};
  MlirType type =
      mlirRankedTensorTypeGet(1, shape, ch->elt, mlirAttributeGetNull());
  KilnFoldTensor old = {0};
  if (!mlirValueIsNull(bias)) {
    if (!kilnFoldTensorRead(kilnFoldConstantValue(bias), NO_LIMIT, &old) ||
        !mlirTypeEqual(old.elt, ch->elt) ||
        (old.n != 1 && (old.n != ch->c || old.rank < 1 ||
                        old.shape[old.rank - 1] != ch->c))) {
      kilnFoldTensorDestroy(&old);
      return false;
    }
  }
  kilnFoldTensorCreate(type, NO_LIMIT, out);
  for (int64_t i = 0; i < ch->c; ++i) {
    double b0 = old.data ? scaled * old.data[old.n == 1 ? 0 : i].f : 0;
    out->data[i].f = kilnFoldRoundFloat(ch->elt, b0 * ch->s[i] + ch->t[i]);
  }
  kilnFoldTensorDestroy(&old);
  return true;
}

/* The constant weight `w` scaled per channel: channel = index / inner %
 * C (`inner` elements per channel step). */
static bool scaledWeight(const Channels *ch, MlirValue w, intptr_t inner,
                         KilnFoldTensor *out) {
  if (!kilnFoldTensorRead(kilnFoldConstantValue(w), NO_LIMIT, out))
    return false;
  if (!mlirTypeEqual(out->elt, ch->elt) || inner <= 0 ||
      out->n % (inner * ch->c) != 0) {
    kilnFoldTensorDestroy(out);
    return false;
  }
  for (intptr_t i = 0; i < out->n; ++i)
    out->data[i].f = kilnFoldRoundFloat(
        ch->elt, out->data[i].f * ch->s[(i / inner) % ch->c]);
  return true;
}

/* Builds the replacement of `producer` + `bn`: op `name` on operands
 * (a, weight, bias) with `attrs`; replaces bn's result and erases both. */
static bool replace(MlirOperation bn, MlirOperation producer, const char *name,
                    MlirValue a, const KilnFoldTensor *w,
                    const KilnFoldTensor *bias, const MlirNamedAttribute *attrs,
                    intptr_t numAttrs) {
  MlirLocation locs[2] = {mlirOperationGetLocation(producer),
                          mlirOperationGetLocation(bn)};
  MlirContext ctx = mlirOperationGetContext(bn);
  MlirLocation loc = mlirLocationFusedGet(ctx, 2, locs, mlirAttributeGetNull());
  KilnGraphBuilder *b =
      kilnGraphBuilderCreate(ctx, mlirOperationGetBlock(bn), loc);
  kilnGraphBuilderSetInsertionPointBefore(b, producer);
  MlirValue operands[3] = {a, buildConstant(b, w), buildConstant(b, bias)};
  MlirValue y =
      kilnGraphBuilderCreateValue(b, name, operands, 3, attrs, numAttrs);
  kilnGraphBuilderDestroy(b);
  MlirValue old = mlirOperationGetResult(bn, 0);
  if (mlirValueIsNull(y) ||
      !mlirTypeEqual(mlirValueGetType(y), mlirValueGetType(old)))
    return false; /* never expected: the types come from the same rules */
  mlirValueReplaceAllUsesOfWith(old, y);
  mlirOperationDestroy(bn);
  mlirOperationDestroy(producer);
  return true;
}

static bool foldIntoConv(MlirOperation bn, MlirOperation conv,
                         const Channels *ch) {
  intptr_t n = mlirOperationGetNumOperands(conv);
  MlirValue w = mlirOperationGetOperand(conv, 1);
  MlirType wt = mlirValueGetType(w);
  if (n < 2 || n > 3 || !mlirTypeIsARankedTensor(wt) ||
      mlirShapedTypeGetRank(wt) < 2 || mlirShapedTypeGetDimSize(wt, 0) != ch->c)
    return false;
  intptr_t inner = 1;
  for (intptr_t d = 1; d < mlirShapedTypeGetRank(wt); ++d)
    inner *= (intptr_t)mlirShapedTypeGetDimSize(wt, d);
  KilnFoldTensor w2, b2 = {0};
  if (!scaledWeight(ch, w, inner, &w2))
    return false;
  bool ok =
      newBias(ch, n == 3 ? mlirOperationGetOperand(conv, 2) : (MlirValue){NULL},
              1.0, &b2);
  if (ok) {
    MlirNamedAttribute attrs[32];
    intptr_t na = copyAttrs(conv, NULL, attrs, 32);
    ok = replace(bn, conv, "conv", mlirOperationGetOperand(conv, 0), &w2, &b2,
                 attrs, na);
  }
  kilnFoldTensorDestroy(&w2);
  kilnFoldTensorDestroy(&b2);
  return ok;
}

static double floatAttr(MlirOperation op, const char *name, double dflt) {
  MlirAttribute a =
      mlirOperationGetAttributeByName(op, mlirStringRefCreateFromCString(name));
  return !mlirAttributeIsNull(a) && mlirAttributeIsAFloat(a)
             ? mlirFloatAttrGetValueDouble(a)
             : dflt;
}

/* gemm (operands A, B, C?) or a 2-D matmul (A, B) into a gemm. */
static bool foldIntoGemm(MlirOperation bn, MlirOperation mm,
                         const Channels *ch) {
  bool isGemm = opIs(mm, "graph.gemm");
  intptr_t n = mlirOperationGetNumOperands(mm);
  MlirValue a = mlirOperationGetOperand(mm, 0),
            w = mlirOperationGetOperand(mm, 1);
  MlirType at = mlirValueGetType(a), wt = mlirValueGetType(w);
  if (n < 2 || n > 3 || !mlirTypeIsARankedTensor(wt) ||
      mlirShapedTypeGetRank(wt) != 2 || !mlirTypeIsARankedTensor(at) ||
      mlirShapedTypeGetRank(at) != 2)
    return false;
  MlirAttribute tb = mlirOperationGetAttributeByName(
      mm, mlirStringRefCreateFromCString("transB"));
  bool transB = isGemm && !mlirAttributeIsNull(tb) &&
                mlirAttributeIsAInteger(tb) && mlirIntegerAttrGetValueInt(tb);
  if (mlirShapedTypeGetDimSize(wt, transB ? 0 : 1) != ch->c)
    return false;
  /* [N, K]: channel steps every K elements; [K, N]: every element. */
  intptr_t inner = transB ? (intptr_t)mlirShapedTypeGetDimSize(wt, 1) : 1;
  KilnFoldTensor w2, b2 = {0};
  if (!scaledWeight(ch, w, inner, &w2))
    return false;
  double beta = isGemm ? floatAttr(mm, "beta", 1.0) : 1.0;
  bool ok =
      newBias(ch, n == 3 ? mlirOperationGetOperand(mm, 2) : (MlirValue){NULL},
              beta, &b2);
  if (ok) {
    MlirNamedAttribute attrs[32];
    intptr_t na = isGemm ? copyAttrs(mm, "beta", attrs, 31) : 0;
    ok = replace(bn, mm, "gemm", a, &w2, &b2, attrs, na);
  }
  kilnFoldTensorDestroy(&w2);
  kilnFoldTensorDestroy(&b2);
  return ok;
}

/* x * s + t with [C, 1, ..., 1] constants. */
static bool rewriteStandalone(MlirOperation bn, const Channels *ch) {
  MlirValue x = mlirOperationGetOperand(bn, 0);
  MlirValue old = mlirOperationGetResult(bn, 0);
  intptr_t r = mlirShapedTypeGetRank(mlirValueGetType(old));
  int64_t shape[KILN_MAX_RANK];
  if (r > KILN_MAX_RANK)
    return false;
  shape[0] = ch->c;
  for (intptr_t d = 1; d < r - 1; ++d)
    shape[d] = 1;
  MlirType type =
      mlirRankedTensorTypeGet(r - 1, shape, ch->elt, mlirAttributeGetNull());
  KilnFoldTensor s, t;
  kilnFoldTensorCreate(type, NO_LIMIT, &s);
  kilnFoldTensorCreate(type, NO_LIMIT, &t);
  for (int64_t i = 0; i < ch->c; ++i) {
    s.data[i].f = kilnFoldRoundFloat(ch->elt, ch->s[i]);
    t.data[i].f = kilnFoldRoundFloat(ch->elt, ch->t[i]);
  }
  KilnGraphBuilder *b = kilnGraphBuilderCreate(mlirOperationGetContext(bn),
                                               mlirOperationGetBlock(bn),
                                               mlirOperationGetLocation(bn));
  kilnGraphBuilderSetInsertionPointBefore(b, bn);
  MlirValue mulOperands[2] = {x, buildConstant(b, &s)};
  MlirValue y = kilnGraphBuilderCreateValue(b, "mul", mulOperands, 2, NULL, 0);
  MlirValue addOperands[2] = {y, buildConstant(b, &t)};
  if (!mlirValueIsNull(y))
    y = kilnGraphBuilderCreateValue(b, "add", addOperands, 2, NULL, 0);
  kilnGraphBuilderDestroy(b);
  kilnFoldTensorDestroy(&s);
  kilnFoldTensorDestroy(&t);
  if (mlirValueIsNull(y) ||
      !mlirTypeEqual(mlirValueGetType(y), mlirValueGetType(old)))
    return false;
  mlirValueReplaceAllUsesOfWith(old, y);
  mlirOperationDestroy(bn);
  return true;
}

static void foldOne(MlirOperation bn, const KilnPassOptionValue *options) {
  Channels ch;
  if (!readChannels(bn, &ch))
    return;
  MlirValue x = mlirOperationGetOperand(bn, 0);
  bool done = false;
  if (mlirValueIsAOpResult(x) && hasOneUse(x)) {
    MlirOperation def = mlirOpResultGetOwner(x);
    /* A channels-last conv (graph-layout) has M as w's last dim, and a
     * batch_norm never reads its result directly: left alone. */
    if (opIs(def, "graph.conv") &&
        mlirAttributeIsNull(mlirOperationGetAttributeByName(
            def, mlirStringRefCreateFromCString("layout"))))
      done = foldIntoConv(bn, def, &ch);
    else if (options[OPT_GEMM].b &&
             (opIs(def, "graph.gemm") || opIs(def, "graph.matmul")))
      done = foldIntoGemm(bn, def, &ch);
  }
  if (!done && options[OPT_STANDALONE].b)
    rewriteStandalone(bn, &ch);
  channelsDestroy(&ch);
}

static MlirWalkResult collect(MlirOperation op, void *userData) {
  if (opIs(op, "graph.batch_norm"))
    kilnOpListPush(userData, op);
  return MlirWalkResultAdvance;
}

static void runFoldBatchNorm(MlirOperation root, MlirExternalPass pass,
                             const KilnPassOptionValue *options) {
  (void)pass;
  KilnOpList bns = {0};
  mlirOperationWalk(root, collect, &bns, MlirWalkPreOrder);
  /* Folding erases a batch_norm and its producer, never another
   * batch_norm: every listed op is alive when it is reached. */
  for (size_t i = 0; i < bns.len; ++i)
    foldOne(bns.data[i], options);
  kilnOpListDestroy(&bns);
}

static const KilnPassOptionSpec kOptions[NUM_OPTIONS] = {
    [OPT_GEMM] = {"gemm", KILN_PASS_OPTION_BOOL, "true",
                  "Also fold into a gemm or 2-D matmul (into a gemm)"},
    [OPT_STANDALONE] = {"standalone", KILN_PASS_OPTION_BOOL, "false",
                        "Rewrite a batch_norm that cannot be folded (with "
                        "constant parameters) to x * s + t"},
};

const KilnPassInfo kilnGraphFoldBatchNormPass = {
    .argument = "graph-fold-batchnorm",
    .summary = "Fold inference batch normalization into conv/gemm weights",
    .anchor = "func.func",
    .options = kOptions,
    .numOptions = NUM_OPTIONS,
    .run = runFoldBatchNorm,
    .pipeline = NULL,
};

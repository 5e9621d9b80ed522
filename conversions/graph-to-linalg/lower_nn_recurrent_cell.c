/* The recurrent ops' cell: the elementwise generic each time step runs
 * (docs/graph-to-linalg.md), with ONNX's activations. */
#include <string.h>

#include "conversions/graph-to-linalg/lower_nn_recurrent.h"
#include "kiln/diagnostics.h"

enum {
  ACT_TANH,
  ACT_SIGMOID,
  ACT_RELU,
  ACT_AFFINE,
  ACT_LEAKY_RELU,
  ACT_THRESHOLDED_RELU,
  ACT_SCALED_TANH,
  ACT_HARD_SIGMOID,
  ACT_ELU,
  ACT_SOFTSIGN,
  ACT_SOFTPLUS
};

/* Name, how many of activation_alpha/beta it takes, their defaults. */
static const struct {
  const char *name;
  int nAlpha, nBeta;
  double alpha, beta;
} kActs[] = {
    {"Tanh", 0, 0, 0, 0},           {"Sigmoid", 0, 0, 0, 0},
    {"Relu", 0, 0, 0, 0},           {"Affine", 1, 1, 1.0, 0.0},
    {"LeakyRelu", 1, 0, 0.01, 0},   {"ThresholdedRelu", 1, 0, 1.0, 0},
    {"ScaledTanh", 1, 1, 1.0, 1.0}, {"HardSigmoid", 1, 1, 0.2, 0.5},
    {"Elu", 1, 0, 1.0, 0},          {"Softsign", 0, 0, 0, 0},
    {"Softplus", 0, 0, 0, 0},
};

/* ---- Scalar activations ------------------------------------------------- */

static MlirValue cst(KilnBuilder *b, MlirValue like, double v) {
  return kilnConstFloat(b, mlirValueGetType(like), v);
}

static MlirValue sigmoid(KilnBuilder *b, MlirValue x) {
  MlirValue one = cst(b, x, 1);
  MlirValue e = kilnArith1(b, "math.exp", kilnArith1(b, "arith.negf", x));
  return kilnArith2(b, "arith.divf", one, kilnArith2(b, "arith.addf", one, e));
}

static MlirValue activate(KilnBuilder *b, const KilnRnnAct *a, MlirValue x) {
  MlirValue zero = cst(b, x, 0), one = cst(b, x, 1);
  MlirValue al = cst(b, x, a->alpha), be = cst(b, x, a->beta);
  switch (a->kind) {
  case ACT_SIGMOID:
    return sigmoid(b, x);
  case ACT_RELU:
    return kilnSelect(b, kilnCmpF(b, "olt", x, zero), zero, x);
  case ACT_AFFINE:
    return kilnArith2(b, "arith.addf", kilnArith2(b, "arith.mulf", al, x), be);
  case ACT_LEAKY_RELU:
    return kilnSelect(b, kilnCmpF(b, "olt", x, zero),
                      kilnArith2(b, "arith.mulf", al, x), x);
  case ACT_THRESHOLDED_RELU:
    return kilnSelect(b, kilnCmpF(b, "ogt", x, al), x, zero);
  case ACT_SCALED_TANH:
    return kilnArith2(
        b, "arith.mulf", al,
        kilnArith1(b, "math.tanh", kilnArith2(b, "arith.mulf", be, x)));
  case ACT_HARD_SIGMOID: {
    MlirValue v =
        kilnArith2(b, "arith.addf", kilnArith2(b, "arith.mulf", al, x), be);
    return kilnArith2(b, "arith.minimumf", one,
                      kilnArith2(b, "arith.maximumf", zero, v));
  }
  case ACT_ELU: {
    MlirValue em1 =
        kilnArith2(b, "arith.subf", kilnArith1(b, "math.exp", x), one);
    return kilnSelect(b, kilnCmpF(b, "olt", x, zero),
                      kilnArith2(b, "arith.mulf", al, em1), x);
  }
  case ACT_SOFTSIGN:
    return kilnArith2(
        b, "arith.divf", x,
        kilnArith2(b, "arith.addf", one, kilnArith1(b, "math.absf", x)));
  case ACT_SOFTPLUS:
    return kilnArith1(
        b, "math.log",
        kilnArith2(b, "arith.addf", one, kilnArith1(b, "math.exp", x)));
  default:
    return kilnArith1(b, "math.tanh", x);
  }
}

/* ---- The cell ------------------------------------------------------------ */

static MlirValue preact(KilnBuilder *b, const KilnRnnCell *c, MlirValue v) {
  if (!c->r->hasClip)
    return v;
  MlirValue k = cst(b, v, c->r->clip), nk = cst(b, v, -c->r->clip);
  return kilnArith2(b, "arith.minimumf", k,
                    kilnArith2(b, "arith.maximumf", nk, v));
}

static MlirValue addf(KilnBuilder *b, MlirValue x, MlirValue y) {
  return kilnArith2(b, "arith.addf", x, y);
}
static MlirValue mulf(KilnBuilder *b, MlirValue x, MlirValue y) {
  return kilnArith2(b, "arith.mulf", x, y);
}

/* H and C of the LSTM cell; gates i, o, f, c. */
static MlirValue lstmCell(KilnBuilder *b, const KilnRnnCell *c,
                          const MlirValue *in, MlirValue *cn) {
  const KilnRnnAct *f = &c->act[0], *g = &c->act[1], *h = &c->act[2];
  MlirValue cp = in[c->atC], pre[4];
  for (int k = 0; k < 4; ++k)
    pre[k] = in[c->atGates + k];
  if (c->atP >= 0) {
    pre[0] = addf(b, pre[0], mulf(b, in[c->atP], cp));
    pre[2] = addf(b, pre[2], mulf(b, in[c->atP + 2], cp));
  }
  MlirValue it = activate(b, f, preact(b, c, pre[0]));
  MlirValue ft = activate(b, f, preact(b, c, pre[2]));
  MlirValue ct = activate(b, g, preact(b, c, pre[3]));
  *cn = addf(b, mulf(b, ft, cp), mulf(b, it, ct));
  if (c->atP >= 0)
    pre[1] = addf(b, pre[1], mulf(b, in[c->atP + 1], *cn));
  MlirValue ot = activate(b, f, preact(b, c, pre[1]));
  return mulf(b, ot, activate(b, h, *cn));
}

static void cellBody(KilnBuilder *b, const MlirValue *in, MlirValue *yields,
                     void *userData) {
  const KilnRnnCell *c = userData;
  const KilnRnnAct *f = &c->act[0], *g = &c->act[1];
  const MlirValue *gates = in + c->atGates;
  MlirValue hp = in[c->atH], h, cn = {NULL};
  if (c->r->cell == KILN_RNN) {
    h = activate(b, f, preact(b, c, gates[0]));
  } else if (c->r->cell == KILN_GRU) {
    MlirValue rt = activate(b, f, preact(b, c, gates[1]));
    if (c->resetOnly) {
      yields[0] = mulf(b, rt, hp);
      return;
    }
    MlirValue zt = activate(b, f, preact(b, c, gates[0]));
    /* Without linear_before_reset, the accumulator's h columns already
     * hold (r ⊙ H_prev)·Rhᵀ + Rbh. */
    MlirValue pre = gates[2];
    if (c->atHr >= 0) {
      MlirValue hr = in[c->atHr];
      if (c->atRbh >= 0)
        hr = addf(b, hr, in[c->atRbh]);
      pre = addf(b, pre, mulf(b, rt, hr));
    }
    MlirValue ht = activate(b, g, preact(b, c, pre));
    MlirValue one = cst(b, zt, 1);
    h = addf(b, mulf(b, kilnArith2(b, "arith.subf", one, zt), ht),
             mulf(b, zt, hp));
  } else {
    h = lstmCell(b, c, in, &cn);
  }
  int n = 0;
  if (c->atMask < 0) {
    yields[n++] = h;
    if (!mlirValueIsNull(cn))
      yields[n++] = cn;
    yields[n++] = h; /* Y */
    return;
  }
  /* Steps past a batch entry's length keep its state and write 0 to Y. */
  MlirValue valid = kilnCmpF(b, "ogt", in[c->atMask], cst(b, h, 0.5));
  yields[n++] = kilnSelect(b, valid, h, hp);
  if (!mlirValueIsNull(cn))
    yields[n++] = kilnSelect(b, valid, cn, in[c->atC]);
  yields[n++] = kilnSelect(b, valid, h, cst(b, h, 0));
}

MlirOperation kilnLowerRnnCell(KilnBuilder *b, const KilnRnnCell *c,
                               MlirValue pre, const MlirValue *gates,
                               intptr_t nExtra, const MlirValue *extra,
                               intptr_t nOut, const MlirValue *outs) {
  const KilnRnn *r = c->r;
  MlirValue in[16];
  MlirAttribute maps[20];
  intptr_t n = 0;
  int64_t col = 1, row = 0;
  MlirAttribute id = kilnMapIdentity(b->ctx, 2);
  if (!mlirValueIsNull(pre)) {
    in[n] = pre;
    maps[n++] = id;
  }
  for (int g = 0; g < r->gates; ++g) {
    in[n] = gates[g];
    maps[n++] = id;
  }
  for (intptr_t k = 0; k < nExtra; ++k) {
    in[n] = extra[k];
    maps[n] = kilnRank(extra[k]) == 2 ? id
              : n == c->atMask        ? kilnMapDims(b->ctx, 2, 1, &row)
                                      : kilnMapDims(b->ctx, 2, 1, &col);
    ++n;
  }
  for (intptr_t k = 0; k < nOut; ++k)
    maps[n + k] = id;
  return kilnGeneric(b, n, in, nOut, outs, maps, 2, "pp", cellBody, (void *)c);
}

/* ---- Attributes ---------------------------------------------------------- */

static double floatAt(MlirAttribute list, intptr_t i) {
  if (mlirAttributeIsADenseF32Array(list))
    return mlirDenseF32ArrayGetElement(list, i);
  return mlirFloatAttrGetValueDouble(mlirArrayAttrGetElement(list, i));
}

static intptr_t listSize(MlirAttribute list) {
  if (mlirAttributeIsNull(list))
    return 0;
  if (mlirAttributeIsADenseF32Array(list))
    return mlirDenseArrayGetNumElements(list);
  return mlirAttributeIsAArray(list) ? mlirArrayAttrGetNumElements(list) : 0;
}

KilnLowerStatus kilnLowerRnnReadActivations(KilnLowerOp *l, KilnRnn *r,
                                            int perDir) {
  static const int kDefaults[3][3] = {
      {ACT_TANH}, {ACT_SIGMOID, ACT_TANH}, {ACT_SIGMOID, ACT_TANH, ACT_TANH}};
  MlirAttribute names = kilnInferAttr(&l->infer, "activations");
  MlirAttribute alphas = kilnInferAttr(&l->infer, "activation_alpha");
  MlirAttribute betas = kilnInferAttr(&l->infer, "activation_beta");
  intptr_t n = listSize(names), na = 0, nb = 0;
  if (n && n != perDir * r->dirs)
    return kilnLowerError(l, "expects %d activations, got %ld",
                          perDir * r->dirs, (long)n);
  for (int i = 0; i < perDir * r->dirs; ++i) {
    KilnRnnAct *a = &r->acts[i / perDir][i % perDir];
    a->kind = kDefaults[r->cell][i % perDir];
    if (n) {
      MlirStringRef s =
          mlirStringAttrGetValue(mlirArrayAttrGetElement(names, i));
      a->kind = -1;
      for (size_t k = 0; k < sizeof(kActs) / sizeof(kActs[0]); ++k)
        if (s.length == strlen(kActs[k].name) &&
            !memcmp(s.data, kActs[k].name, s.length))
          a->kind = (int)k;
      if (a->kind < 0)
        return kilnLowerUnsupported(l, "with activation '%.*s'", (int)s.length,
                                    s.data);
    }
    a->alpha = kActs[a->kind].alpha;
    a->beta = kActs[a->kind].beta;
    if (kActs[a->kind].nAlpha && na < listSize(alphas))
      a->alpha = floatAt(alphas, na++);
    if (kActs[a->kind].nBeta && nb < listSize(betas))
      a->beta = floatAt(betas, nb++);
  }
  return KILN_LOWER_OK;
}

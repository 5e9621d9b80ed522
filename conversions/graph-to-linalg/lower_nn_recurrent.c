/* rnn, gru and lstm → linalg inside an scf.for over time steps.
 *
 * Per direction: the input projection X·Wᵀ + Wb of every time step is one
 * contraction before the loop; the loop carries H (and C for LSTM) and the
 * direction's Y [seq, batch, hidden] as iter_args, computes H·Rᵀ + Rb, the
 * gates in one elementwise generic, and inserts H into Y at the step. The
 * directions' results are assembled after the loops (and transposed for
 * layout = 1). */
#include <string.h>

#include "conversions/graph-to-linalg/lower_nn.h"
#include "dialects/common/diag.h"

enum { CELL_RNN, CELL_GRU, CELL_LSTM };
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

typedef struct Act {
  int kind;
  double alpha, beta;
} Act;

typedef struct Rnn {
  int cell, gates, dirs;
  bool reverse; /* direction = reverse */
  int64_t seq, batch, input, hidden;
  bool hasClip, linearBeforeReset;
  bool masked; /* sequence_lens applied at run time (forward only) */
  double clip;
  Act acts[2][3]; /* per direction: f, g, h */
  MlirType elt;
} Rnn;

/* ---- Scalar activations ------------------------------------------------- */

static MlirValue cst(KilnBuilder *b, MlirValue like, double v) {
  return kilnConstFloat(b, mlirValueGetType(like), v);
}

static MlirValue sigmoid(KilnBuilder *b, MlirValue x) {
  MlirValue one = cst(b, x, 1);
  MlirValue e = kilnArith1(b, "math.exp", kilnArith1(b, "arith.negf", x));
  return kilnArith2(b, "arith.divf", one, kilnArith2(b, "arith.addf", one, e));
}

static MlirValue activate(KilnBuilder *b, const Act *a, MlirValue x) {
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

/* ---- Tensor helpers ------------------------------------------------------ */

/* out[i0..] = x[...] with out dim i = x dim perm[i]. */
static void copyBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                     void *userData) {
  (void)b;
  (void)userData;
  yields[0] = args[0];
}

static MlirValue transpose(KilnBuilder *b, MlirValue x, const int64_t *perm) {
  intptr_t r = kilnRank(x);
  int64_t shape[KILN_MAX_RANK], inv[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    shape[i] = kilnDim(x, perm[i]);
    inv[perm[i]] = i;
  }
  MlirValue init = kilnEmpty(b, kilnTensorType(r, shape, kilnElementType(x)));
  MlirAttribute maps[2] = {kilnMapDims(b->ctx, r, r, inv),
                           kilnMapIdentity(b->ctx, r)};
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', r);
  iters[r] = '\0';
  return mlirOperationGetResult(
      kilnGeneric(b, 1, &x, 1, &init, maps, r, iters, copyBody, NULL), 0);
}

static void macBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArith2(b, "arith.addf", args[2],
                         kilnArith2(b, "arith.mulf", args[0], args[1]));
}

/* a [M, K] · wt [K, N] + bias [N] (null: none) → [M, N]. */
static MlirValue matmul(KilnBuilder *b, MlirValue a, MlirValue wt,
                        MlirValue bias) {
  int64_t shape[2] = {kilnDim(a, 0), kilnDim(wt, 1)};
  MlirType t = kilnTensorType(2, shape, kilnElementType(a));
  MlirValue init;
  if (mlirValueIsNull(bias)) {
    init = kilnFilled(b, t, kilnConstFloat(b, kilnElementType(a), 0));
  } else { /* start from the broadcast bias */
    init = kilnElementwise(b, 1, &bias, t, copyBody, NULL);
  }
  int64_t am[2] = {0, 2}, wm[2] = {2, 1}, om[2] = {0, 1};
  MlirAttribute maps[3] = {kilnMapDims(b->ctx, 3, 2, am),
                           kilnMapDims(b->ctx, 3, 2, wm),
                           kilnMapDims(b->ctx, 3, 2, om)};
  MlirValue in[2] = {a, wt};
  return mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &init, maps, 3, "ppr", macBody, NULL), 0);
}

/* x[d] of a [dirs, ...] tensor as [...] (rank - 1). */
static MlirValue direction(KilnBuilder *b, MlirValue x, int64_t d) {
  intptr_t r = kilnRank(x);
  int64_t off[KILN_MAX_RANK] = {0}, sizes[KILN_MAX_RANK],
          strides[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    sizes[i] = kilnDim(x, i);
    strides[i] = 1;
  }
  off[0] = d;
  sizes[0] = 1;
  MlirValue s = kilnExtractSlice(b, x, off, sizes, strides);
  return kilnReshape(b, s,
                     kilnTensorType(r - 1, sizes + 1, kilnElementType(x)));
}

/* Direction d of W or R ([dirs, gates·hidden, K]) transposed to
 * [K, gates·hidden]: the contractions then read rows of it as vectors
 * (with [gates·hidden, K], a register tile's row of outputs would gather
 * one element per weight row). Constant f32 weights are transposed at
 * compile time, others by a generic before the time loop. */
static MlirValue weightsT(KilnBuilder *b, MlirValue w, int64_t d) {
  if (mlirValueIsAOpResult(w)) {
    MlirOperation def = mlirOpResultGetOwner(w);
    if (kilnStringRefEquals(mlirIdentifierStr(mlirOperationGetName(def)),
                            "graph.constant")) {
      MlirAttribute t = kilnTransposedMatrix(
          mlirOperationGetAttributeByName(
              def, mlirStringRefCreateFromCString("value")),
          d);
      if (!mlirAttributeIsNull(t))
        return kilnConstantTensor(b, t);
    }
  }
  static const int64_t kSwap[2] = {1, 0};
  return transpose(b, direction(b, w, d), kSwap);
}

/* tensor.extract_slice / insert_slice of rank-3 tensors with a dynamic
 * offset `t` on dim 0 and size 1 there. */
static MlirNamedAttribute i64Array(KilnBuilder *b, const char *name,
                                   const int64_t *v) {
  return kilnNamedAttr(b->ctx, name, mlirDenseI64ArrayGet(b->ctx, 3, v));
}

static MlirValue extractStep(KilnBuilder *b, MlirValue x, MlirValue t) {
  int64_t off[3] = {mlirShapedTypeGetDynamicStrideOrOffset(), 0, 0};
  int64_t sizes[3] = {1, kilnDim(x, 1), kilnDim(x, 2)}, strides[3] = {1, 1, 1};
  int32_t seg[4] = {1, 1, 0, 0};
  MlirNamedAttribute attrs[4] = {
      kilnNamedAttr(b->ctx, "operandSegmentSizes",
                    mlirDenseI32ArrayGet(b->ctx, 4, seg)),
      i64Array(b, "static_offsets", off), i64Array(b, "static_sizes", sizes),
      i64Array(b, "static_strides", strides)};
  MlirValue ops[2] = {x, t};
  MlirValue s = kilnBuildOp1(b, "tensor.extract_slice",
                             kilnTensorType(3, sizes, kilnElementType(x)), 2,
                             ops, 4, attrs);
  return kilnReshape(b, s, kilnTensorType(2, sizes + 1, kilnElementType(x)));
}

static MlirValue insertStep(KilnBuilder *b, MlirValue src, MlirValue dest,
                            MlirValue t) {
  int64_t off[3] = {mlirShapedTypeGetDynamicStrideOrOffset(), 0, 0};
  int64_t sizes[3] = {1, kilnDim(src, 0), kilnDim(src, 1)},
          strides[3] = {1, 1, 1};
  MlirValue s3 =
      kilnReshape(b, src, kilnTensorType(3, sizes, kilnElementType(src)));
  int32_t seg[5] = {1, 1, 1, 0, 0};
  MlirNamedAttribute attrs[4] = {
      kilnNamedAttr(b->ctx, "operandSegmentSizes",
                    mlirDenseI32ArrayGet(b->ctx, 5, seg)),
      i64Array(b, "static_offsets", off), i64Array(b, "static_sizes", sizes),
      i64Array(b, "static_strides", strides)};
  MlirValue ops[3] = {s3, dest, t};
  return kilnBuildOp1(b, "tensor.insert_slice", mlirValueGetType(dest), 3, ops,
                      4, attrs);
}

/* ---- One time step --------------------------------------------------------
 */

/* Inputs of the cell generic, in order: G gate columns of x·Wᵀ+Wb, G of
 * h·Rᵀ+Rb, H_prev, then C_prev and P's three columns (LSTM), or m (GRU
 * with linear_before_reset = 0: (r ⊙ H_prev)·Rhᵀ + Rbh). */
typedef struct Cell {
  const Rnn *r;
  const Act *act; /* this direction's f, g, h */
  bool peephole;
  bool resetOnly; /* GRU pre-step: yields r ⊙ H_prev */
  intptr_t nIn;   /* inputs of the generic (set by runCell) */
} Cell;

static MlirValue preact(KilnBuilder *b, const Cell *c, MlirValue v) {
  if (!c->r->hasClip)
    return v;
  MlirValue k = cst(b, v, c->r->clip), nk = cst(b, v, -c->r->clip);
  return kilnArith2(b, "arith.minimumf", k,
                    kilnArith2(b, "arith.maximumf", nk, v));
}

static MlirValue gate(KilnBuilder *b, const Cell *c, const MlirValue *args,
                      int g) {
  return kilnArith2(b, "arith.addf", args[g], args[c->r->gates + g]);
}

static void cellBody(KilnBuilder *b, const MlirValue *in, MlirValue *yields,
                     void *userData) {
  const Cell *c = userData;
  int G = c->r->gates;
  /* The generic takes H_prev first (its identity map fixes the loop
   * bounds); put it back after the gate columns. */
  MlirValue args[20];
  for (int k = 0; k < 2 * G; ++k)
    args[k] = in[1 + k];
  args[2 * G] = in[0];
  for (intptr_t k = 2 * G + 1; k < c->nIn; ++k)
    args[k] = in[k];
  MlirValue hp = args[2 * G];
  const Act *f = &c->act[0], *g = &c->act[1], *h = &c->act[2];
  if (c->r->cell == CELL_RNN) {
    yields[0] = activate(b, f, preact(b, c, gate(b, c, args, 0)));
    return;
  }
  if (c->r->cell == CELL_GRU) {
    MlirValue rt = activate(b, f, preact(b, c, gate(b, c, args, 1)));
    if (c->resetOnly) {
      yields[0] = kilnArith2(b, "arith.mulf", rt, hp);
      return;
    }
    MlirValue zt = activate(b, f, preact(b, c, gate(b, c, args, 0)));
    MlirValue rec = c->r->linearBeforeReset
                        ? kilnArith2(b, "arith.mulf", rt, args[G + 2])
                        : args[2 * G + 1];
    MlirValue ht =
        activate(b, g, preact(b, c, kilnArith2(b, "arith.addf", args[2], rec)));
    MlirValue one = cst(b, zt, 1);
    yields[0] = kilnArith2(
        b, "arith.addf",
        kilnArith2(b, "arith.mulf", kilnArith2(b, "arith.subf", one, zt), ht),
        kilnArith2(b, "arith.mulf", zt, hp));
    return;
  }
  /* LSTM, gates i, o, f, c; P holds i, o, f. */
  MlirValue cp = args[2 * G + 1];
  MlirValue pre[4];
  for (int k = 0; k < 4; ++k)
    pre[k] = gate(b, c, args, k);
  if (c->peephole) {
    pre[0] = kilnArith2(b, "arith.addf", pre[0],
                        kilnArith2(b, "arith.mulf", args[2 * G + 2], cp));
    pre[2] = kilnArith2(b, "arith.addf", pre[2],
                        kilnArith2(b, "arith.mulf", args[2 * G + 4], cp));
  }
  MlirValue it = activate(b, f, preact(b, c, pre[0]));
  MlirValue ft = activate(b, f, preact(b, c, pre[2]));
  MlirValue ct = activate(b, g, preact(b, c, pre[3]));
  MlirValue cn =
      kilnArith2(b, "arith.addf", kilnArith2(b, "arith.mulf", ft, cp),
                 kilnArith2(b, "arith.mulf", it, ct));
  if (c->peephole)
    pre[1] = kilnArith2(b, "arith.addf", pre[1],
                        kilnArith2(b, "arith.mulf", args[2 * G + 3], cn));
  MlirValue ot = activate(b, f, preact(b, c, pre[1]));
  yields[0] = kilnArith2(b, "arith.mulf", ot, activate(b, h, cn));
  yields[1] = cn;
}

static MlirValue slice1D(KilnBuilder *b, MlirValue v, int64_t off,
                         int64_t size) {
  int64_t one = 1;
  return kilnExtractSlice(b, v, &off, &size, &one);
}

/* Runs the cell generic; `extra` are the inputs after H_prev. Returns the
 * op (results: H, and C for LSTM). */
static MlirOperation runCell(KilnBuilder *b, const Cell *c, MlirValue xw,
                             MlirValue hr, MlirValue hp, intptr_t nExtra,
                             const MlirValue *extra, const bool *extraVector,
                             const int64_t *extraOff, const MlirValue *outs) {
  const Rnn *r = c->r;
  int G = r->gates;
  MlirValue in[16];
  MlirAttribute maps[20];
  intptr_t n = 0;
  in[n] = hp;
  maps[n++] = kilnMapIdentity(b->ctx, 2);
  /* Gate g is columns g*H .. g*H+H-1: static slices, so every input's map
   * is the identity (or (d1) for P's vectors). */
  int64_t H = r->hidden, off2[2] = {0, 0}, sizes2[2] = {r->batch, H},
          ones[2] = {1, 1}, col = 1;
  for (int src = 0; src < 2; ++src)
    for (int g = 0; g < G; ++g) {
      off2[1] = g * H;
      in[n] = kilnExtractSlice(b, src ? hr : xw, off2, sizes2, ones);
      maps[n++] = kilnMapIdentity(b->ctx, 2);
    }
  for (intptr_t k = 0; k < nExtra; ++k) {
    bool vec = extraVector[k];
    in[n] = vec ? slice1D(b, extra[k], extraOff[k], H) : extra[k];
    maps[n++] =
        vec ? kilnMapDims(b->ctx, 2, 1, &col) : kilnMapIdentity(b->ctx, 2);
  }
  int nOut = r->cell == CELL_LSTM && !c->resetOnly ? 2 : 1;
  for (int k = 0; k < nOut; ++k)
    maps[n + k] = kilnMapIdentity(b->ctx, 2);
  Cell local = *c;
  local.nIn = n;
  /* The new state overwrites the carried one (`outs`): scf.for's yields
   * then bufferize in place, equivalent to the iter_args. */
  return kilnGeneric(b, n, in, nOut, outs, maps, 2, "pp", cellBody, &local);
}

/* ---- One direction ----------------------------------------------------------
 */

typedef struct Dir {
  MlirValue w, r;              /* this direction's, transposed */
  MlirValue wb, rb, h0, c0, p; /* this direction's */
  MlirValue lens;              /* [batch] or null */
} Dir;

/* valid = t < lens[b]: yields (valid ? cell : prev) and, as a second
 * output when asked, (valid ? cell : 0) for Y. */
static void maskBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                     void *userData) {
  const MlirValue *t = userData; /* t and whether Y is wanted (non-null) */
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue valid = kilnCmpI(b, "slt", kilnConvertScalar(b, t[0], i64, false),
                             kilnConvertScalar(b, args[2], i64, false));
  yields[0] = kilnSelect(b, valid, args[0], args[1]);
  if (!mlirValueIsNull(t[1]))
    yields[1] = kilnSelect(b, valid, args[0], cst(b, args[0], 0));
}

static MlirValue maskStep(KilnBuilder *b, MlirValue cell, MlirValue prev,
                          MlirValue lens, MlirValue t, MlirValue *y) {
  MlirValue in[3] = {cell, prev, lens};
  MlirValue outs[2] = {kilnEmpty(b, mlirValueGetType(cell)),
                       kilnEmpty(b, mlirValueGetType(cell))};
  int64_t d0 = 0;
  MlirAttribute id = kilnMapIdentity(b->ctx, 2);
  MlirAttribute maps[5] = {id, id, kilnMapDims(b->ctx, 2, 1, &d0), id, id};
  MlirValue ctx[2] = {t, y ? t : (MlirValue){NULL}};
  MlirOperation op =
      kilnGeneric(b, 3, in, y ? 2 : 1, outs, maps, 2, "pp", maskBody, ctx);
  if (y)
    *y = mlirOperationGetResult(op, 1);
  return mlirOperationGetResult(op, 0);
}

/* The loop body; returns the yielded values (H, [C], Y) in `next`. */
static void stepBody(KilnBuilder *b, const Rnn *r, const Cell *cell,
                     const Dir *d, MlirValue xw3, MlirValue t,
                     const MlirValue *carried, MlirValue *next) {
  MlirValue step = t;
  if (r->reverse)
    t = kilnArith2(b, "arith.subi", kilnConstIndex(b, r->seq - 1), t);
  /* H and C live in [2, batch, hidden] ping-pong buffers: step t reads
   * slot t % 2 and writes slot (t + 1) % 2. Every carried value is then
   * updated by tensor.insert_slice only, which bufferizes in place (the
   * yields stay equivalent to the iter_args whatever fusion does). */
  MlirValue two = kilnConstIndex(b, 2);
  MlirValue rdSlot = kilnArith2(b, "arith.remui", step, two);
  MlirValue wrSlot =
      kilnArith2(b, "arith.remui",
                 kilnArith2(b, "arith.addi", step, kilnConstIndex(b, 1)), two);
  MlirValue hp = extractStep(b, carried[0], rdSlot);
  MlirValue xw = extractStep(b, xw3, t);
  MlirValue hr = matmul(b, hp, d->r, d->rb);
  MlirValue extra[4];
  bool vec[4] = {false, true, true, true};
  int64_t off[4] = {0, 0, r->hidden, 2 * r->hidden};
  intptr_t nExtra = 0;
  if (r->cell == CELL_GRU && !r->linearBeforeReset) {
    Cell pre = *cell;
    pre.resetOnly = true;
    MlirValue fresh = kilnEmpty(b, mlirValueGetType(hp));
    MlirValue rh = mlirOperationGetResult(
        runCell(b, &pre, xw, hr, hp, 0, NULL, NULL, NULL, &fresh), 0);
    int64_t offs[2] = {0, 2 * r->hidden}, sizes[2] = {r->hidden, r->hidden},
            strides[2] = {1, 1};
    MlirValue rhW = kilnExtractSlice(b, d->r, offs, sizes, strides);
    MlirValue rhB = mlirValueIsNull(d->rb)
                        ? d->rb
                        : slice1D(b, d->rb, 2 * r->hidden, r->hidden);
    extra[nExtra++] = matmul(b, rh, rhW, rhB);
  } else if (r->cell == CELL_LSTM) {
    extra[nExtra++] = extractStep(b, carried[1], rdSlot);
    if (cell->peephole)
      for (int k = 0; k < 3; ++k)
        extra[nExtra++] = d->p;
  }
  MlirValue outs[2] = {kilnEmpty(b, mlirValueGetType(hp)),
                       kilnEmpty(b, mlirValueGetType(hp))};
  MlirOperation op =
      runCell(b, cell, xw, hr, hp, nExtra, extra, vec, off, outs);
  int nState = r->cell == CELL_LSTM ? 2 : 1;
  MlirValue state[2], yt = mlirOperationGetResult(op, 0);
  for (int k = 0; k < nState; ++k)
    state[k] = mlirOperationGetResult(op, k);
  if (!mlirValueIsNull(d->lens)) {
    MlirValue prev[2] = {hp, nState > 1 ? extra[0] : hp};
    for (int k = nState - 1; k >= 0; --k)
      state[k] = maskStep(b, state[k], prev[k], d->lens, t, k ? NULL : &yt);
  }
  for (int k = 0; k < nState; ++k)
    next[k] = insertStep(b, state[k], carried[k], wrSlot);
  next[nState] = insertStep(b, yt, carried[nState], t);
}

/* dest with `src` (rank n) inserted at index d of dim `dim`. */
static MlirValue insertAt(KilnBuilder *b, MlirValue src, MlirValue dest,
                          intptr_t dim, int64_t d) {
  intptr_t r = kilnRank(dest);
  int64_t shape[KILN_MAX_RANK], off[KILN_MAX_RANK] = {0},
                                strides[KILN_MAX_RANK];
  for (intptr_t i = 0, k = 0; i < r; ++i) {
    shape[i] = i == dim ? 1 : kilnDim(src, k++);
    strides[i] = 1;
  }
  off[dim] = d;
  MlirValue s =
      kilnReshape(b, src, kilnTensorType(r, shape, kilnElementType(src)));
  return kilnInsertSlice(b, s, dest, off, strides);
}

/* Runs the time loop of one direction: results H, [C], Y_d. */
static void runDirection(KilnBuilder *b, const Rnn *r, const Cell *cell,
                         const Dir *d, MlirValue x3, MlirValue *results) {
  int64_t flat[2] = {r->seq * r->batch, r->input};
  MlirValue x2 = kilnReshape(b, x3, kilnTensorType(2, flat, r->elt));
  MlirValue xw = matmul(b, x2, d->w, d->wb);
  int64_t xwShape[3] = {r->seq, r->batch, r->gates * r->hidden};
  MlirValue xw3 = kilnReshape(b, xw, kilnTensorType(3, xwShape, r->elt));
  int64_t yShape[3] = {r->seq, r->batch, r->hidden};
  int nState = r->cell == CELL_LSTM ? 2 : 1;
  int64_t pingShape[3] = {2, r->batch, r->hidden};
  MlirType ping = kilnTensorType(3, pingShape, r->elt);
  MlirValue inits[3] = {insertAt(b, d->h0, kilnEmpty(b, ping), 0, 0),
                        insertAt(b, d->c0, kilnEmpty(b, ping), 0, 0),
                        {NULL}};
  inits[nState] = kilnEmpty(b, kilnTensorType(3, yShape, r->elt));
  int nIter = nState + 1;
  MlirType types[4];
  MlirLocation locs[4];
  types[0] = mlirIndexTypeGet(b->ctx);
  for (int k = 0; k < nIter; ++k)
    types[1 + k] = mlirValueGetType(inits[k]);
  for (int k = 0; k < 4; ++k)
    locs[k] = b->loc;
  MlirBlock body = mlirBlockCreate(1 + nIter, types, locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirValue ops[6] = {kilnConstIndex(b, 0), kilnConstIndex(b, r->seq),
                      kilnConstIndex(b, 1)};
  for (int k = 0; k < nIter; ++k)
    ops[3 + k] = inits[k];
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.for"), b->loc);
  mlirOperationStateAddResults(&st, nIter, types + 1);
  mlirOperationStateAddOperands(&st, 3 + nIter, ops);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation loop = kilnBuildInsert(b, &st);
  KilnBuilder inner = {b->ctx, b->loc, body, {NULL}};
  MlirValue carried[3], next[3];
  for (int k = 0; k < nIter; ++k)
    carried[k] = mlirBlockGetArgument(body, 1 + k);
  stepBody(&inner, r, cell, d, xw3, mlirBlockGetArgument(body, 0), carried,
           next);
  kilnBuildOp(&inner, "scf.yield", 0, NULL, nIter, next, 0, NULL);
  for (int k = 0; k < nIter; ++k)
    results[k] = mlirOperationGetResult(loop, k);
  for (int k = 0; k < nState; ++k) /* the last state's slot */
    results[k] = direction(b, results[k], r->seq % 2);
}

/* ---- The op -----------------------------------------------------------------
 */

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

/* Fills r->acts from 'activations', 'activation_alpha/beta'. */
static KilnLowerStatus readActivations(KilnLowerOp *l, Rnn *r, int perDir) {
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
    Act *a = &r->acts[i / perDir][i % perDir];
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

static KilnLowerStatus readConfig(KilnLowerOp *l, Rnn *r, MlirValue x3) {
  MlirStringRef dir = kilnInferAttrString(&l->infer, "direction", "forward");
  r->reverse = kilnStringRefEquals(dir, "reverse");
  r->dirs = kilnStringRefEquals(dir, "bidirectional") ? 2 : 1;
  r->seq = kilnDim(x3, 0);
  r->batch = kilnDim(x3, 1);
  r->input = kilnDim(x3, 2);
  r->hidden = kilnDim(kilnLowerOperand(l, 2), 2);
  r->elt = kilnElementType(x3);
  MlirAttribute clip = kilnInferAttr(&l->infer, "clip");
  r->hasClip = !mlirAttributeIsNull(clip);
  r->clip = kilnInferAttrFloat(&l->infer, "clip", 0.0f);
  r->linearBeforeReset =
      kilnInferAttrInt(&l->infer, "linear_before_reset", 0) != 0;
  if (!mlirTypeIsAF32(r->elt) && !mlirTypeIsAF64(r->elt))
    return kilnLowerUnsupported(l, "with a non-f32/f64 element type");
  if (kilnInferAttrInt(&l->infer, "input_forget", 0))
    return kilnLowerUnsupported(l, "with input_forget = 1");
  MlirValue lens = kilnLowerOperand(l, 4);
  if (!mlirValueIsNull(lens)) {
    int64_t v[4096];
    intptr_t n = kilnInferConstantInts(&l->infer, 4, v, 4096);
    bool full = n == r->batch;
    for (intptr_t i = 0; full && i < n; ++i)
      full = v[i] == r->seq;
    /* Forward: steps past a batch entry's length keep its state and
     * write zeros to Y. Reverse starts each entry at its own length: not
     * lowered. */
    r->masked = !full;
    if (r->masked && (r->reverse || r->dirs == 2))
      return kilnLowerUnsupported(
          l, "with 'sequence_lens' shorter than the sequence or not a "
             "compile-time constant in a reverse direction");
  }
  static const int kPerDir[3] = {1, 2, 3};
  return readActivations(l, r, kPerDir[r->cell]);
}

/* Per-direction operand d of a [dirs, ...] operand, or `dflt`. */
static MlirValue dirOperand(KilnBuilder *b, MlirValue v, int64_t d) {
  return mlirValueIsNull(v) ? v : direction(b, v, d);
}

static MlirValue zeros(KilnBuilder *b, const Rnn *r) {
  int64_t shape[2] = {r->batch, r->hidden};
  return kilnFilled(b, kilnTensorType(2, shape, r->elt),
                    kilnConstFloat(b, r->elt, 0));
}

static KilnLowerStatus lowerRecurrent(KilnLowerOp *l, int cellKind) {
  KilnBuilder *b = &l->b;
  static const int kGates[3] = {1, 3, 4};
  Rnn r = {.cell = cellKind, .gates = kGates[cellKind]};
  bool batchMajor = kilnInferAttrInt(&l->infer, "layout", 0) != 0;
  static const int64_t kSwap01[3] = {1, 0, 2};
  MlirValue x = kilnLowerOperand(l, 0);
  if (batchMajor)
    x = transpose(b, x, kSwap01);
  KilnLowerStatus st = readConfig(l, &r, x);
  if (st != KILN_LOWER_OK)
    return st;
  MlirValue h0 = kilnLowerOperand(l, 5), c0 = kilnLowerOperand(l, 6);
  if (batchMajor && !mlirValueIsNull(h0))
    h0 = transpose(b, h0, kSwap01);
  if (batchMajor && !mlirValueIsNull(c0))
    c0 = transpose(b, c0, kSwap01);
  MlirValue bias = kilnLowerOperand(l, 3);
  MlirValue p =
      cellKind == CELL_LSTM ? kilnLowerOperand(l, 7) : (MlirValue){NULL};
  int64_t yShape[4] = {r.seq, r.dirs, r.batch, r.hidden};
  int64_t hShape[3] = {r.dirs, r.batch, r.hidden};
  MlirValue y = kilnEmpty(b, kilnTensorType(4, yShape, r.elt));
  MlirValue yh = kilnEmpty(b, kilnTensorType(3, hShape, r.elt));
  MlirValue yc = yh;
  for (int64_t d = 0; d < r.dirs; ++d) {
    int GH = r.gates * (int)r.hidden;
    MlirValue bd = dirOperand(b, bias, d);
    Dir dir = {
        .w = weightsT(b, kilnLowerOperand(l, 1), d),
        .r = weightsT(b, kilnLowerOperand(l, 2), d),
        .wb = mlirValueIsNull(bd) ? bd : slice1D(b, bd, 0, GH),
        .rb = mlirValueIsNull(bd) ? bd : slice1D(b, bd, GH, GH),
        .h0 = mlirValueIsNull(h0) ? zeros(b, &r) : direction(b, h0, d),
        .c0 = mlirValueIsNull(c0) ? zeros(b, &r) : direction(b, c0, d),
        .p = dirOperand(b, p, d),
        .lens = r.masked ? kilnLowerOperand(l, 4) : (MlirValue){NULL},
    };
    Rnn rd = r;
    rd.reverse = r.reverse || d == 1;
    Cell cell = {&rd, rd.acts[d], !mlirValueIsNull(p), false, 0};
    MlirValue res[3];
    runDirection(b, &rd, &cell, &dir, x, res);
    int nState = cellKind == CELL_LSTM ? 2 : 1;
    y = insertAt(b, res[nState], y, 1, d);
    yh = insertAt(b, res[0], yh, 0, d);
    if (cellKind == CELL_LSTM)
      yc = insertAt(b, res[1], yc, 0, d);
  }
  if (batchMajor) {
    static const int64_t kY[4] = {2, 0, 1, 3};
    y = transpose(b, y, kY);
    yh = transpose(b, yh, kSwap01);
    yc = transpose(b, yc, kSwap01);
  }
  MlirValue outs[3] = {y, yh, yc};
  for (intptr_t i = 0; i < l->numResults && i < 3; ++i)
    l->results[i] = outs[i];
  return KILN_LOWER_OK;
}

KilnLowerStatus kilnLowerNNRnn(KilnLowerOp *l) {
  return lowerRecurrent(l, CELL_RNN);
}
KilnLowerStatus kilnLowerNNGru(KilnLowerOp *l) {
  return lowerRecurrent(l, CELL_GRU);
}
KilnLowerStatus kilnLowerNNLstm(KilnLowerOp *l) {
  return lowerRecurrent(l, CELL_LSTM);
}

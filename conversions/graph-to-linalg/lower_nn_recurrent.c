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

static void addBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArith2(b, "arith.addf", args[0], args[1]);
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

/* acc [M, N] + a [M, K] · wt [K, N], computed in `acc`. */
static MlirValue matmulAcc(KilnBuilder *b, MlirValue a, MlirValue wt,
                           MlirValue acc) {
  int64_t am[2] = {0, 2}, wm[2] = {2, 1}, om[2] = {0, 1};
  MlirAttribute maps[3] = {kilnMapDims(b->ctx, 3, 2, am),
                           kilnMapDims(b->ctx, 3, 2, wm),
                           kilnMapDims(b->ctx, 3, 2, om)};
  MlirValue in[2] = {a, wt};
  return mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &acc, maps, 3, "ppr", macBody, NULL), 0);
}

/* `into` [M, N] overwritten with the broadcast bias [N], or zeros when
 * `bias` is null. */
static MlirValue broadcastInto(KilnBuilder *b, MlirValue bias, MlirValue into) {
  if (mlirValueIsNull(bias))
    return kilnFill(b, kilnConstFloat(b, kilnElementType(into), 0), into);
  int64_t col = 1;
  MlirAttribute maps[2] = {kilnMapDims(b->ctx, 2, 1, &col),
                           kilnMapIdentity(b->ctx, 2)};
  return mlirOperationGetResult(
      kilnGeneric(b, 1, &bias, 1, &into, maps, 2, "pp", copyBody, NULL), 0);
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

static MlirValue slice1D(KilnBuilder *b, MlirValue v, int64_t off,
                         int64_t size) {
  int64_t one = 1;
  return kilnExtractSlice(b, v, &off, &size, &one);
}

/* Columns [off, off + n) of a 2-D tensor. */
static MlirValue columns(KilnBuilder *b, MlirValue x, int64_t off, int64_t n) {
  int64_t offs[2] = {0, off}, sizes[2] = {kilnDim(x, 0), n},
          strides[2] = {1, 1};
  return kilnExtractSlice(b, x, offs, sizes, strides);
}

/* tensor.extract_slice / insert_slice of x[t] in a rank-2 or rank-3 tensor
 * x, t dynamic; the slice drops dim 0 (rank-reducing, no reshape:
 * eliminate-empty-tensors then sees the insert_slice that takes a step's
 * result back). */
static MlirNamedAttribute i64Array(KilnBuilder *b, const char *name, intptr_t n,
                                   const int64_t *v) {
  return kilnNamedAttr(b->ctx, name, mlirDenseI64ArrayGet(b->ctx, n, v));
}

static MlirValue sliceStep(KilnBuilder *b, MlirValue src, MlirValue x,
                           MlirValue t) {
  bool insert = !mlirValueIsNull(src);
  intptr_t r = kilnRank(x);
  int64_t off[3] = {mlirShapedTypeGetDynamicStrideOrOffset(), 0, 0};
  int64_t sizes[3] = {1, kilnDim(x, 1), r > 2 ? kilnDim(x, 2) : 1},
          strides[3] = {1, 1, 1};
  int32_t seg[5] = {1, 1, 1, 0, 0};
  MlirNamedAttribute attrs[4] = {
      kilnNamedAttr(
          b->ctx, "operandSegmentSizes",
          mlirDenseI32ArrayGet(b->ctx, insert ? 5 : 4, insert ? seg : seg + 1)),
      i64Array(b, "static_offsets", r, off),
      i64Array(b, "static_sizes", r, sizes),
      i64Array(b, "static_strides", r, strides)};
  MlirValue ops[3] = {src, x, t};
  if (insert)
    return kilnBuildOp1(b, "tensor.insert_slice", mlirValueGetType(x), 3, ops,
                        4, attrs);
  return kilnBuildOp1(b, "tensor.extract_slice",
                      kilnTensorType(r - 1, sizes + 1, kilnElementType(x)), 2,
                      ops + 1, 4, attrs);
}

static MlirValue extractStep(KilnBuilder *b, MlirValue x, MlirValue t) {
  return sliceStep(b, (MlirValue){NULL}, x, t);
}

static MlirValue insertStep(KilnBuilder *b, MlirValue src, MlirValue dest,
                            MlirValue t) {
  return sliceStep(b, src, dest, t);
}

/* ---- One time step --------------------------------------------------------
 */

/* The cell generic over [batch, hidden]. Inputs: the G gate columns of the
 * step's accumulator (x·Wᵀ + h·Rᵀ + biases), then, where the cell has
 * them, P's i, o, f columns, the GRU's h·Rhᵀ and Rbh (linear_before_reset)
 * and the step's row of the mask (1 where the step is within the batch
 * entry's sequence_lens, else 0). Outputs: H and C (LSTM), which it reads and
 * overwrites elementwise (in place), and the step's row of Y (where
 * masked: H if the step is valid, else 0). The GRU's pre-step reads
 * H_prev as an input before its gates and writes r ⊙ H_prev. Fields `at*`
 * are block-argument positions, -1 when absent. */
typedef struct Cell {
  const Rnn *r;
  const Act *act; /* this direction's f, g, h */
  bool resetOnly; /* GRU pre-step: yields r ⊙ H_prev */
  int atGates, atH, atC, atP, atHr, atRbh, atMask;
} Cell;

static MlirValue preact(KilnBuilder *b, const Cell *c, MlirValue v) {
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
static MlirValue lstmCell(KilnBuilder *b, const Cell *c, const MlirValue *in,
                          MlirValue *cn) {
  const Act *f = &c->act[0], *g = &c->act[1], *h = &c->act[2];
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
  const Cell *c = userData;
  const Act *f = &c->act[0], *g = &c->act[1];
  const MlirValue *gates = in + c->atGates;
  MlirValue hp = in[c->atH], h, cn = {NULL};
  if (c->r->cell == CELL_RNN) {
    h = activate(b, f, preact(b, c, gates[0]));
  } else if (c->r->cell == CELL_GRU) {
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

/* Builds the cell generic: `pre` (null: none) is read first, then the
 * G `gates`, then `extra` (1-D ones along the hidden dim, the one at
 * c->atMask along the batch); `outs` are its outputs. */
static MlirOperation runCell(KilnBuilder *b, const Cell *c, MlirValue pre,
                             const MlirValue *gates, intptr_t nExtra,
                             const MlirValue *extra, intptr_t nOut,
                             const MlirValue *outs) {
  const Rnn *r = c->r;
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

/* ---- One direction ----------------------------------------------------------
 */

/* A direction's operands. The time loop carries the input projection of
 * every step (each step adds its recurrent product to its own rows, in
 * place), H and C as [batch, hidden] tensors that the cell generic reads
 * and overwrites elementwise (in place: no buffer per step), Y, into whose
 * row of the step the cell writes H (or 0 past a sequence length), and for
 * GRUs a [batch, hidden] scratch tensor. */
typedef struct Dir {
  MlirValue w, r; /* this direction's, transposed: [K, gates·hidden] */
  MlirValue wb, rb, h0, c0, p, lens;
  MlirValue mask; /* [seq, batch]: 1 where t < lens[batch], else 0 */
} Dir;

/* The gates whose recurrent bias is a plain term of the pre-activation,
 * added to the input projection's bias once instead of per step: all
 * but the h gate of a GRU with linear_before_reset, which multiplies it by
 * r. */
static int foldedGates(const Rnn *r) {
  return r->cell == CELL_GRU && r->linearBeforeReset ? 2 : r->gates;
}

/* Wb + Rb for the folded gates, Wb for the others; null without biases. */
static MlirValue projectionBias(KilnBuilder *b, const Rnn *r, const Dir *d) {
  if (mlirValueIsNull(d->wb))
    return d->wb;
  int64_t n = foldedGates(r) * r->hidden;
  MlirValue in[2] = {slice1D(b, d->wb, 0, n), slice1D(b, d->rb, 0, n)};
  MlirValue sum =
      kilnElementwise(b, 2, in, mlirValueGetType(in[0]), addBody, NULL);
  if (n == r->gates * r->hidden)
    return sum;
  int64_t off = 0, one = 1;
  return kilnInsertSlice(b, sum, d->wb, &off, &one);
}

/* Whether the cell reads H_prev (GRU, masked steps): H is then a
 * [batch, hidden] tensor the cell overwrites in place. Otherwise (and for
 * the GRU's scratch), a cell output that the cell's body does not read
 * would get a new buffer per step (linalg-fuse-elementwise-ops replaces
 * such an output with tensor.empty); it lives in a [2, batch, hidden]
 * tensor instead, step s reading slot s % 2 and writing slot (s + 1) % 2
 * through tensor.insert_slice, which eliminate-empty-tensors makes in
 * place. (At a fixed slot, the loop's subset hoisting would make the slot
 * a [batch, hidden] value again.) */
static bool hReadInPlace(const Rnn *r) {
  return r->cell == CELL_GRU || r->masked;
}

/* The loop's carried values, in order. */
enum {
  CARRY_XW,   /* the projection's columns the first product adds to */
  CARRY_XW_H, /* a GRU's h-gate columns */
  CARRY_H,
  CARRY_C,
  CARRY_Y,
  CARRY_SCRATCH,
  CARRY_MAX
};

typedef struct Carry {
  int pos[CARRY_MAX]; /* position among the iter_args, -1: not carried */
  int n;
} Carry;

/* The loop body: builds the step from the carried values `in` and
 * returns the values to yield in `out`. */
static void stepBody(KilnBuilder *b, const Rnn *r, const Act *act, const Dir *d,
                     const Carry *k, MlirValue s, const MlirValue *in,
                     MlirValue *out) {
  for (int i = 0; i < k->n; ++i)
    out[i] = in[i];
  MlirValue t =
      r->reverse ? kilnArith2(b, "arith.subi", kilnConstIndex(b, r->seq - 1), s)
                 : s;
  int64_t H = r->hidden, GH = r->gates * H;
  bool gru = r->cell == CELL_GRU;
  /* Slots of the [2, batch, hidden] tensors: this step's and the next. */
  MlirValue two = kilnConstIndex(b, 2), one = kilnConstIndex(b, 1);
  MlirValue cur = kilnArith2(b, "arith.remui", s, two);
  MlirValue nxt =
      kilnArith2(b, "arith.remui", kilnArith2(b, "arith.addi", s, one), two);
  bool hInPlace = hReadInPlace(r);
  MlirValue state = in[k->pos[CARRY_H]];
  MlirValue hp = hInPlace ? state : extractStep(b, state, cur);
  /* The step's rows of the projection += H_prev·Rᵀ, in place; for a GRU,
   * the z and r columns only (its h gate has its own columns). */
  int64_t n = gru ? 2 * H : GH;
  MlirValue part = matmulAcc(b, hp, columns(b, d->r, 0, n),
                             extractStep(b, in[k->pos[CARRY_XW]], t));
  MlirValue gates[4], hPart = {NULL};
  for (int g = 0; g < r->gates; ++g)
    gates[g] = g * H < n ? columns(b, part, g * H, H)
                         : extractStep(b, in[k->pos[CARRY_XW_H]], t);
  bool lstm = r->cell == CELL_LSTM;
  int nOut = lstm ? 3 : 2, nIn = r->gates;
  Cell cell = {r, act, false, 0, -1, -1, -1, -1, -1, -1};
  MlirValue extra[6], scratchOut = {NULL};
  intptr_t nExtra = 0;
  if (gru && !r->linearBeforeReset) {
    /* acc_h += (r ⊙ H_prev)·Rhᵀ; r ⊙ H_prev in the carried scratch. */
    Cell pre = {r, act, true, 1, 0, -1, -1, -1, -1, -1};
    MlirValue scratch = extractStep(b, in[k->pos[CARRY_SCRATCH]], cur);
    MlirValue rh = mlirOperationGetResult(
        runCell(b, &pre, hp, gates, 0, NULL, 1, &scratch), 0);
    scratchOut = rh;
    hPart = matmulAcc(b, rh, columns(b, d->r, 2 * H, H), gates[2]);
    gates[2] = hPart;
  } else if (gru) {
    /* H_prev·Rhᵀ apart, from zeros (a fill, which keeps its output where
     * a generic that does not read it would get a new buffer): r
     * multiplies it and Rbh, which the cell adds. */
    MlirValue hr = broadcastInto(
        b, (MlirValue){NULL}, extractStep(b, in[k->pos[CARRY_SCRATCH]], cur));
    hr = matmulAcc(b, hp, columns(b, d->r, 2 * H, H), hr);
    scratchOut = hr;
    cell.atHr = nIn + (int)nExtra;
    extra[nExtra++] = hr;
    if (!mlirValueIsNull(d->rb)) {
      cell.atRbh = nIn + (int)nExtra;
      extra[nExtra++] = slice1D(b, d->rb, 2 * H, H);
    }
  }
  if (lstm && !mlirValueIsNull(d->p)) {
    cell.atP = nIn + (int)nExtra;
    for (int g = 0; g < 3; ++g)
      extra[nExtra++] = slice1D(b, d->p, g * H, H);
  }
  if (!mlirValueIsNull(d->mask)) {
    cell.atMask = nIn + (int)nExtra;
    extra[nExtra++] = extractStep(b, d->mask, t);
  }
  /* H and C are outputs the cell reads and overwrites; Y gets the step's
   * row. */
  nIn += (int)nExtra;
  cell.atH = nIn;
  cell.atC = lstm ? nIn + 1 : -1;
  MlirValue yRow = extractStep(b, in[k->pos[CARRY_Y]], t);
  MlirValue outs[3] = {hInPlace ? state : extractStep(b, state, nxt),
                       lstm ? in[k->pos[CARRY_C]] : yRow, yRow};
  MlirOperation op =
      runCell(b, &cell, (MlirValue){NULL}, gates, nExtra, extra, nOut, outs);
  MlirValue h = mlirOperationGetResult(op, 0);
  out[k->pos[CARRY_H]] = hInPlace ? h : insertStep(b, h, state, nxt);
  if (lstm)
    out[k->pos[CARRY_C]] = mlirOperationGetResult(op, 1);
  out[k->pos[CARRY_Y]] = insertStep(b, mlirOperationGetResult(op, nOut - 1),
                                    in[k->pos[CARRY_Y]], t);
  /* Last: the ops above read the products and the scratch, which these
   * write back in place (an insert_slice before a read of what it inserts
   * costs a copy). */
  out[k->pos[CARRY_XW]] = insertStep(b, part, in[k->pos[CARRY_XW]], t);
  if (!mlirValueIsNull(hPart))
    out[k->pos[CARRY_XW_H]] = insertStep(b, hPart, in[k->pos[CARRY_XW_H]], t);
  if (gru)
    out[k->pos[CARRY_SCRATCH]] =
        insertStep(b, scratchOut, in[k->pos[CARRY_SCRATCH]], cur);
}

/* dest with `src` (rank n) inserted at index d of dim `dim`. */
static MlirValue insertAt(KilnBuilder *b, MlirValue src, MlirValue dest,
                          intptr_t dim, int64_t d) {
  intptr_t r = kilnRank(dest);
  int64_t shape[KILN_MAX_RANK], off[KILN_MAX_RANK] = {0},
                                strides[KILN_MAX_RANK];
  for (intptr_t i = 0; i < r; ++i) {
    shape[i] = i == dim ? 1 : kilnDim(src, i < dim ? i : i - 1);
    strides[i] = 1;
  }
  off[dim] = d;
  MlirValue s =
      kilnReshape(b, src, kilnTensorType(r, shape, kilnElementType(src)));
  return kilnInsertSlice(b, s, dest, off, strides);
}

/* The scf.for over the steps with `inits` carried; returns the loop. */
static MlirOperation buildLoop(KilnBuilder *b, const Rnn *r, const Act *act,
                               const Dir *d, const Carry *k,
                               const MlirValue *inits) {
  MlirType types[1 + CARRY_MAX];
  MlirLocation locs[1 + CARRY_MAX];
  types[0] = mlirIndexTypeGet(b->ctx);
  for (int i = 0; i < k->n; ++i)
    types[1 + i] = mlirValueGetType(inits[i]);
  for (int i = 0; i < 1 + k->n; ++i)
    locs[i] = b->loc;
  MlirBlock body = mlirBlockCreate(1 + k->n, types, locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, body);
  MlirValue ops[3 + CARRY_MAX] = {
      kilnConstIndex(b, 0), kilnConstIndex(b, r->seq), kilnConstIndex(b, 1)};
  for (int i = 0; i < k->n; ++i)
    ops[3 + i] = inits[i];
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.for"), b->loc);
  mlirOperationStateAddResults(&st, k->n, types + 1);
  mlirOperationStateAddOperands(&st, 3 + k->n, ops);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation loop = kilnBuildInsert(b, &st);
  KilnBuilder inner = {b->ctx, b->loc, body, {NULL}};
  MlirValue carried[CARRY_MAX], next[CARRY_MAX];
  for (int i = 0; i < k->n; ++i)
    carried[i] = mlirBlockGetArgument(body, 1 + i);
  stepBody(&inner, r, act, d, k, mlirBlockGetArgument(body, 0), carried, next);
  kilnBuildOp(&inner, "scf.yield", 0, NULL, k->n, next, 0, NULL);
  return loop;
}

/* x2 [seq·batch, K] · columns [off, off + n) of wt + the same of `bias`
 * (null: none), as [seq, batch, n]. */
static MlirValue projection(KilnBuilder *b, const Rnn *r, MlirValue x2,
                            MlirValue wt, MlirValue bias, int64_t off,
                            int64_t n) {
  int64_t flat[2] = {r->seq * r->batch, n}, shape[3] = {r->seq, r->batch, n};
  MlirValue xw =
      broadcastInto(b, mlirValueIsNull(bias) ? bias : slice1D(b, bias, off, n),
                    kilnEmpty(b, kilnTensorType(2, flat, r->elt)));
  xw = matmulAcc(b, x2, columns(b, wt, off, n), xw);
  return kilnReshape(b, xw, kilnTensorType(3, shape, r->elt));
}

/* mask[t, n] = t < lens[n] ? 1 : 0, in the element type of `like`. */
static void maskBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                     void *userData) {
  (void)userData;
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue valid = kilnCmpI(
      b, "slt", kilnConvertScalar(b, kilnLinalgIndex(b, 0), i64, false),
      kilnConvertScalar(b, args[0], i64, false));
  yields[0] = kilnSelect(b, valid, cst(b, args[1], 1), cst(b, args[1], 0));
}

/* The steps' masks, computed once before the loop: the cell then selects
 * with float compares, which vectorize (an index compare in its body
 * would keep it scalar). */
static MlirValue stepMask(KilnBuilder *b, const Rnn *r, MlirValue lens) {
  int64_t shape[2] = {r->seq, r->batch}, col = 1;
  MlirValue out = kilnEmpty(b, kilnTensorType(2, shape, r->elt));
  MlirAttribute maps[2] = {kilnMapDims(b->ctx, 2, 1, &col),
                           kilnMapIdentity(b->ctx, 2)};
  return mlirOperationGetResult(
      kilnGeneric(b, 1, &lens, 1, &out, maps, 2, "pp", maskBody, NULL), 0);
}

/* Runs the time loop of one direction: results H_last, C_last, Y_d. */
static void runDirection(KilnBuilder *b, const Rnn *r, const Act *act,
                         const Dir *dir, MlirValue x3, MlirValue *results) {
  Dir masked = *dir;
  if (!mlirValueIsNull(dir->lens))
    masked.mask = stepMask(b, r, dir->lens);
  const Dir *d = &masked;
  /* The input projection of every step, with the folded biases: the
   * accumulator each step adds its recurrent product to. A GRU's h-gate
   * columns apart: its steps write the z and r columns before they read
   * the h ones. */
  int64_t H = r->hidden, GH = r->gates * H;
  int64_t n = r->cell == CELL_GRU ? 2 * H : GH;
  int64_t flat[2] = {r->seq * r->batch, r->input};
  MlirValue x2 = kilnReshape(b, x3, kilnTensorType(2, flat, r->elt));
  MlirValue bias = projectionBias(b, r, d);
  Carry k = {{-1, -1, -1, -1, -1, -1}, 0};
  MlirValue inits[CARRY_MAX];
  k.pos[CARRY_XW] = k.n;
  inits[k.n++] = projection(b, r, x2, d->w, bias, 0, n);
  if (n < GH) {
    k.pos[CARRY_XW_H] = k.n;
    inits[k.n++] = projection(b, r, x2, d->w, bias, n, GH - n);
  }
  int64_t yShape[3] = {r->seq, r->batch, r->hidden};
  int64_t pairShape[3] = {2, r->batch, r->hidden};
  MlirType pairType = kilnTensorType(3, pairShape, r->elt);
  k.pos[CARRY_H] = k.n;
  inits[k.n++] = hReadInPlace(r)
                     ? d->h0
                     : insertAt(b, d->h0, kilnEmpty(b, pairType), 0, 0);
  if (r->cell == CELL_LSTM) {
    k.pos[CARRY_C] = k.n;
    inits[k.n++] = d->c0;
  }
  k.pos[CARRY_Y] = k.n;
  inits[k.n++] = kilnEmpty(b, kilnTensorType(3, yShape, r->elt));
  if (r->cell == CELL_GRU) {
    k.pos[CARRY_SCRATCH] = k.n;
    inits[k.n++] = kilnEmpty(b, pairType);
  }
  MlirOperation loop = buildLoop(b, r, act, d, &k, inits);
  MlirValue h = mlirOperationGetResult(loop, k.pos[CARRY_H]);
  results[0] = hReadInPlace(r) ? h : direction(b, h, r->seq % 2);
  if (r->cell == CELL_LSTM)
    results[1] = mlirOperationGetResult(loop, k.pos[CARRY_C]);
  results[2] = mlirOperationGetResult(loop, k.pos[CARRY_Y]);
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
    MlirValue res[3];
    runDirection(b, &rd, rd.acts[d], &dir, x, res);
    y = insertAt(b, res[2], y, 1, d);
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

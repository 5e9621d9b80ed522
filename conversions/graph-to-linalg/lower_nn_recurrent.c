/* rnn, gru and lstm → linalg: per direction, the input projection of
 * every time step as contractions before an scf.for over the steps, whose
 * body adds H·Rᵀ to the step's rows in place and runs the cell generic
 * (lower_nn_recurrent_cell.c), with no buffer or copy per step
 * (docs/graph-to-linalg.md). The directions' results are assembled after
 * the loops (and transposed for layout = 1). */
#include <string.h>

#include "conversions/graph-to-linalg/lower_nn_recurrent.h"
#include "conversions/graph-to-linalg/lower_tensor.h"
#include "kiln/diagnostics.h"

/* ---- Tensor helpers ------------------------------------------------------ */

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
      kilnGeneric(b, 1, &bias, 1, &into, maps, 2, "pp", kilnCopyBody, NULL), 0);
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
  return kilnTensorTranspose(b, direction(b, w, d), kSwap);
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

/* ---- One direction ----------------------------------------------------------
 */

/* A direction's operands. The time loop carries the input projection of
 * every step (each step adds its recurrent product to its own rows, in
 * place), H and C, which the cell generic overwrites in place (see
 * hReadInPlace), Y, into whose row of the step the cell writes H (or 0
 * past a sequence length), and for GRUs a [2, batch, hidden] scratch
 * tensor. */
typedef struct Dir {
  MlirValue w, r; /* this direction's, transposed: [K, gates·hidden] */
  MlirValue wb, rb, h0, c0, p, lens;
  MlirValue mask; /* [seq, batch]: 1 where t < lens[batch], else 0 */
} Dir;

/* The gates whose recurrent bias is a plain term of the pre-activation,
 * added to the input projection's bias once instead of per step: all
 * but the h gate of a GRU with linear_before_reset, which multiplies it by
 * r. */
static int foldedGates(const KilnRnn *r) {
  return r->cell == KILN_GRU && r->linearBeforeReset ? 2 : r->gates;
}

/* Wb + Rb for the folded gates, Wb for the others; null without biases. */
static MlirValue projectionBias(KilnBuilder *b, const KilnRnn *r,
                                const Dir *d) {
  if (mlirValueIsNull(d->wb))
    return d->wb;
  int64_t n = foldedGates(r) * r->hidden;
  MlirValue in[2] = {slice1D(b, d->wb, 0, n), slice1D(b, d->rb, 0, n)};
  MlirValue sum =
      kilnElementwise(b, 2, in, mlirValueGetType(in[0]), kilnAddBody, NULL);
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
static bool hReadInPlace(const KilnRnn *r) {
  return r->cell == KILN_GRU || r->masked;
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
static void stepBody(KilnBuilder *b, const KilnRnn *r, const KilnRnnAct *act,
                     const Dir *d, const Carry *k, MlirValue s,
                     const MlirValue *in, MlirValue *out) {
  for (int i = 0; i < k->n; ++i)
    out[i] = in[i];
  MlirValue t =
      r->reverse ? kilnArith2(b, "arith.subi", kilnConstIndex(b, r->seq - 1), s)
                 : s;
  int64_t H = r->hidden, GH = r->gates * H;
  bool gru = r->cell == KILN_GRU;
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
  bool lstm = r->cell == KILN_LSTM;
  int nOut = lstm ? 3 : 2, nIn = r->gates;
  KilnRnnCell cell = {r, act, false, 0, -1, -1, -1, -1, -1, -1};
  MlirValue extra[6], scratchOut = {NULL};
  intptr_t nExtra = 0;
  if (gru && !r->linearBeforeReset) {
    /* acc_h += (r ⊙ H_prev)·Rhᵀ; r ⊙ H_prev in the carried scratch. */
    KilnRnnCell pre = {r, act, true, 1, 0, -1, -1, -1, -1, -1};
    MlirValue scratch = extractStep(b, in[k->pos[CARRY_SCRATCH]], cur);
    MlirValue rh = mlirOperationGetResult(
        kilnLowerRnnCell(b, &pre, hp, gates, 0, NULL, 1, &scratch), 0);
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
  MlirOperation op = kilnLowerRnnCell(b, &cell, (MlirValue){NULL}, gates,
                                      nExtra, extra, nOut, outs);
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
static MlirOperation buildLoop(KilnBuilder *b, const KilnRnn *r,
                               const KilnRnnAct *act, const Dir *d,
                               const Carry *k, const MlirValue *inits) {
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
static MlirValue projection(KilnBuilder *b, const KilnRnn *r, MlirValue x2,
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
  MlirType t = mlirValueGetType(args[1]);
  yields[0] =
      kilnSelect(b, valid, kilnConstFloat(b, t, 1), kilnConstFloat(b, t, 0));
}

/* The steps' masks, computed once before the loop: the cell then selects
 * with float compares, which vectorize (an index compare in its body
 * would keep it scalar). */
static MlirValue stepMask(KilnBuilder *b, const KilnRnn *r, MlirValue lens) {
  int64_t shape[2] = {r->seq, r->batch}, col = 1;
  MlirValue out = kilnEmpty(b, kilnTensorType(2, shape, r->elt));
  MlirAttribute maps[2] = {kilnMapDims(b->ctx, 2, 1, &col),
                           kilnMapIdentity(b->ctx, 2)};
  return mlirOperationGetResult(
      kilnGeneric(b, 1, &lens, 1, &out, maps, 2, "pp", maskBody, NULL), 0);
}

/* Runs the time loop of one direction: results H_last, C_last, Y_d. */
static void runDirection(KilnBuilder *b, const KilnRnn *r,
                         const KilnRnnAct *act, const Dir *dir, MlirValue x3,
                         MlirValue *results) {
  Dir masked = *dir;
  if (!mlirValueIsNull(dir->lens))
    masked.mask = stepMask(b, r, dir->lens);
  const Dir *d = &masked;
  /* The input projection of every step, with the folded biases: the
   * accumulator each step adds its recurrent product to. A GRU's h-gate
   * columns apart: its steps write the z and r columns before they read
   * the h ones. */
  int64_t H = r->hidden, GH = r->gates * H;
  int64_t n = r->cell == KILN_GRU ? 2 * H : GH;
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
  if (r->cell == KILN_LSTM) {
    k.pos[CARRY_C] = k.n;
    inits[k.n++] = d->c0;
  }
  k.pos[CARRY_Y] = k.n;
  inits[k.n++] = kilnEmpty(b, kilnTensorType(3, yShape, r->elt));
  if (r->cell == KILN_GRU) {
    k.pos[CARRY_SCRATCH] = k.n;
    inits[k.n++] = kilnEmpty(b, pairType);
  }
  MlirOperation loop = buildLoop(b, r, act, d, &k, inits);
  MlirValue h = mlirOperationGetResult(loop, k.pos[CARRY_H]);
  results[0] = hReadInPlace(r) ? h : direction(b, h, r->seq % 2);
  if (r->cell == KILN_LSTM)
    results[1] = mlirOperationGetResult(loop, k.pos[CARRY_C]);
  results[2] = mlirOperationGetResult(loop, k.pos[CARRY_Y]);
}

/* ---- The op -----------------------------------------------------------------
 */

static KilnLowerStatus readConfig(KilnLowerOp *l, KilnRnn *r, MlirValue x3) {
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
  return kilnLowerRnnReadActivations(l, r, kPerDir[r->cell]);
}

/* Per-direction operand d of a [dirs, ...] operand, or `dflt`. */
static MlirValue dirOperand(KilnBuilder *b, MlirValue v, int64_t d) {
  return mlirValueIsNull(v) ? v : direction(b, v, d);
}

static MlirValue zeros(KilnBuilder *b, const KilnRnn *r) {
  int64_t shape[2] = {r->batch, r->hidden};
  return kilnFilled(b, kilnTensorType(2, shape, r->elt),
                    kilnConstFloat(b, r->elt, 0));
}

static KilnLowerStatus lowerRecurrent(KilnLowerOp *l, int cellKind) {
  KilnBuilder *b = &l->b;
  static const int kGates[3] = {1, 3, 4};
  KilnRnn r = {.cell = cellKind, .gates = kGates[cellKind]};
  bool batchMajor = kilnInferAttrInt(&l->infer, "layout", 0) != 0;
  static const int64_t kSwap01[3] = {1, 0, 2};
  MlirValue x = kilnLowerOperand(l, 0);
  if (batchMajor)
    x = kilnTensorTranspose(b, x, kSwap01);
  KilnLowerStatus st = readConfig(l, &r, x);
  if (st != KILN_LOWER_OK)
    return st;
  MlirValue h0 = kilnLowerOperand(l, 5), c0 = kilnLowerOperand(l, 6);
  if (batchMajor && !mlirValueIsNull(h0))
    h0 = kilnTensorTranspose(b, h0, kSwap01);
  if (batchMajor && !mlirValueIsNull(c0))
    c0 = kilnTensorTranspose(b, c0, kSwap01);
  MlirValue bias = kilnLowerOperand(l, 3);
  MlirValue p =
      cellKind == KILN_LSTM ? kilnLowerOperand(l, 7) : (MlirValue){NULL};
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
    KilnRnn rd = r;
    rd.reverse = r.reverse || d == 1;
    MlirValue res[3];
    runDirection(b, &rd, rd.acts[d], &dir, x, res);
    y = insertAt(b, res[2], y, 1, d);
    yh = insertAt(b, res[0], yh, 0, d);
    if (cellKind == KILN_LSTM)
      yc = insertAt(b, res[1], yc, 0, d);
  }
  if (batchMajor) {
    static const int64_t kY[4] = {2, 0, 1, 3};
    y = kilnTensorTranspose(b, y, kY);
    yh = kilnTensorTranspose(b, yh, kSwap01);
    yc = kilnTensorTranspose(b, yc, kSwap01);
  }
  MlirValue outs[3] = {y, yh, yc};
  for (intptr_t i = 0; i < l->numResults && i < 3; ++i)
    l->results[i] = outs[i];
  return KILN_LOWER_OK;
}

KilnLowerStatus kilnLowerNNRnn(KilnLowerOp *l) {
  return lowerRecurrent(l, KILN_RNN);
}
KilnLowerStatus kilnLowerNNGru(KilnLowerOp *l) {
  return lowerRecurrent(l, KILN_GRU);
}
KilnLowerStatus kilnLowerNNLstm(KilnLowerOp *l) {
  return lowerRecurrent(l, KILN_LSTM);
}

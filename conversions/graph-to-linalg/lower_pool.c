/* Pooling (max_pool, average_pool, the global pools) and max_unpool →
 * linalg (plus one scf.for for max_unpool's scatter). Windows read a
 * padded copy of the input (filled tensor + insert_slice, -inf or zeros)
 * that also covers ceil_mode windows running past the end. */
#include <stdlib.h>
#include <string.h>

#include "conversions/graph-to-linalg/lower_conv_window.h"
#include "conversions/graph-to-linalg/lower_window_dynamic.h"

static MlirAffineExpr cst(MlirContext ctx, int64_t v) {
  return mlirAffineConstantExprGet(ctx, v);
}

/* Maps of a window generic over loops n, c, o1..on, k1..kn: the padded
 * input (n, c, o*s + k*d), the kernel-shaped tensor (k..) and the result
 * (n, c, o..). */
static void windowMaps(MlirContext ctx, const KilnWindow *w,
                       MlirAttribute *maps) {
  intptr_t n = w->n, nLoops = 2 + 2 * n;
  MlirAffineExpr xe[KILN_MAX_RANK], ke[KILN_MAX_RANK], ye[KILN_MAX_RANK];
  xe[0] = ye[0] = mlirAffineDimExprGet(ctx, 0);
  xe[1] = ye[1] = mlirAffineDimExprGet(ctx, 1);
  for (intptr_t i = 0; i < n; ++i) {
    MlirAffineExpr o = mlirAffineDimExprGet(ctx, 2 + i);
    MlirAffineExpr k = mlirAffineDimExprGet(ctx, 2 + n + i);
    xe[2 + i] = mlirAffineAddExprGet(
        mlirAffineMulExprGet(o, cst(ctx, w->strides[i])),
        mlirAffineMulExprGet(k, cst(ctx, w->dilations[i])));
    ke[i] = k;
    ye[2 + i] = o;
  }
  maps[0] = kilnMapExprs(ctx, nLoops, n + 2, xe);
  maps[1] = kilnMapExprs(ctx, nLoops, n, ke);
  maps[2] = maps[3] = kilnMapExprs(ctx, nLoops, n + 2, ye);
}

static void windowIterators(const KilnWindow *w, char *iters) {
  memset(iters, 'p', 2 + w->n);
  memset(iters + 2 + w->n, 'r', w->n);
  iters[2 + 2 * w->n] = '\0';
}

static MlirValue strideAttrsPool(KilnBuilder *b, const char *name,
                                 MlirValue padded, const KilnWindow *w,
                                 MlirValue init) {
  MlirNamedAttribute attrs[2] = {
      kilnNamedAttr(b->ctx, "strides",
                    kilnWindowI64Elements(b->ctx, w->n, w->strides)),
      kilnNamedAttr(b->ctx, "dilations",
                    kilnWindowI64Elements(b->ctx, w->n, w->dilations))};
  MlirValue in[2] = {padded,
                     kilnWindowKernelTensor(b, w, kilnElementType(padded))};
  return kilnNamedOp(b, name, 2, in, init, 2, attrs);
}

/* ---- max_pool --------------------------------------------------------- */

typedef struct MaxPoolBody {
  const KilnWindow *w;
  int64_t channels;
  bool colMajor, withIndex, isUnsigned;
} MaxPoolBody;

static MlirValue indexArith(KilnBuilder *b, const char *op, MlirValue a,
                            int64_t c) {
  return kilnArith2(b, op, a, kilnConstIndex(b, c));
}

/* ONNX's flat index of the input element the window reads: over
 * N x C x D1 .. Dn, the spatial part row major (storage_order 0) or column
 * major (1). */
static MlirValue flatIndex(KilnBuilder *b, const MaxPoolBody *p) {
  const KilnWindow *w = p->w;
  intptr_t n = w->n;
  MlirValue flat =
      indexArith(b, "arith.muli", kilnLinalgIndex(b, 0), p->channels);
  flat = kilnArith2(b, "arith.addi", flat, kilnLinalgIndex(b, 1));
  int64_t plane = 1;
  for (intptr_t i = 0; i < n; ++i)
    plane *= w->in[i];
  flat = indexArith(b, "arith.muli", flat, plane);
  int64_t stride = 1;
  for (intptr_t j = 0; j < n; ++j) {
    intptr_t i = p->colMajor ? j : n - 1 - j;
    MlirValue h =
        indexArith(b, "arith.muli", kilnLinalgIndex(b, 2 + i), w->strides[i]);
    MlirValue k = indexArith(b, "arith.muli", kilnLinalgIndex(b, 2 + n + i),
                             w->dilations[i]);
    h = kilnArith2(b, "arith.addi", h, k);
    h = indexArith(b, "arith.subi", h, w->padBegin[i]);
    flat = kilnArith2(b, "arith.addi", flat,
                      indexArith(b, "arith.muli", h, stride));
    stride *= w->in[i];
  }
  return kilnConvertScalar(b, flat, mlirIntegerTypeGet(b->ctx, 64), false);
}

/* The first maximum of the window wins (a strictly greater value replaces
 * it), so padding (-inf) is never picked over an input element; a NaN
 * replaces anything and is never replaced. */
static void maxPoolBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  const MaxPoolBody *p = userData;
  MlirType e = mlirValueGetType(args[0]);
  MlirValue x = kilnToSignless(b, args[0]), acc = kilnToSignless(b, args[2]);
  MlirValue take;
  if (kilnTypeIsFloat(e)) /* NaN propagates, as in np.max: the first wins */
    take = kilnArith2(b, "arith.andi", kilnCmpF(b, "ugt", x, acc),
                      kilnCmpF(b, "ord", acc, acc));
  else
    take = kilnCmpI(b, p->isUnsigned ? "ugt" : "sgt", x, acc);
  yields[0] = kilnFromSignless(b, kilnSelect(b, take, x, acc), e);
  if (p->withIndex)
    yields[1] = kilnSelect(b, take, flatIndex(b, p), args[3]);
}

/* The max of the taps, NaN propagating; `nsz`: the sign of a zero maximum
 * may be either (max(-0, +0)), as in ONNX Runtime and PyTorch's CPU
 * kernels, which spares the sign tests of x86's maximumf lowering (a
 * vmaxps, then NaN and signed-zero fixes: 6 instructions per tap instead
 * of 3). */
static void tapsMaxBody(KilnBuilder *b, const MlirValue *args,
                        MlirValue *yields, void *userData) {
  intptr_t taps = *(const intptr_t *)userData;
  MlirAttribute nsz = mlirAttributeParseGet(
      b->ctx, mlirStringRefCreateFromCString("#arith.fastmath<nsz>"));
  MlirValue m = args[0];
  for (intptr_t t = 1; t < taps; ++t) {
    m = kilnArith2(b, "arith.maximumf", m, args[t]);
    mlirOperationSetAttributeByName(mlirOpResultGetOwner(m),
                                    mlirStringRefCreateFromCString("fastmath"),
                                    nsz);
  }
  yields[0] = m;
}

/* Most taps of a pool lowered as one elementwise generic over them (a
 * 3x3x3 window has 27). */
enum { kMaxPoolTaps = 27 };

/* The kernel taps of a 1-D, 2-D or 3-D pool over the padded `x`, each a
 * strided slice of x (a view, no copy) the shape of the output; their
 * count, or 0 when the pool does not fit (another rank, more taps, dynamic
 * shapes). A pool computed as one elementwise generic over its taps is
 * vectorized along the output rows by the CPU schedules (a stride-2
 * tap's read widened by kiln-widen-strided-reads), where the named
 * pooling ops' window loops stay scalar. */
static intptr_t poolTaps(KilnBuilder *b, MlirValue padded, const KilnWindow *w,
                         MlirType yType, MlirValue *taps) {
  intptr_t nd = w->n;
  int64_t count = 1;
  for (intptr_t i = 0; i < nd; ++i)
    count *= w->kernel[i];
  if (nd < 1 || nd > 3 ||
      !mlirShapedTypeHasStaticShape(mlirValueGetType(padded)) ||
      !mlirShapedTypeHasStaticShape(yType) || count > kMaxPoolTaps)
    return 0;
  int64_t sizes[5] = {kilnDim(padded, 0), kilnDim(padded, 1)};
  int64_t strides[5] = {1, 1};
  for (intptr_t i = 0; i < nd; ++i) {
    sizes[2 + i] = w->out[i];
    strides[2 + i] = w->strides[i];
  }
  int64_t tap[3] = {0, 0, 0}; /* kernel position, last dim fastest */
  for (intptr_t t = 0; t < count; ++t) {
    int64_t from[5] = {0, 0};
    for (intptr_t i = 0; i < nd; ++i)
      from[2 + i] = tap[i] * w->dilations[i];
    taps[t] = kilnExtractSlice(b, padded, from, sizes, strides);
    for (intptr_t i = nd - 1; i >= 0 && ++tap[i] == w->kernel[i]; --i)
      tap[i] = 0;
  }
  return count;
}

/* "ppp.." for a pool's `rank` parallel loops. */
static void parallelIterators(intptr_t rank, char *iters) {
  memset(iters, 'p', rank);
  iters[rank] = '\0';
}

/* A max pool as one elementwise max over its taps (poolTaps). Same
 * semantics as the named op (arith.maximumf: NaN propagates). Null when
 * the pool does not fit. */
static MlirValue maxPoolTaps(KilnBuilder *b, MlirValue padded,
                             const KilnWindow *w, MlirType yType) {
  MlirValue taps[kMaxPoolTaps];
  intptr_t n = poolTaps(b, padded, w, yType, taps);
  if (!n)
    return (MlirValue){NULL};
  intptr_t rank = w->n + 2;
  MlirAttribute maps[kMaxPoolTaps + 1];
  for (intptr_t t = 0; t <= n; ++t)
    maps[t] = kilnMapIdentity(b->ctx, rank);
  char iters[8];
  parallelIterators(rank, iters);
  MlirValue out = kilnEmpty(b, yType);
  return mlirOperationGetResult(
      kilnGeneric(b, n, taps, 1, &out, maps, rank, iters, tapsMaxBody, &n), 0);
}

static MlirValue maxPoolSample(KilnLowerOp *l, KilnBuilder *b, MlirValue x,
                               MlirType yType);

KilnLowerStatus kilnLowerMaxPool(KilnLowerOp *l) {
  if (kilnLowerIsDynamic(l))
    return kilnLowerOnlyBatchDynamic(l) ? kilnLowerPerSample(l, maxPoolSample)
                                        : kilnLowerMaxPoolDynamic(l);
  l->results[0] = maxPoolSample(l, &l->b, kilnLowerOperand(l, 0),
                                kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

/* MaxPool of static x into yType (with the indices into l->results[1] when
 * the op has them). */
static MlirValue maxPoolSample(KilnLowerOp *l, KilnBuilder *b, MlirValue x,
                               MlirType yType) {
  KilnWindow w;
  kilnWindowRead(l, x, yType, NULL, &w);
  MlirType e = kilnElementType(x);
  /* uiN (ONNX uint8) elements: arith wants signless scalars, so the
   * generic compares them as iN with an unsigned predicate. */
  bool isUnsigned = kilnTypeIsUnsignedInt(e);
  MlirValue lowest =
      isUnsigned
          ? kilnFromSignless(
                b,
                kilnConstInt(
                    b, mlirIntegerTypeGet(b->ctx, mlirIntegerTypeGetWidth(e)),
                    0),
                e)
          : kilnConstLowest(b, e);
  MlirValue padded = kilnWindowPadBorders(b, x, &w, lowest);
  bool withIndex = l->numResults > 1;
  if (!withIndex && kilnTypeIsFloat(e)) {
    MlirValue y = maxPoolTaps(b, padded, &w, yType);
    if (!mlirValueIsNull(y)) {
      return y;
    }
  }
  MlirValue init = kilnFilled(b, yType, lowest);
  if (!withIndex && w.n <= 2 && !isUnsigned) {
    return strideAttrsPool(
        b, w.n == 1 ? "linalg.pooling_ncw_max" : "linalg.pooling_nchw_max",
        padded, &w, init);
  }
  MaxPoolBody body = {&w, kilnDim(x, 1),
                      kilnInferAttrInt(&l->infer, "storage_order", 0) == 1,
                      withIndex, isUnsigned};
  MlirValue outs[2] = {init};
  if (withIndex)
    outs[1] = kilnFilled(b, kilnLowerResultType(l, 1),
                         kilnConstInt(b, mlirIntegerTypeGet(b->ctx, 64), 0));
  MlirValue in[2] = {padded, kilnWindowKernelTensor(b, &w, e)};
  MlirAttribute maps[4];
  windowMaps(b->ctx, &w, maps);
  char iters[2 * KILN_MAX_RANK + 3];
  windowIterators(&w, iters);
  MlirOperation op = kilnGeneric(b, 2, in, withIndex ? 2 : 1, outs, maps,
                                 2 + 2 * w.n, iters, maxPoolBody, &body);
  if (withIndex)
    l->results[1] = mlirOperationGetResult(op, 1);
  return mlirOperationGetResult(op, 0);
}

/* ---- average_pool ----------------------------------------------------- */

static void sumBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                    void *userData) {
  (void)userData;
  yields[0] = kilnArithNumeric(b, "add", args[2], args[0]);
}

/* sum / (count_0[o0] * count_1[o1] ...), the counts f32 vectors. */
static void divideBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  intptr_t n = *(const intptr_t *)userData;
  MlirValue count = args[1];
  for (intptr_t i = 1; i < n; ++i)
    count = kilnArith2(b, "arith.mulf", count, args[1 + i]);
  MlirType e = mlirValueGetType(args[0]);
  yields[0] = kilnArith2(b, "arith.divf", args[0],
                         kilnConvertScalar(b, count, e, false));
}

/* How many of the window's positions at output o of dim i count: the
 * input elements, or with count_include_pad also the explicit padding
 * (windows are clipped at its end, as ONNX Runtime and PyTorch do). */
static int64_t windowCount(const KilnWindow *w, intptr_t i, int64_t o,
                           bool includePad) {
  int64_t lo = includePad ? -w->padBegin[i] : 0;
  int64_t hi = includePad ? w->in[i] + w->padEnd[i] : w->in[i];
  int64_t count = 0;
  for (int64_t k = 0; k < w->kernel[i]; ++k) {
    int64_t p = o * w->strides[i] - w->padBegin[i] + k * w->dilations[i];
    count += p >= lo && p < hi;
  }
  return count;
}

static MlirValue windowSum(KilnBuilder *b, MlirValue padded,
                           const KilnWindow *w, MlirType yType) {
  MlirType e = kilnElementType(padded);
  MlirValue init = kilnFilled(b, yType, kilnConstFloat(b, e, 0));
  if (w->n <= 2)
    return strideAttrsPool(
        b, w->n == 1 ? "linalg.pooling_ncw_sum" : "linalg.pooling_nchw_sum",
        padded, w, init);
  MlirValue in[2] = {padded, kilnWindowKernelTensor(b, w, e)};
  MlirAttribute maps[4];
  windowMaps(b->ctx, w, maps);
  MlirAttribute m3[3] = {maps[0], maps[1], maps[2]};
  char iters[2 * KILN_MAX_RANK + 3];
  windowIterators(w, iters);
  return mlirOperationGetResult(
      kilnGeneric(b, 2, in, 1, &init, m3, 2 + 2 * w->n, iters, sumBody, NULL),
      0);
}

/* The taps and spatial dims of an average pool's taps generic. */
typedef struct TapsAverage {
  intptr_t taps, dims;
} TapsAverage;

/* sum(taps) / (count_1[o1] * .. * count_n[on]): args are the taps, then
 * one count vector per spatial dim. */
static void tapsAverageBody(KilnBuilder *b, const MlirValue *args,
                            MlirValue *yields, void *userData) {
  const TapsAverage *p = userData;
  MlirValue s = args[0];
  for (intptr_t t = 1; t < p->taps; ++t)
    s = kilnAddF(b, s, args[t]);
  MlirValue count = args[p->taps];
  for (intptr_t i = 1; i < p->dims; ++i)
    count = kilnMulF(b, count, args[p->taps + i]);
  yields[0] =
      kilnDivF(b, s, kilnConvertScalar(b, count, mlirValueGetType(s), false));
}

/* The per-output counts of dim i of the window (windowCount), as an f32
 * vector constant. */
static MlirValue windowCounts(KilnBuilder *b, const KilnWindow *w, intptr_t i,
                              bool includePad) {
  int64_t *counts = malloc(w->out[i] * sizeof(int64_t));
  if (!counts)
    abort();
  for (int64_t o = 0; o < w->out[i]; ++o)
    counts[o] = windowCount(w, i, o, includePad);
  MlirValue v =
      kilnConstantI64s(b, 1, &w->out[i], counts, mlirF32TypeGet(b->ctx));
  free(counts);
  return v;
}

static MlirValue averagePoolSample(KilnLowerOp *l, KilnBuilder *b, MlirValue x,
                                   MlirType yType);

KilnLowerStatus kilnLowerAveragePool(KilnLowerOp *l) {
  if (kilnLowerIsDynamic(l))
    return kilnLowerOnlyBatchDynamic(l)
               ? kilnLowerPerSample(l, averagePoolSample)
               : kilnLowerAveragePoolDynamic(l);
  l->results[0] = averagePoolSample(l, &l->b, kilnLowerOperand(l, 0),
                                    kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

/* AveragePool of static x into yType. */
static MlirValue averagePoolSample(KilnLowerOp *l, KilnBuilder *b, MlirValue x,
                                   MlirType yType) {
  KilnWindow w;
  kilnWindowRead(l, x, yType, NULL, &w);
  MlirType e = kilnElementType(x);
  MlirValue padded = kilnWindowPadInput(b, x, &w, kilnConstFloat(b, e, 0));
  bool includePad = kilnInferAttrInt(&l->infer, "count_include_pad", 0) == 1;
  /* A float pool of few taps: one elementwise generic over the taps and
   * the per-dim window counts. */
  MlirValue taps[kMaxPoolTaps + 3];
  intptr_t nTaps =
      kilnTypeIsFloat(e) ? poolTaps(b, padded, &w, yType, taps) : 0;
  if (nTaps) {
    intptr_t rank = w.n + 2;
    MlirAttribute tapMaps[kMaxPoolTaps + 4];
    for (intptr_t t = 0; t < nTaps; ++t)
      tapMaps[t] = kilnMapIdentity(b->ctx, rank);
    for (intptr_t i = 0; i < w.n; ++i) {
      int64_t d = 2 + i;
      taps[nTaps + i] = windowCounts(b, &w, i, includePad);
      tapMaps[nTaps + i] = kilnMapDims(b->ctx, rank, 1, &d);
    }
    tapMaps[nTaps + w.n] = kilnMapIdentity(b->ctx, rank);
    char iters[8];
    parallelIterators(rank, iters);
    TapsAverage body = {nTaps, w.n};
    MlirValue out = kilnEmpty(b, yType);
    return mlirOperationGetResult(kilnGeneric(b, nTaps + w.n, taps, 1, &out,
                                              tapMaps, rank, iters,
                                              tapsAverageBody, &body),
                                  0);
  }
  MlirValue sum = windowSum(b, padded, &w, yType);
  intptr_t n = w.n, r = n + 2;
  MlirValue in[KILN_MAX_RANK + 1] = {sum};
  MlirAttribute maps[KILN_MAX_RANK + 2];
  maps[0] = maps[n + 1] = kilnMapIdentity(b->ctx, r);
  for (intptr_t i = 0; i < n; ++i) {
    in[1 + i] = windowCounts(b, &w, i, includePad);
    int64_t d = 2 + i;
    maps[1 + i] = kilnMapDims(b->ctx, r, 1, &d);
  }
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'p', r);
  iters[r] = '\0';
  MlirValue init = kilnEmpty(b, yType);
  return mlirOperationGetResult(
      kilnGeneric(b, n + 1, in, 1, &init, maps, r, iters, divideBody, &n), 0);
}

/* ---- global pools ----------------------------------------------------- */

static void globalBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                       void *userData) {
  yields[0] = kilnArithNumeric(b, userData, args[1], args[0]);
}

typedef struct Scale {
  double divisor;
  MlirValue dynamicDivisor; /* an index, when a spatial dim is dynamic */
} Scale;

static void scaleBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                      void *userData) {
  const Scale *s = userData;
  MlirType e = mlirValueGetType(args[0]);
  MlirValue d =
      mlirValueIsNull(s->dynamicDivisor)
          ? kilnConstFloat(b, e, s->divisor)
          : kilnConvertScalar(b,
                              kilnConvertScalar(b, s->dynamicDivisor,
                                                mlirIntegerTypeGet(b->ctx, 64),
                                                false),
                              e, false);
  yields[0] = kilnArith2(b, "arith.divf", args[0], d);
}

/* Reduces x (N x C x D..) over its spatial dims with "add" or "max" to
 * N x C; returns the result in the op's N x C x 1 .. 1 type. */
static KilnLowerStatus lowerGlobal(KilnLowerOp *l, const char *op) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0);
  MlirType e = kilnElementType(x);
  intptr_t r = kilnRank(x);
  int64_t nc[2] = {kilnDim(x, 0), kilnDim(x, 1)}, keep[2] = {0, 1};
  MlirType ncType = kilnTensorType(2, nc, e);
  MlirValue start =
      !strcmp(op, "max") ? kilnConstLowest(b, e) : kilnConstFloat(b, e, 0);
  MlirValue init = kilnFill(b, start, kilnEmptyLike(b, ncType, x));
  MlirAttribute maps[2] = {kilnMapIdentity(b->ctx, r),
                           kilnMapDims(b->ctx, r, 2, keep)};
  char iters[KILN_MAX_RANK + 1];
  memset(iters, 'r', r);
  iters[0] = iters[1] = 'p';
  iters[r] = '\0';
  MlirValue y = mlirOperationGetResult(
      kilnGeneric(b, 1, &x, 1, &init, maps, r, iters, globalBody, (void *)op),
      0);
  if (strcmp(op, "max")) {
    Scale s = {1, {NULL}};
    for (intptr_t i = 2; i < r; ++i) {
      s.divisor *= (double)kilnDim(x, i);
      if (mlirShapedTypeIsDynamicSize(kilnDim(x, i)))
        s.dynamicDivisor = kilnConstIndex(b, 1);
    }
    for (intptr_t i = 2; !mlirValueIsNull(s.dynamicDivisor) && i < r; ++i)
      s.dynamicDivisor =
          kilnArith2(b, "arith.muli", s.dynamicDivisor, kilnDimValue(b, x, i));
    y = kilnElementwise(b, 1, &y, ncType, scaleBody, &s);
  }
  l->results[0] = kilnReshape(b, y, kilnLowerResultType(l, 0));
  return KILN_LOWER_OK;
}

KilnLowerStatus kilnLowerGlobalAveragePool(KilnLowerOp *l) {
  return lowerGlobal(l, "add");
}

KilnLowerStatus kilnLowerGlobalMaxPool(KilnLowerOp *l) {
  return lowerGlobal(l, "max");
}

/* ---- max_unpool ------------------------------------------------------- */

static MlirValue extract(KilnBuilder *b, MlirValue t, MlirValue i) {
  MlirValue ops[2] = {t, i};
  return kilnBuildOp1(b, "tensor.extract", kilnElementType(t), 2, ops, 0, NULL);
}

/* y[idx[i]] = x[i] for every i over flat tensors, as an scf.for carrying y.
 * An index outside y (invalid input) writes nothing: it rewrites y[0]
 * with its own value, so the generated code cannot fault. */
static MlirValue scatter(KilnBuilder *b, MlirValue xf, MlirValue idxf,
                         MlirValue yf) {
  MlirType indexType = mlirIndexTypeGet(b->ctx);
  MlirType yType = mlirValueGetType(yf);
  int64_t size = kilnDim(yf, 0);
  MlirValue ops[4] = {kilnConstIndex(b, 0), kilnConstIndex(b, kilnDim(xf, 0)),
                      kilnConstIndex(b, 1), yf};
  MlirType argTypes[2] = {indexType, yType};
  MlirLocation locs[2] = {b->loc, b->loc};
  MlirBlock block = mlirBlockCreate(2, argTypes, locs);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, block);
  MlirOperationState st =
      mlirOperationStateGet(mlirStringRefCreateFromCString("scf.for"), b->loc);
  mlirOperationStateAddOperands(&st, 4, ops);
  mlirOperationStateAddResults(&st, 1, &yType);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation loop = kilnBuildInsert(b, &st);

  KilnBuilder in = {b->ctx, b->loc, block, {NULL}};
  MlirValue iv = mlirBlockGetArgument(block, 0);
  MlirValue y = mlirBlockGetArgument(block, 1);
  MlirValue v = extract(&in, xf, iv);
  MlirValue j =
      kilnConvertScalar(&in, extract(&in, idxf, iv), indexType, false);
  MlirValue zero = kilnConstIndex(&in, 0);
  MlirValue inside =
      kilnArith2(&in, "arith.andi", kilnCmpI(&in, "sge", j, zero),
                 kilnCmpI(&in, "slt", j, kilnConstIndex(&in, size)));
  j = kilnSelect(&in, inside, j, zero);
  v = kilnSelect(&in, inside, v, extract(&in, y, j));
  MlirValue insOps[3] = {v, y, j};
  MlirValue y2 = kilnBuildOp1(&in, "tensor.insert", yType, 3, insOps, 0, NULL);
  kilnBuildOp(&in, "scf.yield", 0, NULL, 1, &y2, 0, NULL);
  return mlirOperationGetResult(loop, 0);
}

/* The indices address the unpooled shape (in - 1) * stride + kernel -
 * pads; a larger output_shape keeps that block at its start and zeros
 * after it (ONNX's test data). */
KilnLowerStatus kilnLowerMaxUnpool(KilnLowerOp *l) {
  KilnBuilder *b = &l->b;
  MlirValue x = kilnLowerOperand(l, 0), idx = kilnLowerOperand(l, 1);
  MlirType yType = kilnLowerResultType(l, 0), e = kilnElementType(x);
  intptr_t r = kilnRank(x), n = r - 2;
  int64_t kernel[KILN_MAX_RANK], strides[KILN_MAX_RANK],
      pads[2 * KILN_MAX_RANK];
  kilnInferAttrInts(&l->infer, "kernel_shape", kernel, KILN_MAX_RANK);
  if (kilnInferAttrInts(&l->infer, "strides", strides, KILN_MAX_RANK) != n)
    for (intptr_t i = 0; i < n; ++i)
      strides[i] = 1;
  if (kilnInferAttrInts(&l->infer, "pads", pads, 2 * KILN_MAX_RANK) != 2 * n)
    memset(pads, 0, sizeof(pads));
  int64_t shape[KILN_MAX_RANK] = {kilnDim(x, 0), kilnDim(x, 1)};
  int64_t offsets[KILN_MAX_RANK] = {0}, ones[KILN_MAX_RANK];
  for (intptr_t i = 0; i < n; ++i)
    shape[2 + i] = (kilnDim(x, 2 + i) - 1) * strides[i] + kernel[i] - pads[i] -
                   pads[n + i];
  for (intptr_t i = 0; i < r; ++i) {
    ones[i] = 1;
    /* Unreachable after graph-verify (it rejects such an output_shape);
     * kept so that a bad type can never produce an out-of-bounds insert. */
    if (shape[i] > mlirShapedTypeGetDimSize(yType, i))
      return kilnLowerUnsupported(
          l, "output_shape smaller than the unpooled shape");
  }
  MlirType blockType = kilnTensorType(r, shape, e);
  int64_t total = kilnNumElements(blockType),
          count = kilnNumElements(mlirValueGetType(x));
  MlirType i64 = mlirIntegerTypeGet(b->ctx, 64);
  MlirValue xf = kilnReshape(b, x, kilnTensorType(1, &count, e));
  MlirValue idxf = kilnReshape(b, idx, kilnTensorType(1, &count, i64));
  MlirValue yf =
      kilnFilled(b, kilnTensorType(1, &total, e), kilnConstFloat(b, e, 0));
  MlirValue y = kilnReshape(b, scatter(b, xf, idxf, yf), blockType);
  if (!mlirTypeEqual(blockType, yType))
    y = kilnInsertSlice(b, y, kilnFilled(b, yType, kilnConstFloat(b, e, 0)),
                        offsets, ones);
  l->results[0] = y;
  return KILN_LOWER_OK;
}

/* Lowering graph ops to linalg, tensor, arith and math on tensors: the
 * interface between the pass (pass.c), the IR-building helpers (build.c)
 * and the per-family lowerings (lower_<family>.c).
 *
 * The pass visits graph ops in program order (graph.constant last, so a
 * lowering can still read the constant operands it needs from their
 * graph.constant). For each op it calls the family's lowering with a
 * KilnLowerOp: the op's operands by ONNX position, its attributes, and a
 * builder that inserts before the op. The lowering builds replacement values
 * and stores one per result in `results`; the pass then replaces the op
 * (casting to the op's declared result type where the replacement is more
 * static) and erases it.
 *
 * A lowering returns:
 *   KILN_LOWER_OK           results filled;
 *   KILN_LOWER_UNSUPPORTED  a case Kiln does not lower: it has emitted an
 *                           error with kilnLowerUnsupported (the message
 *                           begins "unsupported"), nothing was built that
 *                           is used;
 *   KILN_LOWER_ERROR        it emitted an error (invalid op).
 * Ops whose name has no lowering at all are reported by the final legality
 * check: "unsupported: no lowering for 'graph.x'" at the op's ONNX node.
 *
 * Shapes: a lowering sees operands and results of dynamic shape only when
 * its table entry says it takes them (KILN_LOWER_DYNAMIC); the pass reports
 * them as unsupported before calling any other, which may read dims from
 * types freely. A dynamic-shape lowering sizes what it builds from its
 * operands' dims at run time, and asserts (cf.assert) each equality of
 * dims its code relies on; kiln-shape-checks turns the asserts into the
 * run-time checks that the library's shape function runs before each run
 * (docs/dynamic-shapes.md). */
#ifndef KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_H
#define KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_H

#include <stdbool.h>
#include <stdint.h>

#include "dialects/graph/infer.h"
#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"
#include "support/shape.h"

/* ---- Builder: where new ops go ---------------------------------------- */

typedef struct KilnBuilder {
  MlirContext ctx;
  MlirLocation loc;
  MlirBlock block;
  MlirOperation before; /* insert before this op; null: append to block */
} KilnBuilder;

/// Creates the op described by `state` at the builder's insertion point.
MlirOperation kilnBuildInsert(KilnBuilder *b, MlirOperationState *state);

/// Creates `name` with the given results, operands and attributes at the
/// insertion point; returns the op.
MlirOperation kilnBuildOp(KilnBuilder *b, const char *name, intptr_t nResults,
                          const MlirType *resultTypes, intptr_t nOperands,
                          const MlirValue *operands, intptr_t nAttrs,
                          const MlirNamedAttribute *attrs);
/// As kilnBuildOp for an op with one result; returns that result.
MlirValue kilnBuildOp1(KilnBuilder *b, const char *name, MlirType resultType,
                       intptr_t nOperands, const MlirValue *operands,
                       intptr_t nAttrs, const MlirNamedAttribute *attrs);
MlirNamedAttribute kilnNamedAttr(MlirContext ctx, const char *name,
                                 MlirAttribute attr);

/* ---- Scalars (also inside linalg bodies) -------------------------------- */

/// arith.constant of scalar type `type` (float, integer, i1 or index).
MlirValue kilnConstFloat(KilnBuilder *b, MlirType type, double value);
MlirValue kilnConstInt(KilnBuilder *b, MlirType type, int64_t value);
MlirValue kilnConstIndex(KilnBuilder *b, int64_t value);
/// arith.constant holding the smallest / largest value of `type` (-inf and
/// +inf for floats; signed integer limits; 0/1 for i1).
MlirValue kilnConstLowest(KilnBuilder *b, MlirType type);
MlirValue kilnConstHighest(KilnBuilder *b, MlirType type);

/// A two-operand arith/math op whose result has the type of `lhs`
/// ("arith.addf", "arith.maxnumf", "math.powf", ...).
MlirValue kilnArith2(KilnBuilder *b, const char *name, MlirValue lhs,
                     MlirValue rhs);
/// Float arithmetic shorthands: arith.addf, subf, mulf, divf.
MlirValue kilnAddF(KilnBuilder *b, MlirValue x, MlirValue y);
MlirValue kilnSubF(KilnBuilder *b, MlirValue x, MlirValue y);
MlirValue kilnMulF(KilnBuilder *b, MlirValue x, MlirValue y);
MlirValue kilnDivF(KilnBuilder *b, MlirValue x, MlirValue y);
/// A one-operand arith/math op whose result has the operand's type.
MlirValue kilnArith1(KilnBuilder *b, const char *name, MlirValue x);
/// arith.cmpf / arith.cmpi with a predicate name ("olt", "oeq", "une",
/// "slt", "eq", "ne", "sge", "ult", ...). Returns i1.
MlirValue kilnCmpF(KilnBuilder *b, const char *predicate, MlirValue lhs,
                   MlirValue rhs);
MlirValue kilnCmpI(KilnBuilder *b, const char *predicate, MlirValue lhs,
                   MlirValue rhs);
MlirValue kilnSelect(KilnBuilder *b, MlirValue cond, MlirValue t, MlirValue f);
/// Converts a scalar between element types with ONNX Cast semantics for
/// the common cases: float<->float (extf/truncf), int<->int (signed
/// extension/truncation), int->float (sitofp; uitofp when `isUnsigned`),
/// float->int (fptosi/fptoui), anything->i1 (!= 0), i1->anything (0/1),
/// index<->integer. Returns `x` when the types are equal.
MlirValue kilnConvertScalar(KilnBuilder *b, MlirValue x, MlirType to,
                            bool isUnsigned);
/// Generic "x + y", "x * y", ... for any numeric element type (picks the
/// float or integer arith op). `op` is one of "add", "sub", "mul", "div"
/// (signed for integers), "max", "min" (NaN-propagating for floats:
/// arith.maximumf/minimumf), "rem" (signed).
MlirValue kilnArithNumeric(KilnBuilder *b, const char *op, MlirValue lhs,
                           MlirValue rhs);

/* ---- Types ----------------------------------------------------------------
 */

bool kilnTypeIsFloat(MlirType elementType);
/// Integer of any width, including i1.
bool kilnTypeIsInteger(MlirType elementType);
MlirType kilnElementType(MlirValue tensor);
intptr_t kilnRank(MlirValue tensor);
int64_t kilnDim(MlirValue tensor, intptr_t i);
/// A static ranked tensor type.
MlirType kilnTensorType(intptr_t rank, const int64_t *shape,
                        MlirType elementType);

/* ---- Affine maps ----------------------------------------------------------
 */

/// The identity map on `rank` dims.
MlirAttribute kilnMapIdentity(MlirContext ctx, intptr_t rank);
/// (d0..d{nDims-1}) -> (exprs).
MlirAttribute kilnMapExprs(MlirContext ctx, intptr_t nDims, intptr_t nExprs,
                           const MlirAffineExpr *exprs);
/// (d0..d{nDims-1}) -> (d{dims[0]}, d{dims[1]}, ...): a projection or
/// permutation.
MlirAttribute kilnMapDims(MlirContext ctx, intptr_t nDims, intptr_t nResults,
                          const int64_t *dims);
/// Map for reading a tensor of type `shaped` broadcast numpy-style into an
/// iteration space of `nDims` dims with static `shape`: trailing-aligned,
/// size-1 dims that broadcast read index 0.
MlirAttribute kilnMapBroadcast(MlirContext ctx, MlirType shaped, intptr_t nDims,
                               const int64_t *shape);

/* ---- Tensors --------------------------------------------------------------
 */

/// tensor.empty of a static type.
MlirValue kilnEmpty(KilnBuilder *b, MlirType tensorType);
/// Dim `i` of `tensor` as an index value: a constant for a static dim,
/// tensor.dim for a dynamic one.
MlirValue kilnDimValue(KilnBuilder *b, MlirValue tensor, intptr_t i);
/// tensor.empty of `tensorType`, its dynamic dim `i` of size `sizes[i]`
/// (the entries for static dims are not read; `sizes` may be NULL for a
/// static type).
MlirValue kilnEmptySized(KilnBuilder *b, MlirType tensorType,
                         const MlirValue *sizes);
/// tensor.empty of `tensorType` whose dynamic dims have the sizes of
/// `like`'s (a tensor of the same rank).
MlirValue kilnEmptyLike(KilnBuilder *b, MlirType tensorType, MlirValue like);
/// cf.assert of i1 `cond` with `message`.
void kilnAssert(KilnBuilder *b, MlirValue cond, const char *message);
/// cf.assert that index values `x` and `y` are equal, with `message`;
/// nothing when both are the same constant. kiln-shape-checks makes the
/// assert a run-time check naming the op's ONNX node.
void kilnAssertEqual(KilnBuilder *b, MlirValue x, MlirValue y,
                     const char *message);
/// As kilnAssertEqual for `x predicate y` ("eq", "ule" or "sle": constants
/// that satisfy it assert nothing; any arith.cmpi predicate otherwise).
void kilnAssertCmp(KilnBuilder *b, const char *predicate, MlirValue x,
                   MlirValue y, const char *message);
/// The number of elements of `x` as an index value (dynamic dims read at
/// run time).
MlirValue kilnNumElementsValue(KilnBuilder *b, MlirValue x);
/// tensor.extract t[coords] (n coordinates, index values).
MlirValue kilnExtract(KilnBuilder *b, MlirValue t, intptr_t n,
                      const MlirValue *coords);
/// tensor.insert v into t[coords]; returns the new tensor.
MlirValue kilnInsert(KilnBuilder *b, MlirValue v, MlirValue t, intptr_t n,
                     const MlirValue *coords);
/// linalg.fill of `init` with scalar `value` (converted to the element type
/// by the caller).
MlirValue kilnFill(KilnBuilder *b, MlirValue value, MlirValue init);
/// A filled new tensor: tensor.empty + linalg.fill.
MlirValue kilnFilled(KilnBuilder *b, MlirType tensorType, MlirValue value);
/// tensor.cast when the types differ, else `x`.
MlirValue kilnCastTo(KilnBuilder *b, MlirValue x, MlirType type);
/// Reshapes a tensor to a type with the same element count
/// (tensor.collapse_shape to 1-D + tensor.expand_shape; folded away when
/// the types match). With dynamic dims: a lone dynamic dim of `to` takes
/// what the element count leaves; several take the sizes of `x`'s dynamic
/// dims in order (a reshape that adds or drops static dims; use
/// kilnReshapeSized otherwise).
MlirValue kilnReshape(KilnBuilder *b, MlirValue x, MlirType to);
/// As kilnReshape, `to`'s dynamic dim i of size `sizes[i]`.
MlirValue kilnReshapeSized(KilnBuilder *b, MlirValue x, MlirType to,
                           const MlirValue *sizes);
/// tensor.collapse_shape or tensor.expand_shape (whichever `to`'s rank
/// asks for) of a static `x`: the larger type's dims in `nGroups` groups of
/// consecutive dims, `groupSizes[i]` each; `x` itself when the types match.
MlirValue kilnReshapeGroups(KilnBuilder *b, MlirValue x, MlirType to,
                            intptr_t nGroups, const intptr_t *groupSizes);
/// As kilnReshapeGroups, `to`'s dynamic dim i of size `sizes[i]` (an
/// expand_shape's output shape).
MlirValue kilnReshapeGroupsSized(KilnBuilder *b, MlirValue x, MlirType to,
                                 intptr_t nGroups, const intptr_t *groupSizes,
                                 const MlirValue *sizes);
/// tensor.extract_slice with static offsets, sizes, strides; the result
/// has `rank` dims (no dropped dims).
MlirValue kilnExtractSlice(KilnBuilder *b, MlirValue x, const int64_t *offsets,
                           const int64_t *sizes, const int64_t *strides);
/// tensor.insert_slice of `src` into `dest` with static offsets/strides.
MlirValue kilnInsertSlice(KilnBuilder *b, MlirValue src, MlirValue dest,
                          const int64_t *offsets, const int64_t *strides);
/// tensor.insert_slice with explicit static `sizes` (rank of `dest`):
/// `src` may drop unit dims of `sizes` (a rank-reducing insert).
MlirValue kilnInsertSliceSized(KilnBuilder *b, MlirValue src, MlirValue dest,
                               const int64_t *offsets, const int64_t *sizes,
                               const int64_t *strides);
/// tensor.insert_slice of `src` into `dest` (same rank) at `offsets`
/// (index values: constants become static offsets), strides 1, sizes
/// `src`'s dims (dynamic ones read at run time).
MlirValue kilnInsertSliceAt(KilnBuilder *b, MlirValue src, MlirValue dest,
                            const MlirValue *offsets);
/// tensor.extract_slice of `x` at `offsets` with `sizes` (index values:
/// constants become static) and static `strides`; no dropped dims.
MlirValue kilnExtractSliceAt(KilnBuilder *b, MlirValue x,
                             const MlirValue *offsets, const MlirValue *sizes,
                             const int64_t *strides);
/// tensor.pad of `x` to type `to` with `value` after its end: high[i] more
/// entries on dim i (index values: constants become static), none before.
/// It bufferizes to a new buffer filled with `value` and x copied in: a
/// padded copy with no write the bufferization analysis must place (a
/// fill and an insert_slice into it, as a branch of an scf.if whose other
/// branch yields a view of a tensor read later, are copied once more).
MlirValue kilnPadHigh(KilnBuilder *b, MlirValue x, MlirType to,
                      const MlirValue *high, MlirValue value);
/// A constant tensor from a dense or dense-resource elements attribute,
/// emitted as a 1-D constant + reshape (docs/graph-to-linalg.md: nested LLVM
/// arrays are slow to translate).
MlirValue kilnConstantTensor(KilnBuilder *b, MlirAttribute elements);
/// The transpose of a static 2-D f32 dense or dense-resource attribute
/// (`index` 0), or of its matrix `index` when it is 3-D (a stack of
/// matrices), as a new 2-D dense-resource attribute; null for anything
/// else.
MlirAttribute kilnTransposedMatrix(MlirAttribute elements, int64_t index);
/// The transpose of a static f32 or f64 dense or dense-resource attribute of
/// rank >= 2 read as a matrix of its first dim by the product of the others
/// (a conv filter M x C x K.. as M x K): a new K x `stride` dense-resource
/// attribute whose rows hold the M values then zeros; null for anything
/// else or a stride under M.
MlirAttribute kilnTransposedRows(MlirAttribute elements, int64_t stride);
/// Whether `t` is a shape vector: a static tensor of signless integers (i1
/// too) of rank 0 or 1 holding at most KILN_MAX_RANK elements, what shape
/// computations (Shape, Gather, Concat, integer arithmetic) pass around.
/// Lowerings compute shape vectors element by element as scalars
/// (tensor.extract, arith, tensor.from_elements), so the canonicalizer
/// folds a dim read from Shape(x) back to `tensor.dim x` through the whole
/// computation, and CSE makes equal dims one value.
bool kilnIsShapeVector(MlirType t);
/// Element `k` of shape vector `v`; element 0 when `v` holds one element
/// (numpy broadcasting of a rank-0 or 1-element operand).
MlirValue kilnShapeVectorElement(KilnBuilder *b, MlirValue v, intptr_t k);
/// The shape vector of `type` holding `elements` (tensor.from_elements).
MlirValue kilnShapeVectorFrom(KilnBuilder *b, MlirType type,
                              const MlirValue *elements);
/// A small constant tensor of i64 or f32 values.
MlirValue kilnConstantI64s(KilnBuilder *b, intptr_t rank, const int64_t *shape,
                           const int64_t *values, MlirType elementType);

/* ---- linalg -----------------------------------------------------------------
 */

/// Builds the body of a linalg.generic: `args` are the block arguments (one
/// scalar per input, then one per output). Store one value per output in
/// `yields`. `b` inserts into the body.
typedef void (*KilnBodyFn)(KilnBuilder *b, const MlirValue *args,
                           MlirValue *yields, void *userData);
/// The body of kilnForLoop: the step's builder, induction variable and
/// carried tensor; store the next value of the tensor in *next.
typedef void (*KilnLoopBodyFn)(KilnBuilder *b, MlirValue iv, MlirValue acc,
                               MlirValue *next, void *userData);
/// A branch of kilnIfElse: builds its value with `b`, returns it.
typedef MlirValue (*KilnBranchFn)(KilnBuilder *b, void *userData);
/// scf.if `cond` with one result of `type`, each branch built by its
/// function (both get `userData`).
MlirValue kilnIfElse(KilnBuilder *b, MlirValue cond, MlirType type,
                     KilnBranchFn thenFn, KilnBranchFn elseFn, void *userData);
/// scf.for iv in [0, n) carrying one tensor from `init`; returns the last.
MlirValue kilnForLoop(KilnBuilder *b, MlirValue n, MlirValue init,
                      KilnLoopBodyFn body, void *userData);
/// The most values one kilnForLoopN carries.
#define KILN_MAX_CARRIED 8
/// The body of kilnForLoopN: the step's builder, induction variable and
/// the `n` carried values; store their next values in next[0..n).
typedef void (*KilnLoopNBodyFn)(KilnBuilder *b, MlirValue iv,
                                const MlirValue *acc, MlirValue *next,
                                void *userData);
/// scf.for iv in [lo, hi) carrying `n` values (tensors or scalars, at most
/// KILN_MAX_CARRIED) from `init`; stores their last values in `results`.
void kilnForLoopN(KilnBuilder *b, MlirValue lo, MlirValue hi, intptr_t n,
                  const MlirValue *init, KilnLoopNBodyFn body, void *userData,
                  MlirValue *results);
/// The body of kilnForallTiles: builds the tile of iteration `ivs` (a
/// tensor of static shape; `out` is the shared output, whose slice may be
/// its destination) and stores it in *tile and its offsets in `at`.
typedef void (*KilnTileBodyFn)(KilnBuilder *b, const MlirValue *ivs,
                               MlirValue out, MlirValue *tile, MlirValue *at,
                               void *userData);
/// scf.forall over [0, counts[i]) for i < n, sharing `init`: each iteration
/// inserts the tile its body builds (tiles must not overlap). The CPU
/// schedules thread the loop and leave the ops inside single-threaded, so
/// it is one parallel region of static tiles. Returns the filled tensor.
MlirValue kilnForallTiles(KilnBuilder *b, intptr_t n, const MlirValue *counts,
                          MlirValue init, KilnTileBodyFn body, void *userData);
/// A [(B x) M x K] x B [(B x) K x N] (same B; float; any of M, K, N
/// dynamic) into `type` [(B x) M x N] as one kilnForallTiles of static
/// 16-row tiles (lower_reduction_matmul.c): A and B read in place, a last
/// partial tile zero-padded, a dynamic K the tiles' reduction trip count.
MlirValue kilnTiledProduct(KilnBuilder *b, MlirValue a, MlirValue bm,
                           MlirType type);
/// A body that yields the sum of its first two arguments (addf or addi).
void kilnAddBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                 void *userData);
/// A body that yields its first argument (a copy or broadcast generic).
void kilnCopyBody(KilnBuilder *b, const MlirValue *args, MlirValue *yields,
                  void *userData);
/// A new tensor of static type `type` whose element at index i is x at
/// `inMap`(i) (a map over `type`'s dims): a broadcast, a permutation or a
/// strided read, as one all-parallel copy generic.
MlirValue kilnCopyThroughMap(KilnBuilder *b, MlirValue x, MlirAttribute inMap,
                             MlirType type);

/// linalg.generic over `nLoops` loops with `iterators` ('p' parallel, 'r'
/// reduction per loop, a string of nLoops chars), one affine map per input
/// then per output. Returns the op (results: one tensor per output).
MlirOperation kilnGeneric(KilnBuilder *b, intptr_t nInputs,
                          const MlirValue *inputs, intptr_t nOutputs,
                          const MlirValue *outputs, const MlirAttribute *maps,
                          intptr_t nLoops, const char *iterators,
                          KilnBodyFn body, void *userData);

/// An elementwise linalg.generic with numpy broadcasting: the iteration
/// space is `resultType`'s shape, each input is read through
/// kilnMapBroadcast, and the body yields one element of `resultType`'s
/// element type. Returns the result tensor.
MlirValue kilnElementwise(KilnBuilder *b, intptr_t nInputs,
                          const MlirValue *inputs, MlirType resultType,
                          KilnBodyFn body, void *userData);

/// Dynamic dims of `x` that are 1 at run time, broadcast: `x` read into an
/// iteration space of `rank` dims whose sizes are `sizes` (index values,
/// one per dim; numpy's trailing alignment). Asserts that each dynamic dim
/// of `x` is 1 or its size in `sizes` (`message` names the op's rule).
/// Returns `x` when no dim can be 1 against a larger size (static dims,
/// or a size read from that very dim); else `scf.if` (every such dim equals
/// its size) `x`, else a copy of `x` with those dims stretched to their
/// sizes: the same type, so the caller's maps read it without broadcasting
/// there. The common case costs one comparison per dim.
MlirValue kilnBroadcastDynamicOnes(KilnBuilder *b, MlirValue x, intptr_t rank,
                                   const MlirValue *sizes, const char *message);

/// A new tensor of `type`, each element computed by `body` from its
/// indices (kilnLinalgIndex; a generic with no inputs), its dynamic dim i
/// of size `sizes[i]` (NULL for a static type).
MlirValue kilnGenerate(KilnBuilder *b, MlirType type, const MlirValue *sizes,
                       KilnBodyFn body, void *userData);

/// linalg.index inside a body.
MlirValue kilnLinalgIndex(KilnBuilder *b, int64_t dim);

/// A linalg named op (linalg.matmul, linalg.conv_2d_nchw_fchw,
/// linalg.pooling_nchw_max, ...) with its body region filled in; `attrs`
/// for strides/dilations. Returns result 0.
MlirValue kilnNamedOp(KilnBuilder *b, const char *name, intptr_t nInputs,
                      const MlirValue *inputs, MlirValue output,
                      intptr_t nAttrs, const MlirNamedAttribute *attrs);

/* ---- The op being lowered --------------------------------------------------
 */

typedef struct KilnLowerOp {
  MlirOperation op;
  const KilnGraphOpInfo *info;
  /* ONNX-positional operands (absent optional ones null), attributes and
   * result count, in the shape the type-inference helpers read: use
   * kilnInferAttrInt(&l->infer, "axis", 0), kilnInferConstantInts(...),
   * kilnInferOperand(&l->infer, i). */
  KilnInferContext infer;
  KilnBuilder b; /* inserts before op */
  intptr_t numResults;
  MlirValue *results; /* out: one per op result */
  /* Pass options conv-im2col and im2col-gather: 0 linalg's conv ops, 1
   * im2col, 2 im2col with every window tensor one gather. */
  int convIm2col;
  /* Pass option conv-channels-inner (lower_conv_im2col.c). */
  bool convChannelsInner;
  /* Pass option generic-products (lower_reduction_matmul.c). */
  bool genericProducts;
} KilnLowerOp;

typedef enum KilnLowerStatus {
  KILN_LOWER_OK,
  KILN_LOWER_UNSUPPORTED,
  KILN_LOWER_ERROR
} KilnLowerStatus;

typedef KilnLowerStatus (*KilnLowerFn)(KilnLowerOp *l);

/// Emits "unsupported: 'graph.<op>' <message>" at the op's location and
/// returns KILN_LOWER_UNSUPPORTED.
KilnLowerStatus kilnLowerUnsupported(KilnLowerOp *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/// Emits "'graph.<op>' op <message>" and returns KILN_LOWER_ERROR.
KilnLowerStatus kilnLowerError(KilnLowerOp *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/// Operand at ONNX position i (null when absent).
MlirValue kilnLowerOperand(KilnLowerOp *l, intptr_t i);
/// The declared type of result i.
MlirType kilnLowerResultType(KilnLowerOp *l, intptr_t i);
/// Whether an operand or a result of the op has a dynamic dim (what a
/// KILN_LOWER_DYNAMIC lowering with a separate dynamic path tests).
bool kilnLowerIsDynamic(KilnLowerOp *l);
/// Whether the op's only dynamic dims are the batch (dim 0) of its first
/// operand and of its result.
bool kilnLowerOnlyBatchDynamic(KilnLowerOp *l);

/// The static lowering of one sample: `sample` is a batch-1 slice of the
/// op's first operand, `sampleType` the result type with batch 1.
typedef MlirValue (*KilnSampleFn)(KilnLowerOp *l, KilnBuilder *b,
                                  MlirValue sample, MlirType sampleType);
/// An op whose only dynamic dim is the batch (kilnLowerOnlyBatchDynamic):
/// a loop over the samples, each lowered statically by `fn` (the schedules
/// a static model of batch 1 gets) and written into its row of the
/// result.
KilnLowerStatus kilnLowerPerSample(KilnLowerOp *l, KilnSampleFn fn);
/// The KILN_LOWER_* flags of graph op `op`'s lowering (0 without one).
unsigned kilnLowerFlags(MlirOperation op);
/// Rewrites func `func` into one loop over the samples of its batch around
/// a static batch-1 copy of its graph ops, when its inputs are dynamic
/// only in the batch dim and every op reading the batch keeps samples
/// apart (per_sample_model.c); returns whether it did.
bool kilnLowerModelPerSample(MlirOperation func);

/// Normalizes an ONNX axis against `rank` (errors out of range: returns
/// false after kilnLowerError).
bool kilnLowerAxis(KilnLowerOp *l, int64_t axis, int64_t rank, int64_t *out);

/* ---- Family tables ----------------------------------------------------------
 */

/* KilnLowering flags. */
enum {
  /* The lowering takes operands and results of dynamic shape: every tensor
   * it builds is sized from its operands at run time (kilnDimValue,
   * kilnEmptyLike, ...), and every dim it assumes equal to another it
   * asserts (kilnAssertEqual). Without it, the pass reports dynamic shapes
   * as unsupported before calling the lowering. */
  KILN_LOWER_DYNAMIC = 1,
  /* The op is computed independently per sample of dim 0 (an elementwise
   * op with numpy broadcasting): when its only dynamic dim is the batch,
   * the pass loops over the samples and calls the lowering on static
   * batch-1 slices (pass.c), so the static schedules apply. */
  KILN_LOWER_PER_SAMPLE = 2,
  /* As KILN_LOWER_PER_SAMPLE, but only operand 0 is data: the others
   * (Clip's bounds, scalars by ONNX's rule) must be static to go per
   * sample. */
  KILN_LOWER_PER_SAMPLE_FIRST = 4,
};

typedef struct KilnLowering {
  const char *name; /* graph op name without prefix: "add" */
  KilnLowerFn lower;
  unsigned flags; /* KILN_LOWER_DYNAMIC, KILN_LOWER_PER_SAMPLE[_FIRST] */
} KilnLowering;

/// Each lower_<family>.c defines its table; pass.c looks ops up in all.
#define KILN_DECLARE_LOWERINGS(family)                                         \
  extern const KilnLowering kilnLower##family[];                               \
  extern const int kilnLower##family##Count
KILN_DECLARE_LOWERINGS(Elementwise);
KILN_DECLARE_LOWERINGS(Reduction);
KILN_DECLARE_LOWERINGS(Tensor);
KILN_DECLARE_LOWERINGS(TensorIndex);
KILN_DECLARE_LOWERINGS(Conv);
KILN_DECLARE_LOWERINGS(NN);
KILN_DECLARE_LOWERINGS(Quant);
KILN_DECLARE_LOWERINGS(DataDependent);

/* ---- Signed and unsigned integers ------------------------------------------
 * The importer keeps ONNX's uintN as `uiN` (and arith needs signless
 * integers), so a lowering that computes on such elements casts each scalar
 * to the signless type of the same width and back with
 * builtin.unrealized_conversion_cast; the LLVM lowering maps both to iN and
 * reconcile-unrealized-casts removes the pairs. */

/// Whether `t` is an integer type with explicit unsigned signedness (uiN).
bool kilnTypeIsUnsignedInt(MlirType t);
/// `x` as a signless iN when its type is siN/uiN; else `x`.
MlirValue kilnToSignless(KilnBuilder *b, MlirValue x);
/// An element of an ONNX indices tensor (any integer type; floats
/// truncated) as a signed `index`, before wrapping and clamping.
MlirValue kilnIndexElementToIndex(KilnBuilder *b, MlirValue v);
/// Signless scalar `x` as type `to` (siN/uiN of the same width); `x` when
/// `to` is its own type.
MlirValue kilnFromSignless(KilnBuilder *b, MlirValue x, MlirType to);

#endif

/* Internal to kiln-gpu-tile-contractions (tile.c): the contraction it
 * recognizes, and the elementwise epilogue fused into its store phase
 * (epilogue.c). docs/gpu-codegen.md, "Matrix products". */
#ifndef KILN_CONVERSIONS_LINALG_TO_GPU_TILE_H
#define KILN_CONVERSIONS_LINALG_TO_GPU_TILE_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/AffineExpr.h"
#include "mlir-c/AffineMap.h"
#include "mlir-c/IR.h"
#include "support/op_list.h"

enum { kMaxRank = 8 };

/* Roles of a contraction's dims. */
enum { kNone = 0, kBatch = 'b', kM = 'm', kN = 'n', kK = 'k' };

typedef struct Operand {
  MlirValue value;
  MlirType type;
  intptr_t rank;
  intptr_t loop[kMaxRank]; /* the loop of each memref dim, or -1: */
  /* a compound index of an input (a conv's window read, as an implicit
   * GEMM: oh * stride + kh * dilation), a sum of loops times constants. */
  MlirAffineExpr expr[kMaxRank];
} Operand;

/* One factor of the product (out + X * Y): X, computed from some of the
 * op's inputs (one, or several when elementwise fusion merged a producer
 * into the contraction: a normalization, a scale, a cast) by region-free
 * arith/math ops of its body. The shared tile holds `stored`: X itself, or
 * t when X = arith.extf(t) of an f16/bf16 t (tensor cores take t). */
enum { kMaxSideIns = 6 };

typedef struct Side {
  intptr_t n;
  Operand in[kMaxSideIns];       /* in[0], the main input, lays out the loads */
  intptr_t operand[kMaxSideIns]; /* each one's operand number in the op */
  MlirValue stored;              /* a value of the op's body */
  MlirType storedType;           /* f32, f16 or bf16 */
  bool plain;                    /* stored is in[0]'s block argument */
} Side;

/* The loops fall in four groups, each flattened to one linear index:
 * batch (in A, B and C), m (in A and C), n (in B and C) and k (in A and B,
 * the reductions). Within a group the loops are ordered as in C (k: as in
 * A); each loop's index is (linear / stride) % size. */
typedef struct Contraction {
  Side sa, sb;     /* the factors: rows of C from sa, columns from sb */
  Operand a, b, c; /* a = sa.in[0], b = sb.in[0] */
  MlirBlock body;  /* the op's body */
  intptr_t loops;
  char role[kMaxRank];
  int64_t size[kMaxRank], stride[kMaxRank];
  bool outer[kMaxRank]; /* first of its group: no remainder needed */
  int64_t batch, m, n, k;
} Contraction;

/* Block tiles of ty*r x tx*c outputs, ty*tx threads, K steps of bk. With
 * `mma`, the threads own their outputs as mma.sync's m16n8 accumulator
 * fragments (8 warps of 8r x 4c: 16 x 32 with r = 2 rows and c = 8
 * columns each, or 32 x 64 with 4 and 16); the compute phase is then
 * tensor-core instructions (nvvm.mma.sync) or, on the CPU, the same sums
 * written as loops. */
typedef struct Tiles {
  int64_t ty, tx, r, c, bk;
  bool mma;
  bool ldmatrix; /* with mma: fragments read by ldmatrix */
} Tiles;

/* How kiln-gpu-tile-contractions forms products it can give tensor cores
 * (both factors f16 or both bf16 in their tiles; f32 with tf32). */
typedef enum KilnGpuMma {
  KILN_GPU_MMA_NONE,    /* CUDA-core register tiles */
  KILN_GPU_MMA_EMULATE, /* the mma layout, sums as loops (gpu-on-cpu) */
  KILN_GPU_MMA_NVVM     /* the mma layout, nvvm.mma.sync (sm_80 and up) */
} KilnGpuMma;

/* An elementwise consumer of the product's C fused into its store phase
 * (docs/gpu-codegen.md, "Matrix products"): a linalg.generic of parallel
 * loops reading C through a permutation, its other inputs at indices the
 * output index gives (dims or constants), its body arith/math ops. The
 * store phase writes body(acc, other inputs) to the consumer's output. */
enum { kMaxEpilogueIns = 8, kMaxEpilogueOps = 64 };

typedef struct Epilogue {
  MlirOperation op; /* the consumer; null: no epilogue */
  intptr_t loops, nIns;
  bool inIsC[kMaxEpilogueIns];
  MlirAffineMap map[kMaxEpilogueIns + 1]; /* per operand, the output last */
  intptr_t cDim[kMaxRank]; /* C's dim that each consumer loop indexes */
  bool outIsC;             /* the consumer writes C in place */
  bool outUsed;            /* its body reads the output's element */
} Epilogue;

/// The loop dim of each result of `map` (-1 and the expression in `exprs`
/// for a compound one when `compound`), false unless the plain results
/// are distinct dims.
bool kilnGpuMapDims(MlirAffineMap map, intptr_t *dims, MlirAffineExpr *exprs,
                    bool compound, intptr_t *n);

/// The most inputs (plus C) kilnGpuMatchEpilogue checks for conflicts.
enum { kMaxEpilogueRoots = 2 * kMaxSideIns + 1 };

/// Recognizes the elementwise consumer of `op`'s result buffer `c` that
/// can be fused into its store phase (e->op stays null otherwise): the
/// first op after `op` touching `c`, with nothing in between touching `c`
/// or `op`'s `inputs`; `fill` is a fill of `c` folded into `op`, or null.
void kilnGpuMatchEpilogue(MlirOperation op, MlirValue c,
                          const MlirValue *inputs, int nInputs,
                          MlirOperation fill, Epilogue *e);

typedef struct KilnScheduleText KilnScheduleText;

/// The template parameters of the consumer's other inputs and output:
/// `, %Ek: TYPE` (k its operand number), `, %Out: TYPE` (unless written
/// in place); nothing without a consumer.
void kilnGpuAppendEpilogueParams(KilnScheduleText *g, const Epilogue *e);

/// The values for those parameters, in their order, into `args`; returns
/// how many.
intptr_t kilnGpuEpilogueArgs(const Epilogue *e, MlirValue *args);

/// `func.func private @kiln_epilogue(...)`, the declaration the calls
/// kilnGpuGenEpilogueStore emits need; nothing without a consumer.
void kilnGpuAppendEpilogueDecl(KilnScheduleText *g, const Epilogue *e);

/// Stores body(acc, the other inputs' elements) to the consumer's output
/// at the element of C with indices `idxC` (template names %C, %Ek,
/// %Out): the body is a call of @kiln_epilogue, which
/// kilnGpuInlineEpilogue replaces with its ops.
void kilnGpuGenEpilogueStore(KilnScheduleText *g, const Epilogue *e, int acc,
                             const int *idxC);

/// The consumer body's block (its ops are copied into the store phase).
MlirBlock kilnGpuEpilogueBody(const Epilogue *e);

/// Moves the ops of template function body `body` (all but its return)
/// before `before`, and appends the calls among them (@kiln_epilogue and
/// the like, which the caller then inlines) to `calls`.
void kilnGpuSpliceTemplate(MlirBlock body, MlirOperation before,
                           KilnOpList *calls);

/// Replaces one @kiln_epilogue call with a copy of the consumer's body.
void kilnGpuInlineEpilogue(MlirOperation call, const Epilogue *e);

/// Replaces `call` with copies of the ops of `body` that compute `result`,
/// block argument `args[k]` read as the call's operand k.
void kilnGpuInlineSlice(MlirOperation call, MlirBlock body,
                        const intptr_t *args, intptr_t nArgs, MlirValue result);

/* A schedule template's marked ops (kiln-gpu-block-reductions,
 * kiln-gpu-tile-windows): the loads standing for the op body's arguments,
 * marked {MARK = k} for argument k, and one constant marking where the
 * body's value goes. */
enum { kMaxMarkedInputs = 80 };

typedef struct KilnGpuMarks {
  MlirOperation in[kMaxMarkedInputs]; /* by body argument; null: none */
  MlirOperation elem;                 /* the marker */
} KilnGpuMarks;

/// Finds the marked ops of template function `func`: loads marked
/// {`inMark` = k} (the marks removed) and the op marked `elemMark`.
void kilnGpuFindMarks(MlirOperation func, const char *inMark,
                      const char *elemMark, KilnGpuMarks *marks /* OUT */);

/// Copies the ops of `body` up to `stop` (not included) before the marker,
/// each body argument read as its marked load, and replaces the marker with
/// the copy of `value` (a value of the body, or one from outside it).
void kilnGpuInlineMarked(MlirBlock body, MlirOperation stop, MlirValue value,
                         KilnGpuMarks *marks);

/// The number of inputs of a linalg op with one output, -1 otherwise.
intptr_t kilnGpuSingleOutputIns(MlirOperation op);

/// The buffer a memref views (through views of it), or the value.
MlirValue kilnGpuViewRoot(MlirValue v);

/// Erases C's buffer once the fused product no longer reads or writes it
/// (its allocation, views and deallocation).
void kilnGpuEraseIfDead(MlirValue root);

#endif

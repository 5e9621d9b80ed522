/* Transform-dialect schedules applied from C by Kiln's linalg passes.
 *
 * A schedule is a module of transform.named_sequence ops, parsed once from
 * a template (text, as transform scripts are written) and applied to one
 * payload op at a time with the transform interpreter. Passes that need a
 * per-op sequence append transform ops built with the C API before a
 * sequence's terminator, apply it, then erase what they appended. */
#ifndef KILN_DIALECTS_LINALG_TRANSFORMS_SCHEDULE_H
#define KILN_DIALECTS_LINALG_TRANSFORMS_SCHEDULE_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"
#include "support/op_list.h"

typedef struct KilnSchedule {
  MlirModule module;
} KilnSchedule;

/// Parses `text` into `schedule`; false (and a diagnostic from the parser)
/// when the template does not parse.
bool kilnScheduleCreate(MlirContext ctx, const char *text,
                        KilnSchedule *schedule);
void kilnScheduleDestroy(KilnSchedule *schedule);
/// The named sequence `name` of the schedule (null if absent). Borrowed.
MlirOperation kilnScheduleGetSequence(KilnSchedule *schedule, const char *name);
/// Applies `sequence` to `payload`; failures have emitted diagnostics.
MlirLogicalResult kilnScheduleApply(KilnSchedule *schedule,
                                    MlirOperation sequence,
                                    MlirOperation payload);

/// The first op named `name` in `sequence` (null if none). Borrowed.
MlirOperation kilnScheduleFindOp(MlirOperation sequence, const char *name);
/// Builds the transform op `name` with `operands`, `nResults` results of
/// type `resultType` (!transform.any_op when null) and `attrs`, inserted
/// before `before`, an op of the sequence. Returns the op (owned by the
/// sequence).
MlirOperation kilnScheduleInsert(MlirOperation before, const char *name,
                                 intptr_t nOperands, const MlirValue *operands,
                                 intptr_t nResults, MlirType resultType,
                                 intptr_t nAttrs,
                                 const MlirNamedAttribute *attrs);
/// Builds the payload op `name` with `operands`, one result of type
/// `resultType` and `attrs`, at `before`'s location and inserted before it.
/// Returns its result.
MlirValue kilnInsertOpBefore(MlirOperation before, const char *name,
                             intptr_t nOperands, const MlirValue *operands,
                             MlirType resultType, intptr_t nAttrs,
                             const MlirNamedAttribute *attrs);
/// The `reassociation` of a tensor.collapse_shape / expand_shape: `nGroups`
/// groups of consecutive dims, `groupSizes[i]` dims each.
MlirAttribute kilnReassociationGet(MlirContext ctx, intptr_t nGroups,
                                   const intptr_t *groupSizes);
/// Erases every op of `sequence` before `end` (what a pass inserted).
void kilnScheduleClearBefore(MlirOperation sequence, MlirOperation end);
/// The sequence's first block argument: the payload handle.
MlirValue kilnScheduleGetRoot(MlirOperation sequence);

/// Inserts before `end`: transform.apply_patterns to `target` {
/// `patterns` } (the name of one pattern-set op, e.g.
/// "transform.apply_patterns.canonicalization").
void kilnScheduleInsertPatterns(MlirOperation end, MlirValue target,
                                const char *patterns);
/// Inserts before `end`: transform.apply_patterns to `target` {
/// canonicalization }.
void kilnScheduleInsertCanonicalize(MlirOperation end, MlirValue target);
/// Inserts before `end` a transform.structured.match of the ops carrying the
/// unit attribute `attrName` under `root`; returns the handle.
MlirValue kilnScheduleInsertMatchAttr(MlirOperation end, MlirValue root,
                                      const char *attrName);
/// Inserts before `end` a transform.loop.peel (remainder last) of `loop`, a
/// handle to an scf.for; a loop its step divides is left as it is. Returns
/// the peel op (results: the main loop, the remainder loop).
MlirOperation kilnScheduleInsertPeel(MlirOperation end, MlirValue loop);

/// The largest divisor of `n` not above `cap` (at least 1): tiles of that
/// size divide their loop, so every tile's shape is static.
int64_t kilnDivisorAtMost(int64_t n, int64_t cap);

/// The most loops a tiled op may have.
enum { KILN_TILE_MAX_LOOPS = 12 };

/// How one structured op is tiled, per loop of the op: sizes of the thread
/// level (scf.forall; 0 = not tiled), of the cache level (scf.for around
/// the register loops, sizes that divide their loop; 0 = not tiled), of the
/// register level (scf.for; 0 = not tiled), and whether a register loop
/// needs a peeled remainder.
typedef struct KilnTilePlan {
  intptr_t nLoops;
  int64_t threads[KILN_TILE_MAX_LOOPS];
  int64_t cache[KILN_TILE_MAX_LOOPS];
  int64_t regs[KILN_TILE_MAX_LOOPS];
  bool peel[KILN_TILE_MAX_LOOPS];
  /// Order of the register loops, outermost first (a permutation of the
  /// op's loops) when hasInterchange; else the op's order.
  bool hasInterchange;
  int64_t interchange[KILN_TILE_MAX_LOOPS];
  /// A wide register loop (at most one, without interchange) whose peeled
  /// remainder is tiled again by this narrower size (and peeled, unless
  /// 1): a matrix-vector product's 1 x 128 tiles leave a remainder of up to
  /// 127 columns, which as one odd-sized vector LLVM assembles lane by
  /// lane; rows of dynamic extent leave fewer than a tile's rows. The
  /// register tiles are then found again by `marker`, a unit attribute the
  /// op carries. 0: none.
  int64_t narrow[KILN_TILE_MAX_LOOPS];
  const char *marker;
} KilnTilePlan;

/// Inserts before `end` a transform.structured.tile_using_forall of
/// `target` by `sizes` (`n` of them; 0 = not tiled). Returns the op
/// (results: the tiled op, the scf.forall).
MlirOperation kilnScheduleInsertForall(MlirOperation end, MlirValue target,
                                       intptr_t n, const int64_t *sizes);
/// Inserts before `end` a transform.structured.fuse_into_containing_op of
/// `producers` into `loop`. Returns the handle to the loop after fusion.
MlirValue kilnScheduleInsertFuse(MlirOperation end, MlirValue producers,
                                 MlirValue loop);

/// Inserts before `end` the tiling of the op(s) `target` by `plan`:
/// tile_using_forall when any thread size is set, tile_using_for for the
/// cache level when any cache size is set, tile_using_for for the register
/// level, then the peeling of the loops that need it, innermost first (peeling
/// an outer loop then clones the inner loops already split, so every remainder
/// tile is static too, once canonicalized). When `producers` is not null (a
/// handle) and a forall is made, those ops are fused into it first
/// (fuse_into_containing_op: each thread block computes its own slice of them,
/// e.g. the bias its accumulators start from).
void kilnScheduleInsertTiling(MlirOperation end, MlirValue target,
                              const KilnTilePlan *plan, MlirValue producers);

/// Moves the unit attribute `from` of every op under `root` to `to` (the op
/// just tiled carries `from`; its tiles, cloned with it, then carry `to`).
void kilnScheduleRetag(MlirOperation root, const char *from, const char *to);
/// Removes the attribute `attr` from every op under `root`.
void kilnScheduleDropAttr(MlirOperation root, const char *attr);
/// Removes the unit attribute `attr` from the ops under `root` and appends
/// to `loops`, once each, the scf.for loop directly around each of them:
/// the innermost loop of each register tile.
void kilnScheduleCollectTileLoops(MlirOperation root, const char *attr,
                                  KilnOpList *loops);
/// Whether `op` is nested in an scf.forall (it then gets no thread level).
bool kilnHasForallAncestor(MlirOperation op);
/// The unit attribute of a per-sample model's loop over the batch
/// (graph-to-linalg's per_sample_model.c): each op in it runs once per
/// sample, as in a batch-1 library, so it is no sequential loop below.
#define KILN_SAMPLE_LOOP_ATTR "kiln.sample_loop"
/// Whether `op` is nested in a sequential loop (scf.for but a per-sample
/// model's, scf.while: a recurrent op's time steps, an ONNX Loop's body),
/// so it runs once per iteration.
bool kilnHasSequentialLoopAncestor(MlirOperation op);

/// Marks the multiplies and adds of a structured op's body contractible, so
/// LLVM fuses them into FMAs once vectorized: each output element then
/// rounds once per step instead of twice (what MLAS and OpenBLAS compute
/// too).
void kilnMarkContract(MlirOperation op);

#endif

/* Internals of graph-simplify shared by its rule files: the pass state and
 * small matching helpers. Not a public header.
 *
 * Every rewrite is rooted at the last op of its pattern (the one whose
 * results are replaced): the other ops of the pattern and every operand
 * precede it, so a forward sweep has visited them already and never meets
 * a destroyed op. A rule replaces the root's results and destroys the root
 * only; ops of the pattern left without uses are erased after the sweep. */
#ifndef KILN_DIALECTS_GRAPH_TRANSFORMS_SIMPLIFY_H
#define KILN_DIALECTS_GRAPH_TRANSFORMS_SIMPLIFY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kiln/graph_builder.h"
#include "mlir-c/IR.h"
#include "support/op_list.h"

typedef struct KilnSimplify {
  MlirContext ctx;
  bool recompose;   /* option: GELU, LayerNorm, Gemm */
  bool reassociate; /* option: (x*a)*b -> x*(a*b), (x+a)+b -> x+(a+b) */
  /* Ops that lost a use to a destroyed root: erased after the sweep if
   * they are then unused (duplicates allowed). */
  KilnOpList dead;
} KilnSimplify;

/// Whether `op` is graph.<name> (name without the prefix).
bool kilnSimplifyIsOp(MlirOperation op, const char *name);
/// The op defining `v` if it is graph.<name>, else a null op.
MlirOperation kilnSimplifyDef(MlirValue v, const char *name);
/// Whether `v` has exactly one use (one operand slot of one op).
bool kilnSimplifyHasOneUse(MlirValue v);
/// The number of operand slots using `v`.
intptr_t kilnSimplifyNumUses(MlirValue v);
/// Whether `a` and `b` have the same type.
bool kilnSimplifySameType(MlirValue a, MlirValue b);
/// Whether `t` is a ranked tensor type with a static shape.
bool kilnSimplifyIsStatic(MlirType t);
/// Reads a graph.transpose's perm into `p` (capacity 16); absent: the
/// reversed dims (ONNX's default). Returns the rank, or -1 for a perm that
/// is not a permutation of the operand's dims.
intptr_t kilnSimplifyReadPerm(MlirOperation t, int64_t *p);
/// The `value` attribute of the graph.constant defining `v`, or null.
MlirAttribute kilnSimplifyConstAttr(MlirValue v);
/// If `v` is a graph.constant whose elements all hold one number (a splat,
/// or a dense f32/f64/i32/i64 or f32 resource tensor of equal elements),
/// stores it in `*out` and returns true.
bool kilnSimplifyConstSplat(MlirValue v, double *out);
/// kilnSimplifyConstSplat, and the value is exactly `want`.
bool kilnSimplifyConstIs(MlirValue v, double want);
/// Whether `got` is within relative `tol` of `want`.
bool kilnSimplifyNear(double got, double want, double tol);
/// Reads the compile-time integer tensor `v` (a graph.constant or small
/// shape computation) into out[0..cap); the element count or -1.
intptr_t kilnSimplifyConstInts(MlirValue v, int64_t *out, intptr_t cap);
/// The graph op's operand at ONNX position `i` (null when absent).
MlirValue kilnSimplifyOperand(MlirOperation op, intptr_t i);

/// Creates a builder inserting before `root` with its location. Destroy
/// with kilnGraphBuilderDestroy.
KilnGraphBuilder *kilnSimplifyBuilderAt(KilnSimplify *s, MlirOperation root);
/// Returns `built` if it is non-null and has `want`'s type; otherwise
/// destroys its op (when non-null) and returns a null value.
MlirValue kilnSimplifyExpectType(MlirValue built, MlirType want);
/// Replaces every result of `root` by `values[i]`, records the ops defining
/// its operands as possibly dead, and destroys `root`. Returns true.
bool kilnSimplifyReplace(KilnSimplify *s, MlirOperation root,
                         const MlirValue *values);

/// The recomposition rules (simplify_recompose.c), tried on a root `op`
/// (graph.mul, graph.add or graph.div). Returns true if `op` was replaced.
/// Sets *deferred when `op` is inside a longer pattern matched at a later
/// op: no other rule may rewrite `op` then.
bool kilnSimplifyRecompose(KilnSimplify *s, MlirOperation op, bool *deferred);

#endif

/* Internal to the Elementwise op family, which is split in two files:
 * ops_elementwise.c (the table, the element-type classes and helpers below,
 * and the ops whose only rule is an element-type class) and
 * ops_elementwise_rules.c (the ops with attribute-value rules or operands of
 * their own kinds: mod, bit_shift, is_inf, celu, gelu, shrink, prelu,
 * cast_like, dropout). Nothing outside those two files includes this
 * header. */
#ifndef KILN_DIALECTS_GRAPH_OPS_ELEMENTWISE_H
#define KILN_DIALECTS_GRAPH_OPS_ELEMENTWISE_H

#include "dialects/graph/infer.h"
#include "kiln/diagnostics.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/IR.h"

/* ---------------------------------------------------------------------- */
/* Element-type classes (ONNX type constraints)                            */
/* ---------------------------------------------------------------------- */

/* A bit set of element-type classes; kilnElemClassify returns exactly one
 * bit. The classes are contiguous in the order error messages list them. */
typedef unsigned KilnElemClass;
enum {
  KILN_TC_BOOL = 1u << 0,        /* i1 */
  KILN_TC_INT_NARROW = 1u << 1,  /* i8, i16 */
  KILN_TC_INT_WIDE = 1u << 2,    /* i32, i64 */
  KILN_TC_UINT_NARROW = 1u << 3, /* ui8, ui16 */
  KILN_TC_UINT_WIDE = 1u << 4,   /* ui32, ui64 */
  KILN_TC_FLOAT = 1u << 5,       /* f16, bf16, f32, f64 */
  KILN_TC_FLOAT8 = 1u << 6,      /* f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ */
  KILN_TC_CAST_ONLY = 1u << 7,   /* f8E8M0FNU, f4E2M1FN, i4, ui4 */
  KILN_TC_NUM_CLASSES = 8
};
#define KILN_TC_UINT (KILN_TC_UINT_NARROW | KILN_TC_UINT_WIDE)
#define KILN_TC_INTEGER (KILN_TC_INT_NARROW | KILN_TC_INT_WIDE | KILN_TC_UINT)
#define KILN_TC_SIGNED (KILN_TC_INT_NARROW | KILN_TC_INT_WIDE | KILN_TC_FLOAT)
#define KILN_TC_NUMERIC (KILN_TC_SIGNED | KILN_TC_UINT)
#define KILN_TC_ANY (KILN_TC_BOOL | KILN_TC_NUMERIC)
#define KILN_TC_CASTABLE (KILN_TC_ANY | KILN_TC_FLOAT8 | KILN_TC_CAST_ONLY)

/// The class of an element type, or 0 when ONNX has no such tensor type
/// (index, i3, f80, complex, ...).
KilnElemClass kilnElemClassify(MlirType elementType);

/// The element type of a shaped type.
static inline MlirType kilnElemOf(MlirType tensor) {
  return mlirShapedTypeGetElementType(tensor);
}

/// A ranked tensor type with the shape of `t` (ranked, rank <= KILN_MAX_RANK)
/// and element type `elt`.
MlirType kilnElemWithElementType(MlirType t, MlirType elt);

/* ---------------------------------------------------------------------- */
/* Checks shared by both files; each emits one error and fails             */
/* ---------------------------------------------------------------------- */

/// The declared name of operand `i`; "?" past the declared ones.
const char *kilnElemOperandName(const KilnInferContext *c, intptr_t i);

/// Operand `i` as a ranked tensor whose element type is in `allowed`; a
/// null type after an error otherwise.
MlirType kilnElemTypedOperand(const KilnInferContext *c, intptr_t i,
                              KilnElemClass allowed);

/// Reports operand `i` (type `t`) as having an unsupported element type;
/// `allowed` lists the allowed ones. Returns failure.
MlirLogicalResult kilnElemTypeError(const KilnInferContext *c, intptr_t i,
                                    MlirType t, const char *allowed);

/// ONNX binds operands `i` and `j` to one type variable T: their element
/// types must be equal.
MlirLogicalResult kilnElemSameElementType(const KilnInferContext *c, intptr_t i,
                                          MlirType ti, intptr_t j, MlirType tj);

/// Fails unless exactly one result is wanted.
MlirLogicalResult kilnElemCheckOneResult(const KilnInferContext *c);

/// Reads a 0/1 integer attribute (ONNX's booleans) with default `dflt`.
MlirLogicalResult kilnElemReadFlag(const KilnInferContext *c, const char *name,
                                   int64_t dflt, int64_t *out);

/// Checks Cast's and CastLike's `saturate` (0 or 1) and `round_mode`.
MlirLogicalResult kilnElemCheckCastAttrs(const KilnInferContext *c);

/// The unary rule: one result of operand 0's type, whose element type must
/// be in `allowed`.
MlirLogicalResult kilnElemInferUnary(KilnInferContext *c,
                                     KilnElemClass allowed);

/// Two operands bound to one T in `allowed`, broadcast; the result has
/// element type `resultElt`, or T's when null.
MlirLogicalResult kilnElemInferBinary(KilnInferContext *c,
                                      KilnElemClass allowed,
                                      MlirType resultElt);

/* ---------------------------------------------------------------------- */
/* Defined in ops_elementwise_rules.c: the table's inference functions     */
/* ---------------------------------------------------------------------- */

/// mod: numeric, broadcast; fmod is 0 or 1 and must be 1 for floats.
MlirLogicalResult kilnElemInferMod(KilnInferContext *c);
/// bit_shift: unsigned, broadcast; direction "LEFT" or "RIGHT".
MlirLogicalResult kilnElemInferBitShift(KilnInferContext *c);
/// is_nan: float or float8 -> i1 of the same shape.
MlirLogicalResult kilnElemInferIsNaN(KilnInferContext *c);
/// is_inf: as is_nan; detect_negative, detect_positive are 0 or 1.
MlirLogicalResult kilnElemInferIsInf(KilnInferContext *c);
/// celu: f32 only.
MlirLogicalResult kilnElemInferCelu(KilnInferContext *c);
/// gelu: float; approximate "none" or "tanh".
MlirLogicalResult kilnElemInferGelu(KilnInferContext *c);
/// shrink: numeric except bf16.
MlirLogicalResult kilnElemInferShrink(KilnInferContext *c);
/// prelu: slope broadcasts unidirectionally to x; the result has x's type.
MlirLogicalResult kilnElemInferPRelu(KilnInferContext *c);
/// cast_like: input's shape with target_type's element type.
MlirLogicalResult kilnElemInferCastLike(KilnInferContext *c);
/// dropout: output of data's type and an optional i1 mask of its shape.
MlirLogicalResult kilnElemInferDropout(KilnInferContext *c);

#endif

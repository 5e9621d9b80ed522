/* Shared by lower_elementwise.c (framework, arithmetic, comparisons,
 * logic, casts) and lower_elementwise_math.c (math functions and
 * activations): one scalar function per op, run inside an elementwise
 * linalg.generic by kilnEwLower. */
#ifndef KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_ELEMENTWISE_H
#define KILN_CONVERSIONS_GRAPH_TO_LINALG_LOWER_ELEMENTWISE_H

#include "conversions/graph-to-linalg/lower.h"

typedef struct KilnEw KilnEw;

/// Computes one result element from one element per operand. The operands
/// arrive normalized: unsigned integers as signless integers of the same
/// width (e->isUnsigned says so), f16/bf16 extended to f32. The result may
/// be such a normalized type too; kilnEwLower converts it to the result
/// element type.
typedef MlirValue (*KilnEwFn)(KilnBuilder *b, const MlirValue *x,
                              const KilnEw *e);

struct KilnEw {
  KilnEwFn fn;
  bool isUnsigned;     /* operand 0 has an unsigned integer element type */
  bool isUnsigned1;    /* the same for operand 1 (pow's exponent) */
  bool resultUnsigned; /* the result element type is unsigned */
  MlirType resultElt;  /* the result element type, normalized */
  double alpha, beta, gamma; /* attribute values, by op */
  int64_t flag;              /* an integer attribute, by op */
  const void *data;          /* op-specific */
  /* Set by kilnEwLower. */
  intptr_t nInputs;
  MlirType outElt; /* the result element type as declared */
};

/// Lowers an op whose result 0 is the elementwise, broadcast image of
/// `inputs` under e->fn (fills the fields of `e` that describe types).
/// Reports element types Kiln does not lower as unsupported.
KilnLowerStatus kilnEwLowerValues(KilnLowerOp *l, intptr_t nInputs,
                                  const MlirValue *inputs, KilnEw *e);
/// The same over the op's operands 0..nInputs-1 (all present).
KilnLowerStatus kilnEwLower(KilnLowerOp *l, intptr_t nInputs, KilnEw *e);

/// Whether Kiln lowers arithmetic on this element type: i1, i8..i64 (signed
/// or not), f16, bf16, f32, f64.
bool kilnEwSupportedType(MlirType elt);

/// Float constant of the type of `like`.
MlirValue kilnEwConst(KilnBuilder *b, MlirValue like, double v);

/// Lowers the unary math functions and activations of
/// lower_elementwise_math.c, found by the op's name (sqrt, exp, elu, ...).
KilnLowerStatus kilnEwLowerMath(KilnLowerOp *l);

#endif

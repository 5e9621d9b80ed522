/* The graph dialect's op table: each op's ONNX name, operands, results and
 * attributes, and its type-inference function.
 *
 * IRDL (graph.irdl.mlir) checks operand/result counts and base kinds; this
 * table carries what IRDL cannot express: attribute kinds with ONNX defaults,
 * which attributes are optional, and shape rules (the inference functions).
 * Builders, graph-verify and the docs all read it, so the rules live once.
 * test/dialects/graph/op-table.c checks that the table and the IRDL agree.
 *
 * The table is split by op family, one file each (ops_*.c): every family
 * exports an array of KilnGraphOpInfo and its length. */
#ifndef KILN_DIALECTS_GRAPH_OP_TABLE_H
#define KILN_DIALECTS_GRAPH_OP_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "mlir-c/IR.h"

typedef enum KilnOperandKind {
  KILN_OPERAND_SINGLE,   /* exactly one value */
  KILN_OPERAND_OPTIONAL, /* zero or one value (absent ONNX input) */
  KILN_OPERAND_VARIADIC  /* any number of values (only as the last one) */
} KilnOperandKind;

typedef struct KilnOperandSpec {
  const char *name; /* lower_snake_case, as in the IRDL */
  KilnOperandKind kind;
} KilnOperandSpec;

typedef enum KilnAttrKind {
  KILN_ATTR_INT,    /* IntegerAttr i64:          `axis = 1 : i64` */
  KILN_ATTR_FLOAT,  /* FloatAttr f32:            `alpha = 0.2 : f32` */
  KILN_ATTR_STRING, /* StringAttr:               `auto_pad = "VALID"` */
  KILN_ATTR_INTS,   /* DenseI64ArrayAttr:        `pads = array<i64: 1, 1>` */
  KILN_ATTR_FLOATS, /* DenseF32ArrayAttr:        `scales = array<f32: 2.0>` */
  KILN_ATTR_TYPE,   /* TypeAttr (element type):  `to = f16` */
  KILN_ATTR_TENSOR, /* DenseElementsAttr / DenseResourceElementsAttr */
  KILN_ATTR_STRINGS /* ArrayAttr of StringAttr:  `names = ["Tanh", "Relu"]` */
} KilnAttrKind;

typedef struct KilnAttrSpec {
  const char *name; /* ONNX attribute name, verbatim */
  KilnAttrKind kind;
  bool required;
  /* ONNX default in MLIR attribute syntax ("1 : i64", "\"NOTSET\"",
   * "array<i64>"), or NULL when the default depends on operands (e.g.
   * kernel_shape comes from the weight's shape) or there is none. */
  const char *defaultValue;
  const char *doc; /* one line */
} KilnAttrSpec;

struct KilnInferContext;

/// Computes result types into ctx->resultTypes[0..ctx->numResults). On any
/// violated shape or attribute rule, emits an error at ctx->loc naming the
/// op and returns failure.
typedef MlirLogicalResult (*KilnInferFn)(struct KilnInferContext *ctx);

typedef struct KilnGraphOpInfo {
  const char *name;     /* op name without the "graph." prefix: "conv" */
  const char *onnxName; /* "Conv" */
  const char *summary;  /* one line */
  const KilnOperandSpec *operands;
  int numOperands;
  const KilnOperandSpec *results;
  int numResults;
  const KilnAttrSpec *attrs;
  int numAttrs;
  KilnInferFn infer;
} KilnGraphOpInfo;

/// Looks an op up by its name without prefix ("conv") or with it
/// ("graph.conv"). Returns NULL if unknown.
const KilnGraphOpInfo *kilnGraphOpLookup(MlirStringRef name);

/// Iterates over every op: 0 <= i < kilnGraphOpGetCount().
intptr_t kilnGraphOpGetCount(void);
const KilnGraphOpInfo *kilnGraphOpGetAt(intptr_t i);

/// Looks an attribute spec up by name in `op`; NULL if the op has none.
const KilnAttrSpec *kilnGraphOpFindAttr(const KilnGraphOpInfo *op,
                                        MlirStringRef name);

/// Whether `value` is the ONNX default of the attribute `spec`: equal to
/// its defaultValue, or, for the ints attributes whose length follows the
/// rank (strides and dilations: all 1; pads and output_padding: all 0),
/// every element the default. Two ops that differ only in spelling a
/// default out are the same op.
bool kilnGraphAttrIsDefault(const KilnAttrSpec *spec, MlirAttribute value);

/// Family tables, defined in ops_<family>.c.
#define KILN_GRAPH_DECLARE_FAMILY(family)                                      \
  extern const KilnGraphOpInfo kilnGraph##family##Ops[];                       \
  extern const int kilnGraph##family##OpsCount
KILN_GRAPH_DECLARE_FAMILY(Elementwise);
KILN_GRAPH_DECLARE_FAMILY(Tensor);
KILN_GRAPH_DECLARE_FAMILY(NN);
KILN_GRAPH_DECLARE_FAMILY(Reduction);
KILN_GRAPH_DECLARE_FAMILY(Quant);

#endif

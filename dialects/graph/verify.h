/* graph-verify: what IRDL cannot check (attribute kinds, shape rules). */
#ifndef KILN_DIALECTS_GRAPH_VERIFY_H
#define KILN_DIALECTS_GRAPH_VERIFY_H

#include "dialects/graph/op_table.h"
#include "kiln/graph.h"
#include "kiln/passes.h"

typedef struct KilnGraphVerifyOptions {
  bool requireStaticShapes; /* results must have static shapes */
  int64_t maxErrors;        /* stop after this many bad ops; 0 = no limit */
} KilnGraphVerifyOptions;

/// kilnGraphVerify with options (the pass's `require-static-shapes` and
/// `max-errors`).
MlirLogicalResult kilnGraphVerifyWithOptions(MlirOperation root,
                                             KilnGraphVerifyOptions options);

/// Lays the flat operands of graph op `operation` (described by `op`) out
/// by ONNX position, absent optional ones as null values, into `out`
/// (capacity op->numOperands + the op's operand count). Returns the
/// positional count, or -1 after an error on inconsistent segments.
intptr_t kilnGraphPositionalOperands(MlirOperation operation,
                                     const KilnGraphOpInfo *op, MlirValue *out);

/// The pass running kilnGraphVerify.
extern const KilnPassInfo kilnGraphVerifyPass;

#endif

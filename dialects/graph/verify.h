/* graph-verify: what IRDL cannot check (attribute kinds, shape rules). */
#ifndef KILN_DIALECTS_GRAPH_VERIFY_H
#define KILN_DIALECTS_GRAPH_VERIFY_H

#include "kiln/passes.h"

/// Verifies every graph op nested in `root` (root included): attributes
/// against the op table, and declared result types against those inferred
/// from operands and attributes. Emits one located error per bad op and
/// returns failure if any.
MlirLogicalResult kilnGraphVerify(MlirOperation root);

/// The pass running kilnGraphVerify.
extern const KilnPassInfo kilnGraphVerifyPass;

#endif

/* What kiln-runtime-checks (runtime_checks.c) leaves in a module for the
 * code generator, the runtime and kiln-run: the status word its checks
 * write and the messages of the checks. */
#ifndef KILN_CONVERSIONS_GRAPH_TO_LINALG_RUNTIME_CHECKS_H
#define KILN_CONVERSIONS_GRAPH_TO_LINALG_RUNTIME_CHECKS_H

/// The memref.global (i32) a failing check writes its number (1, 2, ...)
/// to; 0 while every check passed. kiln_model_run zeroes and returns it.
#define KILN_CHECK_STATUS_SYMBOL "kiln_check_status"

/// The module attribute listing the checks' messages, check N at N - 1:
/// "NODE (OpType): an index is out of range: ...". A model library carries
/// them as `check N MESSAGE` metadata records.
#define KILN_RUNTIME_CHECKS_ATTR "kiln.runtime_checks"

/// The unit attribute on each check of data (an scf.if recording a
/// failure): kiln-shape-function leaves these out of the shape function,
/// which keeps only the checks of shapes.
#define KILN_DATA_CHECK_ATTR "kiln.data_check"

#endif

/* The ONNX nodes of a model being profiled (kiln-compile --profile,
 * docs/kiln-compile.md): which nodes an op's location names, the entry
 * function, and the module attributes that carry the request and each
 * node's facts from kiln-profile-nodes (linalg on tensors) to
 * kiln-instrument-ops (buffers). */
#ifndef KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_PROFILE_NODES_H
#define KILN_CONVERSIONS_LINALG_TO_LLVM_CPU_PROFILE_NODES_H

#include <stdbool.h>

#include "mlir-c/IR.h"

/// The unit attribute on the module that asks for instrumentation.
#define KILN_PROFILE_ATTR "kiln.profile"
/// The dictionary kiln-profile-nodes leaves on the module: per node
/// ("NAME (OpType)") a dictionary {flops = i64, type = tensor type}.
#define KILN_PROFILE_NODES_ATTR "kiln.profile.nodes"
/// The metadata records kiln-instrument-ops leaves on the module (a string,
/// one `profile-op` line per record) for the model library's metadata.
#define KILN_PROFILE_RECORDS_ATTR "kiln.profile.records"

/// Called for each ONNX node named by a location: `key` is the importer's
/// "NAME (OpType)" (or "#INDEX (OpType)"), borrowed.
typedef void (*KilnProfileNodeFn)(MlirStringRef key, void *userData);

/// Calls `fn` for each ONNX node in `loc` (name locations of the form
/// "NAME (OpType)", inside fused and call-site locations too), in order.
void kilnProfileForEachNode(MlirLocation loc, KilnProfileNodeFn fn,
                            void *userData);

/// Whether `module` asks for profiling (has KILN_PROFILE_ATTR).
bool kilnProfileIsRequested(MlirOperation module);

#endif

/* Unpacking a ModelProto with less memory than protobuf-c's plain unpack.
 * Internal to the importer. */
#ifndef KILN_CONVERSIONS_ONNX_TO_GRAPH_WIRE_SCAN_H
#define KILN_CONVERSIONS_ONNX_TO_GRAPH_WIRE_SCAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "onnx.pb-c.h"

/// Unpacks the serialized ModelProto `data[0, len)` as
/// onnx__model_proto__unpack does (free the result with
/// onnx__model_proto__free_unpacked), but unpacks the main graph's
/// initializers one at a time after the rest of the model. With `release`,
/// `data` must be the start of a private read-only mapping of the file:
/// the pages behind each unpacked initializer are then dropped, so the
/// weights are held about once instead of twice. Falls back to the plain
/// unpack when the file's layout is not the one the scan understands.
/// Returns NULL when the bytes are not a valid ModelProto.
Onnx__ModelProto *kilnOnnxUnpackModel(const uint8_t *data, size_t len,
                                      bool release);

#endif

/* Typed builders for graph ops of the quant family (see graph_builder.h):
 * quantize_linear, dequantize_linear, dynamic_quantize_linear,
 * matmul_integer, conv_integer, qlinear_matmul and qlinear_conv.
 *
 * Conventions shared by every function here:
 * - Operands are values of ranked tensor type; an optional ONNX input is
 *   passed as a null MlirValue when absent.
 * - Attributes are plain C values. An attribute equal to its ONNX default is
 *   left off the op (the op then means the same thing), so built IR matches
 *   what the ONNX importer produces. Conv attributes come in graph_nn.h's
 *   KilnGraphConvOptions (NULL or zero-initialized: all defaults; the
 *   conv_transpose-only fields must stay unset).
 * - The result type is inferred with ONNX's rules. The new op is inserted at
 *   the builder's insertion point and owned by its block; returned values
 *   are borrowed from it.
 * - On a violated rule (shape, element type, scale or zero-point shape,
 *   attribute value) an error diagnostic is emitted at the builder's
 *   location, nothing is inserted, and a null value is returned. */
#ifndef KILN_GRAPH_QUANT_H
#define KILN_GRAPH_QUANT_H

#include <stdbool.h>
#include <stdint.h>

#include "kiln/graph_builder.h"
#include "kiln/graph_nn.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Attributes of graph.quantize_linear and graph.dequantize_linear
/// (dequantize_linear has no outputDtype or saturate). A zero-initialized
/// struct, or NULL, means ONNX's defaults.
typedef struct KilnGraphQuantizeOptions {
  int64_t axis;         /* ignored unless hasAxis; ONNX default 1 */
  bool hasAxis;         /* false: axis absent (1) */
  int64_t blockSize;    /* 0: per-tensor or per-axis; > 0: blocked */
  MlirType outputDtype; /* null: y_zero_point's type, else ui8 */
  bool noSaturate;      /* true: saturate = 0 (float8 outputs only) */
} KilnGraphQuantizeOptions;

/// Builds graph.quantize_linear (ONNX QuantizeLinear-21): x (f32, f16, bf16
/// or i32) divided by y_scale (x's float type; f32/f16/bf16 for an i32 x),
/// plus y_zero_point (null: absent). The scale and zero point are per
/// tensor (scalar), per axis (1-D) or blocked (x's rank, with
/// opts->blockSize). Returns y, or null after an error.
MlirValue kilnGraphBuildQuantizeLinear(KilnGraphBuilder *b, MlirValue x,
                                       MlirValue yScale, MlirValue yZeroPoint,
                                       const KilnGraphQuantizeOptions *opts);

/// Builds graph.dequantize_linear (ONNX DequantizeLinear-21):
/// (x - x_zero_point) * x_scale with x_scale's float element type;
/// xZeroPoint may be null. opts->outputDtype and opts->noSaturate must be
/// unset. Returns y, or null after an error.
MlirValue kilnGraphBuildDequantizeLinear(KilnGraphBuilder *b, MlirValue x,
                                         MlirValue xScale, MlirValue xZeroPoint,
                                         const KilnGraphQuantizeOptions *opts);

/// Builds graph.dynamic_quantize_linear (ONNX DynamicQuantizeLinear): an f32
/// x becomes a ui8 y of x's shape; the f32 scalar scale and ui8 scalar zero
/// point are stored to *yScale and *yZeroPoint when those are non-NULL.
/// Returns y, or null (and null outputs) after an error.
MlirValue kilnGraphBuildDynamicQuantizeLinear(KilnGraphBuilder *b, MlirValue x,
                                              MlirValue *yScale,
                                              MlirValue *yZeroPoint);

/// Builds graph.matmul_integer (ONNX MatMulInteger): numpy matmul of i8/ui8
/// a and b with an i32 result; the zero points (null: absent) have their
/// operand's element type and are per tensor, per row of a or per column of
/// b. Returns y, or null after an error.
MlirValue kilnGraphBuildMatMulInteger(KilnGraphBuilder *b, MlirValue a,
                                      MlirValue bMatrix, MlirValue aZeroPoint,
                                      MlirValue bZeroPoint);

/// Builds graph.conv_integer (ONNX ConvInteger): conv of i8/ui8 x by w with
/// an i32 result and graph.conv's shape rules; xZeroPoint (per tensor) and
/// wZeroPoint (per tensor or output channel) may be null. `opts` may be NULL.
/// Returns y, or null after an error.
MlirValue kilnGraphBuildConvInteger(KilnGraphBuilder *b, MlirValue x,
                                    MlirValue w, MlirValue xZeroPoint,
                                    MlirValue wZeroPoint,
                                    const KilnGraphConvOptions *opts);

/// The operands of graph.qlinear_matmul and graph.qlinear_conv: each
/// quantized tensor with its scale and zero point.
typedef struct KilnGraphQuantized {
  MlirValue value, scale, zeroPoint;
} KilnGraphQuantized;

/// Builds graph.qlinear_matmul (ONNX QLinearMatMul-21): numpy matmul of the
/// quantized a and b, requantized with y's scale and zero point (whose
/// element type y takes); `y.value` is unused. Returns y, or null after an
/// error.
MlirValue kilnGraphBuildQLinearMatMul(KilnGraphBuilder *b, KilnGraphQuantized a,
                                      KilnGraphQuantized bMatrix,
                                      KilnGraphQuantized y);

/// Builds graph.qlinear_conv (ONNX QLinearConv): conv of the quantized x by
/// w with an optional i32 bias (null: absent), requantized with y's scale
/// and zero point; `y.value` is unused, `opts` may be NULL. Returns y, or
/// null after an error.
MlirValue kilnGraphBuildQLinearConv(KilnGraphBuilder *b, KilnGraphQuantized x,
                                    KilnGraphQuantized w, KilnGraphQuantized y,
                                    MlirValue bias,
                                    const KilnGraphConvOptions *opts);

#ifdef __cplusplus
}
#endif

#endif

// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-verify))'

// One case per error the quant ops report: IRDL's structural checks and the
// op table's attribute kinds first, then every element-type, scale/zero-point
// shape, matmul and attribute-value rule of ops_quant.c, and each error of the
// conv shape rules it shares with graph.conv (kilnNNConvShape, conv_shape.h).

func.func @negative_quantize_missing_scale(%x: tensor<4xf32>) {
  // expected-error @+1 {{expects at least 2 operands, but got 1}}
  %0 = "graph.quantize_linear"(%x) : (tensor<4xf32>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_dynamic_quantize_one_result(%x: tensor<4xf32>) {
  // expected-error @+1 {{expects exactly 3 results, but got 1}}
  %0 = "graph.dynamic_quantize_linear"(%x) : (tensor<4xf32>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_matmul_integer_without_segment_sizes(%a: tensor<2x3xi8>, %b: tensor<3x2xi8>, %z: tensor<i8>) {
  // expected-error @+1 {{operandSegmentSizes}}
  %0 = "graph.matmul_integer"(%a, %b, %z) : (tensor<2x3xi8>, tensor<3x2xi8>, tensor<i8>) -> tensor<2x2xi32>
  return
}

// -----

func.func @negative_dequantize_unknown_attribute(%x: tensor<4xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.dequantize_linear' op has unknown attribute 'saturate'}}
  %0 = "graph.dequantize_linear"(%x, %s) {saturate = 1 : i64} : (tensor<4xi8>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_quantize_output_dtype_not_type(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.quantize_linear' op attribute 'output_dtype' must be a type attribute, got 3 : i64}}
  %0 = "graph.quantize_linear"(%x, %s) {output_dtype = 3 : i64} : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  return
}

// -----

func.func @negative_quantize_integer_input(%x: tensor<4xi8>, %s: tensor<f32>) {
  // expected-error @+1 {{'graph.quantize_linear' op operand 'x' has element type i8, expected one of i32, f32, f16, bf16}}
  %0 = "graph.quantize_linear"(%x, %s) : (tensor<4xi8>, tensor<f32>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_quantize_scale_type(%x: tensor<4xf16>, %s: tensor<f32>) {
  // expected-error @+1 {{operands 'x' and 'y_scale' must have the same element type, got f16 and f32}}
  %0 = "graph.quantize_linear"(%x, %s) : (tensor<4xf16>, tensor<f32>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_quantize_zero_point_i32(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i32>) {
  // expected-error @+1 {{operand 'y_zero_point' has element type i32, expected one of i8, ui8, i16, ui16, i4, ui4, f8E4M3FN, f8E4M3FNUZ, f8E5M2, f8E5M2FNUZ}}
  %0 = "graph.quantize_linear"(%x, %s, %z) : (tensor<4xf32>, tensor<f32>, tensor<i32>) -> tensor<4xi32>
  return
}

// -----

func.func @negative_quantize_pair_shapes(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %z: tensor<ui8>) {
  // expected-error @+1 {{operands 'y_scale' and 'y_zero_point' must have the same shape, got tensor<3xf32> and tensor<ui8>}}
  %0 = "graph.quantize_linear"(%x, %s, %z) : (tensor<2x3xf32>, tensor<3xf32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @negative_quantize_saturate(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{attribute 'saturate' must be 0 or 1, got 2}}
  %0 = "graph.quantize_linear"(%x, %s) {saturate = 2 : i64} : (tensor<4xf32>, tensor<f32>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_quantize_output_dtype_float(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{attribute 'output_dtype' is f32, expected one of i8}}
  %0 = "graph.quantize_linear"(%x, %s) {output_dtype = f32} : (tensor<4xf32>, tensor<f32>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_quantize_output_dtype_mismatch(%x: tensor<4xf32>, %s: tensor<f32>, %z: tensor<i8>) {
  // expected-error @+1 {{attribute 'output_dtype' (ui8) must equal the element type of 'y_zero_point' (i8)}}
  %0 = "graph.quantize_linear"(%x, %s, %z) {output_dtype = ui8} : (tensor<4xf32>, tensor<f32>, tensor<i8>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_quantize_result_type(%x: tensor<4xf32>, %s: tensor<f32>) {
  // expected-error @+1 {{result #0 has type tensor<4xi8>, but its operands and attributes imply tensor<4xui8>}}
  %0 = "graph.quantize_linear"(%x, %s) : (tensor<4xf32>, tensor<f32>) -> tensor<4xi8>
  return
}

// -----

func.func @negative_quantize_block_size(%x: tensor<4xf32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{attribute 'block_size' must be non-negative, got -2}}
  %0 = "graph.quantize_linear"(%x, %s) {block_size = -2 : i64} : (tensor<4xf32>, tensor<2xf32>) -> tensor<4xui8>
  return
}

// -----

func.func @negative_quantize_scalar_x(%x: tensor<f32>, %s: tensor<2xf32>) {
  // expected-error @+1 {{operand 'y_scale' must be a scalar for a rank-0 'x'}}
  %0 = "graph.quantize_linear"(%x, %s) : (tensor<f32>, tensor<2xf32>) -> tensor<ui8>
  return
}

// -----

func.func @negative_quantize_axis(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{axis 2 is out of range for rank 2}}
  %0 = "graph.quantize_linear"(%x, %s) {axis = 2 : i64} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xui8>
  return
}

// -----

func.func @negative_dequantize_per_axis_rank(%x: tensor<2x3xi8>, %s: tensor<2x3xf32>) {
  // expected-error @+1 {{operand 'x_scale' must be a scalar or 1-D (per-axis) when 'block_size' is 0, got rank 2}}
  %0 = "graph.dequantize_linear"(%x, %s) : (tensor<2x3xi8>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_dequantize_per_axis_length(%x: tensor<2x3xi8>, %s: tensor<2xf32>) {
  // expected-error @+1 {{operand 'x_scale' has 2 values but 'x' has 3 along axis 1 (per-axis quantization)}}
  %0 = "graph.dequantize_linear"(%x, %s) : (tensor<2x3xi8>, tensor<2xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_dequantize_blocked_rank(%x: tensor<2x6xi8>, %s: tensor<2xf32>) {
  // expected-error @+1 {{operand 'x_scale' must have the rank of 'x' (2) for blocked quantization (block_size 3), got rank 1}}
  %0 = "graph.dequantize_linear"(%x, %s) {block_size = 3 : i64} : (tensor<2x6xi8>, tensor<2xf32>) -> tensor<2x6xf32>
  return
}

// -----

func.func @negative_dequantize_blocked_count(%x: tensor<2x7xi8>, %s: tensor<2x2xf32>) {
  // ceil(7 / 3) = 3 blocks.
  // expected-error @+1 {{operand 'x_scale' has 2 values along dimension 1, expected 3 (blocked quantization along axis 1 with block_size 3)}}
  %0 = "graph.dequantize_linear"(%x, %s) {block_size = 3 : i64} : (tensor<2x7xi8>, tensor<2x2xf32>) -> tensor<2x7xf32>
  return
}

// -----

func.func @negative_dequantize_zero_point_type(%x: tensor<4xi8>, %s: tensor<f32>, %z: tensor<ui8>) {
  // expected-error @+1 {{operands 'x' and 'x_zero_point' must have the same element type, got i8 and ui8}}
  %0 = "graph.dequantize_linear"(%x, %s, %z) : (tensor<4xi8>, tensor<f32>, tensor<ui8>) -> tensor<4xf32>
  return
}

// -----

func.func @negative_dynamic_quantize_f16(%x: tensor<4xf16>) {
  // expected-error @+1 {{operand 'x' has element type f16, expected f32}}
  %0:3 = "graph.dynamic_quantize_linear"(%x) : (tensor<4xf16>) -> (tensor<4xui8>, tensor<f32>, tensor<ui8>)
  return
}

// -----

func.func @negative_matmul_integer_i16(%a: tensor<2x3xi16>, %b: tensor<3x2xi8>) {
  // expected-error @+1 {{operand 'a' has element type i16, expected one of i8, ui8}}
  %0 = "graph.matmul_integer"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<2x3xi16>, tensor<3x2xi8>) -> tensor<2x2xi32>
  return
}

// -----

func.func @negative_matmul_integer_rank0(%a: tensor<i8>, %b: tensor<3x2xi8>) {
  // expected-error @+1 {{operand 'a' must have rank >= 1, got rank 0}}
  %0 = "graph.matmul_integer"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<i8>, tensor<3x2xi8>) -> tensor<2xi32>
  return
}

// -----

func.func @negative_matmul_integer_contraction(%a: tensor<2x3xi8>, %b: tensor<4x2xi8>) {
  // expected-error @+1 {{contraction dimensions differ: 'a' has 3 columns but 'b' has 4 rows}}
  %0 = "graph.matmul_integer"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<2x3xi8>, tensor<4x2xi8>) -> tensor<2x2xi32>
  return
}

// -----

func.func @negative_matmul_integer_batch(%a: tensor<2x2x3xi8>, %b: tensor<3x3x2xi8>) {
  // expected-error @+1 {{batch dimensions are not broadcast-compatible: 2 in 'a' vs 3 in 'b' (batch dim 0)}}
  %0 = "graph.matmul_integer"(%a, %b) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<2x2x3xi8>, tensor<3x3x2xi8>) -> tensor<2x2x2xi32>
  return
}

// -----

func.func @negative_matmul_integer_row_zero_point(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %z: tensor<3xui8>) {
  // expected-error @+1 {{operand 'a_zero_point' of type tensor<3xui8> must be a scalar or hold one value per row of 'a' (tensor<4x3xui8>): 1-D or shaped [..., M, 1]}}
  %0 = "graph.matmul_integer"(%a, %b, %z) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<3xui8>) -> tensor<4x2xi32>
  return
}

// -----

func.func @negative_qlinear_matmul_scale_types(%a: tensor<2x4xui8>, %s: tensor<f32>, %z: tensor<ui8>, %b: tensor<4x3xui8>, %h: tensor<f16>) {
  // expected-error @+1 {{operands 'a_scale' and 'b_scale' must have the same element type, got f32 and f16}}
  %0 = "graph.qlinear_matmul"(%a, %s, %z, %b, %h, %z, %s, %z) : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f16>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @negative_qlinear_matmul_y_per_row(%a: tensor<2x4xui8>, %s: tensor<f32>, %z: tensor<ui8>, %b: tensor<4x3xui8>, %ys: tensor<2xf32>, %yz: tensor<2xui8>) {
  // expected-error @+1 {{operand 'y_scale' must be a scalar (per-tensor quantization), got tensor<2xf32>}}
  %0 = "graph.qlinear_matmul"(%a, %s, %z, %b, %s, %z, %ys, %yz) : (tensor<2x4xui8>, tensor<f32>, tensor<ui8>, tensor<4x3xui8>, tensor<f32>, tensor<ui8>, tensor<2xf32>, tensor<2xui8>) -> tensor<2x3xui8>
  return
}

// -----

func.func @negative_conv_integer_x_zero_point(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xui8>, %z: tensor<3xui8>) {
  // expected-error @+1 {{operand 'x_zero_point' must be a scalar (per-tensor quantization), got tensor<3xui8>}}
  %0 = "graph.conv_integer"(%x, %w, %z) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xui8>, tensor<3xui8>) -> tensor<1x2x3x3xi32>
  return
}

// -----

func.func @negative_conv_integer_w_zero_point(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xui8>, %z: tensor<3xui8>) {
  // expected-error @+1 {{operand 'w_zero_point' must be a scalar or 1-D with one value per output channel (2), got tensor<3xui8>}}
  %0 = "graph.conv_integer"(%x, %w, %z) {operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xui8>, tensor<3xui8>) -> tensor<1x2x3x3xi32>
  return
}

// -----

func.func @negative_conv_integer_rank(%x: tensor<3x5xui8>, %w: tensor<2x3xui8>) {
  // expected-error @+1 {{operand 'x' must have rank 3, 4 or 5 (N x C x D1 ... Dn with 1 to 3 spatial dimensions), got rank 2}}
  %0 = "graph.conv_integer"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<3x5xui8>, tensor<2x3xui8>) -> tensor<3x2xi32>
  return
}

// -----

func.func @negative_conv_integer_weight_rank(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3xui8>) {
  // expected-error @+1 {{operand 'w' must have the rank of 'x' (4), got rank 3}}
  %0 = "graph.conv_integer"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x5x5xui8>, tensor<2x3x3xui8>) -> tensor<1x2x3x3xi32>
  return
}

// -----

func.func @negative_conv_integer_group(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{attribute 'group' must be positive, got 0}}
  %0 = "graph.conv_integer"(%x, %w) {group = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xui8>) -> tensor<1x2x3x3xi32>
  return
}

// -----

func.func @negative_conv_integer_channels(%x: tensor<1x4x5x5xui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{operand 'x' has 4 channels but 'w' expects 3 per group (w dimension 1) times group 1}}
  %0 = "graph.conv_integer"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x4x5x5xui8>, tensor<2x3x3x3xui8>) -> tensor<1x2x3x3xi32>
  return
}

// -----

func.func @negative_conv_integer_output_groups(%x: tensor<1x4x5x5xui8>, %w: tensor<3x2x3x3xui8>) {
  // expected-error @+1 {{output channels (w dimension 0) 3 are not divisible by group 2}}
  %0 = "graph.conv_integer"(%x, %w) {group = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x4x5x5xui8>, tensor<3x2x3x3xui8>) -> tensor<1x3x3x3xi32>
  return
}

// -----

func.func @negative_conv_integer_auto_pad(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{attribute 'auto_pad' must be one of NOTSET, SAME_UPPER, SAME_LOWER, VALID, got "SAME"}}
  %0 = "graph.conv_integer"(%x, %w) {auto_pad = "SAME", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xui8>) -> tensor<1x2x5x5xi32>
  return
}

// -----

func.func @negative_conv_integer_strides_count(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{attribute 'strides' must have 2 values, got 1}}
  %0 = "graph.conv_integer"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0, 0>, strides = array<i64: 2>} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xui8>) -> tensor<1x2x2x2xi32>
  return
}

// -----

func.func @negative_conv_integer_negative_pads(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{attribute 'pads' must be non-negative, got [0, -1, 0, 0]}}
  %0 = "graph.conv_integer"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0, 0>, pads = array<i64: 0, -1, 0, 0>} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xui8>) -> tensor<1x2x3x2xi32>
  return
}

// -----

func.func @negative_conv_integer_kernel_shape(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{attribute 'kernel_shape' [2, 2] does not match the spatial dimensions of operand 'w' (tensor<2x3x3x3xui8>)}}
  %0 = "graph.conv_integer"(%x, %w) {kernel_shape = array<i64: 2, 2>, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xui8>) -> tensor<1x2x4x4xi32>
  return
}

// -----

func.func @negative_conv_integer_pads_with_auto_pad(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{attribute 'pads' [1, 1, 1, 1] cannot be combined with auto_pad "VALID"}}
  %0 = "graph.conv_integer"(%x, %w) {auto_pad = "VALID", operandSegmentSizes = array<i32: 1, 1, 0, 0>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xui8>) -> tensor<1x2x3x3xi32>
  return
}

// -----

func.func @negative_conv_integer_too_small(%x: tensor<1x3x2x5xui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{spatial dimension 0: input size 2 plus padding 0 is smaller than the dilated kernel size 3}}
  %0 = "graph.conv_integer"(%x, %w) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x2x5xui8>, tensor<2x3x3x3xui8>) -> tensor<1x2x1x3xi32>
  return
}

// -----

func.func @negative_conv_integer_overflow(%x: tensor<1x3x5x5xui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{spatial dimension 0: sizes computed from the attributes overflow 64 bits}}
  %0 = "graph.conv_integer"(%x, %w) {dilations = array<i64: 9223372036854775807, 1>, operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x5x5xui8>, tensor<2x3x3x3xui8>) -> tensor<1x2x3x3xi32>
  return
}

// -----

func.func @negative_qlinear_conv_bias(%x: tensor<1x3x5x5xui8>, %s: tensor<f32>, %z: tensor<ui8>, %w: tensor<2x3x3x3xui8>, %b: tensor<3xi32>) {
  // expected-error @+1 {{operand 'b' must be 1-D with one value per output channel (2), got tensor<3xi32>}}
  %0 = "graph.qlinear_conv"(%x, %s, %z, %w, %s, %z, %s, %z, %b) : (tensor<1x3x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<2x3x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>, tensor<3xi32>) -> tensor<1x2x3x3xui8>
  return
}

// -----

func.func @negative_qlinear_conv_f16_scale(%x: tensor<1x3x5x5xui8>, %s: tensor<f32>, %h: tensor<f16>, %z: tensor<ui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{operand 'x_scale' has element type f16, expected f32}}
  %0 = "graph.qlinear_conv"(%x, %h, %z, %w, %s, %z, %s, %z) : (tensor<1x3x5x5xui8>, tensor<f16>, tensor<ui8>, tensor<2x3x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  return
}

// -----

// qlinear_conv's weight is operand 3: the shared conv rules name it.
func.func @negative_qlinear_conv_channels(%x: tensor<1x4x5x5xui8>, %s: tensor<f32>, %z: tensor<ui8>, %w: tensor<2x3x3x3xui8>) {
  // expected-error @+1 {{operand 'x' has 4 channels but 'w' expects 3 per group (w dimension 1) times group 1}}
  %0 = "graph.qlinear_conv"(%x, %s, %z, %w, %s, %z, %s, %z) : (tensor<1x4x5x5xui8>, tensor<f32>, tensor<ui8>, tensor<2x3x3x3xui8>, tensor<f32>, tensor<ui8>, tensor<f32>, tensor<ui8>) -> tensor<1x2x3x3xui8>
  return
}

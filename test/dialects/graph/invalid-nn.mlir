// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-verify))'

// One case per error the nn ops report: IRDL's structural checks and the
// op table's attribute kinds first, then every shape, element-type and
// attribute-value rule of the nn inference functions (ops_nn.c).

func.func @negative_conv_missing_weight(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{expects at least 2 operands, but got 1}}
  %0 = "graph.conv"(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_max_pool_without_kernel_shape(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{attribute "kernel_shape" is expected but not provided}}
  %0 = "graph.max_pool"(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_max_pool_three_results(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{expects at most 2 results, but got 3}}
  %0:3 = "graph.max_pool"(%x) {kernel_shape = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>, tensor<1x3x8x8xf32>)
  return
}

// -----

func.func @negative_batch_norm_four_operands(%x: tensor<2x3xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{expects exactly 5 operands, but got 4}}
  %0 = "graph.batch_norm"(%x, %s, %s, %s) : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_resize_without_segment_sizes(%x: tensor<4xf32>, %s: tensor<1xf32>) {
  // expected-error @+1 {{operandSegmentSizes}}
  %0 = "graph.resize"(%x, %s) : (tensor<4xf32>, tensor<1xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @negative_conv_unknown_attribute(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op has unknown attribute 'ceil_mode'}}
  %0 = "graph.conv"(%x, %w) {ceil_mode = 1 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_group_not_i64(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'group' must be an i64 integer attribute, got 1 : i32}}
  %0 = "graph.conv"(%x, %w) {group = 1 : i32} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_strides_not_i64_array(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'strides' must be an array<i64: ...> attribute}}
  %0 = "graph.conv"(%x, %w) {strides = array<i32: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_result_shape(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op result #0 has type tensor<1x4x4x4xf32>, but its operands and attributes imply tensor<1x4x3x3xf32>}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  return
}

// -----

func.func @negative_conv_unranked(%x: tensor<*xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{expected base type 'builtin.tensor' but got 'builtin.unranked_tensor'}}
  %0 = "graph.conv"(%x, %w) : (tensor<*xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_integer(%x: tensor<1x3x8x8xi32>, %w: tensor<4x3x3x3xi32>) {
  // expected-error @+1 {{'graph.conv' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i32}}
  %0 = "graph.conv"(%x, %w) : (tensor<1x3x8x8xi32>, tensor<4x3x3x3xi32>) -> tensor<1x4x6x6xi32>
  return
}

// -----

func.func @negative_conv_element_types_differ(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf16>) {
  // expected-error @+1 {{'graph.conv' op operands 'x' and 'w' must have the same element type, got f32 and f16}}
  %0 = "graph.conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_rank_2(%x: tensor<3x8xf32>, %w: tensor<4x3xf32>) {
  // expected-error @+1 {{'graph.conv' op operand 'x' must have rank 3, 4 or 5 (N x C x D1 ... Dn with 1 to 3 spatial dimensions), got rank 2}}
  %0 = "graph.conv"(%x, %w) : (tensor<3x8xf32>, tensor<4x3xf32>) -> tensor<3x4xf32>
  return
}

// -----

func.func @negative_conv_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op operand 'w' must have the rank of 'x' (4), got rank 3}}
  %0 = "graph.conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_group_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'group' must be positive, got 0}}
  %0 = "graph.conv"(%x, %w) {group = 0 : i64} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_channels(%x: tensor<1x3x8x8xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op operand 'x' has 3 channels but 'w' expects 2 per group (w dimension 1) times group 1}}
  %0 = "graph.conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x2x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_output_channels_vs_group(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op output channels (w dimension 0) 3 are not divisible by group 2}}
  %0 = "graph.conv"(%x, %w) {group = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  return
}

// -----

func.func @negative_conv_bias_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<1x4xf32>) {
  // expected-error @+1 {{'graph.conv' op operand 'b' must be 1-D (one value per output channel), got rank 2}}
  %0 = "graph.conv"(%x, %w, %b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<1x4xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_bias_length(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'graph.conv' op operand 'b' must have 4 elements (one value per output channel), got 3}}
  %0 = "graph.conv"(%x, %w, %b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_bias_element_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'graph.conv' op operands 'x' and 'b' must have the same element type, got f32 and f16}}
  %0 = "graph.conv"(%x, %w, %b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf16>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_auto_pad_value(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'auto_pad' must be one of NOTSET, SAME_UPPER, SAME_LOWER, VALID, got "SAME"}}
  %0 = "graph.conv"(%x, %w) {auto_pad = "SAME"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_strides_count(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'strides' must have 2 values, got 1}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_strides_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'strides' must be positive, got [1, 0]}}
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_dilations_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'dilations' must be positive, got [0, 1]}}
  %0 = "graph.conv"(%x, %w) {dilations = array<i64: 0, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_pads_count(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'pads' must have 4 values, got 2}}
  %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_pads_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'pads' must be non-negative, got [1, -1, 1, 1]}}
  %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, -1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_kernel_shape_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'kernel_shape' must be positive, got [0, 3]}}
  %0 = "graph.conv"(%x, %w) {kernel_shape = array<i64: 0, 3>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_layout_unknown(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'layout' must be one of channels_first, channels_last, got "NHWC"}}
  %0 = "graph.conv"(%x, %w) {layout = "NHWC"} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

// Under channels_last, C is x's last dim (3) and the weight's C/group is its
// dim 2 (5); messages name the dims of the channels-first view.
func.func @negative_conv_channels_last_channels(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x5x4xf32>) {
  // expected-error @+1 {{'graph.conv' op operand 'x' has 3 channels but 'w' expects 5 per group (w dimension 1) times group 1}}
  %0 = "graph.conv"(%x, %w) {layout = "channels_last"} : (tensor<1x8x8x3xf32>, tensor<3x3x5x4xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @negative_conv_channels_last_bias(%x: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'graph.conv' op operand 'b'}}
  %0 = "graph.conv"(%x, %w, %b) {layout = "channels_last"} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>, tensor<3xf32>) -> tensor<1x6x6x4xf32>
  return
}

// -----

func.func @negative_conv_channels_last_rank(%x: tensor<8x3xf32>, %w: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.conv' op operand 'x' must have rank 3, 4 or 5}}
  %0 = "graph.conv"(%x, %w) {layout = "channels_last"} : (tensor<8x3xf32>, tensor<3x4xf32>) -> tensor<8x4xf32>
  return
}

// -----

func.func @negative_conv_kernel_shape_vs_weight(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'kernel_shape' [5, 5] does not match the spatial dimensions of operand 'w' (tensor<4x3x3x3xf32>)}}
  %0 = "graph.conv"(%x, %w) {kernel_shape = array<i64: 5, 5>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_pads_with_auto_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op attribute 'pads' [1, 1, 1, 1] cannot be combined with auto_pad "VALID"}}
  %0 = "graph.conv"(%x, %w) {auto_pad = "VALID", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_kernel_larger_than_input(%x: tensor<1x3x2x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op spatial dimension 0: input size 2 plus padding 0 is smaller than the dilated kernel size 3}}
  %0 = "graph.conv"(%x, %w) : (tensor<1x3x2x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x1x6xf32>
  return
}

// -----

func.func @negative_conv_dilation_overflow(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  // expected-error @+1 {{'graph.conv' op spatial dimension 0: sizes computed from the attributes overflow 64 bits}}
  %0 = "graph.conv"(%x, %w) {dilations = array<i64: 4611686018427387904, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}

// -----

func.func @negative_conv_transpose_channels(%x: tensor<1x4x3x3xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv_transpose' op operand 'x' has 4 channels but 'w' expects 3 (w dimension 0)}}
  %0 = "graph.conv_transpose"(%x, %w) : (tensor<1x4x3x3xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return
}

// -----

func.func @negative_conv_transpose_channels_vs_group(%x: tensor<1x3x3x3xf32>, %w: tensor<3x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv_transpose' op input channels (x dimension 1) 3 are not divisible by group 2}}
  %0 = "graph.conv_transpose"(%x, %w) {group = 2 : i64} : (tensor<1x3x3x3xf32>, tensor<3x2x3x3xf32>) -> tensor<1x4x5x5xf32>
  return
}

// -----

func.func @negative_conv_transpose_group_overflow(%x: tensor<1x?x3x3xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv_transpose' op output channels (w dimension 1 = 2 times group 4611686018427387904) overflow 64 bits}}
  %0 = "graph.conv_transpose"(%x, %w) {group = 4611686018427387904 : i64} : (tensor<1x?x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x?x5x5xf32>
  return
}

// -----

func.func @negative_conv_transpose_output_padding(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv_transpose' op attribute 'output_padding' [0, 2] must be smaller than the stride or the dilation in each dimension (dimension 1: stride 2, dilation 1)}}
  %0 = "graph.conv_transpose"(%x, %w) {output_padding = array<i64: 0, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return
}

// -----

func.func @negative_conv_transpose_output_shape_count(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv_transpose' op attribute 'output_shape' must have 2 values, got 4}}
  %0 = "graph.conv_transpose"(%x, %w) {output_shape = array<i64: 1, 2, 5, 5>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return
}

// -----

func.func @negative_conv_transpose_output_not_positive(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv_transpose' op spatial dimension 0: output size -1 is not positive (input 3, stride 1, dilated kernel 3, pads 6)}}
  %0 = "graph.conv_transpose"(%x, %w) {pads = array<i64: 3, 3, 3, 3>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return
}

// -----

func.func @negative_conv_transpose_same_overflow(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>) {
  // expected-error @+1 {{'graph.conv_transpose' op spatial dimension 0: sizes computed from the attributes overflow 64 bits}}
  %0 = "graph.conv_transpose"(%x, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 4611686018427387904, 1>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return
}

// -----

func.func @negative_max_pool_rank_2(%x: tensor<3x8xf32>) {
  // expected-error @+1 {{'graph.max_pool' op operand 'x' must have rank >= 3 (N x C x D1 ... Dn), got rank 2}}
  %0 = "graph.max_pool"(%x) {kernel_shape = array<i64>} : (tensor<3x8xf32>) -> tensor<3x8xf32>
  return
}

// -----

func.func @negative_max_pool_i32(%x: tensor<1x3x8x8xi32>) {
  // expected-error @+1 {{'graph.max_pool' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i32}}
  %0 = "graph.max_pool"(%x) {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xi32>) -> tensor<1x3x7x7xi32>
  return
}

// -----

func.func @negative_average_pool_i8(%x: tensor<1x3x8x8xi8>) {
  // expected-error @+1 {{'graph.average_pool' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i8}}
  %0 = "graph.average_pool"(%x) {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xi8>) -> tensor<1x3x7x7xi8>
  return
}

// -----

func.func @negative_max_pool_storage_order(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'graph.max_pool' op attribute 'storage_order' must be 0 or 1, got 2}}
  %0 = "graph.max_pool"(%x) {kernel_shape = array<i64: 2, 2>, storage_order = 2 : i64} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @negative_average_pool_count_include_pad(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'graph.average_pool' op attribute 'count_include_pad' must be 0 or 1, got -1}}
  %0 = "graph.average_pool"(%x) {count_include_pad = -1 : i64, kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @negative_average_pool_ceil_mode(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'graph.average_pool' op attribute 'ceil_mode' must be 0 or 1, got 3}}
  %0 = "graph.average_pool"(%x) {ceil_mode = 3 : i64, kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @negative_max_pool_kernel_shape_count(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'graph.max_pool' op attribute 'kernel_shape' must have 2 values, got 1}}
  %0 = "graph.max_pool"(%x) {kernel_shape = array<i64: 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x7x7xf32>
  return
}

// -----

func.func @negative_max_pool_indices_type(%x: tensor<1x3x8x8xf32>) {
  // expected-error @+1 {{'graph.max_pool' op result #1 has type tensor<1x3x7x7xi32>, but its operands and attributes imply tensor<1x3x7x7xi64>}}
  %0:2 = "graph.max_pool"(%x) {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x7x7xf32>, tensor<1x3x7x7xi32>)
  return
}

// -----

func.func @negative_average_pool_window_too_large(%x: tensor<1x3x2x2xf32>) {
  // expected-error @+1 {{'graph.average_pool' op spatial dimension 0: input size 2 plus padding 0 is smaller than the dilated kernel size 3}}
  %0 = "graph.average_pool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 0, 0, 0, 1>} : (tensor<1x3x2x2xf32>) -> tensor<1x3x1x1xf32>
  return
}

// -----

func.func @negative_global_average_pool_rank_2(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.global_average_pool' op operand 'x' must have rank >= 3 (N x C x D1 ... Dn), got rank 2}}
  %0 = "graph.global_average_pool"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_global_max_pool_integer(%x: tensor<2x3x4xi64>) {
  // expected-error @+1 {{'graph.global_max_pool' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i64}}
  %0 = "graph.global_max_pool"(%x) : (tensor<2x3x4xi64>) -> tensor<2x3x1xi64>
  return
}

// -----

func.func @negative_batch_norm_training_mode(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op attribute 'training_mode' must be 0 or 1, got 2}}
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) {training_mode = 2 : i64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return
}

// -----

func.func @negative_batch_norm_statistics_without_training(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op results 'running_mean' and 'running_var' require training_mode = 1, got 3 results}}
  %0:3 = "graph.batch_norm"(%x, %s, %s, %s, %s) : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @negative_batch_norm_four_results(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op expects 1 to 3 results, got 4}}
  %0:4 = "graph.batch_norm"(%x, %s, %s, %s, %s) {training_mode = 1 : i64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>)
  return
}

// -----

func.func @negative_batch_norm_running_mean_type(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op result #1 has type tensor<2xf32>, but its operands and attributes imply tensor<3xf32>}}
  %0:3 = "graph.batch_norm"(%x, %s, %s, %s, %s) {training_mode = 1 : i64} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> (tensor<2x3x4x4xf32>, tensor<2xf32>, tensor<2xf32>)
  return
}

// -----

func.func @negative_batch_norm_scalar_input(%x: tensor<f32>, %s: tensor<1xf32>, %b: tensor<1xf32>, %m: tensor<1xf32>, %v: tensor<1xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op operand 'x' must have rank >= 1 (N x C x ...), got rank 0}}
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) : (tensor<f32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<f32>
  return
}

// -----

func.func @negative_batch_norm_integer(%x: tensor<2x3xi32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i32}}
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) : (tensor<2x3xi32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xi32>
  return
}

// -----

func.func @negative_batch_norm_scale_length(%x: tensor<2x3x4x4xf32>, %s: tensor<4xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op operand 'scale' must have 3 elements (one value per channel), got 4}}
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) : (tensor<2x3x4x4xf32>, tensor<4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return
}

// -----

func.func @negative_batch_norm_var_rank(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf32>, %v: tensor<1x3xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op operand 'input_var' must be 1-D (one value per channel), got rank 2}}
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<1x3xf32>) -> tensor<2x3x4x4xf32>
  return
}

// -----

func.func @negative_batch_norm_scale_bias_types(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf16>, %m: tensor<3xf32>, %v: tensor<3xf32>) {
  // expected-error @+1 {{'graph.batch_norm' op operands 'scale' and 'b' must have the same element type, got f32 and f16}}
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  return
}

// -----

func.func @negative_batch_norm_integer_mean(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xi32>, %v: tensor<3xi32>) {
  // expected-error @+1 {{'graph.batch_norm' op operand 'input_mean' must have a floating-point element type (f16, bf16, f32 or f64), got i32}}
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<2x3x4x4xf32>
  return
}

// -----

func.func @negative_instance_norm_rank_2(%x: tensor<2x3xf32>, %s: tensor<3xf32>, %b: tensor<3xf32>) {
  // expected-error @+1 {{'graph.instance_norm' op operand 'input' must have rank >= 3 (N x C x D1 ... Dn), got rank 2}}
  %0 = "graph.instance_norm"(%x, %s, %b) : (tensor<2x3xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_instance_norm_scale_type(%x: tensor<2x3x4xf32>, %s: tensor<3xf16>, %b: tensor<3xf16>) {
  // expected-error @+1 {{'graph.instance_norm' op operands 'input' and 'scale' must have the same element type, got f32 and f16}}
  %0 = "graph.instance_norm"(%x, %s, %b) : (tensor<2x3x4xf32>, tensor<3xf16>, tensor<3xf16>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @negative_instance_norm_bias_length(%x: tensor<2x3x4xf32>, %s: tensor<3xf32>, %b: tensor<2xf32>) {
  // expected-error @+1 {{'graph.instance_norm' op operand 'b' must have 3 elements (one value per channel), got 2}}
  %0 = "graph.instance_norm"(%x, %s, %b) : (tensor<2x3x4xf32>, tensor<3xf32>, tensor<2xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @negative_layer_norm_axis(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op attribute 'axis' 3 is out of range for rank 3}}
  %0 = "graph.layer_norm"(%x, %s) {axis = 3 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @negative_layer_norm_stash_type(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op attribute 'stash_type' must be an ONNX float type (1 = float, 10 = float16, 11 = double, 16 = bfloat16), got 7}}
  %0 = "graph.layer_norm"(%x, %s) {stash_type = 7 : i64} : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @negative_layer_norm_scale_shape(%x: tensor<2x3x4xf32>, %s: tensor<4x4xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op operand 'scale' (tensor<4x4xf32>) does not broadcast to the normalized shape of 'x' (tensor<2x3x4xf32> from axis 1)}}
  %0 = "graph.layer_norm"(%x, %s) {axis = 1 : i64} : (tensor<2x3x4xf32>, tensor<4x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @negative_layer_norm_scale_rank(%x: tensor<2x3x4xf32>, %s: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op operand 'scale' (tensor<3x4xf32>) does not broadcast to the normalized shape of 'x' (tensor<2x3x4xf32> from axis 2)}}
  %0 = "graph.layer_norm"(%x, %s) : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @negative_layer_norm_bias_type(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>, %b: tensor<4xf16>) {
  // expected-error @+1 {{'graph.layer_norm' op operands 'x' and 'b' must have the same element type, got f32 and f16}}
  %0 = "graph.layer_norm"(%x, %s, %b) : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf16>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @negative_layer_norm_integer(%x: tensor<2x4xi32>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'graph.layer_norm' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i32}}
  %0 = "graph.layer_norm"(%x, %s) : (tensor<2x4xi32>, tensor<4xi32>) -> tensor<2x4xi32>
  return
}

// -----

func.func @negative_resize_scalar(%x: tensor<f32>, %scales: tensor<0xf32>, %sizes: tensor<0xi64>) {
  // expected-error @+1 {{'graph.resize' op operand 'x' must have rank >= 1 (any tensor), got rank 0}}
  %0 = "graph.resize"(%x, %scales, %sizes) {operandSegmentSizes = array<i32: 1, 0, 1, 1>} : (tensor<f32>, tensor<0xf32>, tensor<0xi64>) -> tensor<f32>
  return
}

// -----

func.func @negative_resize_mode(%x: tensor<1x3x4x4xf32>, %scales: tensor<4xf32>) {
  // expected-error @+1 {{'graph.resize' op attribute 'mode' must be one of nearest, linear, cubic, got "bilinear"}}
  %0 = "graph.resize"(%x, %scales) {mode = "bilinear", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_coordinate_mode(%x: tensor<1x3x4x4xf32>, %scales: tensor<4xf32>) {
  // expected-error @+1 {{'graph.resize' op attribute 'coordinate_transformation_mode' must be one of half_pixel, half_pixel_symmetric, pytorch_half_pixel, align_corners, asymmetric, tf_crop_and_resize, tf_half_pixel_for_nn, got "tf_half_pixel"}}
  %0 = "graph.resize"(%x, %scales) {coordinate_transformation_mode = "tf_half_pixel", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_nearest_mode(%x: tensor<1x3x4x4xf32>, %scales: tensor<4xf32>) {
  // expected-error @+1 {{'graph.resize' op attribute 'nearest_mode' must be one of round_prefer_floor, round_prefer_ceil, floor, ceil, got "round"}}
  %0 = "graph.resize"(%x, %scales) {nearest_mode = "round", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_aspect_policy(%x: tensor<1x3x4x4xf32>, %sizes: tensor<4xi64>) {
  // expected-error @+1 {{'graph.resize' op attribute 'keep_aspect_ratio_policy' must be one of stretch, not_larger, not_smaller, got "fit"}}
  %0 = "graph.resize"(%x, %sizes) {keep_aspect_ratio_policy = "fit", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x4xf32>, tensor<4xi64>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_antialias(%x: tensor<1x3x4x4xf32>, %scales: tensor<4xf32>) {
  // expected-error @+1 {{'graph.resize' op attribute 'antialias' must be 0 or 1, got 2}}
  %0 = "graph.resize"(%x, %scales) {antialias = 2 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_exclude_outside(%x: tensor<1x3x4x4xf32>, %scales: tensor<4xf32>) {
  // expected-error @+1 {{'graph.resize' op attribute 'exclude_outside' must be 0 or 1, got 5}}
  %0 = "graph.resize"(%x, %scales) {exclude_outside = 5 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_too_many_axes(%x: tensor<1x3x4x4xf32>, %scales: tensor<5xf32>) {
  // expected-error @+1 {{'graph.resize' op attribute 'axes' has 5 values, more than the rank of 'x' (4)}}
  %0 = "graph.resize"(%x, %scales) {axes = array<i64: 0, 1, 2, 3, 0>, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<5xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_axis_out_of_range(%x: tensor<1x3x4x4xf32>, %scales: tensor<2xf32>) {
  // expected-error @+1 {{'graph.resize' op attribute 'axes' value -5 is out of range for rank 4}}
  %0 = "graph.resize"(%x, %scales) {axes = array<i64: 2, -5>, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<2xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_axis_repeated(%x: tensor<1x3x4x4xf32>, %scales: tensor<2xf32>) {
  // expected-error @+1 {{'graph.resize' op attribute 'axes' repeats axis 3}}
  %0 = "graph.resize"(%x, %scales) {axes = array<i64: 3, -1>, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<2xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_roi_type(%x: tensor<1x3x4x4xf32>, %roi: tensor<8xi64>, %scales: tensor<4xf32>) {
  // expected-error @+1 {{'graph.resize' op operand 'roi' must have element type f16, bf16, f32 or f64, got i64}}
  %0 = "graph.resize"(%x, %roi, %scales) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<8xi64>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_roi_length(%x: tensor<1x3x4x4xf32>, %roi: tensor<4xf32>, %scales: tensor<4xf32>) {
  // expected-error @+1 {{'graph.resize' op operand 'roi' must have 8 elements (a start and an end per resized axis), got 4}}
  %0 = "graph.resize"(%x, %roi, %scales) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_scales_type(%x: tensor<1x3x4x4xf32>, %scales: tensor<4xf16>) {
  // expected-error @+1 {{'graph.resize' op operand 'scales' must have element type f32, got f16}}
  %0 = "graph.resize"(%x, %scales) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf16>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_scales_length(%x: tensor<1x3x4x4xf32>, %scales: tensor<4xf32>) {
  // expected-error @+1 {{'graph.resize' op operand 'scales' must have 2 elements (one value per resized axis), got 4}}
  %0 = "graph.resize"(%x, %scales) {axes = array<i64: 2, 3>, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_sizes_type(%x: tensor<1x3x4x4xf32>, %sizes: tensor<4xi32>) {
  // expected-error @+1 {{'graph.resize' op operand 'sizes' must have element type i64, got i32}}
  %0 = "graph.resize"(%x, %sizes) {operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x4xf32>, tensor<4xi32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_sizes_rank(%x: tensor<1x3x4x4xf32>, %sizes: tensor<1x4xi64>) {
  // expected-error @+1 {{'graph.resize' op operand 'sizes' must be 1-D (one value per resized axis), got rank 2}}
  %0 = "graph.resize"(%x, %sizes) {operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x4xf32>, tensor<1x4xi64>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_scales_and_sizes(%x: tensor<1x3x4x4xf32>, %scales: tensor<4xf32>, %sizes: tensor<4xi64>) {
  // expected-error @+1 {{'graph.resize' op operands 'scales' and 'sizes' cannot both be given}}
  %0 = "graph.resize"(%x, %scales, %sizes) {operandSegmentSizes = array<i32: 1, 0, 1, 1>} : (tensor<1x3x4x4xf32>, tensor<4xf32>, tensor<4xi64>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_neither(%x: tensor<1x3x4x4xf32>, %roi: tensor<8xf32>) {
  // expected-error @+1 {{'graph.resize' op requires operand 'scales' or 'sizes'}}
  %0 = "graph.resize"(%x, %roi) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x4x4xf32>, tensor<8xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_empty_scales_no_sizes(%x: tensor<1x3x4x4xf32>, %scales: tensor<0xf32>) {
  // expected-error @+1 {{'graph.resize' op requires operand 'scales' or 'sizes'}}
  %0 = "graph.resize"(%x, %scales) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<0xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_scale_zero(%x: tensor<1x3x4x4xf32>) {
  %scales = "graph.constant"() {value = dense<[1.0, 1.0, 0.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error @+1 {{'graph.resize' op operand 'scales' must hold positive values, got 0 for axis 2}}
  %0 = "graph.resize"(%x, %scales) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_size_negative(%x: tensor<1x3x4x4xf32>) {
  %sizes = "graph.constant"() {value = dense<[1, 3, -8, 8]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{'graph.resize' op operand 'sizes' must hold non-negative values, got -8 for axis 2}}
  %0 = "graph.resize"(%x, %sizes) {operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x4xf32>, tensor<4xi64>) -> tensor<1x3x8x8xf32>
  return
}

// -----

func.func @negative_resize_size_overflow(%x: tensor<1x3x4x4xf32>) {
  %scales = "graph.constant"() {value = dense<[1.0, 1.0, 1.0e30, 1.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // expected-error @+1 {{'graph.resize' op output size 4e+30 for axis 2 overflows 64 bits}}
  %0 = "graph.resize"(%x, %scales) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x?x4xf32>
  return
}

// -----

func.func @negative_resize_sizes_result(%x: tensor<1x3x4x4xf32>) {
  %sizes = "graph.constant"() {value = dense<[4, 2, 6, 6]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{'graph.resize' op result #0 has type tensor<4x2x6x7xf32>, but its operands and attributes imply tensor<4x2x6x6xf32>}}
  %0 = "graph.resize"(%x, %sizes) {operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x4xf32>, tensor<4xi64>) -> tensor<4x2x6x7xf32>
  return
}

// -----

func.func @negative_layer_norm_mean_shape(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op result #1 has type tensor<2x3x4xf32>, but its operands and attributes imply tensor<2x3x1xf32>}}
  %0:3 = "graph.layer_norm"(%x, %s) : (tensor<2x3x4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x4xf32>, tensor<2x3x4xf32>)
  return
}

// -----

func.func @negative_layer_norm_four_results(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>) {
  // expected-error @+1 {{'graph.layer_norm' op expects 1 to 3 results, got 4}}
  %0:4 = "graph.layer_norm"(%x, %s) : (tensor<2x3x4xf32>, tensor<4xf32>) -> (tensor<2x3x4xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>, tensor<2x3x1xf32>)
  return
}

// -----

func.func @negative_lrn_without_size(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{attribute "size" is expected but not provided}}
  %0 = "graph.lrn"(%x) : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @negative_lrn_size(%x: tensor<1x3x4x4xf32>) {
  // expected-error @+1 {{'graph.lrn' op attribute 'size' must be positive, got 0}}
  %0 = "graph.lrn"(%x) {size = 0 : i64} : (tensor<1x3x4x4xf32>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @negative_lrn_rank(%x: tensor<3xf32>) {
  // expected-error @+1 {{'graph.lrn' op operand 'x' must have rank >= 2 (N x C x D1 ... Dn), got rank 1}}
  %0 = "graph.lrn"(%x) {size = 3 : i64} : (tensor<3xf32>) -> tensor<3xf32>
  return
}

// -----

func.func @negative_lrn_integer(%x: tensor<1x3x4x4xi32>) {
  // expected-error @+1 {{'graph.lrn' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i32}}
  %0 = "graph.lrn"(%x) {size = 3 : i64} : (tensor<1x3x4x4xi32>) -> tensor<1x3x4x4xi32>
  return
}

// -----

func.func @negative_mvn_default_axes_rank(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.mean_variance_normalization' op attribute 'axes' value 3 is out of range for rank 3}}
  %0 = "graph.mean_variance_normalization"(%x) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @negative_mvn_repeated_axis(%x: tensor<2x3x4xf32>) {
  // expected-error @+1 {{'graph.mean_variance_normalization' op attribute 'axes' repeats axis 2}}
  %0 = "graph.mean_variance_normalization"(%x) {axes = array<i64: 2, -1>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  return
}

// -----

func.func @negative_mvn_too_many_axes(%x: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.mean_variance_normalization' op attribute 'axes' has 3 values, more than the rank of 'x' (2)}}
  %0 = "graph.mean_variance_normalization"(%x) {axes = array<i64: 0, 1, 0>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_mvn_integer(%x: tensor<2x3x4x5xi8>) {
  // expected-error @+1 {{'graph.mean_variance_normalization' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i8}}
  %0 = "graph.mean_variance_normalization"(%x) : (tensor<2x3x4x5xi8>) -> tensor<2x3x4x5xi8>
  return
}

// -----

func.func @negative_rnn_missing_r(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>) {
  // expected-error @+1 {{'operandSegmentSizes' attribute is expected but not provided}}
  %0 = "graph.rnn"(%x, %w) : (tensor<7x2x3xf32>, tensor<1x5x3xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_x_rank(%x: tensor<7x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'x' must have rank 3 (seq_length x batch_size x input_size, or batch-major with layout = 1), got rank 2}}
  %0 = "graph.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_r_rank(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'r' must have rank 3, got rank 2}}
  %0 = "graph.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_integer(%x: tensor<7x2x3xi32>, %w: tensor<1x5x3xi32>, %r: tensor<1x5x5xi32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i32}}
  %0 = "graph.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xi32>, tensor<1x5x3xi32>, tensor<1x5x5xi32>) -> tensor<7x1x2x5xi32>
  return
}

// -----

func.func @negative_rnn_w_element(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf16>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op operands 'x' and 'w' must have the same element type, got f32 and f16}}
  %0 = "graph.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf16>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_gru_w_shape(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x15x5xf32>) {
  // expected-error @+1 {{'graph.gru' op operand 'w' must be num_directions x 3*hidden_size x input_size = 1x15x3, got tensor<1x5x3xf32>}}
  %0 = "graph.gru"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x15x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_lstm_hidden_size_mismatch(%x: tensor<7x2x3xf32>, %w: tensor<1x20x3xf32>, %r: tensor<1x20x5xf32>) {
  // expected-error @+1 {{'graph.lstm' op operand 'w' must be num_directions x 4*hidden_size x input_size = 1x24x3, got tensor<1x20x3xf32>}}
  %0 = "graph.lstm"(%x, %w, %r) {hidden_size = 6 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x20x3xf32>, tensor<1x20x5xf32>) -> tensor<7x1x2x6xf32>
  return
}

// -----

func.func @negative_rnn_bidirectional_w(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'w' must be num_directions x 1*hidden_size x input_size = 2x5x3, got tensor<1x5x3xf32>}}
  %0 = "graph.rnn"(%x, %w, %r) {direction = "bidirectional", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x2x2x5xf32>
  return
}

// -----

func.func @negative_rnn_direction(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'direction' must be one of forward, reverse, bidirectional, got "backward"}}
  %0 = "graph.rnn"(%x, %w, %r) {direction = "backward", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_layout(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'layout' must be 0 or 1, got 2}}
  %0 = "graph.rnn"(%x, %w, %r) {layout = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_lstm_input_forget(%x: tensor<7x2x3xf32>, %w: tensor<1x20x3xf32>, %r: tensor<1x20x5xf32>) {
  // expected-error @+1 {{'graph.lstm' op attribute 'input_forget' must be 0 or 1, got 3}}
  %0 = "graph.lstm"(%x, %w, %r) {input_forget = 3 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x20x3xf32>, tensor<1x20x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_gru_linear_before_reset(%x: tensor<7x2x3xf32>, %w: tensor<1x15x3xf32>, %r: tensor<1x15x5xf32>) {
  // expected-error @+1 {{'graph.gru' op attribute 'linear_before_reset' must be 0 or 1, got -1}}
  %0 = "graph.gru"(%x, %w, %r) {linear_before_reset = -1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x15x3xf32>, tensor<1x15x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_gru_input_forget(%x: tensor<7x2x3xf32>, %w: tensor<1x15x3xf32>, %r: tensor<1x15x5xf32>) {
  // expected-error @+1 {{'graph.gru' op has unknown attribute 'input_forget'}}
  %0 = "graph.gru"(%x, %w, %r) {input_forget = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x15x3xf32>, tensor<1x15x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_hidden_size(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'hidden_size' must be in [1, 1152921504606846975], got 0}}
  %0 = "graph.rnn"(%x, %w, %r) {hidden_size = 0 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_clip(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'clip' must be positive, got -1}}
  %0 = "graph.rnn"(%x, %w, %r) {clip = -1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_unknown_activation(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'activations' names unknown function "Gelu" (expected Relu, Tanh, Sigmoid, Affine, LeakyRelu, ThresholdedRelu, ScaledTanh, HardSigmoid, Elu, Softsign or Softplus)}}
  %0 = "graph.rnn"(%x, %w, %r) {activations = ["Gelu"], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_gru_activation_count(%x: tensor<7x2x3xf32>, %w: tensor<2x15x3xf32>, %r: tensor<2x15x5xf32>) {
  // expected-error @+1 {{'graph.gru' op attribute 'activations' must name 4 function(s) (2 per direction), got 2}}
  %0 = "graph.gru"(%x, %w, %r) {activations = ["Sigmoid", "Tanh"], direction = "bidirectional", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<2x15x3xf32>, tensor<2x15x5xf32>) -> tensor<7x2x2x5xf32>
  return
}

// -----

func.func @negative_rnn_activation_alpha(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'activation_alpha' has 2 values, more than the 1 activation function(s)}}
  %0 = "graph.rnn"(%x, %w, %r) {activation_alpha = array<f32: 0.1, 0.2>, activations = ["LeakyRelu"], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_bias_shape(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>, %b: tensor<1x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'b' must be num_directions x 2*hidden_size = 1x10, got tensor<1x5xf32>}}
  %0 = "graph.rnn"(%x, %w, %r, %b) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>, tensor<1x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_sequence_lens_type(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>, %len: tensor<2xi64>) {
  // expected-error @+1 {{'graph.rnn' op operand 'sequence_lens' must have element type i32, got i64}}
  %0 = "graph.rnn"(%x, %w, %r, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>, tensor<2xi64>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_sequence_lens_batch(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>, %len: tensor<7xi32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'sequence_lens' must be batch_size = 2, got tensor<7xi32>}}
  %0 = "graph.rnn"(%x, %w, %r, %len) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>, tensor<7xi32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_rnn_initial_h_batch_major(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>, %h: tensor<1x7x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op operand 'initial_h' must be batch_size x num_directions x hidden_size = 7x1x5, got tensor<1x7x5xf32>}}
  %0 = "graph.rnn"(%x, %w, %r, %h) {layout = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 1>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>, tensor<1x7x5xf32>) -> tensor<7x2x1x5xf32>
  return
}

// -----

func.func @negative_lstm_peephole_shape(%x: tensor<7x2x3xf32>, %w: tensor<1x20x3xf32>, %r: tensor<1x20x5xf32>, %p: tensor<1x20xf32>) {
  // expected-error @+1 {{'graph.lstm' op operand 'p' must be num_directions x 3*hidden_size = 1x15, got tensor<1x20xf32>}}
  %0 = "graph.lstm"(%x, %w, %r, %p) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 1>, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x20x3xf32>, tensor<1x20x5xf32>, tensor<1x20xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_lstm_initial_c_element(%x: tensor<7x2x3xf32>, %w: tensor<1x20x3xf32>, %r: tensor<1x20x5xf32>, %c: tensor<1x2x5xf16>) {
  // expected-error @+1 {{'graph.lstm' op operands 'x' and 'initial_c' must have the same element type, got f32 and f16}}
  %0 = "graph.lstm"(%x, %w, %r, %c) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 1, 0>, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x20x3xf32>, tensor<1x20x5xf32>, tensor<1x2x5xf16>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_lstm_result_order(%x: tensor<7x2x3xf32>, %w: tensor<1x20x3xf32>, %r: tensor<1x20x5xf32>) {
  // expected-error @+1 {{'graph.lstm' op result 'y_c' requires result 'y_h' before it}}
  %0:2 = "graph.lstm"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 1>} : (tensor<7x2x3xf32>, tensor<1x20x3xf32>, tensor<1x20x5xf32>) -> (tensor<7x1x2x5xf32>, tensor<1x2x5xf32>)
  return
}

// -----

func.func @negative_rnn_y_shape(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op result #0 has type tensor<2x7x1x5xf32>, but its operands and attributes imply tensor<7x1x2x5xf32>}}
  %0 = "graph.rnn"(%x, %w, %r) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<2x7x1x5xf32>
  return
}

// -----

func.func @negative_max_unpool_without_kernel_shape(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x2xi64>) {
  // expected-error @+1 {{attribute "kernel_shape" is expected but not provided}}
  %0 = "graph.max_unpool"(%x, %i) : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>) -> tensor<1x3x4x4xf32>
  return
}

// -----

func.func @negative_max_unpool_indices_type(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x2xi32>) {
  // expected-error @+1 {{'graph.max_unpool' op operand 'i' must have element type i64, got i32}}
  %0 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi32>) -> tensor<1x3x3x3xf32>
  return
}

// -----

func.func @negative_max_unpool_indices_shape(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x3xi64>) {
  // expected-error @+1 {{'graph.max_unpool' op operand 'i' must be the shape of 'x' = 1x3x2x2, got tensor<1x3x2x3xi64>}}
  %0 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x3xi64>) -> tensor<1x3x3x3xf32>
  return
}

// -----

func.func @negative_max_unpool_rank(%x: tensor<3x2xf32>, %i: tensor<3x2xi64>) {
  // expected-error @+1 {{'graph.max_unpool' op operand 'x' must have rank >= 3 (N x C x D1 ... Dn), got rank 2}}
  %0 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2>} : (tensor<3x2xf32>, tensor<3x2xi64>) -> tensor<3x2xf32>
  return
}

// -----

func.func @negative_max_unpool_integer(%x: tensor<1x3x2x2xi8>, %i: tensor<1x3x2x2xi64>) {
  // expected-error @+1 {{'graph.max_unpool' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i8}}
  %0 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x2x2xi8>, tensor<1x3x2x2xi64>) -> tensor<1x3x3x3xi8>
  return
}

// -----

func.func @negative_max_unpool_kernel_length(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x2xi64>) {
  // expected-error @+1 {{'graph.max_unpool' op attribute 'kernel_shape' must have 2 values, got 1}}
  %0 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>) -> tensor<1x3x3x3xf32>
  return
}

// -----

func.func @negative_max_unpool_strides(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x2xi64>) {
  // expected-error @+1 {{'graph.max_unpool' op attribute 'strides' must be positive, got [0, 1]}}
  %0 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 0, 1>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>) -> tensor<1x3x3x3xf32>
  return
}

// -----

func.func @negative_max_unpool_pads_too_large(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x2xi64>) {
  // expected-error @+1 {{'graph.max_unpool' op spatial dimension 0: output size 0 is not positive (input 2, stride 1, kernel 2, pads 1 + 2)}}
  %0 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 0, 2, 0>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>) -> tensor<1x3x1x3xf32>
  return
}

// -----

func.func @negative_max_unpool_overflow(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x2xi64>) {
  // expected-error @+1 {{'graph.max_unpool' op spatial dimension 0: sizes computed from the attributes overflow 64 bits}}
  %0 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 9223372036854775807, 1>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>) -> tensor<1x3x3x3xf32>
  return
}

// -----

func.func @negative_max_unpool_output_shape_small(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x2xi64>) {
  %s = "graph.constant"() {value = dense<[1, 3, 3, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{'graph.max_unpool' op operand 'output_shape' value 3 for dimension 2 is smaller than the unpooled size 4}}
  %0 = "graph.max_unpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>, tensor<4xi64>) -> tensor<1x3x3x4xf32>
  return
}

// -----

func.func @negative_max_unpool_output_shape_negative(%x: tensor<?x3x2x2xf32>, %i: tensor<?x3x2x2xi64>) {
  %s = "graph.constant"() {value = dense<[-1, 3, 4, 4]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error @+1 {{'graph.max_unpool' op operand 'output_shape' value -1 for dimension 0 is negative}}
  %0 = "graph.max_unpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x3x2x2xf32>, tensor<?x3x2x2xi64>, tensor<4xi64>) -> tensor<?x3x4x4xf32>
  return
}

// -----

func.func @negative_max_unpool_output_shape_length(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x2xi64>, %s: tensor<2xi64>) {
  // expected-error @+1 {{'graph.max_unpool' op operand 'output_shape' must have 4 elements (one size per dimension of x), got 2}}
  %0 = "graph.max_unpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>, tensor<2xi64>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @negative_max_unpool_output_shape_type(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x2xi64>, %s: tensor<4xi32>) {
  // expected-error @+1 {{'graph.max_unpool' op operand 'output_shape' must have element type i64, got i32}}
  %0 = "graph.max_unpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>, tensor<4xi32>) -> tensor<?x?x?x?xf32>
  return
}

// -----

func.func @negative_grid_sample_mode(%x: tensor<1x3x4x4xf32>, %g: tensor<1x5x6x2xf32>) {
  // expected-error @+1 {{'graph.grid_sample' op attribute 'mode' must be one of linear, nearest, cubic, bilinear, bicubic, got "area"}}
  %0 = "graph.grid_sample"(%x, %g) {mode = "area"} : (tensor<1x3x4x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x3x5x6xf32>
  return
}

// -----

func.func @negative_grid_sample_padding_mode(%x: tensor<1x3x4x4xf32>, %g: tensor<1x5x6x2xf32>) {
  // expected-error @+1 {{'graph.grid_sample' op attribute 'padding_mode' must be one of zeros, border, reflection, got "edge"}}
  %0 = "graph.grid_sample"(%x, %g) {padding_mode = "edge"} : (tensor<1x3x4x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x3x5x6xf32>
  return
}

// -----

func.func @negative_grid_sample_align_corners(%x: tensor<1x3x4x4xf32>, %g: tensor<1x5x6x2xf32>) {
  // expected-error @+1 {{'graph.grid_sample' op attribute 'align_corners' must be 0 or 1, got 2}}
  %0 = "graph.grid_sample"(%x, %g) {align_corners = 2 : i64} : (tensor<1x3x4x4xf32>, tensor<1x5x6x2xf32>) -> tensor<1x3x5x6xf32>
  return
}

// -----

func.func @negative_grid_sample_x_rank(%x: tensor<3x4xf32>, %g: tensor<3x5x1xf32>) {
  // expected-error @+1 {{'graph.grid_sample' op operand 'x' must have rank >= 3 (N x C x D1 ... Dr), got rank 2}}
  %0 = "graph.grid_sample"(%x, %g) : (tensor<3x4xf32>, tensor<3x5x1xf32>) -> tensor<3x4x5xf32>
  return
}

// -----

func.func @negative_grid_sample_grid_integer(%x: tensor<1x3x4x4xf32>, %g: tensor<1x5x6x2xi32>) {
  // expected-error @+1 {{'graph.grid_sample' op operand 'grid' must have a floating-point element type (f16, bf16, f32 or f64), got i32}}
  %0 = "graph.grid_sample"(%x, %g) : (tensor<1x3x4x4xf32>, tensor<1x5x6x2xi32>) -> tensor<1x3x5x6xf32>
  return
}

// -----

func.func @negative_grid_sample_grid_shape(%x: tensor<2x3x4x4xf32>, %g: tensor<1x5x6x3xf32>) {
  // expected-error @+1 {{'graph.grid_sample' op operand 'grid' must be N x H1 ... Hr x r (r = spatial rank of x) = 2x?x?x2, got tensor<1x5x6x3xf32>}}
  %0 = "graph.grid_sample"(%x, %g) : (tensor<2x3x4x4xf32>, tensor<1x5x6x3xf32>) -> tensor<2x3x5x6xf32>
  return
}

// -----

func.func @negative_roi_align_x_rank(%x: tensor<1x3x4xf32>, %rois: tensor<7x4xf32>, %bi: tensor<7xi64>) {
  // expected-error @+1 {{'graph.roi_align' op operand 'x' must be N x C x H x W = ?x?x?x?, got tensor<1x3x4xf32>}}
  %0 = "graph.roi_align"(%x, %rois, %bi) : (tensor<1x3x4xf32>, tensor<7x4xf32>, tensor<7xi64>) -> tensor<7x3x1x1xf32>
  return
}

// -----

func.func @negative_roi_align_integer(%x: tensor<1x3x4x4xi32>, %rois: tensor<7x4xi32>, %bi: tensor<7xi64>) {
  // expected-error @+1 {{'graph.roi_align' op operand 'x' must have a floating-point element type (f16, bf16, f32 or f64), got i32}}
  %0 = "graph.roi_align"(%x, %rois, %bi) : (tensor<1x3x4x4xi32>, tensor<7x4xi32>, tensor<7xi64>) -> tensor<7x3x1x1xi32>
  return
}

// -----

func.func @negative_roi_align_rois_element(%x: tensor<1x3x4x4xf32>, %rois: tensor<7x4xf16>, %bi: tensor<7xi64>) {
  // expected-error @+1 {{'graph.roi_align' op operands 'x' and 'rois' must have the same element type, got f32 and f16}}
  %0 = "graph.roi_align"(%x, %rois, %bi) : (tensor<1x3x4x4xf32>, tensor<7x4xf16>, tensor<7xi64>) -> tensor<7x3x1x1xf32>
  return
}

// -----

func.func @negative_roi_align_rois_shape(%x: tensor<1x3x4x4xf32>, %rois: tensor<7x5xf32>, %bi: tensor<7xi64>) {
  // expected-error @+1 {{'graph.roi_align' op operand 'rois' must be num_rois x 4 = ?x4, got tensor<7x5xf32>}}
  %0 = "graph.roi_align"(%x, %rois, %bi) : (tensor<1x3x4x4xf32>, tensor<7x5xf32>, tensor<7xi64>) -> tensor<7x3x1x1xf32>
  return
}

// -----

func.func @negative_roi_align_batch_indices(%x: tensor<1x3x4x4xf32>, %rois: tensor<7x4xf32>, %bi: tensor<6xi64>) {
  // expected-error @+1 {{'graph.roi_align' op operand 'batch_indices' must be num_rois = 7, got tensor<6xi64>}}
  %0 = "graph.roi_align"(%x, %rois, %bi) : (tensor<1x3x4x4xf32>, tensor<7x4xf32>, tensor<6xi64>) -> tensor<7x3x1x1xf32>
  return
}

// -----

func.func @negative_roi_align_batch_indices_type(%x: tensor<1x3x4x4xf32>, %rois: tensor<7x4xf32>, %bi: tensor<7xi32>) {
  // expected-error @+1 {{'graph.roi_align' op operand 'batch_indices' must have element type i64, got i32}}
  %0 = "graph.roi_align"(%x, %rois, %bi) : (tensor<1x3x4x4xf32>, tensor<7x4xf32>, tensor<7xi32>) -> tensor<7x3x1x1xf32>
  return
}

// -----

func.func @negative_roi_align_mode(%x: tensor<1x3x4x4xf32>, %rois: tensor<7x4xf32>, %bi: tensor<7xi64>) {
  // expected-error @+1 {{'graph.roi_align' op attribute 'mode' must be one of avg, max, got "sum"}}
  %0 = "graph.roi_align"(%x, %rois, %bi) {mode = "sum"} : (tensor<1x3x4x4xf32>, tensor<7x4xf32>, tensor<7xi64>) -> tensor<7x3x1x1xf32>
  return
}

// -----

func.func @negative_roi_align_coordinate_mode(%x: tensor<1x3x4x4xf32>, %rois: tensor<7x4xf32>, %bi: tensor<7xi64>) {
  // expected-error @+1 {{'graph.roi_align' op attribute 'coordinate_transformation_mode' must be one of half_pixel, output_half_pixel, got "align_corners"}}
  %0 = "graph.roi_align"(%x, %rois, %bi) {coordinate_transformation_mode = "align_corners"} : (tensor<1x3x4x4xf32>, tensor<7x4xf32>, tensor<7xi64>) -> tensor<7x3x1x1xf32>
  return
}

// -----

func.func @negative_roi_align_output_height(%x: tensor<1x3x4x4xf32>, %rois: tensor<7x4xf32>, %bi: tensor<7xi64>) {
  // expected-error @+1 {{'graph.roi_align' op attribute 'output_height' must be positive, got 0}}
  %0 = "graph.roi_align"(%x, %rois, %bi) {output_height = 0 : i64} : (tensor<1x3x4x4xf32>, tensor<7x4xf32>, tensor<7xi64>) -> tensor<7x3x1x1xf32>
  return
}

// -----

func.func @negative_roi_align_output_width(%x: tensor<1x3x4x4xf32>, %rois: tensor<7x4xf32>, %bi: tensor<7xi64>) {
  // expected-error @+1 {{'graph.roi_align' op attribute 'output_width' must be positive, got -2}}
  %0 = "graph.roi_align"(%x, %rois, %bi) {output_width = -2 : i64} : (tensor<1x3x4x4xf32>, tensor<7x4xf32>, tensor<7xi64>) -> tensor<7x3x1x1xf32>
  return
}

// -----

func.func @negative_roi_align_sampling_ratio(%x: tensor<1x3x4x4xf32>, %rois: tensor<7x4xf32>, %bi: tensor<7xi64>) {
  // expected-error @+1 {{'graph.roi_align' op attribute 'sampling_ratio' must be non-negative (0: adaptive), got -1}}
  %0 = "graph.roi_align"(%x, %rois, %bi) {sampling_ratio = -1 : i64} : (tensor<1x3x4x4xf32>, tensor<7x4xf32>, tensor<7xi64>) -> tensor<7x3x1x1xf32>
  return
}


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

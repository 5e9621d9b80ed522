
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


func.func @negative_result_mismatch_argmax(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.argmax' op result #0 has type tensor<1x3xf32>, but its operands and attributes imply tensor<1x3xi64>}}
  %0 = "graph.argmax"(%a) : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return
}

// -----

// MatMul
func.func @negative_matmul_element_type(%a: tensor<2x3xi8>, %b: tensor<3x4xi8>) {
  // expected-error @+1 {{'graph.matmul' op operand 'a' has element type i8, expected one of f16, bf16, f32, f64, i32, i64}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xi8>, tensor<3x4xi8>) -> tensor<2x4xi8>
  return
}

// -----

func.func @negative_matmul_mixed_types(%a: tensor<2x3xf32>, %b: tensor<3x4xf16>) {
  // expected-error @+1 {{'graph.matmul' op operands 'a' and 'b' must have the same element type, got f32 and f16}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf16>) -> tensor<2x4xf32>
  return
}

// -----

func.func @negative_matmul_scalar(%a: tensor<2x3xf32>, %b: tensor<f32>) {
  // expected-error @+1 {{'graph.matmul' op operand 'b' must have rank >= 1, got rank 0}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_matmul_contraction(%a: tensor<2x3xf32>, %b: tensor<4xf32>) {
  // expected-error @+1 {{'graph.matmul' op contraction dimensions differ: 'a' has 3 columns (dim 1) but 'b' has 4 rows (dim 0)}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2xf32>
  return
}

// -----

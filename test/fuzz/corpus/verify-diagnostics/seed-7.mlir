
// Attribute kinds come from the op table.
func.func @negative_attr_kind_axis(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.softmax' op attribute 'axis' must be an i64 integer attribute, got 1 : i32}}
  %0 = "graph.softmax"(%a) {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return
}

// -----

func.func @negative_attr_kind_alpha(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.gemm' op attribute 'alpha' must be an f32 float attribute, got 2.000000e+00 : f64}}
  %0 = "graph.gemm"(%a, %b) {alpha = 2.0 : f64} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return
}

// -----

func.func @negative_attr_unknown(%a: tensor<2x3xf32>) {
  // expected-error @+1 {{'graph.reduce_mean' op has unknown attribute 'axes'}}
  %0 = "graph.reduce_mean"(%a) {axes = array<i64: 0>} : (tensor<2x3xf32>) -> tensor<1x3xf32>
  return
}

// -----

// The declared result type must match the inferred one.
func.func @negative_result_mismatch_matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) {
  // expected-error @+1 {{'graph.matmul' op result #0 has type tensor<2x5xf32>, but its operands and attributes imply tensor<2x4xf32>}}
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x5xf32>
  return
}

// -----

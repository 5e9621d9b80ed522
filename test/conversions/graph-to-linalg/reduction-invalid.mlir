// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// negative_axes_not_constant: reduction axes must be known at compile time.
func.func @negative_axes_not_constant(%x: tensor<2x3xf32>, %axes: tensor<1xi64>) -> tensor<2x1xf32> {
  // expected-error@+1 {{unsupported: 'graph.reduce_sum' with non-constant 'axes'}}
  %0 = "graph.reduce_sum"(%x, %axes) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// negative_log_sum_integer: log of an integer sum is not lowered.
func.func @negative_log_sum_integer(%x: tensor<2x3xi32>) -> tensor<1x1xi32> {
  // expected-error@+1 {{unsupported: 'graph.reduce_log_sum' on integer tensors}}
  %0 = "graph.reduce_log_sum"(%x) : (tensor<2x3xi32>) -> tensor<1x1xi32>
  return %0 : tensor<1x1xi32>
}

// -----

// negative_cumsum_axis_rank0: a run-time axis of a rank-0 tensor.
func.func @negative_cumsum_axis_rank0(%x: tensor<f32>, %axis: tensor<i64>) -> tensor<f32> {
  // expected-error@+1 {{unsupported: 'graph.cum_sum' with a non-constant 'axis' on a tensor of rank 0}}
  %0 = "graph.cum_sum"(%x, %axis) : (tensor<f32>, tensor<i64>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// negative_gemm_fractional_alpha: integer Gemm with a fractional scale.
func.func @negative_gemm_fractional_alpha(%a: tensor<2x3xi32>, %b: tensor<3x4xi32>) -> tensor<2x4xi32> {
  // expected-error@+1 {{unsupported: 'graph.gemm' with a fractional alpha or beta on integer tensors}}
  %0 = "graph.gemm"(%a, %b) {alpha = 0.5 : f32} : (tensor<2x3xi32>, tensor<3x4xi32>) -> tensor<2x4xi32>
  return %0 : tensor<2x4xi32>
}

// -----

// negative_det_large: Det unrolls elimination; large matrices are refused.
func.func @negative_det_large(%x: tensor<9x9xf32>) -> tensor<f32> {
  // expected-error@+1 {{unsupported: 'graph.det' of matrices larger than 8x8}}
  %0 = "graph.det"(%x) : (tensor<9x9xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

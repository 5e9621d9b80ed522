// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// The conv and pool lowerings handle every attribute the graph verifier
// accepts; what they cannot compile is a shape known only at run time.

// negative_unpool_output_shape: max_unpool's output_shape operand must be a
// compile-time value (kiln-run binds it when it is a graph input).
func.func @negative_unpool_output_shape(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>, %s: tensor<4xi64>) -> tensor<?x?x?x?xf32> {
  // expected-error@+1 {{unsupported: 'graph.max_unpool' result #0 has a dynamic shape}}
  %0 = "graph.max_unpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// negative_grouped_conv_dynamic_channels: a grouped conv whose channel
// count is known only at run time (its window maps need the group size).
func.func @negative_grouped_conv_dynamic_channels(%x: tensor<1x?x8x8xf32>, %w: tensor<4x?x3x3xf32>) -> tensor<1x4x6x6xf32> {
  // expected-error@+1 {{unsupported: 'graph.conv' grouped, with a dynamic channel count}}
  %0 = "graph.conv"(%x, %w) {group = 2 : i64} : (tensor<1x?x8x8xf32>, tensor<4x?x3x3xf32>) -> tensor<1x4x6x6xf32>
  return %0 : tensor<1x4x6x6xf32>
}

// -----

// negative_pool_ceil_dynamic: ceil_mode with explicit pads on a dynamic
// spatial dim (whose last window may start past the end).
func.func @negative_pool_ceil_dynamic(%x: tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32> {
  // expected-error@+1 {{unsupported: 'graph.max_pool' with ceil_mode and a dynamic spatial dim}}
  %0 = "graph.max_pool"(%x) {ceil_mode = 1 : i64, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x1x?x?xf32>) -> tensor<1x1x?x?xf32>
  return %0 : tensor<1x1x?x?xf32>
}

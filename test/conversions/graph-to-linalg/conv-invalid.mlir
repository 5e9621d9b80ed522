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

// negative_conv_dynamic_batch: a dynamic batch size.
func.func @negative_conv_dynamic_batch(%x: tensor<?x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<?x4x6x6xf32> {
  // expected-error@+1 {{unsupported: 'graph.conv' operand #0 has a dynamic shape}}
  %0 = "graph.conv"(%x, %w) : (tensor<?x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x6x6xf32>
  return %0 : tensor<?x4x6x6xf32>
}

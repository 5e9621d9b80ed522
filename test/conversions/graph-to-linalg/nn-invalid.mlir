// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// negative_resize_antialias: antialiased downscaling is not lowered.
func.func @negative_resize_antialias(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %sizes = "graph.constant"() {value = dense<[1, 1, 2, 2]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error@+1 {{unsupported: 'graph.resize' with antialias = 1 when downscaling}}
  %0 = "graph.resize"(%x, %sizes) {mode = "linear", antialias = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x1x4x4xf32>, tensor<4xi64>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// negative_rnn_sequence_lens: per-batch lengths known only at run time
// in the reverse direction (each entry would start at its own length).
func.func @negative_rnn_sequence_lens(%x: tensor<2x3x4xf32>, %w: tensor<1x5x4xf32>, %r: tensor<1x5x5xf32>, %lens: tensor<3xi32>) -> tensor<2x1x3x5xf32> {
  // expected-error@+1 {{unsupported: 'graph.rnn' with 'sequence_lens' shorter than the sequence or not a compile-time constant in a reverse direction}}
  %0 = "graph.rnn"(%x, %w, %r, %lens) {direction = "reverse", hidden_size = 5 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 0>} : (tensor<2x3x4xf32>, tensor<1x5x4xf32>, tensor<1x5x5xf32>, tensor<3xi32>) -> tensor<2x1x3x5xf32>
  return %0 : tensor<2x1x3x5xf32>
}

// -----

// negative_lstm_input_forget: coupled input and forget gates.
func.func @negative_lstm_input_forget(%x: tensor<2x3x4xf32>, %w: tensor<1x20x4xf32>, %r: tensor<1x20x5xf32>) -> tensor<2x1x3x5xf32> {
  // expected-error@+1 {{unsupported: 'graph.lstm' with input_forget = 1}}
  %0 = "graph.lstm"(%x, %w, %r) {input_forget = 1 : i64, hidden_size = 5 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 0>, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x3x4xf32>, tensor<1x20x4xf32>, tensor<1x20x5xf32>) -> tensor<2x1x3x5xf32>
  return %0 : tensor<2x1x3x5xf32>
}

// RUN: kiln-opt %s --split-input-file --verify-diagnostics --pass-pipeline='builtin.module(func.func(graph-verify))'

// The op table's STRINGS kind: an array of string attributes (ONNX
// STRINGS), as RNN/GRU/LSTM's `activations`. graph-verify accepts arrays
// of strings and refuses a plain string or an array holding anything else;
// an empty array has the right kind, and rnn's count rule refuses it. The
// first chunk has
// no expected error: graph-verify must accept it (nn.mlir round-trips a
// gru's activations through printing and parsing).

func.func @rnn_activations(%x: tensor<7x2x3xf32>, %w: tensor<2x5x3xf32>, %r: tensor<2x5x5xf32>) {
  %0 = "graph.rnn"(%x, %w, %r) {activations = ["Relu", "tanh"], direction = "bidirectional", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<2x5x3xf32>, tensor<2x5x5xf32>) -> tensor<7x2x2x5xf32>
  return
}

// -----

func.func @negative_activations_string(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'activations' must be an array of string attributes, got "Tanh"}}
  %0 = "graph.rnn"(%x, %w, %r) {activations = "Tanh", operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_activations_not_strings(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'activations' must be an array of string attributes, got ["Tanh", 1]}}
  %0 = "graph.rnn"(%x, %w, %r) {activations = ["Tanh", 1 : i64], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

// -----

func.func @negative_activations_empty(%x: tensor<7x2x3xf32>, %w: tensor<1x5x3xf32>, %r: tensor<1x5x5xf32>) {
  // expected-error @+1 {{'graph.rnn' op attribute 'activations' must name 1 function(s) (1 per direction), got 0}}
  %0 = "graph.rnn"(%x, %w, %r) {activations = [], operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> tensor<7x1x2x5xf32>
  return
}

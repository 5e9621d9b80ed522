// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// negative_slice_runtime_steps
func.func @negative_slice_runtime_steps(%x: tensor<5xf32>, %t: tensor<1xi64>) -> tensor<2xf32> {
  %s = "graph.constant"() {value = dense<[0]> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "graph.constant"() {value = dense<[4]> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error@+1 {{unsupported: 'graph.slice' with operand 'steps' unknown at compile time}}
  %0 = "graph.slice"(%x, %s, %e, %t) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 1>} : (tensor<5xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----

// negative_pad_runtime_pads: where the input goes depends on the pads.
func.func @negative_pad_runtime_pads(%x: tensor<3xf32>, %p: tensor<2xi64>) -> tensor<5xf32> {
  // expected-error@+1 {{unsupported: 'graph.pad' with operand 'pads' unknown at compile time}}
  %0 = "graph.pad"(%x, %p) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<3xf32>, tensor<2xi64>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// negative_pad_runtime_axes
func.func @negative_pad_runtime_axes(%x: tensor<3x3xf32>, %a: tensor<1xi64>) -> tensor<3x5xf32> {
  %p = "graph.constant"() {value = dense<[1, 1]> : tensor<2xi64>} : () -> tensor<2xi64>
  // expected-error@+1 {{unsupported: 'graph.pad' with operand 'axes' unknown at compile time}}
  %0 = "graph.pad"(%x, %p, %a) {operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<3x3xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<3x5xf32>
  return %0 : tensor<3x5xf32>
}

// -----

// negative_pad_edge_of_nothing: edge padding of an empty axis has no
// element to repeat.
func.func @negative_pad_edge_of_nothing(%x: tensor<0x3xf32>) -> tensor<2x3xf32> {
  %p = "graph.constant"() {value = dense<[1, 0, 1, 0]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error@+1 {{unsupported: 'graph.pad' in mode 'edge' of an axis (0) with no elements left to repeat}}
  %0 = "graph.pad"(%x, %p) {mode = "edge", operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<0x3xf32>, tensor<4xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

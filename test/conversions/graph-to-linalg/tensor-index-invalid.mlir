// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// A reduction on bool elements has no ONNX meaning Kiln lowers.
func.func @negative_scatter_bool_add(%d: tensor<4xi1>, %i: tensor<2xi64>, %u: tensor<2xi1>) -> tensor<4xi1> {
  // expected-error@+1 {{unsupported: 'graph.scatter_elements' reduction 'add' on bool elements}}
  %0 = "graph.scatter_elements"(%d, %i, %u) {reduction = "add"} : (tensor<4xi1>, tensor<2xi64>, tensor<2xi1>) -> tensor<4xi1>
  return %0 : tensor<4xi1>
}

// -----

// Gathering from an empty axis has no element to read.
func.func @negative_gather_empty_axis(%d: tensor<0x3xf32>, %i: tensor<2xi64>) -> tensor<2x3xf32> {
  // expected-error@+1 {{unsupported: 'graph.gather' gathers from an empty axis}}
  %0 = "graph.gather"(%d, %i) {axis = 0 : i64} : (tensor<0x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

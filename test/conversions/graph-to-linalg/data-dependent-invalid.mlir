// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// A condition longer than the axis names slices that do not exist (numpy
// refuses it too); with static dims that is known when compiling. Dynamic
// dims check it at run time (data-dependent.mlir).
func.func @negative_compress_long_condition(%x: tensor<3x2xf32>, %c: tensor<4xi1>) -> tensor<?x2xf32> {
  // expected-error@+1 {{'graph.compress' op 'condition' has 4 entries, more than the 3 slices of the input along the axis}}
  %0 = "graph.compress"(%x, %c) {axis = 0 : i64} : (tensor<3x2xf32>, tensor<4xi1>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

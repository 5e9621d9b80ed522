// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// negative_dynamic: a shape that depends on values known only at run time
// (tile's repeats) is reported at the op.
func.func @negative_dynamic(%x: tensor<2x3xf32>, %repeats: tensor<2xi64>) -> tensor<?x?xf32> {
  // expected-error@+1 {{unsupported: 'graph.tile' with operand 'repeats' unknown at compile time}}
  %r = "graph.tile"(%x, %repeats) : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

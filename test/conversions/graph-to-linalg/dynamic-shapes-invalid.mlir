// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// A lowering not written for dynamic shapes is not called on them: the op
// is reported, with what to do about it.
func.func @negative_matmul_dynamic(%a: tensor<?x4xf32>, %b: tensor<4x3xf32>) -> tensor<?x3xf32> {
  // expected-error@+1 {{unsupported: 'graph.matmul' operand #0 has a dynamic shape (tensor<?x4xf32>); Kiln lowers this op for static shapes only (size the input dims with --dim or --input-shape, and bind shape-determining inputs)}}
  %0 = "graph.matmul"(%a, %b) : (tensor<?x4xf32>, tensor<4x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// -----

// Clip's bounds must be static even where its input is not.
func.func @negative_clip_dynamic_bound(%x: tensor<?xf32>, %lo: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{unsupported: 'graph.clip' with a bound of dynamic shape (min)}}
  %0 = "graph.clip"(%x, %lo) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

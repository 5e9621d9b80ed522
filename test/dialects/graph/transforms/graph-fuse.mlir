// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-fuse))' | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-fuse{max-group-size=2}))' | FileCheck %s --check-prefix=SIZE2
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-fuse{kinds=elementwise}))' | FileCheck %s --check-prefix=ELTONLY
// Idempotent: a second run leaves the groups of the first as they are
// (kiln-tune compiles one group of an optimized graph on its own).
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-fuse))' > %t.once.mlir
// RUN: kiln-opt %t.once.mlir --pass-pipeline='builtin.module(func.func(graph-fuse))' > %t.twice.mlir
// RUN: diff %t.once.mlir %t.twice.mlir
// RUN: sed -n '/^\/\/ BAD-SIZE/,/^\/\/ END-BAD-SIZE/p' %s > %t.size.mlir
// RUN: kiln-opt %t.size.mlir --pass-pipeline='builtin.module(func.func(graph-fuse{max-group-size=1}))' --verify-diagnostics
// RUN: sed -n '/^\/\/ BAD-KINDS/,/^\/\/ END-BAD-KINDS/p' %s > %t.kinds.mlir
// RUN: kiln-opt %t.kinds.mlir --pass-pipeline='builtin.module(func.func(graph-fuse{kinds=conv_epilogue,fusion}))' --verify-diagnostics

// A conv, its activation, a residual add and the last activation: one
// conv_epilogue group in place of the last op.
// CHECK-LABEL: func.func @conv_relu_residual
// CHECK-NEXT: %[[G:.*]] = scf.execute_region -> tensor<1x4x6x6xf32> no_inline {
// CHECK-NEXT: %[[C:.*]] = "graph.conv"(%arg0, %arg1, %arg2)
// CHECK-NEXT: %[[R:.*]] = "graph.relu"(%[[C]])
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%[[R]], %arg3)
// CHECK-NEXT: %[[Y:.*]] = "graph.relu"(%[[A]])
// CHECK-NEXT: scf.yield %[[Y]]
// CHECK-NEXT: } {graph.fusion = "conv_epilogue"}
// CHECK-NEXT: return %[[G]]
// SIZE2-LABEL: func.func @conv_relu_residual
// SIZE2: "graph.conv"
// SIZE2-NEXT: "graph.relu"
// SIZE2-NEXT: scf.yield
// SIZE2-NEXT: } {graph.fusion = "conv_epilogue"}
// SIZE2: "graph.add"
// SIZE2-NEXT: "graph.relu"
// SIZE2-NEXT: scf.yield
// SIZE2-NEXT: } {graph.fusion = "elementwise"}
// ELTONLY-LABEL: func.func @conv_relu_residual
// ELTONLY-NEXT: "graph.conv"
// ELTONLY-NEXT: scf.execute_region
// ELTONLY-NEXT: "graph.relu"
// ELTONLY-NEXT: "graph.add"
// ELTONLY-NEXT: "graph.relu"
// ELTONLY: {graph.fusion = "elementwise"}
func.func @conv_relu_residual(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x3x3xf32>, %b: tensor<4xf32>, %r: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>, tensor<4xf32>) -> tensor<1x4x6x6xf32>
  %1 = "graph.relu"(%0) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = "graph.add"(%1, %r) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %3 = "graph.relu"(%2) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %3 : tensor<1x4x6x6xf32>
}

// A bias add (broadcast operand) and gelu join a matmul. The residual
// operand defined between group members stays outside, before the group.
// CHECK-LABEL: func.func @matmul_bias_gelu
// CHECK-NEXT: %[[E:.*]] = "graph.exp"(%arg3)
// CHECK-NEXT: %[[G:.*]] = scf.execute_region -> tensor<8x16xf32> no_inline {
// CHECK-NEXT: "graph.matmul"(%arg0, %arg1)
// CHECK-NEXT: "graph.add"({{.*}}, %arg2)
// CHECK-NEXT: "graph.gelu"
// CHECK-NEXT: %[[Y:.*]] = "graph.add"({{.*}}, %[[E]])
// CHECK-NEXT: scf.yield %[[Y]]
// CHECK-NEXT: } {graph.fusion = "matmul_epilogue"}
// CHECK-NEXT: return %[[G]]
func.func @matmul_bias_gelu(%a: tensor<8x4xf32>, %b: tensor<4x16xf32>, %bias: tensor<16xf32>, %r: tensor<8x16xf32>) -> tensor<8x16xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<8x4xf32>, tensor<4x16xf32>) -> tensor<8x16xf32>
  %1 = "graph.add"(%0, %bias) : (tensor<8x16xf32>, tensor<16xf32>) -> tensor<8x16xf32>
  %e = "graph.exp"(%r) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %2 = "graph.gelu"(%1) : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = "graph.add"(%2, %e) : (tensor<8x16xf32>, tensor<8x16xf32>) -> tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}

// CHECK-LABEL: func.func @gemm_clip
// CHECK: "graph.gemm"
// CHECK-NEXT: "graph.clip"
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {graph.fusion = "matmul_epilogue"}
func.func @gemm_clip(%a: tensor<2x3xf32>, %b: tensor<4x3xf32>, %lo: tensor<f32>, %hi: tensor<f32>) -> tensor<2x4xf32> {
  %0 = "graph.gemm"(%a, %b) {transB = 1 : i64} : (tensor<2x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %1 = "graph.clip"(%0, %lo, %hi) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<2x4xf32>, tensor<f32>, tensor<f32>) -> tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}

// SiLU (x * sigmoid(x)) reads the conv's result twice: the epilogue is a
// DAG, joined whole; so is hard-swish with a residual add after it.
// CHECK-LABEL: func.func @conv_silu
// CHECK-NEXT: %[[G:.*]] = scf.execute_region -> tensor<1x4x6x6xf32> no_inline {
// CHECK-NEXT: %[[C:.*]] = "graph.conv"
// CHECK-NEXT: %[[S:.*]] = "graph.sigmoid"(%[[C]])
// CHECK-NEXT: %[[M:.*]] = "graph.mul"(%[[C]], %[[S]])
// CHECK-NEXT: %[[H:.*]] = "graph.hard_sigmoid"(%[[M]])
// CHECK-NEXT: %[[M2:.*]] = "graph.mul"(%[[M]], %[[H]])
// CHECK-NEXT: %[[Y:.*]] = "graph.add"(%[[M2]], %arg2)
// CHECK-NEXT: scf.yield %[[Y]]
// CHECK-NEXT: } {graph.fusion = "conv_epilogue"}
// CHECK-NEXT: return %[[G]]
func.func @conv_silu(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x3x3xf32>, %r: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = "graph.sigmoid"(%0) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = "graph.mul"(%0, %1) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %3 = "graph.hard_sigmoid"(%2) {alpha = 0.1666666 : f32, beta = 0.5 : f32} : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %4 = "graph.mul"(%2, %3) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %5 = "graph.add"(%4, %r) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %5 : tensor<1x4x6x6xf32>
}

// The conv's result is also read by a pool (squeeze-and-excitation): the
// whole tensor must exist, so no epilogue group is formed for the conv.
// The SiLU after it is an elementwise group of its own.
// CHECK-LABEL: func.func @conv_read_outside
// CHECK-NEXT: %[[C:.*]] = "graph.conv"
// CHECK-NEXT: "graph.global_average_pool"(%[[C]])
// CHECK-NEXT: scf.execute_region
// CHECK-NEXT: "graph.sigmoid"(%[[C]])
// CHECK-NEXT: "graph.mul"(%[[C]],
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {graph.fusion = "elementwise"}
func.func @conv_read_outside(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>) {
  %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %p = "graph.global_average_pool"(%0) : (tensor<1x4x6x6xf32>) -> tensor<1x4x1x1xf32>
  %1 = "graph.sigmoid"(%0) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = "graph.mul"(%0, %1) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %2, %p : tensor<1x4x6x6xf32>, tensor<1x4x1x1xf32>
}

// A member read outside the group ends it there: the relu is also
// returned, so the mul that squares it stays out (the group's only
// result is its last op).
// CHECK-LABEL: func.func @conv_member_escapes
// CHECK-NEXT: %[[G:.*]] = scf.execute_region
// CHECK-NEXT: "graph.conv"
// CHECK-NEXT: %[[R:.*]] = "graph.relu"
// CHECK-NEXT: scf.yield %[[R]]
// CHECK-NEXT: } {graph.fusion = "conv_epilogue"}
// CHECK-NEXT: "graph.mul"(%[[G]], %[[G]])
func.func @conv_member_escapes(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x3x3xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) {
  %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x6x6xf32>, tensor<4x4x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = "graph.relu"(%0) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = "graph.mul"(%1, %1) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %2, %1 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>
}

// An elementwise tree with a broadcast (graph.expand) grows back from its
// last op; ops outside the tree stay where they are.
// CHECK-LABEL: func.func @elementwise_tree
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%arg0)
// CHECK-NEXT: %[[G:.*]] = scf.execute_region -> tensor<3x4xf32> no_inline {
// CHECK-NEXT: "graph.exp"(%[[T]])
// CHECK-NEXT: "graph.expand"(%arg1, %arg2)
// CHECK-NEXT: "graph.neg"
// CHECK-NEXT: "graph.mul"
// CHECK-NEXT: %[[Y:.*]] = "graph.sigmoid"
// CHECK-NEXT: scf.yield %[[Y]]
// CHECK-NEXT: } {graph.fusion = "elementwise"}
// CHECK-NEXT: return %[[G]]
func.func @elementwise_tree(%x: tensor<4x3xf32>, %v: tensor<4xf32>, %shape: tensor<2xi64>) -> tensor<3x4xf32> {
  %t = "graph.transpose"(%x) {perm = array<i64: 1, 0>} : (tensor<4x3xf32>) -> tensor<3x4xf32>
  %0 = "graph.exp"(%t) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %1 = "graph.expand"(%v, %shape) : (tensor<4xf32>, tensor<2xi64>) -> tensor<3x4xf32>
  %2 = "graph.neg"(%1) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  %3 = "graph.mul"(%0, %2) : (tensor<3x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>
  %4 = "graph.sigmoid"(%3) : (tensor<3x4xf32>) -> tensor<3x4xf32>
  return %4 : tensor<3x4xf32>
}

// A reduction takes the elementwise producers of its data operand; its
// consumer forms no group of its own (one op).
// CHECK-LABEL: func.func @reduction
// CHECK-NEXT: %[[G:.*]] = scf.execute_region -> tensor<2xf32> no_inline {
// CHECK-NEXT: "graph.mul"(%arg0, %arg0)
// CHECK-NEXT: "graph.exp"
// CHECK-NEXT: %[[S:.*]] = "graph.reduce_sum"
// CHECK-NEXT: scf.yield %[[S]]
// CHECK-NEXT: } {graph.fusion = "reduction"}
// CHECK-NEXT: "graph.sqrt"(%[[G]])
func.func @reduction(%x: tensor<2x5xf32>, %axes: tensor<1xi64>) -> tensor<2xf32> {
  %0 = "graph.mul"(%x, %x) : (tensor<2x5xf32>, tensor<2x5xf32>) -> tensor<2x5xf32>
  %1 = "graph.exp"(%0) : (tensor<2x5xf32>) -> tensor<2x5xf32>
  %2 = "graph.reduce_sum"(%1, %axes) {keepdims = 0 : i64} : (tensor<2x5xf32>, tensor<1xi64>) -> tensor<2xf32>
  %3 = "graph.sqrt"(%2) : (tensor<2xf32>) -> tensor<2xf32>
  return %3 : tensor<2xf32>
}

// Groups form inside the bodies of control flow too.
// CHECK-LABEL: func.func @nested
// CHECK: scf.if
// CHECK-NEXT: scf.execute_region
// CHECK-NEXT: "graph.exp"
// CHECK-NEXT: "graph.tanh"
// CHECK: {graph.fusion = "elementwise"}
func.func @nested(%x: tensor<3xf32>, %c: i1) -> tensor<3xf32> {
  %0 = scf.if %c -> tensor<3xf32> {
    %1 = "graph.exp"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    %2 = "graph.tanh"(%1) : (tensor<3xf32>) -> tensor<3xf32>
    scf.yield %2 : tensor<3xf32>
  } else {
    scf.yield %x : tensor<3xf32>
  }
  return %0 : tensor<3xf32>
}

// The conv's result has two uses, both in its epilogue (relu(x) + x): the
// DAG is one conv_epilogue group (the add's other operand is a member, not
// a residual).
// CHECK-LABEL: func.func @conv_two_uses
// CHECK-NEXT: scf.execute_region
// CHECK-NEXT: %[[C:.*]] = "graph.conv"
// CHECK-NEXT: %[[R:.*]] = "graph.relu"(%[[C]])
// CHECK-NEXT: "graph.add"(%[[R]], %[[C]])
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {graph.fusion = "conv_epilogue"}
func.func @conv_two_uses(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x1x1xf32>) -> tensor<1x4x6x6xf32> {
  %0 = "graph.conv"(%x, %w) : (tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %1 = "graph.relu"(%0) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = "graph.add"(%1, %0) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %2 : tensor<1x4x6x6xf32>
}

// CHECK-LABEL: func.func @negative_dynamic_shape
// CHECK-NOT: scf.execute_region
// CHECK: return
func.func @negative_dynamic_shape(%x: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = "graph.exp"(%x) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = "graph.neg"(%0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

// Grouping the exp with the add would make the group's input (the
// transpose) depend on its own member: the add stays alone, no group.
// CHECK-LABEL: func.func @negative_would_create_cycle
// CHECK-NOT: scf.execute_region
// CHECK: return
func.func @negative_would_create_cycle(%x: tensor<3x3xf32>) -> tensor<3x3xf32> {
  %0 = "graph.exp"(%x) : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %1 = "graph.transpose"(%0) {perm = array<i64: 1, 0>} : (tensor<3x3xf32>) -> tensor<3x3xf32>
  %2 = "graph.add"(%0, %1) : (tensor<3x3xf32>, tensor<3x3xf32>) -> tensor<3x3xf32>
  return %2 : tensor<3x3xf32>
}

// One op is no group: a conv alone, a lone reduction, a lone relu.
// CHECK-LABEL: func.func @negative_single_op
// CHECK-NOT: scf.execute_region
// CHECK: return
func.func @negative_single_op(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x1x1xf32>) -> (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x1x1x1xf32>) {
  %0 = "graph.conv"(%x, %w) : (tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %1 = "graph.relu"(%x) : (tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = "graph.reduce_max"(%x) : (tensor<1x4x6x6xf32>) -> tensor<1x1x1x1xf32>
  return %0, %1, %2 : tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>, tensor<1x1x1x1xf32>
}

// Only one residual add joins an epilogue; the second add ends it.
// CHECK-LABEL: func.func @negative_second_residual
// CHECK: scf.execute_region
// CHECK-NEXT: "graph.conv"
// CHECK-NEXT: "graph.add"(%{{.*}}, %arg2)
// CHECK-NEXT: scf.yield
// CHECK-NEXT: } {graph.fusion = "conv_epilogue"}
// CHECK-NEXT: "graph.add"(%{{.*}}, %arg3)
// CHECK-NEXT: return
func.func @negative_second_residual(%x: tensor<1x4x6x6xf32>, %w: tensor<4x4x1x1xf32>, %r: tensor<1x4x6x6xf32>, %s: tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32> {
  %0 = "graph.conv"(%x, %w) : (tensor<1x4x6x6xf32>, tensor<4x4x1x1xf32>) -> tensor<1x4x6x6xf32>
  %1 = "graph.add"(%0, %r) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  %2 = "graph.add"(%1, %s) : (tensor<1x4x6x6xf32>, tensor<1x4x6x6xf32>) -> tensor<1x4x6x6xf32>
  return %2 : tensor<1x4x6x6xf32>
}

// BAD-SIZE
// expected-error@+1 {{graph-fuse: max-group-size must be at least 2, got 1}}
func.func @bad_size(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// END-BAD-SIZE

// BAD-KINDS
// expected-error@+1 {{graph-fuse: unknown group kind in kinds='conv_epilogue,fusion'}}
func.func @bad_kinds(%x: tensor<3xf32>) -> tensor<3xf32> {
  return %x : tensor<3xf32>
}
// END-BAD-KINDS

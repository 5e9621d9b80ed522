// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg{generic-products=true}))' \
// RUN:   | FileCheck %s --check-prefix=GENERIC

// A plain 2-D matmul is a named linalg.matmul into a zero-filled tensor.
// With generic-products (the GPU pipeline) every static product is a
// linalg.generic (loops m, n, k), which elementwise producers fuse into.
// GENERIC-LABEL: func.func @matmul_2d
// GENERIC-NOT: linalg.matmul
// GENERIC: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3x4xf32>)
// CHECK-LABEL: func.func @matmul_2d
// CHECK: %[[Z:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%{{.*}} : tensor<2x4xf32>)
// CHECK: linalg.matmul ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3x4xf32>) outs(%[[Z]]
// CHECK-NOT: graph.
func.func @matmul_2d(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// Equal batch dims collapse into one linalg.batch_matmul.
// GENERIC-LABEL: func.func @matmul_batch
// GENERIC-NOT: linalg.batch_matmul
// GENERIC: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<2x3x3x4xf32>, tensor<2x3x4x5xf32>)
// CHECK-LABEL: func.func @matmul_batch
// CHECK: linalg.batch_matmul ins(%{{.*}}, %{{.*}} : tensor<6x3x4xf32>, tensor<6x4x5xf32>)
// CHECK-SAME: outs(%{{.*}} : tensor<6x3x5xf32>)
func.func @matmul_batch(%a: tensor<2x3x3x4xf32>, %b: tensor<2x3x4x5xf32>) -> tensor<2x3x3x5xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3x3x4xf32>, tensor<2x3x4x5xf32>) -> tensor<2x3x3x5xf32>
  return %0 : tensor<2x3x3x5xf32>
}

// -----

// Broadcast batch dims: a generic whose size-1 batch dim reads index 0.
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2, d3) -> (0, d1, d3)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
// CHECK-LABEL: func.func @matmul_broadcast
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #{{.*}}], iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
func.func @matmul_broadcast(%a: tensor<1x3x4xf32>, %b: tensor<2x4x5xf32>) -> tensor<2x3x5xf32> {
  %0 = "graph.matmul"(%a, %b) : (tensor<1x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>
  return %0 : tensor<2x3x5xf32>
}

// -----

// Reductions start from the combiner's identity; ReduceMax propagates NaN
// (arith.maximumf) and keepdims reshapes the result.
// CHECK-LABEL: func.func @reduce_max_keepdims
// CHECK: %[[NEG:.*]] = arith.constant 0xFF800000 : f32
// CHECK: %[[INIT:.*]] = linalg.fill ins(%[[NEG]] : f32) outs(%{{.*}} : tensor<2xf32>)
// CHECK: %[[R:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]} ins(%arg0 : tensor<2x3xf32>) outs(%[[INIT]]
// CHECK: arith.maximumf
// CHECK: tensor.expand_shape %[[R]] {{.*}} : tensor<2xf32> into tensor<2x1xf32>
func.func @reduce_max_keepdims(%x: tensor<2x3xf32>) -> tensor<2x1xf32> {
  %axes = "graph.constant"() {value = dense<[1]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0 = "graph.reduce_max"(%x, %axes) : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x1xf32>
  return %0 : tensor<2x1xf32>
}

// -----

// Empty axes reduce everything; ReduceMean divides the sum by the count.
// CHECK-LABEL: func.func @reduce_mean_all
// CHECK: iterator_types = ["reduction", "reduction"]
// CHECK: arith.addf
// CHECK: arith.constant 6.000000e+00 : f32
// CHECK: arith.divf
func.func @reduce_mean_all(%x: tensor<2x3xf32>) -> tensor<f32> {
  %0 = "graph.reduce_mean"(%x) {keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<f32>
  return %0 : tensor<f32>
}

// -----

// noop_with_empty_axes with no axes is the identity.
// CHECK-LABEL: func.func @reduce_noop
// CHECK-NEXT: return %arg0
func.func @reduce_noop(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.reduce_sum"(%x) {noop_with_empty_axes = 1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Softmax subtracts the maximum before exp.
// CHECK-LABEL: func.func @softmax
// CHECK: arith.maximumf
// CHECK: arith.subf
// CHECK: math.exp
// CHECK: arith.divf
func.func @softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.softmax"(%x) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// ArgMax carries the best value and index through one generic.
// CHECK-LABEL: func.func @argmax
// CHECK: %[[G:.*]]:2 = linalg.generic {{.*}} iterator_types = ["reduction", "parallel"]}
// CHECK: linalg.index 0
// CHECK: return %[[G]]#1 : tensor<3xi64>
func.func @argmax(%x: tensor<2x3xf32>) -> tensor<3xi64> {
  %0 = "graph.argmax"(%x) {keepdims = 0 : i64} : (tensor<2x3xf32>) -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// Einsum maps straight to one generic: "ij,jk->ik".
// CHECK-DAG: #[[A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[O:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>
// CHECK-LABEL: func.func @einsum_matmul
// CHECK: linalg.generic {indexing_maps = [#[[A]], #[[B]], #[[O]]], iterator_types = ["parallel", "parallel", "reduction"]}
func.func @einsum_matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>) -> tensor<2x4xf32> {
  %0 = "graph.einsum"(%a, %b) {equation = "ij,jk->ik"} : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}

// -----

// TopK ranks every element, then picks ranks 0..k-1.
// CHECK-LABEL: func.func @top_k
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4xi64>)
// CHECK: %[[P:.*]]:2 = linalg.generic {{.*}} outs(%{{.*}}, %{{.*}} : tensor<3x2xf32>, tensor<3x2xi64>)
// CHECK: return %[[P]]#0, %[[P]]#1
func.func @top_k(%x: tensor<3x4xf32>) -> (tensor<3x2xf32>, tensor<3x2xi64>) {
  %k = "graph.constant"() {value = dense<[2]> : tensor<1xi64>} : () -> tensor<1xi64>
  %0:2 = "graph.top_k"(%x, %k) : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x2xf32>, tensor<3x2xi64>)
  return %0#0, %0#1 : tensor<3x2xf32>, tensor<3x2xi64>
}

// -----

// CumSum with a run-time axis: one cumulative sum per axis, then a pick.
// CHECK-LABEL: func.func @cum_sum_runtime_axis
// CHECK: %[[C0:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: arith.cmpi ule
// CHECK: %[[C1:.*]] = linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction"]}
// CHECK: linalg.generic {{.*}} ins(%arg1, %[[C0]], %[[C1]] : tensor<i32>, tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: arith.select
func.func @cum_sum_runtime_axis(%x: tensor<2x3xf32>, %axis: tensor<i32>) -> tensor<2x3xf32> {
  %0 = "graph.cum_sum"(%x, %axis) : (tensor<2x3xf32>, tensor<i32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Gemm with transB and constant weights (a Linear layer): the weights are
// transposed at compile time into a new K x N constant and the product is
// a plain linalg.matmul; weights that are not constants keep the transposed
// read.
// GENERIC-LABEL: func.func @gemm_transb_constant
// GENERIC-NOT: linalg.matmul
// GENERIC: linalg.generic {{.*}} ins(%arg0, %{{.*}} : tensor<4x3xf32>, tensor<3x2xf32>)
// GENERIC: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x3xf32>, tensor<2x3xf32>)
// GENERIC-NOT: linalg.matmul
// CHECK-LABEL: func.func @gemm_transb_constant
// CHECK: %[[W:.*]] = arith.constant dense_resource<kiln_weight{{.*}}> : tensor<6xf32>
// CHECK: %[[WT:.*]] = tensor.expand_shape %[[W]] {{.*}} into tensor<3x2xf32>
// CHECK: linalg.matmul ins(%arg0, %[[WT]] : tensor<4x3xf32>, tensor<3x2xf32>)
// CHECK: linalg.generic {{.*}} ins(%arg0, %arg1 : tensor<4x3xf32>, tensor<2x3xf32>)
// CHECK-SAME: outs(%{{.*}} : tensor<4x2xf32>)
// The new constant holds the columns of w: 1 4 2 5 3 6.
// CHECK: kiln_weight{{.*}}: "0x080000000000803F00008040000000400000A040000040400000C040"
func.func @gemm_transb_constant(%a: tensor<4x3xf32>, %v: tensor<2x3xf32>) -> (tensor<4x2xf32>, tensor<4x2xf32>) {
  %w = "graph.constant"() {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : () -> tensor<2x3xf32>
  %0 = "graph.gemm"(%a, %w) {transB = 1 : i64} : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  %1 = "graph.gemm"(%a, %v) {transB = 1 : i64} : (tensor<4x3xf32>, tensor<2x3xf32>) -> tensor<4x2xf32>
  return %0, %1 : tensor<4x2xf32>, tensor<4x2xf32>
}

// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify))' | FileCheck %s

// Every reduction-family op in generic form, with 1-D and batched matmul,
// transposed gemm, constant and non-constant axes, keepdims, dynamic dims and
// each op's ONNX element types; graph-verify re-infers every result type.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3x4xf32>, %[[V:.*]]: tensor<3xf32>
func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %v: tensor<3xf32>, %c: tensor<5x1x2x3xf32>, %d: tensor<4x3x7xf32>, %e: tensor<?x2x3xi64>, %g: tensor<3x?xi64>) {
  // CHECK: "graph.matmul"(%[[A]], %[[B]]) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  // CHECK: "graph.matmul"(%[[V]], %[[B]]) : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  %1 = "graph.matmul"(%v, %b) : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  // CHECK: "graph.matmul"(%[[A]], %[[V]]) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  %2 = "graph.matmul"(%a, %v) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  // CHECK: "graph.matmul"(%[[V]], %[[V]]) : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  %3 = "graph.matmul"(%v, %v) : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  // CHECK: "graph.matmul"(%{{.*}}, %{{.*}}) : (tensor<5x1x2x3xf32>, tensor<4x3x7xf32>) -> tensor<5x4x2x7xf32>
  %4 = "graph.matmul"(%c, %d) : (tensor<5x1x2x3xf32>, tensor<4x3x7xf32>) -> tensor<5x4x2x7xf32>
  // CHECK: "graph.matmul"(%{{.*}}, %{{.*}}) : (tensor<?x2x3xi64>, tensor<3x?xi64>) -> tensor<?x2x?xi64>
  %5 = "graph.matmul"(%e, %g) : (tensor<?x2x3xi64>, tensor<3x?xi64>) -> tensor<?x2x?xi64>
  return
}

// CHECK-LABEL: func.func @gemm
func.func @gemm(%a: tensor<3x2xf32>, %b: tensor<5x3xf32>, %c: tensor<5xf32>, %d: tensor<2x3xf64>, %e: tensor<3x5xf64>, %s: tensor<f64>, %m: tensor<?x1xf64>) {
  // CHECK: "graph.gemm"(%{{.*}}, %{{.*}}, %{{.*}}) {alpha = 5.000000e-01 : f32, beta = 2.000000e+00 : f32, transA = 1 : i64, transB = 1 : i64} : (tensor<3x2xf32>, tensor<5x3xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  %0 = "graph.gemm"(%a, %b, %c) {alpha = 0.5 : f32, beta = 2.0 : f32, transA = 1 : i64, transB = 1 : i64} : (tensor<3x2xf32>, tensor<5x3xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  // CHECK: "graph.gemm"(%{{.*}}, %{{.*}}) : (tensor<2x3xf64>, tensor<3x5xf64>) -> tensor<2x5xf64>
  %1 = "graph.gemm"(%d, %e) : (tensor<2x3xf64>, tensor<3x5xf64>) -> tensor<2x5xf64>
  // CHECK: "graph.gemm"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x3xf64>, tensor<3x5xf64>, tensor<f64>) -> tensor<2x5xf64>
  %2 = "graph.gemm"(%d, %e, %s) : (tensor<2x3xf64>, tensor<3x5xf64>, tensor<f64>) -> tensor<2x5xf64>
  // CHECK: "graph.gemm"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x3xf64>, tensor<3x5xf64>, tensor<?x1xf64>) -> tensor<2x5xf64>
  %3 = "graph.gemm"(%d, %e, %m) : (tensor<2x3xf64>, tensor<3x5xf64>, tensor<?x1xf64>) -> tensor<2x5xf64>
  return
}

// CHECK-LABEL: func.func @softmax
func.func @softmax(%x: tensor<2x?x4xf16>, %y: tensor<8xbf16>) {
  // CHECK: "graph.softmax"(%{{.*}}) {axis = 1 : i64} : (tensor<2x?x4xf16>) -> tensor<2x?x4xf16>
  %0 = "graph.softmax"(%x) {axis = 1 : i64} : (tensor<2x?x4xf16>) -> tensor<2x?x4xf16>
  // CHECK: "graph.softmax"(%{{.*}}) : (tensor<8xbf16>) -> tensor<8xbf16>
  %1 = "graph.softmax"(%y) : (tensor<8xbf16>) -> tensor<8xbf16>
  // CHECK: "graph.log_softmax"(%{{.*}}) {axis = -3 : i64} : (tensor<2x?x4xf16>) -> tensor<2x?x4xf16>
  %2 = "graph.log_softmax"(%x) {axis = -3 : i64} : (tensor<2x?x4xf16>) -> tensor<2x?x4xf16>
  return
}

// CHECK-LABEL: func.func @reduce_constant_axes
func.func @reduce_constant_axes(%x: tensor<2x3x4xf32>, %i: tensor<2x3x4xi32>) {
  // CHECK: %[[AX:.*]] = "graph.constant"
  %axes = "graph.constant"() {value = dense<[-1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: %[[EMPTY:.*]] = "graph.constant"
  %empty = "graph.constant"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  // CHECK: "graph.reduce_sum"(%{{.*}}, %[[AX]]) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<1x3x1xf32>
  %0 = "graph.reduce_sum"(%x, %axes) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<1x3x1xf32>
  // CHECK: "graph.reduce_mean"(%{{.*}}, %[[AX]]) {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<3xf32>
  %1 = "graph.reduce_mean"(%x, %axes) {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<3xf32>
  // CHECK: "graph.reduce_prod"(%{{.*}}, %[[EMPTY]]) {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xi32>, tensor<0xi64>) -> tensor<2x3x4xi32>
  %2 = "graph.reduce_prod"(%i, %empty) {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xi32>, tensor<0xi64>) -> tensor<2x3x4xi32>
  // CHECK: "graph.reduce_l2"(%{{.*}}, %[[EMPTY]]) : (tensor<2x3x4xf32>, tensor<0xi64>) -> tensor<1x1x1xf32>
  %3 = "graph.reduce_l2"(%x, %empty) : (tensor<2x3x4xf32>, tensor<0xi64>) -> tensor<1x1x1xf32>
  return
}

// CHECK-LABEL: func.func @reduce_no_axes
func.func @reduce_no_axes(%x: tensor<2x?xf32>, %p: tensor<3x2xi1>, %q: tensor<4xi8>) {
  // CHECK: "graph.reduce_sum"(%{{.*}}) : (tensor<2x?xf32>) -> tensor<1x1xf32>
  %0 = "graph.reduce_sum"(%x) : (tensor<2x?xf32>) -> tensor<1x1xf32>
  // CHECK: "graph.reduce_max"(%{{.*}}) {keepdims = 0 : i64} : (tensor<2x?xf32>) -> tensor<f32>
  %1 = "graph.reduce_max"(%x) {keepdims = 0 : i64} : (tensor<2x?xf32>) -> tensor<f32>
  // CHECK: "graph.reduce_min"(%{{.*}}) {noop_with_empty_axes = 1 : i64} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %2 = "graph.reduce_min"(%x) {noop_with_empty_axes = 1 : i64} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.reduce_max"(%{{.*}}) {keepdims = 0 : i64} : (tensor<3x2xi1>) -> tensor<i1>
  %3 = "graph.reduce_max"(%p) {keepdims = 0 : i64} : (tensor<3x2xi1>) -> tensor<i1>
  // CHECK: "graph.reduce_min"(%{{.*}}) : (tensor<4xi8>) -> tensor<1xi8>
  %4 = "graph.reduce_min"(%q) : (tensor<4xi8>) -> tensor<1xi8>
  return
}

// Axes that are not constants: the rank is known from the axes' static
// length (or keepdims), the reduced dims are not.
// CHECK-LABEL: func.func @reduce_dynamic_axes
func.func @reduce_dynamic_axes(%x: tensor<2x1x4xf32>, %a: tensor<2xi64>, %u: tensor<?xi64>) {
  // CHECK: "graph.reduce_sum"(%{{.*}}, %{{.*}}) : (tensor<2x1x4xf32>, tensor<2xi64>) -> tensor<?x1x?xf32>
  %0 = "graph.reduce_sum"(%x, %a) : (tensor<2x1x4xf32>, tensor<2xi64>) -> tensor<?x1x?xf32>
  // CHECK: "graph.reduce_mean"(%{{.*}}, %{{.*}}) {keepdims = 0 : i64} : (tensor<2x1x4xf32>, tensor<2xi64>) -> tensor<?xf32>
  %1 = "graph.reduce_mean"(%x, %a) {keepdims = 0 : i64} : (tensor<2x1x4xf32>, tensor<2xi64>) -> tensor<?xf32>
  // CHECK: "graph.reduce_max"(%{{.*}}, %{{.*}}) {noop_with_empty_axes = 1 : i64} : (tensor<2x1x4xf32>, tensor<?xi64>) -> tensor<?x1x?xf32>
  %2 = "graph.reduce_max"(%x, %u) {noop_with_empty_axes = 1 : i64} : (tensor<2x1x4xf32>, tensor<?xi64>) -> tensor<?x1x?xf32>
  return
}

// CHECK-LABEL: func.func @arg_reduce
func.func @arg_reduce(%x: tensor<2x3x?xi32>, %f: tensor<5xf32>) {
  // CHECK: "graph.argmax"(%{{.*}}) : (tensor<2x3x?xi32>) -> tensor<1x3x?xi64>
  %0 = "graph.argmax"(%x) : (tensor<2x3x?xi32>) -> tensor<1x3x?xi64>
  // CHECK: "graph.argmax"(%{{.*}}) {axis = -1 : i64, keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<2x3x?xi32>) -> tensor<2x3xi64>
  %1 = "graph.argmax"(%x) {axis = -1 : i64, keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<2x3x?xi32>) -> tensor<2x3xi64>
  // CHECK: "graph.argmin"(%{{.*}}) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x3x?xi32>) -> tensor<2x?xi64>
  %2 = "graph.argmin"(%x) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x3x?xi32>) -> tensor<2x?xi64>
  // CHECK: "graph.argmin"(%{{.*}}) {keepdims = 0 : i64} : (tensor<5xf32>) -> tensor<i64>
  %3 = "graph.argmin"(%f) {keepdims = 0 : i64} : (tensor<5xf32>) -> tensor<i64>
  return
}

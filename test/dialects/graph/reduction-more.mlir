// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify))' | FileCheck %s

// The reduction-family ops added after the first set: the remaining ReduceX
// ops, hardmax, cum_sum, top_k, the two losses, einsum and det, in generic
// form; graph-verify re-infers every result type (a wrong one fails the
// second RUN line).

// CHECK-LABEL: func.func @reduce_more
func.func @reduce_more(%x: tensor<3x2x2xf32>, %i: tensor<3x?xi32>, %a: tensor<1xi64>) {
  // CHECK: %[[AX:.*]] = "graph.constant"
  %axes = "graph.constant"() {value = dense<[-2]> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: "graph.reduce_l1"(%{{.*}}, %[[AX]]) : (tensor<3x2x2xf32>, tensor<1xi64>) -> tensor<3x1x2xf32>
  %0 = "graph.reduce_l1"(%x, %axes) : (tensor<3x2x2xf32>, tensor<1xi64>) -> tensor<3x1x2xf32>
  // CHECK: "graph.reduce_log_sum"(%{{.*}}) {keepdims = 0 : i64} : (tensor<3x2x2xf32>) -> tensor<f32>
  %1 = "graph.reduce_log_sum"(%x) {keepdims = 0 : i64} : (tensor<3x2x2xf32>) -> tensor<f32>
  // CHECK: "graph.reduce_log_sum_exp"(%{{.*}}, %[[AX]]) {keepdims = 0 : i64} : (tensor<3x2x2xf32>, tensor<1xi64>) -> tensor<3x2xf32>
  %2 = "graph.reduce_log_sum_exp"(%x, %axes) {keepdims = 0 : i64} : (tensor<3x2x2xf32>, tensor<1xi64>) -> tensor<3x2xf32>
  // CHECK: "graph.reduce_sum_square"(%{{.*}}, %{{.*}}) : (tensor<3x?xi32>, tensor<1xi64>) -> tensor<?x?xi32>
  %3 = "graph.reduce_sum_square"(%i, %a) : (tensor<3x?xi32>, tensor<1xi64>) -> tensor<?x?xi32>
  // CHECK: "graph.reduce_sum_square"(%{{.*}}) {noop_with_empty_axes = 1 : i64} : (tensor<3x?xi32>) -> tensor<3x?xi32>
  %4 = "graph.reduce_sum_square"(%i) {noop_with_empty_axes = 1 : i64} : (tensor<3x?xi32>) -> tensor<3x?xi32>
  return
}

// CHECK-LABEL: func.func @hardmax
func.func @hardmax(%x: tensor<3x4x5xf32>, %y: tensor<?x4xbf16>) {
  // CHECK: "graph.hardmax"(%{{.*}}) : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  %0 = "graph.hardmax"(%x) : (tensor<3x4x5xf32>) -> tensor<3x4x5xf32>
  // CHECK: "graph.hardmax"(%{{.*}}) {axis = 0 : i64} : (tensor<?x4xbf16>) -> tensor<?x4xbf16>
  %1 = "graph.hardmax"(%y) {axis = 0 : i64} : (tensor<?x4xbf16>) -> tensor<?x4xbf16>
  return
}

// A constant axis is range-checked; a graph input is not (it has no value).
// CHECK-LABEL: func.func @cum_sum
func.func @cum_sum(%x: tensor<2x?xf64>, %i: tensor<5xi64>, %ax: tensor<i32>, %ax1: tensor<1xi64>) {
  %c = "graph.constant"() {value = dense<-1> : tensor<i64>} : () -> tensor<i64>
  // CHECK: "graph.cum_sum"(%{{.*}}, %{{.*}}) : (tensor<2x?xf64>, tensor<i64>) -> tensor<2x?xf64>
  %0 = "graph.cum_sum"(%x, %c) : (tensor<2x?xf64>, tensor<i64>) -> tensor<2x?xf64>
  // CHECK: "graph.cum_sum"(%{{.*}}, %{{.*}}) {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<5xi64>, tensor<i32>) -> tensor<5xi64>
  %1 = "graph.cum_sum"(%i, %ax) {exclusive = 1 : i64, reverse = 1 : i64} : (tensor<5xi64>, tensor<i32>) -> tensor<5xi64>
  // CHECK: "graph.cum_sum"(%{{.*}}, %{{.*}}) : (tensor<5xi64>, tensor<1xi64>) -> tensor<5xi64>
  %2 = "graph.cum_sum"(%i, %ax1) : (tensor<5xi64>, tensor<1xi64>) -> tensor<5xi64>
  return
}

// A constant k sizes the selected dim; another k leaves it dynamic.
// CHECK-LABEL: func.func @top_k
func.func @top_k(%x: tensor<3x4xf32>, %k: tensor<1xi64>, %u: tensor<?x6xi8>) {
  %three = "graph.constant"() {value = dense<3> : tensor<1xi64>} : () -> tensor<1xi64>
  // CHECK: "graph.top_k"(%{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x3xf32>, tensor<3x3xi64>)
  %0:2 = "graph.top_k"(%x, %three) {axis = 1 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x3xf32>, tensor<3x3xi64>)
  // CHECK: "graph.top_k"(%{{.*}}, %{{.*}}) {largest = 0 : i64, sorted = 0 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
  %1:2 = "graph.top_k"(%x, %k) {largest = 0 : i64, sorted = 0 : i64} : (tensor<3x4xf32>, tensor<1xi64>) -> (tensor<3x?xf32>, tensor<3x?xi64>)
  // CHECK: "graph.top_k"(%{{.*}}, %{{.*}}) {axis = -2 : i64} : (tensor<?x6xi8>, tensor<1xi64>) -> (tensor<3x6xi8>, tensor<3x6xi64>)
  %2:2 = "graph.top_k"(%u, %three) {axis = -2 : i64} : (tensor<?x6xi8>, tensor<1xi64>) -> (tensor<3x6xi8>, tensor<3x6xi64>)
  return
}

// CHECK-LABEL: func.func @nll_loss
func.func @nll_loss(%in: tensor<3x5x2xf32>, %t: tensor<3x2xi64>, %w: tensor<5xf32>, %in2: tensor<?x5xf16>, %t2: tensor<4xi32>) {
  // CHECK: "graph.negative_log_likelihood_loss"(%{{.*}}, %{{.*}}) : (tensor<3x5x2xf32>, tensor<3x2xi64>) -> tensor<f32>
  %0 = "graph.negative_log_likelihood_loss"(%in, %t) : (tensor<3x5x2xf32>, tensor<3x2xi64>) -> tensor<f32>
  // CHECK: "graph.negative_log_likelihood_loss"(%{{.*}}, %{{.*}}, %{{.*}}) {ignore_index = -1 : i64, reduction = "none"} : (tensor<3x5x2xf32>, tensor<3x2xi64>, tensor<5xf32>) -> tensor<3x2xf32>
  %1 = "graph.negative_log_likelihood_loss"(%in, %t, %w) {ignore_index = -1 : i64, reduction = "none"} : (tensor<3x5x2xf32>, tensor<3x2xi64>, tensor<5xf32>) -> tensor<3x2xf32>
  // The dynamic N of the input takes the target's static 4.
  // CHECK: "graph.negative_log_likelihood_loss"(%{{.*}}, %{{.*}}) {reduction = "none"} : (tensor<?x5xf16>, tensor<4xi32>) -> tensor<4xf16>
  %2 = "graph.negative_log_likelihood_loss"(%in2, %t2) {reduction = "none"} : (tensor<?x5xf16>, tensor<4xi32>) -> tensor<4xf16>
  // CHECK: "graph.negative_log_likelihood_loss"(%{{.*}}, %{{.*}}) {reduction = "sum"} : (tensor<?x5xf16>, tensor<4xi32>) -> tensor<f16>
  %3 = "graph.negative_log_likelihood_loss"(%in2, %t2) {reduction = "sum"} : (tensor<?x5xf16>, tensor<4xi32>) -> tensor<f16>
  return
}

// CHECK-LABEL: func.func @sce_loss
func.func @sce_loss(%s: tensor<3x5x2x7xf64>, %l: tensor<3x2x7xi64>, %w: tensor<5xf64>) {
  // CHECK: "graph.softmax_cross_entropy_loss"(%{{.*}}, %{{.*}}) : (tensor<3x5x2x7xf64>, tensor<3x2x7xi64>) -> tensor<f64>
  %0 = "graph.softmax_cross_entropy_loss"(%s, %l) : (tensor<3x5x2x7xf64>, tensor<3x2x7xi64>) -> tensor<f64>
  // CHECK: "graph.softmax_cross_entropy_loss"(%{{.*}}, %{{.*}}, %{{.*}}) {ignore_index = 2 : i64, reduction = "none"} : (tensor<3x5x2x7xf64>, tensor<3x2x7xi64>, tensor<5xf64>) -> (tensor<3x2x7xf64>, tensor<3x5x2x7xf64>)
  %1:2 = "graph.softmax_cross_entropy_loss"(%s, %l, %w) {ignore_index = 2 : i64, reduction = "none"} : (tensor<3x5x2x7xf64>, tensor<3x2x7xi64>, tensor<5xf64>) -> (tensor<3x2x7xf64>, tensor<3x5x2x7xf64>)
  return
}

// Explicit and implicit outputs, ellipsis broadcasting, diagonals, spaces.
// CHECK-LABEL: func.func @einsum
func.func @einsum(%b1: tensor<5x2x3xf32>, %b2: tensor<5x3x4xf32>, %v: tensor<5xf32>, %m: tensor<3x4xi32>, %d: tensor<3x5x5xf64>, %e1: tensor<2x1x3xf32>, %e2: tensor<4x3xf32>, %u: tensor<?x3xf32>, %w34: tensor<3x4xf32>) {
  // CHECK: "graph.einsum"(%{{.*}}, %{{.*}}) {equation = "bij, bjk -> bik"} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  %0 = "graph.einsum"(%b1, %b2) {equation = "bij, bjk -> bik"} : (tensor<5x2x3xf32>, tensor<5x3x4xf32>) -> tensor<5x2x4xf32>
  // CHECK: "graph.einsum"(%{{.*}}, %{{.*}}) {equation = "i,i"} : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  %1 = "graph.einsum"(%v, %v) {equation = "i,i"} : (tensor<5xf32>, tensor<5xf32>) -> tensor<f32>
  // Implicit output: the letters used once, in ASCII order.
  // CHECK: "graph.einsum"(%{{.*}}) {equation = "ba"} : (tensor<3x4xi32>) -> tensor<4x3xi32>
  %2 = "graph.einsum"(%m) {equation = "ba"} : (tensor<3x4xi32>) -> tensor<4x3xi32>
  // CHECK: "graph.einsum"(%{{.*}}) {equation = "Ba"} : (tensor<3x4xi32>) -> tensor<3x4xi32>
  %3 = "graph.einsum"(%m) {equation = "Ba"} : (tensor<3x4xi32>) -> tensor<3x4xi32>
  // CHECK: "graph.einsum"(%{{.*}}) {equation = "...ii ->...i"} : (tensor<3x5x5xf64>) -> tensor<3x5xf64>
  %4 = "graph.einsum"(%d) {equation = "...ii ->...i"} : (tensor<3x5x5xf64>) -> tensor<3x5xf64>
  // CHECK: "graph.einsum"(%{{.*}}) {equation = "ij->"} : (tensor<3x4xi32>) -> tensor<i32>
  %5 = "graph.einsum"(%m) {equation = "ij->"} : (tensor<3x4xi32>) -> tensor<i32>
  // The '...' dims broadcast: [2, 1] with [4] gives [2, 4].
  // CHECK: "graph.einsum"(%{{.*}}, %{{.*}}) {equation = "...i,...i"} : (tensor<2x1x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  %6 = "graph.einsum"(%e1, %e2) {equation = "...i,...i"} : (tensor<2x1x3xf32>, tensor<4x3xf32>) -> tensor<2x4xf32>
  // CHECK: "graph.einsum"(%{{.*}}) {equation = "ii"} : (tensor<?x3xf32>) -> tensor<f32>
  %7 = "graph.einsum"(%u) {equation = "ii"} : (tensor<?x3xf32>) -> tensor<f32>
  // CHECK: "graph.einsum"(%{{.*}}, %{{.*}}) {equation = "ij,jk->ki"} : (tensor<?x3xf32>, tensor<3x4xf32>) -> tensor<4x?xf32>
  %8 = "graph.einsum"(%u, %w34) {equation = "ij,jk->ki"} : (tensor<?x3xf32>, tensor<3x4xf32>) -> tensor<4x?xf32>
  return
}

// CHECK-LABEL: func.func @det
func.func @det(%a: tensor<2x2xf32>, %b: tensor<3x?x4x4xf16>, %c: tensor<?x?xf64>) {
  // CHECK: "graph.det"(%{{.*}}) : (tensor<2x2xf32>) -> tensor<f32>
  %0 = "graph.det"(%a) : (tensor<2x2xf32>) -> tensor<f32>
  // CHECK: "graph.det"(%{{.*}}) : (tensor<3x?x4x4xf16>) -> tensor<3x?xf16>
  %1 = "graph.det"(%b) : (tensor<3x?x4x4xf16>) -> tensor<3x?xf16>
  // CHECK: "graph.det"(%{{.*}}) : (tensor<?x?xf64>) -> tensor<f64>
  %2 = "graph.det"(%c) : (tensor<?x?xf64>) -> tensor<f64>
  return
}

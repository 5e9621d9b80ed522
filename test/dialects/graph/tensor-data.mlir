// Round trip and graph-verify of the Tensor-family ops that index elements,
// make masks or have data-dependent shapes (generic form).
// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify))' | FileCheck %s

// CHECK-LABEL: func.func @gather_elements
// CHECK: "graph.gather_elements"(%{{.*}}, %{{.*}}) {axis = -1 : i64} : (tensor<3x4xf32>, tensor<3x?xi32>) -> tensor<3x?xf32>
func.func @gather_elements(%x: tensor<3x4xf32>, %i: tensor<3x?xi32>) -> tensor<3x?xf32> {
  %0 = "graph.gather_elements"(%x, %i) {axis = -1 : i64} : (tensor<3x4xf32>, tensor<3x?xi32>) -> tensor<3x?xf32>
  return %0 : tensor<3x?xf32>
}

// CHECK-LABEL: func.func @gather_nd
// CHECK: "graph.gather_nd"(%{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>, tensor<5x2xi64>) -> tensor<5x4xf32>
// CHECK: "graph.gather_nd"(%{{.*}}, %{{.*}}) {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
func.func @gather_nd(%x: tensor<2x3x4xf32>, %i: tensor<5x2xi64>, %j: tensor<2x1xi64>) -> (tensor<5x4xf32>, tensor<2x4xf32>) {
  %0 = "graph.gather_nd"(%x, %i) : (tensor<2x3x4xf32>, tensor<5x2xi64>) -> tensor<5x4xf32>
  %1 = "graph.gather_nd"(%x, %j) {batch_dims = 1 : i64} : (tensor<2x3x4xf32>, tensor<2x1xi64>) -> tensor<2x4xf32>
  return %0, %1 : tensor<5x4xf32>, tensor<2x4xf32>
}

// CHECK-LABEL: func.func @scatter
// CHECK: "graph.scatter_elements"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64, reduction = "add"} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
// CHECK: "graph.scatter_nd"(%{{.*}}, %{{.*}}, %{{.*}}) {reduction = "max"} : (tensor<3x5xf32>, tensor<4x1xi64>, tensor<4x5xf32>) -> tensor<3x5xf32>
func.func @scatter(%x: tensor<3x5xf32>, %i: tensor<3x2xi64>, %u: tensor<3x2xf32>, %j: tensor<4x1xi64>, %v: tensor<4x5xf32>) -> (tensor<3x5xf32>, tensor<3x5xf32>) {
  %0 = "graph.scatter_elements"(%x, %i, %u) {axis = 1 : i64, reduction = "add"} : (tensor<3x5xf32>, tensor<3x2xi64>, tensor<3x2xf32>) -> tensor<3x5xf32>
  %1 = "graph.scatter_nd"(%x, %j, %v) {reduction = "max"} : (tensor<3x5xf32>, tensor<4x1xi64>, tensor<4x5xf32>) -> tensor<3x5xf32>
  return %0, %1 : tensor<3x5xf32>, tensor<3x5xf32>
}

// CHECK-LABEL: func.func @trilu
// CHECK: "graph.trilu"(%{{.*}}) {upper = 0 : i64} : (tensor<2x3x4xi64>) -> tensor<2x3x4xi64>
// CHECK: "graph.trilu"(%{{.*}}, %{{.*}}) : (tensor<2x3x4xi64>, tensor<i64>) -> tensor<2x3x4xi64>
func.func @trilu(%x: tensor<2x3x4xi64>, %k: tensor<i64>) -> (tensor<2x3x4xi64>, tensor<2x3x4xi64>) {
  %0 = "graph.trilu"(%x) {upper = 0 : i64} : (tensor<2x3x4xi64>) -> tensor<2x3x4xi64>
  %1 = "graph.trilu"(%x, %k) : (tensor<2x3x4xi64>, tensor<i64>) -> tensor<2x3x4xi64>
  return %0, %1 : tensor<2x3x4xi64>, tensor<2x3x4xi64>
}

// CHECK-LABEL: func.func @constant_of_shape
// CHECK: "graph.constant_of_shape"(%{{.*}}) {value = dense<7> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<4x0xi32>
// CHECK: "graph.constant_of_shape"(%{{.*}}) : (tensor<3xi64>) -> tensor<?x?x?xf32>
func.func @constant_of_shape(%s: tensor<3xi64>) -> (tensor<4x0xi32>, tensor<?x?x?xf32>) {
  %c = "graph.constant"() {value = dense<[4, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.constant_of_shape"(%c) {value = dense<7> : tensor<1xi32>} : (tensor<2xi64>) -> tensor<4x0xi32>
  %1 = "graph.constant_of_shape"(%s) : (tensor<3xi64>) -> tensor<?x?x?xf32>
  return %0, %1 : tensor<4x0xi32>, tensor<?x?x?xf32>
}

// CHECK-LABEL: func.func @size_eye_like
// CHECK: "graph.size"(%{{.*}}) : (tensor<?x3xf32>) -> tensor<i64>
// CHECK: "graph.eye_like"(%{{.*}}) {dtype = f64, k = -1 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf64>
func.func @size_eye_like(%x: tensor<?x3xf32>) -> (tensor<i64>, tensor<?x3xf64>) {
  %0 = "graph.size"(%x) : (tensor<?x3xf32>) -> tensor<i64>
  %1 = "graph.eye_like"(%x) {dtype = f64, k = -1 : i64} : (tensor<?x3xf32>) -> tensor<?x3xf64>
  return %0, %1 : tensor<i64>, tensor<?x3xf64>
}

// CHECK-LABEL: func.func @one_hot
// CHECK: "graph.one_hot"(%{{.*}}, %{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<2x3xi64>, tensor<f32>, tensor<2xi32>) -> tensor<2x10x3xi32>
// CHECK: "graph.one_hot"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x3xi64>, tensor<i64>, tensor<2xi32>) -> tensor<2x3x?xi32>
func.func @one_hot(%i: tensor<2x3xi64>, %d: tensor<i64>, %v: tensor<2xi32>) -> (tensor<2x10x3xi32>, tensor<2x3x?xi32>) {
  %depth = "graph.constant"() {value = dense<10.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.one_hot"(%i, %depth, %v) {axis = 1 : i64} : (tensor<2x3xi64>, tensor<f32>, tensor<2xi32>) -> tensor<2x10x3xi32>
  %1 = "graph.one_hot"(%i, %d, %v) : (tensor<2x3xi64>, tensor<i64>, tensor<2xi32>) -> tensor<2x3x?xi32>
  return %0, %1 : tensor<2x10x3xi32>, tensor<2x3x?xi32>
}

// CHECK-LABEL: func.func @reverse_sequence
// CHECK: "graph.reverse_sequence"(%{{.*}}, %{{.*}}) {batch_axis = 0 : i64, time_axis = 1 : i64} : (tensor<4x5x2xf32>, tensor<4xi64>) -> tensor<4x5x2xf32>
func.func @reverse_sequence(%x: tensor<4x5x2xf32>, %l: tensor<4xi64>) -> tensor<4x5x2xf32> {
  %0 = "graph.reverse_sequence"(%x, %l) {batch_axis = 0 : i64, time_axis = 1 : i64} : (tensor<4x5x2xf32>, tensor<4xi64>) -> tensor<4x5x2xf32>
  return %0 : tensor<4x5x2xf32>
}

// CHECK-LABEL: func.func @non_zero_compress
// CHECK: "graph.non_zero"(%{{.*}}) : (tensor<2x?x4xf32>) -> tensor<3x?xi64>
// CHECK: "graph.compress"(%{{.*}}, %{{.*}}) : (tensor<2x?x4xf32>, tensor<3xi1>) -> tensor<?xf32>
// CHECK: "graph.compress"(%{{.*}}, %{{.*}}) {axis = -1 : i64} : (tensor<2x?x4xf32>, tensor<3xi1>) -> tensor<2x?x?xf32>
func.func @non_zero_compress(%x: tensor<2x?x4xf32>, %c: tensor<3xi1>) -> (tensor<3x?xi64>, tensor<?xf32>, tensor<2x?x?xf32>) {
  %0 = "graph.non_zero"(%x) : (tensor<2x?x4xf32>) -> tensor<3x?xi64>
  %1 = "graph.compress"(%x, %c) : (tensor<2x?x4xf32>, tensor<3xi1>) -> tensor<?xf32>
  %2 = "graph.compress"(%x, %c) {axis = -1 : i64} : (tensor<2x?x4xf32>, tensor<3xi1>) -> tensor<2x?x?xf32>
  return %0, %1, %2 : tensor<3x?xi64>, tensor<?xf32>, tensor<2x?x?xf32>
}

// CHECK-LABEL: func.func @unique
// CHECK: "graph.unique"(%{{.*}}) {resultSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<2x3xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
// CHECK: "graph.unique"(%{{.*}}) {axis = 1 : i64, resultSegmentSizes = array<i32: 1, 0, 0, 0>, sorted = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x?xf32>
func.func @unique(%x: tensor<2x3xf32>) -> (tensor<?xf32>, tensor<6xi64>, tensor<2x?xf32>) {
  %0:4 = "graph.unique"(%x) {resultSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<2x3xf32>) -> (tensor<?xf32>, tensor<?xi64>, tensor<6xi64>, tensor<?xi64>)
  %1 = "graph.unique"(%x) {axis = 1 : i64, sorted = 0 : i64, resultSegmentSizes = array<i32: 1, 0, 0, 0>} : (tensor<2x3xf32>) -> tensor<2x?xf32>
  return %0#0, %0#2, %1 : tensor<?xf32>, tensor<6xi64>, tensor<2x?xf32>
}

// CHECK-LABEL: func.func @non_max_suppression
// CHECK: "graph.non_max_suppression"(%{{.*}}, %{{.*}}, %{{.*}}) {center_point_box = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>) -> tensor<?x3xi64>
func.func @non_max_suppression(%b: tensor<1x6x4xf32>, %s: tensor<1x2x6xf32>, %m: tensor<1xi64>) -> tensor<?x3xi64> {
  %0 = "graph.non_max_suppression"(%b, %s, %m) {center_point_box = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<1x6x4xf32>, tensor<1x2x6xf32>, tensor<1xi64>) -> tensor<?x3xi64>
  return %0 : tensor<?x3xi64>
}

// Round trip and graph-verify of every Tensor-family op (generic form).
// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify))' | FileCheck %s

// CHECK-LABEL: func.func @constant
// CHECK: "graph.constant"() {value = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
func.func @constant() -> tensor<3xi64> {
  %0 = "graph.constant"() {value = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  return %0 : tensor<3xi64>
}

// CHECK-LABEL: func.func @identity
// CHECK: "graph.identity"(%{{.*}}) : (tensor<?x3xf32>) -> tensor<?x3xf32>
func.func @identity(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = "graph.identity"(%x) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @reshape
// CHECK: %[[S:.*]] = "graph.constant"
// CHECK: "graph.reshape"(%{{.*}}, %[[S]]) : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x12x1xf32>
// CHECK: "graph.reshape"(%{{.*}}, %{{.*}}) {allowzero = 1 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
func.func @reshape(%x: tensor<2x3x4xf32>, %shape: tensor<2xi64>) -> (tensor<2x12x1xf32>, tensor<?x?xf32>) {
  %s = "graph.constant"() {value = dense<[0, -1, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "graph.reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x12x1xf32>
  %1 = "graph.reshape"(%x, %shape) {allowzero = 1 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<2x12x1xf32>, tensor<?x?xf32>
}

// CHECK-LABEL: func.func @flatten
// CHECK: "graph.flatten"(%{{.*}}) {axis = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
// CHECK: "graph.flatten"(%{{.*}}) : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
func.func @flatten(%x: tensor<2x3x4xf32>, %y: tensor<?x3x4xf32>) -> (tensor<6x4xf32>, tensor<?x12xf32>) {
  %0 = "graph.flatten"(%x) {axis = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = "graph.flatten"(%y) : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  return %0, %1 : tensor<6x4xf32>, tensor<?x12xf32>
}

// CHECK-LABEL: func.func @transpose
// CHECK: "graph.transpose"(%{{.*}}) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
// CHECK: "graph.transpose"(%{{.*}}) {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
func.func @transpose(%x: tensor<2x3x4xf32>) -> (tensor<4x3x2xf32>, tensor<2x4x3xf32>) {
  %0 = "graph.transpose"(%x) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %1 = "graph.transpose"(%x) {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  return %0, %1 : tensor<4x3x2xf32>, tensor<2x4x3xf32>
}

// concat is binary, so its inputs may differ along the axis; dynamic dims
// take the other input's static size, and a dynamic axis dim makes the sum
// dynamic. N-ary ONNX Concat is a chain.
// CHECK-LABEL: func.func @concat
// CHECK: %[[M:.*]] = "graph.concat"(%{{.*}}, %{{.*}}) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>
// CHECK: "graph.concat"(%{{.*}}, %{{.*}}) {axis = 0 : i64} : (tensor<?x4xf32>, tensor<2x?xf32>) -> tensor<?x4xf32>
// CHECK: "graph.concat"(%{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<?x4xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK: "graph.concat"(%[[M]], %{{.*}}) {axis = 1 : i64} : (tensor<2x7xf32>, tensor<2x3xf32>) -> tensor<2x10xf32>
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>, %c: tensor<?x4xf32>, %d: tensor<2x?xf32>) -> (tensor<?x4xf32>, tensor<2x?xf32>, tensor<2x10xf32>) {
  %0 = "graph.concat"(%a, %b) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>
  %1 = "graph.concat"(%c, %d) {axis = 0 : i64} : (tensor<?x4xf32>, tensor<2x?xf32>) -> tensor<?x4xf32>
  %2 = "graph.concat"(%c, %d) {axis = 1 : i64} : (tensor<?x4xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  %3 = "graph.concat"(%0, %a) {axis = 1 : i64} : (tensor<2x7xf32>, tensor<2x3xf32>) -> tensor<2x10xf32>
  return %1, %2, %3 : tensor<?x4xf32>, tensor<2x?xf32>, tensor<2x10xf32>
}

// IRDL gives all results of a variadic one type: split makes equal pieces.
// CHECK-LABEL: func.func @split
// CHECK: "graph.split"(%{{.*}}) {axis = 1 : i64, num_outputs = 3 : i64} : (tensor<2x9xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
// CHECK: "graph.split"(%{{.*}}, %{{.*}}) : (tensor<6x2xf32>, tensor<2xi64>) -> (tensor<3x2xf32>, tensor<3x2xf32>)
func.func @split(%x: tensor<2x9xf32>, %y: tensor<6x2xf32>) -> tensor<2x3xf32> {
  %0:3 = "graph.split"(%x) {axis = 1 : i64, num_outputs = 3 : i64} : (tensor<2x9xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  %s = "graph.constant"() {value = dense<3> : tensor<2xi64>} : () -> tensor<2xi64>
  %1:2 = "graph.split"(%y, %s) : (tensor<6x2xf32>, tensor<2xi64>) -> (tensor<3x2xf32>, tensor<3x2xf32>)
  return %0#2 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @slice
// CHECK: "graph.slice"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<10x20xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x5xf32>
// CHECK: "graph.slice"(%{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<10x20xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x20xf32>
func.func @slice(%x: tensor<10x20xf32>, %st: tensor<1xi32>, %en: tensor<1xi32>) -> (tensor<4x5xf32>, tensor<?x20xf32>) {
  %starts = "graph.constant"() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ends = "graph.constant"() {value = dense<[-1000, 1000]> : tensor<2xi64>} : () -> tensor<2xi64>
  %axes = "graph.constant"() {value = dense<[1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %steps = "graph.constant"() {value = dense<[-4, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.slice"(%x, %starts, %ends, %axes, %steps) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<10x20xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x5xf32>
  %1 = "graph.slice"(%x, %st, %en) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<10x20xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x20xf32>
  return %0, %1 : tensor<4x5xf32>, tensor<?x20xf32>
}

// CHECK-LABEL: func.func @gather
// CHECK: "graph.gather"(%{{.*}}, %{{.*}}) {axis = 1 : i64} : (tensor<5x6x7xf32>, tensor<2x3xi64>) -> tensor<5x2x3x7xf32>
func.func @gather(%x: tensor<5x6x7xf32>, %i: tensor<2x3xi64>) -> tensor<5x2x3x7xf32> {
  %0 = "graph.gather"(%x, %i) {axis = 1 : i64} : (tensor<5x6x7xf32>, tensor<2x3xi64>) -> tensor<5x2x3x7xf32>
  return %0 : tensor<5x2x3x7xf32>
}

// CHECK-LABEL: func.func @squeeze
// CHECK: "graph.squeeze"(%{{.*}}) : (tensor<1x3x1xf32>) -> tensor<3xf32>
// CHECK: "graph.squeeze"(%{{.*}}, %{{.*}}) : (tensor<1x3x?xf32>, tensor<1xi64>) -> tensor<1x3xf32>
func.func @squeeze(%x: tensor<1x3x1xf32>, %y: tensor<1x3x?xf32>) -> (tensor<3xf32>, tensor<1x3xf32>) {
  %0 = "graph.squeeze"(%x) : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %axes = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = "graph.squeeze"(%y, %axes) : (tensor<1x3x?xf32>, tensor<1xi64>) -> tensor<1x3xf32>
  return %0, %1 : tensor<3xf32>, tensor<1x3xf32>
}

// CHECK-LABEL: func.func @unsqueeze
// CHECK: "graph.unsqueeze"(%{{.*}}, %{{.*}}) : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<1x3x4x1xf32>
func.func @unsqueeze(%x: tensor<3x4xf32>) -> tensor<1x3x4x1xf32> {
  %axes = "graph.constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.unsqueeze"(%x, %axes) : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<1x3x4x1xf32>
  return %0 : tensor<1x3x4x1xf32>
}

// CHECK-LABEL: func.func @expand
// CHECK: "graph.expand"(%{{.*}}, %{{.*}}) : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<2x3x6xf32>
func.func @expand(%x: tensor<3x1xf32>) -> tensor<2x3x6xf32> {
  %shape = "graph.constant"() {value = dense<[2, 1, 6]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "graph.expand"(%x, %shape) : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<2x3x6xf32>
  return %0 : tensor<2x3x6xf32>
}

// CHECK-LABEL: func.func @tile
// CHECK: "graph.tile"(%{{.*}}, %{{.*}}) : (tensor<2x?xf32>, tensor<2xi64>) -> tensor<6x?xf32>
func.func @tile(%x: tensor<2x?xf32>) -> tensor<6x?xf32> {
  %r = "graph.constant"() {value = dense<[3, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.tile"(%x, %r) : (tensor<2x?xf32>, tensor<2xi64>) -> tensor<6x?xf32>
  return %0 : tensor<6x?xf32>
}

// CHECK-LABEL: func.func @shape
// CHECK: "graph.shape"(%{{.*}}) : (tensor<2x?x4xf32>) -> tensor<3xi64>
// CHECK: "graph.shape"(%{{.*}}) {end = -1 : i64, start = -5 : i64} : (tensor<2x?x4xf32>) -> tensor<2xi64>
func.func @shape(%x: tensor<2x?x4xf32>) -> (tensor<3xi64>, tensor<2xi64>) {
  %0 = "graph.shape"(%x) : (tensor<2x?x4xf32>) -> tensor<3xi64>
  %1 = "graph.shape"(%x) {start = -5 : i64, end = -1 : i64} : (tensor<2x?x4xf32>) -> tensor<2xi64>
  return %0, %1 : tensor<3xi64>, tensor<2xi64>
}

// CHECK-LABEL: func.func @range
// CHECK: "graph.range"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
// CHECK: "graph.range"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
func.func @range(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>) -> (tensor<4xi64>, tensor<?xf32>) {
  %start = "graph.constant"() {value = dense<10> : tensor<i64>} : () -> tensor<i64>
  %limit = "graph.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %delta = "graph.constant"() {value = dense<-3> : tensor<i64>} : () -> tensor<i64>
  %0 = "graph.range"(%start, %limit, %delta) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
  %1 = "graph.range"(%a, %b, %c) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return %0, %1 : tensor<4xi64>, tensor<?xf32>
}

// CHECK-LABEL: func.func @pad
// CHECK: "graph.pad"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x4xf32>, tensor<6xi64>) -> tensor<1x3x7xf32>
// CHECK: "graph.pad"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {mode = "reflect", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x3x4xf32>, tensor<2xi64>, tensor<f32>, tensor<1xi32>) -> tensor<1x6x4xf32>
func.func @pad(%x: tensor<1x3x4xf32>, %v: tensor<f32>) -> (tensor<1x3x7xf32>, tensor<1x6x4xf32>) {
  %pads = "graph.constant"() {value = dense<[0, 0, 1, 0, 0, 2]> : tensor<6xi64>} : () -> tensor<6xi64>
  %0 = "graph.pad"(%x, %pads) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x4xf32>, tensor<6xi64>) -> tensor<1x3x7xf32>
  %p2 = "graph.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ax = "graph.constant"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %1 = "graph.pad"(%x, %p2, %v, %ax) {mode = "reflect", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x3x4xf32>, tensor<2xi64>, tensor<f32>, tensor<1xi32>) -> tensor<1x6x4xf32>
  return %0, %1 : tensor<1x3x7xf32>, tensor<1x6x4xf32>
}

// CHECK-LABEL: func.func @depth_to_space
// CHECK: "graph.depth_to_space"(%{{.*}}) {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = "graph.depth_to_space"(%x) {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}

// CHECK-LABEL: func.func @space_to_depth
// CHECK: "graph.space_to_depth"(%{{.*}}) {blocksize = 2 : i64} : (tensor<1x2x4x?xf32>) -> tensor<1x8x2x?xf32>
func.func @space_to_depth(%x: tensor<1x2x4x?xf32>) -> tensor<1x8x2x?xf32> {
  %0 = "graph.space_to_depth"(%x) {blocksize = 2 : i64} : (tensor<1x2x4x?xf32>) -> tensor<1x8x2x?xf32>
  return %0 : tensor<1x8x2x?xf32>
}

// Negative i32 axes read from a constant stay negative (regression: they
// were read as 4294967295).
// CHECK-LABEL: func.func @slice_negative_i32_axis
// CHECK: "graph.slice"{{.*}} -> tensor<10x5xf32>
func.func @slice_negative_i32_axis(%x: tensor<10x20xf32>) -> tensor<10x5xf32> {
  %s = "graph.constant"() {value = dense<0> : tensor<1xi32>} : () -> tensor<1xi32>
  %e = "graph.constant"() {value = dense<5> : tensor<1xi32>} : () -> tensor<1xi32>
  %a = "graph.constant"() {value = dense<-1> : tensor<1xi32>} : () -> tensor<1xi32>
  %0 = "graph.slice"(%x, %s, %e, %a) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 0>} : (tensor<10x20xf32>, tensor<1xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<10x5xf32>
  return %0 : tensor<10x5xf32>
}

// ONNX Split-13 without 'split': as many equal parts as results.
// CHECK-LABEL: func.func @split_by_result_count
// CHECK: "graph.split"(%{{.*}}) {axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
func.func @split_by_result_count(%x: tensor<2x6xf32>) -> tensor<2x3xf32> {
  %0:2 = "graph.split"(%x) {axis = 1 : i64} : (tensor<2x6xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  return %0#1 : tensor<2x3xf32>
}

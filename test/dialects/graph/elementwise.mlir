// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify))' | FileCheck %s

// Every elementwise op in generic form, with broadcasting, dynamic dims and
// each op's ONNX element types; graph-verify re-infers every result type.

// CHECK-LABEL: func.func @arithmetic
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[B:.*]]: tensor<3xf32>, %[[I:.*]]: tensor<?x1xi64>, %[[J:.*]]: tensor<1x4xi64>)
func.func @arithmetic(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %i: tensor<?x1xi64>, %j: tensor<1x4xi64>) {
  // CHECK: "graph.add"(%[[A]], %[[B]]) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %0 = "graph.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  // CHECK: "graph.sub"(%[[B]], %[[A]]) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "graph.sub"(%b, %a) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK: "graph.mul"(%[[I]], %[[J]]) : (tensor<?x1xi64>, tensor<1x4xi64>) -> tensor<?x4xi64>
  %2 = "graph.mul"(%i, %j) : (tensor<?x1xi64>, tensor<1x4xi64>) -> tensor<?x4xi64>
  // CHECK: "graph.div"(%[[J]], %[[I]]) : (tensor<1x4xi64>, tensor<?x1xi64>) -> tensor<?x4xi64>
  %3 = "graph.div"(%j, %i) : (tensor<1x4xi64>, tensor<?x1xi64>) -> tensor<?x4xi64>
  return
}

// CHECK-LABEL: func.func @arithmetic_unsigned_scalar
func.func @arithmetic_unsigned_scalar(%a: tensor<ui8>, %b: tensor<5x?xui8>) {
  // CHECK: "graph.add"(%{{.*}}, %{{.*}}) : (tensor<ui8>, tensor<5x?xui8>) -> tensor<5x?xui8>
  %0 = "graph.add"(%a, %b) : (tensor<ui8>, tensor<5x?xui8>) -> tensor<5x?xui8>
  return
}

// CHECK-LABEL: func.func @pow
func.func @pow(%x: tensor<2x3xf32>, %y: tensor<i64>, %n: tensor<4xi32>) {
  // The exponent may have another element type; the result has x's.
  // CHECK: "graph.pow"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  %0 = "graph.pow"(%x, %y) : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x3xf32>
  // CHECK: "graph.pow"(%{{.*}}, %{{.*}}) : (tensor<4xi32>, tensor<i64>) -> tensor<4xi32>
  %1 = "graph.pow"(%n, %y) : (tensor<4xi32>, tensor<i64>) -> tensor<4xi32>
  return
}

// CHECK-LABEL: func.func @float_unary
func.func @float_unary(%x: tensor<2x?xf32>, %h: tensor<8xf16>, %d: tensor<f64>, %bf: tensor<1x1xbf16>) {
  // CHECK: "graph.sqrt"(%{{.*}}) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = "graph.sqrt"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.reciprocal"(%{{.*}}) : (tensor<8xf16>) -> tensor<8xf16>
  %1 = "graph.reciprocal"(%h) : (tensor<8xf16>) -> tensor<8xf16>
  // CHECK: "graph.exp"(%{{.*}}) : (tensor<f64>) -> tensor<f64>
  %2 = "graph.exp"(%d) : (tensor<f64>) -> tensor<f64>
  // CHECK: "graph.log"(%{{.*}}) : (tensor<1x1xbf16>) -> tensor<1x1xbf16>
  %3 = "graph.log"(%bf) : (tensor<1x1xbf16>) -> tensor<1x1xbf16>
  // CHECK: "graph.tanh"(%{{.*}}) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %4 = "graph.tanh"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.sigmoid"(%{{.*}}) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %5 = "graph.sigmoid"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.floor"(%{{.*}}) : (tensor<8xf16>) -> tensor<8xf16>
  %6 = "graph.floor"(%h) : (tensor<8xf16>) -> tensor<8xf16>
  // CHECK: "graph.ceil"(%{{.*}}) : (tensor<f64>) -> tensor<f64>
  %7 = "graph.ceil"(%d) : (tensor<f64>) -> tensor<f64>
  // CHECK: "graph.round"(%{{.*}}) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %8 = "graph.round"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return
}

// CHECK-LABEL: func.func @numeric_unary
func.func @numeric_unary(%i: tensor<3xi32>, %u: tensor<3xui16>, %f: tensor<?xf32>, %s: tensor<2xi8>) {
  // CHECK: "graph.neg"(%{{.*}}) : (tensor<3xi32>) -> tensor<3xi32>
  %0 = "graph.neg"(%i) : (tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "graph.neg"(%{{.*}}) : (tensor<?xf32>) -> tensor<?xf32>
  %1 = "graph.neg"(%f) : (tensor<?xf32>) -> tensor<?xf32>
  // CHECK: "graph.abs"(%{{.*}}) : (tensor<3xui16>) -> tensor<3xui16>
  %2 = "graph.abs"(%u) : (tensor<3xui16>) -> tensor<3xui16>
  // CHECK: "graph.relu"(%{{.*}}) : (tensor<2xi8>) -> tensor<2xi8>
  %3 = "graph.relu"(%s) : (tensor<2xi8>) -> tensor<2xi8>
  // CHECK: "graph.relu"(%{{.*}}) : (tensor<?xf32>) -> tensor<?xf32>
  %4 = "graph.relu"(%f) : (tensor<?xf32>) -> tensor<?xf32>
  // CHECK: "graph.erf"(%{{.*}}) : (tensor<3xi32>) -> tensor<3xi32>
  %5 = "graph.erf"(%i) : (tensor<3xi32>) -> tensor<3xi32>
  // CHECK: "graph.erf"(%{{.*}}) : (tensor<?xf32>) -> tensor<?xf32>
  %6 = "graph.erf"(%f) : (tensor<?xf32>) -> tensor<?xf32>
  return
}

// CHECK-LABEL: func.func @activations_with_attributes
func.func @activations_with_attributes(%x: tensor<1x16x?x?xf32>) {
  // CHECK: "graph.leaky_relu"(%{{.*}}) {alpha = 1.000000e-01 : f32} : (tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  %0 = "graph.leaky_relu"(%x) {alpha = 0.1 : f32} : (tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  // CHECK: "graph.leaky_relu"(%{{.*}}) : (tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  %1 = "graph.leaky_relu"(%x) : (tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  // CHECK: "graph.elu"(%{{.*}}) {alpha = 5.000000e-01 : f32}
  %2 = "graph.elu"(%x) {alpha = 0.5 : f32} : (tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  // CHECK: "graph.hard_sigmoid"(%{{.*}}) {alpha = 1.000000e+00 : f32, beta = 0.000000e+00 : f32}
  %3 = "graph.hard_sigmoid"(%x) {alpha = 1.0 : f32, beta = 0.0 : f32} : (tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  return
}

// CHECK-LABEL: func.func @clip
// CHECK-SAME: (%[[X:.*]]: tensor<4x?xf32>, %[[LO:.*]]: tensor<f32>, %[[HI:.*]]: tensor<1xf32>)
func.func @clip(%x: tensor<4x?xf32>, %lo: tensor<f32>, %hi: tensor<1xf32>) {
  // CHECK: "graph.clip"(%[[X]]) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x?xf32>) -> tensor<4x?xf32>
  %0 = "graph.clip"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x?xf32>) -> tensor<4x?xf32>
  // CHECK: "graph.clip"(%[[X]], %[[HI]]) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<4x?xf32>, tensor<1xf32>) -> tensor<4x?xf32>
  %1 = "graph.clip"(%x, %hi) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<4x?xf32>, tensor<1xf32>) -> tensor<4x?xf32>
  // CHECK: "graph.clip"(%[[X]], %[[LO]], %[[HI]]) {operandSegmentSizes = array<i32: 1, 1, 1>}
  %2 = "graph.clip"(%x, %lo, %hi) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<4x?xf32>, tensor<f32>, tensor<1xf32>) -> tensor<4x?xf32>
  return
}

// CHECK-LABEL: func.func @min_max
// CHECK-SAME: (%[[A:.*]]: tensor<3x1xi32>, %[[B:.*]]: tensor<4xi32>, %[[D:.*]]: tensor<?x4xf32>, %[[S:.*]]: tensor<f32>)
func.func @min_max(%a: tensor<3x1xi32>, %b: tensor<4xi32>, %d: tensor<?x4xf32>, %s: tensor<f32>) {
  // Operands of different shapes broadcast (IRDL would forbid it if variadic).
  // CHECK: "graph.min"(%[[A]], %[[B]]) : (tensor<3x1xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  %0 = "graph.min"(%a, %b) : (tensor<3x1xi32>, tensor<4xi32>) -> tensor<3x4xi32>
  // CHECK: "graph.min"(%[[A]], %[[A]]) : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi32>
  %1 = "graph.min"(%a, %a) : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi32>
  // ONNX Max(x, 0.0) with a scalar bound.
  // CHECK: "graph.max"(%[[D]], %[[S]]) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  %2 = "graph.max"(%d, %s) : (tensor<?x4xf32>, tensor<f32>) -> tensor<?x4xf32>
  // CHECK: "graph.max"(%[[S]], %[[D]]) : (tensor<f32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  %3 = "graph.max"(%s, %d) : (tensor<f32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return
}

// CHECK-LABEL: func.func @where
func.func @where(%c: tensor<2x1xi1>, %x: tensor<3xf32>, %y: tensor<f32>) {
  // CHECK: "graph.where"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  %0 = "graph.where"(%c, %x, %y) : (tensor<2x1xi1>, tensor<3xf32>, tensor<f32>) -> tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @comparisons
func.func @comparisons(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %p: tensor<?xi1>, %q: tensor<4x1xi1>) {
  // CHECK: "graph.equal"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %0 = "graph.equal"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: "graph.equal"(%{{.*}}, %{{.*}}) : (tensor<?xi1>, tensor<4x1xi1>) -> tensor<4x?xi1>
  %1 = "graph.equal"(%p, %q) : (tensor<?xi1>, tensor<4x1xi1>) -> tensor<4x?xi1>
  // CHECK: "graph.less"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %2 = "graph.less"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: "graph.greater"(%{{.*}}, %{{.*}}) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %3 = "graph.greater"(%b, %a) : (tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  return
}

// CHECK-LABEL: func.func @logical
func.func @logical(%p: tensor<?xi1>, %q: tensor<4x1xi1>) {
  // CHECK: "graph.not"(%{{.*}}) : (tensor<?xi1>) -> tensor<?xi1>
  %0 = "graph.not"(%p) : (tensor<?xi1>) -> tensor<?xi1>
  // CHECK: "graph.and"(%{{.*}}, %{{.*}}) : (tensor<?xi1>, tensor<4x1xi1>) -> tensor<4x?xi1>
  %1 = "graph.and"(%p, %q) : (tensor<?xi1>, tensor<4x1xi1>) -> tensor<4x?xi1>
  // CHECK: "graph.or"(%{{.*}}, %{{.*}}) : (tensor<4x1xi1>, tensor<?xi1>) -> tensor<4x?xi1>
  %2 = "graph.or"(%q, %p) : (tensor<4x1xi1>, tensor<?xi1>) -> tensor<4x?xi1>
  return
}

// CHECK-LABEL: func.func @cast
func.func @cast(%x: tensor<2x?xf32>, %b: tensor<3xi1>) {
  // CHECK: "graph.cast"(%{{.*}}) {to = f16} : (tensor<2x?xf32>) -> tensor<2x?xf16>
  %0 = "graph.cast"(%x) {to = f16} : (tensor<2x?xf32>) -> tensor<2x?xf16>
  // CHECK: "graph.cast"(%{{.*}}) {to = i64} : (tensor<3xi1>) -> tensor<3xi64>
  %1 = "graph.cast"(%b) {to = i64} : (tensor<3xi1>) -> tensor<3xi64>
  // CHECK: "graph.cast"(%{{.*}}) {round_mode = "nearest", saturate = 0 : i64, to = f8E4M3FN} : (tensor<2x?xf32>) -> tensor<2x?xf8E4M3FN>
  %2 = "graph.cast"(%x) {to = f8E4M3FN, saturate = 0 : i64, round_mode = "nearest"} : (tensor<2x?xf32>) -> tensor<2x?xf8E4M3FN>
  return
}

// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify))' | FileCheck %s

// The bitwise, trigonometric, activation, comparison, cast_like and dropout
// ops in generic form, with each op's ONNX element types, broadcasting and
// dynamic dims; graph-verify re-infers every result type.

// CHECK-LABEL: func.func @mod_bitwise
func.func @mod_bitwise(%i: tensor<2x3xi32>, %j: tensor<3xi32>, %f: tensor<?x4xf16>, %g: tensor<4xf16>, %u: tensor<4xui8>, %v: tensor<1xui8>, %p: tensor<2x1xi1>, %q: tensor<3xi1>) {
  // CHECK: "graph.mod"(%{{.*}}, %{{.*}}) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %0 = "graph.mod"(%i, %j) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: "graph.mod"(%{{.*}}, %{{.*}}) {fmod = 1 : i64} : (tensor<?x4xf16>, tensor<4xf16>) -> tensor<?x4xf16>
  %1 = "graph.mod"(%f, %g) {fmod = 1 : i64} : (tensor<?x4xf16>, tensor<4xf16>) -> tensor<?x4xf16>
  // CHECK: "graph.xor"(%{{.*}}, %{{.*}}) : (tensor<2x1xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  %2 = "graph.xor"(%p, %q) : (tensor<2x1xi1>, tensor<3xi1>) -> tensor<2x3xi1>
  // CHECK: "graph.bit_shift"(%{{.*}}, %{{.*}}) {direction = "LEFT"} : (tensor<4xui8>, tensor<1xui8>) -> tensor<4xui8>
  %3 = "graph.bit_shift"(%u, %v) {direction = "LEFT"} : (tensor<4xui8>, tensor<1xui8>) -> tensor<4xui8>
  // CHECK: "graph.bit_shift"(%{{.*}}, %{{.*}}) {direction = "RIGHT"}
  %4 = "graph.bit_shift"(%u, %u) {direction = "RIGHT"} : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  // CHECK: "graph.bitwise_and"(%{{.*}}, %{{.*}}) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  %5 = "graph.bitwise_and"(%i, %j) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
  // CHECK: "graph.bitwise_or"(%{{.*}}, %{{.*}}) : (tensor<4xui8>, tensor<1xui8>) -> tensor<4xui8>
  %6 = "graph.bitwise_or"(%u, %v) : (tensor<4xui8>, tensor<1xui8>) -> tensor<4xui8>
  // CHECK: "graph.bitwise_xor"(%{{.*}}, %{{.*}}) : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  %7 = "graph.bitwise_xor"(%j, %i) : (tensor<3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  // CHECK: "graph.bitwise_not"(%{{.*}}) : (tensor<4xui8>) -> tensor<4xui8>
  %8 = "graph.bitwise_not"(%u) : (tensor<4xui8>) -> tensor<4xui8>
  return
}

// CHECK-LABEL: func.func @float_unary_more
func.func @float_unary_more(%x: tensor<2x?xf32>, %h: tensor<3xf16>, %b: tensor<bf16>, %d: tensor<1xf64>) {
  // CHECK: "graph.sin"(%{{.*}}) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = "graph.sin"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.cos"(%{{.*}}) : (tensor<3xf16>) -> tensor<3xf16>
  %1 = "graph.cos"(%h) : (tensor<3xf16>) -> tensor<3xf16>
  // CHECK: "graph.tan"(%{{.*}}) : (tensor<bf16>) -> tensor<bf16>
  %2 = "graph.tan"(%b) : (tensor<bf16>) -> tensor<bf16>
  // CHECK: "graph.asin"(%{{.*}}) : (tensor<1xf64>) -> tensor<1xf64>
  %3 = "graph.asin"(%d) : (tensor<1xf64>) -> tensor<1xf64>
  // CHECK: "graph.acos"
  %4 = "graph.acos"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.atan"
  %5 = "graph.atan"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.sinh"
  %6 = "graph.sinh"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.cosh"
  %7 = "graph.cosh"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.asinh"
  %8 = "graph.asinh"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.acosh"
  %9 = "graph.acosh"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.atanh"(%{{.*}}) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %10 = "graph.atanh"(%x) : (tensor<2x?xf32>) -> tensor<2x?xf32>
  return
}

// CHECK-LABEL: func.func @sign_nan_inf
func.func @sign_nan_inf(%i: tensor<5xi8>, %u: tensor<5xui64>, %x: tensor<?x2xf32>, %e: tensor<4xf8E5M2>) {
  // CHECK: "graph.sign"(%{{.*}}) : (tensor<5xi8>) -> tensor<5xi8>
  %0 = "graph.sign"(%i) : (tensor<5xi8>) -> tensor<5xi8>
  // CHECK: "graph.sign"(%{{.*}}) : (tensor<5xui64>) -> tensor<5xui64>
  %1 = "graph.sign"(%u) : (tensor<5xui64>) -> tensor<5xui64>
  // CHECK: "graph.is_nan"(%{{.*}}) : (tensor<?x2xf32>) -> tensor<?x2xi1>
  %2 = "graph.is_nan"(%x) : (tensor<?x2xf32>) -> tensor<?x2xi1>
  // CHECK: "graph.is_nan"(%{{.*}}) : (tensor<4xf8E5M2>) -> tensor<4xi1>
  %3 = "graph.is_nan"(%e) : (tensor<4xf8E5M2>) -> tensor<4xi1>
  // CHECK: "graph.is_inf"(%{{.*}}) {detect_negative = 0 : i64} : (tensor<?x2xf32>) -> tensor<?x2xi1>
  %4 = "graph.is_inf"(%x) {detect_negative = 0 : i64} : (tensor<?x2xf32>) -> tensor<?x2xi1>
  return
}

// CHECK-LABEL: func.func @activations_more
func.func @activations_more(%x: tensor<1x8xf32>, %h: tensor<?xf16>, %i: tensor<3xi16>) {
  // CHECK: "graph.selu"(%{{.*}}) {alpha = 2.000000e+00 : f32, gamma = 3.000000e+00 : f32} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %0 = "graph.selu"(%x) {alpha = 2.0 : f32, gamma = 3.0 : f32} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: "graph.softplus"(%{{.*}}) : (tensor<?xf16>) -> tensor<?xf16>
  %1 = "graph.softplus"(%h) : (tensor<?xf16>) -> tensor<?xf16>
  // CHECK: "graph.softsign"
  %2 = "graph.softsign"(%x) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: "graph.thresholded_relu"(%{{.*}}) {alpha = 2.000000e+00 : f32}
  %3 = "graph.thresholded_relu"(%x) {alpha = 2.0 : f32} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: "graph.shrink"(%{{.*}}) {bias = 1.500000e+00 : f32, lambd = 1.500000e+00 : f32} : (tensor<3xi16>) -> tensor<3xi16>
  %4 = "graph.shrink"(%i) {bias = 1.5 : f32, lambd = 1.5 : f32} : (tensor<3xi16>) -> tensor<3xi16>
  // CHECK: "graph.celu"(%{{.*}}) {alpha = 2.000000e+00 : f32} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %5 = "graph.celu"(%x) {alpha = 2.0 : f32} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: "graph.hard_swish"
  %6 = "graph.hard_swish"(%h) : (tensor<?xf16>) -> tensor<?xf16>
  // CHECK: "graph.mish"
  %7 = "graph.mish"(%x) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: "graph.gelu"(%{{.*}}) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  %8 = "graph.gelu"(%x) : (tensor<1x8xf32>) -> tensor<1x8xf32>
  // CHECK: "graph.gelu"(%{{.*}}) {approximate = "tanh"}
  %9 = "graph.gelu"(%x) {approximate = "tanh"} : (tensor<1x8xf32>) -> tensor<1x8xf32>
  return
}

// CHECK-LABEL: func.func @prelu
func.func @prelu(%x: tensor<2x3x4xf32>, %s: tensor<4xf32>, %c: tensor<3x1xf32>, %d: tensor<?x?x4xf32>, %t: tensor<5xf32>, %i: tensor<2xi64>) {
  // CHECK: "graph.prelu"(%{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %0 = "graph.prelu"(%x, %s) : (tensor<2x3x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  // CHECK: "graph.prelu"(%{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  %1 = "graph.prelu"(%x, %c) : (tensor<2x3x4xf32>, tensor<3x1xf32>) -> tensor<2x3x4xf32>
  // A dynamic dim of x may hold slope's size: the result keeps x's type.
  // CHECK: "graph.prelu"(%{{.*}}, %{{.*}}) : (tensor<?x?x4xf32>, tensor<3x1xf32>) -> tensor<?x?x4xf32>
  %2 = "graph.prelu"(%d, %c) : (tensor<?x?x4xf32>, tensor<3x1xf32>) -> tensor<?x?x4xf32>
  // CHECK: "graph.prelu"(%{{.*}}, %{{.*}}) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  %3 = "graph.prelu"(%i, %i) : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  return
}

// CHECK-LABEL: func.func @compare_or_equal
func.func @compare_or_equal(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %u: tensor<?x1xui16>, %v: tensor<4xui16>) {
  // CHECK: "graph.less_or_equal"(%{{.*}}, %{{.*}}) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  %0 = "graph.less_or_equal"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xi1>
  // CHECK: "graph.greater_or_equal"(%{{.*}}, %{{.*}}) : (tensor<?x1xui16>, tensor<4xui16>) -> tensor<?x4xi1>
  %1 = "graph.greater_or_equal"(%u, %v) : (tensor<?x1xui16>, tensor<4xui16>) -> tensor<?x4xi1>
  return
}

// CHECK-LABEL: func.func @cast_like
func.func @cast_like(%x: tensor<2x?xf32>, %l: tensor<7xf16>, %b: tensor<i1>, %e: tensor<f8E4M3FN>) {
  // The target's shape does not matter, only its element type.
  // CHECK: "graph.cast_like"(%{{.*}}, %{{.*}}) : (tensor<2x?xf32>, tensor<7xf16>) -> tensor<2x?xf16>
  %0 = "graph.cast_like"(%x, %l) : (tensor<2x?xf32>, tensor<7xf16>) -> tensor<2x?xf16>
  // CHECK: "graph.cast_like"(%{{.*}}, %{{.*}}) : (tensor<i1>, tensor<2x?xf32>) -> tensor<f32>
  %1 = "graph.cast_like"(%b, %x) : (tensor<i1>, tensor<2x?xf32>) -> tensor<f32>
  // CHECK: "graph.cast_like"(%{{.*}}, %{{.*}}) {round_mode = "down", saturate = 0 : i64} : (tensor<2x?xf32>, tensor<f8E4M3FN>) -> tensor<2x?xf8E4M3FN>
  %2 = "graph.cast_like"(%x, %e) {saturate = 0 : i64, round_mode = "down"} : (tensor<2x?xf32>, tensor<f8E4M3FN>) -> tensor<2x?xf8E4M3FN>
  return
}

// CHECK-LABEL: func.func @dropout
func.func @dropout(%x: tensor<2x?xf32>, %r: tensor<f32>, %h: tensor<4xbf16>) {
  // CHECK: "graph.dropout"(%{{.*}}) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %0 = "graph.dropout"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  // CHECK: "graph.dropout"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 0>, seed = 3 : i64} : (tensor<2x?xf32>, tensor<f32>) -> (tensor<2x?xf32>, tensor<2x?xi1>)
  %1:2 = "graph.dropout"(%x, %r) {operandSegmentSizes = array<i32: 1, 1, 0>, seed = 3 : i64} : (tensor<2x?xf32>, tensor<f32>) -> (tensor<2x?xf32>, tensor<2x?xi1>)
  // A constant false training_mode is inference.
  %f = "graph.constant"() {value = dense<false> : tensor<i1>} : () -> tensor<i1>
  // CHECK: "graph.dropout"(%{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<4xbf16>, tensor<i1>) -> tensor<4xbf16>
  %2 = "graph.dropout"(%h, %f) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<4xbf16>, tensor<i1>) -> tensor<4xbf16>
  return
}

// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify))' | FileCheck %s

// Every quant op in generic form. graph-verify re-infers each result type and
// rejects a different element type or static dim, so the result types below
// are the rules under test: y's type from the zero point / output_dtype /
// scale, per-tensor, per-axis and blocked scales, matmul broadcasting, conv
// arithmetic, i32 accumulators; `?` marks a dim inference leaves unknown.

// CHECK-LABEL: func.func @quantize_linear
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x4x2xf32>, %[[S:.*]]: tensor<f32>, %[[Z:.*]]: tensor<i8>, %[[SA:.*]]: tensor<3xf32>, %[[ZA:.*]]: tensor<3xui8>, %[[SB:.*]]: tensor<1x3x2x2xf32>, %[[ZB:.*]]: tensor<1x3x2x2xi16>, %[[H:.*]]: tensor<?x5xf16>, %[[SH:.*]]: tensor<1xf16>, %[[I:.*]]: tensor<6xi32>)
func.func @quantize_linear(%x: tensor<1x3x4x2xf32>, %s: tensor<f32>, %z: tensor<i8>, %sa: tensor<3xf32>, %za: tensor<3xui8>, %sb: tensor<1x3x2x2xf32>, %zb: tensor<1x3x2x2xi16>, %h: tensor<?x5xf16>, %sh: tensor<1xf16>, %i: tensor<6xi32>) {
  // Per tensor; the zero point gives y's element type.
  // CHECK: "graph.quantize_linear"(%[[X]], %[[S]], %[[Z]]) : (tensor<1x3x4x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x4x2xi8>
  %0 = "graph.quantize_linear"(%x, %s, %z) : (tensor<1x3x4x2xf32>, tensor<f32>, tensor<i8>) -> tensor<1x3x4x2xi8>
  // No zero point: ui8.
  // CHECK: "graph.quantize_linear"(%[[X]], %[[S]]) : (tensor<1x3x4x2xf32>, tensor<f32>) -> tensor<1x3x4x2xui8>
  %1 = "graph.quantize_linear"(%x, %s) : (tensor<1x3x4x2xf32>, tensor<f32>) -> tensor<1x3x4x2xui8>
  // Per axis (default axis 1: 3 channels).
  // CHECK: "graph.quantize_linear"(%[[X]], %[[SA]], %[[ZA]]) : (tensor<1x3x4x2xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<1x3x4x2xui8>
  %2 = "graph.quantize_linear"(%x, %sa, %za) : (tensor<1x3x4x2xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<1x3x4x2xui8>
  // Blocked along axis -2 (4 values in blocks of 3: ceil(4 / 3) = 2 scales).
  // CHECK: "graph.quantize_linear"(%[[X]], %[[SB]], %[[ZB]]) {axis = -2 : i64, block_size = 3 : i64} : (tensor<1x3x4x2xf32>, tensor<1x3x2x2xf32>, tensor<1x3x2x2xi16>) -> tensor<1x3x4x2xi16>
  %3 = "graph.quantize_linear"(%x, %sb, %zb) {axis = -2 : i64, block_size = 3 : i64} : (tensor<1x3x4x2xf32>, tensor<1x3x2x2xf32>, tensor<1x3x2x2xi16>) -> tensor<1x3x4x2xi16>
  // output_dtype without a zero point; f16 x with an f16 scale of one element.
  // CHECK: "graph.quantize_linear"(%[[H]], %[[SH]]) {output_dtype = f8E4M3FN, saturate = 0 : i64} : (tensor<?x5xf16>, tensor<1xf16>) -> tensor<?x5xf8E4M3FN>
  %4 = "graph.quantize_linear"(%h, %sh) {output_dtype = f8E4M3FN, saturate = 0 : i64} : (tensor<?x5xf16>, tensor<1xf16>) -> tensor<?x5xf8E4M3FN>
  // An i32 x keeps a float scale.
  // CHECK: "graph.quantize_linear"(%[[I]], %[[S]], %[[Z]]) : (tensor<6xi32>, tensor<f32>, tensor<i8>) -> tensor<6xi8>
  %5 = "graph.quantize_linear"(%i, %s, %z) : (tensor<6xi32>, tensor<f32>, tensor<i8>) -> tensor<6xi8>
  return
}

// CHECK-LABEL: func.func @dequantize_linear
func.func @dequantize_linear(%q: tensor<1x3x4x2xui8>, %s: tensor<f32>, %z: tensor<ui8>, %sa: tensor<2xbf16>, %za: tensor<2xui8>, %i: tensor<5xi32>, %f8: tensor<4x?xf8E5M2>, %sb: tensor<4x1xf16>) {
  // CHECK: "graph.dequantize_linear"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<1x3x4x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x2xf32>
  %0 = "graph.dequantize_linear"(%q, %s, %z) : (tensor<1x3x4x2xui8>, tensor<f32>, tensor<ui8>) -> tensor<1x3x4x2xf32>
  // Per axis -1, y takes the scale's type (bf16).
  // CHECK: {axis = -1 : i64} : (tensor<1x3x4x2xui8>, tensor<2xbf16>, tensor<2xui8>) -> tensor<1x3x4x2xbf16>
  %1 = "graph.dequantize_linear"(%q, %sa, %za) {axis = -1 : i64} : (tensor<1x3x4x2xui8>, tensor<2xbf16>, tensor<2xui8>) -> tensor<1x3x4x2xbf16>
  // CHECK: (tensor<5xi32>, tensor<f32>) -> tensor<5xf32>
  %2 = "graph.dequantize_linear"(%i, %s) : (tensor<5xi32>, tensor<f32>) -> tensor<5xf32>
  // Blocked with a dynamic axis dim: the scale's size there is not checked.
  // CHECK: {block_size = 4 : i64} : (tensor<4x?xf8E5M2>, tensor<4x1xf16>) -> tensor<4x?xf16>
  %3 = "graph.dequantize_linear"(%f8, %sb) {block_size = 4 : i64} : (tensor<4x?xf8E5M2>, tensor<4x1xf16>) -> tensor<4x?xf16>
  return
}

// CHECK-LABEL: func.func @dynamic_quantize_linear
func.func @dynamic_quantize_linear(%x: tensor<3x?xf32>) {
  // CHECK: "graph.dynamic_quantize_linear"(%{{.*}}) : (tensor<3x?xf32>) -> (tensor<3x?xui8>, tensor<f32>, tensor<ui8>)
  %0:3 = "graph.dynamic_quantize_linear"(%x) : (tensor<3x?xf32>) -> (tensor<3x?xui8>, tensor<f32>, tensor<ui8>)
  return
}

// CHECK-LABEL: func.func @matmul_integer
func.func @matmul_integer(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %za: tensor<4xui8>, %zb: tensor<1x2xi8>, %a3: tensor<5x1x4x3xi8>, %b3: tensor<7x3x?xi8>, %z1: tensor<1xi8>, %v: tensor<3xi8>) {
  // Per-row a (M = 4 values), per-column b ([1, N]).
  // CHECK: "graph.matmul_integer"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<4xui8>, tensor<1x2xi8>) -> tensor<4x2xi32>
  %0 = "graph.matmul_integer"(%a, %b, %za, %zb) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<4xui8>, tensor<1x2xi8>) -> tensor<4x2xi32>
  // Batch dims broadcast; only b's zero point.
  // CHECK: {operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<5x1x4x3xi8>, tensor<7x3x?xi8>, tensor<1xi8>) -> tensor<5x7x4x?xi32>
  %1 = "graph.matmul_integer"(%a3, %b3, %z1) {operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<5x1x4x3xi8>, tensor<7x3x?xi8>, tensor<1xi8>) -> tensor<5x7x4x?xi32>
  // A 1-D b is promoted and its dim dropped.
  // CHECK: {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<4x3xui8>, tensor<3xi8>) -> tensor<4xi32>
  %2 = "graph.matmul_integer"(%a, %v) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<4x3xui8>, tensor<3xi8>) -> tensor<4xi32>
  return
}

// CHECK-LABEL: func.func @conv_integer
func.func @conv_integer(%x: tensor<1x4x5x5xui8>, %w: tensor<6x2x3x3xi8>, %zx: tensor<ui8>, %zw: tensor<6xi8>, %xd: tensor<?x4x?x7xui8>) {
  // CHECK: {group = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x5x5xui8>, tensor<6x2x3x3xi8>, tensor<ui8>, tensor<6xi8>) -> tensor<1x6x5x5xi32>
  %0 = "graph.conv_integer"(%x, %w, %zx, %zw) {group = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x4x5x5xui8>, tensor<6x2x3x3xi8>, tensor<ui8>, tensor<6xi8>) -> tensor<1x6x5x5xi32>
  // SAME_UPPER, stride 2: ceil(7 / 2) = 4; dynamic dims stay dynamic.
  // CHECK: {auto_pad = "SAME_UPPER", group = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, strides = array<i64: 2, 2>} : (tensor<?x4x?x7xui8>, tensor<6x2x3x3xi8>) -> tensor<?x6x?x4xi32>
  %1 = "graph.conv_integer"(%xd, %w) {auto_pad = "SAME_UPPER", group = 2 : i64, operandSegmentSizes = array<i32: 1, 1, 0, 0>, strides = array<i64: 2, 2>} : (tensor<?x4x?x7xui8>, tensor<6x2x3x3xi8>) -> tensor<?x6x?x4xi32>
  return
}

// CHECK-LABEL: func.func @qlinear_matmul
func.func @qlinear_matmul(%a: tensor<2x2x4xui8>, %as: tensor<1xf32>, %az: tensor<1xui8>, %b: tensor<2x4x3xi8>, %bs: tensor<2x1x3xf32>, %bz: tensor<2x1x3xi8>, %ys: tensor<f32>, %yz: tensor<i8>) {
  // Per-column b scales shaped [D, 1, N]; y takes y_zero_point's type.
  // CHECK: "graph.qlinear_matmul"({{.*}}) : (tensor<2x2x4xui8>, tensor<1xf32>, tensor<1xui8>, tensor<2x4x3xi8>, tensor<2x1x3xf32>, tensor<2x1x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x2x3xi8>
  %0 = "graph.qlinear_matmul"(%a, %as, %az, %b, %bs, %bz, %ys, %yz) : (tensor<2x2x4xui8>, tensor<1xf32>, tensor<1xui8>, tensor<2x4x3xi8>, tensor<2x1x3xf32>, tensor<2x1x3xi8>, tensor<f32>, tensor<i8>) -> tensor<2x2x3xi8>
  return
}

// CHECK-LABEL: func.func @qlinear_conv
func.func @qlinear_conv(%x: tensor<1x3x7x7xui8>, %s: tensor<f32>, %zx: tensor<ui8>, %w: tensor<8x3x3x3xi8>, %ws: tensor<8xf32>, %zw: tensor<8xi8>, %zy: tensor<i8>, %bias: tensor<8xi32>) {
  // CHECK: "graph.qlinear_conv"({{.*}}) {strides = array<i64: 2, 2>} : (tensor<1x3x7x7xui8>, tensor<f32>, tensor<ui8>, tensor<8x3x3x3xi8>, tensor<8xf32>, tensor<8xi8>, tensor<f32>, tensor<i8>, tensor<8xi32>) -> tensor<1x8x3x3xi8>
  %0 = "graph.qlinear_conv"(%x, %s, %zx, %w, %ws, %zw, %s, %zy, %bias) {strides = array<i64: 2, 2>} : (tensor<1x3x7x7xui8>, tensor<f32>, tensor<ui8>, tensor<8x3x3x3xi8>, tensor<8xf32>, tensor<8xi8>, tensor<f32>, tensor<i8>, tensor<8xi32>) -> tensor<1x8x3x3xi8>
  // Without bias; y's zero point is ui8 here.
  // CHECK: "graph.qlinear_conv"({{.*}}) : (tensor<1x3x7x7xui8>, tensor<f32>, tensor<ui8>, tensor<8x3x3x3xi8>, tensor<8xf32>, tensor<8xi8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x5x5xui8>
  %1 = "graph.qlinear_conv"(%x, %s, %zx, %w, %ws, %zw, %s, %zx) : (tensor<1x3x7x7xui8>, tensor<f32>, tensor<ui8>, tensor<8x3x3x3xi8>, tensor<8xf32>, tensor<8xi8>, tensor<f32>, tensor<ui8>) -> tensor<1x8x5x5xui8>
  return
}

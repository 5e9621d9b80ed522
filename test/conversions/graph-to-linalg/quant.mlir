// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' \
// RUN:   | FileCheck %s

// Per-axis quantization to ui8: the scale and zero point are read along the
// axis, the value rounded half to even and saturated to [0, 255]; the ui8
// zero point and result go through the signless view.
// CHECK: #[[AXIS:.*]] = affine_map<(d0, d1, d2) -> (d1)>
// CHECK-LABEL: func.func @quantize_axis
// CHECK: linalg.generic {indexing_maps = [#{{.*}}, #[[AXIS]], #[[AXIS]], #{{.*}}]
// CHECK: ^bb0(%[[X:.*]]: f32, %[[S:.*]]: f32, %[[Z:.*]]: ui8, %{{.*}}: ui8):
// CHECK: %[[D:.*]] = arith.divf %[[X]], %[[S]] : f32
// CHECK: %[[ZS:.*]] = builtin.unrealized_conversion_cast %[[Z]] : ui8 to i8
// CHECK: %[[ZF:.*]] = arith.uitofp %[[ZS]] : i8 to f32
// CHECK: %[[R:.*]] = math.roundeven %[[D]] : f32
// CHECK: %[[A:.*]] = arith.addf %[[R]], %[[ZF]] : f32
// CHECK: %[[LO:.*]] = arith.maxnumf %[[A]]
// CHECK: %[[HI:.*]] = arith.minnumf %[[LO]]
// CHECK: %[[I:.*]] = arith.fptosi %[[HI]] : f32 to i32
// CHECK: %[[T:.*]] = arith.trunci %[[I]] : i32 to i8
// CHECK: %[[U:.*]] = builtin.unrealized_conversion_cast %[[T]] : i8 to ui8
// CHECK: linalg.yield %[[U]] : ui8
func.func @quantize_axis(%x: tensor<1x3x2xf32>, %s: tensor<3xf32>, %z: tensor<3xui8>) -> tensor<1x3x2xui8> {
  %0 = "graph.quantize_linear"(%x, %s, %z) {axis = 1 : i64} : (tensor<1x3x2xf32>, tensor<3xf32>, tensor<3xui8>) -> tensor<1x3x2xui8>
  return %0 : tensor<1x3x2xui8>
}

// -----

// CHECK-LABEL: func.func @dequantize
// CHECK: ^bb0(%[[X:.*]]: i8, %[[S:.*]]: f32, %[[Z:.*]]: i8, %{{.*}}: f32):
// CHECK: %[[XE:.*]] = arith.extsi %[[X]] : i8 to i64
// CHECK: %[[ZE:.*]] = arith.extsi %[[Z]] : i8 to i64
// CHECK: %[[D:.*]] = arith.subi %[[XE]], %[[ZE]] : i64
// CHECK: %[[F:.*]] = arith.sitofp %[[D]] : i64 to f32
// CHECK: %[[Y:.*]] = arith.mulf %[[F]], %[[S]] : f32
// CHECK: linalg.yield %[[Y]] : f32
func.func @dequantize(%x: tensor<4xi8>, %s: tensor<f32>, %z: tensor<i8>) -> tensor<4xf32> {
  %0 = "graph.dequantize_linear"(%x, %s, %z) : (tensor<4xi8>, tensor<f32>, tensor<i8>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// The range (with 0) is one reduction generic; scale and zero point are
// scalars; the results are rank-0 tensors.
// CHECK-LABEL: func.func @dynamic_quantize
// CHECK: linalg.generic {{.*}}iterator_types = ["reduction"]
// CHECK: arith.minimumf
// CHECK: arith.maximumf
// CHECK: %[[SCALE:.*]] = arith.divf
// CHECK: linalg.generic
// CHECK: tensor.from_elements %[[SCALE]] : tensor<f32>
// CHECK: tensor.from_elements %{{.*}} : tensor<ui8>
func.func @dynamic_quantize(%x: tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>) {
  %0:3 = "graph.dynamic_quantize_linear"(%x) : (tensor<6xf32>) -> (tensor<6xui8>, tensor<f32>, tensor<ui8>)
  return %0#0, %0#1, %0#2 : tensor<6xui8>, tensor<f32>, tensor<ui8>
}

// -----

// Each operand is extended with its own signedness.
// CHECK-LABEL: func.func @matmul_integer
// CHECK: %[[INIT:.*]] = linalg.fill
// CHECK: linalg.generic {{.*}}iterator_types = ["parallel", "parallel", "reduction"]
// CHECK-SAME: outs(%[[INIT]] : tensor<4x2xi32>)
// CHECK: ^bb0(%[[A:.*]]: ui8, %[[B:.*]]: i8, %[[ZA:.*]]: ui8, %[[ACC:.*]]: i32):
// CHECK: %[[AS:.*]] = builtin.unrealized_conversion_cast %[[A]] : ui8 to i8
// CHECK: %[[AE:.*]] = arith.extui %[[AS]] : i8 to i32
// CHECK: %[[BE:.*]] = arith.extsi %[[B]] : i8 to i32
// CHECK: %[[AD:.*]] = arith.subi %[[AE]], %{{.*}} : i32
// CHECK: %[[P:.*]] = arith.muli %[[AD]], %[[BE]] : i32
// CHECK: %[[S:.*]] = arith.addi %[[ACC]], %[[P]] : i32
// CHECK: linalg.yield %[[S]] : i32
func.func @matmul_integer(%a: tensor<4x3xui8>, %b: tensor<3x2xi8>, %za: tensor<ui8>) -> tensor<4x2xi32> {
  %0 = "graph.matmul_integer"(%a, %b, %za) {operandSegmentSizes = array<i32: 1, 1, 1, 0>} : (tensor<4x3xui8>, tensor<3x2xi8>, tensor<ui8>) -> tensor<4x2xi32>
  return %0 : tensor<4x2xi32>
}

// -----

// The i32 accumulator is requantized with a_scale * b_scale / y_scale.
// CHECK-LABEL: func.func @qlinear_matmul
// CHECK: %[[ACC:.*]] = linalg.generic {{.*}}"reduction"
// CHECK: linalg.generic
// CHECK-SAME: ins(%[[ACC]],
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK: math.roundeven
// CHECK: linalg.yield %{{.*}} : ui8
func.func @qlinear_matmul(%a: tensor<2x4xui8>, %sa: tensor<1xf32>, %za: tensor<1xui8>, %b: tensor<4x3xui8>, %sb: tensor<1xf32>, %zb: tensor<1xui8>, %sy: tensor<1xf32>, %zy: tensor<1xui8>) -> tensor<2x3xui8> {
  %0 = "graph.qlinear_matmul"(%a, %sa, %za, %b, %sb, %zb, %sy, %zy) : (tensor<2x4xui8>, tensor<1xf32>, tensor<1xui8>, tensor<4x3xui8>, tensor<1xf32>, tensor<1xui8>, tensor<1xf32>, tensor<1xui8>) -> tensor<2x3xui8>
  return %0 : tensor<2x3xui8>
}

// -----

// x's zero point is subtracted before padding with 0 (ONNX Runtime pads
// with the zero point); the conv is a generic over (n, g, m, oh, ow, c, kh,
// kw) with the strided window in x's map.
// CHECK-DAG: #[[XMAP:.*]] = affine_map<(d0, d1, d2, d3, d4, d5, d6, d7) -> (d0, d1, d5, d3 * 2 + d6, d4 * 2 + d7)>
// CHECK-LABEL: func.func @conv_integer
// CHECK: arith.subi
// CHECK: %[[PAD:.*]] = tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1] [1, 1, 5, 5] [1, 1, 1, 1]
// CHECK: linalg.generic {indexing_maps = [#[[XMAP]], {{.*}}iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "reduction", "reduction", "reduction"]
// CHECK: arith.muli
func.func @conv_integer(%x: tensor<1x1x5x5xui8>, %w: tensor<1x1x3x3xui8>, %zx: tensor<ui8>) -> tensor<1x1x3x3xi32> {
  %0 = "graph.conv_integer"(%x, %w, %zx) {operandSegmentSizes = array<i32: 1, 1, 1, 0>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xui8>, tensor<1x1x3x3xui8>, tensor<ui8>) -> tensor<1x1x3x3xi32>
  return %0 : tensor<1x1x3x3xi32>
}

// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' \
// RUN:   | FileCheck %s

// Unsigned integers are computed as signless ones: the body reinterprets
// the operands and the result, and picks the unsigned division.
// CHECK-LABEL: func.func @div_unsigned
// CHECK: linalg.generic
// CHECK: ^bb0(%[[A:.*]]: ui8, %[[B:.*]]: ui8, %{{.*}}: ui8):
// CHECK: %[[SA:.*]] = builtin.unrealized_conversion_cast %[[A]] : ui8 to i8
// CHECK: %[[SB:.*]] = builtin.unrealized_conversion_cast %[[B]] : ui8 to i8
// CHECK: %[[D:.*]] = arith.select %{{.*}}, %{{.*}}, %[[SB]] : i8
// CHECK: %[[Q:.*]] = arith.divui %[[SA]], %[[D]] : i8
// CHECK: %[[R:.*]] = arith.select %{{.*}}, %{{.*}}, %[[Q]] : i8
// CHECK: %[[U:.*]] = builtin.unrealized_conversion_cast %[[R]] : i8 to ui8
// CHECK: linalg.yield %[[U]] : ui8
func.func @div_unsigned(%a: tensor<4xui8>, %b: tensor<4xui8>) -> tensor<4xui8> {
  %0 = "graph.div"(%a, %b) : (tensor<4xui8>, tensor<4xui8>) -> tensor<4xui8>
  return %0 : tensor<4xui8>
}

// -----

// f16 is computed in f32 and rounded once.
// CHECK-LABEL: func.func @max_f16
// CHECK: ^bb0(%[[A:.*]]: f16, %[[B:.*]]: f16, %{{.*}}: f16):
// CHECK: %[[EA:.*]] = arith.extf %[[A]] : f16 to f32
// CHECK: %[[EB:.*]] = arith.extf %[[B]] : f16 to f32
// CHECK: %[[M:.*]] = arith.maximumf %[[EA]], %[[EB]] : f32
// CHECK: %[[T:.*]] = arith.truncf %[[M]] : f32 to f16
// CHECK: linalg.yield %[[T]] : f16
func.func @max_f16(%a: tensor<4xf16>, %b: tensor<4xf16>) -> tensor<4xf16> {
  %0 = "graph.max"(%a, %b) : (tensor<4xf16>, tensor<4xf16>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}

// -----

// Integer mod with the sign of the divisor: remsi plus a fix-up.
// CHECK-LABEL: func.func @mod_int
// CHECK: %[[R:.*]] = arith.remsi
// CHECK: %[[S:.*]] = arith.addi %[[R]]
// CHECK: arith.select %{{.*}}, %[[S]], %[[R]] : i32
func.func @mod_int(%a: tensor<6xi32>, %b: tensor<6xi32>) -> tensor<6xi32> {
  %0 = "graph.mod"(%a, %b) : (tensor<6xi32>, tensor<6xi32>) -> tensor<6xi32>
  return %0 : tensor<6xi32>
}

// -----

// where broadcasts all three operands.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[COL:.*]] = affine_map<(d0, d1) -> (d0, 0)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @where_broadcast
// CHECK: linalg.generic {indexing_maps = [#[[COL]], #[[ROW]], #[[ID]], #[[ID]]]
// CHECK: arith.select
func.func @where_broadcast(%c: tensor<2x1xi1>, %x: tensor<3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.where"(%c, %x, %y) : (tensor<2x1xi1>, tensor<3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Clip with only a max bound, given as a one-element 1-D tensor: read as a
// scalar; NaN-propagating minimum.
// CHECK-DAG: #[[SCALAR:.*]] = affine_map<(d0) -> ()>
// CHECK-LABEL: func.func @clip_max_only
// CHECK: %[[S:.*]] = tensor.collapse_shape %arg1 []
// CHECK: linalg.generic {{.*}}ins(%arg0, %[[S]] : tensor<5xf32>, tensor<f32>)
// CHECK-NOT: arith.maximumf
// CHECK: arith.minimumf
func.func @clip_max_only(%x: tensor<5xf32>, %hi: tensor<1xf32>) -> tensor<5xf32> {
  %0 = "graph.clip"(%x, %hi) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<5xf32>, tensor<1xf32>) -> tensor<5xf32>
  return %0 : tensor<5xf32>
}

// -----

// Cast from unsigned to float uses uitofp; round is half to even.
// CHECK-LABEL: func.func @cast_and_round
// CHECK: arith.uitofp %{{.*}} : i16 to f32
// CHECK: math.roundeven
func.func @cast_and_round(%x: tensor<3xui16>) -> tensor<3xf32> {
  %0 = "graph.cast"(%x) {to = f32} : (tensor<3xui16>) -> tensor<3xf32>
  %1 = "graph.round"(%0) : (tensor<3xf32>) -> tensor<3xf32>
  return %1 : tensor<3xf32>
}

// -----

// Dropout at inference: the input itself and a mask of ones.
// CHECK-LABEL: func.func @dropout_mask
// CHECK: %[[T:.*]] = arith.constant true
// CHECK: %[[M:.*]] = linalg.fill ins(%[[T]] : i1)
// CHECK: return %arg0, %[[M]]
func.func @dropout_mask(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xi1>) {
  %0, %1 = "graph.dropout"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xi1>)
  return %0, %1 : tensor<2x2xf32>, tensor<2x2xi1>
}

// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' \
// RUN:   | FileCheck %s

// Broadcasting elementwise op: the smaller operand is read through a
// trailing-aligned map.
// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[ROW:.*]] = affine_map<(d0, d1) -> (d1)>
// CHECK-LABEL: func.func @broadcast_add
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf32>
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ROW]], #[[ID]]]
// CHECK-SAME: ins(%arg0, %arg1 : tensor<2x3xf32>, tensor<3xf32>) outs(%[[E]]
// CHECK: arith.addf
// CHECK-NOT: graph.
func.func @broadcast_add(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// -----

// Constants become a flat 1-D arith.constant and a reshape; a shape
// computation folds to a constant and the reshape's dynamic result type is
// refined, all the way to the function's result type.
// CHECK-LABEL: func.func @constant_and_shape
// CHECK-SAME: -> tensor<6xi64>
// CHECK: %[[C:.*]] = arith.constant dense<[1, 2, 3, 4, 5, 6]> : tensor<6xi64>
// CHECK: %[[E:.*]] = tensor.expand_shape %[[C]] {{\[\[}}0, 1]] output_shape [2, 3]
// CHECK: %[[R:.*]] = tensor.collapse_shape %[[E]] {{\[\[}}0, 1]]
// CHECK-NOT: graph.
// CHECK: return %[[R]] : tensor<6xi64>
func.func @constant_and_shape() -> tensor<?xi64> {
  %c = "graph.constant"() {value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi64>} : () -> tensor<2x3xi64>
  %s = "graph.constant"() {value = dense<[6]> : tensor<1xi64>} : () -> tensor<1xi64>
  %r = "graph.reshape"(%c, %s) : (tensor<2x3xi64>, tensor<1xi64>) -> tensor<?xi64>
  return %r : tensor<?xi64>
}

func.func @resize_scales(%x: tensor<1x3x4x4xf32>, %x5: tensor<1x1x5x5xi8>, %s: tensor<4xf32>) {
  %scales = "graph.constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  %0 = "graph.resize"(%x, %scales) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  %half = "graph.constant"() {value = dense<[1.0, 1.0, 0.5, 0.5]> : tensor<4xf32>} : () -> tensor<4xf32>
  %1 = "graph.resize"(%x5, %half) {mode = "linear", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x1x5x5xi8>, tensor<4xf32>) -> tensor<1x1x2x2xi8>
  %s2 = "graph.constant"() {value = dense<[2.0, 0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.resize"(%x, %s2) {axes = array<i64: 2, -1>, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<2xf32>) -> tensor<1x3x8x2xf32>
  %3 = "graph.resize"(%x, %s) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return
}

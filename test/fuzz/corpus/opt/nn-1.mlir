func.func @conv_group_1d_3d(%x: tensor<1x4x5x5xf16>, %w: tensor<8x2x3x3xf16>, %x1: tensor<2x3x10xf64>, %w1: tensor<5x3x3xf64>, %x3: tensor<1x2x4x4x4xbf16>, %w3: tensor<2x2x2x2x2xbf16>) {
  %0 = "graph.conv"(%x, %w) {group = 2 : i64} : (tensor<1x4x5x5xf16>, tensor<8x2x3x3xf16>) -> tensor<1x8x3x3xf16>
  %wd = "graph.constant"() {value = dense<1.0> : tensor<8x1x3x3xf16>} : () -> tensor<8x1x3x3xf16>
  %1 = "graph.conv"(%x, %wd) {group = 4 : i64} : (tensor<1x4x5x5xf16>, tensor<8x1x3x3xf16>) -> tensor<1x8x3x3xf16>
  %2 = "graph.conv"(%x1, %w1) {dilations = array<i64: 2>} : (tensor<2x3x10xf64>, tensor<5x3x3xf64>) -> tensor<2x5x6xf64>
  %3 = "graph.conv"(%x3, %w3) : (tensor<1x2x4x4x4xbf16>, tensor<2x2x2x2x2xbf16>) -> tensor<1x2x3x3x3xbf16>
  return
}
func.func @conv_dynamic(%x: tensor<?x3x?x8xf32>, %w: tensor<4x3x3x3xf32>, %wd: tensor<?x?x?x3xf32>) {
  %0 = "graph.conv"(%x, %w) : (tensor<?x3x?x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x6xf32>
  %1 = "graph.conv"(%x, %wd) : (tensor<?x3x?x8xf32>, tensor<?x?x?x3xf32>) -> tensor<?x?x?x6xf32>
  %2 = "graph.conv"(%x, %wd) {kernel_shape = array<i64: 3, 3>} : (tensor<?x3x?x8xf32>, tensor<?x?x?x3xf32>) -> tensor<?x?x?x6xf32>
  return
}

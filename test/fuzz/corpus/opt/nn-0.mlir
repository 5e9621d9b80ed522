func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  %0 = "graph.conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %1 = "graph.conv"(%x, %w, %b) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %2 = "graph.conv"(%x, %w) {dilations = array<i64: 2, 2>, pads = array<i64: 0, 1, 2, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x5xf32>
  return
}
func.func @conv_auto_pad(%x: tensor<1x3x7x7xf32>, %w: tensor<4x3x3x3xf32>) {
  %0 = "graph.conv"(%x, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  %1 = "graph.conv"(%x, %w) {auto_pad = "SAME_LOWER", pads = array<i64: 0, 0, 0, 0>} : (tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x7x7xf32>
  %2 = "graph.conv"(%x, %w) {auto_pad = "VALID", strides = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
  %3 = "graph.conv"(%x, %w) {auto_pad = "NOTSET"} : (tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32>
  return
}

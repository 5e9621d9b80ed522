func.func @negative_conv_strides_zero(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 1, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}
func.func @negative_conv_pads_negative(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, -1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}
func.func @negative_conv_pads_with_auto_pad(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %0 = "graph.conv"(%x, %w) {auto_pad = "VALID", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}
func.func @negative_conv_transpose_channels(%x: tensor<1x4x3x3xf32>, %w: tensor<3x2x3x3xf32>) {
  %0 = "graph.conv_transpose"(%x, %w) : (tensor<1x4x3x3xf32>, tensor<3x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return
}
func.func @negative_conv_transpose_output_padding(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>) {
  %0 = "graph.conv_transpose"(%x, %w) {output_padding = array<i64: 0, 2>, strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return
}
func.func @negative_conv_transpose_same_overflow(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>) {
  %0 = "graph.conv_transpose"(%x, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 4611686018427387904, 1>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  return
}

func.func @conv_transpose(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<2xf32>, %wg: tensor<4x1x3x3xf32>) {
  %0 = "graph.conv_transpose"(%x, %w, %b) {strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x7x7xf32>
  %1 = "graph.conv_transpose"(%x, %wg) {group = 2 : i64, output_padding = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x1x3x3xf32>) -> tensor<1x2x6x6xf32>
  %2 = "graph.conv_transpose"(%x, %w) {output_shape = array<i64: 10, 9>, strides = array<i64: 3, 3>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x9xf32>
  %3 = "graph.conv_transpose"(%x, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  %4 = "graph.conv_transpose"(%x, %w) {dilations = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}
func.func @conv_transpose_dynamic(%x: tensor<?x4x?x3xf32>, %w: tensor<4x?x3x3xf32>) {
  %0 = "graph.conv_transpose"(%x, %w) : (tensor<?x4x?x3xf32>, tensor<4x?x3x3xf32>) -> tensor<?x?x?x5xf32>
  return
}

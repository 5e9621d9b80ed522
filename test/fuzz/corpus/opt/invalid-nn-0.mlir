func.func @negative_max_pool_without_kernel_shape(%x: tensor<1x3x8x8xf32>) {
  %0 = "graph.max_pool"(%x) : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  return
}
func.func @negative_resize_without_segment_sizes(%x: tensor<4xf32>, %s: tensor<1xf32>) {
  %0 = "graph.resize"(%x, %s) : (tensor<4xf32>, tensor<1xf32>) -> tensor<8xf32>
  return
}
func.func @negative_conv_strides_not_i64_array(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>) {
  %0 = "graph.conv"(%x, %w) {strides = array<i32: 1, 1>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}
func.func @negative_conv_integer(%x: tensor<1x3x8x8xi32>, %w: tensor<4x3x3x3xi32>) {
  %0 = "graph.conv"(%x, %w) : (tensor<1x3x8x8xi32>, tensor<4x3x3x3xi32>) -> tensor<1x4x6x6xi32>
  return
}
func.func @negative_conv_weight_rank(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3xf32>) {
  %0 = "graph.conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3xf32>) -> tensor<1x4x6x6xf32>
  return
}
func.func @negative_conv_output_channels_vs_group(%x: tensor<1x4x8x8xf32>, %w: tensor<3x2x3x3xf32>) {
  %0 = "graph.conv"(%x, %w) {group = 2 : i64} : (tensor<1x4x8x8xf32>, tensor<3x2x3x3xf32>) -> tensor<1x3x6x6xf32>
  return
}
func.func @negative_conv_bias_element_type(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf16>) {
  %0 = "graph.conv"(%x, %w, %b) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf16>) -> tensor<1x4x6x6xf32>
  return
}

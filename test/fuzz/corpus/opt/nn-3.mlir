func.func @max_pool(%x: tensor<1x3x8x8xf32>, %x7: tensor<1x1x7x7xf32>, %x5: tensor<1x1x5x5xf32>, %q: tensor<2x4x6xi8>) {
  %0:2 = "graph.max_pool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>)
  %1 = "graph.max_pool"(%x7) {ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>) -> tensor<1x1x4x4xf32>
  %2 = "graph.max_pool"(%x7) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>) -> tensor<1x1x3x3xf32>
  %3 = "graph.max_pool"(%x5) {ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, storage_order = 1 : i64, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  %4 = "graph.max_pool"(%x) {dilations = array<i64: 2, 2>, kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x6x6xf32>
  %5 = "graph.max_pool"(%x5) {auto_pad = "SAME_LOWER", kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  %6:2 = "graph.max_pool"(%q) {kernel_shape = array<i64: 3>} : (tensor<2x4x6xi8>) -> (tensor<2x4x4xi8>, tensor<2x4x4xi64>)
  return
}

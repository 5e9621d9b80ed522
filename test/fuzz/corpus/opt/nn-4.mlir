func.func @average_pool(%x: tensor<1x3x8x8xf32>, %x1: tensor<2x3x10xf16>, %xd: tensor<?x3x?x8xf32>) {
  %0 = "graph.average_pool"(%x) {count_include_pad = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %1 = "graph.average_pool"(%x1) {kernel_shape = array<i64: 3>, strides = array<i64: 3>} : (tensor<2x3x10xf16>) -> tensor<2x3x3xf16>
  %2 = "graph.average_pool"(%x1) {ceil_mode = 1 : i64, kernel_shape = array<i64: 3>, strides = array<i64: 2>} : (tensor<2x3x10xf16>) -> tensor<2x3x5xf16>
  %3 = "graph.average_pool"(%xd) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x3x?x8xf32>) -> tensor<?x3x?x4xf32>
  return
}
func.func @global_pool(%x: tensor<2x3x5x7xf32>, %x3: tensor<1x2x3x4x5xf64>, %xd: tensor<?x?x?x?xf32>) {
  %0 = "graph.global_average_pool"(%x) : (tensor<2x3x5x7xf32>) -> tensor<2x3x1x1xf32>
  %1 = "graph.global_max_pool"(%x3) : (tensor<1x2x3x4x5xf64>) -> tensor<1x2x1x1x1xf64>
  %2 = "graph.global_average_pool"(%xd) : (tensor<?x?x?x?xf32>) -> tensor<?x?x1x1xf32>
  return
}
func.func @batch_norm(%x: tensor<2x3x4x4xf16>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf16>, %v: tensor<3xf16>, %x1: tensor<5xf32>, %c1: tensor<1xf32>) {
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) {epsilon = 1.0e-3 : f32, momentum = 0.9 : f32, training_mode = 0 : i64} : (tensor<2x3x4x4xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf16>) -> tensor<2x3x4x4xf16>
  %1 = "graph.batch_norm"(%x1, %c1, %c1, %c1, %c1) : (tensor<5xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<5xf32>
  return
}

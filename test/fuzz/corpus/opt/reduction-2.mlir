func.func @arg_reduce(%x: tensor<2x3x?xi32>, %f: tensor<5xf32>) {
  %0 = "graph.argmax"(%x) : (tensor<2x3x?xi32>) -> tensor<1x3x?xi64>
  %1 = "graph.argmax"(%x) {axis = -1 : i64, keepdims = 0 : i64, select_last_index = 1 : i64} : (tensor<2x3x?xi32>) -> tensor<2x3xi64>
  %2 = "graph.argmin"(%x) {axis = 1 : i64, keepdims = 0 : i64} : (tensor<2x3x?xi32>) -> tensor<2x?xi64>
  %3 = "graph.argmin"(%f) {keepdims = 0 : i64} : (tensor<5xf32>) -> tensor<i64>
  return
}

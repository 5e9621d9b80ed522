func.func @reduce_constant_axes(%x: tensor<2x3x4xf32>, %i: tensor<2x3x4xi32>) {
  %axes = "graph.constant"() {value = dense<[-1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %empty = "graph.constant"() {value = dense<> : tensor<0xi64>} : () -> tensor<0xi64>
  %0 = "graph.reduce_sum"(%x, %axes) : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<1x3x1xf32>
  %1 = "graph.reduce_mean"(%x, %axes) {keepdims = 0 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<3xf32>
  %2 = "graph.reduce_prod"(%i, %empty) {noop_with_empty_axes = 1 : i64} : (tensor<2x3x4xi32>, tensor<0xi64>) -> tensor<2x3x4xi32>
  %3 = "graph.reduce_l2"(%x, %empty) : (tensor<2x3x4xf32>, tensor<0xi64>) -> tensor<1x1x1xf32>
  return
}
func.func @reduce_no_axes(%x: tensor<2x?xf32>, %p: tensor<3x2xi1>, %q: tensor<4xi8>) {
  %0 = "graph.reduce_sum"(%x) : (tensor<2x?xf32>) -> tensor<1x1xf32>
  %1 = "graph.reduce_max"(%x) {keepdims = 0 : i64} : (tensor<2x?xf32>) -> tensor<f32>
  %2 = "graph.reduce_min"(%x) {noop_with_empty_axes = 1 : i64} : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %3 = "graph.reduce_max"(%p) {keepdims = 0 : i64} : (tensor<3x2xi1>) -> tensor<i1>
  %4 = "graph.reduce_min"(%q) : (tensor<4xi8>) -> tensor<1xi8>
  return
}
func.func @reduce_dynamic_axes(%x: tensor<2x1x4xf32>, %a: tensor<2xi64>, %u: tensor<?xi64>) {
  %0 = "graph.reduce_sum"(%x, %a) : (tensor<2x1x4xf32>, tensor<2xi64>) -> tensor<?x1x?xf32>
  %1 = "graph.reduce_mean"(%x, %a) {keepdims = 0 : i64} : (tensor<2x1x4xf32>, tensor<2xi64>) -> tensor<?xf32>
  %2 = "graph.reduce_max"(%x, %u) {noop_with_empty_axes = 1 : i64} : (tensor<2x1x4xf32>, tensor<?xi64>) -> tensor<?x1x?xf32>
  return
}

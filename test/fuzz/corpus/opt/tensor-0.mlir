func.func @constant() -> tensor<3xi64> {
  %0 = "graph.constant"() {value = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
  return %0 : tensor<3xi64>
}
func.func @identity(%x: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = "graph.identity"(%x) : (tensor<?x3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @reshape(%x: tensor<2x3x4xf32>, %shape: tensor<2xi64>) -> (tensor<2x12x1xf32>, tensor<?x?xf32>) {
  %s = "graph.constant"() {value = dense<[0, -1, 1]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "graph.reshape"(%x, %s) : (tensor<2x3x4xf32>, tensor<3xi64>) -> tensor<2x12x1xf32>
  %1 = "graph.reshape"(%x, %shape) {allowzero = 1 : i64} : (tensor<2x3x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  return %0, %1 : tensor<2x12x1xf32>, tensor<?x?xf32>
}
func.func @flatten(%x: tensor<2x3x4xf32>, %y: tensor<?x3x4xf32>) -> (tensor<6x4xf32>, tensor<?x12xf32>) {
  %0 = "graph.flatten"(%x) {axis = -1 : i64} : (tensor<2x3x4xf32>) -> tensor<6x4xf32>
  %1 = "graph.flatten"(%y) : (tensor<?x3x4xf32>) -> tensor<?x12xf32>
  return %0, %1 : tensor<6x4xf32>, tensor<?x12xf32>
}
func.func @transpose(%x: tensor<2x3x4xf32>) -> (tensor<4x3x2xf32>, tensor<2x4x3xf32>) {
  %0 = "graph.transpose"(%x) : (tensor<2x3x4xf32>) -> tensor<4x3x2xf32>
  %1 = "graph.transpose"(%x) {perm = array<i64: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  return %0, %1 : tensor<4x3x2xf32>, tensor<2x4x3xf32>
}
func.func @concat(%a: tensor<2x3xf32>, %b: tensor<2x4xf32>, %c: tensor<?x4xf32>, %d: tensor<2x?xf32>) -> (tensor<?x4xf32>, tensor<2x?xf32>, tensor<2x10xf32>) {
  %0 = "graph.concat"(%a, %b) {axis = -1 : i64} : (tensor<2x3xf32>, tensor<2x4xf32>) -> tensor<2x7xf32>
  %1 = "graph.concat"(%c, %d) {axis = 0 : i64} : (tensor<?x4xf32>, tensor<2x?xf32>) -> tensor<?x4xf32>
  %2 = "graph.concat"(%c, %d) {axis = 1 : i64} : (tensor<?x4xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  %3 = "graph.concat"(%0, %a) {axis = 1 : i64} : (tensor<2x7xf32>, tensor<2x3xf32>) -> tensor<2x10xf32>
  return %1, %2, %3 : tensor<?x4xf32>, tensor<2x?xf32>, tensor<2x10xf32>
}

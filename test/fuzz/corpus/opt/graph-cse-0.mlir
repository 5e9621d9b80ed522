func.func @simple(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "graph.mul"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}
func.func @chain(%a: tensor<2xf32>) -> tensor<4xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.exp"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %2 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %3 = "graph.exp"(%2) : (tensor<2xf32>) -> tensor<2xf32>
  %4 = "graph.concat"(%1, %3) {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %4 : tensor<4xf32>
}
func.func @constants() -> tensor<2xf32> {
  %0 = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %1 = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.add"(%0, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %2 : tensor<2xf32>
}
func.func @same_attributes(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "graph.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %1 = "graph.transpose"(%a) {perm = array<i64: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %2 = "graph.add"(%0, %1) : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  return %2 : tensor<3x2xf32>
}

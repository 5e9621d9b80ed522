func.func @dead_chain(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.relu"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  %c = "graph.constant"() {value = dense<1.0> : tensor<2xf32>} : () -> tensor<2xf32>
  %2 = "graph.mul"(%1, %c) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %3 = "graph.concat"(%2, %1) {axis = 0 : i64} : (tensor<2xf32>, tensor<2xf32>) -> tensor<4xf32>
  return %a : tensor<2xf32>
}
func.func @dead_repeated_operand(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.mul"(%0, %0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %2 = "graph.add"(%1, %1) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %a : tensor<2xf32>
}
func.func @dead_in_region(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %r = scf.execute_region -> tensor<2xf32> {
    %1 = "graph.exp"(%0) : (tensor<2xf32>) -> tensor<2xf32>
    %2 = "graph.neg"(%a) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %2 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}
func.func @dead_tail(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.exp"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func @negative_used(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %1 = "graph.relu"(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}

func.func @negative_non_graph(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %1 = arith.addf %0, %0 : tensor<2xf32>
  return %a : tensor<2xf32>
}
func.func @negative_one_result_used(%a: tensor<4xf32>) -> tensor<2xf32> {
  %0:2 = "graph.split"(%a) {axis = 0 : i64, num_outputs = 2 : i64} : (tensor<4xf32>) -> (tensor<2xf32>, tensor<2xf32>)
  return %0#1 : tensor<2xf32>
}
func.func @negative_used_in_region(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = "graph.relu"(%a) : (tensor<2xf32>) -> tensor<2xf32>
  %r = scf.execute_region -> tensor<2xf32> {
    %1 = "graph.neg"(%0) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %1 : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}

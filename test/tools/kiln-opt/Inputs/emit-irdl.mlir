func.func @f(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.relu"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = "graph.add"(%0, %a) : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}

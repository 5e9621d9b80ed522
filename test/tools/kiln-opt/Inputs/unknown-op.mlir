func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "graph.frobnicate"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// Custom assembly for a graph op: not supported (generic form only).
func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = graph.relu %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

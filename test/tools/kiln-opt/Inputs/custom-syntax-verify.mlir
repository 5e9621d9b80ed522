func.func @f(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  // expected-error @+1 {{graph ops must be written in generic form}}
  %0 = graph.relu %arg0 : tensor<4xf32>
  return %0 : tensor<4xf32>
}

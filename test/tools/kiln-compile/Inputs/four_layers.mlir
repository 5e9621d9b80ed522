// Four layers of the same shapes: tanh(x @ w_i), x of dims [?, 64].
func.func @main_graph(%x: tensor<?x64xf32>, %w1: tensor<64x64xf32>, %w2: tensor<64x64xf32>, %w3: tensor<64x64xf32>, %w4: tensor<64x64xf32>) -> tensor<?x64xf32> {
  %m1 = "graph.matmul"(%x, %w1) : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %t1 = "graph.tanh"(%m1) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %m2 = "graph.matmul"(%t1, %w2) : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %t2 = "graph.tanh"(%m2) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %m3 = "graph.matmul"(%t2, %w3) : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %t3 = "graph.tanh"(%m3) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  %m4 = "graph.matmul"(%t3, %w4) : (tensor<?x64xf32>, tensor<64x64xf32>) -> tensor<?x64xf32>
  %t4 = "graph.tanh"(%m4) : (tensor<?x64xf32>) -> tensor<?x64xf32>
  return %t4 : tensor<?x64xf32>
}

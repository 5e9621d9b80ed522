func.func @matmul(%a: tensor<2x3xf32>, %b: tensor<3x4xf32>, %v: tensor<3xf32>, %c: tensor<5x1x2x3xf32>, %d: tensor<4x3x7xf32>, %e: tensor<?x2x3xi64>, %g: tensor<3x?xi64>) {
  %0 = "graph.matmul"(%a, %b) : (tensor<2x3xf32>, tensor<3x4xf32>) -> tensor<2x4xf32>
  %1 = "graph.matmul"(%v, %b) : (tensor<3xf32>, tensor<3x4xf32>) -> tensor<4xf32>
  %2 = "graph.matmul"(%a, %v) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2xf32>
  %3 = "graph.matmul"(%v, %v) : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  %4 = "graph.matmul"(%c, %d) : (tensor<5x1x2x3xf32>, tensor<4x3x7xf32>) -> tensor<5x4x2x7xf32>
  %5 = "graph.matmul"(%e, %g) : (tensor<?x2x3xi64>, tensor<3x?xi64>) -> tensor<?x2x?xi64>
  return
}
func.func @gemm(%a: tensor<3x2xf32>, %b: tensor<5x3xf32>, %c: tensor<5xf32>, %d: tensor<2x3xf64>, %e: tensor<3x5xf64>, %s: tensor<f64>, %m: tensor<?x1xf64>) {
  %0 = "graph.gemm"(%a, %b, %c) {alpha = 0.5 : f32, beta = 2.0 : f32, transA = 1 : i64, transB = 1 : i64} : (tensor<3x2xf32>, tensor<5x3xf32>, tensor<5xf32>) -> tensor<2x5xf32>
  %1 = "graph.gemm"(%d, %e) : (tensor<2x3xf64>, tensor<3x5xf64>) -> tensor<2x5xf64>
  %2 = "graph.gemm"(%d, %e, %s) : (tensor<2x3xf64>, tensor<3x5xf64>, tensor<f64>) -> tensor<2x5xf64>
  %3 = "graph.gemm"(%d, %e, %m) : (tensor<2x3xf64>, tensor<3x5xf64>, tensor<?x1xf64>) -> tensor<2x5xf64>
  return
}
func.func @softmax(%x: tensor<2x?x4xf16>, %y: tensor<8xbf16>) {
  %0 = "graph.softmax"(%x) {axis = 1 : i64} : (tensor<2x?x4xf16>) -> tensor<2x?x4xf16>
  %1 = "graph.softmax"(%y) : (tensor<8xbf16>) -> tensor<8xbf16>
  %2 = "graph.log_softmax"(%x) {axis = -3 : i64} : (tensor<2x?x4xf16>) -> tensor<2x?x4xf16>
  return
}

func.func @squeeze(%x: tensor<1x3x1xf32>, %y: tensor<1x3x?xf32>) -> (tensor<3xf32>, tensor<1x3xf32>) {
  %0 = "graph.squeeze"(%x) : (tensor<1x3x1xf32>) -> tensor<3xf32>
  %axes = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %1 = "graph.squeeze"(%y, %axes) : (tensor<1x3x?xf32>, tensor<1xi64>) -> tensor<1x3xf32>
  return %0, %1 : tensor<3xf32>, tensor<1x3xf32>
}
func.func @unsqueeze(%x: tensor<3x4xf32>) -> tensor<1x3x4x1xf32> {
  %axes = "graph.constant"() {value = dense<[0, -1]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.unsqueeze"(%x, %axes) : (tensor<3x4xf32>, tensor<2xi64>) -> tensor<1x3x4x1xf32>
  return %0 : tensor<1x3x4x1xf32>
}
func.func @expand(%x: tensor<3x1xf32>) -> tensor<2x3x6xf32> {
  %shape = "graph.constant"() {value = dense<[2, 1, 6]> : tensor<3xi64>} : () -> tensor<3xi64>
  %0 = "graph.expand"(%x, %shape) : (tensor<3x1xf32>, tensor<3xi64>) -> tensor<2x3x6xf32>
  return %0 : tensor<2x3x6xf32>
}
func.func @tile(%x: tensor<2x?xf32>) -> tensor<6x?xf32> {
  %r = "graph.constant"() {value = dense<[3, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.tile"(%x, %r) : (tensor<2x?xf32>, tensor<2xi64>) -> tensor<6x?xf32>
  return %0 : tensor<6x?xf32>
}
func.func @shape(%x: tensor<2x?x4xf32>) -> (tensor<3xi64>, tensor<2xi64>) {
  %0 = "graph.shape"(%x) : (tensor<2x?x4xf32>) -> tensor<3xi64>
  %1 = "graph.shape"(%x) {start = -5 : i64, end = -1 : i64} : (tensor<2x?x4xf32>) -> tensor<2xi64>
  return %0, %1 : tensor<3xi64>, tensor<2xi64>
}

func.func @split(%x: tensor<2x9xf32>, %y: tensor<6x2xf32>) -> tensor<2x3xf32> {
  %0:3 = "graph.split"(%x) {axis = 1 : i64, num_outputs = 3 : i64} : (tensor<2x9xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>)
  %s = "graph.constant"() {value = dense<3> : tensor<2xi64>} : () -> tensor<2xi64>
  %1:2 = "graph.split"(%y, %s) : (tensor<6x2xf32>, tensor<2xi64>) -> (tensor<3x2xf32>, tensor<3x2xf32>)
  return %0#2 : tensor<2x3xf32>
}
func.func @slice(%x: tensor<10x20xf32>, %st: tensor<1xi32>, %en: tensor<1xi32>) -> (tensor<4x5xf32>, tensor<?x20xf32>) {
  %starts = "graph.constant"() {value = dense<[-1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ends = "graph.constant"() {value = dense<[-1000, 1000]> : tensor<2xi64>} : () -> tensor<2xi64>
  %axes = "graph.constant"() {value = dense<[1, 0]> : tensor<2xi64>} : () -> tensor<2xi64>
  %steps = "graph.constant"() {value = dense<[-4, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %0 = "graph.slice"(%x, %starts, %ends, %axes, %steps) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<10x20xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<4x5xf32>
  %1 = "graph.slice"(%x, %st, %en) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0>} : (tensor<10x20xf32>, tensor<1xi32>, tensor<1xi32>) -> tensor<?x20xf32>
  return %0, %1 : tensor<4x5xf32>, tensor<?x20xf32>
}
func.func @gather(%x: tensor<5x6x7xf32>, %i: tensor<2x3xi64>) -> tensor<5x2x3x7xf32> {
  %0 = "graph.gather"(%x, %i) {axis = 1 : i64} : (tensor<5x6x7xf32>, tensor<2x3xi64>) -> tensor<5x2x3x7xf32>
  return %0 : tensor<5x2x3x7xf32>
}

func.func @range(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<f32>) -> (tensor<4xi64>, tensor<?xf32>) {
  %start = "graph.constant"() {value = dense<10> : tensor<i64>} : () -> tensor<i64>
  %limit = "graph.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %delta = "graph.constant"() {value = dense<-3> : tensor<i64>} : () -> tensor<i64>
  %0 = "graph.range"(%start, %limit, %delta) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<4xi64>
  %1 = "graph.range"(%a, %b, %c) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  return %0, %1 : tensor<4xi64>, tensor<?xf32>
}
func.func @pad(%x: tensor<1x3x4xf32>, %v: tensor<f32>) -> (tensor<1x3x7xf32>, tensor<1x6x4xf32>) {
  %pads = "graph.constant"() {value = dense<[0, 0, 1, 0, 0, 2]> : tensor<6xi64>} : () -> tensor<6xi64>
  %0 = "graph.pad"(%x, %pads) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<1x3x4xf32>, tensor<6xi64>) -> tensor<1x3x7xf32>
  %p2 = "graph.constant"() {value = dense<[1, 2]> : tensor<2xi64>} : () -> tensor<2xi64>
  %ax = "graph.constant"() {value = dense<1> : tensor<1xi32>} : () -> tensor<1xi32>
  %1 = "graph.pad"(%x, %p2, %v, %ax) {mode = "reflect", operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x3x4xf32>, tensor<2xi64>, tensor<f32>, tensor<1xi32>) -> tensor<1x6x4xf32>
  return %0, %1 : tensor<1x3x7xf32>, tensor<1x6x4xf32>
}
func.func @depth_to_space(%x: tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32> {
  %0 = "graph.depth_to_space"(%x) {blocksize = 2 : i64, mode = "CRD"} : (tensor<1x8x2x3xf32>) -> tensor<1x2x4x6xf32>
  return %0 : tensor<1x2x4x6xf32>
}
func.func @space_to_depth(%x: tensor<1x2x4x?xf32>) -> tensor<1x8x2x?xf32> {
  %0 = "graph.space_to_depth"(%x) {blocksize = 2 : i64} : (tensor<1x2x4x?xf32>) -> tensor<1x8x2x?xf32>
  return %0 : tensor<1x8x2x?xf32>
}

func.func @numeric_unary(%i: tensor<3xi32>, %u: tensor<3xui16>, %f: tensor<?xf32>, %s: tensor<2xi8>) {
  %0 = "graph.neg"(%i) : (tensor<3xi32>) -> tensor<3xi32>
  %1 = "graph.neg"(%f) : (tensor<?xf32>) -> tensor<?xf32>
  %2 = "graph.abs"(%u) : (tensor<3xui16>) -> tensor<3xui16>
  %3 = "graph.relu"(%s) : (tensor<2xi8>) -> tensor<2xi8>
  %4 = "graph.relu"(%f) : (tensor<?xf32>) -> tensor<?xf32>
  %5 = "graph.erf"(%i) : (tensor<3xi32>) -> tensor<3xi32>
  %6 = "graph.erf"(%f) : (tensor<?xf32>) -> tensor<?xf32>
  return
}
func.func @activations_with_attributes(%x: tensor<1x16x?x?xf32>) {
  %0 = "graph.leaky_relu"(%x) {alpha = 0.1 : f32} : (tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  %1 = "graph.leaky_relu"(%x) : (tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  %2 = "graph.elu"(%x) {alpha = 0.5 : f32} : (tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  %3 = "graph.hard_sigmoid"(%x) {alpha = 1.0 : f32, beta = 0.0 : f32} : (tensor<1x16x?x?xf32>) -> tensor<1x16x?x?xf32>
  return
}
func.func @clip(%x: tensor<4x?xf32>, %lo: tensor<f32>, %hi: tensor<1xf32>) {
  %0 = "graph.clip"(%x) {operandSegmentSizes = array<i32: 1, 0, 0>} : (tensor<4x?xf32>) -> tensor<4x?xf32>
  %1 = "graph.clip"(%x, %hi) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<4x?xf32>, tensor<1xf32>) -> tensor<4x?xf32>
  %2 = "graph.clip"(%x, %lo, %hi) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<4x?xf32>, tensor<f32>, tensor<1xf32>) -> tensor<4x?xf32>
  return
}
func.func @min_max(%a: tensor<3x1xi32>, %d: tensor<?x4xf32>) {
  %0 = "graph.min"(%a) : (tensor<3x1xi32>) -> tensor<3x1xi32>
  %1 = "graph.min"(%a, %a) : (tensor<3x1xi32>, tensor<3x1xi32>) -> tensor<3x1xi32>
  %2 = "graph.max"(%d, %d, %d) : (tensor<?x4xf32>, tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
  return
}

func.func @instance_norm(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %xd: tensor<?x?x8xf32>) {
  %0 = "graph.instance_norm"(%x, %s, %s) {epsilon = 1.0e-5 : f32} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  %1 = "graph.instance_norm"(%xd, %s, %s) : (tensor<?x?x8xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x?x8xf32>
  return
}
func.func @layer_norm(%x: tensor<2x3x4xf32>, %s4: tensor<4xf32>, %s34: tensor<3x4xf32>, %s14: tensor<1x4xf32>, %xd: tensor<?x?x4xf32>) {
  %0 = "graph.layer_norm"(%x, %s4, %s4) : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %1 = "graph.layer_norm"(%x, %s34) {axis = 1 : i64, epsilon = 1.0e-5 : f32, stash_type = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %2 = "graph.layer_norm"(%x, %s14, %s4) {axis = -2 : i64} : (tensor<2x3x4xf32>, tensor<1x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %3 = "graph.layer_norm"(%xd, %s34) {axis = 0 : i64} : (tensor<?x?x4xf32>, tensor<3x4xf32>) -> tensor<?x?x4xf32>
  return
}

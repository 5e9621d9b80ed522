func.func @ok(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.add"(%a, %b) {kiln.note = "discardable attributes are fine"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @dynamic_result_is_fine(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<?x3xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<?x3xf32>
  return %0 : tensor<?x3xf32>
}
func.func @negative_unknown_attribute(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "graph.relu"(%a) {alpha = 1.0 : f32} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @negative_attribute_kind(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = "graph.softmax"(%a) {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}
func.func @negative_float_attribute_kind(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "graph.leaky_relu"(%a) {alpha = 0.1 : f64} : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}
func.func @negative_ints_attribute_kind(%a: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %0 = "graph.transpose"(%a) {perm = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  return %0 : tensor<3x2xf32>
}
func.func @negative_result_type(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x4xf32> {
  %0 = "graph.add"(%a, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}
func.func @negative_result_element_type(%a: tensor<4xf32>) -> tensor<4xf16> {
  %0 = "graph.relu"(%a) : (tensor<4xf32>) -> tensor<4xf16>
  return %0 : tensor<4xf16>
}
func.func @negative_unranked_operand(%a: tensor<*xf32>) -> tensor<*xf32> {
  %0 = "graph.relu"(%a) : (tensor<*xf32>) -> tensor<*xf32>
  return %0 : tensor<*xf32>
}

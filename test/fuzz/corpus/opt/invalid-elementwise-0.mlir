func.func @negative_clip_without_segment_sizes(%x: tensor<2xf32>, %m: tensor<f32>) {
  %0 = "graph.clip"(%x, %m) : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  return
}
func.func @negative_max_mixed_operand_types(%a: tensor<3x1xf32>, %b: tensor<4xf32>) {
  %0 = "graph.max"(%a, %b) : (tensor<3x1xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  return
}
func.func @negative_sub_bool(%a: tensor<2xi1>, %b: tensor<2xi1>) {
  %0 = "graph.sub"(%a, %b) : (tensor<2xi1>, tensor<2xi1>) -> tensor<2xi1>
  return
}
func.func @negative_relu_index(%x: tensor<4xindex>) {
  %0 = "graph.relu"(%x) : (tensor<4xindex>) -> tensor<4xindex>
  return
}
func.func @negative_pow_bool_exponent(%x: tensor<4xf32>, %y: tensor<i1>) {
  %0 = "graph.pow"(%x, %y) : (tensor<4xf32>, tensor<i1>) -> tensor<4xf32>
  return
}
func.func @negative_clip_bound_element_type(%x: tensor<4xf32>, %m: tensor<f64>) {
  %0 = "graph.clip"(%x, %m) {operandSegmentSizes = array<i32: 1, 0, 1>} : (tensor<4xf32>, tensor<f64>) -> tensor<4xf32>
  return
}
func.func @negative_where_condition_not_bool(%c: tensor<4xf32>, %x: tensor<4xf32>) {
  %0 = "graph.where"(%c, %x, %x) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  return
}
func.func @negative_less_bool(%a: tensor<4xi1>) {
  %0 = "graph.less"(%a, %a) : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  return
}
func.func @negative_cast_to_tensor(%x: tensor<4xf32>) {
  %0 = "graph.cast"(%x) {to = tensor<4xf16>} : (tensor<4xf32>) -> tensor<4xf16>
  return
}

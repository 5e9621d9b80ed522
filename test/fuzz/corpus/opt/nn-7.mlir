func.func @resize_sizes(%x: tensor<1x3x4x8xf32>, %roi: tensor<8xf32>, %empty: tensor<0xf32>, %n: tensor<2xi64>) {
  %sizes = "graph.constant"() {value = dense<[1, 3, 6, 9]> : tensor<4xi64>} : () -> tensor<4xi64>
  %0 = "graph.resize"(%x, %roi, %sizes) {coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<8xf32>, tensor<4xi64>) -> tensor<1x3x6x9xf32>
  %1 = "graph.resize"(%x, %empty, %empty, %sizes) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x3x4x8xf32>, tensor<0xf32>, tensor<0xf32>, tensor<4xi64>) -> tensor<1x3x6x9xf32>
  %s66 = "graph.constant"() {value = dense<6> : tensor<2xi64>} : () -> tensor<2xi64>
  %2 = "graph.resize"(%x, %s66) {axes = array<i64: 2, 3>, keep_aspect_ratio_policy = "not_larger", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<2xi64>) -> tensor<1x3x3x6xf32>
  %3 = "graph.resize"(%x, %s66) {axes = array<i64: 2, 3>, keep_aspect_ratio_policy = "not_smaller", mode = "cubic", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<2xi64>) -> tensor<1x3x6x12xf32>
  %4 = "graph.resize"(%x, %n) {antialias = 1 : i64, axes = array<i64: 3, 2>, cubic_coeff_a = -0.5 : f32, exclude_outside = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<2xi64>) -> tensor<1x3x?x?xf32>
  return
}

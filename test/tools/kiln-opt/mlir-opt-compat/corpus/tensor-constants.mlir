// Dense and splat tensor constants, folding through tensor ops.
func.func @constants() -> (tensor<2x3xf32>, tensor<4xi32>, f32, tensor<6xf32>) {
  %d = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %s = arith.constant dense<7> : tensor<4xi32>
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %e = tensor.extract %d[%c0, %c2] : tensor<2x3xf32>
  %f = tensor.collapse_shape %d [[0, 1]] : tensor<2x3xf32> into tensor<6xf32>
  return %d, %s, %e, %f : tensor<2x3xf32>, tensor<4xi32>, f32, tensor<6xf32>
}

func.func @big() -> tensor<16xi8> {
  %b = arith.constant dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi8>
  return %b : tensor<16xi8>
}

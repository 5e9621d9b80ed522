// Bufferization cannot handle an unknown op: an error at its location.
func.func @negative_unknown(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "test.unknown"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// A product whose result is reshaped (tensor.expand_shape, which MLIR's
// sharding has no interface for): test/pipelines/shard.mlir.
func.func @reshaped(%x: tensor<4x6xf32>) -> tensor<2x2x2xf32> {
  %zero = arith.constant 0.0 : f32
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0], [9.0, 10.0], [11.0, 12.0]]> : tensor<6x2xf32>
  %e = tensor.empty() : tensor<4x2xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%x, %w : tensor<4x6xf32>, tensor<6x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = tensor.expand_shape %y [[0, 1], [2]] output_shape [2, 2, 2] : tensor<4x2xf32> into tensor<2x2x2xf32>
  return %r : tensor<2x2x2xf32>
}

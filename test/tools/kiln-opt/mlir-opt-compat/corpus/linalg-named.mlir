// linalg named ops on tensors: matmul, fill, conv, transpose, reduce.
func.func @matmul(%a: tensor<8x16xf32>, %b: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %z = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<8x4xf32>
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<8x4xf32>) -> tensor<8x4xf32>
  %r = linalg.matmul ins(%a, %b : tensor<8x16xf32>, tensor<16x4xf32>) outs(%f : tensor<8x4xf32>) -> tensor<8x4xf32>
  return %r : tensor<8x4xf32>
}

func.func @conv(%i: tensor<1x8x8x3xf32>, %w: tensor<3x3x3x4xf32>, %o: tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32> {
  %r = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%i, %w : tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>) outs(%o : tensor<1x6x6x4xf32>) -> tensor<1x6x6x4xf32>
  return %r : tensor<1x6x6x4xf32>
}

func.func @transpose_reduce(%t: tensor<4x8xf32>, %o: tensor<8x4xf32>, %s: tensor<8xf32>) -> (tensor<8x4xf32>, tensor<8xf32>) {
  %tr = linalg.transpose ins(%t : tensor<4x8xf32>) outs(%o : tensor<8x4xf32>) permutation = [1, 0]
  %red = linalg.reduce ins(%tr : tensor<8x4xf32>) outs(%s : tensor<8xf32>) dimensions = [1]
    (%x: f32, %acc: f32) {
      %y = arith.addf %x, %acc : f32
      linalg.yield %y : f32
    }
  return %tr, %red : tensor<8x4xf32>, tensor<8xf32>
}

func.func @elementwise(%a: tensor<16xf32>, %b: tensor<16xf32>) -> tensor<16xf32> {
  %e = tensor.empty() : tensor<16xf32>
  %r = linalg.add ins(%a, %b : tensor<16xf32>, tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  %s = linalg.exp ins(%r : tensor<16xf32>) outs(%e : tensor<16xf32>) -> tensor<16xf32>
  return %s : tensor<16xf32>
}

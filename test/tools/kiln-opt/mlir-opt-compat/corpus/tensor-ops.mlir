// tensor ops: empty, extract/insert slices, reshapes, pad, cast.
func.func @slices(%t: tensor<8x16xf32>, %u: tensor<2x4xf32>) -> tensor<8x16xf32> {
  %s = tensor.extract_slice %t[0, 0] [2, 4] [1, 1] : tensor<8x16xf32> to tensor<2x4xf32>
  %a = arith.addf %s, %u : tensor<2x4xf32>
  %r = tensor.insert_slice %a into %t[2, 4] [2, 4] [1, 1] : tensor<2x4xf32> into tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

func.func @reshape(%t: tensor<4x6xf32>) -> tensor<4x2x3xf32> {
  %c = tensor.collapse_shape %t [[0, 1]] : tensor<4x6xf32> into tensor<24xf32>
  %e = tensor.expand_shape %c [[0, 1, 2]] output_shape [4, 2, 3] : tensor<24xf32> into tensor<4x2x3xf32>
  return %e : tensor<4x2x3xf32>
}

func.func @pad_cast(%t: tensor<?x4xf32>) -> (tensor<?x6xf32>, tensor<3x4xf32>) {
  %z = arith.constant 0.0 : f32
  %p = tensor.pad %t low[0, 1] high[0, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %z : f32
  } : tensor<?x4xf32> to tensor<?x6xf32>
  %c = tensor.cast %t : tensor<?x4xf32> to tensor<3x4xf32>
  return %p, %c : tensor<?x6xf32>, tensor<3x4xf32>
}

func.func @extract(%t: tensor<4xf32>) -> (f32, index) {
  %c1 = arith.constant 1 : index
  %e = tensor.extract %t[%c1] : tensor<4xf32>
  %d = tensor.dim %t, %c1 : tensor<4xf32>
  return %e, %d : f32, index
}

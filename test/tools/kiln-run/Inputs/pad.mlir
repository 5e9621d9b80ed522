// tensor.pad bufferizes to a strided memref.copy (a memrefCopy call unless
// kiln-memref-copy-to-linalg rewrites it).
func.func @main_graph(%a: tensor<2x3xf32>) -> tensor<4x7xf32> {
  %c = arith.constant 0.5 : f32
  %p = tensor.pad %a low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<2x3xf32> to tensor<4x7xf32>
  return %p : tensor<4x7xf32>
}

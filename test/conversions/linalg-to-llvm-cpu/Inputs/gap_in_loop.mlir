// A global average pool (a split reduction: 49 = 3 x 16 + 1) serial in a
// sequential loop, for kiln-split-reductions-run.test: its remainder column
// accumulates into the combined lanes, which register_init.c must not take
// for a fresh fill.
func.func @main(%x: tensor<2x512x7x7xf32>) -> tensor<2x512x1x1xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %e = tensor.empty() : tensor<2x512x1x1xf32>
  %r = scf.for %i = %c0 to %c2 step %c1 iter_args(%acc = %e) -> (tensor<2x512x1x1xf32>) {
    %s = tensor.extract_slice %x[%i, 0, 0, 0] [1, 512, 7, 7] [1, 1, 1, 1] : tensor<2x512x7x7xf32> to tensor<1x512x7x7xf32>
    %g = "graph.global_average_pool"(%s) : (tensor<1x512x7x7xf32>) -> tensor<1x512x1x1xf32>
    %n = tensor.insert_slice %g into %acc[%i, 0, 0, 0] [1, 512, 1, 1] [1, 1, 1, 1] : tensor<1x512x1x1xf32> into tensor<2x512x1x1xf32>
    scf.yield %n : tensor<2x512x1x1xf32>
  }
  return %r : tensor<2x512x1x1xf32>
}

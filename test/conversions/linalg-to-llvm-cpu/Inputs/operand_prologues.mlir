// Products with elementwise prologues in their reductions, as
// shard-partition and elementwise fusion leave attention (for
// kiln-hoist-operand-prologues.mlir's numerical check): the scores of
// queries and keys with their biases added, [b, i, h, d] x [b, j, h, d] ->
// [b, h, i, j], and probabilities times values with their bias squared,
// on awkward sizes (3 heads, 37 queries, 29 keys, 20 channels) so the
// register tiles leave remainders. And two products whose register tiles
// take their rows along an outer loop (kiln-tile-and-vectorize): a
// projection split into heads, [t, s, k] x [k, h, c] -> [t, s, h, c] (rows
// along s), and a batch between rows and columns, [b, m, k] x [b, k, n] ->
// [m, b, n] (rows along m).
#bias = affine_map<(b, h, i, j, d) -> (h, d)>
#q = affine_map<(b, h, i, j, d) -> (b, i, h, d)>
#k = affine_map<(b, h, i, j, d) -> (b, j, h, d)>
#s = affine_map<(b, h, i, j, d) -> (b, h, i, j)>
#p = affine_map<(b, h, i, d, j) -> (b, h, i, j)>
#vb = affine_map<(b, h, i, d, j) -> (h, d)>
#v = affine_map<(b, h, i, d, j) -> (b, j, h, d)>
#o = affine_map<(b, h, i, d, j) -> (b, h, i, d)>
#xh = affine_map<(t, s, h, c, k) -> (t, s, k)>
#wh = affine_map<(t, s, h, c, k) -> (k, h, c)>
#yh = affine_map<(t, s, h, c, k) -> (t, s, h, c)>
#ab = affine_map<(m, b, n, k) -> (b, m, k)>
#bb = affine_map<(m, b, n, k) -> (b, k, n)>
#cb = affine_map<(m, b, n, k) -> (m, b, n)>
func.func @main(%bq: tensor<3x20xf32>, %q: tensor<2x37x3x20xf32>, %bk: tensor<3x20xf32>, %k: tensor<2x29x3x20xf32>, %p: tensor<2x3x37x29xf32>, %bv: tensor<3x20xf32>, %v: tensor<2x29x3x20xf32>, %xp: tensor<2x37x29xf32>, %wp: tensor<29x3x20xf32>, %am: tensor<3x37x29xf32>, %bm: tensor<3x29x20xf32>) -> (tensor<2x3x37x29xf32>, tensor<2x3x37x20xf32>, tensor<2x37x3x20xf32>, tensor<37x3x20xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x3x37x29xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x37x29xf32>) -> tensor<2x3x37x29xf32>
  %scores = linalg.generic {indexing_maps = [#bias, #q, #bias, #k, #s], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%bq, %q, %bk, %k : tensor<3x20xf32>, tensor<2x37x3x20xf32>, tensor<3x20xf32>, tensor<2x29x3x20xf32>) outs(%f : tensor<2x3x37x29xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %d: f32, %acc: f32):
    %x = arith.addf %b, %a : f32
    %y = arith.addf %d, %c : f32
    %m = arith.mulf %x, %y fastmath<contract> : f32
    %r = arith.addf %acc, %m fastmath<contract> : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x29xf32>
  %e2 = tensor.empty() : tensor<2x3x37x20xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<2x3x37x20xf32>) -> tensor<2x3x37x20xf32>
  %av = linalg.generic {indexing_maps = [#p, #vb, #v, #o], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%p, %bv, %v : tensor<2x3x37x29xf32>, tensor<3x20xf32>, tensor<2x29x3x20xf32>) outs(%f2 : tensor<2x3x37x20xf32>) {
  ^bb0(%a: f32, %b: f32, %c: f32, %acc: f32):
    %t = arith.addf %c, %b : f32
    %u = arith.mulf %t, %t : f32
    %m = arith.mulf %a, %u : f32
    %r = arith.addf %m, %acc : f32
    linalg.yield %r : f32
  } -> tensor<2x3x37x20xf32>
  %e3 = tensor.empty() : tensor<2x37x3x20xf32>
  %f3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<2x37x3x20xf32>) -> tensor<2x37x3x20xf32>
  %proj = linalg.generic {indexing_maps = [#xh, #wh, #yh], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%xp, %wp : tensor<2x37x29xf32>, tensor<29x3x20xf32>) outs(%f3 : tensor<2x37x3x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b fastmath<contract> : f32
    %r = arith.addf %acc, %m fastmath<contract> : f32
    linalg.yield %r : f32
  } -> tensor<2x37x3x20xf32>
  %e4 = tensor.empty() : tensor<37x3x20xf32>
  %f4 = linalg.fill ins(%zero : f32) outs(%e4 : tensor<37x3x20xf32>) -> tensor<37x3x20xf32>
  %mbn = linalg.generic {indexing_maps = [#ab, #bb, #cb], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%am, %bm : tensor<3x37x29xf32>, tensor<3x29x20xf32>) outs(%f4 : tensor<37x3x20xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %m = arith.mulf %a, %b fastmath<contract> : f32
    %r = arith.addf %acc, %m fastmath<contract> : f32
    linalg.yield %r : f32
  } -> tensor<37x3x20xf32>
  return %scores, %av, %proj, %mbn : tensor<2x3x37x29xf32>, tensor<2x3x37x20xf32>, tensor<2x37x3x20xf32>, tensor<37x3x20xf32>
}

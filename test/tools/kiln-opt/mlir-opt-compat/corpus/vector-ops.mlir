// vector arithmetic: broadcast, contract, reduction, shape casts, shuffles.
#m0 = affine_map<(i, j, k) -> (i, k)>
#m1 = affine_map<(i, j, k) -> (k, j)>
#m2 = affine_map<(i, j, k) -> (i, j)>
func.func @contract(%a: vector<2x4xf32>, %b: vector<4x3xf32>, %c: vector<2x3xf32>) -> vector<2x3xf32> {
  %r = vector.contract {indexing_maps = [#m0, #m1, #m2], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %a, %b, %c : vector<2x4xf32>, vector<4x3xf32> into vector<2x3xf32>
  return %r : vector<2x3xf32>
}

func.func @misc(%x: f32, %v: vector<8xf32>) -> (vector<8xf32>, f32, vector<2x4xf32>, vector<4xf32>) {
  %b = vector.broadcast %x : f32 to vector<8xf32>
  %s = arith.addf %b, %v : vector<8xf32>
  %r = vector.reduction <add>, %s : vector<8xf32> into f32
  %c = vector.shape_cast %s : vector<8xf32> to vector<2x4xf32>
  %h = vector.shuffle %v, %v [0, 2, 4, 6] : vector<8xf32>, vector<8xf32>
  return %s, %r, %c, %h : vector<8xf32>, f32, vector<2x4xf32>, vector<4xf32>
}

func.func @fma(%a: vector<4xf32>, %b: vector<4xf32>, %c: vector<4xf32>) -> vector<4xf32> {
  %r = vector.fma %a, %b, %c : vector<4xf32>
  %e = vector.extract %r[1] : f32 from vector<4xf32>
  %i = vector.insert %e, %r [0] : f32 into vector<4xf32>
  return %i : vector<4xf32>
}

// affine.apply, min/max and affine.if with maps and sets.
#map = affine_map<(d0)[s0] -> (d0 * 4 + s0)>
#set = affine_set<(d0) : (d0 - 10 >= 0)>
func.func @apply(%i: index, %s: index) -> index {
  %a = affine.apply #map(%i)[%s]
  %c2 = arith.constant 2 : index
  %b = affine.apply #map(%c2)[%c2]
  %m = affine.min affine_map<(d0, d1) -> (d0, d1 + 8)>(%a, %b)
  %n = affine.max affine_map<(d0) -> (d0, 0)>(%m)
  return %n : index
}

func.func @cond(%a: memref<32xf32>) {
  %c = arith.constant 0.0 : f32
  affine.for %i = 0 to 32 {
    affine.if #set(%i) {
      affine.store %c, %a[%i] : memref<32xf32>
    }
  }
  return
}

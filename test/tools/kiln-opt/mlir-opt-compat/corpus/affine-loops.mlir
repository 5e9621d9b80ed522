// affine loop nests for tiling, normalization, unrolling and lowering.
func.func @copy(%a: memref<128x64xf32>, %b: memref<128x64xf32>) {
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 64 {
      %v = affine.load %a[%i, %j] : memref<128x64xf32>
      affine.store %v, %b[%i, %j] : memref<128x64xf32>
    }
  }
  return
}

func.func @strided(%a: memref<100xf32>) {
  %c = arith.constant 1.0 : f32
  affine.for %i = 2 to 100 step 3 {
    affine.store %c, %a[%i] : memref<100xf32>
  }
  return
}

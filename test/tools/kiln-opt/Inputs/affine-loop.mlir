func.func @f(%a: memref<64xf32>) {
  affine.for %i = 0 to 64 {
    %v = affine.load %a[%i] : memref<64xf32>
    affine.store %v, %a[%i] : memref<64xf32>
  }
  return
}

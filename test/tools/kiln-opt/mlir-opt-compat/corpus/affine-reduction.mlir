// An affine reduction with invariant loads, for parallelization and LICM.
func.func @dot(%a: memref<256xf32>, %b: memref<256xf32>, %out: memref<f32>) {
  %z = arith.constant 0.0 : f32
  %r = affine.for %i = 0 to 256 iter_args(%acc = %z) -> f32 {
    %x = affine.load %a[%i] : memref<256xf32>
    %y = affine.load %b[%i] : memref<256xf32>
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    affine.yield %s : f32
  }
  affine.store %r, %out[] : memref<f32>
  return
}

func.func @invariant(%a: memref<64xf32>, %k: memref<f32>) {
  affine.for %i = 0 to 64 {
    %c = affine.load %k[] : memref<f32>
    %d = arith.addf %c, %c : f32
    affine.store %d, %a[%i] : memref<64xf32>
  }
  return
}

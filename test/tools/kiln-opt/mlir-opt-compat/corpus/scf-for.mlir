// scf.for loops with iteration arguments, invariant code and constants.
func.func @sum(%m: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
    %two = arith.constant 2.0 : f32
    %k = arith.mulf %two, %two : f32
    %v = memref.load %m[%i] : memref<?xf32>
    %w = arith.mulf %v, %k : f32
    %s = arith.addf %acc, %w : f32
    scf.yield %s : f32
  }
  return %r : f32
}

func.func @single_iteration(%m: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f = arith.constant 1.0 : f32
  scf.for %i = %c0 to %c1 step %c1 {
    memref.store %f, %m[%i] : memref<4xf32>
  }
  return
}

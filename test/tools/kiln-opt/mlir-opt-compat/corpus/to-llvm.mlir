// A small program across arith, math, cf, memref and func for the
// conversions to the LLVM dialect.
func.func @kernel(%m: memref<8xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> f32 {
    %v = memref.load %m[%i] : memref<8xf32>
    %e = math.exp %v : f32
    %s = arith.addf %acc, %e : f32
    scf.yield %s : f32
  }
  return %r : f32
}

func.func @index_math(%a: index, %b: index) -> i64 {
  %c = arith.muli %a, %b : index
  %d = arith.index_cast %c : index to i64
  return %d : i64
}

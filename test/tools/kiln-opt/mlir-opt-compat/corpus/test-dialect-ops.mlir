// Ops of MLIR's test dialect ("test.*", which accepts any op name), as
// upstream tests use them, in loops for tiling, normalization and LICM.
func.func @nest() {
  affine.for %i = 0 to 256 {
    affine.for %j = 0 to 100 step 3 {
      "test.foo"(%i, %j) : (index, index) -> ()
    }
  }
  return
}

// -----

func.func @invariant(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = "test.source"() : () -> i32
    %w = arith.addi %v, %v : i32
    "test.sink"(%w) : (i32) -> ()
  }
  return
}

// -----

func.func @regions(%p: i1) -> i32 {
  %r = "test.region_op"(%p) ({
    %c = arith.constant 3 : i32
    "test.yield"(%c) : (i32) -> ()
  }) : (i1) -> i32
  return %r : i32
}

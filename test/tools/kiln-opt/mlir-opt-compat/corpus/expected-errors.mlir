// Verifier errors annotated for --verify-diagnostics, one per split chunk.
func.func @bad_return(%a: i32) -> i64 {
  // expected-error @+1 {{type of return operand 0 ('i32') doesn't match function result type ('i64') in function @bad_return}}
  return %a : i32
}

// -----

func.func @bad_add(%a: i32, %b: i64) -> i32 {
  // expected-error @+1 {{use of value '%b' expects different type than prior uses: 'i32' vs 'i64'}}
  %c = arith.addi %a, %b : i32
  return %c : i32
}

// -----

func.func @good(%a: index) -> index {
  %c0 = arith.constant 0 : index
  %b = arith.addi %a, %c0 : index
  return %b : index
}

// -----

func.func @bad_load(%m: memref<4xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{incorrect number of indices for load, expected 1 but got 2}}
  %v = memref.load %m[%c0, %c0] : memref<4xf32>
  return %v : f32
}

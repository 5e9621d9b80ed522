// Input of split-input-file.mlir.
func.func @first() {
  return
}

// -----

// Some lines to move the error down.
func.func @second() -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64
}

// -----

func.func @third() {
  %c = arith.constant 1 : i64
  %0 = arith.addi %x, %c : i64
  return
}

// A use of an undefined SSA value.
func.func @f() -> i32 {
  %b = arith.addi %x, %x : i32
  return %b : i32
}

// A syntax error: the parser's diagnostic and exit status.
func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  return %b : i32 extra
}

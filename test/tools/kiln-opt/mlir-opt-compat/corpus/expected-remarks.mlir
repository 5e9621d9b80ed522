// A passing --verify-diagnostics file: no diagnostics expected; the IR is
// still printed.
func.func @f(%a: f32) -> f32 {
  %b = arith.addf %a, %a : f32
  return %b : f32
}

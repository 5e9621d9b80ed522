// Ops of an unregistered dialect: rejected without
// --allow-unregistered-dialect, kept and printed generically with it.
func.func @f(%a: i32) -> i32 {
  %b = "mydialect.op"(%a) {attr = 1 : i32} : (i32) -> i32
  "mydialect.effect"() : () -> ()
  return %b : i32
}

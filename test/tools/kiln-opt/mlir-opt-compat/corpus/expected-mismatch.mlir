// An annotation that does not match what is produced.
func.func @f(%a: i32) -> i64 {
  // expected-error @+1 {{something else entirely}}
  return %a : i32
}

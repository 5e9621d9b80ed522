// Nested repeated groups: the same blow-up through groups.
func.func @f() {
  return // expected-error-re {{{{((((((((((((((((((((((((((((((a+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+)+ }}}}
}

// Annotation-like text mlir-opt skips: kiln-opt warns and passes too.
func.func @ok() {
  // expected-error without braces
  // expected-note@sideways {{x}}
  return
}

func.func @g() {
  "foo.bar"() : () -> ()
  return
}

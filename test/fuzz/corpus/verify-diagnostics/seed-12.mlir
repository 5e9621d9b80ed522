
// Remarks emitted by a pass (here the transform interpreter) are verified
// like errors; MLIR's "see current operation" note is not expected.

module attributes {transform.with_named_sequence} {
  func.func @f() {
    // expected-remark@below {{found a return}}
    return
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %r = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.debug.emit_remark_at %r, "found a return" : !transform.any_op
    transform.yield
  }
}
// -----

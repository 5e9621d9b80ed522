
// The split marker itself can be annotated around: chunks keep file lines.
func.func @last() -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64 // expected-error {{type of return operand}}
}

// Unexpected diagnostics, missing ones, wrong lines and near misses, one per
// chunk of the negative input; line numbers are those of the whole file.
// NEG: verify-diagnostics-negative.mlir:5:3: error: unexpected error: type of return operand 0 ('i64') doesn't match function result type ('i32') in function @unexpected
// NEG-NEXT: {{^  return %c : i64$}}
// NEG-NEXT: {{^  \^$}}
// NEG-NEXT: verify-diagnostics-negative.mlir:10:4: error: expected error "never produced" was not produced
// NEG: verify-diagnostics-negative.mlir:19:3: error: unexpected error: type of return operand 0
// NEG: verify-diagnostics-negative.mlir:17:37: error: expected error "type of return operand 0" was not produced
// NEG: verify-diagnostics-negative.mlir:26:22: error: 'error' diagnostic emitted when expecting a 'warning'
// NEG: verify-diagnostics-negative.mlir:26:22: error: expected warning "type of return operand" was not produced
// NEG: verify-diagnostics-negative.mlir:31:28: error: unexpected note: prior use here
// NEG: verify-diagnostics-negative.mlir:43:4: error: expected note "no such note" was not produced
// NEG-NOT: error:

// BAD: verify-diagnostics-malformed.mlir:4:4: error: malformed expected{{-}}error annotation: expected '{{[{][{]}}' to start the expected message
// BAD: verify-diagnostics-malformed.mlir:5:4: error: expected{{-}}error refers to line -4, before the start of the input
// BAD: verify-diagnostics-malformed.mlir:6:4: error: malformed expected{{-}}error annotation: expected '@+N', '@-N', '@above', '@below' or '@unknown'
// BAD: verify-diagnostics-malformed.mlir:7:4: error: malformed expected{{-}}note annotation: expected '{{[}][}]}}' at the end of the line
// BAD: verify-diagnostics-malformed.mlir:11:4: error: expected{{-}}remark@below has no line without an annotation below it
// BAD-NOT: error:
// -----

// Input of verify-diagnostics.mlir: malformed annotations (warnings; errors where the target line is bad).
func.func @ok() {
  return
// expected-error no braces
// expected-error@-9 {{before line 1}}
// expected-error@sideways {{x}}
// expected-note {{unterminated
}
// These are ordinary words: expected-errors, expected-error-reporting.

// expected-remark@below {{dangling}}

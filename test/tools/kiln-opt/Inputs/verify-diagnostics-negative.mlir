// Input of verify-diagnostics.mlir: each chunk fails verification.

func.func @unexpected() -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64
}

// -----

// expected-error@+1 {{never produced}}
func.func @missing() {
  return
}

// -----

func.func @wrong_line() -> i32 { // expected-error {{type of return operand 0}}
  %c = arith.constant 1 : i64
  return %c : i64
}

// -----

func.func @near_miss() -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64 // expected-warning {{type of return operand}}
}

// -----

func.func @unexpected_note(%a: i32) -> i64 {
  %0 = arith.addi %a, %b : i64 // expected-error {{expects different type}}
  %b = arith.constant 1 : i32
  return %0 : i64
}

// -----

func.func @missing_note() -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64 // expected-error {{type of return}}
}
// expected-note@-2 {{no such note}}


// Every expected diagnostic is produced on its line and nothing else is:
// kiln-opt succeeds (first RUN line). The others check the failures.

func.func @same_line() -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64 // expected-error {{type of return operand 0 ('i64') doesn't match}}
}

// -----

func.func @plus() -> i32 {
  %c = arith.constant 1 : i64
  // expected-error@+2 {{doesn't match function result type ('i32')}}

  return %c : i64
}

// -----

func.func @minus() -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64

  // expected-error@-2 {{in function @minus}}
}

// -----

// @below and @above skip lines holding annotations; the note of the error
// is checked like a diagnostic.
func.func @below_with_note(%a: i32) -> i64 {
  // expected-error@below {{expects different type than prior uses: 'i64' vs 'i32'}}
  // expected-note@-2 {{prior use}}
  %0 = arith.addi %a, %b : i64
  %b = arith.constant 1 : i32
  return %0 : i64
}

// -----

func.func @above_with_note(%a: i32) -> i64 {
  %0 = arith.addi %a, %b : i64
  // expected-note@-2 {{prior use here}}
  // expected-error@above {{expects different type than prior uses}}
  %b = arith.constant 1 : i32
  return %0 : i64
}

// -----

// A parse error.
func.func @parse_error() {
  // expected-error@+1 {{use of undeclared SSA value name}}
  %0 = arith.addi %x, %x : i32
  return
}

// -----

// RUN: kiln-opt %s --split-input-file --verify-diagnostics
// RUN: not kiln-opt %S/Inputs/verify-diagnostics-negative.mlir --split-input-file --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=NEG
// RUN: not kiln-opt %S/Inputs/verify-diagnostics-malformed.mlir --verify-diagnostics 2>&1 | FileCheck %s --check-prefix=BAD
// Text that does not parse as an annotation is skipped, as by mlir-opt,
// with a warning: a file mlir-opt accepts passes.
// RUN: kiln-opt %S/Inputs/verify-diagnostics-prose.mlir --verify-diagnostics 2>&1 >/dev/null | FileCheck %s --check-prefix=PROSE
// RUN: mlir-opt %S/Inputs/verify-diagnostics-prose.mlir --verify-diagnostics > /dev/null
// PROSE: verify-diagnostics-prose.mlir:3:6: warning: malformed expected{{-}}error annotation ignored
// PROSE: verify-diagnostics-prose.mlir:4:6: warning: malformed expected{{-}}note annotation ignored

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

// Ops of unknown dialects are rejected without --allow-unregistered-dialect
// (but not those of MLIR's test dialect, which takes any op name, as in
// mlir-opt-22).
"foo.unregistered"() : () -> () // expected-error {{operation being parsed with an unregistered dialect}}

// -----

"test.any_op"() : () -> ()

// -----

func.func @dup() { // expected-note {{see existing symbol definition here}}
  return
}
// expected-error-re@+1 {{redefinition of symbol named '{{[a-z]+}}'}}
func.func @dup() {
  return
}

// -----

// The split marker itself can be annotated around: chunks keep file lines.
func.func @last() -> i32 {
  %c = arith.constant 1 : i64
  return %c : i64 // expected-error {{type of return operand}}
}

// Unexpected diagnostics, missing ones, wrong lines and near misses, one per
// chunk of the negative input; line numbers are those of the whole file. As
// in mlir-opt, each chunk's unexpected diagnostics come when it is done, the
// expectations nothing matched at the end.
// NEG: verify-diagnostics-negative.mlir:5:3: error: unexpected error: type of return operand 0 ('i64') doesn't match function result type ('i32') in function @unexpected
// NEG-NEXT: {{^  return %c : i64$}}
// NEG-NEXT: {{^  \^$}}
// NEG-NEXT: verify-diagnostics-negative.mlir:19:3: error: unexpected error: type of return operand 0
// NEG: verify-diagnostics-negative.mlir:26:22: error: 'error' diagnostic emitted when expecting a 'warning'
// NEG: verify-diagnostics-negative.mlir:31:28: error: unexpected note: prior use here
// NEG: verify-diagnostics-negative.mlir:10:4: error: expected error "never produced" was not produced
// NEG: verify-diagnostics-negative.mlir:17:37: error: expected error "type of return operand 0" was not produced
// NEG: verify-diagnostics-negative.mlir:26:22: error: expected warning "type of return operand" was not produced
// NEG: verify-diagnostics-negative.mlir:43:4: error: expected note "no such note" was not produced
// NEG-NOT: error:

// BAD: verify-diagnostics-malformed.mlir:4:4: warning: malformed expected{{-}}error annotation ignored: expected '{{[{][{]}}' to start the expected message
// BAD: verify-diagnostics-malformed.mlir:5:4: error: expected{{-}}error refers to line -4, before the start of the input
// BAD: verify-diagnostics-malformed.mlir:6:4: warning: malformed expected{{-}}error annotation ignored: expected '@+N', '@-N', '@above', '@below' or '@unknown'
// BAD: verify-diagnostics-malformed.mlir:7:4: warning: malformed expected{{-}}note annotation ignored: expected '{{[}][}]}}' at the end of the line
// BAD: verify-diagnostics-malformed.mlir:11:4: error: expected{{-}}remark@below has no line without an annotation below it
// BAD-NOT: error:

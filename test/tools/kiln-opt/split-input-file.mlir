// RUN: kiln-opt %s --split-input-file | FileCheck %s
// RUN: kiln-opt %S/Inputs/split-input-file-custom.mlir --split-input-file='// =====' | FileCheck %s --check-prefix=CUSTOM
// RUN: not kiln-opt %S/Inputs/split-input-file-error.mlir --split-input-file 2>&1 | FileCheck %s --check-prefix=ERR

// Each chunk is parsed and printed on its own, separated by the marker.
// CHECK-LABEL: func.func @first
// CHECK-NEXT: return
// CHECK: // -----
// CHECK-LABEL: func.func @second
// CHECK: // -----
// CHECK-LABEL: func.func @third
// CHECK-NOT: // -----

func.func @first() {
  return
}

// -----

func.func @second() {
  return
}

   // -----   

func.func @third() {
  return
}

// With another marker the default one is an ordinary comment (inside a
// function body in the input).
// CUSTOM-LABEL: func.func @a
// CUSTOM-NEXT: return
// CUSTOM: // -----
// CUSTOM-LABEL: func.func @b

// Diagnostics name lines of the whole file, not of the chunk.
// ERR: split-input-file-error.mlir:11:3: error: type of return operand 0 ('i64') doesn't match function result type ('i32') in function @second
// ERR: split-input-file-error.mlir:18:19: error: use of undeclared SSA value name

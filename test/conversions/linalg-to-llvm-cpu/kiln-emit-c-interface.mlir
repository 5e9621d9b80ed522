// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-emit-c-interface)' | FileCheck %s

// Public definitions get the C interface; private functions and
// declarations do not.
// CHECK-LABEL: func.func @public_fn
// CHECK-SAME: attributes {llvm.emit_c_interface}
func.func @public_fn(%a: memref<2xf32>) {
  return
}
// CHECK-LABEL: func.func private @private_fn
// CHECK-NOT: llvm.emit_c_interface
func.func private @private_fn(%a: memref<2xf32>) {
  return
}
// CHECK-LABEL: func.func private @declaration
// CHECK-NOT: llvm.emit_c_interface
func.func private @declaration(memref<2xf32>)

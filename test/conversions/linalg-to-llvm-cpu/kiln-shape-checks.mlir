// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-shape-checks)' | FileCheck %s

// Each cf.assert of a dynamic-shape lowering becomes a run-time check
// numbered after the module's earlier ones, its message prefixed with the
// ONNX node; the status word is made when the module has none.
// CHECK: module attributes {kiln.runtime_checks = ["g (Gather): an index is out of range", "a (Add): dims differ"]}
// CHECK-LABEL: func.func @numbered_after
// CHECK: %[[EQ:.*]] = arith.cmpi eq
// CHECK: %[[TRUE:.*]] = arith.constant true
// CHECK: %[[FAILED:.*]] = arith.xori %[[EQ]], %[[TRUE]] : i1
// CHECK: scf.if %[[FAILED]] {
// CHECK: %[[G:.*]] = memref.get_global @kiln_check_status : memref<i32>
// CHECK: arith.constant 2 : i32
// CHECK-NOT: cf.assert
module attributes {kiln.runtime_checks = ["g (Gather): an index is out of range"]} {
  memref.global @kiln_check_status : memref<i32> = dense<0>
  func.func @numbered_after(%a: index, %b: index) {
    %eq = arith.cmpi eq, %a, %b : index
    cf.assert %eq, "dims differ" loc(#add)
    return
  }
}
#add = loc("a (Add)"("m.onnx":0:0))

// -----

// CHECK: module attributes {kiln.runtime_checks = ["m (Mul): first"]}
// CHECK: memref.global @kiln_check_status : memref<i32> = dense<0>
// CHECK-LABEL: func.func @first_check
// CHECK: arith.constant 1 : i32
func.func @first_check(%c: i1) {
  cf.assert %c, "first" loc(#mul)
  return
}
#mul = loc("m (Mul)"("m.onnx":0:0))

// -----

// Without asserts, nothing changes.
// CHECK-NOT: kiln.runtime_checks
// CHECK-NOT: memref.global
func.func @none() {
  return
}

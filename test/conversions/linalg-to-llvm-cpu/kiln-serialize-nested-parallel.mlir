// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-serialize-nested-parallel))' \
// RUN:   | FileCheck %s

// A parallel loop inside a thread block's loop (here under an scf.for, as a
// tile's remainder columns are) becomes a nest of scf.for loops, one per
// dim, with the same bounds and steps; the outer parallel loop stays.
// CHECK-LABEL: func.func @nested
// CHECK: scf.parallel (%[[I:.*]]) = (%c0) to (%c5) step (%c1) {
// CHECK:   scf.for %[[K:.*]] = %c0 to %c7 step %c1 {
// CHECK:     scf.for %[[J:.*]] = %c0 to %c3 step %c1 {
// CHECK:       scf.for %[[L:.*]] = %c1 to %c4 step %c2 {
// CHECK:         %[[V:.*]] = memref.load %arg0[%[[I]], %[[J]], %[[L]]]
// CHECK:         memref.store %[[V]], %arg1[%[[I]], %[[J]], %[[L]]]
// CHECK-NOT: scf.reduce
// CHECK: scf.reduce
// CHECK-NOT: scf.parallel
func.func @nested(%a: memref<5x3x4xf32>, %b: memref<5x3x4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  scf.parallel (%i) = (%c0) to (%c5) step (%c1) {
    scf.for %k = %c0 to %c7 step %c1 {
      scf.parallel (%j, %l) = (%c0, %c1) to (%c3, %c4) step (%c1, %c2) {
        %v = memref.load %a[%i, %j, %l] : memref<5x3x4xf32>
        memref.store %v, %b[%i, %j, %l] : memref<5x3x4xf32>
        scf.reduce
      }
    }
    scf.reduce
  }
  return
}

// -----

// Left alone: top-level parallel loops, parallel loops inside sequential
// loops only (a recurrent net's time loop: one parallel region per step is
// the point), and a nested parallel loop with a reduction (results).
// CHECK-LABEL: func.func @negative
// CHECK: scf.parallel
// CHECK: scf.for
// CHECK-NEXT: scf.parallel
// CHECK: scf.parallel
// CHECK: scf.parallel {{.*}} init
func.func @negative(%a: memref<8xf32>, %s: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %z, %a[%i] : memref<8xf32>
    scf.reduce
  }
  scf.for %t = %c0 to %c4 step %c1 {
    scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
      memref.store %z, %a[%i] : memref<8xf32>
      scf.reduce
    }
  }
  scf.parallel (%o) = (%c0) to (%c4) step (%c1) {
    %r = scf.parallel (%i) = (%c0) to (%c8) step (%c1) init (%z) -> f32 {
      %v = memref.load %a[%i] : memref<8xf32>
      scf.reduce(%v : f32) {
      ^bb0(%x: f32, %y: f32):
        %sum = arith.addf %x, %y : f32
        scf.reduce.return %sum : f32
      }
    }
    memref.store %r, %s[%o] : memref<4xf32>
    scf.reduce
  }
  return
}

// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-outline-regions{regions=2})' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-outline-regions{regions=2},convert-scf-to-openmp,finalize-memref-to-llvm,convert-scf-to-cf,convert-cf-to-llvm,convert-arith-to-llvm,convert-openmp-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)' \
// RUN:   | FileCheck %s --check-prefix=LLVM
// RUN: sed -n '/^\/\/ BAD-OPTION/,/^\/\/ END-BAD-OPTION/p' %s > %t.bad.mlir
// RUN: kiln-opt %t.bad.mlir --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(kiln-outline-regions{regions=0})'

// Three loop nests, at most two per function: the first two and the
// buffer between them go to @three_part, the third to @three_part_0. The
// buffer allocated in the first part and freed in the second is its result
// and the second's argument; constants are cloned into each part (the loop
// bounds stay constants), not passed.
// CHECK-LABEL: func.func @three(
// CHECK-SAME: %[[X:.*]]: memref<8xf32>, %[[Y:.*]]: memref<8xf32>)
// CHECK-NOT: scf.parallel
// CHECK: %[[T:.*]] = call @three_part(%[[X]]) : (memref<8xf32>) -> memref<8xf32>
// CHECK-NEXT: call @three_part_0(%[[T]], %[[Y]]) : (memref<8xf32>, memref<8xf32>) -> ()
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @three_part(
// CHECK-SAME: %[[A:.*]]: memref<8xf32>) -> memref<8xf32>
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK-DAG: %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG: %[[T2:.*]] = memref.alloc() : memref<8xf32>
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%[[C8]])
// CHECK: memref.load %[[A]]
// CHECK: memref.store %{{.*}}, %[[T2]]
// CHECK: scf.parallel
// CHECK: return %[[T2]] : memref<8xf32>
// CHECK-LABEL: func.func private @three_part_0(
// CHECK-SAME: %[[B:.*]]: memref<8xf32>, %[[O:.*]]: memref<8xf32>)
// CHECK: arith.constant 8 : index
// CHECK: scf.parallel
// CHECK: memref.store %{{.*}}, %[[O]]
// CHECK: memref.dealloc %[[B]]
// CHECK-NEXT: return
// LLVM-LABEL: llvm.func @three(
// LLVM-NOT: omp.parallel
// LLVM: llvm.call @three_part(
// LLVM: llvm.call @three_part_0(
// LLVM-LABEL: llvm.func @three_part(
// LLVM-SAME: passthrough = ["noinline"]
// LLVM: omp.parallel
// LLVM-LABEL: llvm.func @three_part_0(
// LLVM: omp.parallel
func.func @three(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %t = memref.alloc() : memref<8xf32>
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %t[%i] : memref<8xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %t[%i] : memref<8xf32>
    %w = arith.addf %v, %v : f32
    memref.store %w, %t[%i] : memref<8xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %t[%i] : memref<8xf32>
    memref.store %v, %y[%i] : memref<8xf32>
    scf.reduce
  }
  memref.dealloc %t : memref<8xf32>
  return
}

// -----

// Calls stay in the function, between the same ops, and no group spans
// one: each loop nest gets its own function although two would fit in one.
// A stack buffer stays in the frame that outlives its users.
// CHECK-LABEL: func.func @timed(
// CHECK: %[[S:.*]] = memref.alloca() : memref<8xf32>
// CHECK-NEXT: call @tick() : () -> ()
// CHECK-NEXT: call @timed_part(%{{.*}}, %[[S]])
// CHECK-NEXT: call @tick() : () -> ()
// CHECK-NEXT: call @timed_part_0(%[[S]], %{{.*}})
// CHECK-NEXT: call @tick() : () -> ()
// CHECK-NEXT: return
// CHECK-LABEL: func.func private @timed_part(
// CHECK-NOT: call
// CHECK-NOT: memref.alloca
// CHECK: scf.parallel
// CHECK-NOT: scf.parallel
// CHECK: return
// CHECK-LABEL: func.func private @timed_part_0(
// CHECK: scf.parallel
func.func private @tick()
func.func @timed(%x: memref<8xf32>, %y: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %s = memref.alloca() : memref<8xf32>
  func.call @tick() : () -> ()
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %x[%i] : memref<8xf32>
    memref.store %v, %s[%i] : memref<8xf32>
    scf.reduce
  }
  func.call @tick() : () -> ()
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    %v = memref.load %s[%i] : memref<8xf32>
    memref.store %v, %y[%i] : memref<8xf32>
    scf.reduce
  }
  func.call @tick() : () -> ()
  return
}

// -----

// A taken name: the part is renamed by the symbol table.
// CHECK-LABEL: func.func @named(
// CHECK: call @[[PART:named_part_[0-9]+]](
// CHECK: func.func private @[[PART]](
// CHECK: scf.parallel
// CHECK: func.func private @named_part()
func.func @named(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %f, %x[%i] : memref<8xf32>
    scf.reduce
  }
  return
}
func.func private @named_part()

// -----

// negative_no_loops: a function without loop nests is left as it is.
// CHECK-LABEL: func.func @negative_no_loops(
// CHECK-NOT: call
// CHECK: memref.copy
// CHECK-NEXT: return
// CHECK-NOT: func.func private
func.func @negative_no_loops(%x: memref<8xf32>, %y: memref<8xf32>) {
  memref.copy %x, %y : memref<8xf32> to memref<8xf32>
  return
}

// -----

// negative_blocks: a function of more than one block is left as it is.
// CHECK-LABEL: func.func @negative_blocks(
// CHECK-NOT: call
// CHECK: scf.parallel
// CHECK: cf.br
// CHECK-NOT: func.func private
func.func @negative_blocks(%x: memref<8xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %f = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c8) step (%c1) {
    memref.store %f, %x[%i] : memref<8xf32>
    scf.reduce
  }
  cf.br ^bb1
^bb1:
  return
}

// -----

// BAD-OPTION
// expected-error@+1 {{kiln-outline-regions: 'regions' must be positive, got 0}}
module {
  func.func @bad_option() {
    return
  }
}
// END-BAD-OPTION

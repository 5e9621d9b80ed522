// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln-memory-plan)' | FileCheck %s

// The plan is the most bytes live at once in program order: a (400) and
// b (800) overlap; c (200) comes after a is freed.
// CHECK-LABEL: module attributes {kiln.memory_plan = 1200 : i64}
module {
  func.func @sequence() {
    %a = memref.alloc() : memref<100xf32>
    %b = memref.alloc() : memref<200xf32>
    memref.dealloc %a : memref<100xf32>
    %c = memref.alloc() : memref<50xf32>
    memref.dealloc %b : memref<200xf32>
    memref.dealloc %c : memref<50xf32>
    return
  }
}

// -----

// A thread block's scratch counts once per iteration of its scf.forall
// (2 x 3 blocks x 64 bytes), beside the 100 bytes around it; scratch in a
// sequential loop once (freed in its iteration).
// CHECK-LABEL: module attributes {kiln.memory_plan = 484 : i64}
module {
  func.func @blocks(%n: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %outer = memref.alloc() : memref<25xf32>
    scf.forall (%i, %j) in (2, 3) {
      %t = memref.alloc() : memref<16xf32>
      memref.dealloc %t : memref<16xf32>
    }
    scf.for %k = %c0 to %n step %c1 {
      %u = memref.alloc() : memref<30xf32>
      memref.dealloc %u : memref<30xf32>
    }
    memref.dealloc %outer : memref<25xf32>
    return
  }
}

// -----

// Element sizes: i1 and i8 one byte each, index eight, f16 two; a buffer
// never freed stays live to the end.
// CHECK-LABEL: module attributes {kiln.memory_plan = 108 : i64}
module {
  func.func @elements() -> memref<4xf16> {
    %a = memref.alloc() : memref<10xi1>
    %b = memref.alloc() : memref<10xi8>
    %c = memref.alloc() : memref<10xindex>
    %d = memref.alloc() : memref<4xf16>
    memref.dealloc %a : memref<10xi1>
    memref.dealloc %b : memref<10xi8>
    memref.dealloc %c : memref<10xindex>
    return %d : memref<4xf16>
  }
}

// -----

// negative_plan: a dynamic size has no bytes to count; a private function
// is not an entry (its buffers count where it is called, not here); the
// module records the largest plan of its public functions.
// CHECK-LABEL: module attributes {kiln.memory_plan = 64 : i64}
module {
  func.func @dynamic(%n: index) {
    %a = memref.alloc(%n) : memref<?xf32>
    %b = memref.alloc() : memref<16xf32>
    memref.dealloc %a : memref<?xf32>
    memref.dealloc %b : memref<16xf32>
    return
  }
  func.func private @helper() {
    %a = memref.alloc() : memref<1000xf32>
    memref.dealloc %a : memref<1000xf32>
    return
  }
  func.func @small() {
    %a = memref.alloc() : memref<4xf32>
    memref.dealloc %a : memref<4xf32>
    return
  }
}

// -----

// negative_empty: nothing allocated.
// CHECK-LABEL: module attributes {kiln.memory_plan = 0 : i64}
module {
  func.func @none() {
    return
  }
}

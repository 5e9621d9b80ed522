// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(kiln-instrument-ops)' | FileCheck %s

// Records: the conv's padded buffer is cleared (segment 1), the pool
// writes into it (segment 2), the conv+relu group runs (segment 3). Segments
// 1 and 3 share the conv: one record listing the group's two nodes, with
// the conv's FLOPs and the group's output; the pool is record 1. Allocs,
// views, constants and deallocs join the segment around them; the helper
// function is not the entry and stays as it is. Node names are escaped.

#f = loc("m.onnx":0:0)
#conv = loc("conv (Conv)"(#f))
#relu = loc("relu (Relu)"(#f))
#pool = loc("pool 1 (MaxPool)"(#f))
module attributes {kiln.profile, kiln.profile.nodes = {"conv (Conv)" = {flops = 96 : i64, type = tensor<2x4xf32>}, "relu (Relu)" = {flops = 0 : i64, type = tensor<2x4xf32>}, "pool 1 (MaxPool)" = {flops = 0 : i64, type = tensor<2x4xf32>}}} {
  func.func private @helper(%a: memref<2x4xf32>) {
    %c = arith.constant 1.0 : f32 loc(#conv)
    linalg.fill ins(%c : f32) outs(%a : memref<2x4xf32>) loc(#conv)
    return
  }
  func.func @main_graph(%x: memref<2x4xf32>, %y: memref<2x4xf32>) {
    %zero = arith.constant 0.0 : f32 loc(#f)
    %pad = memref.alloc() : memref<2x4xf32> loc(#conv)
    linalg.fill ins(%zero : f32) outs(%pad : memref<2x4xf32>) loc(#conv)
    linalg.copy ins(%x : memref<2x4xf32>) outs(%pad : memref<2x4xf32>) loc(#pool)
    scf.forall (%i) in (2) {
      %s = memref.subview %pad[%i, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>> loc(#conv)
      %t = memref.subview %y[%i, 0] [1, 4] [1, 1] : memref<2x4xf32> to memref<4xf32, strided<[1], offset: ?>> loc(#conv)
      linalg.copy ins(%s : memref<4xf32, strided<[1], offset: ?>>) outs(%t : memref<4xf32, strided<[1], offset: ?>>) loc(#conv)
      linalg.fill ins(%zero : f32) outs(%t : memref<4xf32, strided<[1], offset: ?>>) loc(#relu)
    } loc(#conv)
    memref.dealloc %pad : memref<2x4xf32> loc(#f)
    return loc(#f)
  }
}

// CHECK: module attributes {{{.*}}kiln.profile.records = "profile-op 0 96 2 2 4 2 Conv conv Relu relu\0Aprofile-op 1 0 2 2 4 1 MaxPool pool%201\0A"}
// CHECK-LABEL: func.func private @kiln.profile.now() -> i64
// CHECK: call @clock_gettime(%{{.*}}, %{{.*}}) : (i32, !llvm.ptr) -> i32
// CHECK: func.func private @clock_gettime(i32, !llvm.ptr) -> i32
// CHECK-LABEL: func.func private @kiln.profile.record(
// CHECK-SAME: %{{.*}}: index, %{{.*}}: i64, %{{.*}}: i64, %{{.*}}: i64)
// CHECK: memref.get_global @kiln.profile.counters : memref<3x5xi64>
// CHECK: memref.global "private" @kiln.profile.counters : memref<3x5xi64> = dense<0>
// CHECK-LABEL: func.func private @helper(
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: return
// CHECK-LABEL: func.func @main_graph(
// CHECK-NEXT: %[[T0:.*]] = call @kiln.profile.now()
// CHECK: memref.alloc
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: %[[T1:.*]] = call @kiln.profile.now()
// CHECK-NEXT: %[[R0:.*]] = arith.constant 0 : index
// CHECK-NEXT: call @kiln.profile.record(%[[R0]], %[[T0]], %[[T0]], %[[T1]])
// CHECK-NEXT: linalg.copy
// CHECK-NEXT: %[[T2:.*]] = call @kiln.profile.now()
// CHECK-NEXT: %[[R1:.*]] = arith.constant 1 : index
// CHECK-NEXT: call @kiln.profile.record(%[[R1]], %[[T0]], %[[T1]], %[[T2]])
// CHECK-NEXT: scf.forall
// CHECK: memref.dealloc
// CHECK-NEXT: %[[T3:.*]] = call @kiln.profile.now()
// CHECK-NEXT: %[[R2:.*]] = arith.constant 0 : index
// CHECK-NEXT: call @kiln.profile.record(%[[R2]], %[[T0]], %[[T2]], %[[T3]])
// CHECK-NEXT: %[[WHOLE:.*]] = arith.constant 2 : index
// CHECK-NEXT: call @kiln.profile.record(%[[WHOLE]], %[[T0]], %[[T0]], %[[T3]])
// CHECK-NEXT: return

// -----

// negative_not_requested: without kiln.profile on the module nothing
// changes.
#f = loc("m.onnx":0:0)
module {
  func.func @main_graph(%x: memref<4xf32>) {
    %c = arith.constant 1.0 : f32 loc(#f)
    linalg.fill ins(%c : f32) outs(%x : memref<4xf32>) loc("a (Relu)"(#f))
    return
  }
}

// CHECK-LABEL: module {
// CHECK-NOT: kiln.profile
// CHECK: func.func @main_graph(
// CHECK-NEXT: arith.constant
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: return

// -----

// negative_no_nodes: an entry whose ops name no ONNX node (a value name is
// not a node) has nothing to time: no records, no helpers.
#f = loc("m.onnx":0:0)
module attributes {kiln.profile} {
  func.func @main_graph(%x: memref<4xf32>, %y: memref<4xf32>) {
    memref.copy %x, %y : memref<4xf32> to memref<4xf32> loc("x"(#f))
    return
  }
}

// CHECK-LABEL: module attributes {kiln.profile} {
// CHECK-NOT: kiln.profile.
// CHECK: func.func @main_graph(
// CHECK-NEXT: memref.copy
// CHECK-NEXT: return

// -----

// negative_no_entry: two public functions and no @main_graph: no entry,
// nothing instrumented.
#f = loc("m.onnx":0:0)
module attributes {kiln.profile} {
  func.func @f(%x: memref<4xf32>) {
    %c = arith.constant 1.0 : f32
    linalg.fill ins(%c : f32) outs(%x : memref<4xf32>) loc("a (Relu)"(#f))
    return
  }
  func.func @g(%x: memref<4xf32>) {
    %c = arith.constant 1.0 : f32
    linalg.fill ins(%c : f32) outs(%x : memref<4xf32>) loc("b (Relu)"(#f))
    return
  }
}

// CHECK-LABEL: module attributes {kiln.profile} {
// CHECK-NOT: call
// CHECK: func.func @f(
// CHECK-NOT: call
// CHECK: func.func @g(
// CHECK-NOT: call

// -----

// Constants name the node that made them (one ONNX Constant feeding two
// Clips), not the work of their users: the two clips stay two records.
#f = loc("m.onnx":0:0)
#k = loc("bound (Constant)"(#f))
module attributes {kiln.profile} {
  func.func @main_graph(%x: memref<4xf32>, %y: memref<4xf32>) {
    scf.forall (%i) in (4) {
      %c = arith.constant 6.0 : f32 loc(#k)
      memref.store %c, %x[%i] : memref<4xf32> loc("clip1 (Clip)"(#f))
    } loc("clip1 (Clip)"(#f))
    scf.forall (%i) in (4) {
      %c = arith.constant 6.0 : f32 loc(#k)
      memref.store %c, %y[%i] : memref<4xf32> loc("clip2 (Clip)"(#f))
    } loc("clip2 (Clip)"(#f))
    return
  }
}

// CHECK: kiln.profile.records = "profile-op 0 0 - 1 Clip clip1\0Aprofile-op 1 0 - 1 Clip clip2\0A"

// -----

// An ONNX Constant's location fused into its users' (a clip generic fused
// with the broadcast of its bound) names no work: two records again.
#f = loc("m.onnx":0:0)
#k = loc("bound (Constant)"(#f))
module attributes {kiln.profile} {
  func.func @main_graph(%x: memref<4xf32>, %y: memref<4xf32>) {
    %c = arith.constant 6.0 : f32
    linalg.fill ins(%c : f32) outs(%x : memref<4xf32>) loc(fused["clip1 (Clip)"(#f), #k])
    linalg.fill ins(%c : f32) outs(%y : memref<4xf32>) loc(fused["clip2 (Clip)"(#f), #k])
    return
  }
}

// CHECK: kiln.profile.records = "profile-op 0 0 - 1 Clip clip1\0Aprofile-op 1 0 - 1 Clip clip2\0A"

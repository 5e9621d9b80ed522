// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-gpu-stage-io)' | FileCheck %s
// After buffer-results-to-out-params the returned staging buffer is the
// caller's output buffer:
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-gpu-stage-io,buffer-results-to-out-params{hoist-static-allocs modify-public-functions})' \
// RUN:   | FileCheck %s --check-prefix=OUT

// Each argument is copied into a new buffer its uses then read; each
// returned buffer is copied into a new one, returned instead. The copies
// are marked for kiln-gpu-device-memory (host <-> device).
// CHECK-LABEL: func.func @entry(
// CHECK-SAME: %[[A:.*]]: memref<4x8xf32>, %[[S:.*]]: f32)
// CHECK: %[[DA:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK: memref.copy %[[A]], %[[DA]] {kiln.gpu.transfer}
// CHECK: %[[R:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK: linalg.generic {{.*}} ins(%[[DA]] : memref<4x8xf32>) outs(%[[R]] : memref<4x8xf32>)
// CHECK: %[[H:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK: memref.copy %[[R]], %[[H]] {kiln.gpu.transfer}
// CHECK: return %[[H]]
// OUT-LABEL: func.func @entry(
// OUT-SAME: %[[A:.*]]: memref<4x8xf32>, %{{.*}}: f32, %[[O:.*]]: memref<4x8xf32>)
// OUT: memref.copy %[[A]], %{{.*}} {kiln.gpu.transfer}
// OUT: memref.copy %{{.*}}, %[[O]] {kiln.gpu.transfer}
// OUT-NEXT: return
#id = affine_map<(d0, d1) -> (d0, d1)>
func.func @entry(%a: memref<4x8xf32>, %s: f32) -> memref<4x8xf32> {
  %r = memref.alloc() : memref<4x8xf32>
  linalg.generic {indexing_maps = [#id, #id],
                  iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<4x8xf32>) outs(%r : memref<4x8xf32>) {
  ^bb0(%x: f32, %y: f32):
    %m = arith.mulf %x, %s : f32
    linalg.yield %m : f32
  }
  return %r : memref<4x8xf32>
}

// -----

// Private functions and declarations are not entries: left alone.
// CHECK-LABEL: func.func private @helper(
// CHECK-NOT: kiln.gpu.transfer
// CHECK: return
func.func private @helper(%a: memref<4xf32>) -> memref<4xf32> {
  return %a : memref<4xf32>
}

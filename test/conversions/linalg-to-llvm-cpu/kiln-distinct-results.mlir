// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(kiln-distinct-results))' | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(kiln-distinct-results),buffer-results-to-out-params{hoist-static-allocs modify-public-functions})' | FileCheck %s --check-prefix=OUT

// A buffer returned twice: the second result gets its own allocation and a
// copy, so buffer-results-to-out-params (which crashes on a repeated
// buffer) can give each out-parameter its own.
// CHECK-LABEL: func.func @twice
// CHECK: %[[A:.*]] = memref.alloc() : memref<0xf32>
// CHECK: %[[B:.*]] = memref.alloc() : memref<0xf32>
// CHECK: memref.copy %[[A]], %[[B]]
// CHECK: return %[[A]], %[[B]]
// OUT-LABEL: func.func @twice
// OUT-SAME: (%{{.*}}: memref<0xf32>, %{{.*}}: memref<0xf32>)
func.func @twice() -> (memref<0xf32>, memref<0xf32>) {
  %a = memref.alloc() : memref<0xf32>
  return %a, %a : memref<0xf32>, memref<0xf32>
}

// negative_distinct: distinct buffers are left alone.
// CHECK-LABEL: func.func @negative_distinct
// CHECK-NOT: memref.copy
// CHECK: return
func.func @negative_distinct() -> (memref<2xf32>, memref<2xf32>) {
  %a = memref.alloc() : memref<2xf32>
  %b = memref.alloc() : memref<2xf32>
  return %a, %b : memref<2xf32>, memref<2xf32>
}

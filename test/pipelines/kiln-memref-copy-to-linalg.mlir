// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-memref-copy-to-linalg)' | FileCheck %s

// A copy into a strided subview would become a memrefCopy call: it turns
// into linalg.copy.
// CHECK-LABEL: func.func @strided
// CHECK: linalg.copy ins(%arg0 : memref<2x2xf32>) outs(%{{.*}} : memref<2x2xf32, strided<[4, 1], offset: 5>>)
// CHECK-NOT: memref.copy
func.func @strided(%src: memref<2x2xf32>, %dst: memref<4x4xf32>) {
  %v = memref.subview %dst[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  memref.copy %src, %v : memref<2x2xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  return
}

// negative_identity: a copy between identity layouts stays (a memcpy).
// CHECK-LABEL: func.func @negative_identity
// CHECK: memref.copy %arg0, %arg1
// CHECK-NOT: linalg.copy
func.func @negative_identity(%src: memref<2x2xf32>, %dst: memref<2x2xf32>) {
  memref.copy %src, %dst : memref<2x2xf32> to memref<2x2xf32>
  return
}

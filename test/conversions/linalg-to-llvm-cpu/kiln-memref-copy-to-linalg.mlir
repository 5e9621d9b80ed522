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

// A host/device transfer (marked by kiln-gpu-stage-io) whose device side is
// a strided view stays one contiguous copy: the view is gathered into a
// contiguous buffer by a linalg.copy (a kernel), which is then transferred
// and freed.
// CHECK-LABEL: func.func @transfer_from_view
// CHECK: %[[V:.*]] = memref.subview
// CHECK: %[[TMP:.*]] = memref.alloc() : memref<1x3x5xf32>
// CHECK: linalg.copy ins(%[[V]] : memref<1x3x5xf32, strided<[15, 5, 1], offset: 15>>) outs(%[[TMP]] : memref<1x3x5xf32>)
// CHECK: memref.copy %[[TMP]], %arg1 {kiln.gpu.transfer}
// CHECK: memref.dealloc %[[TMP]]
func.func @transfer_from_view(%dev: memref<2x3x5xf32>, %out: memref<1x3x5xf32>) {
  %v = memref.subview %dev[1, 0, 0] [1, 3, 5] [1, 1, 1] : memref<2x3x5xf32> to memref<1x3x5xf32, strided<[15, 5, 1], offset: 15>>
  memref.copy %v, %out {kiln.gpu.transfer} : memref<1x3x5xf32, strided<[15, 5, 1], offset: 15>> to memref<1x3x5xf32>
  return
}

// The other way (a host input scattered into a view): transfer first.
// CHECK-LABEL: func.func @transfer_into_view
// CHECK: %[[V:.*]] = memref.subview
// CHECK: %[[TMP:.*]] = memref.alloc() : memref<2x2xf32>
// CHECK: memref.copy %arg0, %[[TMP]] {kiln.gpu.transfer}
// CHECK: linalg.copy ins(%[[TMP]] : memref<2x2xf32>) outs(%[[V]] : memref<2x2xf32, strided<[4, 1], offset: 5>>)
// CHECK: memref.dealloc %[[TMP]]
func.func @transfer_into_view(%in: memref<2x2xf32>, %dev: memref<4x4xf32>) {
  %v = memref.subview %dev[1, 1] [2, 2] [1, 1] : memref<4x4xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  memref.copy %in, %v {kiln.gpu.transfer} : memref<2x2xf32> to memref<2x2xf32, strided<[4, 1], offset: 5>>
  return
}

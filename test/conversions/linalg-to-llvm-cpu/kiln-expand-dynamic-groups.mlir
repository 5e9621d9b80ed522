// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-expand-dynamic-groups)' | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-expand-dynamic-groups,expand-strided-metadata,canonicalize)' | FileCheck %s --check-prefix=LOWERED

// An expand with two dynamic dims in one group (which MLIR 22's
// expand-strided-metadata cannot take) is a reinterpret_cast of its source's
// base buffer: the group's last dim keeps the source dim's stride, the dim
// before it strides over it; expand-strided-metadata then runs.
// CHECK-LABEL: func.func @two_dynamic
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}:2, %[[STRIDES:.*]]:2 = memref.extract_strided_metadata %arg0
// CHECK: %[[S0:.*]] = arith.muli %[[STRIDES]]#0, %arg2 : index
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [0], sizes: [%arg1, %arg2, 8], strides: [%[[S0]], 8, 1] : memref<f32> to memref<?x?x8xf32>
// CHECK-NOT: memref.expand_shape
// LOWERED-LABEL: func.func @two_dynamic
// LOWERED: %[[S0:.*]] = arith.muli %arg2, %c8 : index
// LOWERED: memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg1, %arg2, 8], strides: [%[[S0]], 8, 1]
func.func @two_dynamic(%m: memref<?x8xf32>, %a: index, %b: index) -> f32 {
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%a, %b, 8] : memref<?x8xf32> into memref<?x?x8xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %e[%c0, %c0, %c0] : memref<?x?x8xf32>
  return %v : f32
}

// A view: the rows [%r, %r + a * b) of a padded product output, and the
// second half of each row of a strided buffer (Q of a packed [Q, K] row).
// The offset and the source's strides carry over.
// CHECK-LABEL: func.func @views
// CHECK-NOT: memref.expand_shape
// LOWERED-LABEL: func.func @views
// LOWERED: %[[ROW0:.*]] = affine.apply #{{.*}}()[%arg3]
// LOWERED: %[[S0:.*]] = arith.muli %arg2, %c8 : index
// LOWERED: memref.reinterpret_cast %arg0 to offset: [%[[ROW0]]], sizes: [%arg1, %arg2, 8], strides: [%[[S0]], 8, 1]
// LOWERED: %[[S1:.*]] = arith.muli %arg2, %c16 : index
// LOWERED: memref.reinterpret_cast %arg4 to offset: [8], sizes: [%arg1, %arg2, 8], strides: [%[[S1]], 16, 1]
func.func @views(%m: memref<?x8xf32>, %a: index, %b: index, %r: index, %qk: memref<?x16xf32>) -> (memref<?x?x8xf32, strided<[?, 8, 1], offset: ?>>, memref<?x?x8xf32, strided<[?, 16, 1], offset: 8>>) {
  %n = arith.muli %a, %b : index
  %rows = memref.subview %m[%r, 0] [%n, 8] [1, 1] : memref<?x8xf32> to memref<?x8xf32, strided<[8, 1], offset: ?>>
  %e = memref.expand_shape %rows [[0, 1], [2]] output_shape [%a, %b, 8] : memref<?x8xf32, strided<[8, 1], offset: ?>> into memref<?x?x8xf32, strided<[?, 8, 1], offset: ?>>
  %q = memref.subview %qk[0, 8] [%n, 8] [1, 1] : memref<?x16xf32> to memref<?x8xf32, strided<[16, 1], offset: 8>>
  %f = memref.expand_shape %q [[0, 1], [2]] output_shape [%a, %b, 8] : memref<?x8xf32, strided<[16, 1], offset: 8>> into memref<?x?x8xf32, strided<[?, 16, 1], offset: 8>>
  return %e, %f : memref<?x?x8xf32, strided<[?, 8, 1], offset: ?>>, memref<?x?x8xf32, strided<[?, 16, 1], offset: 8>>
}

// One dynamic dim per group stays an expand (expand-strided-metadata takes it).
// CHECK-LABEL: func.func @one_dynamic
// CHECK: memref.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [%arg1, 4, 8]
func.func @one_dynamic(%m: memref<?x8xf32>, %a: index) -> memref<?x4x8xf32> {
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%a, 4, 8] : memref<?x8xf32> into memref<?x4x8xf32>
  return %e : memref<?x4x8xf32>
}

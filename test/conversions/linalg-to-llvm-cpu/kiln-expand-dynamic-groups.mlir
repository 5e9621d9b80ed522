// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-expand-dynamic-groups)' | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(kiln-expand-dynamic-groups,expand-strided-metadata)' | FileCheck %s --check-prefix=LOWERED

// An expand of a contiguous buffer with two dynamic dims in one group (which
// MLIR 22's expand-strided-metadata cannot take) is a reinterpret_cast with
// the row-major strides of its sizes; expand-strided-metadata then runs.
// CHECK-LABEL: func.func @two_dynamic
// CHECK: %[[S1:.*]] = arith.muli %c1, %c8 : index
// CHECK: %[[S0:.*]] = arith.muli %[[S1]], %arg2 : index
// CHECK: memref.reinterpret_cast %arg0 to offset: [0], sizes: [%arg1, %arg2, 8], strides: [%[[S0]], 8, 1] : memref<?x8xf32> to memref<?x?x8xf32>
// CHECK-NOT: memref.expand_shape
// LOWERED-LABEL: func.func @two_dynamic
func.func @two_dynamic(%m: memref<?x8xf32>, %a: index, %b: index) -> f32 {
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%a, %b, 8] : memref<?x8xf32> into memref<?x?x8xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %e[%c0, %c0, %c0] : memref<?x?x8xf32>
  return %v : f32
}

// One dynamic dim per group stays an expand (expand-strided-metadata takes it).
// CHECK-LABEL: func.func @one_dynamic
// CHECK: memref.expand_shape %arg0 {{\[\[}}0, 1], [2]] output_shape [%arg1, 4, 8]
func.func @one_dynamic(%m: memref<?x8xf32>, %a: index) -> memref<?x4x8xf32> {
  %e = memref.expand_shape %m [[0, 1], [2]] output_shape [%a, 4, 8] : memref<?x8xf32> into memref<?x4x8xf32>
  return %e : memref<?x4x8xf32>
}

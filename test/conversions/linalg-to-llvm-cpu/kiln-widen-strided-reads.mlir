// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(kiln-widen-strided-reads))' | FileCheck %s

// A read of 16 elements with stride 2 (a stride-2 conv's window): the 31
// elements it spans, from the element offset of %s[%i, %j] in the base
// buffer, read as two contiguous vectors (at 0 and 15) and one shuffle of
// the window's even elements.
// CHECK-LABEL: func.func @stride2
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK: %[[R:.*]] = arith.muli %arg1, %[[ST]]#0
// CHECK: %[[O1:.*]] = arith.addi %[[OFF]], %[[R]]
// CHECK: %[[C:.*]] = arith.muli %arg2, %[[ST]]#1
// CHECK: %[[O2:.*]] = arith.addi %[[O1]], %[[C]]
// CHECK: %[[ROW:.*]] = memref.reinterpret_cast %[[BASE]] to offset: [%[[O2]]], sizes: [31], strides: [1] : memref<f32> to memref<31xf32, strided<[1], offset: ?>>
// CHECK: %[[A:.*]] = vector.transfer_read %[[ROW]][%c0], %{{.*}} {in_bounds = [true]} : memref<31xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK: %[[B:.*]] = vector.transfer_read %[[ROW]][%c15], %{{.*}} {in_bounds = [true]} : memref<31xf32, strided<[1], offset: ?>>, vector<16xf32>
// CHECK: %[[V:.*]] = vector.shuffle %[[A]], %[[B]] [0, 2, 4, 6, 8, 10, 12, 14, 17, 19, 21, 23, 25, 27, 29, 31]
// CHECK: return %[[V]]
func.func @stride2(%m: memref<4x40xf32>, %i: index, %j: index) -> vector<16xf32> {
  %pad = arith.constant 0.0 : f32
  %s = memref.subview %m[0, 1] [4, 16] [1, 2] : memref<4x40xf32> to memref<4x16xf32, strided<[40, 2], offset: 1>>
  %v = vector.transfer_read %s[%i, %j], %pad {in_bounds = [true]} : memref<4x16xf32, strided<[40, 2], offset: 1>>, vector<16xf32>
  return %v : vector<16xf32>
}

// -----

// An odd number of lanes (7: a 7-wide output row): reads at 0 and 6 of the
// 13 elements; elements 0, 2, 4, 6 from the first, 8, 10, 12 from the
// second.
// CHECK-LABEL: func.func @odd_lanes
// CHECK: memref.reinterpret_cast {{.*}} sizes: [13], strides: [1]
// CHECK: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 9, 11, 13] : vector<7xf64>, vector<7xf64>
func.func @odd_lanes(%m: memref<2x15xf64>) -> vector<7xf64> {
  %pad = arith.constant 0.0 : f64
  %c0 = arith.constant 0 : index
  %s = memref.subview %m[0, 0] [2, 7] [1, 2] : memref<2x15xf64> to memref<2x7xf64, strided<[15, 2]>>
  %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true]} : memref<2x7xf64, strided<[15, 2]>>, vector<7xf64>
  return %v : vector<7xf64>
}

// -----

// A masked remainder (masked_remainders.h): 8 lanes out of bounds from
// index 0 of a row of 7, so 7 valid lanes spanning 13 elements. The first
// read (lanes 0..7) stays within them; the second (7..14) runs 2 past their
// end, out of bounds (masked: in_bounds false, not printed), and only
// feeds the last, unused lane.
// CHECK-LABEL: func.func @masked_remainder
// CHECK: %[[ROW:.*]] = memref.reinterpret_cast {{.*}} sizes: [13], strides: [1]
// CHECK: %[[A:.*]] = vector.transfer_read %[[ROW]][%{{.*}}], %{{.*}} {in_bounds = [true]} : {{.*}}, vector<8xf32>
// CHECK: %[[B:.*]] = vector.transfer_read %[[ROW]][%c7], %{{[a-z0-9_]*}} : {{.*}}, vector<8xf32>
// CHECK: vector.shuffle %[[A]], %[[B]] [0, 2, 4, 6, 9, 11, 13, 15] : vector<8xf32>, vector<8xf32>
func.func @masked_remainder(%m: memref<2x15xf32>) -> vector<8xf32> {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %s = memref.subview %m[0, 0] [2, 7] [1, 2] : memref<2x15xf32> to memref<2x7xf32, strided<[15, 2]>>
  %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [false]} : memref<2x7xf32, strided<[15, 2]>>, vector<8xf32>
  return %v : vector<8xf32>
}

// -----

// A 2-D read (a strided depthwise conv's register tile of 3 rows): each row
// widened from its own offset, the first's plus the row index times the
// outer stride, the rows put together with vector.insert.
// CHECK-LABEL: func.func @rows
// CHECK: %[[BASE:.*]], %[[OFF:.*]], %{{.*}}:2, %[[ST:.*]]:2 = memref.extract_strided_metadata
// CHECK: arith.addi
// CHECK: %[[O:.*]] = arith.addi
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<3x8xf32>
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[O]]], sizes: [15], strides: [1]
// CHECK: %[[R0:.*]] = vector.shuffle {{.*}} [0, 2, 4, 6, 9, 11, 13, 15] : vector<8xf32>, vector<8xf32>
// CHECK: %[[V0:.*]] = vector.insert %[[R0]], %[[ZERO]] [0] : vector<8xf32> into vector<3x8xf32>
// CHECK: %[[M1:.*]] = arith.muli %c1, %[[ST]]#0
// CHECK: %[[O1:.*]] = arith.addi %[[O]], %[[M1]]
// CHECK: memref.reinterpret_cast %[[BASE]] to offset: [%[[O1]]], sizes: [15], strides: [1]
// CHECK: %[[R1:.*]] = vector.shuffle
// CHECK: %[[V1:.*]] = vector.insert %[[R1]], %[[V0]] [1]
// CHECK: arith.muli %c2, %[[ST]]#0
// CHECK: %[[V2:.*]] = vector.insert %{{.*}}, %[[V1]] [2]
// CHECK: return %[[V2]]
func.func @rows(%m: memref<8x40xf32>, %i: index) -> vector<3x8xf32> {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %s = memref.subview %m[0, 0] [4, 8] [2, 2] : memref<8x40xf32> to memref<4x8xf32, strided<[80, 2]>>
  %v = vector.transfer_read %s[%i, %c0], %pad {in_bounds = [true, true]} : memref<4x8xf32, strided<[80, 2]>>, vector<3x8xf32>
  return %v : vector<3x8xf32>
}

// -----

// A masked remainder of a 2-D read (rows of 7 widened to 8): every row
// reads its 13 elements, the second half masked.
// CHECK-LABEL: func.func @rows_masked
// CHECK-COUNT-2: vector.shuffle %{{.*}}, %{{.*}} [0, 2, 4, 6, 9, 11, 13, 15]
// CHECK: return
func.func @rows_masked(%m: memref<4x15xf32>) -> vector<2x8xf32> {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %s = memref.subview %m[0, 0] [4, 7] [1, 2] : memref<4x15xf32> to memref<4x7xf32, strided<[15, 2]>>
  %v = vector.transfer_read %s[%c0, %c0], %pad {in_bounds = [true, false]} : memref<4x7xf32, strided<[15, 2]>>, vector<2x8xf32>
  return %v : vector<2x8xf32>
}

// -----

// Left alone: a contiguous read, stride 3, a read that may run out of
// bounds from an unknown start, a masked read, a 2-D read whose rows may run out of bounds, a read across
// the outer dim, a
// dynamic innermost stride, a tensor read.
// CHECK-LABEL: func.func @negatives
// CHECK-NOT: vector.shuffle
// CHECK-NOT: memref.reinterpret_cast
// CHECK: return
func.func @negatives(%m: memref<8x40xf32>, %d: memref<8x40xf32, strided<[40, ?]>>, %t: tensor<8x40xf32>, %mask: vector<8xi1>, %j: index)
    -> (vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<2x8xf32>, vector<4xf32>, vector<8xf32>, vector<8xf32>) {
  %pad = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %a = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true]} : memref<8x40xf32>, vector<8xf32>
  %s3 = memref.subview %m[0, 0] [8, 8] [1, 3] : memref<8x40xf32> to memref<8x8xf32, strided<[40, 3]>>
  %b = vector.transfer_read %s3[%c0, %c0], %pad {in_bounds = [true]} : memref<8x8xf32, strided<[40, 3]>>, vector<8xf32>
  %s2 = memref.subview %m[0, 0] [8, 8] [1, 2] : memref<8x40xf32> to memref<8x8xf32, strided<[40, 2]>>
  %c = vector.transfer_read %s2[%c0, %j], %pad {in_bounds = [false]} : memref<8x8xf32, strided<[40, 2]>>, vector<8xf32>
  %e = vector.transfer_read %s2[%c0, %c0], %pad, %mask {in_bounds = [true]} : memref<8x8xf32, strided<[40, 2]>>, vector<8xf32>
  %f = vector.transfer_read %s2[%j, %c0], %pad {in_bounds = [false, true]} : memref<8x8xf32, strided<[40, 2]>>, vector<2x8xf32>
  %g = vector.transfer_read %s2[%c0, %c0], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<8x8xf32, strided<[40, 2]>>, vector<4xf32>
  %h = vector.transfer_read %d[%c0, %c0], %pad {in_bounds = [true]} : memref<8x40xf32, strided<[40, ?]>>, vector<8xf32>
  %k = vector.transfer_read %t[%c0, %c0], %pad {in_bounds = [true]} : tensor<8x40xf32>, vector<8xf32>
  return %a, %b, %c, %e, %f, %g, %h, %k : vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<8xf32>, vector<2x8xf32>, vector<4xf32>, vector<8xf32>, vector<8xf32>
}

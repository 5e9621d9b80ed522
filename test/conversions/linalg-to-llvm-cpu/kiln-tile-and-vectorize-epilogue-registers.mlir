// Epilogues in registers (epilogue_registers.c): the run of
// kiln-tile-and-vectorize on buffers computes an in-place elementwise
// epilogue (here a residual Add and a Clip, as after a conv) on each
// register tile's accumulators before their store, reading the other
// inputs' tiles through the same subviews, and erases the generic: no
// second pass over the block in memory. Negative cases: the tiles read
// the output back (a cache loop revisiting them), an input of another
// layout, loops that do not write all of the output.
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{rows=8 vector-size=16 contractions=false elementwise=true}))' \
// RUN:   | FileCheck %s

// CHECK-LABEL: func.func @conv_add_clip
// CHECK-SAME: %[[R:[^:]*]]: memref<1x16x2x16xf32>, %[[O:[^:]*]]: memref<1x16x2x16xf32>
// CHECK-NOT: linalg.generic
// CHECK: scf.for %[[M:.*]] = %c0 to %c16{{.*}} step %c8
// CHECK: scf.for %[[P:.*]] = %c0 to %c32 step %c16
// CHECK: %[[T:.*]] = memref.subview %{{.*}}[0, 0, 0] [1, 8, 16]
// CHECK: %[[ACC:.*]] = scf.for
// CHECK: %[[RC:.*]] = memref.collapse_shape %[[R]] {{\[}}[0], [1], [2, 3]]
// CHECK: %[[RS:.*]] = memref.subview %[[RC]][0, %[[M]], %[[P]]] [1, 8, 16]
// CHECK: %[[RT:.*]] = memref.subview %[[RS]][0, 0, 0] [1, 8, 16]
// CHECK: %[[RV:.*]] = vector.transfer_read %[[RT]][%c0, %c0]
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %[[RV]] : vector<8x16xf32>
// CHECK: %[[LO:.*]] = arith.maximumf %[[SUM]], %{{.*}} : vector<8x16xf32>
// CHECK: %[[Y:.*]] = arith.minimumf %[[LO]], %{{.*}} : vector<8x16xf32>
// CHECK: vector.transfer_write %[[Y]], %[[T]][%c0, %c0]
// CHECK-NOT: arith.minimumf
// CHECK: return
func.func @conv_add_clip(%w: memref<16x4xf32>, %x: memref<4x32xf32>, %r: memref<1x16x2x16xf32>, %o: memref<1x16x2x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %hi = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant 0.0 : f32
  %z = vector.broadcast %zero : f32 to vector<8x16xf32>
  %six = arith.constant 6.0 : f32
  %flat = memref.collapse_shape %o [[0], [1], [2, 3]] : memref<1x16x2x16xf32> into memref<1x16x32xf32>
  scf.for %m = %c0 to %hi step %c8 {
    scf.for %p = %c0 to %c32 step %c16 {
      %t3 = memref.subview %flat[0, %m, %p] [1, 8, 16] [1, 1, 1] : memref<1x16x32xf32> to memref<1x8x16xf32, strided<[512, 32, 1], offset: ?>>
      %t = memref.subview %t3[0, 0, 0] [1, 8, 16] [1, 1, 1] : memref<1x8x16xf32, strided<[512, 32, 1], offset: ?>> to memref<8x16xf32, strided<[32, 1], offset: ?>>
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %z) -> (vector<8x16xf32>) {
        %wv = vector.transfer_read %w[%m, %k], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<16x4xf32>, vector<8x16xf32>
        %xv = vector.transfer_read %x[%k, %p], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<4x32xf32>, vector<8x16xf32>
        %f = arith.mulf %wv, %xv fastmath<contract> : vector<8x16xf32>
        %s = arith.addf %a, %f fastmath<contract> : vector<8x16xf32>
        scf.yield %s : vector<8x16xf32>
      }
      vector.transfer_write %acc, %t[%c0, %c0] {in_bounds = [true, true]} : vector<8x16xf32>, memref<8x16xf32, strided<[32, 1], offset: ?>>
    }
  }
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o, %r : memref<1x16x2x16xf32>, memref<1x16x2x16xf32>) outs(%o : memref<1x16x2x16xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %sum = arith.addf %in, %res : f32
    %lo = arith.maximumf %sum, %pad : f32
    %y = arith.minimumf %lo, %six : f32
    linalg.yield %y : f32
  }
  return
}

// -----

// The tiles read their accumulators back: the generic stays a pass (it is
// vectorized after the loops).
// CHECK-LABEL: func.func @negative_tile_read_back
// CHECK: %[[ACC:.*]] = scf.for
// CHECK: vector.transfer_write %[[ACC]]
// CHECK: arith.minimumf
func.func @negative_tile_read_back(%w: memref<16x4xf32>, %x: memref<4x32xf32>, %r: memref<1x16x2x16xf32>, %o: memref<1x16x2x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %hi = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant 0.0 : f32
  %z = vector.broadcast %zero : f32 to vector<8x16xf32>
  %six = arith.constant 6.0 : f32
  %flat = memref.collapse_shape %o [[0], [1], [2, 3]] : memref<1x16x2x16xf32> into memref<1x16x32xf32>
  scf.for %m = %c0 to %hi step %c8 {
    scf.for %p = %c0 to %c32 step %c16 {
      %t3 = memref.subview %flat[0, %m, %p] [1, 8, 16] [1, 1, 1] : memref<1x16x32xf32> to memref<1x8x16xf32, strided<[512, 32, 1], offset: ?>>
      %t = memref.subview %t3[0, 0, 0] [1, 8, 16] [1, 1, 1] : memref<1x8x16xf32, strided<[512, 32, 1], offset: ?>> to memref<8x16xf32, strided<[32, 1], offset: ?>>
      %init = vector.transfer_read %t[%c0, %c0], %pad {in_bounds = [true, true]} : memref<8x16xf32, strided<[32, 1], offset: ?>>, vector<8x16xf32>
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %init) -> (vector<8x16xf32>) {
        %wv = vector.transfer_read %w[%m, %k], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<16x4xf32>, vector<8x16xf32>
        %xv = vector.transfer_read %x[%k, %p], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<4x32xf32>, vector<8x16xf32>
        %f = arith.mulf %wv, %xv fastmath<contract> : vector<8x16xf32>
        %s = arith.addf %a, %f fastmath<contract> : vector<8x16xf32>
        scf.yield %s : vector<8x16xf32>
      }
      vector.transfer_write %acc, %t[%c0, %c0] {in_bounds = [true, true]} : vector<8x16xf32>, memref<8x16xf32, strided<[32, 1], offset: ?>>
    }
  }
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o, %r : memref<1x16x2x16xf32>, memref<1x16x2x16xf32>) outs(%o : memref<1x16x2x16xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %sum = arith.addf %in, %res : f32
    %lo = arith.maximumf %sum, %pad : f32
    %y = arith.minimumf %lo, %six : f32
    linalg.yield %y : f32
  }
  return
}

// -----

// The residual's layout is not the output's (its subviews would not have
// the output tile's types): the generic stays a pass.
// CHECK-LABEL: func.func @negative_residual_layout
// CHECK: %[[ACC:.*]] = scf.for
// CHECK: vector.transfer_write %[[ACC]]
// CHECK: arith.minimumf
func.func @negative_residual_layout(%w: memref<16x4xf32>, %x: memref<4x32xf32>, %r: memref<1x16x2x16xf32, strided<[1024, 64, 32, 1]>>, %o: memref<1x16x2x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %hi = arith.constant 16 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant 0.0 : f32
  %z = vector.broadcast %zero : f32 to vector<8x16xf32>
  %six = arith.constant 6.0 : f32
  %flat = memref.collapse_shape %o [[0], [1], [2, 3]] : memref<1x16x2x16xf32> into memref<1x16x32xf32>
  scf.for %m = %c0 to %hi step %c8 {
    scf.for %p = %c0 to %c32 step %c16 {
      %t3 = memref.subview %flat[0, %m, %p] [1, 8, 16] [1, 1, 1] : memref<1x16x32xf32> to memref<1x8x16xf32, strided<[512, 32, 1], offset: ?>>
      %t = memref.subview %t3[0, 0, 0] [1, 8, 16] [1, 1, 1] : memref<1x8x16xf32, strided<[512, 32, 1], offset: ?>> to memref<8x16xf32, strided<[32, 1], offset: ?>>
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %z) -> (vector<8x16xf32>) {
        %wv = vector.transfer_read %w[%m, %k], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<16x4xf32>, vector<8x16xf32>
        %xv = vector.transfer_read %x[%k, %p], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<4x32xf32>, vector<8x16xf32>
        %f = arith.mulf %wv, %xv fastmath<contract> : vector<8x16xf32>
        %s = arith.addf %a, %f fastmath<contract> : vector<8x16xf32>
        scf.yield %s : vector<8x16xf32>
      }
      vector.transfer_write %acc, %t[%c0, %c0] {in_bounds = [true, true]} : vector<8x16xf32>, memref<8x16xf32, strided<[32, 1], offset: ?>>
    }
  }
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o, %r : memref<1x16x2x16xf32>, memref<1x16x2x16xf32, strided<[1024, 64, 32, 1]>>) outs(%o : memref<1x16x2x16xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %sum = arith.addf %in, %res : f32
    %lo = arith.maximumf %sum, %pad : f32
    %y = arith.minimumf %lo, %six : f32
    linalg.yield %y : f32
  }
  return
}

// -----

// The loops write half of the output: the generic stays a pass.
// CHECK-LABEL: func.func @negative_half_written
// CHECK: %[[ACC:.*]] = scf.for
// CHECK: vector.transfer_write %[[ACC]]
// CHECK: arith.minimumf
func.func @negative_half_written(%w: memref<16x4xf32>, %x: memref<4x32xf32>, %r: memref<1x16x2x16xf32>, %o: memref<1x16x2x16xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c8 = arith.constant 8 : index
  %c16 = arith.constant 16 : index
  %c32 = arith.constant 32 : index
  %hi = arith.constant 8 : index
  %pad = arith.constant 0.0 : f32
  %zero = arith.constant 0.0 : f32
  %z = vector.broadcast %zero : f32 to vector<8x16xf32>
  %six = arith.constant 6.0 : f32
  %flat = memref.collapse_shape %o [[0], [1], [2, 3]] : memref<1x16x2x16xf32> into memref<1x16x32xf32>
  scf.for %m = %c0 to %hi step %c8 {
    scf.for %p = %c0 to %c32 step %c16 {
      %t3 = memref.subview %flat[0, %m, %p] [1, 8, 16] [1, 1, 1] : memref<1x16x32xf32> to memref<1x8x16xf32, strided<[512, 32, 1], offset: ?>>
      %t = memref.subview %t3[0, 0, 0] [1, 8, 16] [1, 1, 1] : memref<1x8x16xf32, strided<[512, 32, 1], offset: ?>> to memref<8x16xf32, strided<[32, 1], offset: ?>>
      %acc = scf.for %k = %c0 to %c4 step %c1 iter_args(%a = %z) -> (vector<8x16xf32>) {
        %wv = vector.transfer_read %w[%m, %k], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (d0, 0)>} : memref<16x4xf32>, vector<8x16xf32>
        %xv = vector.transfer_read %x[%k, %p], %pad {in_bounds = [true, true], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<4x32xf32>, vector<8x16xf32>
        %f = arith.mulf %wv, %xv fastmath<contract> : vector<8x16xf32>
        %s = arith.addf %a, %f fastmath<contract> : vector<8x16xf32>
        scf.yield %s : vector<8x16xf32>
      }
      vector.transfer_write %acc, %t[%c0, %c0] {in_bounds = [true, true]} : vector<8x16xf32>, memref<8x16xf32, strided<[32, 1], offset: ?>>
    }
  }
  linalg.generic {indexing_maps = [affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>,
                                   affine_map<(n, c, h, w) -> (n, c, h, w)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel"]}
      ins(%o, %r : memref<1x16x2x16xf32>, memref<1x16x2x16xf32>) outs(%o : memref<1x16x2x16xf32>) {
  ^bb0(%in: f32, %res: f32, %out: f32):
    %sum = arith.addf %in, %res : f32
    %lo = arith.maximumf %sum, %pad : f32
    %y = arith.minimumf %lo, %six : f32
    linalg.yield %y : f32
  }
  return
}

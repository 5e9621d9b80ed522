// Accumulators initialized in registers (register_init.c): the run of
// kiln-tile-and-vectorize after the contractions are vectorized (the
// pipeline's elementwise run) makes each register tile start from the bias
// (a broadcast transfer_read of it) or the fill's scalar, and erases the
// bias or fill op: no pass over the block in memory before the FMAs.
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{rows=8 vector-size=16 reduction-block=256}),func.func(kiln-tile-and-vectorize{rows=8 vector-size=16 contractions=false elementwise=true}))' \
// RUN:   | FileCheck %s

// A matmul without a thread level (37 x 40: too small to split) with a
// bias along the columns: every tile, the peeled remainders (5 rows, 8
// columns) too, reads its 16 (8) columns of the bias, broadcast down its
// rows; the loops start from the bias op's init.
// CHECK-LABEL: func.func @matmul_bias_columns
// CHECK-SAME: %[[BIAS:[^:]*]]: tensor<40xf32>
// CHECK-NOT: linalg.generic
// CHECK: %[[E:.*]] = tensor.empty() : tensor<37x40xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c8 iter_args(%{{.*}} = %[[E]])
// CHECK: scf.for %[[J:.*]] = %c0 to %c32 step %c16
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[BIAS]][%[[J]]], %{{.*}} {in_bounds = [true, true], permutation_map = #[[ROW:map[0-9]*]]} : tensor<40xf32>, vector<8x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%{{.*}} = %[[ACC]]) -> (vector<8x16xf32>)
// CHECK: vector.transfer_read %[[BIAS]]{{.*}} : tensor<40xf32>, vector<8x8xf32>
// CHECK: vector.transfer_read %[[BIAS]]{{.*}} : tensor<40xf32>, vector<5x16xf32>
// CHECK: vector.transfer_read %[[BIAS]]{{.*}} : tensor<40xf32>, vector<5x8xf32>
// CHECK-NOT: vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
// CHECK: return
func.func @matmul_bias_columns(%a: tensor<37x64xf32>, %b: tensor<64x40xf32>,
                               %bias: tensor<40xf32>) -> tensor<37x40xf32> {
  %e = tensor.empty() : tensor<37x40xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>,
                                        affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<40xf32>) outs(%e : tensor<37x40xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<37x40xf32>
  %r = linalg.matmul ins(%a, %b : tensor<37x64xf32>, tensor<64x40xf32>)
                     outs(%c : tensor<37x40xf32>) -> tensor<37x40xf32>
  return %r : tensor<37x40xf32>
}

// -----

// An im2col conv's contraction (a 1x1 conv, 16 input channels) with its
// bias per output channel, fused into each thread block: the tiles read 8
// channels of the bias, broadcast along the pixels, and the block's loops
// start from its slice of the output.
// CHECK-LABEL: func.func @conv_bias_rows
// CHECK-SAME: %[[BIAS:[^:]*]]: tensor<24xf32>
// CHECK: scf.forall (%{{.*}}) in (14) shared_outs(%[[O:.*]] = %{{.*}})
// CHECK-NOT: linalg.generic
// CHECK: %[[S:.*]] = tensor.extract_slice %[[O]]
// CHECK-NOT: linalg.generic
// CHECK: scf.for %[[M:.*]] = %c0 to %c24 step %c8 iter_args(%{{.*}} = %[[S]])
// CHECK: vector.transfer_read %[[BIAS]][%[[M]]], %{{.*}} : tensor<24xf32>, vector<8x16xf32>
// CHECK: scf.forall.in_parallel
func.func @conv_bias_rows(%w: tensor<24x16xf32>, %x: tensor<1x16x3136xf32>,
                          %bias: tensor<24xf32>) -> tensor<1x24x3136xf32> {
  %e = tensor.empty() : tensor<1x24x3136xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(n, m, p) -> (m)>,
                                        affine_map<(n, m, p) -> (n, m, p)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : tensor<24xf32>) outs(%e : tensor<1x24x3136xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x24x3136xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, m, p, k) -> (m, k)>,
                                        affine_map<(n, m, p, k) -> (n, k, p)>,
                                        affine_map<(n, m, p, k) -> (n, m, p)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x : tensor<24x16xf32>, tensor<1x16x3136xf32>)
      outs(%c : tensor<1x24x3136xf32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %p = arith.mulf %u, %v : f32
    %s = arith.addf %o, %p : f32
    linalg.yield %s : f32
  } -> tensor<1x24x3136xf32>
  return %r : tensor<1x24x3136xf32>
}

// -----

// A fill (zero) and a generic yielding a constant (graph-to-linalg's zero
// init of a conv without bias): the tiles start from a broadcast of the
// scalar.
// CHECK-LABEL: func.func @matmul_fill
// CHECK-NOT: linalg.fill
// CHECK: %[[ACC:.*]] = vector.broadcast %{{.*}} : f32 to vector<8x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c96 step %c1 iter_args(%{{.*}} = %[[ACC]])
// CHECK: scf.forall.in_parallel
func.func @matmul_fill(%a: tensor<64x96xf32>,
                       %b: tensor<96x512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<64x512xf32>)
      -> tensor<64x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x512xf32>)
                     outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}

// CHECK-LABEL: func.func @matmul_constant_init
// CHECK-NOT: linalg.generic
// CHECK: vector.broadcast %{{.*}} : f32 to vector<8x16xf32>
func.func @matmul_constant_init(%a: tensor<64x96xf32>,
                                %b: tensor<96x512xf32>) -> tensor<64x512xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<64x512xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      outs(%e : tensor<64x512xf32>) {
  ^bb0(%o: f32):
    linalg.yield %zero : f32
  } -> tensor<64x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x512xf32>)
                     outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}

// -----

// Left alone: a long reduction split into cache blocks visits each tile
// once per block (the cache loop around the register loops does not step
// the tiles' offsets), so only the first visit could start from the bias;
// the bias op stays (tiled by this run: rows x 16 lanes) and the tiles
// read the output.
// CHECK-LABEL: func.func @matmul_cache_blocks
// CHECK: scf.forall
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c1152 step %c192
// CHECK: vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
// CHECK-NOT: vector.transfer_read %arg2[
// CHECK: scf.forall.in_parallel
func.func @matmul_cache_blocks(%a: tensor<64x1152xf32>,
                               %b: tensor<1152x512xf32>,
                               %bias: tensor<512xf32>) -> tensor<64x512xf32> {
  %e = tensor.empty() : tensor<64x512xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>,
                                        affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<512xf32>) outs(%e : tensor<64x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<64x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x1152xf32>, tensor<1152x512xf32>)
                     outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}

// -----

// A bias also returned: the contraction gets its own copy, fused into its
// thread blocks, which starts its tiles in registers; the returned one is
// computed on its own.
// CHECK-LABEL: func.func @bias_used_twice
// CHECK: %[[OWN:.*]] = scf.forall (%{{.*}}) in (64)
// CHECK: %[[R:.*]] = scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
// CHECK: %[[B:.*]] = tensor.extract_slice %arg2
// CHECK: vector.transfer_read %[[B]][%{{.*}}], %{{.*}} : tensor<256xf32>, vector<8x16xf32>
// CHECK: return %[[R]], %[[OWN]]
func.func @bias_used_twice(%a: tensor<64x96xf32>, %b: tensor<96x512xf32>,
                           %bias: tensor<512xf32>)
    -> (tensor<64x512xf32>, tensor<64x512xf32>) {
  %e = tensor.empty() : tensor<64x512xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j)>,
                                        affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%bias : tensor<512xf32>) outs(%e : tensor<64x512xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<64x512xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x96xf32>, tensor<96x512xf32>)
                     outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %r, %c : tensor<64x512xf32>, tensor<64x512xf32>
}

// -----

// A contraction with its output channels innermost (loops n, p, m, k:
// convert-graph-to-linalg{conv-channels-inner} on a 7 x 7 plane): its tiles
// are 8 pixels x 16 channels written back through a transposed map, which
// still cover their slice; each starts from 16 channels of the bias, a
// contiguous vector broadcast down the tile's pixel rows (the one-pixel
// remainder row too).
// CHECK-LABEL: func.func @conv_channels_inner_bias
// CHECK-SAME: %[[BIAS:[^:]*]]: tensor<64xf32>
// CHECK-NOT: linalg.generic
// CHECK: scf.for %{{.*}} = %c0 to %c48 step %c8
// CHECK: scf.for %[[M:.*]] = %c0 to %c64 step %c16
// CHECK: vector.transfer_read %[[BIAS]][%[[M]]], %{{.*}} : tensor<64xf32>, vector<8x16xf32>
// CHECK: vector.transfer_read %[[BIAS]][%{{.*}}], %{{.*}} : tensor<64xf32>, vector<16xf32>
// CHECK-NOT: vector.transfer_read {{.*}} : tensor<16x8xf32>, vector<8x16xf32>
// CHECK: return
func.func @conv_channels_inner_bias(%w: tensor<96x64xf32>,
                                    %x: tensor<1x96x49xf32>,
                                    %bias: tensor<64xf32>)
    -> tensor<1x64x49xf32> {
  %e = tensor.empty() : tensor<1x64x49xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(n, m, p) -> (m)>,
                                        affine_map<(n, m, p) -> (n, m, p)>],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%bias : tensor<64xf32>) outs(%e : tensor<1x64x49xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x64x49xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(n, p, m, k) -> (k, m)>,
                                        affine_map<(n, p, m, k) -> (n, k, p)>,
                                        affine_map<(n, p, m, k) -> (n, m, p)>],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %x : tensor<96x64xf32>, tensor<1x96x49xf32>)
      outs(%c : tensor<1x64x49xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x64x49xf32>
  return %r : tensor<1x64x49xf32>
}

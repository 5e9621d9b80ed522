// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{rows=8 vector-size=16 reduction-block=256}))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{rows=8 vector-size=16 contractions=false elementwise=true}))' \
// RUN:   | FileCheck %s --check-prefix=EW
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{target-triple=x86_64-pc-linux-gnu target-features=+avx2,+fma,+avx512f}))' \
// RUN:   | FileCheck %s --check-prefix=AVX512
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{target-triple=x86_64-pc-linux-gnu target-features=+avx2,+fma}))' \
// RUN:   | FileCheck %s --check-prefix=AVX2
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{target-triple=aarch64-unknown-linux-gnu}))' \
// RUN:   | FileCheck %s --check-prefix=A64
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{rows=8 vector-size=16 reduction-block=-1}))' \
// RUN:   | FileCheck %s --check-prefix=NOBLOCK
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{rows=8 vector-size=16 loop-thread-work=1 reduction-block=256}))' \
// RUN:   | FileCheck %s --check-prefix=LOOPTHREADS
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{rows=8 vector-size=16 reduction-block=256 columns-outer=true}))' \
// RUN:   | FileCheck %s --check-prefix=COLS
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{vector-size=16 target-triple=x86_64-pc-linux-gnu target-features=+avx2,+fma,+avx512f}))' \
// RUN:   | FileCheck %s --check-prefix=VS16
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{wide-vector-size=-1 target-triple=x86_64-pc-linux-gnu target-features=+avx2,+fma,+avx512f}))' \
// RUN:   | FileCheck %s --check-prefix=WIDEOFF
// RUN: sed -n '/^\/\/ BAD-OPTION/,/^\/\/ END-BAD-OPTION/p' %s > %t.bad.mlir
// RUN: kiln-opt %t.bad.mlir --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{vector-size=-1}))'
// RUN: sed -n '/^\/\/ BAD-WIDE/,/^\/\/ END-BAD-WIDE/p' %s > %t.wide.mlir
// RUN: kiln-opt %t.wide.mlir --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-tile-and-vectorize{wide-vector-size=-2}))'

// A matmul with remainders in both output dims (37 = 32 + 5 rows in one
// task of 37; 33 = 2 x 16 + 1 columns): the register loops are peeled, every
// tile is static, the accumulator lives in registers across the reduction
// loop (read before it, written after it) and each step is a broadcast
// column times a broadcast row with contractible multiply and add.
// CHECK-LABEL: func.func @matmul_remainders
// CHECK-NOT: scf.forall
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 iter_args(%[[A:.*]] = %[[ACC]]) -> (vector<8x16xf32>)
// CHECK: vector.transfer_read {{.*}} permutation_map = #{{.*}}} : tensor<8xf32>, vector<8x16xf32>
// CHECK: vector.transfer_read {{.*}} permutation_map = #{{.*}}} : tensor<16xf32>, vector<8x16xf32>
// CHECK: arith.mulf {{.*}} fastmath<contract> : vector<8x16xf32>
// CHECK: arith.addf %[[A]], {{.*}} fastmath<contract> : vector<8x16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<8x16xf32>, tensor<8x16xf32>
// The 1-column remainder and the 5-row remainder are vectorized too.
// CHECK: vector<8xf32>
// CHECK: vector<5x16xf32>
// CHECK: vector<5xf32>
// CHECK-NOT: linalg.matmul
// CHECK: return
// With columns-outer the column loop is outside the row loop: a column
// strip of B is read by every row tile before the next strip.
// COLS-LABEL: func.func @matmul_remainders
// COLS: scf.for %{{.*}} = %c0 to %c32 step %c16
// COLS: scf.for %{{.*}} = %c0 to %c32 step %c8
// COLS: vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
// COLS: scf.for %{{.*}} = %c0 to %c64 step %c1
func.func @matmul_remainders(%a: tensor<37x64xf32>, %b: tensor<64x33xf32>,
                             %c: tensor<37x33xf32>) -> tensor<37x33xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<37x64xf32>, tensor<64x33xf32>)
                     outs(%c : tensor<37x33xf32>) -> tensor<37x33xf32>
  return %r : tensor<37x33xf32>
}

// -----

// Big enough to split for threads: blocks of 32 rows and 256 columns (the
// largest divisors of 64 and 512 not above thread-rows and thread-cols).
// CHECK-LABEL: func.func @matmul_threads
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 2)
// CHECK: vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
// CHECK: scf.forall.in_parallel
func.func @matmul_threads(%a: tensor<64x128xf32>, %b: tensor<128x512xf32>,
                          %c: tensor<64x512xf32>) -> tensor<64x512xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<64x128xf32>, tensor<128x512xf32>)
                     outs(%c : tensor<64x512xf32>) -> tensor<64x512xf32>
  return %r : tensor<64x512xf32>
}

// -----

// A long reduction is split into cache blocks (reduction-block, default
// 256): 1152 = 6 x 192, a loop around the register tiles inside each
// thread block. The bias broadcast the accumulators start from is fused
// into the thread blocks: each computes its own slice of it, in the
// block's slice of the output (the forall's shared output is the
// broadcast's init now).
// CHECK-LABEL: func.func @matmul_cache_blocks
// CHECK: %[[E:.*]] = tensor.empty() : tensor<64x512xf32>
// CHECK-NOT: linalg.generic
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 2) shared_outs(%[[O:.*]] = %[[E]])
// CHECK: %[[S:.*]] = tensor.extract_slice %[[O]]
// CHECK: linalg.generic {{.*}} ins(%{{.*}} : tensor<256xf32>) outs(%[[S]] : tensor<32x256xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c1152 step %c192
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c256 step %c16
// CHECK: scf.for %{{.*}} = %c0 to %c192 step %c1 {{.*}} -> (vector<8x16xf32>)
// CHECK: scf.forall.in_parallel
// NOBLOCK-LABEL: func.func @matmul_cache_blocks
// NOBLOCK-NOT: step %c192
// NOBLOCK: scf.for %{{.*}} = %c0 to %c1152 step %c1 {{.*}} -> (vector<8x16xf32>)
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

// A matrix-vector product (one output row, a batch-1 classifier: 1280 ->
// 1000) uses 1 x 128 tiles; each thread block of 250 columns leaves 122,
// tiled again by single vectors (7 x 16 and 10) instead of one 122-wide
// vector.
// CHECK-LABEL: func.func @matvec_remainder
// CHECK: scf.forall (%{{.*}}) in (4)
// CHECK: -> (vector<128xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c112 step %c16
// CHECK: -> (vector<16xf32>)
// CHECK: -> (vector<10xf32>)
// CHECK-NOT: vector<122xf32>
// CHECK: return
func.func @matvec_remainder(%a: tensor<1x1280xf32>, %b: tensor<1280x1000xf32>,
                            %c: tensor<1x1000xf32>) -> tensor<1x1000xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<1x1280xf32>, tensor<1280x1000xf32>)
                     outs(%c : tensor<1x1000xf32>) -> tensor<1x1000xf32>
  return %r : tensor<1x1000xf32>
}

// -----

// The im2col contraction of graph-to-linalg's convs (loops n, m, p, k): the
// batch dim is one task per image; inside, the unit batch and reduction
// steps are dropped from each register tile.
// CHECK-LABEL: func.func @conv_contraction
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
// CHECK: arith.addf {{.*}} : vector<8x16xf32>
// CHECK-NOT: linalg.generic
// CHECK: return
#w = affine_map<(n, m, p, k) -> (m, k)>
#col = affine_map<(n, m, p, k) -> (n, k, p)>
#y = affine_map<(n, m, p, k) -> (n, m, p)>
func.func @conv_contraction(%w: tensor<16x27xf32>, %col: tensor<2x27x64xf32>,
                            %init: tensor<2x16x64xf32>) -> tensor<2x16x64xf32> {
  %r = linalg.generic {indexing_maps = [#w, #col, #y],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : tensor<16x27xf32>, tensor<2x27x64xf32>)
      outs(%init : tensor<2x16x64xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %0 = arith.mulf %x, %c : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x16x64xf32>
  return %r : tensor<2x16x64xf32>
}

// -----

// An im2col contraction with its output channels innermost (loops n, p, m,
// k: convert-graph-to-linalg{conv-channels-inner} on a 7 x 7 plane, the
// filter transposed to K x M): vectorized along the channels, the pixels
// as rows (8 x 16 tiles, 49 = 6 x 8 + 1: the last a 1 x 16 tile), the
// accumulator read and written through a transposed map, and its 576-step
// reduction not split into cache blocks (each would read and write the
// accumulators transposed).
// CHECK-LABEL: func.func @conv_channels_inner
// CHECK-NOT: step %c288
// CHECK: scf.for %{{.*}} = %c0 to %c48 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c{{[0-9]+}} step %c16
// CHECK: vector.transfer_read {{.*}} permutation_map = {{.*}} : tensor<16x8xf32>, vector<8x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c576 step %c1 {{.*}} -> (vector<8x16xf32>)
// CHECK: vector.transfer_write {{.*}} permutation_map = {{.*}} : vector<8x16xf32>, tensor<16x8xf32>
// CHECK: -> (vector<16xf32>)
// CHECK: return
#wt = affine_map<(n, p, m, k) -> (k, m)>
#colp = affine_map<(n, p, m, k) -> (n, k, p)>
#yp = affine_map<(n, p, m, k) -> (n, m, p)>
func.func @conv_channels_inner(%w: tensor<576x64xf32>,
                               %col: tensor<1x576x49xf32>,
                               %init: tensor<1x64x49xf32>)
    -> tensor<1x64x49xf32> {
  %r = linalg.generic {indexing_maps = [#wt, #colp, #yp],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%w, %col : tensor<576x64xf32>, tensor<1x576x49xf32>)
      outs(%init : tensor<1x64x49xf32>) {
  ^bb0(%x: f32, %c: f32, %o: f32):
    %0 = arith.mulf %x, %c : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<1x64x49xf32>
  return %r : tensor<1x64x49xf32>
}

// -----

// A projection whose output is split into heads, [t, s, 4, 32] (the
// queries of a column-sharded attention, their reshape fused into the
// product): the register tiles' rows are tokens (s, which only x reads),
// not heads (which only w reads, as the vectors' loop c: rows of heads
// would each load a vector of w for the same broadcast scalar of x).
// CHECK-LABEL: func.func @heads_projection
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 4)
// CHECK: scf.for %{{.*}} = %c0 to %c24 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 {{.*}} -> (vector<8x16xf32>)
// CHECK: vector.transfer_read {{.*}} permutation_map = #{{.*}}} : tensor<8xf32>, vector<8x16xf32>
// CHECK: vector.transfer_read {{.*}} permutation_map = #{{.*}}} : tensor<16xf32>, vector<8x16xf32>
#xh = affine_map<(t, s, h, c, k) -> (t, s, k)>
#wh = affine_map<(t, s, h, c, k) -> (k, h, c)>
#yh = affine_map<(t, s, h, c, k) -> (t, s, h, c)>
func.func @heads_projection(%x: tensor<2x24x64xf32>, %w: tensor<64x4x32xf32>,
                            %init: tensor<2x24x4x32xf32>)
    -> tensor<2x24x4x32xf32> {
  %r = linalg.generic {indexing_maps = [#xh, #wh, #yh],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<2x24x64xf32>, tensor<64x4x32xf32>)
      outs(%init : tensor<2x24x4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<2x24x4x32xf32>
  return %r : tensor<2x24x4x32xf32>
}

// -----

// The same projection with a unit batch between the tokens and the heads,
// [s, 1, h, c] (an nn.MultiheadAttention's sequence-first layout): the
// rows are still the tokens, not the unit batch x reads too.
// CHECK-LABEL: func.func @heads_unit_batch
// CHECK: scf.for %{{.*}} = %c0 to %c24 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c1 {{.*}} -> (vector<8x16xf32>)
#xu = affine_map<(s, u, h, c, k) -> (u, s, k)>
#wu = affine_map<(s, u, h, c, k) -> (k, h, c)>
#yu = affine_map<(s, u, h, c, k) -> (s, u, h, c)>
func.func @heads_unit_batch(%x: tensor<1x24x64xf32>, %w: tensor<64x4x32xf32>,
                            %init: tensor<24x1x4x32xf32>)
    -> tensor<24x1x4x32xf32> {
  %r = linalg.generic {indexing_maps = [#xu, #wu, #yu],
      iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : tensor<1x24x64xf32>, tensor<64x4x32xf32>)
      outs(%init : tensor<24x1x4x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %0 = arith.mulf %a, %b : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<24x1x4x32xf32>
  return %r : tensor<24x1x4x32xf32>
}

// -----

// A batch dim between the rows and the columns of the output, [m, b, n]
// (an einsum's bmk,bkn->mbn): the rows are m (only A reads it), not b,
// which B reads too (a row of b would load its own vector of B).
// CHECK-LABEL: func.func @batch_between
// CHECK: scf.forall (%{{.*}}) in (2)
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c32 step %c16
// CHECK: scf.for %{{.*}} = %c0 to %c24 step %c1 {{.*}} -> (vector<8x16xf32>)
#abb = affine_map<(m, b, n, k) -> (b, m, k)>
#bbb = affine_map<(m, b, n, k) -> (b, k, n)>
#cbb = affine_map<(m, b, n, k) -> (m, b, n)>
func.func @batch_between(%a: tensor<2x16x24xf32>, %b: tensor<2x24x32xf32>,
                         %init: tensor<16x2x32xf32>) -> tensor<16x2x32xf32> {
  %r = linalg.generic {indexing_maps = [#abb, #bbb, #cbb],
      iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : tensor<2x16x24xf32>, tensor<2x24x32xf32>)
      outs(%init : tensor<16x2x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %0 = arith.mulf %x, %y : f32
    %1 = arith.addf %o, %0 : f32
    linalg.yield %1 : f32
  } -> tensor<16x2x32xf32>
  return %r : tensor<16x2x32xf32>
}

// -----

// Inside a kiln-fuse-groups tile (an scf.forall already): no second level
// of threads, only register tiles.
// CHECK-LABEL: func.func @inside_forall
// CHECK: scf.forall (%{{.*}}) in (4)
// CHECK-NOT: scf.forall
// CHECK: vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
// CHECK: scf.forall.in_parallel
func.func @inside_forall(%a: tensor<32x40xf32>, %b: tensor<40x64xf32>,
                         %c: tensor<32x64xf32>) -> tensor<32x64xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %c) -> (tensor<32x64xf32>) {
    %off = affine.apply affine_map<(i) -> (i * 8)>(%i)
    %as = tensor.extract_slice %a[%off, 0] [8, 40] [1, 1]
        : tensor<32x40xf32> to tensor<8x40xf32>
    %os = tensor.extract_slice %o[%off, 0] [8, 64] [1, 1]
        : tensor<32x64xf32> to tensor<8x64xf32>
    %t = linalg.matmul ins(%as, %b : tensor<8x40xf32>, tensor<40x64xf32>)
                       outs(%os : tensor<8x64xf32>) -> tensor<8x64xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %t into %o[%off, 0] [8, 64] [1, 1]
          : tensor<8x64xf32> into tensor<32x64xf32>
    }
  }
  return %r : tensor<32x64xf32>
}

// -----

// Left alone: a contraction dynamic along its vectorized dim, integers, a
// conv op (its input map is a window sum, not a projected permutation),
// elementwise ops (no reduction) and contractions below min-work.
// CHECK-LABEL: func.func @untouched
// CHECK-NOT: vector.
// CHECK: linalg.matmul {{.*}} tensor<64x?xf32>
// CHECK: linalg.matmul {{.*}} tensor<64x64xi32>
// CHECK: linalg.conv_2d_nchw_fchw
// CHECK: linalg.generic
// CHECK: linalg.matmul {{.*}} tensor<4x4xf32>
// CHECK-NOT: vector.
// CHECK: return
func.func @untouched(%d: tensor<64x?xf32>, %b: tensor<64x64xf32>,
                     %dc: tensor<64x?xf32>, %i: tensor<64x64xi32>,
                     %x: tensor<1x8x18x18xf32>, %f: tensor<8x8x3x3xf32>,
                     %y: tensor<1x8x16x16xf32>, %s: tensor<4x4xf32>)
    -> (tensor<64x?xf32>, tensor<64x64xi32>, tensor<1x8x16x16xf32>,
        tensor<64x64xf32>, tensor<4x4xf32>) {
  %0 = linalg.matmul ins(%b, %d : tensor<64x64xf32>, tensor<64x?xf32>)
                     outs(%dc : tensor<64x?xf32>) -> tensor<64x?xf32>
  %1 = linalg.matmul ins(%i, %i : tensor<64x64xi32>, tensor<64x64xi32>)
                     outs(%i : tensor<64x64xi32>) -> tensor<64x64xi32>
  %2 = linalg.conv_2d_nchw_fchw
      ins(%x, %f : tensor<1x8x18x18xf32>, tensor<8x8x3x3xf32>)
      outs(%y : tensor<1x8x16x16xf32>) -> tensor<1x8x16x16xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%b : tensor<64x64xf32>) outs(%b : tensor<64x64xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  } -> tensor<64x64xf32>
  %4 = linalg.matmul ins(%s, %s : tensor<4x4xf32>, tensor<4x4xf32>)
                     outs(%s : tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0, %1, %2, %3, %4 : tensor<64x?xf32>, tensor<64x64xi32>,
      tensor<1x8x16x16xf32>, tensor<64x64xf32>, tensor<4x4xf32>
}

// -----

// Elementwise ops (elementwise=true, run after elementwise fusion): one
// task per row, 16-wide vectors along the row, the remainder (70 = 4 x 16
// + 6) peeled; a broadcast operand and a constant from outside the body
// are fine. contractions=false leaves the matmul alone; rows shorter than
// half a vector stay scalar. An op on tensors that overwrites its own
// input (kiln-tile-outputs-in-place's chains) is left whole: its tiles
// would make bufferization copy the input; the run after bufferization
// vectorizes it on buffers.
// EW-LABEL: func.func @elementwise
// EW: scf.forall (%{{.*}}, %{{.*}}) in (3, 50)
// EW: scf.for %{{.*}} = %c0 to %c64 step %c16
// EW: vector.transfer_read {{.*}} : tensor<16xf32>, vector<16xf32>
// EW: arith.mulf {{.*}} : vector<16xf32>
// EW: math.exp {{.*}} : vector<16xf32>
// EW: vector<6xf32>
// EW: linalg.matmul
// EW: linalg.generic
// EW-SAME: tensor<512x4xf32>
// EW: linalg.generic
// EW-SAME: ins(%arg3 : tensor<512x4xf32>) outs(%arg3 : tensor<512x4xf32>)
// EW: return
#id3 = affine_map<(i, j, k) -> (i, j, k)>
#last = affine_map<(i, j, k) -> (k)>
func.func @elementwise(%x: tensor<3x50x70xf32>, %b: tensor<70xf32>,
                       %a: tensor<64x64xf32>, %n: tensor<512x4xf32>)
    -> (tensor<3x50x70xf32>, tensor<64x64xf32>, tensor<512x4xf32>,
        tensor<512x4xf32>) {
  %two = arith.constant 2.0 : f32
  %init = tensor.empty() : tensor<3x50x70xf32>
  %0 = linalg.generic {indexing_maps = [#id3, #last, #id3],
      iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%x, %b : tensor<3x50x70xf32>, tensor<70xf32>)
      outs(%init : tensor<3x50x70xf32>) {
  ^bb0(%v: f32, %c: f32, %o: f32):
    %m = arith.mulf %v, %two : f32
    %e = math.exp %m : f32
    %s = arith.addf %e, %c : f32
    linalg.yield %s : f32
  } -> tensor<3x50x70xf32>
  %1 = linalg.matmul ins(%a, %a : tensor<64x64xf32>, tensor<64x64xf32>)
                     outs(%a : tensor<64x64xf32>) -> tensor<64x64xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      outs(%n : tensor<512x4xf32>) {
  ^bb0(%o: f32):
    %e = math.exp %o : f32
    linalg.yield %e : f32
  } -> tensor<512x4xf32>
  %3 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%n : tensor<512x4xf32>) outs(%n : tensor<512x4xf32>) {
  ^bb0(%v: f32, %o: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  } -> tensor<512x4xf32>
  return %0, %1, %2, %3 : tensor<3x50x70xf32>, tensor<64x64xf32>,
      tensor<512x4xf32>, tensor<512x4xf32>
}

// -----

// On buffers too (the third run, after bufferization): a linalg.copy of
// kiln-memref-copy-to-linalg between strided views (an im2col tap) becomes
// vector loads and stores along the rows instead of scalar loops that
// delinearize one index per element.
// EW-LABEL: func.func @copy_on_buffers
// EW: scf.forall (%{{.*}}, %{{.*}}) in (16, 30)
// EW: vector.transfer_read {{.*}} : memref<1x1x1x16xf32, strided<[61504, 3844, 124, 2], offset: ?>>, vector<16xf32>
// EW: vector.transfer_write {{.*}} : vector<16xf32>, memref<1x1x1x16xf32, strided<[14400, 900, 30, 1], offset: ?>>
// EW: vector<14xf32>
// EW-NOT: linalg.copy
// EW: return
func.func @copy_on_buffers(%x: memref<1x16x62x62xf32>, %col: memref<1x16x30x30xf32>) {
  %tap = memref.subview %x[0, 0, 1, 2] [1, 16, 30, 30] [1, 1, 2, 2]
      : memref<1x16x62x62xf32> to memref<1x16x30x30xf32, strided<[61504, 3844, 124, 2], offset: 64>>
  linalg.copy ins(%tap : memref<1x16x30x30xf32, strided<[61504, 3844, 124, 2], offset: 64>>)
              outs(%col : memref<1x16x30x30xf32>)
  return
}

// -----

// A window op (a unit-stride im2col: x read at (oh + kh, ow + kw)) is
// tiled like any elementwise op: one task per (c, kh, kw, oh), 16-wide
// tiles along ow (and the remainder of 4), which read x contiguously once
// kh and kw are single steps: each tile folds to a copy of a slice (a
// vector copy once on buffers). With a stride of 2 along ow the reads
// would be strided: left alone.
// EW-LABEL: func.func @window
// EW: scf.forall (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) in (8, 3, 3, 20)
// EW: tensor.extract_slice %{{.*}} [1, 1, 1, 16] [1, 1, 1, 1] : tensor<1x1x1x20xf32> to tensor<1x1x1x16xf32>
// EW: [1, 1, 1, 4]
// EW: linalg.generic
// EW-SAME: ins(%arg1 : tensor<1x8x44x44xf32>)
// A window op with a scalar result (a strided dot product: a reduction)
// is left alone too.
// EW: linalg.generic
// EW-SAME: ins(%arg4, %arg2 : tensor<32xf32>, tensor<64xf32>) outs(%arg3 : tensor<f32>)
// EW: return
#win = affine_map<(n, c, kh, kw, oh, ow) -> (n, c, oh + kh, ow + kw)>
#win2 = affine_map<(n, c, kh, kw, oh, ow) -> (n, c, oh + kh, ow * 2 + kw)>
#id6 = affine_map<(n, c, kh, kw, oh, ow) -> (n, c, kh, kw, oh, ow)>
func.func @window(%x: tensor<1x8x22x22xf32>, %y: tensor<1x8x44x44xf32>,
                  %z: tensor<64xf32>, %acc: tensor<f32>, %w: tensor<32xf32>)
    -> (tensor<1x8x3x3x20x20xf32>, tensor<1x8x3x3x20x20xf32>, tensor<f32>) {
  %e = tensor.empty() : tensor<1x8x3x3x20x20xf32>
  %0 = linalg.generic {indexing_maps = [#win, #id6],
      iterator_types = ["parallel", "parallel", "parallel", "parallel",
                        "parallel", "parallel"]}
      ins(%x : tensor<1x8x22x22xf32>) outs(%e : tensor<1x8x3x3x20x20xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x8x3x3x20x20xf32>
  %1 = linalg.generic {indexing_maps = [#win2, #id6],
      iterator_types = ["parallel", "parallel", "parallel", "parallel",
                        "parallel", "parallel"]}
      ins(%y : tensor<1x8x44x44xf32>) outs(%e : tensor<1x8x3x3x20x20xf32>) {
  ^bb0(%v: f32, %o: f32):
    linalg.yield %v : f32
  } -> tensor<1x8x3x3x20x20xf32>
  %2 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>,
                                        affine_map<(i) -> (i * 2)>,
                                        affine_map<(i) -> ()>],
      iterator_types = ["reduction"]}
      ins(%w, %z : tensor<32xf32>, tensor<64xf32>) outs(%acc : tensor<f32>) {
  ^bb0(%u: f32, %v: f32, %o: f32):
    %m = arith.mulf %u, %v : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  } -> tensor<f32>
  return %0, %1, %2 : tensor<1x8x3x3x20x20xf32>, tensor<1x8x3x3x20x20xf32>,
      tensor<f32>
}

// -----

// linalg.fill (a conv's zero padding, an accumulator's start) is an
// elementwise op whose scalar input is broadcast.
// EW-LABEL: func.func @fill
// EW: scf.forall (%{{.*}}, %{{.*}}) in (64, 58)
// EW: vector.transfer_write {{.*}} : vector<16xf32>
// EW: vector<10xf32>
// EW-NOT: linalg.fill
// EW: return
func.func @fill(%t: tensor<1x64x58x58xf32>) -> tensor<1x64x58x58xf32> {
  %z = arith.constant 0.0 : f32
  %0 = linalg.fill ins(%z : f32) outs(%t : tensor<1x64x58x58xf32>)
      -> tensor<1x64x58x58xf32>
  return %0 : tensor<1x64x58x58xf32>
}

// -----

// By default the register tile is the target's, from the options
// target-triple and target-features (the CPU pipelines' parameters, which
// kiln-compile gives; without them, this machine's): AVX-512
// 8 x 16, two vectors wide (8 x 32, wide-vector-size) where the block has
// at least two such tiles per row and they leave the remainder one-vector
// tiles would; other x86 (AVX2, 16 ymm registers) 6 x 16, AArch64 8 x 8.
// AVX512-LABEL: func.func @avx512
// AVX512: vector.transfer_read {{.*}} : tensor<8x32xf32>, vector<8x32xf32>
// 250 columns: 7 x 32 + 26 would leave a worse remainder than 15 x 16 + 10.
// AVX512-LABEL: func.func @avx512_remainder
// AVX512: vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
// AVX512-NOT: vector<8x32xf32>
// f64: one vector wide (two f64 vectors of 8 lanes: 16 registers already).
// AVX512-LABEL: func.func @avx512_f64
// AVX512: vector.transfer_read {{.*}} : tensor<8x16xf64>, vector<8x16xf64>
// AVX512-NOT: vector<8x32xf64>
// Fewer rows than a register tile's: one vector wide.
// AVX512-LABEL: func.func @avx512_short
// AVX512: vector.transfer_read {{.*}} : tensor<4x16xf32>, vector<4x16xf32>
// AVX512-NOT: vector<4x32xf32>
// A vector size given is the one used; wide-vector-size=-1 turns the
// wide tiles off.
// VS16-LABEL: func.func @avx512
// VS16: vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
// WIDEOFF-LABEL: func.func @avx512
// WIDEOFF: vector.transfer_read {{.*}} : tensor<8x16xf32>, vector<8x16xf32>
module {
  func.func @avx512(%a: tensor<48x40xf32>, %b: tensor<40x64xf32>,
                    %c: tensor<48x64xf32>) -> tensor<48x64xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<48x40xf32>, tensor<40x64xf32>)
                       outs(%c : tensor<48x64xf32>) -> tensor<48x64xf32>
    return %r : tensor<48x64xf32>
  }
  func.func @avx512_remainder(%a: tensor<16x40xf32>, %b: tensor<40x250xf32>,
                              %c: tensor<16x250xf32>) -> tensor<16x250xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<16x40xf32>, tensor<40x250xf32>)
                       outs(%c : tensor<16x250xf32>) -> tensor<16x250xf32>
    return %r : tensor<16x250xf32>
  }
  func.func @avx512_f64(%a: tensor<48x40xf64>, %b: tensor<40x64xf64>,
                        %c: tensor<48x64xf64>) -> tensor<48x64xf64> {
    %r = linalg.matmul ins(%a, %b : tensor<48x40xf64>, tensor<40x64xf64>)
                       outs(%c : tensor<48x64xf64>) -> tensor<48x64xf64>
    return %r : tensor<48x64xf64>
  }
  func.func @avx512_short(%a: tensor<4x40xf32>, %b: tensor<40x128xf32>,
                          %c: tensor<4x128xf32>) -> tensor<4x128xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<4x40xf32>, tensor<40x128xf32>)
                       outs(%c : tensor<4x128xf32>) -> tensor<4x128xf32>
    return %r : tensor<4x128xf32>
  }
}

// -----

// AVX2-LABEL: func.func @avx2
// AVX2: vector.transfer_read {{.*}} : tensor<6x16xf32>, vector<6x16xf32>
module {
  func.func @avx2(%a: tensor<48x40xf32>, %b: tensor<40x64xf32>,
                  %c: tensor<48x64xf32>) -> tensor<48x64xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<48x40xf32>, tensor<40x64xf32>)
                       outs(%c : tensor<48x64xf32>) -> tensor<48x64xf32>
    return %r : tensor<48x64xf32>
  }
}

// -----

// The cache block follows the target too: another machine's L1 is taken
// as 32 KiB, half of it for 8-lane columns: blocks of 512 (of 2048).
// A64-LABEL: func.func @aarch64
// A64: vector.transfer_read {{.*}} : tensor<8x8xf32>, vector<8x8xf32>
// A64-LABEL: func.func @aarch64_blocks
// A64: scf.for %{{.*}} = %c0 to %c2048 step %c512
module {
  func.func @aarch64(%a: tensor<48x40xf32>, %b: tensor<40x64xf32>,
                     %c: tensor<48x64xf32>) -> tensor<48x64xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<48x40xf32>, tensor<40x64xf32>)
                       outs(%c : tensor<48x64xf32>) -> tensor<48x64xf32>
    return %r : tensor<48x64xf32>
  }
  func.func @aarch64_blocks(%a: tensor<16x2048xf32>, %b: tensor<2048x64xf32>,
                            %c: tensor<16x64xf32>) -> tensor<16x64xf32> {
    %r = linalg.matmul ins(%a, %b : tensor<16x2048xf32>, tensor<2048x64xf32>)
                       outs(%c : tensor<16x64xf32>) -> tensor<16x64xf32>
    return %r : tensor<16x64xf32>
  }
}

// -----

// In a sequential loop (a recurrent op's time steps), ops run once per
// iteration: a matrix-vector product below loop-thread-work (65536 <
// 131072) gets its 1 x 128 register tiles but no thread level (threads
// would fork and join every step; loop-thread-work=1 gives it two blocks
// of 256 columns), and a 128-element elementwise op with two outputs (the
// recurrent cell's H and Y), below min-work, is vectorized (elementwise
// run), both outputs written from vectors.
// CHECK-LABEL: func.func @in_time_loop
// CHECK: scf.for %{{.*}} = %c0 to %c5 step %c1
// CHECK-NOT: scf.forall
// CHECK: -> (vector<128xf32>)
// CHECK: linalg.generic
// CHECK: scf.yield
// EW-LABEL: func.func @in_time_loop
// EW: scf.for %{{.*}} = %c0 to %c5 step %c1
// EW: linalg.matmul
// EW-NOT: scf.forall
// EW: math.tanh {{.*}} : vector<16xf32>
// EW: vector.transfer_write
// EW: vector.transfer_write
// EW: scf.yield
// LOOPTHREADS-LABEL: func.func @in_time_loop
// LOOPTHREADS: scf.for %{{.*}} = %c0 to %c5 step %c1
// LOOPTHREADS: scf.forall (%{{.*}}) in (2)
#id2 = affine_map<(i, j) -> (i, j)>
func.func @in_time_loop(%h0: tensor<1x128xf32>, %w: tensor<128x512xf32>,
                        %acc: tensor<1x512xf32>, %y0: tensor<1x128xf32>)
    -> (tensor<1x128xf32>, tensor<1x128xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c5 = arith.constant 5 : index
  %r:2 = scf.for %i = %c0 to %c5 step %c1 iter_args(%h = %h0, %y = %y0)
      -> (tensor<1x128xf32>, tensor<1x128xf32>) {
    %p = linalg.matmul ins(%h, %w : tensor<1x128xf32>, tensor<128x512xf32>)
                       outs(%acc : tensor<1x512xf32>) -> tensor<1x512xf32>
    %g = tensor.extract_slice %p[0, 0] [1, 128] [1, 1]
        : tensor<1x512xf32> to tensor<1x128xf32>
    %o:2 = linalg.generic {indexing_maps = [#id2, #id2, #id2],
        iterator_types = ["parallel", "parallel"]}
        ins(%g : tensor<1x128xf32>) outs(%h, %y : tensor<1x128xf32>, tensor<1x128xf32>) {
    ^bb0(%v: f32, %hv: f32, %yv: f32):
      %t = math.tanh %v : f32
      %s = arith.addf %t, %hv : f32
      linalg.yield %s, %t : f32, f32
    } -> (tensor<1x128xf32>, tensor<1x128xf32>)
    scf.yield %o#0, %o#1 : tensor<1x128xf32>, tensor<1x128xf32>
  }
  return %r#0, %r#1 : tensor<1x128xf32>, tensor<1x128xf32>
}

// -----

// Dynamic shapes are tiled on buffers only (after bufferization: on
// tensors, the slices of dynamic sizes would cost bufferization seconds).
// A contraction with dynamic rows (its vectorized dim static): thread
// blocks of whole register tiles (the last block partial), the register
// tiles of a block peeled: static tiles vectorized, and the rows left over
// tiled again one at a time, static tiles too (as one tile of dynamic
// height they were scalar loops, which LLVM vectorized across the
// reduction steps with gathers). On tensors it is left alone.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: scf.forall
// CHECK: scf.for
// CHECK: vector.transfer_read {{.*}} : memref<8x16xf32, {{.*}}>, vector<8x16xf32>
// CHECK: arith.mulf {{.*}} : vector<8x16
// CHECK: scf.for
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// CHECK: vector.transfer_read {{.*}} : memref<1x16xf32, {{.*}}>, vector<16xf32>
// CHECK: arith.mulf {{.*}} : vector<16xf32>
// CHECK-NOT: linalg.matmul
// CHECK-LABEL: func.func @dynamic_rows_tensors
// CHECK-NOT: vector.
// CHECK: linalg.matmul {{.*}} -> tensor<?x64xf32>
func.func @dynamic_rows(%d: memref<?x64xf32>, %b: memref<64x64xf32>,
                        %dc: memref<?x64xf32>) {
  linalg.matmul ins(%d, %b : memref<?x64xf32>, memref<64x64xf32>)
                outs(%dc : memref<?x64xf32>)
  return
}
func.func @dynamic_rows_tensors(%d: tensor<?x64xf32>, %b: tensor<64x64xf32>,
                                %dc: tensor<?x64xf32>) -> tensor<?x64xf32> {
  %0 = linalg.matmul ins(%d, %b : tensor<?x64xf32>, tensor<64x64xf32>)
                     outs(%dc : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %0 : tensor<?x64xf32>
}

// -----

// A contraction of dynamic depth on buffers (a product tile whose K is the
// sequence): its register tile's accumulator is read before the reduction
// loop, carried in registers and written after it
// (kilnHoistBufferAccumulators). Not when the tile and an operand may share
// memory: views of one allocation keep the read and write in the loop.
// The register-tile loops around the reduction loop are marked for LLVM
// not to unroll them (a copy of the reduction loop per tile); the
// reduction loop itself is not. The step's product is 2-D: the reduction
// step of one is dropped from the vectors (on buffers the tile keeps it).
// CHECK-LABEL: func.func @dynamic_depth
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[TILE:.*]] = memref.subview %arg2
// CHECK: %[[INIT:.*]] = vector.transfer_read %[[TILE]]{{.*}} vector<8x16xf32>
// CHECK: %[[SUM:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (vector<8x16xf32>)
// CHECK-NOT: vector.transfer_write
// CHECK: arith.mulf {{.*}} : vector<8x16xf32>
// CHECK: arith.addf %[[ACC]]
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: vector.transfer_write %[[SUM]], %[[TILE]]
// CHECK-NEXT: } {loop_annotation = #loop_annotation}
// CHECK-NEXT: } {loop_annotation = #loop_annotation}
// CHECK-LABEL: func.func @dynamic_depth_aliased
// CHECK-NOT: iter_args
// CHECK: vector.transfer_read
// CHECK: arith.addf
// CHECK: vector.transfer_write
// CHECK-NOT: iter_args
// CHECK: return
func.func @dynamic_depth(%a: memref<16x?xf32>, %b: memref<?x64xf32>,
                         %c: memref<16x64xf32>) {
  linalg.matmul ins(%a, %b : memref<16x?xf32>, memref<?x64xf32>)
                outs(%c : memref<16x64xf32>)
  return
}
func.func @dynamic_depth_aliased(%k: index) -> memref<32x?xf32> {
  %buf = memref.alloc(%k) : memref<32x?xf32>
  %a = memref.subview %buf[0, 0] [16, %k] [1, 1]
      : memref<32x?xf32> to memref<16x?xf32, strided<[?, 1]>>
  %c = memref.subview %buf[16, 0] [16, 64] [1, 1]
      : memref<32x?xf32> to memref<16x64xf32, strided<[?, 1], offset: ?>>
  %b = memref.alloc(%k) : memref<?x64xf32>
  linalg.matmul ins(%a, %b : memref<16x?xf32, strided<[?, 1]>>, memref<?x64xf32>)
                outs(%c : memref<16x64xf32, strided<[?, 1], offset: ?>>)
  memref.dealloc %b : memref<?x64xf32>
  return %buf : memref<32x?xf32>
}

// -----

// An elementwise op of dynamic shape on buffers: a task per row (in blocks
// of at most 4096 elements), each row in static vectors, its remainder
// (fewer than a vector) a dynamic generic.
// EW-LABEL: func.func @dynamic_elementwise
// EW: scf.forall
// EW: scf.for
// EW: math.exp {{.*}} : vector<16xf32>
// EW: scf.for
// EW: linalg.generic
// EW: math.exp {{.*}} : f32
func.func @dynamic_elementwise(%a: memref<?x?xf32>, %o: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>,
                                   affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : memref<?x?xf32>) outs(%o : memref<?x?xf32>) {
  ^bb0(%v: f32, %w: f32):
    %e = math.exp %v : f32
    linalg.yield %e : f32
  }
  return
}

// -----

// A negative tile size is refused with the pass's error.
// BAD-OPTION
// expected-error@+1 {{kiln-tile-and-vectorize: tile options must be positive (vector-size, rows, reduction-block and wide-vector-size: 0 for the target's; reduction-block -1: none; wide-vector-size -1: never), got -1}}
func.func @bad_option(%a: tensor<16x16xf32>) -> tensor<16x16xf32> {
  return %a : tensor<16x16xf32>
}
// END-BAD-OPTION

// BAD-WIDE
// expected-error@+1 {{kiln-tile-and-vectorize: tile options must be positive (vector-size, rows, reduction-block and wide-vector-size: 0 for the target's; reduction-block -1: none; wide-vector-size -1: never), got -2}}
func.func @bad_wide(%a: tensor<16x16xf32>) -> tensor<16x16xf32> {
  return %a : tensor<16x16xf32>
}
// END-BAD-WIDE

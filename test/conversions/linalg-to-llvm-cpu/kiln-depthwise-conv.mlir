// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-depthwise-conv))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-depthwise-conv,kiln-tile-and-vectorize))' \
// RUN:   | FileCheck %s --check-prefix=INIT
// RUN: sed -n '/^\/\/ BAD-OPTION/,/^\/\/ END-BAD-OPTION/p' %s > %t.bad.mlir
// RUN: kiln-opt %t.bad.mlir --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-depthwise-conv{rows=0}))'

// Stride 1 with remainders everywhere (17 channels = 8 + 8 + 1 per task,
// 17 rows = 4 x 4 + 1, 21 columns = 16 + 5), a batch of two: one task per
// image and block of 8 channels; inside, channels, then 4 x 16 register
// tiles, peeled, then the taps. The accumulator is read before the tap
// loops, carried through them in registers and written after; each tap is
// a row window times a broadcast filter tap, with contractible ops.
// CHECK-LABEL: func.func @remainders
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (2, 3)
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1
// CHECK: scf.for %{{.*}} = %c0 to %c16 step %c4
// CHECK: %[[ACC:.*]] = vector.transfer_read {{.*}} : tensor<4x16xf32>, vector<4x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%{{.*}} = %[[ACC]]) -> (vector<4x16xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %c3 step %c1 iter_args(%[[A:.*]] = %{{.*}}) -> (vector<4x16xf32>)
// CHECK: vector.transfer_read {{.*}} : tensor<4x16xf32>, vector<4x16xf32>
// CHECK: vector.transfer_read {{.*}} permutation_map = #{{.*}}} : tensor<f32>, vector<4x16xf32>
// CHECK: arith.mulf {{.*}} fastmath<contract> : vector<4x16xf32>
// CHECK: arith.addf %[[A]], {{.*}} fastmath<contract> : vector<4x16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<4x16xf32>, tensor<4x16xf32>
// The remainders: 5 columns, then the last row (16 and 5 columns). 5
// columns are two pieces for LLVM (4 + 1), kept as they are (a row of 7,
// three pieces, becomes a masked vector of 8: @odd_plane_bias).
// CHECK: arith.addf {{.*}} : vector<4x5xf32>
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: arith.addf {{.*}} : vector<5xf32>
// CHECK-NOT: linalg.
// CHECK: return
func.func @remainders(%in: tensor<2x17x19x23xf32>, %f: tensor<17x3x3xf32>, %init: tensor<2x17x17x21xf32>) -> tensor<2x17x17x21xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%in, %f : tensor<2x17x19x23xf32>, tensor<17x3x3xf32>) outs(%init : tensor<2x17x17x21xf32>) -> tensor<2x17x17x21xf32>
  return %0 : tensor<2x17x17x21xf32>
}

// -----

// Stride 2 with dilation 2 along columns, output rows of 6 (one vector
// or less): register tiles of `strided-rows` = 4 rows (7 = 4 + a peeled
// 3), each tap's window a strided slice of 7 x 11 elements, so the tile is
// an elementwise multiply-add again (after bufferization
// kiln-widen-strided-reads reads each of its rows as two contiguous vectors
// and a shuffle). 8 channels (no more than thread-channels, one image): no
// scf.forall.
// CHECK-LABEL: func.func @strided_dilated
// CHECK-NOT: scf.forall (
// CHECK: vector.transfer_read {{.*}} : tensor<4x6xf32>, vector<4x6xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [4, 6] [2, 2] : tensor<7x11xf32> to tensor<4x6xf32>
// CHECK: arith.addf {{.*}} : vector<4x6xf32>
// CHECK: tensor.extract_slice %{{.*}}[0, 0] [3, 6] [2, 2] : tensor<5x11xf32> to tensor<3x6xf32>
// CHECK: arith.addf {{.*}} : vector<3x6xf32>
// CHECK-NOT: linalg.
// CHECK: return
func.func @strided_dilated(%in: tensor<1x8x15x17xf32>, %f: tensor<8x3x3xf32>, %init: tensor<1x8x7x6xf32>) -> tensor<1x8x7x6xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<[1, 2]> : tensor<2xi64>, strides = dense<[2, 2]> : tensor<2xi64>}
     ins(%in, %f : tensor<1x8x15x17xf32>, tensor<8x3x3xf32>) outs(%init : tensor<1x8x7x6xf32>) -> tensor<1x8x7x6xf32>
  return %0 : tensor<1x8x7x6xf32>
}

// -----

// Stride 2 on one output row: each tap reads every other element of a row
// window of 31, one vector of 16. (Output rows wider than one vector get
// register tiles of one row: @strided_wide.)
// CHECK-LABEL: func.func @strided_row
// CHECK: tensor.extract_slice %{{.*}}[0] [16] [2] : tensor<31xf32> to tensor<16xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<16xf32>, vector<16xf32>
// CHECK: return
func.func @strided_row(%in: tensor<1x8x3x33xf32>, %f: tensor<8x3x3xf32>, %init: tensor<1x8x1x16xf32>) -> tensor<1x8x1x16xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%in, %f : tensor<1x8x3x33xf32>, tensor<8x3x3xf32>) outs(%init : tensor<1x8x1x16xf32>) -> tensor<1x8x1x16xf32>
  return %0 : tensor<1x8x1x16xf32>
}

// -----

// graph-to-linalg's form: the input padded by an insert_slice into a
// filled tensor, the accumulator initialized with the broadcast bias. The
// fill is tiled like the conv (5 tasks of 8 channels) and vectorized; the
// padding copy stays an insert_slice. The bias broadcast is fused into
// the conv's thread blocks but left one op per block, for
// kiln-tile-and-vectorize to start the accumulators from the bias in
// registers (@odd_plane_bias).
// CHECK-LABEL: func.func @producers
// CHECK: scf.forall (%{{.*}}) in (5)
// CHECK: vector.transfer_write %{{.*}} : vector<4x16xf32>, tensor<4x16xf32>
// CHECK: vector.transfer_write %{{.*}} : vector<4x2xf32>, tensor<4x2xf32>
// CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 1, 1] [1, 40, 16, 16]
// CHECK: scf.forall (%{{.*}}) in (5)
// CHECK: %[[BIAS:.*]] = linalg.generic
// CHECK-SAME: ins(%{{.*}} : tensor<8xf32>)
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[BIAS]])
// CHECK: arith.addf {{.*}} : vector<4x16xf32>
// CHECK-NOT: linalg.
// CHECK: return
#bcast = affine_map<(d0, d1, d2, d3) -> (d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @producers(%x: tensor<1x40x16x16xf32>, %f: tensor<40x3x3xf32>, %b: tensor<40xf32>) -> tensor<1x40x16x16xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x40x18x18xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x40x18x18xf32>) -> tensor<1x40x18x18xf32>
  %pad = tensor.insert_slice %x into %fill[0, 0, 1, 1] [1, 40, 16, 16] [1, 1, 1, 1] : tensor<1x40x16x16xf32> into tensor<1x40x18x18xf32>
  %e2 = tensor.empty() : tensor<1x40x16x16xf32>
  %init = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<40xf32>) outs(%e2 : tensor<1x40x16x16xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x40x16x16xf32>
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%pad, %f : tensor<1x40x18x18xf32>, tensor<40x3x3xf32>) outs(%init : tensor<1x40x16x16xf32>) -> tensor<1x40x16x16xf32>
  return %0 : tensor<1x40x16x16xf32>
}

// -----

// A 7 x 7 plane with a bias: each row of 7 a masked vector of 8 (tiles of
// 4 and 3 rows). Then kiln-tile-and-vectorize starts each register tile's
// accumulator from the bias in registers (a broadcast read of the bias,
// no store of it to memory): the widened tile writes cover their rows.
// CHECK-LABEL: func.func @odd_plane_bias
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true, false]} : tensor<4x7xf32>, vector<4x8xf32>
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true, false]} : vector<3x8xf32>, tensor<3x7xf32>
// INIT-LABEL: func.func @odd_plane_bias
// INIT-NOT: linalg.generic
// INIT: %[[ACC:.*]] = vector.transfer_read %{{.*}}[%{{.*}}], %{{.*}} {in_bounds = [true, true], permutation_map = #{{.*}}} : tensor<8xf32>, vector<4x8xf32>
// INIT: scf.for %{{.*}} iter_args(%{{.*}} = %[[ACC]]) -> (vector<4x8xf32>)
// INIT-NOT: linalg.generic
// INIT: return
#bcast = affine_map<(d0, d1, d2, d3) -> (d1)>
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @odd_plane_bias(%x: tensor<1x16x7x7xf32>, %f: tensor<16x3x3xf32>, %b: tensor<16xf32>) -> tensor<1x16x7x7xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<1x16x9x9xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<1x16x9x9xf32>) -> tensor<1x16x9x9xf32>
  %pad = tensor.insert_slice %x into %fill[0, 0, 1, 1] [1, 16, 7, 7] [1, 1, 1, 1] : tensor<1x16x7x7xf32> into tensor<1x16x9x9xf32>
  %e2 = tensor.empty() : tensor<1x16x7x7xf32>
  %init = linalg.generic {indexing_maps = [#bcast, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%b : tensor<16xf32>) outs(%e2 : tensor<1x16x7x7xf32>) {
  ^bb0(%in: f32, %out: f32):
    linalg.yield %in : f32
  } -> tensor<1x16x7x7xf32>
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%pad, %f : tensor<1x16x9x9xf32>, tensor<16x3x3xf32>) outs(%init : tensor<1x16x7x7xf32>) -> tensor<1x16x7x7xf32>
  return %0 : tensor<1x16x7x7xf32>
}

// -----

// Already inside an scf.forall (a fused group's tile): no second forall,
// only the register tiles. f64 is vectorized too.
// CHECK-LABEL: func.func @in_forall
// CHECK: scf.forall
// CHECK-NOT: scf.forall (
// CHECK: arith.addf {{.*}} : vector<4x8xf64>
// CHECK-NOT: scf.forall (
// CHECK: return
func.func @in_forall(%in: tensor<4x8x10x10xf64>, %f: tensor<8x3x3xf64>, %init: tensor<4x8x8x8xf64>) -> tensor<4x8x8x8xf64> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %init) -> (tensor<4x8x8x8xf64>) {
    %a = tensor.extract_slice %in[%i, 0, 0, 0] [1, 8, 10, 10] [1, 1, 1, 1] : tensor<4x8x10x10xf64> to tensor<1x8x10x10xf64>
    %c = tensor.extract_slice %o[%i, 0, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<4x8x8x8xf64> to tensor<1x8x8x8xf64>
    %d = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
       ins(%a, %f : tensor<1x8x10x10xf64>, tensor<8x3x3xf64>) outs(%c : tensor<1x8x8x8xf64>) -> tensor<1x8x8x8xf64>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %d into %o[%i, 0, 0, 0] [1, 8, 8, 8] [1, 1, 1, 1] : tensor<1x8x8x8xf64> into tensor<4x8x8x8xf64>
    }
  }
  return %r : tensor<4x8x8x8xf64>
}

// -----

// Left alone: a dynamic shape, f16, 1-D and 3-D depthwise convs.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT: scf.for
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} -> tensor<1x8x?x8xf32>
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} -> tensor<1x8x8x8xf16>
// CHECK: linalg.depthwise_conv_1d_ncw_cw
// CHECK: linalg.depthwise_conv_3d_ncdhw_cdhw
// CHECK-NOT: vector.
// CHECK: return
func.func @left_alone(%a: tensor<1x8x?x10xf32>, %fa: tensor<8x3x3xf32>, %ia: tensor<1x8x?x8xf32>,
                      %h: tensor<1x8x10x10xf16>, %fh: tensor<8x3x3xf16>, %ih: tensor<1x8x8x8xf16>,
                      %l: tensor<1x8x30xf32>, %fl: tensor<8x3xf32>, %il: tensor<1x8x28xf32>,
                      %v: tensor<1x8x6x6x6xf32>, %fv: tensor<8x3x3x3xf32>, %iv: tensor<1x8x4x4x4xf32>)
    -> (tensor<1x8x?x8xf32>, tensor<1x8x8x8xf16>, tensor<1x8x28xf32>, tensor<1x8x4x4x4xf32>) {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%a, %fa : tensor<1x8x?x10xf32>, tensor<8x3x3xf32>) outs(%ia : tensor<1x8x?x8xf32>) -> tensor<1x8x?x8xf32>
  %1 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%h, %fh : tensor<1x8x10x10xf16>, tensor<8x3x3xf16>) outs(%ih : tensor<1x8x8x8xf16>) -> tensor<1x8x8x8xf16>
  %2 = linalg.depthwise_conv_1d_ncw_cw {dilations = dense<1> : tensor<1xi64>, strides = dense<1> : tensor<1xi64>}
     ins(%l, %fl : tensor<1x8x30xf32>, tensor<8x3xf32>) outs(%il : tensor<1x8x28xf32>) -> tensor<1x8x28xf32>
  %3 = linalg.depthwise_conv_3d_ncdhw_cdhw {dilations = dense<1> : tensor<3xi64>, strides = dense<1> : tensor<3xi64>}
     ins(%v, %fv : tensor<1x8x6x6x6xf32>, tensor<8x3x3x3xf32>) outs(%iv : tensor<1x8x4x4x4xf32>) -> tensor<1x8x4x4x4xf32>
  return %0, %1, %2, %3 : tensor<1x8x?x8xf32>, tensor<1x8x8x8xf16>, tensor<1x8x28xf32>, tensor<1x8x4x4x4xf32>
}

// -----

// Stride 2 with output rows of 20, more than one vector: register tiles of
// one row (16 + a peeled 4 columns), as many independent tiles per row.
// CHECK-LABEL: func.func @strided_wide
// CHECK: tensor.extract_slice %{{.*}}[0] [16] [2] : tensor<31xf32> to tensor<16xf32>
// CHECK: arith.addf {{.*}} : vector<16xf32>
// CHECK: tensor.extract_slice %{{.*}}[0] [4] [2] : tensor<7xf32> to tensor<4xf32>
// CHECK: arith.addf {{.*}} : vector<4xf32>
// CHECK: return
func.func @strided_wide(%in: tensor<1x8x11x41xf32>, %f: tensor<8x3x3xf32>, %init: tensor<1x8x5x20xf32>) -> tensor<1x8x5x20xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
     ins(%in, %f : tensor<1x8x11x41xf32>, tensor<8x3x3xf32>) outs(%init : tensor<1x8x5x20xf32>) -> tensor<1x8x5x20xf32>
  return %0 : tensor<1x8x5x20xf32>
}

// -----

// BAD-OPTION
// A tile size of zero is refused with the pass's error.
// expected-error@+1 {{kiln-depthwise-conv: tile options must be positive, got 0}}
func.func @bad(%in: tensor<1x8x10x10xf32>, %f: tensor<8x3x3xf32>, %init: tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32> {
  %0 = linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
     ins(%in, %f : tensor<1x8x10x10xf32>, tensor<8x3x3xf32>) outs(%init : tensor<1x8x8x8xf32>) -> tensor<1x8x8x8xf32>
  return %0 : tensor<1x8x8x8xf32>
}
// END-BAD-OPTION

// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg{conv-im2col=false}))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))' \
// RUN:   | FileCheck %s --check-prefix=IM2COL
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg{im2col-gather=true}))' \
// RUN:   | FileCheck %s --check-prefix=GATHER

// By default (conv-im2col=true) a plain 2-D conv is im2col + one
// contraction: each of the 3x3 kernel taps is a strided slice of the padded
// input copied into the window tensor N x C x KH x KW x OH x OW, which is
// then the K x P operand of a (n, m, p, k) contraction with the filter as
// M x K; the result is reshaped back to N x M x OH x OW. With unit strides
// the window tensor is one elementwise generic reading the padded input at
// (oh + kh * dh, ow + kw * dw) instead.
// With im2col-gather (the GPU pipeline's choice) the strided conv's window
// tensor is one gather too (oh * 2 + kh), not a copy per tap: one kernel,
// where 9 copies would pass 18 buffers to one fused kernel.
// GATHER-DAG: #[[SWIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 * 2 + d2, d5 * 2 + d3)>
// GATHER-LABEL: func.func @conv_bias_pads
// GATHER-NOT: tensor.extract_slice
// GATHER: linalg.generic {indexing_maps = [#[[SWIN]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} {{.*}} outs(%{{.*}} : tensor<1x3x3x3x4x4xf32>)
// GATHER: return %{{.*}} : tensor<1x4x4x4xf32>
// IM2COL-LABEL: func.func @conv_bias_pads
// IM2COL: %[[P:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1] [1, 3, 8, 8] [1, 1, 1, 1]
// IM2COL: %[[COL:.*]] = tensor.empty() : tensor<1x3x3x3x4x4xf32>
// IM2COL: tensor.extract_slice %[[P]][0, 0, 0, 0] [1, 3, 4, 4] [1, 1, 2, 2]
// IM2COL-COUNT-8: tensor.extract_slice %[[P]][0, 0, {{[0-2]}}, {{[0-2]}}] [1, 3, 4, 4] [1, 1, 2, 2]
// IM2COL: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 2, 2, 0, 0] [1, 3, 1, 1, 4, 4] [1, 1, 1, 1, 1, 1] : tensor<1x3x4x4xf32> into tensor<1x3x3x3x4x4xf32>
// IM2COL: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<4x27xf32>, tensor<1x27x16xf32>) outs(%{{.*}} : tensor<1x4x16xf32>)
// IM2COL: arith.mulf
// IM2COL: arith.addf
// IM2COL-NOT: linalg.conv_2d
// IM2COL: return %{{.*}} : tensor<1x4x4x4xf32>

// Padded 2-D conv with bias: zeros + insert_slice (no tensor.pad), the bias
// broadcast into the accumulator of linalg.conv_2d_nchw_fchw.
// CHECK-LABEL: func.func @conv_bias_pads
// CHECK-NOT: tensor.pad
// CHECK: %[[Z:.*]] = linalg.fill {{.*}} -> tensor<1x3x9x9xf32>
// CHECK: %[[P:.*]] = tensor.insert_slice %arg0 into %[[Z]][0, 0, 1, 1] [1, 3, 8, 8] [1, 1, 1, 1]
// CHECK: %[[B:.*]] = linalg.generic {{.*}} ins(%arg2 : tensor<4xf32>)
// CHECK: linalg.conv_2d_nchw_fchw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%[[P]], %arg1 : {{.*}}) outs(%[[B]] : tensor<1x4x4x4xf32>)
// CHECK-NOT: graph.
func.func @conv_bias_pads(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) -> tensor<1x4x4x4xf32> {
  %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  return %0 : tensor<1x4x4x4xf32>
}

// -----

// Unit strides (dilation 2 in the rows): the window tensor is one generic
// over (n, c, kh, kw, oh, ow) reading x at (oh + 2 kh, ow + kw); no tap
// copies.
// IM2COL-DAG: #[[WIN:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4 + d2 * 2, d3 + d5)>
// IM2COL-DAG: #[[ID6:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3, d4, d5)>
// IM2COL-LABEL: func.func @conv_unit_stride
// IM2COL: %[[P:.*]] = tensor.insert_slice %arg0 into %{{.*}}[0, 0, 1, 1] [1, 3, 7, 6] [1, 1, 1, 1]
// IM2COL-NOT: tensor.insert_slice
// IM2COL: %[[COL:.*]] = linalg.generic {indexing_maps = [#[[WIN]], #[[ID6]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel", "parallel"]} ins(%[[P]] : tensor<1x3x9x8xf32>) outs(%{{.*}} : tensor<1x3x3x3x5x6xf32>)
// IM2COL: tensor.collapse_shape %[[COL]] {{.*}} : tensor<1x3x3x3x5x6xf32> into tensor<810xf32>
// IM2COL: tensor.expand_shape {{.*}} : tensor<810xf32> into tensor<1x27x30xf32>
// IM2COL: return %{{.*}} : tensor<1x4x5x6xf32>
func.func @conv_unit_stride(%x: tensor<1x3x7x6xf32>, %w: tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32> {
  %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>, dilations = array<i64: 2, 1>} : (tensor<1x3x7x6xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x6xf32>
  return %0 : tensor<1x4x5x6xf32>
}

// -----

// A strided conv with more than 64 kernel taps (a 9x9 patch embedding,
// stride 9) copies its window tensor by a loop over the taps: a chain of
// 81 tap copies would take one-shot bufferization's analysis cubic time.
// IM2COL-LABEL: func.func @conv_patches
// IM2COL: %[[COL:.*]] = scf.for %[[T:.*]] = %{{.*}} to %c81 step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (tensor<1x3x9x9x2x3xf32>)
// IM2COL: %[[KW:.*]] = arith.remui %[[T]], %{{.*}}
// IM2COL: %[[KH:.*]] = arith.divui %[[T]], %{{.*}}
// IM2COL: %[[S:.*]] = tensor.extract_slice %arg0[0, 0, %[[KH]], %[[KW]]] [1, 3, 2, 3] [1, 1, 9, 9]
// IM2COL: %[[I:.*]] = tensor.insert_slice %[[S]] into %[[ACC]][0, 0, %[[KH]], %[[KW]], 0, 0] [1, 3, 1, 1, 2, 3] [1, 1, 1, 1, 1, 1]
// IM2COL: scf.yield %[[I]]
// IM2COL: tensor.collapse_shape %[[COL]]
// IM2COL: return %{{.*}} : tensor<1x8x2x3xf32>
func.func @conv_patches(%x: tensor<1x3x18x27xf32>, %w: tensor<8x3x9x9xf32>) -> tensor<1x8x2x3xf32> {
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 9, 9>} : (tensor<1x3x18x27xf32>, tensor<8x3x9x9xf32>) -> tensor<1x8x2x3xf32>
  return %0 : tensor<1x8x2x3xf32>
}

// -----

// A 1x1 conv with unit strides reads its input as the K x P matrix: no
// window copies.
// IM2COL-LABEL: func.func @conv_pointwise
// IM2COL-NOT: tensor.insert_slice
// IM2COL: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<8x4xf32>, tensor<2x4x25xf32>) outs(%{{.*}} : tensor<2x8x25xf32>)
// IM2COL: return %{{.*}} : tensor<2x8x5x5xf32>
func.func @conv_pointwise(%x: tensor<2x4x5x5xf32>, %w: tensor<8x4x1x1xf32>) -> tensor<2x8x5x5xf32> {
  %0 = "graph.conv"(%x, %w) : (tensor<2x4x5x5xf32>, tensor<8x4x1x1xf32>) -> tensor<2x8x5x5xf32>
  return %0 : tensor<2x8x5x5xf32>
}

// -----

// Depthwise (group = channels = filters): the filter is reshaped to C x kh x kw.
// CHECK-LABEL: func.func @conv_depthwise
// CHECK: %[[F:.*]] = tensor.expand_shape {{.*}} : tensor<72xf32> into tensor<8x3x3xf32>
// CHECK: linalg.depthwise_conv_2d_nchw_chw {{.*}} ins(%{{.*}}, %[[F]] : tensor<1x8x7x7xf32>, tensor<8x3x3xf32>)
func.func @conv_depthwise(%x: tensor<1x8x5x5xf32>, %w: tensor<8x1x3x3xf32>) -> tensor<1x8x5x5xf32> {
  %0 = "graph.conv"(%x, %w) {group = 8 : i64, auto_pad = "SAME_UPPER"} : (tensor<1x8x5x5xf32>, tensor<8x1x3x3xf32>) -> tensor<1x8x5x5xf32>
  return %0 : tensor<1x8x5x5xf32>
}

// -----

// Grouped 2-D conv: linalg.conv_2d_ngchw_gfchw on N x G x C/G views.
// With im2col: the window tensor read as N x G x C/G*KH*KW x P (collapsed
// to N x K x P, then split into groups), the filter as G x M/G x C/G*KH*KW,
// and a contraction with a group loop (n, g, m, p, k), whose result's
// groups are merged into channels before its pixels are unflattened
// (kiln-fuse-groups slices both reshapes by whole groups).
// IM2COL-DAG: #[[GW:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d1, d2, d4)>
// IM2COL-DAG: #[[GC:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d4, d3)>
// IM2COL-DAG: #[[GY:.*]] = affine_map<(d0, d1, d2, d3, d4) -> (d0, d1, d2, d3)>
// IM2COL-LABEL: func.func @conv_grouped
// IM2COL: tensor.collapse_shape %{{.*}} {{\[\[}}0], [1, 2, 3], [4, 5]] : tensor<1x4x3x3x3x3xf32> into tensor<1x36x9xf32>
// IM2COL: tensor.expand_shape %{{.*}} {{\[\[}}0], [1, 2], [3]] output_shape [1, 2, 18, 9] : tensor<1x36x9xf32> into tensor<1x2x18x9xf32>
// IM2COL: %[[Y:.*]] = linalg.generic {indexing_maps = [#[[GW]], #[[GC]], #[[GY]]], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x3x18xf32>, tensor<1x2x18x9xf32>) outs(%{{.*}} : tensor<1x2x3x9xf32>)
// IM2COL: %[[M:.*]] = tensor.collapse_shape %[[Y]] {{\[\[}}0], [1, 2], [3]] : tensor<1x2x3x9xf32> into tensor<1x6x9xf32>
// IM2COL: tensor.expand_shape %[[M]] {{\[\[}}0], [1], [2, 3]] output_shape [1, 6, 3, 3] : tensor<1x6x9xf32> into tensor<1x6x3x3xf32>
// IM2COL-NOT: linalg.conv_2d
// IM2COL: return %{{.*}} : tensor<1x6x3x3xf32>
// CHECK-LABEL: func.func @conv_grouped
// CHECK: linalg.conv_2d_ngchw_gfchw {{.*}} ins(%{{.*}}, %{{.*}} : tensor<1x2x2x5x5xf32>, tensor<2x3x2x3x3xf32>) outs(%{{.*}} : tensor<1x2x3x3x3xf32>)
func.func @conv_grouped(%x: tensor<1x4x5x5xf32>, %w: tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32> {
  %0 = "graph.conv"(%x, %w) {group = 2 : i64} : (tensor<1x4x5x5xf32>, tensor<6x2x3x3xf32>) -> tensor<1x6x3x3xf32>
  return %0 : tensor<1x6x3x3xf32>
}

// -----

// Grouped 1-D conv: no named op fits, a generic with a window sum. With
// im2col: taps copied into N x C x K x L (stride 2: one strided slice per
// tap), the grouped contraction.
// IM2COL-LABEL: func.func @conv_grouped_1d
// IM2COL-COUNT-3: tensor.extract_slice %arg0[0, 0, {{[0-2]}}] [1, 4, 4] [1, 1, 2]
// IM2COL: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<2x3x6xf32>, tensor<1x2x6x4xf32>) outs(%{{.*}} : tensor<1x2x3x4xf32>)
// IM2COL: return %{{.*}} : tensor<1x6x4xf32>
// CHECK-DAG: #[[X:.*]] = affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d3 * 2 + d5)>
// CHECK-LABEL: func.func @conv_grouped_1d
// CHECK: linalg.generic {indexing_maps = [#[[X]], {{.*}}], iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
func.func @conv_grouped_1d(%x: tensor<1x4x9xf32>, %w: tensor<6x2x3xf32>) -> tensor<1x6x4xf32> {
  %0 = "graph.conv"(%x, %w) {group = 2 : i64, strides = array<i64: 2>} : (tensor<1x4x9xf32>, tensor<6x2x3xf32>) -> tensor<1x6x4xf32>
  return %0 : tensor<1x6x4xf32>
}

// -----

// 1-D conv with im2col: the window tensor N x C x K x L is one gather
// (unit stride) reading the padded input at l + 2 k (dilation 2), then
// the (n, m, p, k) contraction on N x C*K x L, the result already the
// conv's; the bias broadcast into the accumulator.
// IM2COL-DAG: #[[W1:.*]] = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3 + d2 * 2)>
// IM2COL-LABEL: func.func @conv_1d
// IM2COL: %[[COL:.*]] = linalg.generic {indexing_maps = [#[[W1]], {{.*}}]} ins(%{{.*}} : tensor<1x3x11xf32>) outs(%{{.*}} : tensor<1x3x3x7xf32>)
// IM2COL: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<5x9xf32>, tensor<1x9x7xf32>) outs(%{{.*}} : tensor<1x5x7xf32>)
// IM2COL-NOT: linalg.conv_1d
// IM2COL: return %{{.*}} : tensor<1x5x7xf32>
// CHECK-LABEL: func.func @conv_1d
// CHECK: linalg.conv_1d_ncw_fcw
func.func @conv_1d(%x: tensor<1x3x10xf32>, %w: tensor<5x3x3xf32>, %b: tensor<5xf32>) -> tensor<1x5x7xf32> {
  %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 1, 0>, strides = array<i64: 1>, dilations = array<i64: 2>} : (tensor<1x3x10xf32>, tensor<5x3x3xf32>, tensor<5xf32>) -> tensor<1x5x7xf32>
  return %0 : tensor<1x5x7xf32>
}

// -----

// 1-D depthwise conv with im2col: a 2-D depthwise conv with one row (for
// kiln-depthwise-conv), strides [1, s].
// IM2COL-LABEL: func.func @conv_depthwise_1d
// IM2COL: linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<[1, 2]> : tensor<2xi64>} ins(%{{.*}}, %{{.*}} : tensor<1x4x1x9xf32>, tensor<4x1x3xf32>) outs(%{{.*}} : tensor<1x4x1x4xf32>)
// IM2COL: return %{{.*}} : tensor<1x4x4xf32>
// CHECK-LABEL: func.func @conv_depthwise_1d
// CHECK: linalg.depthwise_conv_1d_ncw_cw
func.func @conv_depthwise_1d(%x: tensor<1x4x9xf32>, %w: tensor<4x1x3xf32>) -> tensor<1x4x4xf32> {
  %0 = "graph.conv"(%x, %w) {group = 4 : i64, strides = array<i64: 2>} : (tensor<1x4x9xf32>, tensor<4x1x3xf32>) -> tensor<1x4x4xf32>
  return %0 : tensor<1x4x4xf32>
}

// -----

// 3-D conv with im2col: a strided slice per tap (27) into N x C x KD x KH
// x KW x OD x OH x OW, read as N x C*27 x OD*OH*OW by the contraction; the
// result unflattened to N x M x OD x OH x OW.
// IM2COL-LABEL: func.func @conv_3d
// IM2COL: tensor.extract_slice %arg0[0, 0, 0, 0, 0] [1, 2, 2, 4, 5] [1, 1, 2, 1, 1]
// IM2COL-COUNT-26: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, {{[0-2]}}, {{[0-2]}}, {{[0-2]}}, 0, 0, 0] [1, 2, 1, 1, 1, 2, 4, 5]
// IM2COL: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%{{.*}}, %{{.*}} : tensor<4x54xf32>, tensor<1x54x40xf32>) outs(%{{.*}} : tensor<1x4x40xf32>)
// IM2COL-NOT: linalg.conv_3d
// IM2COL: return %{{.*}} : tensor<1x4x2x4x5xf32>
// CHECK-LABEL: func.func @conv_3d
// CHECK: linalg.conv_3d_ncdhw_fcdhw
func.func @conv_3d(%x: tensor<1x2x5x6x7xf32>, %w: tensor<4x2x3x3x3xf32>) -> tensor<1x4x2x4x5xf32> {
  %0 = "graph.conv"(%x, %w) {strides = array<i64: 2, 1, 1>} : (tensor<1x2x5x6x7xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x4x2x4x5xf32>
  return %0 : tensor<1x4x2x4x5xf32>
}

// -----

// A window matrix over 16M elements (32 x 9 x 255 x 255 = 18.7M): a loop
// over blocks of output rows of at most 1M window elements that divide
// them (51 blocks of 5 rows: 367200), each an im2col contraction on its
// slab of the padded input (7 rows), inserted into the result.
// IM2COL-LABEL: func.func @conv_blocks
// IM2COL: %[[P:.*]] = tensor.insert_slice %arg0
// IM2COL: %[[E:.*]] = tensor.empty() : tensor<1x2x255x255xf32>
// IM2COL: scf.for %[[IV:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[Y:.*]] = %[[E]]) -> (tensor<1x2x255x255xf32>)
// IM2COL: %[[ROW:.*]] = arith.muli %[[IV]], %{{.*}} : index
// IM2COL: tensor.extract_slice %[[P]][0, 0, %[[ROW]], 0] [1, 32, 7, 257] [1, 1, 1, 1]
// IM2COL: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x32x3x3x5x255xf32>)
// IM2COL: linalg.generic {{.*}} ins(%{{.*}}, %{{.*}} : tensor<2x288xf32>, tensor<1x288x1275xf32>)
// IM2COL: %[[NEXT:.*]] = tensor.insert_slice %{{.*}} into %[[Y]][0, 0, %[[ROW]], 0] [1, 2, 5, 255]
// IM2COL: scf.yield %[[NEXT]]
// IM2COL-NOT: linalg.conv_2d
// IM2COL: return %{{.*}} : tensor<1x2x255x255xf32>
func.func @conv_blocks(%x: tensor<1x32x255x255xf32>, %w: tensor<2x32x3x3xf32>) -> tensor<1x2x255x255xf32> {
  %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x32x255x255xf32>, tensor<2x32x3x3xf32>) -> tensor<1x2x255x255xf32>
  return %0 : tensor<1x2x255x255xf32>
}

// -----

// A strided 3-D conv whose conv_epilogue group kiln-fuse-groups will tile
// into blocks that build their own window columns (4 planes of 9 x 8): the
// window is one gather generic (each tile's part fused later), not tap
// copies of a whole window tensor.
// IM2COL-LABEL: func.func @conv_3d_epilogue_strided
// IM2COL: linalg.generic {{.*}} ins(%{{.*}} : tensor<1x2x9x19x17xf32>) outs(%{{.*}} : tensor<1x2x3x3x3x4x9x8xf32>)
// IM2COL-NOT: tensor.insert_slice %{{.*}} [1, 2, 1, 1, 1, 4, 9, 8]
// IM2COL: return %{{.*}} : tensor<1x4x4x9x8xf32>
func.func @conv_3d_epilogue_strided(%x: tensor<1x2x8x18x16xf32>, %w: tensor<4x2x3x3x3xf32>) -> tensor<1x4x4x9x8xf32> {
  %g = scf.execute_region -> tensor<1x4x4x9x8xf32> no_inline {
    %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1, 1, 1>, strides = array<i64: 2, 2, 2>} : (tensor<1x2x8x18x16xf32>, tensor<4x2x3x3x3xf32>) -> tensor<1x4x4x9x8xf32>
    %1 = "graph.relu"(%0) : (tensor<1x4x4x9x8xf32>) -> tensor<1x4x4x9x8xf32>
    scf.yield %1 : tensor<1x4x4x9x8xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x4x4x9x8xf32>
}

// -----

// A 3-D conv with a window matrix over 16M elements (864 x 8 x 58 x 58 =
// 23M) in such a group: no loop of blocks, since its tiles build the
// window piece by piece.
// IM2COL-LABEL: func.func @conv_3d_epilogue_big
// IM2COL-NOT: scf.for
// IM2COL: linalg.generic {{.*}} outs(%{{.*}} : tensor<1x32x3x3x3x8x58x58xf32>)
// IM2COL: return %{{.*}} : tensor<1x32x8x58x58xf32>
func.func @conv_3d_epilogue_big(%x: tensor<1x32x8x58x58xf32>, %w: tensor<32x32x3x3x3xf32>) -> tensor<1x32x8x58x58xf32> {
  %g = scf.execute_region -> tensor<1x32x8x58x58xf32> no_inline {
    %0 = "graph.conv"(%x, %w) {pads = array<i64: 1, 1, 1, 1, 1, 1>} : (tensor<1x32x8x58x58xf32>, tensor<32x32x3x3x3xf32>) -> tensor<1x32x8x58x58xf32>
    %1 = "graph.relu"(%0) : (tensor<1x32x8x58x58xf32>) -> tensor<1x32x8x58x58xf32>
    scf.yield %1 : tensor<1x32x8x58x58xf32>
  } {graph.fusion = "conv_epilogue"}
  return %g : tensor<1x32x8x58x58xf32>
}

// -----

// conv_transpose: x spread by the strides into zeros, then a conv with
// the flipped kernel.
// CHECK-LABEL: func.func @conv_transpose_strided
// CHECK: tensor.insert_slice %arg0 into %{{.*}}[0, 0, 2, 2] [1, 1, 3, 3] [1, 1, 3, 2]
// CHECK: linalg.conv_2d_nchw_fchw
func.func @conv_transpose_strided(%x: tensor<1x1x3x3xf32>, %w: tensor<1x2x3x3xf32>) -> tensor<1x2x9x7xf32> {
  %0 = "graph.conv_transpose"(%x, %w) {strides = array<i64: 3, 2>} : (tensor<1x1x3x3xf32>, tensor<1x2x3x3xf32>) -> tensor<1x2x9x7xf32>
  return %0 : tensor<1x2x9x7xf32>
}

// -----

// max_pool pads with -inf.
// A 2-D float max pool is one elementwise max over its kernel taps, each a
// strided slice of the -inf padded input (vectorized along the rows by the
// CPU schedules); the indices variant keeps the window generic below. The
// maxes are nsz (a zero maximum's sign unspecified, as in ONNX Runtime):
// x86's lowering then skips the signed-zero fix-ups.
// CHECK-LABEL: func.func @max_pool_pads
// CHECK: %[[NI:.*]] = arith.constant 0xFF800000 : f32
// Only the borders are filled (rows above and below, then columns left
// and right of the input's rows), so that a producer writing the interior
// in place leaves no element written twice.
// CHECK: %[[E:.*]] = tensor.empty() : tensor<1x1x7x7xf32>
// CHECK-NOT: tensor<1x1x7x7xf32>) -> tensor<1x1x7x7xf32>
// CHECK: %[[F0:.*]] = linalg.fill ins(%[[NI]] : f32) {{.*}} -> tensor<1x1x1x7xf32>
// CHECK: %[[B0:.*]] = tensor.insert_slice %[[F0]] into %[[E]][0, 0, 0, 0] [1, 1, 1, 7]
// CHECK: %[[F1:.*]] = linalg.fill ins(%[[NI]] : f32) {{.*}} -> tensor<1x1x1x7xf32>
// CHECK: %[[B1:.*]] = tensor.insert_slice %[[F1]] into %[[B0]][0, 0, 6, 0] [1, 1, 1, 7]
// CHECK: %[[F2:.*]] = linalg.fill ins(%[[NI]] : f32) {{.*}} -> tensor<1x1x5x1xf32>
// CHECK: %[[B2:.*]] = tensor.insert_slice %[[F2]] into %[[B1]][0, 0, 1, 0] [1, 1, 5, 1]
// CHECK: %[[F3:.*]] = linalg.fill ins(%[[NI]] : f32) {{.*}} -> tensor<1x1x5x1xf32>
// CHECK: %[[B3:.*]] = tensor.insert_slice %[[F3]] into %[[B2]][0, 0, 1, 6] [1, 1, 5, 1]
// CHECK: %[[P:.*]] = tensor.insert_slice %arg0 into %[[B3]][0, 0, 1, 1] [1, 1, 5, 5]
// CHECK-COUNT-9: tensor.extract_slice %[[P]]{{.*}} to tensor<1x1x5x5xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-COUNT-8: arith.maximumf {{.*}} fastmath<nsz>
// CHECK-NOT: linalg.pooling_nchw_max
func.func @max_pool_pads(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32> {
  %0 = "graph.max_pool"(%x) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x5x5xf32>
  return %0 : tensor<1x1x5x5xf32>
}

// -----

// max_pool with indices: one generic yields the value and its flat index.
// CHECK-LABEL: func.func @max_pool_indices
// CHECK: %[[R:.*]]:2 = linalg.generic
// CHECK: arith.cmpf ugt
// CHECK: linalg.index
// CHECK: return %[[R]]#0, %[[R]]#1
func.func @max_pool_indices(%x: tensor<1x1x5x5xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) {
  %0:2 = "graph.max_pool"(%x) {kernel_shape = array<i64: 2, 2>, storage_order = 1 : i64, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
  return %0#0, %0#1 : tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>
}

// -----

// A 2-D average_pool is one elementwise generic over its 9 taps (strided
// slices of the padded input) and the per-row and per-column window counts;
// with ceil_mode the clipped last window divides by 2, not 3.
// CHECK-LABEL: func.func @average_pool_ceil
// CHECK-COUNT-9: tensor.extract_slice %{{.*}} [1, 1, 2, 2] [1, 1, 2, 2]
// CHECK: arith.constant dense<[3.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel"]
// CHECK-COUNT-8: arith.addf
// CHECK: arith.mulf
// CHECK: arith.divf
// CHECK-NOT: linalg.pooling_nchw_sum
func.func @average_pool_ceil(%x: tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32> {
  %0 = "graph.average_pool"(%x) {ceil_mode = 1 : i64, kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x1x4x4xf32>) -> tensor<1x1x2x2xf32>
  return %0 : tensor<1x1x2x2xf32>
}

// -----

// 1-D and 3-D pools are elementwise generics over their taps too: a 1-D
// average_pool over 3 strided views divided by its window count, a 1-D
// max_pool with stride 4 (M5's), a 3-D max pool over 2x2x2 taps, a 3-D
// average pool dividing by the product of its three count vectors.
// CHECK-LABEL: func.func @average_pool_1d
// CHECK-COUNT-3: tensor.extract_slice %arg0[0, 0, {{[0-2]}}] [1, 2, 3] [1, 1, 3]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel"]
// CHECK-COUNT-2: arith.addf
// CHECK: arith.divf
// CHECK-NOT: linalg.pooling_ncw_sum
func.func @average_pool_1d(%x: tensor<1x2x9xf32>) -> tensor<1x2x3xf32> {
  %0 = "graph.average_pool"(%x) {kernel_shape = array<i64: 3>, strides = array<i64: 3>} : (tensor<1x2x9xf32>) -> tensor<1x2x3xf32>
  return %0 : tensor<1x2x3xf32>
}

// CHECK-LABEL: func.func @max_pool_1d
// CHECK-COUNT-4: tensor.extract_slice %arg0[0, 0, {{[0-3]}}] [1, 8, 24] [1, 1, 4]
// CHECK-COUNT-3: arith.maximumf
// CHECK-NOT: linalg.pooling_ncw_max
func.func @max_pool_1d(%x: tensor<1x8x99xf32>) -> tensor<1x8x24xf32> {
  %0 = "graph.max_pool"(%x) {kernel_shape = array<i64: 4>, strides = array<i64: 4>} : (tensor<1x8x99xf32>) -> tensor<1x8x24xf32>
  return %0 : tensor<1x8x24xf32>
}

// CHECK-LABEL: func.func @max_pool_3d
// CHECK-COUNT-8: tensor.extract_slice {{.*}} [1, 2, 2, 3, 3] [1, 1, 2, 2, 2]
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "parallel", "parallel", "parallel"]
// CHECK-COUNT-7: arith.maximumf
func.func @max_pool_3d(%x: tensor<1x2x4x6x7xf32>) -> tensor<1x2x2x3x3xf32> {
  %0 = "graph.max_pool"(%x) {kernel_shape = array<i64: 2, 2, 2>, strides = array<i64: 2, 2, 2>} : (tensor<1x2x4x6x7xf32>) -> tensor<1x2x2x3x3xf32>
  return %0 : tensor<1x2x2x3x3xf32>
}

// CHECK-LABEL: func.func @average_pool_3d
// CHECK-COUNT-8: tensor.extract_slice
// CHECK: linalg.generic
// CHECK-COUNT-7: arith.addf
// CHECK-COUNT-2: arith.mulf
// CHECK: arith.divf
func.func @average_pool_3d(%x: tensor<1x2x4x6x7xf32>) -> tensor<1x2x4x6x7xf32> {
  %0 = "graph.average_pool"(%x) {kernel_shape = array<i64: 2, 2, 2>, pads = array<i64: 0, 0, 0, 1, 1, 1>} : (tensor<1x2x4x6x7xf32>) -> tensor<1x2x4x6x7xf32>
  return %0 : tensor<1x2x4x6x7xf32>
}

// A window of more than 27 taps keeps the named pooling op.
// CHECK-LABEL: func.func @max_pool_1d_wide
// CHECK: linalg.pooling_ncw_max
func.func @max_pool_1d_wide(%x: tensor<1x2x64xf32>) -> tensor<1x2x2xf32> {
  %0 = "graph.max_pool"(%x) {kernel_shape = array<i64: 32>, strides = array<i64: 32>} : (tensor<1x2x64xf32>) -> tensor<1x2x2xf32>
  return %0 : tensor<1x2x2xf32>
}

// -----

// CHECK-LABEL: func.func @global_average_pool
// CHECK: linalg.generic {{.*}} iterator_types = ["parallel", "parallel", "reduction", "reduction"]
// CHECK: arith.addf
// CHECK: arith.divf
// CHECK: tensor.expand_shape {{.*}} into tensor<1x3x1x1xf32>
func.func @global_average_pool(%x: tensor<1x3x4x5xf32>) -> tensor<1x3x1x1xf32> {
  %0 = "graph.global_average_pool"(%x) : (tensor<1x3x4x5xf32>) -> tensor<1x3x1x1xf32>
  return %0 : tensor<1x3x1x1xf32>
}

// -----

// max_unpool scatters through an scf.for over the flat input.
// CHECK-LABEL: func.func @max_unpool
// CHECK: scf.for
// CHECK: tensor.insert
// CHECK: scf.yield
func.func @max_unpool(%x: tensor<1x1x2x2xf32>, %i: tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32> {
  %0 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>) -> tensor<1x1x4x4xf32>
  return %0 : tensor<1x1x4x4xf32>
}

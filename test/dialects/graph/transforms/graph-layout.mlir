// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-layout),graph-dce)' | FileCheck %s
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-layout{convs=all}),graph-dce)' | FileCheck %s --check-prefix=ALL
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-layout{convs=none}),graph-dce)' | FileCheck %s --check-prefix=NONE
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-layout{max-kernel=9 max-spatial=49 min-channels=32}),graph-dce)' | FileCheck %s --check-prefix=RULE
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-layout{depthwise=false}),graph-dce)' | FileCheck %s --check-prefix=NODW
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-layout),graph-verify)' -o /dev/null
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-layout{convs=some}))' 2>&1 | FileCheck %s --check-prefix=BADMODE
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-layout{max-spatial=-1}))' 2>&1 | FileCheck %s --check-prefix=NEGSPATIAL
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-layout{min-channels=-4}))' 2>&1 | FileCheck %s --check-prefix=NEGCHANNELS
// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-layout{max-kernel=big}))' 2>&1 | FileCheck %s --check-prefix=BADINT

// BADMODE: error: graph-layout: option 'convs' must be auto, all or none, got 'some'
// NEGSPATIAL: error: graph-layout: option 'max-spatial' must be non-negative, got -1
// NEGCHANNELS: error: graph-layout: option 'min-channels' must be non-negative, got -4
// BADINT: invalid value 'big' for option 'max-kernel' of pass 'graph-layout' (expected an integer)

// A MobileNet-like chain of 1x1 convs with a clip (scalar bounds) and a
// residual add between them: both convs switch, the transposes between
// them cancel, one transpose stays at each end.
// CHECK-LABEL: func.func @chain
// CHECK: %[[XT:.*]] = "graph.transpose"(%arg0) {perm = array<i64: 0, 2, 3, 1>} : (tensor<1x32x7x7xf32>) -> tensor<1x7x7x32xf32>
// CHECK-NOT: graph.transpose
// CHECK: %[[C1:.*]] = "graph.conv"(%[[XT]], %{{.*}}) {layout = "channels_last"} : (tensor<1x7x7x32xf32>, tensor<1x1x32x32xf32>) -> tensor<1x7x7x32xf32>
// CHECK: %[[CL:.*]] = "graph.clip"(%[[C1]], %{{.*}}, %{{.*}}) {{.*}} -> tensor<1x7x7x32xf32>
// CHECK: %[[C2:.*]] = "graph.conv"(%[[CL]], %{{.*}}) {layout = "channels_last"}
// CHECK: %[[ADD:.*]] = "graph.add"(%[[C2]], %[[CL]]) : (tensor<1x7x7x32xf32>, tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
// CHECK-NOT: graph.transpose
// CHECK: %[[R:.*]] = "graph.relu"(%[[ADD]]) : (tensor<1x7x7x32xf32>) -> tensor<1x7x7x32xf32>
// CHECK: %[[YT:.*]] = "graph.transpose"(%[[R]]) {perm = array<i64: 0, 3, 1, 2>} : (tensor<1x7x7x32xf32>) -> tensor<1x32x7x7xf32>
// CHECK-NEXT: return %[[YT]]
// NONE-LABEL: func.func @chain
// NONE-NOT: graph.transpose
// NONE-NOT: channels_last
// NONE: return
func.func @chain(%x: tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32> {
  %w = "graph.constant"() {value = dense<0.5> : tensor<32x32x1x1xf32>} : () -> tensor<32x32x1x1xf32>
  %lo = "graph.constant"() {value = dense<0.0> : tensor<f32>} : () -> tensor<f32>
  %hi = "graph.constant"() {value = dense<6.0> : tensor<f32>} : () -> tensor<f32>
  %0 = "graph.conv"(%x, %w) : (tensor<1x32x7x7xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x7x7xf32>
  %1 = "graph.clip"(%0, %lo, %hi) {operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x32x7x7xf32>, tensor<f32>, tensor<f32>) -> tensor<1x32x7x7xf32>
  %2 = "graph.conv"(%1, %w) : (tensor<1x32x7x7xf32>, tensor<32x32x1x1xf32>) -> tensor<1x32x7x7xf32>
  %3 = "graph.add"(%2, %1) : (tensor<1x32x7x7xf32>, tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  %4 = "graph.relu"(%3) : (tensor<1x32x7x7xf32>) -> tensor<1x32x7x7xf32>
  return %4 : tensor<1x32x7x7xf32>
}

// -----

// A constant weight is transposed at compile time, M x C x KH x KW (2 x 3
// x 1 x 2, w[o, i, 0, x] = 6o + 2i + x) to KH x KW x C x M; the bias
// stays. The conv is switched only with convs=all (2 output channels).
// ALL-LABEL: func.func @weight_values
// ALL: "graph.constant"() {value = dense<{{\[\[\[\[}}0.000000e+00, 6.000000e+00], [2.000000e+00, 8.000000e+00], [4.000000e+00, 1.000000e+01]], {{\[\[}}1.000000e+00, 7.000000e+00], [3.000000e+00, 9.000000e+00], [5.000000e+00, 1.100000e+01]]]]> : tensor<1x2x3x2xf32>}
// ALL: "graph.conv"(%{{.*}}, %{{.*}}, %arg1) {layout = "channels_last", pads = array<i64: 0, 1, 0, 0>} : (tensor<2x5x4x3xf32>, tensor<1x2x3x2xf32>, tensor<2xf32>) -> tensor<2x5x4x2xf32>
// CHECK-LABEL: func.func @weight_values
// CHECK-NOT: channels_last
func.func @weight_values(%x: tensor<2x3x5x4xf32>, %b: tensor<2xf32>) -> tensor<2x2x5x4xf32> {
  %w = "graph.constant"() {value = dense<[[[[0.0, 1.0]], [[2.0, 3.0]], [[4.0, 5.0]]], [[[6.0, 7.0]], [[8.0, 9.0]], [[10.0, 11.0]]]]> : tensor<2x3x1x2xf32>} : () -> tensor<2x3x1x2xf32>
  %0 = "graph.conv"(%x, %w, %b) {pads = array<i64: 0, 1, 0, 0>} : (tensor<2x3x5x4xf32>, tensor<2x3x1x2xf32>, tensor<2xf32>) -> tensor<2x2x5x4xf32>
  return %0 : tensor<2x2x5x4xf32>
}

// -----

// A weight that is not a constant gets a graph.transpose, which the
// lowering runs.
// ALL-LABEL: func.func @weight_argument
// ALL: "graph.transpose"(%arg1) {perm = array<i64: 2, 3, 1, 0>} : (tensor<16x8x3x3xf32>) -> tensor<3x3x8x16xf32>
// ALL: layout = "channels_last"
// 16 output channels: below RULE's minimum of 32.
// RULE-LABEL: func.func @weight_argument
// RULE-NOT: channels_last
// RULE: return
func.func @weight_argument(%x: tensor<1x8x7x7xf32>, %w: tensor<16x8x3x3xf32>) -> tensor<1x16x5x5xf32> {
  %0 = "graph.conv"(%x, %w) : (tensor<1x8x7x7xf32>, tensor<16x8x3x3xf32>) -> tensor<1x16x5x5xf32>
  return %0 : tensor<1x16x5x5xf32>
}

// -----

// The default rule switches the 1x1 conv with 32 output channels (any
// plane size), not the 3x3 one nor the one with 8 output channels. RULE
// (3x3 allowed, planes up to 49, at least 32 channels) switches only the
// 3x3 conv on the 7 x 7 plane.
// CHECK-LABEL: func.func @rule
// CHECK: "graph.conv"(%arg0, %arg1) {pads
// CHECK: "graph.conv"({{.*}}) {layout = "channels_last"} : (tensor<1x56x56x16xf32>
// CHECK: "graph.conv"(%arg4, %arg5) :
// CHECK: return
// RULE-LABEL: func.func @rule
// RULE: "graph.conv"({{.*}}) {layout = "channels_last", pads = array<i64: 1, 1, 1, 1>} : (tensor<1x7x7x64xf32>
// RULE-NOT: channels_last
// RULE: return
func.func @rule(%a: tensor<1x64x7x7xf32>, %wa: tensor<64x64x3x3xf32>, %b: tensor<1x16x56x56xf32>, %wb: tensor<32x16x1x1xf32>, %c: tensor<1x16x7x7xf32>, %wc: tensor<8x16x1x1xf32>) -> (tensor<1x64x7x7xf32>, tensor<1x32x56x56xf32>, tensor<1x8x7x7xf32>) {
  %0 = "graph.conv"(%a, %wa) {pads = array<i64: 1, 1, 1, 1>} : (tensor<1x64x7x7xf32>, tensor<64x64x3x3xf32>) -> tensor<1x64x7x7xf32>
  %1 = "graph.conv"(%b, %wb) : (tensor<1x16x56x56xf32>, tensor<32x16x1x1xf32>) -> tensor<1x32x56x56xf32>
  %2 = "graph.conv"(%c, %wc) : (tensor<1x16x7x7xf32>, tensor<8x16x1x1xf32>) -> tensor<1x8x7x7xf32>
  func.return %0, %1, %2 : tensor<1x64x7x7xf32>, tensor<1x32x56x56xf32>, tensor<1x8x7x7xf32>
}

// -----

// Never switched, even with convs=all: grouped convs that are not
// depthwise, 1-D convs, dynamic shapes, convs already channels-last.
// ALL-LABEL: func.func @not_candidates
// ALL-NOT: graph.transpose
// ALL: return
func.func @not_candidates(%x: tensor<1x32x7x7xf32>, %gw: tensor<32x4x3x3xf32>, %y: tensor<1x32x9xf32>, %w1: tensor<32x32x1xf32>, %d: tensor<?x32x7x7xf32>, %w: tensor<32x32x1x1xf32>, %l: tensor<1x7x7x32xf32>, %wl: tensor<1x1x32x32xf32>) -> (tensor<1x32x5x5xf32>, tensor<1x32x9xf32>, tensor<?x32x7x7xf32>, tensor<1x7x7x32xf32>) {
  %0 = "graph.conv"(%x, %gw) {group = 8 : i64} : (tensor<1x32x7x7xf32>, tensor<32x4x3x3xf32>) -> tensor<1x32x5x5xf32>
  %1 = "graph.conv"(%y, %w1) : (tensor<1x32x9xf32>, tensor<32x32x1xf32>) -> tensor<1x32x9xf32>
  %2 = "graph.conv"(%d, %w) : (tensor<?x32x7x7xf32>, tensor<32x32x1x1xf32>) -> tensor<?x32x7x7xf32>
  %3 = "graph.conv"(%l, %wl) {layout = "channels_last"} : (tensor<1x7x7x32xf32>, tensor<1x1x32x32xf32>) -> tensor<1x7x7x32xf32>
  func.return %0, %1, %2, %3 : tensor<1x32x5x5xf32>, tensor<1x32x9xf32>, tensor<?x32x7x7xf32>, tensor<1x7x7x32xf32>
}

// -----

// Depthwise convs switch by default (any kernel), their weight M x 1 x KH x
// KW becoming KH x KW x 1 x M; not with depthwise=false. An explicit
// layout = "channels_first" is the default layout.
// CHECK-LABEL: func.func @depthwise
// CHECK: "graph.transpose"(%arg1) {perm = array<i64: 2, 3, 1, 0>} : (tensor<32x1x3x3xf32>) -> tensor<3x3x1x32xf32>
// CHECK: "graph.conv"({{.*}}) {group = 32 : i64, layout = "channels_last", strides = array<i64: 2, 2>} : (tensor<1x9x9x32xf32>, tensor<3x3x1x32xf32>) -> tensor<1x4x4x32xf32>
// NODW-LABEL: func.func @depthwise
// NODW-NOT: channels_last
// NODW: return
func.func @depthwise(%x: tensor<1x32x9x9xf32>, %w: tensor<32x1x3x3xf32>) -> tensor<1x32x4x4xf32> {
  %0 = "graph.conv"(%x, %w) {group = 32 : i64, layout = "channels_first", strides = array<i64: 2, 2>} : (tensor<1x32x9x9xf32>, tensor<32x1x3x3xf32>) -> tensor<1x32x4x4xf32>
  return %0 : tensor<1x32x4x4xf32>
}

// -----

// Cancellation on its own: a transpose pair composing to the identity
// disappears, one composing to another perm becomes one transpose.
// CHECK-LABEL: func.func @pairs
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%arg0) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %arg0, %[[T]]
func.func @pairs(%x: tensor<2x3x4xf32>) -> (tensor<2x3x4xf32>, tensor<4x2x3xf32>) {
  %0 = "graph.transpose"(%x) {perm = array<i64: 1, 2, 0>} : (tensor<2x3x4xf32>) -> tensor<3x4x2xf32>
  %1 = "graph.transpose"(%0) {perm = array<i64: 2, 0, 1>} : (tensor<3x4x2xf32>) -> tensor<2x3x4xf32>
  %2 = "graph.transpose"(%0) {perm = array<i64: 1, 2, 0>} : (tensor<3x4x2xf32>) -> tensor<4x2x3xf32>
  return %1, %2 : tensor<2x3x4xf32>, tensor<4x2x3xf32>
}

// -----

// Sinking stops where the layout matters: an operand broadcast along some
// dims (a per-channel bias), transposes with different perms, a
// non-elementwise consumer (softmax over an axis).
// CHECK-LABEL: func.func @no_sink
// CHECK: %[[T:.*]] = "graph.transpose"(%arg0)
// CHECK-NEXT: "graph.add"(%[[T]], %arg1)
// CHECK-NEXT: %[[U:.*]] = "graph.transpose"(%arg2)
// CHECK-NEXT: "graph.mul"(%[[T]], %[[U]])
// CHECK-NEXT: "graph.softmax"(%[[T]])
func.func @no_sink(%x: tensor<2x3x4xf32>, %b: tensor<4x1x1xf32>, %z: tensor<2x4x3xf32>) -> (tensor<4x2x3xf32>, tensor<4x2x3xf32>, tensor<4x2x3xf32>) {
  %t = "graph.transpose"(%x) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %0 = "graph.add"(%t, %b) : (tensor<4x2x3xf32>, tensor<4x1x1xf32>) -> tensor<4x2x3xf32>
  %u = "graph.transpose"(%z) {perm = array<i64: 1, 0, 2>} : (tensor<2x4x3xf32>) -> tensor<4x2x3xf32>
  %1 = "graph.mul"(%t, %u) : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %2 = "graph.softmax"(%t) {axis = 1 : i64} : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  func.return %0, %1, %2 : tensor<4x2x3xf32>, tensor<4x2x3xf32>, tensor<4x2x3xf32>
}

// -----

// Sinking past unary and binary ops whose transposed operands share a perm;
// the scalar operand of the mul stays as it is.
// CHECK-LABEL: func.func @sink
// CHECK-NEXT: %[[C:.*]] = "graph.constant"
// CHECK-NEXT: %[[E:.*]] = "graph.exp"(%arg0) : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[A:.*]] = "graph.add"(%[[E]], %arg1) : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[M:.*]] = "graph.mul"(%[[A]], %[[C]]) : (tensor<2x3x4xf32>, tensor<1xf32>) -> tensor<2x3x4xf32>
// CHECK-NEXT: %[[T:.*]] = "graph.transpose"(%[[M]]) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
// CHECK-NEXT: return %[[T]]
func.func @sink(%x: tensor<2x3x4xf32>, %y: tensor<2x3x4xf32>) -> tensor<4x2x3xf32> {
  %c = "graph.constant"() {value = dense<2.0> : tensor<1xf32>} : () -> tensor<1xf32>
  %tx = "graph.transpose"(%x) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %ty = "graph.transpose"(%y) {perm = array<i64: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %0 = "graph.exp"(%tx) : (tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %1 = "graph.add"(%0, %ty) : (tensor<4x2x3xf32>, tensor<4x2x3xf32>) -> tensor<4x2x3xf32>
  %2 = "graph.mul"(%1, %c) : (tensor<4x2x3xf32>, tensor<1xf32>) -> tensor<4x2x3xf32>
  return %2 : tensor<4x2x3xf32>
}

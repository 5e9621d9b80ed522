// RUN: kiln-opt %s | kiln-opt | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-verify))' | FileCheck %s

// Every nn op in generic form. graph-verify re-infers each result type and
// rejects a static dim that differs, so the static result types below are
// the ONNX shape arithmetic under test (padding, strides, dilations, ceil
// mode, groups, resize scales/sizes); `?` marks a dim inference leaves
// unknown.

// CHECK-LABEL: func.func @conv
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>, %[[W:.*]]: tensor<4x3x3x3xf32>, %[[B:.*]]: tensor<4xf32>)
func.func @conv(%x: tensor<1x3x8x8xf32>, %w: tensor<4x3x3x3xf32>, %b: tensor<4xf32>) {
  // CHECK: "graph.conv"(%[[X]], %[[W]]) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  %0 = "graph.conv"(%x, %w) : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x6xf32>
  // CHECK: "graph.conv"(%[[X]], %[[W]], %[[B]]) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  %1 = "graph.conv"(%x, %w, %b) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>, tensor<4xf32>) -> tensor<1x4x4x4xf32>
  // Asymmetric pads: begins (0, 1), ends (2, 0); dilation 2 makes the kernel 5.
  // CHECK: "graph.conv"(%[[X]], %[[W]]) {dilations = array<i64: 2, 2>, pads = array<i64: 0, 1, 2, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x5xf32>
  %2 = "graph.conv"(%x, %w) {dilations = array<i64: 2, 2>, pads = array<i64: 0, 1, 2, 0>} : (tensor<1x3x8x8xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x6x5xf32>
  return
}

// channels_last (graph-layout's form): x N x H x W x C, w KH x KW x C/g x
// M, y N x OH x OW x M; the same window rules as channels_first.
// CHECK-LABEL: func.func @conv_channels_last
func.func @conv_channels_last(%x: tensor<2x8x7x3xf32>, %w: tensor<3x3x3x5xf32>, %b: tensor<5xf32>, %g: tensor<1x3x1x6xf32>) {
  // CHECK: layout = "channels_last", pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>} {{.*}} -> tensor<2x4x7x5xf32>
  %0 = "graph.conv"(%x, %w, %b) {layout = "channels_last", pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 1>} : (tensor<2x8x7x3xf32>, tensor<3x3x3x5xf32>, tensor<5xf32>) -> tensor<2x4x7x5xf32>
  // Grouped: 3 groups of one channel, two filters each; dilation 2.
  // CHECK: {dilations = array<i64: 1, 2>, group = 3 : i64, layout = "channels_last"} {{.*}} -> tensor<2x8x3x6xf32>
  %1 = "graph.conv"(%x, %g) {dilations = array<i64: 1, 2>, group = 3 : i64, layout = "channels_last"} : (tensor<2x8x7x3xf32>, tensor<1x3x1x6xf32>) -> tensor<2x8x3x6xf32>
  return
}

// CHECK-LABEL: func.func @conv_auto_pad
func.func @conv_auto_pad(%x: tensor<1x3x7x7xf32>, %w: tensor<4x3x3x3xf32>) {
  // SAME_*: ceil(7 / 2) = 4.
  // CHECK: {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} {{.*}} -> tensor<1x4x4x4xf32>
  %0 = "graph.conv"(%x, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x4x4xf32>
  // CHECK: {auto_pad = "SAME_LOWER", pads = array<i64: 0, 0, 0, 0>} {{.*}} -> tensor<1x4x7x7xf32>
  %1 = "graph.conv"(%x, %w) {auto_pad = "SAME_LOWER", pads = array<i64: 0, 0, 0, 0>} : (tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x7x7xf32>
  // VALID: floor((7 - 3) / 2) + 1 = 3.
  // CHECK: {auto_pad = "VALID", strides = array<i64: 2, 2>} {{.*}} -> tensor<1x4x3x3xf32>
  %2 = "graph.conv"(%x, %w) {auto_pad = "VALID", strides = array<i64: 2, 2>} : (tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x3x3xf32>
  // CHECK: {auto_pad = "NOTSET"} {{.*}} -> tensor<1x4x5x5xf32>
  %3 = "graph.conv"(%x, %w) {auto_pad = "NOTSET"} : (tensor<1x3x7x7xf32>, tensor<4x3x3x3xf32>) -> tensor<1x4x5x5xf32>
  return
}

// CHECK-LABEL: func.func @conv_group_1d_3d
func.func @conv_group_1d_3d(%x: tensor<1x4x5x5xf16>, %w: tensor<8x2x3x3xf16>, %x1: tensor<2x3x10xf64>, %w1: tensor<5x3x3xf64>, %x3: tensor<1x2x4x4x4xbf16>, %w3: tensor<2x2x2x2x2xbf16>) {
  // CHECK: {group = 2 : i64} : (tensor<1x4x5x5xf16>, tensor<8x2x3x3xf16>) -> tensor<1x8x3x3xf16>
  %0 = "graph.conv"(%x, %w) {group = 2 : i64} : (tensor<1x4x5x5xf16>, tensor<8x2x3x3xf16>) -> tensor<1x8x3x3xf16>
  // Depthwise: group = channels.
  // CHECK: {group = 4 : i64} : (tensor<1x4x5x5xf16>, tensor<8x1x3x3xf16>) -> tensor<1x8x3x3xf16>
  %wd = "graph.constant"() {value = dense<1.0> : tensor<8x1x3x3xf16>} : () -> tensor<8x1x3x3xf16>
  %1 = "graph.conv"(%x, %wd) {group = 4 : i64} : (tensor<1x4x5x5xf16>, tensor<8x1x3x3xf16>) -> tensor<1x8x3x3xf16>
  // CHECK: {dilations = array<i64: 2>} : (tensor<2x3x10xf64>, tensor<5x3x3xf64>) -> tensor<2x5x6xf64>
  %2 = "graph.conv"(%x1, %w1) {dilations = array<i64: 2>} : (tensor<2x3x10xf64>, tensor<5x3x3xf64>) -> tensor<2x5x6xf64>
  // CHECK: (tensor<1x2x4x4x4xbf16>, tensor<2x2x2x2x2xbf16>) -> tensor<1x2x3x3x3xbf16>
  %3 = "graph.conv"(%x3, %w3) : (tensor<1x2x4x4x4xbf16>, tensor<2x2x2x2x2xbf16>) -> tensor<1x2x3x3x3xbf16>
  return
}

// CHECK-LABEL: func.func @conv_dynamic
func.func @conv_dynamic(%x: tensor<?x3x?x8xf32>, %w: tensor<4x3x3x3xf32>, %wd: tensor<?x?x?x3xf32>) {
  // CHECK: (tensor<?x3x?x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x6xf32>
  %0 = "graph.conv"(%x, %w) : (tensor<?x3x?x8xf32>, tensor<4x3x3x3xf32>) -> tensor<?x4x?x6xf32>
  // The kernel comes from w's dims when kernel_shape is absent.
  // CHECK: (tensor<?x3x?x8xf32>, tensor<?x?x?x3xf32>) -> tensor<?x?x?x6xf32>
  %1 = "graph.conv"(%x, %wd) : (tensor<?x3x?x8xf32>, tensor<?x?x?x3xf32>) -> tensor<?x?x?x6xf32>
  // CHECK: {kernel_shape = array<i64: 3, 3>} : (tensor<?x3x?x8xf32>, tensor<?x?x?x3xf32>) -> tensor<?x?x?x6xf32>
  %2 = "graph.conv"(%x, %wd) {kernel_shape = array<i64: 3, 3>} : (tensor<?x3x?x8xf32>, tensor<?x?x?x3xf32>) -> tensor<?x?x?x6xf32>
  return
}

// CHECK-LABEL: func.func @conv_transpose
// CHECK-SAME: (%[[X:.*]]: tensor<1x4x3x3xf32>, %[[W:.*]]: tensor<4x2x3x3xf32>, %[[B:.*]]: tensor<2xf32>, %[[WG:.*]]: tensor<4x1x3x3xf32>)
func.func @conv_transpose(%x: tensor<1x4x3x3xf32>, %w: tensor<4x2x3x3xf32>, %b: tensor<2xf32>, %wg: tensor<4x1x3x3xf32>) {
  // 2 * (3 - 1) + 3 = 7.
  // CHECK: "graph.conv_transpose"(%[[X]], %[[W]], %[[B]]) {strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x7x7xf32>
  %0 = "graph.conv_transpose"(%x, %w, %b) {strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>, tensor<2xf32>) -> tensor<1x2x7x7xf32>
  // 2 * 2 + 1 + 3 - (1 + 1) = 6; groups multiply w's dim 1.
  // CHECK: "graph.conv_transpose"(%[[X]], %[[WG]]) {group = 2 : i64, output_padding = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x1x3x3xf32>) -> tensor<1x2x6x6xf32>
  %1 = "graph.conv_transpose"(%x, %wg) {group = 2 : i64, output_padding = array<i64: 1, 1>, pads = array<i64: 1, 1, 1, 1>, strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x1x3x3xf32>) -> tensor<1x2x6x6xf32>
  // CHECK: {output_shape = array<i64: 10, 9>, strides = array<i64: 3, 3>} {{.*}} -> tensor<1x2x10x9xf32>
  %2 = "graph.conv_transpose"(%x, %w) {output_shape = array<i64: 10, 9>, strides = array<i64: 3, 3>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x10x9xf32>
  // CHECK: {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} {{.*}} -> tensor<1x2x6x6xf32>
  %3 = "graph.conv_transpose"(%x, %w) {auto_pad = "SAME_UPPER", strides = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x6x6xf32>
  // Dilation 2: kernel 5, 3 - 1 + 5 = 7.
  // CHECK: {dilations = array<i64: 2, 2>} {{.*}} -> tensor<1x2x7x7xf32>
  %4 = "graph.conv_transpose"(%x, %w) {dilations = array<i64: 2, 2>} : (tensor<1x4x3x3xf32>, tensor<4x2x3x3xf32>) -> tensor<1x2x7x7xf32>
  return
}

// CHECK-LABEL: func.func @conv_transpose_dynamic
func.func @conv_transpose_dynamic(%x: tensor<?x4x?x3xf32>, %w: tensor<4x?x3x3xf32>) {
  // CHECK: -> tensor<?x?x?x5xf32>
  %0 = "graph.conv_transpose"(%x, %w) : (tensor<?x4x?x3xf32>, tensor<4x?x3x3xf32>) -> tensor<?x?x?x5xf32>
  return
}

// CHECK-LABEL: func.func @max_pool
// CHECK-SAME: (%[[X:.*]]: tensor<1x3x8x8xf32>
func.func @max_pool(%x: tensor<1x3x8x8xf32>, %x7: tensor<1x1x7x7xf32>, %x5: tensor<1x1x5x5xf32>, %q: tensor<2x4x6xi8>) {
  // CHECK: %{{.*}}:2 = "graph.max_pool"(%[[X]]) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>)
  %0:2 = "graph.max_pool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> (tensor<1x3x4x4xf32>, tensor<1x3x4x4xi64>)
  // Floor gives 3, ceil 4.
  // CHECK: {ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>) -> tensor<1x1x4x4xf32>
  %1 = "graph.max_pool"(%x7) {ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>) -> tensor<1x1x4x4xf32>
  // CHECK: {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>) -> tensor<1x1x3x3xf32>
  %2 = "graph.max_pool"(%x7) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>) -> tensor<1x1x3x3xf32>
  // Ceil mode drops a last window that would start in the end padding:
  // ceil((5 + 2 - 2) / 2) + 1 = 4 windows, the 4th starting at 6 = 5 + 1.
  // CHECK: {ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, storage_order = 1 : i64, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  %3 = "graph.max_pool"(%x5) {ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 1, 1, 1>, storage_order = 1 : i64, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  // ONNX's docs: with auto_pad VALID, ceil_mode does not change the size.
  // CHECK: {auto_pad = "VALID", ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>) -> tensor<1x1x3x3xf32>
  %7 = "graph.max_pool"(%x7) {auto_pad = "VALID", ceil_mode = 1 : i64, kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x1x7x7xf32>) -> tensor<1x1x3x3xf32>
  // CHECK: {dilations = array<i64: 2, 2>, kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x6x6xf32>
  %4 = "graph.max_pool"(%x) {dilations = array<i64: 2, 2>, kernel_shape = array<i64: 2, 2>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x6x6xf32>
  // CHECK: {auto_pad = "SAME_LOWER", kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  %5 = "graph.max_pool"(%x5) {auto_pad = "SAME_LOWER", kernel_shape = array<i64: 3, 3>, strides = array<i64: 2, 2>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  // 1-D pooling of int8 data.
  // CHECK: {kernel_shape = array<i64: 3>} : (tensor<2x4x6xi8>) -> (tensor<2x4x4xi8>, tensor<2x4x4xi64>)
  %6:2 = "graph.max_pool"(%q) {kernel_shape = array<i64: 3>} : (tensor<2x4x6xi8>) -> (tensor<2x4x4xi8>, tensor<2x4x4xi64>)
  return
}

// CHECK-LABEL: func.func @average_pool
func.func @average_pool(%x: tensor<1x3x8x8xf32>, %x1: tensor<2x3x10xf16>, %xd: tensor<?x3x?x8xf32>) {
  // CHECK: {count_include_pad = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  %0 = "graph.average_pool"(%x) {count_include_pad = 1 : i64, kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x3x8x8xf32>) -> tensor<1x3x8x8xf32>
  // CHECK: {kernel_shape = array<i64: 3>, strides = array<i64: 3>} : (tensor<2x3x10xf16>) -> tensor<2x3x3xf16>
  %1 = "graph.average_pool"(%x1) {kernel_shape = array<i64: 3>, strides = array<i64: 3>} : (tensor<2x3x10xf16>) -> tensor<2x3x3xf16>
  // CHECK: {ceil_mode = 1 : i64, kernel_shape = array<i64: 3>, strides = array<i64: 2>} : (tensor<2x3x10xf16>) -> tensor<2x3x5xf16>
  %2 = "graph.average_pool"(%x1) {ceil_mode = 1 : i64, kernel_shape = array<i64: 3>, strides = array<i64: 2>} : (tensor<2x3x10xf16>) -> tensor<2x3x5xf16>
  // CHECK: (tensor<?x3x?x8xf32>) -> tensor<?x3x?x4xf32>
  %3 = "graph.average_pool"(%xd) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x3x?x8xf32>) -> tensor<?x3x?x4xf32>
  return
}

// CHECK-LABEL: func.func @global_pool
func.func @global_pool(%x: tensor<2x3x5x7xf32>, %x3: tensor<1x2x3x4x5xf64>, %xd: tensor<?x?x?x?xf32>) {
  // CHECK: "graph.global_average_pool"(%{{.*}}) : (tensor<2x3x5x7xf32>) -> tensor<2x3x1x1xf32>
  %0 = "graph.global_average_pool"(%x) : (tensor<2x3x5x7xf32>) -> tensor<2x3x1x1xf32>
  // CHECK: "graph.global_max_pool"(%{{.*}}) : (tensor<1x2x3x4x5xf64>) -> tensor<1x2x1x1x1xf64>
  %1 = "graph.global_max_pool"(%x3) : (tensor<1x2x3x4x5xf64>) -> tensor<1x2x1x1x1xf64>
  // CHECK: "graph.global_average_pool"(%{{.*}}) : (tensor<?x?x?x?xf32>) -> tensor<?x?x1x1xf32>
  %2 = "graph.global_average_pool"(%xd) : (tensor<?x?x?x?xf32>) -> tensor<?x?x1x1xf32>
  return
}

// CHECK-LABEL: func.func @batch_norm
// CHECK-SAME: (%[[X:.*]]: tensor<2x3x4x4xf16>, %[[S:.*]]: tensor<3xf32>, %[[B:.*]]: tensor<3xf32>, %[[M:.*]]: tensor<3xf16>, %[[V:.*]]: tensor<3xf16>
func.func @batch_norm(%x: tensor<2x3x4x4xf16>, %s: tensor<3xf32>, %b: tensor<3xf32>, %m: tensor<3xf16>, %v: tensor<3xf16>, %x1: tensor<5xf32>, %c1: tensor<1xf32>) {
  // scale/B and mean/var may have element types other than X's (ONNX T1, T2).
  // CHECK: "graph.batch_norm"(%[[X]], %[[S]], %[[B]], %[[M]], %[[V]]) {epsilon = 1.000000e-03 : f32, momentum = 0.899999976 : f32, training_mode = 0 : i64} : (tensor<2x3x4x4xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf16>) -> tensor<2x3x4x4xf16>
  %0 = "graph.batch_norm"(%x, %s, %b, %m, %v) {epsilon = 1.0e-3 : f32, momentum = 0.9 : f32, training_mode = 0 : i64} : (tensor<2x3x4x4xf16>, tensor<3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf16>) -> tensor<2x3x4x4xf16>
  // A 1-D X has one channel.
  // CHECK: (tensor<5xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<5xf32>
  %1 = "graph.batch_norm"(%x1, %c1, %c1, %c1, %c1) : (tensor<5xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<5xf32>
  return
}

// CHECK-LABEL: func.func @instance_norm
func.func @instance_norm(%x: tensor<2x3x4x4xf32>, %s: tensor<3xf32>, %xd: tensor<?x?x8xf32>) {
  // CHECK: "graph.instance_norm"(%{{.*}}, %{{.*}}, %{{.*}}) {epsilon = 9.99999974E-6 : f32} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  %0 = "graph.instance_norm"(%x, %s, %s) {epsilon = 1.0e-5 : f32} : (tensor<2x3x4x4xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<2x3x4x4xf32>
  // CHECK: (tensor<?x?x8xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x?x8xf32>
  %1 = "graph.instance_norm"(%xd, %s, %s) : (tensor<?x?x8xf32>, tensor<3xf32>, tensor<3xf32>) -> tensor<?x?x8xf32>
  return
}

// CHECK-LABEL: func.func @layer_norm
func.func @layer_norm(%x: tensor<2x3x4xf32>, %s4: tensor<4xf32>, %s34: tensor<3x4xf32>, %s14: tensor<1x4xf32>, %xd: tensor<?x?x4xf32>) {
  // CHECK: "graph.layer_norm"(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %0 = "graph.layer_norm"(%x, %s4, %s4) : (tensor<2x3x4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  // CHECK: {axis = 1 : i64, epsilon = 9.99999974E-6 : f32, stash_type = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  %1 = "graph.layer_norm"(%x, %s34) {axis = 1 : i64, epsilon = 1.0e-5 : f32, stash_type = 1 : i64} : (tensor<2x3x4xf32>, tensor<3x4xf32>) -> tensor<2x3x4xf32>
  // Scale broadcasts to the normalized shape 3x4.
  // CHECK: {axis = -2 : i64} : (tensor<2x3x4xf32>, tensor<1x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  %2 = "graph.layer_norm"(%x, %s14, %s4) {axis = -2 : i64} : (tensor<2x3x4xf32>, tensor<1x4xf32>, tensor<4xf32>) -> tensor<2x3x4xf32>
  // CHECK: {axis = 0 : i64} : (tensor<?x?x4xf32>, tensor<3x4xf32>) -> tensor<?x?x4xf32>
  %3 = "graph.layer_norm"(%xd, %s34) {axis = 0 : i64} : (tensor<?x?x4xf32>, tensor<3x4xf32>) -> tensor<?x?x4xf32>
  return
}

// CHECK-LABEL: func.func @resize_scales
func.func @resize_scales(%x: tensor<1x3x4x4xf32>, %x5: tensor<1x1x5x5xi8>, %s: tensor<4xf32>) {
  // CHECK: %[[S:.*]] = "graph.constant"
  %scales = "graph.constant"() {value = dense<[1.0, 1.0, 2.0, 2.0]> : tensor<4xf32>} : () -> tensor<4xf32>
  // CHECK: "graph.resize"(%{{.*}}, %[[S]]) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  %0 = "graph.resize"(%x, %scales) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<1x3x8x8xf32>
  // floor(5 * 0.5) = 2.
  %half = "graph.constant"() {value = dense<[1.0, 1.0, 0.5, 0.5]> : tensor<4xf32>} : () -> tensor<4xf32>
  // CHECK: {mode = "linear", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x1x5x5xi8>, tensor<4xf32>) -> tensor<1x1x2x2xi8>
  %1 = "graph.resize"(%x5, %half) {mode = "linear", operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x1x5x5xi8>, tensor<4xf32>) -> tensor<1x1x2x2xi8>
  // axes select what scales apply to.
  %s2 = "graph.constant"() {value = dense<[2.0, 0.5]> : tensor<2xf32>} : () -> tensor<2xf32>
  // CHECK: {axes = array<i64: 2, -1>, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<2xf32>) -> tensor<1x3x8x2xf32>
  %2 = "graph.resize"(%x, %s2) {axes = array<i64: 2, -1>, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<2xf32>) -> tensor<1x3x8x2xf32>
  // Scales known only at run time: every resized dim is unknown.
  // CHECK: (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  %3 = "graph.resize"(%x, %s) {operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<1x3x4x4xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return
}

// CHECK-LABEL: func.func @resize_sizes
func.func @resize_sizes(%x: tensor<1x3x4x8xf32>, %roi: tensor<8xf32>, %empty: tensor<0xf32>, %n: tensor<2xi64>) {
  %sizes = "graph.constant"() {value = dense<[1, 3, 6, 9]> : tensor<4xi64>} : () -> tensor<4xi64>
  // CHECK: {coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.000000e+00 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<8xf32>, tensor<4xi64>) -> tensor<1x3x6x9xf32>
  %0 = "graph.resize"(%x, %roi, %sizes) {coordinate_transformation_mode = "tf_crop_and_resize", extrapolation_value = 1.0 : f32, operandSegmentSizes = array<i32: 1, 1, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<8xf32>, tensor<4xi64>) -> tensor<1x3x6x9xf32>
  // Older exports pass empty roi and scales for "absent".
  // CHECK: {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x3x4x8xf32>, tensor<0xf32>, tensor<0xf32>, tensor<4xi64>) -> tensor<1x3x6x9xf32>
  %1 = "graph.resize"(%x, %empty, %empty, %sizes) {operandSegmentSizes = array<i32: 1, 1, 1, 1>} : (tensor<1x3x4x8xf32>, tensor<0xf32>, tensor<0xf32>, tensor<4xi64>) -> tensor<1x3x6x9xf32>
  // not_larger: scale min(6/4, 6/8) = 0.75 gives 3x6; not_smaller: 1.5 gives 6x12.
  %s66 = "graph.constant"() {value = dense<6> : tensor<2xi64>} : () -> tensor<2xi64>
  // CHECK: {axes = array<i64: 2, 3>, keep_aspect_ratio_policy = "not_larger", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<2xi64>) -> tensor<1x3x3x6xf32>
  %2 = "graph.resize"(%x, %s66) {axes = array<i64: 2, 3>, keep_aspect_ratio_policy = "not_larger", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<2xi64>) -> tensor<1x3x3x6xf32>
  // CHECK: {axes = array<i64: 2, 3>, keep_aspect_ratio_policy = "not_smaller", mode = "cubic", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<2xi64>) -> tensor<1x3x6x12xf32>
  %3 = "graph.resize"(%x, %s66) {axes = array<i64: 2, 3>, keep_aspect_ratio_policy = "not_smaller", mode = "cubic", nearest_mode = "floor", operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<2xi64>) -> tensor<1x3x6x12xf32>
  // Sizes known only at run time: only the resized axes are unknown.
  // CHECK: {antialias = 1 : i64, axes = array<i64: 3, 2>, cubic_coeff_a = -5.000000e-01 : f32, exclude_outside = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<2xi64>) -> tensor<1x3x?x?xf32>
  %4 = "graph.resize"(%x, %n) {antialias = 1 : i64, axes = array<i64: 3, 2>, cubic_coeff_a = -0.5 : f32, exclude_outside = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 0, 1>} : (tensor<1x3x4x8xf32>, tensor<2xi64>) -> tensor<1x3x?x?xf32>
  return
}

// CHECK-LABEL: func.func @norm_statistics
func.func @norm_statistics(%x: tensor<2x3x4x5xf32>, %c: tensor<3xf32>, %ch: tensor<3xf16>, %s: tensor<4x5xf32>) {
  // Training form: running_mean and running_var are C-vectors of input_mean's type.
  // CHECK: %{{.*}}:3 = "graph.batch_norm"({{.*}}) {training_mode = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf16>) -> (tensor<2x3x4x5xf32>, tensor<3xf16>, tensor<3xf16>)
  %0:3 = "graph.batch_norm"(%x, %c, %c, %ch, %ch) {training_mode = 1 : i64} : (tensor<2x3x4x5xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf16>, tensor<3xf16>) -> (tensor<2x3x4x5xf32>, tensor<3xf16>, tensor<3xf16>)
  // Mean and InvStdDev keep the dims before axis and have 1s from there on,
  // with stash_type's element type (11 = f64).
  // CHECK: %{{.*}}:3 = "graph.layer_norm"({{.*}}) {axis = 2 : i64, stash_type = 11 : i64} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<2x3x1x1xf64>, tensor<2x3x1x1xf64>)
  %1:3 = "graph.layer_norm"(%x, %s) {axis = 2 : i64, stash_type = 11 : i64} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<2x3x1x1xf64>, tensor<2x3x1x1xf64>)
  // CHECK: %{{.*}}:2 = "graph.layer_norm"({{.*}}) {axis = -3 : i64} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<2x1x1x1xf32>)
  %2:2 = "graph.layer_norm"(%x, %s) {axis = -3 : i64} : (tensor<2x3x4x5xf32>, tensor<4x5xf32>) -> (tensor<2x3x4x5xf32>, tensor<2x1x1x1xf32>)
  return
}

// CHECK-LABEL: func.func @lrn_mvn
func.func @lrn_mvn(%x: tensor<2x3x4x5xf32>, %xd: tensor<?x8xf16>) {
  // CHECK: "graph.lrn"(%{{.*}}) {size = 3 : i64} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %0 = "graph.lrn"(%x) {size = 3 : i64} : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: {alpha = 2.000000e-04 : f32, beta = 5.000000e-01 : f32, bias = 2.000000e+00 : f32, size = 5 : i64} : (tensor<?x8xf16>) -> tensor<?x8xf16>
  %1 = "graph.lrn"(%xd) {alpha = 2.0e-4 : f32, beta = 0.5 : f32, bias = 2.0 : f32, size = 5 : i64} : (tensor<?x8xf16>) -> tensor<?x8xf16>
  // CHECK: "graph.mean_variance_normalization"(%{{.*}}) : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  %2 = "graph.mean_variance_normalization"(%x) : (tensor<2x3x4x5xf32>) -> tensor<2x3x4x5xf32>
  // CHECK: {axes = array<i64: -1>} : (tensor<?x8xf16>) -> tensor<?x8xf16>
  %3 = "graph.mean_variance_normalization"(%xd) {axes = array<i64: -1>} : (tensor<?x8xf16>) -> tensor<?x8xf16>
  return
}

// CHECK-LABEL: func.func @recurrent
func.func @recurrent(%x: tensor<7x2x3xf32>, %w1: tensor<1x5x3xf32>, %r1: tensor<1x5x5xf32>, %w3: tensor<2x15x3xf32>, %r3: tensor<2x15x5xf32>, %b3: tensor<2x30xf32>, %h2: tensor<2x2x5xf32>, %w4: tensor<1x20x3xf32>, %r4: tensor<1x20x5xf32>, %len: tensor<2xi32>, %h1: tensor<1x2x5xf32>, %p: tensor<1x15xf32>, %xd: tensor<?x?x3xf32>) {
  // Y: seq x num_directions x batch x hidden; Y_h: num_directions x batch x hidden.
  // CHECK: %{{.*}}:2 = "graph.rnn"({{.*}}) {hidden_size = 5 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> (tensor<7x1x2x5xf32>, tensor<1x2x5xf32>)
  %0:2 = "graph.rnn"(%x, %w1, %r1) {hidden_size = 5 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> (tensor<7x1x2x5xf32>, tensor<1x2x5xf32>)
  // Bidirectional GRU: W, R, B stack 3 gates per direction; activations are
  // an array of strings, two per direction.
  // CHECK: "graph.gru"({{.*}}) {activations = ["Sigmoid", "Tanh", "sigmoid", "Relu"], direction = "bidirectional", linear_before_reset = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>} : (tensor<7x2x3xf32>, tensor<2x15x3xf32>, tensor<2x15x5xf32>, tensor<2x30xf32>, tensor<2x2x5xf32>) -> tensor<7x2x2x5xf32>
  %1 = "graph.gru"(%x, %w3, %r3, %b3, %h2) {activations = ["Sigmoid", "Tanh", "sigmoid", "Relu"], direction = "bidirectional", linear_before_reset = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 1, 0, 1>} : (tensor<7x2x3xf32>, tensor<2x15x3xf32>, tensor<2x15x5xf32>, tensor<2x30xf32>, tensor<2x2x5xf32>) -> tensor<7x2x2x5xf32>
  // Batch-major LSTM (layout 1): x is batch 7 x seq 2; Y is batch x seq x
  // num_directions x hidden, Y_h and Y_c batch x num_directions x hidden.
  // CHECK: %{{.*}}:3 = "graph.lstm"({{.*}}) {clip = 1.000000e+01 : f32, input_forget = 1 : i64, layout = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 1>, resultSegmentSizes = array<i32: 1, 1, 1>} : (tensor<7x2x3xf32>, tensor<1x20x3xf32>, tensor<1x20x5xf32>, tensor<1x15xf32>) -> (tensor<7x2x1x5xf32>, tensor<7x1x5xf32>, tensor<7x1x5xf32>)
  %2:3 = "graph.lstm"(%x, %w4, %r4, %p) {clip = 10.0 : f32, input_forget = 1 : i64, layout = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0, 0, 1>, resultSegmentSizes = array<i32: 1, 1, 1>} : (tensor<7x2x3xf32>, tensor<1x20x3xf32>, tensor<1x20x5xf32>, tensor<1x15xf32>) -> (tensor<7x2x1x5xf32>, tensor<7x1x5xf32>, tensor<7x1x5xf32>)
  // CHECK: "graph.lstm"({{.*}}) {direction = "reverse", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 0>, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x20x3xf32>, tensor<1x20x5xf32>, tensor<2xi32>, tensor<1x2x5xf32>, tensor<1x2x5xf32>) -> tensor<7x1x2x5xf32>
  %3 = "graph.lstm"(%x, %w4, %r4, %len, %h1, %h1) {direction = "reverse", operandSegmentSizes = array<i32: 1, 1, 1, 0, 1, 1, 1, 0>, resultSegmentSizes = array<i32: 1, 0, 0>} : (tensor<7x2x3xf32>, tensor<1x20x3xf32>, tensor<1x20x5xf32>, tensor<2xi32>, tensor<1x2x5xf32>, tensor<1x2x5xf32>) -> tensor<7x1x2x5xf32>
  // Dynamic seq and batch stay unknown.
  // CHECK: (tensor<?x?x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> (tensor<?x1x?x5xf32>, tensor<1x?x5xf32>)
  %4:2 = "graph.rnn"(%xd, %w1, %r1) {operandSegmentSizes = array<i32: 1, 1, 1, 0, 0, 0>} : (tensor<?x?x3xf32>, tensor<1x5x3xf32>, tensor<1x5x5xf32>) -> (tensor<?x1x?x5xf32>, tensor<1x?x5xf32>)
  return
}

// CHECK-LABEL: func.func @max_unpool
func.func @max_unpool(%x: tensor<1x3x2x2xf32>, %i: tensor<1x3x2x2xi64>, %s: tensor<4xi64>) {
  // (in - 1) * stride + kernel - pads: (2 - 1) * 2 + 2 = 4, and 4 - 1 = 3.
  // CHECK: "graph.max_unpool"({{.*}}) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>) -> tensor<1x3x4x4xf32>
  %0 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>) -> tensor<1x3x4x4xf32>
  // CHECK: {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 0>, strides = array<i64: 2, 2>} {{.*}} -> tensor<1x3x3x4xf32>
  %1 = "graph.max_unpool"(%x, %i) {kernel_shape = array<i64: 2, 2>, pads = array<i64: 1, 0, 0, 0>, strides = array<i64: 2, 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>) -> tensor<1x3x3x4xf32>
  // A constant output_shape gives the result; a run-time one leaves it unknown.
  %shape = "graph.constant"() {value = dense<[1, 3, 5, 5]> : tensor<4xi64>} : () -> tensor<4xi64>
  // CHECK: (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>, tensor<4xi64>) -> tensor<1x3x5x5xf32>
  %2 = "graph.max_unpool"(%x, %i, %shape) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>, tensor<4xi64>) -> tensor<1x3x5x5xf32>
  // CHECK: (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  %3 = "graph.max_unpool"(%x, %i, %s) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<1x3x2x2xf32>, tensor<1x3x2x2xi64>, tensor<4xi64>) -> tensor<?x?x?x?xf32>
  return
}

// CHECK-LABEL: func.func @grid_sample_roi_align
func.func @grid_sample_roi_align(%x: tensor<2x3x8x8xf32>, %g: tensor<2x5x6x2xf32>, %xi: tensor<1x2x4x4x4xi32>, %g3: tensor<1x2x3x4x3xf16>, %rois: tensor<7x4xf32>, %bi: tensor<7xi64>, %rd: tensor<?x4xf32>) {
  // y is N x C x grid's spatial dims.
  // CHECK: "graph.grid_sample"({{.*}}) : (tensor<2x3x8x8xf32>, tensor<2x5x6x2xf32>) -> tensor<2x3x5x6xf32>
  %0 = "graph.grid_sample"(%x, %g) : (tensor<2x3x8x8xf32>, tensor<2x5x6x2xf32>) -> tensor<2x3x5x6xf32>
  // GridSample-16 mode names; a 3-D grid over an integer x.
  // CHECK: {align_corners = 1 : i64, mode = "bilinear", padding_mode = "reflection"}
  %1 = "graph.grid_sample"(%x, %g) {align_corners = 1 : i64, mode = "bilinear", padding_mode = "reflection"} : (tensor<2x3x8x8xf32>, tensor<2x5x6x2xf32>) -> tensor<2x3x5x6xf32>
  // CHECK: {mode = "nearest"} : (tensor<1x2x4x4x4xi32>, tensor<1x2x3x4x3xf16>) -> tensor<1x2x2x3x4xi32>
  %2 = "graph.grid_sample"(%xi, %g3) {mode = "nearest"} : (tensor<1x2x4x4x4xi32>, tensor<1x2x3x4x3xf16>) -> tensor<1x2x2x3x4xi32>
  // y is num_rois x C x output_height x output_width.
  // CHECK: "graph.roi_align"({{.*}}) : (tensor<2x3x8x8xf32>, tensor<7x4xf32>, tensor<7xi64>) -> tensor<7x3x1x1xf32>
  %3 = "graph.roi_align"(%x, %rois, %bi) : (tensor<2x3x8x8xf32>, tensor<7x4xf32>, tensor<7xi64>) -> tensor<7x3x1x1xf32>
  // num_rois comes from batch_indices when rois' is unknown.
  // CHECK: {coordinate_transformation_mode = "output_half_pixel", mode = "max", output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64, spatial_scale = 2.500000e-01 : f32} : (tensor<2x3x8x8xf32>, tensor<?x4xf32>, tensor<7xi64>) -> tensor<7x3x2x3xf32>
  %4 = "graph.roi_align"(%x, %rd, %bi) {coordinate_transformation_mode = "output_half_pixel", mode = "max", output_height = 2 : i64, output_width = 3 : i64, sampling_ratio = 2 : i64, spatial_scale = 0.25 : f32} : (tensor<2x3x8x8xf32>, tensor<?x4xf32>, tensor<7xi64>) -> tensor<7x3x2x3xf32>
  return
}

// RUN: kiln-opt %s --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(convert-graph-to-linalg))'

// A lowering not written for dynamic shapes is not called on them: the op
// is reported, with what to do about it.
func.func @negative_lrn_dynamic(%x: tensor<?x4x2x2xf32>) -> tensor<?x4x2x2xf32> {
  // expected-error@+1 {{unsupported: 'graph.lrn' operand #0 has a dynamic shape (tensor<?x4x2x2xf32>); Kiln lowers this op for static shapes only (size the input dims with --dim or --input-shape, and bind shape-determining inputs)}}
  %0 = "graph.lrn"(%x) {size = 3 : i64} : (tensor<?x4x2x2xf32>) -> tensor<?x4x2x2xf32>
  return %0 : tensor<?x4x2x2xf32>
}

// -----

// A slice with a negative step along a dynamic dim (its first index
// depends on the dim's size, which a reversed window map cannot hold).
func.func @negative_slice_reversed_dynamic(%x: tensor<?xf32>) -> tensor<?xf32> {
  %s = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  %e = "graph.constant"() {value = dense<-100> : tensor<1xi64>} : () -> tensor<1xi64>
  %a = "graph.constant"() {value = dense<0> : tensor<1xi64>} : () -> tensor<1xi64>
  %st = "graph.constant"() {value = dense<-1> : tensor<1xi64>} : () -> tensor<1xi64>
  // expected-error@+1 {{unsupported: 'graph.slice' with a negative step on a dynamic shape}}
  %0 = "graph.slice"(%x, %s, %e, %a, %st) {operandSegmentSizes = array<i32: 1, 1, 1, 1, 1>} : (tensor<?xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Clip's bounds must be static even where its input is not.
func.func @negative_clip_dynamic_bound(%x: tensor<?xf32>, %lo: tensor<?xf32>) -> tensor<?xf32> {
  // expected-error@+1 {{unsupported: 'graph.clip' with a bound of dynamic shape (min)}}
  %0 = "graph.clip"(%x, %lo) {operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// MaxPool's indices output takes static shapes only.
func.func @negative_max_pool_indices_dynamic(%x: tensor<?x1x4x4xf32>) -> (tensor<?x1x2x2xf32>, tensor<?x1x2x2xi64>) {
  // expected-error@+1 {{unsupported: 'graph.max_pool' with indices and a dynamic shape}}
  %0:2 = "graph.max_pool"(%x) {kernel_shape = array<i64: 2, 2>, strides = array<i64: 2, 2>} : (tensor<?x1x4x4xf32>) -> (tensor<?x1x2x2xf32>, tensor<?x1x2x2xi64>)
  return %0#0, %0#1 : tensor<?x1x2x2xf32>, tensor<?x1x2x2xi64>
}

// -----

// Negative pads crop, which takes static shapes only.
func.func @negative_pad_crop_dynamic(%x: tensor<?x4xf32>) -> tensor<?x2xf32> {
  %p = "graph.constant"() {value = dense<[0, -1, 0, -1]> : tensor<4xi64>} : () -> tensor<4xi64>
  // expected-error@+1 {{unsupported: 'graph.pad' with negative pads on a dynamic shape}}
  %0 = "graph.pad"(%x, %p) {operandSegmentSizes = array<i32: 1, 1, 0, 0>} : (tensor<?x4xf32>, tensor<4xi64>) -> tensor<?x2xf32>
  return %0 : tensor<?x2xf32>
}

// -----

// Antialiasing needs to know at compile time whether an axis downscales.
func.func @negative_resize_antialias_runtime_scales(%x: tensor<?x?x?x?xf32>, %scales: tensor<4xf32>) -> tensor<?x?x?x?xf32> {
  // expected-error@+1 {{unsupported: 'graph.resize' with antialias = 1 and sizes or scales known only at run time}}
  %0 = "graph.resize"(%x, %scales) {mode = "linear", antialias = 1 : i64, operandSegmentSizes = array<i32: 1, 0, 1, 0>} : (tensor<?x?x?x?xf32>, tensor<4xf32>) -> tensor<?x?x?x?xf32>
  return %0 : tensor<?x?x?x?xf32>
}

// -----

// A grouped ConvTranspose needs the weight's channel dims static (they
// split the channels into groups).
func.func @negative_conv_transpose_grouped_dynamic(%x: tensor<?x?x?xf32>, %w: tensor<?x?x3xf32>) -> tensor<?x?x?xf32> {
  // expected-error@+1 {{unsupported: 'graph.conv_transpose' grouped, with a dynamic channel count}}
  %0 = "graph.conv_transpose"(%x, %w) {group = 2 : i64} : (tensor<?x?x?xf32>, tensor<?x?x3xf32>) -> tensor<?x?x?xf32>
  return %0 : tensor<?x?x?xf32>
}

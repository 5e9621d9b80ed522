// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-mixed-precision{precision=bf16}))' | FileCheck %s
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-mixed-precision{precision=fp16}))' | FileCheck %s --check-prefix=F16
// RUN: kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-mixed-precision))' | FileCheck %s --check-prefix=F32
// RUN: not kiln-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(graph-mixed-precision{precision=int8}))' 2>&1 | FileCheck %s --check-prefix=BAD

// BAD: error: graph-mixed-precision: precision 'int8': expected fp32, fp16 or bf16

// A linear layer, its bias add and GELU: the weights stored in bf16, the
// product formed in f32 from bf16-rounded operands and rounded to bf16,
// the add and GELU in bf16, the output cast back to f32 for the return.
// CHECK-LABEL: func.func @linear_gelu
// CHECK-DAG: %[[W:.*]] = "graph.constant"() {value = dense<{{.*}}> : tensor<4x3xbf16>}
// CHECK-DAG: %[[B:.*]] = "graph.constant"() {value = dense<[1.000000e+00, 2.000000e+00, 3.140630e+00]> : tensor<3xbf16>}
// CHECK: %[[XL:.*]] = "graph.cast"(%arg0) {to = bf16} : (tensor<2x4xf32>) -> tensor<2x4xbf16>
// CHECK: %[[XF:.*]] = "graph.cast"(%[[XL]]) {to = f32}
// CHECK: %[[WF:.*]] = "graph.cast"(%[[W]]) {to = f32}
// CHECK: %[[P:.*]] = "graph.matmul"(%[[XF]], %[[WF]]) : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
// CHECK: %[[PL:.*]] = "graph.cast"(%[[P]]) {to = bf16}
// CHECK: %[[A:.*]] = "graph.add"(%[[PL]], %[[B]]) : (tensor<2x3xbf16>, tensor<3xbf16>) -> tensor<2x3xbf16>
// CHECK: %[[G:.*]] = "graph.gelu"(%[[A]]) {{.*}}-> tensor<2x3xbf16>
// CHECK: %[[Y:.*]] = "graph.cast"(%[[G]]) {to = f32}
// CHECK: return %[[Y]] : tensor<2x3xf32>
// CHECK-NOT: graph.mixed_precision
// F16-LABEL: func.func @linear_gelu
// F16: tensor<4x3xf16>
// F16: "graph.gelu"{{.*}}-> tensor<2x3xf16>
// F32-LABEL: func.func @linear_gelu
// F32-NOT: graph.cast
// F32: return
func.func @linear_gelu(%x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %w = "graph.constant"() {value = dense<0.5> : tensor<4x3xf32>} : () -> tensor<4x3xf32>
  %b = "graph.constant"() {value = dense<[1.0, 2.0, 3.14159]> : tensor<3xf32>} : () -> tensor<3xf32>
  %p = "graph.matmul"(%x, %w) : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %a = "graph.add"(%p, %b) : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %g = "graph.gelu"(%a) : (tensor<2x3xf32>) -> tensor<2x3xf32>
  return %g : tensor<2x3xf32>
}

// -----

// Softmax and layer norm read f32 (their low inputs cast back); a residual
// add of a low value and an f32 one runs in f32; a reshape of a low value
// stays low; a comparison of low values gives booleans as before.
// CHECK-LABEL: func.func @f32_ops
// CHECK: %[[P:.*]] = "graph.matmul"
// CHECK: %[[PL:.*]] = "graph.cast"(%[[P]]) {to = bf16}
// CHECK: %[[PF:.*]] = "graph.cast"(%[[PL]]) {to = f32}
// CHECK: %[[S:.*]] = "graph.softmax"(%[[PF]]) {{.*}}-> tensor<2x2xf32>
// CHECK: %[[PF2:.*]] = "graph.cast"(%[[PL]]) {to = f32}
// CHECK: "graph.add"(%[[PF2]], %arg0) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK: "graph.reshape"(%[[PL]], %{{.*}}) {{.*}}-> tensor<4xbf16>
// CHECK: "graph.less"(%[[PL]], %[[PL]]) : (tensor<2x2xbf16>, tensor<2x2xbf16>) -> tensor<2x2xi1>
func.func @f32_ops(%x: tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<2x2xi1>) {
  %p = "graph.matmul"(%x, %x) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %s = "graph.softmax"(%p) {axis = -1 : i64} : (tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = "graph.add"(%p, %x) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xf32>
  %shape = "graph.constant"() {value = dense<4> : tensor<1xi64>} : () -> tensor<1xi64>
  %f = "graph.reshape"(%p, %shape) : (tensor<2x2xf32>, tensor<1xi64>) -> tensor<4xf32>
  %l = "graph.less"(%p, %p) : (tensor<2x2xf32>, tensor<2x2xf32>) -> tensor<2x2xi1>
  return %s, %r, %f, %l : tensor<2x2xf32>, tensor<2x2xf32>, tensor<4xf32>, tensor<2x2xi1>
}

// -----

// A conv's input and weights rounded, its bias too; one weight read by two
// convs is stored once; values the model itself types bf16 are left alone.
// CHECK-LABEL: func.func @conv_shared_weight
// CHECK-COUNT-1: tensor<2x1x1x1xbf16>}
// CHECK-NOT: tensor<2x1x1x1xf32>}
// CHECK: "graph.conv"({{.*}}) {{.*}}: (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
// CHECK: "graph.conv"
// CHECK: "graph.neg"(%arg1) : (tensor<3xbf16>) -> tensor<3xbf16>
func.func @conv_shared_weight(%x: tensor<1x1x2x2xf32>, %h: tensor<3xbf16>) -> (tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<3xbf16>) {
  %w = "graph.constant"() {value = dense<[[[[0.25]]], [[[3.0]]]]> : tensor<2x1x1x1xf32>} : () -> tensor<2x1x1x1xf32>
  %b = "graph.constant"() {value = dense<[0.0, 1.0]> : tensor<2xf32>} : () -> tensor<2xf32>
  %c = "graph.conv"(%x, %w, %b) {group = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %d = "graph.conv"(%x, %w, %b) {group = 1 : i64, operandSegmentSizes = array<i32: 1, 1, 1>} : (tensor<1x1x2x2xf32>, tensor<2x1x1x1xf32>, tensor<2xf32>) -> tensor<1x2x2x2xf32>
  %n = "graph.neg"(%h) : (tensor<3xbf16>) -> tensor<3xbf16>
  return %c, %d, %n : tensor<1x2x2x2xf32>, tensor<1x2x2x2xf32>, tensor<3xbf16>
}

// -----

// A padded conv pads its low input in the low type, then reads it cast to
// f32 with pads 0 (the implicit GEMM then reads bf16: tensor cores); a
// grouped (depthwise) conv keeps its own padding.
// CHECK-LABEL: func.func @padded_conv
// CHECK: %[[XL:.*]] = "graph.cast"(%arg0) {to = bf16}
// CHECK: %[[P:.*]] = "graph.pad"(%[[XL]], %{{.*}}) {{.*}} : (tensor<1x2x5x5xbf16>, tensor<8xi64>) -> tensor<1x2x7x7xbf16>
// CHECK: %[[PF:.*]] = "graph.cast"(%[[P]]) {to = f32}
// CHECK: "graph.conv"(%[[PF]], {{.*}}pads = array<i64: 0, 0, 0, 0>}
// CHECK: "graph.conv"({{.*}}group = 2 : i64, {{.*}}pads = array<i64: 1, 1, 1, 1>}
func.func @padded_conv(%x: tensor<1x2x5x5xf32>) -> (tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>) {
  %w = "graph.constant"() {value = dense<0.5> : tensor<2x2x3x3xf32>} : () -> tensor<2x2x3x3xf32>
  %dw = "graph.constant"() {value = dense<0.25> : tensor<2x1x3x3xf32>} : () -> tensor<2x1x3x3xf32>
  %c = "graph.conv"(%x, %w) {group = 1 : i64, pads = array<i64: 1, 1, 1, 1>, operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x2x5x5xf32>, tensor<2x2x3x3xf32>) -> tensor<1x2x5x5xf32>
  %d = "graph.conv"(%x, %dw) {group = 2 : i64, pads = array<i64: 1, 1, 1, 1>, operandSegmentSizes = array<i32: 1, 1, 0>} : (tensor<1x2x5x5xf32>, tensor<2x1x3x3xf32>) -> tensor<1x2x5x5xf32>
  return %c, %d : tensor<1x2x5x5xf32>, tensor<1x2x5x5xf32>
}

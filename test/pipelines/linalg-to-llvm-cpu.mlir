// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(linalg-to-llvm-cpu)' | FileCheck %s
// RUN: not kiln-opt %S/Inputs/linalg-to-llvm-cpu-error.mlir \
// RUN:   --allow-unregistered-dialect \
// RUN:   --pass-pipeline='builtin.module(linalg-to-llvm-cpu)' 2>&1 \
// RUN:   | FileCheck %s --check-prefix=ERR
// ERR: linalg-to-llvm-cpu-error.mlir:3:8: error: op was not bufferized

// Linalg on tensors ends as LLVM dialect with the C interface; tensor.pad
// needs no memrefCopy and f32 erf becomes arithmetic (kiln-approximate-math),
// not a libm call. The loops are in a function of their own
// (kiln-outline-regions).
// CHECK-LABEL: llvm.func @main_graph(
// CHECK-NOT: memrefCopy
// CHECK: llvm.call @main_graph_part(
// CHECK: llvm.func @_mlir_ciface_main_graph
// CHECK-NOT: memrefCopy
// CHECK-LABEL: llvm.func @main_graph_part(
// CHECK-NOT: @erff
// CHECK: llvm.fdiv
// CHECK-NOT: memrefCopy
func.func @main_graph(%a: tensor<2x3xf32>) -> tensor<4x7xf32> {
  %c = arith.constant 0.5 : f32
  %e = tensor.empty() : tensor<2x3xf32>
  %r = linalg.generic {
      indexing_maps = [affine_map<(i, j) -> (i, j)>,
                       affine_map<(i, j) -> (i, j)>],
      iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) {
  ^bb0(%x: f32, %o: f32):
    %0 = math.erf %x : f32
    linalg.yield %0 : f32
  } -> tensor<2x3xf32>
  %p = tensor.pad %r low[1, 2] high[1, 2] {
  ^bb0(%i: index, %j: index):
    tensor.yield %c : f32
  } : tensor<2x3xf32> to tensor<4x7xf32>
  return %p : tensor<4x7xf32>
}

// -----

// A private helper gets no C interface.
// CHECK-LABEL: llvm.func @helper
// CHECK-NOT: _mlir_ciface_helper
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func @entry(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = call @helper(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

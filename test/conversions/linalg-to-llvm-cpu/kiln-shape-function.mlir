// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-shape-function,resolve-ranked-shaped-type-result-dims,canonicalize)' \
// RUN:   | FileCheck %s

// An entry with dynamic dims gets a shape function: its inputs, every
// output's dims as one tensor<Nxi64> (static ones as constants). The
// canonicalizer resolves the dims to the inputs' and erases the
// computation; a shape check (an scf.if storing to the status word) stays,
// a check of data (kiln.data_check) does not.
// CHECK-LABEL: func.func @main_graph(%arg0: tensor<?x64xf32>
// CHECK: linalg.matmul
// CHECK-LABEL: func.func @kiln_output_dims(%arg0: tensor<?x64xf32> {onnx.name = "x"}, %arg1: tensor<64x32xf32>) -> tensor<3xi64>
// CHECK-DAG: %[[C32:.*]] = arith.constant 32 : i64
// CHECK-DAG: %[[C64:.*]] = arith.constant 64 : i64
// CHECK: scf.if
// CHECK-NEXT: memref.get_global @kiln_check_status
// CHECK-NEXT: memref.store %c1_i32
// CHECK-NEXT: }
// CHECK-NOT: linalg.
// CHECK: %[[N:.*]] = tensor.dim %arg0, %c0 : tensor<?x64xf32>
// CHECK: %[[NI:.*]] = arith.index_cast %[[N]] : index to i64
// CHECK: %[[DIMS:.*]] = tensor.from_elements %[[NI]], %[[C32]], %[[C64]] : tensor<3xi64>
// CHECK: return %[[DIMS]] : tensor<3xi64>
memref.global @kiln_check_status : memref<i32> = dense<0>
func.func @main_graph(%x: tensor<?x64xf32> {onnx.name = "x"}, %w: tensor<64x32xf32>) -> (tensor<?x32xf32> {onnx.name = "y"}, tensor<64xf32>) {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?x64xf32>
  %bad = arith.cmpi eq, %n, %c0 : index
  scf.if %bad {
    %g = memref.get_global @kiln_check_status : memref<i32>
    %one = arith.constant 1 : i32
    memref.store %one, %g[] : memref<i32>
  }
  scf.if %bad {
    %g = memref.get_global @kiln_check_status : memref<i32>
    %two = arith.constant 2 : i32
    memref.store %two, %g[] : memref<i32>
  } {kiln.data_check}
  %e = tensor.empty(%n) : tensor<?x32xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<?x32xf32>) -> tensor<?x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<?x64xf32>, tensor<64x32xf32>) outs(%f : tensor<?x32xf32>) -> tensor<?x32xf32>
  %v = tensor.empty() : tensor<64xf32>
  return %m, %v : tensor<?x32xf32>, tensor<64xf32>
}

// -----

// A static entry needs no shape function.
// CHECK-LABEL: func.func @main_graph
// CHECK-NOT: kiln_output_dims
func.func @main_graph(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  return %x : tensor<2x3xf32>
}

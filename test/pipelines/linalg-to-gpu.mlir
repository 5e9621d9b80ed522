// RUN: kiln-opt %s --pass-pipeline='builtin.module(linalg-to-gpu)' | FileCheck %s
// RUN: kiln-opt %s --pass-pipeline='builtin.module(linalg-to-gpu,gpu-to-nvvm)' \
// RUN:   | FileCheck %s --check-prefix=NVVM

// linalg on tensors to outlined kernels: the host function keeps the
// caller-allocated-output ABI, stages its input and output through device
// buffers, takes the constant from the runtime and launches its kernels
// asynchronously on one stream, waited for once at the end: the matmul
// (tiled through shared memory, its zero fill folded into the
// accumulators: kiln-gpu-tile-contractions), and one kernel for the row
// sum with its fill (adjacent
// loops over the same space: scf-parallel-loop-fusion) and the bias + relu
// it reads (linalg-fuse-elementwise-ops). The kernels share one module
// (kiln-gpu-merge-kernels).
// CHECK-LABEL: func.func @main_graph(
// CHECK-SAME: %[[IN:.*]]: memref<16x32xf32>, %[[OUT:.*]]: memref<16xf32>)
// CHECK-SAME: llvm.emit_c_interface
// CHECK: call @kiln_gpu_constant_f32
// CHECK: gpu.wait async
// CHECK: gpu.memcpy async [%{{.*}}] %{{.*}}, %[[IN]]
// CHECK-COUNT-2: gpu.launch_func async
// CHECK: gpu.memcpy async [%{{.*}}] %[[OUT]], %{{.*}}
// CHECK: gpu.wait [%{{.*}}]
// CHECK-NEXT: return
// CHECK: gpu.module @main_graph_kernel
// CHECK: gpu.func @main_graph_kernel{{.*}} workgroup({{.*}}#gpu.address_space<workgroup>>{{.*}}) kernel
// CHECK: gpu.barrier
// CHECK: gpu.func @main_graph_kernel{{.*}} kernel
// CHECK-NOT: gpu.module

// Kernels compiled to PTX and embedded (gpu.binary, sm_90 by default); the
// host code calls the mgpu* runtime entry points.
// NVVM: llvm.func @main_graph(
// NVVM: llvm.call @mgpuStreamCreate
// NVVM: llvm.call @mgpuMemAlloc
// NVVM: gpu.launch_func
// NVVM: llvm.call @mgpuStreamSynchronize
// NVVM: llvm.func @_mlir_ciface_main_graph
// NVVM: gpu.binary @main_graph_kernel
// NVVM-SAME: #nvvm.target<O = 3, chip = "sm_90", features = "+ptx78">
// NVVM-SAME: .target sm_90
#map = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func @main_graph(%x: tensor<16x32xf32>) -> tensor<16xf32> {
  %w = arith.constant dense<0.5> : tensor<32x24xf32>
  %b = arith.constant dense<0.25> : tensor<24xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<16x24xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<16x24xf32>) -> tensor<16x24xf32>
  %m = linalg.matmul ins(%x, %w : tensor<16x32xf32>, tensor<32x24xf32>)
                     outs(%f : tensor<16x24xf32>) -> tensor<16x24xf32>
  %r = linalg.generic {indexing_maps = [#map, #row, #map],
                       iterator_types = ["parallel", "parallel"]}
      ins(%m, %b : tensor<16x24xf32>, tensor<24xf32>) outs(%e : tensor<16x24xf32>) {
  ^bb0(%v: f32, %bias: f32, %o: f32):
    %s = arith.addf %v, %bias : f32
    %c = arith.maximumf %s, %zero : f32
    linalg.yield %c : f32
  } -> tensor<16x24xf32>
  %e2 = tensor.empty() : tensor<16xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<16xf32>) -> tensor<16xf32>
  %sum = linalg.generic {indexing_maps = [#map, #red],
                         iterator_types = ["parallel", "reduction"]}
      ins(%r : tensor<16x24xf32>) outs(%f2 : tensor<16xf32>) {
  ^bb0(%v: f32, %acc: f32):
    %s = arith.addf %v, %acc : f32
    linalg.yield %s : f32
  } -> tensor<16xf32>
  return %sum : tensor<16xf32>
}

// RUN: sed '/^\/\/ BAD-TYPE/,/^\/\/ END-BAD-TYPE/d' %s > %t.ok.mlir
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-gpu-device-memory)' | FileCheck %s
// RUN: sed -n '/^\/\/ BAD-TYPE/,/^\/\/ END-BAD-TYPE/p' %s > %t.bad.mlir
// RUN: kiln-opt %t.bad.mlir --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(kiln-gpu-device-memory)'

// Allocations and deallocations go to device memory; identity-layout
// copies (the marked staging copies, plain copies) become gpu.memcpy; a
// stack buffer (a host scalar) stays. Constants come from the runtime,
// flattened to one dimension and viewed back in their shape; the calls
// are moved first, before any asynchronous GPU op.
// CHECK-LABEL: func.func @entry(
// CHECK-SAME: %[[A:.*]]: memref<2x3xf32>, %[[O:.*]]: memref<2x3xf32>)
// CHECK: %[[W:.*]] = memref.get_global @weights : memref<2x3xf32>
// CHECK: %[[F:.*]] = memref.reinterpret_cast %[[W]] to offset: [0], sizes: [6], strides: [1] : memref<2x3xf32> to memref<6xf32>
// CHECK: %[[D:.*]] = memref.cast %[[F]] : memref<6xf32> to memref<?xf32>
// CHECK: %[[DEV:.*]] = call @kiln_gpu_constant_f32(%[[D]]) : (memref<?xf32>) -> memref<?xf32>
// CHECK: %[[DW:.*]] = memref.reinterpret_cast %[[DEV]] to offset: [0], sizes: [2, 3], strides: [3, 1] : memref<?xf32> to memref<2x3xf32>
// CHECK: %[[I:.*]] = gpu.alloc () : memref<2x3xf32>
// CHECK: gpu.memcpy %[[I]], %[[A]] : memref<2x3xf32>, memref<2x3xf32>
// CHECK: %[[T:.*]] = gpu.alloc () : memref<2x3xf32>
// CHECK: linalg.add ins(%[[I]], %[[DW]] : memref<2x3xf32>, memref<2x3xf32>) outs(%[[T]] : memref<2x3xf32>)
// CHECK: %[[S:.*]] = memref.alloca() : memref<f32>
// CHECK: gpu.memcpy %[[O]], %[[T]] : memref<2x3xf32>, memref<2x3xf32>
// CHECK: gpu.dealloc %[[I]] : memref<2x3xf32>
// CHECK: gpu.dealloc %[[T]] : memref<2x3xf32>
// The same calls, once per constant, make the function the runtime calls
// at model load (kiln_model_gpu_upload), so the weights are uploaded then.
// CHECK: func.func @kiln_gpu_upload_constants() {
// CHECK-NEXT: %[[UW:.*]] = memref.get_global @weights : memref<2x3xf32>
// CHECK-NEXT: %[[UF:.*]] = memref.reinterpret_cast %[[UW]]
// CHECK-NEXT: %[[UD:.*]] = memref.cast %[[UF]]
// CHECK-NEXT: call @kiln_gpu_constant_f32(%[[UD]])
// CHECK-NEXT: return
// CHECK: func.func private @kiln_gpu_constant_f32(memref<?xf32>) -> memref<?xf32> attributes {llvm.emit_c_interface}
memref.global "private" constant @weights : memref<2x3xf32> = dense<1.0>
func.func @entry(%a: memref<2x3xf32>, %o: memref<2x3xf32>) {
  %in = memref.alloc() : memref<2x3xf32>
  memref.copy %a, %in {kiln.gpu.transfer} : memref<2x3xf32> to memref<2x3xf32>
  %w = memref.get_global @weights : memref<2x3xf32>
  %t = memref.alloc() : memref<2x3xf32>
  linalg.add ins(%in, %w : memref<2x3xf32>, memref<2x3xf32>)
             outs(%t : memref<2x3xf32>)
  %s = memref.alloca() : memref<f32>
  memref.copy %t, %o {kiln.gpu.transfer} : memref<2x3xf32> to memref<2x3xf32>
  memref.dealloc %in : memref<2x3xf32>
  memref.dealloc %t : memref<2x3xf32>
  return
}

// -----

// One declaration per element type, 0-d constants included; a strided
// copy (made a kernel by kiln-memref-copy-to-linalg) is not a memcpy.
// CHECK-LABEL: func.func @types(
// CHECK-DAG: call @kiln_gpu_constant_i64(%{{.*}}) : (memref<?xi64>) -> memref<?xi64>
// CHECK-DAG: call @kiln_gpu_constant_f16(%{{.*}}) : (memref<?xf16>) -> memref<?xf16>
// CHECK: memref.copy %{{.*}}, %{{.*}} : memref<2xf32, strided<[2]>> to memref<2xf32>
// CHECK-DAG: func.func private @kiln_gpu_constant_i64
// CHECK-DAG: func.func private @kiln_gpu_constant_f16
memref.global "private" constant @k : memref<i64> = dense<3>
memref.global "private" constant @h : memref<4xf16> = dense<1.0>
func.func @types() {
  %k = memref.get_global @k : memref<i64>
  %h = memref.get_global @h : memref<4xf16>
  %b = memref.alloc() : memref<4xf32>
  %a = memref.subview %b[0] [2] [2] : memref<4xf32> to memref<2xf32, strided<[2]>>
  %o = memref.alloc() : memref<2xf32>
  memref.copy %a, %o : memref<2xf32, strided<[2]>> to memref<2xf32>
  memref.dealloc %b : memref<4xf32>
  memref.dealloc %o : memref<2xf32>
  return
}

// -----

// BAD-TYPE
memref.global "private" constant @c : memref<2xcomplex<f32>> = dense<(1.0, 2.0)>
func.func @complex_constant() {
  // expected-error@+1 {{kiln-gpu-device-memory: constants of type memref<2xcomplex<f32>> cannot be placed in device memory yet}}
  %c = memref.get_global @c : memref<2xcomplex<f32>>
  return
}

// -----

// A host helper reading buffers (buffer deallocation's run-time ownership
// tracking for a loop carrying buffers) cannot run on device memory: the
// error names the loop before the call (an ONNX Loop or Scan node).
func.func private @helper(%m: memref<2xi1>) {
  %c0 = arith.constant 0 : index
  %b = memref.load %m[%c0] : memref<2xi1>
  return
}
func.func @carried(%m: memref<2xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{kiln-gpu-device-memory: this model needs host code that reads buffers (run-time buffer ownership, as for a loop carrying tensors from one iteration to the next: ONNX Loop or Scan), which the GPU path does not support yet}}
  scf.for %i = %c0 to %c1 step %c1 {
  }
  func.call @helper(%m) : (memref<2xi1>) -> ()
  return
}

// -----

// A host buffer (an entry argument) read by anything but a host/device
// copy would crash on the GPU: an internal error names it instead.
// expected-error@+1 {{kiln-gpu-device-memory: argument #0 is a host buffer used other than by a host/device copy (internal error: an unstaged access)}}
func.func @unstaged(%in: memref<4xf32>, %out: memref<4xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %v = memref.subview %in[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  scf.parallel (%i) = (%c0) to (%c4) step (%c1) {
    %x = memref.load %in[%i] : memref<4xf32>
    scf.reduce
  }
  memref.copy %out, %out {kiln.gpu.transfer} : memref<4xf32> to memref<4xf32>
  return
}
// END-BAD-TYPE

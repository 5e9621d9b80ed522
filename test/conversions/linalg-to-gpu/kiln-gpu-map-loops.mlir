// The cases that map (the errors are checked below, on their own):
// RUN: sed '/^\/\/ UNMAPPABLE/,/^\/\/ END-UNMAPPABLE/d' %s > %t.ok.mlir
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-map-loops))' \
// RUN:   | FileCheck %s
// The mapped loops become kernels:
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-map-loops,convert-parallel-loops-to-gpu))' \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-map-loops{threads=64}))' \
// RUN:   | FileCheck %s --check-prefix=T64
// RUN: sed -n '/^\/\/ BAD-OPTION/,/^\/\/ END-BAD-OPTION/p' %s > %t.bad.mlir
// RUN: kiln-opt %t.bad.mlir --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-map-loops{threads=2000}))'
// RUN: sed -n '/^\/\/ UNMAPPABLE/,/^\/\/ END-UNMAPPABLE/p' %s > %t.unmappable.mlir
// RUN: kiln-opt %t.unmappable.mlir --split-input-file --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-map-loops))'

// A 3-d loop of 2*3*1000 = 6000 iterations: 24 blocks of 256 threads, the
// last one partly idle (bounds check), the linear index delinearized with
// the innermost dim fastest; lower bound and step of the middle dim kept.
// CHECK-LABEL: func.func @three_dims
// CHECK: scf.parallel (%[[B:.*]]) = (%{{.*}}) to (%c24) step
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256) step
// CHECK: %[[S:.*]] = arith.muli %[[B]], %c256{{[_0-9]*}}
// CHECK: %[[L:.*]] = arith.addi %[[S]], %[[T]]
// CHECK: %[[IN:.*]] = arith.cmpi ult, %[[L]], %c6000
// CHECK: scf.if %[[IN]]
// CHECK: %[[X:.*]] = arith.remui %[[L]], %c1000{{[_0-9]*}}
// CHECK: %[[R:.*]] = arith.divui %[[L]], %c1000{{[_0-9]*}}
// CHECK: %[[Y0:.*]] = arith.remui %[[R]], %c3
// CHECK: %[[Z:.*]] = arith.divui %[[R]], %c3
// CHECK: %[[Y1:.*]] = arith.muli %[[Y0]], %c2{{[_0-9]*}}
// CHECK: %[[Y:.*]] = arith.addi %[[Y1]], %c1{{[_0-9]*}}
// CHECK: memref.store %{{.*}}, %{{.*}}[%[[Z]], %[[Y]], %[[X]]]
// CHECK: {mapping = [#gpu.loop_dim_map<processor = thread_x
// CHECK: {mapping = [#gpu.loop_dim_map<processor = block_x
// LAUNCH-LABEL: func.func @three_dims
// LAUNCH-DAG: %[[NB:.*]] = affine.apply {{.*}}(%c24)
// LAUNCH-DAG: %[[NT:.*]] = affine.apply {{.*}}(%c256)
// LAUNCH: gpu.launch blocks(%{{.*}}) in (%{{.*}} = %[[NB]], %{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}}) threads(%{{.*}}) in (%{{.*}} = %[[NT]], %{{.*}} = %c1{{[_0-9]*}}, %{{.*}} = %c1{{[_0-9]*}})
// LAUNCH: memref.store
// T64-LABEL: func.func @three_dims
// T64: arith.muli %{{.*}}, %c64{{[_0-9]*}}
func.func @three_dims(%out: memref<2x7x1000xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c7 = arith.constant 7 : index
  %c1000 = arith.constant 1000 : index
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i, %j, %k) = (%c0, %c1, %c0) to (%c2, %c7, %c1000) step (%c1, %c2, %c1) {
    memref.store %cst, %out[%i, %j, %k] : memref<2x7x1000xf32>
    scf.reduce
  }
  return
}

// -----

// A small loop (40 iterations) gets one block of 64 threads (a multiple of
// the warp size); a loop that divides evenly gets no bounds check.
// CHECK-LABEL: func.func @small_and_even
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{[_0-9]*}}) step
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c64) step
// CHECK: arith.cmpi ult, %{{.*}}, %c40{{[_0-9]*}}
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c2{{[_0-9]*}}) step
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256) step
// CHECK-NOT: scf.if
// CHECK: return
func.func @small_and_even(%a: memref<40xf32>, %b: memref<512xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c40 = arith.constant 40 : index
  %c512 = arith.constant 512 : index
  %cst = arith.constant 1.0 : f32
  scf.parallel (%i) = (%c0) to (%c40) step (%c1) {
    memref.store %cst, %a[%i] : memref<40xf32>
    scf.reduce
  }
  scf.parallel (%i) = (%c0) to (%c512) step (%c1) {
    memref.store %cst, %b[%i] : memref<512xf32>
    scf.reduce
  }
  return
}

// -----

// Host code that is not a parallel loop (a full reduction to a 0-d buffer)
// runs in a one-thread grid; the buffers are not host memory.
// CHECK-LABEL: func.func @reduction_to_scalar
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{[_0-9]*}}) step
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c1{{[_0-9]*}}) step
// CHECK: memref.store %{{.*}}, %[[ACC:.*]][]
// CHECK: scf.for
// CHECK: memref.load %[[ACC]][]
// CHECK: processor = thread_x
// CHECK: processor = block_x
// CHECK-NEXT: return
func.func @reduction_to_scalar(%in: memref<100xf32>, %acc: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c100 = arith.constant 100 : index
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %acc[] : memref<f32>
  scf.for %i = %c0 to %c100 step %c1 {
    %x = memref.load %in[%i] : memref<100xf32>
    %s = memref.load %acc[] : memref<f32>
    %t = arith.addf %s, %x : f32
    memref.store %t, %acc[] : memref<f32>
  }
  return
}

// -----

// A scalar read outside the loops (as an ONNX op's data-dependent
// parameter, e.g. Trilu's k, lowers) is copied by a one-thread
// grid into a scalar buffer, from there (a marked copy: gpu.memcpy in the
// GPU pipeline) into a host buffer, which the host reads.
// CHECK-LABEL: func.func @host_scalar
// CHECK: %[[DEV:.*]] = memref.alloc() : memref<i64>
// CHECK: scf.parallel
// CHECK: scf.parallel
// CHECK: %[[V:.*]] = memref.load %arg0[]
// CHECK: memref.store %[[V]], %[[DEV]][]
// CHECK: %[[HOST:.*]] = memref.alloca() : memref<i64>
// CHECK: memref.copy %[[DEV]], %[[HOST]] {kiln.gpu.transfer}
// CHECK: %[[N:.*]] = memref.load %[[HOST]][]
// CHECK: memref.dealloc %[[DEV]]
// CHECK: arith.sitofp %[[N]]
// The scalar's one-thread grid is mapped once (mapping it again nested a
// second thread loop, which convert-parallel-loops-to-gpu left on the
// host: a host read of device memory), so both grids become launches.
// LAUNCH-LABEL: func.func @host_scalar
// LAUNCH-NOT: scf.parallel
// LAUNCH: gpu.launch blocks
// LAUNCH-NOT: scf.parallel
// LAUNCH: memref.copy {{.*}} {kiln.gpu.transfer}
// LAUNCH-NOT: scf.parallel
// LAUNCH: gpu.launch blocks
// LAUNCH-NOT: scf.parallel
// LAUNCH: return
func.func @host_scalar(%n: memref<i64>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %v = memref.load %n[] : memref<i64>
  %f = arith.sitofp %v : i64 to f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    memref.store %f, %out[%i] : memref<64xf32>
    scf.reduce
  }
  return
}

// -----

// Control flow around parallel loops (an ONNX If) stays on the host and
// the loops inside it are mapped.
// CHECK-LABEL: func.func @host_if
// CHECK: scf.if %arg0 {
// CHECK: processor = thread_x
// CHECK: } else {
// CHECK: processor = thread_x
func.func @host_if(%cond: i1, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  scf.if %cond {
    scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
      memref.store %one, %out[%i] : memref<64xf32>
      scf.reduce
    }
  } else {
    scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
      memref.store %two, %out[%i] : memref<64xf32>
      scf.reduce
    }
  }
  return
}

// -----

// UNMAPPABLE
func.func @dynamic_bounds(%out: memref<?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %cst = arith.constant 1.0 : f32
  // expected-error@+1 {{kiln-gpu-map-loops: a loop with dynamic bounds cannot be mapped to the GPU yet}}
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %cst, %out[%i] : memref<?xf32>
    scf.reduce
  }
  return
}

// -----

func.func @parallel_reduction(%in: memref<64xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{kiln-gpu-map-loops: parallel reductions cannot be mapped to the GPU yet}}
  %r = scf.parallel (%i) = (%c0) to (%c64) step (%c1) init (%zero) -> f32 {
    %x = memref.load %in[%i] : memref<64xf32>
    scf.reduce(%x : f32) {
    ^bb0(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      scf.reduce.return %s : f32
    }
  }
  return %r : f32
}

// -----

func.func @escaping_result(%in: memref<64xf32>, %out: memref<f32>) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %zero = arith.constant 0.0 : f32
  // expected-error@+1 {{kiln-gpu-map-loops: host computation whose results are used later cannot be moved to the GPU}}
  %r = scf.for %i = %c0 to %c64 step %c1 iter_args(%s = %zero) -> f32 {
    %x = memref.load %in[%i] : memref<64xf32>
    %t = arith.addf %s, %x : f32
    scf.yield %t : f32
  }
  memref.store %r, %out[] : memref<f32>
  return %r : f32
}
// END-UNMAPPABLE

// -----

// BAD-OPTION
// expected-error@+1 {{kiln-gpu-map-loops: threads=2000: must be in [1, 1024]}}
func.func @bad_option() {
  return
}
// END-BAD-OPTION

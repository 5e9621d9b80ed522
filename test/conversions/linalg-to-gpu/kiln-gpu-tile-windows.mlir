// RUN: sed '/^\/\/ BAD-OPTION/,/^\/\/ END-BAD-OPTION/d' %s > %t.ok.mlir
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-windows))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-windows{enable=false}))' \
// RUN:   | FileCheck %s --check-prefix=OFF
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-windows{threads=64}))' \
// RUN:   | FileCheck %s --check-prefix=T64
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-windows{epilogues=false}))' \
// RUN:   | FileCheck %s --check-prefix=NOEPI
// RUN: kiln-opt %t.ok.mlir --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-windows),canonicalize,func.func(kiln-gpu-launch-phases))' \
// RUN:   | FileCheck %s --check-prefix=LAUNCH
// RUN: sed -n '/^\/\/ BAD-OPTION/,/^\/\/ END-BAD-OPTION/p' %s > %t.bad.mlir
// RUN: kiln-opt %t.bad.mlir --verify-diagnostics \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-gpu-tile-windows{threads=48}))'

// A depthwise 3x3 conv, stride 2, 9x10 outputs per channel: tiles of
// 16x16 threads (powers of two covering the plane), one block per channel
// (grid 1 x 1 x 4), the plane's 19x21 input region copied to shared memory
// by all threads (coalesced, bounds-checked), then each thread adds the
// nine products to its output's initial value, in kh, kw order.
// CHECK-LABEL: func.func @depthwise
// CHECK: scf.execute_region no_inline
// CHECK: %[[SH:.*]] = memref.alloca() {kiln.gpu.shared} : memref<19x21xf32>
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %[[P:.*]]) = {{.*}} to (%{{.*}}, %{{.*}}, %c4)
// CHECK: scf.parallel (%[[T:.*]]) = (%{{.*}}) to (%c256)
// CHECK: scf.for %[[E:.*]] = %[[T]] to %c399 step %c256
// CHECK: scf.if
// CHECK: %[[X:.*]] = memref.load %arg0[
// CHECK: memref.store %[[X]], %[[SH]][
// CHECK: scf.parallel (%{{.*}}) = (%{{.*}}) to (%c256)
// CHECK: scf.if
// CHECK: %[[ACC:.*]] = memref.load %arg2[
// CHECK: %[[W:.*]] = memref.load %[[SH]][
// CHECK: %[[F:.*]] = memref.load %arg1[%{{.*}}, %c0{{.*}}, %c0{{.*}}]
// CHECK: %[[M:.*]] = arith.mulf %[[W]], %[[F]] : f32
// CHECK: arith.addf %[[ACC]], %[[M]] : f32
// CHECK-COUNT-8: arith.addf
// CHECK: memref.store
// CHECK: } {kiln.gpu.block_size = 256 : i64}
// OFF-LABEL: func.func @depthwise
// OFF: linalg.depthwise_conv_2d_nchw_chw
// OFF-NOT: kiln.gpu.shared
// At most 64 threads: 16 columns (the plane's 10) by 4 rows, the region
// 9 x 21.
// T64-LABEL: func.func @depthwise
// T64: memref.alloca() {kiln.gpu.shared} : memref<9x21xf32>
// T64: } {kiln.gpu.block_size = 64 : i64}
// A gpu.launch with the region in workgroup memory and a barrier after the
// copy.
// LAUNCH-LABEL: func.func @depthwise
// LAUNCH: gpu.launch blocks({{.*}}) in (%{{.*}} = %c4{{.*}}, %{{.*}} = %c1{{.*}}, %{{.*}} = %c1{{.*}}) threads({{.*}}) in (%{{.*}} = %c256
// LAUNCH-SAME: workgroup(%[[WG:.*]] : memref<19x21xf32, #gpu.address_space<workgroup>>)
// LAUNCH: memref.store %{{.*}}, %[[WG]]
// LAUNCH-NEXT: }
// LAUNCH-NEXT: }
// LAUNCH-NEXT: gpu.barrier
func.func @depthwise(%x: memref<1x4x19x21xf32>, %f: memref<4x3x3xf32>, %y: memref<1x4x9x10xf32>) {
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>} ins(%x, %f : memref<1x4x19x21xf32>, memref<4x3x3xf32>) outs(%y : memref<1x4x9x10xf32>)
  return
}

// -----

// The Relu after a depthwise conv applied in its store, to the Relu's
// output: one kernel, the conv's temporary read for its initial value (the
// bias) but no longer written, the Relu gone.
// CHECK-LABEL: func.func @depthwise_relu
// CHECK: scf.execute_region no_inline
// CHECK: %[[INIT:.*]] = memref.load %[[T:.*]][
// CHECK: %[[CMP:.*]] = arith.cmpf olt, %[[V:.*]], %cst
// CHECK: %[[R:.*]] = arith.select %[[CMP]], %cst{{.*}}, %[[V]] : f32
// CHECK: memref.store %[[R]], %arg2[
// CHECK-NOT: linalg.generic
// NOEPI-LABEL: func.func @depthwise_relu
// NOEPI: kiln.gpu.shared
// NOEPI: linalg.generic
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @depthwise_relu(%x: memref<1x4x9x9xf32>, %f: memref<4x3x3xf32>, %y: memref<1x4x7x7xf32>) {
  %cst = arith.constant 0.0 : f32
  %t = memref.alloc() : memref<1x4x7x7xf32>
  linalg.fill ins(%cst : f32) outs(%t : memref<1x4x7x7xf32>)
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%x, %f : memref<1x4x9x9xf32>, memref<4x3x3xf32>) outs(%t : memref<1x4x7x7xf32>)
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%t : memref<1x4x7x7xf32>) outs(%y : memref<1x4x7x7xf32>) {
  ^bb0(%in: f32, %o: f32):
    %c = arith.cmpf olt, %in, %cst : f32
    %r = arith.select %c, %cst, %in : f32
    linalg.yield %r : f32
  }
  memref.dealloc %t : memref<1x4x7x7xf32>
  return
}

// -----

// A 2x2 max pool, stride 2, as the pool lowering leaves it: four strided
// views of one buffer. 4x4 outputs per plane (16 threads), 6 planes; the
// body copied in, each input read from shared memory at its offset.
// CHECK-LABEL: func.func @maxpool
// CHECK: %[[SH:.*]] = memref.alloca() {kiln.gpu.shared} : memref<8x8xf32>
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = {{.*}} to (%{{.*}}, %{{.*}}, %c6)
// CHECK: memref.load %arg0[
// CHECK: %[[A:.*]] = memref.load %[[SH]][
// CHECK: %[[B:.*]] = memref.load %[[SH]][
// CHECK: %[[C:.*]] = memref.load %[[SH]][
// CHECK: %[[D:.*]] = memref.load %[[SH]][
// CHECK: %[[M0:.*]] = arith.maximumf %[[A]], %[[B]] : f32
// CHECK: %[[M1:.*]] = arith.maximumf %[[M0]], %[[C]] : f32
// CHECK: %[[M2:.*]] = arith.maximumf %[[M1]], %[[D]] : f32
// CHECK: memref.store %[[M2]], %arg1[
// CHECK: } {kiln.gpu.block_size = 16 : i64}
// CHECK-NOT: linalg.generic
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @maxpool(%x: memref<2x3x8x8xf32>, %y: memref<2x3x4x4xf32>) {
  %a = memref.subview %x[0, 0, 0, 0] [2, 3, 4, 4] [1, 1, 2, 2] : memref<2x3x8x8xf32> to memref<2x3x4x4xf32, strided<[192, 64, 16, 2]>>
  %b = memref.subview %x[0, 0, 0, 1] [2, 3, 4, 4] [1, 1, 2, 2] : memref<2x3x8x8xf32> to memref<2x3x4x4xf32, strided<[192, 64, 16, 2], offset: 1>>
  %c = memref.subview %x[0, 0, 1, 0] [2, 3, 4, 4] [1, 1, 2, 2] : memref<2x3x8x8xf32> to memref<2x3x4x4xf32, strided<[192, 64, 16, 2], offset: 8>>
  %d = memref.subview %x[0, 0, 1, 1] [2, 3, 4, 4] [1, 1, 2, 2] : memref<2x3x8x8xf32> to memref<2x3x4x4xf32, strided<[192, 64, 16, 2], offset: 9>>
  linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b, %c, %d : memref<2x3x4x4xf32, strided<[192, 64, 16, 2]>>, memref<2x3x4x4xf32, strided<[192, 64, 16, 2], offset: 1>>, memref<2x3x4x4xf32, strided<[192, 64, 16, 2], offset: 8>>, memref<2x3x4x4xf32, strided<[192, 64, 16, 2], offset: 9>>) outs(%y : memref<2x3x4x4xf32>) {
  ^bb0(%i0: f32, %i1: f32, %i2: f32, %i3: f32, %o: f32):
    %m0 = arith.maximumf %i0, %i1 : f32
    %m1 = arith.maximumf %m0, %i2 : f32
    %m2 = arith.maximumf %m1, %i3 : f32
    linalg.yield %m2 : f32
  }
  return
}

// -----

// bf16, another input (a divisor per column) read from its buffer at the
// output's column, the windows' inputs in any operand position; 39 columns:
// two tiles of 32.
// CHECK-LABEL: func.func @avgpool
// CHECK: %[[SH:.*]] = memref.alloca() {kiln.gpu.shared} : memref<5x33xbf16>
// CHECK: scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) = {{.*}} to (%{{.*}}, %c2{{.*}}, %c2{{.*}})
// CHECK: %[[A:.*]] = memref.load %[[SH]]{{.*}} : memref<5x33xbf16>
// CHECK: %[[B:.*]] = memref.load %[[SH]]{{.*}} : memref<5x33xbf16>
// CHECK: %[[K:.*]] = memref.load %arg1[%{{.*}}] : memref<39xbf16>
// CHECK: %[[S:.*]] = arith.addf %[[A]], %[[B]] : bf16
// CHECK: arith.divf %[[S]], %[[K]] : bf16
// CHECK: } {kiln.gpu.block_size = 256 : i64}
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#col = affine_map<(d0, d1, d2, d3) -> (d3)>
func.func @avgpool(%x: memref<1x2x5x40xbf16>, %n: memref<39xbf16>, %y: memref<1x2x5x39xbf16>) {
  %a = memref.subview %x[0, 0, 0, 0] [1, 2, 5, 39] [1, 1, 1, 1] : memref<1x2x5x40xbf16> to memref<1x2x5x39xbf16, strided<[400, 200, 40, 1]>>
  %b = memref.subview %x[0, 0, 0, 1] [1, 2, 5, 39] [1, 1, 1, 1] : memref<1x2x5x40xbf16> to memref<1x2x5x39xbf16, strided<[400, 200, 40, 1], offset: 1>>
  linalg.generic {indexing_maps = [#id, #col, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %n, %b : memref<1x2x5x39xbf16, strided<[400, 200, 40, 1]>>, memref<39xbf16>, memref<1x2x5x39xbf16, strided<[400, 200, 40, 1], offset: 1>>) outs(%y : memref<1x2x5x39xbf16>) {
  ^bb0(%i0: bf16, %k: bf16, %i1: bf16, %o: bf16):
    %s = arith.addf %i0, %i1 : bf16
    %d = arith.divf %s, %k : bf16
    linalg.yield %d : bf16
  }
  return
}

// -----

// The output is a view of the windows' buffer (other blocks would read
// what one writes): left alone.
// CHECK-LABEL: func.func @in_place
// CHECK-NOT: kiln.gpu.shared
// CHECK: linalg.generic
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @in_place(%x: memref<1x1x8x8xf32>) {
  %a = memref.subview %x[0, 0, 0, 0] [1, 1, 4, 4] [1, 1, 1, 1] : memref<1x1x8x8xf32> to memref<1x1x4x4xf32, strided<[64, 64, 8, 1]>>
  %b = memref.subview %x[0, 0, 0, 1] [1, 1, 4, 4] [1, 1, 1, 1] : memref<1x1x8x8xf32> to memref<1x1x4x4xf32, strided<[64, 64, 8, 1], offset: 1>>
  %y = memref.subview %x[0, 0, 4, 4] [1, 1, 4, 4] [1, 1, 1, 1] : memref<1x1x8x8xf32> to memref<1x1x4x4xf32, strided<[64, 64, 8, 1], offset: 36>>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a, %b : memref<1x1x4x4xf32, strided<[64, 64, 8, 1]>>, memref<1x1x4x4xf32, strided<[64, 64, 8, 1], offset: 1>>) outs(%y : memref<1x1x4x4xf32, strided<[64, 64, 8, 1], offset: 36>>) {
  ^bb0(%i0: f32, %i1: f32, %o: f32):
    %s = arith.addf %i0, %i1 : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Not windows: one strided view (a copy), integer elements, dynamic shapes.
// CHECK-LABEL: func.func @not_windows
// CHECK-NOT: kiln.gpu.shared
// CHECK: linalg.generic
// CHECK: linalg.generic
// CHECK: linalg.depthwise_conv_2d_nchw_chw
#id = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
func.func @not_windows(%x: memref<1x1x8x8xf32>, %y: memref<1x1x4x4xf32>, %xi: memref<1x1x8x8xi32>, %yi: memref<1x1x4x4xi32>, %dx: memref<?x4x9x9xf32>, %df: memref<4x3x3xf32>, %dy: memref<?x4x7x7xf32>) {
  %a = memref.subview %x[0, 0, 0, 0] [1, 1, 4, 4] [1, 1, 2, 2] : memref<1x1x8x8xf32> to memref<1x1x4x4xf32, strided<[64, 64, 16, 2]>>
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%a : memref<1x1x4x4xf32, strided<[64, 64, 16, 2]>>) outs(%y : memref<1x1x4x4xf32>) {
  ^bb0(%i0: f32, %o: f32):
    linalg.yield %i0 : f32
  }
  %c = memref.subview %xi[0, 0, 0, 0] [1, 1, 4, 4] [1, 1, 1, 1] : memref<1x1x8x8xi32> to memref<1x1x4x4xi32, strided<[64, 64, 8, 1]>>
  %d = memref.subview %xi[0, 0, 0, 1] [1, 1, 4, 4] [1, 1, 1, 1] : memref<1x1x8x8xi32> to memref<1x1x4x4xi32, strided<[64, 64, 8, 1], offset: 1>>
  linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%c, %d : memref<1x1x4x4xi32, strided<[64, 64, 8, 1]>>, memref<1x1x4x4xi32, strided<[64, 64, 8, 1], offset: 1>>) outs(%yi : memref<1x1x4x4xi32>) {
  ^bb0(%i0: i32, %i1: i32, %o: i32):
    %s = arith.maxsi %i0, %i1 : i32
    linalg.yield %s : i32
  }
  linalg.depthwise_conv_2d_nchw_chw {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>} ins(%dx, %df : memref<?x4x9x9xf32>, memref<4x3x3xf32>) outs(%dy : memref<?x4x7x7xf32>)
  return
}

// BAD-OPTION
// expected-error@+1 {{kiln-gpu-tile-windows: threads=48: must be a power of two from 32 to 1024}}
func.func @bad_option() {
  return
}
// END-BAD-OPTION

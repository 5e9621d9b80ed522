// A pass that fails without emitting a diagnostic (upstream shard-partition
// on a constant it cannot split) still gets an error naming the input, and
// a non-zero exit with nothing on stdout.

// RUN: not kiln-opt %s --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' \
// RUN:   > %t.out 2> %t.err
// RUN: FileCheck %s < %t.err
// RUN: count 0 < %t.out
// CHECK: silent-pass-failure.mlir:{{[0-9]+}}:{{[0-9]+}}: error: the pass pipeline failed: a pass signalled failure without a diagnostic (run with --mlir-print-ir-after-failure to see the IR it left)

// The same pipeline partitions the function when the constant is a splat.
// RUN: sed 's/dense<\[\[1.0, 2.0\], \[3.0, 4.0\]\]>/dense<1.0>/' %s \
// RUN:   | kiln-opt --pass-pipeline='builtin.module(func.func(sharding-propagation,shard-partition))' \
// RUN:   | FileCheck %s --check-prefix=SPLAT
// SPLAT: func.func @f(%arg0: tensor<2x2xf32>) -> tensor<2x2xf32>

shard.grid @grid(shape = 2)
func.func @f(%x: tensor<4x2xf32>) -> tensor<4x2xf32> {
  %w = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %s0 = shard.sharding @grid split_axes = [[0]] : !shard.sharding
  %xs = shard.shard %x to %s0 annotate_for_users : tensor<4x2xf32>
  %z = tensor.empty() : tensor<4x2xf32>
  %c0 = arith.constant 0.0 : f32
  %f = linalg.fill ins(%c0 : f32) outs(%z : tensor<4x2xf32>) -> tensor<4x2xf32>
  %r = linalg.matmul ins(%xs, %w : tensor<4x2xf32>, tensor<2x2xf32>) outs(%f : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %r : tensor<4x2xf32>
}

// The MLP of test/pipelines/shard.mlir, for running it sharded over
// processes (shard-run.test): a C interface for the driver
// (shard_driver.c), and the DLTI entry naming the MPI implementation the
// lowering calls.
#map = affine_map<(d0, d1) -> (d0, d1)>
#map1 = affine_map<(d0, d1) -> (d1)>
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "OpenMPI">} {
func.func @mlp(%x: tensor<4x6xf32> {onnx.name = "x"}) -> (tensor<4x2xf32> {onnx.name = "y"}) attributes {llvm.emit_c_interface} {
  %zero = arith.constant 0.0 : f32
  %w1 = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 3.0, 4.0]]> : tensor<6x4xf32>
  %b1 = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
  %w2 = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>
  %e = tensor.empty() : tensor<4x4xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<4x4xf32>) -> tensor<4x4xf32>
  %h = linalg.matmul ins(%x, %w1 : tensor<4x6xf32>, tensor<6x4xf32>) outs(%f : tensor<4x4xf32>) -> tensor<4x4xf32>
  %hb = linalg.generic {indexing_maps = [#map, #map1, #map], iterator_types = ["parallel", "parallel"]} ins(%h, %b1 : tensor<4x4xf32>, tensor<4xf32>) outs(%e : tensor<4x4xf32>) {
  ^bb0(%in: f32, %b: f32, %out: f32):
    %s = arith.addf %in, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<4x4xf32>
  %e2 = tensor.empty() : tensor<4x2xf32>
  %f2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  %y = linalg.matmul ins(%hb, %w2 : tensor<4x4xf32>, tensor<4x2xf32>) outs(%f2 : tensor<4x2xf32>) -> tensor<4x2xf32>
  return %y : tensor<4x2xf32>
}
}

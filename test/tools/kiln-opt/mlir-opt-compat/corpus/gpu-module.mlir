// An outlined gpu.module with a kernel and its host launch.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%m: memref<128xf32>, %s: f32) kernel {
      %t = gpu.thread_id x
      %b = gpu.block_id x
      %d = gpu.block_dim x
      %o = arith.muli %b, %d : index
      %i = arith.addi %o, %t : index
      %v = memref.load %m[%i] : memref<128xf32>
      %w = arith.mulf %v, %s : f32
      memref.store %w, %m[%i] : memref<128xf32>
      gpu.return
    }
  }
  func.func @host(%m: memref<128xf32>, %s: f32) {
    %c1 = arith.constant 1 : index
    %c128 = arith.constant 128 : index
    gpu.launch_func @kernels::@scale blocks in (%c1, %c1, %c1) threads in (%c128, %c1, %c1) args(%m : memref<128xf32>, %s : f32)
    return
  }
}

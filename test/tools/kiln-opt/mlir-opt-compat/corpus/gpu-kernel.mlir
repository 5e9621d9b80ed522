// A GPU launch with its body inline, for kernel outlining.
func.func @launch(%m: memref<256xf32>) {
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%tx] : memref<256xf32>
    %w = arith.mulf %v, %v : f32
    memref.store %w, %m[%tx] : memref<256xf32>
    gpu.terminator
  }
  return
}

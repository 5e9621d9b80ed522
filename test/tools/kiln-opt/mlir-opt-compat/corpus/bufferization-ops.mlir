// bufferization dialect ops in buffer form: to_tensor/to_buffer, clones.
func.func @roundtrip(%m: memref<4xf32>) -> memref<4xf32> {
  %t = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  %b = bufferization.to_buffer %t : tensor<4xf32> to memref<4xf32>
  return %b : memref<4xf32>
}

func.func @clone(%m: memref<4xf32>) -> memref<4xf32> {
  %c = bufferization.clone %m : memref<4xf32> to memref<4xf32>
  return %c : memref<4xf32>
}

func.func @temp(%m: memref<8xf32>) -> f32 {
  %a = memref.alloc() : memref<8xf32>
  memref.copy %m, %a : memref<8xf32> to memref<8xf32>
  %c0 = arith.constant 0 : index
  %v = memref.load %a[%c0] : memref<8xf32>
  memref.dealloc %a : memref<8xf32>
  return %v : f32
}

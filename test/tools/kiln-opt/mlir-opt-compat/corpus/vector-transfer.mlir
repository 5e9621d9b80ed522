// vector transfers between memrefs/tensors and vectors.
func.func @transfer(%m: memref<16x16xf32>, %i: index) -> vector<4x8xf32> {
  %z = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%i, %i], %z {in_bounds = [true, true]} : memref<16x16xf32>, vector<4x8xf32>
  vector.transfer_write %v, %m[%i, %i] {in_bounds = [true, true]} : vector<4x8xf32>, memref<16x16xf32>
  return %v : vector<4x8xf32>
}

func.func @masked(%t: tensor<?xf32>, %i: index) -> vector<8xf32> {
  %z = arith.constant 0.0 : f32
  %v = vector.transfer_read %t[%i], %z : tensor<?xf32>, vector<8xf32>
  return %v : vector<8xf32>
}

func.func @load_store(%m: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %v = vector.load %m[%c0] : memref<64xf32>, vector<16xf32>
  %w = arith.addf %v, %v : vector<16xf32>
  vector.store %w, %m[%c0] : memref<64xf32>, vector<16xf32>
  return
}

// memref ops: alloc/alloca, subviews, casts, reinterpret and globals.
memref.global "private" constant @table : memref<4xi32> = dense<[1, 2, 3, 4]>

func.func @views(%m: memref<16x16xf32>, %i: index) -> f32 {
  %s = memref.subview %m[%i, 0] [4, 8] [1, 2] : memref<16x16xf32> to memref<4x8xf32, strided<[16, 2], offset: ?>>
  %c0 = arith.constant 0 : index
  %v = memref.load %s[%c0, %c0] : memref<4x8xf32, strided<[16, 2], offset: ?>>
  return %v : f32
}

func.func @allocs(%n: index) -> memref<?xf32> {
  %a = memref.alloc(%n) : memref<?xf32>
  %b = memref.alloca() : memref<4xf32>
  %c = memref.cast %b : memref<4xf32> to memref<?xf32>
  %d = memref.dim %c, %n : memref<?xf32>
  return %a : memref<?xf32>
}

func.func @global() -> i32 {
  %g = memref.get_global @table : memref<4xi32>
  %c1 = arith.constant 1 : index
  %v = memref.load %g[%c1] : memref<4xi32>
  return %v : i32
}

func.func @collapse(%m: memref<2x3x4xf32>) -> memref<6x4xf32> {
  %c = memref.collapse_shape %m [[0, 1], [2]] : memref<2x3x4xf32> into memref<6x4xf32>
  return %c : memref<6x4xf32>
}

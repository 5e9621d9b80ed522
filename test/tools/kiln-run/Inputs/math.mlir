// Math ops with and without LLVM intrinsics (erf becomes a libm call,
// ipowi an outlined function), each as its own output.
#id = affine_map<(d0) -> (d0)>
func.func @main_graph(%a: tensor<5xf32>, %b: tensor<5xf32>, %n: tensor<5xi32>)
    -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
        tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
        tensor<5xi32>) {
  %e = tensor.empty() : tensor<5xf32>
  %ei = tensor.empty() : tensor<5xi32>
  %r:9 = linalg.generic {
      indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id, #id,
                       #id],
      iterator_types = ["parallel"]}
      ins(%a, %b, %n : tensor<5xf32>, tensor<5xf32>, tensor<5xi32>)
      outs(%e, %e, %e, %e, %e, %e, %e, %e, %ei
           : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
             tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
             tensor<5xi32>) {
  ^bb0(%x: f32, %y: f32, %k: i32, %o0: f32, %o1: f32, %o2: f32, %o3: f32,
       %o4: f32, %o5: f32, %o6: f32, %o7: f32, %o8: i32):
    %0 = math.erf %x : f32
    %1 = math.tanh %x : f32
    %2 = math.atan %x : f32
    %3 = math.powf %y, %x : f32
    %4 = math.exp %x : f32
    %5 = math.log %y : f32
    %6 = math.sin %x : f32
    %7 = math.fpowi %x, %k : f32, i32
    %8 = math.ipowi %k, %k : i32
    linalg.yield %0, %1, %2, %3, %4, %5, %6, %7, %8
        : f32, f32, f32, f32, f32, f32, f32, f32, i32
  } -> (tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
        tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
        tensor<5xi32>)
  return %r#0, %r#1, %r#2, %r#3, %r#4, %r#5, %r#6, %r#7, %r#8
      : tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
        tensor<5xf32>, tensor<5xf32>, tensor<5xf32>, tensor<5xf32>,
        tensor<5xi32>
}

// Ranges and ConstantOfShape of run-time sizes (position ids and masks of a
// dynamic-axes export): ids [b, t]; delta and shp are read at run time.
//   y0 = ids * ConstantOfShape(Shape(ids), 1) + Range(0, t, 1)   [b, t]
//   y1 = Range(t, 0, delta)                                       [?]
//   y2 = Range(0.5, float(t), 1.5)                                [?]
//   y3 = ConstantOfShape(shp, 2.5)                                [?, ?]
func.func @main_graph(%ids: tensor<?x?xi64>, %delta: tensor<i64>, %shp: tensor<2xi64>) -> (tensor<?x?xi64>, tensor<?xi64>, tensor<?xf32>, tensor<?x?xf32>) {
  %s = "graph.shape"(%ids) : (tensor<?x?xi64>) -> tensor<2xi64>
  %i1 = "graph.constant"() {value = dense<1> : tensor<i64>} : () -> tensor<i64>
  %i0 = "graph.constant"() {value = dense<0> : tensor<i64>} : () -> tensor<i64>
  %t = "graph.gather"(%s, %i1) {axis = 0 : i64} : (tensor<2xi64>, tensor<i64>) -> tensor<i64>
  %pos = "graph.range"(%i0, %t, %i1) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %ones = "graph.constant_of_shape"(%s) {value = dense<1> : tensor<1xi64>} : (tensor<2xi64>) -> tensor<?x?xi64>
  %m = "graph.mul"(%ids, %ones) : (tensor<?x?xi64>, tensor<?x?xi64>) -> tensor<?x?xi64>
  %y0 = "graph.add"(%m, %pos) : (tensor<?x?xi64>, tensor<?xi64>) -> tensor<?x?xi64>
  %y1 = "graph.range"(%t, %i0, %delta) : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  %tf = "graph.cast"(%t) {to = f32} : (tensor<i64>) -> tensor<f32>
  %start = "graph.constant"() {value = dense<0.5> : tensor<f32>} : () -> tensor<f32>
  %step = "graph.constant"() {value = dense<1.5> : tensor<f32>} : () -> tensor<f32>
  %y2 = "graph.range"(%start, %tf, %step) : (tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<?xf32>
  %y3 = "graph.constant_of_shape"(%shp) {value = dense<2.5> : tensor<1xf32>} : (tensor<2xi64>) -> tensor<?x?xf32>
  return %y0, %y1, %y2, %y3 : tensor<?x?xi64>, tensor<?xi64>, tensor<?xf32>, tensor<?x?xf32>
}

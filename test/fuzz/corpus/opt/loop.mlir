module {
  func.func @loop(%x: tensor<8xf32>, %n: index) -> tensor<8xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<8xf32>) {
      %t = "graph.tanh"(%acc) : (tensor<8xf32>) -> tensor<8xf32>
      %u = "graph.add"(%t, %acc) : (tensor<8xf32>, tensor<8xf32>) -> tensor<8xf32>
      scf.yield %u : tensor<8xf32>
    }
    %d = "graph.reduce_sum"(%r) {keepdims = 1 : i64} : (tensor<8xf32>) -> tensor<1xf32>
    %s = "graph.constant"() {value = dense<8> : tensor<1xi64>} : () -> tensor<1xi64>
    %e = "graph.expand"(%d, %s) : (tensor<1xf32>, tensor<1xi64>) -> tensor<8xf32>
    return %r : tensor<8xf32>
  }
}

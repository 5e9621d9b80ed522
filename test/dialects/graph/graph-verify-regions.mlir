// RUN: kiln-opt %s --split-input-file --verify-diagnostics --no-graph-verify --pass-pipeline='builtin.module(func.func(graph-verify))'
// RUN: kiln-opt %s --split-input-file --verify-diagnostics
// graph-verify checks graph ops nested in regions of other dialects (the
// scf ops ONNX If/Loop/Scan import as), not only those at a function's
// top level.

func.func @ok(%c: i1, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = scf.if %c -> (tensor<2xf32>) {
    %1 = "graph.relu"(%x) : (tensor<2xf32>) -> tensor<2xf32>
    scf.yield %1 : tensor<2xf32>
  } else {
    scf.yield %x : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @bad_in_if(%c: i1, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = scf.if %c -> (tensor<2xf32>) {
    // expected-error@+1 {{'graph.add' op result #0 has type tensor<3xf32>, but its operands and attributes imply tensor<2xf32>}}
    %1 = "graph.add"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xf32>
    scf.yield %x : tensor<2xf32>
  } else {
    scf.yield %x : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

func.func @bad_in_nested_for(%x: tensor<2xf32>, %y: tensor<3xf32>) -> tensor<2xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %0 = scf.for %i = %c0 to %c4 step %c1 iter_args(%a = %x) -> (tensor<2xf32>) {
    %1 = scf.for %j = %c0 to %c4 step %c1 iter_args(%b = %a) -> (tensor<2xf32>) {
      // expected-error@+1 {{'graph.add' op}}
      %2 = "graph.add"(%b, %y) : (tensor<2xf32>, tensor<3xf32>) -> tensor<2xf32>
      scf.yield %2 : tensor<2xf32>
    }
    scf.yield %1 : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// graph-verify's options, nested among upstream passes with options.
// RUN: kiln-opt %s --no-graph-verify --pass-pipeline='builtin.module(func.func(canonicalize{max-iterations=2},graph-verify{require-static-shapes=false}),cse)' | FileCheck %s --check-prefix=LAX
// RUN: not kiln-opt %s --no-graph-verify --pass-pipeline='builtin.module(func.func(graph-verify{require-static-shapes}))' 2>&1 | FileCheck %s --check-prefix=STATIC
// RUN: not kiln-opt %s --no-graph-verify --pass-pipeline='builtin.module(func.func(graph-verify{require-static-shapes=true max-errors=1}))' 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not kiln-opt %s --no-graph-verify --pass-pipeline='builtin.module(func.func(graph-verify{max-errors=x}))' 2>&1 | FileCheck %s --check-prefix=BADINT
// RUN: not kiln-opt %s --no-graph-verify --pass-pipeline='builtin.module(func.func(graph-verify{require-static-shapes=maybe}))' 2>&1 | FileCheck %s --check-prefix=BADBOOL
// RUN: not kiln-opt %s --no-graph-verify --pass-pipeline='builtin.module(func.func(graph-verify{require-static=1}))' 2>&1 | FileCheck %s --check-prefix=BADKEY

// LAX-LABEL: func.func @dynamic
// LAX: "graph.relu"

// STATIC: error: 'graph.relu' op result #0 has a dynamic shape (tensor<?x4xf32>); static shapes are required here
// STATIC: error: 'graph.sigmoid' op result #0 has a dynamic shape (tensor<?x4xf32>)

// With max-errors=1 only the first bad op is reported.
// ONE: 'graph.relu' op result #0 has a dynamic shape
// ONE-NOT: graph.sigmoid

// BADINT: invalid value 'x' for option 'max-errors' of pass 'graph-verify' (expected an integer)
// BADBOOL: invalid value 'maybe' for option 'require-static-shapes' of pass 'graph-verify' (expected true or false)
// BADKEY: unknown option 'require-static' for pass 'graph-verify'; did you mean 'require-static-shapes'?

func.func @dynamic(%a: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %0 = "graph.relu"(%a) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  %1 = "graph.sigmoid"(%0) : (tensor<?x4xf32>) -> tensor<?x4xf32>
  return %1 : tensor<?x4xf32>
}

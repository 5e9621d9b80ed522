// Output and instrumentation flags: IR printing around passes (which needs
// MLIR's threading off; kiln-opt turns it off itself), timing, generic form,
// locations, unregistered dialects.

// RUN: kiln-opt %s --pass-pipeline='builtin.module(func.func(graph-dce))' --mlir-print-ir-before-all --mlir-print-ir-after-all --mlir-print-ir-module-scope 2>&1 >/dev/null | FileCheck %s --check-prefix=AROUND
// AROUND: IR Dump Before graph-dce (graph-dce) ('func.func' operation: @f)
// AROUND: "graph.relu"
// AROUND: "graph.relu"
// AROUND: IR Dump After graph-dce (graph-dce) ('func.func' operation: @f)
// AROUND: "graph.relu"
// AROUND-NOT: "graph.relu"

// Only passes that changed the IR are printed: graph-cse merges the two
// relus, after which graph-dce has nothing left to do.
// RUN: kiln-opt %s --graph-cse --graph-dce --mlir-print-ir-after-change 2>&1 >/dev/null | FileCheck %s --check-prefix=CHANGE
// CHANGE: IR Dump After graph-cse
// CHANGE-NOT: IR Dump After graph-dce

// RUN: kiln-opt %s --graph-dce --mlir-timing 2>&1 >/dev/null | FileCheck %s --check-prefix=TIMING
// TIMING: Execution time report
// TIMING: graph-dce
// TIMING: Total

// RUN: kiln-opt %s --mlir-print-op-generic | FileCheck %s --check-prefix=GENERIC
// GENERIC: "func.func"() <{function_type = (tensor<4xf32>) -> tensor<4xf32>, sym_name = "f"}>

// RUN: kiln-opt %s --mlir-print-debuginfo | FileCheck %s --check-prefix=DEBUG
// DEBUG: loc("{{.*}}print-ir.mlir":{{[0-9]+}}:{{[0-9]+}})

// RUN: not kiln-opt %S/Inputs/unregistered.mlir 2>&1 | FileCheck %s --check-prefix=UNREG
// UNREG: unregistered.mlir:2:{{[0-9]+}}: error: operation being parsed with an unregistered dialect
// RUN: kiln-opt %S/Inputs/unregistered.mlir --allow-unregistered-dialect | FileCheck %s --check-prefix=ALLOW
// ALLOW: "foo.bar"() : () -> ()

func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = "graph.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  %1 = "graph.relu"(%a) : (tensor<4xf32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// RUN: kiln-opt %s --split-input-file --mlir-print-debuginfo \
// RUN:   --pass-pipeline='builtin.module(kiln-apply-tuning{log=%S/Inputs/apply-tuning.tune target-triple=x86_64-unknown-linux-gnu target-cpu=test-cpu target-features=+avx2,+fma})' \
// RUN:   | FileCheck %s
// The same module for another target: no record applies.
// RUN: kiln-opt %s --split-input-file --mlir-print-debuginfo \
// RUN:   --pass-pipeline='builtin.module(kiln-apply-tuning{log=%S/Inputs/apply-tuning.tune target-triple=aarch64-unknown-linux-gnu target-cpu=test-cpu target-features=+avx2,+fma})' \
// RUN:   | FileCheck %s --check-prefix=OTHER
// OTHER: kiln.tuned_workloads = 0 : i64
// OTHER-NOT: kiln.schedule
// RUN: not kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-apply-tuning{log=%S/Inputs/apply-tuning-range.tune target-triple=x86_64-unknown-linux-gnu target-cpu=test-cpu target-features=+avx2,+fma})' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=RANGE
// RUN: not kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-apply-tuning{log=%t.missing})' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-apply-tuning)' \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOLOG

// The conv group's fastest valid record (the invalid one is faster on
// paper, but failed) goes into the location of the group and each member;
// the lone conv's only record was tuned for another CPU: it stays as it
// is. The module says how many workloads were tuned.
// CHECK-LABEL: module attributes
// CHECK-SAME: kiln.tuned_workloads = 1 : i64
// CHECK: "graph.conv"{{.*}} loc(#[[CONV:loc[0-9]+]])
// CHECK: "graph.relu"{{.*}} loc(#[[RELU:loc[0-9]+]])
// CHECK: {graph.fusion = "conv_epilogue"} loc(#[[GROUP:loc[0-9]+]])
// CHECK: "graph.conv"{{.*}} loc(#[[LONE:loc[0-9]+]])
// CHECK: #[[NAME:loc[0-9]+]] = loc("conv0")
// CHECK: #[[LONE]] = loc("conv1")
// CHECK: #[[GROUP]] = loc(fused<{kiln.schedule = {"kiln-fuse-groups" = {"conv-tile-rows" = 2 : i64}, "kiln-tile-and-vectorize" = {rows = 4 : i64, "vector-size" = 8 : i64}}}>[#{{loc[0-9]+}}])
// CHECK: #[[CONV]] = loc(fused<{kiln.schedule = {{.*}}}>[#[[NAME]]])
// CHECK: #[[RELU]] = loc(fused<{kiln.schedule = {{.*}}}>[#{{loc[0-9]+}}])
module {
  func.func @main_graph(%x: tensor<1x16x16x16xf32>, %y: tensor<1x8x16x16xf32>) -> (tensor<1x16x16x16xf32>, tensor<1x8x16x16xf32>) {
    %w = "graph.constant"() {value = dense<0.1> : tensor<16x16x3x3xf32>} : () -> tensor<16x16x3x3xf32>
    %b = "graph.constant"() {value = dense<0.2> : tensor<16xf32>} : () -> tensor<16xf32>
    %w2 = "graph.constant"() {value = dense<0.3> : tensor<8x8x3x3xf32>} : () -> tensor<8x8x3x3xf32>
    %g = scf.execute_region -> tensor<1x16x16x16xf32> no_inline {
      %c = "graph.conv"(%x, %w, %b) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x16x16x16xf32>, tensor<16x16x3x3xf32>, tensor<16xf32>) -> tensor<1x16x16x16xf32> loc("conv0")
      %r = "graph.relu"(%c) : (tensor<1x16x16x16xf32>) -> tensor<1x16x16x16xf32> loc("relu0")
      scf.yield %r : tensor<1x16x16x16xf32>
    } {graph.fusion = "conv_epilogue"} loc("group0")
    %c2 = "graph.conv"(%y, %w2) {kernel_shape = array<i64: 3, 3>, pads = array<i64: 1, 1, 1, 1>} : (tensor<1x8x16x16xf32>, tensor<8x8x3x3xf32>) -> tensor<1x8x16x16xf32> loc("conv1")
    return %g, %c2 : tensor<1x16x16x16xf32>, tensor<1x8x16x16xf32>
  }
}

// RANGE: error: kiln-apply-tuning: {{.*}}apply-tuning-range.tune:1: record for workload 37458936eae89030: kiln-tile-and-vectorize rows=5 is out of range (kiln-tune tries 2, 3, 4, 6, 8 or the default)
// MISSING: error: kiln-apply-tuning: cannot read tuning log '{{.*}}.missing': No such file or directory
// NOLOG: error: kiln-apply-tuning: give the log: kiln-apply-tuning{log=PATH}

// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(kiln-gpu-merge-kernels)' | FileCheck %s

// Two outlined kernels, both named @k in their own modules, and a helper
// function outlined into both: one module remains, holding each kernel
// under its old module's name and the helper once; the launches follow.
// CHECK-LABEL: func.func @host
// CHECK: gpu.launch_func @mod_a::@mod_a blocks
// CHECK: gpu.launch_func @mod_a::@mod_b blocks
// CHECK: gpu.module @mod_a {
// CHECK-DAG: gpu.func @mod_a(%{{.*}}: memref<4xf32>) kernel
// CHECK-DAG: func.func @helper(
// CHECK-DAG: gpu.func @mod_b(%{{.*}}: memref<4xf32>) kernel
// CHECK-NOT: gpu.module
module attributes {gpu.container_module} {
  func.func @host(%m: memref<4xf32>) {
    %c1 = arith.constant 1 : index
    gpu.launch_func @mod_a::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    gpu.launch_func @mod_b::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%m : memref<4xf32>)
    return
  }
  gpu.module @mod_a {
    func.func @helper(%x: f32) -> f32 {
      return %x : f32
    }
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
  gpu.module @mod_b {
    func.func @helper(%x: f32) -> f32 {
      return %x : f32
    }
    gpu.func @k(%m: memref<4xf32>) kernel {
      gpu.return
    }
  }
}

// -----

// A single module, and a module with two kernels (not what outlining
// makes), are left as they are.
// CHECK-LABEL: gpu.module @only
// CHECK: gpu.func @k(
// CHECK-LABEL: gpu.module @two
// CHECK: gpu.func @k1(
// CHECK: gpu.func @k2(
// CHECK: gpu.module @three
module attributes {gpu.container_module} {
  gpu.module @only {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @two {
    gpu.func @k1() kernel {
      gpu.return
    }
    gpu.func @k2() kernel {
      gpu.return
    }
  }
  gpu.module @three {
    gpu.func @k() kernel {
      gpu.return
    }
  }
}

// -----

// Every workgroup buffer of a kernel is 16-byte aligned (ldmatrix reads
// 16-byte rows), in a lone module too; its private buffers and kernels
// without workgroup buffers are left as they are.
// CHECK-LABEL: gpu.module @tiles
// CHECK: gpu.func @k(%{{.*}}: memref<4xf32>) workgroup(%{{.*}} : memref<2x64x24xbf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}, %{{.*}} : memref<3xf16, #gpu.address_space<workgroup>> {llvm.align = 16 : i64}) private(%{{.*}} : memref<4xf32, #gpu.address_space<private>>) kernel
// CHECK: gpu.func @plain() kernel {
module attributes {gpu.container_module} {
  gpu.module @tiles {
    gpu.func @k(%m: memref<4xf32>) workgroup(%a: memref<2x64x24xbf16, #gpu.address_space<workgroup>>, %b: memref<3xf16, #gpu.address_space<workgroup>>) private(%p: memref<4xf32, #gpu.address_space<private>>) kernel {
      gpu.return
    }
    gpu.func @plain() kernel {
      gpu.return
    }
  }
}

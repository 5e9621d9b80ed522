// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-approximate-math))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-approximate-math{functions=erf}))' \
// RUN:   | FileCheck %s --check-prefix=ERFONLY
// RUN: sed -n '/^\/\/ BAD-FUNCTIONS/,/^\/\/ END-BAD-FUNCTIONS/p' %s > %t.bad.mlir
// RUN: kiln-opt %t.bad.mlir --pass-pipeline='builtin.module(func.func(kiln-approximate-math{functions=erf,log}))' --verify-diagnostics

// An f32 erf becomes the rational approximation x P(x^2) / Q(x^2) on x
// clamped to [-4, 4], in arith ops whose multiplies and adds may contract
// into FMAs.
// CHECK-LABEL: func.func @erf_scalar
// CHECK-NOT: math.erf
// CHECK: %[[LO:.*]] = arith.maximumf %arg0, %{{.*}} : f32
// CHECK: %[[X:.*]] = arith.minimumf %[[LO]], %{{.*}} : f32
// CHECK: %[[X2:.*]] = arith.mulf %[[X]], %[[X]] fastmath<contract> : f32
// CHECK: arith.constant -2.72614{{.*}} : f32
// CHECK: %[[P:.*]] = arith.mulf %[[X]], %{{.*}} fastmath<contract> : f32
// CHECK: arith.constant -1.45660{{.*}} : f32
// CHECK: %[[R:.*]] = arith.divf %[[P]], %{{.*}} : f32
// CHECK: return %[[R]]
func.func @erf_scalar(%x: f32) -> f32 {
  %0 = math.erf %x : f32
  return %0 : f32
}

// -----

// Vectors (after kiln-tile-and-vectorize) get splat constants; erf inside a
// linalg body is replaced too.
// CHECK-LABEL: func.func @erf_vector_and_body
// CHECK-NOT: math.erf
// CHECK: arith.constant dense<4.000000e+00> : vector<16xf32>
// CHECK: arith.divf {{.*}} : vector<16xf32>
// CHECK: linalg.generic
// CHECK: arith.divf {{.*}} : f32
// CHECK-NOT: math.erf
func.func @erf_vector_and_body(%v: vector<16xf32>, %t: tensor<8xf32>)
    -> (vector<16xf32>, tensor<8xf32>) {
  %0 = math.erf %v : vector<16xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>],
      iterator_types = ["parallel"]} outs(%t : tensor<8xf32>) {
  ^bb0(%o: f32):
    %e = math.erf %o : f32
    linalg.yield %e : f32
  } -> tensor<8xf32>
  return %0, %1 : vector<16xf32>, tensor<8xf32>
}

// -----

// Left to libm: f64 erf (the approximation is f32-accurate only), f16 erf
// (graph-to-linalg computes f16 in f32 anyway), erfc and other functions.
// CHECK-LABEL: func.func @untouched
// CHECK: math.erf %arg0 : f64
// CHECK: math.erf %arg1 : f16
// CHECK: math.erfc %arg2 : f32
// CHECK: math.log %arg2 : f32
// CHECK: math.exp %arg0 : f64
// CHECK-NOT: arith.divf
func.func @untouched(%d: f64, %h: f16, %f: f32) -> (f64, f16, f32, f32, f64) {
  %0 = math.erf %d : f64
  %1 = math.erf %h : f16
  %2 = math.erfc %f : f32
  %3 = math.log %f : f32
  %4 = math.exp %d : f64
  return %0, %1, %2, %3, %4 : f64, f16, f32, f32, f64
}

// -----

// An f32 exp becomes 2^n e^r: n = floor(x log2(e) + 1/2) on x clamped to
// [-87, 88.72], e^r a polynomial, 2^(n-1) built in the exponent bits
// (n + 126 shifted by 23), then +inf above the clamp, 0 below it and NaN
// kept.
// CHECK-LABEL: func.func @exp_vector
// CHECK-NOT: math.exp
// CHECK: %[[LO:.*]] = arith.maximumf %arg0, %{{.*}} : vector<8xf32>
// CHECK: %[[X:.*]] = arith.minimumf %[[LO]], %{{.*}} : vector<8xf32>
// CHECK: %[[N:.*]] = math.floor
// CHECK: %[[NI:.*]] = arith.fptosi %[[N]] : vector<8xf32> to vector<8xi32>
// CHECK: %[[B:.*]] = arith.addi %[[NI]], %{{.*}} : vector<8xi32>
// CHECK: %[[S:.*]] = arith.shli %[[B]], %{{.*}} : vector<8xi32>
// CHECK: arith.bitcast %[[S]] : vector<8xi32> to vector<8xf32>
// CHECK: arith.cmpf ogt, %arg0
// CHECK: arith.cmpf olt, %arg0
// CHECK: %[[NAN:.*]] = arith.cmpf uno, %arg0, %arg0
// CHECK: %[[R:.*]] = arith.select %[[NAN]], %arg0, %{{.*}} : vector<8xi1>, vector<8xf32>
// CHECK: return %[[R]]
// With functions=erf (the GPU pipeline's: exp and tanh have fast device
// functions) exp and tanh are left alone.
// ERFONLY-LABEL: func.func @exp_vector
// ERFONLY: math.exp %arg0 : vector<8xf32>
// ERFONLY-LABEL: func.func @tanh_scalar
// ERFONLY: math.tanh %arg0 : f32
func.func @exp_vector(%x: vector<8xf32>) -> vector<8xf32> {
  %0 = math.exp %x : vector<8xf32>
  return %0 : vector<8xf32>
}

// -----

// An f32 tanh: a polynomial below 0.625 in magnitude, else
// copysign(1 - 2 / (exp(2 min(|x|, 9)) + 1), x) with exp as above.
// CHECK-LABEL: func.func @tanh_scalar
// CHECK-NOT: math.tanh
// CHECK: %[[A:.*]] = math.absf %arg0 : f32
// CHECK: arith.bitcast
// CHECK: %[[BIG:.*]] = math.copysign %{{.*}}, %arg0 : f32
// CHECK: %[[SMALL:.*]] = arith.cmpf olt, %[[A]]
// CHECK: %[[R:.*]] = arith.select %[[SMALL]], %{{.*}}, %[[BIG]] : f32
// CHECK: return %[[R]]
func.func @tanh_scalar(%x: f32) -> f32 {
  %0 = math.tanh %x : f32
  return %0 : f32
}

// -----

// BAD-FUNCTIONS
// expected-error @+1 {{kiln-approximate-math: unknown function in 'erf,log' (functions: a comma-separated list of erf, exp, tanh)}}
func.func @bad_functions() {
  return
}
// END-BAD-FUNCTIONS

// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-approximate-math))' \
// RUN:   | FileCheck %s
// RUN: kiln-opt %s --split-input-file \
// RUN:   --pass-pipeline='builtin.module(func.func(kiln-approximate-math{exp-tanh=true}))' \
// RUN:   | FileCheck %s --check-prefix=EXPTANH

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
// CHECK: math.exp %arg2 : f32
// CHECK-NOT: arith.divf
func.func @untouched(%d: f64, %h: f16, %f: f32) -> (f64, f16, f32, f32) {
  %0 = math.erf %d : f64
  %1 = math.erf %h : f16
  %2 = math.erfc %f : f32
  %3 = math.exp %f : f32
  return %0, %1, %2, %3 : f64, f16, f32, f32
}

// -----

// With exp-tanh: f32 exp becomes 2^n e^r (n = round(x / ln 2), e^r a
// polynomial, 2^n from exponent bits as two factors), NaN selected back;
// f32 tanh becomes x P(x^2) / Q(x^2) on x clamped to +-7.9988, x itself
// below 4e-4; vectors alike. f64 stays with libm; without the option (the
// default, CHECK) both are left alone.
// EXPTANH-LABEL: func.func @exp_tanh
// EXPTANH-NOT: math.exp
// EXPTANH: arith.maximumf %arg0, %{{.*}} : f32
// EXPTANH: math.roundeven
// EXPTANH: arith.fptosi {{.*}} : f32 to i32
// EXPTANH: arith.shli
// EXPTANH: arith.bitcast {{.*}} : i32 to f32
// EXPTANH: arith.cmpf uno, %arg0, %arg0 : f32
// EXPTANH: arith.bitcast {{.*}} : vector<16xi32> to vector<16xf32>
// EXPTANH: arith.select {{.*}} : vector<16xi1>, vector<16xf32>
// EXPTANH: arith.constant 7.99881{{.*}} : f32
// EXPTANH: arith.divf {{.*}} : f32
// EXPTANH: math.absf %arg0 : f32
// EXPTANH: arith.cmpf olt
// EXPTANH: arith.divf {{.*}} : vector<16xf32>
// EXPTANH: math.exp %arg2 : f64
// EXPTANH: math.tanh %arg2 : f64
// EXPTANH-NOT: math.tanh {{.*}} : f32
// CHECK-LABEL: func.func @exp_tanh
// CHECK: math.exp %arg0 : f32
// CHECK: math.tanh %arg1 : vector<16xf32>
func.func @exp_tanh(%x: f32, %v: vector<16xf32>, %d: f64)
    -> (f32, vector<16xf32>, f32, vector<16xf32>, f64, f64) {
  %0 = math.exp %x : f32
  %1 = math.exp %v : vector<16xf32>
  %2 = math.tanh %x : f32
  %3 = math.tanh %v : vector<16xf32>
  %4 = math.exp %d : f64
  %5 = math.tanh %d : f64
  return %0, %1, %2, %3, %4, %5
      : f32, vector<16xf32>, f32, vector<16xf32>, f64, f64
}

// Split chunks of invalid IR in the style of upstream invalid.mlir tests:
// parse errors on the annotated line, @below, @-N, notes, unknown ops.

func.func @missing_equal() {
  affine.for %i 1 to 10 { // expected-error {{expected '='}}

// -----

func.func @bad_bound(%arg: index) {
  affine.for %i = 0 to 7 {
    %d = arith.addi %arg, %arg : index
    // expected-error@+1 {{operand cannot be used as a dimension id}}
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%d) {
    }
  }
  return
}

// -----

func.func @reuse() {
  // expected-error@+2 {{region entry argument '%i0' is already in use}}
  // expected-note@+1 {{previously referenced here}}
  affine.for %i0 = affine_map<(d0) -> (d0 floordiv 4)>(%i0) to 10 {
  }
}

// -----

func.func @below(%m: memref<?xf32>) {
  "test.region"() ({
    %idx = "test.value"() : () -> index
    // expected-error @below {{index must be a dimension or symbol identifier}}
    affine.load %m[%idx] : memref<?xf32>
    "test.end"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @above(%a: i32) {
  %c = arith.addi %a, %a : i64
  // expected-error@-1 {{use of value '%a' expects different type than prior uses: 'i64' vs 'i32'}}
  return
}

// -----

func.func @store_type(%m: memref<f32>) {
  %c0 = arith.constant 0 : i32
  // expected-error@+1 {{value to store must have the same type as memref element type}}
  "affine.store"(%c0, %m) <{map = affine_map<() -> ()>}> : (i32, memref<f32>) -> ()
  return
}

// -----

func.func @unknown_dialect() {
  // expected-error@+1 {{operation being parsed with an unregistered dialect}}
  "nope.op"() : () -> ()
  return
}


// Ops of unknown dialects are rejected without --allow-unregistered-dialect.
"test.unregistered"() : () -> () // expected-error {{operation being parsed with an unregistered dialect}}

// -----

func.func @dup() { // expected-note {{see existing symbol definition here}}
  return
}
// expected-error-re@+1 {{redefinition of symbol named '{{[a-z]+}}'}}
func.func @dup() {
  return
}

// -----

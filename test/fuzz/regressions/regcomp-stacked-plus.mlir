// Found by kiln-fuzz-verify-diagnostics: stacked repetitions made glibc's
// regcomp take exponential time (a hang).
func.func @f() {
  return // expected-error-re {{{{a++++++++++++++++++++++++++++++++++++++++}}}}
}

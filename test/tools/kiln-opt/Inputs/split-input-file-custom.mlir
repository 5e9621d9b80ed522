// Input of split-input-file.mlir, split with --split-input-file='// ====='.
func.func @a() {
// -----
  return
}
  // =====
func.func @b() {
  return
}

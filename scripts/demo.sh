#!/usr/bin/env bash
# Kiln's main job: set up and build, then compile a model ahead of time to a
# shared library with kiln-compile, run it with kiln-run (checked against
# PyTorch's output, then timed) and with the example program kiln-classify.
#
#   scripts/demo.sh                          the bundled model (below)
#   scripts/demo.sh MODEL.onnx INPUT.npy [LABELS.txt] [-- KILN-COMPILE-FLAGS]
#                                            your own model, one input
#
# The bundled model, examples/shapes/shapes_cnn.onnx (97 KB), is a small
# trained CNN that names the shape in a 32x32 image (circle, square,
# triangle, cross, ring, bar); scripts/make_demo_model.py made it, with the
# sample images and PyTorch's outputs beside it.
set -euo pipefail
cd "$(dirname "$0")/.."

model=examples/shapes/shapes_cnn.onnx
input=examples/shapes/triangle.npy
expected=examples/shapes/triangle.expected.npy
labels=examples/shapes/labels.txt
samples=(circle square triangle cross ring bar)
if [ $# -gt 0 ] && [ "$1" != -- ]; then
  [ $# -ge 2 ] || { echo "usage: $0 [MODEL.onnx INPUT.npy [LABELS.txt]] [-- FLAGS]" >&2; exit 2; }
  model=$1 input=$2 expected="" labels="" samples=()
  shift 2
  if [ $# -gt 0 ] && [ "$1" != -- ]; then labels=$1; shift; fi
fi
[ "${1:-}" = -- ] && shift
for f in "$model" "$input" ${labels:+"$labels"}; do
  [ -r "$f" ] || { echo "demo: error: $f: cannot read" >&2; exit 2; }
done

scripts/setup.sh
out=build/demo
mkdir -p "$out"
name=$(basename "$model" .onnx)
lib="$out/$name.so"

echo
echo "== kiln-compile $model -o $lib $*"
build/bin/kiln-compile "$model" -o "$lib" "$@"
echo "wrote $lib ($(stat -c %s "$lib") bytes)"

echo
echo "== kiln-run $lib: run, check, time"
check=()
[ -n "$expected" ] && check=(--expected "$expected" --rtol 1e-3 --atol 1e-5)
# kiln-run prints the check's own line (tolerances, largest difference).
build/bin/kiln-run "$lib" --input "$input" "${check[@]}" --print-output \
  --benchmark 200

echo
echo "== kiln-classify (examples/classify.c, the runtime's C API)"
if [ ${#samples[@]} -eq 0 ]; then
  build/bin/kiln-classify "$lib" "$input" ${labels:+--labels "$labels"}
fi
for s in "${samples[@]}"; do
  printf '%s.npy: ' "$s"
  build/bin/kiln-classify "$lib" "examples/shapes/$s.npy" --labels "$labels" \
    --top 1 | sed -n 2p | sed 's/^ *1\. //'
done

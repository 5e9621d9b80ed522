#!/usr/bin/env bash
# Ahead-of-time compilation figures: kiln-compile's wall time and peak
# memory to build each model's library (model.so), the library's size
# against the model's weight bytes, and the library's latency through the
# runtime (kiln-run --benchmark). See bench/README.md. Not a test: it
# prints figures and judges nothing (the outputs are checked against
# PyTorch's on the way, so a wrong library cannot report a time).
#
#   bench/compile.sh [-b BUILD_DIR] [-r ROUNDS] [-- KILN-COMPILE-FLAGS] [MODEL...]
#
# MODEL: shapes (the bundled examples/shapes/shapes_cnn.onnx), resnet18,
# mobilenet_v2, bert (scripts/export_models.py); default all four. Compile
# time is the best of ROUNDS (default 3) runs. Needs /usr/bin/python3 with
# python3-torch, python3-torchvision and python3-onnx for the exported
# models, and GNU time (/usr/bin/time).
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
rounds=3
flags=()
while [ $# -gt 0 ]; do
  case $1 in
    -b) build=$(cd "$2" && pwd); shift 2 ;;
    -r) rounds=$2; shift 2 ;;
    --) shift; while [ $# -gt 0 ] && [[ $1 == -* ]]; do flags+=("$1"); shift; done ;;
    *) break ;;
  esac
done
[ $# -gt 0 ] || set -- shapes resnet18 mobilenet_v2 bert
kc=$build/bin/kiln-compile
kr=$build/bin/kiln-run
py=/usr/bin/python3
[ -x "$kc" ] && [ -x "$kr" ] || { echo "compile: build first ($kc)" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "compile: needs GNU time" >&2; exit 1; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

exported=()
for m in "$@"; do [ "$m" = shapes ] || exported+=("$m"); done
[ ${#exported[@]} -eq 0 ] || "$py" "$src/scripts/export_models.py" --with-data "$tmp" "${exported[@]}"
cp "$src/examples/shapes/shapes_cnn.onnx" "$tmp/shapes.onnx"
cp "$src/examples/shapes/triangle.npy" "$tmp/shapes.input_0.npy"
cp "$src/examples/shapes/triangle.expected.npy" "$tmp/shapes.output_0.npy"

echo "kiln-compile ${flags[*]:-(defaults)}; compile: best of $rounds; latency: kiln-run --benchmark 50, median"
printf '%-14s %10s %10s %10s %10s %12s\n' model weights_MB so_MB compile_s \
  peak_MB latency_ms
for m in "$@"; do
  f=$tmp/$m.onnx
  weights=$("$py" "$src/bench/weight_bytes.py" "$f")
  best="" peak=""
  for _ in $(seq "$rounds"); do
    if ! /usr/bin/time -f '%e %M' -o "$tmp/time" "$kc" -q "${flags[@]}" \
        "$f" -o "$tmp/$m.so" 2>"$tmp/err"; then
      echo "compile: kiln-compile failed on $m:" >&2
      head -20 "$tmp/err" >&2
      exit 1
    fi
    read -r s kb <"$tmp/time"
    best=$(awk -v a="$best" -v b="$s" 'BEGIN { print (a == "" || b < a) ? b : a }')
    peak=$kb
  done
  inputs=()
  for k in 0 1 2 3; do
    [ -f "$tmp/$m.input_$k.npy" ] && inputs+=(--input "$tmp/$m.input_$k.npy")
  done
  "$kr" "$tmp/$m.so" "${inputs[@]}" --expected "$tmp/$m.output_0.npy" \
    --rtol 1e-3 --atol 1e-5 --benchmark 50 >"$tmp/run" 2>&1 ||
    { echo "compile: $m.so does not match PyTorch:" >&2; cat "$tmp/run" >&2; exit 1; }
  latency=$(sed -n 's/.*median \([0-9.]*\) ms.*/\1/p' "$tmp/run")
  awk -v m="$m" -v w="$weights" -v so="$(stat -c %s "$tmp/$m.so")" \
      -v s="$best" -v kb="$peak" -v l="$latency" 'BEGIN {
    printf "%-14s %10.1f %10.1f %10.2f %10.0f %12s\n", m, w / 1048576,
      so / 1048576, s, kb / 1024, l }'
done

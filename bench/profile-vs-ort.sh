#!/bin/sh
# Kiln's per-op profile beside ONNX Runtime's, record by record:
#
#   bench/profile-vs-ort.sh MODEL.onnx [THREADS] [TOP]
#
# Builds MODEL with `kiln-compile --profile`, times it with
# `kiln-run --profile` and ONNX Runtime with its node profiler
# (bench/ort_bench.js --profile), on the inputs MODEL.input_*.npy next to
# the model (what bench/models.py and bench/zoo.py write), and prints
# bench/profile_compare.py's table: the records where Kiln loses the most
# time to ONNX Runtime first. THREADS defaults to 1, TOP (rows) to 25.
# Kiln's tools come from $KILN_BIN (default build/bin); the work files go
# to $TMPDIR. ONNX Runtime as bench/ort_bench.js finds it (bench/run.sh
# installs it).
set -eu
[ $# -ge 1 ] || { echo "usage: $0 MODEL.onnx [THREADS] [TOP]" >&2; exit 2; }
model=$1 threads=${2:-1} top=${3:-25}
here=$(cd "$(dirname "$0")" && pwd)
bin=${KILN_BIN:-$here/../build/bin}
base=${model%.onnx}
set -- "$base".input_*.npy
[ -f "$1" ] || { echo "$0: no inputs $base.input_*.npy next to $model" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/kiln-profile.XXXXXX")
trap 'rm -rf "$work"' EXIT
"$bin/kiln-compile" "$model" --profile -o "$work/model.so"
inputs=""
for f in "$@"; do inputs="$inputs --input $f"; done
# shellcheck disable=SC2086 # one word per flag and path
"$bin/kiln-run" "$work/model.so" $inputs --threads "$threads" --profile \
  --benchmark 20 --profile-json "$work/kiln.json" >/dev/null
node "$here/ort_bench.js" "$model" --threads "$threads" --profile "$work/ort" \
  "$@" >/dev/null
/usr/bin/python3 "$here/profile_compare.py" "$work/kiln.json" "$work"/ort_*.json \
  --top "$top"
